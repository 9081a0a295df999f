"""A scenario that expects an option to be refused must name an option the engine could offer
in some state: a misspelt id or a key the engine's options never carry is a scenario error,
not a pass (runtime.scenario.never_offered, used by the runners of Clank!, The Cave,
Dungeontology and Crawl Decks)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime import scenario
from tomecraft.runtime.scenario import never_offered

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _load(game: str, name: str) -> dict:
    return YAML(typ="safe").load((SCENARIOS / game / name).read_text(encoding="utf-8"))


def _run(game: str, data: dict) -> list[str]:
    return scenario.run(game_data(game, [], dg.Reporter()), data)


def test_never_offered_names_the_problem():
    shapes = {"buy": {"item": {"crown"}, "coupon": {True, False}}, "end": {}}
    assert never_offered({"do": "buy", "item": "crown"}, shapes) is None
    assert "not an option kind" in never_offered({"do": "bye"}, shapes)
    assert "never carry" in never_offered({"do": "end", "card": "x"}, shapes)
    assert "not a value" in never_offered({"do": "buy", "item": "crwn"}, shapes)
    assert "always carry" in never_offered({"do": "buy"}, shapes, exact=True)


CASES = [
    # (game, scenario file, where, bad entry): each bad entry refuses an option no engine offers
    ("clank_catacombs", "r2_pay_short_refused.yaml", "steps",
     {"do": "buy", "item": "crwn", "illegal": True}),
    ("clank_catacombs", "r2_pay_short_refused.yaml", "expect",
     {"legal": {"do": "buy", "item": "crown", "discount": True}, "present": False}),
    ("the_cave", "ex_d50_one_turn.yaml", "steps",
     {"team": 1, "do": "move", "to": [2, 0], "via": "ropes", "illegal": True}),
    ("the_cave", "ex_d50_one_turn.yaml", "steps",
     {"team": 1, "do": "move", "to": [2, 0], "illegal": True}),
    ("dungeontology", "t22_safe_zone.yaml", "expect",
     {"options": "action", "seat": 0, "option": {"do": "card", "card": "debt_of_frienship"},
      "present": False}),
    ("dungeontology", "t31_iron_head_once_per_target.yaml", "steps",
     {"do": "skill", "seat": 0, "id": "iron_hed", "fails": True}),
    ("dm_crawl_decks", "tt03_rests_illegal.yaml", "expect",
     {"legal": {"do": "long_rest", "free": True}, "present": False}),
    ("dm_crawl_decks", "tt03_rests_illegal.yaml", "steps", {"do": "battle", "column": 7, "illegal": True}),
    ("dm_crawl_decks", "tt03_rests_illegal.yaml", "steps", {"do": "descend", "illegal": True}),
    ("dm_crawl_decks", "tt03_rests_illegal.yaml", "steps", {"do": "short_rest", "ilegal": True}),
]


@pytest.mark.parametrize("game,name,where,bad", CASES, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_a_vacuous_refusal_fails_the_scenario(game, name, where, bad):
    good = _load(game, name)
    assert _run(game, good) == [], "the unmodified scenario passes"
    broken = copy.deepcopy(good)
    if where == "steps":
        broken["steps"] = list(broken.get("steps") or [])
        broken["steps"].insert(len(broken["steps"]) if bad.get("fails") else 0, bad)
    else:
        broken["expect"] = list(broken.get("expect") or []) + [bad]
    failures = _run(game, broken)
    assert failures and any("vacuously" in f or "scenario error" in f for f in failures), failures


def test_crawl_refusing_a_legal_option_fails():
    """`illegal: true` on an option the engine offers fails the scenario (it was once ignored,
    and the short rest was played instead: a pass)."""
    good = _load("dm_crawl_decks", "tt03_rests_illegal.yaml")
    broken = copy.deepcopy(good)
    broken["setup"]["main_deck"] = 3
    broken["expect"] = []
    broken["steps"] = [{"do": "short_rest", "illegal": True}]
    failures = _run("dm_crawl_decks", broken)
    assert failures and "expected to be illegal but is legal" in failures[0], failures
