"""`tomecraft sim dm_crawl_decks`: every game ends (win, HP 0 or a failed descend), seeds replay."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tomecraft.generated.dm_crawl_decks import GAME
from tomecraft.runtime import sim
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dm_crawl_decks import play_game
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]


def test_same_seed_same_summary_other_seed_differs():
    a = sim.run(GAME, games=30, seed=3)
    assert a == sim.run(GAME, games=30, seed=3)
    assert a != sim.run(GAME, games=30, seed=4)


def test_every_game_ends_by_a_rule_and_reports_misses_and_floors():
    for g in range(60):
        rng = Rng(f"9:{g}")
        r = play_game(GAME, 1, rng.fork("game"), [RandomAgent(rng.fork("a"))])
        assert not r["capped"]
        assert r["won"] or r["hp"] <= 0 or "descend" in r["reason"], r
        assert 1 <= r["floors"] <= 3 and r["scores"] == [r["misses"]] >= [0]
        if r["won"]:
            assert r["descends"] == 3 and r["floors"] == 3


def test_some_games_are_won_and_some_reach_a_later_floor():
    results = [play_game(GAME, 1, Rng(f"7:{g}").fork("game"), [RandomAgent(Rng(g))]) for g in range(200)]
    assert any(r["won"] for r in results)
    assert any(r["floors"] >= 2 for r in results)


def test_cli_sim_500_games_all_end():
    cmd = [sys.executable, "-m", "tomecraft.compiler.cli", "sim", "dm_crawl_decks", "--games", "500", "--seed", "7"]
    first = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "500 games, 1 players, seed 7" in first.stdout
    assert "completed:   500 (hit the round cap: 0)" in first.stdout


def test_cli_sim_is_deterministic_across_processes():
    """Two processes with different hash seeds print the same bytes for the same seed (100
    games: replaying the 500 above would only cost time)."""
    cmd = [sys.executable, "-m", "tomecraft.compiler.cli", "sim", "dm_crawl_decks", "--games", "100", "--seed", "7"]
    runs = [subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PYTHONHASHSEED=seed)) for seed in ("0", "4242")]
    assert runs[0].returncode == 0, runs[0].stderr
    assert "100 games, 1 players, seed 7" in runs[0].stdout
    assert runs[1].stdout == runs[0].stdout


def test_summary_gives_win_rate_mean_misses_and_floors():
    from tomecraft.runtime.engines.dm_crawl_decks import summarise
    results = [play_game(GAME, 1, Rng(f"7:{g}").fork("game"), [RandomAgent(Rng(g))]) for g in range(40)]
    s = summarise(results)
    assert s["games"] == 40 and 0 <= s["win_rate"] <= 1
    assert s["lost_hp"] + s["lost_descend"] + round(s["win_rate"] * 40) == 40
    assert 1 <= s["mean_floors"] <= 3
    assert s["mean_misses"] == round(sum(r["misses"] for r in results) / 40, 2)

