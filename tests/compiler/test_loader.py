"""The YAML loader under hostile input: every problem is a diagnostic with an exact position.

No input, however broken, may raise or hang: bad encodings, tabs, duplicate keys, tags, alias
bombs, absurd nesting or size. Positions are 1-based (line, column) in characters, and
positions inside effect strings map back to the exact character of the YAML file.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loader, pipeline
from tomecraft.dsl.parser import EffectSyntaxError, parse

REPO = Path(__file__).resolve().parents[2]
TILE_KINDS = REPO / "content" / "the_cave" / "tile_kinds.yaml"


def load(raw: bytes | str, name: str = "x.yaml"):
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    reporter = dg.Reporter()
    doc = loader.load_bytes(raw, Path(name), reporter, name)
    return doc, reporter.diagnostics


def only(diagnostics, code: str) -> dg.Diagnostic:
    assert [d.code for d in diagnostics] == [code], diagnostics
    d = diagnostics[0]
    assert d.file == "x.yaml" and d.line >= 1 and d.column >= 1 and d.message
    return d


# --- encodings and bytes -------------------------------------------------------------------

def test_invalid_utf8_points_at_the_bad_byte():
    doc, diags = load(b"a: 1\nb: ok\xff\n")
    assert doc is None
    d = only(diags, dg.FILE_UNREADABLE)
    assert (d.line, d.column) == (2, 6)
    assert "UTF-8" in d.hint


def test_utf16_file_is_refused_as_not_utf8():
    doc, diags = load("a: 1\n".encode("utf-16"))
    assert doc is None
    d = only(diags, dg.FILE_UNREADABLE)
    assert (d.line, d.column) == (1, 1)


def test_bom_is_skipped_and_positions_are_unchanged():
    doc, diags = load(b"\xef\xbb\xbfa: 1\nb: 2\na: 3\n")
    d = only(diags, dg.YAML_DUPLICATE_KEY)
    assert (d.line, d.column) == (3, 1)
    assert doc.data == {"a": 1, "b": 2}
    assert doc.mark(("b",)) == loader.Mark(2, 4)


def test_nul_byte():
    doc, diags = load(b"a: 1\nb: x\x00y\n")
    assert doc is None
    d = only(diags, dg.FILE_UNREADABLE)
    assert d.line == 2


@pytest.mark.parametrize("char", ["\x1b", "\x01", "\x7f"])
def test_control_character_is_located(char):
    doc, diags = load(f"名字: 洞窟\nb: x{char}\n")
    assert doc is None
    d = only(diags, dg.YAML_SYNTAX)
    assert (d.line, d.column) == (2, 5)
    assert "<file>" not in d.message


def test_empty_file_is_no_data_and_no_error():
    doc, diags = load(b"")
    assert diags == [] and doc is not None and doc.data is None
    doc, diags = load(b"# only a comment\n")
    assert diags == [] and doc.data is None


def test_scalar_and_list_files_load_and_the_schema_stage_refuses_them(tmp_path, monkeypatch):
    assert load(b"hello")[0].data == "hello"
    assert load(b"- 1\n- 2\n")[0].data == [1, 2]
    root = _copy_game(tmp_path, monkeypatch)
    (root / "scalar.yaml").write_text("hello\n", encoding="utf-8")
    (root / "list.yaml").write_text("- a\n- b\n", encoding="utf-8")
    (root / "empty.yaml").write_text("", encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(root, [], reporter)
    got = sorted((d.code, d.file, d.line, d.column) for d in reporter.diagnostics)
    assert got == [(dg.NO_CONTENT, "content/the_cave/empty.yaml", 1, 1),  # an emptied file
                   (dg.YAML_NOT_MAPPING, "content/the_cave/list.yaml", 1, 1),
                   (dg.YAML_NOT_MAPPING, "content/the_cave/scalar.yaml", 1, 1)]


# --- syntax --------------------------------------------------------------------------------

def test_tab_indentation_has_position_and_hint():
    doc, diags = load(b"a:\n  b: 1\n\tc: 2\n")
    assert doc is None
    d = only(diags, dg.YAML_SYNTAX)
    assert (d.line, d.column) == (3, 1)
    assert "tab" in d.hint


ENTITY = "cards:\n  - id: x\n    name: {zh: 甲, en: A}\n"


@pytest.mark.parametrize("text, at, says", [
    # a key with no colon: libyaml stops at the line after; the mistake is the key's own line
    (ENTITY + "    bonus 1\n    count: 2\n", (4, 5), "`key: value`"),
    (ENTITY + "    bonus 1\n", (4, 5), "`key: value`"),
    # a key indented one space too little or too much against the entity's other keys
    (ENTITY + "   count: 2\n", (4, 4), "line 4 starts at column 4, line 3 above it at column 5"),
    (ENTITY + "    note: \"n\"\n      count: 2\n", (5, 7),
     "line 5 starts at column 7, line 4 above it at column 5"),
    # a key after a nested mapping: the nested line above and the key it may follow
    (ENTITY + "    icon:\n      en: house\n     value: 2\n", (6, 6),
     "line 6 starts at column 6, line 5 above it at column 7, line 4 at column 5"),
    # an effect with a colon, unquoted: not an indentation problem
    (ENTITY + "    main: if x: gain 1\n", (4, 15), "put the value in quotes"),
    # a quote inside a quoted value closes it early: the line's indentation is right (it was
    # "check the indentation: line 4 starts at column 5, line 3 above it at column 5")
    (ENTITY + '    note: "worn key "oxygen@2""\n', (4, 22), "a quote inside"),
    (ENTITY + "    note: 'it's'\n", (4, 15), "a quote inside"),
    # a key indented under a plain value continues it: an indentation mistake, not a quote
    (ENTITY + "    count: 2\n     bonus: 1\n", (5, 11), "line 5 starts at column 6, line 4 above"),
])
def test_a_misplaced_key_is_located_with_what_to_do(text, at, says):
    """A newcomer's missing colon was reported on the next line, and an indentation mistake
    as 'did not find expected key' with no hint."""
    doc, diags = load(text)
    d = only(diags, dg.YAML_SYNTAX)
    assert doc is None and (d.line, d.column) == at and says in d.hint, d


def test_unclosed_flow_and_quote():
    d = only(load(b"a: [1, 2\nb: 3\n")[1], dg.YAML_SYNTAX)
    assert d.line == 2 and d.hint == "the `[` at line 1, column 4 is not closed: end it with `]`"
    d = only(load(b"a: 'open\n")[1], dg.YAML_SYNTAX)
    assert d.line == 2 and d.hint == "the quote at line 1, column 4 is not closed: end it with the same quote"
    # a newcomer's `name: {zh: ..., en: ...` with no `}`: libyaml stops at the next key
    d = only(load(b"a:\n  name: {zh: x, en: y\n  source: z\n")[1], dg.YAML_SYNTAX)
    assert d.line == 3 and d.hint == "the `{` at line 2, column 9 is not closed: end it with `}`"


def test_a_byte_order_mark_inside_the_file_is_named_where_it_stands():
    """Two files joined, the second saved with a byte order mark: the invisible U+FEFF breaks
    the YAML, and the hint said "check the indentation" naming two equal columns."""
    d = only(load("a: 1\nb:\n  c: 2\n\ufeffd: 3\n".encode())[1], dg.YAML_SYNTAX)
    assert d.hint == ("line 4, column 1 holds an invisible U+FEFF (a byte order mark, as where "
                      "two files were joined): delete it")
    doc, diags = load("\ufeffa: 1\nb: 2\n".encode())     # one at the start is the encoding's
    assert diags == [] and doc.data == {"a": 1, "b": 2}


def test_two_documents_are_refused():
    d = only(load(b"a: 1\n---\nb: 2\n")[1], dg.YAML_SYNTAX)
    assert (d.line, d.column) == (2, 1)


def test_undefined_alias():
    d = only(load(b"a: 1\nb: *nope\n")[1], dg.YAML_SYNTAX)
    assert (d.line, d.column) == (2, 4)


# --- duplicate keys, tags, merge keys, non-string keys -----------------------------------

def test_duplicate_key_points_at_the_second():
    doc, diags = load(b"top:\n  a: 1\n  b: 2\n  a: 3\n")
    d = only(diags, dg.YAML_DUPLICATE_KEY)
    assert (d.line, d.column) == (4, 3)
    assert "line 2" in d.message
    assert doc.data == {"top": {"a": 1, "b": 2}}  # the first value is kept, nothing silently lost


def test_duplicate_key_in_flow_mapping():
    d = only(load(b"- {id: a, x: 1, id: b}\n")[1], dg.YAML_DUPLICATE_KEY)
    assert (d.line, d.column) == (1, 17)


@pytest.mark.parametrize("text, column", [
    ("a: !!python/object:os.system echo\n", 4),
    ("a: !!python/object/apply:os.system [echo]\n", 4),
    ("a: !!python/name:os.system\n", 4),
    ("a: !custom value\n", 4),
    ("a: !!binary aGVsbG8=\n", 4),
    ("a: !!set {x, y}\n", 4),
])
def test_tags_are_refused(text, column):
    doc, diags = load(text)
    d = only(diags, dg.YAML_TAG)
    assert (d.line, d.column) == (1, column)
    assert doc is None or doc.data == {"a": None}


def test_python_tag_never_runs(tmp_path):
    marker = tmp_path / "pwned"
    load(f"a: !!python/object/apply:os.system ['touch {marker}']\n")
    assert not marker.exists()


def test_merge_key_is_refused():
    doc, diags = load(b"base: &b {x: 1}\nthing:\n  <<: *b\n  y: 2\n")
    d = only(diags, dg.YAML_TAG)
    assert (d.line, d.column) == (3, 3)
    assert "merge" in d.message
    assert doc.data["thing"] == {"y": 2}
    # the fields it would bring are missing, and the schema says so next: the fan is told why
    # and what to write (it said "write plain YAML values", packs round 11)
    assert "not read" in d.message and "write those fields out" in d.hint


@pytest.mark.parametrize("text, pos", [
    ("? [1, 2]\n: x\n", (1, 3)),
    ("{a: 1}: 2\n", (1, 1)),
    ("ok: 1\n? {k: v}\n: x\n", (2, 3)),
])
def test_non_string_keys(text, pos):
    d = only(load(text)[1], dg.YAML_KEY_TYPE)
    assert (d.line, d.column) == pos


def test_scalar_keys_of_other_types_become_strings():
    doc, diags = load(b"1: a\ntrue: b\n")
    assert diags == [] and doc.data == {"1": "a", "true": "b"}


# --- resource bombs ------------------------------------------------------------------------

def _billion_laughs(levels: int = 10) -> bytes:
    out = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        refs = ",".join([f"*a{i - 1}"] * 9)
        out.append(f"a{i}: &a{i} [{refs}]")
    return ("\n".join(out) + "\n").encode()


def test_billion_laughs_is_bounded_and_fast():
    doc, diags = load(_billion_laughs())
    assert doc is None
    d = only(diags, dg.YAML_TOO_BIG)
    assert "alias" in d.message
    assert 1 <= d.line <= 10  # libyaml shares aliased nodes: the mark is the anchored one


def test_small_aliases_are_allowed():
    doc, diags = load(b"a: &x [1, 2]\nb: *x\n")
    assert diags == [] and doc.data == {"a": [1, 2], "b": [1, 2]}


def test_recursive_alias_is_bounded():
    doc, diags = load(b"a: &a [*a]\n")
    d = only(diags, dg.YAML_TOO_BIG)
    assert d.line == 1 and doc is None


def test_ten_thousand_deep_flow_nesting():
    doc, diags = load(b"a: " + b"[" * 10_000 + b"]" * 10_000 + b"\n")
    d = only(diags, dg.YAML_TOO_BIG)
    assert d.line == 1 and doc is None


def test_ten_thousand_deep_block_nesting():
    doc, diags = load(b"- " * 10_000 + b"x\n")
    d = only(diags, dg.YAML_TOO_BIG)
    assert d.line == 1 and doc is None
    deep = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n"
    d = only(load(deep)[1], dg.YAML_TOO_BIG)
    assert d.line == loader.MAX_DEPTH + 2  # the value of key k64, nested 65 deep


def _depth(text: str) -> int:
    """The deepest node of a YAML text, counted on libyaml's events (a scalar included)."""
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent, ScalarEvent
    depth = deepest = 0
    with loader._libyaml(text) as parser:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                deepest = max(deepest, depth)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
            elif isinstance(event, ScalarEvent):
                deepest = max(deepest, depth + 1)
    return deepest


