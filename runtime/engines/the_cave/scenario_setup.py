"""The Cave scenario files: what a setup's teams, tiles and ropes may hold. A misspelt token
or item, a count no team can hold or a rope between tiles that do not touch is refused with
its entry: taken as written, it would set up a game no rule could reach."""
from __future__ import annotations

import inspect
from collections import Counter

from tomecraft.runtime.engines.the_cave.engine import Engine
from tomecraft.runtime.engines.the_cave.equipment import item_of
from tomecraft.runtime.engines.the_cave.state import BACKPACK_SLOTS, CAMP_SLOTS, PACKED_CAMP_SLOTS, Team
from tomecraft.runtime.agents import ScriptError, ScriptedAgent
from tomecraft.runtime.scenario import ScenarioError, answer_never_taken, checks_nothing, unknown_names
from tomecraft.runtime.scenario_shapes import (
    BOOL, COUNT, EXITS, POS, TEXT, WHOLE, counts, either, fixed, list_of, nullable, records)


def pos(value) -> tuple[int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ScenarioError(f"a position is [x, y], not {value!r}")
    return (int(value[0]), int(value[1]))


CAMP_STATES = ("beside", "packed", "set", "abandoned")


def check_names(engine: Engine, setup: dict) -> None:
    """What the setup names must exist: a misspelt token or item is held but never taken,
    used or scored as the tester meant; a rope must join two adjacent tiles; a camp set up
    stands somewhere."""
    state = engine.state
    tokens = set(engine.data.kinds["token"])
    if state.base not in state.cells:
        raise ScenarioError(f"setup.base: no tile at {list(state.base)}")
    for i, spec in enumerate(setup.get("tiles") or []):
        _named(f"setup.tiles[{i}].tokens", spec.get("tokens", []), tokens, "token")
        _tile_tokens(engine, f"setup.tiles[{i}]", spec)
    for seat, spec in enumerate(setup.get("teams") or []):
        where = f"setup.teams[{seat}]"
        _check_team_shapes(where, spec)
        _named(f"{where}.tokens", spec.get("tokens", {}), tokens, "token")
        for key in ("backpack", "camp_items", "lost"):
            items = [k for k in spec.get(key, {}) if k not in engine.items]
            if items:
                raise ScenarioError(f"{where}.{key}: unknown equipment {items}; known: "
                                    f"{engine.items.order} (a half-used token is TERM@LEFT: oxygen@1)")
        team = state.teams[seat]
        _check_team_bags(engine, where, spec, team)
        if team.camp not in CAMP_STATES:
            raise ScenarioError(f"{where}.camp: {team.camp!r} is not one of {list(CAMP_STATES)}")
        if (team.camp == "set") != (team.camp_pos is not None):
            raise ScenarioError(f"{where}: a camp 'set' needs its camp_pos, and only a set camp has one")
    if state.end_triggered and any(state.stacks):     # the last stack-4 tile ends it (L301)
        raise ScenarioError(f"setup.end_triggered: the end comes as the last tile of stack 4 is "
                            f"placed (L301); the stacks still hold {[len(s) for s in state.stacks]}")
    for i, rope in enumerate(setup.get("ropes") or []):
        if why := no_rope_between(engine, [pos(p) for p in rope[:2]]):
            raise ScenarioError(f"setup.ropes[{i}]: {why}, not {rope[:2]}")
        if len(rope) > 2 and not 0 <= rope[2] < len(state.teams):    # whose own rope it is (L146-148)
            raise ScenarioError(f"setup.ropes[{i}]: seat {rope[2]} placed it, but the seats are "
                                f"0-{len(state.teams) - 1}")
    _stack_kinds(engine, setup.get("stacks"))


def _stack_kinds(engine: Engine, stacks) -> None:
    """A stack holds cave tiles, of the kinds the game's tiles have: a boulder is set aside
    (L39, placed only when a drawn tile does not fit, L70-72) and the start tile is the base
    (L33); either set up in a stack was drawn and placed as a cave tile."""
    tiles = engine.data.kinds["tile"]
    kinds = {t.tile_kind for t in tiles.values()}
    for n, pile in enumerate(stacks if isinstance(stacks, list) else []):
        for i, spec in enumerate(pile if isinstance(pile, list) else []):
            kind = str(spec).partition(":")[0] if ":" in str(spec) else getattr(tiles.get(spec), "tile_kind", None)
            if kind is not None and kind not in kinds:
                raise ScenarioError(f"setup.stacks[{n}][{i}]: no stack holds a {kind} tile (the stacks "
                                    f"hold {sorted(kinds)}; boulders are set aside, L39)")


def no_rope_between(engine: Engine, ends: list) -> str | None:
    """Why no play places a rope between `ends`, else None: a rope joins two adjacent tiles of
    different depths, one of them a rappel (L128-136; a team entering a rappel from a tile of
    its own depth places none). A rope between two passages of depth 0 was set up, roped
    nothing, and `present: false` there passed whatever was played."""
    cells = engine.state.cells
    if any(p not in cells for p in ends) or \
            abs(ends[0][0] - ends[1][0]) + abs(ends[0][1] - ends[1][1]) != 1:
        return "a rope joins two adjacent tiles on the map"
    a, b = (cells[p] for p in ends)
    if a.depth == b.depth or not any(c.kind.rope_edges or c.kind.cross_out for c in (a, b)):
        return (f"a rope joins a rappel to a tile of another depth (L128-136): these are a "
                f"{a.kind.id} of depth {a.depth} and a {b.kind.id} of depth {b.depth}")
    return None


def _tile_tokens(engine: Engine, where: str, spec: dict) -> None:
    """A tile holds the exploration token its kind places, once (L82, L175, L191, L200):
    `tokens: [photo]` on a passage, or a squeeze token on a water tile, was set up and never
    taken, said or scored, as no rule of the kind reads it. The tokens a kind's effects name
    (its discovery places them, its entries and actions take them) are the ones it holds."""
    kind = engine.kinds.get(spec.get("kind"))
    held = Counter(spec.get("tokens") or [])
    if kind is None or not held:
        return
    own = _kind_tokens(engine, kind)
    other = sorted(t for t in held if t not in own)
    if other:
        raise ScenarioError(f"{where}.tokens: a {kind.id} tile holds no {other[0]} token "
                            f"(its tokens: {sorted(own) or 'none'}; L82, L85, L175, L191, L200)")
    twice = sorted(t for t, n in held.items() if n > 1)
    if twice:
        raise ScenarioError(f"{where}.tokens: a tile holds one {twice[0]} token, not {held[twice[0]]} "
                            "(its discovery places one, L82)")


def _kind_tokens(engine: Engine, kind) -> set:
    """The token ids named in the code of a tile kind's effects."""
    tokens = set(engine.data.kinds["token"])
    effects = [kind.on_discover] + [o.effect for key in ("enter", "cross_out", "actions")
                                    for o in (getattr(kind, key, None) or ())]
    found: set = set()
    codes = [getattr(inspect.unwrap(e), "__code__", None) for e in effects if e is not None]
    while codes:
        code = codes.pop()
        if code is None:
            continue
        for const in code.co_consts:
            if isinstance(const, str) and const in tokens:
                found.add(const)
            elif hasattr(const, "co_consts"):
                codes.append(const)
    return found


def _counts(where: str, bag) -> None:
    """A bag in the setup maps names to whole counts of 0 or more (a negative or broken count
    would be held, scored or used as no tester means)."""
    if not isinstance(bag, dict):
        raise ScenarioError(f"{where}: a mapping of names to counts, not {bag!r}")
    for name, n in bag.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ScenarioError(f"{where}.{name}: a count of 0 or more, not {n!r}")


def _check_team_shapes(where: str, spec: dict) -> None:
    for key in ("backpack", "camp_items", "tokens"):
        _counts(f"{where}.{key}", spec.get(key, {}))
    if not isinstance(spec.get("lost", []), (list, dict)):
        raise ScenarioError(f"{where}.lost: a list of items, not {spec['lost']!r}")
    if not isinstance(spec.get("forced", False), bool):
        raise ScenarioError(f"{where}.forced: true or false, not {spec['forced']!r}")


def check_team_want(where: str, key: str, want) -> None:
    """A team expectation's value has the shape its setup key has: a tokens list where the
    team holds a mapping, or `lost: false` read as elimination (it lists the items lost),
    would fail with a comparison or a Python error instead of saying what the key takes."""
    if key in ("backpack", "camp_items", "tokens"):
        _counts(f"{where}.{key}", want)
    elif key in ("lost", "depth_tokens") and not isinstance(want, (list, dict) if key == "lost" else list):
        what = "items lost (camera, raft)" if key == "lost" else "reached depths (25, 50, 75)"
        raise ScenarioError(f"{where}.{key}: a list of {what}, not {want!r}")
    elif key in ("forced", "done", "camp_packed_before") and not isinstance(want, bool):
        raise ScenarioError(f"{where}.{key}: true or false, not {want!r}")
    elif key in ("ap", "slots") and (not isinstance(want, int) or isinstance(want, bool)):
        raise ScenarioError(f"{where}.{key}: a whole number, not {want!r}")


def _check_team_bags(engine: Engine, where: str, spec: dict, team: Team) -> None:
    """A team's bags hold what a team can hold: counts, worn sides its items have (oxygen@1,
    never oxygen@3: a key no rule reads is never used), the backpack's 8 slots (6 with the
    camp packed, L46, L250-254) and the camp's 4, one camera and one raft (L287), and
    reached-depth tokens of the depths there are (L151-154). Its names are known
    (`check_names`) and its bags' shapes checked (`_check_team_shapes`) before."""
    items = engine.items
    for key in ("backpack", "camp_items"):
        for name in spec.get(key, {}):
            if name not in items.keys(item_of(name)):
                raise ScenarioError(f"{where}.{key}: {name!r} is no side of {item_of(name)!r}; "
                                    f"its tokens are {items.keys(item_of(name))}")
    room = BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if team.camp == "packed" else 0)
    if items.slots_used(team.backpack) > room:
        raise ScenarioError(f"{where}.backpack: {items.slots_used(team.backpack)} slots used, "
                            f"the backpack has {room} (L46, L250-254)")
    if items.slots_used(team.camp_items) > CAMP_SLOTS:
        raise ScenarioError(f"{where}.camp_items: the camp has {CAMP_SLOTS} slots (L250)")
    if team.camp == "abandoned" and +team.camp_items:      # its items went with it (L268-270)
        raise ScenarioError(f"{where}.camp_items: an abandoned camp holds nothing: its items are "
                            "discarded with it (L268-270, L289-291); a lost camera or raft is `lost`")
    for item, limit in engine.limits.items():
        held = items.count(team.backpack, item) + items.count(team.camp_items, item)
        if held + team.lost[item] > limit:      # a lost camera is never taken again (L287-291)
            raise ScenarioError(f"{where}: at most {limit} {item} per team (L287); this one holds "
                                f"{held} and has lost {team.lost[item]} (L289-291)")
    kinds = engine.data.kinds["token"]
    twice = sorted(t for t, n in spec.get("tokens", {}).items() if n > 1 and getattr(kinds[t], "depth", None))
    if twice:       # `depth_25: 2` scored 6 (L150-152: one token per depth at most)
        raise ScenarioError(f"{where}.tokens: a team holds one {twice[0]} token, not "
                            f"{spec['tokens'][twice[0]]} (one per depth, L150-152)")
    depths = sorted({t.depth for t in kinds.values() if getattr(t, "depth", None)})
    if not isinstance(spec.get("depth_tokens", []), list) or \
            any(d not in depths for d in spec.get("depth_tokens", [])):
        raise ScenarioError(f"{where}.depth_tokens: a list of {depths}, not {spec['depth_tokens']!r}")


