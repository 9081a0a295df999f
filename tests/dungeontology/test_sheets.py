"""Dungeontology's sheets: the rules reference carries the printed notebook table and the
procedures; the region reference renders every region's effects from the keywords; both
languages; PDFs render."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content" / "dungeontology", [], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    return g


@pytest.fixture(scope="module")
def pages(game):
    return {(s.name, lang): html.unescape(re.sub(r"<[^>]+>", " ", sheets.render_html(game, s, lang)))
            for s in sheets.SHEETS["dungeontology"] for lang in ("zh", "en")}


def test_region_reference_lists_every_region_with_rendered_keywords(pages, game):
    for lang in ("zh", "en"):
        page = pages[("regions", lang)]
        for region in game.of_kind("region"):
            name = region.data["name"][lang]
            assert sheets.typeset(sheets.zh_punctuation(name) if lang == "zh" else name) in page, (lang, region.id)
    assert "伏击2" in pages[("regions", "zh")] and "Ambush 2" in pages[("regions", "en")]
    assert "危险2" in pages[("regions", "zh")] and "Danger 2" in pages[("regions", "en")]
    # the keyword legend renders each snippet's meaning, not just its name
    assert "sacrifice N students" in pages[("regions", "en")]
    assert "Prophecy N (reveal the top N scheme cards" in pages[("symbols", "en")]
    assert "(s)" not in pages[("symbols", "en")] + pages[("regions", "en")]


def test_notebook_sheet_has_the_printed_notebook_table_and_thesis_bonuses(pages):
    for lang in ("zh", "en"):
        page = pages[("notebook", lang)]
        for value in ("+26", "+25", "+24", "+23", "+14", "+16"):
            assert value in page
        assert "10" in page and "7" in page
    assert "第1名10、第2名7、第3名5、第4名3" in pages[("notebook", "zh")]
    assert "1st 10, 2nd 7, 3rd 5, 4th 3" in pages[("notebook", "en")]
    assert "+10" in pages[("rules", "en")]          # five blocks: +10 (L920)
    assert "4 normal students per player plus 1 omega" in pages[("rules", "en")]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_pdfs_render_in_both_languages(game, tmp_path):
    regions = next(s for s in sheets.SHEETS["dungeontology"] if s.name == "regions")
    zh = tmp_path / "regions.zh.pdf"
    sheets.write_pdf(sheets.render_html(game, regions, "zh"), zh)
    text = subprocess.run(["pdftotext", str(zh), "-"], capture_output=True, text=True).stdout
    assert "牧羊人庇护所" in text and "盖亚的石碑" in text


def test_five_sheets_with_their_own_titles(pages):
    names = {name for name, _ in pages}
    assert names == {"rules", "regions", "notebook", "symbols", "cards"}
    assert "卡牌、首领与学者" in pages[("cards", "zh")]
    assert "效果符号速查" in pages[("symbols", "zh")] and "effect-symbol cheat sheet" in pages[("symbols", "en")]
    assert "笔记本计分表" in pages[("notebook", "zh")] and "region reference" in pages[("regions", "en")]
    # the symbol legend is no longer on the region sheet, the notebook table not on the rules
    assert "Prophecy N" in pages[("symbols", "en")] and "Prophecy N " not in pages[("regions", "en")].split("Region keywords")[0]
    assert "+26" not in pages[("rules", "en")]


def test_rules_and_symbols_state_the_priority_rule(pages):
    assert "Response card may be played at any time" in pages[("rules", "en")]
    assert "响应" in pages[("symbols", "zh")] and "Instant" in pages[("symbols", "en")]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_cards_sheet_holds_every_card_the_boss_and_the_scholars(game, pages, lang):
    page = pages[("cards", lang)]                      # text, unescaped
    for kind in ("scheme_card", "clan_card", "intern_card", "doom_card", "scholar"):
        assert game.of_kind(kind), kind
        for entity in game.of_kind(kind):
            assert sheets.typeset(entity.data["name"][lang]) in page, (kind, entity.id)
    for boss in game.of_kind("boss"):
        for side in boss.data["sides"]:
            assert sheets.typeset(side["name"][lang]) in page


def test_every_effect_symbol_has_an_icon(game):
    symbols = next(s for s in sheets.SHEETS["dungeontology"] if s.name == "symbols")
    page = sheets.render_html(game, symbols, "en")
    rows = [r for r in re.findall(r"<tr>.*?</tr>", page, flags=re.S) if "<td" in r]
    assert len(rows) >= 10
    for row in rows:
        assert '<svg class="icon"' in row, row[:120]
        assert 'r="5.5"' not in row, f"no icon drawn for this symbol (the fallback circle): {row[:120]}"


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", "After you generate a stealth value, if you are making this stealth attempt",
     "a scholar in this region"),
    ("zh", "你生成隐匿值后，若你正在进行此隐匿尝试", "在此地域生成隐匿值后"),
])
def test_a_doom_cards_trigger_speaks_of_its_owner_not_a_region(pages, lang, says, not_said):
    """A doom card, an intern or a passive skill hears its owner's events, so "after a scholar
    in this region generates a stealth value" (the event's text, written for regions) was
    wrong on them (Bad Omen; a pack's intern "when a scholar gains a star"). Found by the
    packs blind test."""
    cards = re.sub(r"\s+", " ", pages[("cards", lang)])
    assert says in cards and not_said not in cards


def _sheet_with(pack: Path, name: str, lang: str) -> str:
    """The sheet `name` of Dungeontology with `pack` loaded, as HTML with entities unescaped."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(ROOT / "content" / "dungeontology", [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    sheet = next(s for s in sheets.SHEETS["dungeontology"] if s.name == name)
    return html.unescape(sheets.render_html(game, sheet, lang))


def test_a_packs_keyword_gets_its_row_in_the_keyword_legend(tmp_path):
    """A card printing "Jinx 2" (a pack's keyword with its own text) must say somewhere what
    Jinx does: the legend listed only the rulebook's eleven keywords."""
    pack = tmp_path / "jinx"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: jinx\ngame: dungeontology\nversion: '1.0'\nvocabulary:\n  keywords:\n    jinx:\n"
        "      params: [{name: n, type: int}]\n      effect: \"on enter_region: gain_stun n\"\n"
        "      text: {zh: \"厄运{n}\", en: \"Jinx {n}\"}\n", encoding="utf-8")
    page = re.sub(r"<[^>]+>", " ", _sheet_with(pack, "regions", "en"))
    legend = re.sub(r"\s+", " ", page[page.index("Ambush N"):])
    assert "Jinx N When a scholar enters this region, gain N stun tokens" in legend, legend[:1500]


