"""One small test per rule of dsl/effects.lark, error positions and messages, and the limits."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import (KEYWORDS, MAX_DEPTH, MAX_EFFECT_LENGTH, RESERVED_NAMES,
                        EffectSyntaxError, parse)
from tomecraft.dsl.printer import to_text
from tests.dsl import corpus, strategies as s
from tests.dsl.builders import block, call, name


def expr(text):
    """The condition of `require <text>`."""
    (stmt,) = parse("require " + text).stmts
    return stmt.cond


def syntax_error(text) -> EffectSyntaxError:
    with pytest.raises(EffectSyntaxError) as info:
        parse(text)
    return info.value


A, B, C = call("a"), call("b"), call("c")
DRAW = call("draw", n.Num(1))
GAIN = call("gain", n.Num(1), name("gold"))


# --- simple statements -------------------------------------------------------------------

def test_call_takes_numbers_names_and_paths_as_arguments():
    assert parse("gain 2 gold") == block(call("gain", n.Num(2), name("gold")))
    assert parse("move self.pos 0") == block(call("move", name("self.pos"), n.Num(0)))


def test_call_without_arguments_is_a_bare_verb():
    assert parse("end_turn") == block(call("end_turn"))


def test_call_reads_a_minus_before_a_number_as_a_negative_argument():
    assert parse("move -1 0") == block(call("move", n.Num(-1), n.Num(0)))


def test_call_takes_booleans_queries_counts_and_parenthesised_expressions():
    assert parse("set true count(card) any(foe) has(camera) (a + 1)") == block(call(
        "set", n.Bool(True), n.Count(n.Selector("card")), n.Any_(n.Selector("foe")),
        n.Func("has", (name("camera"),)), n.BinOp("+", name("a"), n.Num(1))))


def test_call_takes_keyword_arguments():
    assert parse("draw 2 from=deck n=-1 k=(a * 2)") == block(call(
        "draw", n.Num(2), n.KwArg("from", name("deck")), n.KwArg("n", n.Num(-1)),
        n.KwArg("k", n.BinOp("*", name("a"), n.Num(2)))))


def test_function_call_needs_its_parenthesis_right_after_the_name():
    assert parse("draw f(a, b)") == block(call("draw", n.Func("f", (name("a"), name("b")))))
    assert parse("draw f()") == block(call("draw", n.Func("f", ())))


def test_name_then_spaced_parenthesis_is_two_call_arguments():
    assert parse("draw f (a + b)") == block(
        call("draw", name("f"), n.BinOp("+", name("a"), name("b"))))


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*="])
def test_assignment_takes_each_operator(op):
    assert parse(f"self.hp {op} 2 + x") == block(
        n.Assign(name("self.hp"), op, n.BinOp("+", n.Num(2), name("x"))))


def test_let_binds_a_name_to_an_expression():
    assert parse("let dmg = roll(2) * 2") == block(
        n.Let("dmg", n.BinOp("*", n.Func("roll", (n.Num(2),)), n.Num(2))))


def test_require_takes_a_condition():
    assert parse("require gold >= 2") == block(n.Require(n.BinOp(">=", name("gold"), n.Num(2))))


def test_semicolons_separate_statements_and_comments_and_newlines_are_ignored():
    text = "draw 1;  # first\n  gain 1 gold # second\n"
    assert parse(text) == block(DRAW, GAIN)


# --- cost ----------------------------------------------------------------------------------

def test_cost_lists_calls_before_the_arrow():
    assert parse("discard 1, pay ap 2 -> draw 1") == block(n.Cost(
        (call("discard", n.Num(1)), call("pay", name("ap"), n.Num(2))), block(DRAW)))


def test_cost_effect_runs_to_the_end_of_the_block():
    assert parse("pay 1 -> draw 1; gain 1 gold") == block(
        n.Cost((call("pay", n.Num(1)),), block(DRAW, GAIN)))


def test_cost_in_braces_ends_at_the_brace():
    assert parse("{ pay 1 -> draw 1 }; gain 1 gold") == block(
        n.Cost((call("pay", n.Num(1)),), block(DRAW)), GAIN)


def test_cost_effect_can_be_another_cost():
    assert parse("a -> b -> c") == block(n.Cost((A,), block(n.Cost((B,), block(C)))))


# --- compound statements, colon and braced ------------------------------------------------

SEL = n.Selector("card", "hand", n.BinOp(">", name("card.cost"), n.Num(2)))

# (head as written, node built from a body)
COMPOUND = [
    ("if x", lambda body: n.If(name("x"), body)),
    ("on play", lambda body: n.On("play", None, body)),
    ("on damaged where event.amount > 2",
     lambda body: n.On("damaged", n.BinOp(">", name("event.amount"), n.Num(2)), body)),
    ("when hp < 3", lambda body: n.When(n.BinOp("<", name("hp"), n.Num(3)), body)),
    ("each card in hand where card.cost > 2", lambda body: n.Each(SEL, body)),
    ("each foe", lambda body: n.Each(n.Selector("foe"), body)),
    ("target card in hand where card.cost > 2", lambda body: n.Target(SEL, body)),
    ("during round", lambda body: n.During("round", body)),
    ("once per turn", lambda body: n.Once("turn", body)),
    ("repeat 3", lambda body: n.Repeat(n.Num(3), body)),
    ("repeat -2", lambda body: n.Repeat(n.Num(-2), body)),
    ("repeat (n + 1)", lambda body: n.Repeat(n.BinOp("+", name("n"), n.Num(1)), body)),
    ("may", lambda body: n.May(body)),
    ("continuous", lambda body: n.Continuous(body)),
]
COMPOUND_IDS = [head for head, _ in COMPOUND]


@pytest.mark.parametrize(("head", "build"), COMPOUND, ids=COMPOUND_IDS)
def test_colon_body_runs_to_the_end_of_the_block(head, build):
    assert parse(f"{head}: draw 1; gain 1 gold") == block(build(block(DRAW, GAIN)))


@pytest.mark.parametrize(("head", "build"), COMPOUND, ids=COMPOUND_IDS)
def test_braced_body_ends_at_its_brace(head, build):
    assert parse(f"{head} {{ draw 1 }}; gain 1 gold") == block(build(block(DRAW)), GAIN)


@pytest.mark.parametrize(("head", "build"), COMPOUND, ids=COMPOUND_IDS)
def test_printer_writes_colon_body_when_last_and_braces_otherwise(head, build):
    assert to_text(block(build(block(DRAW)))) == f"{head}: draw 1"
    assert to_text(block(build(block(DRAW)), GAIN)) == f"{head} {{ draw 1 }}; gain 1 gold"


def test_colon_body_inside_braces_ends_at_the_brace():
    assert parse("if x { if y: a; b } else { c }") == block(
        n.If(name("x"), block(n.If(name("y"), block(A, B))), block(C)))


def test_if_else_takes_a_braced_block():
    assert parse("if x { a } else { b; c }") == block(n.If(name("x"), block(A), block(B, C)))


def test_else_if_chains_nest_in_the_else_block():
    assert parse("if x { a } else if y { b } else { c }") == block(
        n.If(name("x"), block(A), block(n.If(name("y"), block(B), block(C)))))


def test_else_if_without_final_else_nests_an_if_without_else():
    assert parse("if x { a } else if y { b }") == block(
        n.If(name("x"), block(A), block(n.If(name("y"), block(B)))))


def test_printer_writes_else_block_holding_one_if_with_else_as_else_if():
    ast = block(n.If(name("x"), block(A), block(n.If(name("y"), block(B), block(C)))))
    assert to_text(ast) == "if x { a } else if y { b } else { c }"


def test_else_needs_braces_or_if():
    err = syntax_error("if a { b } else c")
    assert (err.line, err.column) == (1, 17)
    assert "IF" in err.hint and "LBRACE" in err.hint


@pytest.mark.parametrize("text", ["if a: b; else: c", "if a: b else: c", "if a: b; else { c }",
                                  "if a { b } else: c"])
def test_an_else_after_a_colon_body_or_with_a_colon_shows_the_braces(text):
    """A newcomer's `if C: A; else: B` got only "unexpected ':'"."""
    assert syntax_error(text).hint == "two branches are written with braces: `if C { A } else { B }`"


