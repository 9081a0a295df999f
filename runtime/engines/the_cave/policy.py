"""A simple heuristic for random agents: explore, grab tokens, go home in time.

It only narrows the legal options (`suggest`); the random agent picks among what is left.
Which options exist is the engine's business: every action, tile action, equipment action and
entry option that content defines is weighed the same way, by a one-step lookahead (`gain`:
apply the option to a copy of the game and score the team's tokens and its logistics), never
by its name (where only a token or a tile counts, an option whose effects' code can give
neither is not tried: trials.may_gain_or_grow). Where a team can walk is walking.py's business.
"""
from __future__ import annotations

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave.equipment import WORN, item_of
from tomecraft.runtime.engines.the_cave.state import BACKPACK_SLOTS, TURN_AP, UPKEEP, edge
from tomecraft.runtime.engines.the_cave.trials import (copy_team, may_gain_or_grow, may_gain_token,
                                                     trial_copy)
from tomecraft.runtime.engines.the_cave.walking import (
    DESPERATE, FAR, frontier, graph_for, policy_cache, road_toward, toward, walkable,
)
from tomecraft.runtime.engines.the_cave.walks import keep_walk, planned_moves
from tomecraft.runtime.engines.the_cave.worth import MARGIN, kit, logistics, value
from tomecraft.runtime.lookahead import FirstOption
from tomecraft.runtime.usage import quiet

# the engine's decisions inside an action that the player answers by evaluation
SUB_DECISIONS = ("camp_exchange", "make_room")


# --- trying an option out ----------------------------------------------------------------

class _TrialAgent(FirstOption):
    """Answers a trial's decisions with the first option, but a camp exchange or making room
    in the backpack as the player would (`suggest`), so a trial shows what the option is for."""

    def choose(self, key, options, view=None):
        if key in SUB_DECISIONS and view is not None:
            return suggest(view.engine, view.team, key, list(options))[0]
        return options[0]


_TRIAL_AGENT = _TrialAgent()


def _trial(engine, team, at=None, entering=None):
    """A throwaway copy of the game for trying an option of `team` out (trials.py), its
    decisions answered by `_TrialAgent`."""
    return trial_copy(engine, team, _TRIAL_AGENT, at, entering)


def _tried(engine, team, option, in_place: bool = False):
    """(trial engine, trial team) after `option`, or None if it fails. `in_place`: `engine`
    is a trial copy that nothing reads afterwards, with its own copy of every tile the option
    can change (see `_trial`): the option is applied to it rather than to another copy."""
    if in_place:
        trial, me = engine, team
    else:
        trial, me = _trial(engine, team,
                           entering=tuple(option["to"]) if option["do"] == "move" else None)
    try:
        trial.apply(me, option)     # (a trial is not a use: suggest runs it in usage.quiet)
    except EffectError:
        return None
    return trial, me


def gain(engine, team, option, follow: bool = True, in_place: bool = False,
         before: float | None = None) -> float:
    """The team's token value after `option` minus before, on a copy of the game (or on
    `engine` itself, `in_place`: see `_tried`); after a move, plus the best gain of one of the
    entered tile's own actions (a photo needs entering first; the game's actions, possible
    anywhere, are weighed where the team stands). An option that fails when applied is
    worth -1. (`before`: `value(engine, team)`, if the caller has it.)"""
    if before is None:
        before = value(engine, team)
    tried = _tried(engine, team, option, in_place)
    if tried is None:
        return -1.0
    trial, me = tried
    after = value(trial, me)
    won = after - before
    if follow and option["do"] == "move" and not me.done:
        here = trial.tile_action_ids(trial.state.cells[me.pos].kind)
        if here:
            won += max(_gains(trial, me, trial.act_options(me, only=here), False, after) + [0.0])
    return won


def _gains(trial, me, options: list, follow: bool = True, before: float | None = None) -> list[float]:
    """`gain` of each option on the throwaway `trial`, which owns the tiles the options can
    change: the last one is tried on the trial itself (one copy of the game fewer, and the
    team's value before is the same for every option)."""
    if not options:
        return []
    if before is None:
        before = value(trial, me)
    last = len(options) - 1
    return [gain(trial, me, o, follow, i == last, before) for i, o in enumerate(options)]


