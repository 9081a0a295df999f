"""Deep Rock Galactic scenario files: what a setup may say. A misspelt key, an unknown dwarf,
monster or status, or a piece off the map is refused with the entry it is in: ignored, it
would set up a different board than the tester wrote."""
from __future__ import annotations

import re
from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid
from tomecraft.runtime.engines.deep_rock_galactic.engine import plain
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import read_map
from tomecraft.runtime.engines.deep_rock_galactic.actions import HANDLERS
from tomecraft.runtime.engines.deep_rock_galactic.scripted import FACES
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf
# ScenarioError: the scenario itself is wrong (an unknown name, a space off the map, a plan a
# die short...): never a pass, not even for a step expected to be refused. The shared class, so
# that the engine's scenario-only inputs (an attack's `plan`) raise the one the runner catches.
from tomecraft.runtime.scenario import ScenarioError, game_over_step, key_problem, unknown_names
from tomecraft.runtime.scenario_shapes import (
    BOOL, COUNT, SPACE, TEXT, WHOLE, Shape, counts, either, fixed, list_of, nullable, record, records)


_SIDE = re.compile(r"side[1-9]")


def scripted_rolls(engine, raw) -> list[list[dict]]:
    """Scripted dice, one list per roll: a face by name, or `sideN`, the die's N-th side in its
    content, read when the engine rolls that die (so a die's sides are what a scenario checks).
    A face of the loaded dice (a pack's die's `frost`) is named as its term, with the hits its
    sides show (sides of one face with different hits are named `sideN`)."""
    named: dict[str, list[dict]] = {}
    for die in engine.data.of("die"):
        for side in map(plain, die.faces or ()):
            named.setdefault(side["face"], []).append({"face": side["face"], "hits": side.get("hits") or 0})
    faces = {**{f: sides[0] for f, sides in named.items() if all(s == sides[0] for s in sides)}, **FACES}
    for group in raw or []:
        if not isinstance(group, list):     # `rolls: [teeth]` was read as the faces t, e, e...
            raise ScenarioError(f"rolls: one list of faces per roll, in order ([[teeth], [1, blank]]), not {group!r}")
        for f in group:
            if str(f) not in faces and not _SIDE.fullmatch(str(f)):
                why = " (its sides show different hits: name one as sideN)" if str(f) in named else ""
                raise ScenarioError(f"unknown die face {f!r}{why}; faces: {sorted(faces)} or side1..side6")
    return [[{"side": int(str(f)[4:])} if _SIDE.fullmatch(str(f)) else dict(faces[str(f)]) for f in group]
            for group in raw or []]


