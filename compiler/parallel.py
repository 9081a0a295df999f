"""Independent pieces of work side by side, in forked processes, with a serial outcome.

`tomecraft build` compiles each base game (with its packs) on its own: on a machine with
several cores, shares of them run in child processes forked from the build once its modules
are loaded (so no child imports or parses anything again), and this process runs one share
itself. The results come back in the order of the items, so what a build writes and reports
does not depend on the number of workers.

Only where forking is safe (Linux, a process with one thread: see can_fork); elsewhere, and
for one worker, the work runs in this process, one item after the other. A child that dies
without answering has its share done here instead; an exception in a child is raised here,
with the child's traceback.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import traceback
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


MAX_WORKERS = 64  # --workers above this forks that many processes at once: a typo, not a plan


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Forking copies only the calling thread: a lock another thread holds (an I/O thread's,
    a test runner's) would stay locked in the child for ever. So only a process with one
    thread forks, and only on Linux (macOS's system libraries are not fork-safe)."""
    return sys.platform == "linux" and threading.active_count() == 1


def run(work: Callable[[T], R], items: Sequence[T], workers: int,
        cost: Callable[[T], int] | None = None) -> list[R]:
    """[work(item) for item in items], in up to `workers` processes. `cost` (a rough size of an
    item's work) balances the shares."""
    shares = _shares(items, min(workers, len(items)), cost)
    if len(shares) <= 1 or not can_fork():
        return [work(item) for item in items]
    sys.stdout.flush()
    sys.stderr.flush()
    children = [_fork(work, items, share) for share in shares[1:]]
    try:
        done = {i: work(items[i]) for i in shares[0]}
    except BaseException:
        _stop(children)
        raise
    answers = [_answer(pid, reader) for pid, reader in children]   # every child reaped
    for share, answer in zip(shares[1:], answers):
        if answer is None:              # the child died: do its share here
            answer = ("done", [(i, work(items[i])) for i in share])
        if answer[0] == "raised":
            err = answer[1]
            err.add_note("in a build worker process:\n" + answer[2])
            raise err
        done.update(answer[1])
    return [done[i] for i in range(len(items))]


def _shares(items: Sequence, workers: int, cost) -> list[list[int]]:
    """Item indices per process, the costliest first, each to the least loaded share."""
    if workers <= 1:
        return [list(range(len(items)))]
    weights = [cost(item) if cost else 1 for item in items]
    shares: list[list[int]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for i in sorted(range(len(items)), key=lambda i: -weights[i]):
        k = loads.index(min(loads))
        shares[k].append(i)
        loads[k] += weights[i]
    return [sorted(share) for share in shares if share]


def _fork(work, items, share) -> tuple[int, int]:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid:
        os.close(writer)
        return pid, reader
    os.close(reader)          # the child: compute its share, send it, and leave at once
    status = 1
    try:
        try:
            answer = ("done", [(i, work(items[i])) for i in share])
        except BaseException as err:     # noqa: BLE001 (sent to the parent, raised there)
            answer = ("raised", _picklable(err), traceback.format_exc())
        with os.fdopen(writer, "wb") as out:
            pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
        sys.stdout.flush()
        sys.stderr.flush()
        status = 0
    finally:
        os._exit(status)      # never back into the parent's code (no atexit, no finally)


def _picklable(err: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(err))
        return err
    except Exception:    # noqa: BLE001
        return RuntimeError(f"{type(err).__name__}: {err}")


def _answer(pid: int, reader: int):
    """What the child sent, or None if it died without sending it."""
    with os.fdopen(reader, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    try:
        return pickle.loads(data)    # our own child's bytes, never content
    except Exception:    # noqa: BLE001 (a child killed while writing)
        return None


def _stop(children) -> None:
    """End the children of a run that failed here (none is left writing to a closed pipe)."""
    for pid, reader in children:
        os.close(reader)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
