"""How often each entity of a game's content is used in play, and by which seat.

`track(data)` wraps every effect of every definition (a card's `play`, a tile kind's `enter`
options, a token's `use`...) with a counter, for as long as the `with` block lasts; the
engines need no change, since they call the effects they read from the definitions. A run of
an effect is one use: played, triggered, bought, entered, used — whatever the field means.
The seat is the effect's `you` (its player, team, dwarf or scholar) when it has a seat.

The wrappers exist only while tracking: a plain `sim` pays nothing for them. Entities whose
kind holds no effect (a tile's layout, a rule value) cannot be counted this way: they are
listed as `untracked` rather than reported as never used.
"""
from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from types import MappingProxyType
from typing import Callable, Iterator

from tomecraft.runtime.definitions import Record


class Usage:
    """Counts per entity ("kind:id") and per seat for the game being played."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.tracked: set[str] = set()       # entities with at least one effect

    def take(self) -> dict[str, list]:
        """This game's counts as {entity: {seat: n}} (seat -1: no seat), then reset them."""
        taken = {key: dict(sorted(seats.items())) for key, seats in sorted(self.counts.items())}
        self.counts.clear()
        return taken


@contextmanager
def track(data) -> Iterator[Usage]:
    usage = Usage()
    undo: list[Callable[[], None]] = []
    native = _native_records(data)
    try:
        for kind, table in sorted(data.kinds.items()):
            for entity_id, definition in sorted(table.items()):
                key = f"{kind}:{entity_id}"
                if _wrap_fields(definition, key, usage, undo, native):
                    usage.tracked.add(key)
        yield usage
    finally:
        for restore in reversed(undo):
            restore()


_QUIET = [0]     # > 0 while a simulated player tries options out (see `quiet`)


class quiet:
    """`with quiet():` effects run inside this block are not counted: a simulated player's
    lookahead tries options on a copy of the game, and those trials are not uses. (A class,
    not a contextmanager generator: a player enters one for every decision it weighs.)"""
    __slots__ = ()

    def __enter__(self) -> None:
        _QUIET[0] += 1

    def __exit__(self, *exc) -> None:
        _QUIET[0] -= 1


_REGISTERING = [0]   # > 0 while an engine registers effects (see `registering`)
_RUNNING: list[tuple[str, Usage]] = []   # the counted effects running now, innermost last


class registering:
    """`with registering():` effects run inside this block only register their triggers,
    watches and continuous effects (Crawl Decks registers every copy of a card when it is
    made, drawn or not): that run is not a use; the registered bodies count when they run."""
    __slots__ = ()

    def __enter__(self) -> None:
        _REGISTERING[0] += 1

    def __exit__(self, *exc) -> None:
        _REGISTERING[0] -= 1


def lasting(body: Callable) -> Callable:
    """The body of a trigger, watch or continuous effect an effect registers: while counting,
    each of its runs is a use of the entity whose effect registered it (a triggered use)."""
    if not _RUNNING:
        return body
    key, usage = _RUNNING[-1]
    return _counted(body, key, usage)


def _counted(fx: Callable, key: str, usage: Usage) -> Callable:
    def run(ctx, *args, **kwargs):
        if _QUIET[0]:
            return fx(ctx, *args, **kwargs)
        if not _REGISTERING[0]:
            seat = getattr(getattr(ctx, "you", None), "seat", -1)
            usage.counts[key][seat if isinstance(seat, int) else -1] += 1
        _RUNNING.append((key, usage))
        try:
            return fx(ctx, *args, **kwargs)
        finally:
            _RUNNING.pop()
    for name, value in vars(fx).items():     # keep `can` and the source-mapping attributes
        setattr(run, name, value)
    run.__wrapped__ = fx
    return run


def _is_effect(value) -> bool:
    return callable(value) and hasattr(value, "can")


def _field_names(obj) -> list[str]:
    if isinstance(obj, Record):
        return list(obj._fields)
    return [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())]


def _native_records(data) -> frozenset:
    """Ids of the nested records (a DRG class ability) whose effect the engine never runs: it
    carries them out as its own actions (the contract's NATIVE_RECORDS). Wrapped, they would
    report their entity "never used" however often it was played."""
    import importlib
    try:
        contract = importlib.import_module(f"tomecraft.runtime.engines.{data.engine}.contract")
    except ImportError:
        return frozenset()
    return frozenset(getattr(contract, "NATIVE_RECORDS", ()))


def _wrap_fields(obj, key: str, usage: Usage, undo: list, native: frozenset = frozenset()) -> bool:
    """Wrap every effect reachable from a definition (fields, records, lists of records), but
    not inside the `native` records."""
    found = False
    for name in _field_names(obj):
        value = obj._fields.get(name) if isinstance(obj, Record) else getattr(obj, name, None)
        if isinstance(value, Record) and value.get("id") in native:
            continue
        if _is_effect(value):
            _set(obj, name, _counted(value, key, usage), undo)
            found = True
        elif isinstance(value, Record):
            found = _wrap_fields(value, key, usage, undo, native) or found
        elif isinstance(value, (tuple, list)):
            if any(_is_effect(item) for item in value):     # a list of effects (a region's)
                _set(obj, name, type(value)(_counted(item, key, usage) if _is_effect(item) else item
                                            for item in value), undo)
                found = True
            for item in value:
                if isinstance(item, Record) and item.get("id") not in native:
                    found = _wrap_fields(item, key, usage, undo, native) or found
    return found


def _set(obj, name: str, value, undo: list) -> None:
    if isinstance(obj, Record):
        before = obj._fields
        object.__setattr__(obj, "_fields", MappingProxyType({**before, name: value}))
        undo.append(lambda: object.__setattr__(obj, "_fields", before))
    else:
        before = getattr(obj, name)
        object.__setattr__(obj, name, value)
        undo.append(lambda: object.__setattr__(obj, name, before))