def _hex(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _is_space(v) -> bool:
    """A written space: [x, y], two integers (`at: []` or `at: [a, b]` ended in an internal error)."""
    return isinstance(v, (list, tuple)) and len(v) == 2 \
        and all(isinstance(n, int) and not isinstance(n, bool) for n in v)


SETUP_KEYS = {"bosco", "dwarves", "event_deck", "event_discard", "exits", "ground", "hazard", "hazard_setup",
              "hidden_monsters", "hidden_segments", "killed", "map", "mine_head", "minerals", "mission", "monsters",
              "objective", "pickups", "pod", "pod_left", "pod_returned", "rock_and_stone_deck",
              "rock_and_stone_discard", "round", "segment_pool", "sentry", "shared", "shield", "stalagmites",
              "supply_deck", "supply_pod", "supply_stock", "swarm_deck", "swarm_discard", "threat",
              "throwable_deck", "throwable_discard", "tokens", "upgrade_supply", "upgrade_tokens", "ziplines"}
DWARF_KEYS = {"acted_at", "actions", "ammo", "at", "carried", "cls", "health", "in_pod", "last_action", "overclocked",
              "primary", "rock_and_stone", "secondary", "secondary_ammo", "spare_upgrades", "statuses",
              "throwables", "tokens", "upgrades", "used"}
MONSTER_KEYS = {"at", "damage", "facing", "hidden_from", "id", "kind", "statuses", "tail"}


# The setup values read as text, a mapping or a list (`map: {}` or `exits: -1` ended in an
# internal error AttributeError).
_KIND_WORDS = {str: "text", dict: "a mapping", list: "a list", int: "an integer"}
SETUP_TYPES = {"map": str, "pod": list, "dwarves": list, "monsters": list, "stalagmites": list,
               "exits": dict, "ground": dict, "killed": dict, "minerals": dict, "pickups": dict,
               "shared": dict, "supply_stock": dict, "tokens": dict, "upgrade_tokens": dict,
               "objective": dict, "event_deck": list, "event_discard": list, "hidden_monsters": list,
               "hidden_segments": list, "rock_and_stone_deck": list, "rock_and_stone_discard": list,
               "swarm_deck": list, "swarm_discard": list, "throwable_deck": list,
               "throwable_discard": list, "upgrade_supply": list, "ziplines": list,
               "hazard": int, "round": int}


def known_keys(setup: dict) -> None:
    """A misspelt setup key would silently set nothing: refuse it; nor may a value of another
    type be read."""
    for key, kind in SETUP_TYPES.items():
        if key in setup and not isinstance(setup[key], kind):
            raise ValueError(f"setup {key}: {setup[key]!r:.40} must be {_KIND_WORDS[kind]}")
    groups = [("setup", setup, SETUP_KEYS)] + [("dwarves", d, DWARF_KEYS) for d in setup.get("dwarves", [])] \
        + [("monsters", m, MONSTER_KEYS) for m in setup.get("monsters", [])]
    for where, spec, known in groups:
        if problem := key_problem(where, spec, known):
            raise ValueError(problem)


def map_cells(text: str) -> dict:
    """The map's hexes, read as `tomecraft check` reads a mission's; a map breaking the format
    (missions/README.md, M-01 ... M-06) is refused at its first problem: read anyway, an odd row
    written without its indent sat half a hex to the left, every monster's way on it changed."""
    found = read_map(text)
    if found.problems:
        p = found.problems[0]
        hint = f" ({p.hint})" if p.hint else ""
        raise ValueError(f"setup map, line {p.line} column {p.column}: {p.rule} {p.message}{hint}")
    return found.cells


def placed_on_map(data, setup: dict, cells: dict) -> None:
    """What stands on the board stands on a space of the map, and a dwarf, a monster and their
    statuses are ones the content has: a typo would leave a monster no activation moves, a
    status that does nothing (a pass for any scenario expecting it to stay) or a piece off the
    board; a misspelt class raised StopIteration ('internal error')."""
    kinds = sorted(m.id for m in data.of("monster"))
    classes = sorted(c.id for c in data.of("dwarf"))
    statuses = sorted(n for n, infos in data.names.items() if "status" in infos)
    pieces = [(f"dwarves[{i}]", spec.get("at")) for i, spec in enumerate(setup.get("dwarves", []))]
    most = data.players["max"]
    if len(setup.get("dwarves", [])) > most:     # L120: 1-4 players, one dwarf board each
        raise ValueError(f"dwarves: {len(setup['dwarves'])} dwarves; the game has at most {most}")
    seated = {}
    for i, spec in enumerate(setup.get("dwarves", [])):
        if spec.get("cls") not in classes:
            raise ValueError(f"dwarves[{i}]: cls {spec.get('cls')!r}: no such dwarf; known: {classes}")
        if spec["cls"] in seated:                # L234, L1421: each dwarf plays its own class board
            raise ValueError(f"dwarves[{i}]: a second {spec['cls']} (dwarves[{seated[spec['cls']]}]); "
                             f"each dwarf has its own class")
        seated[spec["cls"]] = i
    named: dict = {}
    for i, spec in enumerate(setup.get("monsters", [])):
        if spec.get("kind") not in kinds:
            raise ValueError(f"monsters[{i}]: kind {spec.get('kind')!r}: no such monster; known: {kinds}")
        if spec.get("id") is not None and named.setdefault(str(spec["id"]), i) != i:   # steps name one
            raise ValueError(f"monsters[{i}].id {spec['id']!r}: also monsters[{named[str(spec['id'])]}]'s; "
                             "each monster's id is its own")
        # a monster stands somewhere: a missing or empty `at` is refused, not skipped
        pieces += [(f"monsters[{i}] {key}", spec.get(key)) for key in ("at", "tail")
                   if key == "at" or spec.get(key) is not None]
        if spec.get("facing") is not None and not _is_space(spec["facing"]):
            raise ValueError(f"monsters[{i}] facing: {spec['facing']!r:.40} is not a space [x, y]")
    for group in ("dwarves", "monsters"):       # a misspelt status would silently be none
        for i, spec in enumerate(setup.get(group, [])):
            unknown = sorted(set(spec.get("statuses", [])) - set(statuses))
            if unknown:
                raise ValueError(f"{group}[{i}]: unknown status(es) {unknown}; known: {statuses}")
    pieces += [(f"setup.{key}", setup[key]) for key in ("sentry", "shield", "bosco", "supply_pod") if setup.get(key)]
    for k in setup.get("exits", {}):             # Exits 1, 2 and 3 (L870-872, V-12)
        if str(k) not in ("1", "2", "3"):
            raise ValueError(f"exits {k}: a tunnel exit is numbered 1, 2 or 3, not {k!r:.20}")
    pieces += [(f"exits {k}", v) for k, v in setup.get("exits", {}).items()]
    pieces += [(f"stalagmites[{i}]", h) for i, h in enumerate(setup.get("stalagmites", []))]
    for i, (a, b) in enumerate(setup.get("ziplines", [])):   # its two ends, ground across 1-2 pits (L710-722)
        if a == b:
            raise ValueError(f"ziplines[{i}]: {a} to itself: a zipline runs from one end over pits to the other")
        pieces += [(f"ziplines[{i}]", a), (f"ziplines[{i}]", b)]
    for where, at in pieces:
        if not (_is_space(at) and _hex(at) in cells):
            raise ValueError(f"{where}: {at!r} is not a space of the map")
    for k, at in setup.get("exits", {}).items():     # a tunnel opens on cave (V-12) or a hidden segment
        if cells[_hex(at)] in ("#", "*", "x", "o"):
            raise ValueError(f"exits {k}: {at} is {'a pit' if cells[_hex(at)] == 'o' else 'rock'}, "
                             f"not a cave space an exit can be on")
    occupied = {_hex(at): f"exit {k}" for k, at in setup.get("exits", {}).items()}
    occupied.update({_hex(h): "a stalagmite" for h in setup.get("stalagmites", [])})
    occupied.update({_hex(setup[key]): f"the {key}" for key in ("sentry", "bosco", "supply_pod") if setup.get(key)})
    standing: dict = {}
    for j, d in enumerate(setup.get("dwarves", [])):
        h = _hex(d["at"])
        if cells[h] in ("#", "*", "h", "x"):      # no move ends in rock: a typo the monsters walked to
            raise ValueError(f"dwarves[{j}]: {list(h)} is rock, not a space a dwarf can stand on")
        if not d.get("in_pod"):
            if h in standing:                 # no move ends on another dwarf (L336)
                raise ValueError(f"dwarves[{j}]: {list(h)} already holds dwarves[{standing[h]}]")
            if h in occupied:                 # nor on an exit, a stalagmite, a model (L336-346)
                raise ValueError(f"dwarves[{j}]: {list(h)} holds {occupied[h]}: no move ends there")
            standing[h] = j
    bodies: dict = {}
    # no move ends on a stalagmite (L982, L1101) or a model (L996: an empty space; L344)
    held = {h: what for h, what in occupied.items() if not what.startswith("exit")}
    health = {m.id: m.hp for m in data.of("monster")}
    for i, spec in enumerate(setup.get("monsters", [])):
        if isinstance(spec.get("damage"), int) and spec["damage"] >= health[spec["kind"]]:
            raise ValueError(f"monsters[{i}] damage: {spec['damage']} on a {spec['kind']} of "
                             f"{health[spec['kind']]} health is a dead one (L482): fewer, or kill it in a step")
        for key in ("tail", "facing"):       # its rear space and the space it faces lie next to it
            if spec.get(key) and hexgrid.distance(_hex(spec["at"]), _hex(spec[key])) != 1:
                raise ValueError(f"monsters[{i}] {key}: {spec[key]} is not next to its `at` {spec['at']}")
        for h in (_hex(spec["at"]),) + ((_hex(spec["tail"]),) if spec.get("tail") else ()):
            if cells[h] in ("#", "*", "h", "x"):
                raise ValueError(f"monsters[{i}]: {list(h)} is rock, not a space a monster can be on")
            if h in bodies:
                raise ValueError(f"monsters[{i}]: {list(h)} already holds monsters[{bodies[h]}]")
            if h in standing:                # no move ends on a dwarf (L988): no board has both there
                raise ValueError(f"monsters[{i}]: {list(h)} holds dwarves[{standing[h]}]")
            if h in held:
                raise ValueError(f"monsters[{i}]: {list(h)} holds {held[h]}: no monster ends there")
            bodies[h] = i
    one_board(data, setup, cells, occupied)


def one_board(data, setup: dict, cells: dict, occupied: dict) -> None:
    """A position play can reach: set up otherwise, a scenario tests a board no game has (and
    passes for it). A threat token on the track; a two-space monster (the Oppressor, L1183) with
    its rear space and a one-space one without; an unconscious dwarf at 0 health (L316, L1399); a
    dwarf `in_pod` on the pod; the supply pod's stock only with the pod, never on an exit or a pit
    (L598); a stalagmite on cave, not a pit or an exit; no dwarf's move ends on a pit (L353)."""
    track = plain(next(r.value for r in data.of("rule") if r.id == "g11_track_length"))["squares"]
    if isinstance(setup.get("threat"), int) and setup["threat"] >= track:
        raise ValueError(f"threat {setup['threat']}: the Swarm Threat Track has squares 0 to {track - 1}")
    size = {m.id: m.size or 1 for m in data.of("monster")}
    for i, spec in enumerate(setup.get("monsters", [])):
        if size[spec["kind"]] > 1 and not spec.get("tail"):
            raise ValueError(f"monsters[{i}]: the {spec['kind']} covers {size[spec['kind']]} spaces "
                             f"(L1183): give its rear space, `tail: [r, c]` next to `at`")
        if size[spec["kind"]] == 1 and spec.get("tail"):
            raise ValueError(f"monsters[{i}] tail: the {spec['kind']} covers one space; only a "
                             f"two-space monster has a rear space")
    upgrades = sorted(u.id for u in data.of("weapon_upgrade"))
    named = [(f"dwarves[{j}] upgrades {slot}", u) for j, d in enumerate(setup.get("dwarves", []))
             for slot, u in d.get("upgrades", {}).items()]
    named += [(f"dwarves[{j}] spare_upgrades", u) for j, d in enumerate(setup.get("dwarves", []))
              for u in d.get("spare_upgrades", [])]
    named += [(f"upgrade_tokens {k}", u) for k, u in setup.get("upgrade_tokens", {}).items()]
    named += [("upgrade_supply", u) for u in setup.get("upgrade_supply", [])]
    for where, u in named:             # a misspelt one raised KeyError at the ammo caps
        if u not in upgrades:
            raise ValueError(f"{where}: unknown upgrade {u!r}; upgrades: {', '.join(upgrades)}")
    for j, d in enumerate(setup.get("dwarves", [])):
        for slot in d.get("upgrades", {}):
            if slot not in ("primary", "secondary"):
                raise ValueError(f"dwarves[{j}] upgrades {slot}: a weapon slot is primary or secondary")
    pod = {_hex(h) for h in setup.get("pod", [[8, 0], [8, 1], [7, 0], [7, 1]])}
    for j, d in enumerate(setup.get("dwarves", [])):
        h = _hex(d["at"])
        if "unconscious" in d.get("statuses", []) and d.get("health", 1) != 0:
            raise ValueError(f"dwarves[{j}]: unconscious with health {d.get('health', 'full')}: "
                             f"a dwarf is unconscious at 0 health (L316): say `health: 0`")
        if d.get("in_pod") and h not in pod:
            raise ValueError(f"dwarves[{j}]: in_pod at {list(h)}, not a space of the pod {sorted(map(list, pod))}")
        if cells[h] == "o" and not d.get("in_pod"):
            raise ValueError(f"dwarves[{j}]: {list(h)} is a pit: no dwarf's move ends there (L353)")
    if setup.get("supply_stock") and not setup.get("supply_pod"):
        raise ValueError("supply_stock without a supply_pod: the stock lies on the pod's card (L600-604)")
    exits = {_hex(v) for v in setup.get("exits", {}).values()}
    why = {"supply_pod": "no supply pod lands on a tunnel exit or a pit (L598)",
           "stalagmites": "a stalagmite stands on a cave space, never an exit or a pit"}
    for where, at in [("supply_pod", setup.get("supply_pod"))] + \
            [(f"stalagmites[{i}]", h) for i, h in enumerate(setup.get("stalagmites", []))]:
        if at and (cells[_hex(at)] == "o" or _hex(at) in exits):
            raise ValueError(f"{where}: {at} is {'a pit' if cells[_hex(at)] == 'o' else 'a tunnel exit'}: "
                             f"{why[where.split('[')[0]]}")


def known_kinds(data) -> dict[str, list[str]]:
    """The names a scenario may give per kind of thing: monsters (`killed`, an expected
    `monsters:` kind), what the Shared Supply holds (resources, minerals, pickups: `shared`), board
    tokens (`tokens`, the IFG's field and a zipline's far end, which the engine keeps as tokens):
    a misspelt one checked nothing, `{monsters: gruntt, count: 0}` passed."""
    infos = data.names.items()
    return {"monster": sorted(m.id for m in data.of("monster")),
            "shared": sorted({n for n, i in infos if "resource" in i} | {p.id for p in data.of("pickup")}
                             | {m.id for m in data.of("mineral")}),
            "token": sorted({n for n, i in infos if "board_token" in i} | {"ifg_field", "zipline_end"})}


# what a supply pod holds (actions.call_supply): a misspelt `helth` in setup or an expectation
STOCK = ("ammo", "health", "secondary_ammo")


def named_kinds(data, setup: dict) -> None:
    """`killed`, `shared` and `tokens` of a setup name things the game has (`known_kinds`), and
    `supply_stock` what a pod holds (a misspelt `helth: 2` was a pod with nothing to collect)."""
    known = known_kinds(data)
    # what lies on or is carried over the map, and a dwarf's own tokens and throwables: a
    # misspelt `carried: {golld: 1}` or `throwables: [sticky_grendae]` set up a thing no rule reads
    things = [(f"setup.minerals[{k!r}]", [v], known["shared"]) for k, v in (setup.get("minerals") or {}).items()]
    things += [(f"setup.ground[{k!r}]", v, known["shared"] + ["health_cube"])
               for k, v in (setup.get("ground") or {}).items() if isinstance(v, dict)]
    # the throwable and Rock and Stone piles too: `rock_and_stone_deck: [r1]` was a deck of
    # cards the game does not have, drawn as nothing any rule reads
    throwables, beers = list(data.kinds["throwable"]), [c.id for c in data.of("rock_and_stone_card")]
    # a pickup on the map or face down on a hidden segment: `[nosuch, true]` failed as a
    # KeyError when a dwarf walked by
    pickups = sorted(p.id for p in data.of("pickup"))
    for k, v in (setup.get("pickups") or {}).items():
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[1], bool)):
            raise ValueError(f"setup.pickups[{k!r}]: [kind, face_up] ([loot_bug, false]), not {v!r:.40}")
        things.append((f"setup.pickups[{k!r}]", [v[0]], pickups))
    segments = [(i, seg) for i, seg in enumerate(setup.get("hidden_segments") or []) if isinstance(seg, dict)]
    things += [(f"setup.hidden_segments[{i}].pickups", seg.get("pickups") or [], pickups) for i, seg in segments]
    # a tile named by id is one of the pool's (an unknown one failed as a KeyError at `setup:`)
    pool = [t["tile"] for r in data.of("rule") if r.id == "hidden_segment_pool" for t in r.value]
    things += [(f"setup.hidden_segments[{i}].tile", [seg["tile"]], pool) for i, seg in segments
               if isinstance(seg.get("tile"), str)]
    things += [(f"setup.{pile}", setup.get(pile) or [], kinds) for pile, kinds in (
        ("throwable_deck", throwables), ("throwable_discard", throwables),
        ("rock_and_stone_deck", beers), ("rock_and_stone_discard", beers)) if isinstance(setup.get(pile), list)]
    for seat, spec in enumerate(d for d in setup.get("dwarves") or [] if isinstance(d, dict)):
        things += [(f"setup.dwarves[{seat}].carried", spec.get("carried") or {}, known["shared"]),
                   (f"setup.dwarves[{seat}].tokens", spec.get("tokens") or {}, known["token"]),
                   (f"setup.dwarves[{seat}].throwables", spec.get("throwables") or [], throwables)]
        if isinstance(spec.get("rock_and_stone"), list):
            things.append((f"setup.dwarves[{seat}].rock_and_stone", spec["rock_and_stone"], beers))
    for where, names, kinds in things:
        if problem := unknown_names(where, map(str, names), kinds):
            raise ValueError(problem)
    if isinstance(setup.get("supply_stock"), dict) and \
            (problem := unknown_names("setup.supply_stock", map(str, setup["supply_stock"]), STOCK)):
        raise ValueError(problem)
    for key, kind in (("killed", "monster"), ("shared", "shared"), ("tokens", "token")):
        unknown = sorted(set(map(str, setup.get(key) or {})) - set(known[kind]))
        if unknown:
            raise ValueError(f"setup.{key}: unknown {kind} {unknown[0]!r}; known: {known[kind]}")
    # no more of a class token on the board than the box holds (6 flames, 2 flares..., L254-260)
    for t in data.of("board_token"):
        placed = (setup.get("tokens") or {}).get(t.token)
        if t.supply is not None and isinstance(placed, list) and len(placed) > t.supply:
            raise ValueError(f"setup.tokens.{t.token}: {len(placed)} on the board; the box has {t.supply} (L254-260)")


