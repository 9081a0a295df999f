"""The shape of a Clank! Catacombs scenario file (scenario.py reads it): the keys its setup,
players, tiles, steps and expectations may hold, the types of their values, and what each
pile holds. A key the game does not know would set or check nothing, and a value of the wrong
type failed late with a bare TypeError: both are refused here, naming the key."""
from __future__ import annotations

from tomecraft.runtime.scenario import checks_nothing, key_problem, unknown_names
from tomecraft.runtime.scenario_shapes import (
    BOOL, COUNT, EXITS, POS, TEXT, WHOLE, counts, either, fixed, list_of, record, records)

# The keys `build`, `_run_step` and `_check` read (the module docstring lists them): any other
# key would set or check nothing, and a misspelt one (`gld: 5`, a room's `treasure:`) passed.
SETUP_KEYS = frozenset(("new_game", "players", "tiles", "start", "row", "dungeon_deck", "tile_stack",
                        "treasure_stack", "prisoners", "majors", "minors", "rage", "clank_area", "bag",
                        "ghosts", "bag_draws", "reserve", "market", "players_count", "mastery_left"))
NEW_GAME_KEYS = frozenset(("players", "seed", "side"))
PLAYER_KEYS = frozenset(("pos", "hand", "deck", "discard", "skill", "combat", "movement", "gold",
                         "lockpicks", "cubes", "damage", "tokens", "treasures", "market", "signposts",
                         "status", "knocked_in_depths", "mastery"))
TILE_KEYS = frozenset(("at", "tile", "room", "exits", "icons", "depths", "plus_signs", "portal",
                       "treasures", "idols", "signposts", "used"))
OPTION_KEYS = ("do", "card", "to", "edge", "item", "coupon", "token", "portal")
STEP_KEYS = frozenset(OPTION_KEYS + ("player", "choose", "illegal"))
ROOM_EXPECT_KEYS = frozenset(("room", "treasures", "idols", "signposts", "used", "exits", "tile"))
# An expectation of the game (not of a player): the keys it may hold with its own.
GAME_EXPECT_KEYS = {"legal": {"legal", "player", "present"}, "room": ROOM_EXPECT_KEYS,
                    "scores": {"scores", "winners"}, "winners": {"scores", "winners"}}


def known_keys(where: str, spec, known: frozenset) -> None:
    if problem := key_problem(where, spec, known):
        raise ValueError(problem)


# The values that are counts (whole numbers, 0 or more), lists, and counts by key.
SETUP_COUNTS = ("rage", "ghosts", "players_count", "mastery_left")
SETUP_LISTS = ("players", "tiles", "row", "dungeon_deck", "tile_stack", "treasure_stack", "prisoners",
               "majors", "minors", "bag_draws")
SETUP_TALLIES = ("clank_area", "bag", "reserve")
PLAYER_COUNTS = ("skill", "combat", "movement", "gold", "lockpicks", "cubes", "damage", "signposts",
                 "mastery")
PLAYER_LISTS = ("hand", "deck", "discard", "treasures", "market")


def check_setup_shape(setup: dict) -> None:
    """The setup's keys and the types of their values (`hand: lute` was read as the cards
    l, u, t, e; `movement: "2"` failed at the first move with a TypeError)."""
    known_keys("setup", setup, SETUP_KEYS)
    _values("setup", setup, SETUP_COUNTS, SETUP_LISTS, SETUP_TALLIES)
    if "new_game" in setup:
        known_keys("setup.new_game", setup["new_game"], NEW_GAME_KEYS)
        _values("setup.new_game", setup["new_game"], ("players",), ())
    market = setup.get("market") or {}
    if not isinstance(market, dict) or not all(isinstance(v, list) for v in market.values()):
        raise ValueError(f"setup.market {market!r:.60}: each item's points left, as a list "
                         "(e.g. {crown: [10, 9, 8]})")
    for seat, spec in enumerate(setup.get("players") or []):
        known_keys(f"players[{seat}]", spec, PLAYER_KEYS)
        _values(f"players[{seat}]", spec, PLAYER_COUNTS, PLAYER_LISTS, ("tokens",))
    for i, spec in enumerate(setup.get("tiles") or []):
        known_keys(f"tiles[{i}]", spec, TILE_KEYS)
        _values(f"tiles[{i}]", spec, ("plus_signs", "idols"), ("treasures", "signposts"))


