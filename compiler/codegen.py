"""Generate an importable Python package per game from the checked model.

Effects compile to plain Python functions that call the runtime (runtime/effects.py) and
the engine's verb and query handlers; entities become frozen dataclass instances. Content
text only ever enters the output through repr(); identifiers are built from validated
lower_snake_case names, so no content can become code. Output is deterministic: everything
is emitted in sorted order and nothing depends on time, hashing or the environment.
"""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from tomecraft.compiler import fingerprint, inline, names
from tomecraft.dsl import nodes as n

if TYPE_CHECKING:
    from tomecraft.compiler.model import Entity, Game



@lru_cache(maxsize=None)
def _templates():
    import jinja2  # imported on first use: a no-op build never renders a template
    from tomecraft.dsl.parser import user_cache_folder  # imports Lark: only when needed
    # Compiled templates are kept in the user's cache, checked against the template source
    # (Jinja's bytecode cache): 5 ms to load instead of 40-80 ms to compile in each build.
    folder = user_cache_folder()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).with_name("templates"))),
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined, autoescape=False,
        bytecode_cache=jinja2.FileSystemBytecodeCache(os.path.join(folder, "jinja"))
        if folder and _makedirs(os.path.join(folder, "jinja")) else None)
    env.filters["doc"] = _doc
    return env


def prepare() -> None:
    """Load the templates now (a build does, before forking its workers, which then share them)."""
    _templates()


def ident(name: str) -> str:
    """A Python identifier from a validated content name; refuses anything else."""
    if not names.is_identifier(name):  # checks refused it already: this is a bug guard
        raise ValueError(f"not a safe identifier: {name!r}")
    return name


def class_name(kind: str) -> str:
    return "".join(part.capitalize() for part in ident(kind).split("_"))


def _comment(text: str) -> str:
    """A single-line comment that cannot end early or smuggle a newline."""
    return " ".join(str(text).split())[:200]


def _doc(text: str) -> str:
    """Text inside a generated docstring: one line, no quote or backslash to close it early."""
    return _comment(text).replace("\\", "/").replace('"', "'")



# --- effects -------------------------------------------------------------------------------

@dataclass
class _Func:
    lines: list[str] = field(default_factory=list)
    depth: int = 1
    counter: int = 0
    amounts: int = 0

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def amount(self) -> str:
        """A local holding a call's argument: counted apart from `fresh`, whose names are
        the keys of once-per, choices and triggers, kept the same whatever is guarded."""
        self.amounts += 1
        return f"_n{self.amounts}"


def _base_scope(params: tuple[str, ...]) -> dict[str, str]:
    """How an effect's built-in locals and keyword parameters read in generated code."""
    scope = {"you": "ctx.you", "self": "ctx.self", "it": "ctx.it", "target": "ctx.target",
             "event": "ctx.event"}
    scope.update({p: f"p_{ident(p)}" for p in params})
    return scope


