"""A cheap deep copy of a Crawl Decks game, for the simulated player's trials.

`copy.deepcopy(engine)` (what runtime/lookahead.copy_game calls) ends in `Engine.__deepcopy__`,
which calls `copy_engine`. A generic deep copy walks ~3,500 objects per game (every card,
every layered value, the random generator's 625-word state one int at a time); this one
copies each piece with what it is known to hold and shares what a trial never changes: the
content (definitions, the board, the rules), the code of the generated effects (their
closures are rebuilt around the copied game), and immutable values. Anything it does not know (an attribute another change adds) still goes through
`copy.deepcopy` with the same memo, so the copy stays whole; it is only slower.

Continuous modifiers name their source `(id(owner), key)` (runtime/timing.py); the copy maps
that id to the copied owner's, so a trial's refresh replaces them instead of adding twice.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from types import CellType, FunctionType, MethodType

from tomecraft.runtime.engines.dm_crawl_decks.state import Card, Row, State, Virtual
from tomecraft.runtime.effects import Context
from tomecraft.runtime.layering import Layers, _layered, _Slot
from tomecraft.runtime.lookahead import copy_counter
from tomecraft.runtime.rng import Rng

_ATOMIC = (int, str, float, bool, type(None), frozenset)
_ATOMIC_TYPES = frozenset(_ATOMIC)
_CONTEXT_OBJECTS = ("engine", "you", "self", "it", "target", "event")   # of a Context
_SHARED = ("data", "board", "rules", "log_enabled", "_uid")   # content and plain values


class _Copier:
    """deepcopy's memo (id(original) -> copy) plus fast paths for the game's own pieces."""

    def __init__(self, memo: dict) -> None:
        self.memo = memo
        self.back: dict = {}         # id(copied card) -> the card it copies

    def __call__(self, x):
        got = self.memo.get(id(x))
        if got is not None:
            return got
        kind = type(x)
        if kind in _ATOMIC_TYPES:
            return x
        if kind is Card or kind is Virtual:
            new = kind.__new__(kind)
            new.__dict__.update(x.__dict__)      # plain values and the shared definition
            self.memo[id(x)] = new
            self.back[id(new)] = x
            return new
        if kind is list:
            return [self(i) for i in x]
        if kind is tuple:
            return tuple(self(i) for i in x)
        if kind is FunctionType:
            return self.function(x)
        if kind is MethodType:
            return self.method(x)
        if kind is Row:
            return _row(x, self)
        return copy.deepcopy(x, self.memo)

    def method(self, m):
        """A bound method of a copied object is bound to the copy (e.g. Layers.on_zero)."""
        owner = self.memo.get(id(m.__self__))
        return m if owner is None else getattr(owner, m.__name__)

    def function(self, f):
        """A generated effect's closure holds what it bound once (`queries = ctx.queries`,
        the context): the copy's closure holds the copied game's. A function without a
        closure is shared. (copy.deepcopy shares every function, so a trial's effects would
        act on the real game.)"""
        if not f.__closure__:
            return f
        new = FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                           tuple(self.cell(c) for c in f.__closure__))
        new.__kwdefaults__ = f.__kwdefaults__
        self.memo[id(f)] = new
        return new

    def cell(self, c):
        got = self.memo.get(id(c))
        if got is None:
            try:
                contents = c.cell_contents
            except ValueError:             # a cell not filled yet
                return c
            got = self.memo[id(c)] = CellType(self.ctx(contents) if type(contents) is Context
                                              else self(contents))
        return got

    def obj(self, x, fields: dict | None = None):
        """A shallow copy of `x` (memoised) with `fields` replaced."""
        new = type(x).__new__(type(x))
        self.memo[id(x)] = new
        new.__dict__.update(x.__dict__)
        if fields:
            new.__dict__.update(fields)
        return new

    def ctx(self, ctx):
        """A Context (frozen): the same scope, pointing at the copied game's objects."""
        memo = self.memo
        got = memo.get(id(ctx))
        if got is not None:
            return got
        new = object.__new__(type(ctx))
        memo[id(ctx)] = new
        old, d = ctx.__dict__, new.__dict__
        d.update(old)
        for name in _CONTEXT_OBJECTS:
            value = old[name]
            if value is not None:
                d[name] = memo.get(id(value)) or self(value)
        d["info"] = copy.deepcopy(old["info"], memo) if old["info"] else {}
        return new

    def source(self, source):
        """A continuous modifier's source `(id(owner), key)`, moved to the copied owner."""
        if type(source) is tuple and source and type(source[0]) is int:
            owner = self.memo.get(source[0])
            if owner is not None:
                return (id(owner),) + source[1:]
        return source


