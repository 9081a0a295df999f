"""What a player reading the printed sheets found (blind test of 2026-11-28): sentences a
person would not write, a label said twice, a list of raw singulars."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]


def _game(game_id: str):
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / game_id, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


def _text(game, sheet_name: str, lang: str) -> str:
    """The sheet's text as a reader sees it: tags stripped, one line per cell or paragraph."""
    sheet = next(s for s in sheets.SHEETS[game.id] if s.name == sheet_name)
    page = sheets.render_html(game, sheet, lang)
    page = re.sub(r"(?s)<style.*?</style>", "", page)
    page = re.sub(r"</(p|li|td|th|tr|h\d|div)>", "\n", page)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.fixture(scope="module")
def clank():
    return _game("clank_catacombs")


@pytest.fixture(scope="module")
def drg():
    return _game("deep_rock_galactic")


@pytest.fixture(scope="module")
def dgn():
    return _game("dungeontology")


@pytest.fixture(scope="module")
def dm():
    return _game("dm_crawl_decks")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_clank_passive_token_does_not_say_continuous_twice(clank, lang):
    """The Catacomb Map read "Passive: Continuous: you may cross..." ("持续效果：持续：...")."""
    text = _text(clank, "tokens", lang)
    line = next(l for l in text.splitlines() if "单向隧道" in l or "one-way arrow" in l)
    assert not re.search(r"(?i)continuous|持续：", line.split("：" if lang == "zh" else ":", 1)[1]), line


@pytest.mark.parametrize("lang,gold,limit", [
    ("en", "Counts as 5 gold.", "Your treasure limit is 1 higher."),
    ("zh", "视为5金币。", "宝藏持有上限+1。")])
def test_clank_token_and_item_facts_are_sentences(clank, lang, gold, limit):
    """Every other effect on the token sheet is a sentence ("Heal 2."); the Fortunes' gold
    read "counts as 5 gold" and the Backpack's "treasure limit +1", without a capital or a
    full stop."""
    text = _text(clank, "tokens", lang)
    assert gold in text and limit in text


def test_drg_monster_specials_open_with_a_capital_and_name_plurals(drg):
    """The Specials column read "does not block line of sight." and "destroys on its path
    stalagmite, Grunt, wall" (the Oppressor, rulebook L1199: 摧毁沿途的石笋、战士异虫和墙壁)."""
    en = _text(drg, "monsters", "en")
    assert "Does not block line of sight." in en
    assert "destroys stalagmites, Grunts and walls on its path" in en
    specials = [l.strip() for l in en.splitlines()
                if l.strip().endswith(".") and ";" in l or "line of sight." in l]
    assert specials and all(s[:1].isupper() for s in specials), specials
    assert "沿途摧毁石笋、战士异虫和岩壁" in _text(drg, "monsters", "zh")


HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@pytest.mark.parametrize("game_id", ["clank_catacombs", "deep_rock_galactic", "dm_crawl_decks",
                                     "dungeontology", "the_cave"])
def test_english_approximation_notes_hold_no_chinese(game_id):
    """The English sheets' "What is approximate" list read "呼唤 with 战斗轮前 and 侧边"
    (Goblin Bugler), "'75 以上' with 'at most one 75'" (The Cave), "the turn example's hand
    (绊倒, 偷袭, ...)" (Sneak Attack): notes written while reading the Chinese rulebook. A
    name the game gives in English takes its English words; the rest is written in English."""
    game = _game(game_id)
    notes = sheets.Footnotes(edition="player", game=game, lang="en")
    for by_id in game.entities.values():
        for entity in by_id.values():
            notes.mark(entity, "en")
    chinese = [(note["name"], line) for note in notes.notes for line in note["lines"]
               if HAN.search(line)]
    assert not chinese, chinese
    if game_id == "clank_catacombs":
        assert any("(Stumble, Sneak Attack, Burgle, Scramble, Sidestep)" in line
                   for note in notes.notes for line in note["lines"])


def test_dungeontology_notebook_says_stars_and_research_in_words():
    """The notebook table's last rows read "stars at (blocks) 3, 6" and "research bonus at
    (blocks) —" (rulebook L392: a star / research arrow takes effect when a block covers
    its row)."""
    game = _game("dungeontology")
    en, zh = _text(game, "notebook", "en"), _text(game, "notebook", "zh")
    assert "(blocks)" not in en and "块数" not in zh
    assert "a star at 3 and 6 blocks" in en and "a star at 1 block\n" in en
    assert "a research bonus at 2 and 5 blocks" in en and "no research bonus" in en
    assert "3、6块时得1星" in zh and "无研究加成" in zh


