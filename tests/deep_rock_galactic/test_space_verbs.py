"""`place`, `destroy`, `retrieve` and `forbid_move` act on a space that play hands only some
effects (a thrown card's landing space, a killed monster's space, the sentry's, the struck space
of `on struck`): a designer's event card `place platform 1; destroy wall` was clean in `check`
and stopped the sim at its first draw ("no space chosen", "destroy: no area"). `deal`, `push`,
`scare`, `inflict`... act on a target: with none (an event card's bare `deal bullet 2`) they
changed nothing; so did `push` in a monster's bang (its target is a dwarf), and a monster's
special, run with no dwarf, stopped the sim on `raise_shield` (and `move`, `pay ammo`...
changed nothing). check refuses each such verb where play hands it nothing, at the verb, in
every kind; where play hands it (or a `target`/`each` block binds it), it stays clean."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[2]
A = 'source: approximation, note: "Test content."'


def check(tmp_path: Path, content: str, vocabulary: str = "") -> list[tuple[str, int, str]]:
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: fan_pack\ngame: deep_rock_galactic\nversion: '1.0'\n"
                                    + vocabulary, encoding="utf-8")
    (pack / "content.yaml").write_text(content, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content/deep_rock_galactic", [pack], reporter)
    return [(d.code, d.line, d.message) for d in reporter.diagnostics if d.severity == "error"]


REFUSED = {
    "event card": (f'event_cards:\n  - {{id: cave_in, name: {{zh: 塌方, en: Cave-in}}, {A}, deck: event, '
                   'event_kind: spawning, count: 2, effect: "place platform 1; destroy wall"}\n',
                   ["place", "destroy"]),
    "swarm card": (f'event_cards:\n  - {{id: dig, name: {{zh: 挖, en: Dig}}, {A}, deck: swarm, '
                   'event_kind: swarm, count: 2, effect: "spawn_at_exits grunt 1; retrieve platform"}\n',
                   ["retrieve"]),
    "rock and stone card": (f'rock_and_stone_cards:\n  - {{id: rs_dig, name: {{zh: 挖, en: Dig}}, {A}, '
                            'count: 2, effect: "place flare 1"}\n', ["place"]),
    "monster's bang": (f'monsters:\n  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, '
                       'creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, '
                       'attack_die: monster_die, moves_toward: dwarf, attacks: true, '
                       'bang: "destroy stalagmite"}\n', ["destroy"]),
    "pickup picked up": (f'pickups:\n  - {{id: nut, name: {{zh: 坚果, en: Nut}}, {A}, needs_pickaxe: false, '
                         'effect: "on picked_up: place platform 1"}\n', ["place"]),
    "pickup struck, area": (f'pickups:\n  - {{id: nut, name: {{zh: 坚果, en: Nut}}, {A}, needs_pickaxe: true, '
                            'effect: "on struck: destroy wall"}\n', ["destroy"]),
    "event card, target verbs": (f'event_cards:\n  - {{id: quake, name: {{zh: 地震, en: Quake}}, {A}, '
                                 'deck: event, event_kind: spawning, count: 2, effect: "deal explosive 2; '
                                 'push 1; inflict stunned; forbid_move"}\n',
                                 ["deal", "push", "inflict", "forbid_move"]),
    # a monster's special runs with no dwarf (monsters.py): `raise_shield` stopped the sim
    # (no dwarf's space), `move`, `pay ammo`, `take_damage` changed nothing
    "monster's special, dwarf verbs": (
        f'monsters:\n  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, '
        'creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, '
        'attack_die: monster_die, moves_toward: dwarf, attacks: true, '
        'special: "raise_shield; move 1; pay ammo 1 -> take_damage 1"}\n',
        ["raise_shield", "move", "pay", "take_damage"]),
    # a bang's target is the dwarf it attacks: `push` and `scare` move only monsters
    "monster's bang, monster verbs": (
        f'monsters:\n  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, '
        'creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, '
        'attack_die: monster_die, moves_toward: dwarf, attacks: true, bang: "push 1; scare 1"}\n',
        ["push", "scare"]),
    "weapon upgrade": (f'weapon_upgrades:\n  - {{id: drill_bit, name: {{zh: 钻头, en: Drill bit}}, {A}, '
                       'fits: [primary], count: 1, effect: "on attack_rolled: destroy wall"}\n', ["destroy"]),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_space_verb_where_play_hands_no_space_is_refused_at_the_verb(tmp_path, case):
    content, verbs = REFUSED[case]
    found = check(tmp_path, content)
    assert [(c, line) for c, line, _ in found] == [("TC-G001", 2)] * len(verbs), found
    for (_, _, message), verb in zip(found, verbs):
        assert message.startswith(f"`{verb}` acts on") and "none here" in message


def test_a_keyword_that_places_is_refused_where_it_is_called_without_a_space(tmp_path):
    found = check(tmp_path, f'event_cards:\n  - {{id: cave_in, name: {{zh: 塌方, en: Cave-in}}, {A}, '
                            'deck: event, event_kind: spawning, count: 2, effect: "rubble"}\n',
                  "vocabulary:\n  keywords:\n    rubble:\n      params: []\n"
                  "      effect: \"place platform 1\"\n"
                  "      text: {zh: 碎石, en: rubble}\n")
    assert [(c, line) for c, line, _ in found] == [("TC-G001", 2)]
    assert "through keyword 'rubble'" in found[0][2]


def test_space_verbs_where_play_hands_a_space_stay_clean(tmp_path):
    """A thrown card (where it lands, and its triggers from there), a killed monster's space,
    the struck space (`on struck`), a shot's target for `place flame`."""
    assert check(tmp_path, f"""
throwables:
  - {{id: rubble_bomb, name: {{zh: 碎石弹, en: Rubble Bomb}}, {A}, range: 3, area: 1, dice: 0, delayed: true, effect: "place platform 1; destroy wall; retrieve flare; on monster_enters {{ destroy stalagmite; inflict stunned }}; on turn_start: discard_self"}}
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, on_kill: "destroy wall; place flare 1"}}
pickups:
  - {{id: nut, name: {{zh: 坚果, en: Nut}}, {A}, needs_pickaxe: true, effect: "on struck: place platform 1"}}
event_cards:
  - {{id: quake, name: {{zh: 地震, en: Quake}}, {A}, deck: event, event_kind: spawning, count: 2, effect: "each monster where size() == 1: deal explosive 1; target monster where size() == 1: push 1"}}
""") == []


