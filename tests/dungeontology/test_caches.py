"""The engine's kept answers (speed caches) against the answers worked out afresh, at every
decision of several whole games: a cache that missed a change would differ somewhere."""
from __future__ import annotations

from collections import Counter

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dungeontology.engine import Engine, deal, new_state
from tomecraft.runtime.rng import Rng


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


class Checked(Engine):
    """Compares each kept answer with the fresh one before every decision."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.compared = Counter()

    def ask(self, who, key, options):
        for s in self.state.scholars:
            fresh = (self.marks_reached(s, "stars"), self.marks_reached(s, "research"))
            assert (self.stars(s), self.research_bonus(s)) == fresh, (key, s.seat, dict(s.notebook))
            self.compared["marks", fresh] += 1
        return super().ask(who, key, options)


def _play(data, players: int, game: int) -> Checked:
    rng = Rng(f"caches:{players}:{game}")
    agents = [RandomAgent(rng.fork(f"agent{i}")) for i in range(players)]
    play = rng.fork("game")
    engine = Checked(data, new_state(data, players, play.fork("setup"), {}), agents, play.fork("play"),
                     log_enabled=False)
    deal(engine)
    engine.play()
    return engine


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kept_marks_are_the_marks_worked_out_afresh(data, players):
    compared = Counter()
    for game in range(4):
        compared.update(_play(data, players, game).compared)
    # not vacuous: notebooks changed, stars and research marks were reached along the way
    reached = {fresh for kind, fresh in compared if kind == "marks"}
    assert any(stars > 0 for stars, _ in reached) and any(research > 0 for _, research in reached)
    assert len(reached) >= 4