def copy_rng(rng: Rng, memo: dict) -> Rng:
    new = Rng.__new__(Rng)
    memo[id(rng)] = new
    new.__dict__.update(rng.__dict__)
    gen = random.Random(0)          # (a seed: no system entropy read), then the state
    gen.setstate(rng._random.getstate())
    new._random = gen
    return new


def _pile(cards: list, cp: _Copier) -> list:
    """A pile of cards, copied as `cp` would (a card's fields are plain values and the shared
    definition: a shallow copy is a deep one), without a call per card."""
    out = []
    memo, back = cp.memo, cp.back
    for c in cards:
        new = memo.get(id(c))
        if new is None:
            if type(c) is not Card:
                new = cp(c)
            else:
                new = Card.__new__(Card)
                new.__dict__.update(c.__dict__)
                memo[id(c)] = new
                back[id(new)] = c
        out.append(new)
    return out


def _row(row: Row, cp: _Copier) -> Row:
    """A battlefield row, its two sides copied as piles (a Virtual through `cp`)."""
    new = Row(_pile(row.enemy, cp), _pile(row.player, cp))
    cp.memo[id(row)] = new
    return new


PILES = frozenset(("main_deck", "graveyard", "discard", "event_deck", "event_discard",
                   "relic_deck", "hand", "loot", "equipment", "spare", "cleanup", "revealed",
                   "columns"))


class Piles(dict):
    """A disposable copy's piles (and columns) that the trial has not read yet: name -> the
    game's pile, left as it is. State.__getattr__ copies one when the trial first reads it
    (`take`); until then the trial has moved no card out of it (that reads it) and only put
    cards on top of it (`put`, kept in `added`), so State.size, named and exploration_seen
    read the game's pile and what was put on it."""

    __slots__ = ("cp", "added")

    def take(self, name: str) -> list:
        pile = self.pop(name)
        if name == "columns":
            return [_pile(col, self.cp) for col in pile]
        pile = _pile(pile, self.cp)
        added = self.added.pop(name, None)
        if added:
            pile += added                # (the trial's own cards: not copied again)
        return pile

    def put(self, name: str, card) -> None:
        self.added.setdefault(name, []).append(card)

    def size(self, name: str) -> int:
        return len(self[name]) + len(self.added.get(name, ()))

    def named(self, name: str, card_name: str):
        """State.named: the trial's copy of the card named `card_name` in the pile `name`
        (when the trial reads the pile, it holds this copy), or a card the trial put on it."""
        for c in self[name]:
            if repr(c) == card_name:
                return self.cp(c)
        for c in self.added.get(name, ()):
            if repr(c) == card_name:
                return c
        raise StopIteration         # (as next() over the pile)

    def cards(self, name: str) -> list:
        """The cards of the columns `name`, each as the trial has it: its copy if the trial
        made one (through another way to it: a row, an effect's context), else the game's
        card, unchanged (TrialLayers reads its values from the game's layers)."""
        memo = self.cp.memo
        return [memo.get(id(c), c) for col in self[name] for c in col]


