"""V-28: a Gold or Nitra objective beyond the most the mission can ever give is refused at its
line, the most read from the content's dice: a stalagmite's mineral die and a Loot Bug's (L533,
L562) give a mineral only through a face the die has. (`check` passed such a mission: W-01
only warned, and counted every stalagmite and Loot Bug whatever the die showed.)"""
from __future__ import annotations

from pathlib import Path

import yaml

from tomecraft.compiler import diagnostics as dg, missions

HERE = Path(__file__).parent / "missions"
NITRA = HERE / "broken" / "b134_nitra_beyond_stalagmite_and_loot_bug.yaml"

# a pack whose mineral die shows Gold on every face: no stalagmite and no Loot Bug gives Nitra
GOLD_DIE_PACK = {
    "pack.yaml": {"id": "gold_die", "game": "deep_rock_galactic", "version": "1.0",
                  "name": {"zh": "金骰", "en": "Gold die"}, "requires": []},
    "content.yaml": {"dice": [{"id": "mineral", "replace": True, "name": {"zh": "矿物骰", "en": "Mineral die"},
                               "source": "approximation", "note": "every face Gold",
                               "die": "mineral_die", "faces": [{"face": "four_squares"}] * 6}]},
}


def found(path: Path, packs=()) -> list[tuple[int, int, str, str]]:
    reporter = dg.Reporter()
    missions.check_file(path, reporter, list(packs))
    return [(d.line, d.column, d.code, d.message) for d in reporter.diagnostics]


def _mission(tmp_path: Path, targets: dict, **changes) -> Path:
    data = yaml.safe_load(NITRA.read_text())
    data["mission"]["objective"]["targets"] = targets
    data["mission"].update(changes)
    path = tmp_path / "mission.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return path


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "gold_die"
    pack.mkdir()
    for name, data in GOLD_DIE_PACK.items():
        (pack / name).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return pack


def test_nitra_within_the_most_checks_clean_and_one_more_is_refused(tmp_path):
    assert found(_mission(tmp_path, {"aquarq": 2, "nitra": 3})) == []
    [(line, _, code, message)] = found(_mission(tmp_path, {"aquarq": 2, "nitra": 4}))
    assert code == dg.GAME_RULE and message.startswith("V-28: the objective needs 4 nitra, but at most 3")
    assert "1 from the stalagmite" in message and "1 from the Loot Bug" in message


def test_a_mineral_die_without_the_face_gives_none(tmp_path):
    """With every face of the mineral die Gold, a stalagmite and a Loot Bug give no Nitra: the
    1 placed is all there is, and Gold counts both (1 placed + 1 stalagmite + 2 Loot Bug)."""
    pack = _pack(tmp_path)
    [(_, _, code, message)] = found(_mission(tmp_path, {"aquarq": 2, "nitra": 2}), [pack])
    assert code == dg.GAME_RULE and "at most 1 can ever be had" in message
    assert "the mineral die has no nitra face" in message
    assert found(_mission(tmp_path, {"aquarq": 2, "gold": 4}), [pack]) == []
    [(_, _, _, message)] = found(_mission(tmp_path, {"aquarq": 2, "gold": 5}), [pack])
    assert "at most 4 can ever be had" in message


def test_a_mission_event_that_gains_the_mineral_leaves_it_unbounded(tmp_path):
    path = _mission(tmp_path, {"aquarq": 2, "nitra": 9}, mission_event="advance_threat 1; gain nitra 1")
    assert not [d for d in found(path) if "V-28" in d[3]]
