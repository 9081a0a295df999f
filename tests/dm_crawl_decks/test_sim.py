"""`tomecraft sim dm_crawl_decks`: every game ends (win, HP 0 or a failed descend), seeds replay."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.generated.dm_crawl_decks import GAME
from tomecraft.runtime import sim
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dm_crawl_decks import play_game
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]


FIRST, AT_MOST = 50, 200


@pytest.fixture(scope="module")
def played():
    """The seeded solo run's first FIRST games, played once for the tests below, and more
    until one is won (at most AT_MOST, the run these tests used to read whole): a win is
    rare for the simulated player (17 in the first 200 games, 4 in the first 50), and the
    tests need one. Game g is seeded by g alone: the first games are those of the whole run."""
    games = []
    while len(games) < AT_MOST and (len(games) < FIRST or not any(r["won"] for r in games)):
        g = len(games)
        games.append(play_game(GAME, 1, Rng(f"7:{g}").fork("game"), [RandomAgent(Rng(g))]))
    return games


def test_same_seed_same_summary_other_seed_differs():
    a = sim.run(GAME, games=10, seed=3)
    assert a == sim.run(GAME, games=10, seed=3)
    assert a != sim.run(GAME, games=10, seed=5)


def test_every_game_ends_by_a_rule_and_reports_misses_and_floors(played):
    for r in played:
        assert not r["capped"]
        assert r["won"] or r["hp"] <= 0 or "descend" in r["reason"], r
        assert 1 <= r["floors"] <= 3 and r["scores"] == [r["misses"]] >= [0]
        if r["won"]:
            assert r["descends"] == 3 and r["floors"] == 3


def test_some_games_are_won_and_some_reach_a_later_floor(played):
    assert any(r["won"] for r in played)
    assert any(r["floors"] >= 2 for r in played)


def test_cli_sim_ends_every_game_and_is_deterministic_across_processes():
    """Two processes with different hash seeds print the same bytes for the same seed, and
    every game ends by a rule (none hits the round cap)."""
    cmd = [sys.executable, "-m", "tomecraft.compiler.cli", "sim", "dm_crawl_decks", "--games", "20", "--seed", "7"]
    runs = [subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PYTHONHASHSEED=seed)) for seed in ("0", "4242")]
    assert runs[0].returncode == 0, runs[0].stderr
    assert "20 games, 1 player, seed 7" in runs[0].stdout
    assert "completed:   20 (hit the round cap: 0)" in runs[0].stdout
    assert runs[1].stdout == runs[0].stdout


def test_summary_gives_win_rate_mean_misses_and_floors(played):
    from tomecraft.runtime.engines.dm_crawl_decks import summarise
    s = summarise(played)
    n = len(played)
    assert s["games"] == n and 0 < s["win_rate"] < 1
    assert s["lost_hp"] + s["lost_descend"] + round(s["win_rate"] * n) == n
    assert 1 <= s["mean_floors"] <= 3
    assert s["mean_misses"] == round(sum(r["misses"] for r in played) / n, 2)


def test_the_winner_histogram_counts_only_games_someone_won():
    """L99, L159: a lost game has no winner, so its misses are no winner's score; likewise a
    failed mission or a Cave game with no team back at the base (`winners: []`)."""
    from types import SimpleNamespace
    from tomecraft.runtime.sim import format_summary, summarise
    results = [{"scores": [31], "rounds": 3, "capped": False, "won": True},
               {"scores": [12], "rounds": 1, "capped": False, "won": False},
               {"scores": [0, 0], "rounds": 9, "capped": False, "winners": []}]
    summary = summarise(SimpleNamespace(game="g"), 1, 3, 1, results[:2])
    assert summary["winner_score_histogram"] == {"30": 1} and summary["no_winner"] == 1
    assert "games nobody won: 1" in format_summary(summary)
    cave = summarise(SimpleNamespace(game="g"), 2, 1, 1, results[2:])
    assert cave["winner_score_histogram"] == {} and cave["no_winner"] == 1


def test_a_second_player_is_refused_in_the_solo_game_s_words():
    """L9: the game is played alone; the refusal read 'is for 1-1 players'."""
    with pytest.raises(ValueError, match=r"dm_crawl_decks is for 1 player$"):
        sim.check_players(GAME, 2)


def test_the_summary_names_the_score_as_misses_and_says_fewer_is_better():
    """The sim printed Crawl Decks' misses as "scores" and its floors as "rounds", and said
    "1 players": a designer read 47 as a good score (rulebook L99: fewer misses score higher)."""
    from tomecraft.generated.dm_crawl_decks import GAME
    from tomecraft.runtime import sim
    text = sim.format_summary(sim.run(GAME, games=3, seed=1))
    assert "3 games, 1 player, seed 1" in text
    assert "misses (the score: fewer is better): min" in text and "\n  scores:" not in text
    assert "mean floors reached:" in text and "mean rounds" not in text
    assert "seat means" not in text and "win rate" not in text


def test_floors_reached_counts_from_the_boards_starting_level(monkeypatch):
    """A pack's board with `dl_start: 2` (the rulebook's is DL 1, L81): `sim` said "mean floors
    reached: 1.0" for games that never left DL 2, counting descends instead of levels."""
    from tests.pack_play import compiled_with
    data = compiled_with("dm_crawl_decks", ROOT / "tests" / "dm_crawl_decks" / "deep_start_pack",
                         monkeypatch)
    for g in range(5):
        result = play_game(data, 1, Rng(f"7:{g}").fork("game"), [RandomAgent(Rng(g))])
        assert 2 + result["descends"] >= result["floors"] >= 2, result
        assert result["floors"] == min(2 + result["descends"], 3), result
