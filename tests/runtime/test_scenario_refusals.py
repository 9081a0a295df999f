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
     {"team": 1, "do": "move", "to": [2, 0], "id": "discover", "illegal": True}),
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


def test_cave_refused_move_without_via_means_by_no_way():
    """A refused move that leaves out `via` is matched by the keys written (blind round 16): not
    vacuous, it says no way there is offered, and fails when one is (team 1 can rope into the
    rappel); it used to be refused as vacuous ("options always carry via")."""
    good = _load("the_cave", "ex_d50_one_turn.yaml")
    broken = copy.deepcopy(good)
    broken["steps"] = [{"team": 1, "do": "move", "to": [2, 0], "illegal": True}] + list(good["steps"])
    failures = _run("the_cave", broken)
    assert failures and "expected to be illegal but is legal" in failures[0], failures
    assert not any("vacuously" in f for f in failures), failures


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


# Crawl Decks: a step refused at one of its `choose` answers (b_level_up_refused_answer.yaml)
LEVEL_UP = "b_level_up_refused_answer.yaml"


@pytest.mark.parametrize("answer,why", [
    ({"attribute": "strenght"}, "vacuously"), ({"attribute": "gold"}, "vacuously"),
    ({"attr": "strength"}, "unused"),        # not written for a level-up: never its answer
    ("no_such_card", "unused")])
def test_crawl_a_refused_answer_that_no_decision_could_take_fails(answer, why):
    """The level-up here has one option (agility), taken without asking: an answer of its
    shape that names what no level-up could take is a scenario error; one of another shape
    is left unused. Neither passes as a refusal."""
    broken = _load("dm_crawl_decks", LEVEL_UP)
    broken["steps"][0] = {"do": "descend", "choose": [answer], "illegal": True}
    failures = _run("dm_crawl_decks", broken)
    assert failures and why in failures[0], failures


@pytest.mark.parametrize("answer", [{"attribute": "strenght"}, {"attr": "strength"}, "no_such_card"])
def test_crawl_a_refused_answer_to_an_asked_decision_names_what_it_could_take(answer):
    """With three attributes open the level-up is asked: an answer it could never take is a
    scenario error."""
    broken = _load("dm_crawl_decks", LEVEL_UP)
    broken["setup"]["tokens"].update(perception=[3, 0], intelligence=[3, 0])
    broken["steps"][0] = {"do": "descend", "choose": [answer], "illegal": True}
    failures = _run("dm_crawl_decks", broken)
    assert failures and "scenario error" in failures[0] and "vacuously" in failures[0], failures


@pytest.mark.parametrize("step", [
    {"do": "descend", "choose": [{"attribute": "agility"}, {"attribute": "agility"}], "illegal": True},
    {"do": "descend", "choose": [{"attribute": "agility"}], "illegal": True},   # then none left
    {"do": "settle", "choose": [{"attribute": "strength"}], "illegal": True},   # never asked
    {"do": "settle", "illegal": True},                                          # nothing to refuse
])
def test_crawl_a_refused_answer_must_be_asked_and_refused(step):
    """An `illegal: true` answer step fails when the engine takes every answer, never asks for
    it, or when it names no answer at all (a rule step is no player's option to refuse)."""
    broken = _load("dm_crawl_decks", LEVEL_UP)
    broken["steps"][0] = step
    failures = _run("dm_crawl_decks", broken)
    assert failures and failures[0].startswith("steps[0]"), failures


def test_crawl_a_refused_answer_leaves_the_game_as_it_was():
    """The refused step is played on a copy: the later steps and expectations see the game as
    before it (one descend, DL 2, not two)."""
    good = _load("dm_crawl_decks", LEVEL_UP)
    assert _run("dm_crawl_decks", good) == []
    twice = copy.deepcopy(good)
    twice["steps"] = [{k: v for k, v in s.items() if k != "illegal"} for s in good["steps"][:1]]
    assert _run("dm_crawl_decks", twice)      # the same answer, not refusal-expected, fails


@pytest.mark.parametrize("do", ["turn_end", "dragon_attack", "score"])
def test_clank_illegal_on_a_step_the_runner_plays_fails_instead_of_playing_it(do):
    """Clank!'s `illegal: true` refuses a player's action: on `turn_end` it was ignored, the
    turn ended (discard, draw 5, refill, the dragon) and the scenario passed, refusal and all."""
    good = _load("clank_catacombs", "r2_pay_short_refused.yaml")
    broken = copy.deepcopy(good)
    broken["steps"] = [{"do": do, "player": 0, "illegal": True}]
    failures = _run("clank_catacombs", broken)
    assert failures and "illegal: true refuses a player's action" in failures[0], failures
