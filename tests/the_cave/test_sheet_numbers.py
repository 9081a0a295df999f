"""The Cave's rules sheet says the numbers of the content it is printed from: a pack changing
the re-equip, set-up, packing and walking costs, adding a 3-slot item with its own per-team limit,
playing no extra rounds and giving teams with no token a majority bonus (sheet_numbers_pack)
got a sheet printing the base game's "2 AP", "1 slot", "at most 1 camera and 1 raft",
"play 0 more rounds" (zh "再進行額外的0輪") and "teams holding no token ... get 0" (packs
round)."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
CAVE = REPO / "content" / "the_cave"
PACK = Path(__file__).resolve().parent / "sheet_numbers_pack"


def rules_text(packs: list[Path], lang: str) -> str:
    reporter = dg.Reporter()
    game = pipeline.compile_game(CAVE, packs, reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    rules = next(s for s in sheets.SHEETS["the_cave"] if s.name == "rules")
    text = re.sub(r"<[^>]+>", " ", html.unescape(sheets.render_html(game, rules, lang)))
    return " ".join(text.split())


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", ["Re-equip at the base for 1 AP:",
            "every equipment token takes 1 slot, except the sled (3 slots)",
            "at most 1 camera, 1 raft and 2 sleds",
            "A discarded camera, raft or sled is gone",
            "with any camera, raft or sled inside",
            "every later packing costs 4 AP",
            "Set up the camp on any kind of tile for 3 AP;",
            "set up 3 + rearrange 1 + pack 4 AP",
            "same number of turns; then the game ends.",
            "A team not back at the base at the end loses",
            "Entering an adjacent tile costs 2 AP;",
            "The backpack has 8 slots and the camp 4;",
            "All players at once choose equipment tokens to fill the 8 slots of their backpacks",
            "choose items for the 8 slots of their backpacks", "and has 4 slots of its own",
            "the player finishes the turn and the game ends once the round is completed"],
     ["for 2 AP", "takes 1 slot.", "at most 1 camera and 1 raft", "more round",
      "after those rounds", "teams holding no token", "costs 1 AP. Set up", "holds 8 items",
      "choose 8", "carries 4 items", "before the extra rounds"]),
    ("zh", ["在基地花費1行動點重新裝備",
            "每個裝備標記佔1格，但雪橇佔3格",
            "每隊最多1台相機、1個木筏與2個雪橇",
            "棄掉的相機、木筏或雪橇本局不能再取得",
            "其中的相機、木筏或雪橇一併失去",
            "之後每次裝回背包需4行動點",
            "花費3行動點可在任何種類的版塊設置營地",
            "設置3＋整理1＋裝回4行動點",
            "使每位玩家回合數相同；然後遊戲結束。",
            "遊戲結束時仍未回到基地的隊伍自動輸掉",
            "進入相鄰版塊需2行動點；", "所有玩家同時選擇裝備標記裝滿背包的8格",
            "所有玩家同時選擇裝備放滿背包的8格", "營地本身可放4格裝備",
            "觸發者完成其回合，本輪結束後遊戲結束"],
     ["花費2行動點重新裝備", "每隊最多1台相機與1個木筏", "額外的0輪", "額外的回合後",
      "零標記不得獎勵分", "裝回背包需1行動點", "選擇8個", "可放4個裝備", "才進行額外輪次"]),
])
def test_the_rules_sheet_says_a_packs_numbers(lang, says, not_said):
    text = rules_text([PACK], lang)
    for phrase in says:
        assert phrase in text, phrase
    for phrase in not_said:
        assert phrase not in text, phrase


@pytest.mark.parametrize("lang, says", [
    ("en", ["Re-equip at the base for 2 AP:", "every equipment token takes 1 slot.",
            "A team may own at most 1 camera and 1 raft. A discarded camera or raft is gone",
            "with any camera or raft inside", "every later packing costs 1 AP.",
            "Set up the camp on any kind of tile for 2 AP;", "set up 2 + rearrange 2 + pack 1 AP",
            "play 3 more rounds.", "after those rounds loses", "The backpack holds 8 items",
            "choose 8 equipment tokens to fill their backpacks", "carries 4 items of its own",
            "the round is completed before the extra rounds",
            "Entering an adjacent tile costs 1 AP;"]),
    ("zh", ["在基地花費2行動點重新裝備", "每個裝備標記佔1格。", "每隊最多1台相機與1個木筏。",
            "棄掉的相機或木筏本局不能再取得", "其中的相機或木筏一併失去", "之後每次裝回背包需1行動點",
            "花費2行動點可在任何種類的版塊設置營地", "設置2＋整理2＋裝回1行動點",
            "再進行額外的3輪。", "額外的回合後仍未回到基地的隊伍自動輸掉", "零標記不得獎勵分",
            "進入相鄰版塊需1行動點；", "所有玩家同時選擇8個裝備標記裝滿背包",
            "營地本身可放4個裝備", "本輪結束後才進行額外輪次"]),
])
def test_the_base_games_rules_sheet_keeps_its_numbers(lang, says):
    text = rules_text([], lang)
    for phrase in says:
        assert phrase in text, phrase


def test_the_ap_per_turn_is_the_turn_ap_rule(tmp_path):
    """The sheet looked the AP a turn gives up under ids no rule has (ap_per_turn,
    action_points, ap) and printed its default 5 whatever the rule `turn_ap` said; a pack may
    not set a rule's value, so the game's own rule is changed here (a copy of the content)."""
    import shutil
    game_dir = tmp_path / "the_cave"
    shutil.copytree(CAVE, game_dir, ignore=shutil.ignore_patterns("packs"))
    rules = game_dir / "rules.yaml"
    before = rules.read_text("utf-8")
    after = before.replace('ref: "L64", value: 5}', 'ref: "L64", value: 6}')
    assert after != before
    rules.write_text(after, "utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(game_dir, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    sheet = next(s for s in sheets.SHEETS["the_cave"] if s.name == "rules")
    for lang, says in (("en", "You have up to 6 AP each turn"), ("zh", "每回合最多有6行動點")):
        text = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(
            sheets.render_html(game, sheet, lang))).split())
        assert says in text, says


def test_the_first_game_suggestion_names_only_equipment_the_game_has(tmp_path):
    """L54 suggests 4 consumables, 1 rope, 1 oxygen, 1 camera and 1 raft; a pack removing the
    camera (checked with a warning at the wonder) still got "First game: ... 1 camera" on its
    sheets, an item no team could take."""
    pack = tmp_path / "no_camera"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: no_camera\ngame: the_cave\nversion: '1.0'\n"
                                    "remove:\n  - {kind: equipment, id: camera}\n",
                                    encoding="utf-8")
    base, fan = rules_text([], "en"), rules_text([pack], "en")
    assert base.count("First game: 4 consumables, 1 rope, 1 oxygen, 1 camera, 1 raft.") == 2
    assert fan.count("First game: 4 consumables, 1 rope, 1 oxygen, 1 raft.") == 2
    assert "初次遊戲建議：4消耗品、1繩索、1氧氣、1木筏。" in rules_text([pack], "zh")