TRICKY_NESTING = [       # each valid YAML (the test asserts it): compact and indentless
    "- - - - - x\n", "? - ? - a\n: b\n", "a:\n- b:\n  - c:\n    - d\n",     # nestings
    "- !!seq\n  - - a\n", "- a:\n  - b:\n    - [x, {y: [z]}]\n", "? a\n: - b\n  - - c\n",
    "- - a: 1\n    b:\n    - - c\n", "- &x a: 1\n  b: [c]\n",
    "k:\n" + "".join("  " * i + "- " for i in range(1, 30)) + "x\n",
]


def _refused_where_too_deep(text: str) -> None:
    """The loader refuses `text` when a node nests past MAX_DEPTH (the root at depth 0, as
    the converter counts; a refusal met first, such as a collection as a key, may be the one
    given), and never as too deep otherwise; where the bounded composer stopped, at the place
    the event pass finds."""
    doc, diags = load(text)
    too_big = [(d.line, d.column) for d in diags if d.code == dg.YAML_TOO_BIG]
    if _depth(text) - 1 > loader.MAX_DEPTH:
        assert any(d.severity == "error" for d in diags), text
    else:
        assert not too_big, (text, diags)
    if loader._compose(text) is loader._TOO_DEEP:
        mark = loader._too_deep(text)
        assert doc is None and too_big == [(mark.line + 1, mark.column + 1)]


