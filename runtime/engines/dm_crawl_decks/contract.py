"""What the Dungeon Master Crawl Decks engine does with the content (see runtime/contract.py).

Every lasting construct runs here (rulebook L105-143, L278-306): a card's triggers, watches,
continuous bodies and value layering last while the card is in its zone (runtime/timing.py).
"""
from tomecraft.runtime.contract import (CONSTRUCTS, Contract, Need, Needs, built_in, printed, reads,
                                        runs)

# Who hears an event (zones._eligible): the turn's on exploration cards, a battle's and its
# rows' on the cards there, post-battle also relics, a card's own fates on that card; rests,
# descents and loot clean-ups only relics; `acquired` only a gained relic.
CARD_EVENTS = ("turn_start", "turn_end", "pre_battle", "before_round", "battle_round",
               "victory", "defeat", "post_battle", "sent_to_graveyard", "discarded",
               "points_zero")
RELIC_EVENTS = ("acquired", "post_battle", "long_rest", "descend", "clean_up_loot")
# An event card is resolved from the event deck, never on the field nor held: no trigger of
# its hears anything and no `continuous` of its applies; a `when` waits, a `set` applies now.
EVENT_CARD_CONSTRUCTS = tuple(c for c in CONSTRUCTS if c not in ("on", "continuous"))
# An effect is handed its own card as ctx.self (engine.ctx). 侧边 and 叠放 act beside or on
# that card where it lies, on the battlefield or in an exploration column (rules.put_beside,
# stack_at): only a dungeon card lies there. A relic is held (equipment) and an event card
# resolved from the event deck, so from theirs these always fizzled (空发) and did nothing.
_ON_FIELD = Needs("the card whose effect it is, on the battlefield or in a column",
                  ("card_on_field",), "it would always fizzle here, changing nothing (a relic is "
                  "held, an event card resolved from its deck: never beside or in a column)")

CONTRACT = Contract(
    engine="dm_crawl_decks",
    events={
        "turn_start": "at the start of a turn, before the level is explored",
        "turn_end": "at the end of a turn",
        "pre_battle": "when a battle begins, before its first row",
        "before_round": "before each battle row is fought",
        "battle_round": "in each battle row, before the totals are compared",
        "victory": "when a row is won (event.total: your total)",
        "defeat": "when a row is lost (event.total: your total)",
        "post_battle": "after the last row of a battle",
        "sent_to_graveyard": "when a card goes to the graveyard",
        "discarded": "when a card is discarded",
        "acquired": "when a card is gained",
        "clean_up_loot": "at loot clean-up, after a battle",
        "long_rest": "when you take a long rest",
        "points_zero": "when a card's points reach 0",
        "descend": "when you descend a level",
    },
    kinds={
        "card": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "effect": runs("while the card is on the field; lasting effects end when it leaves",
                           *CONSTRUCTS, events=CARD_EVENTS),
            **reads("when cards are dealt, played and compared", "card_type", "points",
                    "power", "count"),
        },
        "event_card": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "effect": runs("when a general event is chosen, or a loot card at loot clean-up",
                           *EVENT_CARD_CONSTRUCTS),
            **reads("when the event deck is built and drawn", "card_type", "resource", "count"),
        },
        "relic": {
            **printed("after_use", on="the sheets: what happens to it after use"),
            "use": runs("when you use the relic in its window", *CONSTRUCTS,
                        events=RELIC_EVENTS),
            "passive": runs("when you gain the relic; what it registers lasts while you hold "
                            "it", *CONSTRUCTS, events=RELIC_EVENTS),
            **reads("when relics are gained and offered", "label", "identity", "window"),
            **built_in("once_per_rest", why="a relic's own effect says how often it works"),
        },
        "attribute": {
            **reads("at setup and when tokens are gained", "supply"),
            **built_in("order", why="the order of the attribute tracks on the sheets"),
        },
        "board": reads("at setup and whenever its limit applies", "hp", "hand_limit",
                       "hand_limit_per_tokens", "loot_limit", "brightness", "space",
                       "dl_start", "dl_max", "spare_capacity", "start_gold", "start_tokens",
                       "relic_draw", "relic_keep", "level_up_every", "descend_heal",
                       "time_battle", "time_short_rest", "time_long_rest"),
        "rule": {**built_in("value", "options",
                            why="each rule entity documents a decision the engine makes"),
                 **printed("sim_only", on="the sheets (the player edition leaves a simulator setting out)"),},
    },
    needs=(
        *(Need("attribute", a, why="the four attribute tracks (L13, L77)")
          for a in ("strength", "agility", "perception", "intelligence")),
        # a pack's fifth attribute has no track: refused at its id, to replace one of the four
        Need("attribute", at_least=4, at_most=4, why="the four attribute tracks (L13, L77)"),
        Need("board", at_least=1, at_most=1, why="the game is played with one set of board values"),
        Need("card", at_least=1, why="the dungeon deck"),
        Need("event_card", at_least=1, why="the event deck"),
    ),
    # Zones, stats, statuses, scopes and the attribute, side, position and card-type terms are
    # the engine's own: a pack's stat 'luck' stopped play at `self.luck += 1`, its attribute
    # 'charisma' at `gain_token charisma 1` (no such track), both with a clean check.
    site_context={"card.effect": ("card_on_field",)},
    context_needs={verb: _ON_FIELD for verb in ("put_beside", "summon_cards", "stack_at",
                                                "stack_top")},
    pack_names={
        "resources": "a resource is a count in your supply: gain and pay work for any (a relic's "
                     "label and a loot card's resource stay the five printed)",
    },
)
