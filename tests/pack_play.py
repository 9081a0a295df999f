"""Shared by the per-game `test_players.py`: compile a YAML-only pack with its game, and read
what a seeded sim with `--usage` says about the pack's own entities."""
from __future__ import annotations

from pathlib import Path

import json

from tomecraft.compiler import cli, diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime import sim

ROOT = Path(__file__).resolve().parents[1]


def compiled_with(game: str, pack: Path, monkeypatch):
    """The game's data with the pack loaded (it must check clean)."""
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / game, [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    return data


def pack_usage(data, pack_id: str, tracked_only: bool = True, wanted: set[str] | None = None,
               **run) -> dict[str, dict]:
    """{"kind:id": usage} of the pack's entities over a seeded sim (`run`: players, games,
    seed, options), stopped once each tracked entity of the pack (of `wanted` if given) is
    used (`play_until`): for the tests' "every one is used" (uses > 0), not for counts of
    uses or games."""
    def all_used(results: list[dict], usage: dict) -> bool:
        return all(e["uses"] > 0 for key, e in pack_entities(usage, pack_id).items()
                   if wanted is None or key in wanted)
    return pack_entities(play_until(data, all_used, **run)[1], pack_id, tracked_only)


def pack_entities(usage: dict, pack_id: str, tracked_only: bool = True) -> dict[str, dict]:
    """{"kind:id": usage} of the pack's entities in a sim's usage summary."""
    return {key: e for key, e in usage["entities"].items()
            if e["pack"] == pack_id and (e["tracked"] or not tracked_only)}


def play_with_usage(data, players: int, games: int, seed: int) -> tuple[list[dict], dict]:
    """The games `sim.run(data, players, games, seed, usage=True)` plays, played once for
    several tests: each game's own result (its `stats`) and the run's usage summary."""
    return play_until(data, lambda results, usage: False, games, seed, players)


def play_until(data, done, games: int, seed: int, players: int | None = None,
               options: dict | None = None) -> tuple[list[dict], dict]:
    """The first games of `sim.run(data, players, games, seed, options, usage=True)`, played
    one at a time and stopped once `done(results, usage summary)` holds (at most `games`):
    each game's own result and the usage summary of the games played. Game i is the same
    whatever else is played (sim.play_one) and a later game takes nothing back: whether an
    entity is used, or a stat counted, within `games` games is settled by the first games
    that show it."""
    from tomecraft.runtime import usage
    players = sim.check_players(data, players)
    results: list[dict] = []
    with usage.track(data) as tracker:
        for index in range(games):
            results.append(sim.play_one(data, players, seed, index, options, tracker))
            summary = sim.usage_summary(data, results, tracker.tracked)
            if done(results, summary):
                break
    return results, summary


def check_folder(folder: Path, files: dict[str, str], capsys) -> tuple[int, list[dict]]:
    """`tomecraft check FOLDER --format json` of a pack written from `files` (name -> text):
    (exit code, diagnostics)."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    code = cli.main(["check", str(folder), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["diagnostics"]
