"""A simple heuristic for random agents: explore, grab tokens, go home in time.

It only narrows the legal options (`suggest`); the random agent picks among what is left.
Which options exist is the engine's business: every action, tile action and entry option
that content defines is weighed the same way, by a one-step lookahead (`gain`: apply the
option to a copy of the game and score the team's tokens), never by its name.
"""
from __future__ import annotations

import copy
from collections import Counter, deque

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave.handlers import Queries, Verbs
from tomecraft.runtime.lookahead import FirstOption
from tomecraft.runtime.usage import quiet

FULL_AP = 5


def _trial(engine, team):
    """A throwaway engine on a copy of the state, for trying an option out. Only the cells
    an option of `team` can touch (its tile and the neighbours) are copied; new tiles that a
    trial places go into the copy's own grid."""
    state = engine.state
    cells = dict(state.cells)
    for pos in [team.pos] + [c.pos for _, c in engine.neighbours(team.pos)]:
        cells[pos] = cell = copy.copy(cells[pos])
        cell.tokens = list(cell.tokens)
    teams = [_copy_team(t) for t in state.teams]
    trial = copy.copy(engine)
    trial.state = new = copy.copy(state)
    new.cells, new.teams, new.stacks = cells, teams, [list(s) for s in state.stacks]
    new.ropes, new.discarded, new.log = dict(state.ropes), list(state.discarded), []
    new.stats, new.turn_log = Counter(), []
    trial.agents = [FirstOption()] * len(teams)
    trial.verbs, trial.queries = Verbs(trial), Queries(trial)
    trial.log_enabled, trial._base_dist = False, None
    trial.policy_cache = {}
    return trial, teams[team.seat]


def _copy_team(team):
    out = copy.copy(team)
    out.backpack, out.camp_items = Counter(team.backpack), Counter(team.camp_items)
    out.tokens, out.depth_tokens, out.lost = Counter(team.tokens), set(team.depth_tokens), Counter(team.lost)
    return out


def value(engine, team) -> float:
    """What a team's tokens are worth: their points, plus a share of a majority bonus for
    each token of a scoring category."""
    tokens = engine.data.kinds["token"]
    total = 0.0
    for key, n in team.tokens.items():
        token = tokens.get(key)
        if token is not None:
            total += n * ((token.points or 0) + (0.5 if token.category else 0))
    return total


def gain(engine, team, option, follow: bool = True) -> float:
    """The team's token value after `option` minus before, on a copy of the game; after a
    move, plus the best gain of one of the entered tile's own actions (a photo needs entering
    first; the game's actions, possible anywhere, are weighed where the team stands).
    An option that fails when applied is worth -1."""
    trial, me = _trial(engine, team)
    before = value(trial, me)
    with quiet():
        try:
            trial.apply(me, option)
        except EffectError:
            return -1.0
        won = value(trial, me) - before
        if follow and option["do"] == "move" and not me.done:
            here = {a.id for a in trial.state.cells[me.pos].kind.actions or ()}
            won += max([gain(trial, me, o, False) for o in trial.act_options(me)
                        if o.get("id") in here] + [0.0])
    return won


def _best(engine, team, options: list) -> list:
    """The options with the highest positive gain (all of them tie-broken by the agent)."""
    scored = [(gain(engine, team, o), o) for o in options]
    top = max((g for g, _ in scored), default=0.0)
    return [o for g, o in scored if g > 0 and g == top]


def _passable(engine, team, src, dst) -> bool:
    """Roughly: can this team cross src -> dst on some turn with what it carries?"""
    if dst.kind.id == "water" and not (engine.items.count(team.backpack, "oxygen") or team.backpack["raft"]):
        return False
    rope_edge = (dst.kind.rope_edges or src.kind.rope_edges) and src.depth != dst.depth
    if not rope_edge or frozenset((src.pos, dst.pos)) in engine.state.ropes:
        return True
    levels = abs(src.depth - dst.depth) // 25
    return levels <= 4 and levels <= team.backpack["rope"]


def _distances(engine, team, start, passable: bool = True) -> dict:
    """Steps from `start` to every tile reachable by road (and crossable if `passable`)."""
    cells = engine.state.cells
    dist = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for _, other in engine.neighbours(pos):
            if other.pos not in dist and (not passable or _passable(engine, team, cells[pos], other)):
                dist[other.pos] = dist[pos] + 1
                queue.append(other.pos)
    return dist


def _collectable(engine, team, cell) -> bool:
    """Could the team gain something on this tile with what it carries: by an action there,
    or by entering it from a neighbour (each tried out on a copy, with a full turn of AP)?
    Cached per tile, tokens on it and the kinds of items carried."""
    if not cell.tokens or cell.pos == team.pos:
        return False
    cache = engine.__dict__.setdefault("policy_cache", {})
    key = (team.seat, cell.pos, tuple(cell.tokens), frozenset(+team.backpack), team.camp)
    if key not in cache:
        cache[key] = _gain_at(engine, team, cell) > 0
    return cache[key]


def _gain_at(engine, team, cell) -> float:
    best = 0.0
    starts = [cell.pos] + [c.pos for _, c in engine.neighbours(cell.pos)]
    for start in starts:
        trial, me = _trial(engine, team)
        me.pos, me.ap, me.done, me.forced = start, FULL_AP, False, False
        trial, me = _trial(trial, me)       # copy the cells around the new position too
        with quiet():
            if start == cell.pos:
                options = trial.act_options(me)
            else:
                options = [o for o in trial.move_options(me)
                           if tuple(o["to"]) == cell.pos and o["via"] != "desperate_move"]
            best = max([best] + [gain(trial, me, o) for o in options])
        if best > 0:
            break
    return best


