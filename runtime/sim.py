"""Play many seeded games with random agents and summarise them (`tomecraft sim`).

An engine's `play_game` returns a dict with `scores` (one per seat), `rounds` and `capped`
(the game hit the engine's safety cap), and may add:
- `finished`: per seat, whether the player ended where the game requires (The Cave: base);
- `end`: how the game ended ("max_alert", "mission_success"...), counted in the summary;
- `stats`: {name: number or bool} per game (floors reached, won...), averaged in the
  summary; booleans become rates.
The engine module may set FINISHED_LABEL (what `finished` means, e.g. "back at base at the
end") and SUMMARY_STATS (which stats the summary shows; all of them by default).

The summary is a pure function of (game data, players, games, seed, options): the same seed
gives byte-identical output. Wall-clock throughput is not part of it; it goes to `progress`.
"""
from __future__ import annotations

import gc
import importlib
import time
from collections import Counter
from contextlib import contextmanager
from typing import Callable

from tomecraft.runtime import effects
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.rng import Rng


def engine_module(data):
    return importlib.import_module(f"tomecraft.runtime.engines.{data.engine}")


def player_counts(data) -> dict:
    """{min, max, default} players of this content: the game's (game.yaml), narrowed by the
    engine where the content's own rules say more (`PLAYER_COUNTS(data)`: Clank!'s
    max_players rule), with `why` when they do."""
    narrowed = getattr(engine_module(data), "PLAYER_COUNTS", None)
    return dict(data.players) if narrowed is None else narrowed(data)


def check_players(data, players: int | None) -> int:
    counts = player_counts(data)
    players = counts["default"] if players is None else players
    if not counts["min"] <= players <= counts["max"]:
        why = counts.get("why")
        span = (f"{counts['min']} player" if counts["min"] == counts["max"] == 1 else
                f"{counts['min']} players" if counts["min"] == counts["max"] else
                f"{counts['min']}-{counts['max']} players")       # a solo game: "1 player"
        raise ValueError(f"{data.game} is for {span}" + (f" ({why})" if why else ""))
    return players


def check_setup(data, players: int | None, options: dict | None = None) -> int:
    """The player count (and the engine's `check_options`, if it has one) checked before any
    game: a ValueError names what the run may not ask for. Callers show it as a usage error;
    a ValueError raised while playing is an engine bug, never the user's mistake."""
    players = check_players(data, players)
    check = getattr(engine_module(data), "check_options", None)
    if check is not None:
        check(data, dict(options or {}))
    return players


def play_one(data, players: int, seed: int, index: int, options: dict | None = None,
             usage=None) -> dict:
    """Game `index` of the run seeded `seed`: its seed depends on nothing else, so a game is
    the same whichever worker plays it and in whatever order. With `usage` (a
    runtime.usage.Usage already tracking `data`), the result gets this game's `usage`."""
    rng = Rng(f"{seed}:{index}")
    effects.new_game()  # each game has its own step budget
    agents = [RandomAgent(rng.fork(f"agent{i}")) for i in range(players)]
    result = engine_module(data).play_game(data, players, rng.fork("game"), agents,
                                           dict(options or {}))
    if effects.runaway() is not None:      # caught by a trial: the game did not play
        raise effects.runaway()
    if usage is not None:
        taken = usage.take()
        if players == 1:            # a solo game's effects may name no seat
            taken = {k: {0: sum(v.values())} for k, v in taken.items()}
        result["usage"] = taken
    return result


