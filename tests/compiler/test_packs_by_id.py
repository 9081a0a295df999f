"""A shipped pack named by its id (`--pack tomb_party`), from a folder that is not the checkout.

A fan's folder has no content/: the shipped packs could be named only by their installed
folder's path. Now every `--pack`, a scenario file's `packs:` and the Python API's `packs=` take
a shipped pack's id for the game at hand, resolved as `requires:` resolves one
(pipeline.resolve_pack); a folder of that name in the working directory wins. Anything else is a
usage error naming the game's shipped packs. The CLI runs in-process from a temporary folder.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tomecraft.compiler import cli

REPO = Path(__file__).resolve().parents[2]
PARTY = REPO / "content" / "clank_catacombs" / "packs" / "tomb_party"
FIVE = REPO / "tests" / "scenarios" / "clank_catacombs" / "b_party_setup_five.yaml"


@pytest.fixture
def fan(tmp_path, monkeypatch) -> Path:
    """An empty folder of the user's own, the working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["sim", "clank_catacombs", "--games", "2", "--seed", "4", "--players", "5", "--json"],
    ["sim", "deep_rock_galactic", "--games", "1", "--json", "--usage"],
])
def test_sim_plays_a_shipped_pack_named_by_its_id_as_by_its_folder(fan, capsys, argv):
    pack = {"clank_catacombs": PARTY, "deep_rock_galactic": PARTY.parents[2]
            / "deep_rock_galactic" / "packs" / "goo_from_above"}[argv[1]]
    by_folder = run(capsys, *argv, "--pack", str(pack))
    by_id = run(capsys, *argv, "--pack", pack.name)
    assert by_id[0] == 0, by_id
    assert by_id[1] == by_folder[1]          # the same games, byte for byte
    assert json.loads(by_id[1])["game"] == argv[1]


def test_check_with_a_shipped_pack_id_checks_the_game_that_ships_it(fan, capsys):
    code, out, err = run(capsys, "check", "--pack", "tomb_party")
    assert code == 0, out + err
    assert "checking clank_catacombs + tomb_party" in err and "0 errors" in out


def test_a_scenario_files_packs_entry_may_be_a_shipped_packs_id(fan, capsys):
    """Five players need tomb_party: the scenario passes with the id, and fails without it
    (so the pass is the pack's doing)."""
    text = FIVE.read_text(encoding="utf-8")
    written = text.replace('packs: ["../../../content/clank_catacombs/packs/tomb_party"]',
                           "packs: [tomb_party]")
    assert written != text
    (fan / "five.yaml").write_text(written, encoding="utf-8")
    (fan / "none").mkdir()
    (fan / "none" / "five.yaml").write_text(written.replace("packs: [tomb_party]\n", ""),
                                            encoding="utf-8")
    code, out, _ = run(capsys, "scenario", "run", "five.yaml")
    assert code == 0 and "1 passed, 0 failed" in out, out
    code, out, _ = run(capsys, "scenario", "run", "none/five.yaml")
    assert code == 1, out


def test_a_scenario_packs_entry_naming_nothing_fails_at_its_line_naming_the_shipped_packs(fan, capsys):
    (fan / "s.yaml").write_text("game: clank_catacombs\npacks: [tomb_prty]\nsetup: {}\n",
                                encoding="utf-8")
    code, out, _ = run(capsys, "scenario", "run", "s.yaml")
    assert code == 1
    assert "FAIL  s.yaml:2:" in out and "did you mean `tomb_party`?" in out, out
    assert "clank_catacombs's shipped packs: tomb_party" in out


def test_scenario_run_pack_option_takes_an_id_for_the_games_the_scenarios_play(fan, capsys):
    text = FIVE.read_text(encoding="utf-8").replace(
        'packs: ["../../../content/clank_catacombs/packs/tomb_party"]\n', "")
    (fan / "five.yaml").write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "scenario", "run", "five.yaml", "--pack", "tomb_party")
    assert code == 0 and "1 passed, 0 failed" in out, out + err
    code, out, err = run(capsys, "scenario", "run", "five.yaml", "--pack", "goo_from_above")
    assert code == 2 and "shipped with clank_catacombs" in err, err