def _named(where: str, names, known: set, what: str) -> None:
    unknown = sorted(str(n) for n in names if n not in known)
    if unknown:
        raise ScenarioError(f"{where}: unknown {what}(s) {unknown}; known: {sorted(known)}")


def hold_depths(data, team: Team, depths: list) -> None:
    """A reached-depth token is held once, whichever key names it: `depth_tokens: [25]`
    gives the depth_25 token its 3 points (L151-154) as `tokens: {depth_25: 1}` does, and
    either keeps the team's own rope from taking a second one (L146-148)."""
    by_depth = {getattr(k, "depth", None): tid for tid, k in data.kinds["token"].items()}
    # a malformed list is refused with its entry by check_names, after the set-up is built
    depths = [d for d in depths if isinstance(d, int)] if isinstance(depths, list) else []
    for d in depths:
        if by_depth.get(d) and not team.tokens[by_depth[d]]:
            team.tokens[by_depth[d]] = 1
    team.depth_tokens = set(depths) | held_depths(data, team.tokens)


def held_depths(data, tokens: Counter) -> set[int]:
    """The depths of the reached-depth tokens a team is given: it holds them, so its own rope
    to such a depth gives no second one (L146-148), as if `depth_tokens` named them too."""
    kinds = data.kinds["token"]
    return {kinds[k].depth for k, n in tokens.items()
            if n > 0 and k in kinds and getattr(kinds[k], "depth", None)}