def _walkable(engine, reach: dict, pos) -> bool:
    """The tile or one of its neighbours is reachable by the team's ordinary moves."""
    return pos in reach or any(n.pos in reach for _, n in engine.neighbours(pos))


def _nearest(engine, dist: dict, targets) -> int:
    """Steps to the nearest target; a target whose last edge is impassable counts via a
    neighbour plus one step (the 5-AP move can always make that step, L230)."""
    best = 99
    for p in targets:
        if p in dist:
            best = min(best, dist[p])
        else:
            for _, n in engine.neighbours(p):
                if n.pos in dist:
                    best = min(best, dist[n.pos] + 1)
    return best


def _toward(engine, team, moves, targets, passable=True) -> list:
    """The moves that bring the team strictly closer to the nearest target."""
    best, best_d = [], _nearest(engine, _distances(engine, team, team.pos, passable), targets)
    for o in moves:
        d = _nearest(engine, _distances(engine, team, tuple(o["to"]), passable), targets)
        if d < best_d:
            best, best_d = [o], d
        elif d == best_d and best:
            best.append(o)
    return best


def going_home(engine, team) -> bool:
    if team.pos == engine.state.base:
        team.homing = False
    if engine.state.end_triggered:
        return True
    dist = engine.base_distance().get(team.pos, 0)
    if team.backpack["consumable"] < (dist + 3) // 4:
        team.homing = True
    return team.homing


def _cheapest(moves: list) -> list:
    """Among moves, prefer not to spend equipment (raft over oxygen, walk over rope)."""
    plain = [o for o in moves if o["via"] not in ("oxygen", "rope") and not o["via"].startswith("rope+")]
    return plain or moves


def _variety(loadout: dict) -> int:
    kinds = {item.partition("@")[0] for item, n in loadout.get("backpack", {}).items() if n}
    return len(kinds)


def suggest(engine, team, key: str, options: list) -> list:
    if key == "loadout":
        # the setup loadouts that carry the most kinds of equipment, so that whatever the
        # content's tiles ask for is at hand
        most = max(_variety(o) for o in options)
        return [o for o in options if _variety(o) == most]
    if key == "re_equip":
        return options
    if key != "action":
        return options
    at_base = team.pos == engine.state.base
    moves = [o for o in options if o["do"] == "move" and o["via"] != "desperate_move"]
    desperate = [o for o in options if o["do"] == "move" and o["via"] == "desperate_move"]
    acts = {o["id"]: o for o in options if o["do"] == "act"}
    end = [o for o in options if o["do"] == "end"]
    base_dist = engine.base_distance()
    here = base_dist.get(team.pos, 99)
    if at_base:
        if engine.state.end_triggered:
            return end
        if "re_equip" in acts and (team.backpack["consumable"] < 3 or engine.items.count(team.backpack, "rope") == 0):
            return [acts["re_equip"]]
    if going_home(engine, team) and not at_base:
        if "discover" in acts and not engine.state.end_triggered:
            return [acts["discover"]]     # one draw on the way keeps the cave growing
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), 99) < here]
        if closer:
            return _cheapest(closer)
        if team.forced or engine.state.end_triggered:
            closer = [o for o in desperate if base_dist.get(tuple(o["to"]), 99) < here]
            if closer and team.ap == 5:
                return closer
        return end
    if team.forced:
        return desperate or end
    uses = [o for o in options if o["do"] == "use"]     # equipment's own actions
    token_acts = _best(engine, team, list(acts.values()) + uses)
    if token_acts:
        return token_acts
    if "discover" in acts:
        return [acts["discover"]]
    cells = engine.state.cells
    rich = _best(engine, team, moves)
    if rich:
        return rich
    # head for the nearest tile with an unexplored exit, or a token the team can take
    # a token counts only where the team can walk (a desperate move gains no token, L230)
    reach = _distances(engine, team, team.pos)
    targets = {p for p, c in cells.items()
               if (c.kind.discover_from and engine.unexplored(c))
               or (_walkable(engine, reach, p) and _collectable(engine, team, c))}
    targets_all = set(targets)
    targets.discard(team.pos)
    if targets and desperate and team.ap == 5:
        normal = {tuple(o["to"]) for o in moves}
        jump = [o for o in desperate if tuple(o["to"]) in targets and tuple(o["to"]) not in normal]
        reach = _distances(engine, team, team.pos)
        near = [p for p in targets if reach.get(p, 99) <= 3]
        if jump and not near:
            return jump
    if targets and moves:
        best = _toward(engine, team, moves, targets)
        if best:
            return best
    if targets and desperate and team.ap == 5:
        best = _toward(engine, team, desperate, targets, passable=False)
        # one 5-AP step a turn is worth it only onto or beside the target, else the team
        # crawls toward a tile it cannot use for ever (re-equipping is better)
        best = [o for o in best
                if _nearest(engine, _distances(engine, team, tuple(o["to"]), False), targets) <= 1]
        if best:
            return best
    # nothing worth doing from here with this equipment: go back and re-equip
    if team.ap < 5 or (team.pos in targets_all and not at_base):
        return end
    if not at_base:
        team.homing = True
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), 99) < here]
        if closer:
            return closer
        return end
    if "re_equip" in acts:
        return [acts["re_equip"]]
    return moves or end
