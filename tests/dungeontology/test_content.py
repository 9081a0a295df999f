"""The content holds what the rulebook prints: the regions, the notebook table exactly as
printed, the info blocks, the card counts; and the game checks catch broken content."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


def test_start_region_and_eighteen_named_regions_six_per_level(data):
    regions = data.kinds["region"].values()
    assert [r.id for r in regions if r.start] == ["camp"]
    per_level = {lv: sorted(r.number for r in regions if r.level == lv and not r.start) for lv in (1, 2, 3)}
    assert per_level == {1: [f"I-{i}" for i in range(1, 7)], 2: [f"II-{i}" for i in range(1, 7)],
                         3: [f"III-{i}" for i in range(1, 7)]}


def test_stated_region_properties(data):
    get = lambda rid: data.get("region", rid)       # noqa: E731
    assert get("shepherds_shelter").alert == 3                       # L938
    assert list(get("shepherds_shelter").slots[:2]) == ["civilization", "faith"]
    text = (ROOT / "content/dungeontology/regions.yaml").read_text(encoding="utf-8")
    blocks = {b.split("\n")[0].strip(): b for b in text.split("  - id: ")[1:]}
    for rid in ("hunters_camp", "grand_banquet", "barracks", "warriors_camp", "old_drain"):
        assert '"stairs"' in blocks[rid], rid                       # L1383, L892, L1483, L1505, L1545
    for rid in ("shepherds_shelter", "gaias_stele"):
        assert '"stairs"' not in blocks[rid], rid                   # L894
    assert "letter_a" in blocks["grand_banquet"] and "letter_a" in blocks["hidden_plantation"]
    assert "letter_b" in blocks["workers_party"] and "letter_b" in blocks["slums"]
    assert '"camp ' in blocks["workers_party"] and '"camp wealth"' in blocks["slums"]
    for rid in ("trophy_room", "priests_cave", "chieftains_council"):
        assert get(rid).doors, rid
    for rid in ("hunters_camp", "barracks"):
        assert '"boss"' in blocks[rid]


def test_notebook_table_exactly_as_printed(data):
    nb = data.get("notebook", "notebook")
    printed_top_down = [
        [26, 25, 24, 23, 14], [14, 15, 16, 15, 6], [12, 12, 12, 10, 0], [10, 9, 8, 7, 0],
        [8, 6, 6, 5, 0], [6, 4, 4, 4, 0], [4, 3, 3, 3, 0], [2, 2, 2, 2, 0], [0, 0, 0, 0, 0]]
    columns = [list(c.values)[::-1] for c in nb.columns]
    assert [[col[row] for col in columns] for row in range(9)] == printed_top_down
    assert [c.unit_value for c in nb.columns] == [2, 3, 4, 5, 6]


def test_info_blocks_20_15_13_10_6_with_unit_values(data):
    blocks = {b.colour: (b.count, b.unit_value) for b in data.kinds["info_block"].values()}
    assert blocks == {"civilization": (20, 2), "military": (15, 3), "faith": (13, 4),
                      "wealth": (10, 5), "caste": (6, 6)}


def test_component_counts(data):
    k = data.kinds
    assert sum(c.count for c in k["scheme_card"].values()) == 105
    assert len(k["randomizer_card"]) == 16 and len(k["doom_card"]) == 15
    assert len(k["intern_card"]) == 10 and "guard" in k["intern_card"]
    assert list(k["intern_card"]["guard"].colours) == ["military"]
    assert len(k["clan_card"]) == 3 and len(k["alert_card"]) == 3 and len(k["panic_card"]) == 3
    assert {"hunters_trap", "debt_of_friendship"} <= set(k["scheme_card"])
    assert sorted(k["scholar"]) == ["rebecca", "sofia", "valerio", "vincenzo"]
    latus = k["boss"]["latus"]
    assert [s.side for s in latus.sides] == ["aggressive", "drunk"]
    valerio = k["scholar"]["valerio"].sides[0]
    assert (valerio.students_value, valerio.hand_value, valerio.speed, valerio.intellect,
            valerio.stamina) == (4, 4, 4, 2, 4)                     # L311
    pictured = k["alert_card"]["alert_standard"]
    assert (pictured.normal_per_player, pictured.omega, len(pictured.rows)) == (4, 1, 4)
    assert (pictured.rows[-1].normal_per_player, pictured.rows[-1].omega,
            pictured.rows[-1].research_penalty) == (3, 1, 2)        # L1259-1260


def test_region_keywords_are_effect_snippets_in_game_yaml(data):
    for name in ("lucky", "unlucky", "danger", "ambush", "stop", "toll", "stairs", "boss",
                 "camp", "secret_passage", "teleport"):
        assert data.keywords[name].effect is not None, name


def test_game_checks_refuse_a_second_start_region(tmp_path, run_cli):
    copy = tmp_path / "dungeontology"
    shutil.copytree(ROOT / "content" / "dungeontology", copy)
    regions = copy / "regions.yaml"
    text = regions.read_text(encoding="utf-8")
    regions.write_text(text.replace("    number: I-1\n    level: 1\n",
                                    "    number: I-1\n    level: 1\n    start: true\n"), encoding="utf-8")
    code, out, err = run_cli("check", copy)
    assert code == 1, out + err
    assert "2 start regions" in out + err


ARCANA_PACK = """id: arcana
game: dungeontology
version: "1.0"
vocabulary:
  terms:
    colour:
      arcana: {zh: 奥秘, en: Arcana}
