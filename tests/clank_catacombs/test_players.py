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


def test_the_player_names_no_card_room_token_item_or_tunnel_icon_of_the_content():
    """The player weighs options by evaluation, never by a list of known names: no id of the
    base game's cards, rooms, tokens, market items or tunnel icons appears as a string in its
    code, but for the engine's own option vocabulary (`do: explore`, a buy's `coupon` flag)."""
    import ast

    from tomecraft.runtime.engines.clank_catacombs.scenario import option_shapes
    names = {i for kind in ("card", "room", "token", "market_item", "tunnel_icon")
             for i in GAME.kinds[kind]}
    shapes = option_shapes(build(GAME, {"players_count": 2}))
    vocabulary = set(shapes) | {k for fields in shapes.values() for k in fields}
    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)}
    assert names and strings & names <= vocabulary, strings & names - vocabulary


def test_every_item_of_a_new_pack_that_checks_clean_is_used(tmp_path, monkeypatch):
    """`tomecraft new pack` copies one entity of each kind (its room and tunnel icon, which
    no tile carries, are commented out by check); over a seeded 100-game sim the players use
    every copy left: the amulet's copy too, which needs 5 damage (a damaged player with the
    gold makes for a market: healing is worth more the fuller the track)."""
    from tomecraft.compiler.scaffold import new_pack
    folder = tmp_path / "np_cc"
    new_pack(Path(__file__).resolve().parents[2] / "content" / "clank_catacombs", folder)
    data = compiled_with("clank_catacombs", folder, monkeypatch)
    new = pack_usage(data, "np_cc", games=100, seed=1)
    assert {"market_item:np_cc_amulet", "token:np_cc_adventurer"} <= set(new)
    assert all(e["uses"] > 0 for e in new.values()), new


def test_a_damaged_player_with_gold_buys_the_amulet_over_a_crown():
    """Purchases are tried on a copy of the game and weighed by the player's standing: with 5
    damage the amulet (7 points and 2 healing for 7 gold) beats a crown (10 points), without
    damage the amulet is not offered and the crown is the best buy; the trials change nothing."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import build as build_state
    setup = {"players": [{"pos": [1, 0], "gold": 14, "damage": 5}, {"pos": [1, 0], "gold": 14}],
             "tiles": [{"at": [1, 0], "tile": "safe_06", "room": "market", "exits": "EW"}]}
    engine = build_state(GAME, setup)
    hurt, fresh = engine.state.players
    buys = lambda p: [o for o in engine.legal_actions(p) if o["do"] == "buy"]   # noqa: E731
    assert [o["item"] for o in policy.View(engine, hurt).suggest("action", buys(hurt))] == ["amulet"]
    assert [o["item"] for o in policy.View(engine, fresh).suggest("action", buys(fresh))] == ["crown"]
    assert (hurt.gold, hurt.damage_taken, engine.state.market["amulet"]) == (14, 5, [7, 7])


def test_rare_base_entities_are_used_over_more_games():
    """Some base entities are rare, not unplayable: the Ember Golem and the Phantom Monkey
    King cost 5 and 4 combat to defeat, the Mayor is one prisoner token, scored only for a
    player holding a treasure. Over 200 seeded games every base entity with an effect is used
    but the Thieves' Toolkit, which the players' standing never prefers to its 7 gold (2
    points and 2 lockpicks, with 3 lockpicks from the start and few locks); scenarios d13 and
    r2_market_twice play it. The golem, no longer a draw among cheaper fights once the
    player holds 5 combat (test_fights), is defeated where its reward is the best use of the
    combat: 6 times in these games (once before)."""
    summary = sim.run(GAME, games=200, seed=1, usage=True)["usage"]["entities"]
    unused = {key for key, e in summary.items() if e["tracked"] and e["uses"] == 0}
    assert unused == {"market_item:thieves_toolkit"}
    for key in ("card:ember_golem", "card:phantom_monkey_king", "token:mayor"):
        assert summary[key]["uses"] > 0, key


def test_a_random_agent_holding_cards_is_offered_what_its_view_would_suggest(monkeypatch):
    """Engine.action_options asks a random agent holding cards among its plays alone; that is
    only the same game because its view would suggest exactly those plays out of every legal
    action (policy.PLAYS_FIRST). Checked at every action decision of two seeded games, and
    with PLAYS_FIRST off every legal option is offered."""
    from tomecraft.runtime.engines.clank_catacombs import engine as clank
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.rng import Rng
    checked = 0
    original = clank.Engine.action_options

    def compared(self, p):
        nonlocal checked
        offered = original(self, p)
        if p.hand:
            assert offered == policy.View(self, p).suggest("action", self.legal_actions(p))
            checked += 1
        return offered
    monkeypatch.setattr(clank.Engine, "action_options", compared)
    for seed in ("a", "b"):
        rng = Rng(seed)
        clank.play_game(GAME, 3, rng.fork("game"), [RandomAgent(rng.fork(f"p{i}")) for i in range(3)])
    assert checked > 100
    monkeypatch.setattr(policy, "PLAYS_FIRST", False)
    state = clank.new_state(GAME, 2, Rng("c").fork("setup"))
    engine = clank.Engine(GAME, state, [RandomAgent(Rng("x"))] * 2)
    p = state.players[0]
    assert p.hand and original(engine, p) == engine.legal_actions(p)


def test_the_remembered_tunnels_are_the_map_as_it_is(monkeypatch):
    """Board.tunnels_from remembers a room's tunnels while the map grows elsewhere and no lock
    opens (the moves are read from them at every decision): at every decision of three seeded
    games, with the pack's tunnel icons, they are what Board.tunnel reads off the map now."""
    from tomecraft.runtime.engines.clank_catacombs import engine as clank
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.rng import Rng
    checked = 0
    original = clank.Engine.tunnels_from

    def compared(self, src):
        nonlocal checked
        tunnels = original(self, src)
        assert [(t.dst, t.icons, t.against) for t in tunnels] == \
            [self.tunnel(src, d) for d in src.exits]
        checked += 1
        return tunnels
    monkeypatch.setattr(clank.Engine, "tunnels_from", compared)
    for data, seed in ((GAME, "a"), (GAME, "b"), (_data(monkeypatch), "c")):
        rng = Rng(seed)
        clank.play_game(data, 3, rng.fork("game"), [RandomAgent(rng.fork(f"p{i}")) for i in range(3)])
    assert checked > 100
