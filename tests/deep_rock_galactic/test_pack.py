"""Goo From Above is a YAML-only pack: a sim with it spawns and activates the Goo Bomber and
the Menace. TC-41 (Menace hides) and TC-42 (goo) are scenarios that load the pack:
tests/scenarios/deep_rock_galactic/tc41*.yaml and tc42*.yaml."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import play_game
from tomecraft.runtime.engines.deep_rock_galactic.scenario import build
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "content/deep_rock_galactic/packs/goo_from_above"


@pytest.fixture(scope="module")
def goo():
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [PACK], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    return data


def test_the_pack_directory_holds_no_python():
    files = [p for p in PACK.rglob("*") if p.is_file()]
    assert files and all(p.suffix == ".yaml" for p in files)


def test_a_sim_with_the_pack_spawns_and_activates_both_creatures(goo):
    spawned, activated = Counter(), Counter()
    for g in range(12):
        rng = Rng(f"goo:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
        result = play_game(goo, 4, rng.fork("game"), agents, {})
        assert result["result"] in ("success", "failure")
        spawned.update(result["spawned"])
        activated.update(result["activated"])
    for creature in ("goo_bomber", "menace"):
        assert spawned[creature] > 0 and activated[creature] > 0


def test_the_pack_monsters_carry_their_stat_blocks(goo):
    bomber, menace = goo.get("monster", "goo_bomber"), goo.get("monster", "menace")
    assert (bomber.hp, bomber.attack_range, bomber.move, bomber.flying, bomber.order) == (2, 3, 3, True, 11)
    assert (menace.hp, menace.attack_range, menace.move, menace.order) == (3, 6, 3, 12)
    assert dict(bomber.resistances._fields) == {"pickaxe": 2} and dict(menace.resistances._fields) == {"bullet": 1}


def test_flying_goo_bomber_flies_over_goo(goo):
    engine, names = build(goo, {"dwarves": [{"cls": "scout", "at": [4, 0]}],
                                "tokens": {"goo": [[4, 6]]},
                                "monsters": [{"id": "b", "kind": "goo_bomber", "at": [4, 7]}]})
    engine.activate_all()
    assert engine.state.monsters[names["b"]].pos == (4, 4) and (4, 6) in engine.state.tokens["goo"]


MEDIC = ROOT / "tests/deep_rock_galactic/medic_pack"


def test_a_yaml_only_class_plays_whole_games_and_uses_its_ability():
    """A designer's new class, no Python: the sim deals it, and its ability is used."""
    from tomecraft.runtime.engines.deep_rock_galactic import setup
    from tomecraft.runtime.engines.deep_rock_galactic.game import play_mission
    assert all(p.suffix == ".yaml" for p in MEDIC.rglob("*") if p.is_file())
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [MEDIC], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    uses = 0
    for g in range(10):
        rng = Rng(f"medic:{g}")
        engine = setup(data, 2, rng.fork("game"), [RandomAgent(rng.fork(f"a{i}")) for i in range(2)],
                       {"classes": ["medic", "gunner"]}, log=True)
        play_mission(engine)
        assert engine.state.result in ("success", "failure")
        uses += sum("medic uses field_medkit" in line for line in engine.lines)
    assert uses > 0


SHOVE = ROOT / "tests/deep_rock_galactic/shove_pack"


def test_a_class_ability_that_pays_before_it_targets_is_offered_only_with_a_target():
    """The Bouncer's Shove, `pay actions 1 -> target monster where adjacent(): push 2`: its
    cost could be paid with no monster adjacent, so the sim's player chose it, the action was
    paid and the ability refused, and the game stopped ("shove cannot be used now"). Its
    availability now asks for the target too (compiler/codegen.py can_lines)."""
    from tomecraft.runtime import sim
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [SHOVE], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    summary = sim.run(data, players=2, games=6, seed=2, usage=True,
                      options={"classes": ["bouncer", "gunner"]})
    assert summary["usage"]["entities"]["dwarf:bouncer"]["uses"] > 0, summary["usage"]


def test_simulated_dwarves_stop_on_goo_instead_of_planning_through_it(goo):
    """Seed 7 once planned a Scout's move through goo under a monster; the move stops on the
    goo, where it may not stop, and the action was refused mid-game."""
    from tomecraft.runtime import sim
    summary = sim.run(goo, players=4, games=30, seed=7)
    assert summary["completed"] == 30


