"""What a player reading the printed sheets found, blind test round 2 (2026-11-28): the list of
approximations, a class card cut by a page break, dice phrases a person would not write."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets
from tests.compiler.test_sheets_blind import _game, _text, clank, drg  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[2]


def _page(game, sheet_name: str, lang: str) -> str:
    sheet = next(s for s in sheets.SHEETS[game.id] if s.name == sheet_name)
    return sheets.render_html(game, sheet, lang)


def _notes(text: str) -> list[str]:
    """The numbered lines of the "What is approximate" list ("≈3 Name: what is assumed")."""
    return [line.strip() for line in text.splitlines() if re.match(r"\s*≈\d+ ", line)]


@pytest.mark.parametrize("sheet", ["classes", "weapons"])
def test_zh_approximations_say_what_the_mark_means_not_a_bare_list_of_names(drg, sheet):
    """The zh weapons sheet ended '≈1 应急霰弹枪、BRT7连发手枪、…' (32 names) and nothing
    else: their notes are English only, so the Chinese list named them and said nothing."""
    for note in _notes(_text(drg, sheet, "zh")):
        assert "：" in note and note.endswith("。"), note
        assert "英文版" in note or not note.startswith("≈1 冷冻炮"), note


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rules_assumed_value_is_not_introduced_twice(clank, lang):
    """'≈5 The bag is emptied: Assumed: an empty bag gives fewer cubes.' (zh '盲抽袋抽空：
    采用：…'): the list's intro already says 'this sheet assumes:'."""
    notes = _notes(_text(clank, "rules", lang))
    assert notes
    assert not [n for n in notes if "Assumed:" in n or "采用：" in n], notes
    empty_bag = {"en": "The bag is emptied: an empty bag gives fewer cubes.",
                 "zh": "盲抽袋抽空：袋中没有方块时少抽。"}[lang]
    assert any(n.endswith(empty_bag) for n in notes), notes


@pytest.mark.parametrize("lang,words", [
    ("en", "Dragon start space by player count: space 3 with 2 players, space 2 with 3, "
           "space 1 with 4 to 6."),
    ("zh", "巨龙起始位置：2人时从第3格开始，3人时从第2格，4至6人时从第1格。")])
def test_clank_dragon_start_by_player_count_is_said_in_words(clank, lang, words):
    """It read 'Dragon start space by player count: Assumed: 2: 3, 3: 2, 4: 1, 5: 1, 6: 1.'"""
    assert any(n.endswith(words) for n in _notes(_text(clank, "rules", lang)))


def test_drg_class_card_is_not_cut_by_a_page_break(drg, tmp_path):
    """A class is one card: the Engineer's name, health and abilities were at the foot of
    page 1 and his weapons table on page 2 (the Scout likewise across pages 2 and 3)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (Debian package poppler-utils)")
    pdf = tmp_path / "classes.pdf"
    sheets.write_pdf(_page(drg, "classes", "en"), pdf)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    pages = text.split("\f")
    for name, first, last in [("Driller", "Colour", "Flaming Ground"),
                              ("Engineer", "Colour", "Armor Piercing Grenade"),
                              ("Gunner", "Colour", "Continuous Fire"),
                              ("Scout", "Colour", "Aimed Shot")]:
        page = next(p for p in pages if re.search(rf"(?m)^\s*{name}\s*$", p))
        assert first in page and last in page, (name, page[:300])


def test_drg_zh_hits_condition_reads_as_a_hit_not_a_count_above_zero(drg):
    """The Cryo Cannon and the Bulldog read '若掷骰结果的命中数多于0，使其冻结' (if the number
    of hits in the roll is more than 0); a player says '若掷骰结果中有命中' as the sheet already
    did for the Scare face ('若掷骰结果中有阻遏惊吓')."""
    for name in ("classes", "weapons"):
        text = _text(drg, name, "zh")
        assert "命中数多于0" not in text, name
        assert "若掷骰结果中有命中，使其冻结" in text, name


@pytest.mark.parametrize("lang,exploder,oppressor", [
    ("en", ["Attack dice 1 × Explosive die", "Resistances explosive 1",
            "Traits: Explodes on its adjacent ring when it attacks or dies."],
     ["Resistances bullet 2, armor-piercing 1, fire 1, pickaxe 1",
      "destroys stalagmites, Grunts and walls on its path"]),
    ("zh", ["攻击骰 1 × 爆炸骰", "抗性 爆炸伤害 1", "特性：攻击或被击杀时自爆（相邻一格）。"],
     ["抗性 子弹伤害 2、穿甲伤害 1、燃烧伤害 1、铁镐伤害 1", "沿途摧毁石笋、战士异虫和岩壁"])])
def test_drg_monster_cards_print_resistances_die_and_traits(drg, lang, exploder, oppressor):
    """The print-and-play monster cards had no resistances (a dict the card skipped), 'Attack
    dice 1' without the die (the Exploder rolls an Explosive die), and the Exploder's card
    said nothing of its blast: a player cutting them out played without them."""
    from tomecraft.compiler.sheets import cards
    page = cards.render_html(drg, lang)
    by_name = {}
    for card in re.findall(r"(?s)<article.*?</article>", page):
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", card))).replace(" ：", "：")
        text = text.replace(" : ", ": ")
        by_name[text.split()[0]] = text
    found = {"en": ("Exploder", "Oppressor"), "zh": ("自爆异虫", "暴君异虫")}[lang]
    for name, wanted in zip(found, (exploder, oppressor)):
        for words in wanted:
            assert words in by_name[name], (name, words, by_name[name])
    when = "When activated:" if lang == "en" else "行动时："
    assert when in by_name["Brood" if lang == "en" else "异虫母巢"]


def _briefing(tmp_path, name: str, lang: str) -> str:
    from tomecraft.compiler.sheets.deep_rock_galactic import write_briefing
    from tomecraft.compiler import missions
    mission_file = REPO / "tests/deep_rock_galactic/missions/valid" / f"{name}.yaml"
    mission = missions.load_mission(mission_file, dg.Reporter())
    assert mission is not None
    (path,) = write_briefing(_game("deep_rock_galactic"), mission, [lang], ["html"], tmp_path)
    page = re.sub(r"(?s)<style.*?</style>", "", path.read_text(encoding="utf-8"))
    page = re.sub(r"</(p|li|td|th|tr|h\d|div)>", "\n", page)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_drg_zh_briefing_reads_as_chinese(tmp_path):
    """The zh briefing read '任务目标: 收集: 水痕碑石 × 2', '矿物: 水痕碑石 × 2, 黄金 × 1' (half-width,
    a colon twice), '水 = 水痕碑石 (岩壁（钻石格子，矿物）)' and ended on the mission file's English
    note 'A fan-made mission for the validator's tests.'"""
    text = _briefing(tmp_path, "aquarq_run", "zh")
    assert "任务目标：收集水痕碑石 × 2" in text
    assert "矿物：水痕碑石 × 2、黄金 × 1、硝石 × 3" in text
    assert "水 = 岩壁中的水痕碑石（钻石格子）" in text
    assert " ? = 照明棒格子" in text and "？" not in text.split("地图")[-1]   # the map's symbol
    assert not re.search(r"[A-Za-z]{4,}", text.replace("tomecraft", "")), text


@pytest.mark.parametrize("name,objective", [("aquarq_run", "Objective: Collect Aquarq × 2"),
                                            ("praetorian_hunt", "Objective: Eliminate the Praetorian")])
def test_drg_en_briefing_objective_is_a_sentence(tmp_path, name, objective):
    """'Objective: Collect: Aquarq × 2', 'Objective: Eliminate: Praetorian', and the fixed
    mineral 'A = Aquarq (wall, diamond (mineral) space)' with brackets in brackets."""
    text = _briefing(tmp_path, name, "en")
    assert objective in text
    if name == "aquarq_run":
        assert "A = Aquarq in a wall, diamond space" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_clank_cards_are_in_order_of_type_then_name(clank, lang):
    """The print-and-play cards came in order of id: the Giant Spider (`spider`) after the
    Skeleton, the Potion of Agility (`agility_potion`) between the Adventurer and the Barbarian,
    starting cards among dungeon cards. Now by type as the spec lists them, then by name,
    the same in both languages."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    deck = {name_of(e, lang): name_of(e, "en") for e in clank.of_kind("card")}
    laid = [c["name"] for page in cards.pages(clank, lang, Footnotes()) for c in page["cards"]]
    order = [deck[n] for n in dict.fromkeys(laid) if n in deck]
    assert order[:4] == ["Burgle", "Scramble", "Sidestep", "Stumble"], order[:6]
    monsters = [n for n in order if n in ("Giant Spider", "Skeleton", "Wraith")]
    assert monsters == ["Giant Spider", "Skeleton", "Wraith"], monsters


@pytest.mark.parametrize("lang,cell", [("en", "2 combat"), ("zh", "2战斗力")])
def test_clank_goblin_cost_says_combat_in_the_reserve_skill_column(clank, lang, cell):
    """The reserve's table heads its cost column 'Skill' (Explore 3, Mercenary 2); the Goblin
    is fought, not bought, and its row read a bare '2' there: 2 skill to a reader."""
    page = _page(clank, "cards", lang)
    row = next(r for r in re.findall(r"(?s)<tr>.*?</tr>", page)
               if ("Goblin" if lang == "en" else "哥布林") in r and "Bugler" not in r
               and "号手" not in r)
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r'(?s)<td class="num">(.*?)</td>', row)]
    assert cells[1] == cell, cells


@pytest.mark.parametrize("lang,after,twice", [
    ("en", "Only right after Burst.", "At most twice a round."),
    ("zh", "只能紧接在暴烈扫射之后使用。", "每回合至多2次。")])
def test_drg_fire_modes_say_the_limits_play_keeps(drg, lang, after, twice):
    """The Minigun's Successive Attack is fired only right after a Burst (L750-756) and the
    Flamethrower's Flaming Ground at most twice a round (L794): play refuses both otherwise,
    while the classes sheet printed neither, so Successive Attack read as a free shot at will."""
    rows = {}
    for row in re.findall(r"(?s)<tr>.*?</tr>", _page(drg, "classes", lang)):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"(?s)<td[^>]*>(.*?)</td>", row)]
        if cells:
            rows[cells[0].split("≈")[0]] = cells[-1]
    successive = next(v for k, v in rows.items() if "Successive" in k or "接续攻击" in k)
    flaming = next(v for k, v in rows.items() if "Flaming Ground" in k or "地面燃烧" in k)
    assert successive.endswith(after), successive
    assert flaming.endswith(twice), flaming


@pytest.mark.parametrize("lang,words", [
    ("en", "places goo on the empty spaces next to its target"),
    ("zh", "攻击时在目标相邻的空格放置黏液")])
def test_goo_bomber_places_goo_in_word_order(lang, words):
    """The goo_from_above pack's Goo Bomber read 'places on the empty spaces next to its
    target goo' (the thing placed was stuck on after the sentence)."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content/deep_rock_galactic",
                                 [REPO / "content/deep_rock_galactic/packs/goo_from_above"], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    assert words in _text(game, "monsters", lang)


def test_prophecy_1_reveals_the_top_scheme_card_not_the_top_1():
    """Dungeontology's Prophecy 1 read 'reveal the top 1 scheme card and choose 1'."""
    text = _text(_game("dungeontology"), "cards", "en")
    assert "the top 1 " not in text
    assert "Prophecy 1 (reveal the top scheme card and choose 1)" in text
    assert "reveal the top N scheme cards" in _text(_game("dungeontology"), "symbols", "en")


@pytest.mark.parametrize("lang,name,raw", [
    ("en", "Loot clean-up", "gain 1 resource, and 1 more if a resource loot card"),
    ("zh", "清理战利品", "获得1资源；本次清理中每已有同种战利品牌")])
def test_crawl_loot_keyword_has_a_name_not_its_template(lang, name, raw):
    """The keyword sheet's last row was named by the keyword's template with its parameter's
    name ('gain 1 resource, and 1 more if a resource loot card was already resolved in this
    clean-up') and explained by the same words again ('Gain 1 resource. If there are resource
    loot cards already resolved ...')."""
    text = _text(_game("dm_crawl_decks"), "keywords", lang)
    assert name in text and raw not in text
    row = text[text.index(name):].split("\n")[:4]
    assert any("Loot" in line or "战利品" in line for line in row[1:]), row


def test_cards_with_numbers_in_their_names_come_in_number_order(clank):
    """Clank!'s treasures came 10, 12, 15, 17, 20, 5, 7 (ids treasure_10 ... treasure_7);
    Dungeontology's randomizer cards must not come 1, 10, 11, ... 16, 2."""
    from tomecraft.compiler.sheets import Footnotes, cards
    laid = [c["name"] for page in cards.pages(clank, "en", Footnotes()) for c in page["cards"]]
    treasures = [n for n in dict.fromkeys(laid) if re.fullmatch(r"Treasure \d+", n)]
    assert treasures == sorted(treasures, key=lambda n: int(n.split()[1])), treasures
    dungeon = _game("dungeontology")
    laid = [c["name"] for page in cards.pages(dungeon, "en", Footnotes()) for c in page["cards"]]
    randomizers = [n for n in dict.fromkeys(laid) if n.startswith("Randomizer card")]
    assert randomizers == [f"Randomizer card {i}" for i in range(1, len(randomizers) + 1)], randomizers


@pytest.mark.parametrize("lang,bruiser,hunters", [
    ("en", "Protects Military, Civilization", "Block value modifiers Civilization +1, Military +1, Wealth −1"),
    ("zh", "保护 军事、文明", "信息块分值修正 文明 +1、军事 +1、财富 −1")])
def test_dungeontology_cards_print_what_interns_protect_and_clans_modify(lang, bruiser, hunters):
    """The Intern cards printed only their end bonus (the Bruiser nothing at all) and the clan
    cards only their thesis target: the colours an intern protects and a clan's block value
    modifiers (lists and tables of terms) were left off, while the cards sheet has them."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    game = _game("dungeontology")
    stats = {c["name"]: c["stats"] for page in cards.pages(game, lang, Footnotes())
             for c in page["cards"]}
    names = {e.id: name_of(e, lang) for kind in ("intern_card", "clan_card") for e in game.of_kind(kind)}
    assert bruiser in stats[names["bruiser"]]
    assert hunters in stats[names["clan_hunters"]]


@pytest.mark.parametrize("lang,points", [("en", "Points"), ("zh", "分数")])
def test_clank_market_chits_print_each_copys_points(clank, lang, points):
    """The market chits printed their price alone: the Crown's 10, 9 and 8 points (one value
    per copy, `points: [10, 9, 8]`), the Backpack's 5 and the others' were on no chit."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    crown = name_of(clank.entities["market_item"]["crown"], lang)
    laid = [c for page in cards.pages(clank, lang, Footnotes()) for c in page["cards"]
            if c["name"] == crown]
    assert [s for c in laid for s in c["stats"] if s.startswith(points)] == \
        [f"{points} 10", f"{points} 9", f"{points} 8"]


