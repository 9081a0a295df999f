"""`tomecraft build --workers`: base games compiled side by side, with the outcome of a serial build.

The forking runs in subprocesses: a test process with threads (pytest-xdist's) never forks
(parallel.can_fork), so each script first checks that its work ran in other processes.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tomecraft.compiler import parallel

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="builds fork on Linux only")


def script(body: str) -> subprocess.CompletedProcess:
    code = textwrap.dedent("""
        import os, signal, sys
        from tomecraft.compiler import parallel
        assert parallel.can_fork()
        PARENT = os.getpid()
    """) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_results_come_back_in_item_order_from_several_processes():
    out = script("""
        items = list(range(9))
        got = parallel.run(lambda x: (x * x, os.getpid()), items, 3, cost=lambda x: x % 4)
        assert [v for v, _ in got] == [x * x for x in items], got
        pids = {pid for _, pid in got}
        assert PARENT in pids and len(pids) == 3, pids
        print("ok")
    """)
    assert out.stdout.strip() == "ok", out.stderr


def test_an_error_in_a_child_is_raised_in_the_parent_with_its_traceback():
    out = script("""
        def work(x):
            if os.getpid() != PARENT:
                raise ValueError(f"bad item {x}")
            return x
        try:
            parallel.run(work, [1, 2], 2)
        except ValueError as err:
            assert "bad item" in str(err) and "Traceback" in err.__notes__[0], err.__notes__
            print("ok")
    """)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_child_that_dies_has_its_share_done_by_the_parent():
    out = script("""
        def work(x):
            if os.getpid() != PARENT:
                os.kill(os.getpid(), signal.SIGKILL)
            return -x
        assert parallel.run(work, [1, 2, 3], 3) == [-1, -2, -3]
        print("ok")
    """)
    assert out.stdout.strip() == "ok", out.stderr


def test_an_error_in_the_parent_leaves_no_child_behind():
    out = script("""
        import subprocess, time
        def work(x):
            if os.getpid() == PARENT:
                raise KeyError("parent")
            time.sleep(0.2)
            return x
        try:
            parallel.run(work, [1, 2, 3], 3)
        except KeyError:
            left = subprocess.run(["ps", "--ppid", str(PARENT), "-o", "pid="],
                                  capture_output=True, text=True).stdout.split()
            print("ok", len(left))
    """)
    # `ps` itself is the parent's one child then
    assert out.stdout.strip() == "ok 1", out.stderr


def test_shares_balance_the_costliest_items_first():
    shares = parallel._shares(["a", "b", "c", "d"], 2, {"a": 10, "b": 6, "c": 5, "d": 1}.get)
    assert shares == [[0, 3], [1, 2]]
    assert parallel._shares([1, 2], 1, None) == [[0, 1]]


@pytest.fixture
def two_games(tmp_path):
    """A project with two small games (the Cave, with a pack, and the Crawl)."""
    root = tmp_path / "project"
    for game in ("the_cave", "dm_crawl_decks"):
        shutil.copytree(REPO / "content" / game, root / "content" / game,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    for sub in ("compiler", "dsl", "runtime", "tomecraft"):
        (root / sub).symlink_to(REPO / sub)
    (root / "generated").mkdir()
    return root


def build(root: Path, workers: int) -> tuple[int, str, dict[str, bytes]]:
    for sub in ("generated", "schemas", ".tomecraft-build"):
        shutil.rmtree(root / sub, ignore_errors=True)
    (root / "generated").mkdir()
    out = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "build", "--workers", str(workers)],
                         cwd=root, capture_output=True, text=True, timeout=300)
    files = {p.relative_to(root).as_posix(): p.read_bytes()
             for sub in ("generated", "schemas") for p in sorted((root / sub).rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts}
    return out.returncode, out.stdout, files


def test_a_build_writes_the_same_bytes_for_any_number_of_jobs(two_games):
    code, _, serial = build(two_games, 1)
    assert code == 0 and any(name.startswith("generated/dm_crawl_decks/") for name in serial)
    for workers in (2, 3):
        assert build(two_games, workers) == (0, "", serial)


def test_a_build_reports_the_same_errors_for_any_number_of_jobs(two_games):
    for game, file in (("the_cave", "tile_kinds.yaml"), ("dm_crawl_decks", "game.yaml")):
        path = two_games / "content" / game / file
        path.write_text(path.read_text(encoding="utf-8") + "\n  oops: [\n", encoding="utf-8")
    code, report, _ = build(two_games, 1)
    assert code == 1 and "the_cave" in report and "dm_crawl_decks" in report, report
    assert build(two_games, 2)[:2] == (1, report)


def test_workers_must_be_a_count(run_cli):
    for bad in ("-1", "two", "65"):
        code, _, err = run_cli("build", "--workers", bad)
        assert code == 2 and "number of workers" in err, (bad, err)
    assert parallel.available_cores() >= 1
