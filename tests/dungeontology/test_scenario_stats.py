"""A scenario's `stats:` names the engine's counters; a misspelt one is refused (it counted 0
and passed). The names the scenario runner knows are those seeded games raise."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dungeontology import play_game
from tomecraft.runtime.engines.dungeontology.scenario import run_scenario
from tomecraft.runtime.engines.dungeontology.scenario_checks import STATS, stat_names
from tomecraft.runtime.rng import Rng

PACKS = Path(__file__).parent


@pytest.fixture(scope="module", params=[(), ("any_content_pack",)], ids=["base", "any_content_pack"])
def data(request):
    return game_data("dungeontology", [PACKS / p for p in request.param], dg.Reporter())


def test_every_counter_seeded_games_raise_is_a_name_a_scenario_may_read(data):
    raised = Counter()
    for players in (2, 3, 4):
        for g in range(8):
            rng = Rng(f"stats:{players}:{g}")
            agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
            raised.update(play_game(data, players, rng.fork("game"), agents, {})["stats"])
    families = {name.split(":")[0] if ":" in name else name.split("_")[0] for name in raised}
    assert {"entered", "skill", "played", "boss"} <= families, sorted(raised)
    assert set(raised) <= stat_names(data), sorted(set(raised) - stat_names(data))
    assert len(set(raised) & STATS) >= 15, sorted(set(raised) & STATS)


def test_a_misspelt_counter_is_refused_with_the_name_meant(data):
    scenario = {"setup": {"scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]},
                "steps": [], "expect": [{"stats": {"boss_activte": 0}}]}
    failures = run_scenario(data, scenario)
    assert len(failures) == 1 and "unknown 'boss_activte'; did you mean `boss_activate`" in failures[0]
    scenario["expect"] = [{"stats": {"boss_activate": 0, "entered:camp": 0}}]
    assert run_scenario(data, scenario) == []


def test_the_scenario_format_names_every_fixed_counter():
    from tomecraft.runtime.engines.dungeontology import scenario
    assert all(name in scenario.__doc__ for name in STATS)