@pytest.mark.parametrize("lang,instant,response", [("en", "Timing Instant", "Timing Response"),
                                                   ("zh", "时机 瞬时", "时机 响应")])
def test_dungeontology_scheme_cards_print_their_timing(lang, instant, response):
    """Quick Reflexes (Instant) and Counter-Scheme (Response) printed as if played like any
    scheme card; the cards sheet tags them, the print-and-play cards did not."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    game = _game("dungeontology")
    stats = {c["name"]: c["stats"] for page in cards.pages(game, lang, Footnotes()) for c in page["cards"]}
    timed = {e.data["timing"]: name_of(e, lang) for e in game.of_kind("scheme_card")
             if e.data.get("timing") in ("instant", "response")}
    assert instant in stats[timed["instant"]] and response in stats[timed["response"]]
    assert not [n for n, s in stats.items() if any("normal" in x for x in s)]


@pytest.mark.parametrize("game_id,kind,entity_id,lang,words", [
    ("dm_crawl_decks", "relic", "crossbow", "en", "Used in a battle round"),
    ("dm_crawl_decks", "relic", "crossbow", "zh", "战斗轮中使用"),
    ("deep_rock_galactic", "throwable", "impact_axe", "en", "Dice 2 × Armor-Piercing die"),
    ("deep_rock_galactic", "throwable", "impact_axe", "zh", "骰数 2 × 穿甲骰")])
def test_cards_say_when_a_relic_is_used_and_which_die_a_throwable_rolls(game_id, kind, entity_id,
                                                                        lang, words):
    """A Crawl relic's card said 'Use: Spend 1 ammo to ...' but not when (the cards sheet's
    When column: battle round); a DRG throwable's card said 'Dice 2' without the die."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    game = _game(game_id)
    name = name_of(game.entities[kind][entity_id], lang)
    stats = next(c["stats"] for page in cards.pages(game, lang, Footnotes()) for c in page["cards"]
                 if c["name"] == name)
    assert words in stats, stats


