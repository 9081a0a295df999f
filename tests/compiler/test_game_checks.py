"""Game rules checked at compile time point at the offending entity field."""
import shutil
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[2]


def _cave_copy(tmp_path: Path) -> Path:
    target = tmp_path / "the_cave"
    shutil.copytree(ROOT / "content" / "the_cave", target,
                    ignore=shutil.ignore_patterns("packs", "missions", "scenarios"))
    return target


def test_a_stack_without_twenty_tiles_is_reported_at_a_count(tmp_path):
    cave = _cave_copy(tmp_path)
    tiles = cave / "tiles.yaml"
    lines = tiles.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("count:"))
    lines[index] = lines[index].replace("count:", "count: 1 #", 1) if "#" not in lines[index] \
        else lines[index]
    tiles.write_text("\n".join(lines), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(cave, [], reporter)
    found = [d for d in reporter.diagnostics if d.code == dg.GAME_RULE]
    assert len(found) == 1
    assert "holds" in found[0].message and "the rulebook has 20 (L37)" in found[0].message
    assert found[0].file.endswith("tiles.yaml") and found[0].line >= 1


def test_the_shipped_cave_passes_its_game_checks():
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "the_cave", [], reporter)
    assert not [d for d in reporter.diagnostics if d.code == dg.GAME_RULE]


def _fan_pack(tmp_path: Path, pack_yaml: str, files: dict[str, str], game: str = "the_cave") -> list:
    """The diagnostics of compiling `game` with a pack `fan` of `files` (pack.yaml adds
    `pack_yaml`)."""
    return _fan_reporter(tmp_path, pack_yaml, files, game).diagnostics


def _fan_reporter(tmp_path: Path, pack_yaml: str, files: dict[str, str], game: str = "the_cave"):
    pack = tmp_path / "fan"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: fan\ngame: {game}\nversion: '1.0'\n" + pack_yaml,
                                    encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [pack], reporter)
    return reporter


TILE = """tiles:
  - id: s2_crystal_ns
    name: {zh: 水晶, en: Crystal}
    source: approximation
    note: a test
    stack: 2
    tile_kind: normal
    exits: NS
    count: 1
"""


def test_a_packs_extra_tile_is_reported_at_the_packs_tile_with_the_way_out(tmp_path):
    """Found by the packs blind test: a pack's 21st tile of stack 2 was reported at a base
    tile (the last by id, content/the_cave/tiles.yaml), which a fan cannot edit, with no hint."""
    found = [d for d in _fan_pack(tmp_path, "", {"tiles.yaml": TILE}) if d.code == dg.GAME_RULE]
    assert [(Path(d.file).name, d.line) for d in found] == [("tiles.yaml", 9)], found
    assert str(tmp_path) in found[0].file and "stack 2 holds 21" in found[0].message
    assert "remove" in found[0].hint and "replace: true" in found[0].hint


def _lantern(slots: int) -> str:
    """A pack's equipment.yaml with one lantern of `slots` slots (its `term` on line 7)."""
    return f"""equipment:
  - id: lantern
    name: {{zh: 提燈, en: Lantern}}
    source: approximation
    note: a test
    after_use: discard
    term: lantern
    slots: {slots}
    uses: 2
"""


def test_a_packs_undeclared_equipment_term_says_where_to_declare_it(tmp_path):
    found = _fan_pack(tmp_path, "", {"equipment.yaml": _lantern(slots=1)})
    refs = [d for d in found if d.code == dg.UNKNOWN_REF]
    assert [(Path(d.file).name, d.line) for d in refs] == [("equipment.yaml", 7)], found
    assert "vocabulary: {terms: {equipment: {lantern:" in refs[0].hint


def test_removing_what_base_content_still_names_is_refused_at_the_removal(tmp_path):
    """Found by the packs blind test: removing The Cave's squeeze_3 tile kind gave four errors
    in content/the_cave/tiles.yaml, a file the fan cannot edit, each hinting "did you mean
    squeeze_2"; the fix is in the pack: one error at its `remove` entry, naming the users."""
    found = _fan_pack(tmp_path, "remove: [{kind: tile_kind, id: squeeze_3}]\n", {})
    assert [(Path(d.file).name, d.line, d.code) for d in found] == \
        [("pack.yaml", 4, dg.UNKNOWN_REF)], found
    assert "cannot remove tile_kind 'squeeze_3'" in found[0].message
    assert "tiles.yaml" in found[0].message and "replace: true" in found[0].hint


