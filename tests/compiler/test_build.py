"""`tomecraft build`: incremental (input hashes), atomic (a journal), locked, umask modes."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tomecraft.compiler import build, cli, fingerprint

REPO = Path(__file__).resolve().parents[2]
GAME = "the_cave"
PACK = """id: mini
game: the_cave
version: "1"
"""
PACK_TILES = """tile_kinds:
  - id: mini_tile
    name: {zh: 小版塊, en: Mini tile}
    source: approximation
    note: "A test tile."
    enter:
      - {id: walk, effect: "pay ap 1"}
    discover_from: true
    rope_edges: false
"""


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """content/the_cave with one small shipped pack, in a fresh project folder."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "content" / GAME, root / "content" / GAME,
                    ignore=shutil.ignore_patterns("__pycache__", "packs"))
    pack = root / "content" / GAME / "packs" / "mini"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "tiles.yaml").write_text(PACK_TILES, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def run(*args: str) -> int:
    return cli.main(["build", *args])


def stamps(root: Path) -> dict[str, int]:
    """Inode and modification time of every output file: what a rewrite would change."""
    out = {}
    for sub in ("generated", "schemas"):
        for path in sorted((root / sub).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                info = path.stat()
                out[path.relative_to(root).as_posix()] = (info.st_ino, info.st_mtime_ns)
    return out


def test_a_build_with_nothing_changed_writes_nothing(repo, capsys):
    assert run() == 0
    assert "wrote" in capsys.readouterr().err
    before = stamps(repo)
    assert run() == 0
    assert "up to date (2 packages)" in capsys.readouterr().err
    assert stamps(repo) == before
    assert run("--check") == 0


def test_a_changed_pack_rebuilds_only_its_package(repo, capsys):
    assert run() == 0
    before = stamps(repo)
    tiles = repo / "content" / GAME / "packs" / "mini" / "tiles.yaml"
    tiles.write_text(PACK_TILES.replace("pay ap 1", "pay ap 2"), encoding="utf-8")
    assert run() == 0
    assert "wrote" in capsys.readouterr().err
    after = stamps(repo)
    changed = {name for name in after if before.get(name) != after[name]}
    assert {n for n in changed if n.startswith(f"generated/{GAME}__mini/")} == {
        f"generated/{GAME}__mini/{f}" for f in ("__init__.py", "definitions.py", "effects.py")}
    assert not [n for n in changed if n.startswith((f"generated/{GAME}/", "schemas/"))]
    assert "'pay ap 2'" not in (repo / "generated" / GAME / "effects.py").read_text() and \
        "# pay ap 2" in (repo / "generated" / f"{GAME}__mini" / "effects.py").read_text()
    assert run("--check") == 0


def test_a_changed_base_game_rebuilds_its_packs_too(repo, capsys):
    assert run() == 0
    before = stamps(repo)
    path = repo / "content" / GAME / "tile_kinds.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert run() == 0
    after = stamps(repo)
    for package in (GAME, f"{GAME}__mini"):
        name = f"generated/{package}/effects.py"
        assert before[name] != after[name], name


def test_the_input_hash_covers_the_compiler_source_and_templates():
    names = {p.relative_to(REPO).as_posix() for p in fingerprint.source_files()}
    assert {"compiler/codegen.py", "compiler/templates/effects.py.j2", "dsl/effects.lark",
            "dsl/parser.py", "compiler/loader.py"} <= names
    assert not [n for n in names if "__pycache__" in n]


def test_a_compiler_change_makes_every_package_stale(repo, monkeypatch, capsys):
    assert run() == 0
    fingerprint.compiler_digest.cache_clear()
    monkeypatch.setattr(fingerprint, "source_files", lambda: [REPO / "README.md"])
    try:
        assert run("--check") == 1
        assert run() == 0
        assert "wrote" in capsys.readouterr().err and run("--check") == 0
    finally:
        fingerprint.compiler_digest.cache_clear()


def test_a_build_killed_after_its_journal_is_completed_by_the_next(repo, monkeypatch, capsys):
    assert run() == 0
    path = repo / "content" / GAME / "tile_kinds.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    real = build._apply

    def killed(root, moves):  # the process dies after the first two moves
        real(root, moves[:2])
        raise KeyboardInterrupt
    monkeypatch.setattr(build, "_apply", killed)
    assert run() == 130
    monkeypatch.setattr(build, "_apply", real)
    assert (repo / build.STATE / "journal.json").is_file()
    assert run("--check") == 1
    out = capsys.readouterr().out
    assert ".tomecraft-build is stale" in out  # the interrupted build is reported
    assert run() == 0
    assert not (repo / build.STATE).exists()
    assert run("--check") == 0


def test_staging_without_a_journal_is_dropped_and_reported(repo, capsys):
    assert run() == 0
    before = stamps(repo)
    half = repo / build.STATE / "new" / "generated" / GAME
    half.mkdir(parents=True)
    (half / "effects.py").write_text("half written", encoding="utf-8")
    (repo / ".schemas.x1y2").mkdir()  # what older builds left behind
    assert run("--check") == 1
    out = capsys.readouterr().out
    assert ".tomecraft-build is stale" in out and ".schemas.x1y2 is stale" in out
    assert run() == 0
    assert not (repo / build.STATE).exists() and not (repo / ".schemas.x1y2").exists()
    assert stamps(repo) == before  # nothing of the half-staged build got in
    assert run("--check") == 0


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_outputs_follow_the_umask(repo, umask):
    old = os.umask(umask)
    try:
        assert run() == 0
    finally:
        os.umask(old)
    for sub in ("generated", "schemas"):
        for path in [repo / sub, *(repo / sub).rglob("*")]:
            if "__pycache__" in path.parts:
                continue
            mode = stat.S_IMODE(path.stat().st_mode)
            assert mode == (0o777 if path.is_dir() else 0o666) & ~umask, (path, oct(mode))


def test_a_second_build_waits_for_the_first(repo):
    assert run() == 0
    path = repo / "content" / GAME / "tile_kinds.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    holding, release = threading.Event(), threading.Event()

    def hold():
        with build.locked(repo):
            holding.set()
            release.wait(60)
    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(10)
    proc = subprocess.Popen([sys.executable, "-m", "tomecraft.compiler.cli", "build"], cwd=repo,
                            env=dict(os.environ, PYTHONPATH=str(REPO)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "waiting for another tomecraft build" in line
    finally:
        release.set()
        holder.join()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert run("--check") == 0


def test_concurrent_builds_both_succeed(repo):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, "-m", "tomecraft.compiler.cli", "build"], cwd=repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert run("--check") == 0
    assert not (repo / build.STATE).exists()


def test_check_runs_where_the_lock_cannot_be_created(repo, monkeypatch):
    assert run() == 0
    monkeypatch.setattr(build, "LOCK", Path("generated"))  # opening it for writing fails
    assert run("--check") == 0
    with pytest.raises(OSError):
        with build.locked(repo):
            pass


def _settled_build(repo) -> None:
    """A build whose inputs are older than its racy window, so it records the stamp."""
    time.sleep(2 * fingerprint._RACY_NS / 1e9)
    assert run() == 0
    assert (repo / fingerprint.STAMP).is_file()


def test_a_no_op_build_stops_at_the_stamp_without_hashing(repo, monkeypatch, capsys):
    _settled_build(repo)
    capsys.readouterr()
    before = stamps(repo)

    def never(*args, **kwargs):
        raise AssertionError("the no-op build hashed its inputs")
    monkeypatch.setattr(build, "targets", never)
    assert run() == 0
    assert "up to date (2 packages)" in capsys.readouterr().err
    assert stamps(repo) == before


@pytest.mark.parametrize("change", ["same-size edit", "new content file", "output edited",
                                    "output added", "leftover staging", "compiler file list"])
def test_anything_changed_since_the_stamp_runs_the_full_build(repo, monkeypatch, capsys, change):
    _settled_build(repo)
    tiles = repo / "content" / GAME / "packs" / "mini" / "tiles.yaml"
    if change == "same-size edit":
        tiles.write_text(PACK_TILES.replace("pay ap 1", "pay ap 2"), encoding="utf-8")
    elif change == "new content file":
        (tiles.parent / "more.yaml").write_text(PACK_TILES.replace("mini_tile", "mini_two"),
                                                encoding="utf-8")
    elif change == "output edited":
        (repo / "generated" / GAME / "effects.py").write_text("# edited\n", encoding="utf-8")
    elif change == "output added":
        (repo / "schemas" / "extra.json").write_text("{}\n", encoding="utf-8")
    elif change == "leftover staging":
        (repo / ".generated.x1y2").mkdir()
    else:
        fingerprint.compiler_digest.cache_clear()
        monkeypatch.setattr(fingerprint, "source_files", lambda: [REPO / "README.md"])
    capsys.readouterr()
    try:
        assert run() == 0
        if change == "leftover staging":  # the full build only clears it away
            assert not (repo / ".generated.x1y2").exists()
        else:
            assert "wrote" in capsys.readouterr().err, change
        assert run("--check") == 0
    finally:
        fingerprint.compiler_digest.cache_clear()


def test_the_no_op_command_answers_before_importing_the_command_line(repo):
    _settled_build(repo)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "tomecraft.compiler.cli", "build"],
                          cwd=repo, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "up to date (2 packages)" in proc.stderr, proc.stderr
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")}
    assert "tomecraft.compiler.fingerprint" in imported
    assert not {"argparse", "hashlib", "tomecraft.compiler.build",
                "tomecraft.compiler.diagnostics"} & imported


def test_checking_shipped_packs_valid_rule_values_does_not_import_jsonschema():
    """A pack's rule values are checked against their schema (contract._check_rule_values).
    Valid ones are answered by the compiled validator: importing jsonschema for them cost
    every build 0.08 s, the shipped packs setting rules. Only a wrong value asks it."""
    script = ("import sys\n"
              "from pathlib import Path\n"
              "from tomecraft.compiler import diagnostics as dg, pipeline\n"
              f"root = Path({str(REPO)!r}) / 'content'\n"
              "for game, pack in (('clank_catacombs', 'tomb_party'), ('deep_rock_galactic', 'goo_from_above')):\n"
              "    reporter = dg.Reporter()\n"
              "    pipeline.compile_game(root / game, [root / game / 'packs' / pack], reporter)\n"
              "    assert not reporter.errors, reporter.diagnostics\n"
              "print('jsonschema' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
