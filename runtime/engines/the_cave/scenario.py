"""Scenario files for The Cave: set up a state, play scripted steps, check expectations.

setup:  players, tiles [{at, kind, exits, depth, tokens, marker}] (left out: the starting board
        for the player count), base, ropes [[a, b, seat]], max_marker,
        stacks [[ "kind:EXITS" | content tile id, ...] x4 at most] (top first) | "dealt", end_triggered,
        teams [{pos, backpack, camp, camp_pos, camp_items, camp_packed_before, tokens,
        depth_tokens, lost, ap, forced}]; a position is [x, y]: E is x + 1, N is y + 1
steps:  {do: move, to, via} | {do: act, id} | {do: use, item} | {do: start_turn} | {do: score}
        | {do: end} (the team ends its actions for the turn, L64-65)
        | {do: end_sequence, trigger_seat} | {do: loadout} (the free set-up equipping on the
        base before the team's first turn, L53, L243; choose: [{free: {backpack, camp,
        pack_camp}}]) ; each may have team, choose: [...], illegal: true
        (the action is not legal: move, act, use, end only) or fails: true (the step must
        be refused; played on a copy of the game and dropped). `via` names the
        way in, also when there is one: an `enter` option of the tile's kind (walk, oxygen,
        raft...) or desperate_move; leaving a rappel for a tile of another depth is
        `out+in` (rope+walk, roped+oxygen), and the way out alone (rope, roped) names the one
        such move; `choose` answers the step's decisions in order, and an answer the step
        never asks for fails it: a discovered tile's side and turn {dir: E, exits: EW}, a
        boulder's {dir, kind}, a camp swap {backpack: {..}, camp: {..}}, a full backpack's
        {to_camp: item} | {discard: item}, an effect's `choose { a | b }` the branch's number from 0
expect: {team, ap|pos|backpack|camp_items|tokens|depth_tokens|forced|done|camp|camp_pos|lost|slots}
        | {tile, kind|depth|tokens|marker|exits|absent} | {rope: [a, b], present}
        | {scores} | {bonus} | {finished} | {winners} | {log} | {legal, team, present} (a via
          left out of a legal move or a refused one: by any way)
        | {stacks: [N, N, N, N] (tiles left) or [[tile, ...] x4] (top first, as in setup)}
        | {end_triggered} | {turns}
        `turns` lists [round, seat] of every turn the last end_sequence played (it ends
        every turn at once: a team stays where the steps left it; rounds count from 1). When that
        step triggers the end itself, it lists the whole trigger round (from seat 0, the
        seats before the trigger seat and its own turn too), not only the turns after the
        trigger, then the 3 last rounds; when the setup or the steps triggered it already,
        the turns after the trigger seat's, then the 3 last rounds (L303-305)
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.agents import ScriptedAgent, ScriptError, matches
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.lookahead import copy_game
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.sim import check_players, player_counts
from tomecraft.runtime.engines.the_cave.engine import Engine
from tomecraft.runtime.engines.the_cave.scenario_setup import (
    SHAPES, AnswerAgent, check_names, check_team_want, expectation_problem, hold_depths, never_taken, pos as _pos)
from tomecraft.runtime.engines.the_cave.scoring import score
from tomecraft.runtime.engines.the_cave.start import new_state, tile_stub
from tomecraft.runtime.engines.the_cave.state import ORDER, Cell, State, Team, edge
from tomecraft.runtime.scenario import (ScenarioError, check_expectations, game_over_step, in_its_terms,
                                       key_problem, refuse_unofferable, refuse_unplayed, setup_failure,
                                       unknown_step)


def _norm(option):
    return {k: (_pos(v) if k == "to" else v) for k, v in option.items()} if isinstance(option, dict) else option


def _shown(tile, written) -> str:
    """A stack tile as an expectation may write it: its content id, or "kind:EXITS"."""
    stub = f"{tile.tile_kind}:{tile.exits}"
    kind, _, exits = str(written).partition(":")
    return written if written in (tile.id, stub) or (kind == tile.tile_kind and exits
                                                    and sorted(exits) == sorted(tile.exits)) else stub


def _stack_tile(data, spec: str, stack: int, index: int, where: str):
    """A stack entry: a content tile by its id (a pack's tiles are played as written), or a
    stub "kind:EXITS"."""
    tile = data.kinds["tile"].get(spec) if ":" not in str(spec) else None
    if tile is not None:
        return tile
    kind, _, exits = str(spec).partition(":")
    if kind not in data.kinds["tile_kind"]:
        raise ScenarioError(f"{where}: {spec!r} is neither a tile id nor \"KIND:EXITS\" of a known "
                            f"tile kind ({sorted(data.kinds['tile_kind'])})")
    return tile_stub(f"{kind}:{_exits(exits or 'NESW', where)}", stack, index)


# Setup keys this runner reads as true or false, at any depth: `lore: "no"` must fail, not
# count as true (runtime/scenario.py checks them before the run).
FLAGS = frozenset(("camp_packed_before", "end_triggered", "forced"))
SETUP_KEYS = {"players", "tiles", "base", "ropes", "max_marker", "stacks", "end_triggered", "teams"}
TILE_KEYS = {"at", "kind", "exits", "depth", "tokens", "marker"}
TEAM_KEYS = {"pos", "backpack", "camp", "camp_pos", "camp_items", "camp_packed_before", "tokens",
             "depth_tokens", "lost", "ap", "forced"}
STEP_KEYS = {"do", "team", "to", "via", "id", "item", "choose", "illegal", "fails", "trigger_seat"}
STEPS = ("start_turn", "score", "end_sequence", "loadout", "move", "act", "use", "end")
TEAM_EXPECT_KEYS = {"team", "ap", "pos", "backpack", "camp_items", "tokens", "depth_tokens", "forced",
                    "done", "camp", "camp_pos", "camp_packed_before", "lost", "slots"}
# each expectation form: the key that names it and every key it may carry
EXPECT_FORMS = (("tile", {"tile", "kind", "depth", "tokens", "marker", "exits", "absent"}),
                ("rope", {"rope", "present"}),
                ("legal", {"legal", "team", "present"}),
                ("log", {"log"}), ("stacks", {"stacks"}), ("end_triggered", {"end_triggered"}), ("turns", {"turns"}),
                *((k, {"scores", "bonus", "finished", "winners"}) for k in ("scores", "bonus", "finished", "winners")),
                ("team", TEAM_EXPECT_KEYS))


def _known(where: str, spec, known: set) -> None:
    if problem := key_problem(where, spec, known):
        raise ScenarioError(problem)


def _exits(value, where: str) -> str:
    """Exits as the engine holds them: letters of NESW, in that order ("WE" is "EW")."""
    text = str(value)
    if not text or set(text) - set(ORDER) or len(set(text)) != len(text):
        raise ScenarioError(f"{where}: exits {value!r} must be distinct letters of {ORDER!r}")
    return "".join(d for d in ORDER if d in text)


def _depth_and_marker(spec: dict, kind, where: str) -> tuple[int, int | None]:
    """A yellow depth marker shows the tile's depth (L91-95) and is always on a rappel tile
    (L91): given one of depth and marker, the other follows (a rappel given only its marker
    would otherwise sit at depth 0 and need no rope); given both, they must agree."""
    depth, marker = spec.get("depth"), spec.get("marker")
    if depth is not None and marker is not None and depth != marker:
        raise ScenarioError(f"{where}: depth {depth} and marker {marker} differ (the marker shows "
                            "the depth, L91-95)")
    if depth is None:
        depth = marker if marker is not None else 0
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0 or depth % 25:
        # depths go by levels of 25 from the base's 0 (L87, L133)
        raise ScenarioError(f"{where}: a depth is 0, 25, 50, ... (levels of 25, L87, L133), "
                            f"not {depth!r}")
    if marker is None and kind.rope_edges and depth:
        marker = depth
    return depth, marker


def _check_setup(setup: dict) -> None:
    _known("setup", setup, SETUP_KEYS)
    players = setup.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ScenarioError(f"setup.players: a whole number of players, not {players!r}")
    if not isinstance(setup.get("teams") or [], list):
        raise ScenarioError(f"setup.teams: a list of teams ({{pos, backpack, ...}}), "
                            f"not {setup['teams']!r}")
    for i, spec in enumerate(setup.get("tiles") or []):
        _known(f"setup.tiles[{i}]", spec, TILE_KEYS)
    for i, spec in enumerate(setup.get("teams") or []):
        _known(f"setup.teams[{i}]", spec, TEAM_KEYS)
    stacks = setup.get("stacks", [])     # its piles' shapes are SHAPES', checked before
    if stacks != DEALT and (not isinstance(stacks, list) or len(stacks) > 4):
        raise ScenarioError(f"setup.stacks: a list of at most 4 lists (stacks 1 to 4, top first), "
                            f"or {DEALT!r}")


class ScenarioEngine(Engine):
    """The engine, but a decision with a single option still reads the script: the engine
    takes a lone option without asking (`Engine.ask`), so a scripted answer for it that is
    not that option (a placement the tile cannot take) was silently dropped and the step
    passed. The next scripted choice is checked against the lone option when it is written
    for this kind of decision (its keys are the option's): used if it matches, refused if
    not; a choice for another kind of decision is left for it."""

    def ask(self, team: Team, key: str, options: list):
        agent = self.agents[team.seat]
        if len(options) == 1 and key != "action" and isinstance(agent, ScriptedAgent) \
                and agent.choices:
            want, only = agent.choices[0], options[0]
            if isinstance(want, dict) and isinstance(only, dict) and want and set(want) <= set(only):
                if not matches(want, only):
                    never_taken(self, key, want, options)
                    raise ScriptError(f"scripted choice {want!r} is not legal for {key!r}; "
                                      f"the only option: {only!r}")
                agent.choices.pop(0)
        return super().ask(team, key, options)


DEALT = "dealt"      # setup.stacks: the stacks a game for the player count is dealt (L37-39)


def _dealt(data, setup: dict) -> State | None:
    """A game's set-up for the player count (the teams' number, else `players`), when the
    scenario leaves the tiles out (the starting board for that count, L33) or asks for the
    dealt stacks (shuffled, minus the count's discards, L37-39), seeded alike every run."""
    specs = setup.get("teams")
    players = len(specs) if specs else setup.get("players", 2)
    if specs and "players" in setup and setup["players"] != players:
        raise ScenarioError(f"setup: players {setup['players']} but {players} teams")
    # L14: 2-5 players, as `sim` says. Hand-built `teams` may list fewer (a position with one
    # team shows a movement rule; README's example does), never more than the game seats.
    try:
        check_players(data, max(players, player_counts(data)["min"]) if specs else players)
    except ValueError as err:
        raise ScenarioError(f"{'teams' if specs else 'players'} {players}: {err}") from None
    if "tiles" in setup and setup.get("stacks") != DEALT:
        return None
    return new_state(data, players, Rng("scenario"))


def _stacks(data, raw: list) -> list[list]:
    stacks = []
    for n in range(4):
        pile = [_stack_tile(data, s, n + 1, i, f"setup.stacks[{n}][{i}]")
                for i, s in enumerate(raw[n] if n < len(raw) else [])]
        stacks.append(list(reversed(pile)))      # listed top first; the top is the list's end
    return stacks


def build(data, setup: dict) -> Engine:
    _check_setup(setup)
    dealt = _dealt(data, setup)
    kinds = data.kinds["tile_kind"]
    cells = {} if "tiles" in setup else dealt.cells
    for i, spec in enumerate(setup.get("tiles", [])):
        where = f"setup.tiles[{i}]"
        pos = _pos(spec["at"])
        if pos in cells:        # the later one would replace the earlier unseen
            raise ScenarioError(f"{where}: a second tile at {list(pos)}")
        if not isinstance(spec.get("tokens", []), list):
            raise ScenarioError(f"{where}.tokens: a list of tokens, not {spec['tokens']!r}")
        if spec["kind"] not in kinds:
            raise ScenarioError(f"{where}: unknown tile kind {spec['kind']!r}; known: {sorted(kinds)}")
        kind = kinds[spec["kind"]]
        depth, marker = _depth_and_marker(spec, kind, where)
        cells[pos] = Cell(pos, kind, _exits(spec.get("exits", "NESW"), where), depth,
                          list(spec.get("tokens", [])), marker, spec.get("kind"))
    base = _pos(setup["base"]) if "base" in setup else next(
        (p for p, c in cells.items() if c.kind.is_base), (0, 0))
    stacks = dealt.stacks if setup.get("stacks") == DEALT else _stacks(data, setup.get("stacks", []))
    teams = []
    specs = setup.get("teams") or [{}] * setup.get("players", 2)
    for seat, spec in enumerate(specs):
        team = Team(seat, _pos(spec.get("pos", base)))
        for key in ("pos", "camp_pos"):
            if spec.get(key) is not None and _pos(spec[key]) not in cells:
                raise ScenarioError(f"setup.teams[{seat}].{key}: no tile at {spec[key]}")
        team.backpack = Counter(spec.get("backpack", {}))
        team.camp = spec.get("camp", "beside")
        team.camp_pos = _pos(spec["camp_pos"]) if spec.get("camp_pos") is not None else None
        team.camp_items = Counter(spec.get("camp_items", {}))
        team.camp_packed_before = bool(spec.get("camp_packed_before", team.camp != "beside"))
        team.tokens = Counter(spec.get("tokens", {}))
        hold_depths(data, team, spec.get("depth_tokens", []))
        team.lost = Counter(spec.get("lost", []))
        team.ap = spec.get("ap", 5)
        if not isinstance(team.ap, int) or not 0 <= team.ap <= 5:
            raise ScenarioError(f"setup.teams[{seat}].ap: 0 to 5 (L64), not {team.ap!r}")
        team.forced = bool(spec.get("forced", False))
        teams.append(team)
    state = State(cells, teams, base, stacks)
    for i, rope in enumerate(setup.get("ropes", [])):
        if not isinstance(rope, list) or len(rope) not in (2, 3):
            raise ScenarioError(f"setup.ropes[{i}]: [[x, y], [x, y]] or [[x, y], [x, y], seat], "
                                f"not {rope!r}")
        state.ropes[edge(_pos(rope[0]), _pos(rope[1]))] = rope[2] if len(rope) > 2 else 99
    placed = max((c.marker or 0 for c in cells.values()), default=0)
    state.max_marker = setup.get("max_marker", placed)
    if not isinstance(state.max_marker, int) or state.max_marker % 25 or state.max_marker < placed:
        # the next rappel's marker is the deepest placed + 25 (L85-86, D-04)
        raise ScenarioError(f"setup.max_marker: a multiple of 25, at least the deepest marker "
                            f"placed ({placed}), not {state.max_marker!r}")
    state.end_triggered = bool(setup.get("end_triggered", False))
    engine = ScenarioEngine(data, state, [], log_enabled=True)
    engine.agents = [AnswerAgent(engine) for _ in teams]
    check_names(engine, setup)
    return engine


def _step(engine: Engine, step: dict, results: dict) -> None:
    if results.get("over") and step.get("do") != "score":   # a move after it was played (L305)
        raise AssertionError(game_over_step("end_sequence played the last rounds, L303-305"))
    if step.get("fails"):
        if step.get("do") in ("move", "act", "use"):
            # a misspelt id or via is refused by any engine: the step would pass vacuously
            option = _norm({k: v for k, v in step.items() if k in ("do", "to", "via", "id", "item")})
            refuse_unofferable(option, option_shapes(engine), exact=True)
        try:    # played on a copy, dropped (README): a move or an effect refused after it
            # paid, drew or placed something leaves nothing behind (the engine undoes it too,
            # undo.py; the copy also keeps a step's log and counters out)
            _run_step(_copy(engine), step, dict(results))
        except ScenarioError:
            raise                       # a wrong scenario is not the refusal it expects
        except (AssertionError, ScriptError, EffectError) as err:
            engine.log(f"step refused: {err}")
            return
        raise AssertionError(f"step {step} was expected to be refused but succeeded")
    _run_step(engine, step, results)


def _copy(engine: Engine) -> Engine:
    """A copy of the game for a step that must be refused: its state and scripted answers its
    own, the content and the memos of it shared (no dice: the stacks are dealt at setup)."""
    return copy_game(engine, shared=(engine.loadout_memo, engine.exchange_memo, engine._entry_table))


def option_shapes(engine: Engine) -> dict:
    """Every kind of option `legal_actions` can offer, with the values its keys can take: a
    move goes to a tile of the map, by an enter option (after a cross-out one, `out+in`) or a
    desperate move; an action is one of the content's actions or a tile kind's; a use is of
    an item that has an action of its own."""
    kinds = engine.data.kinds["tile_kind"].values()
    enters = {o.id for k in kinds for o in (k.enter or ())}
    outs = {o.id for k in kinds for o in (getattr(k, "cross_out", None) or ())}
    ways = enters | {"desperate_move"} | {f"{a}+{b}" for a in outs for b in enters}
    tiles = set(engine.state.cells)
    acts = set(engine.data.kinds["action"]) | {a.id for k in kinds for a in (k.actions or ())}
    return {"move": {"to": lambda v: _pos(v) in tiles, "via": ways},
            "act": {"id": acts}, "end": {},
            "use": {"item": {t for t in engine.items.order if engine.items.by_term[t].use is not None}}}


def _way_out_named(engine: Engine, option: dict, legal: list) -> dict:
    """A move leaving a rappel is offered as `out+in` (`rope+walk`, `roped+oxygen`); a `via`
    naming only the way out (`rope`, `roped`: how the team crosses the depth) stands for the
    one legal move to that tile that starts with it. Anything else is returned unchanged."""
    via = option.get("via")
    if option.get("do") != "move" or option in legal or not isinstance(via, str) or "+" in via:
        return option
    found = [o for o in legal if o.get("do") == "move" and o.get("to") == option.get("to")
             and o["via"].partition("+")[0] == via and "+" in o["via"]]
    return found[0] if len(found) == 1 else option


def _team(state: State, seat, where: str) -> Team:
    if not isinstance(seat, int) or not 0 <= seat < len(state.teams):
        raise ScenarioError(f"{where}: team {seat!r}: the setup has teams 0 to {len(state.teams) - 1}")
    return state.teams[seat]


def _run_step(engine: Engine, step: dict, results: dict) -> None:
    state = engine.state
    _known("step", step, STEP_KEYS)
    team = _team(state, step.get("team", 0), "step")
    agent = engine.agents[team.seat]
    agent.choices = [_norm(c) for c in step.get("choose", [])]
    do = step.get("do")     # {} fails as an unknown step None, not as KeyError: 'do'
    if step.get("illegal") and do not in ("move", "act", "use", "end"):
        # it would be played, not refused: a pass for a step the engine accepts
        raise ScenarioError(f"illegal: true refuses an action (move, act, use, end), not {do!r}; "
                            "a step that must be refused is fails: true")
    if do == "start_turn":
        engine.start_turn(team)
    elif do == "score":
        results["score"] = score(engine)
    elif do == "loadout":
        # L50-53: the teams equip on the base before play; L243: that costs no AP
        if team.pos != state.base or team.turns:
            raise AssertionError(f"{team.name}: the set-up loadout is chosen on the base "
                                 "before the team's first turn (L53)")
        engine.re_equip(team, setup=True)
    elif do == "end_sequence":
        if "trigger_seat" not in step:
            raise ScenarioError("end_sequence: name the seat whose turn triggers the end (trigger_seat)")
        _end_sequence(engine, _team(state, step["trigger_seat"], "end_sequence trigger_seat").seat)
        results["over"] = True
    elif do in ("move", "act", "use", "end"):
        option = {k: v for k, v in step.items() if k in ("do", "to", "via", "id", "item")}
        option = _norm(option)
        legal = [o for o in engine.legal_actions(team)]
        option = _way_out_named(engine, option, legal)
        if step.get("illegal"):         # the keys written: no via, no move there by any way
            refuse_unofferable(option, option_shapes(engine))
            refuse_unplayed(step)          # its answers are never asked: a misspelt one passed
            if option in legal or any(matches(option, o) for o in legal):
                raise AssertionError(f"{option} was expected to be illegal but is legal")
            return
        if option not in legal:
            raise AssertionError(f"{option} is not legal; legal: {legal}")
        engine.apply(team, option)
    else:
        raise ScenarioError(unknown_step(do, STEPS))
    if agent.choices:        # a step carried out asked for fewer answers than the script gives
        raise ScenarioError(f"scripted choices left unused: {agent.choices}")


class _EndTurns:
    """Ends every turn at once; sets the end trigger on `seat`'s first turn."""

    def __init__(self, engine: Engine, seat: int) -> None:
        self.engine, self.seat = engine, seat

    def choose(self, key, options, view=None):
        state = self.engine.state
        if view is not None and view.team.seat == self.seat and state.round == 1:
            state.end_triggered = True
        return {"do": "end"} if {"do": "end"} in options else options[0]


def _end_sequence(engine: Engine, seat: int) -> None:
    """The rest of the game with every turn ended at once: the teams stay where the setup and
    the steps left them (a team away from the base still pays its upkeep, crawls when out of
    consumables, and at the end scores nothing, L305-307). When the steps already triggered the
    end (on `seat`'s turn, round 1 if none was counted), the seats after it finish that round
    first (L304), then the 3 rounds follow."""
    state = engine.state
    engine.agents = [_EndTurns(engine, seat) for _ in state.teams]
    state.turn_log.clear()
    if state.end_triggered:
        state.round = max(state.round, 1)
        for team in state.teams[seat + 1:]:
            engine.play_turn(team)
    engine.play()


def _check(engine: Engine, exp: dict, results: dict) -> str | None:
    state = engine.state
    form = next(((name, keys) for name, keys in EXPECT_FORMS if name in exp), None) \
        if isinstance(exp, dict) else None
    if form is None:
        return f"unknown expectation {exp!r}"
    _known(f"{form[0]} expectation", exp, form[1])
    if problem := expectation_problem(engine, exp):
        return problem
    if "tile" in exp:
        cell = state.cells.get(_pos(exp["tile"]))
        if exp.get("absent"):
            return None if cell is None else f"tile {exp['tile']} is placed ({cell.kind.id})"
        if cell is None:
            return f"no tile at {exp['tile']}"
        got = {"kind": cell.kind.id, "depth": cell.depth, "tokens": sorted(cell.tokens),
               "marker": cell.marker, "exits": cell.exits}
        for key in ("kind", "depth", "tokens", "marker", "exits"):
            if key in exp:
                want = sorted(exp[key]) if key == "tokens" else exp[key]
                if key == "exits":
                    want = _exits(want, f"tile {exp['tile']}")
                if got[key] != want:
                    return f"tile {exp['tile']} {key}: expected {want!r}, got {got[key]!r}"
        return None
    if "rope" in exp:
        if not isinstance(exp["rope"], list) or len(exp["rope"]) != 2:
            raise ScenarioError(f"rope: the two tiles it joins, [[x, y], [x, y]], not {exp['rope']!r}")
        there = edge(_pos(exp["rope"][0]), _pos(exp["rope"][1])) in state.ropes
        want = exp.get("present", True)
        return None if there == want else f"rope {exp['rope']}: expected present={want}, got {there}"
    if "legal" in exp:
        team = _team(state, exp.get("team", 0), "legal expectation")
        if not exp.get("present", True):
            refuse_unofferable(_norm(exp["legal"]), option_shapes(engine))
        legal, want, option = engine.legal_actions(team), exp.get("present", True), _norm(exp["legal"])
        # the keys written: a move's via left out is any way there
        there = _way_out_named(engine, option, legal) in legal or any(matches(option, o) for o in legal)
        return None if there == want else f"{exp['legal']} legal: expected {want}, got {there}" + \
            (f"; legal: {legal}" if want else "")
    if "log" in exp:
        return None if any(exp["log"] in line for line in state.log) else \
            f"no log line contains {exp['log']!r}; log: {state.log}"
    if "stacks" in exp:     # counts, or the tiles top first as setup.stacks lists them
        want = exp["stacks"]
        shown = any(isinstance(w, list) for w in want) if isinstance(want, list) else False
        got = [[_shown(t, want[n][i] if n < len(want) and i < len(want[n]) else None)
                for i, t in enumerate(reversed(pile))] if shown else len(pile)
               for n, pile in enumerate(state.stacks)]
        return None if got == want else f"stacks: expected {want}, got {got}"
    if "end_triggered" in exp:
        return None if state.end_triggered == exp["end_triggered"] else \
            f"end_triggered: expected {exp['end_triggered']}, got {state.end_triggered}"
    if "turns" in exp:
        got = [list(t) for t in state.turn_log]
        return None if got == exp["turns"] else f"turns: expected {exp['turns']}, got {got}"
    if any(k in exp for k in ("scores", "bonus", "finished", "winners")):
        result = results.get("score") or score(engine)
        for key in ("scores", "finished", "winners"):
            if key in exp and result[key] != exp[key]:
                return f"{key}: expected {exp[key]}, got {result[key]}"
        if "bonus" in exp:
            _bonus_categories(engine, exp["bonus"])
            for seat, want in enumerate(exp["bonus"]):
                got = {k: result["bonus"][seat].get(k, 0) for k in want}
                if got != want:
                    return f"bonus of team {seat}: expected {want}, got {got}"
        return None
    if "team" in exp:
        team = _team(state, exp["team"], "team expectation")
        for key, want in exp.items():
            if key == "team":
                continue
            check_team_want(f"team {exp['team']}", key, want)
            if key in ("backpack", "camp_items", "tokens"):
                bag = getattr(team, key)    # {} holds none: it read nothing, and passed
                got = {k: bag[k] for k in want} if want else {k: n for k, n in bag.items() if n}
            elif key in ("pos", "camp_pos"):        # camp_pos null: set nowhere
                got, want = getattr(team, key), None if want is None else _pos(want)
            elif key == "depth_tokens":
                got, want = sorted(team.depth_tokens), sorted(want)
            elif key == "lost":
                got, want = sorted(team.lost.elements()), sorted(want)
            elif key == "slots":
                got = engine.slots_used(team)
            elif key in ("ap", "forced", "done", "camp", "camp_packed_before"):
                got = getattr(team, key)
            else:
                return f"unknown team expectation {key!r}"
            if got != want:
                return f"team {exp['team']} {key}: expected {want!r}, got {got!r}"
        return None
    return f"unknown expectation {exp!r}"


def _bonus_categories(engine: Engine, bonus) -> None:
    """A bonus expectation names majority categories (L311-312): a misspelt one ("photos")
    would be read as 0 and an expected 0 pass vacuously."""
    known = {tok.category for tok in engine.data.kinds["token"].values() if tok.category}
    if not isinstance(bonus, list) or len(bonus) > len(engine.state.teams) \
            or not all(isinstance(b, dict) for b in bonus):
        raise ScenarioError(f"bonus: a mapping per team (at most {len(engine.state.teams)}), "
                            f"category -> points, not {bonus!r}")
    unknown = sorted({str(k) for b in bonus for k in b} - known)
    if unknown:
        raise ScenarioError(f"bonus: unknown categor(ies) {unknown}; known: {sorted(known)}")


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        engine = build(data, scenario.get("setup") or {})
    except ScenarioError as err:
        return [f"setup: {err}"]
    except (KeyError, TypeError, ValueError, IndexError, EffectError) as err:
        return [setup_failure(err, "the_cave")]
    results: dict = {}
    for i, step in enumerate(scenario.get("steps") or []):
        try:
            _step(engine, step, results)
        except (AssertionError, ScriptError, EffectError, KeyError, TypeError, ValueError) as err:
            return [f"steps[{i}]: {in_its_terms(err, 'the_cave')}"]
    return check_expectations(scenario.get("expect"), lambda exp: _check(engine, exp, results))
