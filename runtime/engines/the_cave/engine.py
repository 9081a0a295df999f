"""The Cave's engine: the turn structure (setup, turns, moving, actions, the end).

Every rule with a number in content runs through the generated effects: tile entry options
(`tile_kind.enter`), leaving a rappel tile (`cross_out`), `on_discover`, tile actions, the
game's actions (actions.yaml) and equipment's own `use` actions. The engine decides only what
the effect language leaves to it: geometry, legality of placement, who decides, turn order.

Layout (imports point one way, down this list): engine.py (turns) -> policy.py (the simulated
player; worth.py, what a team is worth to it) -> trials.py (the copies of the game it tries
options out on) -> walking.py (where a team can walk, for the player) -> handlers.py (the verbs and queries effects call) -> rules.py
(discovering, the equipment and camp rules) -> equipment.py (tokens as content defines them)
-> state.py (the grid, teams and geometry); start.py sets a game up, scoring.py scores it, contract.py says
what the engine does with content, scenario.py plays scenario files.
"""
from __future__ import annotations

from collections import deque
from dataclasses import fields
from typing import Callable

from tomecraft.runtime.effects import Context, EffectError, check_handlers, fizzled
from tomecraft.runtime.engines.the_cave import policy
from tomecraft.runtime.engines.the_cave import rules, undo
from tomecraft.runtime.engines.the_cave.equipment import Items
from tomecraft.runtime.engines.the_cave.handlers import Queries, Verbs
from tomecraft.runtime.engines.the_cave.scoring import score
from tomecraft.runtime.engines.the_cave.start import new_state, paused_collection
from tomecraft.runtime.engines.the_cave.state import (
    TURN_AP, UPKEEP, Cell, State, Team, edge, neighbours, placements, still_open, unexplored,
)
from tomecraft.runtime.lookahead import copy_counter

ROUND_CAP = 200          # D-29
FAR = 1 << 30
TURN_ACTION_CAP = 60


