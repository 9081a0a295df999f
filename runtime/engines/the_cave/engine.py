"""The Cave's engine: setup, turns, moving, discovering, camps, the end and scoring.

Every rule with a number in content runs through the generated effects: tile entry options
(`tile_kind.enter`), leaving a rappel tile (`cross_out`), `on_discover`, tile actions and
the game's actions (actions.yaml). The engine decides only what the effect language leaves
to it: geometry, legality of placement, who decides, and turn order.
"""
from __future__ import annotations

from collections import Counter, deque
from types import SimpleNamespace
from typing import Callable

from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.the_cave import policy
from tomecraft.runtime.engines.the_cave.equipment import Items, item_of
from tomecraft.runtime.engines.the_cave.handlers import Queries, Verbs
from tomecraft.runtime.engines.the_cave.state import (
    BACKPACK_SLOTS, CAMP_SLOTS, OPPOSITE, ORDER, PACKED_CAMP_SLOTS, TURN_AP, Cell, State, Team,
    edge, rotate, step,
)

ROUND_CAP = 200          # D-29
TURN_ACTION_CAP = 60
SUGGESTED = {"consumable": 4, "rope": 1, "oxygen": 1, "camera": 1, "raft": 1}   # L54


def can_of(fx: Callable) -> Callable:
    """The generated availability check of an effect function (its leading requires/costs)."""
    return fx.can


