"""A scenario's `modify` step aimed at a card off the field (graveyard, deck, hand) is refused
naming where the card is: the engine changes only cards on the field (L274), so the step would
pass having changed nothing, which a tester reads as "the rule applied"."""
from __future__ import annotations

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime import scenario


def _run(setup: dict, step: dict) -> list[str]:
    data = {"game": "dm_crawl_decks", "name": "modify", "setup": setup, "steps": [step],
            "expect": [{"count": {"graveyard": len(setup.get("graveyard", []))}}]}
    return scenario.run(game_data("dm_crawl_decks", [], dg.Reporter()), data)


@pytest.mark.parametrize("zone", ["graveyard", "main_deck", "hand"])
def test_a_modify_aimed_off_the_field_is_refused_naming_where_the_card_is(zone):
    setup = {"columns": [["slime#S"], [], []], zone: ["ogre#M", "slime"]}
    [failure] = _run(setup, {"do": "modify", "card": "M", "op": "-=", "value": 2})
    assert f"M is in the {zone}, not on the field" in failure and "L274" in failure


def test_a_modify_on_the_field_still_applies():
    setup = {"columns": [["ogre#M", "slime#S"], [], []]}
    assert _run(setup, {"do": "modify", "card": "M", "op": "=", "value": 0}) \
        == ["expect[0]: count: expected {'graveyard': 0}, got {'graveyard': 1}"]


@pytest.mark.parametrize("setup, step, named", [
    ({"main_deck": -1}, {"do": "settle"}, "setup.main_deck: a list of cards, or a count of filler cards, not -1"),
    ({"columns": [["slime@x/1"], [], []]}, {"do": "settle"}, "write `id@P/W` with whole numbers"),
    ({"rows": [{"enemy": ["slime"], "player": []}]}, {"do": "resolve_row", "row": 3},
     "row 3: the battlefield has 1 row(s)"),
])
def test_a_setup_or_step_a_tester_gets_wrong_is_named_not_a_python_error(setup, step, named):
    """A negative filler count set up an empty pile, `slime@x/1` said 'invalid literal for
    int()' and a row past the battlefield said 'list index out of range'."""
    [failure] = scenario.run(game_data("dm_crawl_decks", [], dg.Reporter()),
                             {"game": "dm_crawl_decks", "setup": setup, "steps": [step], "expect": []})
    assert named in failure and "IndexError" not in failure and "invalid literal" not in failure
