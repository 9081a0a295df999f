"""Packs: confinement to their directory, game match, replace/remove, requires, conflicts."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

REPO = Path(__file__).resolve().parents[2]
GAME = "the_cave"

TILE = """\
tile_kinds:
  - id: {id}
    name: {{zh: {zh}, en: {en}}}
    source: rulebook
    ref: L1
{extra}    enter: [{{id: walk, effect: "pay ap 1"}}]
    discover_from: true
"""


@pytest.fixture
def base(tmp_path, monkeypatch) -> Path:
    """A copy of The Cave's base game (a game missing a kind's entities is an error)."""
    root = tmp_path / "content" / GAME
    shutil.copytree(REPO / "content" / GAME, root, ignore=shutil.ignore_patterns("packs"))
    monkeypatch.chdir(tmp_path)
    return Path("content") / GAME


def make_pack(tmp_path: Path, pack_id: str, manifest_extra: str = "", game: str = GAME,
              files: dict[str, str] | None = None) -> Path:
    pack = tmp_path / "packs" / pack_id
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        f"id: {pack_id}\ngame: {game}\nversion: '1.0'\n{manifest_extra}", encoding="utf-8")
    for name, text in (files or {}).items():
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        (pack / name).write_text(text, encoding="utf-8")
    return pack


def tile(entity_id: str, en: str = "Tile", extra: str = "") -> str:
    return TILE.format(id=entity_id, zh="版塊", en=en, extra=extra)


def compile_with(base: Path, packs: list[Path]):
    reporter = dg.Reporter()
    game = pipeline.compile_game(base, packs, reporter)
    return game, reporter


def keys(reporter: dg.Reporter) -> list[tuple]:
    return sorted((d.code, Path(d.file).name, d.line, d.column) for d in reporter.diagnostics)


def test_base_alone_is_clean(base):
    game, reporter = compile_with(base, [])
    assert reporter.diagnostics == []
    assert "normal" in game.entities["tile_kind"]


def test_pack_adds_entities(base, tmp_path):
    pack = make_pack(tmp_path, "extra", files={"tiles/more.yaml": tile("pack_tile", "Pack tile")})
    game, reporter = compile_with(base, [pack])
    assert reporter.diagnostics == []
    entity = game.entities["tile_kind"]["pack_tile"]
    assert entity.pack == "extra" and entity.display.endswith("more.yaml")


def test_a_packs_game_yaml_and_a_nested_manifest_are_said_not_read(base, tmp_path):
    """A fan who writes keywords into the pack's game.yaml (as the base game does) had them
    dropped without a word, and so was a pack.yaml in a subfolder (its files were read as
    the outer pack's)."""
    pack = make_pack(tmp_path, "fan", files={
        "game.yaml": "keywords:\n  bog: {params: [], effect: 'pay ap 1'}\n",
        "sub/pack.yaml": "id: inner\ngame: the_cave\nversion: '1.0'\n",
        "sub/more.yaml": tile("pack_tile", "Pack tile")})
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.NOT_READ, "game.yaml", 1, 1), (dg.NOT_READ, "pack.yaml", 1, 1)]
    assert not reporter.errors and "pack_tile" in game.entities["tile_kind"]
    assert "vocabulary:" in next(d.hint for d in reporter.diagnostics if d.file.endswith("game.yaml"))


def test_a_name_in_one_language_is_told_to_give_both(base, tmp_path):
    """`name: Crystal Run` got only "'Crystal Run' is not of type 'object'"."""
    text = tile("crystal_run").replace("name: {zh: 版塊, en: Tile}", "name: Crystal Run")
    assert "name: Crystal Run" in text
    _, reporter = compile_with(base, [make_pack(tmp_path, "fan", files={"t.yaml": text})])
    found, = reporter.diagnostics
    assert found.code == dg.SCHEMA and found.line == 3 and "{zh: " in found.hint and "en: " in found.hint


# --- confinement ---------------------------------------------------------------------------

def test_symlinked_file_outside_the_pack_is_refused(base, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text(tile("smuggled"), encoding="utf-8")
    pack = make_pack(tmp_path, "sneaky")
    os.symlink(outside, pack / "link.yaml")
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK, "link.yaml", 1, 1)]
    assert "outside" in reporter.diagnostics[0].message
    assert "smuggled" not in game.entities["tile_kind"]


