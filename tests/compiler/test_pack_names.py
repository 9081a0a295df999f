"""A pack's new vocabulary names (resources, zones, stats, statuses, scopes, terms) are held to
what the engine plays (Contract.pack_names, TC-C006): a Clank! pack's resource 'mana' checked
clean and stopped sim at its first gain, a Crawl Decks stat 'luck' at `self.luck += 1`, an
attribute 'charisma' at `gain_token charisma 1`; a new zone or scope checked clean and did
nothing (a zone no card is in, a scope the engine never ends)."""
from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tomecraft.compiler import contract as contract_check
from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

ROOT = Path(__file__).resolve().parents[2]
DECLARED = ["clank_catacombs", "dm_crawl_decks", "dungeontology", "the_cave",
            "deep_rock_galactic"]


def _check(tmp_path: Path, game: str, vocabulary: str, files: dict[str, str] | None = None):
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        f"id: fan_pack\ngame: {game}\nversion: '1.0'\nvocabulary:\n{vocabulary}",
        encoding="utf-8")
    for name, text in (files or {}).items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [pack], reporter)
    return [(d.code, Path(d.file).name, d.line, d.column, d.message)
            for d in reporter.diagnostics if d.severity == dg.ERROR]


@pytest.mark.parametrize("game, vocabulary, what", [
    ("clank_catacombs", "  resources:\n    mana: {zh: 法力, en: mana}\n", "resource 'mana'"),
    ("clank_catacombs", "  scopes:\n    round: {zh: 本轮, en: this round}\n", "scope 'round'"),
    ("clank_catacombs", "  terms:\n    cube:\n      red_cube: {zh: 红色方块, en: red cube}\n",
     "cube term 'red_cube'"),
    ("dm_crawl_decks", "  stats:\n    luck: {zh: 幸运, en: luck}\n", "stat 'luck'"),
    ("dm_crawl_decks", "  zones:\n    vault: {zh: 宝库, en: vault}\n", "zone 'vault'"),
    ("dm_crawl_decks", "  terms:\n    attribute:\n      charisma: {zh: 魅力, en: Charisma}\n",
     "attribute term 'charisma'"),
    ("dungeontology", "  statuses:\n    blessed: {zh: 受祝福, en: blessed}\n", "status 'blessed'"),
    ("dungeontology", "  terms:\n    direction:\n      up: {zh: 上, en: up}\n",
     "direction term 'up'"),
    # seventh packs round: a Cave team holds AP only (`pay mana 1` stopped sim: AttributeError),
    # no zone holds anything (`count(photo in vault)` was always 0), no scope is kept
    ("the_cave", "  resources:\n    mana: {zh: 魔力, en: mana}\n", "resource 'mana'"),
    ("the_cave", "  zones:\n    vault: {zh: 宝库, en: vault}\n", "zone 'vault'"),
    ("the_cave", "  stats:\n    luck: {zh: 运气, en: luck}\n", "stat 'luck'"),
    ("the_cave", "  statuses:\n    tired: {zh: 疲倦, en: tired}\n", "status 'tired'"),
    ("the_cave", "  scopes:\n    expedition: {zh: 本次探险, en: this expedition}\n",
     "scope 'expedition'"),
    # a dwarf's stat 'armor' stopped sim at `you.armor`; selectors ignore zones; `destroy`
    # clears walls and stalagmites only; maps, marks and Hazard levels are the mission book's
    ("deep_rock_galactic", "  stats:\n    armor: {zh: 护甲, en: armor}\n", "stat 'armor'"),
    ("deep_rock_galactic", "  zones:\n    trash: {zh: 废弃堆, en: trash}\n", "zone 'trash'"),
    ("deep_rock_galactic", "  scopes:\n    deep_dive: {zh: 深潜, en: this deep dive}\n",
     "scope 'deep_dive'"),
    ("deep_rock_galactic", "  terms:\n    terrain:\n      crystal: {zh: 水晶, en: crystal}\n",
     "terrain term 'crystal'"),
    ("deep_rock_galactic", "  terms:\n    map_mark:\n      beacon: {zh: 信标, en: beacon}\n",
     "map_mark term 'beacon'"),
    ("deep_rock_galactic", "  terms:\n    hazard:\n      hazard_6: {zh: 难度6, en: Hazard 6}\n",
     "hazard term 'hazard_6'"),
])
def test_a_new_name_the_engine_plays_only_its_own_of_is_refused_at_its_entry(
        tmp_path, game, vocabulary, what):
    found = _check(tmp_path, game, vocabulary)
    line = 4 + vocabulary.count("\n")          # the last line of the snippet holds the name
    assert [(c, f, ln) for c, f, ln, *_ in found] == [("TC-C006", "pack.yaml", line)], found
    assert f"no meaning for a new {what}" in found[0][4]


def test_a_new_text_for_a_games_name_is_not_a_new_name(tmp_path):
    found = _check(tmp_path, "clank_catacombs",
                   "  resources:\n    gold: {zh: 金子, en: gold coins, replace: true}\n")
    assert found == []


ROOM_PACK = {"content.yaml": """\
rooms:
  - id: library
    name: {zh: 图书馆, en: Library}
    source: approximation
    note: a fan's room
    room_type: library
    action: "pay gold 2 -> gain_random relic_token 1"
tokens:
  - {id: ancient_relic, name: {zh: 古代遗物, en: Ancient Relic}, source: approximation,
     note: a fan's token, token_type: relic_token, count: 4, points: 4, on_gain: "heal 1"}
tiles:
  - id: safe_02
    replace: true
    name: {zh: 安全区域板块2, en: "Safe-area tile 2"}
    source: approximation
    note: the library replaces the signpost
    area: safe
    count: 1
    cells: [[0, 0, library, NES]]
    icons: {E: [footprints]}
"""}


