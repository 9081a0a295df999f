"""A pack's mistake about a count or a base entity stands in the pack, where `check` of the
pack's file shows it, never in the base game's content (sixth packs blind test: a fifth Crawl
Decks attribute, a removed loot kind and a Clank! tile replacement that drops a room were each
told in content/<game>/, which the fan cannot change)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

ROOT = Path(__file__).resolve().parents[2]


def _check(tmp_path: Path, game: str, manifest: str, files: dict[str, str]):
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: fan_pack\ngame: {game}\nversion: '1.0'\n{manifest}",
                                    encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [pack], reporter)
    return [(d.code, Path(d.file).name, d.line, d.message, d.hint, d.file)
            for d in reporter.diagnostics]


def test_a_fifth_crawl_attribute_is_refused_at_its_id(tmp_path):
    found = _check(tmp_path, "dm_crawl_decks", "", {"attributes.yaml": (
        "attributes:\n  - {id: charisma, name: {zh: 魅力, en: Charisma}, source: approximation,"
        " note: x, order: 1, supply: 5}\n")})
    at_id = [f for f in found if f[0] == "TC-C004"]
    assert [(c, name, line) for c, name, line, *_ in at_id] == [("TC-C004", "attributes.yaml", 2)]
    assert "'strength'" in at_id[0][4] and "'intelligence'" in at_id[0][4]
    assert not [f for f in found if "content" in Path(f[5]).parts], found
    assert "of an attribute" in next(f[3] for f in found if f[0] == "TC-C002")


def test_removing_the_crawl_gold_loot_is_told_at_the_removal(tmp_path):
    found = _check(tmp_path, "dm_crawl_decks",
                   "remove: [{kind: event_card, id: gold_loot}]\n", {})
    assert [(c, name, line) for c, name, line, *_ in found] == [("TC-G001", "pack.yaml", 4)]
    assert "no loot card turns into gold" in found[0][3]


TILE = """\
tiles:
  - id: safe_03
    replace: true
    name: {zh: 安全区域板块3, en: "Safe-area tile 3"}
    source: approximation
    note: the library replaces the heal room
    area: safe
    count: 1
    cells: [[0, 0, gold_room_2, ESW]]
    icons: {E: [footprints]}
"""


def test_a_clank_tile_replacement_leaving_a_base_room_off_the_map_is_warned_at_the_tile(tmp_path):
    found = _check(tmp_path, "clank_catacombs", "", {"tiles.yaml": TILE})
    assert [(c, name, line) for c, name, line, *_ in found] == [("TC-G002", "tiles.yaml", 9)]
    assert "room 'heal_room' is on no tile" in found[0][3] and "'safe_03'" in found[0][3]
