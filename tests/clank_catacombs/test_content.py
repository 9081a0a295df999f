"""The content holds every component of the box with the counts of inventory §2
(../shared/inventory/clank_catacombs.md; rulebook 游戏配件 L20-101 and setup L150-240)."""
from __future__ import annotations

from collections import Counter

import pytest

from tomecraft.generated.clank_catacombs import GAME


def count(kind: str, **where) -> int:
    return sum(e.count for e in GAME.of(kind) if all(getattr(e, k) == v for k, v in where.items()))


def by_type(token_type: str) -> Counter:
    return Counter({t.id: t.count for t in GAME.of("token") if t.token_type == token_type})


def test_starting_deck_is_6_burgle_2_stumble_1_sidestep_1_scramble():
    deck = {c.id: c.per_deck for c in GAME.of("card") if c.card_type == "starting"}
    assert deck == {"burgle": 6, "stumble": 2, "sidestep": 1, "scramble": 1}
    assert GAME.get("component", "starting_decks").count == 4
    assert sum(deck.values()) * 4 == 40


def test_reserve_is_15_mercenary_15_explore_12_secret_tome_and_the_goblin():
    reserve = {c.id: c.count for c in GAME.of("card") if c.card_type == "reserve"}
    assert reserve == {"mercenary": 15, "explore": 15, "secret_tome": 12, "goblin": 1}
    assert sum(reserve.values()) == GAME.get("component", "reserve_cards").count == 43


def test_dungeon_deck_holds_100_cards_of_the_three_banners():
    assert count("card", card_type="acquire") + count("card", card_type="device") \
        + count("card", card_type="monster") == 100 == GAME.get("component", "dungeon_deck").count
    assert count("card", card_type="device") > 0 and count("card", card_type="monster") > 0


@pytest.mark.parametrize("card_id", ["rebel_leader", "lying_in_ambush", "lute", "swindler",
                                     "crystal_kobold", "expert_guide", "sneak_attack",
                                     "phantom_monkey_king", "rebellion", "brave_hero"])
def test_every_card_the_rulebook_names_is_in_the_dungeon_deck_from_the_rulebook(card_id):
    card = GAME.get("card", card_id)
    assert card.count >= 1 and card.provenance.source == "rulebook" and card.provenance.ref


def test_rulebook_numbers_of_named_cards():
    assert GAME.get("card", "crystal_kobold").defeat_cost == 2           # L579-581
    assert GAME.get("card", "expert_guide").cost == 5                     # L581
    assert GAME.get("card", "goblin").never_discarded                     # L314


def test_tiles_are_22_depths_4_of_them_haunted_6_safe_and_the_two_sided_start():
    assert count("tile", area="depths") == 22
    assert sum(t.count for t in GAME.of("tile") if t.area == "depths" and t.haunted) == 4
    assert count("tile", area="safe") == 6
    assert count("tile", area="depths") + count("tile", area="safe") \
        == GAME.get("component", "square_tiles").count == 28
    sides = [t for t in GAME.of("tile") if t.area == "start"]
    assert len(sides) == 2 and GAME.get("component", "start_tile").count == 1
    for side in sides:
        rooms = [c[2] for c in side.cells]
        assert "mausoleum" in rooms and "monkey_shrine" in rooms
    treasure_rooms = sum(t.count for t in GAME.of("tile") if t.cells[0][2] == "treasure_room")
    assert treasure_rooms > count("token", token_type="treasure")         # L416


def test_room_kinds_and_tunnel_icons():
    kinds = {r.room_type for r in GAME.of("room")}
    assert {"mausoleum", "crystal_cave", "market", "signpost", "monkey_shrine", "chest", "tome",
            "cell", "treasure_room", "minor_secret_room", "gold_room", "heal_room"} <= kinds
    assert GAME.get("room", "signpost").spaces == 4                        # L669-671
    icons = {i.id for i in GAME.of("tunnel_icon")}
    assert {"plain", "footprints", "monster_icon", "lock_icon", "one_way_arrow", "portal"} <= icons


def test_seven_treasures_from_5_on_top_to_20_at_the_bottom():
    values = sorted(t.value for t in GAME.of("token") if t.token_type == "treasure" for _ in range(t.count))
    assert len(values) == 7 and values[0] == 5 and values[-1] == 20
    assert {10, 12, 15} <= set(values)                                     # L414


def test_prisoners_13_types_20_tokens_major_5_types_11_minor_8_types_20():
    prisoners = by_type("prisoner") + by_type("coupon")
    assert len(prisoners) == 13 and sum(prisoners.values()) == 20
    major, minor = by_type("major_secret"), by_type("minor_secret")
    assert len(major) == 5 and sum(major.values()) == 11
    assert len(minor) == 8 and sum(minor.values()) == 20


def test_market_2_backpacks_2_amulets_3_toolkits_3_crowns_10_on_top_8_at_the_bottom():
    items = {i.id: (i.count, list(i.points)) for i in GAME.of("market_item")}
    assert items["backpack"] == (2, [5, 5])
    assert items["amulet"] == (2, [7, 7])
    assert items["thieves_toolkit"] == (3, [2, 2, 2])
    assert items["crown"][0] == 3 and items["crown"][1][0] == 10 and items["crown"][1][-1] == 8
    assert all(i.price == 7 for i in GAME.of("market_item"))


def test_idols_mastery_cubes_ghosts_lockpicks():
    assert GAME.get("token", "monkey_idol").count == 3 and GAME.get("token", "monkey_idol").points == 5
    assert GAME.get("token", "mastery").count == 4 and GAME.get("token", "mastery").points == 20
    comp = {c.id: c for c in GAME.of("component")}
    assert comp["dragon_cubes"].count == 24 and comp["ghost_cubes"].count == 5
    assert comp["player_cubes"].count == 120 and comp["player_cubes"].per_player == 30
    assert comp["player_markers"].count == 4 and comp["lockpicks"].count == 24
    assert comp["major_secrets"].count == 11 and comp["minor_secrets"].count == 20
    assert comp["prisoners"].count == 20 and comp["treasures"].count == 7


def test_every_fact_not_from_the_rulebook_is_marked():
    for kind in GAME.kinds:
        for e in GAME.of(kind):
            prov = e.provenance
            assert prov.source in ("rulebook", "public", "approximation")
            if prov.source == "rulebook":
                assert prov.ref, e.id
            else:
                assert prov.note, e.id
