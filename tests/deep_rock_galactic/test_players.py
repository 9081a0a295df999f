"""The simulated players use any content: a YAML-only pack with one new item of every kind a
pack can add without new terms (event and Swarm cards, a Rock and Stone card, a throwable, a
pickup, a Supply Pod card, a mission) has each one with an effect used in a seeded sim; the
pack's mission is played with `mission_id` like the base game's."""
from __future__ import annotations

from pathlib import Path

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
