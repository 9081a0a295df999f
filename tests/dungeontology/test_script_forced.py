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


def test_a_refused_target_answer_names_the_scholars_as_a_script_writes_them():
    """A wrong answer to a target question listed each Scholar as a dataclass dump of several
    thousand characters; the options now read as the answer is written, `{seat: n}`."""
    from tomecraft.runtime.agents import ScriptError
    engine = build(game_data("dungeontology", [], dg.Reporter()), SETUP)
    who, other = engine.state.scholars
    engine.agents[0].push({"do": "draw_for"})
    with pytest.raises(ScriptError) as err:
        engine.ask(who, "fx_card:target9", [who, other])
    assert "[{seat: 0} (vincenzo), {seat: 1} (sofia)]" in str(err.value)
    assert len(str(err.value)) < 200
    engine.agents[0].push({"seat": 1})
    assert engine.ask(who, "fx_card:target9", [who, other]) is other


def test_a_refused_choose_branch_answer_says_branches_are_numbered():
    from tomecraft.runtime.agents import ScriptError
    engine = build(game_data("dungeontology", [], dg.Reporter()), SETUP)
    who = engine.state.scholars[0]
    engine.agents[0].push({"do": "draw_for"})
    with pytest.raises(ScriptError, match="number of its branch, 0 for the first written"):
        engine.ask(who, "fx_card:choose7", [0, 1])
