"""Crawl Decks' game state: the decks and piles, the exploration columns, the battlefield rows,
the player board (HP, misses, resources, attribute tokens, loot pile, spare slot, equipment)."""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

ATTRIBUTES = ("strength", "agility", "perception", "intelligence")   # L77, top to bottom
RESOURCES = ("potion", "scroll", "food", "ammo", "gold")             # L71, left to right


def resources_of(data) -> tuple:
    """The printed five, then the resources a pack adds to the vocabulary (the contract lets
    a pack add them: gain and pay work for any), so a scenario may set and expect them."""
    added = sorted(n for n, infos in data.names.items() if "resource" in infos and n not in RESOURCES)
    return RESOURCES + tuple(added)
FIELD = ("exploration", "battlefield")       # 场上 for main-deck cards (L274)


@dataclass(eq=False)
class Card:
    """One physical card: a main-deck card, an event card or a relic."""
    uid: int
    defn: Any
    deck: str                   # "main" | "event" | "relic": the deck it belongs to
    zone: str = ""
    face_up: bool = True
    sideways: bool = False      # relics: 横置 (L234)
    label: str = ""             # a scenario's name for this card

    def __post_init__(self) -> None:
        # its name, made once: the simulated player names cards (repr) thousands of times a
        # game; `uid` and `defn` never change (a scenario's `label`, set later, comes first)
        self._name = f"{self.defn.id}#{self.uid}"

    @property
    def id(self) -> str:
        return self.defn.id

    def __repr__(self) -> str:
        return self.label or self._name

    def __deepcopy__(self, memo) -> "Card":
        """Every field is a plain value or the shared definition: a shallow copy is a deep one
        (a simulated player's lookahead copies the game often)."""
        new = copy.copy(self)
        memo[id(self)] = new
        return new


@dataclass(eq=False)
class Virtual:
    """A stack of face-up tokens of one attribute played as a card (使用属性, L224)."""
    attribute: str
    size: int
    zone: str = "battlefield"

    @property
    def id(self) -> str:
        return f"{self.attribute}x{self.size}"

    def __repr__(self) -> str:
        return f"<{self.attribute} x{self.size}>"


@dataclass
class Row:
    """One battlefield row; index 0 of `State.rows` is the top-end row (resolves first)."""
    enemy: list = field(default_factory=list)
    player: list = field(default_factory=list)


@dataclass
class Tokens:
    up: int = 0
    down: int = 0
    stacked: int = 0        # on the battlefield in stacks: still the player's (L212, L224-226)

    @property
    def total(self) -> int:
        return self.up + self.down + self.stacked


@dataclass
class State:
    main_deck: list[Card] = field(default_factory=list)      # the top is the end of the list
    graveyard: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    event_deck: list[Card] = field(default_factory=list)
    event_discard: list[Card] = field(default_factory=list)
    relic_deck: list[Card] = field(default_factory=list)
    columns: list[list[Card]] = field(default_factory=list)  # [0] bottom end .. [-1] top end
    rows: list[Row] = field(default_factory=list)
    spare: list[Card] = field(default_factory=list)
    loot: list[Card] = field(default_factory=list)
    hand: list[Card] = field(default_factory=list)
    equipment: list[Card] = field(default_factory=list)
    cleanup: list[Card] = field(default_factory=list)        # loot stacked at clean-up (L240)
    revealed: list[Card] = field(default_factory=list)       # event cards drawn post-battle
    tokens: dict[str, Tokens] = field(default_factory=lambda: {a: Tokens() for a in ATTRIBUTES})
    resources: Counter = field(default_factory=Counter)
    labels: set[str] = field(default_factory=set)           # labels of resource relics gained (L45)
    hp: int = 5
    hp_max: int = 5
    misses: int = 0
    dl: int = 1
    space: int = 2
    descends: int = 0
    turn: int = 0
    won: bool = False
    lost: bool = False
    reason: str = ""
    log: list[str] = field(default_factory=list)
    stats: Counter = field(default_factory=Counter)

    @property
    def over(self) -> bool:
        return self.won or self.lost

    def __getattr__(self, name: str):
        """A trial copy's piles and columns, copied on first use (snapshot.copy_state with
        disposable=True)."""
        lazy = self.__dict__.get("_lazy")
        if lazy and name in lazy:
            value = self.__dict__[name] = lazy.take(name)
            return value
        raise AttributeError(name)

    def size(self, pile: str) -> int:
        """len(getattr(self, pile)), without copying a pile that a trial copy has not read
        yet: it is still the game's, of the same length."""
        lazy = self.__dict__.get("_lazy")
        if lazy and pile in lazy:
            return lazy.size(pile)
        return len(getattr(self, pile))

    def put(self, pile: str, card) -> None:
        """getattr(self, pile).append(card), without copying a pile that a trial copy has not
        read yet: the card joins it when it is read (snapshot.Piles)."""
        lazy = self.__dict__.get("_lazy")
        if lazy and pile in lazy:
            lazy.put(pile, card)
        else:
            getattr(self, pile).append(card)

    def named(self, pile: str, name: str) -> Card:
        """The card of `pile` whose name (repr) is `name` (StopIteration if none), without
        copying a pile that a trial copy has not read yet: only the card is copied."""
        lazy = self.__dict__.get("_lazy")
        if lazy and pile in lazy:
            return lazy.named(pile, name)
        return next(c for c in getattr(self, pile) if repr(c) == name)

    def exploration_cards(self) -> list[Card]:
        return [c for col in self.columns for c in col]

    def exploration_seen(self) -> list[Card]:
        """exploration_cards() to read, without copying columns that a trial copy has not
        read yet (see snapshot.Piles.cards)."""
        lazy = self.__dict__.get("_lazy")
        if lazy and "columns" in lazy:
            return lazy.cards("columns")
        return [c for col in self.columns for c in col]

    def token_total(self) -> int:
        return sum(t.total for t in self.tokens.values())