@pytest.mark.parametrize("lang,words", [("en", "Gain the intern Cartographer, taken from whoever holds it."),
                                        ("zh", "获得实习生“制图师”；它已归他人所有时，从其手中夺走。")])
def test_dungeontology_scheme_card_names_the_intern_it_gives(lang, words):
    """The cards sheet says the Secret Map gives the intern Cartographer; its print-and-play
    card did not. It says it as a rule, ended like the card's other lines ("Gives the intern
    Cartographer" had no full stop), with what the rulebook adds: a later player of the card
    takes the intern from its holder (L1060, L1070)."""
    from tomecraft.compiler.sheets import Footnotes, cards, name_of
    game = _game("dungeontology")
    name = name_of(game.entities["scheme_card"]["secret_map"], lang)
    rules = next(c["rules"] for page in cards.pages(game, lang, Footnotes()) for c in page["cards"]
                 if c["name"] == name)
    assert any(words in r["text"] for r in rules), rules


def test_drg_zh_sentry_gun_range_reads_like_every_other_range(drg):
    """Every zh range reads '在3格射程内'; the sentry gun's read '在炮塔射程3内'."""
    text = _text(drg, "classes", "zh")
    assert "射程3内" not in text and "炮塔的3格射程内" in text


def test_print_and_play_notes_are_numbered_once(tmp_path):
    """The cards' list of approximations read '1. ≈1 ...', '2. ≈2 ...': the list's own
    numbers before the ≈N marks (the sheets hide them; the cards' page did not)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (Debian package poppler-utils)")
    from tomecraft.compiler.sheets import cards, write_pdf
    page = cards.render_html(_game("the_cave"), "en", max_pages=0)
    pdf = tmp_path / "notes.pdf"
    write_pdf(page, pdf)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "≈1" in text and not re.search(r"\b1\.\s+≈1", text), text[:400]


def test_drg_zh_costs_take_the_rulebooks_measure_words(drg):
    """'花费1行动与1主要武器弹药后' and '获得1黄金' had no measure word; the guide writes
    '花费1个行动与1单位子弹' (L746), '消耗2份弹药' (L495) and '1颗黄金'."""
    classes, rules = _text(drg, "classes", "zh"), _text(drg, "rules", "zh")
    assert "花费1个行动与1份主要武器弹药后" in classes and "花费1行动" not in classes
    assert "获得1颗黄金" in rules and "获得1黄金" not in rules


def test_crawl_zh_resources_take_a_measure_word():
    """'消耗1卷轴后', '获得1金币', '开局获得1金币、1个属性指示物' (one with 个, one without);
    the rulebook: '获得 1 个对应的资源' (L244)."""
    game = _game("dm_crawl_decks")
    text = _text(game, "cards", "zh") + _text(game, "rules", "zh") + _text(game, "keywords", "zh")
    bare = re.findall(r"(?:获得|消耗)\d+(?:卷轴|弹药|药水|食物|金币)", text)
    assert not bare, sorted(set(bare))
    assert "消耗1个卷轴后" in text and "开局获得1个金币、" in text


@pytest.mark.parametrize("game_id,name", [
    ("dm_crawl_decks", "No legal action: skip to the end phase"),
    ("dungeontology", "On the Run: a second action")])
def test_a_rule_whose_name_says_its_value_is_not_said_twice(game_id, name):
    """'≈23 No legal action: skip to the end phase: skip to the end phase' (it read
    '...: Assumed: skip to the end phase.' before): the name already says the choice."""
    notes = _notes(_text(_game(game_id), "rules", "en"))
    note = next(n for n in notes if name in n)
    assert note.split(" ", 1)[1] == name, note


@pytest.mark.parametrize("lang,wall,pit", [("en", "= wall", "= pit"), ("zh", "= 岩壁", "= 深坑")])
def test_drg_briefing_legend_explains_walls_and_pits(tmp_path, lang, wall, pit):
    """The map's legend named the marked spaces only (P, exits, ◆, ?, ·): the plain dark
    hexes (walls) and black ones (pits) had no key."""
    page = _briefing(tmp_path, "morkite_seam", lang)
    legend = next(line for line in page.splitlines() if "P = " in line)
    assert wall in legend and pit in legend, legend


def test_dungeontology_zh_random_move_in_word_order():
    """'某学者随机（执行随机化）朝一个方向移动1步' put the bracket between adverb and verb."""
    game = _game("dungeontology")
    for sheet in ("symbols", "cards"):
        text = _text(game, sheet, "zh")
        assert "随机（执行随机化）朝" not in text and "朝随机方向移动1步（执行随机化）" in text, sheet


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", ["This turn, as soon as you hold any prisoners, draw 1 card",
            "If you hold any golden monkey idols (robots included), score 5 points"],
     ["the number of prisoners you hold is at least 1"]),
    ("zh", ["一旦你持有囚犯", "若你持有黄金猴像（含金猴机器人）", "若供应区还有小秘密标记",
            "需要储备牌区还有秘密笔记"],
     ["数至少为1", "标记数多于0，", "剩余的小秘密标记数多于0"])])
def test_clank_counts_above_zero_read_as_having_some(clank, lang, said, not_said):
    """'As soon as the number of prisoners you hold is at least 1' (zh '一旦你持有的囚犯数至少为1'),
    '若供应区剩余的小秘密标记数多于0': a person says 'as soon as you hold any prisoners',
    '若供应区还有小秘密标记'."""
    from tomecraft.compiler.sheets import SHEETS
    text = "\n".join(_text(clank, s.name, lang) for s in SHEETS["clank_catacombs"])
    for words in said:
        assert words in text, words
    for words in not_said:
        assert words not in text, words


@pytest.mark.parametrize("lang,words,not_words", [
    ("en", "whenever you gain a prisoner token, gain 1 skill", "token's token type"),
    ("zh", "每获得一个囚犯标记时，获得1技能点", "标记的标记种类")])
def test_clank_rebellion_does_not_say_token_twice(clank, lang, words, not_words):
    """Rebellion read 'if that token's token type is prisoner' ('该标记的标记种类')."""
    text = _text(clank, "cards", lang)
    assert words in text and not_words not in text