def test_a_packs_rule_value_is_said_not_the_base_games(tmp_path):
    """The sheet's words for a rule describe the base game's value: a pack that sets
    c2_caste_column to `literal` (which play reads) was told "the short caste column"."""
    (tmp_path / "pack.yaml").write_text("id: literal\ngame: dungeontology\nversion: '1'\n")
    (tmp_path / "rules.yaml").write_text(
        "rules:\n  - id: c2_caste_column\n    replace: true\n"
        "    name: {zh: 种姓列读法, en: Caste column reading}\n    source: approximation\n"
        "    note: fan\n    value: literal\n    options: [short, literal]\n", encoding="utf-8")
    en, zh = _sheet_with(tmp_path, "rules", "en"), _sheet_with(tmp_path, "rules", "zh")
    assert "the short caste column" not in en and "较短的种姓列" not in zh
    assert "the caste column read as printed" in en and "按印刷读取种姓列" in zh


def test_the_panic_line_counts_the_slots_of_each_alert_card(pages, game):
    """L1245: the panic comes when the alert card in play has no free slot; the tense card has
    3 rows, not the standard card's 4 (the sheet said "all 4 slots" for every card)."""
    slots = {card.data["name"]["en"]: len(card.data["rows"]) for card in game.of_kind("alert_card")}
    assert slots["Alert card (tense)"] == 3
    page = " ".join(pages[("rules", "en")].split())
    assert "all 4 slots" not in page
    # each card by what tells it from the others, in the sentence's own brackets (it printed
    # "(Alert card (standard) 4, ...)")
    for name, n in slots.items():
        assert f"{name.split('(')[1].rstrip(')')}: {n}" in page
    assert "紧张3个" in pages[("rules", "zh")] and "警戒卡（紧张）3个" not in pages[("rules", "zh")]
