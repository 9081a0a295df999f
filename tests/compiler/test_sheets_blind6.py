"""What the sixth sheets round found (2026-11-28, outside tester): a secret passage printed as
"Secret passage letter A" with its meaning "... with a secret passage of passage letter" (a
type's name where the label says X), a Chinese loot card saying "for each" where the effect
gives 1 more once, "action phase, Once per long rest" with a capital in the middle of a list,
and "for each monster within range 1: deal 1 damage" read as a label. Each is checked on the
shipped sheets, in both languages where both had it."""
from __future__ import annotations

import pytest

from tests.compiler.test_sheets_blind import _game, _text, clank, dgn, dm, drg  # noqa: F401 (fixtures)


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "Secret passage A.", "passage letter A"),
    ("zh", "秘密通道A。", "通道字母A")])
def test_a_region_says_its_secret_passage_as_printed(dgn, lang, said, not_said):
    """Rulebook L856: the token adds "秘密通道效果X"; the regions print the letter alone."""
    text = _text(dgn, "regions", lang)
    assert said in text and not_said not in text


@pytest.mark.parametrize("lang,label,meaning", [
    ("en", "Secret passage X", "another revealed region with secret passage X."),
    ("zh", "秘密通道X", "另一个有秘密通道X的已揭示地域。")])
def test_secret_passage_meaning_uses_the_label_s_letter(dgn, lang, label, meaning):
    """The keyword table read "Secret passage X | ... with a secret passage of passage letter":
    the meaning names the letter by the label's stand-in (L832: a passage of the same letter)."""
    text = _text(dgn, "regions", lang)
    line = next(line for line in text.splitlines() if line.startswith(label))
    assert meaning in text
    assert "passage letter" not in text and "通道字母" not in text, line


def test_chinese_loot_card_gives_one_more_once(dm):
    """Rulebook L244: each card of a kind played together after the first gives 1 more; the
    effect is `gain 1; if loot_before(r) > 0: gain 1`, as the English says. The Chinese read
    "本次清理中每已有同种战利品牌，再获得1个" (1 more for each one before)."""
    zh, en = _text(dm, "cards", "zh"), _text(dm, "cards", "en")
    assert "and 1 more if an ammo loot card was already resolved in this clean-up" in en
    assert "获得1个弹药；若本次清理中已结算过弹药战利品牌，再获得1个弹药" in zh
    assert "每已有" not in zh


def test_once_per_rest_is_not_capitalised_inside_the_window_list(dm):
    text = _text(dm, "cards", "en")
    assert "action phase, once per long rest" in text
    assert ", Once per" not in text


@pytest.mark.parametrize("game,sheet,said", [
    ("drg", "weapons", "For each monster within range 1, deal 1 damage, ignoring resistances."),
    ("dm", "cards", "Continuous: for each main-deck card in the battlefield on the enemy side, "
                    "add 1 to its points.")])
def test_for_each_reads_as_a_clause(request, game, sheet, said):
    """"For each monster within range 1: deal 1 damage" read as a label, not a sentence."""
    text = _text(request.getfixturevalue(game), sheet, "en")
    assert said in text
    assert "for each monster within range 1:" not in text.lower()


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "When a scholar enters this region, once per turn: if the boss is in the dungeon",
     "once this turn"),
    ("zh", "每回合限一次：", "本回合限一次")])
def test_a_limit_says_once_per_turn(dgn, lang, said, not_said):
    """`once per turn:` read "once this turn: ..." ("本回合限一次"), a limit of this turn only."""
    text = _text(dgn, "regions", lang)
    assert said in text and not_said not in text


@pytest.mark.parametrize("lang,said", [("en", "Passive: Counts as a golden monkey idol."),
                                       ("zh", "持续效果：视为黄金猴像。")])
def test_monkey_robot_says_it_counts_as_an_idol(clank, lang, said):
    """Rulebook L790-792: the robot counts as a golden monkey idol (3 points, not 5); its row
    said only "—", the one thing a player needs from it."""
    text = _text(clank, "tokens", lang)
    row = text[text.index("Golden Monkey Robot" if lang == "en" else "金猴机器人"):][:200]
    assert said in row.replace("\n", "").replace("  ", ""), row


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "The dwarf becomes Knocked Over. The dwarf takes 1 damage.", "It becomes"),
    ("zh", "使该矮人倒地；受到1点伤害。", "使其")])
