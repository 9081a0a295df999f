"""Equipment tokens as the content defines them: the bag operations every rule uses.

An item is known by its `term` (the word effects use: `spend rope 1`, `has(camera)`). What a
token does comes from its fields, never from its id:
- `slots`: backpack (and camp) slots one token takes (L46-47);
- `uses`: uses before the token is spent; a token used but not spent is "worn" and is held
  under the key `TERM@LEFT` (an oxygen on its one-tank side is `oxygen@1`, L173-175);
  a worn token is used before a fresh one (D-24);
- `kept_after_use`: a use spends nothing (the camera, the raft: L191-193, L287-292);
- `per_team_limit`: a team owns at most this many, and one discarded is gone for good
  (L287-292);
- `use`: an action a team may take while the token is in its backpack.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

WORN = "@"


def item_of(key: str) -> str:
    """The item a bag key holds: `oxygen@1` -> `oxygen`."""
    return key.partition(WORN)[0]


def worn(term: str, left: int) -> str:
    return f"{term}{WORN}{left}"


class Items:
    """The content's equipment, by term, in content order."""

    def __init__(self, equipment: Mapping[str, Any]) -> None:
        self.by_term = {(e.term or e.id): e for e in equipment.values()}
        self.order = list(self.by_term)
        self.limits = {t: e.per_team_limit for t, e in sorted(self.by_term.items())
                       if e.per_team_limit is not None}
        self._keys = {t: [worn(t, left) for left in range(1, self.uses(t))] + [t]
                      for t in self.order}          # most worn first
        # Tables for the two calls every move makes (use, can_use): the uses each key holds
        # and the key a token moves to when used, so neither parses a key.
        self._kept = frozenset(t for t in self.order if self.kept(t))
        self._held = {t: [(key, self._uses_in(t, key)) for key in keys]
                      for t, keys in self._keys.items()}
        self._after = {key: (worn(t, left - 1) if left > 1 else None)
                       for t, held in self._held.items() for key, left in held}
        # Items of one use, spent when used (rope, food): a use is one token less, so the
        # two calls every move makes need no loop over worn keys.
        self._single = frozenset(t for t in self.order if self.uses(t) == 1 and not self.kept(t))
        self._slots: dict[str, int] = {}

    def __contains__(self, key: str) -> bool:
        return item_of(key) in self.by_term

    def uses(self, term: str) -> int:
        return self.by_term[term].uses or 1

    def kept(self, term: str) -> bool:
        return bool(self.by_term[term].kept_after_use)

    def slots(self, key: str) -> int:
        found = self._slots.get(key)
        if found is None:       # remembered per bag key: every slot count sums over a bag
            found = self._slots[key] = self.by_term[item_of(key)].slots or 1
        return found

    def keys(self, term: str) -> list[str]:
        """The bag keys of an item's tokens, the most worn first."""
        return self._keys.get(term) or [term]

    def count(self, bag: Counter, term: str) -> int:
        """Tokens of the item, worn or not."""
        get, total = bag.get, 0      # (no Counter.__missing__ call per absent key)
        for key in self._keys.get(term) or (term,):
            total += get(key, 0)
        return total

    def _uses_in(self, term: str, key: str) -> int:
        return int(key.rpartition(WORN)[2]) if WORN in key else self.uses(term)

    def uses_left(self, bag: Counter, term: str) -> int:
        """Uses the item's tokens still hold (a kept item: one per token, never spent)."""
        if term in self._kept:
            return self.count(bag, term)
        get, total = bag.get, 0
        for key, left in self._held.get(term, ()):
            total += get(key, 0) * left
        return total

    def can_use(self, bag: Counter, term: str, times: int) -> bool:
        if term in self._single:        # one use a token (rope, food): the tokens held
            return bag.get(term, 0) >= times
        if term in self._kept:
            return self.count(bag, term) >= (1 if times else 0)
        held, get = 0, bag.get          # every move asks this: no Counter.__missing__ calls
        for key, left in self._held.get(term, ()):
            held += get(key, 0) * left
        return held >= times

    def use(self, bag: Counter, term: str, times: int = 1) -> str:
        """`times` uses of the item (see `use_once`). Says what the last use did, for the log."""
        if term in self._single and times > 0:
            if bag.get(term, 0) < times:
                raise KeyError(term)        # nothing to use: callers ask can_use first
            bag[term] -= times
            return "uses up"
        what = "uses"
        for _ in range(times):
            what = self.use_once(bag, term)
        return what

    def use_once(self, bag: Counter, term: str) -> str:
        """One use of the item: its most worn token loses a use, and is discarded when it has
        none left; a kept item spends nothing. Says what happened, for the log."""
        if term in self._kept:
            return "uses"
        for key in self._keys[term]:
            if bag.get(key, 0) > 0:
                break
        else:
            raise KeyError(term)        # nothing to use: callers ask can_use first
        bag[key] -= 1
        after = self._after[key]
        if after is None:
            return "uses up"
        bag[after] = bag.get(after, 0) + 1
        return "wears"

    def take_out(self, bag: Counter, term: str) -> str:
        """Remove one token of the item, the most worn first; returns its key."""
        for key in self.keys(term):
            if bag[key] > 0:
                bag[key] -= 1
                return key
        raise KeyError(term)

    def slots_used(self, bag: Counter) -> int:
        return sum(n * self.slots(key) for key, n in bag.items() if n > 0)
