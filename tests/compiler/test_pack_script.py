"""A pack's Chinese text in the other script than its game's: The Cave's sheets are zh-Hant
(its rulebook is Traditional), and a pack's "遗迹标记" was printed as it is beside the sheet's
own Traditional phrases ("在此版塊放置遗迹标记") with a clean check (packs round 11). Check warns
at the text (TC-S006), naming the characters and their form; likewise Traditional characters
in a Simplified game's pack. Each game's own content and shipped packs stay clean."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline

REPO = Path(__file__).resolve().parents[2]

CAVE_TOKEN = """tokens:
  - id: relic
    name: {zh: NAME, en: Relic token}
    source: approximation
    note: a fan token
    supply: 10
    term: traverse
    points: 3
    category: traverse
"""
CLANK_ITEM = """market_items:
  - id: gem_bag
    name: {zh: NAME, en: Gem bag}
    source: approximation
    note: a fan item
    price: 7
    count: 1
    points: [5]
    on_buy: heal 1
"""


def warnings(tmp_path: Path, game: str, content: str, name: str) -> list:
    tmp_path.mkdir()
    (tmp_path / "pack.yaml").write_text(f"id: scripts\ngame: {game}\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "content.yaml").write_text(content.replace("NAME", name), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / game, [tmp_path], reporter)
    return [d for d in reporter.diagnostics if d.code == dg.WRONG_LANGUAGE]


@pytest.mark.parametrize("game, content, name, bad, good", [
    ("the_cave", CAVE_TOKEN, "遗迹标记", "标 (標)", "遺跡標記"),
    ("clank_catacombs", CLANK_ITEM, "寶石袋", "寶 (宝)", "宝石袋"),
])
def test_text_in_the_other_script_is_warned_at_it(tmp_path, game, content, name, bad, good):
    found = warnings(tmp_path / "bad", game, content, name)
    assert [d.line for d in found] == [3] and bad in found[0].message, found
    assert warnings(tmp_path / "good", game, content, good) == []
