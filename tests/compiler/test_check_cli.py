"""`tomecraft check` end to end: exit codes, one exact diagnostic per planted error, JSON, explain.

The CLI runs in-process (compiler.cli.main with capsys) and once as a subprocess. Planted
errors live in files this test writes into a copy of content/the_cave, so the expected
positions are computed from the planted text itself.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.compiler import cli
from tomecraft.compiler import diagnostics as dg

REPO = Path(__file__).resolve().parents[2]
BASE = "content/the_cave"

# Each planted error is marked `#! CODE[+offset]`: the diagnostic must be on that line, at the
# column of the text after `@` in the marker (or of the line's first non-blank character).
PLANTED_TILES = """\
tile_kinds:
  - id: planted_verb
    name: {zh: 甲, en: A}
    source: rulebook
    ref: L1
    enter:
      - {id: walk, effect: "pay ap 1; jump 1"}                 #! TC-N001 @jump 1
    discover_from: true
  - id: planted_name
    name: {zh: 乙, en: B}
    source: rulebook
    ref: L1
    on_discover: "place_token watr"                            #! TC-N001 @watr
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
  - id: planted_arity
    name: {zh: 丙, en: C}
    source: rulebook
    ref: L1
    enter: [{id: walk, effect: "pay ap"}]                      #! TC-N002 @pay ap"
    discover_from: true
  - id: planted_folded
    name: {zh: 丁, en: D}
    source: rulebook
    ref: L1
    enter:
      - id: walk
        effect: >-
          pay ap 1;
          gain_token traverse 1 ? reach_depth                  #! TC-E001 @? reach
    discover_from: true
  - id: planted_type
    name: {zh: 戊, en: E}
    source: rulebook
    ref: L1
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: "no"                                        #! TC-S001 @"no"
  - id: planted_field
    name: {zh: 己, en: F}
    source: rulebook
    ref: L1
    colour: red                                                #! TC-S001 @colour
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
  - id: planted_note
    name: {zh: 庚, en: G}
    source: approximation                                      #! TC-S004 @approximation
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
  - id: planted_dup
    name: {zh: 辛, en: H}
    source: rulebook
    ref: L1
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
  - id: planted_dup                                            #! TC-S003 @planted_dup
    name: {zh: 壬, en: I}
    source: rulebook
    ref: L1
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
  - id: planted_dupkey
    name: {zh: 癸, en: J}
    source: rulebook
    ref: L1
    ref: L2                                                    #! TC-Y003 @ref
    enter: [{id: walk, effect: "pay ap 1"}]
    discover_from: true
"""

PLANTED_EQUIPMENT = """\
equipment:
  - id: planted_rope
    name: {zh: 繩索, en: Rope}
    source: rulebook
    ref: L1
    term: ropes                                                #! TC-R001 @ropes
    slots: 1
