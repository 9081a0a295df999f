"""`tomecraft check FILE`: check one content file, or one mission file, in its game's context.

A content file's game is found by walking up to the nearest game.yaml (or the pack.yaml of a
pack under content/<game>/packs/). The whole game is compiled, and the diagnostics about the
file are reported, so a fan sees exactly what is wrong with the file they are editing.

A mission file can live anywhere (a fan's home directory): it is recognised by its content,
`game: deep_rock_galactic` and a top-level `mission:` mapping. It is validated against the
mission schema (MISSION_SCHEMA) and every constraint of the Deep Rock Galactic inventory §9.5
(V-01 ... V-27), each diagnostic pointing at the offending line and column; inside the hex map
the caret points at the offending hex. The map format is documented in
content/deep_rock_galactic/missions/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


from compiler import diagnostics as dg, loader, pipeline, schemas
from compiler.packs import display_path
from runtime.engines.deep_rock_galactic import hexgrid   # the same geometry the engine plays on

MISSION_GAMES = {"deep_rock_galactic"}


def find_game_root(path: Path) -> tuple[Path | None, list[Path]]:
    packs: list[Path] = []
    for parent in path.resolve().parents:
        if (parent / "pack.yaml").is_file() and not (parent / "game.yaml").is_file():
            packs.append(parent)
        if (parent / "game.yaml").is_file():
            return parent, packs
    return None, packs


def is_mission(data) -> bool:
    return (isinstance(data, dict) and data.get("game") in MISSION_GAMES
            and isinstance(data.get("mission"), dict))


def check_file(path: Path, reporter: dg.Reporter) -> None:
    display = display_path(path)
    scratch = dg.Reporter()
    doc = loader.load(path, scratch, display)
    if doc is not None and is_mission(doc.data):
        check_mission(doc, display, reporter)
        return
    root, packs = find_game_root(path)
    if root is None:
        reporter.diagnostics.extend(scratch.diagnostics)
        if doc is not None:
            reporter.add(dg.USAGE, "this file belongs to no game (no game.yaml above it)",
                         display, 1, 1, "put it under content/<game>/ or in a pack, or, for a "
                         "mission file, give it `game: deep_rock_galactic` and a `mission:` mapping")
        return
    scratch = dg.Reporter()
    pipeline.compile_game(root, packs, scratch)
    target = Path(display).resolve()
    for d in scratch.diagnostics:
        if Path(d.file).resolve() == target:
            reporter.diagnostics.append(d)


# --- the mission format ----------------------------------------------------------------------

_TEXT = {"type": "object", "required": ["zh", "en"], "additionalProperties": False,
         "properties": {"zh": {"type": "string"}, "en": {"type": "string"}}}
_HEX = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
        "description": "[row, column] of a hex of the map, both from 0"}
_COUNTS = {"type": "object", "propertyNames": {"pattern": schemas.ID_PATTERN},
           "additionalProperties": {"type": "integer", "minimum": 0}}

MISSION_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Deep Rock Galactic mission file",
    "type": "object",
    "required": ["game", "mission"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": "deep_rock_galactic"},
        "mission": {
            "type": "object",
            "required": ["id", "name", "source", "objective", "minerals", "pickups", "map"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": schemas.ID_PATTERN},
                "number": {"type": "integer", "minimum": 1},
                "name": _TEXT,
                "source": {"enum": ["rulebook", "public", "approximation"]},
                "ref": {"type": "string"},
                "note": {"type": "string"},
                "approximations": {"type": "object", "additionalProperties": {"type": "string"}},
                "public": {"type": "object", "additionalProperties": {"type": "string"}},
                "objective": {
                    "type": "object", "required": ["type"], "additionalProperties": False,
                    "properties": {
                        "type": {"enum": ["collect", "eliminate"]},
                        "targets": _COUNTS,
                        "creature": {"type": "string"},
                    }},
                "hazard": {"type": "integer", "minimum": 1, "maximum": 5,
                           "description": "recommended Hazard level; the players choose"},
                "threat_start": {"description": "refused (V-26): the Hazard level sets it"},
                "minerals": _COUNTS,
                "pickups": _COUNTS,
                "remove_cards": {"type": "array", "items": {"type": "string"}},
                "mission_event": {"type": "string"},
                "hidden_monsters": {"type": "array", "items": {
                    "type": "object", "required": ["creature", "count"], "additionalProperties": False,
                    "properties": {"creature": {"type": "string"},
                                   "count": {"type": "integer", "minimum": 1}}}},
                "tokens": _COUNTS,
                "drop_pod": {"type": "array", "items": _HEX},
                "tunnel_exits": {"type": "array", "items": {
                    "type": "object", "required": ["exit", "at"], "additionalProperties": False,
                    "properties": {"exit": {"type": "integer", "minimum": 1}, "at": _HEX}}},
                "mine_head": _HEX,
                "stalagmites": {"type": "array", "items": _HEX},
                "mineral_spaces": {"type": "array", "items": {
                    "type": "object", "required": ["mineral", "at"], "additionalProperties": False,
                    "properties": {"mineral": {"type": "string"}, "at": _HEX}},
                    "description": "minerals placed on a fixed diamond space instead of at random"},
                "drones": {"type": "array", "items": _HEX},
                "map": {"type": "string"},
            }},
    },
}

# Hex map characters (see missions/README.md).
WALL, DIAMOND, CAVE, STONE, FLARE, PIT, HIDDEN, OFF = "#", "*", ".", "^", "?", "o", "h", "x"
MAP_CHARS = {WALL: "wall", DIAMOND: "wall with a diamond (mineral) space", CAVE: "cave space",
             STONE: "stone-pattern space", FLARE: "flare-stick (pickup) space", PIT: "pit",
             HIDDEN: "hidden cave segment slot", OFF: "off the mission map"}
REVEALED = {CAVE, STONE, FLARE}         # open ground of revealed segments
WALLS = {WALL, DIAMOND}
MAX_HIDDEN_SEGMENTS = 8                 # V-09, rulebook L205
CLASS_TOKENS = {"platform": 6, "zipline": 3, "flame": 6, "flare": 2, "shield": 1, "sentry_gun": 1}
DEFAULT_PICKUPS_PER_HIDDEN = 2          # rule v18_pickups_per_hidden_segment


def neighbours(row: int, col: int) -> list[tuple[int, int]]:
    """The 6 hexes next to (row, col) on an odd-row-shifted map (odd rows sit half a hex right)."""
    return hexgrid.neighbours((row, col))


@dataclass
class HexMap:
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    where: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # hex -> (line, col) in map text

    def get(self, hex_: tuple[int, int]) -> str:
        return self.cells.get(hex_, OFF)

    def of(self, kinds: set[str]) -> list[tuple[int, int]]:
        return sorted(h for h, c in self.cells.items() if c in kinds)

    def components(self, kinds: set[str]) -> list[list[tuple[int, int]]]:
        return hexgrid.components(self.cells, kinds)

    def reachable(self, starts, passable: set[str]) -> set[tuple[int, int]]:
        seen = set(s for s in starts if self.get(s) in passable)
        stack = list(seen)
        while stack:
            h = stack.pop()
            for n in neighbours(*h):
                if n not in seen and self.get(n) in passable:
                    seen.add(n)
                    stack.append(n)
        return seen


MAX_MAP_ROWS = 40       # input limits: the rulebook's maps are about 14 x 12 hexes
MAX_MAP_COLUMNS = 40


def parse_map(text: str) -> tuple[HexMap, list[tuple[int, int, str]]]:
    """Rows of hexes separated by single spaces; odd rows indented one more space.

    Returns the map and the bad characters as (line, column, char), 1-based within the text.
    """
    hexmap, bad = HexMap(), []
    rows = text.split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    base = min((len(r) - len(r.lstrip(" ")) for r in rows if r.strip()), default=0)
    for r, line in enumerate(rows):
        col = 0
        for i, ch in enumerate(line):
            if ch == " ":
                continue
            if ch not in MAP_CHARS:
                bad.append((r + 1, i + 1, ch))
            else:
                hexmap.cells[(r, col)] = ch
                hexmap.where[(r, col)] = (r + 1, i + 1)
            col += 1
    del base
    return hexmap, bad


# --- the validator ---------------------------------------------------------------------------

@dataclass
class Roster:
    """What a mission may name, from the compiled game."""
    creatures: set[str]
    minerals: set[str]
    pickups: set[str]
    cards: set[str]
    game: object = None


def roster(game=None) -> Roster:
    if game is None:
        game = pipeline.compile_game(pipeline.content_root() / "deep_rock_galactic", [], dg.Reporter())
    if game is None:
        return Roster(set(), set(), set(), set())
    creatures = {name for name, infos in game.vocab.names.items() if "creature" in infos}
    creatures |= set(game.entities.get("monster", {}))
    return Roster(creatures, set(game.entities.get("mineral", {})),
                  set(game.entities.get("pickup", {})), set(game.entities.get("event_card", {})),
                  game)


class MissionChecker:
    """Checks one mission mapping found at `base` inside `doc`: a mission file's `("mission",)`
    or a Mission Book entity's path. `check_event` parses the mission event here (a content
    entity's effects are checked by the compiler's own stages)."""

    def __init__(self, doc: loader.Document, display: str, reporter: dg.Reporter, names: Roster,
                 base: tuple = ("mission",), check_event: bool = True):
        self.doc, self.display, self.reporter, self.names = doc, display, reporter, names
        self.base, self.check_event = tuple(base), check_event
        m = doc.data
        for key in self.base:
            m = m[key]
        self.m: dict = m
        self.map = HexMap()

    # reporting
    def at(self, path: tuple, rule: str, message: str, hint: str = "", key: bool = False,
           warning: bool = False) -> None:
        mark = self.doc.mark(self.base + path, key=key or not path)
        code = dg.GAME_RULE_WARNING if warning else dg.GAME_RULE
        self.reporter.add(code, f"{rule}: {message}", self.display, mark.line, mark.column, hint)

    def at_hex(self, hex_: tuple[int, int], rule: str, message: str, hint: str = "") -> None:
        line, column = self.map.where[hex_]
        pos = self.doc.effect_position(self.base + ("map",), line, column)
        self.reporter.add(dg.GAME_RULE, f"{rule}: {message}", self.display, pos[0], pos[1], hint)

    def unknown(self, path: tuple, rule: str, what: str, name: str, known: set[str]) -> None:
        from compiler.checks import did_you_mean
        self.at(path, rule, f"unknown {what} {name!r}",
                did_you_mean(name, sorted(known)) or f"known: {', '.join(sorted(known))}")

    def hex_of(self, path: tuple, value, rule: str) -> tuple[int, int] | None:
        """A [row, col] value that must be on the map, else report it under `rule`."""
        hex_ = (value[0], value[1])
        if self.map.get(hex_) == OFF:
            self.at(path, rule, f"hex {list(hex_)} is off the mission map",
                    "rows and columns count from 0; `x` hexes are outside the map")
            return None
        return hex_

    def map_size_ok(self, text: str) -> bool:
        """Input limit (issue 15): the rulebook's maps are about 14 x 12 hexes; a map past
        MAX_MAP_ROWS x MAX_MAP_COLUMNS would make every simulated game crawl."""
        rows = text.rstrip().split("\n")
        columns = max((len(r.replace(" ", "")) for r in rows), default=0)
        if len(rows) <= MAX_MAP_ROWS and columns <= MAX_MAP_COLUMNS:
            return True
        self.at(("map",), "V-00", f"the map is {len(rows)} rows by {columns} hexes; the limit "
                f"is {MAX_MAP_ROWS} by {MAX_MAP_COLUMNS}", "draw a board-sized map")
        return False

    # the checks
    def run(self) -> None:
        m = self.m
        if not self.map_size_ok(m["map"]):
            return
        hexmap, bad = parse_map(m["map"])
        self.map = hexmap
        for line, column, ch in bad:
            pos = self.doc.effect_position(self.base + ("map",), line, column)
            self.reporter.add(dg.SCHEMA, f"unknown map character {ch!r}", self.display, *pos,
                              "use " + ", ".join(f"`{k}` {v}" for k, v in MAP_CHARS.items()))
        if "threat_start" in m:
            self.at(("threat_start",), "V-26", "a mission must not fix the Swarm Threat start",
                    "the players' Hazard level (1, 2 or 3-5 square) sets it; use `hazard:` "
                    "to recommend one", key=True)
        self.objective()
        self.components()
        revealed = hexmap.of(REVEALED)
        if not revealed:
            self.at(("map",), "V-04", "the map has no revealed cave space",
                    "draw revealed segments with `.`, `^` and `?`")
            return
        pod = self.drop_pod()
        exits = self.tunnel_exits()
        self.pits()
        self.hidden(pod)
        self.stalagmites()
        self.minerals()
        self.pickups()
        self.mine_head(pod)
        self.drones()
        self.supply_landing(exits)
        self.mission_event()
        self.reachability(pod)

    def objective(self) -> None:
        obj = self.m["objective"]
        if obj["type"] == "eliminate":
            creature = obj.get("creature")
            if creature is None:
                self.at(("objective",), "V-02", "an eliminate mission must name its target creature",
                        "add `creature: <monster id>`")
            elif creature not in self.names.creatures:
                self.unknown(("objective", "creature"), "V-02", "creature", creature, self.names.creatures)
            if "targets" in obj:
                self.at(("objective", "targets"), "V-01", "an eliminate mission collects nothing",
                        "remove `targets`, or make it a collect mission", key=True)
        else:
            targets = obj.get("targets")
            if not targets:
                self.at(("objective",), "V-03", "a collect mission must name what to collect",
                        "add `targets: {morkite: 5}`")
                return
            known = self.names.minerals | {p for p in self.names.pickups}
            for name in targets:
                if name not in known:
                    self.unknown(("objective", "targets", name), "V-03", "collect target", name, known)
            if "creature" in obj:
                self.at(("objective", "creature"), "V-01", "a collect mission has no target creature",
                        "remove `creature`, or make it an eliminate mission", key=True)

    def components(self) -> None:
        for name, count in self.m.get("tokens", {}).items():
            limit = CLASS_TOKENS.get(name)
            if limit is None:
                self.unknown(("tokens", name), "V-24", "class token", name, set(CLASS_TOKENS))
            elif count > limit:
                self.at(("tokens", name), "V-24",
                        f"{count} {name} tokens, but the box has {limit}")
        for i, entry in enumerate(self.m.get("hidden_monsters", [])):
            if entry["creature"] not in self.names.creatures:
                self.unknown(("hidden_monsters", i, "creature"), "V-23", "creature",
                             entry["creature"], self.names.creatures)
        for i, card in enumerate(self.m.get("remove_cards", [])):
            if card not in self.names.cards:
                self.unknown(("remove_cards", i), "V-20", "card", card, self.names.cards)

    def drop_pod(self) -> list[tuple[int, int]]:
        if "drop_pod" not in self.m:
            self.at((), "V-07", "the mission has no drop pod", "add `drop_pod:` with its 4 spaces")
            return []
        spaces = self.m["drop_pod"]
        if len(spaces) != 4:
            self.at(("drop_pod",), "V-07", f"the drop pod takes exactly 4 spaces, not {len(spaces)}")
        pod = []
        for i, value in enumerate(spaces):
            hex_ = self.hex_of(("drop_pod", i), value, "V-07")
            if hex_ is None:
                continue
            if self.map.get(hex_) not in REVEALED:
                self.at(("drop_pod", i), "V-07",
                        f"drop pod space {list(hex_)} is on a {MAP_CHARS[self.map.get(hex_)]}",
                        "the drop pod lies on revealed cave spaces")
                continue
            pod.append(hex_)
        if len(pod) == len(spaces) == 4:
            if len(set(pod)) != 4 or not _connected(pod):
                self.at(("drop_pod",), "V-07", "the drop pod's 4 spaces must be distinct and touch")
            free = {n for h in pod for n in neighbours(*h)
                    if n not in pod and self.map.get(n) in REVEALED}
            if not free:
                self.at(("drop_pod",), "V-08", "no empty cave space next to the drop pod",
                        "BOSCO starts there, and dwarves land there when the pod returns")
        return pod

    def tunnel_exits(self) -> dict[int, tuple[int, int]]:
        exits: dict[int, tuple[int, int]] = {}
        entries = self.m.get("tunnel_exits", [])
        for i, entry in enumerate(entries):
            number = entry["exit"]
            if number in exits:
                self.at(("tunnel_exits", i, "exit"), "V-12", f"Exit {number} is placed twice")
                continue
            if number > 3:
                self.at(("tunnel_exits", i, "exit"), "V-12",
                        f"spawn events name Exits 1, 2 and 3 only, not {number}")
                continue
            hex_ = self.hex_of(("tunnel_exits", i, "at"), entry["at"], "V-12")
            if hex_ is None:
                continue
            kind = self.map.get(hex_)
            if number == 3:
                if kind != HIDDEN:
                    self.at(("tunnel_exits", i, "at"), "V-13",
                            "Exit 3 may only be on a hidden cave segment",
                            "spawns at Exit 3 are ignored until its segment is revealed")
            elif kind not in REVEALED:
                self.at(("tunnel_exits", i, "at"), "V-12",
                        f"Exit {number} is on a {MAP_CHARS[kind]}", "put it on a revealed cave space")
                continue
            if number != 3 and not any(self.map.get(n) in REVEALED for n in neighbours(*hex_)):
                self.at(("tunnel_exits", i, "at"), "V-14",
                        f"Exit {number} has no open space next to it for spawns")
            exits[number] = hex_
        missing = [n for n in (1, 2) if n not in exits
                   and not any(e["exit"] == n for e in entries)]
        if missing:
            self.at(("tunnel_exits",) if entries else (), "V-12",
                    f"a mission needs at least 2 tunnel exits (Exit 1 and Exit 2); "
                    f"missing: {', '.join(f'Exit {n}' for n in missing)}")
        return exits

    def pits(self) -> None:
        for group in self.map.components({PIT}):
            if not any(self.map.get(n) in REVEALED | {HIDDEN} for h in group for n in neighbours(*h)):
                self.at_hex(group[0], "V-05", "this pit lies on no cave segment",
                            "pits are parts of cave segments: put cave spaces around it")

    def hidden(self, pod) -> None:
        groups = self.map.components({HIDDEN})
        if len(groups) > MAX_HIDDEN_SEGMENTS:
            self.at_hex(groups[MAX_HIDDEN_SEGMENTS][0], "V-09",
                        f"{len(groups)} hidden cave segments, but the box has {MAX_HIDDEN_SEGMENTS}")
        for group in groups:
            touching = [n for h in group for n in neighbours(*h) if self.map.get(n) in REVEALED]
            if touching:
                self.at_hex(group[0], "V-11",
                            "this hidden segment touches revealed cave directly",
                            "separate it by wall spaces: it is revealed when a dug wall connects to it")
            elif not any(self.map.get(n) in WALLS for h in group for n in neighbours(*h)):
                self.at_hex(group[0], "V-11", "no wall next to this hidden segment can be opened to reveal it")

    def stalagmites(self) -> None:
        for i, value in enumerate(self.m.get("stalagmites", [])):
            hex_ = self.hex_of(("stalagmites", i), value, "V-06")
            if hex_ is not None and self.map.get(hex_) != STONE:
                self.at(("stalagmites", i), "V-06",
                        f"stalagmite on a {MAP_CHARS[self.map.get(hex_)]}",
                        "stalagmites go on stone-pattern spaces (`^`)")

    def minerals(self) -> None:
        minerals = self.m["minerals"]
        for name in minerals:
            if name not in self.names.minerals:
                self.unknown(("minerals", name), "V-15", "mineral", name, self.names.minerals)
        for h in self.map.of({DIAMOND}):
            if not any(self.map.get(n) in REVEALED | {HIDDEN} for n in neighbours(*h)):
                self.at_hex(h, "V-16", "this diamond space is not next to the cave",
                            "minerals sit in wall spaces next to a cave space, where a pickaxe reaches them")
        diamonds = self.map.of({DIAMOND})
        for i, entry in enumerate(self.m.get("mineral_spaces", [])):
            hex_ = self.hex_of(("mineral_spaces", i, "at"), entry["at"], "V-15")
            if entry["mineral"] not in self.names.minerals:
                self.unknown(("mineral_spaces", i, "mineral"), "V-15", "mineral", entry["mineral"],
                             self.names.minerals)
            if hex_ is not None and self.map.get(hex_) != DIAMOND:
                self.at(("mineral_spaces", i, "at"), "V-15",
                        f"{entry['mineral']} placed on a {MAP_CHARS[self.map.get(hex_)]}",
                        "minerals go on diamond spaces (`*`) only")
        total = sum(minerals.values())
        if total > len(diamonds):
            self.at(("minerals",), "V-15",
                    f"{total} minerals but only {len(diamonds)} diamond spaces on the map",
                    "every mineral goes on its own diamond space (`*`)")
        obj = self.m["objective"]
        for name, wanted in obj.get("targets", {}).items():
            if name in self.names.minerals and wanted > minerals.get(name, 0):
                self.at(("objective", "targets", name), "V-15",
                        f"the objective needs {wanted} {name} but the mission places "
                        f"{minerals.get(name, 0)}: it cannot be completed")

    def pickups(self) -> None:
        pickups = self.m["pickups"]
        for name in pickups:
            if name not in self.names.pickups:
                self.unknown(("pickups", name), "V-17", "pickup", name, self.names.pickups)
        capacity = len(self.map.of({FLARE})) + DEFAULT_PICKUPS_PER_HIDDEN * len(self.map.components({HIDDEN}))
        total = sum(pickups.values())
        if total > capacity:
            self.at(("pickups",), "V-18",
                    f"{total} pickup tokens but room for {capacity} "
                    f"({len(self.map.of({FLARE}))} flare-stick spaces + "
                    f"{DEFAULT_PICKUPS_PER_HIDDEN} per hidden segment)")
        for name, wanted in self.m["objective"].get("targets", {}).items():
            if name in self.names.pickups and wanted > pickups.get(name, 0):
                self.at(("objective", "targets", name), "V-17",
                        f"the objective needs {wanted} {name} but the mission has "
                        f"{pickups.get(name, 0)}: it cannot be completed")

    def mine_head(self, pod) -> None:
        needs = ("aquarq" in self.m["objective"].get("targets", {})
                 or self.m["minerals"].get("aquarq", 0) > 0)
        if "mine_head" not in self.m:
            if needs:
                self.at(("objective",), "V-19", "an Aquarq mission needs a Mine Head",
                        "add `mine_head: [row, col]`")
            return
        hex_ = self.hex_of(("mine_head",), self.m["mine_head"], "V-19")
        if hex_ is not None and self.map.get(hex_) not in REVEALED:
            self.at(("mine_head",), "V-19", f"the Mine Head is on a {MAP_CHARS[self.map.get(hex_)]}",
                    "put it on a revealed cave space")

    def drones(self) -> None:
        for i, value in enumerate(self.m.get("drones", [])):
            hex_ = self.hex_of(("drones", i), value, "V-25")
            if hex_ is not None and self.map.get(hex_) not in REVEALED | {HIDDEN}:
                self.at(("drones", i), "V-25", f"a drone ('!' token) on a {MAP_CHARS[self.map.get(hex_)]}")

    def supply_landing(self, exits) -> None:
        spots = [h for h in self.map.of(REVEALED) if h not in exits.values()]
        if not spots:
            self.at(("map",), "V-22", "no space where a supply pod could land")

    def mission_event(self) -> None:
        if "mission_event" not in self.m:
            self.at((), "V-21", "the mission has no `mission_event`",
                    "the Event deck holds Mission Specific Event cards; say what they do", key=False)
            return
        game = self.names.game
        if game is None or not self.check_event:
            return
        from compiler.checks import Checker
        from compiler.model import EffectSite
        from dsl.parser import EffectSyntaxError, parse
        site = EffectSite(self.base + ("mission_event",), self.m["mission_event"])
        try:
            site.ast = parse(site.text)
        except EffectSyntaxError as err:
            line, column = self.doc.effect_position(site.path, err.line, err.column)
            self.reporter.add(dg.EFFECT_SYNTAX, err.message, self.display, line, column, err.hint)
            return
        Checker(game, self.reporter).check_site(site, self.doc, self.display, {})

    def reachability(self, pod) -> None:
        """Objectives must be reachable from the drop pod: dwarves walk, dig walls and cross
        pits (platforms, ziplines), but never leave the mission map."""
        if not pod:
            return
        reach = self.map.reachable(pod, set(MAP_CHARS) - {OFF})
        if "mine_head" in self.m:
            hex_ = tuple(self.m["mine_head"])
            if self.map.get(hex_) != OFF and hex_ not in reach:
                self.at(("mine_head",), "V-11", "the Mine Head cannot be reached from the drop pod")
        if any(n in self.names.minerals for n in self.m["objective"].get("targets", {})):
            reachable_diamonds = [h for h in self.map.of({DIAMOND}) if h in reach]
            wanted = sum(v for k, v in self.m["objective"]["targets"].items() if k in self.names.minerals)
            if self.map.of({DIAMOND}) and len(reachable_diamonds) < min(wanted, len(self.map.of({DIAMOND}))):
                self.at(("objective", "targets"), "V-11",
                        f"only {len(reachable_diamonds)} diamond spaces can be reached from the drop pod, "
                        f"the objective needs {wanted} minerals")
        for group in self.map.components({HIDDEN}):
            if group[0] not in reach:
                self.at_hex(group[0], "V-11", "this hidden segment cannot be reached from the drop pod")
        for i, entry in enumerate(self.m.get("tunnel_exits", [])):
            hex_ = tuple(entry["at"])
            if self.map.get(hex_) != OFF and hex_ not in reach:
                self.at(("tunnel_exits", i, "at"), "V-12", "this tunnel exit cannot be reached from the drop pod")


def _connected(hexes: list[tuple[int, int]]) -> bool:
    todo, seen = [hexes[0]], {hexes[0]}
    while todo:
        h = todo.pop()
        for n in neighbours(*h):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(set(hexes))


def load_mission(path: Path, reporter: dg.Reporter) -> dict | None:
    """Load and validate a mission file; the mission mapping, or None if it has errors."""
    display = display_path(path)
    doc = loader.load(path, reporter, display)
    if doc is None:
        return None
    if not is_mission(doc.data):
        reporter.add(dg.SCHEMA, "not a mission file: it needs `game: deep_rock_galactic` and a "
                     "`mission:` mapping", display, 1, 1)
        return None
    before = reporter.errors
    check_mission(doc, display, reporter)
    return doc.data["mission"] if reporter.errors == before else None


def check_mission(doc: loader.Document, display: str, reporter: dg.Reporter,
                  names: Roster | None = None) -> None:
    from compiler.packs import _report_schema_error
    validator = schemas.validator(MISSION_SCHEMA)  # patterns with JSON Schema's `$`
    errors = sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        _report_schema_error(err, doc, display, (), reporter)
    if errors:
        return
    MissionChecker(doc, display, reporter, names or roster()).run()
