"""The canonical printer and the parser agree: parse(to_text(ast)) == ast for every AST the
printer can write (see strategies.py for what that excludes and why)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import RESERVED_NAMES, parse
from tomecraft.dsl.printer import to_text
from tests.dsl import corpus, strategies as s
from tests.dsl.builders import block, call, name

# Deterministic for CI. Whole effects take tens of ms each to draw, which a slow runner could
# otherwise report as a failed health check; the test of every printed effect reads the shared
# draw of tests/dsl/corpus.py instead (150 effects: it asserts they cover every kind and mark).
ROUNDTRIP = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow])


DRAW = call("draw", n.Num(1))
ELSE_IF = block(n.If(name("a"), block(DRAW), block(n.If(name("b"), block(DRAW), block(DRAW)))))

# Shapes the printer has a special case for, pinned whatever the generator happens to draw.
TRICKY = [
    block(n.Assign(name("target.hp"), "-=", n.Num(2))),           # `target` heads a path
    block(n.Assign(name("target"), "=", n.Num(0)), DRAW),
    block(n.Require(n.Neg(n.Num(-3)))),                            # prints `--3`
    block(n.Require(n.BinOp("-", name("a"), n.Num(-3)))),          # prints `a - -3`
    block(n.Require(n.BinOp("*", n.Num(-3), name("a")))),          # `-3 * a`, not -(3 * a)
    block(n.Require(n.Neg(n.BinOp("*", name("a"), name("b"))))),   # `-(a * b)`
    block(n.Require(n.BinOp("==", n.BinOp("<", name("a"), name("b")), n.Bool(True)))),
    block(n.Require(n.Not(n.BinOp("and", name("a"), name("b"))))),
    block(n.Require(n.BinOp("-", name("a"), n.BinOp("-", name("b"), name("c"))))),
    block(call("deal", n.Neg(name("a")), n.KwArg("n", n.BinOp("+", name("a"), n.Num(1))))),
    block(call("draw", name("f"), name("a")), call("draw", n.Func("f", (name("a"),)))),
    block(n.Cost((call("pay", name("ap"), n.Num(1)),), block(DRAW)), DRAW),  # `{ cost }; ...`
    ELSE_IF,                                                       # `else if`
    block(n.If(name("a"), block(DRAW), block(n.If(name("b"), block(DRAW))))),
    block(n.If(name("a"), block(n.If(name("b"), block(DRAW))), block(DRAW))),
    block(n.Choose((block(n.May(block(DRAW, DRAW))), block(DRAW)))),
    block(n.Each(n.Selector("card", "hand", n.Any_(n.Selector("x", None, name("y")))),
                 block(DRAW))),
]


def _assert_roundtrip(ast: n.Block) -> None:
    text = to_text(ast)
    assert parse(text) == ast, text


def _assert_reprints(ast: n.Block) -> None:
    text = to_text(ast)
    assert to_text(parse(text)) == text


MARKS = (": ", " { ", " else if ", " else { ", " -> ", " | ")


@corpus.SHARED
def test_parse_reads_back_every_printed_effect_and_reprints_it_and_the_effects_cover_every_kind():
    """One draw of 150 effects (tests/dsl/corpus.py, shared with the renderer's and the
    damaged-effect property) for four properties: parse reads back every printed effect,
    printing the parsed effect reproduces the text, the generator covers every node kind and
    operator, and the printed effects use both colon and braced bodies."""
    kinds: set[str] = set()
    marks: set[str] = set()
    for ast in corpus.effects():
        _assert_roundtrip(ast)
        _assert_reprints(ast)
        kinds.update(_kinds(ast))
        marks.update(mark for mark in MARKS if mark in to_text(ast))
    assert EXPECTED_KINDS - kinds == set()
    assert marks == set(MARKS)


def test_parse_reads_back_the_printers_special_cases():
    for ast in TRICKY:
        _assert_roundtrip(ast)


def test_printing_a_parsed_special_case_reproduces_the_text():
    for ast in TRICKY:
        _assert_reprints(ast)


@ROUNDTRIP
@given(s.exprs())
def test_every_printed_expression_reads_back_inside_require(expr):
    assert parse("require " + to_text(expr)) == block(n.Require(expr))


def _kinds(ast: n.Block) -> set[str]:
    """Node kinds, operators and optional parts present in `ast`."""
    found = set()
    for node in n.walk(ast):
        kind = type(node).__name__
        found.add(kind)
        if isinstance(node, (n.BinOp, n.Assign)):
            found.add(f"{kind}:{node.op}")
        elif isinstance(node, n.Num) and node.value < 0:
            found.add("Num:negative")
        elif isinstance(node, n.Neg) and isinstance(node.operand, n.Num):
            found.add("Neg:Num")
        elif isinstance(node, n.Name) and len(node.parts) > 1:
            found.add("Name:path")
        elif isinstance(node, n.If):
            if node.otherwise is None:
                found.add("If:no-else")
            elif len(node.otherwise.stmts) == 1 and isinstance(node.otherwise.stmts[0], n.If):
                found.add("If:else-if")
            else:
                found.add("If:else")
        elif isinstance(node, n.On):
            found.add("On:where" if node.where is not None else "On:plain")
        elif isinstance(node, n.Selector):
            found.update(f"Selector:{part}" for part in ("zone", "where")
                         if getattr(node, part) is not None)
        elif isinstance(node, n.Choose) and len(node.options) > 2:
            found.add("Choose:3")
        elif isinstance(node, n.Block) and any(isinstance(x, n.Cost) for x in node.stmts[:-1]):
            found.add("Cost:not-last")  # printed inside `{ }`
    return found


EXPECTED_KINDS = (
    {cls.__name__ for cls in (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_, n.BinOp, n.Not,
                              n.Neg, n.KwArg, n.Call, n.Assign, n.Let, n.Require, n.Block,
                              n.Selector, n.Cost, n.If, n.On, n.When, n.Each, n.Target,
                              n.During, n.Once, n.Repeat, n.May, n.Continuous, n.Choose)}
    | {f"BinOp:{op}" for op in s.BINARY_OPS}
    | {f"Assign:{op}" for op in s.ASSIGN_OPS}
    | {"Num:negative", "Neg:Num", "Name:path", "If:no-else", "If:else", "If:else-if",
       "On:where", "On:plain", "Selector:zone", "Selector:where", "Choose:3", "Cost:not-last"}
)




@given(st.data())
@settings(ROUNDTRIP, max_examples=50)
def test_generated_names_are_never_reserved(data):
    assert data.draw(s.names) not in RESERVED_NAMES
    assert data.draw(s.verbs) != "target"
