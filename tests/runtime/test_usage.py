"""`sim --usage`: how often each entity's effects ran, per seat, with never-used ones flagged."""
from __future__ import annotations

import json

from tomecraft.generated.clank_catacombs__tomb_party import GAME as PARTY
from tomecraft.generated.the_cave import GAME as CAVE
from tomecraft.runtime import sim, usage


def test_usage_is_an_addition_that_changes_no_figure_of_the_summary():
    plain = sim.run(CAVE, games=4, seed=2)
    counted = sim.run(CAVE, games=4, seed=2, usage=True)
    assert {k: v for k, v in counted.items() if k != "usage"} == plain
    assert counted == sim.run(CAVE, games=4, seed=2, usage=True)        # deterministic


def test_usage_counts_every_run_of_an_effect_and_flags_the_unused():
    summary = sim.run(PARTY, players=5, games=6, seed=3, usage=True)["usage"]
    entities = summary["entities"]
    assert entities["card:burgle"]["uses"] > 0 and entities["card:burgle"]["games"] == 6
    assert entities["market_item:cloak_of_invisibility"]["pack"] == "tomb_party"
    assert set(summary["never_used"]) == {k for k, e in entities.items()
                                          if e["tracked"] and e["uses"] == 0}
    assert "component:dragon_cubes" in summary["untracked"]          # no effect to count


def test_the_wrappers_exist_only_while_counting():
    card = CAVE.get("action", "discover")
    before = card.effect
    with usage.track(CAVE) as tracker:
        assert card.effect is not before and card.effect.can is before.can
        assert "action:discover" in tracker.tracked
    assert card.effect is before


def test_sim_usage_on_the_command_line_in_text_and_json(run_cli):
    args = ["sim", "the_cave", "--games", "3", "--usage"]
    code, out, _ = run_cli(*args)
    assert code == 0 and "usage (entities with an effect" in out
    assert "warning: never used" in out or "never used" not in out
    data = json.loads(run_cli(*args, "--json")[1])
    assert data["usage"]["entities"]["action:discover"]["uses"] > 0