@pytest.mark.parametrize("lang,first", [("en", "≈1 No opening hand at setup"), ("zh", "≈1 开局不抽手牌、")])
def test_rules_whose_names_say_the_assumption_stand_alone(lang, first):
    """Rules with no note in the sheet's language are listed by name (the name says what is
    assumed); they are not told 'the rulebook does not give some of their numbers or effects'."""
    notes = _notes(_text(_game("dm_crawl_decks"), "rules", lang))
    assert notes[0].startswith(first), notes[0]
    assert "英文版" not in notes[0] and "numbers or effects" not in notes[0], notes[0]


def test_dungeontology_rules_say_success_in_words_not_a_symbol():
    """The English rules sheet read 'Stealth >= alert succeeds ... (Danger N: N)'."""
    text = _text(_game("dungeontology"), "rules", "en")
    assert ">=" not in text
    assert "The attempt succeeds when the stealth value is at least the alert value." in text
    assert "(Danger N: N students)" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_whose_type_is_its_name_says_it_once(clank, lang):
    """Clank!'s mastery token and golden monkey idol chits read 'Mastery token / Mastery token'."""
    from tomecraft.compiler.sheets import Footnotes, cards
    laid = [c for page in cards.pages(clank, lang, Footnotes()) for c in page["cards"]]
    assert not [c["name"] for c in laid if c["type"] and c["type"].casefold() == c["name"].casefold()]