def test_dwarf_verbs_where_play_hands_a_dwarf_stay_clean(tmp_path):
    """A monster's special reaching a dwarf through a `target dwarf` block or `each player`,
    or using the team's supply; a bang's own dwarf (take_damage, inflict) and its blast (deal);
    an event card's dwarf (move, pay ammo, raise_shield on the dwarf's space)."""
    assert check(tmp_path, f"""
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, special: "target dwarf: take_damage 1; each player: become stunned; pay morkite 1 -> gain gold 1", bang: "take_damage 1; inflict knocked_over", teeth: "deal explosive 1"}}
event_cards:
  - {{id: quake, name: {{zh: 地震, en: Quake}}, {A}, deck: event, event_kind: spawning, count: 2, effect: "pay ammo 1 -> move 2; raise_shield"}}
""") == []


def test_each_dwarf_hands_the_dwarf_verbs_their_dwarf(tmp_path):
    """`each dwarf` binds the dwarf the dwarf verbs act on (verbs.Verbs._dwarf, state.subject):
    in a monster's special, which has no acting dwarf, `each dwarf: take_damage 1` was refused."""
    assert check(tmp_path, f"""
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, special: "each dwarf {{ take_damage 1 }}; heal 1"}}
""") == [("TC-G001", 3, "`heal` acts on the acting dwarf, a target dwarf or each dwarf, and play hands "
          "the monster 'grunt' (special) none here: it would change nothing")]


def test_position_queries_in_a_monster_special_are_refused(tmp_path):
    """`in_range`, `line_of_sight` and `adjacent` measure from the acting dwarf (or an area's
    centre): a monster's special has neither, and they were always false, with no word from
    check. Under `each player` (the dwarf is `you`) they measure from each dwarf."""
    found = check(tmp_path, f"""
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, special: "each monster where in_range(2) and line_of_sight(): inflict stunned; if adjacent(): spawn grunt 1; each player: target monster where adjacent(): inflict frozen"}}
""")
    assert [(c, line) for c, line, _ in found] == [("TC-G001", 3)] * 3, found
    for (_, _, message), query in zip(found, ["in_range", "line_of_sight", "adjacent"]):
        assert message.startswith(f"`{query}` measures from the acting dwarf"), message
        assert "monster 'grunt' (special) none here: it is always false" in message


def test_position_queries_where_play_hands_a_dwarf_or_a_centre_stay_clean(tmp_path):
    """An event card's (the drawing dwarf), a killed monster's on_kill (its space)."""
    assert check(tmp_path, f"""
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, on_kill: "each monster where in_range(1) and line_of_sight(): deal explosive 1"}}
event_cards:
  - {{id: quake, name: {{zh: 地震, en: Quake}}, {A}, deck: event, event_kind: spawning, count: 2, effect: "each monster where adjacent() and in_range(2): inflict stunned"}}
""") == []


def test_a_creature_query_with_no_monster_to_read_is_refused(tmp_path):
    """`flying()`, `size()`, `dwarf_in_range()` and `distance_to_monster()` read a monster: the
    one the effect is about or the acting one. An event card (handed the drawing dwarf) asking
    them was clean in check and stopped the sim at its first draw ("'NoneType' object has no
    attribute 'kind'"); under `each monster` and in a monster's own special they stay clean."""
    found = check(tmp_path, f"""
event_cards:
  - {{id: quake, name: {{zh: 地震, en: Quake}}, {A}, deck: event, event_kind: spawning, count: 2, effect: "if flying() {{ spawn_at_exits grunt 1 }}; if size() > 1 {{ advance_threat 1 }}; if dwarf_in_range() {{ advance_threat 1 }}; if distance_to_monster() > 2 {{ advance_threat 1 }}"}}
  - {{id: hush, name: {{zh: 安静, en: Hush}}, {A}, deck: event, event_kind: spawning, count: 2, effect: "each monster where flying() and size() == 1: inflict stunned"}}
monsters:
  - {{id: grunt, replace: true, name: {{zh: 战士异虫, en: Grunt}}, {A}, creature: grunt, order: 1, hp: 2, attack_range: 1, move: 2, attack_dice: 1, attack_die: monster_die, moves_toward: dwarf, attacks: true, special: "if distance_to_monster() > 2 and not dwarf_in_range() and not flying(): spawn grunt 1"}}
""")
    assert [(c, line) for c, line, _ in found] == [("TC-G001", 3)] * 4, found
    for (_, _, message), query in zip(found, ["flying", "size", "dwarf_in_range", "distance_to_monster"]):
        assert message.startswith(f"`{query}` measures from "), message
        assert "(it reads no monster)" in message