def test_choose_separates_options_with_bars():
    assert parse("choose { a | b; c | if x: a }") == block(
        n.Choose((block(A), block(B, C), block(n.If(name("x"), block(A))))))


def test_choose_option_colon_body_ends_at_the_bar():
    assert parse("choose { if a: b; c | a }") == block(
        n.Choose((block(n.If(name("a"), block(B, C))), block(A))))


def test_choose_needs_two_options():
    err = syntax_error("choose { draw 1 }")
    assert (err.line, err.column) == (1, 17)
    assert "at least two options" in err.message and "|" in err.message


def test_choose_with_options_in_separate_braces_shows_the_form():
    """`choose { a } | { b }` read "needs at least two options separated by `|`", which the
    writer thought they had done; the message shows where the bar goes."""
    err = syntax_error("choose { draw 1 } | { gain gold 2 }")
    assert "`choose { draw 1 | gain gold 2 }`" in err.message, err.message


# --- groups --------------------------------------------------------------------------------

def test_brace_groups_flatten_into_the_enclosing_block():
    assert parse("{ a; { b } }; c") == block(A, B, C)
    assert parse("{ a }") == block(A)


def test_brace_group_inside_a_body_flattens_into_the_body():
    assert parse("if x { { a; b } }") == block(n.If(name("x"), block(A, B)))