def test_symlink_escaping_through_dotdot_is_refused(base, tmp_path):
    (tmp_path / "secret.yaml").write_text(tile("secret"), encoding="utf-8")
    pack = make_pack(tmp_path, "dotdot")
    (pack / "sub").mkdir()
    os.symlink("../../../secret.yaml", pack / "sub" / "up.yaml")
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK, "up.yaml", 1, 1)]
    assert "secret" not in game.entities["tile_kind"]


def test_symlinked_directory_outside_is_not_followed(base, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "far.yaml").write_text(tile("far_away"), encoding="utf-8")
    pack = make_pack(tmp_path, "dirlink")
    os.symlink(elsewhere, pack / "linked_dir")
    game, reporter = compile_with(base, [pack])
    assert reporter.errors == 0 or all(d.code == dg.PACK for d in reporter.diagnostics)
    assert "far_away" not in game.entities["tile_kind"]


def test_symlink_inside_the_pack_is_allowed(base, tmp_path):
    pack = make_pack(tmp_path, "inner", files={"real/one.yaml": tile("inner_tile")})
    os.symlink(pack / "real", pack / "alias_dir")  # a directory link: not followed, no dupes
    game, reporter = compile_with(base, [pack])
    assert reporter.diagnostics == []
    assert "inner_tile" in game.entities["tile_kind"]


def test_dangling_symlink_is_refused_without_traceback(base, tmp_path):
    pack = make_pack(tmp_path, "dangling")
    os.symlink(tmp_path / "nowhere.yaml", pack / "gone.yaml")
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK, "gone.yaml", 1, 1)]


# --- manifest ------------------------------------------------------------------------------

def test_pack_for_another_game_is_refused(base, tmp_path):
    pack = make_pack(tmp_path, "wrong", game="clank", files={"t.yaml": tile("wrong_tile")})
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK, "pack.yaml", 2, 7)]
    assert "clank" in reporter.diagnostics[0].message
    assert "wrong_tile" not in game.entities["tile_kind"]


def test_missing_manifest(base, tmp_path):
    pack = tmp_path / "packs" / "nomanifest"
    pack.mkdir(parents=True)
    _, reporter = compile_with(base, [pack])
    assert [d.code for d in reporter.diagnostics] == [dg.PACK]


def test_bad_manifest_is_a_pack_error(base, tmp_path):
    pack = make_pack(tmp_path, "badmanifest", manifest_extra="colour: red\n")
    _, reporter = compile_with(base, [pack])
    assert [(d.code, d.line) for d in reporter.diagnostics] == [(dg.PACK, 4)]


def test_requires_missing_pack(base, tmp_path):
    pack = make_pack(tmp_path, "needy", manifest_extra="requires: [base_plus, the_cave]\n")
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK, "pack.yaml", 4, 12)]
    assert "base_plus" in reporter.diagnostics[0].message


def test_a_name_unknown_beside_a_missing_required_pack_says_where_it_may_come_from(base, tmp_path):
    """A pack requiring a pack not loaded, whose effects use that pack's keyword: the keyword
    was 'unknown' with no hint, beside the requires: error that explains it (packs round 11)."""
    pack = make_pack(tmp_path, "needy", manifest_extra=(
        "requires: [shiny_pack]\nvocabulary:\n  keywords:\n    glitter:\n      params: []\n"
        "      effect: shine 2\n      text: {zh: 闪, en: Glitter}\n"))
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.UNKNOWN_NAME, "pack.yaml", 9, 15), (dg.PACK, "pack.yaml", 4, 12)]
    unknown = next(d for d in reporter.diagnostics if d.code == dg.UNKNOWN_NAME)
    assert "'shine'" in unknown.message and "'shiny_pack'" in unknown.hint


def test_requires_satisfied_in_order(base, tmp_path):
    first = make_pack(tmp_path, "first")
    second = make_pack(tmp_path, "second", manifest_extra="requires: [first]\n")
    _, reporter = compile_with(base, [first, second])
    assert reporter.diagnostics == []


