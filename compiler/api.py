"""The Python API: check and compile a game with packs, then play it with your own agents.

    from tomecraft.compiler.api import ContentError, load_game, play_game
    game = load_game("the_cave", packs=["my_pack"])     # raises ContentError on content errors
    result = play_game(game, agents=[MyAgent(), MyAgent()], seed=7)

An agent is any object with `choose(key, options, view=None)` returning one of `options`: the
engine asks it every decision (`key` names it, `options` are the legal answers). The README's
"Python API" section shows a complete example; tests/test_readme.py runs it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from tomecraft.compiler import diagnostics as dg, loadgen, pipeline
from tomecraft.compiler.console import UsageError  # noqa: F401 (raised by load_game)


class ContentError(Exception):
    """The content or a pack does not check clean; `diagnostics` holds every problem."""

    def __init__(self, reporter: dg.Reporter) -> None:
        self.diagnostics = reporter.sorted()
        super().__init__(dg.format_text(reporter))


def load_game(game: str, packs: Sequence[str | Path] = ()) -> Any:
    """The game's compiled data (runtime.definitions.GameData), with `packs` loaded in order:
    each a pack folder (relative to the working directory), else the id of a pack shipped with
    the game (`tomb_party`). The current content is used, compiled in memory when it changed
    since `tomecraft build`. An unknown game, or a pack that is neither, raises UsageError
    (the message the command line gives); content that does not check raises ContentError."""
    folders = pipeline.resolve_packs(packs, [pipeline.game_root(game)])
    reporter = dg.Reporter()
    data = loadgen.game_data(game, folders, reporter)
    if data is None or reporter.errors:
        raise ContentError(reporter)
    return data


def play_game(game: Any, agents: Sequence[Any], seed: int | str = 1,
              options: dict | None = None) -> dict:
    """Play one game to its end, one agent per seat; the same seed plays the same game.
    Returns the engine's result: `scores` (one per seat), `rounds`, `capped`, and per game
    `end`, `finished` or `stats` (see runtime/sim.py)."""
    from tomecraft.runtime.rng import Rng
    from tomecraft.runtime.sim import engine_module
    players = len(agents)
    if not game.players["min"] <= players <= game.players["max"]:
        raise ValueError(f"{game.game} is for {game.players['min']}-{game.players['max']} players")
    return engine_module(game).play_game(game, players, Rng(f"{seed}:0").fork("game"),
                                         list(agents), dict(options or {}))