def test_empty_braces_are_refused():
    err = syntax_error("if x {}")
    assert (err.line, err.column) == (1, 7)


# --- expressions ----------------------------------------------------------------------------

def test_and_binds_tighter_than_or():
    assert expr("a or b and c") == n.BinOp(
        "or", name("a"), n.BinOp("and", name("b"), name("c")))


def test_not_binds_looser_than_comparison_and_tighter_than_and():
    assert expr("not a == b") == n.Not(n.BinOp("==", name("a"), name("b")))
    assert expr("not a and b") == n.BinOp("and", n.Not(name("a")), name("b"))


def test_comparison_binds_looser_than_arithmetic():
    assert expr("a + b < c * d") == n.BinOp(
        "<", n.BinOp("+", name("a"), name("b")), n.BinOp("*", name("c"), name("d")))


def test_product_binds_tighter_than_sum():
    assert expr("a + b * c") == n.BinOp("+", name("a"), n.BinOp("*", name("b"), name("c")))


def test_binary_operators_associate_to_the_left():
    assert expr("a - b - c") == n.BinOp("-", n.BinOp("-", name("a"), name("b")), name("c"))
    assert expr("a // b * c") == n.BinOp("*", n.BinOp("//", name("a"), name("b")), name("c"))


def test_parentheses_override_precedence():
    assert expr("(a or b) and c") == n.BinOp(
        "and", n.BinOp("or", name("a"), name("b")), name("c"))


def test_minus_before_a_number_is_a_negative_literal_that_binds_tightest():
    assert expr("-3 * a") == n.BinOp("*", n.Num(-3), name("a"))
    assert expr("- 3") == n.Num(-3)


def test_minus_before_a_name_is_negation_that_binds_tighter_than_product():
    assert expr("-a * b") == n.BinOp("*", n.Neg(name("a")), name("b"))


def test_binary_minus_followed_by_unary_minus():
    assert expr("a - -b") == n.BinOp("-", name("a"), n.Neg(name("b")))
    assert expr("a - -3") == n.BinOp("-", name("a"), n.Num(-3))


def test_double_minus_negates_a_negative_literal():
    assert expr("--3") == n.Neg(n.Num(-3))
    assert to_text(n.Neg(n.Num(-3))) == "--3"


def test_every_comparison_operator_parses():
    for op in ("==", "!=", "<", "<=", ">", ">="):
        assert expr(f"a {op} 1") == n.BinOp(op, name("a"), n.Num(1))


def test_comparisons_do_not_chain():
    err = syntax_error("require a < b < c")
    assert (err.line, err.column) == (1, 15)
    assert "do not chain" in err.hint and "and" in err.hint


def test_parenthesised_comparison_can_be_compared():
    assert expr("(a < b) == c") == n.BinOp("==", n.BinOp("<", name("a"), name("b")), name("c"))


def test_count_takes_a_selector_with_zone_and_condition():
    assert expr("count(x in y where z)") == n.Count(n.Selector("x", "y", name("z")))
    assert expr("count(x where a and b)") == n.Count(
        n.Selector("x", None, n.BinOp("and", name("a"), name("b"))))


def test_any_takes_a_selector():
    assert expr("any(foe in room)") == n.Any_(n.Selector("foe", "room"))


