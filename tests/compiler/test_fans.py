"""Fans' packs from anywhere: never green on nothing, packs resolved through their own game,
vocabulary overrides, CI formats, CLI conventions, and the command layer on top."""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from tomecraft.compiler import cli, pipeline

REPO = Path(__file__).resolve().parents[2]
CAVE = REPO / "content" / "the_cave"

TERM_PACK = """\
id: {id}
game: the_cave
version: "1.0"
{extra}vocabulary:
  terms:
    equipment:
      {name}: {{zh: 新名, en: New name{replace}}}
"""


def run(capsys, *argv) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def diagnostics(capsys, *argv) -> tuple[int, list[dict]]:
    code, out, _ = run(capsys, "check", *argv, "--format", "json")
    return code, json.loads(out)["diagnostics"]


def pack(tmp_path: Path, name: str, text: str, files: dict[str, str] | None = None) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    for file, body in (files or {}).items():
        (folder / file).write_text(body, encoding="utf-8")
    return folder


# --- never green on nothing ----------------------------------------------------------------------

def test_a_folder_with_no_pack_or_game_is_an_error(tmp_path, capsys):
    code, found = diagnostics(capsys, tmp_path)
    assert code == 1 and [d["code"] for d in found] == ["TC-P003"] and found[0]["hint"]


@pytest.mark.parametrize("game_line", ["", "game: no_such_game\n"])
def test_a_pack_with_no_or_an_unknown_game_is_an_error(tmp_path, capsys, game_line):
    folder = pack(tmp_path, "mud", f"id: mud\n{game_line}version: '1.0'\n")
    code, found = diagnostics(capsys, folder)
    assert code == 1 and [d["code"] for d in found] == ["TC-P003"]
    assert found[0]["file"].endswith("pack.yaml") and found[0]["hint"]


def test_a_pack_that_adds_nothing_is_an_error_when_checked_but_loads_quietly(tmp_path, capsys):
    """A pack.yaml alone checked "0 errors, 0 warnings": a clean check of nothing. Loaded
    with --pack (or required by another pack) it is harmless and says nothing."""
    folder = pack(tmp_path, "e", "id: e\ngame: the_cave\nversion: '1.0'\n")
    code, found = diagnostics(capsys, folder)
    assert code == 1 and [(d["code"], d["file"]) for d in found] == [("TC-P003", f"{folder}/pack.yaml")]
    assert "nothing" in found[0]["message"] and found[0]["hint"]
    code, out, err = run(capsys, "check", "--pack", folder)
    assert code == 0 and out.strip() == "0 errors, 0 warnings"


@pytest.mark.parametrize("files", [
    {"tokens.yaml": ""},
    {"tokens.yaml": "# to do\n", "tiles.yaml": "\n\n"},
    {"tokens.yaml": "tokens: []\n", "tiles.yaml": "tiles:\n"},
    {"sub/tokens.yaml": "tokens: []\n"},
], ids=["empty", "comments", "empty-lists", "in-a-folder"])
def test_a_pack_whose_content_files_list_nothing_is_an_error(tmp_path, capsys, files):
    """Content files that list no entity (empty, comments only, `tokens: []`) checked
    "0 errors, 0 warnings": as clean a check of nothing as a pack.yaml alone."""
    folder = pack(tmp_path, "e", "id: e\ngame: the_cave\nversion: '1.0'\n")
    for name, body in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(body, encoding="utf-8")
    code, found = diagnostics(capsys, folder)
    assert code == 1 and [(d["code"], d["file"]) for d in found] == [("TC-P003", f"{folder}/pack.yaml")]
    (folder / "actions.yaml").write_text(
        "actions:\n  - {id: rest, name: {zh: 休息, en: Rest}, source: rulebook, ref: L1, "
        "order: 1, effect: \"pay ap 1\"}\n", encoding="utf-8")
    code, found = diagnostics(capsys, folder)
    assert "TC-P003" not in [d["code"] for d in found]