def test_monster_bang_says_the_dwarf(drg, lang, said, not_said):
    """The "!" column read "It becomes Knocked Over. Take 1 damage." on the Oppressor's row:
    "it" read as the monster; the effect acts on the dwarf attacked (guide L1051-1059: 投掷结果!
    会对目标造成虫网捆绑效果, the target being the dwarf)."""
    text = _text(drg, "monsters", lang)
    assert said in text and not_said not in text
    if lang == "en":
        assert "If the Hazard level is 5, the dwarf takes 1 damage." in text


def test_cave_majority_categories_are_an_english_list():
    """"Majority bonus: traverse, water, photo, squeeze are scored separately": a list with no
    "and"."""
    text = _text(_game("the_cave"), "rules", "en")
    assert "Majority bonus: traverse, water, photo and squeeze are scored separately" in text


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "The dwarf becomes Knocked Over. The dwarf takes 1 damage.", "It becomes"),
    ("zh", "使该矮人倒地；受到1点伤害。", "使其")])
def test_monster_card_bang_says_the_dwarf(drg, lang, said, not_said):
    """The print-and-play Oppressor card said it as the board did: "“!” on the dwarf
    attacked: It becomes Knocked Over. Take 1 damage."."""
    from tomecraft.compiler.sheets import Footnotes, cards
    laid = [c for page in cards.pages(drg, lang, Footnotes()) for c in page["cards"]]
    bangs = [r["text"] for c in laid for r in c["rules"] if "!" in r["label"] or "！" in r["label"]]
    assert said in bangs and not any(not_said in t for t in bangs)


@pytest.mark.parametrize("lang,said", [
    ("zh", "若本次清理中已结算过同种战利品牌，再多获得1个（n张同种共得2n−1个）。"),
    ("en", "already resolved in this clean-up (n cards of one resource give 2n−1).")])
def test_loot_clean_up_keyword_gives_one_more_once(dm, lang, said):
    """The keyword sheet's Chinese said "本次清理中每已结算过一张同种战利品牌，再多获得1个" (1 more
    per card before: 1+2+3 for three), where L244 and the rules sheet give 2n−1 (1+2+2)."""
    text = _text(dm, "keywords", lang)
    assert said in text and "每已结算过" not in text


@pytest.mark.parametrize("game_id", ["the_cave", "clank_catacombs", "dm_crawl_decks",
                                     "deep_rock_galactic", "dungeontology"])
def test_chinese_sheets_have_no_half_width_colons_or_semicolons(game_id):
    """Dungeontology's stealth rule printed "（危险N:N名）": the colon between two letters was
    left half-width (the sheets make punctuation next to a Chinese character full-width)."""
    import re
    from tomecraft.compiler import sheets
    game = _game(game_id)
    for sheet in sheets.SHEETS[game_id]:
        text = _text(game, sheet.name, "zh")
        found = [text[max(0, m.start() - 12):m.end() + 12]
                 for m in re.finditer(r"(?<!\d)[:;?](?!\d)", text)]
        assert not found, (sheet.name, found[:5])


@pytest.mark.parametrize("lang,said,not_said", [
    ("en", "After you generate a stealth value, Prophecy N (reveal the top N scheme cards and "
           "choose 1) and add the bonus value", "Prophecy N: reveal"),
    ("zh", "你生成隐匿值后，预言N（展示牌堆顶N张计谋卡并选择1张），你的隐匿值+", "预言N：")])
def test_prophecy_in_mid_sentence_is_not_a_label(dgn, lang, said, not_said):
    """Lucky N read "After you generate a stealth value, Prophecy N: reveal the top N scheme
    cards and choose 1 and add the bonus value ...": a label's colon inside a sentence."""
    text = _text(dgn, "regions", lang)
    assert said in text and not_said not in text