def test_a_required_pack_given_after_the_pack_loads_first(base, tmp_path):
    """`--pack second --pack first` (or `check second --pack first`) with second replacing
    first's tile: 'not loaded before it', then second's replace found nothing and first's
    tile was 'already defined' (fifth packs blind test)."""
    first = make_pack(tmp_path, "first", files={"t.yaml": tile("mud", "Mud")})
    second = make_pack(tmp_path, "second", manifest_extra="requires: [first]\n", files={
        "t.yaml": tile("mud", "Deep mud", extra="    replace: true\n")})
    game, reporter = compile_with(base, [second, first])
    assert reporter.diagnostics == []
    assert [p.id for p in game.packs][-2:] == ["first", "second"]
    assert game.entities["tile_kind"]["mud"].data["name"]["en"] == "Deep mud"
    # `checking the_cave + second + first` named them in the order given, not loaded
    assert pipeline.Target(base, [second, first]).label == "the_cave + first + second"


def test_packs_requiring_each_other_are_one_error(base, tmp_path):
    one = make_pack(tmp_path, "one", manifest_extra="requires: [two]\n")
    two = make_pack(tmp_path, "two", manifest_extra="requires: [one]\n")
    _, reporter = compile_with(base, [one, two])
    assert [(d.code, Path(d.file).parent.name) for d in reporter.diagnostics] == [(dg.PACK, "two")]
    # it said "'one', which is not loaded before it; hint: pass the required pack with --pack",
    # of a pack given with --pack: the cycle is what is wrong
    assert "needs this pack in turn" in reporter.diagnostics[0].message
    assert "--pack" not in reporter.diagnostics[0].hint


def test_a_pack_requiring_itself_is_told_so(base, tmp_path):
    pack = make_pack(tmp_path, "selfish", manifest_extra="requires: [selfish]\n",
                     files={"t.yaml": tile("mud", "Mud")})
    _, reporter = compile_with(base, [pack])
    assert [(d.code, d.message) for d in reporter.diagnostics] == [
        (dg.PACK, "a pack cannot require itself")]


def test_two_packs_replacing_one_entity_conflict_unless_one_requires_the_other(base, tmp_path):
    """Both replaced the base's tile kind and the one loaded last won, silently: the game
    depended on the order of --pack options (fifth packs blind test)."""
    one = make_pack(tmp_path, "one", files={"t.yaml": tile("normal", "One", extra="    replace: true\n")})
    two = make_pack(tmp_path, "two", files={"t.yaml": tile("normal", "Two", extra="    replace: true\n")})
    _, reporter = compile_with(base, [one, two])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "t.yaml", 2, 9)] * 2
    assert {Path(d.file).parent.name for d in reporter.diagnostics} == {"one", "two"}
    (two / "pack.yaml").write_text("id: two\ngame: the_cave\nversion: '1.0'\nrequires: [one]\n",
                                   encoding="utf-8")
    game, reporter = compile_with(base, [two, one])
    assert reporter.diagnostics == [] and game.entities["tile_kind"]["normal"].pack == "two"


def test_two_packs_adding_one_id_conflict_at_both_places(base, tmp_path):
    """Two packs adding the same new id were reported only at the later one, so the earlier
    pack's own check (and its CI annotations) showed nothing; README "Packs": a conflict is
    reported at both places (eighth packs blind test)."""
    one = make_pack(tmp_path, "one", files={"t.yaml": tile("mud", "One")})
    two = make_pack(tmp_path, "two", files={"t.yaml": tile("mud", "Two")})
    _, reporter = compile_with(base, [one, two])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "t.yaml", 2, 9)] * 2
    assert {Path(d.file).parent.name for d in reporter.diagnostics} == {"one", "two"}


def test_two_packs_removing_one_entity_say_which_removed_it(base, tmp_path):
    """The second removal read 'no such entity', as if the id were misspelt (eighth packs
    blind test): it names the pack that removed it and where."""
    removal = "remove: [{kind: tile_kind, id: normal}]\n"
    one = make_pack(tmp_path, "one", manifest_extra=removal)
    two = make_pack(tmp_path, "two", manifest_extra=removal)
    _, reporter = compile_with(base, [one, two])
    said = [d for d in reporter.diagnostics if d.code == dg.PACK_CONFLICT]
    assert [(Path(d.file).parent.name, d.line) for d in said] == [("two", 4)], reporter.diagnostics
    assert "pack 'one' removes it already" in said[0].message and "no such entity" not in said[0].message


def test_same_pack_folder_twice_is_loaded_once(base, tmp_path):
    pack = make_pack(tmp_path, "twice")
    _, reporter = compile_with(base, [pack, pack.parent / "." / "twice"])
    assert reporter.diagnostics == []


