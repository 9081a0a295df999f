"""Crawl Decks sheets: the battle's windows in order, layering examples computed by the
runtime, every card and keyword listed, both languages, PDF renders."""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline
from tomecraft.compiler.sheets import SHEETS, render_html, write_pdf
from tomecraft.compiler.sheets.dm_crawl_decks import layering_result

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=1)
def game():
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content" / "dm_crawl_decks", [], reporter)
    assert g is not None and not reporter.errors
    return g


def page(name: str, lang: str) -> str:
    sheet = next(s for s in SHEETS["dm_crawl_decks"] if s.name == name)
    return render_html(game(), sheet, lang)


def text(doc: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", doc))


@pytest.mark.parametrize("example,value,zero", [
    ("LAY-1", 2, False), ("LAY-2", 1, False), ("LAY-3", 2, False), ("LAY-4", 0, True),
    ("LAY-5", 3, False)])
def test_layering_examples_are_computed_by_the_shared_runtime(example, value, zero):
    assert layering_result(example) == (value, zero)


def test_rules_sheet_lists_the_battle_windows_in_order_in_both_languages():
    en = text(page("rules", "en"))
    steps = ["Play", "Pre-battle ①", "Pre-battle ②", "Pre-battle ③", "Before the round",
             "Round ①", "Round ②", "Compare", "Win / defeat", "Post-battle"]
    at = [en.index(s) for s in steps]
    assert at == sorted(at)
    zh = text(page("rules", "zh"))
    at = [zh.index(s) for s in ("出牌", "战前 ①", "战斗轮前", "战斗轮 ①", "比较", "战胜/战败", "战后")]
    assert at == sorted(at)
    assert "0 → 送墓" in zh and "0 → graveyard" in en
    assert "Dungeon Master Crawl Decks：规则速查" in zh


def test_card_list_has_every_card_with_rendered_text():
    en = text(page("cards", "en"))
    for name in ("War Drummer", "Stone Gaze", "Goblin Bugler", "Golden Bribe", "Yande’s Identity Card",
                 "Gold Loot", "Treasure Map"):
        assert name in en
    assert "Continuous: for each main-deck card in the battlefield" in en
    assert "(starter set, 42 cards)" in en
    zh = text(page("cards", "zh"))
    assert "呼唤探索区的陷阱牌" in zh and "重抽该牌" in zh and "it位于" not in zh


def test_keyword_sheet_names_the_cards_using_each_keyword():
    en = text(page("keywords", "en"))
    row = en[en.index("Stack above / below"):en.index("Search")]
    assert "Lurker" in row and "Nest" in row
    row = en[en.index("Summon"):en.index("Side")]
    assert "Goblin Bugler" in row


def test_pdfs_render(tmp_path):
    for name in ("rules", "keywords"):
        path = tmp_path / f"{name}.zh.pdf"
        write_pdf(page(name, "zh"), path)
        assert path.read_bytes()[:4] == b"%PDF"


def test_a_packs_board_counts_agree_with_their_nouns(tmp_path):
    """A pack's board with 2 starting tokens and 1 relic drawn: "2 attribute tokens", "draw 1
    relic" (the sheet printed "2 attribute token" whatever the count)."""
    base = (ROOT / "content" / "dm_crawl_decks" / "board.yaml").read_text(encoding="utf-8")
    board = base.replace("  - id: standard\n", "  - id: standard\n    replace: true\n")
    board = board.replace("start_tokens: 1", "start_tokens: 2").replace("relic_draw: 5", "relic_draw: 1")
    board = board.replace("relic_keep: 2", "relic_keep: 1")
    (tmp_path / "pack.yaml").write_text("id: board_pack\ngame: dm_crawl_decks\nversion: '1'\n")
    (tmp_path / "boards.yaml").write_text(board, encoding="utf-8")
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content" / "dm_crawl_decks", [tmp_path], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    rules = next(s for s in SHEETS["dm_crawl_decks"] if s.name == "rules")
    en = text(render_html(g, rules, "en"))
    assert "Start with 1 gold and 2 attribute tokens; draw 1 relic and keep 1;" in en


def _rules_with_loot(tmp_path, effect: str) -> dict:
    """The rules sheet of the base plus a pack adding one loot card whose effect is `effect`."""
    tmp_path.mkdir()
    (tmp_path / "pack.yaml").write_text("id: loot_pack\ngame: dm_crawl_decks\nversion: '1'\n")
    (tmp_path / "content.yaml").write_text(
        "event_cards:\n  - id: bonus_gold_loot\n    name: {zh: 额外金币战利品, en: Bonus Gold Loot}\n"
        "    source: approximation\n    note: \"A test's loot card.\"\n    card_type: loot\n"
        f"    after_use: loot\n    resource: gold\n    count: 2\n    effect: \"{effect}\"\n", encoding="utf-8")
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content" / "dm_crawl_decks", [tmp_path], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    rules = next(s for s in SHEETS["dm_crawl_decks"] if s.name == "rules")
    return {lang: text(render_html(g, rules, lang)) for lang in ("zh", "en")}


def test_the_two_n_minus_one_summary_shows_only_while_every_loot_card_is_loot_of_its_resource(tmp_path):
    """L244's "n of a kind give 2n - 1" sums up `loot_of`: a pack's loot card gaining 3 gold
    makes it false, so the sheet says the neutral sentence; one more `loot_of gold` keeps it."""
    base = {lang: text(page("rules", lang)) for lang in ("zh", "en")}
    assert "n张获得2n−1个资源" in base["zh"] and "give 2n − 1" in base["en"]
    other = _rules_with_loot(tmp_path / "a", "gain gold 3")
    assert "2n" not in other["zh"] and "2n" not in other["en"]
    assert "各按其效果获得资源" in other["zh"] and "each giving what its effect says" in other["en"]
    wrong_kind = _rules_with_loot(tmp_path / "b", "loot_of food")      # a gold card cashing food
    assert "2n" not in wrong_kind["en"]
    same = _rules_with_loot(tmp_path / "c", "loot_of gold")
    assert "give 2n − 1" in same["en"] and "n张获得2n−1个资源" in same["zh"]


def test_the_approximations_on_the_cards_sheet_are_said_for_players():
    """The English cards sheet's "What is approximate" list printed designer shorthand: "A plain
    2/1 monster.", "Turn-end timing and stack above.", "A one-shot set at pre-battle.",
    "Search; fizzles when ...". Each entry now says what the card does in play words."""
    body = re.sub(r"\s+", " ", text(page("cards", "en")))
    listed = body[body.index("What is approximate"):]
    for shorthand in ("a plain ", "timing", "one-shot", "continuous add", "fizzle", "-cost relic",
                      "at pre-battle", "送墓", "被弃置"):
        assert shorthand not in listed.lower(), shorthand
    assert "Lurker : At the end of each turn it stacks the main deck’s top card just above " \
           "itself in its column." in listed