class EffectCompiler:
    """Compiles one effect AST into a `def name(ctx)` and its `can_name(ctx)` companion."""

    def __init__(self, game: Game) -> None:
        self.vocab = game.vocab
        self.keyword_asts = {name: site.ast for name, site in game.keyword_sites.items()}
        self._calling: set[str] = set()     # keywords whose boundedness is being decided
        self.least_of: dict[str, int | None] = {}   # a local's least value in play (`least`)

    def compile(self, name: str, block: n.Block, params: tuple[str, ...] = (),
                text: str = "") -> str:
        """The effect, its `can_` companion and `name.can = can_name`.

        No wrapper around the call: the body runs inside a `try` (free in Python 3.11 until
        something raises) whose handler looks the function's YAML origin up in the module's
        SOURCES table and adds it to the exception as a note. The engine's verb and query
        handler objects are read once per call, not once per statement. The run-time step
        budget is counted only by functions that can set off more evaluation (see `bounded`).
        """
        fn = _Func(depth=2)
        self.current = name   # the SOURCES key nested bodies report under
        self.once_keys: dict[int, str] = {}     # a Once node's key in the body, for `can`
        self.least_of = self.parameter_leasts(name)
        scope = _base_scope(params)
        signature = ", ".join(["ctx", *(f"p_{ident(p)}" for p in params)])
        self.block(block, fn, scope, name)
        fn.emit("return True")
        reads, fn.lines = _hoisted(fn.lines, 2)
        head = [f"def {name}({signature}):", f"    # {_comment(text)}", "    try:",
                *([] if self.bounded_body(block, name.startswith("kw_")) else
                  ["        step(ctx)"]),   # the run-time budget (runtime/effects.py)
                *_bindings(fn.lines, 2), *reads]
        tail = ["    except Exception as err:",
                f"        raised(err, SOURCES[{name!r}])",
                "        raise"]
        can = self.can(name, block, signature, params)
        # Engines ask `effect.can(ctx)` before offering an effect as a legal choice.
        return "\n".join(head + fn.lines + tail) + "\n\n\n" + can + f"\n\n\n{name}.can = can_{name}"

    # the availability check: leading lets, requires and costs, with no side effects
    def can(self, name: str, block: n.Block, signature: str, params: tuple[str, ...]) -> str:
        fn = _Func()
        self.can_lines(block, fn, _base_scope(params))
        reads, lines = _hoisted(fn.lines, 1)
        return "\n".join([f"def can_{name}({signature}):", *_bindings(lines, 1), *reads] + lines)

    def can_lines(self, block: n.Block, fn: _Func, scope: dict, paid: bool = False) -> None:
        """Emit the checks of a block's leading lets, requires and costs, ending in a return.
        After a cost (`paid`), its effect's leading requires and target are checked too (no
        let: it may roll dice): `pay actions 1 -> target monster where adjacent(): push 2`
        with no monster adjacent cannot happen, and paying for it would spend the action on
        nothing (found by the fourth packs blind test: a pack's Deep Rock Galactic ability
        was offered, paid, then refused, and the game stopped)."""
        scope = dict(scope)
        for stmt in block.stmts:
            if isinstance(stmt, n.Let) and not paid:
                self.let(stmt, fn, scope)
            elif isinstance(stmt, n.Require):
                self.require(stmt, fn, scope)
            elif isinstance(stmt, n.Cost) and not paid:
                fn.emit(f"if not ({self.cost_check(stmt, scope)}):")
                fn.emit("    return False")
                self.can_lines(stmt.effect, fn, scope, paid=True)
                return
            elif isinstance(stmt, n.Once) and id(stmt) in self.once_keys:
                # a limit already spent: offering the effect would offer nothing (a Crawl
                # relic's `once per turn: gain gold 1` was offered and used again, for nothing)
                fn.emit(f"if not ctx.once_open({stmt.scope!r}, {self.once_keys[id(stmt)]!r}):")
                fn.emit("    return False")
                self.can_lines(stmt.body, fn, scope, paid)
                return
            elif paid and not isinstance(stmt, n.Target):
                break
            elif isinstance(stmt, n.Call) and stmt.verb in self.vocab.keywords:
                args = self.call_args(stmt, scope)
                fn.emit(f"return can_kw_{ident(stmt.verb)}({', '.join(['ctx', *args])})")
                return
            elif isinstance(stmt, n.Call) and self.vocab.verbs[stmt.verb].cost:
                fn.emit(f"return {self.cost_check(n.Cost((stmt,), n.Block(())), scope)}")
                return
            elif isinstance(stmt, n.Target):  # nothing to target: the effect cannot happen
                sel = stmt.selector
                fn.emit(f"return ctx.any({sel.kind!r}, {self.zone(sel, scope)}, "
                        f"{self.lam(sel.where, scope)})")
                return
            else:
                break
        fn.emit("return True")

    # --- the step budget --------------------------------------------------------------------
    def bounded(self, block: n.Block) -> bool:
        """Whether a block is straight-line code that can set off nothing else: lets,
        requires, ifs and costs over pure verbs and queries (game.yaml `pure: true`), inlined
        stats, literals and locals. Its work is bounded by its size, which the loader limits,
        so it counts no step; anything that can run more effects (an impure verb, which may
        fire events, a trigger, a loop, a selector, a keyword that does any of these) still
        counts one per call. A bounded keyword that calls no keyword is bounded to call (the
        checker refuses recursive keywords); one calling keywords counts, as their calls
        multiply."""
        for s in block.stmts:
            if isinstance(s, n.Let):
                ok = self.pure_expr(s.value)
            elif isinstance(s, n.Require):
                ok = self.pure_expr(s.cond)
            elif isinstance(s, n.Call):
                ok = self.pure_call(s)
            elif isinstance(s, n.Cost):
                ok = all(self.pure_call(c) for c in s.costs) and self.bounded(s.effect)
            elif isinstance(s, n.If):
                ok = self.pure_expr(s.cond) and self.bounded(s.then) and \
                    (s.otherwise is None or self.bounded(s.otherwise))
            else:
                ok = False
            if not ok:
                return False
        return True

    def bounded_body(self, block: n.Block, keyword: bool) -> bool:
        """`bounded` for a function's own body. A keyword's body calling a keyword counts:
        10 keywords each calling the next 20 times left the last two bounded, 400 calls a
        step, and a million steps took `sim` minutes per game (and hung it over trials)."""
        if not keyword:
            return self.bounded(block)
        self._calling.add("")       # any keyword call inside is then counted
        try:
            return self.bounded(block)
        finally:
            self._calling.discard("")

    def pure_call(self, c: n.Call) -> bool:
        if not all(self.pure_expr(a.value if isinstance(a, n.KwArg) else a) for a in c.args):
            return False
        if c.verb in self.keyword_asts:
            # a keyword's call of a keyword counts: each may call the next twice, so 30 of
            # them bounded by size alone would run 2**30 calls with no step counted
            if self._calling:
                return False
            self._calling.add(c.verb)
            try:
                return self.bounded(self.keyword_asts[c.verb])
            finally:
                self._calling.discard(c.verb)
        verb = self.vocab.verbs.get(c.verb)
        return verb is not None and (verb.pure or bool(verb.inline))   # else an engine verb

    def pure_expr(self, e) -> bool:
        if isinstance(e, (n.Num, n.Bool)):
            return True
        if isinstance(e, n.Name):
            return len(e.parts) == 1        # a dotted path reads through the engine's layers
        if isinstance(e, n.Func):
            query = self.vocab.queries.get(e.name)
            return query is not None and query.pure and \
                all(self.pure_expr(a.value if isinstance(a, n.KwArg) else a) for a in e.args)
        if isinstance(e, (n.Not, n.Neg)):
            return self.pure_expr(e.operand)
        if isinstance(e, n.BinOp):
            return self.pure_expr(e.left) and self.pure_expr(e.right)
        return False

    def let(self, s: n.Let, fn: _Func, scope: dict) -> None:
        local = f"l_{ident(s.name)}"
        least = self.least(s.value, scope)
        if local in self.least_of:      # bound again (another branch, a nested body): the lower
            known = self.least_of[local]
            least = None if least is None or known is None else min(least, known)
        self.least_of[local] = least
        scope[s.name] = local
        fn.emit(f"{local} = {self.expr(s.value, scope)}")

    def require(self, s: n.Require, fn: _Func, scope: dict) -> None:
        fn.emit(f"if not ({self.expr(s.cond, scope)}):")
        fn.emit("    return False")

    def block(self, block: n.Block, fn: _Func, scope: dict, key: str) -> None:
        scope = dict(scope)
        for stmt in block.stmts:
            self.stmt(stmt, fn, scope, key)

    def body(self, block: n.Block, fn: _Func, scope: dict, key: str, prefix: str = "body") -> str:
        """Emit a nested `def bodyN(ctx)` for a block run later or elsewhere; return its name."""
        name = fn.fresh(prefix)
        fn.emit(f"def {name}(ctx):")
        fn.depth += 1
        # A nested body (a trigger's) may run after its effect returned: it counts its own
        # steps and names the effect's YAML origin itself.
        fn.emit("try:")
        fn.depth += 1
        fn.emit("step(ctx)")
        start = len(fn.lines)
        self.block(block, fn, scope, key)
        # Its own handler objects, from the context it runs in: a trigger kept by a copy of
        # the game (a simulated player's trial) must act on the copy, not on the original.
        fn.lines[start:start] = _bindings(fn.lines[start:], fn.depth)
        fn.emit("return True")
        fn.depth -= 1
        fn.emit("except Exception as err:")
        fn.emit(f"    raised(err, SOURCES[{self.current!r}])")
        fn.emit("    raise")
        fn.depth -= 1
        return name

    def zone(self, sel: n.Selector, scope: dict) -> str:
        """A selector's zone: a keyword parameter's value, or the zone's name."""
        return scope.get(sel.zone, repr(sel.zone)) if sel.zone is not None else "None"

    def lam(self, e, scope: dict) -> str:
        """A condition run later (a trigger's `where`) or per item: it reads the handlers of
        the context it is given, like a nested body."""
        if e is None:
            return "None"
        return "lambda ctx: " + _HANDLER_READ.sub(r"ctx.\1.", self.expr(e, scope))

    def stmt(self, s, fn: _Func, scope: dict, key: str) -> None:  # noqa: C901
        if isinstance(s, n.Call):
            if s.verb in self.vocab.keywords:
                args = self.call_args(s, scope)
                with self.negative_guard(s, args, fn, scope):
                    fn.emit(f"if not kw_{ident(s.verb)}({', '.join(['ctx', *args])}):")
                    fn.emit("    return False")
            else:
                if self.vocab.verbs[s.verb].cost:  # a bare cost: pay it or fizzle
                    fn.emit(f"if not ({self.cost_check(n.Cost((s,), n.Block(())), scope)}):")
                    fn.emit("    return False")
                self.verb_call(s, fn, scope)
        elif isinstance(s, n.Cost):
            fn.emit(f"if not ({self.cost_check(s, scope)}):")
            fn.emit("    return False")
            for c in s.costs:
                self.verb_call(c, fn, scope)
            self.block(s.effect, fn, scope, key)
        elif isinstance(s, n.Let):
            self.let(s, fn, scope)
        elif isinstance(s, n.Require):
            self.require(s, fn, scope)
        elif isinstance(s, n.Assign):
            obj = self.expr(n.Name(s.target.parts[:-1]), scope)
            value = self.expr(s.value, scope)
            fn.emit(f"ctx.modify({obj}, {s.target.parts[-1]!r}, {s.op!r}, {value}, "
                    f"{fn.fresh(key + ':m')!r})")
        elif isinstance(s, n.If):
            fn.emit(f"if {self.expr(s.cond, scope)}:")
            fn.depth += 1
            self.block(s.then, fn, scope, key)
            fn.emit("pass")
            fn.depth -= 1
            if s.otherwise is not None:
                fn.emit("else:")
                fn.depth += 1
                self.block(s.otherwise, fn, scope, key)
                fn.emit("pass")
                fn.depth -= 1
        elif isinstance(s, n.On):
            body = self.body(s.body, fn, scope, key)
            fn.emit(f"ctx.on({s.event!r}, {self.lam(s.where, scope)}, {body}, "
                    f"{fn.fresh(key + ':on')!r})")
        elif isinstance(s, n.When):
            body = self.body(s.body, fn, scope, key)
            fn.emit(f"ctx.when({self.lam(s.cond, scope)}, {body}, {fn.fresh(key + ':when')!r})")
        elif isinstance(s, n.Each):
            body = self.body(s.body, fn, scope, key)
            sel = s.selector
            fn.emit(f"ctx.each({sel.kind!r}, {self.zone(sel, scope)}, {self.lam(sel.where, scope)}, {body})")
        elif isinstance(s, n.Target):
            body = self.body(s.body, fn, scope, key)
            sel = s.selector
            var = fn.fresh("t")
            fn.emit(f"{var} = ctx.pick_target({fn.fresh(key + ':target')!r}, {sel.kind!r}, "
                    f"{self.zone(sel, scope)}, {self.lam(sel.where, scope)})")
            fn.emit(f"if {var} is None:")
            fn.emit("    return False")
            fn.emit(f"{body}(ctx.bind(target={var}))")
        elif isinstance(s, n.During):
            body = self.body(s.body, fn, scope, key)
            fn.emit(f"ctx.during({s.scope!r}, {body})")
        elif isinstance(s, n.Once):
            self.once_keys[id(s)] = once_key = fn.fresh(key + ":once")
            fn.emit(f"if ctx.once({s.scope!r}, {once_key!r}):")
            fn.depth += 1
            self.block(s.body, fn, scope, key)
            fn.emit("pass")
            fn.depth -= 1
        elif isinstance(s, n.Repeat):
            var = fn.fresh("_r")
            fn.emit(f"for {var} in loop({self.expr(s.count, scope)}):")
            fn.depth += 1
            self.block(s.body, fn, scope, key)
            fn.emit("pass")
            fn.depth -= 1
        elif isinstance(s, n.May):
            body = self.body(s.body, fn, scope, key)
            fn.emit(f"if ctx.may({fn.fresh(key + ':may')!r}):")
            fn.emit(f"    {body}(ctx)")
        elif isinstance(s, n.Continuous):
            body = self.body(s.body, fn, scope, key)
            fn.emit(f"ctx.continuous({body}, {fn.fresh(key + ':cont')!r})")
        elif isinstance(s, n.Choose):
            names = [self.body(option, fn, scope, key, "option") for option in s.options]
            checks = ", ".join(f"{self.option_check(o, fn, scope)}(ctx)" for o in s.options)
            var = fn.fresh("c")
            fn.emit(f"{var} = ctx.choose({fn.fresh(key + ':choose')!r}, ({checks},))")
            fn.emit(f"if {var} is None:")
            fn.emit("    return False")
            fn.emit(f"({', '.join(names)},)[{var}](ctx)")
        else:  # pragma: no cover - the checker only lets known statements through
            raise TypeError(f"cannot compile {s!r}")

    def option_check(self, block: n.Block, fn: _Func, scope: dict) -> str:
        """A nested `def canN(ctx)`: whether a `choose` option can be carried out now."""
        name = fn.fresh("can")
        fn.emit(f"def {name}(ctx):")
        fn.depth += 1
        self.can_lines(block, fn, scope)
        fn.depth -= 1
        return name

    def inlined(self, c: n.Call, scope: dict) -> tuple[str, str] | None:
        """(the player's stat, the amount) of a call the vocabulary marks `inline: you_stat`,
        when its stat is written as a literal resource or stat name; else None (the call
        goes to the handler, which must do the same)."""
        verb = self.vocab.verbs.get(c.verb)
        if verb is None or verb.inline != "you_stat" or len(verb.params) != 2 or \
                any(isinstance(a, n.KwArg) for a in c.args) or len(c.args) != 2:
            return None
        stat, amount = c.args
        types = self.vocab.names.get(stat.head, {}) if isinstance(stat, n.Name) else {}
        if len(stat.parts) != 1 or stat.head in scope or not {"resource", "stat"} & set(types):
            return None
        return f"ctx.you.{ident(stat.head)}", self.expr(amount, scope)

    def cost_check(self, s: n.Cost, scope: dict) -> str:
        parts = []
        for c in s.costs:
            args = self.call_args(c, scope)
            stat = self.inlined(c, scope)
            if stat is not None:
                check = f"{stat[0]} >= {args[1]}"
            else:
                verb = self.vocab.verbs[c.verb]
                copied = inline.expression(self.vocab.engine, "Verbs", f"can_{verb.handler}",
                                           args) if verb.pure else None
                check = copied or f"verbs.can_{ident(verb.handler)}({', '.join(['ctx', *args])})"
            # a negative amount pays nothing (negative_guard), which is always possible
            below = [f"({args[i]}) < {floor}" for i, floor in self.read_in_play(c, scope)]
            parts.append(f"({' or '.join([*below, check])})" if below else check)
        return " and ".join(parts)

    def verb_call(self, c: n.Call, fn: _Func, scope: dict) -> None:
        """Emit a verb: inlined arithmetic, the body of a pure handler, or the handler call."""
        verb = self.vocab.verbs[c.verb]
        args = self.call_args(c, scope)
        with self.negative_guard(c, args, fn, scope):
            stat = self.inlined(c, scope)
            if stat is not None:
                fn.emit(f"{stat[0]} -= {args[1]}")
                return
            lines = inline.statements(self.vocab.engine, "Verbs", verb.handler, args,
                                      fn.fresh("_h")) if verb.pure else None
            for line in lines or [f"verbs.{ident(verb.handler)}({', '.join(['ctx', *args])})"]:
                fn.emit(line)

    @contextmanager
    def negative_guard(self, c: n.Call, args: list[str], fn: _Func, scope: dict):
        """Emit what `c` does under `if local >= 0:` when an int argument of a parameter
        declaring `min:` reads the game (the argument is held in the local, `args` updated): a
        count that comes out negative in play does nothing. `pay gold (x)` with x at -2 gave
        2 gold, `take_damage (x)` healed, `draw (n - 3)` asked the engine to draw a negative
        number of cards. A constant below the least is refused by check (TC-N009); 0 read in
        play is handed on, as before: an attack rolling no hits is still an attack (DRG's
        `deal`: the area chosen, the sentry's '0 bullet hits' said), a draw of 0 draws none."""
        tests = []
        for i, floor in self.read_in_play(c, scope):
            local = fn.amount()
            fn.emit(f"{local} = {args[i]}")
            args[i] = local
            tests.append(f"{local} >= {floor}")
        if tests:
            fn.emit(f"if {' and '.join(tests)}:")
            fn.depth += 1
        try:
            yield
        finally:
            if tests:
                fn.depth -= 1

    def read_in_play(self, c: n.Call, scope: dict) -> list[tuple[int, int]]:
        """(argument index, least guarded in play) of each parameter of `c` declaring `min:`
        whose argument is not a constant, and not known to stay at or above that floor: 0, or
        the declared least where it is below 0."""
        found = []
        for i, (param, value) in enumerate(self.bound_args(c)):
            if param.least is None or value is None or n.constant(value) is not None:
                continue
            floor, least = min(param.least, 0), self.least(value, scope)
            if least is None or least < floor:
                found.append((i, floor))
        return found

    def least(self, e, scope: dict) -> int | None:
        """The least value `e` takes in play, where the compiler can tell: a number, a query
        declaring `min:` (The Cave's `depth_levels()`: 0), a let or keyword parameter bound
        to such, their sums, and products and floor divisions by a positive number of values
        at least 0; else None."""
        if isinstance(e, n.Num):
            return e.value if type(e.value) is int else None
        if isinstance(e, n.Name) and len(e.parts) == 1:
            return self.least_of.get(scope.get(e.head))
        if isinstance(e, n.Func):
            query = self.vocab.queries.get(e.name)
            return query.least if query is not None else None
        if not (isinstance(e, n.BinOp) and e.op in ("+", "*", "//")):
            return None
        left, right = self.least(e.left, scope), self.least(e.right, scope)
        if left is None or right is None:
            return None
        if e.op == "+":
            return left + right
        if left < 0 or right < 0:
            return None
        if e.op == "*":
            return left * right
        return left // right if isinstance(e.right, n.Num) and right > 0 else None

    def parameter_leasts(self, name: str) -> dict[str, int]:
        """A keyword's int parameters' least values in play, by local: a constant argument is at
        least its `min:` (TC-N009), one read in play at least 0 (negative_guard at the call)."""
        keyword = self.vocab.keywords.get(name[3:]) if name.startswith("kw_") else None
        return {f"p_{ident(p.name)}": min(p.least, 0)
                for p in (keyword.params if keyword is not None else ()) if p.least is not None}

    def call_args(self, c, scope: dict) -> list[str]:
        """Arguments in parameter order (keyword arguments placed by name)."""
        return [self.expr(value, scope) if value is not None else "None"
                for _, value in self.bound_args(c)]

    def bound_args(self, c) -> list[tuple]:
        """(parameter, argument AST or None) in parameter order, keyword arguments by name."""
        params = self.vocab.callable(c.verb if isinstance(c, n.Call) else c.name).params
        bound = n.bind([p.name for p in params], c.args)
        return [(p, bound.get(p.name)) for p in params]

    def expr(self, e, scope: dict) -> str:  # noqa: C901
        if isinstance(e, n.Num):
            return repr(e.value)
        if isinstance(e, n.Bool):
            return repr(e.value)
        if isinstance(e, n.Name):
            head = scope.get(e.head, None)
            text = head if head is not None else repr(e.head)
            for attr in e.parts[1:]:
                text = f"ctx.attr({text}, {attr!r})"
            return text
        if isinstance(e, n.Func):
            query = self.vocab.queries[e.name]
            args = self.call_args(e, scope)
            copied = inline.expression(self.vocab.engine, "Queries", query.handler,
                                       args) if query.pure else None
            return copied or f"queries.{ident(query.handler)}({', '.join(['ctx', *args])})"
        if isinstance(e, (n.Count, n.Any_)):
            sel = e.selector
            method = "count" if isinstance(e, n.Count) else "any"
            return f"ctx.{method}({sel.kind!r}, {self.zone(sel, scope)}, {self.lam(sel.where, scope)})"
        if isinstance(e, n.Not):
            return f"(not {self.expr(e.operand, scope)})"
        if isinstance(e, n.Neg):
            return f"(-{self.expr(e.operand, scope)})"
        if isinstance(e, n.BinOp):
            return f"({self.expr(e.left, scope)} {e.op} {self.expr(e.right, scope)})"
        raise TypeError(f"cannot compile {e!r}")  # pragma: no cover


