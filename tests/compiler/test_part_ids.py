"""Parts an entity lists by id are found by that id in play: a pack's tile kind with two
`walk` entry options (and two `wash` actions) checked clean, and The Cave's engine always ran
the first (packs round 11). A second part with a used id is refused at it (TC-S003), in every
game: a DRG weapon's modes alike."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

REPO = Path(__file__).resolve().parents[2]

CAVE = """tile_kinds:
  - id: mud
    name: {zh: 泥濘版塊, en: Mud}
    source: approximation
    note: a fan tile kind
    on_discover: "place_token traverse"
    enter:
      - {id: walk, effect: "pay ap 2"}
      - {id: SECOND, effect: "pay ap 1"}
    discover_from: true
    rope_edges: false
tiles:
  - id: s1_normal_ns
    replace: true
    name: {zh: "第1疊 泥 NS", en: "Stack 1 mud NS"}
    source: approximation
    note: a fan tile
    stack: 1
    tile_kind: mud
    exits: NS
    count: 2
"""
DRG = """weapons:
  - id: boomstick
    replace: true
    name: {zh: 应急霰弹枪, en: Boomstick}
    source: approximation
    note: a fan weapon
    slot: secondary
    modes:
      - id: fire
        name: {zh: 开火, en: Fire}
        actions: 1
        ammo: 1
        range: 2
        die: explosive_die
        dice: 2
        assign: choose_one
        effect: "pay actions 1, pay secondary_ammo 1 -> target monster where in_range(2) and line_of_sight(): let r = roll(explosive_die, 2); deal explosive hits(r)"
      - id: SECOND
        name: {zh: 近射, en: Close}
        actions: 1
        ammo: 1
        range: 1
        die: explosive_die
        dice: 2
        assign: choose_one
        effect: "pay actions 1, pay secondary_ammo 1 -> target monster where in_range(1) and line_of_sight(): let r = roll(explosive_die, 2); deal explosive hits(r)"
"""


def duplicates(tmp_path: Path, game: str, content: str) -> list:
    (tmp_path / "pack.yaml").write_text(f"id: parts\ngame: {game}\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "content.yaml").write_text(content, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / game, [tmp_path], reporter)
    return [(d.line, d.message) for d in reporter.diagnostics if d.code == dg.DUPLICATE_ID]


def test_a_second_entry_option_with_a_used_id_is_refused(tmp_path):
    found = duplicates(tmp_path, "the_cave", CAVE.replace("SECOND", "walk"))
    assert [line for line, _ in found] == [9], found
    assert "first at line 8" in found[0][1]


def test_a_second_weapon_mode_with_a_used_id_is_refused(tmp_path):
    found = duplicates(tmp_path, "deep_rock_galactic", DRG.replace("SECOND", "fire"))
    assert [line for line, _ in found] == [18], found


def test_parts_with_their_own_ids_are_clean(tmp_path):
    assert duplicates(tmp_path, "the_cave", CAVE.replace("SECOND", "crawl")) == []
