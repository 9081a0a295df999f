"""A weapon mode's `actions`, `ammo`, `range`, `die` and `dice` (read to offer the attack, and
printed) and a throwable's `die` and `dice` (printed) must say what their effect does
(compiler/game_checks/drg_modes.py). A pack's rifle printed range 2, 1 ammo and 1 die while
its effect paid 2 ammo at range 6 with 4 dice: check passed, and `sim` stopped on an
unlocated "liar_rifle cannot fire"."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import

ROOT = Path(__file__).resolve().parents[2]

# (written by the test, not kept under tests/: every pack there must check clean)
LIARS = """\
throwables:
  - id: liar_grenade
    name: {zh: 骗人手雷, en: Liar Grenade}
    source: approximation
    note: "A fan throwable: prints 3 Explosive dice, rolls 1 Fire die."
    range: 3
    area: 1
    die: explosive_die
    dice: 3
    effect: "let r = roll(fire_die, 1); each monster where in_range(1): deal fire hits(r)"
weapons:
  - id: liar_rifle
    name: {zh: 骗人步枪, en: Liar Rifle}
    source: approximation
    note: "A fan weapon: its mode prints range 2, 1 ammo, 1 die; its effect pays 2 ammo at range 6 with 4 dice."
    slot: secondary
    modes:
      - id: fire
        name: {zh: 开火, en: Fire}
        actions: 1
        ammo: 1
        range: 2
        die: bullet_die
        dice: 1
        assign: single_target
        effect: "pay actions 1, pay secondary_ammo 2 -> target monster where in_range(6) and line_of_sight(): let r = roll(bullet_die, 4); deal bullet hits(r)"
"""


def test_each_printed_number_its_effect_contradicts_is_refused_at_its_field(tmp_path):
    (tmp_path / "pack.yaml").write_text("id: liar_pack\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                        encoding="utf-8")
    (tmp_path / "content.yaml").write_text(LIARS, encoding="utf-8")
    reporter = dg.Reporter()
    compile_and_import(ROOT / "content/deep_rock_galactic", [tmp_path], reporter)
    found = sorted((d.code, d.line, d.message.split(" is printed")[0]) for d in reporter.diagnostics)
    assert found == [("TC-G001", 8, "die explosive_die"), ("TC-G001", 9, "dice 3"),
                     ("TC-G001", 21, "ammo 1"), ("TC-G001", 22, "range 2"),
                     ("TC-G001", 24, "dice 1")], dg.format_text(reporter)


def test_a_mode_that_leaves_its_ammo_out_is_refused_at_its_effect(tmp_path):
    """Left out, `actions` and `ammo` read as 0: the shot was offered to a dwarf with no ammo,
    its effect could not pay, and `sim` stopped on an unlocated "cannot fire"."""
    start = LIARS.index("weapons:")
    rifle = LIARS[start:].replace("        actions: 1\n        ammo: 1\n", "").replace(
        "pay secondary_ammo 2", "pay secondary_ammo 1").replace("range: 2", "range: 6").replace(
        "dice: 1", "dice: 4")
    (tmp_path / "pack.yaml").write_text("id: quiet_pack\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                        encoding="utf-8")
    (tmp_path / "content.yaml").write_text(rifle, encoding="utf-8")
    reporter = dg.Reporter()
    compile_and_import(ROOT / "content/deep_rock_galactic", [tmp_path], reporter)
    found = sorted((d.code, d.line, d.message[:40]) for d in reporter.diagnostics)
    assert found == [("TC-G001", 14, "the mode does not say its actions (read "),
                     ("TC-G001", 14, "the mode does not say its ammo (read as ")], dg.format_text(reporter)


def test_the_game_and_its_packs_say_their_numbers_once():
    for pack in ([], [ROOT / "content/deep_rock_galactic/packs/goo_from_above"],
                 [ROOT / "tests/deep_rock_galactic/any_content_pack"]):
        reporter = dg.Reporter()
        compile_and_import(ROOT / "content/deep_rock_galactic", pack, reporter)
        assert not reporter.diagnostics, dg.format_text(reporter)


SKY = """\
weapons:
  - id: sky_rifle
    name: {zh: 天空步枪, en: Sky Rifle}
    source: approximation
    note: "A fan weapon: it hits flying monsters only."
    slot: secondary
    modes:
      - id: fire
        name: {zh: 开火, en: Fire}
        actions: 1
        ammo: 1
        range: 4
        die: bullet_die
        dice: 2
        assign: single_target
        effect: "pay actions 1, pay secondary_ammo 1 -> target monster where in_range(4) and line_of_sight() and flying(): let r = roll(bullet_die, 2); deal bullet hits(r)"
"""


def test_a_shot_is_offered_only_at_a_target_its_effect_takes(tmp_path):
    """A mode's effect may ask more of its target than the mode's range and sight (`and
    flying()`): the shot was offered at every monster in range, the effect refused the Grunt,
    and `sim` stopped on an unlocated "sky_rifle cannot fire". Only the flyer is offered."""
    from tomecraft.runtime.engines.deep_rock_galactic.actions import legal_attacks
    from tomecraft.runtime.engines.deep_rock_galactic.scenario import build
    (tmp_path / "pack.yaml").write_text("id: sky_pack\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                        encoding="utf-8")
    (tmp_path / "content.yaml").write_text(SKY, encoding="utf-8")
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [tmp_path], reporter)
    assert not reporter.errors, dg.format_text(reporter)
    engine, names = build(data, {"dwarves": [{"cls": "scout", "at": [4, 0], "secondary": "sky_rifle"}],
                                 "monsters": [{"id": "g", "kind": "grunt", "at": [4, 2]},
                                              {"id": "m", "kind": "mactera_spawn", "at": [4, 3]}]})
    shots = {a["target"] for a in legal_attacks(engine, engine.state.dwarves[0]) if a["weapon"] == "sky_rifle"}
    assert shots == {names["m"]}
