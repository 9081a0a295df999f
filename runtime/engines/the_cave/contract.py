"""What The Cave's engine does with the content (see runtime/contract.py).

The Cave runs every effect once, at the moment it belongs to: it holds no lasting effects,
so it fires no events and no effect may hold a trigger, a watch or a duration.
"""
from tomecraft.runtime.contract import Contract, Need, built_in, printed, reads, runs

SETUP = "at setup, to build the tile stacks"
EQUIPMENT = "the base game's five items; loadouts and slots are rules L53-54, L173-193"

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
                    "discover_from", "rope_edges", "is_base", "match_edges"),
        },
        "tile": reads(SETUP, "stack", "tile_kind", "exits", "count"),
        "start_board": reads("at setup, for the player count", "players", "cells",
                             "discard_per_stack"),
        "equipment": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            **built_in("term", "slots", "uses", "kept_after_use", why=EQUIPMENT),
            **reads("whenever a team re-equips, discards or abandons its camp: a team owns at "
                    "most this many, and one discarded is gone for good (L287-292)",
                    "per_team_limit"),
            **printed("supply", on="the token sheet (the bank is unlimited in play, D-22)"),
        },
        "token": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            **reads("when a game is scored", "points", "category"),
            **built_in("term", "depth", why="reached-depth tokens are depth_<value>"),
            **printed("supply", on="the token sheet"),
        },
        "action": {
            "effect": runs("when a team takes the action on its turn"),
            **reads("to list a team's actions in order", "order"),
        },
        "scoring": reads("when a game is scored", "majority_points", "tie_rule",
                         "zero_scores_majority", "extra_rounds", "must_return_to_base"),
        "rule": built_in("value", "options",
                         why="each rule entity documents a decision the engine makes"),
    },
    needs=(
        Need("tile_kind", "boulder", why="a tile that fits nowhere becomes a boulder (L76-80)"),
        *(Need("equipment", item, why="the loadouts and entry costs use it (L53-54)")
          for item in ("consumable", "rope", "oxygen", "camera", "raft")),
        *(Need("token", f"depth_{depth}", why="reached-depth tokens (L128-142)")
          for depth in (25, 50, 75)),
        Need("scoring", at_least=1, why="a game is scored by the first scoring entity"),
        Need("start_board", at_least=1, why="every player count needs a starting board"),
    ),
)
