"""A card's `after_use` is only printed: the engine puts a used card where its type says
(rules.leaves_to; L300, L310, L314, L524). A pack's monster or device that leaves it out is
printed as going to the dungeon discard pile, and one that says otherwise is refused."""
from __future__ import annotations

import html
import re
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

GAME = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs"

# two monsters replace two skeletons' worth of the deck: the dungeon deck stays at 100
CARDS = """\
cards:
  - id: skeleton
    replace: true
    name: {zh: 骷髅, en: Skeleton}
    source: approximation
    note: "A test pack: four skeletons, to make room."
    card_type: monster
    count: 4
    defeat_cost: 2
    on_defeat: "gain gold 2"
  - id: grave_warden
    name: {zh: 墓园看守, en: Grave Warden}
    source: approximation
    note: "A test pack's monster with no after_use."
    card_type: monster
    count: 1
    defeat_cost: 3
    on_defeat: "gain gold 3"
  - id: fan_chute
    name: {zh: 投币滑道, en: Coin Chute}
    source: approximation
    note: "A test pack's device that says it is discarded."
    card_type: device
    count: 1
    cost: 2
    after_use: discard
    on_use: "gain gold 2"
"""


def compile_pack(tmp_path: Path, cards: str):
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: clank_catacombs\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "cards.yaml").write_text(cards, encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(GAME, [pack], reporter)
    return game, reporter


def test_an_after_use_the_engine_does_not_do_is_refused_at_the_field(tmp_path):
    _, reporter = compile_pack(tmp_path, CARDS)
    found = [(d.code, Path(d.file).name, d.line) for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert found == [("TC-G001", "cards.yaml", 26)], dg.format_text(reporter)
    message = next(d.message for d in reporter.diagnostics if d.severity == dg.ERROR)
    assert "dungeon discard pile" in message and "L300, L310" in message


def test_a_monster_or_device_left_without_after_use_prints_the_dungeon_discard_pile(tmp_path):
    game, reporter = compile_pack(tmp_path, CARDS.replace("    after_use: discard\n", ""))
    assert not reporter.errors, dg.format_text(reporter)
    cards = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "cards")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(sheets.render_html(game, cards, "en"))))
    for name in ("Grave Warden", "Coin Chute"):
        assert re.search(name + r" .{0,40}to the dungeon discard pile after use", text), name
    assert re.search(r"Burgle .{0,40}discarded after use", text)
