"""A keyword's legend (its name column: "Haul N") is its text through the template grammar its
uses are rendered by: a plain replace of `{n}` left a pack's "Bounty {n:signed} gold" and
"draw N card(s)" on Clank!'s cards sheet, and "Chant N: {n:signed} stealth" on
Dungeontology's regions sheet, while the cards using them read "+2" and "2 cards" (packs
round 11). Dungeontology's label also named every count N, where the meaning beside it says
N and M."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline, sheets

REPO = Path(__file__).resolve().parents[2]

CLANK = """id: bounties
game: clank_catacombs
version: '1'
vocabulary:
  keywords:
    bounty:
      params: [{name: n, type: int, min: 1}]
      effect: "gain gold n; draw n"
      text: {zh: "赏金{n}：金币{n:signed}", en: "Bounty {n:signed}: draw {n} card(s)"}
"""
CLANK_CARD = """cards:
  - id: bat_swarm
    replace: true
    name: {zh: 赏金蝙蝠, en: Bounty Bats}
    source: approximation
    note: a fan card
    card_type: monster
    after_use: dungeon_discard
    count: 4
    defeat_cost: 1
    dragon_attack: true
    on_defeat: "bounty 2"
"""
DUNGEON = """id: chants
game: dungeontology
version: '1'
vocabulary:
  keywords:
    chant:
      params: [{name: n, type: int, min: 1}, {name: m, type: int, min: 1}]
      effect: "add_stealth n; add_alert m"
      text: {zh: "吟唱{n}/{m}：隐匿值{n:signed}", en: "Chant {n}/{m}: {n:signed} stealth"}
"""
DUNGEON_REGION = """regions:
  - id: hunters_camp
    replace: true
    name: {zh: 猎人营地, en: "Hunters' Camp"}
    source: approximation
    note: a fan region
    number: I-1
    level: 1
    alert: 2
    slots: [civilization, military, civilization]
    passages: NESW
    effects: ["stairs", "boss", "on stealth_value where attempting(): chant 1 2"]
"""


def text_of(page: str) -> str:
    page = re.sub(r"<style.*?</style>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def compiled(folder: Path, game: str, manifest: str, name: str, content: str):
    (folder / "pack.yaml").write_text(manifest, encoding="utf-8")
    (folder / name).write_text(content, encoding="utf-8")
    reporter = dg.Reporter()
    result = pipeline.compile_game(REPO / "content" / game, [folder], reporter)
    assert not reporter.errors, reporter.diagnostics
    return result


@pytest.mark.parametrize("lang, label", [("en", "Bounty +N: draw N cards"), ("zh", "赏金N：金币+N")])
def test_a_clank_pack_keyword_label_is_rendered(tmp_path, lang, label):
    game = compiled(tmp_path, "clank_catacombs", CLANK, "cards.yaml", CLANK_CARD)
    cards = next(s for s in sheets.SHEETS["clank_catacombs"] if "cards" in s.template)
    text = text_of(sheets.render_html(game, cards, lang))
    assert "{n" not in text and "card(s)" not in text
    assert label in text


@pytest.mark.parametrize("lang, label", [("en", "Chant N/M: +N stealth"), ("zh", "吟唱N/M：隐匿值+N")])
def test_a_dungeontology_pack_keyword_label_is_rendered(tmp_path, lang, label):
    game = compiled(tmp_path, "dungeontology", DUNGEON, "regions.yaml", DUNGEON_REGION)
    regions = next(s for s in sheets.SHEETS["dungeontology"] if "region" in s.template)
    text = text_of(sheets.render_html(game, regions, lang))
    assert "{n" not in text
    assert label in text, text[text.find("Chant" if lang == "en" else "吟唱"):][:120]


CRAWL = """id: hunts
game: dm_crawl_decks
version: '1'
vocabulary:
  keywords:
    hunt:
      params: [{name: kind, type: card_type}, {name: n, type: int, min: 1}]
      effect: "search main_deck kind n"
      text: {zh: "狩猎{kind}{n}", en: "Hunt {n} {kind}"}
"""
CRAWL_EVENT = """event_cards:
  - id: hunting_party
    name: {zh: 狩猎队, en: Hunting Party}
    source: approximation
    note: a fan event
    card_type: general_event
    after_use: discard
    count: 2
    effect: "hunt monster 2"
"""


def test_a_crawl_pack_keyword_row_names_its_parameters_by_letters(tmp_path):
    """Crawl Decks' keyword sheet named a card-type parameter by its type: "Hunt N card
    types: search the main deck for N card types" (packs round 11); it takes a letter, as the
    other games' keyword tables."""
    game = compiled(tmp_path, "dm_crawl_decks", CRAWL, "events.yaml", CRAWL_EVENT)
    keywords = next(s for s in sheets.SHEETS["dm_crawl_decks"] if "keywords" in s.template)
    text = text_of(sheets.render_html(game, keywords, "en"))
    assert "card types" not in text
    assert "Hunt N X Search the main deck for N X" in text, text[text.find("Hunt N"):][:120]
