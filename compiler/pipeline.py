"""Run the compiler's stages in order, timing each: load, schema, parse, checks."""
from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.console import UsageError
from tomecraft.compiler.fingerprint import installed_root, project_root  # noqa: F401 (their home)

if TYPE_CHECKING:
    from tomecraft.compiler.model import Game

CONTENT: Path | None = None     # content/ when set (tests); else found by content_root()


def content_root() -> Path:
    return CONTENT if CONTENT is not None else project_root() / "content"


# What each stage did, for a person waiting on a big pack
STAGE_WORDS = {"load": "read the YAML files", "schema": "checked the fields against the schema",
               "parse": "parsed the effects", "checks": "checked names, references and rules"}
SLOW_STAGE = 2.0     # seconds: a stage taking longer is told as it ends


@dataclass
class Timings:
    stages: dict[str, float] = field(default_factory=dict)
    # called with a line after a stage slower than SLOW_STAGE (a 50,000-card pack's check
    # takes ten seconds or more, its load half of it: the user sees it move)
    tell: Callable[[str], None] | None = None

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            took = time.perf_counter() - start
            self.stages[name] = self.stages.get(name, 0.0) + took
            if self.tell is not None and took > SLOW_STAGE:
                self.tell(f"  {STAGE_WORDS.get(name, name)} in {took:.1f} s")


def compile_game(base_root: Path, extra: list[Path], reporter: dg.Reporter,
                 timings: Timings | None = None) -> Game | None:
    """Load a game's packs and run every check. Returns the Game (None if unreadable)."""
    timings = timings or Timings()
    try:
        return _run_stages(base_root, extra, reporter, timings)
    finally:
        gc.unfreeze()  # what the load set aside is the collector's again