def _driller_pack(tmp_path: Path, old: str, new: str) -> Path:
    """A pack replacing the Driller with one ability's effect text changed."""
    text = (ROOT / "content/deep_rock_galactic/dwarves.yaml").read_text(encoding="utf-8")
    driller = text[text.index("  - id: driller"):text.index("  - id: scout")]
    assert old in driller
    (tmp_path / "pack.yaml").write_text("id: drillmod\ngame: deep_rock_galactic\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "dwarves.yaml").write_text(
        "dwarves:\n" + driller.replace("  - id: driller\n", "  - id: driller\n    replace: true\n")
        .replace(old, new), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("new, refused", [
    ("deal_ignoring_resistance 6", True), ("deal_ignoring_resistance  hits(r)", False)],
    ids=["changed", "same-but-spacing"])
def test_a_changed_effect_of_an_ability_the_engine_carries_out_is_refused(tmp_path, new, refused):
    """Drill Attack is the engine's own attack action: a pack's Driller dealing 6 checked clean,
    was printed on the board and played as the rulebook's pickaxe die (fourth packs round)."""
    reporter = dg.Reporter()
    compile_and_import(ROOT / "content/deep_rock_galactic",
                       [_driller_pack(tmp_path, "deal_ignoring_resistance hits(r)", new)], reporter)
    found = [(Path(d.file).name, d.message) for d in reporter.diagnostics if d.severity == dg.ERROR]
    assert bool(found) is refused, found
    assert not refused or (found[0][0] == "dwarves.yaml" and "drill_attack" in found[0][1])


def test_usage_does_not_call_a_class_played_through_its_own_actions_never_used():
    """`sim --usage` warned the Driller and the Gunner were never used: their abilities are
    the engine's own actions, whose effect text is never run. They are "not counted" now."""
    from tomecraft.generated.deep_rock_galactic import GAME
    from tomecraft.runtime import sim
    summary = sim.run(GAME, games=2, seed=1, usage=True)["usage"]
    assert {"dwarf:driller", "dwarf:gunner"} <= set(summary["untracked"])
    assert not any(key.startswith("dwarf:") for key in summary["never_used"])
    assert summary["entities"]["dwarf:engineer"]["tracked"]     # its Sentry Gun effect runs


@pytest.mark.parametrize("effect, refused", [
    ("advance_threat -2", "'advance_threat' takes amount 1 or more, got -2"),
    ("spawn_at_exits grunt -1", "'spawn_at_exits' takes amount 1 or more, got -1"),
    ("advance_threat 0", "'advance_threat' takes amount 1 or more, got 0"),
    ("let x = 1; advance_threat (-x)", "negative amount"), ("spawn_at_exits grunt 1", None),
    # what a pack's effect comes to at each Hazard level (missions/by_hazard.py): a divisor 0 at
    # Hazard 3 stopped the sim there; a let's name was read as an unknown, not as its value
    ("spawn_at_exits grunt (3 // (hazard_level() - 3))", "at Hazard 3 this divides by 0"),
    ("let n = hazard_level() - 2; spawn_at_exits grunt n", "at Hazard 1 the amount for `spawn_at_exits` is -1"),
    # the Hazard level is at most 5 (game.yaml `max:`, rulebook L167): 1,500 rounds in all, not
    # the "300,000 rounds; the limit is 100,000" of a level taken as up to 1,000
    ("repeat hazard_level() { repeat 300 { activate_monsters } }", None)],
    ids=["threat", "spawn", "zero", "negated", "positive", "divides_by_zero_at_a_level",
         "let_negative_at_a_level", "repeat_by_the_hazard_level"])
def test_a_negative_amount_in_a_packs_effect_is_refused_where_it_stands(tmp_path, effect, refused):
    """Every number a Deep Rock Galactic verb takes counts what it does: `advance_threat -2`
    did nothing in play (a loop over range(-2)) and checked clean (missions round 4). A
    constant is below the verb's `min: 1` (TC-N009), a negated reading the game's own check.
    A mission file's event is refused alike (missions/broken/b103)."""
    (tmp_path / "pack.yaml").write_text("id: negmod\ngame: deep_rock_galactic\nversion: '1'\n", encoding="utf-8")
    (tmp_path / "event_cards.yaml").write_text(
        "event_cards:\n  - id: calm_tunnels\n    name: {zh: 平静, en: Calm Tunnels}\n"
        "    source: approximation\n    note: a test card\n    deck: event\n    event_kind: activation\n"
        f"    count: 1\n    effect: \"{effect}\"\n", encoding="utf-8")
    reporter = dg.Reporter()
    compile_and_import(ROOT / "content/deep_rock_galactic", [tmp_path], reporter)
    found = [(Path(d.file).name, d.line, d.message) for d in reporter.diagnostics if d.severity == dg.ERROR]
    if refused:
        assert [(f, line) for f, line, _ in found] == [("event_cards.yaml", 9)], found
        assert refused in found[0][2]
    else:
        assert found == []


def test_every_count_a_verb_takes_declares_its_least():
    """The general check (TC-N009) refuses a constant count below 1 only where game.yaml says
    `min:`; compiler/missions/event_checks.negative_amounts leaves constants to it."""
    from ruamel.yaml import YAML
    verbs = YAML(typ="safe").load((ROOT / "content/deep_rock_galactic/game.yaml").read_text(encoding="utf-8"))["verbs"]
    counts = [(name, p["name"], p.get("min")) for name, verb in verbs.items()
              for p in verb["params"] if p["type"] == "int"]
    assert len(counts) >= 15 and all(least == 1 for _, _, least in counts), counts
