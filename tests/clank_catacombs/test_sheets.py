"""Clank! Catacombs' sheets: rules reference, token cheat sheet and card list, zh and en."""
from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

ROOT = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs"


@pytest.fixture(scope="module")
def game():
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT, [], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    return g


@pytest.fixture(scope="module")
def pages(game):
    return {(s.name, lang): html.unescape(sheets.render_html(game, s, lang))
            for s in sheets.SHEETS["clank_catacombs"] for lang in ("zh", "en")}


def test_three_sheets_in_two_languages(pages):
    assert sorted(pages) == [(n, l) for n in ("cards", "rules", "tokens") for l in ("en", "zh")]
    assert "噤声寻宝记：地下墓穴——标记速查表" in pages[("tokens", "zh")]
    assert "Clank! Catacombs: card list" in pages[("cards", "en")]


def test_token_sheet_lists_every_prisoner_secret_and_market_item_with_points(game, pages):
    zh, en = pages[("tokens", "zh")], pages[("tokens", "en")]
    for kind in ("token", "market_item"):
        for e in game.of_kind(kind):
            assert e.data["name"]["zh"] in zh and sheets.typeset(e.data["name"]["en"]) in en, e.id
    # effect text rendered from the effect language, with the rulebook's numbers
    assert "巨龙指示物在怒气记录条上推进1格" in zh                 # 冒险家 / 龙蛋
    assert "If you hold a mastery token, score 5" in en or "you hold a mastery token" in en
    row = next(r for r in re.findall(r"<tr.*?</tr>", en, flags=re.S) if "Crown" in r)
    assert "10/9/8" in row


def test_rules_sheet_has_turn_icons_rooms_dragon_and_scoring(pages):
    en = pages[("rules", "en")]
    for title in ("Your turn", "Actions", "Tunnel icons", "Room kinds", "End of turn and dragon attacks",
                  "End of the game", "Scoring"):
        assert title in en
    assert "2/2/3/3/4/4/5" in en and "3/2/1/0" in en                 # from rules.yaml
    assert "花费1移动力以穿过隧道进入相邻房间" in pages[("rules", "zh")] or "穿过隧道" in pages[("rules", "zh")]


def test_card_list_has_every_card(game, pages):
    for c in game.of_kind("card"):
        assert c.data["name"]["zh"] in pages[("cards", "zh")], c.id
        assert c.data["name"]["en"] in pages[("cards", "en")], c.id


def test_approximations_are_marked_with_their_notes(game, pages):
    assert "≈" in pages[("cards", "en")] and "Gap 1" not in pages[("cards", "en")]
    designer = {name: sheets.render_html(game, s, lang, "designer")
                for s in sheets.SHEETS["clank_catacombs"] for name, lang in [((s.name, "en"), "en"),
                                                                            ((s.name, "zh"), "zh")]}
    assert "Gap 1" in designer[("cards", "en")]
    assert "Gap 9" in designer[("tokens", "zh")] and "Gap 9" not in pages[("tokens", "zh")]


def test_pdf_renders_with_a_cjk_font(game, tmp_path):
    token_sheet = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "tokens")
    out = tmp_path / "tokens.zh.pdf"
    sheets.write_pdf(sheets.render_html(game, token_sheet, "zh"), out)
    assert out.read_bytes().startswith(b"%PDF")
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True)
    assert "CJK" in fonts.stdout


@pytest.mark.parametrize("event, en, zh", [
    ("play", "whenever you play a card", "每打出一张牌时"),
    ("acquire", "whenever you acquire a card", "每获得一张牌时"),
    ("defeat", "whenever you defeat a monster", "每击败一个怪物时"),
    ("buy", "whenever you buy an item", "每购买一个商品时"),
    ("reveal_tile", "whenever you reveal a tile", "每翻开一个板块时"),
])
def test_a_trigger_a_card_registers_says_which_cards_it_hears(game, event, en, zh):
    # A pack's `during turn: on play: ...` hears every card the player plays next (engine.emit),
    # not the card itself ("when you play it" read as if it did).
    from tomecraft.dsl.parser import parse
    from tomecraft.dsl.render import render
    ast = parse(f"during turn: on {event}: gain combat 1")
    assert en in render(ast, game.vocab, "en")
    assert zh in render(ast, game.vocab, "zh")