_new_object = object.__new__
# Engine.ctx fills a Context's fields itself, from this blank of them: it must know them all
_BLANK_CONTEXT = dict.fromkeys(("engine", "you", "self", "it", "target", "event", "scope", "info"))
if {f.name for f in fields(Context)} != set(_BLANK_CONTEXT):
    raise ImportError("runtime.effects.Context changed: update Engine.ctx")


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
        self.undo_refused = True
        self._base_dist: tuple[int, dict] | None = None
        self._links: tuple = (0, {})     # (grid size, pos -> [(direction, neighbour pos)])
        self._near: tuple = (None, 0, {})   # (grid, its size, pos -> ((direction, tile), ...))
        self._open: tuple = (0, {})      # (grid size, pos -> its unexplored exits)
        self._entry_table: dict = {}     # `entries` and `_action_checks` per tile kind
        # rules.py's memos of pure functions of the content and their keys: one pair per
        # content for every game played with it (`rules.content_memos`); trial copies share them
        self.loadout_memo, self.exchange_memo = rules.content_memos(data)
        check_handlers(data, self.verbs, self.queries)
        self.kinds = data.kinds["tile_kind"]
        self.boulders = rules.boulder_kinds(data)
        self.actions = sorted(data.kinds["action"].values(), key=lambda a: (a.order or 0, a.id))
        self.scoring = next(iter(data.kinds["scoring"].values()))    # the one (contract: at_most 1)
        self.items = Items(data.kinds["equipment"],
                           (name for name, types in data.names.items() if "equipment" in types))
        # items a team may own only so many of (the camera and the raft: 1, L287-292)
        self.limits = self.items.limits
        # the 5-AP move's availability check, asked for every neighbour of every move check
        self._desperate = can_of(data.keywords["desperate_move"].effect)

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
            info["edge"] = frozenset((origin.pos, cell.pos))      # edge(), inlined
        # what Context(engine=..., you=..., ...) builds, without the frozen dataclass's
        # __init__ (a third of the cost; every move option checked makes one); the fields
        # set one by one on a copy of the blank (fewer instructions than a dict literal merged)
        out = _new_object(Context)
        fields = out.__dict__
        fields.update(_BLANK_CONTEXT)
        fields["engine"], fields["you"], fields["target"], fields["info"] = self, team, origin, info
        fields["self"] = cell or self.state.cells[team.pos]
        return out

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

    def neighbours(self, pos) -> tuple[tuple[str, Cell], ...]:
        """The tiles joined to `pos` by a road (a tuple the caller must not change). Which
        positions they are is cached per grid size: tiles are only ever added, so the grid's
        size says whether it changed (a copy of the game for a trial shares the cache while
        its grid is the same size), and a new tile changes only the answers for the tiles
        beside it (`still_open` keeps the others). The tiles themselves are cached per grid
        (a trial's copy has its own tiles where an option may change them), likewise."""
        cells = self.state.cells
        near = self._near
        if near[0] is not cells or near[1] != len(cells):
            kept = still_open(near[1:], cells) if near[0] is cells else {}
            near = self._near = (cells, len(cells), kept)
        found = near[2].get(pos)
        if found is None:
            links = self._links
            if links[0] != len(cells):
                links = self._links = (len(cells), still_open(links, cells))
            at = links[1].get(pos)
            if at is None:
                at = links[1][pos] = [(d, other.pos) for d, other in neighbours(cells, pos)]
            found = near[2][pos] = tuple((d, cells[other]) for d, other in at)
        return found

    def unexplored(self, cell: Cell) -> tuple[str, ...]:
        """The tile's exits with no tile beyond them yet (a tuple the caller must not change),
        cached like `neighbours`' positions; when the grid grows, only the answers for the
        tiles beside a new one are dropped (`still_open`)."""
        cells = self.state.cells
        cache = self._open
        if cache[0] != len(cells):
            cache = self._open = (len(cells), still_open(cache, cells))
        found = cache[1].get(cell.pos)
        if found is None:
            found = cache[1][cell.pos] = tuple(unexplored(cells, cell))
        return found

    def can_discover(self, team: Team) -> bool:
        cell = self.state.cells[team.pos]
        return bool(cell.kind.discover_from) and bool(self.unexplored(cell)) \
            and any(self.state.stacks)

    def base_distance(self) -> dict:
        """Steps by road from the base to every tile joined to it. Tiles are only ever added,
        so the distances are brought up to date from the tiles placed since the last call
        (a new tile can only shorten paths, from itself outwards) rather than searched again;
        a copy of the game for a trial shares them while its grid is the same size, and
        updates a copy of its own."""
        cells = self.state.cells
        cached = self._base_dist
        if cached is not None and cached[0] == len(cells):
            return cached[1]
        if cached is None or cached[0] > len(cells):
            dist = {self.state.base: 0}
            queue = deque([self.state.base])
        else:
            dist = dict(cached[1])
            queue = deque()
            for pos in list(cells)[cached[0]:]:
                near = [dist[n.pos] for _, n in self.neighbours(pos) if n.pos in dist]
                if near and dist.get(pos, FAR) > min(near) + 1:
                    dist[pos] = min(near) + 1
                    queue.append(pos)
        while queue:
            pos = queue.popleft()
            step = dist[pos] + 1
            for _, other in self.neighbours(pos):
                if dist.get(other.pos, FAR) > step:
                    dist[other.pos] = step
                    queue.append(other.pos)
        self._base_dist = (len(cells), dist)
        return dist

    # --- moving ------------------------------------------------------------------------
    def _snapshot(self, team: Team, ctx: Context):
        return (team.ap, dict(team.backpack), dict(team.tokens), set(team.depth_tokens),
                dict(self.state.ropes), list(ctx.self.tokens), team.done)

    def _restore(self, team: Team, ctx: Context, snap) -> None:
        """Undo a tried-out effect, in place (the team's bags stay the same objects)."""
        ap, backpack, tokens, team.depth_tokens, self.state.ropes, cell_tokens, done = snap
        team.ap, team.done = ap, done
        for bag, saved in ((team.backpack, backpack), (team.tokens, tokens)):
            bag.clear()
            dict.update(bag, saved)
        ctx.self.tokens[:] = cell_tokens
        ctx.info.clear()
        ctx.info["edge"] = edge(ctx.target.pos, ctx.self.pos)

    def entries(self, kind) -> tuple:
        """A tile kind's entry options as (id, availability check, effect), in content order:
        read once per engine (a trial copy shares them), not through each Record per move."""
        table = self._entry_table
        found = table.get(id(kind))
        if found is None:
            found = table[id(kind)] = tuple((opt.id, can_of(opt.effect), opt.effect)
                                            for opt in kind.enter)
        return found

    def move_options(self, team: Team, into=None, desperate: bool = True) -> list[dict]:
        """The team's moves to its neighbours (only to the tile at `into`, if given; the 5-AP
        moves only if `desperate`: the player's walking checks ask for the others)."""
        src = self.state.cells[team.pos]
        options = []
        check_desperate = self._desperate if desperate else None
        forced = team.forced
        entry_table = self._entry_table
        roped_out = bool(src.kind.cross_out)
        checks = None
        for _, dst in self.neighbours(team.pos):
            if into is not None and dst.pos != into:
                continue
            # availability checks only read their context: one serves every neighbour, its
            # tile and edge set for each (as self.ctx(team, dst, src) would make them)
            if checks is None:
                checks = self.ctx(team, dst, src)
                fields, info = checks.__dict__, checks.info
            else:       # (the checks only read the context's info: one dict serves)
                fields["self"], info["edge"] = dst, frozenset((src.pos, dst.pos))
            if not forced:
                # D-20: leaving a rope tile for another depth needs rope (unless dst has its own)
                if roped_out and src.depth != dst.depth and not dst.kind.rope_edges:
                    self._cross_options(team, src, dst, options)
                else:
                    for opt_id, can, _ in entry_table.get(id(dst.kind)) or self.entries(dst.kind):
                        if can(checks):
                            options.append({"do": "move", "to": dst.pos, "via": opt_id})
            if check_desperate is not None and check_desperate(checks):
                options.append({"do": "move", "to": dst.pos, "via": "desperate_move"})
        return options

    def _cross_options(self, team: Team, src: Cell, dst: Cell, options: list) -> None:
        """The ways to leave `src` for `dst` at another depth (D-20): each of src's `cross_out`
        options tried out, in place and undone, before each of dst's entry options."""
        for opt_id, can, _ in self.entries(dst.kind):
            for out_id, out_can, out in self.ways_out(src.kind):
                ctx = self.ctx(team, dst, src)
                if not out_can(ctx):
                    continue
                snap = self._snapshot(team, ctx)
                log_enabled, self.log_enabled = self.log_enabled, False
                ok = out(ctx) and can(ctx)
                self.log_enabled = log_enabled
                self._restore(team, ctx, snap)
                if ok:
                    options.append({"do": "move", "to": dst.pos, "via": f"{out_id}+{opt_id}"})

    def ways_out(self, kind) -> tuple:
        """A tile kind's `cross_out` options as (id, availability check, effect), in content
        order, read once per engine as `entries` are."""
        key = ("out", id(kind))
        found = self._entry_table.get(key)
        if found is None:
            found = self._entry_table[key] = tuple((out.id, can_of(out.effect), out.effect)
                                                   for out in kind.cross_out or ())
        return found

    def do_move(self, team: Team, to, via: str) -> None:
        src = self.state.cells[team.pos]
        dst = self.state.cells[tuple(to)]
        ctx = self.ctx(team, dst, src)
        if via == "desperate_move":
            fx = self.data.keywords["desperate_move"].effect
            run, fxs = (lambda: fx(ctx)), fx
        else:
            out_id, _, enter_id = via.rpartition("+")
            out = next((o for found, _, o in self.ways_out(src.kind) if found == out_id), None)
            if out_id and out is None:
                raise EffectError(f"{src.kind.id} has no way out {out_id!r}")
            for opt_id, _, enter in self.entries(dst.kind):
                if opt_id == enter_id:
                    break
            else:
                raise EffectError(f"{dst.kind.id} has no entry option {enter_id!r}")
            fx = out if out_id else enter
            fxs = (out, enter) if out_id else enter

            def run():
                nonlocal fx
                if out_id and not out(ctx):
                    return False
                fx = enter
                return enter(ctx)
        ok = self._atomic(team, dst, run, fxs, move=True) if self.undo_refused else run()
        if not ok:      # offered, so its leading requires and costs held
            raise fizzled(f"{team.name} cannot move to {dst.pos} via {via}", fx)
        team.pos = dst.pos
        stats, counted = self.state.stats, "entered:" + dst.kind.id
        stats[counted] = stats.get(counted, 0) + 1      # (no Counter.__missing__ call)
        if self.log_enabled:     # no formatting when logging is off
            self.log(f"{team.name} enters {dst.kind.id} at {dst.pos} via {via} (AP {team.ap})")

    # --- actions -----------------------------------------------------------------------
    def act_options(self, team: Team, only: frozenset | set | None = None) -> list[dict]:
        """The actions the team can take where it stands: its tile's, the game's and its
        equipment's. With `only`, just the tile's and the game's actions of those ids (what
        the player's lookahead asks for: the same options, fewer checks)."""
        cell = self.state.cells[team.pos]
        ctx = self.ctx(team, cell)      # availability checks only read: one context serves
        options = []
        tile_checks, game_checks, item_checks = self._action_checks(cell.kind)
        if only is not None:
            for checks in (tile_checks, game_checks):
                for act_id, can in checks:
                    if act_id in only and can(ctx):
                        options.append({"do": "act", "id": act_id})
            return options
        for checks in (tile_checks, game_checks):
            for act_id, can in checks:
                if can(ctx):
                    options.append({"do": "act", "id": act_id})
        for term, can in item_checks:
            if self.items.count(team.backpack, term) and can(ctx):
                options.append({"do": "use", "item": term})
        return options

    def _action_checks(self, kind) -> tuple:
        """(the tile kind's actions, the game's, the equipment's own) as (id or term,
        availability check) in the order act_options offers them: read once per engine (a
        trial copy shares them), not through each Record and definition per call."""
        table = self._entry_table
        key = ("actions", id(kind))
        found = table.get(key)
        if found is None:
            game = table.get("game actions")
            if game is None:
                game = table["game actions"] = (
                    tuple((act.id, can_of(act.effect)) for act in self.actions),
                    tuple((term, can_of(self.items.by_term[term].use)) for term in self.items.order
                          if self.items.by_term[term].use is not None))
            found = table[key] = (tuple((act.id, can_of(act.effect)) for act in kind.actions or ()),
                                  *game)
        return found

    def tile_action_ids(self, kind) -> frozenset:
        """The ids of a tile kind's own actions, read once per engine (a trial copy shares
        them): what act_options(team, only=...) asks for where only a tile's actions count."""
        key = ("ids", id(kind))
        found = self._entry_table.get(key)
        if found is None:
            found = self._entry_table[key] = frozenset(a.id for a in kind.actions or ())
        return found

    def action_effect(self, kind, act_id: str) -> Callable | None:
        """The effect of the action `act_id` on a tile of `kind`: the tile's own action of
        that id first, else the game's (None if neither has one); read once per engine (a
        trial copy shares it), not by searching the Records at every action."""
        key = ("effect", id(kind), act_id)
        table = self._entry_table
        if key not in table:
            found = [a for a in (kind.actions or ()) if a.id == act_id]
            found += [a for a in self.actions if a.id == act_id]
            table[key] = found[0].effect if found else None
        return table[key]

    def _atomic(self, team: Team, cell: Cell, run: Callable[[], bool], fx, move=False) -> bool:
        """Run an effect all or nothing (undo.py): a refusal, raised or returned, leaves the
        game as it was. A trial copy of the game skips this (`undo_refused` False)."""
        return undo.atomic(self, team, cell, run, fx, move)

    def do_use(self, team: Team, term: str) -> None:
        """An equipment's own action, taken while the team carries the item."""
        item = self.items.by_term.get(term)
        if item is None or item.use is None or not self.items.count(team.backpack, term):
            raise EffectError(f"{team.name} cannot use {term} here")
        if not self._atomic(team, self.state.cells[team.pos], lambda: item.use(self.ctx(team)), item.use):
            raise fizzled(f"{team.name} cannot use {term} here", item.use)
        self.state.stats[f"use:{term}"] += 1
        if self.log_enabled:     # no formatting when logging is off
            self.log(f"{team.name} uses the {term} (AP {team.ap})")

    def do_act(self, team: Team, act_id: str) -> None:
        cell = self.state.cells[team.pos]
        effect = self.action_effect(cell.kind, act_id)
        if effect is None:
            raise EffectError(f"{team.name} cannot {act_id} here")
        if not self._atomic(team, cell, lambda: effect(self.ctx(team, cell)), effect):
            raise fizzled(f"{team.name} cannot {act_id} here", effect)
        stats, counted = self.state.stats, "act:" + act_id
        stats[counted] = stats.get(counted, 0) + 1      # (no Counter.__missing__ call)
        if self.log_enabled:     # no formatting when logging is off
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
        elif option["do"] == "end":
            team.done = True        # the turn is over: nothing more until the next (L64-65)
        else:
            raise EffectError(f"unknown action {option!r}")

    # --- discovering -------------------------------------------------------------------
    def placements(self, cell: Cell, tile) -> list[dict]:
        return placements(self.state.cells, cell, tile)

    def discover(self, team: Team) -> None:
        rules.discover(self, team)

    # --- equipment (rules.py) ------------------------------------------------------------
    def re_equip(self, team: Team, setup: bool = False) -> None:
        rules.re_equip(self, team, setup)

    def slots_used(self, team: Team) -> int:
        return rules.slots_used(self, team)

    # --- turns -------------------------------------------------------------------------
    def start_turn(self, team: Team) -> None:
        """L61-62, L226-228 with D-12 (discard first) and D-08 (own camp restocks)."""
        team.ap, team.done, team.turns = TURN_AP, False, team.turns + 1
        if team.pos == self.state.base:
            team.forced = False
        elif self.items.can_use(team.backpack, UPKEEP, 1):
            self.items.use(team.backpack, UPKEEP)
            team.forced = False
        elif team.camp == "set" and team.camp_pos == team.pos \
                and self.items.can_use(team.camp_items, UPKEEP, 1):
            # a new bag, not changed in place: a trial copy of the team shares it
            team.camp_items = camp = copy_counter(team.camp_items)
            self.items.use(camp, UPKEEP)
            team.forced = False
        else:
            team.forced = True
            if self.log_enabled:     # no formatting when logging is off
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


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    with paused_collection():       # (until the game's objects are freed: `_play` returned)
        return _play(data, players, rng, agents, options or {})


def _play(data, players: int, rng, agents: list, options: dict) -> dict:
    state = new_state(data, players, rng)
    engine = Engine(data, state, agents, log_enabled=bool(options.get("log")))
    for team in state.teams:        # L53: all at once, no AP (L243)
        engine.re_equip(team, setup=True)
    result = engine.play(options.get("round_cap", ROUND_CAP))
    if options.get("log"):
        result["log"] = list(state.log)
    engine.verbs = engine.queries = None    # (they point back at it: freed with it, no cycle)
    return result
