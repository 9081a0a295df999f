"""The API generated effect functions call.

A generated effect is `def fx(ctx) -> bool`: it returns True when it resolved and False when
it fizzled (a `require` failed or a cost could not be paid). Verbs and queries are methods of
the engine's `verbs` / `queries` objects, named after the vocabulary's handlers; a cost verb
`pay` also has `can_pay`. Everything else (choices, triggers, durations, layering) goes
through the Context, which delegates to the engine.
"""
from __future__ import annotations

import inspect
import itertools
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable

from tomecraft.runtime.usage import lasting


class EffectError(RuntimeError):
    """An engine refused an effect (a bug in content or engine, not a fizzle)."""


def check_handlers(data, verbs, queries) -> None:
    """Fail fast when the engine lacks a verb or query handler its game.yaml names.

    `data.handlers` lists verb handlers, `can_<verb>` checks of cost verbs and
    `query:<name>` handlers; verbs and queries are the engine's handler objects."""
    present = {n for n in dir(verbs) if not n.startswith("_")}
    present |= {"query:" + n for n in dir(queries) if not n.startswith("_")}
    missing = [h for h in data.handlers if h not in present]
    if missing:
        raise EffectError(f"the {data.engine} engine lacks handlers named in game.yaml: "
                          + ", ".join(missing))


class RunawayEffect(EffectError):
    """Effects went past the game's step budget, or set each other off without end: `origin`
    is the effect running then, as "file:line" of its YAML ("?" until a note names it)."""

    def __init__(self, message: str, origin: str = "?") -> None:
        super().__init__(message)
        self.origin = origin


# --- bounded evaluation ------------------------------------------------------------------
# A step is one call of a generated function that can set off more evaluation (a nested body
# such as a trigger's, a keyword, an effect calling an engine verb that may fire events or
# run effects) or one round of a `repeat` or `each`. The checker bounds what it can see
# statically (repeat counts, arithmetic, recursive keywords, sizes: compiler/checks.py); this
# budget stops what it cannot, such as triggers that set each other off, with a diagnostic
# naming the effect's file and line. Such functions call `step(ctx)` first thing, with no
# wrapper around it; straight-line effects over pure verbs and queries (game.yaml
# `pure: true`) do bounded work and count none (compiler/codegen.py, EffectCompiler.bounded).
MAX_GAME_STEPS = 1_000_000      # the busiest game of the shipped content takes under 6,000


class _Budget:
    __slots__ = ("steps", "engine", "game", "runaway")

    def __init__(self) -> None:
        self.steps = 0
        self.engine = None  # the engine whose effect stepped last
        self.game = None    # the number of the game whose effects the steps count
        self.runaway = None  # the first RunawayEffect of this game, even if a trial caught it


BUDGET = _Budget()
# An engine's game number, in its __dict__: a lookahead's trial copy carries it (every copy,
# runtime/lookahead.py's and the engines' own, keeps a plain int as it is), so a trial's
# effects count on the budget of the game it was copied from.
GAME_NUMBER = "budget_game"
_games = itertools.count(1)


def new_game(engine=None) -> None:
    """Reset the budget. Runners call this before each game or scenario; an effect run by
    another engine than the last one resets it too, unless that engine is a trial copy of the
    same game (a new game played directly)."""
    BUDGET.steps = 0
    BUDGET.engine = engine
    BUDGET.game = None
    BUDGET.runaway = None
    attrs = getattr(engine, "__dict__", None)
    if attrs is not None:
        BUDGET.game = attrs[GAME_NUMBER] = next(_games)


def _switch(engine) -> None:
    """Effects of another engine than the last. A trial copy of the game counts on its budget:
    before, every trial started a fresh one, so a 100,000-round `repeat` tried by every
    simulated player on every option never reached the game's limit and `sim` ran for
    hours."""
    attrs = getattr(engine, "__dict__", None)
    game = attrs.get(GAME_NUMBER) if attrs is not None else None
    if game is not None and game == BUDGET.game:
        BUDGET.engine = engine
    else:
        new_game(engine)


def step(ctx=None) -> None:
    budget = BUDGET
    engine = getattr(ctx, "engine", None)
    if engine is not budget.engine and engine is not None:
        _switch(engine)
    budget.steps += 1
    if budget.steps > MAX_GAME_STEPS:
        err = RunawayEffect(f"the game's effects ran past their budget of {MAX_GAME_STEPS:,} "
                            "steps")
        if budget.runaway is None:
            budget.runaway = err    # the notes naming its effects are added as it leaves them
        raise err


def runaway() -> RunawayEffect | None:
    """The game's first run past its budget, if any. The engines' trials (what would this
    option do?) catch EffectError as "the option fails": a runaway there made every option
    fail, each game stood still to its round cap and `sim` said so with exit 0. A runner asks
    this after each game and raises it, located."""
    return BUDGET.runaway


def loop(count):
    """The rounds of a `repeat`, one step each (a negative count repeats nothing)."""
    for i in range(max(0, count)):
        step()
        yield i


def fizzled(what: str, fx: Callable) -> EffectError:
    """The error for an option the engine offered (its effect's leading requires and costs
    held) whose effect then fizzled, a `pay` or `require` later in it failing: noted with the
    effect's YAML origin (its module's SOURCES), so `sim` reports it at the effect's line."""
    err = EffectError(f"{what}: the effect fizzled after its leading requires and costs held "
                      "(a later `pay` or `require` failed: costs go before `->`)")
    fx = inspect.unwrap(fx)
    origin = getattr(fx, "__globals__", {}).get("SOURCES", {}).get(getattr(fx, "__name__", ""))
    if origin:
        err.add_note(f"in effect from {origin}")
    return err


