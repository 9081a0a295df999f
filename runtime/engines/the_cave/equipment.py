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
from typing import Any, Iterable, Mapping

WORN = "@"


def item_of(key: str) -> str:
    """The item a bag key holds: `oxygen@1` -> `oxygen`."""
    return key.partition(WORN)[0]


def worn(term: str, left: int) -> str:
    return f"{term}{WORN}{left}"


def _no_uses(bag, times: int) -> bool:
    return times <= 0


def _nothing_to_use(bag, times=1) -> str:
    if times <= 0:
        return "uses"
    raise KeyError("nothing to use")        # callers ask can_use first


class Items:
    """The content's equipment, by term, in content order."""

    def __init__(self, equipment: Mapping[str, Any], words: Iterable[str] = ()) -> None:
        """`equipment`: the content's entities by id; `words`: every equipment word of the
        vocabulary, which effects may name even when no equipment has it as its term."""
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
        # Per item, the bag calls made while effects run, each written for the item's shape
        # (kept, one use, worn) with its keys bound: an entering effect calls them through
        # these tables with no test of the shape or lookup of the keys per call.
        # A word no equipment has (a pack may declare one, or remove the item) holds no uses.
        self.can_use_of = dict.fromkeys(words, _no_uses)
        self.use_once_of = dict.fromkeys(words, _nothing_to_use)
        self.use_of = dict.fromkeys(words, _nothing_to_use)
        for t in self.order:
            self.can_use_of[t] = self._can_use_fn(t)
            self.use_once_of[t] = self._use_once_fn(t)
            self.use_of[t] = self._use_fn(t)

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
        return self.can_use_of.get(term, _no_uses)(bag, times)

    def use(self, bag: Counter, term: str, times: int = 1) -> str:
        """`times` uses of the item (see `use_once`). Says what the last use did, for the log."""
        return self.use_of.get(term, _nothing_to_use)(bag, times)

    def use_once(self, bag: Counter, term: str) -> str:
        """One use of the item: its most worn token loses a use, and is discarded when it has
        none left; a kept item spends nothing. Says what happened, for the log."""
        return self.use_once_of.get(term, _nothing_to_use)(bag)

    def _can_use_fn(self, term: str):
        """`can_use(bag, times)` for one item: enough uses held for `times`."""
        if term in self._single:        # one use a token (rope, food): the tokens held
            return lambda bag, times: bag.get(term, 0) >= times
        if term in self._kept:          # one token serves every use
            return lambda bag, times: self.count(bag, term) >= (1 if times else 0)
        held = tuple(self._held[term])
        if len(held) == 2:              # a two-use token (oxygen): a fresh side holds 2 uses,
            (worn_key, _), (key, _) = held  # the flipped side 1

            def can_use(bag, times):   # (get: no Counter.__missing__ call per absent key)
                return bag.get(worn_key, 0) + 2 * bag.get(key, 0) >= times
            return can_use

        def can_use(bag, times):
            total, get = 0, bag.get
            for key, left in held:
                total += get(key, 0) * left
            return total >= times
        return can_use

    def _use_once_fn(self, term: str):
        """`use_once(bag)` for one item (see `use_once`); KeyError when nothing is held:
        callers ask can_use first."""
        if term in self._kept:
            return lambda bag: "uses"
        steps = tuple((key, self._after[key]) for key in self._keys[term])   # most worn first
        if len(steps) == 2 and steps[0][1] is None and steps[1][1] == steps[0][0]:
            (worn_key, _), (key, _) = steps     # a two-use token: flipped first (oxygen)

            def use_once(bag):
                flipped = bag.get(worn_key, 0)
                if flipped > 0:
                    bag[worn_key] = flipped - 1
                    return "uses up"
                fresh = bag.get(key, 0)
                if fresh <= 0:
                    raise KeyError(term)
                bag[key] = fresh - 1
                bag[worn_key] = flipped + 1
                return "wears"
            return use_once

        def use_once(bag):
            for key, after in steps:
                if bag.get(key, 0) > 0:
                    break
            else:
                raise KeyError(term)
            bag[key] -= 1
            if after is None:
                return "uses up"
            bag[after] = bag.get(after, 0) + 1
            return "wears"
        return use_once

    def _use_fn(self, term: str):
        """`use(bag, times)` for one item: `times` uses, saying what the last one did."""
        use_once = self.use_once_of[term]
        if term in self._single:
            def use(bag, times=1):
                if times <= 0:
                    return "uses"
                if bag.get(term, 0) < times:
                    raise KeyError(term)
                bag[term] -= times
                return "uses up"
            return use

        def use(bag, times=1):
            what = "uses"
            for _ in range(times):
                what = use_once(bag)
            return what
        return use

    def take_out(self, bag: Counter, term: str) -> str:
        """Remove one token of the item, the most worn first; returns its key."""
        for key in self.keys(term):
            if bag[key] > 0:
                bag[key] -= 1
                return key
        raise KeyError(term)

    def slots_used(self, bag: Counter) -> int:
        return sum(n * self.slots(key) for key, n in bag.items() if n > 0)
