"""Layered values: printed value, one-shot "set"/"add"/"multiply", and continuous modifiers.

The rule, as Dungeon Master Crawl Decks states it (rulebook L328-332, L282) and as every game
uses it through the effect language's `x.attr = v`, `+= n`, `-= n`, `*= n`:

1. One-shot modifications apply in the order they resolve. A set ("becomes X") overrides every
   earlier one-shot add; a later add applies on top of the set: set X then +1 -> X+1;
   +1 then set X -> X.
2. Continuous modifiers (from a source that is in play) are re-applied after one-shot
   modifications, so a continuous +1 survives a one-shot set: printed 3, continuous +1 (4),
   set to 1 -> 1, re-apply -> 2.
3. A continuous modifier lasts while its source is active; removing the source removes it.
4. When a value drops to 0 or below, `on_zero` is called at once (the Crawl Decks card goes to
   the graveyard even in the middle of resolving another effect).

Choices the rulebook leaves open, made here once for all games (and tested):
- a continuous *set* applies after all one-shot modifications and before continuous adds;
- several continuous adds apply in the order they were registered (addition commutes, so
  only multiplications make the order visible);
- values are not clamped: a value below 0 is reported as it is, and counts as "reached 0".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable

from tomecraft.runtime.effects import RunawayEffect

OPS = ("=", "+=", "-=", "*=")


@dataclass(frozen=True, slots=True)
class Modifier:
    op: str
    amount: int
    source: Hashable = None
    key: str = ""


@dataclass
class _Slot:
    base: int
    one_shot: list[Modifier] = field(default_factory=list)
    continuous: list[Modifier] = field(default_factory=list)


MAX_VALUE = 10**15  # bounded evaluation: `x *= 1000` in a loop must not build huge numbers


def _apply(value: int, op: str, amount: int) -> int:
    if op == "=":
        result = amount
    elif op == "+=":
        result = value + amount
    elif op == "-=":
        result = value - amount
    elif op == "*=":
        result = value * amount
    else:
        raise ValueError(f"unknown layering operator {op!r}")
    if isinstance(result, int) and abs(result) > MAX_VALUE:
        raise RunawayEffect(f"a layered value went past {MAX_VALUE:,}", "?")
    return result


def _layered(slot: _Slot) -> int:
    """A modified value: its one-shot modifications in order, then its continuous ones."""
    value = slot.base
    for mod in slot.one_shot:
        value = _apply(value, mod.op, mod.amount)
    for mod in slot.continuous:  # continuous sets first, then adds, in registration order
        if mod.op == "=":
            value = mod.amount
    for mod in slot.continuous:
        if mod.op != "=":
            value = _apply(value, mod.op, mod.amount)
    return value


class Layers:
    """Every layered value of a game, keyed by (object id, attribute)."""

    def __init__(self, on_zero: Callable[[Hashable, str], None] | None = None) -> None:
        self._slots: dict[tuple[Hashable, str], _Slot] = {}
        self.on_zero = on_zero
        # The values that may carry a modification (every one that was given one since it
        # last had none), and when each value was made (the order of _slots): `modified`
        # lists the few modified values without reading every slot (for a copy, replace_source
        # and clear).
        self._modded: set[tuple[Hashable, str]] = set()
        self._made: dict[tuple[Hashable, str], int] = {}
        self._makes = 0

    # --- values ---------------------------------------------------------------------
    def set_base(self, obj: Hashable, attr: str, value: int) -> None:
        slot = self._slots.get((obj, attr))
        if slot is None:
            self._slots[(obj, attr)] = _Slot(value)
            self._made[(obj, attr)] = self._makes
            self._makes += 1
        else:
            slot.base = value

    def has(self, obj: Hashable, attr: str) -> bool:
        return (obj, attr) in self._slots

    def base(self, obj: Hashable, attr: str) -> int:
        return self._slot(obj, attr).base

    def value(self, obj: Hashable, attr: str) -> int:
        slot = self._slots.get((obj, attr)) or self._slot(obj, attr)    # (_slot: its KeyError)
        if not slot.one_shot and not slot.continuous:   # most values: as printed
            return slot.base
        return _layered(slot)

    def _slot(self, obj: Hashable, attr: str) -> _Slot:
        try:
            return self._slots[(obj, attr)]
        except KeyError:
            raise KeyError(f"no layered value {attr!r} for {obj!r}") from None

    # --- modifications --------------------------------------------------------------
    def modify(self, obj: Hashable, attr: str, op: str, amount: int, *,
               continuous: bool = False, source: Hashable = None, key: str = "") -> int:
        """Apply one modification; return the new value (and fire on_zero if it hit 0)."""
        if op not in OPS:
            raise ValueError(f"unknown layering operator {op!r}")
        slot = self._slot(obj, attr)
        before = self.value(obj, attr)
        mod = Modifier(op, int(amount), source, key)
        self._modded.add((obj, attr))
        if continuous:
            if not any(m.source == source and m.key == key and key for m in slot.continuous):
                slot.continuous.append(mod)
        else:
            slot.one_shot.append(mod)
        return self._settle(obj, attr, before)

    def remove_source(self, source: Hashable) -> None:
        """A continuous source left play (or turned face down): drop its modifiers."""
        for (obj, attr), slot in list(self._slots.items()):
            if any(m.source == source for m in slot.continuous):
                before = self.value(obj, attr)
                slot.continuous = [m for m in slot.continuous if m.source != source]
                self._settle(obj, attr, before)

    def replace_source(self, source: Hashable, mods) -> None:
        """Atomically replace every continuous modifier of `source` with `mods`.

        `mods` holds (obj, attr, op, amount[, key]) tuples. Each affected value settles once,
        comparing before and after, so re-evaluating a continuous effect whose targets did not
        change fires nothing, and a value that the new set brings to 0 fires `on_zero` once.
        A replaced source's modifiers move to the end of the registration order.
        """
        mods = [tuple(m) for m in mods]
        for m in mods:
            if m[2] not in OPS:
                raise ValueError(f"unknown layering operator {m[2]!r}")
        if self._holds_already(source, mods):
            return          # (a refresh re-applying an effect whose targets did not change)
        affected = [k for k, slot in self.modified()     # most values have no modification
                    if slot.continuous and any(m.source == source for m in slot.continuous)]
        for m in mods:
            if (m[0], m[1]) not in affected:
                self._slot(m[0], m[1])          # KeyError for an unknown value
                affected.append((m[0], m[1]))
        before = {k: self.value(*k) for k in affected}
        for k in affected:
            slot = self._slots[k]
            slot.continuous = [m for m in slot.continuous if m.source != source]
        for m in mods:
            key = m[4] if len(m) > 4 else ""
            self._slots[(m[0], m[1])].continuous.append(Modifier(m[2], int(m[3]), source, key))
            self._modded.add((m[0], m[1]))
        for k in affected:
            if k in self._slots:
                self._settle(k[0], k[1], before[k])

    def _holds_already(self, source: Hashable, mods: list) -> bool:
        """Whether replace_source(source, mods) would leave every value as it is: each value
        modified by `source` ends with exactly its `mods`, in order, and holds no other
        modifier of `source` (what the replacement would make of it)."""
        want: dict = {}
        for m in mods:
            want.setdefault((m[0], m[1]), []).append(m)
        slots, found = self._slots, 0
        for key in self._modded:            # (every value holding a modifier is among them)
            slot = slots.get(key)
            if slot is None:
                continue
            held = slot.continuous
            if not held:                    # (a value with one-shot modifications only)
                continue
            count = 0
            for m in held:
                if m.source == source:
                    count += 1
            if not count:
                continue
            new = want.get(key)
            if new is None or len(new) != count:
                return False
            for old, m in zip(held[len(held) - count:], new):
                if old.source != source or old.op != m[2] or old.amount != m[3] \
                        or old.key != (m[4] if len(m) > 4 else ""):
                    return False
            found += 1
        return found == len(want)

    def clear(self, obj: Hashable) -> None:
        """The object left the place where its modifications count: back to printed values."""
        for key in self._modded:                # (the others have nothing to clear)
            if key[0] == obj:
                slot = self._slots[key]
                slot.one_shot.clear()
                slot.continuous.clear()

    def forget(self, obj: Hashable) -> None:
        for key in [k for k in self._slots if k[0] == obj]:
            del self._slots[key]
            self._modded.discard(key)
            del self._made[key]

    def modified(self) -> list[tuple[tuple[Hashable, str], _Slot]]:
        """[(key, slot)] of every value that carries a modification, in the order of _slots."""
        slots = self._slots
        held = []
        for key in self._modded:
            slot = slots.get(key)
            if slot is not None and (slot.one_shot or slot.continuous):
                held.append(key)
        if len(held) < len(self._modded):
            self._modded = set(held)
        held.sort(key=self._made.__getitem__)
        return [(key, slots[key]) for key in held]

    def _settle(self, obj: Hashable, attr: str, before: int) -> int:
        after = self.value(obj, attr)
        if after <= 0 < before and self.on_zero is not None:
            self.on_zero(obj, attr)
        return after
