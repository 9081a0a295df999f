"""A vocabulary name refused by the pack schema is marked at its own key: a pack's keyword
`class:` (a Python keyword), written third under `keywords:`, was reported at the first
keyword's line."""
from __future__ import annotations


from tomecraft.compiler import diagnostics as dg
from tests.keyword_packs import compile_with_keywords


def test_a_reserved_keyword_name_is_marked_at_its_key(tmp_path):
    reporter = compile_with_keywords(tmp_path / "names", "clank_catacombs",
        "    first:\n      params: []\n      effect: draw 1\n      text: {zh: 一, en: One}\n"
        "    second:\n      params: []\n      effect: draw 1\n      text: {zh: 二, en: Two}\n"
        "    class:\n      params: []\n      effect: draw 1\n      text: {zh: 类, en: Class}\n")
    got = [(d.code, d.line, d.column, d.message) for d in reporter.diagnostics]
    assert got == [(dg.PACK, 14, 5, "'class' is a reserved word")], got


def test_a_built_in_name_is_refused_as_a_keyword_name(tmp_path):
    """A keyword `it` checked clean (`it 3` then read as the event's thing); a resource `you`
    alike. (A keyword's parameter so named: test_keyword_param_names.py, TC-N008.)"""
    reporter = compile_with_keywords(tmp_path / "names", "clank_catacombs",
        "    it:\n      params: []\n      effect: draw 1\n      text: {zh: 一, en: One}\n")
    got = [(d.code, d.line, d.column, d.message.split(" (")[0]) for d in reporter.diagnostics]
    assert got == [(dg.VOCAB, 6, 5, "'it' is a built-in name of the effect language")], got
    assert "name of its own" in reporter.diagnostics[0].hint


def test_a_keyword_named_as_a_verb_or_a_language_word_says_what_to_do(tmp_path):
    """'gain' (a verb) and 'each' (a word of the effect language) as a pack's keyword names
    were refused with no hint (packs round 11)."""
    reporter = compile_with_keywords(tmp_path / "clashes", "clank_catacombs",
        "    gain:\n      params: []\n      effect: draw 1\n      text: {zh: 得, en: Gain}\n"
        "    each:\n      params: []\n      effect: draw 1\n      text: {zh: 每, en: Each}\n")
    got = {d.message: (d.line, d.hint) for d in reporter.diagnostics}
    assert got["'gain' is already declared as a verb"][0] == 6
    assert "name of its own" in got["'gain' is already declared as a verb"][1]
    line, hint = got["'each' is a reserved word of the effect language"]
    assert line == 10 and "name of its own" in hint and "repeat" in hint
