"""Deep Rock Galactic rules round 2 (issue 12): no two monsters ever share a space in play,
hidden cave segments come from the pool of 8, throwables from a finite deck, and a scenario's
refused step cannot pass on a typo."""
from __future__ import annotations

import importlib

import pytest

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import engine as drg_engine, play_game, setup
from tomecraft.runtime.engines.deep_rock_galactic.scenario import run_scenario
from tomecraft.runtime.rng import Rng
from tests.deep_rock_galactic.sim_figures import shared_spaces

ROOT = Path(__file__).resolve().parents[2]
BASE = importlib.import_module("tomecraft.generated.deep_rock_galactic").GAME
GOO = importlib.import_module("tomecraft.generated.deep_rock_galactic__goo_from_above").GAME


@pytest.mark.parametrize("data", [BASE, GOO], ids=["base", "goo_from_above"])
def test_no_two_monsters_share_a_space_after_any_activation(data, monkeypatch):
    """Seeded 1-4 dwarf games at Hazard 1-5: after every monster activation each space holds
    at most one monster (L990, L996), whoever was found first."""
    activations, stacked = 0, []
    original = drg_engine.Engine.activate

    def watched(self, m, move_and_attack=False):
        nonlocal activations
        original(self, m, move_and_attack)
        activations += 1
        shared = shared_spaces(self.state)
        if shared:
            stacked.append((m.kind, m.uid, shared))
    monkeypatch.setattr(drg_engine.Engine, "activate", watched)
    for players in (1, 2, 3, 4):
        for g in range(5):
            rng = Rng(f"stack:{players}:{g}")
            agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
            play_game(data, players, rng.fork("game"), agents, {"hazard": 1 + g % 5})
    assert activations > 500, "too few activations for the check to mean anything"
    assert not stacked, f"{len(stacked)} of {activations} activations left monsters stacked: {stacked[:3]}"


def _engine(seed: str, players: int = 4):
    rng = Rng(seed)
    return setup(BASE, players, rng.fork("game"), [RandomAgent(rng.fork(f"a{i}")) for i in range(players)], {})


def test_hidden_segments_are_distinct_tiles_drawn_at_random_from_the_pool_of_8():
    pool = {t["tile"] for t in drg_engine.plain(_engine("x").rules["hidden_segment_pool"])}
    assert len(pool) == 8
    draws = set()
    for seed in range(12):
        st = _engine(f"pool:{seed}").state
        tiles = [seg["tile"]["tile"] for seg in st.hidden]
        assert st.hidden and len(set(tiles)) == len(tiles) and set(tiles) <= pool
        assert len(st.segment_pool) == 8 - len(tiles)          # the rest stay in the box
        draws.add(tuple(tiles))
    assert len(draws) > 1, "every seed drew the same tiles: not at random"


def test_throwables_are_dealt_from_a_finite_deck():
    ids = sorted(t.id for t in BASE.of("throwable"))
    for seed in range(6):
        st = _engine(f"deck:{seed}").state
        held = [c for d in st.dwarves for c in d.throwables]
        assert len(held) == 4 and len(set(held)) == 4          # no card dealt twice
        assert sorted(held + st.throwable_deck) == ids


def _scenario(step: dict, setup_extra: dict | None = None) -> dict:
    return {"setup": {"dwarves": [{"cls": "gunner", "at": [4, 0]}],
                      "monsters": [{"id": "g", "kind": "grunt", "at": [4, 3]}], **(setup_extra or {})},
            "steps": [step]}


@pytest.mark.parametrize("step", [
    {"do": "attack", "weapon": "minigun", "mode": 0, "target": "nobody", "illegal": True},
    {"do": "attack", "weapon": "minigunn", "mode": 0, "target": "g", "illegal": True},
    {"do": "attack", "weapon": "minigun", "mode": 7, "target": "g", "illegal": True},
    {"do": "move", "path": [[40, 40]], "illegal": True},
    {"do": "throw", "card": "no_such_grenade", "at": [4, 2], "illegal": True},
    {"do": "fly", "illegal": True},
    {"do": "move", "dwarf": 3, "path": [[4, 1]], "illegal": True},
    {"do": "attack", "weapon": "minigun", "mode": 0, "illegal": True},
    {"do": "attack", "weapon": "minigun", "mode": 0, "target": "g", "plans": [[4, 4]], "illegal": True},
    {"do": "move", "path": [[4, 1]], "then_shoot": {"weapon": "minigun", "mode": 0, "target": "g"}, "illegal": True},
], ids=["unknown-target", "unknown-weapon", "unknown-mode", "off-map", "unknown-card", "unknown-step", "no-dwarf",
        "no-target", "misspelt-field", "unknown-field"])
