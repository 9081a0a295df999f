"""A class's equipment is the supply of board tokens its dwarf places (rulebook L252-260): a
pack's Medic with `equipment: {medkit: 3}` and no effect placing a medkit checked clean, its
class card printed 'Class equipment: medkit × 3', and play never used one (packs round 11).
Check warns at the equipment entry; the base classes and goo_from_above stay clean."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

REPO = Path(__file__).resolve().parents[2]

PACK = """id: medics
game: deep_rock_galactic
version: '1'
vocabulary:
  terms:
    board_token:
      medkit: {zh: 医疗包, en: medkit}
"""
DWARF = """dwarves:
  - id: medic
    name: {zh: 医疗兵, en: Medic}
    source: approximation
    note: a fan class
    colour: blue
    health: 4
    primary_ammo: 4
    secondary_ammo: 2
    equipment: {medkit: 3}
    abilities:
      - id: patch_up
        name: {zh: 包扎, en: Patch Up}
        effect: "ABILITY"
weapons:
  - id: dart_gun
    name: {zh: 飞镖枪, en: Dart Gun}
    source: approximation
    note: a fan weapon
    dwarf: medic
    slot: primary
    default: true
    modes:
      - id: dart
        name: {zh: 飞镖, en: Dart}
        actions: 1
        ammo: 1
        range: 3
        die: bullet_die
        dice: 2
        assign: best_die
        effect: "pay actions 1, pay ammo 1 -> target monster where in_range(3) and line_of_sight(): let r = roll(bullet_die, 2); deal bullet best_die(r)"
"""


def diagnostics(tmp_path: Path, ability: str, extra: str = "") -> list:
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "dwarves.yaml").write_text(DWARF.replace("ABILITY", ability) + extra,
                                           encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "deep_rock_galactic", [tmp_path], reporter)
    return [d for d in reporter.diagnostics if "medkit" in d.message]


def test_equipment_no_effect_places_is_warned_at_its_entry(tmp_path):
    found = diagnostics(tmp_path, "pay actions 1 -> heal 2")
    assert [(d.code, d.line) for d in found] == [("TC-G002", 10)], found
    assert "throwable" in found[0].hint


def test_equipment_a_throwable_places_is_clean(tmp_path):
    toss = ("\nthrowables:\n  - id: medkit_toss\n    name: {zh: 投掷医疗包, en: Medkit Toss}\n"
            "    source: approximation\n    note: a fan throwable\n    range: 3\n    area: 0\n"
            "    dice: 0\n    effect: \"place medkit 1\"\n")
    assert diagnostics(tmp_path, "pay actions 1 -> heal 2", extra=toss) == []