"""
ARCANA_BLOCKS = """info_blocks:
  - {id: arcana, name: {zh: 奥秘信息块, en: Arcana block}, source: approximation, note: fan,
     colour: arcana, count: 6, unit_value: 6}
regions:
  - id: sacred_fire_ritual
    replace: true
    name: {zh: 奥秘祭坛, en: Arcane Altar}
    source: approximation
    note: fan
    number: II-1
    level: 2
    alert: 4
    slots: [arcana, faith]
    passages: NESW
"""


def test_a_packs_colour_with_no_notebook_column_is_refused_where_it_is_used(tmp_path, run_cli):
    """A collected block goes to its notebook column (L208, L388): a pack's sixth colour, its
    blocks and a region slot of it checked clean, then sim stopped at the first research there
    (KeyError 'arcana', eighth packs blind test). Refused at the block and at the slot; a pack
    notebook that drops a base colour is refused at its columns, naming the base users."""
    (tmp_path / "pack.yaml").write_text(ARCANA_PACK, encoding="utf-8")
    (tmp_path / "content.yaml").write_text(ARCANA_BLOCKS, encoding="utf-8")
    code, out, _ = run_cli("check", tmp_path)
    assert code == 1, out
    assert f"{tmp_path / 'content.yaml'}:3:" in out and "info block of colour 'arcana'" in out, out
    assert f"{tmp_path / 'content.yaml'}:13:" in out and "a slot for a block of colour 'arcana'" in out, out
    notebook = (ROOT / "content" / "dungeontology" / "components.yaml").read_text(encoding="utf-8")
    columns = notebook[notebook.index("\n    capacity:"):notebook.index("\nbosses:")]
    (tmp_path / "notebook.yaml").write_text(
        "notebooks:\n  - id: notebook\n    replace: true\n    name: {zh: 笔记板, en: Notebook}\n"
        "    source: approximation\n    note: fan"
        + columns.replace("colour: caste", "colour: arcana"), encoding="utf-8")
    code, out, _ = run_cli("check", tmp_path)
    assert code == 1 and "info block of colour 'arcana'" not in out, out
    assert f"{tmp_path / 'notebook.yaml'}:" in out and "no column of colour 'caste'" in out, out
    assert not any(line.startswith(str(ROOT)) for line in out.splitlines()), out
