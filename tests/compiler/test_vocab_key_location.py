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


def test_a_built_in_name_is_refused_as_a_keyword_or_its_parameter(tmp_path):
    """A keyword `it` checked clean (`it 3` then named the event's thing or the keyword by
    turns), and a parameter `you` hid the acting player inside the keyword's body (`gain gold
    you` gained the parameter's count; the body's `each opponent` measured from nobody)."""
    reporter = compile_with_keywords(tmp_path / "names", "clank_catacombs",
        "    it:\n      params: []\n      effect: draw 1\n      text: {zh: 一, en: One}\n"
        "    hoard:\n      params: [{name: you, type: int}]\n      effect: gain gold you\n"
        "      text: {zh: '囤{you}', en: 'Hoard {you}'}\n")
    got = [(d.code, d.line, d.column, d.message.split(" (")[0]) for d in reporter.diagnostics]
    assert got == [(dg.VOCAB, 6, 5, "'it' is a built-in name of the effect language"),
                   (dg.VOCAB, 11, 23, "keyword 'hoard': a parameter named 'you' would hide "
                                      "the built-in `you`")], got