def setup_objective(data, objective) -> dict:
    """The setup's objective as the engine reads it, or a refusal: {type: collect, targets
    {name: n}} or {type: eliminate, creature: a monster id} (rulebook L182-186)."""
    if not isinstance(objective, dict):
        raise ValueError(f"objective must be a mapping, not {objective!r:.40}")
    kind = objective.get("type")
    if kind == "collect" and isinstance(objective.get("targets"), dict) \
            and set(objective) <= {"type", "targets"}:
        return objective
    monsters = {m.id for m in data.of("monster")}
    if kind == "eliminate" and objective.get("creature") in monsters and set(objective) == {"type", "creature"}:
        return objective
    if kind == "none" and set(objective) == {"type"}:
        return objective
    raise ValueError(f"objective {objective!r:.60}: expected {{type: collect, targets: {{name: n}}}} "
                     f"or {{type: eliminate, creature: one of {sorted(monsters)}}}")


def setup_cards(by_id: dict, setup: dict, key: str) -> list:
    """The cards a setup list names, an unknown id refused with the ids there are (not a
    bare KeyError)."""
    ids = setup.get(key, [])
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        raise ValueError(f"{key}: unknown card {unknown[0]!r}; cards: {', '.join(sorted(by_id))}")
    return [by_id[i] for i in ids]


