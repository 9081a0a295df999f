"""Input hashes: what a generated package was built from, so unchanged ones are not rebuilt.

A package's hash covers its packs' YAML files and the compiler's own source (compiler/ and
dsl/, templates included, and the engines' handlers.py it inlines from): equal hashes mean
equal output. This module stays import-light,
since a build with nothing to do imports little else.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parents[1]
_SOURCE_DIRS = ("compiler", "dsl")


def source_files() -> list[Path]:
    """The compiler's own source: every file under compiler/ and dsl/ (templates, grammar),
    and the engines' handlers.py, whose pure handlers the compiler copies into effects
    (compiler/inline.py)."""
    return [path for directory in _SOURCE_DIRS
            for path in sorted((_SOURCE_ROOT / directory).rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts] + \
        sorted((_SOURCE_ROOT / "runtime" / "engines").glob("*/handlers.py"))


@lru_cache(maxsize=None)
def compiler_digest() -> str:
    """SHA-256 of the compiler's own source: a change to any of it changes every input hash."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(_SOURCE_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _input_files(root: Path, base: bool) -> list[tuple[str, Path | None]]:
    """(name relative to the pack, path to read or None) of every YAML file of a pack.

    Conservative: every *.yaml of the pack counts (a base game's missions and scenarios
    too), except the base game's packs/, which are packages of their own. A symlink that
    leads outside the pack is never read: its target's name stands for it.
    """
    resolved = root.resolve()
    files = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        if base and here == root:
            dirnames[:] = [d for d in dirnames if d != "packs"]
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                path = here / name
                inside = path.resolve().is_relative_to(resolved) and path.resolve().is_file()
                files.append((path.relative_to(root).as_posix(), path if inside else None))
    return files


def roots_hash(roots: list[Path]) -> str:
    """The input hash of a package built from these packs (base first): its content files
    and the compiler's own source. Equal hashes mean equal output."""
    digest = hashlib.sha256(compiler_digest().encode())
    for i, root in enumerate(roots):
        for name, path in _input_files(Path(root), base=i == 0):
            digest.update(f"{i}/{name}\0".encode())
            digest.update(_file_token(Path(root) / name, path) + b"\0")
    return digest.hexdigest()


def _file_token(where: Path, path: Path | None) -> bytes:
    """A file's bytes; for what is not ours to read, only what the directory entry says."""
    try:
        if path is not None:
            return path.read_bytes()
        return b"link:" + os.readlink(where).encode("utf-8", "replace")
    except OSError as err:  # unreadable: the build's loader reports it
        return f"unreadable:{err.errno}".encode()
