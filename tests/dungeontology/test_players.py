"""The simulated players use any content: a YAML-only pack with one new entity of every kind
(scholar, scheme card, doom card, boss, token...) has each one with an effect used in a seeded
sim; a pack's boss is drawn at setup like the base game's."""
from __future__ import annotations

from pathlib import Path

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage

PACK = Path(__file__).with_name("any_content_pack")


def _data(monkeypatch):
    return compiled_with("dungeontology", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", games=40, seed=1)
    kinds = {key.split(":")[0] for key in new}
    assert {"scholar", "scheme_card", "doom_card", "boss", "token", "region"} <= kinds, kinds
    assert all(e["uses"] > 0 for e in new.values()), new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=10, seed=2) == sim.run(data, games=10, seed=2)


def test_scenario_setup_names_the_boss_and_notebook_in_play(monkeypatch):
    """A pack's boss sorts before the base ones, so a scenario names the one it plays
    (`boss`; `notebook` too, though a game has one: a pack's replaces the base's); the campus
    expectation reads back which is in play, and an unknown id (or intern) is a setup error
    rather than a silent pass."""
    from tomecraft.runtime.engines.dungeontology.scenario import run_scenario
    data = _data(monkeypatch)
    two = [{"scholar": "valerio"}, {"scholar": "sofia"}]
    for boss, notebook in (("latus", "notebook"), ("any_content_latus", "notebook")):
        scenario = {"setup": {"boss": boss, "boss_side": "drunk", "notebook": notebook, "scholars": two},
                    "expect": [{"campus": {"boss_card": boss, "notebook": notebook}}]}
        assert run_scenario(data, scenario) == []
    wrong = {"setup": {"boss": "latus", "scholars": two},
             "expect": [{"campus": {"boss_card": "any_content_latus"}}]}
    assert run_scenario(data, wrong) != []
    for key, value in (("boss", "no_such_boss"), ("notebook", "no_such_notebook")):
        failures = run_scenario(data, {"setup": {key: value, "scholars": two}})
        assert failures and failures[0].startswith("setup:"), failures
    bad_intern = {"setup": {"scholars": [{"scholar": "valerio", "interns": ["no_such_intern"]}]}}
    assert run_scenario(data, bad_intern)[0].startswith("setup:")