def run(data, players: int | None = None, games: int = 100, seed: int = 1,
        options: dict | None = None, progress: Callable[[str], None] | None = None,
        usage: bool = False) -> dict:
    engine = engine_module(data)
    players = check_players(data, players)
    options = dict(options or {})
    every = max(1, games // 10)
    engine.play_game    # engines load their modules lazily: before the clock, not in game 1
    start = time.perf_counter()
    results = []
    with _tracking(data, usage) as tracker, _loaded_set_aside():
        for g in range(games):
            results.append(play_one(data, players, seed, g, options, tracker))
            if progress and (g + 1) % every == 0:
                progress(f"{g + 1}/{games} games")
    summary = summarise(data, players, games, seed, results,
                        finished_label=getattr(engine, "FINISHED_LABEL", "finished"),
                        shown_stats=getattr(engine, "SUMMARY_STATS", None))
    summary["labels"] = {key: getattr(engine, attr) for key, attr in LABELS.items()
                         if hasattr(engine, attr)}
    if usage:
        summary["usage"] = usage_summary(data, results, tracker.tracked)
    if progress:
        elapsed = time.perf_counter() - start
        progress(f"{games} games in {elapsed:.2f}s: {games / elapsed if elapsed else 0:.1f} games/s")
    return summary


@contextmanager
def _loaded_set_aside():
    """The games run with what was loaded before them (the content, the generated modules,
    the compiler) frozen out of the cyclic collector, and its first generation waiting for
    10,000 new objects, not 700 (as tests/conftest.py does for the suite): a game's objects
    are short-lived and mostly freed by reference counting, and the collector's passes over
    the long-lived ones were 8 % of a Crawl Decks game (1.2 ms of 15, measured with
    gc.callbacks; 0.5 ms after). Both are given back afterwards (what a caller froze
    stays frozen: the collector has one frozen set, not one per caller)."""
    outer = gc.get_freeze_count()     # frozen by a caller (the test suite): stays frozen
    gc.freeze()
    was = gc.get_threshold()
    gc.set_threshold(max(was[0], 10_000), *was[1:])
    try:
        yield
    finally:
        gc.set_threshold(*was)
        if not outer:
            gc.unfreeze()


def _tracking(data, wanted: bool):
    from contextlib import nullcontext
    from tomecraft.runtime import usage
    return usage.track(data) if wanted else nullcontext()


def usage_summary(data, results: list[dict], tracked: set[str]) -> dict:
    """Per entity: in how many games it was used, how often, and by which pack; entities that
    hold an effect but were never used are listed apart (a designer's warning)."""
    games: dict[str, int] = {}
    uses: dict[str, int] = {}
    for r in results:
        for key, seats in r.get("usage", {}).items():
            games[key] = games.get(key, 0) + 1
            uses[key] = uses.get(key, 0) + sum(seats.values())
    entities = {}
    for kind, table in sorted(data.kinds.items()):
        for entity_id, definition in sorted(table.items()):
            key = f"{kind}:{entity_id}"
            entities[key] = {"pack": getattr(definition, "pack", ""), "games": games.get(key, 0),
                             "uses": uses.get(key, 0), "tracked": key in tracked}
    never = [k for k, e in entities.items() if e["tracked"] and e["uses"] == 0]
    return {"entities": entities, "never_used": never,
            "untracked": sorted(k for k, e in entities.items() if not e["tracked"])}


def summarise(data, players: int, games: int, seed: int, results: list[dict],
              finished_label: str = "finished", shown_stats=None) -> dict:
    done = [r for r in results if not r["capped"]]
    all_scores = [s for r in done for s in r["scores"]]
    winners = Counter()
    no_winner = 0
    per_seat = [0.0] * players
    for r in done:
        best = _winner_score(r)
        if best is None:
            no_winner += 1
        else:
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
        **({"no_winner": no_winner} if no_winner else {}),
        "mean_rounds": round(sum(r["rounds"] for r in done) / n, 2),
        **_optional(done, n, players, finished_label, shown_stats),
    }


def _winner_score(result: dict) -> int | None:
    """The score the game was won with, None when nobody won: the engine's `winners` (The Cave
    with no team back at the base has none), else a co-operative or solo `success` or `won`
    (a failed mission, a lost Crawl Decks game: L159, only a cleared dungeon is scored, L99),
    else the best score. Who won is read as compiler/balance/runner.py `wins` reads it."""
    if "winners" in result:
        won = result["winners"]
    else:
        flag = next((result[k] for k in ("success", "won") if k in result), True)
        won = range(len(result["scores"])) if flag else []
    return max((result["scores"][i] for i in won), default=None)


