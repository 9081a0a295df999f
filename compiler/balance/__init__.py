"""`tomecraft balance`: does an expansion change the game? Paired seeded games, with numbers.

For each player count, the base game and the game with the packs play the same game indices
under the same run seed (so game i of one is paired with game i of the other), and the report
compares them: win or success rate per seat and role, game length, scores, how games end; and
per entity (base and pack), how often players use it and how the players who did fared against
those who did not. Every difference has a 95% interval and a test, corrected for the number of
comparisons (stats.py). Every figure is computed from the per-game records, which the JSON
report includes, so anyone can recompute it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # imported where used: `tomecraft --help` loads this package
    from tomecraft.compiler.balance import stats


RATE_TOLERANCE = 0.02      # --until-significant: a rate difference within ±2 points is settled
MEAN_TOLERANCE = 0.02      # ... a mean difference within ±2% of the base mean


@dataclass
class Plan:
    game: str
    packs: tuple[str, ...]
    players: tuple[int, ...]
    games: int
    seed: int = 1
    options: dict = field(default_factory=dict)
    sweep: tuple = ()                  # (option, values): e.g. ("hazard", (1, 2, 3, 4, 5))
    until_significant: bool = False
    max_games: int = 0
    catalog: dict = field(default_factory=dict)   # "kind:id" -> pack, entities with an effect


def catalog(data) -> dict[str, str]:
    """"kind:id" -> pack of every entity of a game (with its packs) that holds an effect."""
    from tomecraft.runtime import usage
    with usage.track(data) as tracker:
        return {key: data.get(*key.split(":", 1)).pack for key in sorted(tracker.tracked)}


def run(plan: Plan, workers: int = 1, client=None, quiet: bool = True) -> dict:
    """Play the plan's games and build the report (a plain, JSON-ready dict)."""
    from tomecraft.compiler.balance.runner import Progress
    main = [(n, label, packs, tuple(sorted(plan.options.items())))
            for n in plan.players for label, packs in (("base", ()), ("pack", plan.packs))]
    sweep = [(n, f"{label}@{value}", packs,
              tuple(sorted({**plan.options, plan.sweep[0]: value}.items())))
             for n in plan.players for value in (plan.sweep[1] if plan.sweep else ())
             for label, packs in (("base", ()), ("pack", plan.packs))]
    records: dict[tuple[int, str], list[dict]] = {}
    progress = Progress(0, quiet)
    games = plan.games
    _play(plan, main + sweep, range(games), records, workers, client, progress)
    limit = max(games, plan.max_games or games * 8)
    while plan.until_significant and games < limit and not _settled(build(plan, records, games)):
        more = min(limit, games * 2)       # the next games extend every pair; the sweep stays
        _play(plan, main, range(games, more), records, workers, client, progress)
        games = more
    report = build(plan, records, games)
    report["seconds"] = round(progress.close(), 2)   # not part of the figures: wall time
    return report


def _play(plan: Plan, configs, indices: range, records, workers, client, progress) -> None:
    from tomecraft.compiler.balance.runner import Batch, chunks, run_dask, run_local
    batches, keys = [], []
    for n, label, packs, options in configs:
        for part in chunks(list(indices), workers):
            batches.append(Batch(plan.game, packs, n, plan.seed, part, options))
            keys.append((n, label))
    progress.extend(sum(len(b.indices) for b in batches))
    results = run_dask(batches, client, progress) if client is not None \
        else run_local(batches, workers, progress)
    for key, result in zip(keys, results):
        records.setdefault(key, []).extend(result)
    for rs in records.values():
        rs.sort(key=lambda r: r["index"])


def _settled(report: dict) -> bool:
    for block in report["by_players"].values():
        for comp in block["comparisons"]:
            scale = RATE_TOLERANCE if comp["name"].startswith(("win", "lift")) \
                else MEAN_TOLERANCE * max(1.0, abs(comp["base"]))
            if not (comp["flagged"] or (comp["high"] - comp["low"]) / 2 <= scale):
                return False
    return True


# --- the report ------------------------------------------------------------------------------

