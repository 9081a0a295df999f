"""The README's tour shows what the commands really print.

Each `$ tomecraft ...` line of the tour is run; every line the README shows after it must
appear in the command's output (stdout and stderr), in order. `...` in the README marks lines
left out. The fan example `my_cave/` is the_cave with the three mistakes the README shows.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOUR = README[README.index("### A tour"):README.index("## Writing content")]


def sessions() -> list[tuple[str, list[str]]]:
    """(command, shown output lines) for every `$ tomecraft` line in the tour's code blocks."""
    found = []
    for block in re.findall(r"```\n(.*?)```", TOUR, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = (line[2:], [])
                found.append(current)
            elif current is not None:
                current[1].append(line)
    return [(cmd, lines) for cmd, lines in found if cmd.startswith("tomecraft ")]


def make_fan_cave(cwd: Path) -> None:
    shutil.copytree(ROOT / "content" / "the_cave", cwd / "my_cave")
    path = cwd / "my_cave" / "tile_kinds.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in [('"require has(raft); pay ap 1"', '"require has(raf); pay ap 1"'),
                     ('"pay ap 2, use_oxygen -> take_token water"',
                      '"pay ap 2, use_oxygen -> tak_token water"'),
                     ('on_discover: "place_token photo"', 'on_discover: "place_token photo;"')]:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def appears_in_order(shown: list[str], output: str) -> list[str]:
    """The README lines missing from the output (in order). A line `...` skips any lines;
    a line ending in `...` shows only the start of an output line."""
    lines = output.splitlines()
    missing, i = [], 0
    for want in shown:
        if want.strip() in ("...", "") or want.lstrip().startswith("..."):
            continue
        want = want.rstrip()
        prefix = want.endswith("...")  # `text ...` shows the start of a longer line
        want = want[:-3].rstrip() if prefix else want

        def matches(line: str) -> bool:
            return line.rstrip().startswith(want) if prefix else line.rstrip() == want
        while i < len(lines) and not matches(lines[i]):
            i += 1
        if i == len(lines):
            missing.append(want)
            i = 0
        else:
            i += 1
    return missing


SESSIONS = sessions()


def test_the_tour_has_commands():
    assert len(SESSIONS) >= 8


@pytest.mark.parametrize("command, shown", SESSIONS, ids=[c for c, _ in SESSIONS])
def test_tour_command_prints_what_the_readme_shows(command, shown, tmp_path, shared_cli):
    cwd = ROOT
    argv = command.split()[1:]
    if any("my_cave" in a for a in argv):
        # run the fan example from a scratch directory holding my_cave/ and content/
        make_fan_cave(tmp_path)
        os.symlink(ROOT / "content", tmp_path / "content")
        cwd = tmp_path
    if argv[:1] == ["sheets"]:
        argv = [a if a != "sheets" or i == 0 else str(tmp_path / "sheets")
                for i, a in enumerate(argv)]
        shown = [line.replace("sheets/", f"{tmp_path}/sheets/") for line in shown]
    if argv[:1] == ["build"] and "--check" not in argv:
        argv = ["build", "--check"]  # never rewrite the repository from a test
        shown = [line for line in shown if not line.startswith("wrote ")]
    if argv[:1] == ["sim"]:
        # a long run other tests check too: run once per session (the summary is stdout)
        _, stdout, stderr = shared_cli(*argv)
        output = stdout + stderr
    elif cwd == ROOT:
        # merged and unbuffered: the interleaving of progress and results a terminal shows;
        # once per session (the tour's `build` is run as its `build --check` is)
        output = shared_cli(*argv, merged=True)[1]
    else:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        output = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *argv], cwd=cwd, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                timeout=300).stdout
    missing = appears_in_order(shown, output)
    assert not missing, f"README shows lines the command did not print:\n{missing}\n---\n{output}"


def test_the_games_table_counts_the_scenarios_there_are():
    """The opening table's `scenarios` column is the number of scenario files per game."""
    rows = re.findall(r"^\| [^|]+ \| `(\w+)` \| [^|]+ \| (\d+) \|", README, re.M)
    assert len(rows) == 5, rows
    for game, count in rows:
        files = list((ROOT / "tests" / "scenarios" / game).glob("*.yaml"))
        assert int(count) == len(files), f"{game}: the README says {count} scenarios, there are {len(files)}"


