"""What the Clank! Catacombs engine does with the content (see runtime/contract.py).

Triggers, watches and `continuous` bodies registered by an effect last until the end of the
turn it ran in, and hear only their owner's events: a card played, a room entered or a token
gained during your turn can react to what else happens in it. Value layering (`=`, `+=`)
is not used by this game.
"""
from tomecraft.runtime.contract import (NOTHING, Contract, Need, Needs, built_in, printed,
                                        reads, runs)

LASTING = ("on", "when", "continuous", "during")
TURN = "; what it registers lasts until the end of your turn"

RULES = ("coupon_discount", "hand_size", "health", "max_players", "multi_treasure",
         "rage_start", "rage_track", "round_cap", "row_size", "safe_tiles_used",
         "start_lockpicks", "treasure_limit", "initial_clank", "out_draw",
         "out_draw_two_players", "bag_empty_means_short")

EVENTS = {
    "turn_end": "after a player's last action, before the row is refilled",
    "play": "when a card is played, before its own play effect (a card does not hear itself)",
    "acquire": "after a card's on_acquire effect, when it is acquired",
    "arrive": "after a card's on_arrive effect, when it arrives in the dungeon row",
    "defeat": "after a monster's on_defeat effect, when it is defeated",
    "gain_clank": "whenever a player adds Clank! cubes to the Clank! area",
    "enter_room": "after a room's on_enter effect, whenever a player enters a room",
    "reveal_tile": "after the room's on_reveal effect, when a tile is explored",
    "buy": "after a market item's on_buy effect, when it is bought",
    "gain_token": "after a token's on_gain effect, when a player gains it",
    "dragon_attack": "for every player, when the dragon attacks, before cubes are drawn",
}
# The refill after a turn deals the arriving cards and makes the dragon attack (engine.end_turn,
# refill): what an effect registered "until the end of your turn" has ended by then, so a
# trigger there never hears `arrive` or `dragon_attack` (check refuses it, TC-C003).
AFTER_THE_TURN = ("arrive", "dragon_attack")
TURN_EVENTS = tuple(e for e in EVENTS if e not in AFTER_THE_TURN)


def lasts_the_turn(when: str):
    """An effect field whose triggers, watches and `continuous` last until the end of the turn."""
    return runs(when + TURN, *LASTING, events=TURN_EVENTS, lasts="turn")


_COUNT = {"type": "integer", "minimum": 0}
_AT_LEAST_1 = {"type": "integer", "minimum": 1}
# What play can use of each rule's value (setup.py, engine.py): a hand, a row, a health track
# and a game of at least 1; a cube or token count of 0 or more; a Clank! count for every seat.
RULE_VALUES = {
    "coupon_discount": _COUNT, "start_lockpicks": _COUNT, "safe_tiles_used": _COUNT,
    "out_draw": _COUNT, "out_draw_two_players": _COUNT, "party_out_draw": _COUNT,
    "hand_size": _AT_LEAST_1, "health": _AT_LEAST_1, "row_size": _AT_LEAST_1,
    "round_cap": _AT_LEAST_1, "treasure_limit": _AT_LEAST_1,
    "multi_treasure": {"type": "boolean"},
    "rage_track": {"type": "array", "minItems": 1, "items": _AT_LEAST_1},
    "rage_start": {"type": "object", "additionalProperties": _AT_LEAST_1},
    "initial_clank": {"type": "array", "minItems": 4, "items": _COUNT},
    "party_initial_clank": {"type": "array", "minItems": 6, "items": _COUNT},
    "max_players": None,    # against game.yaml's players (compiler/game_checks/clank_catacombs.py)
}

# What play hands each effect besides its player (engine.ctx, board.py): a tunnel icon's
# `cross` the tunnel being crossed (where it leads, its icons, whether against an arrow), a
# room's effects the room (its cell), the market room's action the item being bought, a
# token's end-of-game `scoring` the score it adds to. A card's effects get none: from a card's
# play `unlock`, `take_treasure`, `cross`, `buy_item` stopped the game (KeyError 'to',
# "'Card' object has no attribute 'treasures'": fourth packs blind test), `can_record()` too,
# `discount` and `score` changed nothing, `icons()` was always 0. A trigger keeps what its
# effect was handed (engine.emit).
SITE_CONTEXT = {"tunnel_icon.cross": ("tunnel",), "room.on_enter": ("room",),
                "room.on_reveal": ("room",), "room.action": ("room", "purchase"),
                "token.scoring": ("score",)}
_TUNNEL = Needs("the tunnel being crossed", ("tunnel",))
_ROOM = Needs("the room whose effect it is", ("room",))
CONTEXT_NEEDS = {
    "cross": _TUNNEL, "cross_portal": _TUNNEL, "unlock": _TUNNEL,
    "take_treasure": _ROOM, "take_token": _ROOM, "record_signpost": _ROOM,
    "place_treasure": _ROOM, "place_highest_treasure": _ROOM, "can_record": _ROOM,
    "buy_item": Needs("the market item being bought", ("purchase",)),
    "discount": Needs("the purchase it lowers, bought in the same room action", ("purchase",),
                      NOTHING),
    # points are summed only when a token is scored at the end: a card's `score 15` was lost
    "score": Needs("the end-of-game score of the token it scores", ("score",), NOTHING),
    "icons": Needs("the tunnel being crossed", ("tunnel",), "it would always be 0 here"),
    "against_arrow": Needs("the tunnel being crossed", ("tunnel",),
                           "it would always be false here"),
    # the tile side explored is chosen by the engine's own explore move (board.py), never
    # handed to an effect: KeyError 'edge' wherever an effect said `explore`
    "explore": Needs("the map edge being explored", ("edge",)),
}