def test_a_refused_step_naming_nothing_the_engine_could_offer_is_a_scenario_error(step):
    errors = run_scenario(BASE, _scenario(step))
    assert errors and "scenario error" in errors[0], errors


@pytest.fixture(scope="module")
def verbs_pack():
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [ROOT / "tests/deep_rock_galactic/verbs_pack"], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    return data


def _jump(choice: list) -> dict:
    """The verbs pack's Jump Pad: a free move of up to 2 spaces to a space the dwarf chooses."""
    return {"setup": {"dwarves": [{"cls": "driller", "at": [4, 1], "throwables": ["jump_pad"]}]},
            "steps": [{"do": "throw", "card": "jump_pad", "at": [4, 2], "choose": [choice], "illegal": True}]}


def test_a_choice_the_engine_could_never_offer_is_a_scenario_error(verbs_pack):
    errors = run_scenario(verbs_pack, _jump([40, 40]))          # off the map
    assert errors and "scenario error" in errors[0] and "could offer" in errors[0], errors


def test_a_well_formed_choice_not_offered_now_is_a_real_refusal(verbs_pack):
    assert run_scenario(verbs_pack, _jump([4, 6])) == []         # on the map, 5 spaces away


def test_an_unused_scripted_choice_is_a_scenario_error():
    scenario = _scenario({"do": "activate_all", "choose": [{"monster": "g"}]})
    errors = run_scenario(BASE, scenario)
    assert errors and "not used" in errors[0], errors


def test_a_misspelt_setup_key_is_refused_not_ignored():
    scenario = _scenario({"do": "activate_all"}, {"stalagmite": [[4, 2]]})
    errors = run_scenario(BASE, scenario)
    assert errors and "unknown key" in errors[0] and "stalagmite" in errors[0], errors


@pytest.mark.parametrize("monster, found", [
    ({"id": "g", "kind": "grunty", "at": [4, 3]}, "no such monster"),
    ({"id": "g", "kind": "grunt", "at": [14, 3]}, "not a space of the map"),
    ({"id": "g", "kind": "oppressor", "at": [4, 3], "tail": [4, 9]}, "not a space of the map"),
], ids=["unknown-kind", "off-map", "tail-off-map"])
def test_a_monster_of_no_kind_or_off_the_map_is_refused(monster, found):
    """A misspelt kind made a monster no activation moves: a pass for any 'it stays' scenario."""
    scenario = _scenario({"do": "activate_all"}, {"monsters": [monster]})
    errors = run_scenario(BASE, scenario)
    assert errors and errors[0].startswith("setup:") and found in errors[0], errors


@pytest.mark.parametrize("extra, found", [
    ({"dwarves": [{"cls": "enginer", "at": [4, 0]}]}, "no such dwarf"),
    ({"dwarves": [{"cls": "gunner", "at": [4, 0], "statuses": ["stuned"]}]}, "unknown status"),
    ({"monsters": [{"id": "g", "kind": "grunt", "at": [4, 3], "statuses": ["stuned"]}]}, "unknown status"),
    ({"exits": {"1": [14, 4]}}, "not a space of the map"),
    ({"map": "# # # #\n . . . #\n# # # #", "dwarves": [{"cls": "gunner", "at": [0, 1]}], "monsters": []},
     "is rock"),
    ({"dwarves": [{"cls": "gunner", "at": [4, 0]}, {"cls": "scout", "at": [4, 0]}]}, "already holds dwarves[0]"),
    ({"map": "# # # #\n # . . #\n# # # #", "exits": {"1": [0, 2]}, "dwarves": [{"cls": "gunner", "at": [1, 1]}],
      "monsters": []}, "is rock"),
    ({"exits": {"1": [4, 0]}}, "holds exit 1: no move ends there"),
    ({"stalagmites": [[4, 0]]}, "holds a stalagmite"),
    ({"dwarves": [{"cls": "scout", "at": [4, 0]}, {"cls": "scout", "at": [5, 0]}]}, "a second scout"),
    ({"dwarves": [{"cls": "scout", "at": [4, 0], "health": 6}]}, "health 6: 0 to 5"),
    ({"dwarves": [{"cls": c, "at": [4, i]} for i, c in enumerate(
        ("scout", "gunner", "driller", "engineer", "scout"))]}, "5 dwarves; the game has at most 4"),
], ids=["class", "dwarf-status", "monster-status", "exit-off-map", "dwarf-in-rock",
        "two-dwarves-one-space", "exit-in-rock", "dwarf-on-exit", "dwarf-on-stalagmite",
        "same-class", "five-dwarves", "health-over-board"])
