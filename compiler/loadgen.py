"""Get a game's GameData for the runtime, always from the current content.

Without packs the committed generated/<game>/ is imported when it was built from exactly the
content there is now (its GAME.input_hash equals the hash of the source files). Otherwise (the
content changed since `tomecraft build`, or packs from anywhere) the game is compiled in memory
and its generated source imported from a cache folder keyed by that hash and by the compiler's
own code, so a repeated run costs one hash of the sources and no compile. Nothing is written
into the repository, and old compiled code is never played silently.
"""
from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from tomecraft.compiler import codegen, diagnostics as dg, names, packs as packs_mod, pipeline
from tomecraft.compiler.console import progress


_NOTED: set[Path] = set()       # games whose "changed since build" note was printed


def game_data(game: str, packs: list[Path], reporter: dg.Reporter):
    root = pipeline.content_root() / str(game)
    if not names.is_identifier(game) or not (root / "game.yaml").is_file():
        reporter.add(dg.USAGE, f"unknown game {game!r}", str(root), 1, 1,
                     "games: " + ", ".join(p.name for p in pipeline.game_roots()))
        return None
    if any(not (Path(p) / "pack.yaml").is_file() for p in packs):
        # not a pack (--pack /): say so before the hash walks the whole folder
        pipeline.compile_game(root, packs, reporter)
        return None
    packs = packs_mod.load_order(root, packs)   # with the shipped packs they require: hashed too
    digest = source_hash(root, packs)
    if not packs:
        committed = _committed(game)
        if committed is not None and committed.input_hash == digest:
            return committed
        if committed is not None and root not in _NOTED:
            _NOTED.add(root)       # once per run, not once per scenario file
            progress(f"note: {packs_mod.display_path(root)} changed since `tomecraft build`; "
                     "playing the current content, compiled in memory")
    return compile_and_import(root, packs, reporter, digest)


def _committed(game: str):
    try:
        return importlib.import_module(f"tomecraft.generated.{game}").GAME
    except ImportError:
        return None  # not built yet: compiled from source instead


def source_files(root: Path, packs: list[Path]) -> list[Path]:
    """The files a compile of this game reads, as pipeline.compile_game finds them."""
    scratch = dg.Reporter()  # escapes from a pack are reported by the compile itself
    files = [root / "game.yaml", *packs_mod.content_files(root, scratch)]
    for pack in packs:
        files += [pack / "pack.yaml", *packs_mod.content_files(pack, scratch)]
    return files


def source_hash(root: Path, packs: list[Path]) -> str:
    """codegen.input_hash of the game these files compile to, without compiling them: the
    packs' YAML files and the compiler's own source (compiler/fingerprint.py)."""
    from tomecraft.compiler import fingerprint
    return fingerprint.roots_hash([root, *packs])


def compiler_hash() -> str:
    """The compiler's own code: a cached package is valid only for the compiler that wrote it."""
    from tomecraft.compiler import fingerprint
    return fingerprint.compiler_digest()[:16]


def compile_and_import(root: Path, packs: list[Path], reporter: dg.Reporter,
                       digest: str | None = None):
    digest = digest or source_hash(root, packs)
    # The generated code names each effect's file as the user sees it (a pack from elsewhere
    # by its path), so where the packs are is part of the key, not only what they hold.
    where = "\0".join(str(Path(p).resolve()) for p in [root, *packs])
    key = hashlib.sha256((digest + compiler_hash() + where).encode()).hexdigest()[:20]
    name = f"tomecraft_game_{root.name}_{key}"
    if name in sys.modules:
        return sys.modules[name].GAME
    cache = _cache_dir()
    if (cache / name / "__init__.py").is_file():
        _touch(cache / name)
    else:
        game = pipeline.compile_game(root, packs, reporter)
        if game is None or reporter.errors:
            return None
        _store(cache, name, codegen.generate(game))
        _prune(cache, keep={name})
    return _import_package(cache / name).GAME


def _import_package(folder: Path):
    """Import the package in `folder` by its path. Not through sys.path: a finder on the
    cache folder lists all of it, again after every new entry (milliseconds each with a few
    hundred packages there)."""
    name = folder.name
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _store(cache: Path, name: str, files: dict[str, str]) -> None:
    """Write the package to a private folder, then rename it into place: a reader never sees
    a half-written package, and two runs compiling the same content at once both succeed."""
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=cache))
    for filename, text in files.items():
        (staging / filename).write_text(text, encoding="utf-8")
    try:
        os.replace(staging, cache / name)
    except OSError:  # another run stored it first
        shutil.rmtree(staging, ignore_errors=True)


CACHE_KEEP = 128        # compiled packages kept: the most recently used (a few MB)
PRUNE_TOLD = 100        # removing more is said on stderr
STAGING_AGE = 3600.0    # seconds after which a half-written package is a crashed run's


def _touch(folder: Path) -> None:
    try:
        os.utime(folder)       # recently used: the last to be pruned
    except OSError:
        pass


def _prune(cache: Path, keep: set[str]) -> None:
    """Remove all but the CACHE_KEEP most recently used packages, and staging folders a
    crashed run left: every pack folder and every edit makes a new entry, and unpruned the
    cache grew by gigabytes."""
    now = time.time()
    packages, stale = [], []
    try:
        with os.scandir(cache) as entries:
            for entry in entries:
                try:
                    used = entry.stat(follow_symlinks=False).st_mtime
                except OSError:
                    continue
                if entry.name.startswith("tomecraft_game_") and entry.name not in keep:
                    packages.append((used, entry.name))
                elif entry.name.startswith(".tomecraft_game_") and now - used > STAGING_AGE:
                    stale.append(entry.name)
    except OSError:
        return
    packages.sort(reverse=True)
    unused = stale + [name for _, name in packages[CACHE_KEEP - len(keep):]]
    if len(unused) > PRUNE_TOLD:       # a cache an older tomecraft let grow: seconds of work
        progress(f"removing {len(unused)} compiled games unused longest from {cache}")
    for name in unused:
        shutil.rmtree(cache / name, ignore_errors=True)


def _cache_dir() -> Path:
    """The user's cache (dsl.parser.user_cache_folder), else a folder removed at exit."""
    from tomecraft.dsl.parser import user_cache_folder  # imports Lark: only when needed
    base = user_cache_folder()
    if base is None:
        return _private_dir()
    path = Path(base) / "compiled"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(dir=path))  # writable?
    except OSError:
        return _private_dir()
    from tomecraft.dsl.parser import private_folder
    return path if private_folder(str(path)) else _private_dir()   # its packages run as code


@lru_cache(maxsize=1)
def _private_dir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="tomecraft-"))
    atexit.register(shutil.rmtree, path, True)
    return path
