"""Hypothesis strategies for effect-language ASTs that the canonical printer can write and the
parser can read back: `parse(to_text(ast)) == ast` must hold for everything generated here.

What the printer and parser impose, and so what is never generated:

* names are lower_snake_case ASCII and not in RESERVED_NAMES (the parser refuses those);
  `target` is allowed, except as a call's verb: at the start of a statement `target` opens a
  `target <selector>: ...` statement, so `Call("target", ...)` has no spelling;
* `Neg(Num(v))` with v >= 0: the parser folds `-3` into `Num(-3)`. `Neg(Num(-3))` is fine
  (it prints `--3`);
* a Block directly inside a Block: the parser flattens `{ }` groups;
* empty blocks: the grammar needs at least one statement in every body;
* deep nesting: every body and every operator spends one level of a budget of MAX_NESTING (levels
  as the parser counts them against MAX_DEPTH), and an expression gets at most MAX_EXPR_NESTING
  of what is left, so effects stay small (a few hundred characters) and far inside the limits.
"""
from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import RESERVED_NAMES

MAX_NESTING = 5  # levels below the top block; MAX_DEPTH in the parser is far above this
MAX_EXPR_NESTING = 3  # an expression's own share of those levels, to keep effects short

ASSIGN_OPS = ("=", "+=", "-=", "*=")
BINARY_OPS = ("or", "and", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//")

# Names that sit right next to a keyword or a terminal of the grammar.
_TRICKY_NAMES = (
    "target", "counts", "count_", "anyway", "any2", "order", "notes", "nothing", "iffy",
    "in_play", "per_turn", "true_", "falsey", "each2", "oncer", "letter", "whence", "android",
    "x", "hp", "gold", "you", "it", "event",
)

_LETTERS = "abcdefghijklmnopqrstuvwxyz"

# [a-z][a-z0-9_]{0,7}, built by hand: st.from_regex is several times slower to draw from.
identifiers = st.builds(str.__add__, st.sampled_from(_LETTERS),
                        st.text(_LETTERS + "0123456789_", max_size=7))

names = st.one_of(st.sampled_from(_TRICKY_NAMES), identifiers).filter(
    lambda s: s not in RESERVED_NAMES)

verbs = names.filter(lambda s: s != "target")

paths = st.lists(names, min_size=1, max_size=3).map(lambda parts: n.Name(tuple(parts)))

nums = st.integers().map(n.Num)
bools = st.booleans().map(n.Bool)


def _not_folded(e) -> bool:
    """False for what the parser reads back as a literal: `-` before a non-negative number."""
    return not (isinstance(e, n.Num) and e.value >= 0)


@lru_cache(maxsize=None)
def selectors(budget: int) -> st.SearchStrategy[n.Selector]:
    """`kind [in zone] [where cond]`; the condition gets `budget` levels."""
    wheres = st.none() if budget < 0 else st.one_of(st.none(), exprs(budget))
    return st.builds(n.Selector, names, st.one_of(st.none(), names), wheres)


@lru_cache(maxsize=None)
def exprs(budget: int = MAX_NESTING) -> st.SearchStrategy:
    """Any expression whose operators nest at most `budget` levels."""
    leaves = st.one_of(
        nums, bools, paths,
        st.builds(n.Func, names, st.just(())),
    )
    if budget <= 0:
        return leaves
    inner = exprs(budget - 1)
    return st.one_of(
        leaves,
        st.builds(n.BinOp, st.sampled_from(BINARY_OPS), inner, inner),
        st.builds(n.Not, inner),
        st.builds(n.Neg, inner.filter(_not_folded)),
        st.builds(n.Func, names, st.lists(inner, max_size=3).map(tuple)),
        st.builds(n.Count, selectors(budget - 1)),
        st.builds(n.Any_, selectors(budget - 1)),
    )


def _heads(budget: int) -> st.SearchStrategy:
    """Expressions written in a statement: at most MAX_EXPR_NESTING of the levels left."""
    return exprs(min(budget, MAX_EXPR_NESTING))


def _args(budget: int):
    value = _heads(budget)
    return st.lists(st.one_of(value, st.builds(n.KwArg, names, value)), max_size=3).map(tuple)


@lru_cache(maxsize=None)
def calls(budget: int) -> st.SearchStrategy[n.Call]:
    return st.builds(n.Call, verbs, _args(budget))


@lru_cache(maxsize=None)
def simple_statements(budget: int) -> st.SearchStrategy:
    """Statements without a body: call, assignment, let, require."""
    expr = _heads(budget)
    return st.one_of(
        calls(budget),
        st.builds(n.Assign, paths, st.sampled_from(ASSIGN_OPS), expr),
        st.builds(n.Let, names, expr),
        st.builds(n.Require, expr),
    )


@lru_cache(maxsize=None)
def ifs_with_else(budget: int) -> st.SearchStrategy[n.If]:
    """`if c { a } else { b }`, and `else if` chains (an else block holding one such If)."""
    inner = budget - 1
    otherwise = blocks(inner)
    if inner >= 1:
        otherwise = st.one_of(otherwise, ifs_with_else(inner).map(lambda i: n.Block((i,))))
    return st.builds(n.If, _heads(inner), blocks(inner), otherwise)


@lru_cache(maxsize=None)
def compound_statements(budget: int) -> st.SearchStrategy:
    """Statements with bodies; the bodies and the expressions in the head get budget - 1."""
    inner = budget - 1
    body = blocks(inner)
    expr = _heads(inner)
    return st.one_of(
        st.builds(n.Cost, st.lists(calls(inner), min_size=1, max_size=3).map(tuple), body),
        st.builds(n.If, expr, body, st.none()),
        ifs_with_else(budget),
        st.builds(n.On, names, st.one_of(st.none(), expr), body),
        st.builds(n.When, expr, body),
        st.builds(n.Each, selectors(min(inner, MAX_EXPR_NESTING)), body),
        st.builds(n.Target, selectors(min(inner, MAX_EXPR_NESTING)), body),
        st.builds(n.During, names, body),
        st.builds(n.Once, names, body),
        st.builds(n.Repeat, expr, body),
        st.builds(n.May, body),
        st.builds(n.Continuous, body),
        st.builds(n.Choose, st.lists(body, min_size=2, max_size=3).map(tuple)),
    )


@lru_cache(maxsize=None)
def statements(budget: int = MAX_NESTING) -> st.SearchStrategy:
    if budget <= 0:
        return simple_statements(0)
    return st.one_of(simple_statements(budget), compound_statements(budget))


@lru_cache(maxsize=None)
def blocks(budget: int = MAX_NESTING) -> st.SearchStrategy[n.Block]:
    """One to three statements at the top, one or two in bodies (never a Block as a statement)."""
    size = 3 if budget == MAX_NESTING else 2
    return st.lists(statements(budget), min_size=1, max_size=size).map(lambda s: n.Block(tuple(s)))


effects = blocks(MAX_NESTING)