def test_the_scenario_example_passes_and_fails_when_its_expectation_is_wrong(tmp_path):
    """The "Scenario files" example is a real scenario: it passes as shown, and a wrong
    expected marker makes it fail (so the example is not vacuous)."""
    from tomecraft.compiler import scenarios
    section = README[README.index("### Scenario files"):README.index("## Python API")]
    example, = re.findall(r"```yaml\n(.*?)```", section, flags=re.S)
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    assert scenarios.run_file(path).ok, scenarios.run_file(path).failures
    path.write_text(example.replace("marker: 25", "marker: 50"), encoding="utf-8")
    assert not scenarios.run_file(path).ok


GAME_NAMES = {"Clank!": "clank_catacombs", "The Cave": "the_cave", "Dungeontology": "dungeontology",
              "Crawl Decks": "dm_crawl_decks", "Deep Rock Galactic": "deep_rock_galactic"}


def _effect_language_examples() -> list[tuple[str, str]]:
    """(game id, effect) of every example of the effect-language table, each with the game
    named in brackets after it."""
    table = README.split("### The effect language", 1)[1].split("A colon body", 1)[0]
    found = []
    for row in table.splitlines():
        cells = row.split(" | ")
        if len(cells) < 3 or cells[0] in ("| form", "| ---"):
            continue
        pending = []   # examples waiting for the (Game) after them
        for code, game in re.findall(r"`([^`]+)`|\(([^)]+)\)", cells[1]):
            if code:
                pending.append(code.replace("\\|", "|"))
            elif game in GAME_NAMES:
                found += [(GAME_NAMES[game], effect) for effect in pending]
                pending = []
        assert not pending, f"an example with no (game) after it: {pending}"
    return found


def test_every_effect_language_example_checks_in_its_game():
    """The table's `gain 2 gold`, `choose { gain 2 combat | heal 1 }`, `target.points += 1`...
    checked in no game: a newcomer copying them got 'expected a resource, got a number'
    (gain takes its resource first) or unknown names."""
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.compiler import pipeline
    from tomecraft.compiler.checks import Checker
    from tomecraft.compiler.model import EffectSite
    from tomecraft.dsl.parser import parse

    class Place:
        def effect_position(self, path, line, column):
            return line, column

    examples = _effect_language_examples()
    assert len(examples) >= 19, examples
    games = {}
    for game_id, text in examples:
        game = games.get(game_id) or games.setdefault(
            game_id, pipeline.compile_game(ROOT / "content" / game_id, [], dg.Reporter()))
        reporter = dg.Reporter()
        site = EffectSite(("example",), text)
        site.ast = parse(text)
        Checker(game, reporter).check_site(site, Place(), "README.md", {})
        assert not reporter.diagnostics, (game_id, text, [d.message for d in reporter.diagnostics])


def test_the_rulebook_comparison_table_shows_what_the_token_sheet_prints(tmp_path):
    """The Catacomb Map's row said "Continuous: you may cross..." / "持续：..." while the sheet
    prints "Passive: You may cross..." (the label is the field's, the text the effect's)."""
    import html as html_lib

    from tomecraft.compiler import cli
    assert cli.main(["sheets", "--game", "clank_catacombs", "--format", "html",
                     "--out", str(tmp_path)]) == 0

    def text(lang: str) -> str:
        page = (tmp_path / "clank_catacombs" / f"tokens.{lang}.html").read_text(encoding="utf-8")
        return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))
    printed = {"zh": text("zh"), "en": text("en")}
    table = README.split("**How close to the rulebooks.**", 1)[1].split("What the rulebook says", 1)[0]
    rows = [[c.strip() for c in row.split("|")[1:-1]] for row in table.splitlines() if row.startswith("| ")]
    rows = [r for r in rows if r[0] not in ("token", "---")]
    assert len(rows) == 22
    for token, _, zh, en in rows:
        zh, en = zh.split("…")[0], en.split("…")[0].rstrip(".")
        assert zh in printed["zh"] and en in printed["en"], (token, zh, en)
