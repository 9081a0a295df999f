"""An event card's `after_use` is only printed (the sheets' after-use column): play puts a chosen
event card where its card_type says (rules.event_leaves_to, L31): a loot card to the loot pile,
a general event activated and then to the event discard pile. A pack's loot card that left it
out was printed "discarded after use" (the kind's default), and a general event saying `loot`
was printed "to your loot pile" and checked clean. The Clank! sibling is
tests/clank_catacombs/test_after_use.py."""
from __future__ import annotations

import html
import re
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

GAME = Path(__file__).resolve().parents[2] / "content" / "dm_crawl_decks"

EVENTS = """\
event_cards:
  - id: fan_gold_loot
    name: {zh: 粉丝金币战利品, en: Fan Gold Loot}
    source: approximation
    note: "A test pack's loot card with no after_use."
    card_type: loot
    resource: gold
    count: 2
    effect: "loot_of gold"
  - id: fan_spring
    name: {zh: 粉丝之泉, en: Fan Spring}
    source: approximation
    note: "A test pack's general event that says it goes to the loot pile."
    card_type: general_event
    after_use: loot
    count: 1
    effect: "heal 1"
"""


def compile_pack(tmp_path: Path, events: str):
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: dm_crawl_decks\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "events.yaml").write_text(events, encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(GAME, [pack], reporter)
    return game, reporter


def sheet_text(game) -> str:
    cards = next(s for s in sheets.SHEETS["dm_crawl_decks"] if s.name == "cards")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(sheets.render_html(game, cards, "en"))))


def test_an_after_use_play_does_not_do_is_refused_at_the_field(tmp_path):
    _, reporter = compile_pack(tmp_path, EVENTS)
    found = [(d.code, Path(d.file).name, d.line) for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert found == [("TC-G001", "events.yaml", 15)], dg.format_text(reporter)
    message = next(d.message for d in reporter.diagnostics if d.severity == dg.ERROR)
    assert "event discard pile" in message and "L31" in message


def test_a_loot_card_left_without_after_use_prints_the_loot_pile(tmp_path):
    game, reporter = compile_pack(tmp_path, EVENTS.replace("    after_use: loot\n", ""))
    assert not reporter.errors, dg.format_text(reporter)
    text = sheet_text(game)
    assert re.search(r"Fan Gold Loot .{0,40}to your loot pile", text)
    assert re.search(r"Fan Spring .{0,40}discarded after use", text)
    assert re.search(r"Potion Loot .{0,40}to your loot pile", text)    # the base's, said in full
