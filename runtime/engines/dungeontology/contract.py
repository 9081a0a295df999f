"""What Dungeontology's engine does with the content (see runtime/contract.py).

Two kinds of effect. Lasting ones are made of `on EVENT` triggers the engine collects whenever
an event comes: a region's effects (and the tokens on it) while a scholar stands there, and a
scholar's passive skills, owned interns and revealed doom cards while the scholar has them.
Everything else runs once, when it happens (scheme cards, action skills, boss texts, the panic
card, a doom card's reveal), and can hold no lasting construct: a keyword such as Lucky written
on a scheme card is refused by `check`. `set`/`+=` works inside a trigger, on the event's
fields and on the stealth and alert values of the attempt in progress.
"""
from tomecraft.runtime.contract import (NOTHING, Contract, Need, Needs, built_in, keys, printed,
                                        reads, runs)

EVENTS = {
    "enter_region": "when a scholar enters a region, after a waiting trap springs (L779-786)",
    "first_enter": "when the first scholar enters a region (Stairs, L864)",
    "movement": "when a scholar's moves are listed: secret passages offer their moves (L832)",
    "region_action": "in the action phase: the region's action is offered as the action (L907)",
    "stealth_value": "after a research or spy has summed its cards' bonus values (L922-923)",
    "stealth_failed": "when a stealth attempt fails, before the stun and the University draw",
    "card_played": "when a scheme card is played for its bonus value: discarded in a stealth "
                   "attempt (L922, L1011; a Fate card's central value too, L462), never when "
                   "played for its main or auxiliary effect (L210)",
    "spy_alert": "when a spy's alert value is computed, before the cards (L955-960)",
    "rival_stealth_value": "to each opponent, clockwise, after a scholar's stealth value",
    "action_phase": "at the start of the scholar's action phase",
    "turn_end": "in the end-of-turn phase, after doom cards are revealed (L1082-1102)",
    "rest_phase": "in a rest phase, after steps 1-5 and before the turn ends (L640-650)",
    "block_loss": "when a block would be lost (not given), before protection is asked (L1030)",
    "star_gained": "when a new block uncovers a star in its owner's notebook (L392)",
    "final_scoring": "once at the end, to each scholar in seat order, before the scores (L1172)",
}

# Which owner hears which event: regions (and their tokens) hear the events of the scholar in
# them; a scholar's lasting effects hear the scholar's own events.
REGION_EVENTS = ("enter_region", "first_enter", "movement", "region_action", "stealth_value",
                 "stealth_failed")
SCHOLAR_EVENTS = ("stealth_value", "stealth_failed", "card_played", "spy_alert",
                  "rival_stealth_value", "action_phase", "turn_end", "rest_phase", "block_loss",
                  "star_gained", "final_scoring")
LASTING = ("on", "set")
# The rule entities whose value the engine reads; the others document decisions it has built in,
# so a pack may not set their value (compiler/game_checks/dungeontology.py).
READ_RULES = ("c2_caste_column", "g13_penalty_after_panic", "g29_refill_short_reserve")   # read with the base default
# What play hands an effect besides its scholar (engine.ctx): the region tile concerned as
# ctx.self to a region's and a token's effects, a scheme card's (the player's region) and a
# doom card's reveal; a skill, an intern's or a doom card's lasting effect get the scholar
# (triggers.skill_triggers), the panic card nothing: `place_stairs` there stopped the sim
# ('Scholar' object has no attribute 'level'). Some verbs are read by the engine only while
# it runs the triggers of one event: `refuse_loss` in `on block_loss` (campus.loss_refused),
# `forbid_entry` in `on enter_region` (dungeon.can_enter), `use_secret_passage` in
# `on movement` (dungeon.passage_letters); anywhere else they changed nothing.
REGION_CONTEXT = ("region",)
SITE_CONTEXT = {site: REGION_CONTEXT for site in ("region.effects", "token.effect",
                                                   "scheme_card.main", "scheme_card.auxiliary",
                                                   "doom_card.on_reveal")}
EVENT_CONTEXT = {"block_loss": ("block_loss",), "enter_region": ("entering",),
                 "movement": ("movement",)}
CONTEXT_NEEDS = {
    "place_stairs": Needs("the region tile the stairs lead from", REGION_CONTEXT),
    "refuse_loss": Needs("the block being lost", ("block_loss",), NOTHING),
    "forbid_entry": Needs("the region being entered", ("entering",), NOTHING),
    "use_secret_passage": Needs("the moves being listed from the region", ("movement",),
                                NOTHING),
}
OWNED = "while its owner has it: its triggers hear the owner's events"

