"""What the last sheets round still found (2026-11-28): a target named "the target" again
("choose a card ... as the target: trash the target"), a trigger whose condition on its own
subject was said after it ("whenever you gain a token, if that token's type is prisoner"),
Chinese counts said as "...的数量至少为2" and "得X分（X为…）", and comparisons with zero
("more than 0"). Each is checked on the shipped sheets, in both languages."""
from __future__ import annotations

import re

import pytest

from tests.compiler.test_sheets_blind import _game, _text, clank, dgn, dm  # noqa: F401 (fixtures)


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "choose a card in the discard pile and trash it (back to the box); or choose a card "
           "in the play area and trash it.", "as the target"),
    ("zh", "选择弃牌堆中一张卡牌，移除该牌（放回游戏盒）；或选择出牌区中一张卡牌，移除该牌。",
     "移除目标")])
def test_magic_spring_refers_back_to_the_card_chosen(clank, lang, said, not_said):
    """Magic Spring read 'choose a card in the discard pile as the target: trash the target'."""
    text = _text(clank, "tokens", lang)
    assert said in text and not_said not in text


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "to choose an opponent in your region that has not been affected by your skill this "
           "turn: that opponent cannot be affected by this skill again this turn; choose one: "
           "that opponent drops 1 info block at random; or that opponent discards",
     "the target"),
    ("zh", "选择一位与你在同一地域且本回合未受过你的技能影响的对手，该对手本回合不能再受此技能"
           "影响；选择一项：该对手随机掉落1个信息块；或该对手随机弃掉1张计谋卡", "目标")])
def test_iron_head_names_the_opponent_chosen(dgn, lang, said, not_said):
    """Iron Head read '... as the target: the target has been affected by this skill this
    turn; choose one: the target drops ...' (an action said as a fact)."""
    text = _text(dgn, "notebook", lang) + _text(dgn, "cards", lang)
    line = next(line for line in text.splitlines() if said in line)
    assert not_said not in line


@pytest.mark.parametrize("lang,said", [
    ("en", "Turn this card sideways to choose a main-deck card in the battlefield on the player "
           "side and add 2 to its points."),
    ("en", "Choose a main-deck card in the exploration area and redraw it."),
    ("zh", "横置此牌后，选择战场中一张位于玩家侧的主牌堆牌，该牌的点数+2。")])
def test_dm_cards_say_its_points(dm, lang, said):
    assert said in _text(dm, "cards", lang)


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "This turn, whenever you gain a prisoner token, gain 1 skill.", "token's type"),
    ("zh", "本回合内，每获得一个囚犯标记时，获得1技能点。", "种类为")])
def test_rebellion_says_the_token_in_the_trigger(clank, lang, said, not_said):
    text = _text(clank, "cards", lang)
    assert said in text and not_said not in text


@pytest.mark.parametrize("lang,said", [
    ("en", "When a Magic scheme card is played for its bonus value, multiply"),
    ("zh", "打出魔法卡以获得其加成值时，该牌的加成值×2。")])
def test_magic_prodigy_says_the_card_type_in_the_trigger(dgn, lang, said):
    """'When a scheme card is played ..., if the card's type is Magic, ...'"""
    text = _text(dgn, "notebook", lang) + _text(dgn, "cards", lang)
    assert said in text


def test_chinese_counts_say_how_many(clank):
    """'出牌区中是伙伴牌的卡牌的数量至少为2', '若你持有的秘密笔记牌数至少为2',
    '若供应区剩余的囚犯标记数至少为2', '得X分（X为你持有的囚犯数）'."""
    cards, tokens, rules = (_text(clank, name, "zh") for name in ("cards", "tokens", "rules"))
    assert "一旦出牌区中至少有2张伙伴牌，抽1张牌" in cards
    assert "若你至少持有2张秘密笔记牌，得5分" in tokens
    assert "若供应区至少还剩2个囚犯标记，随机拿取2个囚犯标记" in rules
    assert "你每持有1个囚犯，得1分" in tokens
    assert "你每持有1个囚犯，获得1技能点" in cards
    for text in (cards, tokens, rules):
        assert not re.search(r"数量?(至少为|多于|少于|至多为)\d", text) and "得X分" not in text


def test_counts_above_zero_say_any(clank):
    """'Only if there are prisoners left' is fine; a person writes '... any prisoners left'."""
    rules = _text(clank, "rules", "en")
    assert "Only if there are any major secrets left in the supply" in rules


def test_drg_any_hits(clank):   # noqa: ARG001 (the fixture is shared)
    weapons = _text(_game("deep_rock_galactic"), "weapons", "en")
    assert "if there are any hits in the roll, it becomes Frozen" in weapons
    assert "if there are hits in the roll" not in weapons


@pytest.mark.parametrize("lang,cost,defeat,column", [
    ("en", "Cost: 3 skill", "Defeat: 3 combat", "3 skill"),
    ("zh", "花费：3技能点", "击败：3战斗力", "3技能点")])
def test_clank_costs_say_what_is_spent(clank, lang, cost, defeat, column):
    """Print-and-play cards and the card list read 'Skill 3' ('技能点 3'): a cost reads
    'Cost: 3 skill', a monster's 'Defeat: 3 combat'."""
    from tomecraft.compiler.sheets import cards
    from tomecraft.compiler.sheets import Footnotes
    stats = [s for page in cards.pages(clank, lang, Footnotes()) for c in page["cards"]
             for s in c["stats"]]
    assert cost in stats and defeat in stats
    assert not any(s.startswith(("Skill ", "技能点 ", "Combat ", "战斗力 ")) for s in stats)
    lines = _text(clank, "cards", lang).splitlines()
    assert column in lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_drg_monster_sheet_does_not_repeat_its_title(lang):
    """The monster sheet's one section was headed with the page's own title."""
    from tomecraft.compiler import sheets
    game = _game("deep_rock_galactic")
    sheet = next(s for s in sheets.SHEETS[game.id] if s.name == "monsters")
    page = sheets.render_html(game, sheet, lang)
    title = re.search(r"<h1>(.*?)</h1>", page).group(1)
    assert title not in re.findall(r"<h2>(.*?)</h2>", page)
