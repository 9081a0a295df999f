"""`tomecraft sim`: deterministic summaries, every player count, and the 200-game run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.generated.the_cave import GAME
from tomecraft.runtime import sim

ROOT = Path(__file__).resolve().parents[2]


def test_same_seed_gives_an_identical_summary_and_another_seed_differs():
    # 4 games, not 10: a game left different by a game before it (state carried over in the
    # process) shows from the second game on, and the summaries differ from the first game
    a = sim.run(GAME, players=3, games=4, seed=11)
    b = sim.run(GAME, players=3, games=4, seed=11)
    c = sim.run(GAME, players=3, games=4, seed=12)
    assert sim.format_summary(a) == sim.format_summary(b) and a == b
    assert a != c


def test_players_default_to_the_game_default():
    assert sim.run(GAME, games=2, seed=1)["players"] == GAME.players["default"]


def test_progress_is_reported_every_tenth_of_the_games():
    lines = []
    sim.run(GAME, players=2, games=10, seed=1, progress=lines.append)
    assert lines[:2] == ["1/10 games", "2/10 games"] and "games/s" in lines[-1]


def test_two_and_five_player_games_complete_and_score():
    """10 games a player count (all 10 complete at seed 4; 20 were 2.4 CPU-s for the same)."""
    for players in (2, 5):
        summary = sim.run(GAME, players=players, games=10, seed=4)
        assert summary["completed"] >= 9, summary
        assert summary["score"]["max"] > 20
        assert len(summary["seat_mean"]) == players


def test_cli_sim_of_50_three_player_games_completes(shared_cli):
    """The README's example run (shared with its tour test, which checks its figures)."""
    code, stdout, stderr = shared_cli("sim", "the_cave", "--players", "3", "--games", "50", "--seed", "7")
    assert code == 0, stderr
    assert "50 games, 3 players, seed 7" in stdout
    assert "games/s" in stderr


def test_cli_sim_is_deterministic_across_hash_seeds(run_cli):
    """A second process with another hash seed prints the same bytes for the same seed.
    Speed is bench/'s business. 5 games, not 15: an order that follows the hash seed (a set
    of names iterated) changes a player's choices from the first turns on."""
    args = ["sim", "the_cave", "--players", "3", "--games", "5", "--seed", "7"]
    code, stdout, stderr = run_cli(*args)
    assert code == 0, stderr
    env = dict(os.environ, PYTHONHASHSEED="12345")
    second = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600)
    assert "5 games, 3 players, seed 7" in stdout
    assert second.stdout == stdout


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_during_a_game_and_put_back_after(monkeypatch, enabled):
    """engine.play_game plays with the cyclic garbage collector paused (start.paused_collection:
    the player's trial copies hold no cycle) and puts it back as it was, on or off."""
    import gc

    from tomecraft.runtime.engines.the_cave.engine import Engine
    play, seen = Engine.play, []

    def watched(engine, *args):
        seen.append(gc.isenabled())
        return play(engine, *args)
    monkeypatch.setattr(Engine, "play", watched)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        sim.run(GAME, players=2, games=1, seed=3)
        assert seen == [False] and gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_game_leaves_next_to_no_cycles_for_the_collector():
    """A game's objects are freed by reference counting when it is over (the collector is
    paused while it is played): the walking checks' equipment questions make no cycle
    (walking._Asking makes its tables when asked), nor does the engine with its handlers
    (play_game drops them). Before, a game left about 2,500 objects in cycles."""
    import gc
    gc.collect()
    sim.run(GAME, players=3, games=2, seed=2)
    assert gc.collect() < 300
