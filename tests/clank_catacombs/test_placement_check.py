"""Rooms and tunnel icons exist in play only where a tile carries them (issue 10): check
refuses a pack's room no tile names and a pack's tunnel icon on no tile's tunnel, at the
entity, so `new pack` comments its copies out with the reason; a pack's tile may carry any
tunnel icon by id (compiler/game_checks/clank_catacombs.py)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline
from tomecraft.compiler.scaffold import new_pack

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "content" / "clank_catacombs"

ROOM = """rooms:
  - id: fan_vault
    name: {zh: 宝库, en: Vault}
    source: approximation
    note: "A fan's."
    room_type: gold_room
    on_enter: "gain gold 2"
"""
ICON = """tunnel_icons:
  - id: fan_spikes
    name: {zh: 尖刺, en: Spikes}
    source: approximation
    note: "A fan's."
    icon: footprints
    cross: "pay movement 1"
"""
TILE = """tiles:
  - id: safe_06
    replace: true
    name: {zh: 安全区域板块6, en: Safe-area tile 6}
    source: approximation
    note: "A fan's."
    area: safe
    count: 1
    cells: [[0, 0, fan_vault, NESW]]
    icons: {E: [fan_spikes]}
"""


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple]:
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: clank_catacombs\nversion: '1.0'\n",
                                    encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(GAME, [pack], reporter)
    return sorted({(d.severity, d.code, Path(d.file).name, d.line, d.message)
                   for d in reporter.diagnostics})


def test_a_room_and_a_tunnel_icon_on_no_tile_are_refused_where_they_are_written(tmp_path):
    found = check(tmp_path, {"rooms.yaml": ROOM, "tunnel_icons.yaml": ICON})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        (dg.ERROR, "TC-G001", "rooms.yaml", 6), (dg.ERROR, "TC-G001", "tunnel_icons.yaml", 6)]
    assert "room 'fan_vault' is on no tile" in found[0][4]
    assert "tunnel icon 'fan_spikes' is on no tile's tunnel" in found[1][4]


def test_a_tile_carrying_them_makes_the_pack_check_clean(tmp_path):
    """The replaced tile's minor-secret room is also on depths_21, so nothing is left off."""
    assert check(tmp_path, {"rooms.yaml": ROOM, "tunnel_icons.yaml": ICON, "tiles.yaml": TILE}) == []


def test_an_unknown_icon_on_a_tile_is_refused_at_the_icon(tmp_path):
    tile = TILE.replace("[fan_spikes]", "[footprints, fan_nothing]")
    found = check(tmp_path, {"rooms.yaml": ROOM, "tiles.yaml": tile})
    assert [(c, f, line) for _, c, f, line, _ in found] == [("TC-G001", "tiles.yaml", 10)]
    assert "unknown tunnel icon 'fan_nothing' on edge E" in found[0][4]


def test_a_base_room_a_pack_takes_off_the_map_is_only_warned_about(tmp_path):
    """safe_04 carries the only gold_room_2: a pack may retire it; check says so at the
    pack's tile that replaced it (it stood at the base game's rooms.yaml, which check of the
    pack's file never shows)."""
    tile = TILE.replace("safe_06", "safe_04").replace("icons: {E: [fan_spikes]}\n", "")
    found = check(tmp_path, {"rooms.yaml": ROOM, "tiles.yaml": tile})
    assert [(s, c, f) for s, c, f, _, _ in found] == [(dg.WARNING, "TC-G002", "tiles.yaml")]
    assert "room 'gold_room_2' is on no tile" in found[0][4] and "'safe_04'" in found[0][4]


def test_new_pack_comments_out_its_room_and_tunnel_icon_with_the_reason(tmp_path):
    folder = tmp_path / "np_cc"
    new_pack(GAME, folder)
    for name, what in (("rooms.yaml", "room 'np_cc_cell' is on no tile"),
                       ("tunnel_icons.yaml", "tunnel icon 'np_cc_footprints' is on no tile")):
        text = (folder / name).read_text(encoding="utf-8")
        assert "# Commented out: the game refuses it as an addition (TC-G001: " + what in text
    reporter = dg.Reporter()
    pipeline.compile_game(GAME, [folder], reporter)
    assert reporter.diagnostics == []


MARKET = """market_items:
  - id: free_snack
    name: {{zh: 免费点心, en: Free Snack}}
    source: approximation
    note: "A fan's."
    price: {price}
    count: 1
    points: [0]
    on_buy: "heal 2"
"""


