"""The simulated player uses any content: a YAML-only pack's new card, event card and relics
with an activated `use` (one per window) all run in a seeded sim, though no player code names
them (runtime/engines/dm_crawl_decks/policy.py weighs relic uses and events by lookahead)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage

PACK = Path(__file__).with_name("any_content_pack")
NEW = {"card:ember_imp", "event_card:warm_hearth", "relic:ember_charm", "relic:ember_ward",
       "relic:ember_dart"}


def _data(monkeypatch):
    return compiled_with("dm_crawl_decks", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", tracked_only=False, games=30, seed=1)
    assert set(new) == NEW and all(e["tracked"] for e in new.values())
    assert all(e["uses"] > 0 for e in new.values()), new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=5, seed=2) == sim.run(data, games=5, seed=2)