@pytest.mark.parametrize("text", TRICKY_NESTING)
@pytest.mark.parametrize("wrap", [0, loader.MAX_DEPTH - 2, loader.MAX_DEPTH, loader.MAX_DEPTH + 2])
def test_tricky_nesting_is_refused_exactly_past_the_limit(text, wrap):
    """Each tricky layout, inside `wrap` block sequences: compact and indentless nestings
    must be counted as the converter counts them."""
    indented = "".join("  " * i + "-\n" for i in range(wrap)) + \
        "".join("  " * wrap + line + "\n" for line in text.splitlines())
    assert _depth(indented) == _depth(text) + wrap
    _refused_where_too_deep(indented)


_NESTED = st.recursive(st.integers(0, 9) | st.text("ab -:?", max_size=3),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text("abc", min_size=1, max_size=2), inner, max_size=3),
                       max_leaves=40)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(_NESTED, st.sampled_from([False, None, True]), st.integers(2, 5), st.booleans(),
       st.integers(0, loader.MAX_DEPTH + 4))
def test_dumped_yaml_is_refused_exactly_past_the_limit(data, flow, indent, explicit, wrap):
    import yaml
    for i in range(wrap):
        data = [data] if i % 2 else {"k": data}
    text = yaml.safe_dump(data, default_flow_style=flow, indent=indent, explicit_start=explicit,
                          width=100_000)
    _refused_where_too_deep(text)


