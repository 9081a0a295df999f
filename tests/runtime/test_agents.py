"""Scripted answers (runtime.agents.matches): what a scenario's `choose` picks."""
import pytest

from tomecraft.runtime.agents import ScriptError, ScriptedAgent, matches


@pytest.mark.parametrize("want, option", [
    (True, 1), (False, 0), (1, True), ({"steal": True}, {"steal": 1}),
    ({"pair": [True, 2]}, {"pair": [1, 2]}),
])
def test_a_yes_or_no_never_matches_a_number(want, option):
    """Python's True == 1 let a stray scripted `true` pick option 1 (Dungeontology's Iron
    Head: "steal a card") in every game's scenarios."""
    assert not matches(want, option)


@pytest.mark.parametrize("want, option", [
    (True, True), (False, False), (1, 1), ({"seat": 1}, {"seat": 1, "x": 2}),
    ({"pair": [True, 2]}, {"pair": [True, 2]}),
])
def test_equal_answers_still_match(want, option):
    assert matches(want, option)


def test_a_scripted_yes_is_refused_among_numbered_options():
    agent = ScriptedAgent([True])
    with pytest.raises(ScriptError, match="not legal"):
        agent.choose("branch", [0, 1])