@pytest.mark.parametrize("emptied", ["tiles.yaml", "tile_kinds.yaml", "start_boards.yaml"])
def test_an_emptied_base_content_file_is_an_error(tmp_path, monkeypatch, capsys, emptied):
    root = tmp_path / "content" / "the_cave"
    shutil.copytree(CAVE, root, ignore=shutil.ignore_patterns("packs"))
    (root / emptied).write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, found = diagnostics(capsys, "content/the_cave")
    assert code == 1
    assert any(d["code"] == "TC-P003" and d["file"] == "content/the_cave/game.yaml" for d in found)


@pytest.mark.parametrize("game", ["clank_catacombs", "deep_rock_galactic", "dm_crawl_decks",
                                  "dungeontology", "the_cave"])
def test_any_emptied_base_file_of_any_game_is_an_error(tmp_path, monkeypatch, game):
    from tomecraft.compiler import diagnostics as dg
    source = REPO / "content" / game
    files = sorted(p.name for p in source.glob("*.yaml") if p.name != "game.yaml")
    root = tmp_path / "content" / game
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("packs"))
    monkeypatch.chdir(tmp_path)
    for name in files:
        original = (root / name).read_text(encoding="utf-8")
        for emptied in ("", "# nothing left\n", _empty_lists(original)):
            (root / name).write_text(emptied, encoding="utf-8")
            reporter = dg.Reporter()
            pipeline.compile_game(Path("content") / game, [], reporter)
            assert any(d.code == "TC-P003" and d.severity == "error" for d in reporter.diagnostics), \
                f"{game}/{name} emptied to {emptied!r} checks clean"
        (root / name).write_text(original, encoding="utf-8")


def _empty_lists(text: str) -> str:
    """The file's top-level keys, each with an empty list."""
    return "".join(f"{line.split(':')[0]}: []\n" for line in text.splitlines()
                   if line[:1].isalpha() and line.rstrip().endswith(":"))


def test_a_pack_removing_every_entity_of_a_kind_is_an_error(tmp_path, capsys):
    removals = "".join(f"  - {{kind: start_board, id: {p.split(':')[0]}}}\n" for p in
                       _ids(CAVE / "start_boards.yaml"))
    folder = pack(tmp_path, "bare", f"id: bare\ngame: the_cave\nversion: '1.0'\nremove:\n{removals}")
    code, found = diagnostics(capsys, folder)
    assert code == 1 and any(d["code"] == "TC-P003" and "start_boards" in d["message"]
                             for d in found)