@pytest.mark.parametrize("brk", ["\r", "\x85", "\u2028", "\u2029"])
def test_other_line_breaks_are_parsed_for_their_depth(brk):
    """libyaml breaks lines at these too."""
    deep = brk.join("  " * i + "- " for i in range(loader.MAX_DEPTH + 10)) + "x\n"
    assert _depth(deep) > loader.MAX_DEPTH
    # \r is read as the line break it is; the others are refused before any parsing
    only(load(deep)[1], dg.YAML_TOO_BIG if brk == "\r" else dg.CONTROL_CHAR)


@pytest.mark.parametrize("brk", ["\r\n", "\r"])
def test_windows_and_old_mac_line_breaks_keep_lines_columns_and_excerpts(brk):
    """A file saved on Windows (or an old Mac) is located and quoted as with \\n: the quoted
    line shows no \\r, and a position inside an effect string lands on its character."""
    for case, code in (("a: 1\na: 2\n", dg.YAML_DUPLICATE_KEY), ("a: 1\nb: [2\n", dg.YAML_SYNTAX)):
        lf = only(load(case)[1], code)
        reporter = dg.Reporter()
        loader.load_bytes(case.replace("\n", brk).encode(), Path("x.yaml"), reporter, "x.yaml")
        d = only(reporter.diagnostics, code)
        assert (d.line, d.column) == (lf.line, lf.column)
        assert "\\r" not in dg.format_text(reporter) and "\r" not in dg.format_text(reporter)
    text = "a: 1\ne: pay ap 1 ? x\n"
    doc, diags = load(text.replace("\n", brk))
    assert diags == [] and doc.data == {"a": 1, "e": "pay ap 1 ? x"}
    with pytest.raises(EffectSyntaxError) as info:
        parse(doc.data["e"])
    assert doc.effect_position(("e",), info.value.line, info.value.column) == (2, 13)


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029"])
def test_an_invisible_line_break_is_refused_where_it_is(brk):
    """libyaml reads NEL and the Unicode line and paragraph separators as line breaks where
    an editor shows none, so every position after one would be wrong: refused, located."""
    doc, diags = load(f"名字: 洞窟\nb: 1  # x{brk}y\nc: 2\n")
    assert doc is None
    d = only(diags, dg.CONTROL_CHAR)
    assert (d.line, d.column) == (2, 10) and f"U+{ord(brk):04X}" in d.message


