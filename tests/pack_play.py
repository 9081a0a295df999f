"""Shared by the per-game `test_players.py`: compile a YAML-only pack with its game, and read
what a seeded sim with `--usage` says about the pack's own entities."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
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


def pack_usage(data, pack_id: str, tracked_only: bool = True, **run) -> dict[str, dict]:
    """{"kind:id": usage} of the pack's entities over a seeded sim (`run`: players, games, seed)."""
    return pack_entities(sim.run(data, usage=True, **run)["usage"], pack_id, tracked_only)


def pack_entities(usage: dict, pack_id: str, tracked_only: bool = True) -> dict[str, dict]:
    """{"kind:id": usage} of the pack's entities in a sim's usage summary."""
    return {key: e for key, e in usage["entities"].items()
            if e["pack"] == pack_id and (e["tracked"] or not tracked_only)}


def play_with_usage(data, players: int, games: int, seed: int) -> tuple[list[dict], dict]:
    """The games `sim.run(data, players, games, seed, usage=True)` plays, played once for
    several tests: each game's own result (its `stats`) and the run's usage summary."""
    from tomecraft.runtime import usage
    with usage.track(data) as tracker:
        results = [sim.play_one(data, players, seed, index, None, tracker) for index in range(games)]
    return results, sim.usage_summary(data, results, tracker.tracked)
