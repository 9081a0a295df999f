"""The one reader of a mission's hex map, shared by the checker, the engine and the briefing.

The format (content/deep_rock_galactic/missions/README.md): one character per hex, hexes
separated by single spaces, odd rows (1, 3, ...) indented by one more space than even rows,
every row as wide as the others (`x` pads the board edge). Rows and columns count from 0.

`read_map` never fails: it returns the cells it could read (each non-space character is one
hex, so every reader agrees on where a hex is) and the problems, each at its 1-based line and
column inside the map text, with the format rule it breaks (M-01 ... M-06).
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex

WALL, DIAMOND, CAVE, STONE, FLARE, PIT, HIDDEN, OFF = "#", "*", ".", "^", "?", "o", "h", "x"
MAP_CHARS = {WALL: "wall", DIAMOND: "wall with a diamond (mineral) space", CAVE: "cave space",
             STONE: "stone-pattern space", FLARE: "flare-stick (pickup) space", PIT: "pit",
             HIDDEN: "hidden cave segment slot", OFF: "off the mission map"}
LEGEND = ", ".join(f"`{k}` {v}" for k, v in MAP_CHARS.items())


@dataclass
class MapProblem:
    line: int           # 1-based, inside the map text
    column: int         # 1-based, inside the map text
    rule: str           # M-01 ... M-06 (README: "The map format")
    message: str
    hint: str = ""


@dataclass
class MissionMap:
    cells: dict[Hex, str] = field(default_factory=dict)
    where: dict[Hex, tuple[int, int]] = field(default_factory=dict)   # hex -> (line, column)
    problems: list[MapProblem] = field(default_factory=list)

    def get(self, h: Hex) -> str:
        return self.cells.get(h, OFF)


# Letters of other scripts (and a digit) whose Unicode names do not say which Latin letter
# they imitate: Greek omicron, Cyrillic shha and ha, the digit zero for a pit...
_LOOK_ALIKES = {"ο": PIT, "Ο": PIT, "0": PIT, "һ": HIDDEN, "Һ": HIDDEN, "х": OFF, "Х": OFF,
                "χ": OFF, "×": OFF}


def look_alike(ch: str) -> str:
    """The map character a look-alike (fullwidth, Cyrillic o, a bullet...) probably means."""
    folded = unicodedata.normalize("NFKC", ch)
    if folded in MAP_CHARS:
        return folded
    if ch in _LOOK_ALIKES:
        return _LOOK_ALIKES[ch]
    name = unicodedata.name(ch, "").split()
    letters = {"O": PIT, "H": HIDDEN, "X": OFF}
    if "LETTER" in name and name[-1] in letters:
        return letters[name[-1]]
    if ch in "·•∙⋅。":
        return CAVE
    if ch in "＊✱★":
        return DIAMOND
    return ""


def _char_problem(line: int, column: int, ch: str) -> MapProblem:
    meant = look_alike(ch)
    shown = f"{ch!r} (U+{ord(ch):04X})" if not ch.isascii() or not ch.isprintable() else repr(ch)
    if ch == "\t":
        return MapProblem(line, column, "M-02", "a tab in the map", "separate hexes by one space, never a tab")
    if ch.isspace():     # a no-break or ideographic space: a gap between hexes, of the wrong kind
        return MapProblem(line, column, "M-01", f"{unicodedata.name(ch, 'unusual space').lower()} "
                          f"{shown} in the map", f"{shown} looks like a space but is another character: "
                          "separate hexes by a plain space")
    hint = (f"{shown} looks like `{meant}` ({MAP_CHARS[meant]}) but is another character: type `{meant}`"
            if meant else "use " + LEGEND)
    return MapProblem(line, column, "M-01", f"unknown map character {shown}", hint)


def read_map(text: str) -> MissionMap:
    out = MissionMap()
    rows = text.replace("\r\n", "\n").split("\n")     # a Windows line end is no map character
    while rows and not rows[-1].strip(" "):
        rows.pop()
    widths: list[tuple[int, int, int]] = []    # (row, line index, hex count) of clean rows
    r = -1
    for index, raw in enumerate(rows):
        line = raw.rstrip(" ")
        if not line:
            # a blank line is no row: the rows after it keep their numbers
            # ("after row -1" was said of a blank line above the first row)
            out.problems.append(MapProblem(index + 1, 1, "M-06", f"a blank line after row {r}" if r >= 0
                                           else "a blank line before row 0",
                                           "remove the blank line inside the map" if r >= 0 else
                                           "start the map on the line after `map: |`"))
            continue
        r += 1
        before = len(out.problems)
        indent = len(line) - len(line.lstrip(" "))
        want = r % 2
        if indent != want:
            what = ("odd row {r} must be indented by one space" if want
                    else "even row {r} must not be indented").format(r=r)
            out.problems.append(MapProblem(index + 1, indent + 1, "M-04", what,
                                           "odd rows (1, 3, ...) start with one space, even rows with none: "
                                           "odd rows sit half a hex to the right"))
        col, gap = 0, 0
        for i in range(indent, len(line)):
            ch = line[i]
            if unicodedata.category(ch) == "Cf":
                # an invisible format character (zero-width space, a BOM, a joiner): one
                # problem, and neither a hex nor a gap (it made "touch" problems around it)
                out.problems.append(MapProblem(
                    index + 1, i + 1, "M-01", f"invisible character {ch!r} (U+{ord(ch):04X} "
                    f"{unicodedata.name(ch, 'format character')}) in the map",
                    "the editor shows nothing there: delete the character between the hexes"))
                continue
            if ch != " " and ch.isspace():      # a tab, a no-break space: a gap, reported
                out.problems.append(_char_problem(index + 1, i + 1, ch))
            if ch.isspace():
                gap += 1
                continue
            if col and gap == 0:
                out.problems.append(MapProblem(index + 1, i + 1, "M-02",
                                               f"{line[i - 1]!r} and {ch!r} touch: hexes are one character each",
                                               "put a single space between two hexes"))
            elif gap > 1:
                out.problems.append(MapProblem(index + 1, i + 1 - gap + 1, "M-03",
                                               f"{gap} spaces between two hexes of row {r}",
                                               "hexes are separated by exactly one space; use `x` for a gap"))
            gap = 0
            if ch not in MAP_CHARS:
                out.problems.append(_char_problem(index + 1, i + 1, ch))
            else:
                out.cells[(r, col)] = ch
                out.where[(r, col)] = (index + 1, i + 1)
            col += 1
        if len(out.problems) == before:       # a row with a problem is not also "ragged"
            widths.append((r, index, col))
    _ragged(out, widths, rows)
    return out


def _ragged(out: MissionMap, widths: list[tuple[int, int, int]], rows: list[str]) -> None:
    """M-05: every row holds as many hexes as the most common row width."""
    if not widths:
        return
    counts = Counter(w for _, _, w in widths)
    width = max(counts, key=lambda w: (counts[w], -next(r for r, _, x in widths if x == w)))
    for r, index, w in widths:
        if w == width:
            continue
        line = rows[index].rstrip(" ")
        column = len(line) + 1 if w < width else _nth_hex_column(line, width)
        out.problems.append(MapProblem(index + 1, column, "M-05",
                                       f"row {r} has {w} hexes, the other rows {width}",
                                       "every row has the same number of hexes: pad the board edge with `x`"))


def _nth_hex_column(line: str, n: int) -> int:
    """1-based column of the hex after the first n hexes of a row."""
    seen = 0
    for i, ch in enumerate(line):
        if ch != " ":
            if seen == n:
                return i + 1
            seen += 1
    return len(line) + 1


def cells_of(text: str) -> dict[Hex, str]:
    """The hexes of a map (the engine and the briefing read maps the checker accepted)."""
    return read_map(text).cells