_HOURGLASS = """
relics:
  - id: hourglass
    name: {zh: 沙漏, en: Hourglass}
    source: approximation
    note: "A pack's relic that turns sideways."
    window: action
    use: "turn_sideways -> heal 1"
"""


def test_a_pack_relic_that_turns_sideways_says_once_per_long_rest(tmp_path):
    """A pack cannot set `once_per_rest` (TC-C002: its `use` says how often it works), and its
    row read "action phase" alone while the keyword sheet listed it as once per long rest."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    pack = tmp_path / "hourglass_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: hourglass_pack\ngame: dm_crawl_decks\nversion: '1'\n"
                                    "name: {zh: 沙漏包, en: Hourglass pack}\nrequires: []\n")
    (pack / "relics.yaml").write_text(_HOURGLASS)
    from tests.compiler.test_sheets_blind import REPO
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "dm_crawl_decks", [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    en = " ".join(_text(game, "cards", "en").split())
    row = en[en.index("Hourglass"):en.index("Turn this card sideways to recover 1 lost HP")]
    assert "action phase, once per long rest" in row, row
    zh = "".join(_text(game, "cards", "zh").split())
    assert "行动阶段、每次长休限1次" in zh[zh.index("沙漏"):zh.index("横置此牌以回复1点已损失血量")]


def test_a_relic_that_pays_a_resource_needs_its_label(tmp_path):
    """A pack's relic paying gold with no `label` checked clean and printed "free" beside
    "Spend 3 gold ..." (L39: a relic with no label is a free-use relic)."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tests.compiler.test_sheets_blind import REPO
    pack = tmp_path / "purse_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: purse_pack\ngame: dm_crawl_decks\nversion: '1'\n"
                                    "name: {zh: 钱袋包, en: Purse pack}\nrequires: []\n")
    (pack / "relics.yaml").write_text(_HOURGLASS.replace("hourglass", "purse").replace(
        "turn_sideways -> heal 1", "pay gold 3 -> heal 1"))
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dm_crawl_decks", [pack], reporter)
    found = [d for d in reporter.diagnostics if "resource-cost relic" in d.message]
    assert found and found[0].hint == "add `label: gold`", dg.format_text(reporter)


def test_chinese_says_where_a_body_ends(clank):
    """Chinese joined every statement with "；", so what followed a statement with a body read
    as part of it: `if C { draw 1 }; repeat 3 { clank -1 }` and `if C: draw 1; repeat 3: clank
    -1` (the repeat inside the if) both printed "若你至少持有2个宝藏，抽1张牌；重复3次：−1咔嚓！", and
    "每回合限一次：获得1治疗；获得1金币" limited the gold too. English ends each statement with a
    full stop; so does Chinese now, after a statement with a body of its own."""
    from tomecraft.dsl.parser import parse
    from tomecraft.dsl.render import render

    def zh(effect):
        return render(parse(effect), clank.vocab, "zh")
    apart = zh("if treasures_held() >= 2 { draw 1 }; repeat 3 { clank -1 }")
    inside = zh("if treasures_held() >= 2: draw 1; repeat 3: clank -1")
    assert apart == "若你至少持有2个宝藏，抽1张牌。重复3次：−1咔嚓！"
    assert inside == "若你至少持有2个宝藏，抽1张牌；重复3次：−1咔嚓！"
    assert zh("once per turn { heal 1 }; gain gold 1") == "每回合限一次：获得1治疗。获得1金币。"
    assert zh("gain skill 1; gain gold 1") == "获得1技能点；获得1金币。"


@pytest.mark.parametrize("lang,remark", [("en", "(no student may be sacrificed to avoid it)"),
                                         ("zh", "（不能牺牲学生来避免）")])
def test_each_trigger_says_its_remark(dgn, lang, remark):
    """Divine Intervention's second trigger lost "no student may be sacrificed" and Prophecy's
    meaning: a remark was said again only after a colon, which Prophecy's meaning happened to
    give in English. A remark is said again after each new trigger."""
    text = _text(dgn, "cards", lang)
    line = next(line for line in text.splitlines() if remark in line
                and ("Divine Intervention" in line or "神圣干预" in line))
    assert line.count(remark) == 2, line