class Engine:
    def __init__(self, data, state: State, agents: list, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agents = agents
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        self.log_enabled = log_enabled
        self._base_dist: tuple[int, dict] | None = None
        check_handlers(data, self.verbs, self.queries)
        self.kinds = data.kinds["tile_kind"]
        self.actions = sorted(data.kinds["action"].values(), key=lambda a: (a.order or 0, a.id))
        self.scoring = next(iter(data.kinds["scoring"].values()))
        self.items = Items(data.kinds["equipment"])
        # items a team may own only so many of (the camera and the raft: 1, L287-292)
        self.limits = self.items.limits

    # --- the Context API ---------------------------------------------------------------
    def attr(self, ctx, obj, name: str):
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        if kind in ("player", "team"):
            return list(self.state.teams)
        return []

    def decide(self, ctx, key: str, options: list):
        return self.ask(ctx.you, key, options)

    def _no_durations(self, ctx, *args) -> None:
        raise EffectError("The Cave's content has no triggers, durations or modifiers")

    subscribe = watch = continuous = modify = _no_durations

    def once(self, ctx, scope: str, key: str) -> bool:
        return True

    def ctx(self, team: Team, cell: Cell | None = None, origin: Cell | None = None) -> Context:
        info: dict = {}
        if origin is not None and cell is not None:
            info["edge"] = edge(origin.pos, cell.pos)
        return Context(engine=self, you=team, self=cell or self.state.cells[team.pos],
                       target=origin, info=info)

    # --- helpers -----------------------------------------------------------------------
    def log(self, line: str) -> None:
        if self.log_enabled:
            self.state.log.append(line)

    def ask(self, team: Team, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key != "action":
            return options[0]
        view = View(self, team)
        return self.agents[team.seat].choose(key, options, view)

    def neighbours(self, pos) -> list[tuple[str, Cell]]:
        """Adjacent tiles joined by a road on both sides (G-21: every move needs a road)."""
        cell = self.state.cells[pos]
        out = []
        for d in cell.exits:
            other = self.state.cells.get(step(pos, d))
            if other is not None and other.opens(OPPOSITE[d]):
                out.append((d, other))
        return out

    def unexplored(self, cell: Cell) -> list[str]:
        return [d for d in cell.exits if step(cell.pos, d) not in self.state.cells]

    def can_discover(self, team: Team) -> bool:
        cell = self.state.cells[team.pos]
        return bool(cell.kind.discover_from) and bool(self.unexplored(cell)) \
            and any(self.state.stacks)

    def base_distance(self) -> dict:
        cells = self.state.cells
        if self._base_dist is None or self._base_dist[0] != len(cells):
            dist = {self.state.base: 0}
            queue = deque([self.state.base])
            while queue:
                pos = queue.popleft()
                for _, other in self.neighbours(pos):
                    if other.pos not in dist:
                        dist[other.pos] = dist[pos] + 1
                        queue.append(other.pos)
            self._base_dist = (len(cells), dist)
        return self._base_dist[1]

    # --- moving ------------------------------------------------------------------------
    def _crosses_out(self, src: Cell, dst: Cell) -> bool:
        """D-20: leaving a rope tile for another depth needs rope (unless dst has its own)."""
        return bool(src.kind.cross_out) and src.depth != dst.depth and not dst.kind.rope_edges

    def _snapshot(self, team: Team, ctx: Context):
        return (team.ap, Counter(team.backpack), Counter(team.tokens), set(team.depth_tokens),
                dict(self.state.ropes), list(ctx.self.tokens), team.done)

    def _restore(self, team: Team, ctx: Context, snap) -> None:
        (team.ap, team.backpack, team.tokens, team.depth_tokens, self.state.ropes,
         ctx.self.tokens, team.done) = snap
        ctx.info.clear()
        ctx.info["edge"] = edge(ctx.target.pos, ctx.self.pos)

    def move_options(self, team: Team) -> list[dict]:
        src = self.state.cells[team.pos]
        options = []
        desperate = self.data.keywords["desperate_move"].effect
        for _, dst in self.neighbours(team.pos):
            if not team.forced:
                cross = None
                if self._crosses_out(src, dst):
                    cross = src.kind.cross_out
                for opt in dst.kind.enter:
                    if cross is None:
                        if can_of(opt.effect)(self.ctx(team, dst, src)):
                            options.append({"do": "move", "to": dst.pos, "via": opt.id})
                        continue
                    for out in cross:
                        ctx = self.ctx(team, dst, src)
                        if not can_of(out.effect)(ctx):
                            continue
                        snap = self._snapshot(team, ctx)
                        log_enabled, self.log_enabled = self.log_enabled, False
                        ok = out.effect(ctx) and can_of(opt.effect)(ctx)
                        self.log_enabled = log_enabled
                        self._restore(team, ctx, snap)
                        if ok:
                            options.append({"do": "move", "to": dst.pos,
                                            "via": f"{out.id}+{opt.id}"})
            if can_of(desperate)(self.ctx(team, dst, src)):
                options.append({"do": "move", "to": dst.pos, "via": "desperate_move"})
        return options

    def do_move(self, team: Team, to, via: str) -> None:
        src = self.state.cells[team.pos]
        dst = self.state.cells[tuple(to)]
        ctx = self.ctx(team, dst, src)
        if via == "desperate_move":
            ok = self.data.keywords["desperate_move"].effect(ctx)
        else:
            out_id, _, enter_id = via.rpartition("+")
            ok = True
            if out_id:
                out = next(o for o in src.kind.cross_out if o.id == out_id)
                ok = out.effect(ctx)
            enter = next(o for o in dst.kind.enter if o.id == enter_id)
            ok = ok and enter.effect(ctx)
        if not ok:
            raise EffectError(f"{team.name} cannot move to {dst.pos} via {via}")
        team.pos = dst.pos
        self.state.stats[f"entered:{dst.kind.id}"] += 1
        self.log(f"{team.name} enters {dst.kind.id} at {dst.pos} via {via} (AP {team.ap})")

    # --- actions -----------------------------------------------------------------------
    def act_options(self, team: Team) -> list[dict]:
        cell = self.state.cells[team.pos]
        options = []
        for act in cell.kind.actions or ():
            if can_of(act.effect)(self.ctx(team, cell)):
                options.append({"do": "act", "id": act.id})
        for act in self.actions:
            if can_of(act.effect)(self.ctx(team, cell)):
                options.append({"do": "act", "id": act.id})
        for term in self.items.order:
            use = self.items.by_term[term].use
            if use is not None and self.items.count(team.backpack, term) \
                    and can_of(use)(self.ctx(team, cell)):
                options.append({"do": "use", "item": term})
        return options

    def do_use(self, team: Team, term: str) -> None:
        """An equipment's own action, taken while the team carries the item."""
        item = self.items.by_term.get(term)
        if item is None or item.use is None or not self.items.count(team.backpack, term) \
                or not item.use(self.ctx(team)):
            raise EffectError(f"{team.name} cannot use {term} here")
        self.state.stats[f"use:{term}"] += 1
        self.log(f"{team.name} uses the {term} (AP {team.ap})")

    def do_act(self, team: Team, act_id: str) -> None:
        cell = self.state.cells[team.pos]
        found = [a for a in (cell.kind.actions or ()) if a.id == act_id]
        found += [a for a in self.actions if a.id == act_id]
        if not found or not found[0].effect(self.ctx(team, cell)):
            raise EffectError(f"{team.name} cannot {act_id} here")
        self.state.stats[f"act:{act_id}"] += 1
        self.log(f"{team.name} {act_id} (AP {team.ap})")

    def legal_actions(self, team: Team) -> list[dict]:
        if team.done:
            return [{"do": "end"}]
        options = self.move_options(team)
        if team.forced:
            # L226-228, D-25: only the 5-AP move; the turn passes only if there is none.
            return options or [{"do": "end"}]
        return options + self.act_options(team) + [{"do": "end"}]

    def apply(self, team: Team, option: dict) -> None:
        if option["do"] == "move":
            self.do_move(team, option["to"], option["via"])
        elif option["do"] == "act":
            self.do_act(team, option["id"])
        elif option["do"] == "use":
            self.do_use(team, option["item"])
        elif option["do"] != "end":
            raise EffectError(f"unknown action {option!r}")

    # --- discovering -------------------------------------------------------------------
    def _fits(self, pos, exits: str, joined: str) -> bool:
        """D-18: road/wall match with every placed neighbour except boulders."""
        for d in ORDER:
            if d == joined:
                continue
            other = self.state.cells.get(step(pos, d))
            if other is None or other.kind.match_edges is False:
                continue
            if (d in exits) != other.opens(OPPOSITE[d]):
                return False
        return True

    def placements(self, cell: Cell, tile) -> list[dict]:
        seen, out = set(), []
        for d in self.unexplored(cell):
            pos = step(cell.pos, d)
            for turn in range(4):
                exits = rotate(tile.exits, turn)
                if OPPOSITE[d] in exits and self._fits(pos, exits, OPPOSITE[d]) and (d, exits) not in seen:
                    seen.add((d, exits))
                    out.append({"dir": d, "exits": exits})
        return out

    def discover(self, team: Team) -> None:
        state = self.state
        stack_no = next(i for i, s in enumerate(state.stacks) if s) + 1
        tile = state.stacks[stack_no - 1].pop()
        cell = state.cells[team.pos]
        options = self.placements(cell, tile)
        state.stats[f"drawn:{tile.tile_kind}"] += 1
        if options:
            choice = self.ask(team, "place", options)
            kind = self.kinds[tile.tile_kind]
            new = Cell(step(cell.pos, choice["dir"]), kind, choice["exits"], cell.depth,
                       tile_id=tile.id, stack=stack_no)
            state.cells[new.pos] = new
            self.log(f"{team.name} places {kind.id} {new.exits} at {new.pos} (stack {stack_no})")
            if kind.on_discover is not None:
                kind.on_discover(self.ctx(team, new))
        else:
            # L76-77: the tile is discarded unseen by the rules and a boulder goes instead.
            state.discarded.append(tile)
            choice = self.ask(team, "boulder", [{"dir": d} for d in self.unexplored(cell)])
            pos = step(cell.pos, choice["dir"])
            state.cells[pos] = Cell(pos, self.kinds["boulder"], OPPOSITE[choice["dir"]], cell.depth,
                                    tile_id="boulder", stack=stack_no)
            state.stats["boulders"] += 1
            self.log(f"{team.name} cannot place {tile.tile_kind} {tile.exits}: boulder at {pos}")
        if stack_no == 4 and not state.stacks[3] and not state.end_triggered:
            state.end_triggered = True     # L303-304
            self.log(f"{team.name} placed the last stack-4 tile: the end is triggered")

    # --- equipment ---------------------------------------------------------------------
    def owned(self, team: Team, item: str) -> int:
        n = self.items.count(team.backpack, item)
        if team.camp in ("packed", "set"):
            n += self.items.count(team.camp_items, item)
        return n

    def slots_used(self, team: Team) -> int:
        return team.slots_used(self.items.slots)

    def discard(self, team: Team, item: str, amount: int = 1, where: Counter | None = None) -> None:
        bag = team.backpack if where is None else where
        for _ in range(amount):
            if item not in self.items.by_term or not self.items.count(bag, item):
                raise EffectError(f"{team.name} has no {item} to discard")
            self.items.take_out(bag, item)
        if item in self.limits:
            team.lost[item] += amount     # L291-292
        self.log(f"{team.name} discards {amount} {item}")

    def _fit(self, wanted: dict, room: int, allowed: dict) -> Counter:
        """As many of each wanted item, in order, as fit in `room` slots and are allowed."""
        out, free = Counter(), room
        for item, n in wanted.items():
            if item not in self.items:
                continue
            n = min(n, allowed.get(item, n), free // self.items.slots(item))
            if n > 0:
                out[item] = n
                free -= n * self.items.slots(item)
        return out

    def _filled(self, bag: Counter, room: int) -> Counter:
        """The rest of the room filled with consumables (L54: they fill the loadout)."""
        free = room - self.items.slots_used(bag)
        if "consumable" in self.items and free >= self.items.slots("consumable"):
            bag["consumable"] += free // self.items.slots("consumable")
        return bag

    def loadouts(self, team: Team, setup: bool = False) -> list[dict]:
        """Candidate re-equip choices (agents may also answer with any legal loadout)."""
        camp_with_bank = team.camp == "packed" or (team.camp == "set" and team.camp_pos == self.state.base)
        allowed = self._limited_allowed(team, camp_with_bank)
        room = BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if team.camp == "packed" else 0)
        plans = [SUGGESTED, {"consumable": 6, "rope": 2},
                 {"consumable": 5, "rope": 1, "oxygen": 1, "raft": 1},
                 {"consumable": 4, "rope": 3, "oxygen": 1},
                 {"consumable": 4, "rope": 1, "oxygen": 2, "raft": 1},
                 {"consumable": 3, "rope": 4, "camera": 1}]
        plans += self._content_plans(plans)
        camp = self._fit({"consumable": 2, "rope": 2}, CAMP_SLOTS, {}) if camp_with_bank else Counter()
        out = []
        for plan in plans:
            bp = self._filled(self._fit(plan, room, allowed), room)
            out.append({"backpack": dict(sorted(bp.items())), "camp": dict(sorted(camp.items()))})
        if setup:
            bp = self._fit({"consumable": 3, "rope": 1, "oxygen": 1, "camera": 1}, 6, allowed)
            camp = self._fit({"consumable": 3, "rope": 1}, CAMP_SLOTS, {})
            out.append({"backpack": dict(sorted(bp.items())), "camp": dict(sorted(camp.items())),
                        "pack_camp": True})
        return out

    def _content_plans(self, plans: list) -> list[dict]:
        """One more plan per equipment no base plan names (a pack's new item): the suggested
        loadout with that item in place of consumables, so every item can be carried."""
        named = {item for plan in plans for item in plan}
        return [{item: 1, **SUGGESTED, "consumable": SUGGESTED["consumable"] - self.items.slots(item)}
                for item in self.items.order if item not in named]

    def _limited_allowed(self, team: Team, camp_with_bank: bool) -> dict:
        allowed = {}
        for item, limit in self.limits.items():
            elsewhere = self.items.count(team.camp_items, item) \
                if (team.camp == "set" and not camp_with_bank) else 0
            allowed[item] = max(0, limit - team.lost[item] - elsewhere)
        return allowed

    def check_loadout(self, team: Team, choice: dict, packed: bool, camp_with_bank: bool) -> None:
        bp = Counter(choice.get("backpack", {}))
        camp = Counter(choice.get("camp", {}))
        for item in list(bp) + list(camp):
            if item not in self.items:
                raise EffectError(f"unknown equipment {item!r}")
        room = BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if packed else 0)
        if self.items.slots_used(bp) > room:
            raise EffectError(f"the backpack has {room} slots here, not {self.items.slots_used(bp)}")
        if camp and not camp_with_bank:
            raise EffectError("the camp cannot be filled from the bank now")
        if self.items.slots_used(camp) > CAMP_SLOTS:
            raise EffectError(f"the camp holds {CAMP_SLOTS} slots")
        allowed = self._limited_allowed(team, camp_with_bank)
        for item, limit in self.limits.items():
            if self.items.count(bp, item) + self.items.count(camp, item) > allowed[item]:
                raise EffectError(f"{team.name} may not take a {item} "
                                  f"(limit {limit} per team, L287-292)")

    def re_equip(self, team: Team, setup: bool = False) -> None:
        """L241-243 (+ D-23): free exchange between the bank and backpack (and camp)."""
        choice = self.ask(team, "loadout" if setup else "re_equip", self.loadouts(team, setup))
        pack = bool(choice.get("pack_camp"))
        camp_with_bank = pack or team.camp == "packed" or (team.camp == "set" and team.camp_pos == self.state.base)
        self.check_loadout(team, choice, team.camp == "packed" or pack, camp_with_bank)
        team.backpack = Counter(choice.get("backpack", {}))
        if camp_with_bank:
            team.camp_items = Counter(choice.get("camp", {}))
        if pack:
            team.camp = "packed"
            team.camp_packed_before = True
        self.log(f"{team.name} equips {dict(team.backpack)}" + (f", camp {dict(team.camp_items)}" if camp_with_bank else ""))

    def set_camp(self, team: Team) -> None:
        team.camp, team.camp_pos = "set", team.pos
        self.log(f"{team.name} sets up camp at {team.pos}")

    def swap_camp(self, team: Team) -> None:
        total = team.backpack + team.camp_items
        options = [{"backpack": dict(sorted(team.backpack.items())), "camp": dict(sorted(team.camp_items.items()))}]
        rank = {term: i for i, term in enumerate(self.items.order)}
        keys = sorted(total, key=lambda key: (rank.get(item_of(key), len(rank)), key))
        bp = self._fit({key: total[key] for key in keys}, BACKPACK_SLOTS, {})
        options.append({"backpack": dict(sorted(bp.items())), "camp": dict(sorted((total - bp).items()))})
        choice = self.ask(team, "swap_camp", options)
        bp, camp = Counter(choice.get("backpack", {})), Counter(choice.get("camp", {}))
        if +(bp + camp) != +total or self.items.slots_used(bp) > BACKPACK_SLOTS \
                or self.items.slots_used(camp) > CAMP_SLOTS:
            raise EffectError("a camp exchange must keep the same items within 8 + 4 slots")
        team.backpack, team.camp_items = bp, camp

    def pack_camp(self, team: Team) -> None:
        """L255-256, L263-264: the packed camp takes 2 slots; make room by discarding."""
        while BACKPACK_SLOTS - self.items.slots_used(team.backpack) < PACKED_CAMP_SLOTS:
            options = []
            camp_free = CAMP_SLOTS - self.items.slots_used(team.camp_items)
            for key in sorted(+team.backpack):
                if team.camp == "set" and camp_free >= self.items.slots(key):
                    options.append({"to_camp": key})
                options.append({"discard": key})
            choice = self.ask(team, "make_room", options)
            if "to_camp" in choice:
                team.backpack[choice["to_camp"]] -= 1
                team.camp_items[choice["to_camp"]] += 1
            else:
                self.discard(team, item_of(choice["discard"]), 1)
        team.camp, team.camp_pos = "packed", None
        team.camp_packed_before = True
        self.log(f"{team.name} packs the camp")

    def abandon_camp(self, team: Team) -> None:
        for item in self.limits:
            team.lost[item] += self.items.count(team.camp_items, item)    # L289-291
        team.camp, team.camp_items = "abandoned", Counter()
        self.log(f"{team.name} abandons the camp")

    # --- turns -------------------------------------------------------------------------
    def start_turn(self, team: Team) -> None:
        """L61-62, L226-228 with D-12 (discard first) and D-08 (own camp restocks)."""
        team.ap, team.done, team.turns = TURN_AP, False, team.turns + 1
        if team.pos == self.state.base:
            team.forced = False
        elif self.items.can_use(team.backpack, "consumable", 1):
            self.items.use(team.backpack, "consumable")
            team.forced = False
        elif team.camp == "set" and team.camp_pos == team.pos \
                and self.items.can_use(team.camp_items, "consumable", 1):
            self.items.use(team.camp_items, "consumable")
            team.forced = False
        else:
            team.forced = True
            self.log(f"{team.name} is out of consumables")

    def play_turn(self, team: Team) -> None:
        self.state.turn_log.append((self.state.round, team.seat))
        self.start_turn(team)
        for _ in range(TURN_ACTION_CAP):
            option = self.ask(team, "action", self.legal_actions(team))
            if option["do"] == "end":
                break
            self.apply(team, option)

    def play(self, cap: int = ROUND_CAP) -> dict:
        state = self.state
        capped = False
        while not state.end_triggered:
            if state.round >= cap:
                capped = True
                break
            state.round += 1
            for team in state.teams:
                self.play_turn(team)
        if not capped:
            for _ in range(self.scoring.extra_rounds or 0):    # L305
                state.round += 1
                for team in state.teams:
                    self.play_turn(team)
        return score(self, capped)


class View:
    """What an agent may look at, plus the heuristic `suggest` for random agents."""

    def __init__(self, engine: Engine, team: Team) -> None:
        self.engine, self.team, self.state = engine, team, engine.state

    def suggest(self, key: str, options: list) -> list:
        return policy.suggest(self.engine, self.team, key, options)


def majority(counts: dict, points, tie_rule: str, zero_scores: bool) -> dict:
    """L311-318: most tokens 8, second 4; tied teams drop one rank (D-17 for zeros)."""
    out = {}
    for who, c in counts.items():
        above = sum(1 for v in counts.values() if v > c)
        tied = sum(1 for v in counts.values() if v == c)
        rank = above + 1 + (1 if tied > 1 else 0) if tie_rule == "drop_one_rank" else above + tied
        bonus = points[rank - 1] if rank <= len(points) else 0
        out[who] = 0 if (c == 0 and not zero_scores) else bonus
    return out


def score(engine: Engine, capped: bool = False) -> dict:
    state, rules = engine.state, engine.scoring
    tokens = engine.data.kinds["token"]
    finishers = [t for t in state.teams if t.pos == state.base or not rules.must_return_to_base]
    totals = {t.seat: 0 for t in state.teams}
    bonus: dict[int, dict] = {t.seat: {} for t in state.teams}
    for t in finishers:
        totals[t.seat] = sum(tokens[k].points * n for k, n in t.tokens.items())
    categories = sorted({tok.category for tok in tokens.values() if tok.category})
    for cat in categories:
        counts = {t.seat: sum(n for k, n in t.tokens.items() if tokens[k].category == cat)
                  for t in finishers}
        for seat, b in majority(counts, rules.majority_points, rules.tie_rule,
                                bool(rules.zero_scores_majority)).items():
            bonus[seat][cat] = b
            totals[seat] += b
    scores = [totals[t.seat] for t in state.teams]
    # the highest total among the teams back at the base wins; rule d27: ties share (L333)
    best = max((totals[t.seat] for t in finishers), default=None)
    winners = [t.seat for t in finishers if totals[t.seat] == best]
    return {"scores": scores, "winners": winners, "rounds": state.round, "capped": capped,
            "finished": [t.pos == state.base for t in state.teams], "bonus": [bonus[t.seat] for t in state.teams],
            "stats": dict(state.stats)}


def new_state(data, players: int, rng, board_id: str | None = None) -> State:
    """L32-39: the starting board for the player count, 4 shuffled stacks minus discards."""
    boards = [b for b in data.kinds["start_board"].values() if players in b.players]
    if board_id:
        boards = [data.get("start_board", board_id)]
    if not boards:
        raise EffectError(f"no starting board for {players} players")
    board = sorted(boards, key=lambda b: b.id)[0]
    kinds = data.kinds["tile_kind"]
    cells = {}
    for i, (x, y, exits) in enumerate(board.cells):
        kind = kinds["start"] if i == 0 else kinds["normal"]     # D-21
        cells[(x, y)] = Cell((x, y), kind, exits, 0, tile_id=board.id)
    base = (board.cells[0][0], board.cells[0][1])
    stacks = []
    for n in (1, 2, 3, 4):
        pile = []
        for tile in sorted(data.kinds["tile"].values(), key=lambda t: t.id):
            if tile.stack == n:
                pile.extend([tile] * tile.count)
        rng.shuffle(pile)
        pile = pile[board.discard_per_stack[n - 1]:]     # removed unseen (L38)
        stacks.append(pile)
    teams = [Team(seat, base) for seat in range(players)]
    return State(cells, teams, base, stacks)


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    options = options or {}
    state = new_state(data, players, rng)
    engine = Engine(data, state, agents, log_enabled=bool(options.get("log")))
    for team in state.teams:        # L53: all at once, no AP (L243)
        engine.re_equip(team, setup=True)
    result = engine.play(options.get("round_cap", ROUND_CAP))
    if options.get("log"):
        result["log"] = list(state.log)
    return result


def tile_stub(spec: str, stack: int = 1, index: int = 0):
    """A tile for scenarios: "kind:EXITS"."""
    kind, _, exits = spec.partition(":")
    return SimpleNamespace(id=f"scenario_{kind}_{index}", tile_kind=kind, exits=exits or "NESW",
                           stack=stack, count=1)