def _values(where: str, spec: dict, counts: tuple, lists: tuple, tallies: tuple = ()) -> None:
    for key in counts:
        if key in spec:
            _count(f"{where}.{key}", spec[key])
    for key in lists:
        if key in spec and not isinstance(spec[key], list):
            raise ValueError(f"{where}.{key} {spec[key]!r:.40}: a list (e.g. [a, b])")
    for key in tallies:
        if key in spec:
            if not isinstance(spec[key], dict):
                raise ValueError(f"{where}.{key} {spec[key]!r:.40}: a mapping of counts (e.g. {{a: 2}})")
            for name, n in spec[key].items():
                _count(f"{where}.{key}.{name}", n)


def _count(where: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where} {value!r}: a whole number, 0 or more")


DUNGEON_CARDS = ("acquire", "device", "monster")
# What each token pile of the setup holds (setup C, L168-170; the coupon is one of the 20
# prisoner tokens, L111): a chalice in the treasure stack was placed and taken as a treasure.
PILE_TYPES = {"treasure_stack": ("treasure",), "majors": ("major_secret",),
              "minors": ("minor_secret",), "prisoners": ("prisoner", "coupon")}


def of_type(data, where: str, ids, types: tuple) -> None:
    tokens = data.kinds["token"]
    for tid in ids:
        if tid not in tokens:
            raise ValueError(f"{where}: no token {tid!r} in the content")
        if tokens[tid].token_type not in types:
            raise ValueError(f"{where}: {tid!r} is a {tokens[tid].token_type}, not a {' or '.join(types)}")


def check_expect_keys(exp: dict) -> None:
    """An expectation holds only keys `_check` reads: a player's fields are each read from the
    player (an unknown one fails there); any other expectation checks one thing of the game."""
    if "player" in exp and "legal" not in exp:
        return
    kind = "legal" if "legal" in exp else next((k for k in exp if k in GAME_EXPECT_KEYS), None)
    if kind is None and len(exp) > 1:
        raise ValueError(f"expectation {sorted(exp)}: one field of the game at a time (or a player's)")
    if kind is not None:
        known_keys("expectation", exp, frozenset(GAME_EXPECT_KEYS[kind]))


# the supply piles an expectation may list top first, as setup writes them, or count
SUPPLY_PILES = ("prisoners", "majors", "minors", "dungeon_deck")

# The shapes of the values (runtime/scenario_shapes.py checks them first, at their lines):
# `pos: null` failed with "'NoneType' object is not subscriptable", `pos: [1, 0, 2]` was read
# as [1, 0], `to: east` as a move nowhere.
IDS = list_of(TEXT, "a list of ids (e.g. [burgle, stumble])")
CUBE = either(COUNT, TEXT, wants="a seat number, black or ghost")
_PLAYER = {"pos": POS, **{k: IDS for k in ("hand", "deck", "discard", "treasures")},
           "market": list_of(either(TEXT, fixed(TEXT, COUNT, wants="[item, points]")),
                             "a list of market items (an id, or [item, points])"),
           **{k: COUNT for k in PLAYER_COUNTS}, "tokens": counts(), "status": TEXT}
_TILE = {"at": POS, "tile": TEXT, "room": TEXT, "exits": EXITS, "plus_signs": COUNT, "idols": COUNT,
         "treasures": IDS, "icons": counts("a mapping of sides to icon lists ({E: [one_way]})",
                                          list_of(TEXT, "a list of icon ids"))}
