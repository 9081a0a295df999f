"""Copy the bodies of pure engine handlers into generated effects.

game.yaml marks a verb or query `pure: true` when its handler only reads or changes the state
it is handed (no event fired, no effect run, bounded work). The handler is trusted engine code
(packs cannot declare verbs or queries); the compiler reads its source from the engine's
`runtime/engines/<engine>/handlers.py` (whose text is part of every input hash, see
compiler/fingerprint.py) and writes it in place of the call, so a compiled effect does what a
hand-written one would, with no call per verb.

Only a small, checked subset is copied; anything else (a call on the engine other than `log`,
`self` used for anything but `self.engine`, loops that return, comprehensions, try, while...)
keeps the ordinary handler call. Nothing from content is ever copied: arguments are the
compiler's own generated expressions.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import textwrap
from functools import lru_cache

# Builtins an inlined handler may call: none can run content or engine code of its own.
SAFE_BUILTINS = frozenset({"abs", "min", "max", "len", "int", "bool", "str", "sum", "any",
                           "all", "sorted", "range", "tuple", "list", "set", "frozenset",
                           "dict", "isinstance", "round", "divmod", "True", "False", "None"})
MAX_HELPER_DEPTH = 3   # helpers inlined inside helpers (a recursive one stays a call)
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.For, ast.Return, ast.Pass)
_SCOPED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Starred)


class NotInlinable(Exception):
    """The handler is outside the subset the compiler copies: call it instead."""


@lru_cache(maxsize=None)
def handlers_module(engine: str):
    """The engine's handlers module, or None when it has none (its verbs are then called)."""
    try:
        return importlib.import_module(f"tomecraft.runtime.engines.{engine}.handlers")
    except ImportError:
        return None


@lru_cache(maxsize=None)
def _parsed(module, cls: str, method: str) -> tuple[list[str], list[ast.stmt]] | None:
    """(parameter names after self, body statements) of a handler method of `module`."""
    klass = getattr(module, cls, None)
    func = getattr(klass, method, None) if klass is not None else None
    if func is None or getattr(func, "__module__", None) != module.__name__:
        return None     # defined elsewhere: its source is not covered by the input hash
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    node = tree.body[0]
    args = node.args
    if (not isinstance(node, ast.FunctionDef) or node.decorator_list or args.vararg
            or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs):
        return None
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]     # the docstring
    return [a.arg for a in args.args[1:]], body


@lru_cache(maxsize=None)
def _own_names(module) -> frozenset[str]:
    """Names the handlers module assigns itself at top level (not imported from elsewhere,
    whose source the input hash would not cover)."""
    tree = ast.parse(inspect.getsource(module))
    return frozenset(t.id for s in tree.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                     for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
                     if isinstance(t, ast.Name))


