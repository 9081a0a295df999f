"""A cost no turn can pay (`pay ap 6` when a turn gives 5 AP, L64) is warned about at the
cost, reading the most a turn gives from the content's rule (turn_ap; DRG's turn_actions, L268-270),
not from a constant (compiler/game_checks/__init__.py check_turn_costs)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline

ROOT = Path(__file__).resolve().parents[2]


def _action(cost: int) -> str:
    return f"""actions:
  - id: fan_dig
    name: {{zh: 挖掘, en: Dig}}
    source: approximation
    note: "A fan's."
    order: 9
    effect: "require at_base(); pay ap {cost} -> re_equip"
"""


def warnings(tmp_path: Path, game: str, files: dict[str, str]) -> list[tuple]:
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: fan_pack\ngame: {game}\nversion: '1.0'\n",
                                    encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [pack], reporter)
    assert not [d for d in reporter.diagnostics if d.severity == dg.ERROR], reporter.diagnostics
    return [(d.code, Path(d.file).name, d.line, d.column, d.message) for d in reporter.diagnostics
            if d.code == dg.GAME_RULE_WARNING]


def test_a_cost_above_the_turns_ap_is_warned_about_at_the_cost(tmp_path):
    [(code, name, line, column, message)] = warnings(tmp_path, "the_cave", {"a.yaml": _action(6)})
    assert (code, name, line) == ("TC-G002", "a.yaml", 7)
    assert column > len('    effect: "require at_base(); ')
    assert "pay ap 6" in message and "at most 5 ap" in message and "L64" in message


def test_a_cost_a_turn_can_pay_is_clean(tmp_path):
    assert warnings(tmp_path, "the_cave", {"a.yaml": _action(5)}) == []


def test_drg_actions_above_three_a_turn_are_warned_about(tmp_path):
    dwarf = (ROOT / "content/deep_rock_galactic/dwarves.yaml").read_text(encoding="utf-8")
    start = dwarf.index("  - id: engineer")
    end = dwarf.index("\n  - id: ", start + 1)
    engineer = dwarf[start:end].replace("    source: rulebook\n",
                                        "    replace: true\n    source: rulebook\n", 1)
    # a new ability id: the base's platform_gun is the engine's own action (its effect unread)
    engineer = engineer.replace("id: platform_gun", "id: fan_gun").replace(
        '"pay actions 1 -> place platform 3"', '"pay actions 4 -> move 3"')  # place needs a space
    found = warnings(tmp_path, "deep_rock_galactic", {"d.yaml": "dwarves:\n" + engineer + "\n"})
    assert [m for *_, m in found if "pay actions 4" in m and "at most 3 actions" in m and "L268-270" in m]