def copy_state(state: State, cp: _Copier, disposable: bool = False) -> State:
    """A copy of the state; `disposable` (see copy_engine): the piles and columns are copied
    when the trial first reads them (State.__getattr__)."""
    new = State.__new__(State)
    cp.memo[id(state)] = new
    d = new.__dict__
    lazy = Piles()
    lazy.cp, lazy.added = cp, {}
    for name, value in state.__dict__.items():
        kind = type(value)
        if kind in _ATOMIC_TYPES:     # HP, counters, flags, the reason (checked first: most fields)
            pass
        elif kind is list:           # piles of cards, columns (lists of cards), rows
            if disposable and name in PILES:
                lazy[name] = value
                continue
            if not value:
                value = []
            elif name == "log":
                value = list(value)
            elif type(value[0]) is Card:
                value = _pile(value, cp)
            elif name == "columns":
                value = [_pile(col, cp) for col in value]
            else:
                value = [cp(c) for c in value]
        elif name == "tokens":
            value = _fresh_tokens(value)
        elif kind is Counter:
            value = copy_counter(value)
        elif kind is set:
            value = set(value)
        elif not isinstance(value, _ATOMIC):
            value = copy.deepcopy(value, cp.memo)
        d[name] = value
    if lazy:
        d["_lazy"] = lazy
    return new


def _fresh_tokens(tokens: dict) -> dict:
    """{attribute: Tokens}, each a shallow copy (its fields are plain values)."""
    out = {}
    make = object.__new__
    for a, t in tokens.items():
        new = out[a] = make(type(t))
        new.__dict__.update(t.__dict__)
    return out


def _copy_layers(layers, cp: _Copier):
    slots = {}
    modded = set()
    memo = cp.memo
    for (obj, attr), slot in layers._slots.items():
        new_slot = object.__new__(type(slot))     # a slot is held by its layers only
        d = new_slot.__dict__
        d.update(slot.__dict__)
        d["one_shot"] = [_copy_modifier(m, cp) for m in slot.one_shot] if slot.one_shot else []
        d["continuous"] = [_copy_modifier(m, cp) for m in slot.continuous] if slot.continuous else []
        key = (memo.get(id(obj)) or cp(obj), attr)
        slots[key] = new_slot
        if slot.one_shot or slot.continuous:
            modded.add(key)
    return cp.obj(layers, {"_slots": slots, "on_zero": cp(layers.on_zero), "_modded": modded,
                           "_made": {key: i for i, key in enumerate(slots)}, "_makes": len(slots)})


class TrialLayers(Layers):
    """A disposable copy's layered values (`copy_engine(..., disposable=True)`): it holds
    the slots that carry a modification (copied) and reads every other one (a printed value:
    most cards are in a pile) from the game copied, through the copied card's original;
    such a slot is copied before the trial first changes it."""

    def _slot(self, obj, attr: str):
        slot = self._slots.get((obj, attr))
        if slot is None:        # a copied card's original, or a card not copied (Piles.cards)
            slot = self._orig._slots.get((self._back.get(id(obj), obj), attr))
            if slot is None:
                return super()._slot(obj, attr)          # its KeyError
        return slot

    def value(self, obj, attr: str) -> int:
        """Layers.value, through this copy's _slot (its own slot, else the game's)."""
        slot = self._slot(obj, attr)
        if not slot.one_shot and not slot.continuous:
            return slot.base
        return _layered(slot)

    def has(self, obj, attr: str) -> bool:
        return (obj, attr) in self._slots or \
            (self._back.get(id(obj), obj), attr) in self._orig._slots

    def _own(self, key) -> None:
        if key not in self._slots:
            self._slots[key] = _Slot(self._slot(*key).base)

    def set_base(self, obj, attr: str, value: int) -> None:
        self._slots[(obj, attr)] = _Slot(value)

    def modified(self) -> list:
        """Layers.modified, read from the copy's own slots (the few copied and owned ones: it
        keeps no order of their making)."""
        return [(key, slot) for key, slot in self._slots.items() if slot.one_shot or slot.continuous]

    def modify(self, obj, attr: str, op: str, amount: int, **kw) -> int:
        self._own((obj, attr))
        return super().modify(obj, attr, op, amount, **kw)

    def replace_source(self, source, mods) -> None:
        mods = [tuple(m) for m in mods]
        for m in mods:
            self._own((m[0], m[1]))
        super().replace_source(source, mods)