def test_nesting_at_the_limit_is_fine():
    depth = loader.MAX_DEPTH
    doc, diags = load(b"[" * depth + b"]" * depth)
    assert diags == []


def test_file_over_two_mib(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * (loader.MAX_FILE_BYTES + 1) + b"\n")
    reporter = dg.Reporter()
    assert loader.load(path, reporter, "big.yaml") is None
    (d,) = reporter.diagnostics
    assert (d.code, d.file, d.line, d.column) == (dg.YAML_TOO_BIG, "big.yaml", 1, 1)


def test_unreadable_path(tmp_path):
    reporter = dg.Reporter()
    assert loader.load(tmp_path, reporter, "dir.yaml") is None
    (d,) = reporter.diagnostics
    assert (d.code, d.line, d.column) == (dg.FILE_UNREADABLE, 1, 1)


def test_very_long_lines_keep_columns():
    long = "x" * 100_000
    doc, diags = load(f"a: {long}\nb: [1, 2]\n")
    assert diags == [] and doc.mark(("b",)) == loader.Mark(2, 4, "")
    d = only(load(f"{{a: {long}, a: 1}}\n")[1], dg.YAML_DUPLICATE_KEY)
    assert (d.line, d.column) == (1, 100_000 + 7)


def test_cjk_columns_count_characters():
    doc, diags = load("名字: 洞窟\n洞窟名字: {zh: 洞窟, en: Cave}\n")
    assert diags == []
    assert doc.mark(("名字",)).column == 5
    assert doc.mark(("洞窟名字",)).column == 7
    assert doc.mark(("洞窟名字", "en")).column == 20
    d = only(load("名字: 洞窟\n名字: x\n")[1], dg.YAML_DUPLICATE_KEY)
    assert (d.line, d.column) == (2, 1)
    d = only(load("名字: [洞窟, 'a\n")[1], dg.YAML_SYNTAX)
    assert d.line == 2


# --- positions inside effect strings -------------------------------------------------------

