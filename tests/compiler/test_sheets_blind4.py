"""What a player printing the sheets found, blind test round 4 (2026-11-28): a count compared
with a number read 'the number of ... is at least 3' or 'fewer treasures than 2', a simulator's
safety cap printed as a rule ('回合上限：120'), and Clank! read '2 Clank!' where the cards print
'+2 咔嚓!'. Each is checked on the shipped sheets and on a fan's pack."""
from __future__ import annotations

import textwrap

import pytest

from tests.compiler.test_sheets_blind import REPO, _game, _text, clank  # noqa: F401 (fixtures)
from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

FAN_CARDS = """\
cards:
  - {id: fan_bard, name: {zh: 吟游诗人, en: Bard}, source: approximation, note: Fan card.,
     card_type: acquire, companion: true, count: 7, cost: 4,
     play: "if hand_size() >= 3 { draw 1 } else { gain skill 2 }"}
  - {id: fan_bone_pile, name: {zh: 骨堆, en: Bone Pile}, source: approximation, note: Fan card.,
     card_type: acquire, count: 3, cost: 2,
     play: "gain combat 1; when treasures_held() >= 1: gain movement 2; clank 3"}
"""
FAN_ITEMS = """\
market_items:
  - {id: fan_lantern, name: {zh: 提灯, en: Lantern}, source: approximation, note: Fan item.,
     price: 7, count: 2, points: [3, 3], require_to_buy: "require treasures_held() < 2",
     on_buy: "gain lockpick 1; clank -1"}
"""


@pytest.fixture(scope="module")
def fan_clank(tmp_path_factory):
    """A fan's Clank! pack: 10 dungeon cards in place of 10 removed, and a market item."""
    pack = tmp_path_factory.mktemp("fan_clank")
    (pack / "pack.yaml").write_text(textwrap.dedent("""\
        id: fan_clank
        game: clank_catacombs
        version: "0.1"
        name: {zh: 同人包, en: Fan pack}
        requires: []
        remove: [{kind: card, id: heavy_blow}, {kind: card, id: fleet_foot},
                 {kind: card, id: secret_passage}]
        """), encoding="utf-8")
    (pack / "cards.yaml").write_text(FAN_CARDS, encoding="utf-8")
    (pack / "market_items.yaml").write_text(FAN_ITEMS, encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "clank_catacombs", [pack], reporter)
    assert game is not None and not reporter.errors and not reporter.warnings, \
        dg.format_text(reporter)
    return game


def test_fan_count_against_a_number_says_how_many(fan_clank):
    """The fan's Lantern read 'To buy: Only if you hold fewer treasures than 2.' and the Bard
    'If the number of unplayed cards in your hand is at least 3, draw 1 card'."""
    tokens, cards = _text(fan_clank, "tokens", "en"), _text(fan_clank, "cards", "en")
    assert "To buy: Only if you hold fewer than 2 treasures." in tokens
    assert "fewer treasures than 2" not in tokens
    assert "If there are at least 3 unplayed cards in your hand, draw 1 card" in cards
    assert "the number of unplayed cards" not in cards


def test_shipped_counts_against_a_number_say_how_many(clank):
    """The prison cell read 'then if the number of prisoners left in the supply is at least 2,
    take 2 random prisoners'; DRG's Subata overclock 'if the number of blank results in the
    roll is less than 2'."""
    rules = _text(clank, "rules", "en")
    assert "then if there are at least 2 prisoners left in the supply, take 2 random prisoners" \
        in rules
    assert "the number of prisoners left in the supply is" not in rules
    weapons = _text(_game("deep_rock_galactic"), "weapons", "en")
    assert "if the roll shows fewer than 2 blank results, spend 1 secondary ammo" in weapons


@pytest.mark.parametrize("game_id, sheet, words", [
    ("the_cave", "rules", ("Simulation round cap", "模擬回合上限")),
    ("clank_catacombs", "rules", ("Safety round cap", "安全回合上限")),
    ("dm_crawl_decks", "rules", ("Turn cap", "回合上限")),
    ("dungeontology", "rules", ("Round cap", "回合上限"))])
def test_a_simulator_cap_is_no_rule_on_the_player_sheet(game_id, sheet, words):
    """'≈40 回合上限：120。' on Dungeontology's player sheet read as a rule ending the game
    after 120 rounds; the rulebook has none: it is the simulator's safety cap (`sim_only`).
    The designer edition keeps it."""
    from tomecraft.compiler import sheets
    game = _game(game_id)
    en, zh = words
    assert en not in _text(game, sheet, "en") and zh not in _text(game, sheet, "zh")
    spec = next(s for s in sheets.SHEETS[game.id] if s.name == sheet)
    assert en in sheets.render_html(game, spec, "en", edition="designer")


@pytest.mark.parametrize("lang, words", [
    ("en", ["Play: Gain 3 skill. +2 Clank!", "Play: Gain 1 movement. −1 Clank!",
            "Arrive: Each player: +1 Clank!"]),
    ("zh", ["打出：获得3技能点；+2咔嚓！", "打出：获得1移动力；−1咔嚓！"])])
def test_clank_is_printed_with_its_sign(clank, lang, words):
    """Loudmouth read 'Gain 3 skill. 2 Clank!' beside Silent Step's '-1 Clank!': the cards
    print '+1 咔嚓!' and '- 2 咔嚓!' (rulebook L274, L282)."""
    text = _text(clank, "cards", lang)
    for w in words:
        assert w in text, w


def test_fan_clank_is_printed_with_its_sign(fan_clank):
    text = _text(fan_clank, "cards", "en") + _text(fan_clank, "tokens", "en")
    assert "gain 2 movement and +3 Clank!" in text
    assert "On buying: Gain 1 lockpick token. −1 Clank!" in text