def test_cards_and_balance_take_a_shipped_pack_id(fan, capsys):
    code, out, err = run(capsys, "cards", "--game", "clank_catacombs", "--pack", "tomb_party",
                         "--lang", "en", "--format", "html", "--out", "cards")
    assert code == 0, out + err
    assert list((fan / "cards" / "clank_catacombs__tomb_party").glob("*.html"))
    code, out, err = run(capsys, "balance", "clank_catacombs", "--pack", "tomb_party",
                         "--games", "2", "--workers", "1", "--quiet")
    assert code == 0, out + err
    assert "clank_catacombs with tomb_party" in out


def test_a_folder_of_that_name_here_wins_over_the_shipped_pack(fan, capsys):
    """`--pack tomb_party` with a folder tomb_party/ in the working directory is that folder:
    here one with no pack.yaml, reported as such (the shipped pack would have loaded)."""
    (fan / "tomb_party").mkdir()
    code, out, _ = run(capsys, "sim", "clank_catacombs", "--pack", "tomb_party", "--games", "1")
    assert code == 1 and "pack.yaml is missing" in out, out


@pytest.mark.parametrize("argv, said", [
    (["sim", "clank_catacombs", "--pack", "tomb_prty"],
     "did you mean `tomb_party`? (clank_catacombs's shipped packs: tomb_party)"),
    (["sim", "the_cave", "--pack", "mud_caves"], "(the_cave ships no packs)"),
    (["sim", "the_cave", "--pack", "tomb_party"], "'tomb_party' is a pack for clank_catacombs, not the_cave"),
    (["cards", "--game", "deep_rock_galactic", "--pack", "goo_from_abov"],
     "did you mean `goo_from_above`?"),
    (["check", "--pack", "goo_from_abov"], "did you mean `goo_from_above`?"),
    (["balance", "clank_catacombs", "--pack", "nothing"], "clank_catacombs's shipped packs: tomb_party"),
    (["sheets", "--game", "the_cave", "--pack", "nothing"], "the_cave ships no packs"),
])
def test_an_id_that_is_neither_a_folder_nor_a_shipped_pack_is_a_usage_error(fan, capsys, argv, said):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (out, err)
    assert err.startswith("tomecraft: error[TC-X001]: no pack folder ") and said in err, err


def test_the_python_api_takes_a_shipped_pack_id_and_says_a_missing_folder_plainly(fan):
    """A missing pack folder was a ContentError at `mud_caves:1:1:`, a line and column of a
    file that does not exist; it is now the usage error the command line gives."""
    from tomecraft.compiler.api import UsageError, load_game
    game = load_game("clank_catacombs", packs=["tomb_party"])
    assert any(i.startswith("party_") for table in game.kinds.values() for i in table)
    with pytest.raises(UsageError) as raised:
        load_game("the_cave", packs=["mud_caves"])
    assert str(raised.value) == ("no pack folder mud_caves, and no pack of that id is shipped "
                                 "with the_cave (the_cave ships no packs)")


def test_report_gaps_names_shipped_files_inside_the_content_not_by_absolute_path(fan, capsys):
    """Run from outside the project (from a wheel: site-packages), the facts' files were shown
    by their full path."""
    code, out, _ = run(capsys, "report", "gaps", "--game", "the_cave", "--format", "json")
    assert code == 0
    files = {row["file"] for row in json.loads(out)["gaps"]}
    assert files and all(f.startswith("content/the_cave/") for f in files), sorted(files)[:3]
    assert all((REPO / f).is_file() for f in files)


@pytest.mark.parametrize("argv", [
    ["sim", "the_cave", "--pack", ""], ["check", "content/the_cave", "--pack", " "],
    ["balance", "clank_catacombs", "--pack", ""],
])
def test_an_empty_pack_name_is_a_usage_error(fan, capsys, argv):
    """`--pack ''` was the working folder (Path('') is '.'): '.:1:1 pack.yaml is missing'."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and "an empty pack name" in err, (out, err)
