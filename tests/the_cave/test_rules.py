"""Engine rules of The Cave, each pinned to the rulebook's numbers (L-lines) or a D-number."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from tomecraft.generated.the_cave import GAME
from tomecraft.runtime.agents import RandomAgent, ScriptedAgent
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave import Engine, majority, new_state, play_game
from tomecraft.runtime.engines.the_cave.scenario import build
from tomecraft.runtime.engines.the_cave.state import rotate
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
BASE = {"at": [0, 0], "kind": "start", "exits": "NESW"}
X = {"at": [1, 0], "kind": "normal", "exits": "EW"}


def engine_with(**setup) -> Engine:
    return build(GAME, setup)


def test_engine_start_refuses_game_data_with_an_unknown_handler():
    data = dataclasses.replace(GAME, handlers=GAME.handlers + ("query:no_such_query",))
    with pytest.raises(EffectError, match="no_such_query"):
        Engine(data, new_state(GAME, 3, Rng(1)), [])


def test_setup_uses_the_board_for_the_player_count_and_discards_unseen_per_stack():
    for players, board in ((2, "board_2p"), (3, "board_3p"), (4, "board_4p"), (5, "board_5p")):
        state = new_state(GAME, players, Rng(1))
        discard = GAME.get("start_board", board).discard_per_stack
        assert [len(s) for s in state.stacks] == [20 - d for d in discard]      # L37-38
        assert len(state.cells) == len(GAME.get("start_board", board).cells)
        assert all(t.pos == state.base for t in state.teams)                     # L50


def test_suggested_first_game_loadout_fills_the_eight_backpack_slots():
    state = new_state(GAME, 3, Rng(1))
    engine = Engine(GAME, state, [ScriptedAgent([{"backpack": {"camera": 1, "consumable": 4, "oxygen": 1, "raft": 1, "rope": 1}}])] * 3)
    engine.re_equip(state.teams[0], setup=True)
    assert state.teams[0].slots_used() == 8                                        # L46, L54
    assert state.teams[0].ap == 5                                                  # L243: setup costs no AP


def test_a_turn_has_five_ap_and_away_from_base_starts_with_a_consumable_discard():
    engine = engine_with(tiles=[BASE, X], teams=[{"pos": [0, 0], "backpack": {"consumable": 2}},
                                                 {"pos": [1, 0], "backpack": {"consumable": 2}}])
    a, b = engine.state.teams
    engine.start_turn(a)
    engine.start_turn(b)
    assert (a.ap, b.ap) == (5, 5)                                                  # L64
    assert a.backpack["consumable"] == 2 and b.backpack["consumable"] == 1        # L61-62


def test_d12_last_consumable_is_discarded_and_forced_mode_starts_next_turn():
    engine = engine_with(tiles=[BASE, X], teams=[{"pos": [1, 0], "backpack": {"consumable": 1}}])
    team = engine.state.teams[0]
    engine.start_turn(team)
    assert not team.forced and team.backpack["consumable"] == 0
    engine.start_turn(team)
    assert team.forced
    assert all(o["via"] == "desperate_move" for o in engine.legal_actions(team))  # L226-228


def test_d08_own_camp_with_consumables_ends_forced_mode():
    engine = engine_with(tiles=[BASE, X], teams=[{"pos": [1, 0], "camp": "set", "camp_pos": [1, 0],
                                                  "camp_items": {"consumable": 2}}])
    team = engine.state.teams[0]
    engine.start_turn(team)
    assert not team.forced and team.camp_items["consumable"] == 1
    assert {"do": "act", "id": "swap_camp"} in engine.legal_actions(team)


def test_desperate_move_needs_all_five_ap_and_ends_the_turn():
    engine = engine_with(tiles=[BASE, X], teams=[{"pos": [0, 0], "ap": 4}])
    team = engine.state.teams[0]
    assert not any(o.get("via") == "desperate_move" for o in engine.legal_actions(team))
    team.ap = 5
    engine.apply(team, {"do": "move", "to": (1, 0), "via": "desperate_move"})
    assert team.ap == 0 and team.done and engine.legal_actions(team) == [{"do": "end"}]   # L230-231


def test_rotation_turns_exits_clockwise():
    assert rotate("N", 1) == "E"
    assert rotate("NE", 1) == "ES"
    assert rotate("NES", 3) == "NEW"


def test_d18_placement_must_open_on_the_exit_and_match_other_neighbours():
    engine = engine_with(tiles=[BASE, X, {"at": [2, 1], "kind": "normal", "exits": "S"}],
                         stacks=[["normal:NE"], [], [], []], teams=[{"pos": [1, 0]}])
    cell = engine.state.cells[(1, 0)]
    tile = engine.state.stacks[0][-1]
    options = engine.placements(cell, tile)
    # the new tile at (2,0) must have W (the explored exit) and N (the tile above opens S)
    assert options == [{"dir": "E", "exits": "NW"}]


def test_unplaceable_tile_is_discarded_and_a_boulder_placed():
    engine = engine_with(tiles=[BASE, X, {"at": [2, 1], "kind": "normal", "exits": "S"}],
                         stacks=[["normal:NS"], [], [], []], teams=[{"pos": [1, 0]}])
    team = engine.state.teams[0]
    engine.apply(team, {"do": "act", "id": "discover"})
    cell = engine.state.cells[(2, 0)]
    assert cell.kind.id == "boulder" and cell.exits == "W"                        # L76-77, D-03
    assert len(engine.state.discarded) == 1 and team.ap == 4


def test_placing_the_last_stack_4_tile_triggers_the_end():
    engine = engine_with(tiles=[BASE, X], stacks=[[], [], [], ["normal:NESW"]], teams=[{"pos": [1, 0]}])
    engine.apply(engine.state.teams[0], {"do": "act", "id": "discover"})
    assert engine.state.end_triggered                                             # L303


def test_a_boulder_for_the_last_stack_4_tile_also_triggers_the_end():
    engine = engine_with(tiles=[BASE, X, {"at": [2, 1], "kind": "normal", "exits": "S"}],
                         stacks=[[], [], [], ["normal:NS"]], teams=[{"pos": [1, 0]}])
    engine.apply(engine.state.teams[0], {"do": "act", "id": "discover"})
    assert engine.state.cells[(2, 0)].kind.id == "boulder"
    assert engine.state.end_triggered                                             # L303-304


def test_majority_drop_one_rank_reproduces_both_rulebook_examples():
    assert majority({"A": 8, "B": 8, "C": 4}, [8, 4], "drop_one_rank", False) == {"A": 4, "B": 4, "C": 0}
    assert majority({"A": 6, "B": 4, "C": 4}, [8, 4], "drop_one_rank", False) == {"A": 8, "B": 0, "C": 0}


def test_majority_zero_tokens_score_only_if_the_rule_says_so():
    assert majority({"A": 2, "B": 0}, [8, 4], "drop_one_rank", False) == {"A": 8, "B": 0}   # D-17
    assert majority({"A": 2, "B": 0}, [8, 4], "drop_one_rank", True) == {"A": 8, "B": 4}    # literal


def test_majority_lowest_spanned_reading_differs_only_for_three_way_ties():
    counts = {"A": 5, "B": 5, "C": 5, "D": 2}
    assert majority(counts, [8, 4], "lowest_spanned", False) == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert majority(counts, [8, 4], "drop_one_rank", False) == {"A": 4, "B": 4, "C": 4, "D": 0}


def test_d20_climbing_out_of_a_rappel_tile_needs_rope_and_gives_traverse_only():
    engine = engine_with(tiles=[BASE, X, {"at": [2, 0], "kind": "rappel", "exits": "W", "depth": 25, "marker": 25}],
                         teams=[{"pos": [2, 0], "backpack": {"rope": 1}}, {"pos": [2, 0]}])
    team, other = engine.state.teams
    assert {"do": "move", "to": (1, 0), "via": "rope+walk"} in engine.legal_actions(team)
    assert not any(o.get("to") == (1, 0) and o["via"] != "desperate_move" for o in engine.legal_actions(other))
    engine.apply(team, {"do": "move", "to": (1, 0), "via": "rope+walk"})
    assert team.ap == 3 and team.tokens["traverse"] == 1 and not team.depth_tokens
    assert {"do": "move", "to": (1, 0), "via": "roped+walk"} in engine.legal_actions(other)


def test_d14_reached_depth_token_is_taken_once_per_value_and_not_used_up_by_other_rope():
    tiles = [BASE, {"at": [1, 0], "kind": "normal", "exits": "EW"},
             {"at": [2, 0], "kind": "rappel", "exits": "EW", "depth": 25, "marker": 25},
             {"at": [3, 0], "kind": "normal", "exits": "W", "depth": 25}]
    engine = engine_with(tiles=tiles, ropes=[[[1, 0], [2, 0], 1]],
                         teams=[{"pos": [1, 0], "backpack": {"rope": 2}}, {"pos": [0, 0]}])
    team = engine.state.teams[0]
    engine.apply(team, {"do": "move", "to": (2, 0), "via": "roped"})
    assert not team.depth_tokens                                                  # L148-149
    del engine.state.ropes[frozenset(((1, 0), (2, 0)))]
    team.pos, team.ap = (1, 0), 5
    engine.apply(team, {"do": "move", "to": (2, 0), "via": "rope"})
    assert team.depth_tokens == {25}
    team.pos, team.ap = (1, 0), 5
    del engine.state.ropes[frozenset(((1, 0), (2, 0)))]
    engine.apply(team, {"do": "move", "to": (2, 0), "via": "rope"})
    assert team.tokens["depth_25"] == 1                                           # L147-148: once


def test_camera_or_raft_is_limited_to_one_per_team():
    engine = engine_with(tiles=[BASE], teams=[{"pos": [0, 0]}])
    team = engine.state.teams[0]
    engine.agents[0].push({"free": {"backpack": {"camera": 2}}})
    with pytest.raises(EffectError, match="camera"):
        engine.apply(team, {"do": "act", "id": "re_equip"})                      # L287


def test_every_decision_the_engine_makes_is_recorded_in_rules_yaml():
    text = (ROOT / "runtime" / "engines" / "the_cave").glob("*.py")
    used = set()
    for path in text:
        used |= set(re.findall(r"D-(\d\d)", path.read_text(encoding="utf-8")))
    recorded = {rule.id[1:3] for rule in GAME.of("rule")}
    recorded |= {"02"}      # D-02 lives on the start tile kind (tile_kinds.yaml approximations)
    assert used <= recorded, sorted(used - recorded)
    for rule in GAME.of("rule"):
        if rule.provenance.source == "rulebook":
            continue        # a value the rulebook states (turn_ap, L64), read by check
        assert rule.provenance.source == "approximation" and "D-" in rule.provenance.note


def test_same_seed_replays_a_game_exactly():
    def once(seed):
        rng = Rng(seed)
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(3)]
        return play_game(GAME, 3, rng.fork("g"), agents, {"log": True})
    assert once("x") == once("x")
    assert once("x")["log"] != once("y")["log"]


def test_a_played_game_ends_and_returning_teams_score():
    rng = Rng("end")
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(3)]
    result = play_game(GAME, 3, rng.fork("g"), agents, {})
    assert not result["capped"]
    assert any(result["scores"])
    assert all(s == 0 for s, home in zip(result["scores"], result["finished"]) if not home)  # L305-307