def test_a_market_item_priced_unlike_the_market_is_refused_at_its_price(tmp_path):
    """The market room's action pays 7 gold for any item; a pack's price 0 checked clean, was
    printed '0' and cost 7 (fifth packs blind test)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert check(tmp_path / "a", {"m.yaml": MARKET.format(price=7)}) == []
    found = check(tmp_path / "b", {"m.yaml": MARKET.format(price=0)})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        ("error", dg.GAME_RULE, "m.yaml", 6)]
    assert "the market charges 7 gold for every item" in found[0][4]


def test_a_market_items_count_unlike_its_points_values_is_refused_at_its_count(tmp_path):
    """The market holds one item per points value (setup: `points` [5, 5] is two lamps): a
    pack's count 3 with two values checked clean, and the sheet printed 3 of an item play
    stocked 2 of."""
    (tmp_path / "a").mkdir()
    lamp = MARKET.format(price=7).replace("count: 1\n    points: [0]", "count: 3\n    points: [5, 5]")
    found = check(tmp_path / "a", {"m.yaml": lamp})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        ("error", dg.GAME_RULE, "m.yaml", 7)], found
    assert "one item per points value" in found[0][4]


SHARD_PACK = """id: fan_pack
game: clank_catacombs
version: '1.0'
vocabulary:
  terms:
    token_type:
      relic_shard: {zh: 遗物碎片, en: relic shard}
"""
SHARD = """tokens:
  - id: relic_shard
    name: {zh: 遗物碎片, en: Relic Shard}
    source: approximation
    note: "A fan's."
    token_type: relic_shard
    count: 6
    points: 2
    on_gain: "heal 1"
"""
SHARD_ROOM = """rooms:
  - id: shard_vault
    name: {zh: 碎片宝库, en: Shard Vault}
    source: approximation
    note: "A fan's."
    room_type: gold_room
    on_enter: "if tokens_left(relic_shard) > 0: gain_random relic_shard 1"
"""


def _check_shards(tmp_path: Path, files: dict[str, str]) -> list[tuple]:
    pack = tmp_path / "fan_pack"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(SHARD_PACK, encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(GAME, [pack], reporter)
    return [(d.severity, d.code, Path(d.file).name, d.line, d.message) for d in reporter.diagnostics]


def test_a_token_of_a_new_type_no_effect_gains_is_warned_about_at_its_type(tmp_path):
    """Tokens of a pack's new type are gained only by an effect's `take_token` or
    `gain_random` of the type: a pack whose Relic Shards nothing hands out checked clean, and
    `sim --usage` found them never used. As Dungeontology's region token no card places, check
    warns at the token's type; a room that gains them (on a tile) silences it."""
    found = _check_shards(tmp_path, {"tokens.yaml": SHARD})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        ("warning", "TC-G002", "tokens.yaml", 6)], found
    assert "gain_random" in found[0][4] and "relic_shard" in found[0][4]
    tile = TILE.replace("fan_vault", "shard_vault").replace("    icons: {E: [fan_spikes]}\n", "")
    assert _check_shards(tmp_path / "2", {"tokens.yaml": SHARD, "rooms.yaml": SHARD_ROOM,
                                          "tiles.yaml": tile}) == []


def test_a_token_with_a_use_is_kept_until_used_then_boxed(tmp_path):
    """A token with a `use` is held until used, then back in the box (engine.py): a pack's
    shard not kept left play as soon as it was gained (its use never ran), and one printed
    `after_use: keep` left play when used; both checked clean. Check refuses both, at the
    field; left out, after_use is printed as the box."""
    room = SHARD_ROOM.replace('"if tokens_left(relic_shard) > 0: gain_random relic_shard 1"',
                              '"gain_random relic_shard 1"')
    tile = TILE.replace("fan_vault", "shard_vault").replace("    icons: {E: [fan_spikes]}\n", "")
    placed = {"rooms.yaml": room, "tiles.yaml": tile}
    unkept = SHARD.replace('    on_gain: "heal 1"', '    use: "gain combat 2"').replace(
        "    points: 2\n", "    points: 0\n")
    found = _check_shards(tmp_path / "a", {**placed, "tokens.yaml": unkept})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        ("error", "TC-G001", "tokens.yaml", 9)], found
    kept = unkept.replace("    points: 0\n", "    points: 0\n    after_use: keep\n    kept: true\n")
    found = _check_shards(tmp_path / "b", {**placed, "tokens.yaml": kept})
    assert [(s, c, f, line) for s, c, f, line, _ in found] == [
        ("error", "TC-G001", "tokens.yaml", 9)], found
    assert "back in the box once it is used" in found[0][4]
    from tomecraft.compiler.sheets import after_use_text
    (tmp_path / "c").mkdir()
    pack = tmp_path / "c" / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(SHARD_PACK, encoding="utf-8")
    for name, text in {**placed, "tokens.yaml": unkept.replace("    points: 0\n", "    points: 0\n    kept: true\n")}.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    g = pipeline.compile_game(GAME, [pack], reporter)
    assert not reporter.diagnostics, [d.message for d in reporter.diagnostics]
    assert after_use_text(g, g.entities["token"]["relic_shard"], "en") == "back to the box after use"