_HANDLER_USE = {name: re.compile(rf"(?<![\w.]){name}\.") for name in ("verbs", "queries")}
_HANDLER_READ = re.compile(r"(?<![\w.'\"])(verbs|queries)\.")


def _bindings(lines: list[str], depth: int) -> list[str]:
    """`verbs = ctx.verbs` / `queries = ctx.queries` for the handler objects a function uses:
    in its own code or in a nested function that reads the name from it (an availability
    check); a nested body that binds its own (see `body`) does not count."""
    return ["    " * depth + f"{name} = ctx.{name}"
            for name, pattern in _HANDLER_USE.items()
            if pattern.search("\n".join(_reading_outer(lines, f"{name} = ctx.{name}")))]


def _reading_outer(lines: list[str], binding: str) -> list[str]:
    """The lines of a function body without the nested functions that make `binding`
    themselves (and so never read the outer one)."""
    kept, i = [], 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        end = i + 1
        if line.lstrip().startswith("def "):
            while end < len(lines) and (not lines[end].strip() or
                                        len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            inner = _reading_outer(lines[i + 1:end], binding)
            if not any(text.strip() == binding for text in inner):
                kept += [line] + inner      # reads ours (itself, or a closure of its own)
            i = end             # else it binds its own: what it and its closures read is not ours
            continue
        kept.append(line)
        i += 1
    return kept


_CONTEXT_READ = re.compile(r"(?<![\w.])ctx\.(you|engine|info|self|target)\b")


def _hoisted(lines: list[str], depth: int) -> tuple[list[str], list[str]]:
    """(`ctx_you = ctx.you`... for each context field a function reads twice or more, its
    lines reading the locals instead). A context is immutable, so a read once is the read
    every time; skipped when a nested body or lambda is present (they take a `ctx` of their
    own, whose fields may differ). The generated code holds no string literal but content
    identifiers, so the text substitution cannot touch content."""
    text = "\n".join(lines)
    if "lambda" in text or "def " in text:
        return [], lines
    counts: dict[str, int] = {}
    for m in _CONTEXT_READ.finditer(text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    hoist = [f for f in ("engine", "you", "self", "target", "info") if counts.get(f, 0) >= 2]
    if not hoist:
        return [], lines
    swap = lambda m: f"ctx_{m.group(1)}" if m.group(1) in hoist else m.group(0)   # noqa: E731
    return (["    " * depth + f"ctx_{f} = ctx.{f}" for f in hoist],
            [_CONTEXT_READ.sub(swap, line) for line in lines])


# --- modules -------------------------------------------------------------------------------

def _literal(value, effects: dict[tuple, str], path: tuple) -> str:
    """A Python literal for a content value; effect strings become function references."""
    if path in effects:
        return effects[path]
    if isinstance(value, dict):
        if set(value) == {"zh", "en"}:
            return f"Text({value['zh']!r}, {value['en']!r})"
        if all(names.is_identifier(k) for k in value):
            items = ", ".join(f"{k}={_literal(v, effects, path + (k,))}" for k, v in value.items())
            return f"Record({items})"
        # free-form keys (any string) stay data: they are passed as a dict literal
        items = ", ".join(f"{str(k)!r}: {_literal(v, effects, path + (k,))}"
                          for k, v in value.items())
        return f"Record(**{{{items}}})"
    if isinstance(value, list):
        items = [_literal(v, effects, path + (i,)) for i, v in enumerate(value)]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f"float({str(value)!r})"  # repr() would write the bare names nan / inf
    return repr(value)


def _part(key) -> str:
    """A field path key as part of a name: an index, a valid name, or its hex spelling (a
    property of a fan's kind schema may be any string: `class`, `a-b`)."""
    if isinstance(key, int):
        return str(key)
    return key if names.is_identifier(key) else "x_" + str(key).encode("utf-8").hex()


def _fn_name(entity: Entity, sub: tuple) -> str:
    """fx_<kind>__<id>__<field path>; every part is a validated identifier or an index."""
    parts = [ident(entity.kind), ident(entity.id), *(_part(p) for p in sub)]
    return "fx_" + "__".join(parts)


def input_hash(game: Game) -> str:
    """The package's input hash (see compiler.fingerprint), written in every file's header."""
    return fingerprint.roots_hash([Path(p.root) for p in game.packs])


def _kind_fields(game: Game, kind: str) -> list[str]:
    spec = game.vocab.kinds[kind]
    return [ident(f) for f in spec.get("fields", {})]


def generate(game: Game, digest: str | None = None) -> dict[str, str]:
    """Return {relative file name: source text} for generated/<package>/; `digest` is the
    package's input hash when the caller has it already."""
    compiler = EffectCompiler(game)
    functions: list[str] = []
    sources: dict[str, str] = {}  # function name -> YAML file:line, read when an effect raises
    digest = digest or input_hash(game)

    for name in sorted(game.keyword_sites):
        site = game.keyword_sites[name]
        keyword = game.vocab.keywords[name]
        doc, _ = keyword.origin
        sources[f"kw_{ident(name)}"] = f"{_rel(doc.path)}:{doc.mark(site.path).line}"
        functions.append(compiler.compile(f"kw_{ident(name)}", site.ast,
                                          tuple(p.name for p in keyword.params), site.text))

    entity_effects: dict[int, dict[tuple, str]] = {}
    for entity in game.all():
        table = entity_effects.setdefault(id(entity), {})
        for site in entity.effects:
            sub = site.path[len(entity.path):]
            fn = _fn_name(entity, sub)
            sources[fn] = f"{_rel(entity.doc.path)}:{entity.doc.mark(site.path).line}"
            functions.append(compiler.compile(fn, site.ast, (), site.text))
            table[sub] = f"effects.{fn}"

    kinds = []
    for kind in sorted(game.vocab.kinds):
        fields = _kind_fields(game, kind)
        entities = []
        for entity in game.of_kind(kind):
            effects = entity_effects[id(entity)]
            values = []
            for f in fields:
                if f in entity.data:
                    values.append((f, _literal(entity.data[f], effects, (f,))))
            provenance = _provenance(entity)
            entities.append({"id": entity.id, "var": f"{ident(kind).upper()}__{ident(entity.id).upper()}",
                             "origin": _comment(f"{_rel(entity.doc.path)}:{entity.line}"),
                             "name": _literal(entity.data["name"], {}, ()),
                             "provenance": provenance, "assigned": values,
                             "file": _rel(entity.doc.path), "line": entity.line,
                             "pack": entity.pack})
        kinds.append({"kind": kind, "cls": class_name(kind), "fields": fields, "entities": entities})

    names = {}
    for name in sorted(game.vocab.names):
        infos = game.vocab.names[name]
        names[name] = {t: (infos[t].text.zh, infos[t].text.en) for t in sorted(infos)}
    verbs = {v: (c.text.zh, c.text.en) for v, c in sorted(game.vocab.verbs.items()) if c.text}
    handlers = sorted({c.handler for c in game.vocab.verbs.values()}
                      | {f"can_{c.handler}" for c in game.vocab.verbs.values() if c.cost}
                      | {f"query:{c.handler}" for c in game.vocab.queries.values()})
    keywords = [{"name": k, "params": tuple(p.name for p in c.params),
                 "text": (c.text.zh, c.text.en) if c.text else None}
                for k, c in sorted(game.vocab.keywords.items())]
    context = {"game": game.vocab, "hash": digest, "functions": functions, "kinds": kinds,
               "sources": dict(sorted(sources.items())),
               "names": names, "verbs": verbs, "handlers": handlers, "keywords": keywords,
               "packs": [p.id for p in game.packs], "repr": repr}
    return {name: _templates().get_template(f"{name}.j2").render(**context)
            for name in ("__init__.py", "effects.py", "definitions.py")}


def _provenance(entity: Entity) -> str:
    data = entity.data
    approx = tuple(sorted((data.get("approximations") or {}).items()))
    public = tuple(sorted((data.get("public") or {}).items()))
    return (f"Provenance({data.get('source', '')!r}, {data.get('ref', '')!r}, "
            f"{data.get('note', '')!r}, {approx!r}, {public!r})")


def _makedirs(folder: str) -> bool:
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return True


def _rel(path: Path) -> str:
    """Where a YAML file is, for comments and error notes, the same from every working folder
    (a compiled game is cached by content and place, and read from any folder): a game's file
    and a shipped pack's as `content/<game>/...` (machine-independent: committed in
    generated/), any other file (a fan's pack) by its absolute path. `packs.display_origin`
    shows either as the user should see it."""
    # once per file, not per effect: resolve() is slow; so is building a Path from a Path
    return _rel_resolved(path if isinstance(path, Path) else Path(path))


@lru_cache(maxsize=1024)
def _rel_resolved(path: Path) -> str:
    parts = path.resolve().parts
    if "content" in parts:
        at = len(parts) - 1 - parts[::-1].index("content")
        # a game's folder under content/ (not any folder named content: ~/content/my_pack)
        if at + 1 < len(parts) and (Path(*parts[:at + 2]) / "game.yaml").is_file():
            return "/".join(parts[at:])
    return str(Path(*parts))
