"""Hostile inputs of the sixteenth session's blind round: files that are not files (a FIFO,
/dev/zero), fan pack files read outside the loader, paths the system refuses, a run count
with no end, and a diagnostic list that made the text output quadratic. Each case ends in a
diagnostic (exit 1) or a usage error (exit 2), bounded; never a hang, a MemoryError or an
internal error. The cases that hung or exhausted memory before their fix run as a process
with a time and memory limit, so a regression fails instead of hanging the suite.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.compiler import cli
from tomecraft.compiler import diagnostics as dg

REPO = Path(__file__).resolve().parents[2]
MISSION = REPO / "content" / "deep_rock_galactic" / "missions" / "README.md"
DRG_PACK = REPO / "content" / "deep_rock_galactic" / "packs" / "goo_from_above"


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def cli_process(argv: list, cwd: Path) -> subprocess.CompletedProcess:
    """The command line as a process: at most 60 s and 2 GiB (a hang or a memory blow-up
    before the fix is a failure here, not a stuck suite)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("TOMECRAFT_DEBUG", None)
    try:
        return subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *map(str, argv)],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=60,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tomecraft {' '.join(map(str, argv))} did not end in 60 s")


def mission_text() -> str:
    text = MISSION.read_text(encoding="utf-8")
    return text.split("```yaml\n", 1)[1].split("```", 1)[0]


def assert_diagnostic(proc: subprocess.CompletedProcess, code: int, wanted: str) -> None:
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert wanted in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)


# --- a standalone file that is not a regular file: check read it whole (F-01's sniffing) -----

def test_check_of_a_fifo_is_a_located_diagnostic_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "m.yaml")   # nobody writes to it: a read blocks for good
    proc = cli_process(["check", "m.yaml"], tmp_path)
    assert_diagnostic(proc, 1, "m.yaml:1:1: error[TC-Y001]: not a regular file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
def test_check_of_dev_zero_is_a_diagnostic_not_a_memory_error(tmp_path):
    proc = cli_process(["check", "/dev/zero"], tmp_path)
    assert_diagnostic(proc, 1, "/dev/zero:1:1: error[TC-Y001]: not a regular file")


# --- a Deep Rock Galactic pack beside a mission file: its files were read with -------------
# --- yaml.safe_load(read_text()), outside the loader's limits, for the hints' roster ------

def _mission_beside_pack(tmp_path: Path, plant) -> Path:
    (tmp_path / "salt_pits.yaml").write_text(mission_text(), encoding="utf-8")
    pack = tmp_path / "goo"
    shutil.copytree(DRG_PACK, pack)
    plant(pack)
    return pack


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(9))


@pytest.mark.parametrize("plant", [
    pytest.param(lambda pack: os.mkfifo(pack / "zz.yaml"), id="fifo"),
    pytest.param(lambda pack: os.symlink("/dev/zero", pack / "zz.yaml"), id="link-to-dev-zero"),
    pytest.param(lambda pack: (pack / "zz.yaml").write_text(BOMB + "monsters: *j\n"),
                 id="alias-bomb"),
])
def test_a_hostile_file_in_a_pack_beside_a_mission_is_never_read_whole(tmp_path, plant):
    pack = _mission_beside_pack(tmp_path, plant)
    proc = cli_process(["check", "salt_pits.yaml"], tmp_path)   # the pack beside: for hints
    assert_diagnostic(proc, 0, "0 errors")
    proc = cli_process(["check", "salt_pits.yaml", "--pack", pack.name], tmp_path)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, (proc.stdout, proc.stderr)    # the pack's own check refuses it


# --- a run with no end --------------------------------------------------------------------

@pytest.mark.parametrize("games", [1_000_001, 10 ** 9, 10 ** 30])
def test_sim_games_past_the_cap_is_a_usage_error(tmp_path, games):
    proc = cli_process(["sim", "the_cave", "--games", games], REPO)   # as balance's cap
    assert_diagnostic(proc, 2, "goes up to 1,000,000")


# --- a path the system refuses to look up (ENAMETOOLONG) -----------------------------------

LONG = "a/" * 3000 + "x.yaml"