def check_weapons(data, seat: int, cls: str, spec: dict) -> None:
    """A dwarf's `primary` is one of his class's primaries, his `secondary` a secondary open
    to him (L238, L247, L1300-1339: `secondary: nosuch` failed as a KeyError at the first
    step, an Engineer with the Gunner's minigun played), and `used` counts a weapon's mode
    ("flamethrower:flaming_ground") or a spare upgrade ("spare:steady_grip")."""
    weapons = data.of("weapon")
    for slot in ("primary", "secondary"):
        open_ = sorted(w.id for w in weapons if w.slot == slot
                       and (w.dwarf == cls if slot == "primary" else w.dwarf in (None, cls)))
        if slot in spec and spec[slot] not in open_:
            raise ValueError(f"dwarves[{seat}] {slot} {spec[slot]!r}: not a {slot} weapon of the {cls}; "
                             f"the {cls}'s: {', '.join(open_)}")
    modes = {f"{w.id}:{m.get('id')}" for w in weapons for m in w.modes}
    modes |= {f"spare:{u.id}" for u in data.of("weapon_upgrade")}
    for key in spec.get("used") or {}:
        if str(key) not in modes:
            raise ValueError(unknown_names(f"dwarves[{seat}] used", [key], modes))
    last = spec.get("last_action")
    if last is not None:      # read by a mode played "after" another (actions.py): a misspelt one matched nothing
        if problem := key_problem(f"dwarves[{seat}].last_action", last, ("do", "weapon", "mode")):
            raise ValueError(problem)
        if problem := unknown_names(f"dwarves[{seat}].last_action.do", [last.get("do")], HANDLERS):
            raise ValueError(problem)
        if "weapon" in last:
            by_id = {w.id: w for w in weapons}
            if problem := unknown_names(f"dwarves[{seat}].last_action.weapon", [last["weapon"]], by_id):
                raise ValueError(problem)
            count = len(by_id[last["weapon"]].modes)
            if not 0 <= last.get("mode", 0) < count:
                raise ValueError(f"dwarves[{seat}].last_action.mode {last['mode']}: {last['weapon']} has modes 0-{count - 1}")