def test_two_folders_with_one_pack_id_conflict(base, tmp_path):
    pack = make_pack(tmp_path, "twice")
    copy = shutil.copytree(pack, tmp_path / "copy")
    _, reporter = compile_with(base, [pack, copy])
    assert [d.code for d in reporter.diagnostics] == [dg.PACK_CONFLICT]


# --- add, replace, remove ------------------------------------------------------------------

def test_replace_true_replaces(base, tmp_path):
    pack = make_pack(tmp_path, "remix", files={
        "t.yaml": tile("normal", "Remixed passage", extra="    replace: true\n")})
    game, reporter = compile_with(base, [pack])
    assert reporter.diagnostics == []
    entity = game.entities["tile_kind"]["normal"]
    assert entity.pack == "remix" and entity.data["name"]["en"] == "Remixed passage"
    assert len([e for e in game.all() if e.kind == "tile_kind" and e.id == "normal"]) == 1


def test_duplicate_without_replace_is_a_conflict(base, tmp_path):
    pack = make_pack(tmp_path, "clash", files={"t.yaml": tile("normal", "Clash")})
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "t.yaml", 2, 9)]
    assert "tile_kinds.yaml" in reporter.diagnostics[0].message  # where the first one is
    assert game.entities["tile_kind"]["normal"].pack == GAME


def test_replace_of_a_missing_entity_is_a_conflict(base, tmp_path):
    pack = make_pack(tmp_path, "ghost", files={
        "t.yaml": tile("no_such_tile", extra="    replace: true\n")})
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "t.yaml", 2, 9)]


def test_duplicate_inside_one_pack_is_a_duplicate_id(base, tmp_path):
    pack = make_pack(tmp_path, "dupe", files={"a.yaml": tile("twin"), "b.yaml": tile("twin")})
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.DUPLICATE_ID, "b.yaml", 2, 9)]


def test_remove_works(base, tmp_path):
    pack = make_pack(tmp_path, "lean", manifest_extra="remove:\n  - {kind: rule, id: d05_tokens_take_no_slots}\n")
    game, reporter = compile_with(base, [pack])
    assert reporter.diagnostics == []
    assert "d05_tokens_take_no_slots" not in game.entities["rule"]
    assert "d06_discard_at_will" in game.entities["rule"]


def test_remove_of_a_missing_entity_is_an_error(base, tmp_path):
    pack = make_pack(tmp_path, "lean2", manifest_extra=(
        "remove:\n  - {kind: rule, id: d05_tokens_take_no_slots}\n  - {kind: tile_kind, id: nothing_here}\n"))
    game, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "pack.yaml", 6, 5)]
    assert "nothing_here" in reporter.diagnostics[0].message
    assert "d05_tokens_take_no_slots" not in game.entities["rule"]


def test_a_removal_of_a_misspelt_kind_says_the_kind_and_the_close_one(base, tmp_path):
    """`{kind: tile_knd, id: water}` read 'cannot remove tile_knd 'water': no such entity', with
    no hint, at the entry's start (fifth packs blind test)."""
    pack = make_pack(tmp_path, "lean3", manifest_extra="remove:\n  - {kind: tile_knd, id: water}\n")
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.PACK_CONFLICT, "pack.yaml", 5, 12)]
    assert "the game has no entity kind 'tile_knd'" in reporter.diagnostics[0].message
    assert reporter.diagnostics[0].hint.startswith("did you mean `tile_kind`")


def test_a_pack_removing_every_entity_of_a_kind_is_told_at_its_removal(base, tmp_path):
    """It stood at the base game's game.yaml ('the base game's content files must list its
    scorings'), a line the fan cannot change (fifth packs blind test: every intern removed)."""
    pack = make_pack(tmp_path, "no_scoring", manifest_extra="remove:\n  - {kind: scoring, id: scoring}\n")
    _, reporter = compile_with(base, [pack])
    found = [d for d in reporter.diagnostics if d.code == dg.NO_CONTENT]
    assert [(Path(d.file).name, d.line) for d in found] == [("pack.yaml", 5)], dg.format_text(reporter)
    assert "the packs removed them all" in found[0].message and "keep at least one" in found[0].hint