def test_a_misspelt_class_status_or_an_exit_off_the_map_is_refused(extra, found):
    """A misspelt class raised StopIteration; a misspelt status was silently none."""
    errors = run_scenario(BASE, _scenario({"do": "activate_all"}, extra))
    assert errors and errors[0].startswith("setup:") and found in errors[0], errors


@pytest.mark.parametrize("text, rule", [("# # # #\n. . . .\n# # # #", "M-04"),
                                        ("# # # #\n . . .\n# # # #", "M-05"),
                                        ("# # # #\n .  . .\n# # # #", "M-03")],
                         ids=["odd-row-unindented", "row-short", "two-spaces"])
def test_a_map_breaking_the_format_is_refused_at_its_line(text, rule):
    """Read anyway, an unindented odd row sat half a hex to the left: the monsters took other
    ways than the tester drew, and the scenario passed or failed on a board nobody wrote."""
    errors = run_scenario(BASE, _scenario({"do": "activate_all"}, {"map": text,
                                                                    "dwarves": [{"cls": "gunner", "at": [0, 1]}]}))
    assert errors and errors[0].startswith("setup:") and rule in errors[0] and "line 2" in errors[0], errors


@pytest.mark.parametrize("step", [{"do": "spawn", "kind": "dragon", "exit": 1},
                                  {"do": "spawn", "kind": "grunt", "exit": 2}], ids=["kind", "exit"])
def test_a_spawn_of_no_kind_or_at_no_exit_is_a_scenario_error(step):
    errors = run_scenario(BASE, _scenario(step, {"exits": {"1": [4, 5]}}))
    assert errors and "scenario error" in errors[0] and "no such" in errors[0], errors


def test_two_monsters_on_one_space_or_one_in_rock_are_refused():
    on_one = [{"id": "a", "kind": "grunt", "at": [4, 3]}, {"id": "b", "kind": "slasher", "at": [4, 3]}]
    in_rock = [{"id": "a", "kind": "grunt", "at": [0, 1]}]
    for monsters, setup in ((on_one, {}), (in_rock, {"map": "# # #\n . . .\n# # #"})):
        dwarves = [{"cls": "gunner", "at": [1, 0] if setup else [4, 0]}]
        errors = run_scenario(BASE, {"setup": {"dwarves": dwarves, "monsters": monsters, **setup},
                                     "steps": [{"do": "activate_all"}]})
        assert errors and errors[0].startswith("setup:"), errors


@pytest.mark.parametrize("exp, found", [
    ({"monster": "g", "at": [9, 9]}, "unknown key"),
    ({"monsters": "grunt", "pos": [[9, 9]]}, "unknown key"),
    ({"monster": "nobody", "pos": [4, 3]}, "no monster named"),
    ({"dwarf": 5, "health": 5}, "no dwarf 5"),
], ids=["monster-at", "monsters-pos", "unknown-monster", "unknown-dwarf"])
def test_an_expectation_with_a_key_it_does_not_read_fails(exp, found):
    """`{monster: g, at: ...}` (the setup's key) checked nothing and passed whatever the state."""
    scenario = {**_scenario({"do": "activate_all"}), "expect": [exp]}
    errors = run_scenario(BASE, scenario)
    assert errors and found in errors[0], errors


def test_a_monster_expectation_reads_its_facing_and_rear_space():
    scenario = {"setup": {"dwarves": [{"cls": "scout", "at": [4, 8]}],
                          "monsters": [{"id": "o", "kind": "oppressor", "at": [4, 2], "tail": [4, 1]}]},
                "steps": [{"do": "activate_all"}],
                "expect": [{"monster": "o", "pos": [4, 5], "tail": [4, 4], "facing": [4, 6]}]}
    assert run_scenario(BASE, scenario) == []