def _alike(engine, team, option):
    """What a move's gain depends on, so that moves alike are tried out once: the tile
    entered (its kind, depth, tokens and whether it has unexplored exits), the way in and
    whether a rope is already there. Any other option is its own."""
    if option["do"] != "move":
        return repr(option)
    dst = engine.state.cells[tuple(option["to"])]
    roped = edge(team.pos, dst.pos) in engine.state.ropes
    return ("move", dst.kind.id, dst.depth, tuple(sorted(dst.tokens)), bool(engine.unexplored(dst)),
            option["via"], roped)


def _best(engine, team, options: list) -> list:
    """The options with the highest positive gain (all of them tie-broken by the agent)."""
    known: dict = {}
    scored = []
    before = value(engine, team)
    for o in options:
        if not may_gain_or_grow(engine, team, o):
            scored.append((0.0, o))     # (only a positive gain counts: a move that can show
            continue                    # no token, nor its tile's actions, is not tried)
        alike = _alike(engine, team, o)
        if alike not in known:
            known[alike] = gain(engine, team, o, before=before)
        scored.append((known[alike], o))
    top = max((g for g, _ in scored), default=0.0)
    return [o for g, o in scored if g > 0 and g == top]


def _cheapest(engine, team, moves: list) -> list:
    """Among moves, those that leave the most uses of equipment in the backpack (walking
    before a raft, a raft before oxygen, an existing rope before one's own)."""
    if len(moves) == 1:
        return moves        # what trying it out would return, whatever it showed
    left = []
    for o in moves:
        tried = _tried(engine, team, o)
        left.append(-1 if tried is None else kit(*tried))
    top = max(left, default=-1)
    return [o for o, n in zip(moves, left) if n == top and n >= 0] or moves


def _collectable(engine, team, cell, carried: frozenset) -> bool:
    """Could the team gain something on this tile with what it carries: by an action there,
    or by entering it from a neighbour (each tried out on a copy, with a full turn of AP)?
    Cached per tile, tokens on it and the kinds of items carried (`carried`, whichever team)."""
    if not cell.tokens or cell.pos == team.pos:
        return False
    cache = policy_cache(engine)
    key = (cell.pos, tuple(cell.tokens), carried)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _gain_at(engine, team, cell) > 0
    return found


def _gain_at(engine, team, cell) -> float:
    """The best gain on `cell`: by its actions, or entering it from a neighbour (neighbours
    alike, same kind, depth and rope on the edge, are tried once)."""
    best = 0.0
    starts, alike = [cell.pos], set()
    for _, n in engine.neighbours(cell.pos):
        way = (n.kind.id, n.depth, edge(n.pos, cell.pos) in engine.state.ropes)
        if way not in alike:
            alike.add(way)
            starts.append(n.pos)
    for start in starts:
        options = _options_at(engine, team, cell, start)
        if not options:
            continue        # (no trial copy: nothing to try from there)
        trial, me = _trial(engine, team, at=start, entering=cell.pos)
        best = max([best] + _gains(trial, me, options))
        if best > 0:
            break
    return best


def _options_at(engine, team, cell, start) -> list:
    """What the team could try on `cell` from `start` with a full turn of AP: the tile's own
    actions (the others work anywhere), or the ordinary moves into it, as a trial copy of
    the game with the team moved there would list them. Listed on the game itself, for a
    copy of the team: availability checks only read (a rope tile's way out is tried and
    undone in place, as for the moves the engine offers)."""
    if start == cell.pos:
        only = engine.tile_action_ids(cell.kind)
        if not only:
            return []
    me = copy_team(team)
    me.pos, me.ap, me.done, me.forced = start, TURN_AP, False, False
    if start == cell.pos:
        return engine.act_options(me, only=only)
    return [o for o in engine.move_options(me, into=cell.pos, desperate=False)
            if o["via"] != DESPERATE]


def going_home(engine, team) -> bool:
    """Whether the team heads for the base: the end is triggered, or its consumables would
    barely last the way back (until it restocks: at the base, or from its camp), or nothing
    is left to do with what it carries (`_explore`)."""
    if team.pos == engine.state.base:
        team.homing = False
    if engine.state.end_triggered:
        return True
    dist = engine.base_distance().get(team.pos, 0)
    short = engine.items.uses_left(team.backpack, UPKEEP) < (dist + 3) // 4
    if short:
        team.homing = UPKEEP
    elif team.homing == UPKEEP:
        team.homing = False          # restocked on the way (from its camp)
    return bool(team.homing)