def setup_dwarf(engine, data, seat: int, spec: dict) -> Dwarf:
    """The dwarf a scenario's `dwarves[seat]` entry sets up: the class board's full health and
    ammo, its default primary and its tokens, unless the entry says otherwise."""
    cls = spec["cls"]
    check_weapons(data, seat, cls, spec)
    primary = spec.get("primary") or next(w.id for w in data.of("weapon") if w.dwarf == cls and w.default)
    board = data.get("dwarf", cls)          # a full board unless the scenario says
    statuses = set(spec.get("statuses", []))
    # a dwarf set up Stunned acts in a Stunned Action Phase: 1 action (L310), unless told
    default_actions = 1 if "stunned" in statuses else 3
    d = Dwarf(seat, cls, _hex(spec["at"]), health=spec.get("health", board.health),
              ammo=spec.get("ammo", board.primary_ammo),
              secondary_ammo=spec.get("secondary_ammo", board.secondary_ammo),
              secondary=spec.get("secondary", "zhukov"),
              primary=primary, overclocked=spec.get("overclocked", False),
              statuses=statuses, actions=spec.get("actions", default_actions),
              in_pod=spec.get("in_pod", False), carried=Counter(spec.get("carried", {})),
              throwables=list(spec.get("throwables", [])))
    d.upgrades, d.spare_upgrades = dict(spec.get("upgrades", {})), list(spec.get("spare_upgrades", []))
    cards = spec.get("rock_and_stone", [])
    if isinstance(cards, int):             # a count: dealt from the top of the deck
        engine.draw_rock_and_stone(d, cards)
    else:
        d.rock_and_stone = list(cards)
    d.tokens = Counter(plain(data.get("dwarf", cls).equipment) or {})
    d.acted_at = spec.get("acted_at", -1)
    if "tokens" in spec:                     # class tokens still in hand (platforms, ...)
        d.tokens = Counter(spec["tokens"])
    if "last_action" in spec:                # e.g. {do: attack, weapon: minigun, mode: 0}
        la = spec["last_action"]
        d.last_action = (la["do"], la.get("weapon"), la.get("mode", 0 if "weapon" in la else None))
    d.used = Counter({tuple(k.split(":")): n for k, n in spec.get("used", {}).items()})
    if not isinstance(d.health, int) or not 0 <= d.health <= board.health:
        # L234: the board's health spaces; below 0 or over them no play reaches
        raise ValueError(f"dwarves[{seat}] health {d.health!r}: 0 to {board.health} "
                         f"(the {cls}'s board, L234)")
    for resource in ("ammo", "secondary_ammo"):     # L606-608: the board's ammo spaces
        if getattr(d, resource) > engine.ammo_cap(d, resource):
            raise ValueError(f"dwarves[{seat}] {resource} {getattr(d, resource)}: 0 to "
                             f"{engine.ammo_cap(d, resource)} (the {cls}'s board"
                             f"{', overclocked' if d.overclocked and resource != 'ammo' else ''}, L606-608)")
    if d.health == 0:
        d.statuses.add("unconscious")
    return d