def build(plan: Plan, records: dict, games: int) -> dict:
    from tomecraft.compiler.balance import stats
    by_players = {}
    for n in plan.players:
        base, pack = records[(n, "base")], records[(n, "pack")]
        comparisons = paired(base, pack, n) + lifts(pack, n)
        stats.holm(comparisons)
        by_players[str(n)] = {
            "base": summary(base, n),
            "pack": summary(pack, n),
            "comparisons": [c.as_dict() for c in comparisons],
            "entities": entities(base, pack, n, plan.catalog),
            "sweep": {label.split("@", 1)[1] + ":" + label.split("@", 1)[0]:
                      summary(rs, n) for (m, label), rs in sorted(records.items())
                      if m == n and "@" in label},
        }
    return {"game": plan.game, "packs": list(plan.packs), "seed": plan.seed, "games": games,
            "options": plan.options, "sweep": list(plan.sweep[:1]) + [list(plan.sweep[1])]
            if plan.sweep else [], "by_players": by_players,
            "records": {f"{n}:{label}": rs for (n, label), rs in sorted(records.items())}}


def summary(records: list[dict], players: int) -> dict:
    n = len(records) or 1
    roles: dict[str, list[bool]] = {}
    for r in records:
        for seat, role in enumerate(r["roles"]):
            roles.setdefault(role, []).append(r["wins"][seat])
    return {
        "games": len(records),
        "win_rate": [round(sum(r["wins"][s] for r in records) / n, 4) for s in range(players)],
        "any_win_rate": round(sum(any(r["wins"]) for r in records) / n, 4),
        "win_rate_by_role": {k: round(sum(v) / len(v), 4) for k, v in sorted(roles.items())},
        "mean_rounds": round(sum(r["rounds"] for r in records) / n, 3),
        "mean_score": round(sum(sum(r["scores"]) / players for r in records) / n, 3),
        "rounds": [r["rounds"] for r in records],
        "scores": [s for r in records for s in r["scores"]],
        "ends": dict(sorted(Counter(r["end"] for r in records).items())),
        "capped": sum(r["capped"] for r in records),
    }


def paired(base: list[dict], pack: list[dict], players: int) -> list[stats.Comparison]:
    from tomecraft.compiler.balance import stats
    out = [stats.paired_means("game length (rounds)", [r["rounds"] for r in base],
                              [r["rounds"] for r in pack]),
           stats.paired_means("mean score", [sum(r["scores"]) / players for r in base],
                              [sum(r["scores"]) / players for r in pack])]
    seats = range(players) if not _cooperative(base) else range(1)
    for s in seats:
        label = f"win rate, seat {s + 1}" if players > 1 and not _cooperative(base) \
            else "win rate"
        out.append(stats.paired_rates(label, [r["wins"][s] for r in base],
                                      [r["wins"][s] for r in pack]))
    return out


def _cooperative(records: list[dict]) -> bool:
    """Every seat wins or loses together (Deep Rock Galactic, solo games)."""
    return all(len(set(r["wins"])) <= 1 for r in records)


def _units(records: list[dict], players: int):
    """(game, seat) units: (entities the seat used, whether it won)."""
    for r in records:
        for s in range(players):
            used = {k for k, counts in r["usage"].items() if counts[s] > 0}
            yield used, r["wins"][s]


def lifts(records: list[dict], players: int) -> list[stats.Comparison]:
    """Win-rate lift of using each entity, in the games with the packs."""
    from tomecraft.compiler.balance import stats
    units = list(_units(records, players))
    keys = sorted({k for used, _ in units for k in used})
    out = []
    for key in keys:
        a = sum(1 for used, won in units if key in used and won)
        b = sum(1 for used, won in units if key in used and not won)
        c = sum(1 for used, won in units if key not in used and won)
        d = sum(1 for used, won in units if key not in used and not won)
        if a + b and c + d:
            out.append(stats.lift(f"lift {key}", a, b, c, d))
    return out


def entities(base: list[dict], pack: list[dict], players: int, catalog: dict) -> dict:
    """Per entity of the catalog (and any other used): its pack, take rate (share of
    player-games that used it) and uses, without and with the packs; never used is flagged."""
    def rates(records):
        units = list(_units(records, players))
        counts = Counter(k for used, _ in units for k in used)
        return {k: round(v / (len(units) or 1), 4) for k, v in counts.items()}, \
            {k: sum(sum(r["usage"].get(k, [])) for r in records) for k in counts}
    base_rate, base_uses = rates(base)
    pack_rate, pack_uses = rates(pack)
    keys = sorted(set(catalog) | set(base_rate) | set(pack_rate))
    return {k: {"pack": catalog.get(k, ""),
                "take_rate_base": base_rate.get(k, 0.0), "take_rate_pack": pack_rate.get(k, 0.0),
                "uses_base": base_uses.get(k, 0), "uses_pack": pack_uses.get(k, 0),
                "never_used": pack_uses.get(k, 0) == 0}
            for k in keys}
