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
