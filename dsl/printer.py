"""Canonical printer: one spelling per AST, so that parse(print(ast)) == ast.

Layout rules: statements are joined with "; "; a compound statement uses its colon form
when it is the last of its block and its braced form otherwise; a cost (which has no
braced form) is wrapped in `{ }` when something follows it.
"""
from __future__ import annotations

from tomecraft.dsl import nodes as n

# Binding strength of each operator; higher binds tighter.
_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "+": 5, "-": 5, "*": 6, "//": 6}
_NOT_PREC = 3
_NEG_PREC = 7
_ATOM_PREC = 8


def to_text(node) -> str:
    """Print a Block, a statement or an expression in canonical form."""
    if isinstance(node, n.Block):
        return _block(node)
    if isinstance(node, (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_, n.BinOp, n.Not, n.Neg)):
        return _expr(node)
    return _stmt(node, last=True)


def _block(block: n.Block) -> str:
    parts = [_stmt(s, last=(i == len(block.stmts) - 1)) for i, s in enumerate(block.stmts)]
    return "; ".join(parts)


def _body(head: str, body: n.Block, last: bool) -> str:
    if last:
        return f"{head}: {_block(body)}"
    return f"{head} {{ {_block(body)} }}"


def _stmt(s, last: bool) -> str:  # noqa: C901 - one branch per statement kind
    if isinstance(s, n.Call):
        return " ".join([s.verb, *(_arg(a) for a in s.args)])
    if isinstance(s, n.Assign):
        return f"{_expr(s.target)} {s.op} {_expr(s.value)}"
    if isinstance(s, n.Let):
        return f"let {s.name} = {_expr(s.value)}"
    if isinstance(s, n.Require):
        return f"require {_expr(s.cond)}"
    if isinstance(s, n.Cost):
        text = ", ".join(_stmt(c, True) for c in s.costs) + " -> " + _block(s.effect)
        return text if last else f"{{ {text} }}"
    if isinstance(s, n.If):
        head = f"if {_expr(s.cond)}"
        if s.otherwise is None:
            return _body(head, s.then, last)
        text = f"{head} {{ {_block(s.then)} }} else "
        only = s.otherwise.stmts[0] if len(s.otherwise.stmts) == 1 else None
        if isinstance(only, n.If) and only.otherwise is not None:
            return text + _stmt(only, last=False)
        return text + f"{{ {_block(s.otherwise)} }}"
    if isinstance(s, n.On):
        where = f" where {_expr(s.where)}" if s.where is not None else ""
        return _body(f"on {s.event}{where}", s.body, last)
    if isinstance(s, n.When):
        return _body(f"when {_expr(s.cond)}", s.body, last)
    if isinstance(s, n.Each):
        return _body(f"each {_selector(s.selector)}", s.body, last)
    if isinstance(s, n.Target):
        return _body(f"target {_selector(s.selector)}", s.body, last)
    if isinstance(s, n.During):
        return _body(f"during {s.scope}", s.body, last)
    if isinstance(s, n.Once):
        return _body(f"once per {s.scope}", s.body, last)
    if isinstance(s, n.Repeat):
        return _body(f"repeat {_arg(s.count)}", s.body, last)
    if isinstance(s, n.May):
        return _body("may", s.body, last)
    if isinstance(s, n.Continuous):
        return _body("continuous", s.body, last)
    if isinstance(s, n.Choose):
        return "choose { " + " | ".join(_block(o) for o in s.options) + " }"
    raise TypeError(f"not a statement: {s!r}")


def _arg(a) -> str:
    if isinstance(a, n.KwArg):
        return f"{a.name}={_arg(a.value)}"
    if isinstance(a, (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_)):
        return _expr(a)
    return f"({_expr(a)})"


def _selector(sel: n.Selector) -> str:
    text = sel.kind
    if sel.zone is not None:
        text += f" in {sel.zone}"
    if sel.where is not None:
        text += f" where {_expr(sel.where)}"
    return text


def _prec(e) -> int:
    if isinstance(e, n.BinOp):
        return _PREC[e.op]
    if isinstance(e, n.Not):
        return _NOT_PREC
    if isinstance(e, n.Neg):
        return _NEG_PREC
    if isinstance(e, n.Num) and e.value < 0:
        return _NEG_PREC
    return _ATOM_PREC


def _wrap(e, minimum: int) -> str:
    text = _expr(e)
    return f"({text})" if _prec(e) < minimum else text


def _expr(e) -> str:
    if isinstance(e, n.Num):
        return str(e.value)
    if isinstance(e, n.Bool):
        return "true" if e.value else "false"
    if isinstance(e, n.Name):
        return ".".join(e.parts)
    if isinstance(e, n.Func):
        return f"{e.name}(" + ", ".join(_expr(a) for a in e.args) + ")"
    if isinstance(e, n.Count):
        return f"count({_selector(e.selector)})"
    if isinstance(e, n.Any_):
        return f"any({_selector(e.selector)})"
    if isinstance(e, n.Not):
        return f"not {_wrap(e.operand, _NOT_PREC)}"
    if isinstance(e, n.Neg):
        return f"-{_wrap(e.operand, _NEG_PREC)}"
    if isinstance(e, n.BinOp):
        p = _PREC[e.op]
        if p == 4:  # comparisons do not chain: both sides must bind tighter
            return f"{_wrap(e.left, p + 1)} {e.op} {_wrap(e.right, p + 1)}"
        return f"{_wrap(e.left, p)} {e.op} {_wrap(e.right, p + 1)}"
    raise TypeError(f"not an expression: {e!r}")
