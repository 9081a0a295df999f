"""`faces(ROLL, FACE)` with a face the rolled die does not have type-checks (a face is a face)
and counts 0 on every roll: `let r = roll(monster_die, 2); spawn grunt faces(r, four_squares)`
checked clean in a mission file's event and in a pack's event card, and spawned nothing, ever
(the missions blind test, round 6). check refuses it at the face, in every effect; a face the
die has stays clean."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, missions, pipeline

ROOT = Path(__file__).resolve().parents[2]
A = 'source: approximation, note: "Test content."'
MISSION = ROOT / "content/deep_rock_galactic/missions/README.md"


def pack_errors(tmp_path: Path, effect: str) -> list[tuple[str, int, int, str]]:
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "content.yaml").write_text(
        f'event_cards:\n  - {{id: rumble, name: {{zh: 震动, en: Rumble}}, {A}, deck: event, '
        f'event_kind: spawning, count: 1, effect: "{effect}"}}\n', encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content/deep_rock_galactic", [pack], reporter)
    return [(d.code, d.line, d.column, d.message) for d in reporter.diagnostics if d.severity == "error"]

def one_rule_error_at(tmp_path: Path, effect: str, word: str) -> str:
    """The message of the one error the pack's effect gets: a game rule's, on the effect's
    line, at `word` in it."""
    errors = pack_errors(tmp_path, effect)
    assert len(errors) == 1, errors
    code, line, column, message = errors[0]
    assert code == dg.GAME_RULE and line == 2
    text = (tmp_path / "fan_pack" / "content.yaml").read_text(encoding="utf-8").splitlines()[1]
    assert text[column - 1:].startswith(word)
    return message



@pytest.mark.parametrize("effect, face", [
    ("let r = roll(monster_die, 2); spawn grunt faces(r, four_squares)", "four_squares"),
    ("spawn grunt faces(roll(mineral_die, 1), bang)", "bang"),
    ("let r = roll(bullet_die, 1); take_damage faces(r, teeth)", "teeth"),
])
def test_a_face_the_rolled_die_lacks_is_refused_at_the_face_in_a_packs_card(tmp_path, effect, face):
    message = one_rule_error_at(tmp_path, effect, face)
    assert f"no {face!r} face" in message


@pytest.mark.parametrize("effect", [
    "let r = roll(monster_die, 2); spawn grunt faces(r, bang)",
    "let r = roll(mineral_die, 1); if faces(r, four_squares) > 0 { gain gold 1 }",
])
def test_a_face_the_die_has_stays_clean(tmp_path, effect):
    assert pack_errors(tmp_path, effect) == []


def test_a_mission_events_face_the_die_lacks_is_refused_as_v21(tmp_path):
    text = MISSION.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    event = 'mission_event: "let r = roll(monster_die, 2); spawn_at_exits grunt faces(r, long_bar)"'
    text = text.replace('mission_event: "spawn_at_exits grunt 1; activate_monsters"', event)
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    got = [(d.line, d.message) for d in reporter.diagnostics]
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "long_bar" in l)
    assert got == [(line, "V-21: the monster_die has no 'long_bar' face: `faces(..., long_bar)` "
                          "counts 0 on every roll")]


# --- `reroll` with nothing rolled, `discard_self` where nothing stays -----------------------

@pytest.mark.parametrize("effect, verb", [
    ("reroll 1", "reroll"),
    ("spawn grunt 1; reroll 2; let r = roll(monster_die, 1)", "reroll"),
    ("spawn grunt 1; discard_self", "discard_self"),
])
def test_a_reroll_before_any_roll_or_a_discard_self_on_an_event_card_is_refused(tmp_path, effect, verb):
    message = one_rule_error_at(tmp_path, effect, verb)
    assert message.startswith(f"`{verb}`")


def test_a_reroll_after_the_effects_own_roll_stays_clean(tmp_path):
    assert pack_errors(tmp_path, "let r = roll(monster_die, 2); reroll 1; spawn grunt faces(r, bang)") == []


@pytest.mark.parametrize("event", ["reroll 1", "discard_self"])
def test_a_mission_event_that_rerolls_nothing_or_discards_itself_is_refused_as_v21(tmp_path, event):
    text = MISSION.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    text = text.replace('mission_event: "spawn_at_exits grunt 1; activate_monsters"',
                        f'mission_event: "spawn_at_exits grunt 1; {event}"')
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    missions.check_file(path, reporter)
    assert [d.message.split(" ")[:2] for d in reporter.diagnostics] == [["V-21:", f"`{event.split()[0]}`"]]


@pytest.mark.parametrize("effect, query", [
    ("let r = roll(monster_die, 2); if hits(r) > 0 { spawn grunt 1 }", "hits"),
    ("spawn grunt best_die(roll(monster_die, 1))", "best_die"),
])
def test_the_hits_of_a_die_with_no_hit_face_are_refused_at_the_query(tmp_path, effect, query):
    """The monster die shows teeth, '!' and blanks: `hits(r)` and `best_die(r)` of its roll are
    0 every time, as a face it lacks is (a fan's event `if hits(r) > 0 {...}` never ran)."""
    message = one_rule_error_at(tmp_path, effect, query)
    assert f"`{query}(...)` of its roll is 0 on every roll" in message


def test_the_hits_of_a_die_with_hits_stay_clean(tmp_path):
    assert pack_errors(tmp_path, "let r = roll(bullet_die, 2); if hits(r) > 1 { spawn grunt best_die(r) }") == []