# The shapes of the values (runtime/scenario_shapes.py checks them first, at their lines):
# `statuses: webbed` was read as the statuses w, e, b, d; `path: north` failed with
# "invalid literal for int()"; `log: []` with "'in <string>' requires string".
_IDS = list_of(TEXT, "a list of ids")
# a move's path takes one step at least: `path: []` failed with an IndexError
_PATH = either(SPACE, Shape("a list of one or more spaces", lambda v: isinstance(v, list) and len(v) > 0,
                            list_of(SPACE).inner), wants="a space [r, c] or a list of one or more spaces [[r, c], ...]")
_LAST_ACTION = record({"do": TEXT, "weapon": TEXT, "mode": COUNT}, "a mapping {do, weapon, mode}")
_DWARF = {"cls": TEXT, "at": SPACE, **{k: COUNT for k in ("health", "ammo", "secondary_ammo", "actions",
                                                            "acted_at")},
          "secondary": TEXT, "primary": TEXT, "statuses": _IDS, "throwables": _IDS, "spare_upgrades": _IDS,
          "rock_and_stone": either(COUNT, _IDS, wants="a count or a list of card ids"),
          "upgrades": counts("a mapping of slots to upgrade ids ({primary: id})", TEXT),
          "carried": counts("a mapping of minerals to counts ({aquarq: 1})"),
          "used": counts('a mapping of "weapon:mode" to the times used this round ({"flamethrower:flaming_ground": 1})'),
          "tokens": counts("a mapping of token kinds to counts ({shield: 1})"), "last_action": _LAST_ACTION}
