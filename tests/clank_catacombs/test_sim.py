"""`tomecraft sim clank_catacombs`: complete, deterministic games for 2 to 4 players."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.generated.clank_catacombs import GAME
from tomecraft.runtime import sim

ROOT = Path(__file__).resolve().parents[2]


def test_same_seed_same_summary_other_seed_differs():
    a = sim.run(GAME, players=3, games=20, seed=11)
    assert a == sim.run(GAME, players=3, games=20, seed=11)
    assert a != sim.run(GAME, players=3, games=20, seed=12)


def test_two_three_and_four_player_games_all_end_and_someone_scores():
    for players in (2, 3, 4):
        summary = sim.run(GAME, players=players, games=40, seed=5)
        assert summary["completed"] == 40 and not summary["capped"], summary
        assert summary["score"]["max"] > 20
        assert len(summary["seat_mean"]) == players


@pytest.fixture(scope="module")
def cli_200():
    """`sim --players 4 --games 200 --seed 7 --json` in two processes (each with its own hash
    seed), run once for the tests that read it."""
    cmd = [sys.executable, "-m", "tomecraft.compiler.cli", "sim", "clank_catacombs", "--players", "4",
           "--games", "200", "--seed", "7", "--json"]
    return [subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300) for _ in range(2)]


def test_cli_sim_of_200_four_player_games_plays_every_game_to_its_end(cli_200):
    first, second = cli_200
    assert first.returncode == 0, first.stderr
    assert '"completed": 200' in first.stdout and '"capped": []' in first.stdout
    assert second.stdout == first.stdout


def test_every_seat_of_a_four_player_game_gets_into_the_dungeon(cli_200):
    """Each seat escapes in a fair share of games: the simulated thief must not wait at the
    start once the first players have explored the start room's tunnels."""
    s = json.loads(cli_200[0].stdout)
    means = s["seat_mean"]
    assert min(means) > 0.6 * max(means), means


def test_a_pack_lowering_the_player_limit_is_simmed_within_it(tmp_path, monkeypatch):
    """A pack may set the rule max_players below the base game's 4: sim then plays that
    many by default, and a count above it is a usage error that says why."""
    from tests.pack_play import compiled_with
    pack = tmp_path / "duel"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: duel\ngame: clank_catacombs\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "rules.yaml").write_text(
        "rules:\n  - id: max_players\n    replace: true\n    name: {zh: 最多玩家数, en: Most players}\n"
        "    source: approximation\n    note: a test\n    value: 2\n", encoding="utf-8")
    data = compiled_with("clank_catacombs", pack, monkeypatch)
    assert sim.run(data, games=2, seed=1)["players"] == 2
    with pytest.raises(ValueError, match="is for 2 players .*max_players is 2"):
        sim.run(data, players=3, games=1, seed=1)
    with pytest.raises(ValueError, match="is for 2-4 players .*plays 5-6"):
        sim.run(GAME, players=5, games=1, seed=1)
