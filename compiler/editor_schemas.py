"""The JSON Schemas editors validate with, for this repository and for fans' own folders.

Every content file starts with `# yaml-language-server: $schema=<relative path>`. In this
repository the path leads to schemas/ (written by `tomecraft build`); in a fan's folder it leads
to the copy `tomecraft new pack` (or `tomecraft schema --out`) writes there. The files are the
same: pack.schema.json, <game>/content.schema.json (with one schema per entity kind next to it)
and, for games that accept standalone files, their schemas (Deep Rock Galactic's mission files).
"""
from __future__ import annotations

import os
from pathlib import Path

from tomecraft.compiler import pipeline
from tomecraft.compiler.console import UsageError

LINE = "# yaml-language-server: $schema="


def standalone(games) -> dict[str, dict]:
    """Schemas of the standalone files a game accepts, by their path under schemas/."""
    from tomecraft.compiler import missions
    ids = {game.id for game in games}
    return {f"{game}/mission_file.schema.json": missions.MISSION_SCHEMA
            for game in sorted(set(missions.MISSION_GAMES) & ids)}


def shipped() -> Path:
    return pipeline.project_root() / "schemas"


def files(game_root: Path | None = None) -> dict[str, str]:
    """{path under schemas/: text}: every schema, or the manifests and one game's schemas."""
    root = shipped()
    if not root.is_dir():
        raise UsageError(f"no schemas in {root}: run `tomecraft build` in a checkout")
    out = {}
    for path in sorted(root.rglob("*.schema.json")):
        rel = path.relative_to(root).as_posix()
        if game_root is None or "/" not in rel or rel.startswith(game_root.name + "/"):
            out[rel] = path.read_text(encoding="utf-8")
    return out


def write(schema_files: dict[str, str], out: Path) -> list[Path]:
    """Each schema replaces what stands at its name (a symlink planted there is replaced, not
    written through to a file outside `out`), and is never left half written."""
    from tomecraft.compiler.console import write_atomic
    written = []
    for rel, text in sorted(schema_files.items()):
        path = out / rel
        write_atomic(path, text.encode("utf-8"), root=out)
        written.append(path)
    return written


def line_for(file: Path, schema: Path) -> str:
    """The editor line of `file`, pointing at `schema` relative to the file's folder."""
    return LINE + Path(os.path.relpath(schema, file.parent)).as_posix()
