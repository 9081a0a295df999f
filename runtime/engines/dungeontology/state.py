"""Dungeontology's game state: scholars, placed regions, the campus and the decks.

Geometry: region tiles sit on one square grid (north is up, tiles never rotate, L749). Two
neighbouring tiles are connected when both have a passage on the shared side and they are on
the same level, or a stair marker joins them; a wall marker blocks a passage for good.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tomecraft.runtime.definitions import Record

Pos = tuple[int, int]

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDES = ("N", "E", "S", "W")
COLOURS = ("civilization", "military", "faith", "wealth", "caste")
SEAT_COLOURS = ("red", "yellow", "green", "blue")
BONFIRE_MAX = 12                      # L1283
THESIS_BONUS = (10, 7, 5, 3)          # L1176
START_HAND = (1, 2, 3, 4)             # L265
CARD_AUX_TYPES = ("trick", "fate", "magic")     # usable in stealth attempts (L927-928)


def step(pos: Pos, side: str) -> Pos:
    dx, dy = STEP[side]
    return (pos[0] + dx, pos[1] + dy)


def edge(a: Pos, b: Pos) -> tuple[Pos, Pos]:
    return (a, b) if a <= b else (b, a)


def research_increase(n: int) -> int:
    """R-04 (C4): alert increase for targeting n consecutive blocks, n(n-1)/2: 0, 1, 3, 6, 10."""
    return n * (n - 1) // 2


@dataclass
class Tile:
    pos: Pos
    region: object                      # the Region definition
    slots: list                         # colour or None per slot, left to right
    tokens: list = field(default_factory=list)      # token definitions (traps first)
    entered: bool = False

    @property
    def level(self) -> int:
        return self.region.level

    @property
    def id(self) -> str:
        return self.region.id

    def blocks(self) -> list[tuple[int, str]]:
        return [(i, c) for i, c in enumerate(self.slots) if c is not None]


_SIDES: dict = {}     # id(scholar card) -> (the card, {side name: (side, its Side)}); the card
                      # is kept so its id cannot be reused by another card while the entry lives


class Side(Record):
    """A scholar side as `Scholar.stats` hands it out: its Record's own fields (`_fields`: equal
    to it, a Record to whoever reads one), held as plain attributes too. A Record's field is
    read through `__getattr__`, once the attribute lookup has failed and raised (a hundred
    times a plain read), and the engine reads a side's stats at every turn and decision."""

    def __init__(self, side: Record) -> None:       # (Record's own names stay its methods')
        object.__setattr__(self, "_fields", side._fields)
        self.__dict__.update((k, v) for k, v in side._fields.items() if not hasattr(Record, k))


@dataclass(repr=False)
class Scholar:
    seat: int
    card: object                        # the Scholar definition
    pos: Pos = (0, 0)
    side: str = "standard"
    students: int = 0
    stun: int = 0
    hand: list = field(default_factory=list)
    notebook: Counter = field(default_factory=Counter)
    lore: bool = False
    dooms_hidden: list = field(default_factory=list)
    dooms: list = field(default_factory=list)
    thesis: str | None = None           # None, "success" or "failure"
    thesis_order: int | None = None
    done: bool = False
    steps: int = 0
    actions: int = 0

    def __repr__(self) -> str:
        # as a scenario answers a target: a decision's options read `[{seat: 0} (valerio), ...]`
        return f"{{seat: {self.seat}}} ({self.card.id})"

    @property
    def colour(self) -> str:
        return SEAT_COLOURS[self.seat]

    @property
    def name(self) -> str:
        return f"P{self.seat + 1} {self.card.name.en}"

    def stats(self):
        """The card side in play (looked up often: the sides by name are kept per card)."""
        sides = _SIDES.get(id(self.card))
        if sides is None or sides[0] is not self.card:
            by_name: dict = {}
            for s in self.card.sides:
                by_name.setdefault(s.side, (s, Side(s)))
            sides = _SIDES[id(self.card)] = (self.card, by_name)
        found = sides[1].get(self.side)
        if found is None:
            raise StopIteration        # as the search this replaces: no such side
        side, view = found
        if view._fields is not side._fields:     # its fields swapped (`sim --usage` wraps them)
            view = Side(side)
            sides[1][self.side] = (side, view)
        return view


@dataclass
class State:
    players: int
    tiles: dict = field(default_factory=dict)          # pos -> Tile
    stacks: dict = field(default_factory=lambda: {1: [], 2: [], 3: []})   # top = end
    stairs: set = field(default_factory=set)            # edges with stair markers
    walls: set = field(default_factory=set)             # edges with wall markers
    dead_ends: set = field(default_factory=set)         # (pos, side) no stacked region fits
    scholars: list = field(default_factory=list)
    deck: list = field(default_factory=list)            # scheme cards, top = end
    discard: list = field(default_factory=list)
    doom_deck: list = field(default_factory=list)
    randomizer: list = field(default_factory=list)
    traps: list = field(default_factory=list)           # face-down trap token pool
    bag: Counter = field(default_factory=Counter)       # "normal" / "omega"
    bonfire: int = 0
    reserve_students: int = 0
    reserve_omega: int = 0
    reserve_blocks: Counter = field(default_factory=Counter)
    alert_card: object = None
    alert_filled: int = 0
    penalty_after_panic: int = 0                        # rule g13, set when the card leaves
    panic: object = None
    panic_revealed: bool = False
    clan: object = None
    boss: object = None                                 # the boss side Record
    boss_pos: Pos | None = None
    interns: dict = field(default_factory=dict)         # intern id -> seat
    theses: int = 0
    max_alert: bool = False
    ended: str | None = None
    round: int = 0
    current: int = 0
    first: int = 0
    log: list = field(default_factory=list)
    stats: Counter = field(default_factory=Counter)

    def start_pos(self) -> Pos:
        return next(t.pos for t in self.tiles.values() if t.region.start)
