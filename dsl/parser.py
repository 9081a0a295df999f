"""Parse effect strings into dsl.nodes with positions, or raise EffectSyntaxError."""
from __future__ import annotations

import os
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.exceptions import UnexpectedToken

from tomecraft.dsl import nodes as n

GRAMMAR = Path(__file__).with_name("effects.lark")
MAX_EFFECT_LENGTH = 4000  # characters; card text never comes near this
MAX_DEPTH = 40           # nested blocks/parentheses; beyond this Python recursion is at risk

KEYWORDS = frozenset({
    "on", "when", "if", "else", "choose", "may", "each", "target", "during", "continuous",
    "once", "per", "repeat", "require", "let", "where", "in", "and", "or", "not", "true",
    "false", "count", "any",
})


# `target` is both a statement keyword and the name it binds, so it may appear as a name.
RESERVED_NAMES = KEYWORDS - {"target"}


class EffectSyntaxError(Exception):
    """A syntax error at a 1-based line and column of the effect string."""

    def __init__(self, message: str, line: int, column: int, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint


@lru_cache(maxsize=1)
def _lark() -> Lark:
    # Building the LALR tables takes 80 ms a process; Lark's cache (keyed by the grammar, the
    # options and Lark's version, rebuilt when they change) loads them in 4 ms. The transformer
    # runs inside the parser (no parse tree is built: half the time of parse-then-transform);
    # positions come from the tokens.
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", transformer=_ToNodes(),
                maybe_placeholders=True, cache=_cache_file("effects-lark.pickle"))


def prepare() -> None:
    """Load the parser now (a build does, before forking its workers, which then share it)."""
    _lark()


@lru_cache(maxsize=1)
def _tree_lark() -> Lark:
    """The same grammar building a parse tree, for the error paths: a syntax error anywhere
    in the text is reported before a misused name (which the transformer finds on the way),
    and the labelled examples are matched by where the parser stops."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", maybe_placeholders=True,
                cache=_cache_file("effects-lark-tree.pickle"))


def user_cache_folder() -> str | None:
    """The user's tomecraft cache (like __pycache__: safe to delete): $TOMECRAFT_CACHE, else
    $XDG_CACHE_HOME/tomecraft (~/.cache), created if need be; None when it is not writable.
    Never a folder relative to where tomecraft runs: a relative $XDG_CACHE_HOME is ignored (as
    the XDG spec says), and with no home (HOME unset, a user with no passwd entry, as in a
    container) `~` stays `~`, so there is no user cache."""
    folder = os.environ.get("TOMECRAFT_CACHE")
    if not folder or not os.path.isabs(folder):
        # a relative $TOMECRAFT_CACHE is ignored as a relative $XDG_CACHE_HOME is: it named a
        # folder of the working directory, a fan's repository, whose planted compiled games
        # (Python) and parser tables (a pickle) were then loaded as code
        xdg = os.environ.get("XDG_CACHE_HOME") or ""
        base = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "tomecraft")
        if not os.path.isabs(folder):
            return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) and private_folder(folder) else None


def private_folder(folder: str) -> bool:
    """Whether only this user can write into `folder`: their own, not writable by everyone
    (a shared /tmp/cache). What the cache holds is loaded as code: anyone else able to put a
    package there would run theirs as this user."""
    if not hasattr(os, "geteuid"):   # Windows: no owners to compare
        return True
    try:
        info = os.stat(folder)
    except OSError:
        return False
    return info.st_uid == os.geteuid() and not info.st_mode & 0o002


def _cache_file(name: str) -> str | bool:
    """A file of the user's cache for the parser tables, else False (no cache)."""
    folder = user_cache_folder()
    return os.path.join(folder, name) if folder else False


