"""A scholar card has a standard side and an excited one (rulebook L261, L347): a pack's
scholar with two standard sides checked clean and `sim` stopped on an internal error
(StopIteration) the first time it was to be turned over (packs round 11)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

REPO = Path(__file__).resolve().parents[2]

SCHOLAR = """scholars:
  - id: mira
    name: {zh: 米拉, en: Mira}
    title: {zh: 占卜师, en: the Seer}
    source: approximation
    note: a fan scholar
    lore_bonus: [faith, faith, wealth]
    sides:
      - side: standard
        students_value: 3
        hand_value: 4
        speed: 3
        intellect: 3
        stamina: 3
        skills:
          - {id: foresee, name: {zh: 预知, en: Foresee}, timing: action, effect: "take_stun 1 -> prophecy 2"}
      - side: SECOND
        students_value: 4
        hand_value: 5
        speed: 4
        intellect: 3
        stamina: 4
        skills:
          - {id: calm_mind, name: {zh: 静心, en: Calm Mind}, timing: passive, effect: "on turn_end: remove_stun 1"}
"""


def diagnostics(tmp_path: Path, second: str) -> list:
    (tmp_path / "pack.yaml").write_text("id: seers\ngame: dungeontology\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "scholars.yaml").write_text(SCHOLAR.replace("SECOND", second), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(REPO / "content" / "dungeontology", [tmp_path], reporter)
    return [d for d in reporter.diagnostics if d.severity == dg.ERROR]


def test_two_standard_sides_are_refused_at_the_second(tmp_path):
    found = diagnostics(tmp_path, "standard")
    assert [(d.code, d.line) for d in found] == [("TC-G001", 17)], found
    assert found[0].hint == "make it `side: excited`"


def test_a_standard_and_an_excited_side_check_clean(tmp_path):
    assert diagnostics(tmp_path, "excited") == []
