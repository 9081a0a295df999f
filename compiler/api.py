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


class ContentError(Exception):
    """The content or a pack does not check clean; `diagnostics` holds every problem."""

    def __init__(self, reporter: dg.Reporter) -> None:
        self.diagnostics = reporter.sorted()
        super().__init__(dg.format_text(reporter))


class UsageError(dg.UsageError, ValueError):
    """An unknown game, or a pack that is neither a folder nor the id of a pack shipped with
    the game: the command line's message. A ValueError too, so either may be caught."""


class AgentError(ValueError):
    """An agent answered a decision with something that is not one of its options."""


def load_game(game: str, packs: Sequence[str | Path] | str | Path = ()) -> Any:
    """The game's compiled data (runtime.definitions.GameData), with `packs` loaded in order:
    each a pack folder (relative to the working directory), else the id of a pack shipped with
    the game (`tomb_party`); one folder alone is one pack. The current content is used,
    compiled in memory when it changed since `tomecraft build`. An unknown game, or a pack
    that is neither, raises UsageError (a ValueError); content that does not check raises
    ContentError."""
    if isinstance(packs, (str, Path)):   # one folder: its characters were taken for 18 packs
        packs = [packs]
    try:
        folders = pipeline.resolve_packs(packs, [pipeline.game_root(game)])
    except dg.UsageError as err:
        raise UsageError(str(err)) from None
    reporter = dg.Reporter()
    data = loadgen.game_data(game, folders, reporter)
    if data is None or reporter.errors:
        raise ContentError(reporter)
    return data


def play_game(game: Any, agents: Sequence[Any], seed: int | str = 1,
              options: dict | None = None) -> dict:
    """Play one game to its end, one agent per seat; the same seed plays the same game.
    Returns the engine's result: `scores` (one per seat), `rounds`, `capped`, and per game
    `end`, `finished` or `stats` (see runtime/sim.py). A player count the game does not have
    (or an option it refuses) is a ValueError before any play; an agent's answer that is not
    one of the options it was given, an AgentError (a ValueError) naming the seat and decision."""
    from tomecraft.runtime import effects, sim
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.definitions import GameData
    from tomecraft.runtime.rng import Rng
    if not isinstance(game, GameData):
        raise TypeError(f"play_game plays what load_game returns, not {type(game).__name__} "
                        f"{game!r:.40}")
    agents = list(agents)
    for seat, agent in enumerate(agents):
        if not callable(getattr(agent, "choose", None)):
            raise TypeError(f"agent {seat + 1} ({type(agent).__name__}) has no "
                            "choose(key, options, view=None) method")
    sim.check_setup(game, len(agents), options)      # ValueError, as `tomecraft sim` refuses
    module = sim.engine_module(game)
    free = getattr(module, "FREE_ANSWERS", frozenset())
    effects.new_game()                               # each game its own step budget
    # the simulated player picks from the options by construction, and Dungeontology plays it
    # by a shortcut of its own (`type(agent) is RandomAgent`) that a wrapper would change
    checked = [a if type(a) is RandomAgent else _Checked(a, seat, free)
               for seat, a in enumerate(agents)]
    return module.play_game(game, len(agents), Rng(f"{seed}:0").fork("game"), checked,
                            dict(options or {}))


class _Checked:
    """An agent whose answers are held to the options it was given: a wrong answer stopped a
    game with a TypeError from deep in an engine, or (Dungeontology) was silently played on.
    Every other attribute is the agent's (`picks_from_suggestion`...)."""

    def __init__(self, agent: Any, seat: int, free: frozenset) -> None:
        self._agent, self._seat, self._free = agent, seat, free

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)

    def choose(self, key: str, options, view: Any = None) -> Any:
        options = list(options)
        answer = self._agent.choose(key, options, view)
        if key in self._free or any(answer is o for o in options) or answer in options:
            return answer       # (The Cave's equipment decisions also take a free answer)
        raise AgentError(f"agent {self._seat + 1} ({type(self._agent).__name__}) answered "
                         f"{answer!r:.80} to {key!r}, which is not one of its "
                         f"{len(options)} options")
