"""The simulated player's combat and skill (runtime/engines/clank_catacombs/policy.py): a
monster is weighed by what its on_defeat gives, tried on a copy of the game, against the
combat it takes from the other monsters; a row card also by the risk of the card refilling
its place. No monster is known by name."""
from __future__ import annotations

from tomecraft.generated.clank_catacombs import GAME
from tomecraft.runtime.engines.clank_catacombs import policy
from tomecraft.runtime.engines.clank_catacombs.scenario import build

ROOM = [{"at": [1, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}]
QUIET_DECK = ["lute"] * 6          # no card in it brings a dragon attack


def _engine(me: dict, row: list, deck=QUIET_DECK, **more):
    return build(GAME, {"players": [{"pos": [1, 0], **me}, {"pos": [1, 0]}], "tiles": ROOM,
                        "row": row, "dungeon_deck": deck, **more})


def _suggested(engine, p) -> list:
    return [(o["do"], o.get("card")) for o in
            policy.View(engine, p).suggest("action", engine.legal_actions(p))]


def test_five_combat_goes_to_the_golem_not_a_goblin_that_would_leave_too_little():
    """5 combat: the Ember Golem (5 combat: 3 gold and 2 skill) or the reserve's Goblin
    (2 combat: 1 gold, as often as the combat pays: 2 gold for 4). The player had drawn
    among both (any defeat once combat >= 2); the knapsack of rewards picks the golem."""
    engine = _engine({"combat": 5}, ["ember_golem", "lute"])
    me = engine.state.players[0]
    defeats = {o["card"] for o in engine.legal_actions(me) if o["do"] == "defeat"}
    assert defeats == {"ember_golem", "goblin"}
    assert _suggested(engine, me) == [("defeat", "ember_golem")]
    assert (me.combat, me.gold, engine.state.row) == (5, 0, ["ember_golem", "lute"])  # trials


def test_four_combat_goes_to_the_goblin_twice_and_a_worthless_defeat_is_left():
    """Without the golem's 5, the Goblin's gold is worth its combat, twice; a Bat Swarm's
    1 healing is worth nothing to an unhurt player (the player had fought it once it held 2
    combat), but something once hurt."""
    engine = _engine({"combat": 4}, ["bat_swarm", "lute"])
    me = engine.state.players[0]
    assert _suggested(engine, me) == [("defeat", "goblin")]
    engine.apply(me, {"do": "defeat", "card": "goblin"})
    assert _suggested(engine, me) == [("defeat", "goblin")]
    engine.apply(me, {"do": "defeat", "card": "goblin"})
    assert me.combat == 0 and me.gold == 2
    unhurt = _engine({"combat": 2, "hand": []}, ["bat_swarm", "lute"])
    me = unhurt.state.players[0]
    assert "bat_swarm" in {o.get("card") for o in unhurt.legal_actions(me)}
    assert ("defeat", "bat_swarm") not in _suggested(unhurt, me)
    hurt = _engine({"combat": 1, "damage": 3, "hand": []}, ["bat_swarm", "lute"])
    assert _suggested(hurt, hurt.state.players[0]) == [("defeat", "bat_swarm")]


def test_a_row_monster_is_worth_less_when_its_refill_may_bring_the_dragon():
    """The Skeleton (2 combat: 2 gold). A row card gone is replaced at the turn's end (engine.refill): from a deck of dragon
    attack cards that brings an attack whose cubes are partly the player's; from a quiet deck
    nothing. A danger card gone takes its cube off the attack."""
    bag = {"black": 4, "0": 4}
    quiet = _engine({"combat": 2}, ["skeleton", "lute"], bag=bag)
    loud = _engine({"combat": 2}, ["skeleton", "lute"], deck=["skeleton"] * 6, bag=bag)
    option = {"do": "defeat", "card": "skeleton"}
    calm = policy.defeat_reward(quiet, quiet.state.players[0], option)
    risky = policy.defeat_reward(loud, loud.state.players[0], option)
    assert calm == 2 and risky < calm
    assert policy.row_risk(quiet, quiet.state.players[0], quiet.cards["skeleton"]) == 0

