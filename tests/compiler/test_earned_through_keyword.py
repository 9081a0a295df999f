"""The Cave's token sheet says how each token is earned: every effect that names it. A pack's
tile kind earning its relic token through its own keyword (`dig_up 2`, whose body takes the
token) was left out: only "When discovered" was listed (packs round 11)."""
from __future__ import annotations

import html
import re
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline, sheets

REPO = Path(__file__).resolve().parents[2]

PACK = """id: relics
game: the_cave
version: '1'
vocabulary:
  terms:
    token:
      relic: {zh: 遺跡標記, en: relic token}
    category:
      relic: {zh: 遺跡, en: relic}
  keywords:
    dig_up:
      params: [{name: n, type: int, min: 1}]
      effect: "pay ap n -> take_token relic"
      text: {zh: "挖掘{n}", en: "Dig up {n}"}
"""
CONTENT = """tokens:
  - id: relic
    name: {zh: 遺跡標記, en: Relic token}
    source: approximation
    note: a fan token
    supply: 10
    term: relic
    points: 3
    category: relic
tile_kinds:
  - id: ruins
    name: {zh: 遺跡版塊, en: Ruins}
    source: approximation
    note: a fan tile kind
    on_discover: "place_token relic"
    enter:
      - {id: walk, effect: "pay ap 1"}
      - {id: dig, effect: "dig_up 2"}
    discover_from: true
    rope_edges: false
tiles:
  - id: s1_normal_ns
    replace: true
    name: {zh: "第1疊 遺跡 NS", en: "Stack 1 ruins NS"}
    source: approximation
    note: a fan tile
    stack: 1
    tile_kind: ruins
    exits: NS
    count: 2
"""


def test_a_token_earned_through_a_pack_keyword_is_listed(tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "content.yaml").write_text(CONTENT, encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "the_cave", [tmp_path], reporter)
    assert not reporter.errors, dg.format_text(reporter)
    tokens = next(s for s in sheets.SHEETS["the_cave"] if "token" in s.template)
    page = re.sub(r"<style.*?</style>", "", sheets.render_html(game, tokens, "en"), flags=re.S)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    row = text[text.index("Relic token ≈"):text.index("Squeeze-1 token kept")]
    assert "Ruins › Ways to enter" in row and "Dig up 2." in row, row
    assert "Ruins › When discovered" in row, row


def test_a_note_written_in_chinese_is_on_the_chinese_sheet(tmp_path):
    """A plain note is read as English: a fan's note written in Chinese alone ("粉丝设计：遗迹")
    was printed on the English sheet half translated ("粉丝设计：relic.") and on no Chinese one
    (packs round 11). It goes to the Chinese sheet, with a full-width stop."""
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "content.yaml").write_text(
        CONTENT.replace("note: a fan token", "note: 粉絲設計：遺跡"), encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "the_cave", [tmp_path], reporter)
    assert not reporter.errors, dg.format_text(reporter)
    tokens = next(s for s in sheets.SHEETS["the_cave"] if "token" in s.template)

    def text(lang):
        page = re.sub(r"<style.*?</style>", "", sheets.render_html(game, tokens, lang), flags=re.S)
        return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert "粉絲" not in text("en") and "relic." not in text("en")
    assert "粉絲設計：遺跡。" in text("zh").replace(" ", "")