SHAPES = {
    "setup": {"players": records(_PLAYER), "tiles": records(_TILE),
              "new_game": record({"players": COUNT, "seed": WHOLE, "side": TEXT}),
              **{k: IDS for k in ("row", "dungeon_deck", "tile_stack", "treasure_stack", "prisoners",
                                  "majors", "minors")},
              **{k: COUNT for k in SETUP_COUNTS},
              "clank_area": counts("a mapping of cubes to counts ({0: 2, ghost: 1})"),
              "bag": counts("a mapping of cubes to counts ({black: 24})"),
              "reserve": counts("a mapping of reserve cards to counts ({mercenary: 3})"),
              "market": counts("a mapping of items to their points left ({crown: [10, 9, 8]})",
                               list_of(COUNT, "a list of points left ([10, 9, 8])")),
              "bag_draws": list_of(CUBE, "a list of cubes drawn (a seat number, black or ghost)"),
              "start": either(TEXT, BOOL, wants="a starting side (start_a, start_b) or false")},
    "steps": {"player": COUNT, "to": POS, "card": TEXT, "edge": TEXT, "item": TEXT, "token": TEXT,
              "coupon": BOOL, "portal": BOOL},
    "expect": {"player": COUNT, "pos": POS, "room": POS, "over": BOOL, "escaped": BOOL,
               # `knocked_in_depths: 0` compared equal to false and passed
               **{k: BOOL for k in ("knocked_in_depths", "no_movement", "used")},
               "present": BOOL, "legal": record({}, "an option ({do: move, to: [1, 0]})"),
               "tile_stack": either(COUNT, IDS, wants="a count or a list of tile ids"),
               **{k: either(COUNT, IDS, wants="a count or a list of ids, top first") for k in SUPPLY_PILES},
               "reserve": counts("a mapping of reserve cards to counts ({mercenary: 14})"),
               **{k: COUNT for k in ("gold", "skill", "combat", "movement", "lockpicks", "cubes",
                                     "damage", "clank", "mastery", "clank_gained", "neg_bank",
                                     "hand_size", "deck_size", "discard_size", "row_size", "rage")},
               **{k: IDS for k in ("hand", "deck", "discard", "play_area", "discard_has", "row",
                                   "treasure_stack", "dungeon_discard")},
               "clank_area": counts("a mapping of cubes to counts ({0: 2, ghost: 1})"),
               "bag": counts("a mapping of cubes to counts ({black: 24})"),
               "winners": list_of(COUNT, "a list of seats ([0])")},
}


def expectation_problem(engine, exp: dict) -> str | None:
    """Why an expectation would pass whatever the game did, else None: it checks nothing
    (`{player: 0}` alone, an empty `discard_has: []` or `market: {}`: the names listed are
    compared), or a name it counts is no name of the game (`tokens: {mastr: 0}`, a market
    item `crwn`, a cube `blak` or a seat the game has not in the Clank! area or the bag:
    each counted 0 or none, and `0` passed). An empty `tokens: {}` says the player holds none."""
    if vacuous := checks_nothing(exp, alone={"player"}, partial=("discard_has", "legal")):   # `legal: {}` matched any option
        return vacuous
    if "player" not in exp and (vacuous := checks_nothing(exp, partial=("market", "reserve"))):
        return vacuous
    if "player" in exp and isinstance(exp.get("tokens"), dict):
        return unknown_names(f"player {exp['player']} tokens", exp["tokens"], engine.token_defs)
    if "player" not in exp and isinstance(exp.get("market"), dict):
        return unknown_names("market", exp["market"], engine.items)
    if isinstance(exp.get("reserve"), dict):
        return unknown_names("reserve", exp["reserve"], [c for c, d in engine.cards.items() if d.card_type == "reserve"])
    cubes = ["black", "ghost", *map(str, range(len(engine.state.players)))]
    for pile in ("clank_area", "bag"):
        if isinstance(exp.get(pile), dict):
            return unknown_names(f"{pile} (a cube is black, ghost or a seat)", map(str, exp[pile]), cubes)
    return None


# held in no order the rules give: a hand is played in any order (L247), a reshuffle (L276) leaves
# no order anyone could foresee, treasures, market items and discarded cards are only held; the
# seats on a signpost room's spaces are a set (a player's own `signposts` is a count)
UNORDERED = frozenset(("hand", "discard", "play_area", "treasures", "market", "signposts"))


def as_cards(key: str, got, want) -> tuple:
    """(got, want) as an expectation compares them: the zones of UNORDERED as cards, in any
    order (a multiset), a room's exits as sides; every other value as it is."""
    if key in UNORDERED and isinstance(want, list) and isinstance(got, list):
        return sorted(got, key=repr), sorted(want, key=repr)
    if key == "exits" and isinstance(want, str) and isinstance(got, str):   # a set of sides: WNE is NEW
        return "".join(sorted(got, key="NESW".find)), "".join(sorted(want, key="NESW".find))
    return got, want


def market_as_written(held, want) -> tuple:
    """(got, want) of a player's market items: each item [item, points]; one written as its id
    alone (as setup may write it) stands for a held item of that id, whatever its points."""
    got, pool, out = [list(m) for m in held], [list(m) for m in held], []
    for w in want if isinstance(want, list) else []:
        hit = next((g for g in pool if g[0] == w), None) if isinstance(w, str) else None
        if hit is not None:
            pool.remove(hit)
        out.append(hit if hit is not None else w)
    return got, (out if isinstance(want, list) else want)