def test_names_a_pack_may_add_check_clean(tmp_path):
    """A Clank! room type and token type are played from the pack's own room and tokens."""
    found = _check(tmp_path, "clank_catacombs",
                   "  terms:\n    room_type:\n      library: {zh: 图书馆, en: Library}\n"
                   "    token_type:\n      relic_token: {zh: 遗物标记, en: relic token}\n",
                   ROOM_PACK)
    assert found == []


def test_a_crawl_resource_of_a_pack_is_gained_and_paid_in_play(tmp_path):
    """Crawl Decks keeps resources as counts, so a pack's 'mana' is open: check is clean and
    the sim plays the relic that pays it."""
    import contextlib
    import io
    import json
    from tomecraft.compiler import cli
    card = ("cards:\n  - {id: mana_wisp, name: {zh: 法力鬼火, en: Mana Wisp}, "
            "source: approximation, note: x, card_type: monster, points: 1, power: 1, count: 6, "
            "effect: \"on turn_start: gain mana 1\"}\n"
            "relics:\n  - {id: mana_orb, name: {zh: 法力球, en: Mana Orb}, source: approximation,"
            " note: x, window: action, use: \"pay mana 1 -> heal 1\"}\n")
    found = _check(tmp_path, "dm_crawl_decks",
                   "  resources:\n    mana: {zh: 法力, en: mana}\n", {"cards.yaml": card})
    assert found == []
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["sim", "dm_crawl_decks", "--pack", str(tmp_path / "fan_pack"),
                         "--games", "12", "--usage", "--json"]) == 0
    summary = json.loads(out.getvalue())
    assert summary["completed"] == 12
    assert summary["usage"]["entities"]["relic:mana_orb"]["uses"] > 0


@pytest.mark.parametrize("game", DECLARED)
def test_the_names_a_pack_may_add_are_sections_or_term_types_of_the_game(game):
    vocab = YAML(typ="safe").load((ROOT / "content" / game / "game.yaml").read_text("utf-8"))
    contract = contract_check.load(vocab["engine"])
    assert contract.pack_names is not None
    places = set(contract_check.NAME_SECTIONS) | {f"terms.{t}" for t in vocab["terms"]}
    assert set(contract.pack_names) <= places


def test_the_contract_command_lists_the_names_a_pack_may_add():
    import contextlib
    import io
    from tomecraft.compiler import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["contract", "clank_catacombs"]) == 0
    text = out.getvalue()
    assert "Names a pack may add" in text and "terms.room_type:" in text
    assert "resources:" not in text.split("Names a pack may add")[1].split("\n\n")[0]


CAVE_ACTION = """\
actions:
  - id: fan_act
    name: {{zh: 试验, en: Fan action}}
    source: approximation
    note: a fan's action
    order: 8
    effect: "{effect}"
"""


@pytest.mark.parametrize("tokens", ["", "tokens:\n  - {id: fossil_token, name: {zh: 化石, en: Fossil},"
                                        " source: approximation, note: x, supply: 9, term: ghost,"
                                        " points: 3, category: photo}\n"])
def test_a_cave_token_term_no_token_has_as_its_id_is_refused_where_it_is_named(tmp_path, tokens):
    """`gain_token ghost 1` gave the team a token scoring looked up by id: with no token of
    that id (none, or one whose `term` only is ghost) the score stopped play (KeyError)."""
    found = _check(tmp_path, "the_cave", "  terms:\n    token:\n      ghost: {zh: 幽灵, en: ghost}\n",
                   {"actions.yaml": CAVE_ACTION.format(effect="pay ap 1 -> gain_token ghost 1"),
                    **({"tokens.yaml": tokens} if tokens else {})})
    # and at the token whose `term` names it, when there is one
    assert [(c, f, ln) for c, f, ln, *_ in found] == [("TC-R001", "actions.yaml", 7)] + \
        ([("TC-R001", "tokens.yaml", 2)] if tokens else []), found
    assert all("no token has id 'ghost'" in d[4] for d in found)


def test_a_cave_once_per_limit_is_refused_at_the_limit(tmp_path):
    """The Cave keeps no memory between effects: `once per turn` checked clean and the action
    ran twice in one turn (2 AP paid, 2 photos gained)."""
    found = _check(tmp_path, "the_cave", "  {}\n",
                   {"actions.yaml": CAVE_ACTION.format(
                       effect="once per turn: pay ap 1 -> gain_token photo 1")})
    assert [(c, f, ln, col) for c, f, ln, col, _ in found] == [("TC-C003", "actions.yaml", 7, 23)]
    assert "does not keep `once per turn`" in found[0][4]


def test_the_drg_names_a_pack_may_add_check_clean_and_are_played():
    """A pack's resource, status, damage type, die and face (tests/deep_rock_galactic/
    new_names_pack): check is clean, the sim draws its events and plays its die, and its
    scenarios (pack_new_names, pack_once_per_mission) show each doing what it says."""
    import contextlib
    import io
    import json
    from tomecraft.compiler import cli
    pack = ROOT / "tests" / "deep_rock_galactic" / "new_names_pack"
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "deep_rock_galactic", [pack], reporter)
    assert [d for d in reporter.diagnostics if d.severity == dg.ERROR] == []
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["sim", "deep_rock_galactic", "--pack", str(pack), "--games", "6",
                         "--players", "2", "--usage", "--json"]) == 0
    usage = json.loads(out.getvalue())["usage"]["entities"]
    assert usage["event_card:cold_snap"]["uses"] > 0 and usage["event_card:shatter"]["uses"] > 0