def _variety(loadout: dict) -> int:
    # (item_of(key) written out: key.partition(WORN)[0])
    return len({item.partition(WORN)[0] for item, n in loadout.get("backpack", {}).items() if n})


class _Weighed:
    """What an action does, tried out on a copy: the token value it gains, the change in the
    team's logistics (`logistics`), whether it restocks the backpack (more uses or more slots
    filled) and whether it adds a tile to the cave."""
    __slots__ = ("option", "tokens", "supply", "restocks", "grows")

    def __init__(self, option, tokens=-1.0, supply=float("-inf"), restocks=False, grows=False):
        self.option, self.tokens, self.supply = option, tokens, supply
        self.restocks, self.grows = restocks, grows


def _weigh(engine, team, options: list, restocking: bool = False,
           supplying: bool = True) -> list[_Weighed]:
    """Every action option tried out on a copy of the game. Whatever its id, an option weighs
    what it does: a pack's copy of an action weighs what the original weighs, and the agent's
    seeded tie-break picks among them. Whether it restocks is asked only if `restocking`,
    the change in logistics only if `supplying` (else `supply` stays -inf; then only a token
    or a tile counts, and an option whose effect can give neither is not tried:
    trials.may_gain_or_grow)."""
    if not options:
        return []           # (nothing to weigh against the team as it is)
    dist = engine.base_distance().get(team.pos, 0)    # an action does not move the team
    before = (value(engine, team), logistics(engine, team, dist) if supplying else 0.0,
              kit(engine, team) if restocking else 0,
              engine.slots_used(team) if restocking else 0, len(engine.state.cells))
    grows = policy_cache(engine).setdefault("grows", {})
    out = []
    for o in options:
        if not (supplying or restocking):       # (only a token or a tile counts here)
            if not may_gain_or_grow(engine, team, o):
                out.append(_Weighed(o, 0.0))                # (it can give neither)
                continue
            if grows.get(tuple(o.items())) and not may_gain_token(engine, team, o):
                out.append(_Weighed(o, 0.0, grows=True))    # (a discovery, tried once)
                continue
        tried = _tried(engine, team, o)
        if tried is None:
            out.append(_Weighed(o))
            continue
        trial, me = tried
        tokens = value(trial, me) - before[0]
        supply = logistics(trial, me, dist) - before[1] if supplying else float("-inf")
        restocks = restocking and (kit(trial, me) > before[2] or trial.slots_used(me) > before[3])
        grows[tuple(o.items())] = grew = len(trial.state.cells) > before[4]
        out.append(_Weighed(o, tokens, supply, restocks, grew))
    return out


def _growing(engine, team, options: list) -> list:
    """The options that add a tile to the cave, as trying each out showed (remembered per
    option, by its fields, for the game: whether an action adds a tile is what its effect
    does)."""
    grows = policy_cache(engine).setdefault("grows", {})
    unknown = [o for o in options if tuple(o.items()) not in grows]
    if unknown:
        _weigh(engine, team, unknown, supplying=False)
    return [o for o in options if grows.get(tuple(o.items()))]


def _supply_may_change(engine, team) -> bool:
    """Whether an action could raise `logistics` away from the base: the team stands on its
    emptied camp, or is short of consumables while its camp holds some (packed, or set where
    it stands), or its camp was never packed. (Otherwise its actions are weighed for the
    tokens they gain only.)"""
    if team.camp == "beside":
        return True
    on_camp = team.camp == "set" and team.camp_pos == team.pos
    stocked = engine.items.uses_left(team.camp_items, UPKEEP) > 0
    if on_camp and not stocked:
        return True                 # packing an emptied camp makes it serve again
    if not stocked or not (on_camp or team.camp == "packed"):
        return False
    dist = engine.base_distance().get(team.pos, 0)
    return engine.items.uses_left(team.backpack, UPKEEP) < (dist + 3) // 4 + MARGIN


def _top(weighed: list, field: str, keep=lambda w: True) -> list:
    """The options with the highest positive `field`, among those `keep` accepts."""
    scored = [(getattr(w, field), w.option) for w in weighed if keep(w)]
    top = max((g for g, _ in scored), default=0.0)
    return [o for g, o in scored if g > 0 and g == top]


