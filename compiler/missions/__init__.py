"""`tomecraft check FILE`: check one content file, or one mission file, in its game's context.

A content file's game is found by walking up to the nearest game.yaml (or the pack.yaml of a
pack under content/<game>/packs/). The whole game is compiled, and the diagnostics about the
file are reported, so a fan sees exactly what is wrong with the file they are editing.

A mission file can live anywhere (a fan's home directory): it is recognised by its content,
`game: deep_rock_galactic` and a top-level `mission:` mapping. It is validated against the
mission schema (schema.py), the map format (runtime/.../mission_map.py, the one reader the
engine and the briefing share) and every constraint of the Deep Rock Galactic inventory §9.5
(checker.py, reach.py). Packs given with `--pack DIR` add their creatures, minerals and
pickups. The format and every constraint are documented in
content/deep_rock_galactic/missions/README.md.
"""
from __future__ import annotations

import re
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, loader, pipeline
from tomecraft.compiler.missions.checker import CLASS_TOKENS, MissionChecker, neighbours   # noqa: F401
from tomecraft.compiler.missions.names import Roster, roster, with_packs_beside           # noqa: F401
from tomecraft.compiler.missions.schema import MISSION_SCHEMA, report_schema_errors         # noqa: F401
from tomecraft.compiler.packs import display_path

MISSION_GAMES = {"deep_rock_galactic"}
MISSION_LINE = re.compile(r"^\ufeff?game:[ \t]*[\"']?deep_rock_galactic[\"']?[ \t]*(#.*)?$", re.M)


def find_game_root(path: Path) -> tuple[Path | None, list[Path]]:
    packs: list[Path] = []
    for parent in path.resolve().parents:
        if (parent / "pack.yaml").is_file() and not (parent / "game.yaml").is_file():
            packs.append(parent)
        if (parent / "game.yaml").is_file():
            return parent, packs
    return None, packs


def is_mission(data) -> bool:
    # `game: [x]` is no game id (and a list cannot be looked up in a set: TypeError)
    return (isinstance(data, dict) and isinstance(data.get("game"), str)
            and data["game"] in MISSION_GAMES and isinstance(data.get("mission"), dict))


def looks_like_mission(data) -> bool:
    """A top-level `mission:` mapping without `game: deep_rock_galactic` (missing, misspelt)."""
    return isinstance(data, dict) and isinstance(data.get("mission"), dict) and not is_mission(data)


def mission_not_a_mapping(data) -> bool:
    """`game: deep_rock_galactic` with a `mission:` that is empty, a list or a text: the file
    was said to belong to no game."""
    return (isinstance(data, dict) and data.get("game") == "deep_rock_galactic"
            and "mission" in data and not isinstance(data["mission"], dict))


def _shown(value) -> str:
    if value is None:
        return "nothing (the fields are not indented under it)"
    return {list: "a list", str: "a text"}.get(type(value), f"a {type(value).__name__}")