def test_a_text_in_the_other_language_is_warned_where_it_is(base, tmp_path):
    """`{zh: Harvest, en: ...}` put English on the Chinese sheets (and Chinese in `en:` on the
    English ones) with a clean check (fifth packs blind test)."""
    pack = make_pack(tmp_path, "langs", manifest_extra=(
        "vocabulary:\n  terms:\n    token:\n      mud: {zh: 泥, en: 泥}\n"),
        files={"t.yaml": TILE.format(id="mud_hole", zh="Mud hole", en="Mud hole", extra="")})
    _, reporter = compile_with(base, [pack])
    assert keys(reporter) == [(dg.WRONG_LANGUAGE, "pack.yaml", 7, 24),
                              (dg.WRONG_LANGUAGE, "t.yaml", 3, 16)], dg.format_text(reporter)


def test_a_keyword_text_with_a_placeholder_no_parameter_fills_is_refused(base, tmp_path):
    """`text: {zh: "叮噹", en: "jingle {m}"}` for a parameter `n` printed 'Jingle {m}.' and no
    number in Chinese, with a clean check (fifth packs blind test)."""
    pack = make_pack(tmp_path, "jingle", manifest_extra=(
        "vocabulary:\n  keywords:\n    jingle:\n      params: [{name: n, type: int}]\n"
        "      effect: \"pay ap n\"\n      text: {zh: \"叮噹\", en: \"jingle {m}\"}\n"))
    _, reporter = compile_with(base, [pack])
    found = sorted((d.code, d.line, d.message) for d in reporter.diagnostics)
    assert found == [
        (dg.NO_TEXT, 9, "keyword 'jingle': the en text leaves out the number {n}: the sheets print no number"),
        (dg.NO_TEXT, 9, "keyword 'jingle': the zh text leaves out the number {n}: the sheets print no number"),
        (dg.VOCAB, 9, "keyword 'jingle': the en text's {m} is no parameter of the keyword"),
    ], dg.format_text(reporter)


def test_check_cli_with_pack(base, tmp_path, capsys):
    from tomecraft.compiler import cli
    pack = make_pack(tmp_path, "clash2", files={"t.yaml": tile("normal", "Clash")})
    code = cli.main(["check", str(base), "--pack", str(pack), "--format", "json"])
    out = capsys.readouterr().out
    assert code == 1 and dg.PACK_CONFLICT in out


@pytest.mark.parametrize("effect, code", [
    ("pay ap 1; frobnicate 2", dg.UNKNOWN_NAME),          # names and types
    ("repeat 99999999 { pay ap 1 }", dg.EFFECT_BOUNDS),    # bounds
    ("let cls = 1; pay ap 1", dg.BAD_NAME),                # a name that becomes an identifier
    ("on walked { pay ap 1 }", dg.CONTRACT_CONSTRUCT),     # what the engine can run there
])
def test_a_mistake_repeated_over_a_pack_is_reported_at_every_place(base, tmp_path, effect, code):
    """The checks walk each distinct effect text once while it is clean (the parser gives a text
    one AST); a text with a mistake is reported where each tile holds it, not only first."""
    tiles = "".join(tile(f"dup_{i}", en=f"Tile {i}") for i in range(3))
    tiles = "tile_kinds:\n" + tiles.replace("tile_kinds:\n", "").replace('"pay ap 1"', f'"{effect}"')
    pack = make_pack(tmp_path, "dup", files={"tiles.yaml": tiles})
    _, reporter = compile_with(base, [pack])
    lines = sorted({d.line for d in reporter.diagnostics if d.code == code})
    assert lines == [6, 12, 18], [(d.code, d.line, d.message) for d in reporter.diagnostics]


@pytest.mark.parametrize("text, said", [
    ("game: the_cave\nname: n\nsetup: {players: 2}\nsteps: []\nexpect: []\n", "scenarios/"),
    ("# a briefing\ngame: the_cave\nmission:\n  id: m\n", "missions/"),
], ids=["scenario", "mission"])
def test_a_scenario_or_mission_file_among_a_packs_content_is_named_as_such(tmp_path, text, said):
    """A scenario saved beside the content files gave one "unknown entity kind" per key
    (game, name, setup, steps, expect) and never said the file is a scenario (fourth packs
    blind test): now one diagnostic at its `game:` key, naming the folder it belongs in."""
    pack = make_pack(tmp_path, "fan", files={"extra.yaml": text})
    _, reporter = compile_with(REPO / "content" / GAME, [pack])
    found = [d for d in reporter.diagnostics if Path(d.file).name == "extra.yaml"]
    game_line = 1 + next(i for i, line in enumerate(text.splitlines()) if line.startswith("game:"))
    assert [(d.code, d.line, d.column) for d in found] == [(dg.UNKNOWN_KIND, game_line, 1)]
    assert said in found[0].hint and "not content" in found[0].message


