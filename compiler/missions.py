"""`tomecraft check FILE`: check one content file in the context of the game it belongs to.

The file's game is found by walking up to the nearest game.yaml (or the pack.yaml of a pack
under content/<game>/packs/). The whole game is compiled, and the diagnostics about the
file are reported, so a fan sees exactly what is wrong with the file they are editing.
"""
from __future__ import annotations

from pathlib import Path

from compiler import diagnostics as dg, loader, pipeline
from compiler.packs import display_path


def find_game_root(path: Path) -> tuple[Path | None, list[Path]]:
    packs: list[Path] = []
    for parent in path.resolve().parents:
        if (parent / "pack.yaml").is_file() and not (parent / "game.yaml").is_file():
            packs.append(parent)
        if (parent / "game.yaml").is_file():
            return parent, packs
    return None, packs


def check_file(path: Path, reporter: dg.Reporter) -> None:
    display = display_path(path)
    root, packs = find_game_root(path)
    if root is None:
        doc = loader.load(path, reporter, display)
        if doc is not None:
            reporter.add(dg.USAGE, "this file belongs to no game (no game.yaml above it)",
                         display, 1, 1, "put it under content/<game>/ or in a pack")
        return
    scratch = dg.Reporter()
    pipeline.compile_game(root, packs, scratch)
    target = Path(display).resolve()
    for d in scratch.diagnostics:
        if Path(d.file).resolve() == target:
            reporter.diagnostics.append(d)