def effect_error(text: str, path: tuple = ("e",)) -> tuple[int, int, str]:
    """Where a parse error in the effect at `path` lands in the file, and the text there."""
    doc, diags = load(text)
    assert diags == []
    value = doc._value_at(path)
    with pytest.raises(EffectSyntaxError) as info:
        parse(value)
    line, column = doc.effect_position(path, info.value.line, info.value.column)
    return line, column, text.split("\n")[line - 1][column - 1:]


@pytest.mark.parametrize("text, expected", [
    # plain
    ('e: pay ap 1 ? x\n', (1, 13)),
    # single and double quoted
    ("e: 'pay ap 1 ? x'\n", (1, 14)),
    ('e: "pay ap 1 ? x"\n', (1, 14)),
    # literal block
    ("e: |\n  pay ap 1;\n  gain_token x ? y\n", (3, 16)),
    ("e: |-\n    pay ap 1;\n    gain_token x ? y\n", (3, 18)),
    # literal block with a blank line inside: the line break it keeps is a character
    ("e: |\n  pay ap 1;\n\n  gain_token x ? y\n", (4, 16)),
    ("e: |-\n    pay ap 1;\n\n\n    gain_token x ? y\n", (5, 18)),
    # folded block, one and several lines, and with a blank line inside
    ("e: >-\n  pay ap 1 ? x\n", (2, 12)),
    ("e: >-\n  pay ap 1;\n  gain_token x ? y\n", (3, 16)),
    ("e: >-\n    pay ap 1;\n\n    gain_token x ? y\n", (4, 18)),
    # multi-line plain, starting on the key's line or the next one
    ("e: pay ap 1;\n  gain_token x ? y\n", (2, 16)),
    ("e:\n  pay ap 1;\n  gain_token x ? y\n", (3, 16)),
    # multi-line quoted
    ("e: 'pay ap 1;\n  gain_token x ? y'\n", (2, 16)),
    ('e: "pay ap 1;\n  gain_token x ? y"\n', (2, 16)),
    # extra spaces before the value
    ("e:    pay ap 1 ?\n", (1, 16)),
])
def test_effect_error_positions(text, expected):
    line, column, rest = effect_error(text)
    assert (line, column) == expected
    assert rest.startswith("?")


def test_effect_position_in_nested_flow_mapping():
    text = 'l:\n  - {id: a, effect: "pay ap 1 ? x"}\n'
    line, column, rest = effect_error(text, ("l", 0, "effect"))
    assert (line, column) == (2, 31) and rest.startswith("? x")


def test_effect_position_after_cjk():
    text = "名字: 洞窟\ne: pay ap 1; 洞窟\n"
    line, column, rest = effect_error(text)
    assert (line, column) == (2, 14) and rest.startswith("洞窟")


def test_effect_end_of_input_in_folded_block_points_at_its_last_line():
    line, column, rest = effect_error("e: >-\n  pay ap 1;\n  gain_token x ->\nf: 1\n")
    assert line == 3


def test_effect_positions_in_the_real_content():
    """Every word of every effect maps to the place in the file where that word is written."""
    doc, diags = load(TILE_KINDS.read_bytes())
    assert diags == []
    lines = doc.text.split("\n")
    checked = 0
    for i, entity in enumerate(doc.data["tile_kinds"]):
        paths = [("tile_kinds", i, "on_discover")] if "on_discover" in entity else []
        for field in ("enter", "actions"):
            paths += [("tile_kinds", i, field, j, "effect")
                      for j in range(len(entity.get(field, [])))]
        for path in paths:
            value = doc._value_at(path)
            for vline, text in enumerate(value.split("\n"), 1):
                for word in re.finditer(r"\S+", text):
                    line, column = doc.effect_position(path, vline, word.start() + 1)
                    assert lines[line - 1][column - 1:].startswith(word.group()), (path, word)
                    checked += 1
    assert checked > 50


# --- fuzzing -------------------------------------------------------------------------------

