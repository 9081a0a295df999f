"""Mission files and `tomecraft check MISSION.yaml`: every broken example yields exactly the
diagnostics written at its end (`# expect: LINE:COL CODE RULE`), valid missions yield none."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tomecraft.compiler import diagnostics as dg, missions

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent / "missions"
BROKEN = sorted((HERE / "broken").glob("*.yaml"))
VALID = sorted((HERE / "valid").glob("*.yaml")) + sorted(
    (ROOT / "content/deep_rock_galactic/missions").glob("*.yaml"))
RULE = re.compile(r"^([A-Z]-\d\d):")
EXPECT = re.compile(r"^# expect: (\d+):(\d+) (\S+) (\S+)$", re.M)


def diagnostics(path: Path) -> list[tuple[int, int, str, str]]:
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    return sorted((d.line, d.column, d.code, rule_of(d.message)) for d in reporter.diagnostics)


def rule_of(message: str) -> str:
    """The constraint id a diagnostic names first (`V-12: ...`, `M-03: ...`), or "-"."""
    found = RULE.match(message)
    return found.group(1) if found else "-"


def test_at_least_twelve_broken_and_three_valid_fan_missions_ship():
    assert len(BROKEN) >= 12
    assert len(list((HERE / "valid").glob("*.yaml"))) >= 3


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_mission_yields_exactly_its_expected_diagnostics(path):
    expected = sorted((int(l), int(c), code, rule) for l, c, code, rule in EXPECT.findall(path.read_text()))
    assert expected, f"{path.name} declares no expected diagnostic"
    assert diagnostics(path) == expected


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_mission_has_no_diagnostics(path):
    assert diagnostics(path) == []


def test_each_broken_example_breaks_a_different_rule_or_place():
    keys = [tuple(EXPECT.findall(p.read_text())) for p in BROKEN]
    assert len(set(keys)) == len(keys)


def test_a_mission_file_is_checked_from_anywhere_with_file_line_and_column(tmp_path):
    copy = tmp_path / "my_mission.yaml"
    shutil.copy(HERE / "broken" / "b01_one_tunnel_exit.yaml", copy)
    out = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "check", str(copy), "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1
    found = json.loads(out.stdout)["diagnostics"]
    assert [(d["line"], d["column"], d["code"]) for d in found] == [(15, 5, "TC-G001")]
    assert found[0]["file"].endswith("my_mission.yaml") and "V-12" in found[0]["message"]


def test_a_mission_file_with_a_key_twice_is_refused_by_check_sim_and_sheets_alike():
    """The YAML reader's own errors count for a mission file: check reported none while
    load_mission (sim, sheets) saw one, and sheets even wrote the briefing."""
    path = HERE / "broken" / "b69_key_twice.yaml"
    reporter = dg.Reporter()
    assert missions.load_mission(path, reporter) is None
    assert [rule_of(d.message) for d in reporter.diagnostics] == ["F-01"]


def test_map_diagnostics_point_at_the_offending_hex():
    path = HERE / "broken" / "b18_pit_off_segment.yaml"
    (line, column, _, rule), = diagnostics(path)
    assert rule == "V-05"
    assert path.read_text().split("\n")[line - 1][column - 1] == "o"


def test_an_unknown_map_character_is_reported_with_the_legend(tmp_path):
    text = (HERE / "valid" / "aquarq_run.yaml").read_text().replace("# . . . . . . . . . . #", "# . . . . Q . . . . . #")
    path = tmp_path / "m.yaml"
    path.write_text(text)
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    (d,) = reporter.diagnostics
    assert d.code == dg.SCHEMA and "'Q'" in d.message and text.split("\n")[d.line - 1][d.column - 1] == "Q"


def test_hex_neighbours_follow_the_odd_row_shift():
    assert sorted(missions.neighbours(2, 2)) == [(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)]
    assert sorted(missions.neighbours(1, 2)) == [(0, 2), (0, 3), (1, 1), (1, 3), (2, 2), (2, 3)]


def test_checking_one_mission_file_is_clean():
    # its speed is measured by bench/run.py (the single-file check row), not asserted here
    assert diagnostics(HERE / "valid" / "fossil_field.yaml") == []


def test_the_mission_book_missions_obey_the_same_constraints(tmp_path):
    from tomecraft.compiler import pipeline
    copy = tmp_path / "deep_rock_galactic"
    shutil.copytree(ROOT / "content/deep_rock_galactic", copy, ignore=shutil.ignore_patterns("packs"))
    book = copy / "mission_book.yaml"
    book.write_text(book.read_text().replace("      - {exit: 2, at: [9, 10]}\n", ""))
    reporter = dg.Reporter()
    pipeline.compile_game(copy, [], reporter)
    found = [(Path(d.file).name, d.message.split(":")[0]) for d in reporter.diagnostics]
    assert found == [("mission_book.yaml", "V-12")]


def test_mission_one_holds_the_contents_the_guide_lists():
    from tomecraft.generated.deep_rock_galactic import GAME
    m1 = GAME.get("mission", "m01")
    assert dict(m1.minerals._fields) == {"morkite": 5, "gold": 2, "nitra": 2}
    assert dict(m1.pickups._fields) == {"loot_bug": 2, "apoca_bloom": 3}
    assert list(m1.remove_cards) == ["p_p_p_praetorian", "oh_oh_oppressor"]
    assert m1.objective.type == "collect" and m1.provenance.approximations


def test_the_readme_documents_every_constraint_the_checker_names_each_with_a_broken_example():
    readme = (ROOT / "content/deep_rock_galactic/missions/README.md").read_text()
    rows = dict(re.findall(r"^\| ([A-Z]-\d\d) \| .+ \| (.+) \|$", readme, re.M))
    source = "".join(p.read_text() for p in (ROOT / "compiler/missions").glob("*.py"))
    source += (ROOT / "runtime/engines/deep_rock_galactic/mission_map.py").read_text()
    emitted = set(re.findall(r'"([A-Z]-\d\d)"', source))
    assert set(rows) == emitted
    assert {f"V-{n:02d}" for n in range(1, 28)} <= set(rows)        # all of inventory §9.5
    assert all(example.strip() for example in rows.values())
    shown = {rule for p in BROKEN for *_, rule in EXPECT.findall(p.read_text())}
    assert set(rows) <= shown
    assert len(BROKEN) >= 40


def test_every_diagnostic_of_a_broken_example_names_its_constraint_and_has_a_hint():
    for path in BROKEN:
        reporter = dg.Reporter()
        missions.check_file(path, reporter)
        for d in reporter.diagnostics:
            assert rule_of(d.message) != "-", (path.name, d.message)
            assert d.hint, (path.name, d.message)


def test_a_pack_swarm_card_keeps_the_swarm_deck_when_the_base_swarm_cards_are_removed():
    """V-20 (rulebook L890-894): a Swarm draws a Swarm card. Removing the base game's three is
    refused alone (b105) and clean with Goo From Above, whose Swarm card stays in the deck."""
    path = HERE / "broken" / "b105_remove_every_swarm_card.yaml"
    pack = ROOT / "content/deep_rock_galactic/packs/goo_from_above"
    reporter = dg.Reporter()
    missions.check_file(path, reporter, [pack])
    assert [d.message for d in reporter.diagnostics] == []


def test_a_shipped_packs_card_or_creature_without_its_pack_gets_a_hint_naming_the_pack():
    """A fan who removes Goo From Above's card or hunts its Goo Bomber without `--pack` is told
    which pack to load (the hint once offered `reaction_ambush`, a base card that looks alike)."""
    hints = []
    for path in (HERE / "broken" / "b106_remove_a_pack_card_without_the_pack.yaml",
                 HERE / "pack" / "goo_hunt.yaml"):
        reporter = dg.Reporter()
        missions.check_file(path, reporter)
        hints += [d.hint for d in reporter.diagnostics]
    assert len(hints) == 4
    assert all("of the pack goo_from_above" in h and "`--pack goo_from_above`" in h for h in hints)


def test_a_card_of_another_deck_in_remove_cards_is_named_for_what_it_is():
    """rs_medkit is a card the game has: "unknown card" sent the fan looking for a typo."""
    reporter = dg.Reporter()
    missions.check_file(HERE / "broken" / "b107_remove_a_rock_and_stone_card.yaml", reporter)
    [d] = reporter.diagnostics
    assert "rs_medkit is a Rock and Stone card, not an Event or Swarm card" in d.message
    assert "Event and Swarm decks" in d.hint


def test_mission_files_checked_together_each_need_an_id_of_their_own(tmp_path, run_cli):
    """Two fan missions with one id in a folder checked clean, and `sheets --mission` wrote
    one's briefing (briefing_<id>) over the other's."""
    text = (HERE / "valid" / "fossil_field.yaml").read_text()
    (tmp_path / "a.yaml").write_text(text)
    (tmp_path / "b.yaml").write_text(text)
    code, out, err = run_cli("check", tmp_path, "--format", "json")
    found = json.loads(out)["diagnostics"]
    assert code == 1 and "Traceback" not in err
    assert [(Path(d["file"]).name, d["line"], d["message"].split(":")[0]) for d in found] == [
        ("b.yaml", text.splitlines().index("  id: fossil_field") + 1, "F-01")]
    (tmp_path / "b.yaml").write_text(text.replace("id: fossil_field", "id: fossil_field_two"))
    assert run_cli("check", tmp_path)[0] == 0


def test_a_packs_board_token_is_no_class_token_even_with_its_pack():
    """`tokens:` takes class tokens out of a class's hand (rulebook L252-260). Goo has a supply
    in Goo From Above but no class carries it: with the pack it checked clean and play
    ignored it."""
    reporter = dg.Reporter()
    pack = ROOT / "content/deep_rock_galactic/packs/goo_from_above"
    missions.check_file(HERE / "broken" / "b111_goo_as_a_class_token.yaml", reporter, [pack])
    [d] = reporter.diagnostics
    assert d.message.startswith("V-24: goo is a board token no dwarf class carries")


def test_two_hidden_slots_side_by_side_get_a_hint_to_wall_them_apart():
    reporter = dg.Reporter()
    missions.check_file(HERE / "broken" / "b112_two_hidden_slots_side_by_side.yaml", reporter)
    [d] = reporter.diagnostics
    assert "covers 8 hexes" in d.message and "put a wall between them" in d.hint


@pytest.mark.parametrize("event, clean", [
    ("advance_threat hazard_level()", True),                      # 1-5: surely advances
    ("advance_threat (hazard_level() - 1)", False),              # 0 at Hazard 1
    ("if hazard_level() >= 1 { advance_threat 1 }", True),        # holds at every level
    ("if hazard_level() >= 3 { advance_threat 1 }", False),       # not at Hazard 1-2
    ("repeat hazard_level() { advance_threat 1 }", True),
    ("let n = 1; advance_threat n", True),                        # a let's name is its value
    ("let n = hazard_level() - 1; advance_threat n", False)])
def test_an_event_advancing_the_threat_by_the_hazard_level_keeps_the_clock(tmp_path, event, clean):
    """V-20: with the Swarm Threat cards removed, a mission event that advances the track at
    every Hazard level the players may choose (1-5, rulebook L167) is the clock. Only a literal
    was taken to be: `advance_threat hazard_level()` was refused."""
    data = yaml.safe_load((HERE / "valid" / "aquarq_run.yaml").read_text())
    data["mission"]["remove_cards"] = ["threat_1", "threat_2", "optional_ammo"]
    data["mission"]["mission_event"] = event
    path = tmp_path / "clock.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    found = [(code, rule) for _, _, code, rule in diagnostics(path)]
    assert (found == []) == clean, found


def test_a_mission_file_saved_with_a_byte_order_mark_names_f01_when_its_yaml_breaks(tmp_path):
    """A mission file the YAML reader refuses as a whole is told F-01, as every mission
    diagnostic names its rule; one saved with a byte order mark (a Windows editor) was not
    recognised as a mission (`game:` did not start its line) and its error named no rule."""
    text = (HERE / "valid" / "aquarq_run.yaml").read_text().replace(
        "drop_pod: [[2, 2], [2, 3], [3, 2], [3, 3]]", "drop_pod: [[2, 2], [2, 3], [3, 2], [3, 3]")
    text = text[text.index("game:"):]          # the mark is then just before `game:`
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    [(_, _, code, rule)] = diagnostics(path)
    assert (code, rule) == (dg.YAML_SYNTAX, "F-01")


@pytest.mark.parametrize("path", [p for p in BROKEN if "past_the_limit" in p.name], ids=lambda p: p.stem)
def test_the_limit_hints_example_is_a_mission_event_check_accepts(path, tmp_path):
    """V-21's hint shows the call as one amount within the limit. It said `spawn_at_exits 2`
    (the creature dropped), an event check refuses; put in the event's place, the example
    now checks clean."""
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    [hint] = {d.hint for d in reporter.diagnostics if "past the limit" in d.message}
    example = re.search(r"`([^`]+)`", hint).group(1)
    text = path.read_text(encoding="utf-8")
    event = re.search(r'mission_event: "([^"]+)"', text).group(1)
    fixed = tmp_path / path.name
    fixed.write_text(text.replace(event, example), encoding="utf-8")
    again = dg.Reporter()
    missions.check_file(fixed, again)
    assert not [d for d in again.diagnostics if "V-21" in d.message], again.diagnostics