# The piles a disposable copy copied at once before they were copied when first read (Piles)
WERE_COPIED_FIRST = ("hand", "loot", "equipment", "spare", "cleanup", "revealed", "columns")


def _copy_owners(modified: list, state: State, cp: _Copier) -> None:
    """Copy the cards that own the modifiers in `modified` and lie in WERE_COPIED_FIRST,
    if not copied yet: a modifier's source moves to its owner's copy only if the owner is
    copied before its modifiers are (`_Copier.source`), as these were when their piles were
    copied at once (else a trial's refresh would add the same modifier twice)."""
    memo = cp.memo
    missing = {m.source[0] for _, slot in modified for mods in (slot.one_shot, slot.continuous)
               for m in mods if type(m.source) is tuple and m.source
               and type(m.source[0]) is int and m.source[0] not in memo}
    if not missing:
        return
    held = state.__dict__
    for name in WERE_COPIED_FIRST:
        pile = held.get(name) or ()
        for c in ([c for col in pile for c in col] if name == "columns" else pile):
            if id(c) in missing:
                cp(c)


def _share_layers(layers, cp: _Copier, state: State) -> TrialLayers:
    """`_copy_layers` for a disposable copy: only the slots that carry a modification (in the
    order of the game's slots). Its `_modded` starts as those (then as Layers keeps it), its
    `modified` reads its own slots, and its `_made` is never read. `state`: the game's, whose
    modifiers' owners are copied first (_copy_owners)."""
    slots = {}
    memo = cp.memo
    modified = layers.modified()
    _copy_owners(modified, state, cp)
    for (obj, attr), slot in modified:
        new_slot = object.__new__(type(slot))
        d = new_slot.__dict__
        d.update(slot.__dict__)
        d["one_shot"] = [_copy_modifier(m, cp) for m in slot.one_shot]
        d["continuous"] = [_copy_modifier(m, cp) for m in slot.continuous]
        slots[(memo.get(id(obj)) or cp(obj), attr)] = new_slot
    new = TrialLayers.__new__(TrialLayers)
    memo[id(layers)] = new
    new.__dict__.update(layers.__dict__)
    new.__dict__.update(_slots=slots, _orig=layers, _back=cp.back, on_zero=cp(layers.on_zero),
                        _modded=set(slots), _made={})
    return new


def _copy_modifier(mod, cp: _Copier):
    source = cp.source(mod.source)
    return mod if source is mod.source else type(mod)(mod.op, mod.amount, source, mod.key)


def _copy_bus(bus, cp: _Copier):
    def sub(s):
        return cp.memo.get(id(s)) or cp.obj(s, {"owner": cp(s.owner), "ctx": cp.ctx(s.ctx),
                                                "body": cp(s.body), "where": cp(s.where)})
    subs = {event: [sub(s) for s in lst] for event, lst in bus._subs.items()}
    by_id = {(cp(owner), event, key): sub(s) for (owner, event, key), s in bus._by_id.items()}
    return cp.obj(bus, {"_subs": subs, "_by_id": by_id, "fired": [(e, cp(o)) for e, o in bus.fired]})


def _copy_continuous(fx, layers, cp: _Copier):
    regs = [cp.obj(r, {"owner": cp(r.owner), "ctx": cp.ctx(r.ctx), "body": cp(r.body)})
            for r in fx._regs]
    return cp.obj(fx, {"layers": layers, "_regs": regs, "active": cp(fx.active)})


