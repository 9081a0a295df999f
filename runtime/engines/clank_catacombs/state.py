"""Clank! Catacombs state: players, the dungeon map (one room per grid cell), supplies."""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from tomecraft.runtime.lookahead import copy_counter

ORDER = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}

ACTIVE, ESCAPED, KNOCKED_OUT = "active", "escaped", "knocked_out"


def step(pos: tuple[int, int], d: str) -> tuple[int, int]:
    dx, dy = DELTA[d]
    return (pos[0] + dx, pos[1] + dy)


def turned(d: str, turns: int) -> str:
    """The direction `d` turned clockwise by `turns` quarter turns (counter-clockwise if
    negative)."""
    return ORDER[(ORDER.index(d) + turns) % 4]


def rotate(exits: str, icons: dict, turns: int) -> tuple[str, dict]:
    """Rotate a tile's exits and icons clockwise by `turns` quarter turns."""
    new_exits = "".join(sorted((turned(d, turns) for d in exits), key=ORDER.index))
    return new_exits, {turned(d, turns): list(v) for d, v in icons.items()}


def _flat_copy(obj, memo: dict):
    """A deep copy of a Cell or Player for a lookahead's copy of the game, made quickly: their
    containers hold only immutable values (ids, seats, positions, points), so copying each
    container is copying deep; the tile and room a cell shows are content, shared."""
    twin = obj.__class__.__new__(obj.__class__)
    memo[id(obj)] = twin
    fields = twin.__dict__
    fields.update(obj.__dict__)
    for name, value in fields.items():             # replacing values: the keys stay
        kind = type(value)
        if kind is list or kind is set:
            fields[name] = kind(value)
        elif kind is Counter:
            fields[name] = copy_counter(value)
        elif kind is dict:
            fields[name] = {k: list(v) if type(v) is list else v for k, v in value.items()}
    return twin


@dataclass
class Cell:
    """One room on the map: a square tile, or one half of the starting tile."""
    pos: tuple[int, int]
    tile: object
    room: object
    exits: str
    icons: dict
    depths: bool
    plus_signs: int = 0
    portal: bool = False
    treasures: list = field(default_factory=list)     # treasure token ids in the room
    used: bool = False                                 # a locked resource already unlocked
    signposts: list = field(default_factory=list)      # seats that recorded here
    idols: int = 0
    unlocked: set = field(default_factory=set)         # edges whose lock icons are opened

    def opens(self, d: str) -> bool:
        return d in self.exits

    __deepcopy__ = _flat_copy


@dataclass
class Player:
    seat: int
    pos: tuple[int, int]
    cubes: int = 30
    deck: list = field(default_factory=list)
    hand: list = field(default_factory=list)
    play_area: list = field(default_factory=list)
    discard: list = field(default_factory=list)
    skill: int = 0
    combat: int = 0
    movement: int = 0
    gold: int = 0
    lockpicks: int = 0
    track: list = field(default_factory=list)          # cubes on the health track: "own" | "black"
    tokens: Counter = field(default_factory=Counter)   # token ids held
    treasures: list = field(default_factory=list)      # treasure token ids held
    market: list = field(default_factory=list)         # (item id, points) bought
    signposts: int = 0
    taken_from: set = field(default_factory=set)      # rooms this player took a treasure from
    status: str = ACTIVE
    knocked_in_depths: bool = False
    mastery: int = 0
    # held tokens whose passive lets their holder cross against one-way arrows (allow_reverse)
    reverse_by: set = field(default_factory=set)
    # this turn
    clank_gained: int = 0
    neg_bank: int = 0
    no_movement: bool = False
    rewards: set = field(default_factory=set)
    spring: int = 0
    reverse_this_turn: bool = False     # a card or room's allow_reverse, for the rest of the turn

    @property
    def name(self) -> str:
        return f"P{self.seat + 1}"

    @property
    def damage_taken(self) -> int:
        return len(self.track)

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def all_cards(self) -> list:
        return self.deck + self.hand + self.play_area + self.discard

    __deepcopy__ = _flat_copy


def _state_copy(state, memo: dict):
    """A deep copy of the State for a lookahead's copy of the game, made quickly: its piles
    (lists of ids) and counters (of ids or tunnels) hold only immutable values, so they are
    copied flat; the map's positions (tuples of ints) are shared and its cells deep-copied;
    whatever else it holds (players, the market) is deep-copied."""
    twin = state.__class__.__new__(state.__class__)
    memo[id(state)] = twin
    for name, value in state.__dict__.items():
        kind = type(value)
        if kind is list and all(type(x) is str for x in value):
            value = list(value)
        elif kind is Counter:
            value = copy_counter(value)
        elif name == "cells":
            value = {pos: copy.deepcopy(cell, memo) for pos, cell in value.items()}
        elif kind not in (int, str, bool):
            value = copy.deepcopy(value, memo)
        twin.__dict__[name] = value
    return twin


@dataclass
class State:
    players: list
    cells: dict
    tile_stack: list                                  # tile ids, top last
    treasure_stack: list                              # treasure ids, top first
    majors: list
    minors: list
    prisoners: list
    dungeon_deck: list                                # card ids, top last
    row: list = field(default_factory=list)
    dungeon_discard: list = field(default_factory=list)
    reserve: Counter = field(default_factory=Counter)
    market: dict = field(default_factory=dict)        # item id -> list of points, top first
    bag: Counter = field(default_factory=Counter)     # "black" | "ghost" | seat -> cubes
    clank_area: Counter = field(default_factory=Counter)
    ghosts: int = 5
    rage: int = 0                                     # 0-based space on the rage track
    mastery_left: int = 4
    round: int = 1
    current: int = 0
    over: bool = False
    end_reason: str = ""
    log: list = field(default_factory=list)
    trashed: list = field(default_factory=list)
    unlocked: Counter = field(default_factory=Counter)   # tunnel -> lock icons opened

    __deepcopy__ = _state_copy


# token types dealt into shuffled piles at setup (C): secrets, prisoners with the coupon
PILED = ("major_secret", "minor_secret", "prisoner", "coupon")


def rule(data, rule_id: str):
    """A rule decision's value (content/clank_catacombs/rules.yaml)."""
    return data.get("rule", rule_id).value


def PLAYER_COUNTS(data) -> dict:  # noqa: N802 - an engine constant runtime/sim.py reads
    """The player counts this content plays: at most its rule max_players (4, or 6 with the
    party pack; a pack may lower it), the default no more than that."""
    counts = dict(data.players)
    limit = rule(data, "max_players")
    if limit < counts["max"]:
        counts["max"] = limit
        counts["default"] = min(counts["default"], limit)
        counts["why"] = (f"the rule max_players is {limit}; "
                         "the 墓穴派对 pack (packs/tomb_party) plays 5-6")
    return counts