_MONSTER = {"id": TEXT, "kind": TEXT, "at": SPACE, "damage": COUNT, "statuses": _IDS,
            "tail": SPACE, "facing": SPACE}
SHAPES = {
    "setup": {"mission": TEXT, "map": TEXT, "hazard": COUNT, "hazard_setup": COUNT, "threat": COUNT,
              "round": COUNT, "pod": list_of(SPACE, "a list of 4 spaces [[r, c], ...]", length=4),
              "exits": counts('a mapping of exit numbers to spaces ({"1": [0, 0]})', SPACE),
              **{k: nullable(SPACE) for k in ("mine_head", "sentry", "bosco", "shield", "supply_pod")},
              "stalagmites": list_of(SPACE, "a list of spaces [[r, c], ...]"),
              "dwarves": records(_DWARF), "monsters": records(_MONSTER),
              **{k: _IDS for k in ("event_deck", "swarm_deck", "throwable_deck", "upgrade_supply",
                                   "throwable_discard", "event_discard", "swarm_discard", "supply_deck",
                                   "rock_and_stone_deck", "rock_and_stone_discard")},
              "minerals": counts('a mapping of spaces to minerals ({"4,2": gold})', TEXT),
              "killed": counts("a mapping of monster kinds to counts ({grunt: 2})"),
              # `shared: {gold: -1}` or a pod's `health: -2` set up what no play reaches
              "shared": counts("a mapping of resources to counts ({gold: 2})"),
              "supply_stock": counts("a mapping of supplies to counts ({health: 2, ammo: 1})"),
              "ground": counts('a mapping of spaces to what lies there ({"4,2": {gold: 1}})',
                               counts("a mapping of minerals to counts ({gold: 1})")),
              "tokens": counts("a mapping of token kinds to spaces ({shield: [[4, 4]]})",
                               list_of(SPACE, "a list of spaces [[r, c], ...]")),
              "ziplines": list_of(fixed(SPACE, SPACE, wants="[[r, c], [r, c]]"), "a list of [a, b] pairs")},
    "steps": {**{k: COUNT for k in ("dwarf", "drawer", "who", "n", "exit")}, "path": _PATH,
              **{k: TEXT for k in ("weapon", "card", "kind", "monster", "slot", "upgrade", "id")},
              "mode": either(COUNT, TEXT, wants="a mode's index or id"), "land": SPACE,
              "move_and_attack": BOOL, "from_behind": BOOL, "plan": list_of(SPACE, "a list of spaces, one per die ([[4, 4], [4, 5]])"),
              # `give: {ammo: -2}` passed as a refusal, or carried out as 2 ammo taken
              **{k: counts("a mapping of what is handed over to counts or ids ({ammo: 1, throwables: [impact_axe]})",
                           either(COUNT, _IDS, wants="a count, 0 or more, or a list of ids")) for k in ("give", "take")},
              "rolls": list_of(list_of(either(TEXT, WHOLE), "one list of faces per roll ([[teeth], [1, blank]])"),
                               "a list of rolls, each a list of faces ([[teeth], [1, blank]])")},
    "expect": {**{k: COUNT for k in ("dwarf", "health", "ammo", "secondary_ammo", "actions", "damage",
                                     "count", "threat", "upgrade_tokens")},
               "monster": TEXT, "monsters": TEXT, "pos": SPACE, "statuses": _IDS, "throwables": _IDS,
               **{k: BOOL for k in ("dead", "hidden", "in_pod", "overclocked", "present", "revealed")},
               **{k: nullable(SPACE) for k in ("bosco", "sentry", "shield", "supply_pod")},
               **{k: SPACE for k in ("ground", "terrain", "stalagmite", "hidden_segment", "tail", "facing")},
               **{k: _IDS for k in ("throwable_deck", "throwable_discard", "event_discard", "swarm_discard",
                                    "rock_and_stone_deck", "rock_and_stone_discard", "spare_upgrades")},
               "result": nullable(TEXT), "is": TEXT, "tokens": TEXT,
               # `rock_and_stone: false`, `shared: {gold: false}` compared equal to 0 and passed
               "rock_and_stone": either(COUNT, _IDS, wants="a count or a list of card ids"),
               **{k: counts(f"a mapping of names to counts ({{{e}: 1}})") for k, e in
                  (("shared", "gold"), ("stock", "health"), ("carried", "aquarq"), ("minerals", "gold"))}},
}


def after_the_end(engine, step: dict) -> None:
    """A step given once the mission ended (success L1289, failure L1291-1293) fails by name:
    an event or an action was played on a finished mission, and the expectations read that.
    The Deep Dive's steps between missions (gold, upgrade trades) follow a mission's end, and
    check_end only runs the end check again."""
    if engine.state.result is not None and step.get("do") not in ("deep_dive_gold", "deep_dive_trade",
                                                                   "check_end"):
        raise ScenarioError(game_over_step(f"the mission ended: {engine.state.result}, L1289-1293"))