def _ids(path: Path) -> list[str]:
    return [line.split("id:", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip().startswith("- id:")]


# --- packs resolved through their own game -------------------------------------------------------

def test_a_pack_checked_as_dot_from_its_folder_is_named_by_its_folder(tmp_path, capsys, monkeypatch):
    folder = pack(tmp_path, "mud_caves", "id: mud_caves\ngame: the_cave\nversion: '1.0'\n"
                  "vocabulary: {keywords: {bog: {params: [], effect: 'pay ap 1'}}}\n")
    monkeypatch.chdir(folder)
    code, out, err = run(capsys, "check", ".")
    assert code == 0 and err.splitlines() == ["checking the_cave + mud_caves"]


def test_check_pack_option_checks_only_the_packs_game(tmp_path, capsys):
    folder = pack(tmp_path, "ok", "id: ok\ngame: the_cave\nversion: '1.0'\n")
    code, out, err = run(capsys, "check", "--pack", folder)
    assert code == 0 and err.splitlines() == ["checking the_cave + ok"]
    assert out.strip() == "0 errors, 0 warnings"


def test_a_file_inside_a_pack_is_checked_through_the_pack(tmp_path, capsys):
    bad = "equipment:\n  - id: lamp\n    name: {zh: 燈, en: Lamp}\n    source: rulebook\n    ref: L1\n"
    folder = pack(tmp_path, "two", "id: two\ngame: the_cave\nversion: '1.0'\n",
                  {"gear.yaml": bad, "more.yaml": bad.replace("lamp", "torch")})
    code, whole = diagnostics(capsys, folder)
    assert code == 1 and {Path(d["file"]).name for d in whole} == {"gear.yaml", "more.yaml"}
    code, found = diagnostics(capsys, folder / "gear.yaml")
    assert code == 1 and found == [d for d in whole if Path(d["file"]).name == "gear.yaml"]


# --- vocabulary overrides (issue 10, item 5) -----------------------------------------------------

def test_redefining_a_base_term_needs_replace(tmp_path, capsys):
    silent = pack(tmp_path, "silent", TERM_PACK.format(id="silent", extra="", name="camera", replace=""))
    code, found = diagnostics(capsys, silent)
    assert code == 1 and [d["code"] for d in found] == ["TC-P002"]
    assert "game.yaml" in found[0]["message"] and "replace: true" in found[0]["hint"]
    loud = pack(tmp_path, "loud", TERM_PACK.format(id="loud", extra="", name="camera",
                                                   replace=", replace: true"))
    assert diagnostics(capsys, loud) == (0, [])


def test_replace_needs_something_to_replace(tmp_path, capsys):
    folder = pack(tmp_path, "empty", TERM_PACK.format(id="empty", extra="", name="brand_new",
                                                      replace=", replace: true"))
    code, found = diagnostics(capsys, folder)
    assert code == 1 and [d["code"] for d in found] == ["TC-P002"]


def test_two_packs_defining_one_name_conflict_at_both_places(tmp_path, capsys):
    first = pack(tmp_path, "first", TERM_PACK.format(id="first", extra="", name="lamp", replace=""))
    second = pack(tmp_path, "second", TERM_PACK.format(id="second", extra="", name="lamp", replace=""))
    code, found = diagnostics(capsys, "--pack", first, "--pack", second)
    assert code == 1
    places = sorted(Path(d["file"]).parent.name for d in found if d["code"] == "TC-P002")
    assert places == ["first", "second"]


def test_a_pack_may_override_a_required_packs_name_with_replace(tmp_path, capsys):
    first = pack(tmp_path, "first", TERM_PACK.format(id="first", extra="", name="lamp", replace=""))
    second = pack(tmp_path, "second", TERM_PACK.format(
        id="second", extra="requires: [first]\n", name="lamp", replace=", replace: true"))
    assert diagnostics(capsys, "--pack", first, "--pack", second) == (0, [])


# --- CI formats ----------------------------------------------------------------------------------

def test_github_and_sarif_formats_carry_every_diagnostic(tmp_path, capsys):
    folder = pack(tmp_path, "mud", "id: mud\ngame: nope\nversion: '1.0'\n")
    code, out, _ = run(capsys, "check", folder, "--format", "github")
    assert code == 1
    line = out.splitlines()[0]
    assert line.startswith("::error file=") and ",line=2,col=7,title=TC-P003::" in line
    code, out, _ = run(capsys, "check", folder, "--format", "sarif")
    log = json.loads(out)
    result = log["runs"][0]["results"][0]
    assert code == 1 and log["version"] == "2.1.0" and result["ruleId"] == "TC-P003"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 7}


# --- CLI conventions -----------------------------------------------------------------------------

def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("tomecraft ")


@pytest.mark.parametrize("argv", [
    ["sim", "nosuchgame"], ["sim", "the_cave", "--players", "0"], ["sim", "the_cave", "--games", "x"],
    ["report", "gaps", "--game", "nosuchgame"], ["sheets", "--game", "nosuchgame"],
    ["check", "no/such/path"], ["new", "pack", "nosuchgame", "somewhere"],
])
def test_usage_errors_exit_2_on_stderr(capsys, argv):
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's own usage errors
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "error" in err


def test_sheets_out_naming_a_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "a_file"
    target.write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "sheets", "--game", "the_cave", "--out", target)
    assert code == 2 and out == "" and "a file" in err