# The shapes of the values (runtime/scenario_shapes.py checks them first, at their lines):
# `pos: null` failed as "a position is [x, y], not None" with no entry named, `choose: 3`
# as "'int' object is not iterable".
_IDS = list_of(TEXT, "a list of names (e.g. [rope, oxygen])")
_ROPE_END = fixed(POS, POS, wants="[[x, y], [x, y]]")
SHAPES = {
    "setup": {
        "players": COUNT, "base": POS, "max_marker": COUNT,
        "ropes": list_of(either(_ROPE_END, fixed(POS, POS, COUNT, wants="[[x, y], [x, y], seat]")),
                         "a list of ropes, each [[x, y], [x, y]] or [[x, y], [x, y], seat]"),
        "stacks": either(list_of(_IDS, "a list of at most 4 lists (stacks 1 to 4, top first)"), TEXT,
                         wants="a list of at most 4 lists (stacks 1 to 4, top first), or 'dealt'"),
        "tiles": records({"at": POS, "kind": TEXT, "exits": EXITS, "depth": COUNT, "tokens": _IDS,
                          "marker": nullable(COUNT)}),
        "teams": records({"pos": POS, "camp_pos": nullable(POS), "ap": COUNT, "camp": TEXT,
                          "backpack": counts(), "camp_items": counts(), "tokens": counts(),
                          "depth_tokens": list_of(COUNT, "a list of markers ([25, 50])"),
                          "lost": _IDS})},
    "steps": {"team": COUNT, "to": POS, "via": TEXT, "id": TEXT, "item": TEXT, "trigger_seat": COUNT},
    "expect": {"team": COUNT, "ap": COUNT, "pos": POS, "camp_pos": nullable(POS), "tile": POS, "slots": COUNT, "depth": COUNT,
               "marker": nullable(COUNT), "exits": EXITS, "kind": TEXT, "camp": TEXT,
               "rope": _ROPE_END, **{k: BOOL for k in ("present", "absent", "done", "forced",
                                                     "end_triggered", "camp_packed_before")},
               "backpack": counts(), "camp_items": counts(), "depth_tokens": list_of(COUNT),
               "scores": list_of(WHOLE, "a list of scores, one per seat"),
               "winners": list_of(COUNT, "a list of seats ([0])"),
               "finished": list_of(BOOL, "a list of true or false, one per seat"),
               "stacks": list_of(either(COUNT, _IDS), "a list of 4 counts (tiles left in each stack) "
                                                "or of 4 lists of tiles (top first, as in setup)"),
               "turns": list_of(fixed(COUNT, COUNT, wants="[round, seat]"), "a list of [round, seat]")},
}


