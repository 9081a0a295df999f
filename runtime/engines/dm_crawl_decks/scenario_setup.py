"""Crawl Decks scenario files: what a setup may say. A misspelt key, a card in a pile it
cannot be in, or a state the rules cannot reach is refused by name: ignored, it would set up
a different game than the tester wrote."""
from __future__ import annotations

from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Card, resources_of
from tomecraft.runtime.engines.dm_crawl_decks.zones import PILES as HELD, ZONE_PILES
from tomecraft.runtime.scenario import key_problem
from tomecraft.runtime.scenario_shapes import (
    ANY, BOOL, COUNT, LOG_TEXT, TEXT, TIMES, WHOLE, counts, either, fixed, list_of, record, records)

PILES = {"main_deck": "main_deck", "graveyard": "graveyard", "discard": "discard",
         "event_deck": "event_deck", "event_discard": "event_discard", "relic_deck": "relic_deck",
         "hand": "hand", "loot": "loot", "spare": "spare", "equipment": "equipment"}
SETUP_KEYS = frozenset(PILES) | {"hp", "hp_max", "dl", "space", "misses", "resources", "tokens",
                                 "columns", "rows", "face_down", "sideways", "events_off", "seed"}
ROW_KEYS = frozenset(("enemy", "player"))


def known_keys(setup: dict, data) -> None:
    """A misspelt key would silently set nothing (`colums:` left the columns empty and the
    battle fought nothing): refuse it, and name what a key may hold."""
    groups = [("setup", setup, SETUP_KEYS)] + [("rows", r, ROW_KEYS) for r in setup.get("rows") or []]
    for where, spec, known in groups:
        if problem := key_problem(where, spec, known):
            raise ValueError(problem)
    for key, known in (("resources", resources_of(data)), ("tokens", ATTRIBUTES)):
        unknown = sorted(set(setup.get(key) or {}) - set(known))
        if unknown:
            raise ValueError(f"setup.{key}.{unknown[0]}: {key}: unknown {unknown}; known: {list(known)}")


# what each setup pile may hold (L23, L31, L41, L73): the deck a card belongs to, or loot
PILE_HOLDS = {"main_deck": "main", "graveyard": "main", "discard": "main", "spare": "main",
              "event_deck": "event", "event_discard": "event", "loot": "loot",
              "hand": "main or loot", "relic_deck": "relic", "equipment": "relic",
              "exploration": "main", "battlefield": "main"}
# where a zone's content is written in the rulebook, for the zones a setup lays out by hand
PILE_WHY = {"exploration": ": dealt from the main deck, L63, L206",
            "battlefield": ": a column of the exploration area and hand cards, loot never, L65, L73"}


def holds(zone: str, card: Card) -> bool:
    is_loot = card.deck == "event" and card.defn.card_type == "loot"
    return {"loot": is_loot, "main or loot": card.deck == "main" or is_loot}.get(
        PILE_HOLDS[zone], card.deck == PILE_HOLDS[zone])


def within_limits(engine) -> None:
    """A state the rules cannot reach would test nothing the rulebook says: refuse HP over
    the maximum (`hp: 9` alone used to raise the maximum to 9 without a word), a DL outside 1..max (L85), negative resources or misses, more tokens of an attribute
    than the 5 there are (L13). (The spare slot and loot pile may be set up over their
    capacity: L75 gives the slot's only "by default", and effects may change either.)"""
    s, b = engine.state, engine.board
    problems = []
    if s.hp > s.hp_max:
        problems.append(f"hp {s.hp} is over hp_max {s.hp_max} (HP starts 5/5 and heals only lost "
                        f"HP, L83, L184: set hp_max too for a larger maximum)")
    if not b.dl_start <= s.dl <= b.dl_max:
        problems.append(f"dl {s.dl} is outside {b.dl_start}..{b.dl_max} (L85)")
    space = b.space + (s.dl - b.dl_start)
    if s.space != space:                 # L85, L194: space 2 at DL 1, and 1 more per DL
        problems.append(f"space {s.space} at DL {s.dl}: space is {b.space} at DL {b.dl_start} and grows by 1 "
                        f"with each DL (L85, L194), so {space} (leave space out: it follows dl)")
    held = [c for c in s.equipment if getattr(c.defn, "identity", False)]
    if held and s.dl < b.dl_max:         # L186: searched out and gained at the capped DL only
        problems.append(f"equipment: {held[0].id} is held at DL {s.dl}: the identity card "
                        f"is gained only by descending at DL {b.dl_max}, the cap (L186)")
    problems += [f"resources: {r} {n} is negative" for r, n in s.resources.items() if n < 0]
    if s.misses < 0:                     # L167: a count of discarded cards
        problems.append(f"misses {s.misses} is negative (a count of cards, L167)")
    for a in ATTRIBUTES:
        supply = engine.data.kinds["attribute"][a].supply
        if s.tokens[a].up < 0 or s.tokens[a].down < 0 or s.tokens[a].total > supply:
            problems.append(f"tokens: {a} {[s.tokens[a].up, s.tokens[a].down]}: there are "
                            f"{supply} tokens of each attribute (L13)")
    if problems:
        raise ValueError("; ".join(problems))