CONTRACT = Contract(
    engine="clank_catacombs",
    events=EVENTS,
    kinds={
        "card": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "play": lasts_the_turn("when the card is played"),
            "on_acquire": lasts_the_turn("when the card is acquired"),
            "on_defeat": lasts_the_turn("when the monster is defeated"),
            "on_use": lasts_the_turn("when the device is used"),
            "on_arrive": runs("once, when the card arrives in the row, after the turn ended"),
            **reads("when cards are dealt, bought, fought and scored", "card_type",
                    "companion", "cost", "defeat_cost", "points", "danger", "dragon_attack",
                    "count", "per_deck", "never_discarded"),
        },
        "room": {
            "on_enter": lasts_the_turn("when a player enters the room"),
            "on_reveal": lasts_the_turn("when the room's tile is explored"),
            "action": lasts_the_turn("when a player in the room takes its action"),
            **reads("when rooms are entered and their actions offered", "room_type", "reward",
                    "once_per_game", "spaces"),
        },
        "tile": reads("at setup and when a tile is explored", "area", "haunted", "count",
                      "cells", "depths", "plus_signs", "portal", "icons"),
        "tunnel_icon": {
            "cross": lasts_the_turn("when a player crosses a tunnel with the icon"),
            **printed("icon", on="the tunnel icon reference"),
        },
        "token": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "on_gain": lasts_the_turn("when a player gains the token"),
            "use": lasts_the_turn("when a player uses the token"),
            "passive": lasts_the_turn("when a player gains the token"),
            "scoring": runs("once, when the game is scored"),
            **reads("at setup, when tokens are gained and when the game is scored",
                    "token_type", "points", "value", "count", "kept", "above_equal"),
        },
        "market_item": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "on_buy": lasts_the_turn("when the item is bought"),
            "require_to_buy": runs("when the market offers the item"),
            **reads("when the market is set up, bought from and scored", "points",
                    "treasure_limit"),
            **printed("price", "count", on="the market reference (the market room's action "
                      "pays one price for every item, which check holds price to; the count is "
                      "the number of points values)"),
        },
        "component": reads("at setup", "count", "per_player"),
        "rule": {
            **reads("at setup and whenever the rule applies", "value"),
            **built_in("options", why="only the chosen value is played"),
            **printed("sim_only", on="the sheets (the player edition leaves a simulator setting out)"),
        },
    },
    needs=(
        *(Need("rule", r, why="the engine reads its value") for r in RULES),
        Need("card", "goblin", why="the goblin in the reserve can always be fought (L314)"),
        *(Need("tunnel_icon", i, why="every tunnel crossing runs it")
          for i in ("plain", "portal")),
        *(Need("tunnel_icon", i, why="tiles carry it on their tunnels (game.yaml, tile icons)")
          for i in ("footprints", "monster_icon", "lock_icon", "one_way_arrow")),
        *(Need("component", c, why="set-up counts")
          for c in ("dragon_cubes", "ghost_cubes", "player_cubes")),
        Need("room", "mausoleum", why="players start in the mausoleum"),
        Need("token", "magic_spring", why="a player's magic springs are counted each turn (L91)"),
        Need("token", "monkey_idol", why="monkey shrines hold monkey idols (L115, L468)"),
        Need("token", "mastery", why="a mastery token is taken on escaping (L119, L599-603)"),
        Need("card", at_least=1, why="a starting deck"),
        Need("tile", at_least=1, why="the dungeon is explored from the tile stack"),
    ),
    closed=("component",),
    read_ids={"rule": ("party_initial_clank", "party_out_draw")},   # with RULES (the needs)
    rule_values=RULE_VALUES,
    inert_verbs={"return_cube": "a cube drawn from the bag leaves it by itself (a black cube "
                                "to the supply, a player's to its health track, L536-546)",
                 # a dragon attack counts its cubes afresh (rage track + danger cards in the
                 # row, L532-536), and no effect runs during one to add to them
                 "extra_dragon_cubes": "a dragon attack draws the rage track's cubes plus one "
                                       "per danger card in the row, counted when it starts "
                                       "(L532-536); no effect runs inside it"},
    site_context=SITE_CONTEXT,
    context_needs=CONTEXT_NEEDS,
    # the reserve is a table of reserve card ids: a removed Secret Tome left the tome room's
    # `acquire_free secret_tome` and `reserve_left(secret_tome)` with nothing to find
    term_ids={"reserve_name": "card"},
    # A player keeps five resources, the engine's own zones, stats and statuses, and ends the
    # turn and the game: a pack's 'mana' crashed play at its first gain (clean check).
    pack_names={
        "terms.reserve_name": "a reserve card of that id (card_type reserve) joins the reserve",
        "terms.room_type": "a room of the type is entered on the tile whose cells name it, and "
                           "runs its own effects",
        "terms.token_type": "tokens of the type are laid out from their count, gained by "
                            "take_token and gain_random, held and scored from their fields",
        "terms.icon": "a tunnel icon entity with the icon runs its cross effect on the tiles "
                      "that carry it",
    },
)
