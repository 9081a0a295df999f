"""A negative number outside a `{amount:signed}` placeholder printed with the hyphen-minus:
a pack's token `scoring: "score -2"` read "Score -2 points" / "得-2分" on the token sheet,
while README ("Rules text") says the sheets set every negative number with U+2212."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loader, vocabulary
from tomecraft.dsl.parser import parse
from tomecraft.dsl.render import render

CONTENT = Path(__file__).resolve().parents[2] / "content"


def vocab(game: str):
    reporter = dg.Reporter()
    v = vocabulary.build(loader.load(CONTENT / game / "game.yaml", reporter), reporter, "game.yaml")
    assert v is not None and not reporter.errors
    return v


@pytest.mark.parametrize("game, effect, en, zh", [
    ("clank_catacombs", "score -2", "Score \u22122 points.", "得\u22122分。"),
    ("clank_catacombs", "score -1", "Score \u22121 point.", "得\u22121分。"),
    ("clank_catacombs", "let x = -2; score x", "\u22122", "\u22122"),
    ("dungeontology", "add_alert -1", "\u22121", "\u22121"),
])
def test_a_negative_number_is_printed_with_the_typeset_minus(game, effect, en, zh):
    v = vocab(game)
    got_en, got_zh = render(parse(effect), v, "en"), render(parse(effect), v, "zh")
    assert en in got_en and zh in got_zh, (got_en, got_zh)
    for text in (got_en, got_zh):
        assert "-" not in text, text


@pytest.mark.parametrize("effect, zh", [("add_alert -1", "警戒值\u22121"), ("add_stealth 2", "隐匿值+2"),
                                        ("add_stealth -3", "隐匿值\u22123")])
def test_a_plus_written_before_a_count_is_its_sign(effect, zh):
    """Dungeontology's `add_alert` reads "警戒值+{amount}": a pack region's `add_alert -1`
    printed "警戒值+−1" on the region sheet."""
    got = render(parse(effect), vocab("dungeontology"), "zh")
    assert zh in got and "+\u2212" not in got, got


@pytest.mark.parametrize("effect, zh, en", [
    ("each opponent where same_region(it): discard_random it 1",
     "对每位与你在同一地域的对手：该对手随机弃掉1张计谋卡", "For each opponent in your region, that opponent discards"),
    ("each opponent: discard_random it 1", "每位对手各自随机弃掉1张计谋卡", "Each opponent: that opponent discards"),
])
def test_each_player_is_a_person_not_it(effect, zh, en):
    """A pack doom card's `each opponent where same_region(it): discard_random it 1` printed
    "对每位……的对手：它随机弃掉1张计谋卡" ("it" of a person; a `target` reads "该对手")."""
    v = vocab("dungeontology")
    got_zh, got_en = render(parse(effect), v, "zh"), render(parse(effect), v, "en")
    assert zh in got_zh and "它" not in got_zh, got_zh
    assert en in got_en, got_en