CONTRACT = Contract(
    engine="dungeontology",
    events=EVENTS,
    site_context=SITE_CONTEXT,
    event_context=EVENT_CONTEXT,
    context_needs=CONTEXT_NEEDS,
    kinds={
        "region": {
            "effects": runs("while a scholar is in the region: its triggers hear that scholar's "
                            "events", *LASTING, events=REGION_EVENTS),
            **reads("when regions are drawn, placed, entered and researched", "level", "start",
                    "alert", "slots", "passages", "doors"),
            **printed("number", on="the region tiles"),
        },
        "scholar": {
            # read after "the engine runs this effect ": it read "runs this effect passive
            # skills while its owner has it" (eighth packs blind test)
            "sides": runs("for a passive skill, " + OWNED + "; for an action skill, once, as "
                          "the action (only passive skills may hold triggers)", *LASTING,
                          events=SCHOLAR_EVENTS),
            **reads("at setup and whenever the notebook changes", "lore_bonus"),
            **printed("title", on="the scholar cards"),
        },
        "boss": {
            "sides": runs("once, when the boss is discovered, activated or meets a scholar"),
        },
        "notebook": reads("whenever blocks are scored, stars and research bonuses counted",
                          "capacity", "columns"),
        "info_block": {
            **keys("at setup and when a spy's alert is computed: a notebook column's block "
                   "by its colour", "colour"),
            **reads("at setup and when a spy's alert is computed", "count", "unit_value"),
            **printed("hue", on="the sheets"),
        },
        "alert_card": reads("at setup and when the bag is filled and research penalties "
                            "computed", "normal_per_player", "omega", "research_penalty_before",
                            "rows"),
        "panic_card": {
            "effect": runs("once, when Maximum Alert reveals the panic card"),
            **reads("at setup, to pick the panic card", "boss", "infinite_omega"),
        },
        "clan_card": {
            **reads("when a thesis is submitted and the game is scored", "target", "modifiers"),
            **printed("after_use", on="the sheets: the clan card goes back to the campus"),
        },
        "randomizer_card": {
            **reads("when a randomizer card is revealed", "direction", "colour", "info",
                    "triangle"),
            **printed("exit", on="the randomizer cards (tiles have one passage per side, "
                      "rule c14, so the exit only names it)"),
        },
        "scheme_card": {
            "main": runs("once, when the card is played and resolved"),
            "auxiliary": runs("once, when its auxiliary effect is played"),
            **reads("when the deck is built and cards are played", "card_type", "bonus",
                    "fate_bonus", "action", "timing", "intern", "count"),
            **printed("after_use", on="the sheets: a played card is discarded"),
        },
        "doom_card": {
            "on_reveal": runs("once, when the doom card is revealed at the end of the turn"),
            "effect": runs(OWNED + ", until a rest phase removes it", *LASTING,
                           events=SCHOLAR_EVENTS),
            **reads("when the game is scored", "penalty"),
            **printed("after_use", on="the sheets: a rest phase removes it"),
        },
        "intern_card": {
            "effect": runs(OWNED, *LASTING, events=SCHOLAR_EVENTS),
            **reads("when blocks would be lost and when the game is scored", "colours",
                    "end_bonus"),
            **printed("after_use", on="the sheets: an intern stays until taken"),
        },
        "token": {
            "effect": runs("while the token lies on a region (a trap: once, when a scholar "
                           "enters)", *LASTING, events=REGION_EVENTS),
            **reads("at setup and when tokens are placed", "token", "count"),
            **printed("after_use", on="the sheets: traps are discarded once sprung"),
        },
        "rule": {
            **reads("whenever the rule applies: " + ", ".join(READ_RULES) + " (the other "
                    "rules document decisions the engine has built in: only the base game "
                    "states them)", "value"),
            **built_in("options", why="only the chosen value is played"),
            **printed("sim_only", on="the sheets (the player edition leaves a simulator setting out)"),
        },
    },
    read_ids={"rule": READ_RULES},
    inert_verbs={"flip_trap": "a trap token springs by itself when a scholar enters its region "
                              "(Engine.enter, L779-786, L860)"},
    needs=(
        Need("scholar", at_least=4, why="every seat of a 4-player game plays a scholar (L261)"),
        Need("notebook", at_least=1, at_most=1, why="every scholar writes in the one notebook layout"),
        *(Need("info_block", colour, why="the notebook has a column of this colour (L838-842)")
          for colour in ("civilization", "military", "faith", "wealth", "caste")),
        Need("alert_card", at_least=1, why="the alert card fills the University bag (L288)"),
        Need("boss", at_least=1, why="a boss is chosen at setup (L278)"),
        Need("panic_card", at_least=1, why="a panic card is dealt at setup (L270)"),
        Need("clan_card", at_least=1, why="a clan card is dealt at setup (L272)"),
        Need("randomizer_card", at_least=1, why="the randomizer picks the first player (L263)"),
        Need("scheme_card", at_least=1, why="every scholar draws a starting hand (L265)"),
    ),
    # Resources, stats, statuses, zones and scopes are the engine's own, and so are the
    # randomizer's directions and the seats' colours: a new direction stopped set-up.
    pack_names={
        "terms.card_type": "a scheme card of the type is dealt, played and discarded like any; "
                           "effects count it by type",
        "terms.colour": "a colour is a notebook column's: an info block of the colour (its key) "
                        "and the notebook's column give its blocks",
        "terms.passage_letter": "a token whose effect is `secret_passage` with the letter links "
                                "the regions that hold one",
        "terms.region_token": "tokens of the type are laid out from their count and placed by "
                              "place_token",
    },
)
