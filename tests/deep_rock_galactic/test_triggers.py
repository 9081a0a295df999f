"""A pack's NEW class ability that holds triggers runs through them, as the base Sentry Gun and
Light-Footed do (runtime/engines/deep_rock_galactic/triggers.py): no ability is played by id."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime.engines.deep_rock_galactic import actions
from tomecraft.runtime.engines.deep_rock_galactic.scenario import build

ROOT = Path(__file__).resolve().parents[2]

LOOKOUT = """
dwarves:
  - id: lookout
    name: {zh: 哨兵, en: Lookout}
    source: approximation
    note: a fan-made class for the trigger test
    colour: blue
    health: 5
    primary_ammo: 5
    secondary_ammo: 3
    equipment: {}
    abilities:
      - id: watchful
        name: {zh: 警觉, en: Watchful}
        passive: true
        effect: "on monster_moved { gain nitra 1 }; on move_action { gain gold 1 }; on turn_start { gain morkite 1 }"
      - id: bad_omen
        name: {zh: 凶兆, en: Bad Omen}
        effect: "pay actions 1 -> draw_event"
weapons:
  - id: lookout_pistol
    name: {zh: 哨兵手枪, en: Lookout's Pistol}
    source: approximation
    note: a fan-made weapon for the trigger test
    dwarf: lookout
    slot: primary
    default: true
    modes:
      - id: fire
        name: {zh: 开火, en: Fire}
        actions: 1
        ammo: 1
        range: 3
        die: bullet_die
        dice: 1
        assign: single_target
        effect: "pay actions 1, pay ammo 1 -> target monster where in_range(3) and line_of_sight(): let r = roll(bullet_die, 1); deal bullet hits(r)"
"""


@pytest.fixture(scope="module")
def lookout(tmp_path_factory):
    pack = tmp_path_factory.mktemp("lookout")
    (pack / "pack.yaml").write_text("id: lookout\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "lookout.yaml").write_text(LOOKOUT, encoding="utf-8")
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [pack], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    return data


def _engine(data, cls: str, monsters=()):
    return build(data, {"dwarves": [{"cls": cls, "at": [4, 0]},
                                    {"cls": "engineer", "at": [5, 0]}],
                        "monsters": [{"id": "g", "kind": "grunt", "at": [4, 6]}, *monsters]})


def test_a_new_ability_hears_every_space_a_monster_moves_into(lookout):
    engine, names = _engine(lookout, "lookout")
    start = engine.state.monsters[names["g"]].pos
    engine.activate_all()
    moved = engine.state.monsters[names["g"]].pos
    assert moved != start
    assert engine.state.shared["nitra"] == 3          # the Grunt's 3 steps, each a monster_moved


def test_a_new_ability_hears_its_own_move_actions_only(lookout):
    engine, _ = _engine(lookout, "lookout")
    lookout_dwarf, engineer = engine.state.dwarves
    actions.perform(engine, lookout_dwarf, {"do": "move", "path": [[4, 1]]})
    actions.perform(engine, lookout_dwarf, {"do": "move", "path": [[4, 2]]})
    actions.perform(engine, engineer, {"do": "move", "path": [[5, 1]]})
    assert engine.state.shared["gold"] == 2


def test_a_new_ability_hears_its_own_turn_start(lookout):
    from tomecraft.runtime.engines.deep_rock_galactic.turns import start_turn
    engine, _ = _engine(lookout, "lookout")
    lookout_dwarf, engineer = engine.state.dwarves
    start_turn(engine, engineer)
    assert engine.state.shared["morkite"] == 0
    start_turn(engine, lookout_dwarf)
    assert engine.state.shared["morkite"] == 1


def test_the_same_class_without_the_ability_hears_nothing(lookout):
    engine, names = _engine(lookout, "scout")
    engine.activate_all()
    actions.perform(engine, engine.state.dwarves[0], {"do": "move", "path": [[4, 1]]})
    assert engine.state.shared["nitra"] == engine.state.shared["gold"] == 0


def test_a_passive_ability_is_not_offered_as_an_action(lookout):
    engine, _ = _engine(lookout, "lookout")
    offered = [a.id for a in actions.class_abilities(engine, engine.state.dwarves[0])]
    assert offered == ["bad_omen"]                     # the active one is, the passive one not
    with pytest.raises(Exception, match="no ability"):
        actions.perform(engine, engine.state.dwarves[0], {"do": "ability", "id": "watchful"})


def test_draw_event_draws_the_top_event_card_and_carries_it_out(lookout):
    """The `draw_event` verb (content's "draw 1 Event card and carry it out") plays the card as
    the Event Phase does: the top card of the event deck, its effect run for the drawer."""
    engine, _ = _engine(lookout, "lookout")
    engine.state.event_deck = [c for c in lookout.of("event_card") if c.id in ("threat_1", "threat_2")]
    top = engine.state.event_deck[-1]
    threat = engine.state.threat
    actions.perform(engine, engine.state.dwarves[0], {"do": "ability", "id": "bad_omen"})
    assert top not in engine.state.event_deck and len(engine.state.event_deck) == 1
    assert engine.state.threat == threat + (2 if top.id == "threat_2" else 1)


def test_a_new_ability_hears_a_pickup_with_no_effect_picked_up(tmp_path):
    """`picked_up` is when a dwarf picks up a pickup (the contract): it was fired only for a
    pickup with an effect of its own, so a pack's ability `on picked_up` never heard the
    Apoca Bloom, the only pickup of the book's mission (a seeded sim heard every other event
    its ability listed)."""
    pack = tmp_path / "collector"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: collector\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                    encoding="utf-8")
    text = LOOKOUT.replace('"on monster_moved { gain nitra 1 }; on move_action { gain gold 1 }; '
                           'on turn_start { gain morkite 1 }"', '"on picked_up: gain aquarq 1"')
    (pack / "collector.yaml").write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content/deep_rock_galactic", [pack], reporter)
    assert reporter.errors == 0, dg.format_text(reporter)
    engine, _ = build(data, {"dwarves": [{"cls": "lookout", "at": [4, 0]}],
                             "pickups": {"4,1": ["apoca_bloom", True]}})
    actions.perform(engine, engine.state.dwarves[0], {"do": "move", "path": [[4, 1]]})
    assert engine.state.shared["apoca_bloom"] == 1
    assert engine.state.shared["aquarq"] == 1
