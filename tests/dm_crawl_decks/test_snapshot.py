"""The simulated player's trial copies (runtime/engines/dm_crawl_decks/snapshot.py): a copy is
a whole, separate game. Played on, it never touches the game it was copied from, and a copy
plays exactly as the game it copies would (same log, move for move)."""
from __future__ import annotations

import copy

import pytest

from tomecraft.generated.dm_crawl_decks import GAME
from tomecraft.runtime import effects
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dm_crawl_decks.engine import new_engine, setup
from tomecraft.runtime.engines.dm_crawl_decks.scenario import Scenario
from tomecraft.runtime.lookahead import copy_game
from tomecraft.runtime.rng import Rng


def _games(n: int, turns: int = 40, every: int = 1):
    """Engines at the start of every turn (or every `every`-th turn) of `n` seeded games
    (played by the sim's player)."""
    for g in range(n):
        rng = Rng(f"snap:{g}")
        effects.new_game()
        engine = new_engine(GAME, rng.fork("decks"), RandomAgent(rng.fork("agent")))
        setup(engine)
        played = 0
        while not engine.state.over and engine.state.turn < turns:
            if played % every == 0:
                yield engine
            engine.play_turn()
            played += 1


def _fingerprint(engine) -> tuple:
    """Everything a rule reads, as plain values (cards by name and zone, layered points)."""
    s = engine.state
    piles = tuple(tuple((repr(c), c.zone, c.face_up, c.sideways) for c in getattr(s, name))
                  for name in ("main_deck", "graveyard", "discard", "event_deck", "event_discard",
                               "relic_deck", "spare", "loot", "hand", "equipment", "revealed"))
    columns = tuple(tuple((repr(c), engine.points(c)) for c in col) for col in s.columns)
    return (piles, columns, s.hp, s.misses, s.dl, s.turn, dict(s.resources),
            tuple((a, t.up, t.down) for a, t in s.tokens.items()), s.over,
            engine.rng._random.getstate())


class _Untouchable:
    def __getattr__(self, name):
        raise AssertionError(f"a trial read the real game's {name}")


def test_playing_a_copy_never_touches_the_original():
    """Effects bind their handlers once (`queries = ctx.queries` in generated code): the copy
    rebinds them, so a copy's effects act on the copy (copy.deepcopy alone would not)."""
    checked = 0
    # every second turn's position (57 of 112): the same games, early and late, half the trials
    for engine in _games(6, every=2):
        before = _fingerprint(engine)
        trial = copy_game(engine)
        trial.agent = RandomAgent(Rng("trial"))
        real_state, engine.state = engine.state, _Untouchable()
        try:
            trial.play(cap=trial.state.turn + 10)
        finally:
            engine.state = real_state
        assert _fingerprint(engine) == before
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("copier", [copy_game, copy.deepcopy])
def test_a_copy_plays_exactly_as_its_original_would(copier):
    """Two copies of one position, played by equal agents, write the same log; so does the
    original itself (copies of copies included: the second is copied from the first)."""
    compared = 0
    # every second turn's position (38 of 75): the same games, early and late, half the trials
    for engine in _games(4, turns=25, every=2):
        first = copier(engine)
        second = copier(first)
        logs = []
        for game in (first, second):
            game.agent = RandomAgent(Rng("same"))
            game.log_enabled = True
            game.state.log = []
            result = game.play(cap=game.state.turn + 15)
            logs.append((game.state.log, result))
        assert logs[0] == logs[1]
        compared += 1
    assert compared > 15


def test_continuous_effects_are_not_counted_twice_in_a_copy():
    """A continuous modifier names its source by the owner's id; in the copy it names the
    copied owner, so re-evaluating it replaces it instead of adding a second one. A war
    drummer (+1 to the enemy side) beside an orc (3): 4 in the game and in its copy, after
    any number of refreshes."""
    engine = Scenario(GAME, {"rows": [{"enemy": ["war_drummer#d", "orc#o"], "player": []}],
                             "events_off": True}).engine
    engine.settle()
    orc = next(c for c in engine.state.rows[0].enemy if c.label == "o")
    assert engine.points(orc) == 4
    trial = copy_game(engine)
    copied = next(c for c in trial.state.rows[0].enemy if c.label == "o")
    for _ in range(2):
        trial.settle()
        assert trial.points(copied) == 4
    assert engine.points(orc) == 4