def _best_swap(engine, team, options: list) -> list:
    """A camp exchange: the split that leaves the most consumable uses in the backpack (the
    camp is there to lengthen the trip), then the most kinds of equipment."""
    def carried(o):
        bag = o.get("backpack", {})     # (uses_left reads a bag with get: a dict serves)
        return engine.items.uses_left(bag, UPKEEP), _variety(o)
    scored = [(carried(o), o) for o in options]
    most = max(c for c, _ in scored)
    return [o for c, o in scored if c == most]


def _make_room(engine, team, options: list) -> list:
    """Making room for a packed camp: move a token into the camp rather than discard it; move
    or discard what is least missed: not a consumable, not an item a team owns only so many
    of (one discarded is gone for good, L291-292), the item carried most of."""
    def cost(o):
        key = o.get("to_camp") or o.get("discard")
        item = item_of(key)
        return ("discard" in o, item in engine.limits, item == UPKEEP,
                -engine.items.count(team.backpack, item))
    costs = [cost(o) for o in options]
    least = min(costs)
    return [o for o, c in zip(options, costs) if c == least]


def suggest(engine, team, key: str, options: list) -> list:
    if key == "loadout":
        # the setup loadouts that carry the most kinds of equipment, so that whatever the
        # content's tiles ask for is at hand
        most = max(_variety(o) for o in options)
        return [o for o in options if _variety(o) == most]
    if key == "camp_exchange":
        return _best_swap(engine, team, options)
    if key == "make_room":
        return _make_room(engine, team, options)
    if key != "action" or len(options) == 1:
        return options
    # every effect run from here on is a trial on a copy of the game, not a use (`sim
    # --usage`): one quiet block for the whole decision
    with quiet():
        return _suggest_action(engine, team, options)


def _suggest_action(engine, team, options: list) -> list:
    at_base = team.pos == engine.state.base
    # the options sorted out in one pass, each list in the options' order: the ordinary moves,
    # the 5-AP moves, ending the turn, and the game's and tiles' actions and the equipment's
    # own (each tried out on a copy, when what they do matters)
    moves, desperate, end, acts = [], [], [], []
    for o in options:
        do = o["do"]
        if do == "move":
            (desperate if o["via"] == DESPERATE else moves).append(o)
        elif do == "end":
            end.append(o)
        elif do in ("act", "use"):
            acts.append(o)
    weighed = None
    base_dist = engine.base_distance()
    here = base_dist.get(team.pos, FAR)
    if at_base or _supply_may_change(engine, team):
        weighed = _weigh(engine, team, acts, restocking=at_base)
    if at_base:
        if engine.state.end_triggered:
            return _top(weighed, "supply", lambda w: w.tokens >= 0) or end
        camp = _top(weighed, "supply", lambda w: w.tokens >= 0 and not w.restocks)
        if camp:
            return camp
        if engine.items.uses_left(team.backpack, UPKEEP) < 3 \
                or engine.slots_used(team) < BACKPACK_SLOTS:
            restock = [w.option for w in weighed if w.restocks and w.tokens >= 0]
            if restock:
                return restock
    elif weighed is not None:
        # setting up or packing the camp, exchanging with it: when the team's supplies say so
        supply = _top(weighed, "supply", lambda w: w.tokens >= 0)
        if supply:
            return supply
    if going_home(engine, team) and not at_base:
        if not engine.state.end_triggered:
            grows = _growing(engine, team, acts)
            if grows:
                return grows     # one draw on the way keeps the cave growing
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), FAR) < here]
        if closer:
            return _cheapest(engine, team, closer)
        if team.forced or engine.state.end_triggered:
            closer = [o for o in desperate if base_dist.get(tuple(o["to"]), FAR) < here]
            if closer and team.ap == TURN_AP:
                return closer
        return end
    if team.forced:
        return desperate or end
    if weighed is None:     # (not at the base: what an action gains in tokens, whether it grows)
        weighed = _weigh(engine, team, acts, supplying=False)
    token_acts = _top(weighed, "tokens")
    if token_acts:
        return token_acts
    grows = [w.option for w in weighed if w.grows]
    if grows:
        return grows
    rich = _best(engine, team, moves)
    if rich:
        return rich
    restock = [w.option for w in weighed if w.restocks and w.tokens >= 0]
    return _explore(engine, team, moves, desperate, end, restock, at_base, here, base_dist)