def _check_no_exception(raw: bytes) -> None:
    reporter = dg.Reporter()
    doc = loader.load_bytes(raw, Path("fuzz.yaml"), reporter, "fuzz.yaml")
    lines = raw.count(b"\n") + raw.count(b"\r") + 2
    for d in reporter.diagnostics:
        assert d.code in dg.CODES
        assert d.file == "fuzz.yaml"
        assert 1 <= d.line <= lines, d
        assert d.column >= 1
        assert d.message
    if reporter.diagnostics and doc is None:
        return
    if doc is not None:
        for path in doc.marks:
            for key in (False, True):
                mark = doc.mark(path, key=key)
                assert mark.line >= 1 and mark.column >= 1


FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.binary(max_size=600))
def test_fuzz_random_bytes(raw):
    _check_no_exception(raw)


_YAMLISH = st.sampled_from([b":", b"-", b" ", b"\n", b"\t", b"[", b"]", b"{", b"}", b"&a", b"*a",
                            b"!!python/object:os.system", b"<<", b"'", b'"', b"|", b">-", b"#",
                            b"?", b"---", b"\xff", b"\x00", b"\xef\xbb\xbf", b"\\", "洞".encode(),
                            b"%YAML 1.1\n", b"!x", b",", b"\r\n", b"\x1b"])


