"""The cache of games compiled with packs (loadgen): bounded, most recently used kept, and
read without a finder listing the whole cache folder."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, loadgen

CAVE = Path(__file__).resolve().parents[2] / "content" / "the_cave"


def _pack(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text("id: lean\ngame: the_cave\nversion: '1.0'\n",
                                      encoding="utf-8")
    return folder


def _play(pack: Path):
    reporter = dg.Reporter()
    data = loadgen.compile_and_import(CAVE, [pack], reporter)
    assert data is not None and not reporter.errors
    return data


def test_the_cache_keeps_only_the_most_recently_used_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(loadgen, "CACHE_KEEP", 2)
    compiled = tmp_path / "cache" / "compiled"
    first, second, third = (_pack(tmp_path / name) for name in ("a", "b", "c"))
    _play(first)
    [first_entry] = compiled.iterdir()
    _play(second)
    os.utime(first_entry, (1, 1))           # long unused...
    del sys.modules[first_entry.name]
    _play(first)                            # ...until a run takes it from the cache again
    _play(third)                            # a third package: the least recently used goes
    kept = sorted(p.name for p in compiled.iterdir())
    assert len(kept) == 2 and first_entry.name in kept


def test_a_crashed_runs_half_written_package_is_removed_once_old(tmp_path, monkeypatch):
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    compiled = tmp_path / "cache" / "compiled"
    _play(_pack(tmp_path / "a"))
    old, young = compiled / ".tomecraft_game_x.old", compiled / ".tomecraft_game_y.new"
    old.mkdir()
    young.mkdir()                           # perhaps another run writing it now
    os.utime(old, (1, 1))
    _play(_pack(tmp_path / "b"))
    assert not old.exists() and young.is_dir()


def test_a_cached_package_is_imported_by_its_path(tmp_path, monkeypatch):
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    path_before = list(sys.path)
    data = _play(_pack(tmp_path / "a"))
    [name] = [n for n, m in sys.modules.items() if n.startswith("tomecraft_game_the_cave_")
              and getattr(m, "GAME", None) is data]
    package = sys.modules[name]
    assert Path(package.__file__).parent == tmp_path / "cache" / "compiled" / name
    assert sys.modules[f"{name}.effects"].__file__.startswith(str(tmp_path / "cache"))
    assert sys.path == path_before
    assert str(tmp_path / "cache" / "compiled") not in sys.path_importer_cache   # no finder


def test_removing_many_old_packages_is_said(tmp_path, monkeypatch, capsys):
    """A cache an older tomecraft let grow to thousands of packages takes seconds to prune:
    the user is told, not left waiting on a silent command."""
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(loadgen, "CACHE_KEEP", 2)
    monkeypatch.setattr(loadgen, "PRUNE_TOLD", 3)
    compiled = tmp_path / "cache" / "compiled"
    compiled.mkdir(parents=True)
    for i in range(6):
        (compiled / f"tomecraft_game_the_cave_old{i}").mkdir()
    _play(_pack(tmp_path / "a"))
    assert "removing 5 compiled games unused longest" in capsys.readouterr().err
    assert len(list(compiled.iterdir())) == 2