def test_every_option_has_help():
    parser = cli.parser()
    missing = []
    for action in parser._subparsers._group_actions[0].choices.items():
        name, sub = action
        for option in sub._actions:
            if option.dest != "help" and not option.help:
                missing.append(f"{name} {option.option_strings or option.dest}")
    assert not missing, missing


def test_nothing_below_the_command_layer_imports_it():
    offenders = []
    for folder in ("compiler", "runtime", "dsl"):
        for path in (REPO / folder).rglob("*.py"):
            if path == REPO / "compiler" / "cli.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                if any(n.endswith("tomecraft.compiler.cli") for n in names):
                    offenders.append(str(path.relative_to(REPO)))
    assert not offenders, offenders


# --- never stale ---------------------------------------------------------------------------------

def test_unchanged_content_plays_the_committed_package():
    import importlib
    from tomecraft.compiler import diagnostics as dg, loadgen
    committed = importlib.import_module("tomecraft.generated.the_cave").GAME
    assert loadgen.game_data("the_cave", [], dg.Reporter()) is committed


def test_changed_content_is_compiled_in_memory_and_cached(tmp_path, monkeypatch):
    import importlib
    import sys
    from tomecraft.compiler import diagnostics as dg, loadgen
    content = tmp_path / "content"
    shutil.copytree(CAVE, content / "the_cave", ignore=shutil.ignore_patterns("packs"))
    actions = content / "the_cave" / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    assert "pay ap 1 -> discover" in text
    actions.write_text(text.replace("pay ap 1 -> discover", "pay ap 2 -> discover"), encoding="utf-8")
    monkeypatch.setattr(pipeline, "CONTENT", content)
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    committed = importlib.import_module("tomecraft.generated.the_cave").GAME
    fresh = loadgen.game_data("the_cave", [], dg.Reporter())
    assert fresh is not committed and fresh.input_hash != committed.input_hash
    assert fresh.input_hash == loadgen.source_hash(content / "the_cave", [])
    import inspect
    played = inspect.getsource(inspect.unwrap(fresh.kinds["action"]["discover"].effect))
    assert "# require can_discover(); pay ap 2 -> discover" in played   # compiled from the new text
    # a second run (a new process: nothing imported yet) takes the cached package, no compile
    for name in [n for n in sys.modules if n.startswith("tomecraft_game_the_cave_")]:
        del sys.modules[name]
    monkeypatch.setattr(pipeline, "compile_game", lambda *a, **k: pytest.fail("compiled again"))
    again = loadgen.game_data("the_cave", [], dg.Reporter())
    assert again.input_hash == fresh.input_hash


# --- editors: every file's schema line resolves, and its schema accepts the file ----------------