def test_rules_sheet_says_a_packs_treasure_limit_lockpicks_and_cubes(tmp_path):
    # A pack replacing treasure_limit, start_lockpicks and player_cubes is played with its
    # values (setup.py, rules.py); the rules sheet said "hold 1 treasure", "30 cubes" and
    # "1 lockpick tokens" whatever the pack said.
    (tmp_path / "pack.yaml").write_text(
        "id: greed\ngame: clank_catacombs\nversion: '1'\nrequires: []\nremove: []\n")
    (tmp_path / "rules.yaml").write_text(
        "rules:\n"
        "  - {id: treasure_limit, replace: true, name: {zh: 宝藏持有上限, en: Treasure limit},"
        " source: approximation, note: fan, value: 2}\n"
        "  - {id: start_lockpicks, replace: true, name: {zh: 起始开锁标记, en: Lockpicks},"
        " source: approximation, note: fan, value: 1}\n")
    (tmp_path / "components.yaml").write_text(
        "components:\n"
        "  - {id: player_cubes, replace: true, name: {zh: 玩家方块, en: Player cubes},"
        " source: approximation, note: fan, count: 100, per_player: 25}\n")
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT, [tmp_path], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    rules = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "rules")
    en = html.unescape(sheets.render_html(g, rules, "en"))
    zh = html.unescape(sheets.render_html(g, rules, "zh"))
    assert "you may hold 2 treasures (+1 per Backpack)" in en
    assert "最多持有2个宝藏（每个背包+1）" in zh
    assert "Each player: 25 cubes, 1 lockpick token, " in en
    assert "每位玩家：25个方块、1个开锁标记" in zh


