"""What a pack's `remove` leaves of the Event and Swarm decks: a Mission Specific Event card
(it plays every mission's `mission_event`, rulebook L896-900), a Swarm card (a Swarm draws
one, L890-894) and an Event card that surely advances the Swarm Threat Track (L884-895,
L1295). A mission file is held to that after its own `remove_cards` (V-20); a pack removing
them checked clean (the missions blind test, round 6), and every mission, the fan's too, then
played without its event, its Swarms or its clock. check refuses it at the pack's removal."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, missions, pipeline

ROOT = Path(__file__).resolve().parents[2]
MISSION = ROOT / "content/deep_rock_galactic/missions/README.md"


def pack(tmp_path: Path, removed: list[str]) -> Path:
    folder = tmp_path / "trim"
    folder.mkdir()
    entries = ", ".join(f"{{kind: event_card, id: {card}}}" for card in removed)
    (folder / "pack.yaml").write_text(f"id: trim\ngame: deep_rock_galactic\nversion: '1'\n"
                                      f"remove: [{entries}]\n", encoding="utf-8")
    return folder


def errors(tmp_path: Path, removed: list[str]) -> list[tuple[str, int, int, str]]:
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content/deep_rock_galactic", [pack(tmp_path, removed)], reporter)
    return [(Path(d.file).name, d.line, d.column, d.message) for d in reporter.diagnostics
            if d.severity == "error"]


@pytest.mark.parametrize("removed, words", [
    (["mission_specific"], "no Mission Specific Event card is left"),
    (["swarm_grunts", "swarm_mixed", "swarm_exploders"], "the Swarm deck is left empty"),
    (["threat_1", "threat_2"], "no Event card left surely advances the Swarm Threat Track"),
])
def test_a_pack_removing_what_every_mission_needs_is_refused_at_its_removal(tmp_path, removed, words):
    got = errors(tmp_path, removed)
    line = (tmp_path / "trim" / "pack.yaml").read_text().splitlines()[3]
    assert len(got) == 1, got
    name, row, column, message = got[0]
    assert (name, row) == ("pack.yaml", 4) and words in message
    assert line[column - 1:].startswith(f"{{kind: event_card, id: {removed[-1]}}}")


@pytest.mark.parametrize("removed", [["swarm_grunts", "swarm_mixed"], ["threat_1"], ["optional_ammo"]])
def test_a_pack_leaving_one_of_each_is_clean(tmp_path, removed):
    assert errors(tmp_path, removed) == []


def test_a_mission_file_checked_with_such_a_pack_is_told_at_the_pack(tmp_path):
    text = MISSION.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "salt_pits.yaml"
    path.write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    missions.check_file(path, reporter, [pack(tmp_path, ["mission_specific"])])
    assert [(Path(d.file).name, d.line) for d in reporter.diagnostics] == [("pack.yaml", 4)]


def test_a_mission_beside_the_pack_it_needs_is_told_which_pack(tmp_path):
    """A fan's repository holds the pack and the missions that use it side by side (the
    pre-commit hook's `check .`): a creature of the pack next to the mission file got only
    "a pack's creature is known with `--pack DIR`"; both hints now name that pack's folder."""
    leech = tmp_path / "leech"
    leech.mkdir()
    (leech / "pack.yaml").write_text(
        "id: leech\ngame: deep_rock_galactic\nversion: '1'\n"
        "vocabulary: {terms: {creature: {cave_leech: {zh: 洞穴水蛭, en: Cave Leech}}}}\n", encoding="utf-8")
    (leech / "monsters.yaml").write_text(
        'monsters:\n  - {id: cave_leech, name: {zh: 洞穴水蛭, en: Cave Leech}, source: approximation, '
        'note: "A fan creature.", creature: cave_leech, order: 13, hp: 3, attack_range: 1, move: 2, '
        'attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true}\n', encoding="utf-8")
    text = MISSION.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    text = text.replace('mission_event: "spawn_at_exits grunt 1; activate_monsters"',
                        'mission_event: "spawn_at_exits cave_leech 1"')
    text = text.replace("hidden_monsters: [{creature: grunt, count: 1}]",
                        "hidden_monsters: [{creature: cave_leech, count: 1}]")
    path = tmp_path / "leech_hunt.yaml"
    path.write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    assert sorted(d.message[:4] for d in reporter.diagnostics) == ["V-21", "V-23"]
    assert all("creature of the pack" in d.hint and "leech" in d.hint.split("--pack ")[1]
               for d in reporter.diagnostics)
    reporter = dg.Reporter()
    missions.check_file(path, reporter, [leech])
    assert reporter.diagnostics == []