class _KeywordAsName(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


class _ArgumentOnNewLine(Exception):
    def __init__(self, pos: n.Pos) -> None:
        super().__init__("argument on a new line")
        self.pos = pos


def _name(token: Token) -> str:
    """A vocabulary name; reserved words are refused so `gain 2 gold if x` is not 5 args."""
    if str(token) in RESERVED_NAMES:
        raise _KeywordAsName(token)
    return str(token)


def _pos(meta_or_token) -> n.Pos:
    line = getattr(meta_or_token, "line", None)
    column = getattr(meta_or_token, "column", None)
    if line is None:
        return n.Pos()
    return n.Pos(line, column)


def _block(items) -> n.Block:
    stmts = []
    for item in items:
        if isinstance(item, n.Block):  # a `{ ... }` group inside a block is just a sequence
            stmts.extend(item.stmts)
        else:
            stmts.append(item)
    return n.Block(tuple(stmts))


class _ToNodes(Transformer):
    """One method per grammar rule (Lark's Transformer), building dsl.nodes."""

    def start(self, items):
        return items[0]

    def block(self, items):
        return _block(items)

    def group(self, items):
        return items[0]

    # statements
    def call(self, items):
        name, *args = items
        for arg in args:
            # A new line is not a separator, so `draw 1 <newline> gain 2 gold` would read as one
            # call with four arguments; refuse it where the next line starts.
            pos = getattr(arg, "pos", None)
            if pos is not None and pos.line != name.line:
                raise _ArgumentOnNewLine(pos)
        return n.Call(_name(name), tuple(args), _pos(name))

    def kwarg(self, items):
        return n.KwArg(_name(items[0]), items[1], _pos(items[0]))

    def neg_int(self, items):
        return n.Num(-items[1].value, items[1].pos)

    def assign(self, items):
        target, op, value = items
        return n.Assign(target, str(op), value, target.pos)

    def let(self, items):
        return n.Let(_name(items[0]), items[1], _pos(items[0]))

    def require(self, items):
        return n.Require(items[0])

    def cost(self, items):
        *costs, effect = items
        return n.Cost(tuple(costs), effect, costs[0].pos)

    def colon_if(self, items):
        return n.If(items[0], items[1], None)

    def braced_if(self, items):
        cond, then, otherwise = items[0], items[1], items[2] if len(items) > 2 else None
        return n.If(cond, then, otherwise)

    def else_part(self, items):
        item = items[0]
        return item if isinstance(item, n.Block) else n.Block((item,))

    def _on(self, items):
        name, where, body = items
        return n.On(_name(name), where, body, _pos(name))

    colon_on = braced_on = _on

    def _when(self, items):
        return n.When(items[0], items[1])

    colon_when = braced_when = _when

    def _each(self, items):
        return n.Each(items[0], items[1], items[0].pos)

    colon_each = braced_each = _each

    def _target(self, items):
        return n.Target(items[0], items[1], items[0].pos)

    colon_target = braced_target = _target

    def _during(self, items):
        return n.During(_name(items[0]), items[1], _pos(items[0]))

    colon_during = braced_during = _during

    def _once(self, items):
        return n.Once(_name(items[0]), items[1], _pos(items[0]))

    colon_once = braced_once = _once

    def _repeat(self, items):
        return n.Repeat(items[0], items[1])

    colon_repeat = braced_repeat = _repeat

    def _may(self, items):
        return n.May(items[0])

    colon_may = braced_may = _may

    def _continuous(self, items):
        return n.Continuous(items[0])

    continuous_c = continuous_b = _continuous

    def choose(self, items):
        return n.Choose(tuple(items))

    def selector(self, items):
        kind = items[0]
        zone = None
        where = None
        for item in items[1:]:
            if isinstance(item, Token):
                zone = _name(item)
            elif item is not None:
                where = item
        return n.Selector(_name(kind), zone, where, _pos(kind))

    def where(self, items):
        return items[0]

    # expressions
    def INT(self, token):
        return n.Num(int(token), _pos(token))

    def TRUE(self, token):
        return n.Bool(True, _pos(token))

    def FALSE(self, token):
        return n.Bool(False, _pos(token))

    def path(self, items):
        return n.Name(tuple(_name(t) for t in items), _pos(items[0]))

    def target_path(self, items):
        keyword, *fields = items     # the TARGET token, then the names after it
        return n.Name(("target", *(_name(t) for t in fields)), _pos(keyword))

    def func(self, items):
        head, *args = items
        args = tuple(a for a in args if a is not None)
        # `not(x)` must not silently become a query named "not"
        name = _name(Token.new_borrow_pos("QUERY_NAME", str(head)[:-1], head))
        return n.Func(name, args, _pos(head))

    def count(self, items):
        return n.Count(items[1], _pos(items[0]))

    def any(self, items):
        return n.Any_(items[1], _pos(items[0]))

    def _binary(self, items):
        left = items[0]
        for i in range(1, len(items), 2):
            left = n.BinOp(str(items[i]), left, items[i + 1], left.pos)
        return left

    or_expr = and_expr = compare = sum = product = _binary

    def not_(self, items):
        return n.Not(items[1], _pos(items[0]))

    def neg(self, items):
        operand = items[1]
        if isinstance(operand, n.Num) and operand.value >= 0:
            # `-3` is a literal; the printer writes negative literals this way
            return n.Num(-operand.value, operand.pos)
        return n.Neg(operand, operand.pos)



# Known mistakes mapped to friendly messages (Lark's match_examples).
_EXAMPLES = {
    "the effect is empty": ["", "# only a comment"],
    "a cost needs an effect after `->`": ["discard 1 ->", "pay ap 1 -> "],
    # costs joined by `,` are a cost list: it ends in `->` and what the costs buy
    "costs joined by `,` need `->` and an effect after them": ["discard 1, draw 2",
                                                               "discard 1, draw 2; draw 1"],
    "expected a statement after `;`": ["draw 1;; gain 1 gold", "draw 1;"],
    "an effect cannot start with `;`": ["; draw 1"],
    "`:` or `{` must follow the condition or name": ["if x draw 1", "on play draw 1"],
    "a block opened with `{` is not closed": ["if x { draw 1", "choose { a | b"],
    # "choose { a } | { b }" stops where "choose { a }" does: the message shows the form
    "`choose` needs at least two options inside one pair of braces, separated by `|`: "
    "`choose { draw 1 | gain gold 2 }`": ["choose { draw 1 }", "choose { draw 1 } | { draw 2 }"],
    "an operator is missing its right-hand side": ["if x >=: draw 1", "require a and"],
}


# Nodes that open a nesting level: a body, or an operator or query inside an expression.
_NESTING = (n.Block, n.BinOp, n.Not, n.Neg, n.Func, n.Count, n.Any_)


def _nesting(block: n.Block) -> int:
    """How many levels bodies and operators nest below the top block; stops past MAX_DEPTH.

    Colon bodies (`if a: if b: ...`), `not`/`-` chains and long operator chains nest without
    brackets, so _depth_ok cannot see them. Iterative: the AST may be deeper than the recursion
    limit, which is exactly what this guards the printer and the compiler against.
    """
    deepest = 0
    stack = [(block, 0)]
    while stack and deepest <= MAX_DEPTH:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        for field in node.__dataclass_fields__:
            if field == "pos":
                continue
            value = getattr(node, field)
            for child in value if isinstance(value, tuple) else (value,):
                if hasattr(child, "__dataclass_fields__"):
                    stack.append((child, depth + isinstance(child, _NESTING)))
    return deepest


def _example_label(err: UnexpectedInput) -> str | None:
    """The _EXAMPLES label whose example fails like `err` does.

    Lark's own `err.match_examples(..., use_accepts=True)` does the same, but on Lark 1.3 it
    raises TypeError ("%d format: ... not ParserState") from a debug message whenever an example
    stops in the same parser state with different accepted tokens, e.g. for `require count (x)`.
    """
    candidate = None
    for label, ut in _example_failures():
        if ut.state != err.state:
            continue
        if (isinstance(err, UnexpectedToken) and isinstance(ut, UnexpectedToken)
                and ut.accepts != err.accepts):
            continue
        if getattr(ut, "token", None) == getattr(err, "token", None):
            return label
        candidate = candidate or label
    return candidate


@lru_cache(maxsize=1)
def _example_failures() -> tuple[tuple[str, UnexpectedInput], ...]:
    """(label, how the tree parser refuses it) of every _EXAMPLES example, in order, found
    once per process (each refused effect was matched against all of them)."""
    found = []
    for label, examples in _EXAMPLES.items():
        for example in examples:
            try:
                _tree_lark().parse(example)
            except UnexpectedInput as ut:
                found.append((label, ut))
    return tuple(found)


def _depth_ok(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "({":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in ")}":
            depth -= 1
    return True


def _describe(err: UnexpectedInput) -> str:
    if isinstance(err, UnexpectedCharacters):
        return f"unexpected character {err.char!r}"
    if isinstance(err, UnexpectedEOF):
        return "the effect ends too early"
    token = getattr(err, "token", None)
    if token is not None and token.type == "$END":
        return "the effect ends too early"
    return f"unexpected {str(token)!r}" if token is not None else "syntax error"


def _expected_hint(err: UnexpectedInput) -> str:
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or [])
    # an anonymous terminal (`->`) is named by its text: dropped, `pay ap 1, spend rope 1`
    # was told "expected one of: COMMA" only, and a second comma does not mend it
    words = [_literal(e) if e.startswith("__ANON") else e for e in expected
             if (e.startswith("__ANON") or not e.startswith("_")) and e not in ("$END",)]
    if not words or len(words) > 8:
        return ""
    return "expected one of: " + ", ".join(words)


def _literal(terminal: str) -> str:
    pattern = _tree_lark().get_terminal(terminal).pattern
    return f"`{pattern.value}`" if pattern.type == "str" else terminal


# Punctuation an editor or an input method writes for the ASCII one (NFKC folds the full-width
# forms, `；` to `;`, but not these)
_PUNCTUATION = {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'",
                "\u3001": ",", "\u3002": ".", "\u2212": "-", "\u2013": "-", "\u2014": "-",
                "\u00d7": "*", "\u3000": " ", "\u00a0": " "}


def _look_alike(char: str) -> str:
    """The hint for a character that looks like an ASCII one but is not (`；`, full-width, from
    a Chinese input method; `“`, an editor's curly quote): `spawn_at_exits grunt 1；activate`
    was told "names are ASCII lower_snake_case; Chinese and English text comes from game.yaml"."""
    folded = unicodedata.normalize("NFKC", char)
    ascii_char = _PUNCTUATION.get(char) or (folded if len(folded) == 1 and folded.isascii()
                                            and folded.isprintable() else "")
    if not ascii_char:
        return ""
    name = unicodedata.name(char, "")
    shown = "a plain space" if ascii_char == " " else f"`{ascii_char}`"
    what = f" (U+{ord(char):04X}{' ' + name if name else ''})"
    if ascii_char in "\"'":
        return (f"{char!r}{what} is an editor's curly quote, not {shown}: type {shown} "
                "(or leave it out: effects hold no quoted text)")
    return f"{char!r}{what} looks like {shown} but is another character: type {shown}"


def _hint(err: UnexpectedInput, text: str) -> str:
    if isinstance(err, UnexpectedCharacters):
        if err.char.isupper():
            return "names are lower_snake_case, like `gain 2 gold`"
        if err.char in "\"'":
            return "effects hold no quoted text; names come from the game's vocabulary"
        if not err.char.isascii():
            return _look_alike(err.char) or \
                "names are ASCII lower_snake_case; Chinese and English text comes from game.yaml"
        return ""
    token = getattr(err, "token", None)
    start = getattr(token, "start_pos", None)
    after_else = isinstance(start, int) and re.search(r"(\}?)\s*\belse\s*$", text[:start])
    if after_else and (not after_else.group(1) or str(token) == ":"):
        # `if C: A; else: B`: a colon body runs to the end, so `else` is read as a verb
        return "two branches are written with braces: `if C { A } else { B }`"
    if token is not None and token.type == "CMP_OP" and "AND" in getattr(err, "expected", ()):
        # only after a complete comparison; `let x == 1` or `draw 1 == 2` is another mistake
        return "comparisons do not chain; join them with `and`"
    if isinstance(start, int) and re.search(r"-\s*$", text[:start]) \
            and set(getattr(err, "expected", ())) == {"INT"} and str(token).isidentifier():
        # `clank -amount`: an argument's bare `-` takes a number only
        return f"a negative argument other than a number goes in brackets: `(-{token})`"
    return _expected_hint(err)


def parse(text: str) -> n.Block:
    """Parse one effect string. Raises EffectSyntaxError with a 1-based position.

    The outcome of each text is remembered (ASTs are immutable): a process compiling a game
    again (a pack over its base game, `balance`, the tests) parses each text once."""
    if len(text) > MAX_EFFECT_LENGTH:   # (never remembered: the key would be that long)
        raise EffectSyntaxError(
            f"effect is {len(text)} characters long; the limit is {MAX_EFFECT_LENGTH}", 1, 1,
            "split it across several fields or keywords")
    outcome = _parsed(text)
    if isinstance(outcome, EffectSyntaxError):
        raise EffectSyntaxError(outcome.message, outcome.line, outcome.column, outcome.hint)
    return outcome


@lru_cache(maxsize=20_000)
def _parsed(text: str) -> n.Block | EffectSyntaxError:
    try:
        return _parse(text)
    except EffectSyntaxError as err:
        return err.with_traceback(None)     # kept without the frames it was raised in


def _parse(text: str) -> n.Block:
    if len(text) > MAX_EFFECT_LENGTH:
        raise EffectSyntaxError(
            f"effect is {len(text)} characters long; the limit is {MAX_EFFECT_LENGTH}", 1, 1,
            "split it across several fields or keywords")
    if not _depth_ok(text):
        raise EffectSyntaxError(f"effect nests deeper than {MAX_DEPTH} levels", 1, 1,
                                "flatten the braces and parentheses")
    try:
        block = _lark().parse(text)
    except (UnexpectedInput, _ArgumentOnNewLine, _KeywordAsName) as err:
        raise _syntax_error(text, err) from None
    except RecursionError:
        raise EffectSyntaxError("effect nests too deeply", 1, 1) from None
    if _nesting(block) > MAX_DEPTH:
        raise EffectSyntaxError(f"effect nests deeper than {MAX_DEPTH} levels", 1, 1,
                                "split nested bodies and long expressions with `let`")
    return block


def _syntax_error(text: str, first: Exception) -> EffectSyntaxError:
    """The error to report for a text the fast parser refused (`first`). The text is parsed
    again into a tree: a syntax error anywhere in it comes before a misused name (which the
    fast parser's transformer meets on the way), and the labelled examples are matched against
    the tree parser's states."""
    try:
        _tree_lark().parse(text)
    except UnexpectedInput as err:
        label = None if isinstance(err, UnexpectedCharacters) else _example_label(err)
        line = getattr(err, "line", -1)
        column = getattr(err, "column", -1)
        if line in (None, -1):  # unexpected end of input
            lines = text.split("\n")
            line, column = len(lines), len(lines[-1]) + 1
        return EffectSyntaxError(label or _describe(err), line, column, _hint(err, text))
    except RecursionError:
        return EffectSyntaxError("effect nests too deeply", 1, 1)
    if isinstance(first, _ArgumentOnNewLine):
        return EffectSyntaxError("a new line does not end a statement", first.pos.line,
                                 first.pos.column, "end the previous statement with `;`")
    if isinstance(first, _KeywordAsName):
        token = first.token
        advice = ("reserved words cannot name a query" if token.type == "QUERY_NAME"
                  else "separate statements with `;`")
        return EffectSyntaxError(
            f"{str(token)!r} is a reserved word and cannot be used as a name here",
            token.line, token.column, advice + "; reserved words: " + ", ".join(sorted(KEYWORDS)))
    return EffectSyntaxError(_describe(first), 1, 1)     # both parsers use one grammar: unreached
