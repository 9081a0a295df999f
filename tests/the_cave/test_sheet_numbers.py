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
            "Entering an adjacent tile costs 2 AP;"],
     ["for 2 AP", "takes 1 slot.", "at most 1 camera and 1 raft", "more round",
      "after those rounds", "teams holding no token", "costs 1 AP. Set up"]),
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
            "進入相鄰版塊需2行動點；"],
     ["花費2行動點重新裝備", "每隊最多1台相機與1個木筏", "額外的0輪", "額外的回合後",
      "零標記不得獎勵分", "裝回背包需1行動點"]),
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
            "play 3 more rounds.", "after those rounds loses",
            "Entering an adjacent tile costs 1 AP;"]),
    ("zh", ["在基地花費2行動點重新裝備", "每個裝備標記佔1格。", "每隊最多1台相機與1個木筏。",
            "棄掉的相機或木筏本局不能再取得", "其中的相機或木筏一併失去", "之後每次裝回背包需1行動點",
            "花費2行動點可在任何種類的版塊設置營地", "設置2＋整理2＋裝回1行動點",
            "再進行額外的3輪。", "額外的回合後仍未回到基地的隊伍自動輸掉", "零標記不得獎勵分",
            "進入相鄰版塊需1行動點；"]),
])
def test_the_base_games_rules_sheet_keeps_its_numbers(lang, says):
    text = rules_text([], lang)
    for phrase in says:
        assert phrase in text, phrase
