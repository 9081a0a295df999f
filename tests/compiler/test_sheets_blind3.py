"""What a player reading the printed sheets found, blind test round 3 (2026-11-28): numbers
without their unit, phrases a person would not write, facts the sheet contradicts."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.compiler.test_sheets_blind import _text, clank, drg  # noqa: F401 (fixtures)
from tests.compiler.test_sheets_blind2 import _page

REPO = Path(__file__).resolve().parents[2]


def test_drg_warden_field_says_its_range_in_spaces(drg):
    """The Warden read 'other monsters within 3 take 2 less damage': 3 what? (zh says 3格)."""
    text = _text(drg, "monsters", "en")
    assert "other monsters within 3 spaces take 2 less damage per attack" in text


def test_drg_tables_name_range_and_move_in_words(drg):
    """The monster board and the weapon tables headed their columns 'R' and 'M' (zh 射程 and
    行动力, the rulebook's Range and Move): a player had to guess."""
    for sheet in ("monsters", "weapons", "classes"):
        page = _page(drg, sheet, "en")
        assert "<th>Range</th>" in page, sheet
        assert "<th>R</th>" not in page and "<th>M</th>" not in page, sheet
    assert "<th>Move</th>" in _page(drg, "monsters", "en")


@pytest.mark.parametrize("lang, header", [("en", "effect on the dwarf attacked"),
                                          ("zh", "对被攻击矮人的效果")])
def test_drg_bang_column_says_whom_it_means(drg, lang, header):
    """The Mactera Spawn's '"!" effect' read 'It becomes Stunned.' on the monster's own row:
    'it' is the dwarf attacked (monsters.yaml), but a player read the Mactera stunned."""
    assert header in _page(drg, "monsters", lang)


@pytest.mark.parametrize("lang, gold, nitra", [
    ("en", "pays for an Overclock (1); may replace Nitra", "pays for the supply pod (3)"),
    ("zh", "支付超频（1颗），也可替代硝石", "支付补给舱（3颗）")])
def test_drg_minerals_say_what_gold_and_nitra_pay_for(drg, lang, gold, nitra):
    """The rules sheet's mineral table gave Gold and Nitra no use ('—') while its action list
    says an Overclock costs 1 Gold and the supply pod 3 Nitra (L584-598)."""
    text = _text(drg, "rules", lang)
    assert gold in text and nitra in text


def test_drg_alien_egg_says_its_grunts_once(drg):
    """The Alien Egg read 'if the number of ! results in the roll is 2, put 2 Grunts at each
    revealed Tunnel Exit; otherwise, put X Grunts ..., where X is the number of ! results':
    two branches that say the same (L536: one Grunt per "!", so two for two)."""
    text = _text(drg, "rules", "en")
    assert ("When struck with the pickaxe, roll 2 monster attack dice and put 1 Grunt per “!” "
            "result in the roll at each revealed tunnel exit.") in text


def test_drg_a_face_rolled_reads_the_roll_shows_it(drg):
    """The Loot Bug read 'if there are four squares (Gold) results in the roll, gain 1 Gold':
    a face is shown by the roll ('if the roll shows four squares (Gold)')."""
    text = _text(drg, "rules", "en")
    assert "roll 1 Mineral die; if the roll shows four squares (Gold), gain 1 Gold" in text
    assert "results in the roll, " not in text


def test_dungeontology_prophecy_adds_the_bonus_in_words():
    """Dungeontology's Prophecy cards read 'add X to the stealth value, where X is the bonus
    value of the card chosen by the prophecy; otherwise, add Y to the alert value, where Y is
    the bonus value ...' (19 times on the cards sheet): the value is the object itself."""
    from tests.compiler.test_sheets_blind import _game
    text = _text(_game("dungeontology"), "cards", "en")
    assert ("add the bonus value of the card chosen by the prophecy to the stealth value; "
            "otherwise, add the bonus value of the card chosen by the prophecy to the alert "
            "value") in text


def test_clank_signposts_score_per_signpost(clank):
    """The Monk read 'Score X points, where X is your recorded signposts'."""
    text = _text(clank, "tokens", "en") + _text(clank, "cards", "en")
    assert "Score 1 point per recorded signpost" in text
    assert "where X is your recorded signposts" not in text


@pytest.mark.parametrize("lang, words", [("en", "; Recover every drone (1)"),
                                         ("zh", "；回收全部无人机（1架）")])
def test_drg_briefing_counts_the_drones_in_words(drg, lang, words):
    """A mission briefing's objective read 'Recover the drones × 1' (a count as a stock)."""
    import yaml
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_context
    path = REPO / "tests/deep_rock_galactic/missions/valid/fossil_field.yaml"
    mission = yaml.safe_load(path.read_text(encoding="utf-8"))["mission"]
    text = str(briefing_context(drg, mission, lang))
    assert words in text


def test_drg_briefing_map_keys_stand_apart(drg, tmp_path):
    """The map's legend read 'P = Drop pod 1/2/3 = Tunnel exits ! = ...': its keys were joined
    by two spaces, which HTML shows as one, so no reader could tell where a key ended."""
    import yaml
    from tomecraft.compiler.sheets.deep_rock_galactic import write_briefing
    path = REPO / "tests/deep_rock_galactic/missions/valid/fossil_field.yaml"
    mission = yaml.safe_load(path.read_text(encoding="utf-8"))["mission"]
    [page] = write_briefing(drg, mission, ["en"], ["html"], tmp_path)
    page = page.read_text(encoding="utf-8")
    assert '<span class="key">P = Drop pod</span>' in page
    assert '<span class="key">1/2/3 = Tunnel exits</span>' in page


@pytest.mark.parametrize("lang, words", [("en", "rank 1 = 8 points"), ("zh", "第1名 = 8分")])
def test_cave_majority_bonus_says_points(lang, words):
    """The Cave's token sheet read 'Majority bonus: rank 1 = 8, rank 2 = 4': 8 what?"""
    from tests.compiler.test_sheets_blind import _game
    assert words in _text(_game("the_cave"), "tokens", lang)


@pytest.mark.parametrize("lang, words", [("en", "“!” on the dwarf attacked: The dwarf becomes Webbed."),
                                         ("zh", "“！”对被攻击矮人：使该矮人虫网束缚。")])
def test_drg_monster_card_bang_says_whom_it_means(drg, lang, words):
    """The Web Spitter's print-and-play card read '“!”: It becomes Webbed.' as if the Web
    Spitter were: 'it' is the dwarf attacked (the monster board's column says so now)."""
    import html
    import re
    from tomecraft.compiler.sheets import cards
    text = html.unescape(re.sub(r"<[^>]+>", "", cards.render_html(drg, lang)))
    assert words in re.sub(r"\s+", " ", text)


def test_clank_a_count_you_hold_reads_as_you_hold(clank):
    """The Sorcerer read 'If the number of Secret Tome cards you hold is at least 2, score 5
    points'; a person writes 'If you hold at least 2 Secret Tome cards'."""
    text = _text(clank, "tokens", "en")
    assert "If you hold at least 2 Secret Tome cards, score 5 points." in text
    assert "the number of Secret Tome cards you hold" not in text


def test_drg_hazard_notes_name_the_printed_square(drg):
    """The Hazard notes read 'Start square index 0 of an approximated track' and 'The 3-5
    square, index 2': a programmer's index, where the board prints 1, 2 and 3-5 (L165-167)."""
    text = _text(drg, "rules", "en")
    assert "index" not in text
    assert "Hazard 3, Hazard 4, Hazard 5: Starts on the square marked 3–5" in text


def test_english_sheets_set_curly_quotes_at_their_own_width(drg):
    """Where no Latin Noto Sans is installed the English sheets are set in Noto Sans CJK, whose
    curly quotes are full-width: 'says  “Optional”  ;' and 'Grunt's  “!”' printed with a gap on
    each side. The 'pwid' feature (proportional widths) sets them as Latin quotes; zh keeps
    its full-width punctuation."""
    from tomecraft.compiler.sheets import cards
    for page in (_page(drg, "rules", "en"), cards.render_html(drg, "en", max_pages=1)):
        rule = re.search(r"html:lang\(en\)\s*\{([^}]*)\}", page)
        assert rule and 'font-feature-settings: "pwid"' in rule.group(1)


@pytest.mark.parametrize("lang, hazard_5", [("en", "the square marked 3–5"),
                                            ("zh", "标有“3–5”的格子")])
def test_drg_hazard_table_names_the_square_as_the_board_marks_it(drg, lang, hazard_5):
    """The Hazard table said Hazard 4 and 5 start on 'square 3': the board marks its three
    starting squares 1, 2 and 3-5 (L165-167), so a player looked for a square marked 3."""
    text = _text(drg, "rules", lang)
    assert hazard_5 in text and ("square 3" not in text and "第3格" not in text)


def test_cave_a_condition_says_its_subject_once():
    """The Cave's actions read 'Only if your camp has not been abandoned and your camp is
    packed': a person says 'your camp' once."""
    from tests.compiler.test_sheets_blind import _game
    text = _text(_game("the_cave"), "rules", "en")
    assert "your camp has not been abandoned and is packed" in text
    assert "and your camp is packed" not in text


def test_crawl_options_one_word_apart_are_said_once():
    """Training Ground read 'Choose one: turn 1 used Strength token face up; or turn 1 used
    Agility token face up; or ...' four times over for one word."""
    from tests.compiler.test_sheets_blind import _game
    text = _text(_game("dm_crawl_decks"), "cards", "en")
    assert ("Choose one: turn 1 used Strength, Agility, Perception or Intelligence token face "
            "up.") in text


def test_drg_flaming_ground_says_twice(drg):
    """Flaming Ground read 'At most 2 times a round.'"""
    text = _text(drg, "classes", "en")
    assert "At most twice a round." in text and "2 times a round" not in text


@pytest.mark.parametrize("lang, words", [("en", "reroll 1 die with the fewest hits"),
                                         ("zh", "重掷命中最少的1颗骰子")])
def test_drg_steady_grip_says_which_die_is_rerolled(drg, lang, words):
    """Steady Grip read 'reroll 1 hit die' beside its note 'the worst die of each attack is
    rolled again' (and play rerolls the worst, verbs.reroll): 'hit die' named no die."""
    assert words in _text(drg, "weapons", lang)
