"""Write generated/ and schemas/ atomically, or check that they are fresh.

A build computes every output in memory first. Each output directory is written to a sibling
temporary directory and swapped in with renames, so an interrupted or failed build leaves the
previous generated/ intact.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from compiler import codegen, pipeline, schemas
from compiler.model import Game

GENERATED = Path("generated")
SCHEMAS = Path("schemas")
ROOT_INIT = '"""Generated packages, one per game (and per shipped pack). Never edited by hand."""\n'


def package_name(game: Game) -> str:
    """generated/<game>/ for the base game, generated/<game>__<pack>/ with shipped packs."""
    extra = [p.id for p in game.packs[1:]]
    return "__".join([game.id, *extra]) if extra else game.id


def schema_files(games: list[Game]) -> dict[str, str]:
    """schemas/<game>/<kind>.schema.json, content.schema.json, and the two manifests."""
    out = {"game.schema.json": _json(schemas.GAME_SCHEMA),
           "pack.schema.json": _json(schemas.PACK_SCHEMA)}
    for game in games:
        kinds = game.vocab.kinds
        for kind, spec in sorted(kinds.items()):
            out[f"{game.id}/{kind}.schema.json"] = _json(schemas.entity_schema(kind, spec))
        out[f"{game.id}/content.schema.json"] = _json(schemas.content_file_schema(game.id, kinds))
    from compiler import editor_schemas  # standalone files a game accepts (mission files)
    out.update({name: _json(schema) for name, schema in editor_schemas.standalone(games).items()})
    return out


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def outputs(games: list[Game]) -> dict[Path, dict[str, str]]:
    """Every output directory and the files it must hold."""
    result: dict[Path, dict[str, str]] = {GENERATED: {"__init__.py": ROOT_INIT}}
    for game in games:
        result[GENERATED / package_name(game)] = codegen.generate(game)
    result[SCHEMAS] = schema_files(games)
    return result


def stale(expected: dict[Path, dict[str, str]], root: Path | None = None) -> list[str]:
    """Files that differ from what a build would write (missing, changed or extra)."""
    root = root or pipeline.project_root()
    problems = []
    for directory, files in sorted(expected.items()):
        base = root / directory
        nested = directory == GENERATED
        for name, text in sorted(files.items()):
            path = base / name
            if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
                problems.append(str(directory / name))
        if base.is_dir():
            present = _present(base, directory, nested, expected)
            problems.extend(str(directory / p) for p in sorted(present - set(files)))
    return problems


def _present(base: Path, directory: Path, top_only: bool, expected) -> set[str]:
    found = set()
    for path in base.rglob("*"):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        rel = path.relative_to(base).as_posix()
        if top_only:
            if "/" in rel:  # package directories are checked as their own outputs
                package = directory / rel.split("/")[0]
                if package not in expected:
                    found.add(rel)
                continue
        found.add(rel)
    return found


def write(expected: dict[Path, dict[str, str]], root: Path | None = None) -> None:
    """Stage every output directory in full, then swap them in; stale packages are removed.

    Nothing in place is touched until every file is staged, so a failed write (disk full,
    an error, an interrupt) leaves the previous outputs as they were.
    """
    root = root or pipeline.project_root()
    generated = root / GENERATED
    generated.mkdir(exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for directory, files in sorted(expected.items()):
            if directory != GENERATED:
                staged.append((root / directory, _stage(root / directory, files)))
    except BaseException:
        for _, staging in staged:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    for target, staging in staged:
        _swap(target, staging)
    keep = {d.name for d in expected if d.parent == GENERATED}
    for child in sorted(generated.iterdir()):
        if child.is_dir() and child.name not in keep and child.name != "__pycache__":
            shutil.rmtree(child)
        elif child.is_file() and child.name not in expected[GENERATED]:
            child.unlink()  # a stray file: `build --check` would call it stale forever
    for name, text in expected[GENERATED].items():
        _atomic_file(generated / name, text)


def _stage(target: Path, files: dict[str, str]) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, text in files.items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _swap(target: Path, staging: Path) -> None:
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        if old.exists():
            shutil.rmtree(old)
        os.replace(target, old)
    os.replace(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _atomic_file(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
