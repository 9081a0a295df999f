"""Get a game's GameData for the runtime: the committed package, or a fresh one with packs.

Without packs the committed generated/<game>/ is imported. With packs (from anywhere) the
game is compiled in memory and the generated source is imported from a private temporary
package, so `--pack DIR` needs no build step and writes nothing into the repository.
"""
from __future__ import annotations

import atexit
import hashlib
import shutil
from functools import lru_cache
import importlib
import sys
import tempfile
from pathlib import Path

from compiler import codegen, diagnostics as dg, names, pipeline


@lru_cache(maxsize=1)
def _scratch() -> Path:
    """One private directory per process for packages compiled with packs, removed at exit."""
    path = Path(tempfile.mkdtemp(prefix="tomecraft-"))
    atexit.register(shutil.rmtree, path, True)
    return path


def game_data(game: str, packs: list[Path], reporter: dg.Reporter):
    root = pipeline.content_root() / str(game)
    if not names.is_identifier(game) or not (root / "game.yaml").is_file():
        reporter.add(dg.USAGE, f"unknown game {game!r}", str(root), 1, 1,
                     "games: " + ", ".join(p.name for p in pipeline.game_roots()))
        return None
    if not packs:
        try:
            return importlib.import_module(f"generated.{game}").GAME
        except ImportError:
            pass  # not built yet: compile it below
    return compile_and_import(root, packs, reporter)


def compile_and_import(root: Path, packs: list[Path], reporter: dg.Reporter):
    game = pipeline.compile_game(root, packs, reporter)
    if game is None or reporter.errors:
        return None
    files = codegen.generate(game)
    digest = hashlib.sha256("".join(files[k] for k in sorted(files)).encode()).hexdigest()[:16]
    name = f"tomecraft_pack_{game.id}_{digest}"
    if name in sys.modules:
        return sys.modules[name].GAME
    directory = _scratch() / name
    directory.mkdir()
    for filename, text in files.items():
        (directory / filename).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(directory.parent))
    try:
        return importlib.import_module(name).GAME
    finally:
        sys.path.remove(str(directory.parent))