"""

PLANTED_BROKEN = """\
tokens:
  - id: planted_photo
    name: {zh: 照片, en: Photo
    source: rulebook                                           #! TC-Y002 @: rulebook
"""

PLANTED = {"planted_tiles.yaml": PLANTED_TILES, "planted_equipment.yaml": PLANTED_EQUIPMENT,
           "planted_broken.yaml": PLANTED_BROKEN}


def expected_diagnostics() -> set[tuple[str, str, int, int]]:
    out = set()
    for name, text in PLANTED.items():
        for number, line in enumerate(text.split("\n"), 1):
            if "#!" not in line:
                continue
            code, anchor = line.split("#!")[1].strip().split(" @")
            column = line.index(anchor) + 1
            out.add((code, f"{BASE}/{name}", number, column))
    return out


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def cave(tmp_path, monkeypatch) -> Path:
    """A copy of content/the_cave under tmp_path, which becomes the working directory."""
    shutil.copytree(REPO / BASE, tmp_path / BASE, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / BASE / "game.yaml", tmp_path / BASE / "game.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path / BASE


def _diagnostics(capsys, *paths: str) -> tuple[int, dict]:
    code, out, _ = run(capsys, "check", *paths, "--format", "json")
    return code, json.loads(out)


def _key(d: dict) -> tuple:
    return d["code"], d["file"], d["line"], d["column"]


# --- the real content ----------------------------------------------------------------------

def test_check_real_content_is_clean(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out, _ = run(capsys, "check", "content/")
    assert code == 0, out
    assert out.strip().endswith("0 errors, 0 warnings")


def test_check_real_content_subprocess():
    proc = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "check", "content/"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "0 errors" in proc.stdout


# --- planted errors ------------------------------------------------------------------------

def test_each_planted_error_is_reported_exactly_once(cave, capsys):
    code, before = _diagnostics(capsys, "content/")
    baseline = {_key(d) for d in before["diagnostics"]}
    for name, text in PLANTED.items():
        (cave / name).write_text(text, encoding="utf-8")
    code, after = _diagnostics(capsys, "content/")
    assert code == 1
    new = [_key(d) for d in after["diagnostics"] if _key(d) not in baseline]
    assert len(new) == len(set(new)), "a planted error was reported twice"
    assert set(new) == expected_diagnostics()
    assert len(new) == 11
    assert after["errors"] == before["errors"] + 11


def test_hints_and_messages_of_planted_errors(cave, capsys):
    for name, text in PLANTED.items():
        (cave / name).write_text(text, encoding="utf-8")
    _, report = _diagnostics(capsys, "content/")
    by_message = {d["message"]: d for d in report["diagnostics"]
                  if d["file"].startswith(f"{BASE}/planted_")}
    assert "did you mean `water`?" == by_message["unknown name 'watr'"]["hint"]
    assert by_message["unknown field 'colour'"]["hint"]
    assert "usage: pay" in by_message["'pay' is missing 'amount'"]["hint"]
    assert "did you mean" in by_message["'ropes' is not a declared equipment"]["hint"]
    assert "line" in next(m for m in by_message if m.startswith("key 'ref' appears twice"))


def test_json_format_shape_and_counts(cave, capsys):
    for name, text in PLANTED.items():
        (cave / name).write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "check", "content/", "--format", "json")
    assert code == 1
    report = json.loads(out)  # nothing but JSON on stdout
    assert set(report) == {"diagnostics", "errors", "warnings"}
    for d in report["diagnostics"]:
        assert set(d) == {"code", "severity", "file", "line", "column", "message", "hint"}
        assert d["code"] in dg.CODES and d["severity"] in (dg.ERROR, dg.WARNING)
        assert isinstance(d["line"], int) and isinstance(d["column"], int)
    assert report["errors"] == sum(d["severity"] == "error" for d in report["diagnostics"])
    assert report["warnings"] == sum(d["severity"] == "warning" for d in report["diagnostics"])
    assert report["errors"] >= 11


def test_text_output_has_caret_snippet_and_hint(cave, capsys):
    (cave / "planted_tiles.yaml").write_text(PLANTED_TILES, encoding="utf-8")
    code, out, _ = run(capsys, "check", "content/")
    assert code == 1
    lines = out.split("\n")
    (_, _, number, column), = [k for k in expected_diagnostics()
                               if k[1].endswith("planted_tiles.yaml") and k[0] == "TC-N001"
                               and "watr" in PLANTED_TILES.split("\n")[k[2] - 1]]
    head = f"{BASE}/planted_tiles.yaml:{number}:{column}: error[TC-N001]: unknown name 'watr'"
    i = lines.index(head)
    source, caret, hint = lines[i + 1], lines[i + 2], lines[i + 3]
    assert source.startswith(f"{number:>4} | ") and "place_token watr" in source
    assert caret.strip() == "^"
    assert source[caret.index("^"):].startswith("watr")
    assert hint == "  hint: did you mean `water`?"
    assert out.rstrip().split("\n")[-1].endswith("errors, 0 warnings")


def test_caret_under_cjk_text(cave, capsys):
    (cave / "planted_cjk.yaml").write_text(
        "tile_kinds:\n  - {id: cjk, name: {zh: 洞窟洞窟, en: Cave}, source: rulebook, ref: L1,"
        " enter: [{id: w, effect: \"pay ap 1\"}], discover_from: 是}\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "content/")
    assert code == 1
    lines = out.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith(f"{BASE}/planted_cjk.yaml:2:"))
    source, caret = lines[i + 1], lines[i + 2]
    # 洞窟洞窟 takes 8 terminal cells: the caret sits under 是 counting wide characters twice
    wide = sum(2 if "\u4e00" <= ch <= "\u9fff" else 1 for ch in source[:source.index("是")])
    assert caret.index("^") == wide


def test_check_a_single_pack_file(cave, capsys):
    (cave / "planted_equipment.yaml").write_text(PLANTED_EQUIPMENT, encoding="utf-8")
    code, report = _diagnostics(capsys, f"{BASE}/planted_equipment.yaml")
    assert code == 1
    assert [_key(d) for d in report["diagnostics"]] == [
        k for k in expected_diagnostics() if k[1].endswith("planted_equipment.yaml")]


# --- usage errors --------------------------------------------------------------------------

def test_unknown_path_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out, err = run(capsys, "check", "no/such/dir")
    assert code == 2
    assert dg.USAGE in err and "Traceback" not in err


def test_a_pack_option_naming_a_file_or_nothing_says_which(capsys, monkeypatch, tmp_path):
    """`--pack` given a file (its pack.yaml, say) is told to give the folder, not told that
    the folder does not exist. Both are usage errors (exit 2, on stderr), as a missing path
    argument is: they were exit 1 under the usage code."""
    monkeypatch.chdir(REPO)
    manifest = tmp_path / "pack.yaml"
    manifest.write_text("id: x\n")
    code, _, err = run(capsys, "check", BASE, "--pack", str(manifest))
    assert code == 2 and "is a file, not a pack folder" in err and "holds the pack's pack.yaml" in err
    code, _, err = run(capsys, "check", BASE, "--pack", str(tmp_path / "none"))
    assert code == 2 and "no pack folder" in err


def test_upper_case_yaml_suffixes_are_content_files(capsys, monkeypatch, tmp_path):
    """A Windows-style `TILES.YAML` is a content file: read and checked, not skipped."""
    monkeypatch.chdir(REPO)
    pack = tmp_path / "fan"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan\ngame: the_cave\nversion: '1'\n")
    (pack / "TILES.YAML").write_text("tile_kinds:\n  - id: Bad\n")
    code, out, err = run(capsys, "check", str(pack))
    assert code == 1 and "TILES.YAML:2:" in out


@pytest.mark.parametrize("argv", [["frobnicate"], ["check", "--format", "xml"],
                                  ["check", "--bogus"], [], ["build", "--nope"]])
def test_bad_command_lines_exit_2(capsys, monkeypatch, argv):
    monkeypatch.chdir(REPO)
    assert cli.main(argv) == 2
    assert f"error[{dg.USAGE}]" in capsys.readouterr().err


def test_bad_subcommand_subprocess_exits_2():
    proc = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "frobnicate"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_explain_unknown_code_is_a_usage_error(capsys):
    code, out, err = run(capsys, "explain", "TC-Z999")
    assert code == 2 and "TC-Z999" in err


# --- explain -------------------------------------------------------------------------------

@pytest.mark.parametrize("code", sorted(dg.CODES))
def test_explain_every_code(capsys, code):
    status, out, _ = run(capsys, "explain", code)
    assert status == 0
    entry = dg.CODES[code]
    assert out.startswith(f"{code} ({entry.severity}): {entry.title}")
    assert len(entry.explanation) > 20 and entry.explanation in out
    status, lower, _ = run(capsys, "explain", code.lower())
    assert status == 0 and lower == out


@pytest.mark.parametrize("code, says", [
    ("TC-P001", "a pack loads after the packs it requires"),    # it said nothing of requires:
    ("TC-P002", "a removal's `kind:` is an entity kind of the game"),
    ("TC-G002", "something play never reaches"),                # it said only 'probably not meant'
])
def test_explain_covers_what_a_fans_pack_hits(capsys, code, says):
    """The fifth packs blind test hit these codes for a requires: entry, a misspelt removal kind
    and an intern play never gives; the explanation named none of them."""
    assert says in run(capsys, "explain", code)[1]


def test_every_emitted_code_is_documented():
    """Codes used by the compiler are all in the catalogue (and so explainable)."""
    import re
    used = set()
    for path in (REPO / "compiler").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"\bdg\.([A-Z_][A-Z0-9_]*)(?!\w)", text))
    constants = {name for name in used if name.isupper() and name not in ("ERROR", "WARNING", "CODES")}
    for name in constants:
        assert getattr(dg, name) in dg.CODES, name


def test_tomecraft_works_from_any_directory(tmp_path):
    """A fan checks a mission file from their own folder; the game content is found anyway,
    and build --check looks at the project's generated/, not at the working directory's."""
    mission = REPO / "tests/deep_rock_galactic/missions/valid/aquarq_run.yaml"
    broken = REPO / "tests/deep_rock_galactic/missions/broken/b01_one_tunnel_exit.yaml"
    for args, code in ((["check", str(mission)], 0), (["check", str(broken)], 1),
                       (["sim", "the_cave", "--games", "2"], 0), (["build", "--check"], 0)):
        out = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *args], cwd=tmp_path,
                             capture_output=True, text=True)
        assert out.returncode == code, (args, out.stdout, out.stderr)
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize("argv, folder, said", [
    (["check", "dungeontology"], "content/dungeontology", "give its folder"),
    (["check", "content/dungeontology/"], "content/dungeontology", "give its folder"),
    (["sim", "clank_catacombs", "--pack", "content/clank_catacombs/packs/tomb_party", "--games", "1"],
     "content/clank_catacombs/packs/tomb_party", "name it by its id, tomb_party, or give its folder"),
])
def test_a_shipped_game_or_pack_named_from_a_fans_folder_says_where_it_is(
        argv, folder, said, tmp_path, monkeypatch, capsys):
    """From a folder of their own a newcomer has no content/: `check dungeontology` and
    `--pack content/.../tomb_party` said only that there is no such folder. (`--pack
    tomb_party`, the pack's id, now loads it: test_packs_by_id.py.)"""
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert f"is shipped with tomecraft: {said}, {REPO / folder}" in out + err, (out, err)


def test_an_unrecognized_argument_says_tomecraft_once_and_how_options_repeat(capsys):
    """`balance ... --players 2 3` said "tomecraft: error[TC-X001]: tomecraft: unrecognized
    arguments: 3" and nothing of how to give two player counts."""
    assert cli.main(["sim", "dungeontology", "--players", "2", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tomecraft: error[TC-X001]: unrecognized arguments: 3 (an option takes "
                          "one value: repeat it for more, `--players 2 --players 3`"), err


@pytest.mark.parametrize("code, says", [
    ("TC-Y002", "indented differently"), ("TC-Y002", "not in quotes"),
    ("TC-S001", "`.schemas/`"), ("TC-R001", "`vocabulary: terms:`"),
    ("TC-P002", "the base game is a pack too"),
])
def test_explain_covers_the_newcomers_mistakes(capsys, code, says):
    """The codes a newcomer's pack got: explain named none of these causes."""
    assert cli.main(["explain", code]) == 0
    assert says in capsys.readouterr().out


def test_a_misspelt_schema_name_names_the_closest(capsys):
    """`schema dungeontology/scheme_cards.schema.json` (the plural, as in the files) listed all
    59 schemas with no hint of the one meant."""
    assert cli.main(["schema", "dungeontology/scheme_cards.schema.json"]) == 2
    assert "did you mean `dungeontology/scheme_card.schema.json`" in capsys.readouterr().err


def test_new_pack_is_not_started_in_the_builds_folders(capsys, monkeypatch, tmp_path):
    """`tomecraft build` replaces generated/ and schemas/: a pack started there (as `sheets
    --out` there is refused) would be lost at the next build."""
    monkeypatch.chdir(REPO)
    for folder in ("generated/fan", "schemas/fan"):
        code, _, err = run(capsys, "new", "pack", "the_cave", folder)
        assert code == 2 and f"DIR {folder} is inside" in err, err
        assert not (REPO / folder).exists()


def test_a_slow_stage_is_told_as_it_ends_and_json_stays_quiet(monkeypatch, capsys):
    """A 50,000-card pack's check takes ten seconds or more: each stage slower than
    SLOW_STAGE says what it did and how long it took, on stderr; --format json says nothing
    there (a tool reads it)."""
    from tomecraft.compiler import pipeline
    monkeypatch.setattr(pipeline, "SLOW_STAGE", -1.0)       # every stage counts as slow
    assert cli.main(["check", BASE]) == 0
    told = capsys.readouterr().err.splitlines()
    assert told[0] == "checking the_cave"
    words = [line.rsplit(" in ", 1)[0].strip() for line in told[1:]]
    assert words == [pipeline.STAGE_WORDS[s] for s in ("load", "schema", "parse", "checks")]
    assert all(line.endswith(" s") for line in told[1:])
    assert cli.main(["check", BASE, "--format", "json"]) == 0
    assert capsys.readouterr().err == ""