def check_file(path: Path, reporter: dg.Reporter, packs: list[Path] = ()) -> None:
    display = display_path(path)
    scratch = dg.Reporter()
    doc = loader.load(path, scratch, display)
    if doc is not None and is_mission(doc.data):
        reporter.diagnostics.extend(as_file_shape(scratch.diagnostics))
        names = roster(packs=tuple(packs))
        reporter.diagnostics.extend(names.pack_errors)   # a broken pack: its own diagnostics
        check_mission(doc, display, reporter, with_packs_beside(names, path.parent, list(packs)))
        return
    root, own_packs = find_game_root(path)
    if root is None and doc is not None and mission_not_a_mapping(doc.data):
        at = doc.mark(("mission",))
        reporter.add(dg.SCHEMA, f"F-01: `mission:` holds the mission's fields, not "
                     f"{_shown(doc.data['mission'])}", display, at.line, at.column,
                     "indent the fields under it: `mission:` then `  id: salt_pits`, `  name: ...`"
                     " (content/deep_rock_galactic/missions/README.md)")
        return
    if root is None and doc is not None and looks_like_mission(doc.data):
        at = doc.mark(("game",), key=True) if "game" in doc.data else doc.mark(())
        reporter.add(dg.SCHEMA, f"F-01: a mission file names its game: `game: deep_rock_galactic`, "
                     f"not {doc.data.get('game')!r}" if "game" in doc.data else
                     "F-01: a mission file starts with `game: deep_rock_galactic`",
                     display, at.line, at.column, "missions exist for deep_rock_galactic only")
        return
    if root is None:
        # a mission file the YAML reader refused as a whole (a number past the limit, an
        # alias bomb): its diagnostics name F-01 as every other mission diagnostic does
        # the bytes as the loader reads them: /dev/zero (read_text: a MemoryError) and a FIFO
        # (a hang) are refused, never read
        raw = loader.read_regular(path, dg.Reporter(), display) if doc is None else None
        refused_mission = raw is not None and MISSION_LINE.search(raw.decode("utf-8", "replace"))
        reporter.diagnostics.extend(as_file_shape(scratch.diagnostics) if refused_mission
                                    else scratch.diagnostics)
        if doc is not None:
            reporter.add(dg.USAGE, "this file belongs to no game (no game.yaml above it)",
                         display, 1, 1, "put it under content/<game>/ or in a pack, or, for a "
                         "mission file, give it `game: deep_rock_galactic` and a `mission:` mapping")
        return
    scratch = dg.Reporter()
    pipeline.compile_game(root, own_packs + list(packs), scratch)
    target = Path(display).resolve()
    for d in scratch.diagnostics:
        if Path(d.file).resolve() == target:
            reporter.diagnostics.append(d)


def check_shared_ids(paths: list[Path], reporter: dg.Reporter) -> None:
    """F-01: mission files checked together (a folder, the pre-commit hook's `.`) each have an
    id of their own: two with one id wrote one `sheets --mission` briefing over the other
    (briefing_<id>) and could not be told apart in a Deep Dive."""
    first: dict[str, str] = {}
    for path in paths:
        display = display_path(path)
        doc = loader.load(path, dg.Reporter(), display)
        if doc is None or not is_mission(doc.data):
            continue
        mission_id = doc.data["mission"].get("id")
        if not isinstance(mission_id, str):
            continue
        if mission_id in first:
            at = doc.mark(("mission", "id"))
            reporter.add(dg.SCHEMA, f"F-01: the mission id {mission_id!r} is also the id of "
                         f"{first[mission_id]}", display, at.line, at.column,
                         "give each mission file an id of its own")
        else:
            first[mission_id] = display


def as_file_shape(found: list) -> list:
    """The YAML reader's diagnostics about a mission file (a key twice, a tab...), named F-01
    as every mission diagnostic names its constraint."""
    from dataclasses import replace
    return [d if d.message.startswith("F-01:") else replace(d, message=f"F-01: {d.message}")
            for d in found]


def check_mission(doc: loader.Document, display: str, reporter: dg.Reporter,
                  names: Roster | None = None, packs: list[Path] = ()) -> None:
    if names is None:
        names = roster(packs=tuple(packs))
        reporter.diagnostics.extend(names.pack_errors)   # a broken pack: its own diagnostics
    if report_schema_errors(doc, display, reporter):
        return
    MissionChecker(doc, display, reporter, names).run()


def load_mission(path: Path, reporter: dg.Reporter, packs: list[Path] = ()) -> dict | None:
    """Load and validate a mission file; the mission mapping, ready for the engine (its
    `mission_event` compiled as `mission_event_fx`), or None if it has errors."""
    display = display_path(path)
    before = reporter.errors          # the YAML's own errors (a key twice...) refuse it too
    scratch = dg.Reporter()
    doc = loader.load(path, scratch, display)
    reporter.diagnostics.extend(as_file_shape(scratch.diagnostics))
    if doc is None:
        return None
    if not is_mission(doc.data):
        reporter.add(dg.SCHEMA, "F-01: not a mission file: it needs `game: deep_rock_galactic` and a "
                     "`mission:` mapping", display, 1, 1)
        return None
    names = roster(packs=tuple(packs))
    reporter.diagnostics.extend(names.pack_errors)
    check_mission(doc, display, reporter, names)
    if reporter.errors != before:
        return None
    from tomecraft.compiler.missions.event import compile_event
    mission = dict(doc.data["mission"])
    line = doc.mark(("mission", "mission_event")).line
    mission["mission_event_fx"] = compile_event(names.game, mission["mission_event"], f"{display}:{line}")
    return mission