def test_function_arguments_are_full_expressions():
    assert expr("roll(2 + n, not x)") == n.Func(
        "roll", (n.BinOp("+", n.Num(2), name("n")), n.Not(name("x"))))


def test_booleans_and_dotted_paths():
    assert expr("true") == n.Bool(True)
    assert expr("false") == n.Bool(False)
    assert expr("event.source.hp") == name("event.source.hp")


# --- names and keywords --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "word", "line", "column"), [
    ("gain 2 gold if x", "if", 1, 13),
    ("let in = 3", "in", 1, 5),
    ("require a.count", "count", 1, 11),
    ("x.if = 1", "if", 1, 3),
    ("draw n=each", "each", 1, 8),
    ("draw 1;\n  gain 2 gold when", "when", 2, 15),
    ("on play where x > 1 {\n  draw 1;\n  gain 2 gold if x\n}", "if", 3, 15),
    ("require not(a)", "not", 1, 9),
    ("draw true(x)", "true", 1, 6),
])
def test_keyword_used_as_a_name_is_refused_at_its_position(text, word, line, column):
    err = syntax_error(text)
    assert err.message == f"{word!r} is a reserved word and cannot be used as a name here"
    assert (err.line, err.column) == (line, column)
    assert "reserved words:" in err.hint


def test_keyword_used_as_a_query_name_gets_a_query_hint():
    assert syntax_error("require not(a)").hint.startswith("reserved words cannot name a query")


def test_keyword_used_as_a_name_hints_at_a_missing_semicolon():
    assert syntax_error("gain 2 gold if x").hint.startswith("separate statements with `;`")


def test_every_reserved_word_is_refused_as_a_let_name():
    for word in sorted(RESERVED_NAMES):
        with pytest.raises(EffectSyntaxError):
            parse(f"let {word} = 1")


def test_target_is_the_only_keyword_allowed_as_a_name():
    assert KEYWORDS - RESERVED_NAMES == {"target"}


def test_target_is_allowed_as_a_name_in_expressions_and_arguments():
    assert parse("damage target 1") == block(call("damage", name("target"), n.Num(1)))
    assert parse("let target = 1") == block(n.Let("target", n.Num(1)))
    assert parse("draw target=1") == block(call("draw", n.KwArg("target", n.Num(1))))
    assert expr("target.hp > 0") == n.BinOp(">", name("target.hp"), n.Num(0))
    assert expr("target(x)") == n.Func("target", (name("x"),))
    assert parse("on target: a") == block(n.On("target", None, block(A)))


def test_target_heads_an_assignment_at_the_start_of_a_statement():
    assert parse("target.hp -= 2") == block(n.Assign(name("target.hp"), "-=", n.Num(2)))
    assert parse("draw 1; target = 0") == block(DRAW, n.Assign(name("target"), "=", n.Num(0)))


def test_target_statement_binds_target_for_its_body():
    assert parse("target foe where target.hp > 0: damage target 1") == block(n.Target(
        n.Selector("foe", None, n.BinOp(">", name("target.hp"), n.Num(0))),
        block(call("damage", name("target"), n.Num(1)))))


def test_names_that_start_with_a_keyword_are_plain_names():
    assert parse("iffy counts anyway in_play") == block(
        call("iffy", name("counts"), name("anyway"), name("in_play")))
    assert expr("counts(x) + anything(y)") == n.BinOp(
        "+", n.Func("counts", (name("x"),)), n.Func("anything", (name("y"),)))


# --- error positions and messages -----------------------------------------------------------

