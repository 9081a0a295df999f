"""Dungeontology scenario set-up: the hand-built (or real) state a scenario file describes, and
the scripted agents that answer its steps (the keys are listed in scenario.py)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.agents import ScriptError, ScriptedAgent
from tomecraft.runtime.engines.dungeontology.engine import Engine, deal, new_state
from tomecraft.runtime.engines.dungeontology.scenario_checks import (
    GAME_SETUP_KEYS, SETUP_KEYS, SETUP_OPTIONS, check_box, check_colours, check_keys, check_regions,
    check_scholar_counts, check_setup_types, markers, position as _pos)
from tomecraft.runtime.engines.dungeontology.state import State, Scholar, Tile
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.scenario import ScenarioError
from tomecraft.runtime.scenario_shapes import (
    ANY, BOOL, COUNT, LOG_TEXT, NULL, POS, TEXT, WHOLE, counts, either, fixed, list_of, nullable, record, records, text)


class Decline:
    """The default for unscripted decisions: decline whatever can be declined."""

    def choose(self, key, options, view=None):
        for want in (None, False, {"do": "stay"}, {"do": "pass"}, {"card": None}):
            if want in options:
                return want
        return options[0]


class Script(ScriptedAgent):
    """A seat's scripted answers. A card is picked `{card: id}` wherever the engine asks for
    one (a stealth attempt's options carry it so); the questions whose options are bare card
    ids (discard_card, prophecy) take that form too, as well as the bare id. A scholar (an
    effect's target) is `{seat: n}`: a bare number answers a `choose` branch, and a script's
    [1] for a branch must not be used up by a target asked of nobody (one to pick)."""

    def matches(self, key, want, option) -> bool:
        if isinstance(option, str) and isinstance(want, dict) and set(want) == {"card"}:
            return want["card"] == option
        return super().matches(key, want, option)

    def choose(self, key, options, view=None):
        try:
            return super().choose(key, options, view)
        except ScriptError as err:
            if ":choose" not in key:
                raise
            raise ScriptError(f"{err} (an effect's `choose {{ a | b }}` is answered by the number "
                              "of its branch, 0 for the first written)") from None


def build(data, setup: dict) -> Engine:
    check_keys(setup, SETUP_KEYS, "setup")
    check_setup_types(setup)
    players = setup.get("players")
    if players is not None and players not in (2, 3, 4):
        raise ScenarioError(f"players {players}: Dungeontology is for 2-4 players")
    if setup.get("setup_game"):       # a real set-up reads only these: any other key would be ignored
        check_keys(setup, GAME_SETUP_KEYS, "setup (setup_game: true)")
        check_keys(setup.get("options") or {}, SETUP_OPTIONS, "setup options")
        sides = sorted({side.side for boss in data.kinds["boss"].values() for side in boss.sides})
        if (setup.get("options") or {}).get("boss_side", sides[0]) not in sides:
            raise ScenarioError(f"setup options boss_side: {setup['options']['boss_side']!r}; "
                                f"the bosses' sides are {', '.join(sides)}")
        rng = Rng(setup.get("seed", 1))
        st = new_state(data, setup.get("players", 4), rng, setup.get("options", {}))
        engine = Engine(data, st, [Script(fallback=Decline()) for _ in st.scholars], rng)
        deal(engine)
        return engine
    st = State(setup.get("players", len(setup.get("scholars", [])) or 2))
    regions = data.kinds["region"]
    start = next(r for r in regions.values() if r.start)
    listed = {spec["region"] for spec in setup.get("regions", [])}
    if start.id not in listed:
        st.tiles[(0, 0)] = Tile((0, 0), start, [], entered=True)
    check_regions(setup.get("regions", []), start.id)
    for i, spec in enumerate(setup.get("regions", [])):
        region = regions[spec["region"]]
        slots = list(spec["slots"]) if "slots" in spec else list(region.slots or ())
        check_colours(slots, f"setup.regions[{i}].slots ({region.id})", allow_empty=True)
        tile = Tile(_pos(spec.get("at", (0, 0))), region, slots, entered=spec.get("entered", True))
        tile.tokens = [data.get("token", t) for t in spec.get("tokens", [])]
        st.tiles[tile.pos] = tile
    for level, ids in (setup.get("stacks") or {}).items():
        if int(level) not in (1, 2, 3):
            raise ScenarioError(f"stacks: level {level}: the levels are 1, 2 and 3")
        placed = sorted(set(ids) & listed)
        if placed:
            raise ScenarioError(f"stacks: {placed} are placed regions too (each tile exists once)")
        st.stacks[int(level)] = [regions[i] for i in reversed(ids)]
    st.deck = [data.get("scheme_card", c).id for c in reversed(setup.get("deck", []))]
    st.discard = [data.get("scheme_card", c).id for c in setup.get("discard", [])]
    st.doom_deck = sorted(data.kinds["doom_card"])
    if "doom_deck" in setup:                 # drawn from the end: listed top first
        st.doom_deck = [data.get("doom_card", d).id for d in reversed(setup["doom_deck"])]
    else:                                    # a doom card a scholar holds is not in the deck (L176)
        held = {d for spec in setup.get("scholars") or [] for k in ("dooms", "dooms_hidden")
                for d in spec.get(k) or []}
        st.doom_deck = [d for d in st.doom_deck if d not in held]
    st.randomizer = [data.get("randomizer_card", c) for c in setup.get("randomizer", [])] or \
        sorted(data.kinds["randomizer_card"].values(), key=lambda c: c.id)
    st.traps = [data.get("token", t) for t in setup.get("traps", [])]
    st.bag = Counter(setup.get("bag", {"normal": 10, "omega": 1}))
    if set(st.bag) - {"normal", "omega"}:
        raise ScenarioError(f"bag: unknown key(s) {sorted(set(st.bag) - {'normal', 'omega'})} (normal, omega)")
    st.bonfire = setup.get("bonfire", 0)
    st.reserve_students = setup.get("reserve_students", 30)
    st.reserve_omega = setup.get("reserve_omega", 4)
    for block in data.kinds["info_block"].values():
        st.reserve_blocks[block.colour] = block.count
    st.alert_card = data.get("alert_card", setup.get("alert_card", "alert_standard"))
    st.alert_filled = setup.get("alert_filled", 0)
    if not 0 <= st.alert_filled <= len(st.alert_card.rows):
        raise ScenarioError(f"alert_filled {st.alert_filled}: {st.alert_card.id} has "
                            f"{len(st.alert_card.rows)} omega slots")
    st.clan = data.get("clan_card", setup.get("clan", "clan_hunters"))
    st.panic = data.get("panic_card", setup.get("panic", "panic_general"))
    boss = data.get("boss", setup["boss"]) if "boss" in setup else next(iter(data.kinds["boss"].values()))
    side = setup.get("boss_side", "aggressive")
    st.boss = next((s for s in boss.sides if s.side == side), None)
    if st.boss is None:
        raise ScenarioError(f"boss_side {side!r}: {boss.id} has {[s.side for s in boss.sides]}")
    st.max_alert = st.panic_revealed = bool(setup.get("max_alert", False))
    tile_of = {t.id: t.pos for t in st.tiles.values()}
    if setup.get("boss_at"):
        if setup["boss_at"] not in tile_of:      # else a KeyError read as an unknown id
            raise ScenarioError(f"boss_at {setup['boss_at']!r}: no such region is placed "
                                f"(list it under regions); placed: {sorted(tile_of)}")
        st.boss_pos = tile_of[setup["boss_at"]]
    st.walls, st.stairs = markers(setup, "walls", tile_of), markers(setup, "stairs", tile_of)
    for seat, spec in enumerate(setup.get("scholars", [])):
        if spec.get("at") is not None and spec["at"] not in tile_of:
            raise ScenarioError(f"setup.scholars[{seat}].at: {spec['at']!r}: no such region is placed "
                                f"(list it under regions); placed: {sorted(tile_of)}")
        check_colours(list(spec.get("notebook", {})), f"setup.scholars[{seat}].notebook")
        s = Scholar(seat, data.get("scholar", spec["scholar"]), tile_of.get(spec.get("at"), (0, 0)))
        if not st.tiles[s.pos].entered:          # L779-786: a scholar reaches a region by entering it
            raise ScenarioError(f"setup.scholars[{seat}].at: {spec['at']} is set up `entered: false`, yet "
                                f"scholar {seat} stands there (a scholar reaches a region by entering "
                                f"it, L779-786)")
        s.side = spec.get("side", "standard")
        if s.side not in [side.side for side in s.card.sides]:
            raise ScenarioError(f"setup.scholars[{seat}].side: {s.side!r}: {[side.side for side in s.card.sides]}")
        s.students = spec.get("students", 0)
        s.stun = spec.get("stun", 0)
        s.hand = list(spec.get("hand", []))
        s.notebook = Counter(spec.get("notebook", {}))
        s.lore = bool(spec.get("lore", False))
        # ids are looked up so that a misspelt card is a setup error, not a silent pass
        s.hand = [data.get("scheme_card", c).id for c in spec.get("hand", [])]
        s.dooms_hidden = [data.get("doom_card", d).id for d in spec.get("dooms_hidden", [])]
        s.dooms = [data.get("doom_card", d).id for d in spec.get("dooms", [])]
        s.steps = spec.get("steps", 0)
        for intern in spec.get("interns", []):
            if data.get("intern_card", intern).id in st.interns:
                raise ScenarioError(f"intern {intern!r} is listed twice (each intern card exists once)")
            st.interns[data.get("intern_card", intern).id] = seat
        st.scholars.append(s)
    if not 2 <= len(st.scholars) <= 4 or players not in (None, len(st.scholars)):
        raise ScenarioError(f"setup needs 2-4 scholars: [{{scholar: id, ...}}, ...], as many as players "
                            f"(players {players}, {len(st.scholars)} scholars)")
    cards = [s.card.id for s in st.scholars]
    if len(set(cards)) < len(cards):
        raise ScenarioError(f"scholars {cards}: each scholar card exists once")
    agents = [Script(fallback=Decline()) for _ in st.scholars]
    engine = Engine(data, st, agents, Rng(setup.get("seed", 1)))
    _unlisted_supplies(data, st, setup)
    engine.fixed_randomizer = "randomizer" in setup
    if "notebook" in setup:                 # the layout every scholar's notebook follows
        engine.notebook = data.get("notebook", setup["notebook"])
        engine.columns = {c.colour: c for c in engine.notebook.columns}
        engine._marks, engine._columns = {}, {}      # read from the notebook (Campus)
    _sides_from_stars(engine, setup.get("scholars", []))
    check_scholar_counts(engine)            # against the side the scholar is on
    check_box(data, st, setup)
    return engine


def _unlisted_supplies(data, st: State, setup: dict) -> None:
    """What the set-up does not list holds what the box has left (L165-180, L838-842): the scheme
    deck is every card not in a hand or the discard pile, shuffled by the seed (a hand-built
    state once had an empty deck, so an end of turn drew nothing); the reserve keeps the blocks
    no notebook or region holds, and the students and omegas not in the bag, the bonfire, a
    scholar's hands or on the alert card (40 and 5)."""
    if "deck" not in setup:
        left = Counter({c.id: c.count for c in data.kinds["scheme_card"].values()})
        left.subtract(Counter([c for s in st.scholars for c in s.hand] + st.discard))
        st.deck = sorted(left.elements())
        Rng(setup.get("seed", 1)).shuffle(st.deck)
    for colour in st.reserve_blocks:
        held = sum(s.notebook[colour] for s in st.scholars)
        held += sum(t.slots.count(colour) for t in st.tiles.values())
        st.reserve_blocks[colour] = max(0, st.reserve_blocks[colour] - held)
    if "reserve_students" not in setup:
        held = st.bag["normal"] + st.bonfire + sum(s.students for s in st.scholars)
        st.reserve_students = max(0, 40 - held)
    if "reserve_omega" not in setup:
        st.reserve_omega = max(0, 5 - st.bag["omega"] - st.alert_filled)


def _sides_from_stars(engine, specs: list) -> None:
    """A scholar whose side the set-up does not name is on the side his stars give him: excited
    while another scholar has more stars (L345-347), as play keeps it after every change."""
    stars = [engine.stars(s) for s in engine.state.scholars]
    for s, spec, n in zip(engine.state.scholars, specs, stars):
        if "side" not in spec and n < max(stars):
            s.side = "excited"


# The shapes of the values (runtime/scenario_shapes.py checks them first, at their lines):
# `log: []` looked for the text "[]", `choose: 3` failed unread, a move's `to: [1, 0]` was
# "not legal; []".
_IDS = list_of(TEXT, "a list of ids")
_PAIRS = list_of(fixed(TEXT, TEXT, wants="[region, region]"), "a list of [region, region] pairs")
_SCHOLAR = {"scholar": TEXT, "side": TEXT, "at": TEXT, "students": COUNT, "stun": COUNT, "steps": COUNT,
            "hand": _IDS, "notebook": counts("a mapping of colours to counts ({military: 2})"),
            "interns": _IDS, "dooms": _IDS, "dooms_hidden": _IDS}
_REGION = {"region": TEXT, "at": POS, "slots": list_of(nullable(TEXT), "a list of colours (or null)"),
           "tokens": _IDS}
SHAPES = {
    "setup": {**{k: COUNT for k in ("players", "alert_filled", "bonfire", "reserve_students",
                                    "reserve_omega")}, "seed": WHOLE,
              **{k: TEXT for k in ("alert_card", "boss", "boss_at", "boss_side", "clan", "panic",
                                   "notebook")},
              **{k: _IDS for k in ("deck", "discard", "doom_deck", "randomizer", "traps")},
              "bag": counts("a mapping {normal: n, omega: n}"),
              "stacks": counts("a mapping of stacks 1, 2, 3 to region ids ({1: [gaias_stele]})", _IDS),
              "walls": _PAIRS, "stairs": _PAIRS, "regions": records(_REGION), "scholars": records(_SCHOLAR),
              "options": record({"alert": TEXT, "boss": TEXT, "boss_side": TEXT})},
    "steps": {**{k: COUNT for k in ("seat", "blocks", "target", "steps", "n")},
              "to": text("a region id"), "region": text("a region id"),
              **{k: TEXT for k in ("card", "part", "colour", "id", "side")},
              "in_place": BOOL, "option": record({}, "an option ({do: ...})"),
              "choose_for": counts("a mapping of seats to answer lists ({1: [...]})",
                                   list_of(ANY, "a list of answers, in order"))},
    "expect": {**{k: COUNT for k in ("scholar", "seat", "stun", "students", "hand_size", "steps", "stars",
                                     "actions", "research_bonus")},
               "score": WHOLE, "clan_score": WHOLE, "region": TEXT, "side": TEXT, "boss": TEXT,
               "options": TEXT, "none_of": TEXT, "hand": _IDS, "tokens": _IDS,
               "notebook": counts("a mapping of colours to counts ({military: 2})"),
               **{k: BOOL for k in ("lore", "done", "present", "absent")}, "at": POS,
               "stairs": fixed(TEXT, TEXT, wants="[region, region]"),
               "wall": fixed(TEXT, TEXT, wants="[region, region]"),
               "winners": list_of(COUNT, "a list of seats ([0])"),
               "final_scores": list_of(WHOLE, "a list of scores, one per seat"),
               "log_order": list_of(LOG_TEXT, "a list of texts, in log order"),
               "stats": counts("a mapping of counters to counts ({rests: 1})", WHOLE),
               "option": record({}, "an option ({do: ...})"),
               # `bonfire: false`, `max_alert: 0`, `ok: 1` compared equal to 0, false, true and passed
               "campus": record({**{k: COUNT for k in ("bonfire", "reserve_students", "reserve_omega",
                                                       "alert_filled", "first")},
                                 "research_penalty": WHOLE, "max_alert": BOOL, "panic_revealed": BOOL,
                                 "ended": either(BOOL, TEXT, NULL, wants="true, false, the reason or null"),
                                 **{k: nullable(TEXT) for k in ("alert_card", "boss_card", "panic_card",
                                                                "clan_card", "notebook")},
                                 "bag": counts("a mapping {normal: n, omega: n}"),
                                 "reserve_blocks": counts("a mapping of colours to counts ({faith: 2})")},
                                "a mapping of campus values ({bonfire: 1, bag: {normal: 9}})"),
               "attempt": record({"stealth": WHOLE, "alert": WHOLE, "ok": BOOL, "kind": TEXT, "by": COUNT,
                                  "cards": _IDS}, "a mapping {stealth, alert, ok, kind, by, cards}")},
}