def test_an_item_bigger_than_a_backpack_is_refused_at_its_slots(tmp_path):
    """Found by the packs blind test: a lantern of 9 slots checked clean and was never carried."""
    found = _fan_pack(tmp_path, "vocabulary: {terms: {equipment: {lantern: {zh: 提燈, en: lantern}}}}\n",
                      {"equipment.yaml": _lantern(slots=9)})
    assert [(Path(d.file).name, d.line, d.code) for d in found] == \
        [("equipment.yaml", 8, dg.GAME_RULE)], found
    assert "a backpack has 8 (L46)" in found[0].message


def test_a_packs_tile_refused_by_its_schema_does_not_also_blame_a_stack(tmp_path):
    """The tile with a bad `exits` is left out; the stack it belonged to was then reported short
    at a base tile, a second error about the same typo in a file the fan cannot edit."""
    found = _fan_pack(tmp_path, "remove: [{kind: tile, id: s2_normal_ns}]\n",
                      {"tiles.yaml": TILE.replace("exits: NS", "exits: NX")})
    assert [(Path(d.file).name, d.code) for d in found] == [("tiles.yaml", dg.SCHEMA)], found


def test_a_dungeontology_intern_no_scheme_card_names_is_flagged(tmp_path):
    """Found by the packs blind test: a pack's interns checked clean and were never taken in
    100 games (an intern comes only with the scheme card whose `intern` names it)."""
    reporter = _fan_reporter(tmp_path, "", {"interns.yaml": """intern_cards:
  - id: star_chaser
    name: {zh: 追星实习生, en: Star Chaser}
    source: approximation
    note: a test
    colours: []
    end_bonus: 1
    effect: "on star_gained: gain_students 1"
"""}, "dungeontology")
    found = [(Path(d.file).name, d.line, d.code) for d in reporter.diagnostics]
    assert found == [("interns.yaml", 2, dg.GAME_RULE_WARNING)], dg.format_text(reporter)
    assert "intern: star_chaser" in reporter.diagnostics[0].hint


def test_an_intern_on_a_scheme_card_with_no_main_effect_is_flagged_at_the_card(tmp_path):
    """A card gives its intern when its main effect is played (a Fate card's central value
    too): a pack's Trick card with `intern:` and no main checked clean, and the intern never
    came into play (fifth packs blind test)."""
    reporter = _fan_reporter(tmp_path, "", {"cards.yaml": """scheme_cards:
  - id: smoke_bomb
    replace: true
    name: {zh: 烟雾弹, en: Smoke Bomb}
    source: approximation
    note: a test
    card_type: trick
    bonus: 2
    count: 10
    auxiliary: "add_stealth 1"
    intern: pet_rat
intern_cards:
  - id: pet_rat
    name: {zh: 宠物鼠, en: Pet Rat}
    source: approximation
    note: a test
    colours: []
    end_bonus: 4
"""}, "dungeontology")
    found = [(Path(d.file).name, d.line, d.code) for d in reporter.diagnostics]
    assert found == [("cards.yaml", 11, dg.GAME_RULE_WARNING)], dg.format_text(reporter)
    assert "never gives the intern 'pet_rat'" in reporter.diagnostics[0].message


def test_a_base_intern_a_packs_removed_scheme_card_handed_out_is_flagged_at_the_removal(tmp_path):
    """Removing the Shortcut, the only scheme card naming the Guide, left the Guide out of play
    with a clean check (fourth packs blind test); replacing the card with another intern
    does the same, said at the replacing card."""
    pack = tmp_path / "lean"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: lean\ngame: dungeontology\nversion: '1.0'\n"
                                    "remove: [{kind: scheme_card, id: shortcut}]\n",
                                    encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "dungeontology", [pack], reporter)
    found = [(Path(d.file).name, d.line, d.code) for d in reporter.diagnostics]
    assert found == [("pack.yaml", 4, dg.GAME_RULE_WARNING)], dg.format_text(reporter)
    assert "'guide'" in reporter.diagnostics[0].message
    (pack / "pack.yaml").write_text("id: lean\ngame: dungeontology\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "cards.yaml").write_text("""scheme_cards:
  - id: shortcut
    replace: true
    name: {zh: 捷径, en: Shortcut}
    source: approximation
    note: a test
    card_type: exploration
    bonus: 1
    count: 10
    main: "move 3"
    auxiliary: "move 1"
    intern: guard
""", encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "dungeontology", [pack], reporter)
    found = [(Path(d.file).name, d.line, d.code) for d in reporter.diagnostics]
    assert found == [("cards.yaml", 2, dg.GAME_RULE_WARNING)], dg.format_text(reporter)