def test_cave_cards_name_the_majority_category_not_the_token():
    """The Cave's print-and-play water, photo and traverse tokens read "Majority water token"
    (the category `water` is also the water token's name; the squeeze tokens read "Majority
    squeeze"): a stat takes the vocabulary entry of the type its field declares."""
    from tomecraft.compiler.sheets import Footnotes, cards
    game = _game("the_cave")
    for lang, wrong, right in (("en", "Majority water token", "Majority water"),
                               ("zh", "獎勵類別 水域標記", "獎勵類別 水域")):
        stats = {s for page in cards.pages(game, lang, Footnotes()) for c in page["cards"]
                 for s in c["stats"]}
        assert not any(wrong in s for s in stats), sorted(stats)
        assert any(s.endswith(right) for s in stats), sorted(stats)


def test_tomb_party_cloak_note_is_not_a_bare_number():
    """The Tomb Party pack's token sheet read "Cloak of Invisibility: 1. The cloak's effect
    is not in the rulebook; ... 5 points.": the count's note had only "1" left for a player."""
    reporter = dg.Reporter()
    root = REPO / "content" / "clank_catacombs"
    game = pipeline.compile_game(root, [root / "packs" / "tomb_party"], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    cloak = game.entities["market_item"]["cloak_of_invisibility"]
    lines = sheets.player_lines(cloak, "en")
    assert lines and not any(re.fullmatch(r"[\d\s.]+|\d+ points\.", line) for line in lines), lines
    assert any("1 copy, 5 points" in line for line in lines), lines


@pytest.mark.parametrize("lang,words", [
    ("en", ["5–6 players (Tomb Party)", "Up to 6 players.", "worth 10, 15, 20 and 25 (not the 30)",
            "Leave the Master Key out of the market", "a 5th or 6th player to arrive places no cube"]),
    ("zh", ["五至六人游戏（墓穴派对）", "最多6名玩家。", "分值为10、15、20、25的宝藏标记",
            "不要把万能钥匙放入市场", "第五、六名抵达的玩家不能再放方块"])])
def test_tomb_party_rules_sheet_says_the_5_6_player_rules(lang, words):
    """The Tomb Party pack's rules sheet was the base game's word for word: nothing of its 6
    players, its treasures, the Master Key, the + rooms' several treasures or the signposts'
    4 spaces (rulebook L643-673). The base game's sheet says none of it."""
    root = REPO / "content" / "clank_catacombs"
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, [root / "packs" / "tomb_party"], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    text = _text(game, "rules", lang)
    for w in words:
        assert w in text, w
    base = _text(_game("clank_catacombs"), "rules", lang)
    assert words[0] not in base


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_drg_statuses_are_sentences_without_tool_words(drg, lang):
    """The statuses sheet's effects read "effect not stated in the guide; here a monster
    skips its next activation (approximation)" (zh "本工具：…（近似）"), "does not block LOS":
    lower-case fragments with a developer's words."""
    sheet = next(s for s in sheets.SHEETS[drg.id] if s.name == "statuses")
    page = sheets.render_html(drg, sheet, lang)
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", page, flags=re.S)]
    effects = cells[2::3]
    assert len(effects) == 6, cells
    for e in effects:
        assert e.endswith("。" if lang == "zh" else "."), e
        assert not re.search(r"approximation|\bLOS\b|本工具|近似", e), e
        if lang == "en":
            assert e[:1].isupper() or e[:1].isdigit(), e


def test_drg_best_die_reads_as_a_number(drg):
    """The Impact Axe read "deal X armor-piercing damage, where X is the hits of the best die
    in the roll"."""
    text = _text(drg, "weapons", "en")
    assert "the hits of the best die" not in text
    assert "deal 1 armor-piercing damage per hit on the best die in the roll" in text


def test_clank_passive_card_does_not_say_continuous_twice(clank):
    """The print-and-play Catacomb Map read "Passive: Continuous: you may cross..." too."""
    from tomecraft.compiler.sheets import Footnotes, cards
    for lang in ("en", "zh"):
        rules = [r for page in cards.pages(clank, lang, Footnotes()) for c in page["cards"]
                 for r in c["rules"] if "one-way arrow" in r["text"] or "单向隧道" in r["text"]]
        assert rules and not any(re.match(r"(?i)continuous|持续", r["text"]) for r in rules), rules


@pytest.mark.parametrize("game_id", ["clank_catacombs", "deep_rock_galactic", "dungeontology"])
def test_every_approximated_entity_has_words_for_an_english_player(game_id):
    """The English card list's approximations ended with "≈10 Crystal Kobold" and nothing
    after it: its note ("Gap 1.") had only a developer's reference; DRG's supply cards
    ("G-01.") and Dungeontology's token counts ("D13: not in the text.") the same."""
    game = _game(game_id)
    silent = [(e.kind, e.id) for by_id in game.entities.values() for e in by_id.values()
              if e.kind != "rule" and sheets.approximation_lines(e)
              and not sheets.player_lines(e, "en")]
    assert not silent, silent
