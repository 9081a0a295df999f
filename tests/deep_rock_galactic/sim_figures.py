"""Sim plausibility figures for Deep Rock Galactic (docs/sim-plausibility/deep_rock_galactic.md):
per player count and Hazard level, the success rate, mean rounds and how often a monster
activation ended with two monsters on one space.

    python -m tests.deep_rock_galactic.sim_figures [--games N] [--pack]
"""
from __future__ import annotations

import argparse
import importlib
from collections import Counter

from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import engine as drg_engine, play_game
from tomecraft.runtime.rng import Rng


def shared_spaces(state) -> list:
    """Spaces held by more than one monster (a two-space monster counts on both)."""
    seen = Counter()
    for m in state.monsters.values():
        for h in {m.pos, m.tail} - {None}:
            seen[h] += 1
    return sorted(h for h, n in seen.items() if n > 1)


def figures(data, players: int, hazard: int, games: int) -> dict:
    counts = Counter()
    original = drg_engine.Engine.activate

    def watched(self, m, move_and_attack=False):
        original(self, m, move_and_attack)
        counts["activations"] += 1
        counts["stacked"] += bool(shared_spaces(self.state))
    drg_engine.Engine.activate = watched
    try:
        results = []
        for g in range(games):
            rng = Rng(f"figures:{players}:{hazard}:{g}")
            agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
            results.append(play_game(data, players, rng.fork("game"), agents, {"hazard": hazard}))
    finally:
        drg_engine.Engine.activate = original
    return {"players": players, "hazard": hazard, "games": games,
            "success": sum(r["success"] for r in results) / games,
            "rounds": sum(r["rounds"] for r in results) / games,
            "stacked": counts["stacked"] / max(1, counts["activations"])}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--pack", action="store_true", help="with the goo_from_above pack")
    args = ap.parse_args()
    name = "tomecraft.generated.deep_rock_galactic__goo_from_above" if args.pack else "tomecraft.generated.deep_rock_galactic"
    data = importlib.import_module(name).GAME
    print("| players | hazard | success | mean rounds | activations ending stacked |")
    print("| --- | --- | --- | --- | --- |")
    for players in (1, 2, 3, 4):
        for hazard in (1, 3, 5):
            f = figures(data, players, hazard, args.games)
            print(f"| {players} | {hazard} | {f['success']:.0%} | {f['rounds']:.1f} | {f['stacked']:.1%} |")


if __name__ == "__main__":
    main()