def _found_without_search(engine, team, moves: list, end: list, targets: set, tokens: list) -> list:
    """What `_explore`'s search comes to, where it can be told without it (else []): the
    ordinary moves onto a target (a tile with an unexplored exit, or tokens worth taking);
    from a tile beside none, those onto a tile beside one; beside one with part of the AP
    spent, `end`. (Its distances count a target's neighbours one step away, whether or not
    the team can cross from them, so these are the nearest, and beside a target no step is
    nearer; no 5-AP move is weighed but at a turn's start, none from a tile beside no target
    onto one. A token tile a move enters, or enters the side of, is one the team can walk
    to.) The walk is kept as `_explore` keeps it, its distances searched only if a later
    step asks (walks.keep_walk), toward every token tile worth taking: one the team cannot
    walk to (which `_explore` leaves out) changes no distance from a tile it can walk to."""
    aimed = frozenset(targets.union(tokens).difference([team.pos]))
    onto = [o for o in moves if tuple(o["to"]) in aimed]
    if not onto:
        if _beside(engine, team.pos, aimed):
            return end if team.ap < TURN_AP else []
        onto = [o for o in moves if _beside(engine, tuple(o["to"]), aimed)]
    if onto:
        keep_walk(engine, team, aimed, None)
    return onto


def _beside(engine, pos, tiles: frozenset) -> bool:
    """Whether a tile joined to `pos` by a road is one of `tiles`."""
    return any(n.pos in tiles for _, n in engine.neighbours(pos))


def _explore(engine, team, moves, desperate, end, restock, at_base, here, base_dist) -> list:
    """Head for the nearest tile with an unexplored exit, or a token the team can take (a
    token counts only where the team can walk: a desperate move gains no token, L230). A
    walk planned at an earlier step goes on while nothing it read has changed (walks.py)."""
    if planned := planned_moves(engine, team, moves, desperate, end):
        return planned
    reach = None        # (searched only if a 5-AP move is weighed: often none is)
    cells = engine.state.cells
    targets = set(frontier(engine))
    carried = frozenset(item_of(k) for k, n in team.backpack.items() if n > 0)
    tokens = [p for p, c in cells.items() if c.tokens and _collectable(engine, team, c, carried)]
    if found := _found_without_search(engine, team, moves, end, targets, tokens):
        return found
    graph = graph_for(engine, team)
    if tokens and desperate and team.ap == TURN_AP:     # (the 5-AP moves weighed below)
        reach = graph.reach(team.pos)
        targets.update(p for p in tokens if walkable(engine, reach, p))
    else:       # (a token tile the team cannot walk to changes no distance from one it can)
        targets.update(tokens)
    targets_all = frozenset(targets)
    targets.discard(team.pos)
    targets = frozenset(targets)
    if targets and desperate and team.ap == TURN_AP:
        normal = {tuple(o["to"]) for o in moves}
        jump = [o for o in desperate if tuple(o["to"]) in targets and tuple(o["to"]) not in normal]
        if reach is None:
            reach = graph.reach(team.pos)
        near = [p for p in targets if reach.get(p, FAR) <= 3]
        if jump and not near:
            return jump
    if targets and moves:
        dist = graph.toward(engine, targets)
        best = toward(dist, team.pos, moves)
        if best:
            keep_walk(engine, team, targets, dist)
            return best
    if targets and desperate and team.ap == TURN_AP:
        roads = road_toward(engine, targets)
        # one 5-AP step a turn is worth it only onto or beside the target, else the team
        # crawls toward a tile it cannot use for ever (re-equipping is better)
        best = [o for o in toward(roads, team.pos, desperate) if roads.get(tuple(o["to"]), FAR) <= 1]
        if best:
            return best
    # nothing worth doing from here with this equipment: go back and re-equip
    if team.ap < TURN_AP or (team.pos in targets_all and not at_base):
        return end
    if not at_base:
        team.homing = True
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), FAR) < here]
        if closer:
            return closer
        return end
    if restock:
        return restock
    return moves or end