def _validate_with_line(path: Path) -> list[str]:
    """Follow the file's `# yaml-language-server: $schema=` line as an editor would."""
    import jsonschema
    from referencing import Registry, Resource
    from tomecraft.compiler import diagnostics as dg, loader
    first = path.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix), f"{path}: no schema line"
    schema_path = (path.parent / first[len(prefix):]).resolve()
    assert schema_path.is_file(), f"{path}: {schema_path} does not exist"
    resources = []
    for other in schema_path.parent.glob("*.json"):
        contents = json.loads(other.read_text(encoding="utf-8"))
        contents = {**contents, "$id": other.resolve().as_uri()}
        resources.append((other.resolve().as_uri(), Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    schema = registry[schema_path.as_uri()].contents
    doc = loader.load(path, dg.Reporter())
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    return [f"{path}: {e.message}" for e in validator.iter_errors(doc.data)]


def test_every_shipped_file_validates_through_its_schema_line():
    files = sorted(REPO.glob("content/**/*.yaml")) + sorted(
        REPO.glob("tests/deep_rock_galactic/missions/valid/*.yaml"))
    assert len(files) > 40
    problems = [p for path in files for p in _validate_with_line(path)]
    assert not problems, problems[:5]


def test_a_new_pack_checks_clean_and_validates_in_a_fans_folder(tmp_path, capsys):
    folder = tmp_path / "fan_repo" / "mud_caves"
    code, _, err = run(capsys, "new", "pack", "the_cave", folder)
    assert code == 0 and "pack.yaml" in err
    written = sorted(folder.glob("*.yaml"))
    kinds = json.loads((REPO / "schemas" / "the_cave" / "content.schema.json").read_text())
    assert len(written) == 1 + len(kinds["properties"])  # pack.yaml + one file per kind
    live = [p for p in written if "Commented out" not in p.read_text(encoding="utf-8")]
    assert len(live) >= 3          # the Cave's engine has rules built in
    # a token example copies a scoring token, not a reached-depth one (its depth is built in)
    assert folder / "tokens.yaml" in live
    # the example equipment gets a term of its own (the engine finds equipment by term)
    assert folder / "equipment.yaml" in live and "mud_caves_" in (folder / "pack.yaml").read_text("utf-8")
    for path in set(written) - set(live):   # every refused example says why, with its code
        assert "Commented out: the game refuses it as an addition (TC-" in path.read_text("utf-8")
    problems = [p for path in live for p in _validate_with_line(path)]
    assert not problems, problems[:5]
    assert diagnostics(capsys, folder) == (0, [])
    assert diagnostics(capsys, folder.parent) == (0, [])  # a folder of packs
    code, _, err = run(capsys, "new", "pack", "the_cave", folder)
    assert code == 2 and "not an empty folder" in err


def test_scenario_run_takes_packs_and_refuses_missing_paths(tmp_path, capsys):
    folder = pack(tmp_path, "extra", TERM_PACK.format(id="extra", extra="", name="lantern", replace=""))
    scenario = REPO / "tests" / "scenarios" / "the_cave" / "ex_camp_base.yaml"
    code, out, _ = run(capsys, "scenario", "run", scenario, "--pack", folder)
    assert code == 0 and out.strip().endswith("1 passed, 0 failed")
    other = pack(tmp_path, "other", "id: other\ngame: dungeontology\nversion: '1.0'\n")
    code, out, err = run(capsys, "scenario", "run", scenario, "--pack", other)
    assert code == 2 and out == "" and "pack 'other' is for 'dungeontology', which none" in err
    code, out, err = run(capsys, "scenario", "run", tmp_path / "nothing_here.yaml")
    assert code == 2 and out == "" and "no such file" in err


def test_schema_prints_or_writes_the_editor_schemas(tmp_path, capsys):
    code, out, _ = run(capsys, "schema", "deep_rock_galactic/mission_file.schema.json")
    assert code == 0 and json.loads(out)["title"] == "Deep Rock Galactic mission file"
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out) == json.loads((REPO / "schemas" / "pack.schema.json").read_text())
    code, _, _ = run(capsys, "schema", "--out", tmp_path / "s")
    written = {p.relative_to(tmp_path / "s").as_posix() for p in (tmp_path / "s").rglob("*.json")}
    shipped = {p.relative_to(REPO / "schemas").as_posix() for p in (REPO / "schemas").rglob("*.json")}
    assert code == 0 and written == shipped
    code, _, _ = run(capsys, "schema", "--game", "the_cave", "--out", tmp_path / "cave")
    assert code == 0 and {p.parent.name for p in (tmp_path / "cave").rglob("*.json")} == {"cave", "the_cave"}
    code, out, err = run(capsys, "schema", "nope.schema.json")
    assert code == 2 and out == "" and "unknown schema" in err


def test_a_file_its_pack_never_loads_is_an_error_and_missions_are_checked_anywhere(tmp_path, capsys):
    folder = pack(tmp_path, "kept", "id: kept\ngame: the_cave\nversion: '1.0'\n")
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "stray.yaml").write_text("tiles: []\n", encoding="utf-8")
    code, found = diagnostics(capsys, folder / "scenarios" / "stray.yaml")
    assert code == 1 and [d["code"] for d in found] == ["TC-P003"]
    missions = REPO / "tests" / "deep_rock_galactic" / "missions"
    (folder / "missions").mkdir()
    shutil.copy(missions / "valid" / "fossil_field.yaml", folder / "missions" / "good.yaml")
    shutil.copy(missions / "broken" / "b02_no_drop_pod.yaml", folder / "missions" / "bad.yaml")
    assert diagnostics(capsys, folder / "missions" / "good.yaml") == (0, [])
    code, found = diagnostics(capsys, folder / "missions" / "bad.yaml")
    assert code == 1 and found and all(d["file"].endswith("bad.yaml") for d in found)


