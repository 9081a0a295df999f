"""What a player reading the printed sheets found (blind sheets round 15)."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets
from tomecraft.compiler.sheets import cards

REPO = Path(__file__).resolve().parents[2]


def _game(game_id: str, packs=()):
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / game_id,
                                 [REPO / "content" / game_id / "packs" / p for p in packs], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


def _text_nodes(page: str) -> str:
    """What the reader sees: the text between tags (no style, no attributes), unescaped."""
    page = re.sub(r"(?s)<style.*?</style>", "", page)
    return html.unescape(" | ".join(re.findall(r">([^<]+)<", page)))


# A straight quote as printed: "\"!\" tokens", "Only 'involves prisoners' is known", "the
# card's first line"; and a hyphen for the minus of a letter: "+N/-N".
STRAIGHT = re.compile(r"""['"]""")
LETTER_MINUS = re.compile(r"(?<![A-Za-z0-9_])-(?=[A-Z](?![A-Za-z]))")


def _assert_typeset(page: str, where: str):
    text = _text_nodes(page)
    bad = [text[max(0, m.start() - 30):m.end() + 20] for m in STRAIGHT.finditer(text)]
    bad += [text[max(0, m.start() - 30):m.end() + 20] for m in LETTER_MINUS.finditer(text)]
    # a spaced hyphen ("Teleport - Action", "2n - 1") and a range's hyphen ("5-6 players")
    bad += [text[max(0, m.start() - 30):m.end() + 20]
            for m in re.finditer(r" - |(?<![\w.\u2212+])\d+-\d+(?![\w.])", text)]
    # an apostrophe is ’, not a closing double quote ("the card”s")
    bad += [text[max(0, m.start() - 30):m.end() + 20] for m in re.finditer(r"[A-Za-z][”“][A-Za-z]", text)]
    assert not bad, (where, bad[:8])


def _pages(game):
    for s in sheets.SHEETS[game.id]:
        for lang in ("en", "zh"):
            yield f"{s.name}.{lang}", sheets.render_html(game, s, lang)
    for lang in ("en", "zh"):
        yield f"cards.{lang}", cards.render_html(game, lang)


@pytest.mark.parametrize("game_id, packs", [
    ("clank_catacombs", ()), ("clank_catacombs", ("tomb_party",)), ("deep_rock_galactic", ()),
    ("deep_rock_galactic", ("goo_from_above",)), ("dm_crawl_decks", ()), ("dungeontology", ()),
    ("the_cave", ())])
def test_sheets_print_typographic_quotes_apostrophes_and_minus(game_id, packs):
    """Dungeontology's 'Teleport - Action' and 'scheme card - action', Crawl's loot '2n - 1'
    and Clank!'s '(5-6 players)' set a hyphen for a dash, a minus and a range. The English sheets printed the curly “Optional” beside straight quotes: DRG's
    '"!" effect on the dwarf attacked', Crawl Decks' '"Points become X" ... "+N/-N"' (a hyphen
    for the minus), and every apostrophe and quoted phrase of the notes ('the card's', 'Only
    'involves prisoners' is known'). Every sheet, the print-and-play cards included, sets
    ‘ ’ “ ” and the minus sign; the Chinese sheets too."""
    game = _game(game_id, packs)
    for where, page in _pages(game):
        _assert_typeset(page, where)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_drg_briefing_prints_typographic_quotes(tmp_path, lang):
    """The briefing's map legend read '! = "!" tokens (drones)' in English."""
    from tomecraft.compiler.sheets.deep_rock_galactic import write_briefing
    path = REPO / "tests/deep_rock_galactic/missions/valid/full_kit.yaml"
    mission = yaml.safe_load(path.read_text(encoding="utf-8"))["mission"]
    [page] = write_briefing(_game("deep_rock_galactic"), mission, [lang], ["html"], tmp_path)
    page = page.read_text(encoding="utf-8")
    _assert_typeset(page, "briefing")
    assert ("“!” tokens (drones)" if lang == "en" else "“！”指示物") in _text_nodes(page)


def test_typesetting_keeps_markup_and_rewrites_only_text():
    """The pass reads text between tags: attributes, styles and scripts keep their quotes."""
    page = ('<p class="x" title="a \'b\'">He said "go" and it\'s \'fine\'; (\'x\') +N/-N</p>'
            '<style>a[href="x"]::after{content:"\'"}</style>')
    out = sheets.typeset(page)
    assert '<p class="x" title="a \'b\'">' in out
    assert "He said “go” and it’s ‘fine’; (‘x’) +N/−N" in out
    assert '<style>a[href="x"]::after{content:"\'"}</style>' in out
    # as Jinja escapes them: &#39; is the apostrophe, &#34; the double quote
    assert sheets.typeset("<td>the card&#39;s &#39;x&#39; &#34;y&#34;</td>") == "<td>the card’s ‘x’ “y”</td>"
    # dashes: a range, a minus before a number, a dash between words; a name's hyphen stays
    assert sheets.typeset("<p>(5-6 players) 2n - 1; Teleport - Action; squeeze-3, III-1, M-1000</p>") \
        == "<p>(5–6 players) 2n − 1; Teleport – Action; squeeze-3, III-1, M-1000</p>"


@pytest.mark.parametrize("game_id, lang, says", [
    ("clank_catacombs", "en", "Treasure limit +1"), ("clank_catacombs", "zh", "宝藏上限+1"),
    ("deep_rock_galactic", "en", "Ammo spaces +1"), ("deep_rock_galactic", "zh", "弹药上限+1")])
def test_a_card_stat_whose_label_ends_in_a_sign_prints_the_signed_number(game_id, lang, says):
    """The Backpack's print-and-play card read 'Treasure limit + 1' ('宝藏上限+ 1'), the
    overclock cards 'Ammo spaces + 1': a label ending in '+' was joined to its number by the
    space a plain label takes ('Price 7'). The sign belongs to the number (rulebook L878-880:
    the Backpack lets a player hold 1 more treasure)."""
    text = _text_nodes(cards.render_html(_game(game_id), lang))
    assert says in text
    assert not re.search(r"[+\u2212] \d", text), re.search(r".{0,30}[+\u2212] \d.{0,10}", text).group(0)


def _drg_text(sheet_name: str, lang: str, game=None) -> str:
    game = game or _game("deep_rock_galactic")
    s = next(s for s in sheets.SHEETS["deep_rock_galactic"] if s.name == sheet_name)
    return _text_nodes(sheets.render_html(game, s, lang))


def test_drg_chinese_lists_of_names_take_the_enumeration_comma():
    """Chinese lists things with 、: the dice table read '空白，空白，击中，…', the statuses
    'caused by' cell and the classes' equipment '平台 × 6，轻机枪炮塔 × 1' with the clause
    comma, and a monster's resistances '抗性 燃烧伤害 1，爆炸伤害 1' ran into the next stat."""
    game = _game("deep_rock_galactic")
    weapons = _drg_text("weapons", "zh", game)
    assert "2个空白、3个击中" in weapons and "空白，" not in weapons
    assert "平台 × 6、轻机枪炮塔 × 1" in _drg_text("classes", "zh", game)
    assert re.search(r"\| \S+伤害 \d、\S+伤害 \d", _drg_text("monsters", "zh", game))
    assert re.search(r"抗性 \S+伤害 \d、\S+伤害 \d", _text_nodes(cards.render_html(game, "zh")))
    assert "暴君异虫、刀锋异虫、瘟疫吐珠" in _drg_text("statuses", "zh", game)
    # English keeps its comma
    assert "2 blank, 3 hit" in _drg_text("weapons", "en", game)


def test_drg_chinese_briefing_lists_take_the_enumeration_comma(tmp_path):
    """The briefing read '矿物：墨菱石 × 4，黄金 × 1' and '开始前移除的卡牌：暴君异虫！，虫群：混合'."""
    from tomecraft.compiler.sheets.deep_rock_galactic import write_briefing
    path = REPO / "tests/deep_rock_galactic/missions/valid/full_kit.yaml"
    mission = yaml.safe_load(path.read_text(encoding="utf-8"))["mission"]
    [page] = write_briefing(_game("deep_rock_galactic"), mission, ["zh"], ["html"], tmp_path)
    text = _text_nodes(page.read_text(encoding="utf-8"))
    assert "墨菱石 × 4、黄金 × 1、硝石 × 2" in text
    assert "平台 × 1、滑索 × 3" in text and "掠夺虫 × 1、异种花 × 2" in text
    assert "！，" not in text


def _row_heads(page: str) -> list[str]:
    heads = []
    for row in re.findall(r"(?s)<tr.*?</tr>", page):
        cell = re.search(r"(?s)<t[dh][^>]*>(.*?)</t[dh]>", row)
        text = html.unescape(re.sub(r"<[^>]+>", "", cell.group(1))).strip() if cell else ""
        if text:
            heads.append(text)
    return heads


@pytest.mark.parametrize("game_id", sorted(sheets.SHEETS))
def test_an_english_table_row_starts_with_a_capital(game_id):
    """The English dice table listed 'Bullet die' above 'monster attack die' and 'pickaxe die'
    (the vocabulary's words for inside a sentence); Dungeontology's alert table's rows read
    'blocks' and 'alert increase', Crawl Decks' examples 'printed 3; set to 1, then +1'. A
    row's first cell is its heading: it starts with a capital. The Chinese sheets are as they were."""
    game = _game(game_id)
    for s in sheets.SHEETS[game_id]:
        page = sheets.render_html(game, s, "en")
        heads = _row_heads(page)
        # a footnote opens with the names it is about: '≈24 pickaxe die: 2 blank, ...'
        heads += [html.unescape(n) for n in re.findall(r'<li id="fn\d+".*?<strong>([^<]+)', page)]
        assert not [h for h in heads if h[0].islower()], (s.name, [h for h in heads if h[0].islower()])


@pytest.mark.parametrize("lang, says", [
    ("en", "if the main deck is empty and either no card in your hand can be played or the exploration area is empty, descend"),
    ("zh", "主牌堆没有牌时，若手中没有可打出的牌或探索区没有牌，则下楼")])
def test_crawl_descend_condition_reads_as_a_sentence(lang, says):
    """Crawl Decks' end phase read 'descend if the main deck is empty and (no playable card is
    in hand or the exploration area is empty)' ('且（…，或…）时下楼'): a formula's brackets
    in a sentence. Rulebook L118: the main deck is empty, and either condition holds."""
    game = _game("dm_crawl_decks")
    s = next(s for s in sheets.SHEETS["dm_crawl_decks"] if s.name == "rules")
    text = _text_nodes(sheets.render_html(game, s, lang))
    assert says in text
    assert not re.search(r"\b(and|or) \(|[且或]（", text), re.search(r".{0,40}(\b(and|or) \(|[且或]（).{0,20}", text).group(0)


def test_a_yes_no_field_naming_a_kind_reads_before_the_thing():
    """Rebel Leader read 'as soon as there are at least 2 cards in the play area that are
    companions' (the Chinese already said '出牌区中至少有2张伙伴牌'): a yes/no field whose
    words name a kind of the thing says 'companion cards', in the list and on the card."""
    game = _game("clank_catacombs")
    s = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "cards")
    for text in (_text_nodes(sheets.render_html(game, s, "en")), _text_nodes(cards.render_html(game, "en"))):
        assert "at least 2 companion cards in the play area" in text
        assert "that are companions" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_print_and_play_card_says_what_its_row_says(lang):
    """Rebel Leader's row in the card list read 'This turn, as soon as there are ... draw 1
    card.' and its print-and-play card 'As soon as there are ...': the card left out that the
    engine ends the trigger with the turn (Clank!'s card play lasts the turn, L278-280), so the
    printed card read as lasting all game. Every effect on a card reads as in the card list."""
    game = _game("clank_catacombs")
    s = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "cards")
    listed = _text_nodes(sheets.render_html(game, s, lang))
    printed = _text_nodes(cards.render_html(game, lang))
    scoped = re.findall(r"(?:This turn, |本回合内，)[^|]+", listed)
    assert scoped, "no effect that lasts the turn to compare"
    for text in scoped:
        assert text.strip() in printed, text


def test_simplified_chinese_sheets_quote_with_curly_quotes():
    """DRG's classes sheet listed '「深核」GK2突击步枪' beside '“雷暴云砧”重型双管机炮': the
    Traditional corner brackets on a Simplified sheet (the guide's L495 writes “深核”). The
    Cave, in Traditional characters, keeps 「」."""
    game = _game("deep_rock_galactic")
    text = _drg_text("classes", "zh", game)
    assert "“深核”GK2突击步枪" in text and "「" not in text
    assert "「" not in _text_nodes(cards.render_html(game, "zh"))
    page = sheets.typeset('<html lang="zh-Hant"><body><p>「深核」</p></body></html>')
    assert "「深核」" in page