# (effect, line, column, text the message must contain, text the hint must contain)
MALFORMED = [
    ("if x draw 1", 1, 6, "`:` or `{` must follow", ""),
    ("discard 1 ->", 1, 11, "a cost needs an effect after `->`", ""),
    ("draw 1 ->;", 1, 10, "a cost needs an effect after `->`", ""),
    # a cost list without `->` was "the effect ends too early", hint "expected one of: COMMA"
    ("pay ap 3, spend consumable 1", 1, 28, "costs joined by `,` need `->`", "`->`"),
    ("pay ap 3, spend rope 1; draw 1", 1, 23, "costs joined by `,` need `->`", "`->`"),
    ("draw 1;; gain 1 gold", 1, 8, "`;`", ""),
    ("if x { draw 1", 1, 13, "not closed", "RBRACE"),
    ("require a and", 1, 11, "missing its right-hand side", ""),
    ("gain 2 Gold", 1, 8, "unexpected character 'G'", "lower_snake_case"),
    ("gain 2 金币", 1, 8, "unexpected character '金'", "ASCII"),
    # punctuation of a Chinese input method or an editor, named with the ASCII one to type:
    # the hint said "names are ASCII lower_snake_case; Chinese and English text comes from game.yaml"
    ("draw 1；gain 2 gold", 1, 7, "unexpected character '；'", "FULLWIDTH SEMICOLON) looks like `;`"),
    ("if x（ draw 1 ）", 1, 5, "unexpected character '（'", "type `(`"),
    ("draw １", 1, 6, "unexpected character '１'", "type `1`"),
    ("\u201cdraw 1\u201d", 1, 1, "unexpected character '\u201c'", "curly quote, not `\"`"),
    ("draw 1\u3000gain 2 gold", 1, 7, "unexpected character", "type a plain space"),
    ('draw "card"', 1, 6, "unexpected character '\"'", "no quoted text"),
    ("draw 1;\ngain 2 gold;\n  if x { draw @ }", 3, 15, "unexpected character '@'", ""),
    ("on play where x {\n  draw 1\n", 2, 8, "ends too early", "RBRACE"),
    ("once turn: draw 1", 1, 6, "unexpected 'turn'", "PER"),
    ("let x 3", 1, 7, "unexpected '3'", "EQUAL"),
    ("", 1, 1, "the effect is empty", ""),
    ("   # only a comment", 1, 1, "the effect is empty", ""),
]


@pytest.mark.parametrize(("text", "line", "column", "message", "hint"), MALFORMED,
                         ids=[repr(case[0]) for case in MALFORMED])
def test_malformed_effect_is_reported_at_its_line_and_column(text, line, column, message, hint):
    err = syntax_error(text)
    assert (err.line, err.column) == (line, column)
    assert message in err.message
    assert hint in err.hint
    assert str(err) == err.message


def test_errors_at_the_end_of_the_effect_point_at_its_last_token():
    err = syntax_error("require a <")
    assert (err.line, err.column) == (1, 11)
    assert "missing its right-hand side" in err.message


@pytest.mark.parametrize("text", ["let x == 3", "draw 1 == 2", "x ==== 1"])
def test_comparison_in_the_wrong_place_gets_no_chaining_hint(text):
    assert "chain" not in syntax_error(text).hint


def test_space_between_count_and_its_parenthesis_is_a_syntax_error_not_a_crash():
    # Lark 1.3's match_examples raised TypeError here ("%d format: ... not ParserState")
    err = syntax_error("require count (x)")
    assert (err.line, err.column) == (1, 15)
    assert err.message == "unexpected '('"


# --- limits ----------------------------------------------------------------------------------

