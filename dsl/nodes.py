"""AST of the effect language.

Every node is a frozen dataclass. `pos` (line, column inside the effect string, both 1-based)
is excluded from equality, so `parse(print(ast)) == ast` compares structure only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True, slots=True)
class Pos:
    line: int = 1
    column: int = 1


def _pos() -> Pos:
    return field(default=Pos(), compare=False, repr=False)


# --- expressions ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Num:
    value: int
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Name:
    """A name or a dotted path: `gold`, `target.hp`, `event.amount`."""
    parts: tuple[str, ...]
    pos: Pos = _pos()

    @property
    def head(self) -> str:
        return self.parts[0]


@dataclass(frozen=True, slots=True)
class Func:
    """A query: `has(camera)`, `roll(2, bullet)`."""
    name: str
    args: tuple["Expr", ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Selector:
    """`kind [in zone] [where cond]`, used by each, target, count and any."""
    kind: str
    zone: str | None = None
    where: "Expr | None" = None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Count:
    selector: Selector
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Any_:
    selector: Selector
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class BinOp:
    """Arithmetic, comparison and boolean operators."""
    op: str
    left: "Expr"
    right: "Expr"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Not:
    operand: "Expr"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Neg:
    operand: "Expr"
    pos: Pos = _pos()


Expr = Union[Num, Bool, Name, Func, Count, Any_, BinOp, Not, Neg]


# --- statements -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class KwArg:
    name: str
    value: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Call:
    """A verb or a keyword: `gain 2 gold`, `danger 3`."""
    verb: str
    args: tuple[Union[Expr, KwArg], ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Assign:
    """Value layering: `=` sets, `+=`/`-=` add, `*=` multiplies (see runtime/layering.py)."""
    target: Name
    op: str
    value: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    value: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Require:
    cond: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Block:
    stmts: tuple["Stmt", ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Cost:
    """`costs -> effect`: every cost must be payable, all are paid, then the effect runs."""
    costs: tuple[Call, ...]
    effect: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class If:
    cond: Expr
    then: Block
    otherwise: Block | None = None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class On:
    """A trigger: runs `body` each time `event` happens (and `where` holds)."""
    event: str
    where: Expr | None
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class When:
    """Runs `body` once, as soon as `cond` holds (now or later within the duration)."""
    cond: Expr
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Each:
    """Runs `body` for every match of the selector, bound to `it` (players become `you`)."""
    selector: Selector
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Target:
    """The acting player chooses one match of the selector, bound to `target`."""
    selector: Selector
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class During:
    """Effects and triggers in `body` last until the end of the named scope (turn, round...)."""
    scope: str
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Once:
    """`body` can happen at most once per named scope."""
    scope: str
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Repeat:
    count: Expr
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class May:
    """An optional effect: the acting player decides."""
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Continuous:
    """Applies while the source is in play; assignments inside re-apply after a set."""
    body: Block
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Choose:
    """The acting player picks exactly one option it can carry out."""
    options: tuple[Block, ...]
    pos: Pos = _pos()


Stmt = Union[Call, Assign, Let, Require, Cost, If, On, When, Each, Target, During, Once,
             Repeat, May, Continuous, Choose]

# Statements whose colon form swallows the rest of the block.
COMPOUND = (Cost, If, On, When, Each, Target, During, Once, Repeat, May, Continuous)


def bind(names, args) -> dict:
    """A call's arguments by parameter name (`names` in order): positional ones in order, then
    keyword arguments by their names. The checker reports a call that names one twice."""
    positional = [a for a in args if not isinstance(a, KwArg)]
    return {**dict(zip(names, positional)),
            **{a.name: a.value for a in args if isinstance(a, KwArg)}}


def walk(node) -> tuple:
    """`node` and every node below it, depth first, in source order.

    Remembered per node (nodes are immutable, and the parser hands the same tree to every
    field with the same text): `check` walks each effect five times over, for each of its
    checks, and a 5,000-card pack's 10,000 effects were 1.5 million generator steps. The
    memo holds the node, so its id is not reused while the entry lives; it is emptied when
    it holds WALKED_MAX nodes in all (a long process, the test suite, met ever more trees,
    and the collector's passes over them slowed it down)."""
    global _walked_size
    found = _WALKED.get(id(node))
    if found is not None:
        return found[1]
    below: list = []
    _walk_into(node, below)
    if _walked_size + len(below) > WALKED_MAX:
        _WALKED.clear()
        _walked_size = 0
    nodes = _WALKED[id(node)] = (node, tuple(below))
    _walked_size += len(below)
    return nodes[1]


_WALKED: dict[int, tuple] = {}
WALKED_MAX = 100_000        # nodes: a 5,000-card pack's distinct effects hold about 15,000
_walked_size = 0


def _walk_into(node, below: list) -> None:
    below.append(node)
    for name in node.__dataclass_fields__:
        if name == "pos":
            continue
        value = getattr(node, name)
        if isinstance(value, tuple):
            for item in value:
                if hasattr(item, "__dataclass_fields__"):
                    _walk_into(item, below)
        elif hasattr(value, "__dataclass_fields__"):
            _walk_into(value, below)



_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "//": lambda a, b: a // b if b else None}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _is_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def value_of(e, known: dict[str, int] | None = None):
    """The value of `e` (an int or a bool) when it reads only numbers, truth values, operators
    and the argument-less queries `known` gives a value (`{"hazard_level": 3}`); None if it
    reads anything else, or divides by zero."""
    if isinstance(e, (Num, Bool)):
        return e.value
    if isinstance(e, Func):
        return known.get(e.name) if known and not e.args else None
    if isinstance(e, Neg):
        value = value_of(e.operand, known)
        return -value if _is_number(value) else None
    if isinstance(e, Not):
        value = value_of(e.operand, known)
        return (not value) if isinstance(value, bool) else None
    if not isinstance(e, BinOp):
        return None
    left, right = value_of(e.left, known), value_of(e.right, known)
    if left is None or right is None:
        return None
    if e.op in ("and", "or"):
        if not (isinstance(left, bool) and isinstance(right, bool)):
            return None
        return (left and right) if e.op == "and" else (left or right)
    if not (_is_number(left) and _is_number(right)):
        return None
    op = _ARITHMETIC.get(e.op) or _COMPARE.get(e.op)
    return op(left, right) if op else None


def constant(e) -> int | None:
    """The value of an arithmetic expression of numbers (`2`, `-1`, `(3 - 1)`); None if it
    reads a name, or divides by zero."""
    value = value_of(e)
    return value if _is_number(value) else None