@pytest.mark.parametrize("argv", [
    ["check", LONG],
    ["check", "--pack", LONG],
    ["sim", "deep_rock_galactic", "--mission", LONG, "--games", "1"],
    ["scenario", "run", LONG],
    ["sheets", "--mission", LONG],
    ["sheets", "--game", "the_cave", "--out", LONG],
    ["schema", "--out", LONG],
    ["new", "pack", "the_cave", LONG + "/p", "--id", "p"],
], ids=lambda argv: "-".join(a for a in argv if a is not LONG)[:40])
def test_a_path_too_long_is_a_usage_error_in_every_command(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    assert code in (1, 2), (code, out, err)
    assert not any(tmp_path.iterdir()), "nothing is written for a refused path"


# --- many diagnostics in one file: the text output split the file once per diagnostic ------

class _CountingText(str):
    splits = 0

    def split(self, *args, **kwargs):
        type(self).splits += 1
        return super().split(*args, **kwargs)


def test_the_text_output_splits_each_file_once_however_many_diagnostics():
    reporter = dg.Reporter()
    lines = 2000
    reporter.sources["many.yaml"] = _CountingText("tokens:\n" + "  - 1\n" * lines)
    for line in range(2, lines + 2):
        reporter.add(dg.SCHEMA, "1 is not a token", "many.yaml", line, 5)
    text = dg.format_text(reporter)
    assert text.endswith(f"{lines} errors, 0 warnings")
    assert text.count("   | ") == 0 and text.count(" |   - 1") == lines   # every excerpt shown
    assert _CountingText.splits == 1


# --- the compiled-game cache: what it holds is imported as code -----------------------------

def _sim_env(tmp_path: Path, cache: str | None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"))
    env.pop("XDG_CACHE_HOME", None)
    env.pop("TOMECRAFT_CACHE", None)
    if cache is not None:
        env["TOMECRAFT_CACHE"] = cache
    return env


def _sim(tmp_path: Path, cache: str | None, cwd: Path) -> subprocess.CompletedProcess:
    pack = tmp_path / "mine"
    if not pack.exists():
        assert cli.main(["new", "pack", "the_cave", str(pack)]) == 0
    return subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "sim", "the_cave",
                           "--pack", str(pack), "--games", "1"], cwd=cwd,
                          env=_sim_env(tmp_path, cache), capture_output=True, text=True,
                          timeout=300)


def test_a_relative_tomecraft_cache_writes_nothing_in_the_working_folder(tmp_path, capsys):
    work = tmp_path / "fan_repository"
    work.mkdir()
    proc = _sim(tmp_path, "cache", work)
    capsys.readouterr()
    assert proc.returncode == 0, proc.stderr
    assert not any(work.iterdir()), "a relative $TOMECRAFT_CACHE named the working folder"
    assert any((tmp_path / "home" / ".cache" / "tomecraft" / "compiled").iterdir())  # as unset


def test_a_package_planted_in_a_cache_others_can_write_never_runs(tmp_path, capsys):
    own = tmp_path / "own"
    assert _sim(tmp_path, str(own), tmp_path).returncode == 0
    capsys.readouterr()
    [package] = (own / "compiled").iterdir()          # the name the content hashes to
    shared = tmp_path / "shared"                       # as /tmp/cache: anyone may write there
    planted = shared / "compiled" / package.name
    shutil.copytree(package, planted)
    marker = tmp_path / "planted_code_ran"
    (planted / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    for folder in (shared, shared / "compiled"):
        folder.chmod(0o777)
    proc = _sim(tmp_path, str(shared), tmp_path)
    assert not marker.exists(), "a package others could plant was imported"
    assert proc.returncode == 0, proc.stderr


# --- a terminal that cannot show the content's text (ASCII, cp1252) -------------------------

@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("argv, code", [
    (["report", "gaps", "--game", "the_cave"], 0),    # the notes quote Chinese names
    (["check", "{pack}"], 1),                          # an excerpt of a line with CJK in it
    (["check", "{pack}", "--format", "json"], 1),
])
def test_text_the_terminal_cannot_encode_is_escaped_not_an_internal_error(tmp_path, encoding,
                                                                          argv, code):
    pack = tmp_path / "mine"
    assert cli.main(["new", "pack", "the_cave", str(pack)]) == 0
    (pack / "more.yaml").write_text("tokens:\n  - id: 甲乙\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONIOENCODING=encoding)
    proc = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli",
                           *[a.format(pack=pack) for a in argv]], cwd=REPO, env=env,
                          capture_output=True, timeout=120)
    err = proc.stderr.decode("ascii", "replace")
    assert "internal error" not in err and "Traceback" not in err, err
    assert proc.returncode == code, err
    if argv[0] == "check":
        assert b"\\u7532\\u4e59" in proc.stdout      # the name, escaped


# --- nested repeats through keywords: each bounded alone, 99**4 rounds together -------------