def test_player_notes_leave_out_file_names(dgn):
    """The rules sheet's note on Ambush ended "(the keyword snippet in game.yaml)": a file of
    the project, in a player's note, as a `.py` path already was not."""
    from tomecraft.compiler.sheets import player_note
    assert ".yaml" not in _text(dgn, "rules", "en")
    assert player_note("Takes the token (see cards.yaml). Then ends.") == "Takes the token. Then ends."
    assert player_note("Said in tiles.yml only.") == ""


@pytest.mark.parametrize("game_id,sheet,said,not_said", [
    ("dungeontology", "rules", "Eight slots per column: 9 values are printed per column",
     "Eight slots per column: 8."),
    ("the_cave", "rules", "One exploration token per tile: The text speaks",
     "One exploration token per tile: 1.")])
def test_a_rule_named_by_its_number_does_not_say_it_again(game_id, sheet, said, not_said):
    """"Eight slots per column: 8. 9 values are printed per column" read as one number run."""
    text = _text(_game(game_id), sheet, "en")
    assert said in text and not_said not in text


@pytest.mark.parametrize("game_id,pack,sheet,lang,said", [
    ("clank_catacombs", "tomb_party", "cards", "en", "With Catacomb Party! (5–6 players)"),
    ("clank_catacombs", "tomb_party", "rules", "zh", "含扩充：墓穴派对！"),
    ("deep_rock_galactic", "goo_from_above", "monsters", "en", "With ")])
def test_a_sheet_printed_with_packs_says_so(game_id, pack, sheet, lang, said):
    """A sheet printed with a pack said only "Clank! Catacombs: card list": a player could not
    tell it from the base game's. Its header names the packs; the base game's names none."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tests.compiler.test_sheets_blind import REPO
    reporter = dg.Reporter()
    root = REPO / "content" / game_id
    game = pipeline.compile_game(root, [root / "packs" / pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    head = _text(game, sheet, lang)[:400]
    assert said in head, head
    assert "With " not in _text(_game(game_id), sheet, "en")[:400]


def test_a_pack_s_print_and_play_card_names_its_pack():
    """Each card's foot said only the game's name, a pack's cards as the base game's."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.sheets import Footnotes, cards
    from tests.compiler.test_sheets_blind import REPO
    root = REPO / "content" / "deep_rock_galactic"
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, [root / "packs" / "goo_from_above"], reporter)
    laid = [c for page in cards.pages(game, "en", Footnotes()) for c in page["cards"]]
    packs = {c["name"]: c["pack"] for c in laid}
    assert packs["Goo Bomber"] == game.packs[1].manifest["name"]["en"]
    assert packs["Grunt"] == ""


def test_a_card_with_much_text_takes_a_smaller_font_and_its_lines_do_not_overlap():
    """A pack's card with many effects printed its Play and Acquire paragraphs over each
    other and under its foot: the card is a fixed-height flex column whose paragraphs shrank
    below their lines. The text no longer shrinks (the art box gives way), and a card with more
    text than its size holds at the usual font takes a smaller one."""
    import re
    from tomecraft.compiler.sheets import cards
    short = {"rules": [{"label": "Play", "text": "Gain 1 skill."}]}
    long = {"rules": [{"label": "Play", "text": "Gain 1 skill. " * 70}]}       # 980 letters
    longer = {"rules": [{"label": "Play", "text": "Gain 1 skill. " * 120}]}
    zh = {"rules": [{"label": "打出", "text": "获得1技能点；" * 80}]}         # 480 characters
    poker, small = cards.SIZES["poker"], (44, 63)
    assert [cards.fit(c, poker) for c in (short, long, longer, zh)] == ["", "dense", "denser", "dense"]
    assert cards.fit(long, small) == "denser" and cards.fit(short, small) == ""
    assert cards._layout([long], poker)["cards"][0]["fit"] == "dense"
    page = cards.render_html(_game("clank_catacombs"), "en", max_pages=1)
    assert re.search(r"\.card > \* \{ flex-shrink: 0;", page)
    assert re.search(r"\.card \.art \{[^}]*flex-shrink: 1", page)