def _helper(module, name: str) -> ast.Lambda | None:
    """A module-level function of the handlers module whose body is one `return`, as a
    lambda to inline, or None."""
    func = getattr(module, name, None)
    if not inspect.isfunction(func) or func.__module__ != module.__name__:
        return None
    node = ast.parse(textwrap.dedent(inspect.getsource(func))).body[0]
    if not isinstance(node, ast.FunctionDef) or node.decorator_list:
        return None
    body = [s for s in node.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    a = node.args
    if (len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None
            or a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs):
        return None
    return ast.Lambda(args=a, body=body[0].value)


_ARITHMETIC = (ast.Constant, ast.Name, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop,
               ast.Load, ast.Tuple)


def _is_simple(expr: ast.expr, reads: bool = False) -> bool:
    """An argument that can be written wherever its parameter is used, even several times:
    literals and generated locals combined by arithmetic; with `reads`, attributes and
    subscripts of the context too, for a single expression (nothing in it can change them
    between two reads). Never a call."""
    allowed = _ARITHMETIC + ((ast.Attribute, ast.Subscript) if reads else ())
    return all(isinstance(x, allowed) and (reads or not (isinstance(x, ast.Name) and x.id == "ctx"))
               for x in ast.walk(expr))


class _Rewrite(ast.NodeTransformer):
    """Parameters to their arguments, locals to fresh names, `self.engine` to `ctx.engine`,
    module constants to their values and one-line module helpers to their expression."""

    def __init__(self, module, params: dict[str, ast.expr], prefix: str, depth: int = 0) -> None:
        self.module, self.params, self.prefix, self.depth = module, params, prefix, depth
        self.locals: set[str] = set()

    def visit_Attribute(self, node: ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr != "engine":
                raise NotInlinable("self." + node.attr)
            return ast.Attribute(ast.Name("ctx", ast.Load()), "engine", node.ctx)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and _is_engine(f.value) and f.attr != "log":
            raise NotInlinable(f"engine.{f.attr}()")   # engine methods may fire events
        if isinstance(f, ast.Name) and f.id not in self.params and f.id not in self.locals:
            if f.id in SAFE_BUILTINS and not hasattr(self.module, f.id):
                return self.generic_visit(node)
            helper = _helper(self.module, f.id) if self.depth < MAX_HELPER_DEPTH else None
            if helper is None or node.keywords or len(node.args) != len(helper.args.args):
                raise NotInlinable(f.id + "()")
            args = [self.visit(a) for a in node.args]
            if not all(_is_simple(a, reads=True) or _uses(helper.body, p.arg) <= 1
                       for a, p in zip(args, helper.args.args)):
                raise NotInlinable(f.id + "(): an argument would be evaluated twice")
            inner = _Rewrite(self.module, {p.arg: a for p, a in zip(helper.args.args, args)},
                             self.prefix, self.depth + 1)
            return inner.visit(_copy(helper.body))
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name):
        if node.id == "self":
            raise NotInlinable("self")
        if node.id in self.params:
            return _copy(self.params[node.id]) if isinstance(node.ctx, ast.Load) else _fail(node)
        if node.id in self.locals or isinstance(node.ctx, ast.Store):
            self.locals.add(node.id)
            return ast.Name(f"{self.prefix}_{node.id}", node.ctx)
        if node.id == "ctx":
            return node
        if hasattr(self.module, node.id):
            value = getattr(self.module, node.id)
            if node.id in _own_names(self.module) and (
                    isinstance(value, (str, int, float, bool)) or value is None):
                return ast.Constant(value)
            raise NotInlinable(node.id)
        if node.id in SAFE_BUILTINS and hasattr(builtins, node.id):
            return node
        raise NotInlinable(node.id)

    def generic_visit(self, node):
        if isinstance(node, _SCOPED):
            raise NotInlinable(type(node).__name__)
        return super().generic_visit(node)


class _Fold(ast.NodeTransformer):
    """Join two string literals added together (`item + HALF` with item = 'oxygen')."""

    def visit_BinOp(self, node: ast.BinOp):
        node = self.generic_visit(node)
        if isinstance(node.op, ast.Add) and all(
                isinstance(x, ast.Constant) and isinstance(x.value, str)
                for x in (node.left, node.right)):
            return ast.Constant(node.left.value + node.right.value)
        return node


def _is_engine(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "engine"
            and isinstance(node.value, ast.Name) and node.value.id in ("self", "ctx"))


def _fail(node):
    raise NotInlinable(f"assigns its parameter {node.id}")


def _copy(node):
    return ast.parse(ast.unparse(node), mode="eval").body if isinstance(node, ast.expr) \
        else ast.parse(ast.unparse(node)).body[0]


def _uses(node: ast.AST, name: str) -> int:
    return sum(isinstance(x, ast.Name) and x.id == name for x in ast.walk(node))


def _returns(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(x, ast.Return) for s in stmts for x in ast.walk(s))


def _without_returns(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a handler that returns nothing, with each early `return` turned into
    an `if`/`else` around what follows it."""
    out: list[ast.stmt] = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            if s.value is not None and not (isinstance(s.value, ast.Constant)
                                            and s.value.value is None):
                raise NotInlinable("a verb that returns a value")
            return out
        if isinstance(s, ast.If) and _returns([s]):
            rest = stmts[i + 1:]
            body = s.body if _ends(s.body) else s.body + rest
            orelse = s.orelse if _ends(s.orelse) else s.orelse + rest
            out.append(ast.If(s.test, _without_returns(body) or [ast.Pass()],
                              _without_returns(orelse)))
            return out
        if _returns([s]):
            raise NotInlinable("returns from inside a loop")
        out.append(s)
    return out


def _ends(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], ast.Return)


def _check(stmts: list[ast.stmt]) -> None:
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.stmt) and not isinstance(node, _STATEMENTS):
                raise NotInlinable(type(node).__name__)
            if isinstance(node, ast.For) and (node.orelse or not isinstance(node.target, ast.Name)):
                raise NotInlinable("for/else or an unpacking loop")
            if isinstance(node, ast.Assign) and _is_engine(node.value):
                raise NotInlinable("a local name for the engine")   # its calls stay visible


def _bind(params: list[str], args: list[str], body: list[ast.stmt], prefix: str):
    """Arguments as expressions to substitute, and the assignments that evaluate the others
    once, first, as the call would."""
    values, first = {}, []
    for name, text in zip(params, args):
        expr = ast.parse(text, mode="eval").body
        if _is_simple(expr) and not any(_assigned(s, name) for s in body):
            values[name] = expr
        else:
            local = f"{prefix}_{name}"
            first.append(f"{local} = {text}")
            values[name] = ast.Name(local, ast.Load())
    return values, first


def _assigned(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(x, ast.Name) and x.id == name and isinstance(x.ctx, ast.Store)
               for x in ast.walk(stmt))


def statements(engine: str, cls: str, method: str, args: list[str], prefix: str) -> list[str] | None:
    """The lines (unindented) doing what `<cls>.<method>(ctx, *args)` does, or None.

    `args` are generated expressions in parameter order; `prefix` makes the handler's local
    names unique in the generated function."""
    module = handlers_module(engine)
    parsed = _parsed(module, cls, method) if module is not None else None
    if parsed is None:
        return None
    params, body = parsed
    if not params or params[0] != "ctx" or len(params) != len(args) + 1:
        return None
    try:
        _check(body)
        body = _without_returns(body)
        values, first = _bind(params[1:], args, body, prefix)
        rewrite = _Rewrite(module, values, prefix)
        lines = [ast.unparse(_Fold().visit(rewrite.visit(_copy(s)))) for s in body]
    except NotInlinable:
        return None
    return first + [line for text in lines for line in text.splitlines()] or ["pass"]


def expression(engine: str, cls: str, method: str, args: list[str]) -> str | None:
    """A parenthesised expression for a handler whose body is one `return`, or None."""
    module = handlers_module(engine)
    parsed = _parsed(module, cls, method) if module is not None else None
    if parsed is None:
        return None
    params, body = parsed
    if (not params or params[0] != "ctx" or len(params) != len(args) + 1 or len(body) != 1
            or not isinstance(body[0], ast.Return) or body[0].value is None):
        return None
    values = {}
    for name, text in zip(params[1:], args):
        expr = ast.parse(text, mode="eval").body
        if not _is_simple(expr, reads=True) and _uses(body[0].value, name) != 1:
            return None     # written once where the handler reads it, or not at all
        values[name] = expr
    try:
        copied = _Rewrite(module, values, "_x").visit(_copy(body[0].value))
    except NotInlinable:
        return None
    return "(" + ast.unparse(_Fold().visit(copied)) + ")"