def error_origin(err: BaseException) -> str | None:
    """The innermost effect an exception passed through, as "file:line", if any."""
    if isinstance(err, RunawayEffect) and err.origin != "?":
        return err.origin
    origins = error_origins(err)
    return origins[0] if origins else None


def error_origins(err: BaseException) -> list[str]:
    """Every effect an exception passed through, innermost first, as "file:line"."""
    return [note[len("in effect from "):] for note in getattr(err, "__notes__", ())
            if note.startswith("in effect from ")]


def raised(err: BaseException, origin: str) -> None:
    """Note an effect's YAML origin on an exception leaving it (generated code calls this
    only when something raised). One note per level, innermost first: a keyword's line,
    then the entity's. Endless recursion and a division by zero are content errors: they
    leave as a located EffectError instead."""
    if isinstance(err, RecursionError):
        raise RunawayEffect("effects set each other off without end (a trigger that causes "
                            "its own event?)", origin) from None
    if isinstance(err, ZeroDivisionError):   # `x // y` with y == 0 at run time
        located = EffectError("division by zero")
        located.add_note(f"in effect from {origin}")
        raise located from None
    note = f"in effect from {origin}"
    if note not in getattr(err, "__notes__", []):
        err.add_note(note)


@dataclass(frozen=True)
class Context:
    """Who is acting and on what. Immutable: `bind` returns a new one for nested scopes."""
    engine: Any
    you: Any = None
    self: Any = None
    it: Any = None
    target: Any = None
    event: Any = None
    scope: str | None = None          # the duration of effects registered from here
    info: dict = field(default_factory=dict, compare=False)

    @property
    def verbs(self):
        return self.engine.verbs

    @property
    def queries(self):
        return self.engine.queries

    def bind(self, **changes) -> "Context":
        """A copy with `changes` (what dataclasses.replace gives, at a tenth of its cost: this
        runs for every card a selector looks at and every trigger fired)."""
        if not changes.keys() <= _CONTEXT_FIELDS:
            return replace(self, **changes)          # its TypeError names the unknown field
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new

    # --- reading ----------------------------------------------------------------------
    def attr(self, obj, name: str):
        return self.engine.attr(self, obj, name)

    def select(self, kind: str, zone: str | None, where: Callable | None) -> list:
        items = self.engine.select(self, kind, zone)
        if where is None:
            return list(items)
        out = []
        mine, make, cls = self.__dict__, object.__new__, type(self)
        for x in items:              # where(self.bind(it=x)), the context built inline
            bound = make(cls)        # (a where-clause runs for every item of every select)
            bound.__dict__.update(mine, it=x)
            if where(bound):
                out.append(x)
        return out

    def count(self, kind: str, zone: str | None, where: Callable | None) -> int:
        return len(self.select(kind, zone, where))

    def any(self, kind: str, zone: str | None, where: Callable | None) -> bool:
        return bool(self.select(kind, zone, where))

    # --- deciding ---------------------------------------------------------------------
    def choose(self, key: str, available: tuple[bool, ...]) -> int | None:
        options = [i for i, ok in enumerate(available) if ok]
        if not options:
            return None
        return self.engine.decide(self, key, options)

    def may(self, key: str, possible: bool = True) -> bool:
        if not possible:
            return False
        return bool(self.engine.decide(self, key, [True, False]))

    def pick_target(self, key: str, kind: str, zone: str | None, where: Callable | None):
        options = self.select(kind, zone, where)
        if not options:
            return None
        return self.engine.decide(self, key, options)

    def each(self, kind: str, zone: str | None, where: Callable | None, body: Callable) -> None:
        mine, make, cls = self.__dict__, object.__new__, type(self)
        for item in self.select(kind, zone, where):
            step()
            bound = make(cls)        # self.bind(it=item), built inline as in select
            bound.__dict__.update(mine, it=item)
            if kind in ("player", "opponent", "other_player"):
                bound = bound.bind(you=item)
            body(bound)

    # --- time -------------------------------------------------------------------------
    def on(self, event: str, where: Callable | None, body: Callable, key: str) -> None:
        self.engine.subscribe(self, event, where, lasting(body), key)

    def when(self, cond: Callable, body: Callable, key: str) -> None:
        body = lasting(body)
        # an engine may hold a watch whose owner cannot act yet (Crawl Decks: a card made in
        # the deck works only on the field, L274): then it waits, even when already true
        watching = getattr(self.engine, "watching", None)
        if (watching is None or watching(self)) and cond(self):
            body(self)
        else:
            self.engine.watch(self, cond, body, key)

    def during(self, scope: str, body: Callable) -> None:
        body(self.bind(scope=scope))

    def once(self, scope: str, key: str) -> bool:
        return self.engine.once(self, scope, key)

    def once_open(self, scope: str, key: str) -> bool:
        """Whether `once per scope` (key) would still run, without spending it: an engine
        that cannot tell (no `once_open`) says yes."""
        open_ = getattr(self.engine, "once_open", None)
        return True if open_ is None else open_(self, scope, key)

    def continuous(self, body: Callable, key: str) -> None:
        self.engine.continuous(self, lasting(body), key)

    def modify(self, obj, name: str, op: str, value, key: str) -> None:
        self.engine.modify(self, obj, name, op, value, key)


_CONTEXT_FIELDS = frozenset(f.name for f in fields(Context))
