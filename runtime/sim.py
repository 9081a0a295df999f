"""Play many seeded games with random agents and summarise them (`tomecraft sim`).

The summary is a pure function of (game data, players, games, seed, options): the same seed
gives byte-identical output. Wall-clock throughput is not part of it; it goes to `progress`.
"""
from __future__ import annotations

import importlib
import time
from collections import Counter
from typing import Callable

from runtime.agents import RandomAgent
from runtime.rng import Rng


def engine_module(data):
    return importlib.import_module(f"runtime.engines.{data.engine}")


def run(data, players: int | None = None, games: int = 100, seed: int = 1,
        options: dict | None = None, progress: Callable[[str], None] | None = None) -> dict:
    engine = engine_module(data)
    players = players or data.players["default"]
    if not data.players["min"] <= players <= data.players["max"]:
        raise ValueError(f"{data.game} is for {data.players['min']}-{data.players['max']} players")
    options = dict(options or {})
    every = max(1, games // 10)
    start = time.perf_counter()
    results = []
    for g in range(games):
        rng = Rng(f"{seed}:{g}")
        agents = [RandomAgent(rng.fork(f"agent{i}")) for i in range(players)]
        results.append(engine.play_game(data, players, rng.fork("game"), agents, options))
        if progress and (g + 1) % every == 0:
            progress(f"{g + 1}/{games} games")
    summary = summarise(data, players, games, seed, results)
    if progress:
        elapsed = time.perf_counter() - start
        progress(f"{games} games in {elapsed:.2f}s: {games / elapsed if elapsed else 0:.1f} games/s")
    return summary


def summarise(data, players: int, games: int, seed: int, results: list[dict]) -> dict:
    done = [r for r in results if not r["capped"]]
    all_scores = [s for r in done for s in r["scores"]]
    winners = Counter()
    per_seat = [0.0] * players
    for r in done:
        best = max(r["scores"])
        winners[str(best // 10 * 10)] += 1
        for i, s in enumerate(r["scores"]):
            per_seat[i] += s
    n = len(done) or 1
    return {
        "game": data.game,
        "players": players,
        "games": games,
        "seed": seed,
        "completed": len(done),
        "capped": [i for i, r in enumerate(results) if r["capped"]],
        "score": {"min": min(all_scores, default=0), "max": max(all_scores, default=0),
                  "mean": round(sum(all_scores) / (len(all_scores) or 1), 2)},
        "seat_mean": [round(x / n, 2) for x in per_seat],
        "winner_score_histogram": dict(sorted(winners.items(), key=lambda kv: int(kv[0]))),
        "mean_rounds": round(sum(r["rounds"] for r in done) / n, 2),
        "returned_rate": round(sum(sum(r.get("finished", [])) for r in done) / (n * players), 3),
    }


def format_summary(summary: dict) -> str:
    s = summary
    lines = [
        f"{s['game']}: {s['games']} games, {s['players']} players, seed {s['seed']}",
        f"  completed:   {s['completed']} (hit the round cap: {len(s['capped'])}"
        + (f", games {s['capped'][:10]}" if s["capped"] else "") + ")",
        f"  scores:      min {s['score']['min']}  mean {s['score']['mean']}  max {s['score']['max']}",
        "  seat means:  " + "  ".join(f"P{i + 1} {m}" for i, m in enumerate(s["seat_mean"])),
        f"  mean rounds: {s['mean_rounds']}",
        f"  back at base at the end: {s['returned_rate'] * 100:.1f}%",
        "  winner score histogram:",
    ]
    for bucket, count in s["winner_score_histogram"].items():
        lines.append(f"    {int(bucket):>3}-{int(bucket) + 9:<3} {'#' * count} {count}")
    return "\n".join(lines)
