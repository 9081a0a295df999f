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