def _draws(length: int) -> str:
    """A valid effect of exactly `length` characters: `draw 1; draw 1; ...` padded with spaces."""
    text = "draw 1" + "; draw 1" * ((length - 6) // 8)
    return text + " " * (length - len(text))


def test_effect_of_the_maximum_length_parses():
    text = _draws(MAX_EFFECT_LENGTH)
    assert len(text) == MAX_EFFECT_LENGTH
    assert len(parse(text).stmts) == (MAX_EFFECT_LENGTH - 6) // 8 + 1


def test_effect_longer_than_the_maximum_is_refused():
    err = syntax_error(_draws(MAX_EFFECT_LENGTH + 1))
    assert (err.line, err.column) == (1, 1)
    assert str(MAX_EFFECT_LENGTH) in err.message and err.hint


def _nested_ifs(depth: int, colon: bool) -> str:
    if colon:
        return "if a: " * depth + "draw 1"
    return "if a { " * depth + "draw 1" + " }" * depth


# (name, effect nested `depth` levels deep)
NESTINGS = [
    ("braces", lambda d: "{ " * d + "draw 1" + " }" * d),
    ("parentheses", lambda d: "require " + "(" * d + "a" + ")" * d),
    ("braced bodies", lambda d: _nested_ifs(d, colon=False)),
    ("colon bodies", lambda d: _nested_ifs(d, colon=True)),
    ("not", lambda d: "require " + "not " * d + "a"),
    ("minus", lambda d: "require " + "-" * d + "a"),
    ("operator chain", lambda d: "require a" + " + a" * d),
    ("queries", lambda d: "require " + "f(" * d + "a" + ")" * d),
    ("cost chain", lambda d: "pay 1 -> " * d + "draw 1"),
]
NESTING_IDS = [case[0] for case in NESTINGS]


@pytest.mark.parametrize(("kind", "nest"), NESTINGS, ids=NESTING_IDS)
def test_nesting_at_the_maximum_depth_parses_and_prints(kind, nest):
    ast = parse(nest(MAX_DEPTH))
    assert parse(to_text(ast)) == ast


@pytest.mark.parametrize(("kind", "nest"), NESTINGS, ids=NESTING_IDS)
def test_nesting_deeper_than_the_maximum_is_refused(kind, nest):
    err = syntax_error(nest(MAX_DEPTH + 1))
    assert (err.line, err.column) == (1, 1)
    assert "nests" in err.message


@pytest.mark.parametrize(("kind", "nest"), NESTINGS, ids=NESTING_IDS)
def test_nesting_far_past_the_recursion_limit_is_a_syntax_error(kind, nest):
    depth = 1
    while len(nest(depth * 2)) <= MAX_EFFECT_LENGTH:
        depth *= 2
    err = syntax_error(nest(depth))  # about 500 to 2000 levels, not a RecursionError
    assert "nests" in err.message


# --- fuzz ------------------------------------------------------------------------------------

FUZZ = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])

TOKENS = sorted(KEYWORDS | {
    "a", "b", "gold", "f(", "count(", "any(", "(", ")", "{", "}", ":", ";", ",", "|", "->",
    "=", "+=", "-=", "*=", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", ".", "0",
    "12", "#", "\n", "per turn",
})


def _check_parse(text: str) -> None:
    """parse() returns a Block that prints and reads back, or raises EffectSyntaxError at a
    position inside the text."""
    try:
        ast = parse(text)
    except EffectSyntaxError as err:
        lines = text.split("\n")
        assert 1 <= err.line <= len(lines), (err.line, text)
        assert 1 <= err.column <= len(lines[err.line - 1]) + 1, (err.column, text)
        assert err.message
        return
    assert isinstance(ast, n.Block)
    assert parse(to_text(ast)) == ast


@FUZZ
@given(st.text())
def test_any_text_parses_or_raises_effect_syntax_error(text):
    _check_parse(text)


@FUZZ
@given(st.text(alphabet="abfinotuwy_0123456789 \n\t(){}:;,|-=+*/<>!.#\"'A金", max_size=60))
def test_text_of_grammar_characters_parses_or_raises_effect_syntax_error(text):
    _check_parse(text)


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join))
def test_token_soup_parses_or_raises_effect_syntax_error(text):
    _check_parse(text)


DAMAGES = ("", ";", "{", ")", "if")


# Drawing a printed effect is what costs here (a recursive strategy, ~30 ms a draw); parsing
# is cheap, so each of the first 60 effects of the shared draw (tests/dsl/corpus.py) is damaged
# at up to 5 places (seeded by its position) with every insert.
@corpus.SHARED
def test_damaged_printed_effect_parses_or_raises_effect_syntax_error():
    for index, ast in enumerate(corpus.effects()[:60]):
        text = to_text(ast)
        rng = random.Random(index)
        for _ in range(rng.randint(1, 5)):
            cut = rng.randrange(len(text) + 1)
            for insert in DAMAGES:
                _check_parse(text[:cut] + insert + text[cut + 1:])


@pytest.mark.parametrize("text, column, fix, fixed", [
    ("clank -amount", 8, "(-amount)", "clank (-amount)"),
    ("gain_token photo - x", 20, "(-x)", "gain_token photo (-x)")])
def test_a_bare_minus_before_a_name_hints_at_brackets(text, column, fix, fixed):
    """An argument's `-` takes a number only (`clank -2`); `clank -amount` was refused with
    "expected one of: INT", which does not say that `clank (-amount)` is the way."""
    err = syntax_error(text)
    assert (err.line, err.column) == (1, column)
    assert f"`{fix}`" in err.hint and "brackets" in err.hint
    parse(fixed)                                    # the hint's way parses