def test_a_played_cards_trigger_says_it_lasts_the_turn(tmp_path):
    """A trigger a card's play effect registers is heard only until the end of the turn (the
    contract's `lasts_the_turn`, engine.end_turn clears it): its text says "this turn", as
    `during turn:` does, not "Whenever you defeat a monster" as if it were permanent."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.sheets import Footnotes
    from tomecraft.compiler.sheets.clank_catacombs import cards_sheet
    root = Path(__file__).resolve().parents[2]
    pack = root / "tests" / "clank_catacombs" / "events_pack"
    game = pipeline.compile_game(root / "content" / "clank_catacombs", [pack], dg.Reporter())
    texts = {lang: [e["text"] for s in cards_sheet(game, lang, Footnotes())["sections"]
                    for r in s["rows"] for e in r["effects"]] for lang in ("en", "zh")}
    assert "This turn, whenever you defeat a monster, gain 1 gold." in texts["en"]
    assert "本回合内，每击败一个怪物时，获得1金币。" in texts["zh"]


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", ["worth a 25-point mastery token", "Greater Fortune 6, Small Fortune 3",
            "mastery 25,", "monkey idols 4)"],
     ["worth a 20-point", "mastery 20", "Greater Fortune 5", "monkey idols 5"]),
    ("zh", ["获得25分的高手标记", "大财6、小财3", "高手标记25", "黄金猴像4"],
     ["获得20分", "大财5", "高手标记20", "黄金猴像5"]),
])
def test_the_rules_sheet_says_a_packs_token_values(tmp_path, lang, says, not_said):
    """The escape paragraph and the scoring line said the base game's mastery (20), monkey
    idol (5) and fortune (5, 2) values beside a pack replacing those tokens (packs round)."""
    root = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs"
    pack = tmp_path / "values"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: values\ngame: clank_catacombs\nversion: '1.0'\n", "utf-8")
    tokens = {"monkey_idol": ("points: 4", "monkey_idol"), "mastery": ("points: 25", "mastery")}
    body = "tokens:\n"
    for token_id, (field, kind) in tokens.items():
        body += (f"  - id: {token_id}\n    replace: true\n    name: {{zh: 标记, en: Token}}\n"
                 f"    source: approximation\n    note: test\n    token_type: {kind}\n"
                 f"    count: 3\n    {field}\n")
    for token_id, value in (("greater_fortune", 6), ("small_fortune", 3)):
        body += (f"  - id: {token_id}\n    replace: true\n    name: {{zh: 财, en: Fortune}}\n"
                 f"    source: approximation\n    note: test\n    token_type: major_secret\n"
                 f"    count: 2\n    points: 0\n    value: {value}\n    kept: true\n")
    (pack / "tokens.yaml").write_text(body, "utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    _assert_rules_text(game, lang, says, not_said)


def _replaced(path: Path, key: str, changes: dict) -> list[dict]:
    """Base entities of one content file, replaced with `changes` ({id: {field: value}})."""
    from ruamel.yaml import YAML
    entries = YAML(typ="safe").load(path.read_text("utf-8"))[key]
    return [{**e, **fields, "replace": True, "source": "approximation", "note": "test"}
            for e in entries for eid, fields in changes.items() if e["id"] == eid]


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", ["Unlock a chest, tome or cell: 2 lockpick tokens.",
            "A signpost room has 5 spaces: a 6th player to arrive places no cube there.",
            "escape the dungeon and take a mastery token"],
     ["or cell: 1 lockpick",
      "4 spaces", "a 5th", "20-point"]),
    ("zh", ["解锁宝箱、古籍或牢房：花费2个开锁标记。",
            "每个路标房间只有5个空格：第六名抵达的玩家不能再放方块。", "逃出地城并拿取1个高手标记"],
     ["牢房：花费1个", "4个空格", "第五", "价值20分"]),
])
def test_the_rules_sheet_says_a_packs_rooms(tmp_path, lang, says, not_said):
    """The actions said a 1-lockpick unlock, the Tomb Party 4 signpost spaces (the 5th and 6th
    arrivals placing none) and the Mausoleum a 20-point mastery token, beside a pack changing
    the rooms' lockpick cost and spaces and the mastery token (the tile and starting-deck
    counts are the box's: check refuses a pack changing them)."""
    from ruamel.yaml import YAML
    pack = tmp_path / "counts"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: counts\ngame: clank_catacombs\nversion: '1.0'\n"
                                    "requires: [tomb_party]\n", "utf-8")
    rooms = {e["id"]: e for e in YAML(typ="safe").load((ROOT / "rooms.yaml").read_text(
        "utf-8"))["rooms"]}
    lock = {r: {"action": rooms[r]["action"].replace("pay lockpick 1", "pay lockpick 2")}
            for r in ("chest", "tome", "cell")}
    party = ROOT / "packs" / "tomb_party" / "party.yaml"
    body = {"tokens": _replaced(party, "tokens", {"mastery": {"points": 25}}),
            "rooms": _replaced(ROOT / "rooms.yaml", "rooms", {"signpost": {"spaces": 5}, **lock})}
    yaml = YAML()
    with (pack / "content.yaml").open("w", encoding="utf-8") as out:
        yaml.dump(body, out)
    reporter = dg.Reporter()
    game = pipeline.compile_game(ROOT, [ROOT / "packs" / "tomb_party", pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    _assert_rules_text(game, lang, says, not_said)


def _assert_rules_text(game, lang: str, says: list[str], not_said: list[str]) -> None:
    """The rules sheet's text (tags out, spaces folded) says each of `says`, none of `not_said`."""
    rules = next(s for s in sheets.SHEETS["clank_catacombs"] if s.name == "rules")
    text = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(
        sheets.render_html(game, rules, lang))).split())
    for phrase in says:
        assert phrase in text, phrase
    for phrase in not_said:
        assert phrase not in text, phrase


@pytest.mark.parametrize("lang, use", [("zh", "获得2战斗力"), ("en", "Gain 2 combat")])
def test_the_token_sheet_lists_a_packs_token_of_a_new_type(lang, use):
    """The token sheet grouped tokens by the game's own types only (prisoners, secrets,
    treasures, idols, mastery): a pack's Relic Shard, of a type of its own, was on no sheet,
    though rooms sold it and it could be used. It comes with the other tokens, with its use."""
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT, [ROOT.parents[1] / "tests/clank_catacombs/shard_pack"], reporter)
    assert not reporter.errors, dg.format_text(reporter)
    page = html.unescape(sheets.render_html(g, next(s for s in sheets.SHEETS["clank_catacombs"]
                                                    if s.name == "tokens"), lang))
    shard = g.entities["token"]["relic_shard"].data["name"][lang]
    row = next((r for r in re.findall(r"<tr.*?</tr>", page, flags=re.S) if shard in r), "")
    assert use in row, row
