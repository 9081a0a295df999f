"""What Deep Rock Galactic's engine does with the content (see runtime/contract.py).

Every event game.yaml declares is fired at its rulebook moment (`Engine.emit`; triggers.py
says who hears it). An effect holds triggers where it lasts: a class ability (a `passive`
one from setup, the Sentry Gun once deployed), a thrown throwable where it lands (until
`discard_self`); a pickup's and a weapon upgrade's effect runs for its one event. Every
other effect field runs once, when it happens: `continuous` runs its body at once;
`set`/`+=`, `when` and `during` are not supported.
"""
from tomecraft.runtime.contract import Contract, Need, Use, built_in, keys, printed, reads, runs

EVENTS = {
    "turn_start": "at the start of a dwarf's turn, to that dwarf's triggers (L270-278; IFG, LURE: L1351-1353)",
    "turn_end": "when a dwarf's turn ends, after its Event Phase (L270-278), to that dwarf's triggers",
    "event_phase": "at the start of a dwarf's Event Phase, before the card is drawn (L858-862)",
    "swarm": "when a Swarm comes, before its cards are drawn (L886-895)",
    "monster_activated": "when a monster activates (not a stunned one, which skips it: L964-1002)",
    "monster_placed": "when a monster is placed on the map (spawns, L870-885)",
    "monster_moved": "when a monster moves into a space (each space it enters, L976-996)",
    "monster_enters": "when a monster enters the space an effect lies on (Proximity Grenade, L1355)",
    "dwarf_enters": "when a dwarf enters the space an effect lies on (L300-380)",
    "monster_attacks": "when a monster attacks a dwarf, before its dice are rolled (L998-1002)",
    "killed": "when a monster is killed, after its own on-kill effect",
    "damaged": "when a monster loses HP",
    "attacked": "when a dwarf's attack reaches a monster, before resistance (L458-478)",
    "move_action": "after a dwarf's Move action, to that dwarf's triggers (Light-Footed, L812-820)",
    "picked_up": "when a dwarf picks up a pickup (its effect runs for this event; L356, L360)",
    "struck": "when a dwarf strikes a pickup with the pickaxe (its effect runs for it; L528-540)",
    "mission_end": "when the mission ends, in success or failure (L1281-1297)",
    "mission_event": "when the Mission Specific Event is drawn, after the mission's effect (L896)",
    "attack_rolled": "after a dwarf's weapon rolls its attack dice (an installed upgrade runs for it)",
}
# A trigger of an effect that does not lie on a space (a passive ability) never hears these.
SPACE_EVENTS = ("monster_enters", "dwarf_enters")
ONCE = ("continuous",)

# The base classes' abilities the engine carries out as its own actions (their effect text is
# printed on the boards, not run; the Sentry Gun's and passive abilities' effects do run). A
# pack that changes one of these effects is refused (compiler/game_checks): it would print
# the change and play the rulebook's ability.
NATIVE_ABILITIES = {"sentry_gun": "sentry", "platform_gun": "platforms", "zipline_launcher": "zipline",
                    "shield_generator": "shield", "power_drill": "move", "drill_attack": "attack",
                    "grappling_hook": "move", "flare_shot": "flare"}
RUN_NATIVE_ABILITIES = ("sentry_gun",)
# What an effect is handed, by where it stands (verbs.py reads it): `you`, the acting dwarf;
# `at`, the space it acts at; `origin`, the centre of its area; `target_obj`, the creature a shot
# or a throw is aimed at; `target`, a monster bound as the target; `dwarf_target`, a dwarf bound
# as the target; `self`, the monster whose effect it is. Every effect has its dwarf but those of
# NO_DWARF (a monster's special: monsters.py runs it with none). A thrown card gets its landing
# space and aim (equipment.throw), a killed monster's on_kill its space (combat.py), a shot its
# target (combat.fire, actions.py), the Sentry Gun's ability the sentry's space
# (equipment.sentry), a monster's die faces the dwarf it attacks (combat.py). Every other effect
# gets its dwarf only: an event or Rock and Stone card, a pickup, an upgrade. Inside an effect, a
# `target` block binds a target (a dwarf's or a monster's by its selector), `each` binds `it`
# (a dwarf as `dwarf_it`; `each player` makes it `you`), a trigger on an event of IT_EVENTS
# binds what it happened to (the dwarf of DWARF_IT_EVENTS), a trigger of an effect with `at` is
# handed it as `origin` too, and `on struck` the struck space as `at` (triggers.py).
# compiler/game_checks/drg_spaces.py refuses a verb of CONTEXT_VERBS, and a query of
# CONTEXT_QUERIES, where it has none.
SITE_CONTEXT = {"throwable.effect": ("at", "origin", "target_obj"),
                "monster.on_kill": ("origin", "self"), "monster.special": ("self",),
                "monster.bang": ("dwarf_target", "self"), "monster.teeth": ("dwarf_target", "self"),
                "weapon.modes": ("target_obj",), "weapon.overclocked": ("target_obj",),
                **{f"dwarf.abilities.{a}": ("at",) for a in RUN_NATIVE_ABILITIES}}
