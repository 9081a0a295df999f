"""Input hashes: what a generated package was built from, so unchanged ones are not rebuilt.

A package's hash covers its packs' YAML files and the compiler's own source (compiler/ and
dsl/, templates included, and the engines' handlers.py it inlines from): equal hashes mean
equal output. This module stays import-light (hashlib is imported where hashing happens): a
build with nothing to do imports it and little else, before the rest of the command line.
"""
from __future__ import annotations

import fcntl
import json
import os
from functools import lru_cache
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parents[1]
_SOURCE_DIRS = ("compiler", "dsl")
LOCK = ".tomecraft-build.lock"   # held by a build (exclusive) or build --check (shared)


def project_root() -> Path:
    """The tomecraft project to work on: the working directory or the nearest parent with
    games in content/ (content/<game>/game.yaml), else the one tomecraft is installed from,
    so `tomecraft check ~/my_mission.yaml` works from any folder."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if any((folder / "content").glob("*/game.yaml")):
            return folder
    return installed_root()


def installed_root() -> Path:
    """Where this tomecraft's own content/ and schemas/ are: the checkout it runs from, or, in
    an installed wheel, the `tomecraft` package (they ship as its data)."""
    return _SOURCE_ROOT


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
    import hashlib
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(_SOURCE_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


# Bounds on what the hash walks, above the loader's own (compiler/packs.py: 16 levels, 2,000
# files; compiler/loader.py: 2 MiB a file): a pack beyond them is refused by its compile, so
# its hash need not see everything, but must not exhaust the stack (os.walk recurses once per
# level), the memory or the clock first.
_MAX_DEPTH = 32
_MAX_FILES = 20_000
_MAX_READ = 8 * 1024 * 1024


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
        if len(here.relative_to(root).parts) >= _MAX_DEPTH or len(files) > _MAX_FILES:
            dirnames[:] = []
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                path = here / name
                try:
                    inside = path.resolve().is_relative_to(resolved) and path.resolve().is_file()
                except (OSError, RuntimeError):  # a symlink loop: the loader reports the link
                    inside = False
                files.append((path.relative_to(root).as_posix(), path if inside else None))
    return files


def roots_hash(roots: list[Path]) -> str:
    """The input hash of a package built from these packs (base first): its content files
    and the compiler's own source. Equal hashes mean equal output."""
    import hashlib
    digest = hashlib.sha256(compiler_digest().encode())
    for i, root in enumerate(roots):
        for name, path in _input_files(Path(root), base=i == 0):
            digest.update(f"{i}/{name}\0".encode())
            digest.update(_file_token(Path(root) / name, path) + b"\0")
    return digest.hexdigest()


def _file_token(where: Path, path: Path | None) -> bytes:
    """A file's bytes; for what is not ours to read, only what the directory entry says."""
    try:
        if path is not None and path.stat().st_size > _MAX_READ:   # refused when loaded
            return f"size:{path.stat().st_size}:{path.stat().st_mtime_ns}".encode()
        if path is not None:
            return path.read_bytes()
        return b"link:" + os.readlink(where).encode("utf-8", "replace")
    except OSError as err:  # unreadable: the build's loader reports it
        return f"unreadable:{err.errno}".encode()


# --- the no-op shortcut ------------------------------------------------------------------------
# A build that finds nothing to do records what every input and output looked like (size,
# times, inode of each file and folder: a folder's times change when an entry is added,
# removed or renamed). The next `tomecraft build` compares that record with the disk and stops
# at once when nothing moved, without hashing or importing the compiler; anything different,
# or no record, and the build runs as usual (hashing, then compiling what changed).

STAMP = ".tomecraft-build.stat"
_BUILD_STATE = (".tomecraft-build",)          # an interrupted build's staging: never fresh
_LEFTOVER_PREFIXES = (".generated.", ".schemas.")
_RACY_NS = 100_000_000  # files changed this close to a build's start may have been read older


def _stat_token(path: str) -> list[int]:
    info = os.lstat(path)
    return [info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def _tree(folder: str, out: dict[str, list[int]]) -> None:
    """Every file and folder under `folder` (the folder too), by path; __pycache__ left out."""
    try:
        out[folder] = _stat_token(folder)
    except OSError:
        out[folder] = []
        return
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in dirnames + sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                out[path] = _stat_token(path)
            except OSError:
                out[path] = []


def snapshot(root: Path, content: Path) -> dict[str, dict[str, list[int]]]:
    """What the inputs (content, compiler source) and outputs (generated/, schemas/) look like."""
    inputs: dict[str, list[int]] = {}
    _tree(str(content), inputs)
    for path in source_files():
        inputs[str(path)] = _stat_token(str(path))
    outputs: dict[str, list[int]] = {}
    for name in ("generated", "schemas"):
        _tree(str(root / name), outputs)
    return {"inputs": inputs, "outputs": outputs}


def record(root: Path, content: Path, started_ns: int) -> None:
    """Write the stamp after a build whose outputs are fresh. Not when an input changed while
    (or just before) the build read it: its record could describe bytes the build never saw."""
    state = snapshot(root, content)
    racy = started_ns - _RACY_NS
    stamp = root / STAMP
    if any(token and max(token[2], token[3]) >= racy for token in state["inputs"].values()):
        forget(root)
        return
    tmp = root / (STAMP + ".tmp")
    try:
        tmp.write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        os.replace(tmp, stamp)
    except OSError:  # a read-only checkout: no shortcut, builds still work
        forget(root)


def forget(root: Path) -> None:
    try:
        os.unlink(root / STAMP)
    except OSError:
        pass


def unchanged(root: Path, content: Path) -> bool:
    """True when the stamp describes the disk exactly and no interrupted build is pending."""
    try:
        recorded = json.loads((root / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if any(os.path.lexists(root / name) for name in _BUILD_STATE):
        return False
    try:
        if any(name.startswith(_LEFTOVER_PREFIXES) for name in os.listdir(root)):
            return False
    except OSError:
        return False
    return recorded == snapshot(root, content)


def no_op_packages(root: Path, content: Path) -> int | None:
    """The number of generated packages when a build in `root` has nothing to do (the stamp
    matches and no build holds the lock), else None."""
    try:
        with open(root / LOCK, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            if not unchanged(root, content):
                return None
            generated = root / "generated"
            return sum(1 for name in os.listdir(generated)
                       if (generated / name / "__init__.py").is_file())
    except OSError:
        return None