def face_down_where(label: str, card: Card) -> None:
    """A card lies face down only in the exploration area or on the battlefield, where the
    pre-battle step turns it face up (L131): a face-down card in the hand, a pile or the
    equipment is no state of the game (a hand card played face down then lost its effect)."""
    if card.zone not in ("exploration", "battlefield"):
        raise ValueError(f"face_down: {label} is in the {card.zone or 'no zone'}; only cards of the "
                         f"exploration area (columns) or the battlefield (rows) lie face down (L131)")


def turns_sideways(label: str, relic: Card) -> None:
    """Only a once-per-long-rest relic is turned sideways, by its own use (L232-236): one whose
    effects never turn it sideways cannot be set up sideways (it was then never usable)."""
    fns = [f for f in (getattr(relic.defn, "use", None), getattr(relic.defn, "passive", None)) if f]
    if getattr(relic.defn, "once_per_rest", False) or any(
            "turn_sideways" in getattr(f, "__code__", None).co_names for f in fns if hasattr(f, "__code__")):
        return
    raise ValueError(f"sideways: {label} ({relic.id}) is no once-per-long-rest relic: only those are "
                     f"turned sideways, by their own use (L232-236)")


def up_down(value, where: str) -> tuple[int, int]:
    """tokens {attribute: [up, down]}: how many face up, how many face down; a single number
    is that many face-up tokens. Anything else (a newcomer's [down], [up, down]) is named."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value, 0
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
        raise ValueError(f"{where}: an attribute's tokens are [face-up count, face-down count] "
                         f"([2, 1]) or a face-up count (3), not {value!r}")
    return value[0], value[1]


# The shapes of the values (runtime/scenario_shapes.py checks them first, at their lines):
# `hp: null` failed with "int() argument must be ... not 'NoneType'", `columns: [slime]` was
# read as the cards s, l, i, m, e, `resources: [gold]` was an internal error.
_CARDS = list_of(TEXT, "a list of cards (id, id@P/W, id#label)")
_PILE = either(COUNT, _CARDS, wants="a list of cards, or a count of filler cards")
_LABELS = list_of(TEXT, "a list of card labels")
_SIDES = either(COUNT, fixed(COUNT, COUNT, wants="[face up, face down]"),
                wants="an attribute's tokens are [face-up count, face-down count] ([2, 1]) or a "
                      "face-up count (3)")
SHAPES = {
    "setup": {**{k: _PILE for k in PILES}, **{k: COUNT for k in ("hp", "hp_max", "dl", "space", "misses")},
              "seed": WHOLE, "resources": counts("a mapping of resources to counts ({gold: 1})"),
              "tokens": counts("a mapping of attributes to tokens ({strength: [2, 1]})", _SIDES),
              "columns": list_of(_CARDS, "a list of columns, each a list of cards ([[slime], []])"),
              "rows": records({"enemy": list_of(ANY, "a list of cards"), "player": list_of(ANY, "a list of plays")}),
              "face_down": _LABELS, "sideways": _LABELS},
    "steps": {**{k: COUNT for k in ("column", "row", "amount")}, "count": TIMES,
              **{k: TEXT for k in ("card", "relic", "event", "op", "zone", "card_type")},
              "value": WHOLE, "free": BOOL, "fizzles": BOOL,
              "action": record({}, "an action ({do: battle, column: 0})")},
    "expect": {**{k: COUNT for k in ("hp", "hp_max", "misses", "dl", "space", "hand_limit", "turn")},
               "lost": BOOL, "won": BOOL, "present": BOOL, "no_log": LOG_TEXT,
               "log_order": list_of(LOG_TEXT, "a list of texts, in log order"),
               "count": counts("a mapping of zones to counts ({hand: 3})"),
               "points": counts("a mapping of labels to points ({m: 3})", WHOLE),
               "power": counts("a mapping of labels to power ({m: 2})", WHOLE),
               "zone": counts("a mapping of labels to zones ({m: graveyard})", TEXT),
               "resources": counts("a mapping of resources to counts ({gold: 1})"),
               "tokens": counts("a mapping of attributes to tokens ({strength: [2, 1]})", _SIDES),
               "columns": list_of(_LABELS, "a list of columns, each a list of labels, top first"),
               "order": counts("a mapping of zones to label lists ({hand: [a, b]})", _LABELS),
               "fired": counts("a mapping of events to label lists ({turn_start: [a]})", _LABELS),
               "sideways": counts("a mapping of relic labels to true or false", BOOL),
               "legal": record({}, "an option ({do: battle, column: 0})")},
}


def checks_nothing(exp: dict) -> str | None:
    """An expectation that reads nothing passes whatever the game did: `expect: [{}]`, a lone
    `{present: false}` or `{note: ...}`, an empty `{count: {}}` or `{log_order: []}`. Say so at
    its line (the other games' runners refuse `{}` as an unknown expectation)."""
    if "present" in exp and "legal" not in exp:
        return "`present:` says whether the option in `legal:` is offered, and there is no `legal:`"
    read = [key for key in exp if key not in ("note", "present")]
    if not read:
        return (f"the expectation {exp!r} checks nothing: name what to check ({{hp: 3}}, "
                "{count: {hand: 2}}, ...)")
    empty = [key for key in read if isinstance(exp[key], (dict, list)) and not exp[key]]
    if empty:
        return f"{empty[0]}: {exp[empty[0]]!r} is empty: it checks nothing"
    return None


def known(what: str, names, known_names) -> None:
    """An expectation naming what does not exist would fail unhelpfully or pass vacuously
    (`fired: {victroy: []}` held for any game): refuse it."""
    unknown = [n for n in names if n not in known_names]
    if unknown:
        raise ValueError(f"{what}: unknown {unknown}; known: {sorted(known_names)}")


def words(data, kind: str) -> list[str]:
    """The vocabulary's names of one kind (event, zone, card_type, position)."""
    return [n for n, kinds in data.names.items() if kind in kinds]


def word(data, what: str, name, kind: str = "event") -> str:
    """A step's word of the vocabulary, refused when misspelt: `position: abvoe` stacked a card
    below, and `search` with `zone: main_dek` or `card_type: monstr` fizzled, so a step saying
    `fizzles: true` passed vacuously; `modify`'s `attr: pointz` was a KeyError."""
    known(what, [name], words(data, kind))
    return name


def main_card(card: Card, label: str, value: str) -> Card:
    """Points and power are a main-deck card's (L19): an expectation of a relic's or an event
    card's said "no layered value 'points' for C", the runner's words, not the file's."""
    if card.deck != "main":
        raise ValueError(f"{value}: {label} is a{'n' if card.deck == 'event' else ''} {card.deck} card: only "
                         f"main-deck cards have points and power (L19)")
    return card


def named(sc, option):
    """A relic option naming an unlabelled relic by its id ({do: relic, id: lucky_coin}) names
    the one relic of that id, as a step's `relic:` does (its option says lucky_coin#81)."""
    if isinstance(option, dict) and option.get("do") == "relic" and isinstance(option.get("id"), str) \
            and option["id"] not in sc.labels and len(sc.of_id(option["id"])) == 1:
        return {**option, "id": repr(sc.of_id(option["id"])[0])}
    return option


def as_written(cards, written) -> list:
    """Each card as an expectation names it: its label, or its id when it has none (a filler: `slime`)."""
    written = written if isinstance(written, list) else []
    return [w if i < len(written) and not getattr(c, "label", "?") and c.id == (w := written[i]) else repr(c)
            for i, c in enumerate(cards)]


# where an expectation's `zone` may put a card: the piles by their setup names, the exploration
# and the battlefield, and the content's own zone names (discard_pile, loot_pile, spare_slot,
# equipment_area: the vocabulary's and the sheets' words) for the same piles
ZONES = {**{z: z for z in HELD}, "exploration": "exploration", "battlefield": "battlefield", **ZONE_PILES}


def zones_as_held(want: dict) -> dict:
    """An expected `zone: {label: zone}` in the engine's pile names; a zone the game does not
    have is refused (`discrad` read as a wrong rule: "expected discrad, got discard")."""
    known("zone", want.values(), ZONES)
    return {label: ZONES[z] for label, z in want.items()}


def relic_card(card: Card, label: str) -> Card:
    """Only a relic is turned sideways (used once per long rest, L234): `sideways: {m: false}`
    of a main-deck card held for any game."""
    if card.deck != "relic":
        raise ValueError(f"sideways: {label} is a{'n' if card.deck == 'event' else ''} {card.deck} card: only "
                         f"relics are turned sideways (L234)")
    return card
