"""Scenario files with a fan's mistakes in them (tests/scenario_mistakes/<game>/, written from
the README and `scenario format` alone): each fails at the line of the entry at fault, says
what is wrong in the file's terms (the header's `# fails: LINE: TEXT`), and never shows a
Python error. `pos: null` said "TypeError: 'NoneType' object is not subscriptable", `hp: ten`
"invalid literal for int()", `log: []` "no log line contains []", `statuses: webbed` was read
as the statuses w, e, b, d; a second tile at one place, a second monster with one id, a
one-space pod and a negative threat passed."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tomecraft.compiler import scenarios
from tomecraft.runtime import scenario_shapes

REPO = Path(__file__).resolve().parent.parent
MISTAKES = sorted((REPO / "tests/scenario_mistakes").glob("*/*.yaml"))
HEADER = re.compile(r"^# fails: (\d+): (.+)$", re.M)
# the words of a Python error, not of a scenario file
PYTHON = ("Error:", "object is not", "invalid literal", "NoneType", "not subscriptable",
          "not iterable", "has no attribute", "requires string")


def test_every_game_has_mistakes_to_fail():
    assert {p.parent.name for p in MISTAKES} == {
        "clank_catacombs", "the_cave", "dm_crawl_decks", "dungeontology", "deep_rock_galactic"}
    assert len(MISTAKES) >= 60


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_mistake_fails_at_its_line_in_the_files_terms(path):
    line, said = HEADER.search(path.read_text(encoding="utf-8")).groups()
    outcome = scenarios.run_file(path)
    assert not outcome.ok, f"{path.name} passed"
    (at, message), *_ = outcome.failures
    assert at == int(line) and said in message, outcome.failures
    assert not any(word in message for word in PYTHON), message


@pytest.mark.parametrize("game", ["clank_catacombs", "the_cave", "dm_crawl_decks", "dungeontology",
                                  "deep_rock_galactic"])
def test_the_format_text_lists_every_declared_shape(game):
    """`scenario format` prints the shapes the check reads: a key the check refuses is one the
    format says the shape of."""
    import importlib
    from tomecraft.runtime.scenario import shapes_of
    text = scenarios.format_text(game, game)
    runner = importlib.import_module(f"tomecraft.runtime.engines.{game}.scenario")
    for section, keys in shapes_of(runner).items():
        for key, shape in keys.items():
            assert shape.wants in text, (section, key)
            assert re.search(rf"\b{re.escape(key)}\b", text.split("Values (")[1]), (section, key)


def test_a_shape_names_the_path_the_wanted_shape_and_what_was_written():
    shapes = scenario_shapes.merged({"setup": {"teams": scenario_shapes.records(
        {"pos": scenario_shapes.POS, "backpack": scenario_shapes.counts()})}})
    scenario = {"setup": {"teams": [{"pos": [0, 0]}, {"backpack": {"rope": -1}}]},
                "steps": [{"do": "end", "choose": 3}], "expect": [{"log": ["x"]}]}
    assert scenario_shapes.problem(scenario, shapes) == (
        ("setup", "teams", 1, "backpack", "rope"),
        "setup.teams[1].backpack.rope: a whole number, 0 or more, not -1")
    scenario["setup"]["teams"][1]["backpack"]["rope"] = 1
    assert scenario_shapes.problem(scenario, shapes) == (
        ("steps", 0, "choose"), "steps[0].choose: a list of answers, in order ([...]), not 3")
    scenario["steps"][0]["choose"] = [3]
    assert scenario_shapes.problem(scenario, shapes)[1] == \
        "expect[0].log: a text (a line of the log contains it), not ['x']"
    scenario["expect"][0]["log"] = "x"
    assert scenario_shapes.problem(scenario, shapes) is None


@pytest.mark.parametrize("game", ["clank_catacombs", "the_cave", "dungeontology"])
def test_the_format_text_says_which_way_a_position_runs(game):
    """A position [x, y] is read by each game's own compass: The Cave's and Clank!'s N is y + 1,
    Dungeontology's S is y + 1 (north up, rows counted down). Dungeontology's format said
    nothing, and a blind round's region placed "north" at [0, 1] was south of the camp."""
    text = scenarios.format_text(game, game)
    assert re.search(r"\b[NS] is y \+ 1\b", text) and "E is x + 1" in text, game