NO_DWARF = ("monster.special",)
IT_EVENTS = ("monster_activated", "monster_placed", "monster_moved", "monster_enters",
             "dwarf_enters", "monster_attacks", "killed", "damaged", "attacked")
DWARF_IT_EVENTS = ("dwarf_enters",)
# verb -> (what it acts on, in words; what it can act on; what play does without it).
# `place flame` also goes round a shot's target (Flaming Ground, L790-808); a monster's own
# `deal` is its blast (the Exploder, L1087). `push`, `scare` and `deal` move or hurt monsters
# only: a dwarf target (a monster's bang or teeth) is not one. `pay` and `gain` need the dwarf
# only for a dwarf's own resources (DWARF_RESOURCES; without one, `pay` is never met and
# `gain` puts ammo in the team's supply).
_STOPS, _NOTHING = "the sim would stop here", "it would change nothing"
_DWARF = "the acting dwarf"
CONTEXT_VERBS = {"place": ("a space", ("at", "origin"), _STOPS),
                 "destroy": ("the area around a space", ("origin",), _STOPS),
                 "retrieve": ("the area around a space", ("origin",), _STOPS),
                 "forbid_move": ("the area around a space", ("origin",), _NOTHING),
                 "deal": ("a target monster", ("target", "self"), _NOTHING),
                 "deal_ignoring_resistance": ("a target monster", ("target",), _NOTHING),
                 "push": ("a target monster", ("target",), _NOTHING),
                 "scare": ("a target monster", ("target", "target_obj"), _NOTHING),
                 "place_around_target": ("a target creature", ("target", "dwarf_target", "dwarf_it"), _NOTHING),
                 "inflict": ("a target creature", ("target", "dwarf_target", "dwarf_it"), _NOTHING),
                 "raise_shield": ("a space or " + _DWARF, ("at", "origin", "you"), _STOPS),
                 **{verb: (_DWARF, ("you",), _NOTHING) for verb in ("move", "attack", "become", "pay", "gain")},
                 # the innermost dwarf bound (verbs.Verbs._dwarf, state.subject), else `you`
                 **{verb: (_DWARF + ", a target dwarf or each dwarf", ("you", "dwarf_target", "dwarf_it"), _NOTHING)
                    for verb in ("take_damage", "heal", "draw_rock_and_stone", "draw_throwable",
                                 "draw_event", "overclock", "revive")}}
# query -> (what it measures from, in words; what it can measure from; what play answers
# without it). `in_range` measures from the shooter (an effect's `from`, else the acting dwarf)
# or its area's centre (`origin`), `line_of_sight` from the shooter, `adjacent` from the acting
# dwarf (queries.py): in a monster's special, with no dwarf, they were always false.
_FALSE = "it is always false"
# The queries of a creature (queries.py) read the acting monster (`self`) or the monster an
# effect is about (`target`): a mission event or an event card asking `flying()`,
# `size()`, `dwarf_in_range()` or `distance_to_monster()` was clean in check and stopped the sim
# at its first draw ("'NoneType' object has no attribute 'kind'").
_READS_NONE = "the sim would stop here (it reads no monster)"
CONTEXT_QUERIES = {"in_range": (_DWARF + " or an area's centre", ("you", "origin"), _FALSE),
                   "line_of_sight": (_DWARF, ("you", "origin"), _FALSE),
                   "adjacent": (_DWARF, ("you",), _FALSE),
                   "distance_to_monster": ("the acting monster", ("self",), _READS_NONE),
                   "dwarf_in_range": ("the acting monster", ("self",), _READS_NONE),
                   "flying": ("a target monster, else the acting one", ("target", "self"), _READS_NONE),
                   "size": ("a target monster", ("target",), _READS_NONE)}
DWARF_RESOURCES = ("actions", "ammo", "secondary_ammo")
# What `sim --usage` must not count as an effect to run (runtime/usage.py).
NATIVE_RECORDS = tuple(sorted(set(NATIVE_ABILITIES) - set(RUN_NATIVE_ABILITIES)))

# The rules whose values play reads (engine.rules[...]); the others are documentation.
READ_RULES = ("deep_dive_upgrade_rate", "g11_track_length", "g13_pickaxe_dice",
              "hidden_segment_pool", "upgrades_per_hidden_segment",
              "v18_pickups_per_hidden_segment")

_COUNT = {"type": "integer", "minimum": 0}
_AT_LEAST_1 = {"type": "integer", "minimum": 1}
# What play can use of each read rule's value (engine.py, mission_setup.py, deep_dive.py).
RULE_VALUES = {
    "deep_dive_upgrade_rate": _COUNT, "upgrades_per_hidden_segment": _COUNT,
    "v18_pickups_per_hidden_segment": _COUNT, "g13_pickaxe_dice": _AT_LEAST_1,
    "g11_track_length": {"type": "object", "required": ["squares", "swarm_squares"],
                         "properties": {"squares": _AT_LEAST_1,
                                        "swarm_squares": {"type": "array", "items": _AT_LEAST_1}}},
    "hidden_segment_pool": {"type": "array", "items": {
        "type": "object", "required": ["tile", "upgrades"],
        "properties": {"tile": {"type": "string"}, "upgrades": _COUNT}}},
}