def _copy_once(tracker, cp: _Copier):
    used = {scope: {(cp(owner), key) for owner, key in idents} for scope, idents in tracker._used.items()}
    return cp.obj(tracker, {"_used": used})


class Pending:
    """A piece of the game that a disposable copy has not copied yet: calling it copies it
    (Engine.__getattr__). Until then the trial reads the game copied's (`original`, left as it
    is) to see that an operation would change nothing and need no copy (Engine.settle, fire)."""

    __slots__ = ("original", "cp", "make")

    def __init__(self, original, cp: _Copier, make) -> None:
        self.original, self.cp, self.make = original, cp, make

    def __call__(self):
        return self.make()

    def now(self, x):
        """What the original object `x` (a card) is in the trial: its copy, or `x` itself
        while the trial has not copied it (then it has not changed it either)."""
        return self.cp.memo.get(id(x), x)

    def original_of(self, card):
        """The game's object `x` for which `now(x) is card`: what the trial's card copies, or
        the card itself when the trial did not copy it (a sentinel, matching nothing, for a
        game's card that the trial copied: its copy stands for it)."""
        got = self.cp.back.get(id(card))
        if got is not None:
            return got
        return _NOTHING if id(card) in self.cp.memo else card


_NOTHING = object()


LAZY = frozenset(("rng", "bus", "continuous_fx", "once_tracker", "_watchers"))


def copy_engine(engine, memo: dict, disposable: bool = False):
    """A deep copy of `engine` (see the module's docstring); `memo` as copy.deepcopy's.

    `disposable`: a copy for one trial, played and dropped before the game copied changes
    again (policy._trial). It shares the slots of layered values that hold no modification
    (TrialLayers copies one before changing it), and copies the piles and columns (Piles,
    State.__getattr__) and the triggers, continuous effects, once-trackers, watches and
    random stream (Engine.__getattr__) only if the trial reads them: gaining loot, healing
    or drawing reads none of the latter, a relic use few piles."""
    cp = _Copier(memo)
    new = type(engine).__new__(type(engine))
    memo[id(engine)] = new
    old = engine.__dict__
    d = new.__dict__
    for name in _SHARED:
        if name in old:
            d[name] = old[name]
    d["state"] = copy_state(engine.state, cp, disposable)
    d["verbs"] = cp.obj(engine.verbs, {"engine": new})
    d["queries"] = cp.obj(engine.queries, {"engine": new})
    lazy = {
        "rng": lambda: copy_rng(engine.rng, memo),
        "continuous_fx": Pending(engine.continuous_fx, cp,
                                 lambda: _copy_continuous(engine.continuous_fx, d["layers"], cp)),
        "bus": Pending(engine.bus, cp, lambda: _copy_bus(engine.bus, cp)),
        "once_tracker": lambda: _copy_once(engine.once_tracker, cp),
        "_watchers": Pending(engine._watchers, cp, lambda: [(cp.ctx(c), cp(cond), cp(body))
                                                            for c, cond, body in engine._watchers]),
    }
    if disposable:
        d["layers"] = _share_layers(engine.layers, cp, engine.state)
        d["_lazy"] = lazy
    else:
        d["layers"] = _copy_layers(engine.layers, cp)
        for name in LAZY:
            d[name] = lazy[name]()
    for name in ("battle_windows", "turn_windows"):
        d[name] = cp.obj(old[name], {"trail": list(old[name].trail)})
    d["current_row"] = cp(engine.current_row)
    d["loot_done"] = copy_counter(engine.loot_done)
    for value in getattr(engine.agent, "__dict__", {}).values():
        if isinstance(value, Rng):           # an agent's random stream: copied fast, once
            copy_rng(value, memo)
    for name, value in old.items():          # whatever else (the agent, the player's plan)
        if name not in d and name not in LAZY:
            d[name] = value if type(value) in _ATOMIC_TYPES else copy.deepcopy(value, memo)
    return new