def test_kinds_of_one_size_in_a_row_share_their_pages():
    """Dungeontology's 3 clan cards had a page of their own, then the 10 interns took a page
    and 1 card of the next: every kind started a page. Poker-size kinds in a row fill pages
    together now (a page still holds one size)."""
    from tomecraft.compiler.sheets import Footnotes, cards
    game = _game("dungeontology")
    pages = cards.pages(game, "en", Footnotes())
    clan = next(p for p in pages if any(c["type"] == "Clan card" for c in p["cards"]))
    assert len(clan["cards"]) == 9, [c["type"] for c in clan["cards"]]
    for page, after in zip(pages, pages[1:]):   # a page short of 9 only before another size
        assert len(page["cards"]) == 9 or (page["w"], page["h"]) != (after["w"], after["h"])


@pytest.mark.parametrize("lang, said, wrong", [("en", "discarded after use", "discard pile"),
                                               ("zh", "用後棄置", "棄牌堆")])   # its zh is traditional
def test_the_caves_consumables_are_discarded_not_put_on_a_discard_pile(lang, said, wrong):
    """The Cave's consumable chit said "to the discard pile after use": the game has no discard
    pile, a used consumable is discarded (rulebook L61-62 "棄掉1個消耗品標記")."""
    from tomecraft.compiler.sheets import cards
    text = html.unescape(re.sub(r"<[^>]+>", " ", cards.render_html(_game("the_cave"), lang)))
    assert said in text and wrong not in text