CONTRACT = Contract(
    engine="deep_rock_galactic",
    events=EVENTS,
    kinds={
        "monster": {
            "creature": Use("when a monster is spawned: the creature term names its monster",
                            key=True, found="stops"),
            **reads("when monsters are placed, activated, attacked and killed",
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
        "board_token": {
            **keys("when tokens are placed, entered and looked through: by its term", "token"),
            **reads("when tokens are placed, entered and looked through", "supply", "moved_when_out",
                    "blocks_monster_movement", "blocks_line_of_sight", "stops_movement_on_entry",
                    "removed_on_entry", "damage_on_entry", "affects_flying"),
        },
        "weapon": {
            **reads("when a dwarf is equipped and fires", "dwarf", "slot", "default", "modes"),
            "overclocked": runs("once, when the overclocked weapon fires", *ONCE),
            **printed("overclocked_assign", on="the weapon cards"),
        },
        "throwable": {
            **reads("when a throwable is thrown", "range", "area", "delayed"),
            "effect": runs("once, where the throwable lands; its triggers lie there, heard until "
                           "it discards itself", *ONCE, "on"),
            **printed("after_use", "die", "dice", on="the throwable cards (its effect rolls)"),
        },
        "dwarf": {
            **reads("at setup and when a dwarf acts", "health", "primary_ammo",
                    "secondary_ammo", "equipment"),
            "abilities": runs("as the class's actions (the Sentry Gun action runs its effect); a "
                              "`passive` ability at setup, its triggers heard all mission",
                              *ONCE, "on", events=[e for e in EVENTS if e not in SPACE_EVENTS]),
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
            **reads("when minerals are placed, mined and carried", "carry_limit"),
            **printed("after_use", "colour", "objective", on="the sheets (a mission's objective is its own)"),
        },
        "die": {
            **keys("when dice are rolled: a die by its term", "die", found="stops"),
            **reads("when dice are rolled", "faces"),
            **printed("colour", "damage_type", on="the dice reference"),
        },
        "hazard_level": {
            **keys("when a mission is set up at a hazard level: by its level", "level"),
            **reads("at setup", "threat_start", "extra_grunts_per_exit"),
            **printed("grunt_bang_damage", on="the hazard reference"),
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
            **reads("at setup and whenever the rule applies: " + ", ".join(READ_RULES) + " (the "
                    "other rules document decisions the engine has built in: only the base game "
                    "states them)", "value"),
            **built_in("options", "default_off", why="only the chosen value is played"),
            **printed("sim_only", on="the sheets (the player edition leaves a simulator setting out)"),
        },
    },
    read_ids={"rule": READ_RULES},
    rule_values=RULE_VALUES,
    needs=(
        *(Need("rule", r, why="the engine reads its value") for r in READ_RULES),
        Need("hazard_level", at_least=1, why="a mission is played at a hazard level"),
        Need("dwarf", at_least=1, why="every seat plays a dwarf"),
        *(Need("die", id=die, why="the engine and the effects roll it by its term")
          for die in ("bullet", "armor_piercing", "fire", "explosive", "pickaxe", "monster", "mineral")),
    ),
    # A dwarf's stats are the engine's own fields (a pack's stat 'armor' stopped play at
    # `you.armor`), selectors ignore zones, `once per` knows the game's five scopes, `destroy`
    # clears walls and stalagmites only, and maps, map marks and Hazard levels come from the
    # mission book: a new zone, stat, scope, terrain, map mark or Hazard term did nothing or
    # stopped play, with a clean check.
    pack_names={
        "resources": "a resource is a count in the Shared Supply (carried to the Mine Head on "
                     "such missions): gain, pay, deposit and a mission's objective work for any",
        "statuses": "a status is a mark on a dwarf or monster: inflict and become set it, "
                    "has_status reads it, remove_status clears it (play gives it no rule of "
                    "its own)",
        "terms.board_token": "a board token entity with the term (its key) is placed, entered "
                             "and looked through from its fields",
        "terms.creature": "a monster entity with the term (its key) is spawned and played from "
                          "its fields",
        "terms.damage_type": "a die of the type and `deal TYPE N` deal it; a monster's "
                             "resistances may name it",
        "terms.die": "a die entity with the term (its key) is rolled from its faces",
        "terms.face": "a die's faces may show it; faces(roll, face) counts it",
    },
    # a monster in play is its damage taken (its hp is on its card: state.Monster), a dwarf
    # its health and ammo left (state.Dwarf)
    attributes={"monster": frozenset({"damage"}),
                "dwarf": frozenset({"health", "ammo", "secondary_ammo", "actions"})},
)