def _optional(done: list[dict], n: int, players: int, finished_label: str,
              shown_stats) -> dict:
    """The summary lines that only some engines report."""
    extra: dict = {}
    if any("finished" in r for r in done):
        extra["returned_rate"] = round(sum(sum(r.get("finished", [])) for r in done)
                                       / (n * players), 3)
        extra["finished_label"] = finished_label
    ends = Counter(str(r["end"]) for r in done if r.get("end") is not None)
    if ends:
        extra["ends"] = dict(sorted(ends.items(), key=lambda kv: (-kv[1], kv[0])))
    names = sorted({k for r in done for k in (r.get("stats") or {})})
    if shown_stats is not None:
        names = [k for k in names if k in shown_stats]
    if names:
        extra["stats"] = {k: round(sum(float(r.get("stats", {}).get(k, 0)) for r in done) / n, 3)
                          for k in names}
    return extra


# What an engine may call the summary's generic figures (a module attribute of the engine):
# Crawl Decks' score is its misses, fewer is better, and its "rounds" are floors reached.
LABELS = {"score": "SCORE_LABEL", "rounds": "ROUNDS_LABEL", "histogram": "HISTOGRAM_LABEL",
          "cooperative": "COOPERATIVE"}


def format_summary(summary: dict) -> str:
    s = summary
    label = {"score": "scores", "rounds": "mean rounds", "histogram": "winner score histogram",
             **s.get("labels", {})}
    lines = [
        f"{s['game']}: {s['games']} games, {s['players']} player{'s' if s['players'] != 1 else ''}, "
        f"seed {s['seed']}",
        f"  completed:   {s['completed']} (hit the round cap: {len(s['capped'])}"
        + (f", games {s['capped'][:10]}" if s["capped"] else "") + ")",
        f"  {label['score'] + ':':<12} min {s['score']['min']}  mean {s['score']['mean']}  "
        f"max {s['score']['max']}",
    ]
    if s["players"] > 1 and not label.get("cooperative"):
        lines.append("  seat means:  " + "  ".join(f"P{i + 1} {m}" for i, m in enumerate(s["seat_mean"])))
    lines.append(f"  {label['rounds']}: {s['mean_rounds']}")
    if "returned_rate" in s:
        lines.append(f"  {s['finished_label']}: {s['returned_rate'] * 100:.1f}%")
    if "ends" in s:
        lines.append("  how games ended: " + ", ".join(f"{k} {v}" for k, v in s["ends"].items()))
    for name, mean in s.get("stats", {}).items():
        lines.append(f"  {name.replace('_', ' ')}: {mean}")
    if s.get("no_winner"):
        lines.append(f"  games nobody won: {s['no_winner']}")
    lines.append(f"  {label['histogram']}:" + ("" if s["winner_score_histogram"] else " none"))
    top = max(s["winner_score_histogram"].values(), default=0)
    for bucket, count in s["winner_score_histogram"].items():
        bar = "#" * max(1, round(count * 60 / top)) if top > 60 else "#" * count
        lines.append(f"    {int(bucket):>4}-{int(bucket) + 9:<4} {bar} {count}")
    if "usage" in s:
        lines += format_usage(s["usage"], s["games"])
    return "\n".join(lines)


def format_usage(usage: dict, games: int) -> list[str]:
    """The `--usage` lines: every entity with an effect, most used first, never used flagged."""
    rows = [(k, e) for k, e in usage["entities"].items() if e["tracked"]]
    rows.sort(key=lambda kv: (-kv[1]["uses"], kv[0]))
    lines = [f"  usage (entities with an effect; games used in / {games}, uses):"]
    width = max((len(k) for k, _ in rows), default=0)
    for key, e in rows:
        flag = "  warning: never used" if e["uses"] == 0 else ""
        lines.append(f"    {key:<{width}}  [{e['pack']}]  {e['games']:>5}  {e['uses']:>6}{flag}")
    if usage["never_used"]:
        lines.append(f"  warning: {len(usage['never_used'])} entities with an effect were never "
                     "used: " + ", ".join(usage["never_used"]))
    lines.append(f"  not counted (no effect to run): {len(usage['untracked'])} entities")
    return lines
