"""Timing windows, trigger dispatch, once-per-scope limits, continuous effects and fizzles.

One implementation for every engine (the rules are stated most precisely by Dungeon Master
Crawl Decks, rulebook L105-143, L278-306, L322-332; inventory §6.2-6.3):

- `WindowOrder`: the fixed order of a procedure's timing windows (a turn: start, action, end;
  a battle: pre-battle, then per row before-round / round / victory or defeat, then
  post-battle). Entering a window out of order is an engine bug and raises `TimingError`.
- `TriggerBus`: `on <event>` subscriptions, owned by a card (or any object). `fire` resolves
  the eligible subscriptions of one event in a fixed order: the engine's `order(owner)` key
  (e.g. column then row, or enemy side left to right then player side), ties broken by
  subscription order. Eligibility is checked again just before each subscription resolves,
  so a card that left its zone in the middle of the dispatch (say, sent to the graveyard when
  its points reached 0) no longer resolves. Firing inside a dispatch nests depth-first: an
  interrupting event is fully resolved before the outer dispatch goes on.
- `OnceTracker`: "once per <scope>" limits, reset when the scope ends.
- `ContinuousEffects`: `continuous:` bodies owned by a source. `refresh` re-evaluates every
  body while its source is active and hands the modifiers it produces to
  `Layers.replace_source`, so a continuous add is re-applied on top of any one-shot set, and
  a source that stops being active (left the field, turned face down) stops counting.
- `Fizzle` / `resolve`: a handler that cannot carry out its part of an effect raises `Fizzle`;
  the effect is nullified from that point on and `resolve` returns False (L322-324, L252).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

from tomecraft.runtime.layering import Layers

COLLECT = "__continuous_collect__"


class TimingError(RuntimeError):
    """An engine entered a timing window out of its procedure's order."""


class Fizzle(Exception):
    """Raised by a verb handler when its part of an effect cannot be carried out."""


def resolve(fx: Callable, ctx) -> bool:
    """Run one generated effect: True if it resolved, False if it fizzled."""
    try:
        return bool(fx(ctx))
    except Fizzle:
        return False


# --- windows ---------------------------------------------------------------------------------

class WindowOrder:
    """A procedure's windows in order; `repeat` is a contiguous group that may loop (rows)."""

    def __init__(self, names: Iterable[str], repeat: Iterable[str] = ()) -> None:
        self.names = tuple(names)
        self.repeat = tuple(repeat)
        if len(set(self.names)) != len(self.names):
            raise ValueError("a window appears twice")
        idx = [self.names.index(r) for r in self.repeat]
        if idx and idx != list(range(idx[0], idx[0] + len(idx))):
            raise ValueError("the repeated windows must be contiguous")
        self.current: str | None = None
        self.trail: list[str] = []

    def reset(self) -> None:
        self.current = None
        self.trail = []

    def can_enter(self, name: str) -> bool:
        if name not in self.names:
            return False
        if self.current is None:
            return True
        here, there = self.names.index(self.current), self.names.index(name)
        if there > here:
            return True
        # looping back to the start of the repeated group, from inside it
        return bool(self.repeat) and self.current in self.repeat and name == self.repeat[0]

    def enter(self, name: str) -> None:
        if not self.can_enter(name):
            raise TimingError(f"window {name!r} cannot follow {self.current!r} "
                              f"(order: {', '.join(self.names)})")
        self.current = name
        self.trail.append(name)


# --- triggers --------------------------------------------------------------------------------

@dataclass(eq=False)
class Subscription:
    event: str
    owner: Hashable
    ctx: Any
    body: Callable
    where: Callable | None
    key: str
    scope: str | None
    seq: int
    active: bool = True


