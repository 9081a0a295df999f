"""The Cave's game state: the grid of placed tiles, the teams and the stacks."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

Pos = tuple[int, int]

ORDER = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}

BACKPACK_SLOTS = 8      # L46
CAMP_SLOTS = 4          # L47, L250
PACKED_CAMP_SLOTS = 2   # L251, L254-255
TURN_AP = 5             # L64
UPKEEP = "consumable"   # the item a team away from the base uses each turn (L61-62)


def step(pos: Pos, direction: str) -> Pos:
    dx, dy = STEP[direction]
    return (pos[0] + dx, pos[1] + dy)


def around(pos: Pos) -> dict[str, Pos]:
    """The position one step from `pos` in each direction (`step` of each), remembered per
    position: the grid's searches ask for them at every look-up."""
    found = _AROUND.get(pos)
    if found is None:
        found = _AROUND[pos] = {d: step(pos, d) for d in ORDER}
    return found


_AROUND: dict[Pos, dict[str, Pos]] = {}


def rotate(exits: str, quarter_turns: int) -> str:
    """Exits turned clockwise by `quarter_turns`, in N, E, S, W order (remembered: every
    draw tries the four turns of a tile)."""
    key = (exits, quarter_turns)
    found = _ROTATED.get(key)
    if found is None:
        turned = {ORDER[(ORDER.index(c) + quarter_turns) % 4] for c in exits}
        found = _ROTATED[key] = "".join(c for c in ORDER if c in turned)
    return found


_ROTATED: dict[tuple[str, int], str] = {}


def edge(a: Pos, b: Pos) -> frozenset:
    return frozenset((a, b))


def neighbours(cells: dict, pos) -> list[tuple[str, "Cell"]]:
    """Adjacent tiles joined by a road on both sides (G-21: every move needs a road)."""
    cell = cells[pos]
    out = []
    beside = _AROUND.get(pos) or around(pos)
    for d in cell.exits:
        other = cells.get(beside[d])
        if other is not None and other.opens(OPPOSITE[d]):
            out.append((d, other))
    return out


def unexplored(cells: dict, cell: "Cell") -> list[str]:
    beside = _AROUND.get(cell.pos) or around(cell.pos)
    return [d for d in cell.exits if beside[d] not in cells]


def fits(cells: dict, pos, exits: str, joined: str) -> bool:
    """D-18: road/wall match with every placed neighbour except boulders."""
    return all((d in exits) == opens for d, opens in _sides_to_match(cells, pos, joined))


def _sides_to_match(cells: dict, pos, joined: str) -> list[tuple[str, bool]]:
    """The sides of `pos` (but `joined`) a tile placed there must match (`fits`), each with
    whether the placed neighbour there opens towards `pos`."""
    sides = []
    beside = _AROUND.get(pos) or around(pos)
    for d in ORDER:
        if d == joined:
            continue
        other = cells.get(beside[d])
        if other is None or other.kind.match_edges is False:
            continue
        sides.append((d, other.opens(OPPOSITE[d])))
    return sides


def _turns(exits: str) -> tuple[str, str, str, str]:
    """The exits turned by 0 to 3 quarter turns (`rotate`), remembered per exits."""
    found = _TURNS.get(exits)
    if found is None:
        found = _TURNS[exits] = tuple(rotate(exits, turn) for turn in range(4))
    return found


_TURNS: dict[str, tuple] = {}


def placements(cells: dict, cell: Cell, tile, first: bool = False) -> list[dict]:
    """Where and how `tile` can be placed beside `cell` (D-18), each way once, in the order
    of `cell`'s unexplored exits, then of the tile's turns; only the first, if `first`."""
    seen, out = set(), []
    turns = _TURNS.get(tile.exits) or _turns(tile.exits)
    for d in unexplored(cells, cell):
        pos = step(cell.pos, d)
        joined = OPPOSITE[d]
        sides = _sides_to_match(cells, pos, joined)     # (the same for the four turns)
        for exits in turns:
            if joined in exits and all((s in exits) == opens for s, opens in sides) \
                    and (d, exits) not in seen:
                if first:
                    return [{"dir": d, "exits": exits}]
                seen.add((d, exits))
                out.append({"dir": d, "exits": exits})
    return out


@dataclass
class Cell:
    """A placed tile: its kind definition, rotated exits, depth and the tokens on it."""
    pos: Pos
    kind: Any
    exits: str
    depth: int = 0
    tokens: list[str] = field(default_factory=list)
    marker: int | None = None
    tile_id: str = ""
    stack: int = 0

    def opens(self, direction: str) -> bool:
        return direction in self.exits


@dataclass
class Team:
    seat: int
    pos: Pos
    backpack: Counter = field(default_factory=Counter)
    camp: str = "beside"            # beside | packed | set | abandoned
    camp_pos: Pos | None = None
    camp_items: Counter = field(default_factory=Counter)
    camp_packed_before: bool = False
    tokens: Counter = field(default_factory=Counter)
    depth_tokens: set[int] = field(default_factory=set)
    lost: Counter = field(default_factory=Counter)  # limited items gone for good (L289-292)
    ap: int = TURN_AP
    done: bool = False              # "can do nothing else this turn" (L230-231)
    forced: bool = False            # out of consumables (L226-228)
    turns: int = 0
    homing: bool = False            # heuristic agents only: heading back to the base

    @property
    def name(self) -> str:
        return f"P{self.seat + 1}"

    def slots_used(self, slots=lambda key: 1) -> int:
        """Backpack slots taken, `slots(key)` each token (the content's equipment slots)."""
        return sum(n * slots(key) for key, n in self.backpack.items() if n > 0) \
            + (PACKED_CAMP_SLOTS if self.camp == "packed" else 0)


@dataclass
class State:
    cells: dict[Pos, Cell]
    teams: list[Team]
    base: Pos
    stacks: list[list[Any]]                    # stacks[0] is stack 1; the top is the end
    ropes: dict[frozenset, int] = field(default_factory=dict)   # edge -> seat who placed it
    max_marker: int = 0
    end_triggered: bool = False
    discarded: list[Any] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    stats: Counter = field(default_factory=Counter)
    round: int = 0
    turn_log: list[tuple[int, int]] = field(default_factory=list)   # (round, seat)


def still_open(cache: tuple, cells: dict) -> dict:
    """The answers of `cache` ((grid size, pos -> answer), for this grid or the grid a trial
    copied it from) still true of `cells`, for answers about a tile that only the tiles
    beside it can change (its unexplored exits, its neighbours): tiles are only ever added,
    at the end of the dict. A new dict: a trial copy shares its engine's."""
    size, known = cache
    if not known or size > len(cells):
        return {}
    known = dict(known)
    for x, y in islice(cells, size, None):
        for beside in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
            known.pop(beside, None)
    return known