def expectation_problem(engine: Engine, exp: dict) -> str | None:
    """Why an expectation would pass whatever the game did, else None: it checks nothing
    (`{team: 0}` alone, `bonus: [{}]`), names an item or token no team can hold
    (`backpack: {ropee: 0}` counted 0), or asks a tile absent and of a kind. (An empty
    `tokens: {}` of a team says it holds none: the runner compares the whole bag.)"""
    if vacuous := checks_nothing(exp, alone={"team"}, partial=("bonus",)):
        return vacuous
    if isinstance(exp.get("bonus"), list) and not any(exp["bonus"]):
        return f"bonus: {exp['bonus']!r} names no category: it checks nothing"
    if "tile" in exp and exp.get("absent") and set(exp) - {"tile", "absent"}:
        return f"tile {exp['tile']}: absent: true, and {sorted(set(exp) - {'tile', 'absent'})} of it"
    if isinstance(exp.get("rope"), list) and len(exp["rope"]) == 2 and not exp.get("present", True):
        if why := no_rope_between(engine, [pos(p) for p in exp["rope"]]):   # present: false passed
            return f"rope {exp['rope']}: {why}; no rope could be there"
    if "team" not in exp:
        return None
    tokens = engine.data.kinds["token"]
    for key, known in (("backpack", engine.items), ("camp_items", engine.items), ("tokens", tokens)):
        if isinstance(exp.get(key), dict) and (bad := unknown_names(
                f"team {exp['team']} {key}", [k for k in exp[key] if k not in known],
                engine.items.order if known is engine.items else tokens)):
            return bad
    return None


