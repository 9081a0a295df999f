"""Write generated/ and schemas/ incrementally and atomically, or check that they are fresh.

Incremental: every package (generated/<game>/, generated/<game>__<pack>/) carries its input
hash in each file's header: a hash of its content files and of the compiler's own source
(fingerprint.roots_hash). A build hashes the inputs first and compiles only the packages whose
hash is not in generated/ yet, so a build with nothing changed reads a few headers and stops,
and a changed pack rebuilds its own package only. schemas/.input-hash does the same for
schemas/.

Atomic: the new outputs are staged in full under .tomecraft-build/new/, then a journal listing
every move (old output aside, new output in) is written, then the moves are made. A build
killed before the journal exists leaves the old outputs untouched (the next build deletes the
staging); one killed after it has the next build finish the moves first. Either way
generated/ never stays a mix of old and new packages. .tomecraft-build.lock serialises
builds: a second one waits, then finds the first one's output fresh. Files and folders are
created with the ordinary modes, so the umask decides.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tomecraft.compiler import fingerprint, parallel, pipeline

if TYPE_CHECKING:
    from tomecraft.compiler.model import Game

GENERATED = Path("generated")
SCHEMAS = Path("schemas")
MANIFEST = "manifest.json"       # generated/manifest.json: input and file hashes per output
STATE = Path(".tomecraft-build")  # staging (new/), set-aside outputs (old/), journal.json
LOCK = Path(fingerprint.LOCK)
ROOT_INIT = '"""Generated packages, one per game (and per shipped pack). Never edited by hand."""\n'
_HASH_MARK = "Input hash: "


def package_name(game: Game) -> str:
    """generated/<game>/ for the base game, generated/<game>__<pack>/ with shipped packs."""
    extra = [p.id for p in game.packs[1:]]
    return "__".join([game.id, *extra]) if extra else game.id


# --- what to build -------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """One package to build: a base game and the shipped pack on top of it (if any)."""
    base: Path
    packs: tuple[Path, ...]
    digest: str


def targets(content: Path | None = None) -> list[Target]:
    """Every package of the content: each base game, then each shipped pack on top of it."""
    out = []
    for root in pipeline.game_roots(content):
        for packs in [()] + [(p,) for p in pipeline.in_repo_packs(root)]:
            out.append(Target(root, packs, fingerprint.roots_hash([root, *packs])))
    return out


def schemas_digest(plan: list[Target]) -> str:
    """schemas/ follows the base games' kinds (packs cannot add kinds), so its hash covers
    the base packages' hashes."""
    bases = sorted(t.digest for t in plan if not t.packs)
    return hashlib.sha256("\n".join(bases).encode()).hexdigest()


def manifest(expected: dict[Path, dict[str, str]], inputs: dict[Path, str],
             previous: dict | None = None) -> str:
    """generated/manifest.json: each output directory's input hash and its files' hashes.

    `previous` supplies the entries of the directories this build keeps as they are."""
    entries = dict((previous or {}).get("outputs", {}))
    for directory, files in expected.items():
        if directory != GENERATED:
            entries[directory.as_posix()] = {
                "input": inputs[directory],
                "files": {name: _sha(text.encode("utf-8")) for name, text in sorted(files.items())}}
    return json.dumps({"outputs": dict(sorted(entries.items()))}, indent=1, sort_keys=True) + "\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(root: Path) -> dict:
    try:
        data = json.loads((root / GENERATED / MANIFEST).read_text(encoding="utf-8"))
        return data if isinstance(data.get("outputs"), dict) else {"outputs": {}}
    except (OSError, ValueError, AttributeError):
        return {"outputs": {}}


def fresh_outputs(root: Path, recorded: dict) -> dict[str, str]:
    """{input hash: directory} of the recorded outputs still exactly as the build wrote them
    (same files, same bytes, nothing added)."""
    fresh = {}
    for directory, entry in recorded.get("outputs", {}).items():
        try:
            files, digest = dict(entry["files"]), str(entry["input"])
        except (KeyError, TypeError, ValueError):
            continue
        base = root / directory
        if not base.is_dir() or _listing(base) != set(files):
            continue
        if all(_sha((base / name).read_bytes()) == sha for name, sha in files.items()):
            fresh[digest] = directory
    return fresh


