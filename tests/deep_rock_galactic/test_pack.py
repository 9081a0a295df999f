"""Goo From Above is a YAML-only pack: a sim with it spawns and activates the Goo Bomber and
the Menace; goo stops walkers; the Menace hides after losing HP (generic engine mechanisms)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from compiler import diagnostics as dg
from compiler.loadgen import compile_and_import
from runtime.agents import RandomAgent
from runtime.engines.deep_rock_galactic import play_game
from runtime.engines.deep_rock_galactic.scenarios import build, run
from runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "content/deep_rock_galactic/packs/goo_from_above"


@pytest.fixture(scope="module")
def goo():
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [PACK], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    return data


def test_the_pack_directory_holds_no_python():
    files = [p for p in PACK.rglob("*") if p.is_file()]
    assert files and all(p.suffix == ".yaml" for p in files)


def test_a_sim_with_the_pack_spawns_and_activates_both_creatures(goo):
    spawned, activated = Counter(), Counter()
    for g in range(12):
        rng = Rng(f"goo:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
        result = play_game(goo, 4, rng.fork("game"), agents, {})
        assert result["result"] in ("success", "failure")
        spawned.update(result["spawned"])
        activated.update(result["activated"])
    for creature in ("goo_bomber", "menace"):
        assert spawned[creature] > 0 and activated[creature] > 0


def test_the_pack_monsters_carry_their_stat_blocks(goo):
    bomber, menace = goo.get("monster", "goo_bomber"), goo.get("monster", "menace")
    assert (bomber.hp, bomber.attack_range, bomber.move, bomber.flying, bomber.order) == (2, 3, 3, True, 11)
    assert (menace.hp, menace.attack_range, menace.move, menace.order) == (3, 6, 3, 12)
    assert dict(bomber.resistances._fields) == {"pickaxe": 2} and dict(menace.resistances._fields) == {"bullet": 1}


def test_goo_bomber_sprays_goo_on_the_empty_spaces_next_to_its_target_whatever_the_die(goo):
    failures = run(goo, {
        "setup": {"dwarves": [{"cls": "scout", "at": [4, 4]}],
                  "monsters": [{"id": "b", "kind": "goo_bomber", "at": [2, 4]}, {"id": "g", "kind": "grunt", "at": [4, 5]}]},
        "steps": [{"do": "activate_all", "rolls": [["blank"]]}],
        "expect": [{"tokens": "goo", "at": [[3, 3], [3, 4], [4, 3], [5, 3], [5, 4]]},
                   {"dwarf": 0, "health": 5}]})
    assert failures == []


def test_goo_stops_a_walking_monster_and_a_dwarf_and_is_removed(goo):
    failures = run(goo, {
        "setup": {"dwarves": [{"cls": "scout", "at": [4, 0]}],
                  "tokens": {"goo": [[4, 6], [4, 2]]},
                  "monsters": [{"id": "g", "kind": "grunt", "at": [4, 7]}]},
        "steps": [{"do": "activate_all", "rolls": []},
                  {"do": "move", "dwarf": 0, "path": [[4, 1], [4, 2], [4, 3]]}],
        "expect": [{"monster": "g", "pos": [4, 6]}, {"dwarf": 0, "pos": [4, 2]}, {"tokens": "goo", "at": []}]})
    assert failures == []


def test_flying_goo_bomber_flies_over_goo(goo):
    engine, names = build(goo, {"dwarves": [{"cls": "scout", "at": [4, 0]}],
                                "tokens": {"goo": [[4, 6]]},
                                "monsters": [{"id": "b", "kind": "goo_bomber", "at": [4, 7]}]})
    engine.activate_all()
    assert engine.state.monsters[names["b"]].pos == (4, 4) and (4, 6) in engine.state.tokens["goo"]


def test_menace_hides_after_losing_hp_until_the_attacker_turn_ends(goo):
    failures = run(goo, {
        "setup": {"dwarves": [{"cls": "scout", "at": [4, 1], "actions": 5}],
                  "monsters": [{"id": "m", "kind": "menace", "at": [4, 4]}]},
        "steps": [{"do": "attack", "weapon": "m1000", "mode": 0, "target": "m", "rolls": [["2", "blank"]]},
                  {"do": "attack", "weapon": "m1000", "mode": 0, "target": "m", "illegal": True}],
        "expect": [{"monster": "m", "damage": 2, "hidden": True}]})
    assert failures == []


def test_a_stunned_menace_does_not_hide(goo):
    failures = run(goo, {
        "setup": {"dwarves": [{"cls": "scout", "at": [4, 1]}],
                  "monsters": [{"id": "m", "kind": "menace", "at": [4, 4], "statuses": ["stunned"]}]},
        "steps": [{"do": "attack", "weapon": "m1000", "mode": 0, "target": "m", "rolls": [["2", "blank"]]}],
        "expect": [{"monster": "m", "damage": 2, "hidden": False}]})
    assert failures == []
