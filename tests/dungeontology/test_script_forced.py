"""A question with one answer is not asked (Engine.ask takes it), but a scenario may still script
the answer (a single Magic card in hand for 布道, L1355): that answer is used up by its own
question, never fed to the next one (ScriptedAgent.forced). A card is scripted `{card: id}`
there too, as in a stealth attempt, or as the bare id."""
from __future__ import annotations

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.engines.dungeontology.scenario import build

SETUP = {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
         "scholars": [{"scholar": "vincenzo", "at": "shepherds_shelter",
                       "hand": ["crystal_ball", "smoke_bomb"]}, {"scholar": "sofia"}]}


@pytest.mark.parametrize("form", [lambda c: {"card": c}, lambda c: c])
def test_a_scripted_answer_to_a_question_not_asked_is_not_fed_to_the_next(form):
    engine = build(game_data("dungeontology", [], dg.Reporter()), SETUP)
    who = engine.state.scholars[0]
    engine.agents[0].push(form("crystal_ball"), form("smoke_bomb"))
    assert engine.ask(who, "discard_card", ["crystal_ball"]) == "crystal_ball"
    assert engine.ask(who, "discard_card", ["crystal_ball", "smoke_bomb"]) == "smoke_bomb"
    assert engine.agents[0].choices == []


def test_an_answer_naming_another_option_is_kept_for_its_question():
    engine = build(game_data("dungeontology", [], dg.Reporter()), SETUP)
    who = engine.state.scholars[0]
    engine.agents[0].push({"card": "smoke_bomb"})
    assert engine.ask(who, "discard_card", ["crystal_ball"]) == "crystal_ball"
    assert engine.ask(who, "discard_card", ["crystal_ball", "smoke_bomb"]) == "smoke_bomb"
