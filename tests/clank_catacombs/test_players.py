"""The simulated players use any content: a YAML-only pack's new card, device, monster, market
item, token, room and tunnel icon are all used in a seeded sim, though no player code names them
(runtime/engines/clank_catacombs/policy.py)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.generated.clank_catacombs import GAME
from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage
from tomecraft.runtime.engines.clank_catacombs import policy
from tomecraft.runtime.engines.clank_catacombs.scenario import build

PACK = Path(__file__).with_name("any_content_pack")
NEW = {"card:ember_scout", "card:ember_brazier", "card:ember_wraith",
       "market_item:ember_lantern", "token:ember_shard", "room:ember_forge",
       "tunnel_icon:ember_grate"}


def _data(monkeypatch):
    return compiled_with("clank_catacombs", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", games=40, seed=1)
    assert set(new) == NEW
    assert all(e["uses"] > 0 for e in new.values()), new


def test_the_card_to_trash_is_the_one_whose_play_is_worth_least():
    """No card is known by name: stumble (Clank! 1) is chosen because playing it, tried on a
    copy of the game, is worth less than burgle's skill or scramble's skill and movement."""
    engine = build(GAME, {"players_count": 2})
    me = engine.state.players[0]
    before = (list(me.hand), list(me.play_area), me.skill, me.movement, me.clank_gained)
    view = policy.View(engine, me)
    assert view.suggest("trash", ["burgle", "scramble", "stumble", "sidestep"]) == ["stumble"]
    assert (me.hand, me.play_area, me.skill, me.movement, me.clank_gained) == before  # trials only


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=10, seed=2) == sim.run(data, games=10, seed=2)
