"""`after_use` is what the sheets print of a used token ("flipped, then discarded at the second
use", "kept to the end"); play reads `uses` and `kept_after_use` instead
(runtime/engines/the_cave/equipment.py). A pack whose after_use says otherwise checked clean and
its sheets misled the players: a 3-use chalk with `after_use: flip` was printed "discarded at
the second use" and played three uses; a `keep` item without `kept_after_use` was printed "kept
to the end" and discarded at its first use. The check says so at `after_use`
(compiler/game_checks/the_cave.py _check_after_use). Oxygen, the only two-sided token, has
two uses, one per side (rulebook L173-175); camera and raft are kept (L191-193, L180-182)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

ROOT = Path(__file__).resolve().parents[2]


def _item(fields: str) -> str:
    return f"""equipment:
  - id: chalk
    name: {{zh: 粉筆, en: Chalk}}
    source: approximation
    note: "A fan's."
    term: chalk
    slots: 1
{fields}
"""


def errors(tmp_path: Path, fields: str) -> list[tuple]:
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: fan_pack\ngame: the_cave\nversion: '1.0'\n"
        "vocabulary: {terms: {equipment: {chalk: {zh: 粉筆, en: chalk}}}}\n", encoding="utf-8")
    (pack / "equipment.yaml").write_text(_item(fields), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "the_cave", [pack], reporter)
    return [(Path(d.file).name, d.line, d.message) for d in reporter.diagnostics
            if d.severity == dg.ERROR]


@pytest.mark.parametrize("fields, said", [
    ("    after_use: flip\n    uses: 3", "two sides"),
    ("    after_use: flip\n    uses: 1", "two sides"),
    ("    after_use: keep\n    uses: 1", "kept_after_use"),
    ("    after_use: discard\n    uses: 1\n    kept_after_use: true", "kept_after_use"),
    ("    after_use: flip\n    uses: 2\n    kept_after_use: true", "kept_after_use"),
])
def test_an_after_use_that_play_contradicts_is_an_error_at_after_use(tmp_path, fields, said):
    [(name, line, message)] = errors(tmp_path, fields)
    assert name == "equipment.yaml" and line == 8 and said in message, (name, line, message)


@pytest.mark.parametrize("fields", [
    "    after_use: flip\n    uses: 2",
    "    after_use: keep\n    kept_after_use: true",
    "    after_use: discard\n    uses: 3",
    "    after_use: board\n    uses: 1",
])
def test_an_after_use_play_agrees_with_is_clean(tmp_path, fields):
    assert errors(tmp_path, fields) == []


def _shaft(effect: str) -> str:
    return f"""tile_kinds:
  - id: shaft
    name: {{zh: 豎井, en: Shaft}}
    source: approximation
    note: "A fan's."
    enter:
      - id: ladder
        effect: "{effect}"
    discover_from: true
    rope_edges: false
"""


def board_warnings(tmp_path: Path, effect: str) -> list[tuple]:
    pack = tmp_path / "fan_pack"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: fan_pack\ngame: the_cave\nversion: '1.0'\n"
        "vocabulary: {terms: {equipment: {chalk: {zh: 粉筆, en: chalk}}}}\n", encoding="utf-8")
    (pack / "equipment.yaml").write_text(_item("    after_use: board\n    uses: 1"),
                                         encoding="utf-8")
    (pack / "tile_kinds.yaml").write_text(_shaft(effect), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "the_cave", [pack], reporter)
    assert not [d for d in reporter.diagnostics if d.severity == dg.ERROR], reporter.diagnostics
    return [(Path(d.file).name, d.line, d.column, d.message) for d in reporter.diagnostics
            if d.code == dg.GAME_RULE_WARNING]


def test_a_board_item_spent_without_placing_rope_is_warned_about_at_the_spend(tmp_path):
    """A ladder (after_use: board) spent to climb a shaft was printed "stays on the board" and
    left nothing on the board in play; the rope, placed as it is spent (L128-131), is clean."""
    [(name, line, column, message)] = board_warnings(tmp_path, "pay ap 1, spend chalk 1 -> gain_token traverse 1")
    assert (name, line, column) == ("tile_kinds.yaml", 8, 28), (name, line, column)
    assert "'chalk' has after_use: board" in message
    assert board_warnings(tmp_path / "b", "pay ap 1, spend chalk 1 -> place_rope 1") == []


def test_a_spend_of_a_kept_item_is_warned_about_at_the_spend(tmp_path):
    """`spend camera 1` was printed "use up 1 camera from your backpack" (now "use 1 camera")
    while play, the camera being kept after use (L191-193), took nothing; check was clean."""
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: the_cave\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "actions.yaml").write_text(
        "actions:\n  - id: snap\n    name: {zh: 快拍, en: Snap}\n    source: approximation\n"
        "    note: \"A fan's.\"\n    order: 9\n"
        "    effect: \"require not at_base(); pay ap 2, spend camera 1 -> gain_token photo 1\"\n",
        encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "the_cave", [pack], reporter)
    [(name, line, column, message)] = [(Path(d.file).name, d.line, d.column, d.message)
                                       for d in reporter.diagnostics
                                       if d.code == dg.GAME_RULE_WARNING]
    assert (name, line, column) == ("actions.yaml", 7, 47), (name, line, column)
    assert "'camera' is kept after use" in message