@contextmanager
def _loading():
    """The load runs with the collector off: the loaded data holds no cycles, and the
    collector would only walk it over and over while it grows (a third of the load time).
    Afterwards it is frozen (set aside from the collections that the later stages, which do
    make cyclic garbage, still need) until compile_game ends."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.freeze()
            gc.enable()


def prepare_stages() -> None:
    """Load what every compile needs (the stages' modules, the effect parser, the code
    templates) now: build workers forked afterwards share it instead of each loading it."""
    from tomecraft.compiler import checks, codegen, contract, game_checks, packs  # noqa: F401
    from tomecraft.dsl import parser
    parser.prepare()
    codegen.prepare()


def _run_stages(base_root: Path, extra: list[Path], reporter: dg.Reporter,
                timings: Timings) -> Game | None:
    # The stages are imported here, not at the top: the CLI imports this module for
    # `--help` and `explain`, which must not pay for jsonschema, lark and jinja2.
    from tomecraft.compiler import checks, contract, game_checks, packs
    with timings.stage("load"), _loading():
        game = packs.load_game(base_root, extra, reporter)
    if game is None:
        return None
    with timings.stage("schema"):
        packs.validate_entities(game, reporter)
    with timings.stage("parse"):
        checks.parse_effects(game, reporter)
    with timings.stage("checks"):
        checks.check_names(game, reporter)
        checks.check_bounds(game, reporter)
        checks.check_numbers(game, reporter)
        checks.check_refs(game, reporter)
        checks.check_provenance(game, reporter)
        checks.check_texts(game, reporter)
        checks.check_keyword_texts(game, reporter)
        checks.check_part_ids(game, reporter)
        game_checks.run(game, reporter)
        contract.check(game, reporter)
    return game


def game_root(game: str) -> Path:
    """content/<game>/ of a known game, else a usage error naming the games there are."""
    from tomecraft.compiler import names
    known = ", ".join(p.name for p in game_roots()) or "none"
    if not names.is_identifier(game):   # an id, never a path (`../x`, `/etc`)
        raise UsageError(f"{game!r} is not a game id (games: {known})")
    root = content_root() / game
    if (root / "game.yaml").exists() and not (root / "game.yaml").is_file():
        # a folder or a FIFO: "unknown game 'evil' (games: evil)" contradicted itself
        raise UsageError(f"{game}: {root / 'game.yaml'} is not a regular file; "
                         f"run `tomecraft check {root}`")
    if not (root / "game.yaml").is_file():
        raise UsageError(f"unknown game {game!r} (games: {known})")
    return root


def game_roots(content: Path | None = None) -> list[Path]:
    """Every base pack under content/: a directory holding game.yaml."""
    return sorted(p.parent for p in (content or content_root()).glob("*/game.yaml"))


def in_repo_packs(base_root: Path) -> list[Path]:
    """Expansion packs shipped with a game: content/<game>/packs/<pack>/pack.yaml."""
    return sorted(p.parent for p in (base_root / "packs").glob("*/pack.yaml"))


def shipped_packs(base_root: Path) -> dict[str, Path]:
    """The packs shipped with a game, by id (the folder's name under content/<game>/packs/):
    the one way a shipped pack is named, by `requires:` in a pack.yaml, by `--pack ID`, by a
    scenario's `packs:` and by the Python API's `packs=`."""
    return {p.name: p for p in in_repo_packs(base_root)}


def resolve_pack(given: str | Path, games: list[Path], relative_to: Path | None = None) -> Path:
    """The pack folder `given` names: a folder that exists (relative to the working directory,
    or to `relative_to`: a scenario file's folder) wins; else the id of a pack shipped with one
    of `games` (their content/<game>/ folders), as `requires:` names one. Anything else is a
    usage error (a file; a folder that is not there, with the packs `games` ship and the
    closest of them), never a diagnostic at a line and column of a file that does not exist."""
    from tomecraft.compiler import names
    if not str(given).strip():      # Path("") is ".", the working folder: never meant as a pack
        raise UsageError("an empty pack name: give a pack folder or the id of a shipped pack")
    path = Path(given) if relative_to is None else relative_to / given
    if path.is_dir():
        return path
    text = str(given)
    if path.exists():
        raise UsageError(f"{text} is a file, not a pack folder: give the folder that holds the "
                         "pack's pack.yaml")
    found = [shipped[text] for root in games
             if text in (shipped := shipped_packs(root))] if names.is_identifier(text) else []
    if len(found) == 1:
        return found[0]
    if found:   # one id shipped with two games, and the game not said (`check --pack ID`)
        raise UsageError(f"{text!r} is a pack shipped with several games ("
                         + ", ".join(p.parent.parent.name for p in found)
                         + "): give its folder, or a path that says which game it is for")
    raise UsageError(_no_such_pack(text, games))


def _no_such_pack(text: str, games: list[Path]) -> str:
    """Why `text` names no pack: the packs `games` ship (the closest first), or where a
    shipped pack a path into content/ meant is, or the game a shipped pack is really for."""
    from tomecraft.compiler.checks import did_you_mean
    from tomecraft.compiler.packs import shipped_folder
    which = games[0].name if len(games) == 1 else "any game"
    message = f"no pack folder {text}, and no pack of that id is shipped with {which}"
    ids = sorted({pack_id for root in games for pack_id in shipped_packs(root)})
    folder = shipped_folder(text)
    if folder is not None and folder.parent.name == "packs":
        game = folder.parent.parent
        if any(game.resolve() == root.resolve() for root in games):
            # `content/clank_catacombs/packs/tomb_party` from a folder with no content/
            return (f"{message.split(',')[0]} (`{folder.name}` is shipped with tomecraft: name "
                    f"it by its id, {folder.name}, or give its folder, {folder})")
        if folder.name not in ids:
            return f"{message}: {folder.name!r} is a pack for {game.name}, not {which}"
    close = did_you_mean(Path(text).name, ids)
    if len(games) == 1:
        listed = f"{which}'s shipped packs: {', '.join(ids)}" if ids else f"{which} ships no packs"
    else:
        listed = f"shipped packs: {', '.join(ids)}" if ids else "no game ships packs"
    return f"{message}" + (f"; {close}" if close else "") + f" ({listed})"


def resolve_packs(given, games: list[Path]) -> list[Path]:
    """`resolve_pack` of each of `given`, in order."""
    return [resolve_pack(one, games) for one in given]


# --- what a path given to `check` means ------------------------------------------------------

@dataclass
class Target:
    """One game to compile: its base pack, the packs loaded on top (in order), and, when a single
    file was named, that file: only its diagnostics are reported."""
    base: Path
    packs: list[Path] = field(default_factory=list)
    only: Path | None = None

    @property
    def label(self) -> str:
        # (resolved: a pack given as `.` or `..` has no name of its own), in the order the
        # packs load: `check B --pack A` with B requiring A says "+ A + B"
        from tomecraft.compiler import packs
        return self.base.resolve().name + "".join(
            f" + {p.resolve().name}" for p in packs.load_order(self.base, self.packs))


def with_shipped_packs(root: Path) -> list[Target]:
    """The base game alone, then once with each pack shipped with it."""
    return [Target(root)] + [Target(root, [pack]) for pack in in_repo_packs(root)]


def pack_target(pack: Path, reporter: dg.Reporter) -> Target | None:
    """The game a pack is for (from its pack.yaml), with the shipped packs it requires first."""
    from tomecraft.compiler import packs
    manifest = packs.read_manifest(pack, reporter)
    if manifest is None:
        return None
    doc, game = manifest
    root = content_root() / game
    if not (root / "game.yaml").is_file():
        mark = doc.mark(("game",))
        known = ", ".join(p.name for p in game_roots()) or "none"
        reporter.add(dg.NO_CONTENT, f"pack is for {game!r}, which is not a game tomecraft has",
                     packs.doc_display(doc), mark.line, mark.column, f"games: {known}")
        return None
    shipped = shipped_packs(root)
    requires = doc.data.get("requires")   # `requires: 1` is the schema's to report, not a loop's
    required = [shipped[need] for need in (requires if isinstance(requires, list) else [])
                if isinstance(need, str) and need in shipped and shipped[need].resolve() != pack.resolve()]
    return Target(root, required + [pack])


def _pack_alone(pack: Path, reporter: dg.Reporter) -> list[Target]:
    """The target that checks a pack named on the command line, or none when it does not load
    or adds nothing (TC-P003)."""
    target = pack_target(pack, reporter)
    return [target] if target and not _adds_nothing(pack, reporter) else []


def _adds_nothing(pack: Path, reporter: dg.Reporter) -> bool:
    """A pack checked on its own that holds no entity (no content file, or only empty ones), no
    vocabulary and no removal would check clean having checked nothing: say so instead (TC-P003). (Loaded with
    --pack or `requires:`, an empty pack is harmless and stays quiet.)"""
    from tomecraft.compiler import loader, packs
    scratch = dg.Reporter()
    manifest = packs.read_manifest(pack, scratch)
    data = manifest[0].data if manifest else {}
    if scratch.diagnostics or data.get("vocabulary") or data.get("remove"):
        return False
    for path in packs.content_files(pack, scratch):
        # empty, comment-only or `tokens: []` files define nothing (they used to pass as
        # content); a file that does not load says so when the pack is checked
        doc = loader.load(path, dg.Reporter(), packs.display_path(path))
        if doc is None or packs.defines_anything(doc.data):
            return False
    if scratch.diagnostics:
        return False
    reporter.add(dg.NO_CONTENT, "the pack adds, replaces and removes nothing: there is nothing "
                 "to check (its content files, if any, list no entity)",
                 packs.display_path(pack / "pack.yaml"), 1, 1, "add content files (`tomecraft new pack GAME DIR` writes one per entity kind)")
    return True


def _file_target(path: Path, reporter: dg.Reporter) -> Target | None:
    """A file inside a pack: its pack's target, reporting only that file. None for a mission
    file or a file outside any pack. A file its pack or game never loads (under packs/,
    missions/ or scenarios/, or not .yaml) is an error: checking it would check nothing."""
    from tomecraft.compiler import loader, missions, packs
    scratch = dg.Reporter()
    doc = loader.load(path, scratch) if loader.is_yaml_name(path.name) else None
    if doc is not None and missions.is_mission(doc.data):
        return None
    pack = _enclosing_pack(path)
    owner = pack or _enclosing_game(path)
    if owner is None:
        return None
    loaded = {p.resolve() for p in packs.content_files(owner, scratch)}
    if path.resolve() not in loaded and path.name not in ("game.yaml", "pack.yaml"):
        reporter.add(dg.NO_CONTENT, f"{owner.name} never loads this file",
                     packs.display_path(path), 1, 1,
                     "content files are the .yaml files of a game or pack folder, outside its "
                     "packs/, missions/ and scenarios/ folders; check a mission file on its own")
        return None
    if pack is None:
        return None  # a file of a base game: missions.check_file resolves it
    target = pack_target(pack, reporter)
    return Target(target.base, target.packs, only=path) if target else None


def _enclosing_game(path: Path) -> Path | None:
    for parent in path.resolve().parents:
        if (parent / "game.yaml").is_file():
            return parent
    return None


def _enclosing_pack(path: Path) -> Path | None:
    """The nearest folder above a file that holds a pack.yaml, unless a game.yaml comes first."""
    for parent in path.resolve().parents:
        if (parent / "game.yaml").is_file():
            return None
        if (parent / "pack.yaml").is_file():
            return parent
    return None


def _missions_in(folder: Path) -> list[Path]:
    """The mission files directly in a fan's folder: YAML with a top-level `mission:` mapping
    (a missing or misspelt `game:` too, which the mission check reports), or YAML that does not
    load with a `mission:` line (its syntax error is reported). Other YAML (a CI config, a
    hidden file) is not tomecraft's."""
    from tomecraft.compiler import loader, missions
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or not loader.is_yaml_name(path.name) or not path.is_file() \
                or path.is_symlink():
            continue
        doc = loader.load(path, dg.Reporter())
        if doc is not None:
            if missions.is_mission(doc.data) or missions.looks_like_mission(doc.data):
                found.append(path)
        elif path.stat().st_size <= loader.MAX_FILE_BYTES and \
                any(line.startswith(b"mission:") for line in path.read_bytes().splitlines()):
            found.append(path)
    return found


def check_targets(paths: list[str], extra: list[Path], reporter: dg.Reporter
                  ) -> tuple[list[Target], list[Path]]:
    """(games to compile, standalone files such as missions) for `tomecraft check`.

    No path: every game under content/, or, with --pack, only the games of those packs. A path
    may be content/, a game's folder, a pack, a folder of packs, a file inside a game or a
    pack, or a mission file.
    --pack adds packs to the targets of their own game only. Nothing found is an error."""
    from tomecraft.compiler import packs
    targets: list[Target] = []
    files: list[Path] = []
    extra_targets = [t for t in (pack_target(p, reporter) for p in extra) if t is not None]
    if not paths and extra:  # only the packs' games, each with all its packs, in order
        merged: dict[Path, Target] = {}
        for extra_target in extra_targets:
            target = merged.setdefault(extra_target.base.resolve(), Target(extra_target.base))
            _add_packs(target, extra_target.packs)
        return list(merged.values()), files
    for raw in paths or [str(content_root())]:
        path = Path(raw)
        if not path.exists():
            hint = packs.shipped_hint(raw)
            raise UsageError(f"no such file or directory: {raw}" + (f"; {hint}" if hint else ""))
        if (path / "pack.yaml").is_file():  # a pack, even with a game.yaml in it (TC-P005: not read)
            targets.extend(_pack_alone(path, reporter))
        elif (path / "game.yaml").is_file():
            targets.extend(with_shipped_packs(path))
        elif path.is_dir() and list(path.glob("*/game.yaml")):
            for root in game_roots(path):
                targets.extend(with_shipped_packs(root))
        elif path.is_dir() and (list(path.glob("*/pack.yaml")) or _missions_in(path)):
            # a fan's folder of packs and mission files (the pre-commit hook's `.`)
            for pack in sorted(p.parent for p in path.glob("*/pack.yaml")):
                targets.extend(_pack_alone(pack, reporter))
            files.extend(_missions_in(path))
        elif path.is_dir():
            reporter.add(dg.NO_CONTENT, "no game or pack here: no game.yaml, pack.yaml or "
                         "content/<game>/game.yaml", packs.display_path(path), 1, 1,
                         "point at a pack folder (with pack.yaml), content/<game>/ or a mission "
                         "file; `tomecraft new pack GAME DIR` starts a pack")
        else:
            before = len(reporter.diagnostics)
            target = _file_target(path, reporter)
            if target is not None:
                targets.append(target)
            elif len(reporter.diagnostics) == before:
                files.append(path)  # a mission file, or a file of a base game (missions.py)
    for extra_target in extra_targets:
        matching = [t for t in targets if t.base.resolve() == extra_target.base.resolve()]
        if not matching and not files:   # with a mission file, --pack is the mission's
            reporter.add(dg.PACK, f"pack {extra_target.packs[-1].name!r} is for "
                         f"{extra_target.base.name!r}, which none of the paths checks",
                         packs.display_path(extra_target.packs[-1] / "pack.yaml"), 1, 1,
                         "check the pack alone: `tomecraft check PACK`")
        for target in matching:
            _add_packs(target, extra_target.packs)
    return targets, files


def _add_packs(target: Target, packs: list[Path]) -> None:
    """Append packs to a target, skipping those it loads already (however they were named)."""
    loaded = {p.resolve() for p in target.packs}
    for pack in packs:
        if pack.resolve() not in loaded:
            target.packs.append(pack)
            loaded.add(pack.resolve())


def only_file(reporter: dg.Reporter, scratch: dg.Reporter, path: Path) -> None:
    """Copy into `reporter` the diagnostics of `scratch` located in `path`."""
    wanted = path.resolve()
    reporter.diagnostics.extend(d for d in scratch.diagnostics if Path(d.file).resolve() == wanted)
