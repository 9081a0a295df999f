"""Play a balance run's games on this machine's cores or on a Dask cluster.

A game is identified by (game, packs, players, options, seed, index) and its record depends
on nothing else (runtime.sim.play_one), so the records are the same whatever the number of
workers, the scheduler, or the order in which games finish: they are sorted by index.

Work goes out in chunks of game indices. A worker compiles the game (with its packs) once per
process and keeps it; what comes back is plain data (records), never code or definitions.
"""
from __future__ import annotations

import itertools
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Batch:
    """Games `indices` of one configuration."""
    game: str
    packs: tuple[str, ...]
    players: int
    seed: int
    indices: tuple[int, ...]
    options: tuple = field(default=())       # sorted (key, value) pairs

    def run(self) -> list[dict]:
        return play_batch(self)


@lru_cache(maxsize=8)
def _data(game: str, packs: tuple[str, ...]):
    from tomecraft.compiler import diagnostics as dg, loadgen
    reporter = dg.Reporter()
    data = loadgen.game_data(game, [Path(p) for p in packs], reporter)
    if data is None:
        raise RuntimeError(dg.format_text(reporter))
    return data


def play_batch(batch: Batch) -> list[dict]:
    """Top level, so that process pools and Dask can send it to their workers."""
    from tomecraft.runtime import sim, usage
    data = _data(batch.game, batch.packs)
    with usage.track(data) as tracker:
        return [record(sim.play_one(data, batch.players, batch.seed, i, dict(batch.options),
                                    tracker), i, batch.players)
                for i in batch.indices]


def record(result: dict, index: int, players: int) -> dict:
    """The slim, JSON-ready record of one game that every figure is computed from."""
    return {
        "index": index,
        "scores": list(result["scores"]),
        "wins": wins(result, players),
        "rounds": result["rounds"],
        "capped": bool(result["capped"]),
        "end": str(result.get("end", "")),
        "roles": [str(r) for r in result.get("roles", [])],
        "usage": {key: [seats.get(s, 0) for s in range(players)]
                  for key, seats in result.get("usage", {}).items()
                  if any(seats.get(s, 0) for s in range(players))},
    }


def wins(result: dict, players: int) -> list[bool]:
    """Who won: the engine's winners, else a co-operative or solo success, else the best
    score (tied seats share the win)."""
    if "winners" in result:
        winners = set(result["winners"])
        return [s in winners for s in range(players)]
    for key in ("success", "won"):
        if key in result:
            return [bool(result[key])] * players
    best = max(result["scores"])
    return [s == best for s in result["scores"]]


# --- schedulers ------------------------------------------------------------------------------

CHUNK = 10          # games per batch at most: a Deep Rock Galactic game takes ~0.2 s, so a
                    # batch of 50 left a big run's bar blank for 20 s; a batch costs ~1 ms more
IN_FLIGHT = 4       # batches per worker handed out ahead: the rest are sent as these finish


def chunks(indices: list[int], workers: int) -> list[tuple[int, ...]]:
    size = max(1, min(CHUNK, len(indices) // max(1, workers * 4)))
    return [tuple(indices[i:i + size]) for i in range(0, len(indices), size)]


def run_local(batches: list[Batch], workers: int, tick: Callable[[int], None]) -> list[list]:
    """Every batch on `workers` processes (1: in this process), results in batch order."""
    if workers <= 1:
        out = []
        for b in batches:
            out.append(b.run())
            tick(len(b.indices))
        return out
    results: dict[int, list] = {}
    pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                               initializer=_leave_interrupts_to_the_parent)
    # A window of batches, refilled as they finish: submitting all of them at once (40,000
    # for --games 1000000) took seconds before the first game and held every future in memory.
    waiting = iter(enumerate(batches))
    running: dict = {}

    def send(count: int) -> None:
        for i, b in itertools.islice(waiting, count):
            running[pool.submit(play_batch, b)] = i
    try:
        send(workers * IN_FLIGHT)
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                i = running.pop(future)
                results[i] = future.result()
                tick(len(batches[i].indices))
            send(len(done))
    except BaseException:
        _stop_now(pool)
        raise
    pool.shutdown()
    return [results[i] for i in range(len(batches))]


def _leave_interrupts_to_the_parent() -> None:
    """A terminal's Ctrl-C reaches the whole process group: a worker that took it would send
    its KeyboardInterrupt back as a result while the parent ends it. The parent alone stops
    the run (_stop_now) and ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Ctrl-C (or a failed batch): cancel the batches not started and end the workers. The
    pool's own exit would wait for every batch queued, hours of them for a big --games.
    A worker ended while it wrote a result leaves half a message in the result pipe: the
    pool's manager thread then waits in recv() for the rest, and the interpreter's exit joins
    that thread forever. Once the workers are gone, closing this process's write end of the
    pipe (the last one open) turns that wait into an end of file, which the manager thread
    takes for a broken pool and ends on. (The pool's attributes are private: there is no
    public way to end its workers before Python 3.14.)"""
    processes = list((pool._processes or {}).values())
    calls, results = pool._call_queue, pool._result_queue     # shutdown() forgets them
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
    calls.cancel_join_thread()          # nobody will read the batches still queued
    results._writer.close()


def run_dask(batches: list[Batch], client, tick: Callable[[int], None]) -> list[list]:
    """The same batches on a Dask distributed cluster (`client` is a distributed.Client)."""
    from distributed import as_completed as dask_completed
    # a window as in run_local: mapping every batch at once sent one graph of 12 MiB (Dask
    # warned about it) and an interrupt waited for all of it to be cancelled
    window = max(1, sum(client.nthreads().values())) * IN_FLIGHT
    waiting = iter(enumerate(batches))
    order: dict = {}
    results: dict[int, list] = {}

    def send(count: int) -> list:
        sent = []
        for i, b in itertools.islice(waiting, count):
            future = client.submit(play_batch, b, pure=False)
            order[future.key] = i
            sent.append(future)
        return sent
    running = dask_completed(send(window))
    for future in running:      # on Ctrl-C the command closes the client: nothing more is sent
        i = order.pop(future.key)
        results[i] = future.result()
        tick(len(batches[i].indices))
        for more in send(1):
            running.add(more)
    return [results[i] for i in range(len(batches))]


class Progress:
    """games done, games/s and time left, on one stderr line; silent when not a terminal."""

    def __init__(self, total: int, quiet: bool, stream=None) -> None:
        self.total, self.done = total, 0
        # sys.stderr as it is now: a default bound at import kept a stream since closed (a
        # caller's capture), and isatty() on it raised ValueError, shown as a usage error
        self.stream = stream if stream is not None else sys.stderr
        self.on = not quiet and getattr(self.stream, "isatty", lambda: False)()
        self.start = time.perf_counter()

    def extend(self, more: int) -> None:
        self.total += more
        self(0)

    def __call__(self, games: int) -> None:
        self.done += games
        if not self.on:
            return
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        filled = int(30 * self.done / max(1, self.total))
        speed = f"  {rate:.1f} games/s  {duration(left)} left " if self.done else \
            "  starting... "        # drawn at once: the first batch may take seconds
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} games"
                          f"{speed}")
        self.stream.flush()

    def close(self) -> float:
        elapsed = time.perf_counter() - self.start
        if self.on:
            self.stream.write("\n")
        return elapsed


def duration(seconds: float) -> str:
    """`45s`, `12m 05s`, `3h 20m`, `57d 14h`: a big run's time left (4977772s said little)."""
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600:02d}h"
