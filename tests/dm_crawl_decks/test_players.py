"""The simulated player uses any content: a YAML-only pack's new card, event card and relics
with an activated `use` (one per window) all run in a seeded sim, though no player code names
them (runtime/engines/dm_crawl_decks/policy.py weighs relic uses and events by lookahead)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime import sim

ROOT = Path(__file__).resolve().parents[2]
PACK = Path(__file__).with_name("any_content_pack")
NEW = {"card:ember_imp", "event_card:warm_hearth", "relic:ember_charm", "relic:ember_ward",
       "relic:ember_dart"}


def _data(monkeypatch):
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "dm_crawl_decks", [PACK], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    return data


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    summary = sim.run(data, games=30, seed=1, usage=True)
    entities = summary["usage"]["entities"]
    new = {key: e for key, e in entities.items() if e["pack"] == "any_content"}
    assert set(new) == NEW and all(e["tracked"] for e in new.values())
    assert all(e["uses"] > 0 for e in new.values()), new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=5, seed=2) == sim.run(data, games=5, seed=2)
