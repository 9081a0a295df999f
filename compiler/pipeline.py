"""Run the compiler's stages in order, timing each: load, schema, parse, checks."""
from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from compiler import checks, diagnostics as dg, game_checks, packs
from compiler.model import Game

CONTENT: Path | None = None     # content/ when set (tests); else found by content_root()


def project_root() -> Path:
    """The tomecraft project to work on: the working directory or the nearest parent with
    games in content/ (content/<game>/game.yaml), else the one tomecraft is installed from,
    so `tomecraft check ~/my_mission.yaml` works from any folder."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if any((folder / "content").glob("*/game.yaml")):
            return folder
    return Path(__file__).resolve().parents[1]


def content_root() -> Path:
    return CONTENT if CONTENT is not None else project_root() / "content"


@dataclass
class Timings:
    stages: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - start


def compile_game(base_root: Path, extra: list[Path], reporter: dg.Reporter,
                 timings: Timings | None = None, parse_cache: dict | None = None) -> Game | None:
    """Load a game's packs and run every check. Returns the Game (None if unreadable)."""
    timings = timings or Timings()
    with timings.stage("load"):
        game = packs.load_game(base_root, extra, reporter)
    if game is None:
        return None
    with timings.stage("schema"):
        packs.validate_entities(game, reporter)
    with timings.stage("parse"):
        checks.parse_effects(game, reporter, parse_cache)
    with timings.stage("checks"):
        checks.check_names(game, reporter)
        checks.check_bounds(game, reporter)
        checks.check_refs(game, reporter)
        checks.check_provenance(game, reporter)
        game_checks.run(game, reporter)
    return game


def game_roots(content: Path | None = None) -> list[Path]:
    """Every base pack under content/: a directory holding game.yaml."""
    return sorted(p.parent for p in (content or content_root()).glob("*/game.yaml"))


def in_repo_packs(base_root: Path) -> list[Path]:
    """Expansion packs shipped with a game: content/<game>/packs/<pack>/pack.yaml."""
    return sorted(p.parent for p in (base_root / "packs").glob("*/pack.yaml"))
