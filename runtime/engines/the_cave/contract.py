"""What The Cave's engine does with the content (see runtime/contract.py).

The Cave runs every effect once, at the moment it belongs to: it holds no lasting effects,
so it fires no events and no effect may hold a trigger, a watch, a duration or a `once per`
limit.
"""
from tomecraft.runtime.contract import (NOTHING, Contract, Need, Needs, built_in, keys, printed,
                                        reads, runs)

SETUP = "at setup, to build the tile stacks"
# The move being made (engine.ctx: the tile moved from as ctx.target, the edge crossed) is
# handed only to a tile's entry options and the `cross_out` of the tile left (engine.do_move;
# and the engine's desperate_move keyword). An `on_discover`, a tile's or the game's action
# and an item's `use` are handed the team's tile only: `depth_levels()` there stopped the sim
# (AttributeError 'NoneType' ... 'depth'), `rope_placed()` and `place_rope` too (KeyError
# 'edge'), and `reach_depth` never gave a token.
_MOVE = "the move being made (the tile left and the edge crossed)"

CONTRACT = Contract(
    engine="the_cave",
    events={},
    kinds={
        "tile_kind": {
            "enter": runs("when a team enters a tile of this kind: it picks one option it can pay"),
            "on_discover": runs("once, when a tile of this kind is placed"),
            "actions": runs("when a team on a tile of this kind takes that action"),
            "cross_out": runs("when a team leaves a tile of this kind for another depth"),
            **reads("when tiles are placed, crossed and discovered from",
                    "discover_from", "rope_edges", "is_base"),
            **reads("when a tile is placed beside one of this kind (false: its edges need not "
                    "match, L79); a kind no stack tile has, with false, is a boulder the team "
                    "may place when a drawn tile fits nowhere (L76-80)", "match_edges"),
        },
        "tile": reads(SETUP, "stack", "tile_kind", "exits", "count"),
        "start_board": reads("at setup, for the player count", "players", "cells",
                             "discard_per_stack"),
        "equipment": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            **keys("whenever an effect names the item (spend, has, discard_item)", "term",
                   found="never"),
            **reads("whenever a team loads its backpack or camp: one token takes this many of "
                    "the 8 backpack and 4 camp slots (L46-47)", "slots"),
            **reads("whenever the item is spent: a token is discarded after this many uses, the "
                    "most worn token used first (L173-175, D-24)", "uses"),
            **reads("whenever the item is spent: a kept item spends nothing (L191-193)",
                    "kept_after_use"),
            "use": runs("when a team carrying the item takes it as an action on its turn"),
            **reads("whenever a team re-equips, discards or abandons its camp: a team owns at "
                    "most this many, and one discarded is gone for good (L287-292)",
                    "per_team_limit"),
            **printed("supply", on="the token sheet (the bank is unlimited in play, D-22)"),
        },
        "token": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            **reads("when a game is scored", "points", "category"),
            # A token is known by its id (gain_token, take_token, depth_<value>); its term is
            # only the word its rule text prints, so a pack's new token needs one of its own.
            **printed("term", on="the sheets: the word rule text uses for the token"),
            **built_in("depth", why="reached-depth tokens are depth_<value>"),
            **printed("supply", on="the token sheet"),
        },
        "action": {
            "effect": runs("when a team takes the action on its turn"),
            **reads("to list a team's actions in order", "order"),
        },
        "scoring": reads("when a game is scored", "majority_points", "tie_rule",
                         "zero_scores_majority", "extra_rounds", "must_return_to_base"),
        "rule": {**built_in("value", "options",
                            why="each rule entity documents a decision the engine makes"),
                 **printed("sim_only", on="the sheets (the player edition leaves a simulator setting out)"),},
    },
    needs=(
        Need("tile_kind", "boulder", why="a tile that fits nowhere becomes a boulder (L76-80)"),
        Need("tile_kind", "start", why="the base cell of every starting board is of it (L113)"),
        Need("tile_kind", "normal", why="a starting board's other cells are passages (D-21)"),
        Need("equipment", "consumable",
             why="a team away from the base uses one at the start of each turn (L61-62)"),
        *(Need("token", f"depth_{depth}", why="reached-depth tokens (L146-154)")
          for depth in (25, 50, 75)),
        Need("scoring", at_least=1, at_most=1, why="a game is scored by one scoring table (L301-333)"),
        Need("start_board", at_least=1, why="every player count needs a starting board"),
    ),
    # gain_token, take_token and place_token name a token by its id, and scoring reads the
    # token of that id: a pack's token term no token has as its id checked clean and stopped
    # play at the score (KeyError), also when a token of another id carried it as its `term`.
    # Every effect runs whole each time its moment comes: no memory of earlier runs is kept, so
    # `once per turn` checked clean and the action ran twice in a turn.
    once_scopes=frozenset(),
    site_context={"tile_kind.enter": ("move",), "tile_kind.cross_out": ("move",)},
    context_needs={"depth_levels": Needs(_MOVE, ("move",)), "rope_placed": Needs(_MOVE, ("move",)),
                   "place_rope": Needs(_MOVE, ("move",)),
                   "reach_depth": Needs(_MOVE, ("move",), NOTHING)},
    term_ids={"token": "token"},
    # A team holds AP only (`pay` takes it whatever the resource: a pack's 'mana' stopped play
    # at its first payment); no card or token is ever in a zone, no stat or status is kept and
    # no effect lasts past its moment, so a new zone, stat, status or scope would do nothing.
    pack_names={
        "terms.equipment": "an equipment entity with the term (its key) is loaded, carried, "
                           "spent and used from its fields",
        "terms.token": "a token entity of that id is placed, taken, gained and scored from its "
                       "points and category",
        "terms.category": "the tokens of the category are scored for majority (L311-318) "
                          "like the printed four",
    },
)