# --- a trigger written after another one's colon body ---------------------------------------------

_NESTED_TRAP = """cards:
  - id: echo_trap
    name: {zh: 回声陷阱, en: Echo Trap}
    source: approximation
    note: fan
    card_type: trap
    points: 2
    power: 2
    count: 1
    effect: "on before_round: self.points -= 1; on battle_round: self.points += 2"
  - id: braced_trap
    name: {zh: 括号陷阱, en: Braced Trap}
    source: approximation
    note: fan
    card_type: trap
    points: 2
    power: 2
    count: 1
    effect: "on before_round { self.points -= 1 }; on battle_round: self.points += 2"
"""


def test_a_trigger_inside_another_triggers_colon_body_is_warned_where_it_is(tmp_path, capsys):
    """A colon body runs to the end of its block, so `on A: x; on B: y` registers a trigger on B
    each time A happens (the card above never gained its +2 in the row it was played in), while
    its sheet read like two triggers. check says so at the inner trigger; braces end it."""
    folder = pack(tmp_path, "traps", "id: traps\ngame: dm_crawl_decks\nversion: '1'\n",
                  {"cards.yaml": _NESTED_TRAP})
    code, found = diagnostics(capsys, folder)
    nested = [d for d in found if d["code"] == "TC-E005"]
    assert code == 0 and len(nested) == 1, found
    d = nested[0]
    assert (Path(d["file"]).name, d["line"], d["severity"]) == ("cards.yaml", 10, "warning")
    assert "'battle_round'" in d["message"] and "'before_round'" in d["message"]
    assert "on before_round { ... }" in d["hint"]


def test_a_fans_folder_checks_its_mission_files_beside_its_packs(tmp_path, capsys):
    """`tomecraft check .` (the pre-commit hook's default) in a fan's repository checked the
    packs in it and passed a broken mission file lying beside them without reading it."""
    missions = REPO / "tests" / "deep_rock_galactic" / "missions" / "valid"
    repo = tmp_path / "fan_repo"
    assert run(capsys, "new", "pack", "the_cave", repo / "mud_caves")[0] == 0
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")  # not a mission
    (repo / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    text = (missions / "fossil_field.yaml").read_text(encoding="utf-8")
    (repo / "good.yaml").write_text(text, encoding="utf-8")
    assert diagnostics(capsys, repo) == (0, [])
    (repo / "bad.yaml").write_text(text.replace("  id: fossil_field", "  id: Fossil Field"),
                                   encoding="utf-8")
    (repo / "broken.yaml").write_text(text.replace("mission:\n", "mission:\n  [\n", 1),
                                      encoding="utf-8")
    code, found = diagnostics(capsys, repo)
    assert code == 1 and {Path(d["file"]).name for d in found} == {"bad.yaml", "broken.yaml"}
    # a folder of mission files only is no longer "no game or pack here"
    only = tmp_path / "missions_only"
    only.mkdir()
    shutil.copy(missions / "fossil_field.yaml", only / "fossil_field.yaml")
    assert diagnostics(capsys, only) == (0, [])


def test_the_check_command_a_new_pack_suggests_can_be_pasted(tmp_path, capsys):
    """A folder with a space: the comment said `tomecraft check my caves`, two arguments."""
    folder = tmp_path / "my caves"
    assert run(capsys, "new", "pack", "the_cave", folder, "--id", "my_caves")[0] == 0
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    assert "`tomecraft check 'my caves'`" in text
