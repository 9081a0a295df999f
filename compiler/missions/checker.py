"""Every constraint of inventory §9.5 (V-01 ... V-27) on one mission mapping, plus the map
format (M-01 ... M-06), co-location (C-01) and reachability (reach.py). Each diagnostic names
its constraint and points at the offending line and column (inside the map: at the hex)."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg, loader
from tomecraft.compiler.checks import MAX_NUMBER
from tomecraft.compiler.missions import reach
from tomecraft.compiler.missions.event_checks import EventChecks
from tomecraft.compiler.missions.names import Roster
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid
from tomecraft.runtime.engines.deep_rock_galactic.mission_play import PLACED_TOKENS, token_places
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import (
    CAVE, DIAMOND, FLARE, HIDDEN, MAP_CHARS, OFF, PIT, STONE, WALL, MissionMap, read_map)

REVEALED = {CAVE, STONE, FLARE}         # open ground of revealed segments
WALLS = {WALL, DIAMOND}
MAX_HIDDEN_SEGMENTS = 8                 # V-09, rulebook L196
CLASS_TOKENS = {"platform": 6, "zipline": 3, "flame": 6, "flare": 2, "shield": 1, "sentry_gun": 1}

MAX_MAP_ROWS = 40       # input limits: the rulebook's maps are about 14 x 12 hexes
MAX_MAP_COLUMNS = 40


def neighbours(row: int, col: int) -> list[tuple[int, int]]:
    """The 6 hexes next to (row, col) on an odd-row-shifted map (odd rows sit half a hex right)."""
    return hexgrid.neighbours((row, col))


def of(hexmap: MissionMap, kinds: set[str]) -> list[tuple[int, int]]:
    return sorted(h for h, c in hexmap.cells.items() if c in kinds)


class MissionChecker(EventChecks):
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
        self.map = MissionMap()

    # --- reporting ------------------------------------------------------------------------
    def at(self, path: tuple, rule: str, message: str, hint: str = "", key: bool = False,
           warning: bool = False) -> None:
        mark = self.doc.mark(self.base + path, key=key or not path)
        code = dg.GAME_RULE_WARNING if warning else dg.GAME_RULE
        self.reporter.add(code, f"{rule}: {message}", self.display, mark.line, mark.column, hint)

    def at_hex(self, hex_: tuple[int, int], rule: str, message: str, hint: str = "",
               warning: bool = False) -> None:
        line, column = self.map.where[hex_]
        pos = self.doc.effect_position(self.base + ("map",), line, column)
        code = dg.GAME_RULE_WARNING if warning else dg.GAME_RULE
        self.reporter.add(code, f"{rule}: {message}", self.display, pos[0], pos[1], hint)

    def unknown(self, path: tuple, rule: str, what: str, name: str, known: set[str],
                heading: str = "") -> None:
        hint = self.names.hint(name, what, known, heading)
        if self.names.in_pack(name, what):
            pass                    # the hint names the shipped pack and its `--pack`
        elif what == "creature" and name in self.names.creature_terms:
            hint = f"{name} is a pack's creature: check and play the mission with `--pack DIR`"
        elif what == "creature" and not self.names.kind_of(name):
            hint += "; a pack's creature is known with `--pack DIR`"
        self.at(path, rule, f"unknown {what} {name!r}", hint, key=path[-1] == name)

    def hex_of(self, path: tuple, value, rule: str) -> tuple[int, int] | None:
        """A [row, col] value that must be on the map, else report it under `rule`."""
        hex_ = (value[0], value[1])
        if self.map.get(hex_) == OFF:
            self.at(path, rule, f"hex {list(hex_)} is off the mission map",
                    "rows and columns count from 0; `x` hexes are outside the map")
            return None
        return hex_

    def kind(self, hex_) -> str:
        return MAP_CHARS[self.map.get(hex_)]

    def map_size_ok(self, text: str) -> bool:
        """Input limit: the rulebook's maps are about 14 x 12 hexes; a map past MAX_MAP_ROWS x
        MAX_MAP_COLUMNS would make every simulated game crawl. Checked before it is read."""
        # a blank line is no row (M-06 says so): a 40-row map with one was "41 rows"
        rows = [r for r in text.split("\n") if r.strip()]
        columns = max((len(r.replace(" ", "")) for r in rows), default=0)
        if len(rows) <= MAX_MAP_ROWS and columns <= MAX_MAP_COLUMNS:
            return True
        self.at(("map",), "V-00", f"the map is {len(rows)} rows by {columns} hexes; the limit "
                f"is {MAX_MAP_ROWS} by {MAX_MAP_COLUMNS}", "draw a board-sized map")
        return False

    def rows_after_the_map(self) -> str:
        """M-04: a row indented less than the map's first row ends the YAML block above it, and
        YAML reads it, and every row after it starting with `#`, as a comment. A row one space
        short silently dropped the rest of the map (the check then spoke of missing diamonds
        and hidden segments, or nothing at all), and a first row one space too deep made every
        even row after it a comment while row 1 was blamed. "first row" when the first row is
        the one too deep (said at it), "row" when a later row is short (said at it), else ""."""
        mark = self.doc.mark(self.base + ("map",))
        if mark.style not in ("|", ">"):
            return ""
        source, indent, read = self.doc.text.split("\n"), None, 0
        for row in range(mark.line, len(source)):
            raw = source[row]
            if not raw.strip():
                continue
            here = len(raw) - len(raw.lstrip(" "))
            if indent is None:
                indent, first = here, row
                continue
            if here >= indent:
                read += 1
                continue
            cells = raw.split()
            if len(cells) < 3 or not all(len(c) == 1 and c in MAP_CHARS for c in cells):
                return ""           # the next key or a comment of words: the map ended there
            if read <= 1 and here == indent - 1:
                self.reporter.add(dg.SCHEMA, "M-04: even row 0 is indented one space deeper than "
                                  "the rows after it: YAML takes its indentation for the map's, so "
                                  f"the map ends at line {row + 1} and the rows from there that start "
                                  "with `#` are read as comments", self.display, first + 1, here + 1,
                                  "remove that space: even rows start where the map's lines do, odd "
                                  "rows one space further")
                return "first row"
            self.reporter.add(dg.SCHEMA, "M-04: the map ends above this row: it is indented less "
                              f"than the map's first row (line {first + 1}, {indent} spaces), so "
                              "YAML reads it, and the rows after it that start with `#`, as comments",
                              self.display, row + 1, here + 1,
                              "indent this row as the rows above it (odd rows one space more than "
                              "even rows)")
            return "row"
        return ""

    # --- the checks -------------------------------------------------------------------------
    def run(self) -> None:
        m = self.m
        if not self.map_size_ok(m["map"]):
            return
        self.map = read_map(m["map"])
        cut = self.rows_after_the_map()
        for p in self.map.problems if cut != "first row" else ():   # else its symptoms
            pos = self.doc.effect_position(self.base + ("map",), p.line, p.column)
            self.reporter.add(dg.SCHEMA, f"{p.rule}: {p.message}", self.display, *pos, p.hint)
        if "threat_start" in m:
            self.at(("threat_start",), "V-26", "a mission must not fix the Swarm Threat start",
                    "the players' Hazard level (1, 2 or 3-5 square) sets it; use `hazard:` "
                    "to recommend one", key=True)
        self.own_id()
        self.objective()
        self.components()
        self.mineral_names()
        self.pickup_names()
        self.mission_event()
        if self.map.problems or cut:
            return            # positions on a malformed map would only repeat its problems
        if not of(self.map, REVEALED):
            self.at(("map",), "V-04", "the map has no revealed cave space",
                    "draw revealed segments with `.`, `^` and `?`")
            return
        pod = self.drop_pod()
        exits = self.tunnel_exits()
        self.pits()
        self.hidden()
        self.stalagmites()
        self.minerals()
        self.pickups()
        self.mine_head()
        self.drones()
        self.supply_landing(exits)
        self.colocation()
        self.flare_spaces_free()
        self.free_next_to_pod(pod, exits)
        self.token_room(pod, exits)
        reach.check(self, pod)

    def own_id(self) -> None:
        """F-01: a mission file's id is its own, as a pack's mission's is (TC-P002): one equal to
        a mission of the game or of a loaded pack would be reported, briefed and counted under
        that mission's name."""
        missions = self.names.game.entities.get("mission", {}) if self.names.game is not None else {}
        mid = self.m.get("id")
        if self.base == ("mission",) and mid in missions:
            where = missions[mid]
            book = where.pack == self.names.game.id
            owner = (f"Mission {where.data.get('number')} of the Mission Book" if book
                     else f"a mission of the pack {where.pack}")
            self.at(("id",), "F-01", f"{mid!r} is already the id of {owner} ({where.display}:"
                    f"{where.line})", f"give your mission an id of its own, e.g. `id: my_{mid}`")

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
            return
        targets = obj.get("targets")
        if not targets:
            self.at(("objective",), "V-03", "a collect mission must name what to collect",
                    "add `targets: {morkite: 5}`")
            return
        known = self.names.minerals | self.names.pickups
        for name, count in targets.items():
            if name not in known:
                self.unknown(("objective", "targets", name), "V-03", "collect target", name, known)
            elif name in self.names.pickups and name not in self.names.collectable:
                kept = self.names.game.entities["pickup"][name].data.get("after_use") == "keep"
                why = ("it goes on a weapon or the dwarf board when picked up (rulebook "
                       "L1367-1369), never into the Shared Supply" if kept else
                       "striking it with the pickaxe applies its effect")
                self.at(("objective", "targets", name), "V-03", f"{name} cannot be collected: {why}",
                        "collect minerals or pickups without an effect (apoca_bloom, alien_fossil...)",
                        key=True)
            elif count < 1:
                self.at(("objective", "targets", name), "V-03",
                        f"collecting {count} {name} is no objective", "collect at least 1, or remove it")
        if "creature" in obj:
            self.at(("objective", "creature"), "V-01", "a collect mission has no target creature",
                    "remove `creature`, or make it an eliminate mission", key=True)

    def components(self) -> None:
        supply = self.names.token_supply or CLASS_TOKENS
        for name, count in self.m.get("tokens", {}).items():
            limit = supply.get(name)
            if limit is None and self.board_token(name):
                self.at(("tokens", name), "V-24", f"{name} is a board token no dwarf class carries: "
                        "`tokens:` takes class tokens out of a class's hand (rulebook L252-260)",
                        f"class tokens: {', '.join(sorted(supply))}", key=True)
            elif limit is None:
                self.unknown(("tokens", name), "V-24", "class token", name, set(supply), "`tokens:`")
            elif count > limit:
                self.at(("tokens", name), "V-24", f"{count} {name} tokens, but the box has {limit}",
                        f"use at most {limit}")
        hidden = self.m.get("hidden_monsters", [])
        for i, entry in enumerate(hidden):
            first = next(j for j, e in enumerate(hidden) if e["creature"] == entry["creature"])
            if first < i:
                # a second entry read as a typo's twin (1 + 2, or 2 meant instead of 1?)
                self.at(("hidden_monsters", i, "creature"), "V-23",
                        f"{entry['creature']} is listed twice in `hidden_monsters` (entries "
                        f"{first + 1} and {i + 1})",
                        f"list each creature once, with its count per segment: "
                        f"`{{creature: {entry['creature']}, count: "
                        f"{hidden[first]['count'] + entry['count']}}}`")
            if entry["creature"] not in self.names.creatures:
                self.unknown(("hidden_monsters", i, "creature"), "V-23", "creature",
                             entry["creature"], self.names.creatures)
            if entry["count"] > MAX_NUMBER:
                self.at(("hidden_monsters", i, "count"), "V-23",
                        f"{entry['count']:,} {entry['creature']} per revealed segment is past the "
                        f"limit of {MAX_NUMBER:,}, the mission event's own (V-21)",
                        "a segment holds a handful of monsters: use a small count")
        cards = self.m.get("remove_cards", [])
        for i, card in enumerate(cards):
            if card not in self.names.cards and self.other_deck(card):
                self.at(("remove_cards", i), "V-20",
                        f"{card} is a {self.other_deck(card)}, not an Event or Swarm card",
                        "Before Starting removes cards from the Event and Swarm decks (rulebook "
                        "L143-147): list their cards here")
            elif card not in self.names.cards:
                self.unknown(("remove_cards", i), "V-20", "card", card, self.names.cards)
            elif card in cards[:i]:
                self.at(("remove_cards", i), "V-20", f"{card} is removed twice",
                        "list each card once: Before Starting removes every copy of it")
            elif self.plays_mission_event(card):
                self.at(("remove_cards", i), "V-20",
                        f"{card} is the card that plays the mission's `mission_event`: without "
                        "it the event never happens", "keep it in the Event deck")
        self.swarm_deck_left(cards)
        self.threat_left(cards)

    def threat_left(self, cards: list) -> None:
        """The Swarm Threat Track moves only when an Event card says so (rulebook L884-895): it
        brings each Swarm and runs the mission out of time (L1295). Removals that leave no card
        advancing it, with a mission event that does not either, made a mission with no clock
        and no Swarm (the sim won every game in 3 rounds)."""
        from tomecraft.compiler.missions.event_checks import advances_threat
        game = self.names.game
        if game is None or not cards or self.event_advances_threat(game):
            return
        deck = {cid: c for cid, c in game.entities.get("event_card", {}).items()
                if c.data.get("deck") == "event"}
        moving = {cid for cid, c in deck.items()
                  if any(advances_threat(s.ast, game.keyword_sites) for s in c.effects)}
        # pointed at the last removed card that could move it at all (an Optional one too)
        removed = [i for i, card in enumerate(cards) if card in moving or (card in deck and any(
            "advance_threat" in (s.text or "") for s in deck[card].effects))]
        if moving and removed and moving <= set(cards):
            self.at(("remove_cards", removed[-1]), "V-20",
                    "these removals leave no Event card that advances the Swarm Threat Track: it "
                    "never moves, so no Swarm comes and time never runs out (rulebook L884-895, L1295)",
                    "keep a Swarm Threat card (" + ", ".join(sorted(moving)) + "), or let the "
                    "`mission_event` advance the threat every time (`advance_threat 1`, not "
                    "under `may` or a condition)")

    def event_advances_threat(self, game) -> bool:
        """Whether the mission's own event surely advances the threat (event_checks.advances_threat);
        one that does not parse is V-21's to report."""
        from tomecraft.compiler.missions.by_hazard import expand_lets
        from tomecraft.compiler.missions.event_checks import advances_threat
        from tomecraft.dsl.parser import EffectSyntaxError, parse
        try:
            ast = parse(str(self.m.get("mission_event", "")))
        except EffectSyntaxError:
            return True
        # `let n = 1; advance_threat n` advances as surely as `advance_threat 1`
        return advances_threat(expand_lets(ast), game.keyword_sites)

    def swarm_deck_left(self, cards: list) -> None:
        """Every Swarm draws a Swarm card and places what it shows (rulebook L890-894): removing
        every Swarm card would turn each Swarm into nothing."""
        game = self.names.game
        if game is None:
            return
        swarm = {cid for cid, c in game.entities.get("event_card", {}).items()
                 if c.data.get("deck") == "swarm"}
        removed = [i for i, card in enumerate(cards) if card in swarm]
        if swarm and removed and swarm <= set(cards):
            self.at(("remove_cards", removed[-1]), "V-20",
                    "these removals leave the Swarm deck empty: a Swarm draws a Swarm card and "
                    "places its monsters (rulebook L890-894), so no Swarm would ever come",
                    "keep at least one Swarm card (" + ", ".join(sorted(swarm)) + ")")

    def board_token(self, name: str) -> bool:
        game = self.names.game
        return game is not None and any(t.data.get("token", tid) == name
                                        for tid, t in game.entities.get("board_token", {}).items())

    def other_deck(self, card: str) -> str:
        """The deck of the game's other cards (`supply pod card`...) `card` belongs to, or ""."""
        game = self.names.game
        kinds = {"supply_card": "Supply Pod card", "rock_and_stone_card": "Rock and Stone card",
                 "throwable": "Throwable card"}
        for kind, what in kinds.items():
            if game is not None and card in game.entities.get(kind, {}):
                return what
        return ""

    def plays_mission_event(self, card: str) -> bool:
        game = self.names.game
        entity = game.entities.get("event_card", {}).get(card) if game is not None else None
        return entity is not None and entity.data.get("event_kind") == "mission_specific"

    def mineral_names(self) -> None:
        for name in self.m["minerals"]:
            if name not in self.names.minerals:
                self.unknown(("minerals", name), "V-15", "mineral", name, self.names.minerals, "`minerals:`")
        for i, entry in enumerate(self.m.get("mineral_spaces", [])):
            if entry["mineral"] not in self.names.minerals:
                self.unknown(("mineral_spaces", i, "mineral"), "V-15", "mineral", entry["mineral"],
                             self.names.minerals, "`mineral_spaces:`")

    def pickup_names(self) -> None:
        for name in self.m["pickups"]:
            if name not in self.names.pickups:
                self.unknown(("pickups", name), "V-17", "pickup", name, self.names.pickups, "`pickups:`")

    def drop_pod(self) -> list[tuple[int, int]]:
        if "drop_pod" not in self.m:
            self.at((), "V-07", "the mission has no drop pod", "add `drop_pod:` with its 4 spaces")
            return []
        spaces = self.m["drop_pod"]
        if len(spaces) != 4:
            self.at(("drop_pod",), "V-07", f"the drop pod takes exactly 4 spaces, not {len(spaces)}",
                    "list its 4 touching spaces")
        pod = []
        for i, value in enumerate(spaces):
            hex_ = self.hex_of(("drop_pod", i), value, "V-07")
            if hex_ is None:
                continue
            if self.map.get(hex_) not in REVEALED:
                self.at(("drop_pod", i), "V-07", f"drop pod space {list(hex_)} is on a {self.kind(hex_)}",
                        "the drop pod lies on revealed cave spaces (`.`, `^`, `?`)")
                continue
            pod.append(hex_)
        if len(pod) == len(spaces) == 4 and (len(set(pod)) != 4 or not _connected(pod)):
            self.at(("drop_pod",), "V-07", "the drop pod's 4 spaces must be distinct and touch",
                    "the Drop Pod is one 4-space tile: e.g. [[6, 3], [6, 4], [7, 3], [7, 4]]")
        elif len(pod) == len(spaces) == 4 and _links(pod) != 5:
            # the pod is one rigid tile (L194, L1539), drawn in the Mission Book as two rows of
            # two: 4 hexes touching in 5 pairs, a rhombus turned any way. A line, an S or a bent
            # chain of 4 touching spaces is no tile of the box.
            self.at(("drop_pod",), "V-07", "the drop pod's 4 spaces are not the shape of its tile: "
                    "a rhombus of 4 hexes, two side by side over two side by side",
                    "on the map it covers `. .` over `. .` (the lower row shifted half a hex), "
                    "as the Mission Book's [[6, 3], [6, 4], [7, 3], [7, 4]]; a turned rhombus "
                    "fits too")
        return pod

    def flare_spaces_free(self) -> None:
        """C-01: the set-up lays the pickups face down on the flare-stick spaces (rulebook L217),
        so the drop pod, an exit, the Mine Head or a drone on a `?` would share its space with
        a pickup (the sim put one under the pod)."""
        things = [(("drop_pod", i), h, "the drop pod") for i, h in enumerate(self.m.get("drop_pod", []))]
        things += [(("tunnel_exits", i, "at"), e["at"], f"Exit {e['exit']}")
                   for i, e in enumerate(self.m.get("tunnel_exits", []))]
        if "mine_head" in self.m:
            things.append((("mine_head",), self.m["mine_head"], "the Mine Head"))
        things += [(("drones", i), h, "a drone") for i, h in enumerate(self.m.get("drones", []))]
        for path, value, label in things:
            if isinstance(value, list) and len(value) == 2 and self.map.get((value[0], value[1])) == FLARE:
                self.at(path, "C-01", f"{label} on a flare-stick space {value}: the set-up may put a "
                        "pickup there", "one thing per space: move it to a `.` or `^` space, or "
                        "draw that space as `.`")

    def free_next_to_pod(self, pod, exits) -> None:
        if len(pod) != 4:
            return
        taken = set(pod) | set(exits.values()) | {tuple(h) for h in self.m.get("stalagmites", [])}
        if self.m.get("mine_head"):
            taken.add(tuple(self.m["mine_head"]))
        free = {n for h in pod for n in neighbours(*h) if n not in taken and self.map.get(n) in REVEALED}
        # a pre-placed sentry gun takes one of those spaces first (mission_play.token_places)
        sentry = int(self.m.get("tokens", {}).get("sentry_gun", 0) > 0)
        if len(free) <= sentry:
            self.at(("drop_pod",), "V-08", "the pre-placed sentry gun takes the only empty cave "
                    "space next to the drop pod" if free else "no empty cave space next to the drop pod",
                    "BOSCO starts there, and dwarves land there when the pod returns: leave one "
                    "neighbouring cave space free of stalagmites, exits, the Mine Head and a "
                    "pre-placed sentry gun")

    def token_room(self, pod, exits) -> None:
        """V-24: the set-up places each pre-placed platform, flame, flare and sentry gun where it
        does its job (mission_play.token_places); one with no such space would leave its
        class's hand and never reach the board."""
        if len(pod) != 4:
            return
        taken = set(pod) | set(exits.values())
        taken |= {(h[0], h[1]) for key in ("stalagmites", "drones") for h in self.m.get(key, [])}
        if self.m.get("mine_head"):
            taken.add(tuple(self.m["mine_head"]))
        supply = self.names.token_supply or CLASS_TOKENS
        for name, count in self.m.get("tokens", {}).items():
            if name not in PLACED_TOKENS or count > supply.get(name, count):
                continue            # not placed by the set-up, or already beyond the box
            room = len(token_places(self.map.cells, pod, exits, taken, name))
            if count > room:
                self.at(("tokens", name), "V-24",
                        f"{count} {name} tokens to pre-place, but the map has {room} "
                        f"{PLACED_TOKENS[name]} to put them on",
                        (f"pre-place at most {room}" if room else f"remove {name} from `tokens:`")
                        + ": a token with no place would leave its class's hand and never reach the board")

    def tunnel_exits(self) -> dict[int, tuple[int, int]]:
        exits: dict[int, tuple[int, int]] = {}
        entries = self.m.get("tunnel_exits", [])
        for i, entry in enumerate(entries):
            number = entry["exit"]
            if number in exits or any(e["exit"] == number for e in entries[:i]):
                self.at(("tunnel_exits", i, "exit"), "V-12", f"Exit {number} is placed twice",
                        "number the exits 1, 2 (and 3 on a hidden segment)")
                continue
            if number > 3:
                self.at(("tunnel_exits", i, "exit"), "V-12",
                        f"spawn events name Exits 1, 2 and 3 only, not {number}", "use 1, 2 or 3")
                continue
            hex_ = self.hex_of(("tunnel_exits", i, "at"), entry["at"], "V-12")
            if hex_ is None:
                continue
            kind = self.map.get(hex_)
            if number == 3:
                if kind != HIDDEN:
                    self.at(("tunnel_exits", i, "at"), "V-13", "Exit 3 may only be on a hidden cave segment",
                            "spawns at Exit 3 are ignored until its segment is revealed: put it on an `h`")
            elif kind not in REVEALED:
                self.at(("tunnel_exits", i, "at"), "V-12", f"Exit {number} is on a {MAP_CHARS[kind]}",
                        "put it on a revealed cave space")
                continue
            if number != 3 and not any(self.map.get(n) in REVEALED for n in neighbours(*hex_)):
                self.at(("tunnel_exits", i, "at"), "V-14", f"Exit {number} has no open space next to it for spawns",
                        "spawned monsters go on the spaces around the exit: open one")
            exits[number] = hex_
        missing = [n for n in (1, 2) if not any(e["exit"] == n for e in entries)]
        if missing:
            self.at(("tunnel_exits",) if entries else (), "V-12",
                    f"a mission needs at least 2 tunnel exits (Exit 1 and Exit 2); "
                    f"missing: {', '.join(f'Exit {n}' for n in missing)}",
                    "add `{exit: N, at: [row, col]}` on a revealed cave space")
        return exits

    def pits(self) -> None:
        for group in hexgrid.components(self.map.cells, {PIT}):
            if not any(self.map.get(n) in REVEALED | {HIDDEN} for h in group for n in neighbours(*h)):
                self.at_hex(group[0], "V-05", "this pit lies on no cave segment",
                            "pits are parts of cave segments: put cave spaces around it")

    def hidden(self) -> None:
        groups = hexgrid.components(self.map.cells, {HIDDEN})
        if len(groups) > MAX_HIDDEN_SEGMENTS:
            self.at_hex(groups[MAX_HIDDEN_SEGMENTS][0], "V-09",
                        f"{len(groups)} hidden cave segments, but the box has {MAX_HIDDEN_SEGMENTS}",
                        "merge or remove slots: at most 8 groups of `h`")
        size = int(self.names.rules.get("v10_hidden_segment_hexes") or 4)
        for group in groups:
            links = sum(1 for h in group for n in neighbours(*h) if n in group) // 2
            if len(group) != size or links != 2 * size - 3:
                self.at_hex(group[0], "V-10",
                            f"this hidden slot covers {len(group)} hexes; any of the box's hidden "
                            f"segment tiles may be drawn for it, and each covers {size} hexes in a 2-by-2 block",
                            "draw every hidden slot as `h h` over `h h` (the row below shifted half a hex)"
                            + ("; two slots side by side are one group of `h`: put a wall between "
                               "them (a revealed segment must not touch a hidden one, V-11)"
                               if len(group) % size == 0 and len(group) > size else ""))
            touching = [n for h in group for n in neighbours(*h) if self.map.get(n) in REVEALED | {PIT}]
            if touching:
                self.at_hex(group[0], "V-11", "this hidden segment touches revealed cave directly",
                            "separate it by wall spaces: it is revealed when a dug wall connects to it")
            elif not any(self.map.get(n) in WALLS for h in group for n in neighbours(*h)):
                self.at_hex(group[0], "V-11", "no wall next to this hidden segment can be opened to reveal it",
                            "put a wall (`#`) between it and the cave")

    def stalagmites(self) -> None:
        for i, value in enumerate(self.m.get("stalagmites", [])):
            hex_ = self.hex_of(("stalagmites", i), value, "V-06")
            if hex_ is not None and self.map.get(hex_) != STONE:
                self.at(("stalagmites", i), "V-06", f"stalagmite on a {self.kind(hex_)}",
                        "stalagmites go on stone-pattern spaces (`^`)")

    def minerals(self) -> None:
        minerals = self.m["minerals"]
        for h in of(self.map, {DIAMOND}):
            if not any(self.map.get(n) in REVEALED | {HIDDEN, PIT} for n in neighbours(*h)):
                self.at_hex(h, "V-16", "this diamond space is not next to the cave",
                            "minerals sit in wall spaces next to a cave space, where a pickaxe reaches them")
        diamonds = of(self.map, {DIAMOND})
        fixed: dict[str, int] = {}
        for i, entry in enumerate(self.m.get("mineral_spaces", [])):
            name = entry["mineral"]
            hex_ = self.hex_of(("mineral_spaces", i, "at"), entry["at"], "V-15")
            if hex_ is not None and self.map.get(hex_) != DIAMOND:
                self.at(("mineral_spaces", i, "at"), "V-15", f"{name} placed on a {self.kind(hex_)}",
                        "minerals go on diamond spaces (`*`) only")
            if name not in self.names.minerals:
                continue
            fixed[name] = fixed.get(name, 0) + 1
            if fixed[name] > minerals.get(name, 0):
                rule = "V-27" if name in ("gold", "nitra") else "V-15"
                self.at(("mineral_spaces", i, "mineral"), rule,
                        f"mineral_spaces fixes {fixed[name]} {name} but `minerals` lists "
                        f"{minerals.get(name, 0)}: fixed minerals come from the mission's own count",
                        f"raise `minerals: {{{name}: {fixed[name]}}}` or remove this placement")
        # an unknown name is its own diagnostic (mineral_names): counted here too, `loot_bug: 1`
        # under `minerals` also said "8 minerals but only 7 diamond spaces" (as pickups already are)
        total = sum(n for k, n in minerals.items() if k in self.names.minerals)
        if total > len(diamonds):
            self.at(("minerals",), "V-15", f"{total} minerals but only {len(diamonds)} diamond spaces on the map",
                    "every mineral goes on its own diamond space (`*`): add diamonds or list fewer")
        for name, wanted in self.m["objective"].get("targets", {}).items():
            if name in ("gold", "nitra"):
                self.spare_minerals(name, wanted)
            elif name in self.names.minerals and wanted > minerals.get(name, 0):
                self.at(("objective", "targets", name), "V-15",
                        f"the objective needs {wanted} {name} but the mission places "
                        f"{minerals.get(name, 0)}: it cannot be completed",
                        f"list at least {wanted} under `minerals:`")

    def spare_minerals(self, name: str, wanted: int) -> None:
        """V-28: Gold and Nitra also come from broken stalagmites and Loot Bugs, as the mineral
        die falls (yields.py): a target beyond the most they can ever give is refused, as a
        Morkite target beyond the placed count is (V-15)."""
        from tomecraft.compiler.game_checks.deep_rock_galactic import die_faces
        from tomecraft.compiler.missions.yields import most_had
        if self.names.game is None:
            return
        most = most_had(self.names.game, self.m, name, die_faces(self.names.game))
        if most is not None and wanted > most.total:
            self.at(("objective", "targets", name), "V-28",
                    f"the objective needs {wanted} {name}, but at most {most.total} can ever be had "
                    f"({', '.join(most.parts)}): the mission cannot succeed",
                    f"list more {name} under `minerals:`, add stalagmites or Loot Bugs, or lower the target")

    def pickups(self) -> None:
        pickups = self.m["pickups"]
        per_hidden = int(self.names.rules.get("v18_pickups_per_hidden_segment") or 2)
        flares = len(of(self.map, {FLARE}))
        slots = len(hexgrid.components(self.map.cells, {HIDDEN}))
        capacity = flares + per_hidden * slots
        total = sum(n for k, n in pickups.items() if k in self.names.pickups)
        if total > capacity:
            self.at(("pickups",), "V-18",
                    f"{total} pickup tokens but room for {capacity} ({flares} flare-stick spaces + "
                    f"{per_hidden} per hidden segment)", "add flare-stick spaces (`?`) or list fewer pickups")
        for name, wanted in self.m["objective"].get("targets", {}).items():
            # a pickup no objective can collect (a Loot Bug...) is V-03's, not a count to raise
            if name in self.names.collectable and wanted > pickups.get(name, 0):
                self.at(("objective", "targets", name), "V-17",
                        f"the objective needs {wanted} {name} but the mission has "
                        f"{pickups.get(name, 0)}: it cannot be completed",
                        f"list at least {wanted} under `pickups:`")

    def mine_head(self) -> None:
        needs = ("aquarq" in self.m["objective"].get("targets", {})
                 or self.m["minerals"].get("aquarq", 0) > 0)
        if "mine_head" not in self.m:
            # said where the Aquarq is named: an eliminate mission listing Aquarq under
            # `minerals` was told so at its objective, which names no Aquarq
            if "aquarq" in self.m["objective"].get("targets", {}):
                self.at(("objective",), "V-19", "an Aquarq mission needs a Mine Head",
                        "add `mine_head: [row, col]` on a revealed cave space")
            elif needs:
                self.at(("minerals", "aquarq"), "V-19", "Aquarq is listed under `minerals`: an Aquarq "
                        "mission needs a Mine Head (L370-372)",
                        "add `mine_head: [row, col]` on a revealed cave space, or list no Aquarq")
            return
        hex_ = self.hex_of(("mine_head",), self.m["mine_head"], "V-19")
        if hex_ is not None and self.map.get(hex_) not in REVEALED:
            self.at(("mine_head",), "V-19", f"the Mine Head is on a {self.kind(hex_)}",
                    "put it on a revealed cave space")

    def drones(self) -> None:
        for i, value in enumerate(self.m.get("drones", [])):
            hex_ = self.hex_of(("drones", i), value, "V-25")
            if hex_ is not None and self.map.get(hex_) not in REVEALED | {HIDDEN}:
                self.at(("drones", i), "V-25", f"a drone ('!' token) on a {self.kind(hex_)}",
                        "drones lie on cave spaces (`.`, `^`, `?`, `h`)")

    def supply_landing(self, exits) -> None:
        spots = [h for h in of(self.map, REVEALED) if h not in exits.values()]
        if not spots:
            self.at(("map",), "V-22", "no space where a supply pod could land",
                    "add a cave space that is not a tunnel exit or pit")
        hidden_monsters = self.m.get("hidden_monsters", [])
        if hidden_monsters and not of(self.map, {HIDDEN}):
            self.at(("hidden_monsters",), "V-23",
                    "hidden monsters appear when a hidden segment is revealed, but the map has none",
                    "add a hidden slot (`h`) or remove `hidden_monsters`", key=True)

    def colocation(self) -> None:
        """C-01: one thing per space (the drop pod, each exit, the Mine Head, stalagmites,
        drones, fixed minerals)."""
        claims: list[tuple[int, tuple, str, tuple]] = []
        def claim(path, value, label):
            if isinstance(value, list) and len(value) == 2:
                claims.append((self.doc.mark(self.base + path).line, path, label, (value[0], value[1])))
        for i, h in enumerate(self.m.get("drop_pod", [])):
            claim(("drop_pod", i), h, "the drop pod")
        for i, e in enumerate(self.m.get("tunnel_exits", [])):
            claim(("tunnel_exits", i, "at"), e["at"], f"Exit {e['exit']}")
        if "mine_head" in self.m:
            claim(("mine_head",), self.m["mine_head"], "the Mine Head")
        for i, h in enumerate(self.m.get("stalagmites", [])):
            claim(("stalagmites", i), h, "a stalagmite")
        for i, h in enumerate(self.m.get("drones", [])):
            claim(("drones", i), h, "a drone")
        for i, e in enumerate(self.m.get("mineral_spaces", [])):
            claim(("mineral_spaces", i, "at"), e["at"], f"fixed {e['mineral']}")
        first: dict[tuple, tuple[str, tuple]] = {}
        for _, path, label, hex_ in sorted(claims, key=lambda c: (c[0], c[1])):
            if hex_ not in first:
                first[hex_] = (label, path)
                continue
            other = first[hex_][0]
            if label == other and (label == "the drop pod" or label.startswith("Exit")):
                continue                     # V-07 / V-12 report a pod space or an exit listed twice
            self.at(path, "C-01", f"{label} and {other} on the same space {list(hex_)}",
                    "one thing per space: move one of them")


def _links(hexes: list[tuple[int, int]]) -> int:
    """How many pairs of `hexes` touch: 5 for 4 hexes only in a rhombus (two rows of two)."""
    return sum(1 for h in hexes for n in neighbours(*h) if n in hexes) // 2


def _connected(hexes: list[tuple[int, int]]) -> bool:
    todo, seen = [hexes[0]], {hexes[0]}
    while todo:
        h = todo.pop()
        for n in neighbours(*h):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(set(hexes))
