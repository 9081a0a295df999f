"""Game rules checked at compile time: counts, maps, placement legality, mission constraints.

Each game's checks live in their own module, compiler/game_checks/<game>.py, defining
`check(game, reporter)`; it reports through the Reporter with positions of the offending
entity fields. A game without a module has no game-specific checks.
"""
from __future__ import annotations

import importlib
import importlib.util
import re

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.model import Entity, Game


def report(reporter: dg.Reporter, entity: Entity, field: str | tuple, message: str,
           hint: str = "", code: str = dg.GAME_RULE) -> None:
    path = entity.path + ((field,) if isinstance(field, str) else tuple(field))
    mark = entity.doc.mark(path)
    reporter.add(code, message, entity.display, mark.line, mark.column, hint)


def run(game: Game, reporter: dg.Reporter) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", game.id):
        return
    if importlib.util.find_spec(f"{__name__}.{game.id}") is None:
        return
    importlib.import_module(f"{__name__}.{game.id}").check(game, reporter)