@st.composite
def mutated_content(draw):
    raw = bytearray(TILE_KINDS.read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        at = draw(st.integers(0, len(raw)))
        if op == "insert":
            raw[at:at] = draw(_YAMLISH | st.binary(min_size=1, max_size=4))
        elif op == "delete":
            raw[at:at + draw(st.integers(1, 40))] = b""
        elif op == "replace":
            raw[at:at + 1] = draw(_YAMLISH)
        else:
            end = min(len(raw), at + draw(st.integers(1, 200)))
            raw[end:end] = raw[at:end]
    return bytes(raw)


@FUZZ
@given(mutated_content())
def test_fuzz_mutated_real_content(raw):
    _check_no_exception(raw)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(raw=mutated_content())
def test_fuzz_whole_pipeline_never_raises(raw, tmp_path_factory):
    """A mutated content file through every stage: diagnostics only, each well placed."""
    root = tmp_path_factory.mktemp("fuzz") / "the_cave"
    root.mkdir()
    shutil.copy(REPO / "content" / "the_cave" / "game.yaml", root / "game.yaml")
    (root / "tile_kinds.yaml").write_bytes(raw)
    reporter = dg.Reporter()
    pipeline.compile_game(root, [], reporter)
    for d in reporter.diagnostics:
        assert d.code in dg.CODES and d.line >= 1 and d.column >= 1
    dg.format_text(reporter)
    dg.format_json(reporter)


# --- helpers -------------------------------------------------------------------------------

def _copy_game(tmp_path: Path, monkeypatch) -> Path:
    """A copy of The Cave's base game (a game missing a kind's entities is an error)."""
    root = tmp_path / "content" / "the_cave"
    shutil.copytree(REPO / "content" / "the_cave", root, ignore=shutil.ignore_patterns("packs"))
    monkeypatch.chdir(tmp_path)
    return Path("content") / "the_cave"


# --- a file loaded again -------------------------------------------------------------------

def test_a_file_read_again_with_the_same_bytes_is_composed_once(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text("a: 1\nb: [2, 2]\nb: 3\n", encoding="utf-8")
    first, second = dg.Reporter(), dg.Reporter()
    doc = loader.load(path, first, "tiles.yaml")
    assert loader.load(path, second, "tiles.yaml") is doc
    # the same diagnostics and quoted source, reported to each run
    assert [d.code for d in second.diagnostics] == [d.code for d in first.diagnostics] == \
        [dg.YAML_DUPLICATE_KEY]
    assert second.sources == first.sources == {"tiles.yaml": path.read_bytes()}


def test_a_changed_file_is_loaded_again_even_with_the_same_size_and_time(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    stamp = path.stat().st_mtime_ns
    doc = loader.load(path, dg.Reporter(), "tiles.yaml")
    path.write_text("a: 2\n", encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))
    again = loader.load(path, dg.Reporter(), "tiles.yaml")
    assert again is not doc and again.data == {"a": 2}
    # under another name it is another document (diagnostics name the file as shown)
    assert loader.load(path, dg.Reporter(), "other.yaml") is not again


def test_the_remembered_files_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MEMO_FILES", 3)
    docs = []
    for i in range(5):
        path = tmp_path / f"f{i}.yaml"
        path.write_text(f"a: {i}\n", encoding="utf-8")
        docs.append(loader.load(path, dg.Reporter(), path.name))
    assert len(loader._memo) <= 3
    assert loader.load(tmp_path / "f0.yaml", dg.Reporter(), "f0.yaml") is not docs[0]
    assert loader.load(tmp_path / "f4.yaml", dg.Reporter(), "f4.yaml") is docs[4]


def test_a_remembered_syntax_error_is_raised_afresh_each_time():
    with pytest.raises(EffectSyntaxError) as first:
        parse("gain 2 ((")
    with pytest.raises(EffectSyntaxError) as second:
        parse("gain 2 ((")
    assert first.value is not second.value
    assert (first.value.message, first.value.line, first.value.column) == \
        (second.value.message, second.value.line, second.value.column)
    assert parse("gain 2 gold") is parse("gain 2 gold")     # ASTs are immutable: shared


def test_a_deep_file_is_refused_on_a_small_stack(tmp_path):
    """A file nested 20,000 deep is refused, located, even by a process whose main stack is
    1 MiB (Windows' default): the C composer, which recurses once per level, overflows it
    past about 3,000 levels, and stops here after COMPOSE_DEPTH."""
    import resource
    import subprocess
    import sys
    deep = tmp_path / "deep.yaml"
    deep.write_text("tokens: " + "[" * 20_000 + "]" * 20_000 + "\n")
    probe = ("import sys; from pathlib import Path; from tomecraft.compiler import loader, "
             "diagnostics as dg; r = dg.Reporter(); "
             "print(loader.load(Path(sys.argv[1]), r), [(d.code, d.line, d.column) for d in r.diagnostics])")

    def small_stack():
        resource.setrlimit(resource.RLIMIT_STACK, (1024 * 1024, 1024 * 1024))
    out = subprocess.run([sys.executable, "-c", probe, str(deep)], capture_output=True, text=True,
                         preexec_fn=small_stack, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip() == f"None [('{dg.YAML_TOO_BIG}', 1, {8 + loader.MAX_DEPTH + 1})]"


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}"), ("[{a: ", "}]")])
def test_a_deep_file_is_composed_no_deeper_than_the_limit(monkeypatch, opener, closer):
    """libyaml's scanner takes time in the square of the flow nesting (a 40,000-deep
    `{a: {a: ...` took 24 s to refuse): the composer stops a few nodes past MAX_DEPTH, and
    the event pass that locates the refusal stops there too."""
    built = []
    descend = loader._BoundedComposer.descend_resolver

    def counted(self, node, index):
        built.append(self.depth)
        descend(self, node, index)
    monkeypatch.setattr(loader._BoundedComposer, "descend_resolver", counted)
    doc, diags = load("tokens: " + opener * 40_000 + "1" + closer * 40_000 + "\n")
    assert doc is None and only(diags, dg.YAML_TOO_BIG).line == 1
    assert len(built) <= 2 * loader.COMPOSE_DEPTH and max(built) == loader.COMPOSE_DEPTH


def test_many_flow_mappings_are_composed_without_the_event_pass(monkeypatch):
    """A big pack writes `name: {zh: .., en: ..}` on every card: the file is composed once,
    not read twice (an event pass for its depth, then the composer)."""
    text = "tiles:\n" + "".join(f"  - {{id: t{i}, name: {{zh: 甲, en: T{i}}}}}\n"
                                  for i in range(1_000))

    def no_event_pass(text):
        raise AssertionError("the event pass ran")
    monkeypatch.setattr(loader, "_too_deep", no_event_pass)
    doc, diags = load(text)
    assert diags == [] and len(doc.data["tiles"]) == 1_000
    assert doc.data["tiles"][999]["name"] == {"zh": "甲", "en": "T999"}
