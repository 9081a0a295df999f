"""The one rule for content strings that become names, and JSON Schema patterns that mean
what they say.

An id, a kind, a field, a keyword, a parameter, a let-bound name, a pack id or a mission id
can end up as a Python identifier, a directory or a file name. Each must be lower_snake_case
ASCII matched in full (`\\A...\\Z`: Python's `$` would accept a trailing newline), and not a
Python keyword or a name the generated code reserves.

JSON Schema patterns are ECMA-262 regular expressions matched with search semantics, where
`$` means the end of the string. Python's `$` also matches before a final newline, so
`compiled()` rewrites `$` to `\\Z` before jsonschema sees the pattern (see schemas.py).
"""
from __future__ import annotations

import keyword
import re
from functools import lru_cache

# Python keywords and soft keywords, plus names the generated code and the runtime give a
# meaning of their own (the receiver, the effect context, the class).
# Soft keywords are listed by hand (`type` is one from Python 3.12 on), so the rule, and the
# exported schemas, are the same under every Python.
RESERVED = frozenset([w for w in keyword.kwlist if w.islower()]
                     + ["match", "case", "type", "self", "ctx", "cls"])
# At most MAX_LENGTH characters: a name can become a file or folder name (a mission's
# `briefing_<id>.zh.html`, a pack's `deep_rock_galactic__<id>/`), and a 250-character id
# checked clean, then `sheets` failed with "File name too long" (the sixth missions blind test).
# The content's longest name has 31.
MAX_LENGTH = 64
IDENT = re.compile(r"[a-z][a-z0-9_]{0,%d}" % (MAX_LENGTH - 1), re.ASCII)
# The same rule as a JSON Schema pattern (ECMA-262: `$` is the end of the string), so that
# editors validating against the exported schemas refuse the reserved names too.
ID_PATTERN = ("^(?!(?:" + "|".join(sorted(RESERVED)) + ")$)[a-z][a-z0-9_]{0,%d}$"
              % (MAX_LENGTH - 1))
HINT = ("names are lower_snake_case ASCII like `squeeze_2`, at most 64 characters, and not a "
        "Python keyword or a reserved name (self, ctx, cls)")


def problem(name) -> str | None:
    """Why `name` cannot be a name, or None if it can."""
    if not isinstance(name, str):
        return f"{name!r} is not a string"
    if len(name) > MAX_LENGTH and IDENT.fullmatch(name[:MAX_LENGTH]) \
            and re.fullmatch(r"[a-z0-9_]*", name, re.ASCII):
        return f"{name[:20]!r}... is {len(name)} characters long: a name has at most {MAX_LENGTH}"
    if not IDENT.fullmatch(name):
        return f"{name!r} is not a lower_snake_case ASCII name"
    if name in RESERVED:
        return f"{name!r} is a reserved word"
    return None


def is_identifier(name) -> bool:
    return problem(name) is None


def ecma(pattern: str) -> str:
    """A JSON Schema (ECMA-262) pattern as a Python pattern: `$` outside a character class
    becomes `\\Z`, the end of the string, and nothing else changes."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


MAX_PATTERN = 1000
_INNER_GROUP = re.compile(r"\(([^()]*)\)([+*{?]?)")


def _repeats_a_repeat(pattern: str) -> bool:
    """Whether a repeated group can match the same text in more than one way, like `(a+)+`,
    `(x*y?)*` or `(a|aa)*` (any alternation is taken as ambiguous): matching such a pattern can take exponential time (a
    kind schema in a fan's game.yaml could hang `check`). `([a-z]+_)*` is fine: its body
    has a plain character every round must match. A conservative syntactic test."""
    text = re.sub(r"\\.", "e", pattern)           # an escape is one plain character
    text = re.sub(r"\[[^\]]*\]", "c", text)     # so is a character class
    text = re.sub(r"\{[0-9,]*\}", "*", text)      # and {m,n} repeats like *
    while (group := _INNER_GROUP.search(text)) is not None:
        body, quantifier = group.groups()
        body = re.sub(r"^\?(?:[:=!]|<[=!]|P?<\w+>)", "", body)  # (?:...), (?=...), (?P<n>...)
        inner = "+" in body or "*" in body
        ambiguous = "|" in body or inner and not _has_plain_element(body)
        if ambiguous and quantifier in ("+", "*"):
            return True
        marker = "r+" if inner or quantifier in ("+", "*") else "r"
        text = text[:group.start()] + marker + text[group.end():]
    return False


def _has_plain_element(body: str) -> bool:
    """Whether a group body (escapes and classes already one character) holds an element
    that must match exactly once: a character not followed by a quantifier."""
    for i, char in enumerate(body):
        if char in "+*?|^$" or char == "r" and body[i + 1:i + 2] == "+":
            continue
        if body[i + 1:i + 2] not in ("+", "*", "?"):
            return True
    return False


def pattern_problem(pattern: str) -> str | None:
    """Why a content author's JSON Schema pattern is refused, or None."""
    if len(pattern) > MAX_PATTERN:
        return f"pattern longer than {MAX_PATTERN} characters"
    if _repeats_a_repeat(pattern):
        return f"pattern {pattern!r} repeats a group that repeats (matching can take " \
               "exponential time)"
    try:
        re.compile(ecma(pattern))
    except (re.error, RecursionError, OverflowError) as err:
        return f"pattern {pattern!r} is not a valid regular expression: {err}"
    return None


@lru_cache(maxsize=None)
def compiled(pattern: str) -> re.Pattern | None:
    """The compiled Python form of a JSON Schema pattern (None if it is refused: nothing
    matches it, and vocabulary.py reports why)."""
    if pattern_problem(pattern):
        return None
    return re.compile(ecma(pattern))