def _listing(base: Path) -> set[str]:
    return {p.relative_to(base).as_posix() for p in base.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


# --- outputs -------------------------------------------------------------------------------

def _common_schema_files() -> dict[str, str]:
    from tomecraft.compiler import schemas
    return {"game.schema.json": _json(schemas.GAME_SCHEMA),
            "pack.schema.json": _json(schemas.PACK_SCHEMA)}


def game_schema_files(game: Game) -> dict[str, str]:
    """One base game's files under schemas/: its kinds, its content files and the standalone
    files it accepts (mission files)."""
    from tomecraft.compiler import editor_schemas, schemas
    kinds = game.vocab.kinds
    out = {f"{game.id}/{kind}.schema.json": _json(schemas.entity_schema(kind, spec))
           for kind, spec in sorted(kinds.items())}
    out[f"{game.id}/content.schema.json"] = _json(schemas.content_file_schema(game.id, kinds))
    out.update({name: _json(schema) for name, schema in editor_schemas.standalone([game]).items()})
    return out


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


@dataclass
class Package:
    """A compiled package, rendered: its files under generated/ and, for a base game, its
    files under schemas/ (a build may need them even when the package itself is fresh)."""
    directory: Path
    digest: str
    files: dict[str, str]
    schemas: dict[str, str]


def render(game: Game, digest: str, with_schemas: bool) -> Package:
    """The package's files, and its schema files if it is a base game and `with_schemas`."""
    from tomecraft.compiler import codegen  # only a build that writes needs jinja2 and the compiler
    base = len(game.packs) == 1
    return Package(GENERATED / package_name(game), digest, codegen.generate(game, digest),
                   game_schema_files(game) if base and with_schemas else {})


def outputs(packages: list[Package], stamp: str | None,
            previous: dict | None = None) -> dict[Path, dict[str, str]]:
    """Every output directory to write and its files.

    With `stamp` (the schemas' input hash), schemas/ is among them (the packages then include
    every base game); `previous` is the manifest whose entries for the directories not written
    here stay."""
    result: dict[Path, dict[str, str]] = {GENERATED: {"__init__.py": ROOT_INIT}}
    inputs: dict[Path, str] = {}
    for package in packages:
        result[package.directory] = package.files
        inputs[package.directory] = package.digest
    if stamp is not None:
        result[SCHEMAS] = _common_schema_files()
        for package in packages:
            result[SCHEMAS].update(package.schemas)
        result[SCHEMAS] = dict(sorted(result[SCHEMAS].items()))
        inputs[SCHEMAS] = stamp
    result[GENERATED][MANIFEST] = manifest(result, inputs, previous)
    return result


def stale(expected: dict[Path, dict[str, str]], root: Path | None = None) -> list[str]:
    """Files that differ from what a build would write (missing, changed or extra), and
    what an interrupted build left behind."""
    root = root or pipeline.project_root()
    problems = leftovers(root)
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


def leftovers(root: Path) -> list[str]:
    """Staging or set-aside folders of an interrupted build (today's and older builds')."""
    found = [str(STATE)] if (root / STATE).exists() else []
    for folder, prefixes in ((root, (".generated.", ".schemas.")), (root / GENERATED, (".",))):
        if folder.is_dir():
            found += sorted(str(p.relative_to(root)) for p in folder.iterdir()
                            if p.name.startswith(prefixes) and p.is_dir())
    return found


def _present(base: Path, directory: Path, top_only: bool, expected) -> set[str]:
    found = set()
    for path in base.rglob("*"):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        rel = path.relative_to(base).as_posix()
        if top_only:
            if "/" in rel:  # package directories are checked as their own outputs
                package = directory / rel.split("/")[0]
                if package not in expected and not rel.startswith("."):
                    found.add(rel)
                continue
        found.add(rel)
    return found


# --- the lock ------------------------------------------------------------------------------

@contextmanager
def locked(root: Path, shared: bool = False, progress=None):
    """Hold .tomecraft-build.lock: exclusive for a build, shared for `build --check`.

    A `--check` in a folder it cannot write (a read-only checkout) runs without the lock."""
    try:
        handle = open(root / LOCK, "a", encoding="utf-8")
    except OSError:
        if not shared:
            raise
        yield
        return
    with handle:
        mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        try:
            fcntl.flock(handle, mode | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            if progress:
                progress("waiting for another tomecraft build to finish")
            fcntl.flock(handle, mode)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# --- writing -------------------------------------------------------------------------------

def write(expected: dict[Path, dict[str, str]], root: Path | None = None,
          remove: tuple[str, ...] = ()) -> None:
    """Stage every output in full, then move it in under a journal.

    `expected` holds the directories to replace (generated/ itself: its top-level files);
    `remove` names entries of generated/ to delete. Call it holding the lock.
    """
    root = root or pipeline.project_root()
    recover(root)
    state = root / STATE
    new, old = state / "new", state / "old"
    moves: list[tuple[str | None, str, str | None]] = []
    try:
        for directory, files in sorted(expected.items()):
            if directory == GENERATED:
                for name, text in sorted(files.items()):
                    staged = new / "generated-files" / name
                    _write_files(staged.parent, {name: text})
                    moves.append((_rel(root, staged), str(directory / name), None))
                continue
            _write_files(new / directory, files)
            moves.append((_rel(root, new / directory), str(directory), _rel(root, old / directory)))
        for name in remove:
            moves.append((None, str(GENERATED / name), _rel(root, old / GENERATED / name)))
        _write_journal(state, moves)
    except BaseException:
        shutil.rmtree(state, ignore_errors=True)
        raise
    _apply(root, moves)
    _finish(state)


def recover(root: Path) -> None:
    """Finish an interrupted build's moves (its journal exists) or drop its staging."""
    state = root / STATE
    journal = state / "journal.json"
    if journal.is_file():
        moves = [tuple(m) for m in json.loads(journal.read_text(encoding="utf-8"))["moves"]]
        _apply(root, moves)
    if state.exists():
        _finish(state)
    for stray in leftovers(root):  # older builds' staging folders
        shutil.rmtree(root / stray, ignore_errors=True)


def _write_files(directory: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def _write_journal(state: Path, moves: list) -> None:
    tmp = state / "journal.json.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump({"moves": moves}, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, state / "journal.json")  # from here on, the build completes


def _apply(root: Path, moves) -> None:
    """Make each move; safe to repeat after an interruption at any point."""
    for staged, target, aside in moves:
        target_path = root / target
        if aside is not None and os.path.lexists(target_path) and not os.path.lexists(root / aside):
            (root / aside).parent.mkdir(parents=True, exist_ok=True)
            os.replace(target_path, root / aside)
        if staged is not None and os.path.lexists(root / staged):
            target_path.parent.mkdir(parents=True, exist_ok=True)
            if target_path.is_dir() and not target_path.is_symlink():
                shutil.rmtree(target_path)  # a package left by an older, non-journalled build
            os.replace(root / staged, target_path)


def _finish(state: Path) -> None:
    journal = state / "journal.json"
    if journal.exists():
        journal.unlink()  # the moves are done: what is left is only to delete
    shutil.rmtree(state, ignore_errors=True)


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


# --- the command ---------------------------------------------------------------------------

def up_to_date(progress) -> bool:
    """The no-op shortcut: nothing changed since a build recorded its stamp (and no build is
    running: it holds the lock). Reports like a full no-op build."""
    packages = fingerprint.no_op_packages(pipeline.project_root(), pipeline.content_root())
    if packages is None:
        return False
    progress(f"generated/ is up to date ({packages} packages)")
    return True


def run(check: bool, reporter, progress, compile_all, workers: int = 1) -> int:
    """`tomecraft build [--check]`. compile_all(targets, extra, reporter) compiles games;
    `workers` processes compile the base games side by side."""
    from tomecraft.compiler import diagnostics as dg
    root = pipeline.project_root()
    started = time.time_ns()
    with locked(root, shared=check, progress=progress):
        plan = targets()
        stamp = schemas_digest(plan)
        if check:
            return _check(root, plan, stamp, reporter, progress, compile_all, workers)
        recover(root)
        previous = read_manifest(root)
        fresh = fresh_outputs(root, previous)
        todo = [t for t in plan if t.digest not in fresh]
        schemas_fresh = fresh.get(stamp) == SCHEMAS.as_posix()
        kept = {fresh[t.digest] for t in plan if t.digest in fresh}
        strays = _strays(root, kept)
        if not todo and schemas_fresh and not strays \
                and _read(root / GENERATED / "__init__.py") == ROOT_INIT:
            fingerprint.record(root, pipeline.content_root(), started)
            progress(f"generated/ is up to date ({len(plan)} packages)")
            return 0
        if not schemas_fresh:  # schemas/ is written from every base game's kinds
            todo = [t for t in plan if t in todo or not t.packs]
        packages = _compile(todo, reporter, compile_all, workers, not schemas_fresh)
        if packages is None:
            print(dg.format_text(reporter))
            progress("build stopped: fix the errors above; generated/ was left as it was")
            return 1
        kept_entries = {d: e for d, e in previous["outputs"].items()
                        if d in kept and d != SCHEMAS.as_posix()}
        if schemas_fresh:
            kept_entries[SCHEMAS.as_posix()] = previous["outputs"][SCHEMAS.as_posix()]
        expected = outputs(packages, None if schemas_fresh else stamp, {"outputs": kept_entries})
        written = {d.name for d in expected if d.parent == GENERATED}
        write(expected, root, tuple(sorted(n for n in strays if n not in written)))
        fingerprint.record(root, pipeline.content_root(), started)
        count = sum(len(files) for files in expected.values())
        progress(f"wrote {count} files for {len(packages)} of {len(plan)} packages")
        if reporter.warnings:
            print(dg.format_text(reporter))
        return 0


def _check(root: Path, plan, stamp, reporter, progress, compile_all, workers: int) -> int:
    from tomecraft.compiler import diagnostics as dg
    packages = _compile(plan, reporter, compile_all, workers, True)
    if packages is None:
        print(dg.format_text(reporter))
        return 1
    problems = stale(outputs(packages, stamp), root)
    for name in problems:
        reporter.add(dg.STALE, f"{name} is stale", name, 1, 1, "run `tomecraft build`")
    if problems:
        print(dg.format_text(reporter))
        return 1
    progress(f"generated/ is fresh ({len(packages)} packages)")
    return 0


def _strays(root: Path, kept: set[str]) -> list[str]:
    """Entries of generated/ a build would not leave there: not a kept package, not ours."""
    generated = root / GENERATED
    if not generated.is_dir():
        return []
    ours = {"__init__.py", MANIFEST, "__pycache__"}
    return sorted(p.name for p in generated.iterdir()
                  if p.name not in ours and (GENERATED / p.name).as_posix() not in kept)


def _compile(plan: list[Target], reporter, compile_all, workers: int,
             with_schemas: bool) -> list[Package] | None:
    """Compile and render the packages of `plan`, with their schema files when `with_schemas`
    (None if any has an error). A base game and its packs are compiled in one run, so each
    file is loaded once and each distinct effect string parsed once however many packages
    share them; with `workers` > 1 the base games
    are compiled side by side in forked processes. Packages and diagnostics come back in plan
    order: the outcome is the same for every number of workers."""
    groups = list(dict.fromkeys(t.base for t in plan))
    by_base = {base: [t for t in plan if t.base == base] for base in groups}
    if workers > 1 and len(groups) > 1:
        pipeline.prepare_stages()   # loaded once, before the fork, not once per worker
    results = parallel.run(lambda base: _compile_group(by_base[base], compile_all, with_schemas),
                           groups, workers, cost=_content_bytes)
    packages = []
    for rendered, found in results:
        reporter.merge(found)
        packages.extend(rendered)
    return packages if not reporter.errors and len(packages) == len(plan) else None


def _compile_group(plan: list[Target], compile_all,
                   with_schemas: bool) -> tuple[list[Package], object]:
    from tomecraft.compiler import diagnostics as dg
    reporter = dg.Reporter()
    games = compile_all([(t.base, list(t.packs)) for t in plan], [], reporter)
    if reporter.errors or len(games) != len(plan):
        return [], reporter
    return [render(game, target.digest, with_schemas)
            for game, target in zip(games, plan)], reporter


def _content_bytes(base: Path) -> int:
    """What a base game's group costs to compile, roughly: the size of its YAML."""
    return sum(p.stat().st_size for p in base.rglob("*.yaml") if p.is_file())


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None