@pytest.mark.parametrize("replace", [False, True])
def test_an_id_used_twice_in_one_pack_is_an_error_even_with_replace(tmp_path, replace):
    """A newcomer's id used twice in a pack was told to set `replace: true`; with it, the
    pack's first entity vanished and the check was clean."""
    pack = tmp_path / "twice"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: twice\ngame: dungeontology\nversion: '1'\n",
                                    encoding="utf-8")
    card = ("  - id: lantern\n{replace}    name: {{zh: 提灯, en: Lantern}}\n"
            "    source: approximation\n    note: a fan's card\n    card_type: infamy\n"
            "    bonus: 1\n    count: 1\n    action: true\n    main: gain_students 2\n"
            "    auxiliary: gain_students 1\n")
    (pack / "cards.yaml").write_text(
        "scheme_cards:\n" + card.format(replace="") +
        card.format(replace="    replace: true\n" if replace else ""), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dungeontology", [pack], reporter)
    got = [(d.code, d.line, d.hint) for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert got == [(dg.DUPLICATE_ID, 12, "ids are unique within a pack: rename one of the two")], got


@pytest.mark.parametrize("field, expected", [
    ("card_typ", [(7, "unknown field 'card_typ'", "did you mean `card_type`?")]),
    ("colour", [(2, "'card_type' is a required property", "add the missing field"),
                (7, "unknown field 'colour'", "allowed fields: action, after_use, approximations, "
                 "auxiliary, bonus, card_type, count, fate_bonus, id, intern, main, name, note, "
                 "note_of, public, ref, replace, source, timing")]),
])
def test_a_misspelt_required_field_is_one_error_at_the_misspelling(tmp_path, field, expected):
    """A newcomer's `sped: 3` got 'speed is a required property' at the entity's first line
    besides 'unknown field sped, did you mean speed?' at its own."""
    pack = make_pack(tmp_path, "typo", game="dungeontology")
    (pack / "cards.yaml").write_text(
        "scheme_cards:\n  - id: lantern\n    name: {zh: 提灯, en: Lantern}\n"
        f"    source: approximation\n    note: a fan's card\n    count: 1\n    {field}: infamy\n"
        "    bonus: 1\n    action: true\n    main: gain_students 2\n    auxiliary: gain_students 1\n",
        encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dungeontology", [pack], reporter)
    got = [(d.line, d.message, d.hint) for d in reporter.sorted() if d.severity == dg.ERROR]
    assert got == expected, got


def test_two_statements_without_a_semicolon_are_told_to_separate_them(tmp_path):
    """A newcomer's `gain_students 2 draw_cards 1` got "takes 1 argument, got 3" and the
    verb's usage only."""
    pack = make_pack(tmp_path, "semi", game="dungeontology")
    (pack / "cards.yaml").write_text(
        "scheme_cards:\n  - id: lantern\n    name: {zh: 提灯, en: Lantern}\n"
        "    source: approximation\n    note: a fan's card\n    count: 1\n    card_type: infamy\n"
        "    bonus: 1\n    action: true\n    main: gain_students 2 draw_cards 1\n"
        "    auxiliary: gain_students 1\n", encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dungeontology", [pack], reporter)
    [d] = [d for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert (d.code, d.line) == (dg.WRONG_ARITY, 10)
    assert d.hint.startswith("separate statements with `;` (before 'draw_cards')"), d.hint


@pytest.mark.parametrize("version, hint", [
    ("0.1", 'YAML reads it as a number: put it in quotes, "0.1"'),
    ("true", "YAML reads yes, no, true and false unquoted as true/false: put the word in quotes"),
    ("first", 'numbers joined by dots, in quotes: "1.0"'),
])
def test_a_text_field_read_as_a_number_says_to_quote_it(tmp_path, version, hint):
    """A newcomer's `version: 0.1` got "0.1 is not of type 'string'" and no hint."""
    pack = tmp_path / "num"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: num\ngame: dungeontology\nversion: {version}\n",
                                    encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dungeontology", [pack], reporter)
    assert [(d.line, d.hint) for d in reporter.diagnostics] == [(3, hint)], reporter.diagnostics


@pytest.mark.parametrize("game, need, hint", [
    ("dungeontology", "tomb_party", "'tomb_party' is a pack for clank_catacombs, not dungeontology: remove it"),
    ("clank_catacombs", "tomb_partyy", "did you mean `tomb_party`? (the game's shipped packs load by "
     "id); else pass the required pack with --pack"),
    ("clank_catacombs", "my_other_pack", "pass the required pack with --pack"),
])
def test_a_required_pack_that_is_not_loaded_says_what_it_is(tmp_path, monkeypatch, game, need, hint):
    """A newcomer's `requires: [tomb_party]` in a Dungeontology pack was told to pass it with
    --pack, though it is a Clank! pack."""
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "needs"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: needs\ngame: {game}\nversion: '1'\nrequires: [{need}]\n",
                                    encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / game, [pack], reporter)
    assert [(d.line, d.hint) for d in reporter.diagnostics] == [(4, hint)], reporter.diagnostics


def test_a_verbs_arguments_the_other_way_round_are_one_error_with_the_order(tmp_path):
    """A newcomer's `gain 2 gold` (the sheet reads "Gain 2 gold"; the README's table wrote it
    so) got two type errors, 'expected a resource, got a number' and its mirror."""
    pack = tmp_path / "order"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: order\ngame: clank_catacombs\nversion: '1'\n"
                                    "vocabulary:\n  keywords:\n    loot:\n      params: []\n"
                                    "      effect: gain 2 gold\n      text: {zh: 战利品, en: Loot}\n",
                                    encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "clank_catacombs", [pack], reporter)
    got = [(d.code, d.message, d.hint) for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert got == [(dg.WRONG_TYPE, "'gain' takes its arguments the other way round",
                    "write `gain gold 2`; usage: gain <resource:resource> <amount:int>")], got


def test_a_shipped_pack_a_pack_requires_is_loaded_by_every_command(tmp_path):
    """`check P` loaded the tomb_party P requires, but `sim --pack P` (every command but check)
    said 'pack needs tomb_party, which is not loaded before it', with a hint naming tomb_party
    as the close spelling of itself (fifth packs blind test)."""
    pack = make_pack(tmp_path, "party_extras", "requires: [tomb_party]\n", "clank_catacombs", {
        "t.yaml": "tokens:\n  - id: party_treasure_25\n    replace: true\n"
                  "    name: {zh: 宝藏1, en: Treasure 1}\n    source: approximation\n"
                  "    note: fan\n    token_type: treasure\n    count: 1\n    points: 1\n"
                  "    value: 1\n    above_equal: true\n"})
    game, reporter = compile_with(REPO / "content" / "clank_catacombs", [pack])
    assert reporter.diagnostics == []
    assert [p.id for p in game.packs] == ["clank_catacombs", "tomb_party", "party_extras"]
    assert game.entities["token"]["party_treasure_25"].data["points"] == 1


def test_a_misspelt_value_of_a_list_of_values_gets_the_close_one(tmp_path):
    """`card_type: aquire` got only 'one of: acquire, device, ...' (fifth packs blind test)."""
    pack = make_pack(tmp_path, "aquire", game="clank_catacombs", files={"c.yaml": """cards:
  - id: bard
    name: {zh: 吟游诗人, en: Bard}
    source: approximation
    note: a test
    card_type: aquire
    count: 1
    cost: 3
"""})
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "clank_catacombs", [pack], reporter)
    hints = [d.hint for d in reporter.diagnostics if d.line == 6]
    assert hints == ["did you mean `acquire`? (one of: acquire, device, monster, reserve, starting)"]


def test_a_verb_named_by_a_word_of_it_gets_the_verb_as_a_hint(base, tmp_path):
    """`gain ap 2` in The Cave (whose verb is gain_token) got no hint: difflib finds `gain` too
    far from `gain_token` (fifth packs blind test)."""
    pack = make_pack(tmp_path, "gain", files={"t.yaml": tile("gainer", extra="    on_discover: \"gain 1\"\n")})
    _, reporter = compile_with(base, [pack])
    assert [(d.code, d.hint) for d in reporter.diagnostics] == \
        [(dg.UNKNOWN_NAME, "did you mean `gain_token`?")], dg.format_text(reporter)
