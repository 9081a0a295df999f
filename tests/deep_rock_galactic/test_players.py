"""The simulated players use any content: a YAML-only pack with one new item of every kind a
pack can add without new terms (event and Swarm cards, a Rock and Stone card, a throwable, a
pickup, a Supply Pod card, a mission) has each one with an effect used in a seeded sim; the
pack's mission is played with `mission_id` like the base game's."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage

PACK = Path(__file__).with_name("any_content_pack")
MISSION = {"mission_id": "glow_caves"}      # the pack's mission: it lays out the pack's pickup


def _data(monkeypatch):
    return compiled_with("deep_rock_galactic", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", games=20, seed=1, options=MISSION)
    kinds = {key.split(":")[0] for key in new}
    assert {"event_card", "rock_and_stone_card", "throwable", "pickup", "mission"} <= kinds, kinds
    assert all(e["uses"] > 0 for e in new.values()), new


def test_the_packs_cards_are_used_on_the_base_mission_too(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", games=20, seed=1)
    used = {key for key, e in new.items() if e["uses"] > 0}
    assert {"event_card:slashers_exit", "event_card:swarm_exploders_too",
            "rock_and_stone_card:rs_pale_ale", "throwable:shock_mine"} <= used, new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=5, seed=2, options=MISSION) == sim.run(data, games=5, seed=2, options=MISSION)


def _next_to_a_dwarf(engine, kind: str):
    """Lay a face-up `kind` pickup on an open space next to dwarf 0; (dwarf, space)."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN
    st = engine.state
    d = st.dwarves[0]
    at = next(n for n in hx.sorted_neighbours(d.pos) if st.terrain(n) in OPEN
              and not st.monster_at(n) and not st.dwarf_at(n) and n not in st.pod)
    st.pickups[at] = [kind, True]
    return d, at


@pytest.mark.parametrize("kind, hurt, strike", [
    ("glow_nut", False, True),        # the pack's: gold, worth a swing
    ("alien_egg", False, False),      # Grunts at the exits (or nothing): never worth it
    ("blood_sugar", True, True),      # heals a hurt dwarf
    ("blood_sugar", False, False),    # a dwarf at full health gains nothing
])
def test_the_player_strikes_a_pickup_by_what_its_effect_does_not_its_name(monkeypatch, kind, hurt, strike):
    from tomecraft.runtime.engines.deep_rock_galactic import policy, setup
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    data = _data(monkeypatch)
    engine = setup(data, 4, Rng("strike").fork("g"), [FirstOption()] * 4, {})
    d, at = _next_to_a_dwarf(engine, kind)
    if hurt:
        d.health = 2
    rolls = copy.deepcopy(engine.rng)
    assert policy._worth_striking(engine, d, at) is strike
    # tried on a copy: the real game keeps its pickup and its dice stream
    assert engine.state.pickups[at] == [kind, True] and engine.rng.random() == rolls.random()


def test_a_trial_copy_changes_nothing_of_the_real_game(monkeypatch):
    """The players' trial copies (State.__deepcopy__ copies flat fields flat): mining, tokens,
    dwarves, monsters and supplies changed on the copy leave the game as it was."""
    from tomecraft.runtime.engines.deep_rock_galactic import setup
    from tomecraft.runtime.lookahead import FirstOption, copy_game
    from tomecraft.runtime.rng import Rng
    engine = setup(_data(monkeypatch), 4, Rng("copy").fork("g"), [FirstOption()] * 4, {})
    st = engine.state
    engine.spawn("grunt", st.exits[1])
    before = copy.deepcopy(st)
    trial = copy_game(engine, shared=(engine.rules,))
    t = trial.state
    assert t.dwarves[0] is not st.dwarves[0] and t.cells == st.cells and t.cells is not st.cells
    wall = next(h for h, c in t.cells.items() if c == "#")
    t.cells[wall] = "."
    t.tokens.setdefault("flame", {})[wall] = 0
    t.dwarves[0].health = 1
    t.dwarves[0].rock_and_stone.append("rs_pale_ale")
    next(iter(t.monsters.values())).damage += 1
    t.shared["gold"] += 3
    t.event_deck.clear()
    t.stalagmites.add(wall)
    assert st == before
