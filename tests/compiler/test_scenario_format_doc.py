"""`tomecraft scenario format GAME` tells a tester every key a game's scenario files may use.

The format is written once, in each runner's module docstring; these tests hold it to the
code: every key the project's own scenarios use, and every key a runner's key tables accept,
is named there. A key the runner reads but the format leaves out is a key no outside tester
could find.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tomecraft.compiler import cli

REPO = Path(__file__).resolve().parents[2]
GAMES = ["the_cave", "clank_catacombs", "dm_crawl_decks", "dungeontology", "deep_rock_galactic"]


def format_words(game: str, capsys) -> tuple[str, set[str]]:
    code = cli.main(["scenario", "format", game])
    out, err = capsys.readouterr()
    assert code == 0 and not err, err
    return out, set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", out))


def used_keys(game: str) -> set[str]:
    """Setup, step and expectation keys (and step kinds) of the shipped scenarios."""
    yaml = YAML(typ="safe")
    keys: set[str] = set()
    files = sorted((REPO / "tests/scenarios" / game).glob("*.yaml"))
    assert len(files) > 50, f"too few scenarios of {game} to stand for the format"
    for path in files:
        data = yaml.load(path.read_text(encoding="utf-8"))
        keys.update(map(str, data.get("setup") or {}))
        for entry in (data.get("steps") or []) + (data.get("expect") or []):
            keys.update(map(str, entry))
        keys.update(str(step["do"]) for step in data.get("steps") or [] if "do" in step)
    return keys


@pytest.mark.parametrize("game", GAMES)
def test_the_format_names_every_key_the_games_scenarios_use(game, capsys):
    out, words = format_words(game, capsys)
    assert out.startswith("Every scenario file is a YAML mapping:\n  game: " + game + "\n")
    missing = sorted(used_keys(game) - words)
    assert not missing, f"{game}: keys its scenarios use that `scenario format` leaves out: {missing}"


def test_the_format_names_every_key_the_runners_tables_accept(capsys):
    """Dungeontology and Deep Rock Galactic keep tables of the keys they accept."""
    from tomecraft.runtime.engines.deep_rock_galactic import scenario as drg
    from tomecraft.runtime.engines.dungeontology import scenario_checks as dgn
    _, words = format_words("dungeontology", capsys)
    tables = dgn.SETUP_KEYS | dgn.REGION_KEYS | dgn.SCHOLAR_KEYS | dgn.ATTEMPT_KEYS | set(dgn.STEP_KEYS)
    tables |= set().union(*dgn.STEP_KEYS.values(), *dgn.EXPECT_KEYS.values()) | set(dgn.EXPECT_KEYS)
    assert not sorted(tables - words)
    _, words = format_words("deep_rock_galactic", capsys)
    tables = set(drg.ACTION_KEYS) | set().union(*drg.ACTION_KEYS.values()) | set(drg.STEPS) | drg.STEP_KEYS
    assert not sorted(tables - words)


@pytest.mark.parametrize("argv", [["scenario", "format", "no_such_game"],
                                  ["scenario", "format", "the_cave", "clank_catacombs"],
                                  ["scenario", "format", "../content"],
                                  ["scenario", "format", "the_cave", "--pack", "/no/such/pack"],
                                  ["scenario", "format", "the_cave", "--format", "json"]])
def test_format_of_anything_but_one_known_game_is_a_usage_error(argv, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert not out and "Traceback" not in err and "error" in err


def test_a_misspelt_top_level_key_fails_at_its_line(tmp_path, capsys):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("game: the_cave\nname: n\nsetup: {}\nexpectt: []\n", encoding="utf-8")
    assert cli.main(["scenario", "run", str(scenario)]) == 1
    out, _ = capsys.readouterr()
    assert f"{scenario}:4: n: unknown key 'expectt': did you mean `expect`?" in out