def test_an_expectation_can_say_the_sentry_is_off_the_board():
    """A Grunt with no dwarf in range attacks the sentry gun (L656, L658): `sentry: null`."""
    scenario = {"setup": {"dwarves": [{"cls": "engineer", "at": [4, 0]}], "sentry": [4, 4],
                          "monsters": [{"id": "g", "kind": "grunt", "at": [4, 5]}]},
                "steps": [{"do": "activate_all", "rolls": [["blank"]]}],
                "expect": [{"sentry": None}, {"bosco": None}]}
    assert run_scenario(BASE, scenario) == []


def test_hidden_segments_and_the_hazard_setup_can_be_described():
    scenario = {"setup": {"map": ". . . . .\n . . # h h\n. . . h h", "hazard_setup": 5, "threat": 4,
                          "exits": {"1": [0, 4]}, "dwarves": [{"cls": "gunner", "at": [0, 2]}],
                          "hidden_segments": [{"at": [2, 3], "pickups": ["loot_bug"], "tile": "hs1"}]},
                "steps": [{"do": "pickaxe", "at": [[1, 2]], "rolls": [[1]]}],
                "expect": [{"threat": 4}, {"monsters": "grunt", "count": 1, "at": [[0, 4]]},
                           {"hidden_segment": [1, 4], "revealed": True}, {"upgrade_tokens": 0}]}
    assert run_scenario(BASE, scenario) == []


def test_a_scripted_roll_has_one_face_per_die():
    """A Slasher rolls 2 dice (L1113): 3 scripted teeth are a script error, not 3 bites."""
    scenario = {"setup": {"dwarves": [{"cls": "scout", "at": [4, 3]}],
                          "monsters": [{"id": "s", "kind": "slasher", "at": [4, 4]}]},
                "steps": [{"do": "activate_all", "rolls": [["teeth", "teeth", "teeth"]]}],
                "expect": [{"dwarf": 0, "health": 3}]}
    errors = run_scenario(BASE, scenario)
    assert len(errors) == 1 and "3 faces for 2 monster_die" in errors[0], errors


def test_a_target_space_or_a_killed_monster_gets_a_plain_error():
    """`target: [4, 4]` (the rulebook's target space, L392) names the monster to write instead;
    a spawn `near` a killed monster says so (both were internal errors: TypeError, KeyError)."""
    setup = {"dwarves": [{"cls": "gunner", "at": [4, 1]}],
             "monsters": [{"id": "g", "kind": "grunt", "at": [4, 4]}]}
    shot = {"setup": setup, "steps": [{"do": "attack", "weapon": "minigun", "target": [4, 4]}]}
    assert run_scenario(BASE, shot) == [
        "steps[0]: scenario error: target [4, 4]: name the monster (its id), not a space; the monster there is 'g'"]
    spawn = {"setup": setup, "steps": [{"do": "kill", "monster": "g"}, {"do": "spawn", "kind": "grunt", "near": "g"}]}
    errors = run_scenario(BASE, spawn)
    assert len(errors) == 1 and "near 'g': no such monster on the map" in errors[0], errors


@pytest.mark.parametrize("step, error", [
    ({"do": "activate_all", "drawr": 1}, "activate_all: unknown field(s) ['drawr']"),
    ({"do": "spawn", "kind": "grunt"}, "spawn: say where"),
    ({"do": "activate_all", "choose": [{"monster": "a"}], "rolls": [["1"]]}, "a scripted face 1 (hit 1) is not on the monster_die"),
    ({"do": "activate_all", "choose": ["a"]}, "options: [{'monster': 'a'}, {'monster': 'b'}]"),
])
def test_a_tester_slip_gets_a_plain_error(step, error):
    """A misspelt game-step field, a spawn saying nowhere, a face the die lacks, a tied monster
    named without {monster: id}: each was taken silently or shown by internal numbers."""
    scenario = {"setup": {"dwarves": [{"cls": "scout", "at": [4, 1]}],
                          "monsters": [{"id": "a", "kind": "grunt", "at": [4, 2]},
                                       {"id": "b", "kind": "grunt", "at": [3, 1]}]},
                "steps": [step]}
    errors = run_scenario(BASE, scenario)
    assert len(errors) == 1 and error in errors[0], errors


def test_an_expected_monster_list_takes_a_lone_space():
    scenario = {"setup": {"dwarves": [{"cls": "scout", "at": [4, 1]}],
                          "monsters": [{"id": "s", "kind": "slasher", "at": [4, 4]}]},
                "expect": [{"monsters": "slasher", "at": [4, 4]}]}
    assert run_scenario(BASE, scenario) == []
