"""墓穴派对! (5-6 players) is a YAML-only pack: content/clank_catacombs/packs/tomb_party/."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.generated.clank_catacombs import GAME as BASE
from tomecraft.generated.clank_catacombs__tomb_party import GAME as PARTY
from tomecraft.runtime import sim
from tomecraft.runtime.engines.clank_catacombs import new_state, run_scenario
from tomecraft.runtime.rng import Rng

PACK = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs" / "packs" / "tomb_party"


def test_the_pack_directory_holds_yaml_only():
    files = [p for p in PACK.rglob("*") if p.is_file()]
    assert files and all(p.suffix == ".yaml" for p in files), files
    assert not list(PACK.rglob("*.py"))


@pytest.mark.parametrize("players", [5, 6])
def test_five_and_six_player_sims_run_to_the_end_with_the_pack(players):
    summary = sim.run(PARTY, players=players, games=40, seed=7)
    assert summary["completed"] == 40 and not summary["capped"]
    assert len(summary["seat_mean"]) == players and summary["score"]["max"] > 20


def test_the_base_game_refuses_five_players():
    with pytest.raises(ValueError, match="墓穴派对"):
        new_state(BASE, 5, Rng(1))


def test_eleven_treasures_lowest_on_top_expansion_token_above_an_equal_one():
    state = new_state(PARTY, 5, Rng(1))
    values = [PARTY.get("token", t).value for t in state.treasure_stack]
    assert len(values) == 11 and values == sorted(values) and 30 not in values
    assert values[0] == 5 and values[-1] == 25
    fifteens = [t for t in state.treasure_stack if PARTY.get("token", t).value == 15]
    assert fifteens == ["party_treasure_15", "treasure_15"]          # L651: expansion above


def test_six_mastery_tokens_and_no_master_key_in_the_market():
    state = new_state(PARTY, 6, Rng(1))
    assert state.mastery_left == 6
    assert "master_key" not in state.market and "cloak_of_invisibility" in state.market
    assert [p.cubes for p in state.players] == [27, 28, 29, 30, 30, 30]


def test_the_fifth_player_cannot_record_a_full_signpost():
    scenario = {
        "setup": {"players": [{"pos": [1, 0]}] * 5,
                  "tiles": [{"at": [1, 0], "tile": "safe_02", "room": "signpost", "exits": "EW"}]},
        "steps": [{"do": "room", "player": s} for s in range(4)]
                 + [{"do": "room", "player": 4, "illegal": True}],
        "expect": [{"room": [1, 0], "signposts": [0, 1, 2, 3]}, {"player": 3, "gold": 1}],
    }
    assert run_scenario(PARTY, scenario) == []