def _keyword_chain_pack(tmp_path: Path, levels: int, count: int) -> Path:
    pack = tmp_path / "chain"
    assert cli.main(["new", "pack", "the_cave", str(pack)]) == 0
    names = [f"k{i}" for i in range(levels)]
    keywords = "".join(
        f"    {name}:\n      params: []\n      effect: repeat {count} "
        f"{{ {names[i + 1] if i + 1 < levels else 'gain_token traverse 1'} }}\n"
        f"      text: {{zh: 甲{i}, en: K{i}}}\n" for i, name in enumerate(names))
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "vocabulary:\n", "vocabulary:\n  keywords:\n" + keywords), encoding="utf-8")
    actions = pack / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace(
        "camp_packed(); abandon_camp", "camp_packed(); k0; abandon_camp"), encoding="utf-8")
    return pack


def test_nested_repeats_through_keywords_are_refused_where_they_multiply(tmp_path, capsys):
    pack = _keyword_chain_pack(tmp_path, levels=4, count=99)   # 99**4: 96 million rounds
    code = cli.main(["check", str(pack)])
    out, err = capsys.readouterr()
    assert code == 1, out
    found = [line for line in out.splitlines() if "error[TC-E002]" in line]
    assert any(line.startswith(f"{pack / 'pack.yaml'}:") and "keyword 'k1' repeats 970,299"
               in line for line in found), out             # k0's body, at its call of k1
    assert any(line.startswith(f"{pack / 'actions.yaml'}:") and "keyword 'k0'" in line
               for line in found), out                     # the action calling k0


def test_repeats_through_keywords_within_the_limit_check_clean(tmp_path, capsys):
    pack = _keyword_chain_pack(tmp_path, levels=2, count=99)   # 9,801 rounds: fine
    code = cli.main(["check", str(pack)])
    out, err = capsys.readouterr()
    assert code == 0 and "0 errors" in out, out


def test_a_runaway_a_trial_caught_still_stops_sim_located(tmp_path, capsys):
    """Repeat counts passed as keyword parameters: the checker cannot multiply them, the step
    budget stops them. The engine's trials (what would this option do?) caught the runaway as
    an option that fails: every game stood still to its round cap, `sim` exited 0."""
    pack = _keyword_chain_pack(tmp_path, levels=4, count=99)
    manifest = pack / "pack.yaml"
    text = manifest.read_text(encoding="utf-8").replace(
        "params: []", "params: [{name: n, type: int, min: 1}]").replace("repeat 99 {", "repeat n {")
    for i in range(1, 4):
        text = text.replace(f"{{ k{i} }}", f"{{ k{i} n }}")
    manifest.write_text(text, encoding="utf-8")
    actions = pack / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace("k0;", "k0 99;"),
                       encoding="utf-8")
    assert cli.main(["check", str(pack)]) == 0          # clean: counts it cannot know
    capsys.readouterr()
    code = cli.main(["sim", "the_cave", "--pack", str(pack), "--games", "1"])
    out, err = capsys.readouterr()
    assert "internal error" not in err
    assert code == 1, out
    assert "error[TC-E004]: the game's effects ran past their budget" in out, out
    assert f"{manifest}:" in out, out                    # located in the pack's keyword


# --- a whole number written as a float: JSON Schema's "integer" takes 1.0 and -0.0 -----------

@pytest.mark.parametrize("file, before, after, shown", [
    ("equipment.yaml", "slots: 1", "slots: 1.0", "1.0 is not a whole number"),
    ("actions.yaml", "order: 7", "order: -0.0", "-0.0 is not a whole number"),
    ("scoring.yaml", "- 8", "- 8.0", "8.0 is not a whole number"),     # in a list
])
def test_a_float_where_content_counts_is_refused_at_its_line(tmp_path, capsys, file, before,
                                                             after, shown):
    pack = tmp_path / "floaty"
    assert cli.main(["new", "pack", "the_cave", str(pack)]) == 0
    text = (pack / file).read_text(encoding="utf-8")
    assert before in text
    (pack / file).write_text(text.replace(before, after, 1), encoding="utf-8")
    line = text[:text.index(before)].count("\n") + 1
    capsys.readouterr()
    assert cli.main(["check", str(pack)]) == 1
    out, err = capsys.readouterr()
    assert f"{pack / file}:{line}:" in out and shown in out, out
    assert cli.main(["sheets", "--game", "the_cave", "--pack", str(pack),
                     "--out", str(tmp_path / "sheets")]) == 1    # never printed as "1.0"