def test_cards_says_which_card_is_cut_off(tmp_path, run_cli):
    """A card whose text does not fit even at the smallest font lost its end on the printed
    card with no word; `tomecraft cards` now says so, at the entity."""
    pack = tmp_path / "wordy"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: wordy\ngame: clank_catacombs\nversion: '1'\nname: {zh: 长文, en: Wordy}\n"
        "requires: []\nremove: [{kind: card, id: tunnel_runner}]\n", encoding="utf-8")
    play = "; ".join(f"if in_room(market) {{ gain gold {n} }}" for n in range(1, 61))
    (pack / "cards.yaml").write_text(f"""cards:
  - id: endless_sage
    name: {{zh: 无尽贤者, en: Endless Sage}}
    source: approximation
    note: "A test."
    card_type: acquire
    count: 4
    cost: 3
    play: "{play}"
""", encoding="utf-8")
    code, _, err = run_cli("cards", "--game", "clank_catacombs", "--pack", pack, "--lang", "en",
                           "--format", "html", "--out", tmp_path / "out")
    assert code == 0, err
    assert "cards.yaml:2: card 'endless_sage': its en text is longer than a poker card holds" in err
    assert "tunnel" not in err


def test_a_clause_with_its_own_comma_takes_one_before_and(drg):
    """A pack's bomb read "deal 1 damage, ignoring resistances and it becomes Stunned": the
    "and" read as joining "resistances"."""
    from tomecraft.dsl.parser import parse
    from tomecraft.dsl.render import render
    text = render(parse("each monster where in_range(2): deal_ignoring_resistance 1; inflict stunned"),
                  drg.vocab, "en")
    assert text == ("For each monster within range 2, deal 1 damage, ignoring resistances, "
                    "and it becomes Stunned."), text
    assert render(parse("gain ammo 2; heal 2"), drg.vocab, "en") == "Gain 2 primary ammo. Heal 2."


def test_a_doom_card_without_a_penalty_prints_0_not_minus_0(tmp_path):
    """A pack's doom card with `penalty: 0` (the schema's least) printed "−0" in the penalty
    column: a sign on nothing."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tests.compiler.test_sheets_blind import REPO
    pack = tmp_path / "dread_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: dread_pack\ngame: dungeontology\nversion: '1'\n"
                                    "name: {zh: 恐惧包, en: Dread pack}\n")
    (pack / "doom_cards.yaml").write_text(
        "doom_cards:\n  - id: mild_dread\n    name: {zh: 轻微恐惧, en: Mild Dread}\n"
        "    source: approximation\n    note: a pack's doom card\n    penalty: 0\n"
        "    on_reveal: gain_stun 1\n", encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "dungeontology", [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    en = " ".join(_text(game, "cards", "en").split())
    row = en[en.index("Mild Dread"):][:120]
    assert "\u22120" not in row and " 0 " in row, row


def test_a_relic_that_pays_a_pack_resource_is_not_printed_free(tmp_path):
    """A pack's relic paying the pack's own resource (gem) was printed "free" in the label
    column beside "Spend 2 gems" (L39): no label can name a pack's resource, so the column
    names the resource the use pays (packs round 11)."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tests.compiler.test_sheets_blind import REPO
    pack = tmp_path / "gem_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: gem_pack\ngame: dm_crawl_decks\nversion: '1'\n"
                                    "name: {zh: 宝石包, en: Gem pack}\nrequires: []\n"
                                    "vocabulary:\n  resources:\n"
                                    "    gem: {zh: 宝石, en: gem, zh_measure: 颗}\n")
    (pack / "relics.yaml").write_text(_HOURGLASS.replace("hourglass", "lens").replace(
        "沙漏", "透镜").replace("Hourglass", "Gem Lens").replace(
        "turn_sideways -> heal 1", "pay gem 2 -> heal 1"))
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "dm_crawl_decks", [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    en = " ".join(_text(game, "cards", "en").split())
    row = en[en.index("Gem Lens"):en.index("Spend 2 gems")]
    assert "free" not in row and "gem" in row, row
