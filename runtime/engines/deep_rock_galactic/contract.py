"""What Deep Rock Galactic's engine does with the content (see runtime/contract.py).

NOT ENFORCED YET: `CONTRACT` is None, so `tomecraft check` does not hold content to `DRAFT`.
Held to it, the base content would be refused at four triggers the engine never runs as
triggers, because it implements those items in code by id (issue 10, for the integrator):

- dwarf ability `sentry_gun` (`on monster_moved`) and `light_footed` (`on move_action`):
  actions.NATIVE_ABILITIES plays them natively; a new ability's `on monster_moved` /
  `on move_action` would never run;
- throwable `proximity_grenade` (`on monster_enters`): nothing fires it, so a thrown proximity
  grenade does nothing; `ifg_grenade` and `lure_grenade` (`on turn_start: discard_self`):
  nothing fires `turn_start` (discard_self is a no-op).

Besides, game.yaml declares 14 events no content uses and the engine never fires (turn_end,
event_phase, swarm, monster_activated, monster_placed, dwarf_enters, monster_attacks, killed,
damaged, attacked, mission_end, spawned, end_of_turn, mission_event): held to the draft, each is
TC-C001. They stay declared because tests/dsl/catalog/deep_rock_galactic.yaml parses inventory
effects written with them; the integrator decides (fire them, or drop them with those entries).

The engine makes a trigger run only when it runs an effect *for* that event
(`Engine.subscribe`: `ctx.info["fire"] == event`), which it does for `picked_up`, `struck`
(pickups) and `attack_rolled` (weapon upgrades). Once the engine fires `monster_moved`,
`move_action`, `monster_enters` and `turn_start` to the effects that hold them, add them to
`EVENTS` and to the fields' `events`, and set `CONTRACT = DRAFT`.
Everything else runs once, when it happens: `continuous` runs its body at once; `set`/`+=`
and `when` are not supported (the engine raises).
"""
from tomecraft.runtime.contract import Contract, Need, built_in, printed, reads, runs

EVENTS = {
    "picked_up": "when a dwarf picks up the pickup (its effect runs for this event)",
    "struck": "when a dwarf strikes the pickup with the pickaxe (its effect runs for this event)",
    "attack_rolled": "after a weapon with the upgrade rolls its attack dice",
}
ONCE = ("continuous",)

DRAFT = Contract(
    engine="deep_rock_galactic",
    events=EVENTS,
    kinds={
        "monster": {
            **reads("when monsters are placed, activated, attacked and killed", "creature",
                    "order", "hp", "attack_range", "move", "attack_dice", "attack_die",
                    "flying", "size", "resistances", "stun_immune", "blocks_line_of_sight",
                    "rear_ignores_resistance", "moves_toward", "attacks", "destroys_on_path",
                    "moves_then_attacks", "self_destructs", "hides_when_damaged",
                    "attack_places", "field_range", "field_reduction", "kill_reward"),
            "bang": runs("once, for each bang face its attack rolls", *ONCE),
            "teeth": runs("once, for each teeth face its attack rolls", *ONCE),
            "special": runs("once, after the monster activates", *ONCE),
            "on_kill": runs("once, when the monster is killed, from its space", *ONCE),
            **printed("after_use", on="the sheets"),
        },
        "board_token": reads("when tokens are placed, entered and looked through", "token",
                             "supply", "blocks_monster_movement", "blocks_line_of_sight",
                             "stops_movement_on_entry", "removed_on_entry", "damage_on_entry",
                             "affects_flying"),
        "weapon": {
            **reads("when a dwarf is equipped and fires", "dwarf", "slot", "default", "modes"),
            "overclocked": runs("once, when the overclocked weapon fires", *ONCE),
            **printed("overclocked_assign", on="the weapon cards"),
        },
        "throwable": {
            **reads("when a throwable is thrown", "range", "die", "dice", "area"),
            "effect": runs("once, where the throwable lands", *ONCE, "on", events=()),
            **printed("after_use", "delayed", on="the throwable cards"),
        },
        "dwarf": {
            **reads("at setup and when a dwarf acts", "health", "primary_ammo",
                    "secondary_ammo", "equipment"),
            "abilities": runs("once, as an action (the base abilities the engine plays natively "
                              "are listed in actions.NATIVE_ABILITIES)", *ONCE, "on", events=()),
            **printed("colour", on="the dwarf boards"),
        },
        "weapon_upgrade": {
            **reads("when a weapon is upgraded", "fits", "count", "ammo_cap"),
            "effect": runs("when the upgraded weapon fires", *ONCE, "on",
                           events=("attack_rolled",)),
            **printed("after_use", on="the sheets"),
        },
        "pickup": {
            **reads("when a pickup is placed and taken", "needs_pickaxe"),
            "effect": runs("when the pickup is picked up or struck", *ONCE, "on",
                           events=("picked_up", "struck")),
            **printed("after_use", "mission_item", on="the sheets"),
        },
        "mineral": {
            **reads("when minerals are placed, mined and carried", "carry_limit", "objective"),
            **printed("after_use", "colour", on="the sheets"),
        },
        "die": {
            **reads("when dice are rolled", "die", "faces"),
            **printed("colour", "damage_type", on="the dice reference"),
        },
        "hazard_level": {
            **reads("at setup", "threat_start", "extra_grunts_per_exit"),
            **printed("level", "grunt_bang_damage", on="the hazard reference"),
        },
        "event_card": {
            **reads("when the event deck is built and drawn", "deck", "event_kind", "count"),
            "effect": runs("once, when the card is drawn in the Event Phase", *ONCE),
            **printed("after_use", on="the sheets"),
        },
        "rock_and_stone_card": {
            **reads("when the deck is built", "count"),
            "effect": runs("once, when the card is played", *ONCE),
            **printed("after_use", on="the sheets"),
        },
        "supply_card": {
            **reads("when a supply card is used", "health", "ammo", "secondary_ammo", "count"),
            **printed("after_use", on="the sheets"),
        },
        "mission": {
            **reads("when the mission is set up (compiler/missions, game.py)", "objective",
                    "hazard", "minerals", "pickups", "remove_cards", "hidden_monsters",
                    "tokens", "drop_pod", "tunnel_exits", "mine_head", "stalagmites",
                    "mineral_spaces", "drones", "map"),
            "mission_event": runs("once, when the Mission Specific Event is drawn", *ONCE),
            **printed("number", on="the mission book"),
        },
        "rule": {
            **reads("at setup and whenever the rule applies", "value"),
            **built_in("options", "default_off", why="only the chosen value is played"),
        },
    },
    needs=(
        Need("hazard_level", at_least=1, why="a mission is played at a hazard level"),
        Need("dwarf", at_least=1, why="every seat plays a dwarf"),
    ),
)

CONTRACT = None     # not enforced until the events above are fired or dropped
# The triggers of the base content the draft refuses today (tests/compiler/test_contract.py).
NATIVE_TRIGGERS = (("dwarf", "sentry_gun", "monster_moved"), ("dwarf", "light_footed", "move_action"),
                   ("throwable", "ifg_grenade", "turn_start"),
                   ("throwable", "lure_grenade", "turn_start"),
                   ("throwable", "proximity_grenade", "monster_enters"))