class TriggerBus:
    def __init__(self) -> None:
        self._subs: dict[str, list[Subscription]] = {}
        self._by_id: dict[tuple, Subscription] = {}
        self._seq = 0
        self.depth = 0          # > 0 while a dispatch is running
        self.fired: list[tuple[str, Hashable]] = []   # (event, owner), for logs and tests
        self.record = False
        self._dirty = False     # a subscription was deactivated since the last compaction

    def subscribe(self, event: str, owner: Hashable, ctx, body: Callable,
                  where: Callable | None = None, key: str = "", scope: str | None = None) -> Subscription:
        """Register once per (owner, event, key): running a card's effect twice is harmless."""
        ident = (owner, event, key)
        old = self._by_id.get(ident)
        if old is not None and old.active and key:
            return old
        self._seq += 1
        sub = Subscription(event, owner, ctx, body, where, key, scope, self._seq)
        self._subs.setdefault(event, []).append(sub)
        if key:
            self._by_id[ident] = sub
        return sub

    def subscriptions(self, event: str) -> list[Subscription]:
        return [s for s in self._subs.get(event, []) if s.active]

    def drop_owner(self, owner: Hashable) -> None:
        for subs in self._subs.values():
            for s in subs:
                if s.owner is owner or s.owner == owner:
                    s.active = False
                    self._dirty = True
        self._compact()

    def end_scope(self, scope: str) -> None:
        for subs in self._subs.values():
            for s in subs:
                if s.scope == scope:
                    s.active = False
                    self._dirty = True
        self._compact()

    def _compact(self) -> None:
        if self.depth or not self._dirty:
            return          # never reshape the lists under a running dispatch; nothing to drop
        self._dirty = False
        for event, subs in self._subs.items():
            self._subs[event] = [s for s in subs if s.active]
        self._by_id = {k: s for k, s in self._by_id.items() if s.active}

    def fire(self, event: str, payload: Any = None, *,
             eligible: Callable[[Hashable], bool] | None = None,
             order: Callable[[Hashable], Any] | None = None,
             bind: Callable[[Any], Any] | None = None) -> int:
        """Resolve `event`'s eligible subscriptions in order; return how many resolved (not fizzled)."""
        subs = [s for s in self._subs.get(event, []) if s.active]
        if eligible is not None:
            subs = [s for s in subs if eligible(s.owner)]
        if order is not None:
            subs.sort(key=lambda s: (order(s.owner), s.seq))
        done = 0
        self.depth += 1
        try:
            for s in subs:
                if not s.active or (eligible is not None and not eligible(s.owner)):
                    continue        # left play, or dropped, while an earlier one resolved
                ctx = s.ctx.bind(event=payload)
                if bind is not None:
                    ctx = bind(ctx)
                if s.where is not None and not s.where(ctx):
                    continue
                if self.record:
                    self.fired.append((event, s.owner))
                try:
                    s.body(ctx)
                except Fizzle:
                    continue
                done += 1
        finally:
            self.depth -= 1
        if not self.depth:
            self._compact()
        return done


# --- once per scope --------------------------------------------------------------------------

class OnceTracker:
    def __init__(self) -> None:
        self._used: dict[str, set] = {}

    def once(self, scope: str, owner: Hashable, key: str) -> bool:
        """True the first time (owner, key) asks within `scope`, False until it is reset."""
        used = self._used.setdefault(scope, set())
        ident = (id(owner) if not _hashable(owner) else owner, key)
        if ident in used:
            return False
        used.add(ident)
        return True

    def used(self, scope: str, owner: Hashable, key: str) -> bool:
        ident = (id(owner) if not _hashable(owner) else owner, key)     # as `once` records it
        return ident in self._used.get(scope, set())

    def reset(self, scope: str) -> None:
        self._used.pop(scope, None)


def _hashable(x) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


# --- continuous effects ----------------------------------------------------------------------

@dataclass(eq=False)
class _Continuous:
    owner: Hashable
    ctx: Any
    body: Callable
    key: str
    seq: int
    applied: bool = True       # whether its last refresh left it modifying anything


@dataclass
class ContinuousEffects:
    """Continuous bodies and the layered values they modify.

    An engine's `modify(ctx, obj, attr, op, value, key)` calls `collecting(ctx)` first: inside
    a refresh the modification is collected as continuous, otherwise it is a one-shot
    modification of `layers` (followed by `refresh()`).
    """
    layers: Layers
    active: Callable[[Hashable], bool] = lambda owner: True
    _regs: list[_Continuous] = field(default_factory=list)
    _seq: int = 0
    _refreshing: bool = False
    _again: bool = False

    def register(self, owner: Hashable, ctx, body: Callable, key: str) -> None:
        if any(r.owner is owner and r.key == key for r in self._regs):
            return
        self._seq += 1
        self._regs.append(_Continuous(owner, ctx, body, key, self._seq))
        self.refresh()

    def drop(self, owner: Hashable) -> None:
        gone = [r for r in self._regs if r.owner is owner]
        if not gone:
            return
        self._regs = [r for r in self._regs if r.owner is not owner]
        for r in gone:
            self.layers.replace_source((id(r.owner), r.key), ())

    def end_scope(self, scope: str) -> None:
        """Drop the bodies registered under `during <scope>`: that duration is over."""
        gone = [r for r in self._regs if getattr(r.ctx, "scope", None) == scope]
        if not gone:
            return
        self._regs = [r for r in self._regs if all(r is not g for g in gone)]
        for r in gone:
            self.layers.replace_source((id(r.owner), r.key), ())

    def sources(self) -> list:
        return [r.owner for r in self._regs]

    @staticmethod
    def collecting(ctx) -> list | None:
        return ctx.info.get(COLLECT) if ctx is not None else None

    def refresh(self) -> None:
        """Re-evaluate every continuous body (its targets may have changed) and re-apply it."""
        if self._refreshing:
            self._again = True
            return
        self._refreshing = True
        try:
            for _ in range(20):          # settles in one or two passes; bounded against cycles
                self._again = False
                for r in list(self._regs):
                    if r not in self._regs:
                        continue
                    mods: list = []
                    if self.active(r.owner):
                        ctx = r.ctx.bind(info={**r.ctx.info, COLLECT: mods})
                        try:
                            r.body(ctx)
                        except Fizzle:
                            mods = []
                    elif not r.applied:
                        continue          # inactive, and modifying nothing since it last ran
                    if mods or r.applied:     # else nothing to replace: skip the layers' scan
                        self.layers.replace_source((id(r.owner), r.key), mods)
                    r.applied = bool(mods)
                if not self._again:
                    break
        finally:
            self._refreshing = False
