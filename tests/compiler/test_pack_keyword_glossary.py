"""A pack keyword printed by its text is said somewhere: a Clank! pack's `haul` (text
"Haul {n}") printed "Defeat reward: Haul 2." on the cards sheet, and no sheet said what Haul
does (Dungeontology's symbols sheet and Crawl Decks' keyword sheet list a pack's keywords;
Clank!, The Cave and Deep Rock Galactic had no such place)."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline, sheets

REPO = Path(__file__).resolve().parents[2]

HAUL = """id: haulers
game: clank_catacombs
version: '1'
vocabulary:
  keywords:
    haul:
      params: [{name: n, type: int}]
      effect: "draw n; clank (0 - n)"
      text: {zh: "搬运{n}", en: "Haul {n}"}
"""
CARD = """cards:
  - id: bat_swarm
    replace: true
    name: {zh: 搬运蝙蝠, en: Hauling Bats}
    source: approximation
    note: a fan card
    card_type: monster
    after_use: dungeon_discard
    count: 4
    defeat_cost: 1
    dragon_attack: true
    on_defeat: "haul 2"
"""


def text_of(page: str) -> str:
    page = re.sub(r"<style.*?</style>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture
def game(tmp_path):
    (tmp_path / "pack.yaml").write_text(HAUL, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(CARD, encoding="utf-8")
    reporter = dg.Reporter()
    compiled = pipeline.compile_game(REPO / "content" / "clank_catacombs", [tmp_path], reporter)
    assert not reporter.errors, reporter.diagnostics
    return compiled


@pytest.mark.parametrize("lang, row", [("en", "Haul N Draw N cards. \u2212N Clank!"),
                                       ("zh", "搬运N 抽N张牌；\u2212N咔嚓！")])
def test_the_sheet_that_prints_a_pack_keyword_says_what_it_does(game, lang, row):
    cards = next(s for s in sheets.SHEETS["clank_catacombs"] if "cards" in s.template)
    text = text_of(sheets.render_html(game, cards, lang))
    assert "Haul 2" in text or "搬运2" in text
    assert row in text, text[text.find("Haul N" if lang == "en" else "搬运N") - 40:][:200]


def test_a_sheet_without_the_keyword_has_no_glossary(game):
    rules = next(s for s in sheets.SHEETS["clank_catacombs"] if "rules" in s.template)
    assert "Haul" not in text_of(sheets.render_html(game, rules, "en"))


def test_a_pack_named_like_its_keyword_glosses_it_only_where_it_is_printed(tmp_path):
    """The row was added wherever the keyword's label was found in the page: a pack named
    "Haulers" ("搬运队") put Haul's row on every sheet, through the line naming the pack
    (packs round 11)."""
    (tmp_path / "pack.yaml").write_text(HAUL + "name: {zh: 搬运队, en: Haulers}\n",
                                        encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(CARD, encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "clank_catacombs", [tmp_path], reporter)
    assert not reporter.errors, reporter.diagnostics
    rules = next(s for s in sheets.SHEETS["clank_catacombs"] if "rules" in s.template)
    cards = next(s for s in sheets.SHEETS["clank_catacombs"] if "cards" in s.template)
    for lang, row in (("en", "Haul N"), ("zh", "搬运N")):
        assert row not in text_of(sheets.render_html(game, rules, lang)), lang
        assert row in text_of(sheets.render_html(game, cards, lang)), lang