class AnswerAgent(ScriptedAgent):
    """A team's scripted answers. An answer the decision does not take now is the refusal a
    `fails: true` step may expect only if the decision could take it in some state: a side
    and turn {dir, exits}, a boulder's {dir, kind}, a full backpack's {to_camp | discard:
    item}, a camp swap {backpack, camp}, a branch number; `{dir: Q}` passed as refused."""

    def __init__(self, engine) -> None:
        super().__init__()
        self.engine = engine

    def choose(self, key, options, view=None):
        want = self.choices[0] if self.choices else None
        try:
            return super().choose(key, options, view)
        except ScriptError:
            if want is not None:
                never_taken(self.engine, key, want, list(options))
            raise


def never_taken(engine, key: str, want, options: list) -> None:
    """Raise ScenarioError when the answer `want` could never be taken by decision `key`."""
    sides = lambda v: isinstance(v, str) and 0 < len(v) <= 4 and set(v) <= set("NESW")  # noqa: E731
    items = set(engine.items.order)
    bag = lambda v: isinstance(v, dict) and set(v) <= items  # noqa: E731
    keys = {"place": {"dir", "exits"}, "boulder": {"dir", "kind"}, "make_room": {"to_camp", "discard"},
            "camp_exchange": {"backpack", "camp"}}.get(key)
    values = {"dir": set("NESW"), "exits": sides, "kind": set(engine.data.kinds["tile_kind"]),
              "to_camp": items, "discard": items, "backpack": bag, "camp": bag}
    if problem := answer_never_taken(want, options, keys, values):
        raise ScenarioError(f"scenario error: the answer {want!r} to {key!r} could never be taken, "
                            f"so its refusal would pass vacuously: {problem}")
