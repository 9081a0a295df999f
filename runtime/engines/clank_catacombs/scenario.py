"""Scenario files for Clank! Catacombs: set up a state, play scripted steps, check results.

setup:  new_game: {players, seed, side: start_a|start_b}  (a real setup A-H) or a hand-built state:
        players: [{pos, hand, deck (top first), discard, skill, combat, movement, gold,
                   lockpicks, cubes, damage, tokens, treasures, market, signposts, status,
                   knocked_in_depths (left out: whether the room at pos is), mastery}]
        tiles: [{at, tile, room, exits, icons, depths, plus_signs, portal, treasures, idols,
                 signposts, used}]
        (`tile` left out: depths_01, so the room is in the depths unless `depths: false`)
        (the starting tile is placed, side A, its idols and icons as in a game;
         `start: start_b` for the other side, `start: false` for none;
         a position is [x, y]: E is x + 1, N is y + 1)
        row, dungeon_deck (top first), tile_stack (top first), treasure_stack (top first),
        prisoners, majors, minors (top first), rage (1-based space), clank_area {seat|ghost: n},
        bag {black|ghost|seat: n} (left out: 24 black; {} is empty), ghosts (left out: 5 less placed),
        bag_draws [black|ghost|seat...] (every cube the dragon draws, in order; no fewer, no more),
        reserve {card: n}, market {item: [points left...]} (the piles and items named; the others
        as set up, less the players'), players_count, mastery_left (left out: players less held)
        (row, dungeon_deck, tile_stack, treasure_stack left out: empty; a `turn_end` then
         cannot refill the row and the game ends, L530)
steps:  {do: play|acquire|use|defeat|move|explore|take_treasure|room|buy|token|end, player,
         card, to, edge, item, coupon, token, portal, choose: [...], illegal: true}
        (`illegal: true`, or `fails: true`: the action is not offered; checked, never played; not on the
         runner's steps below)
        (`end` only declares the end, legal once the hand is played out, L247, L286; the
         end of the turn itself, discard, draw 5, refill, dragon, is `turn_end`)
        | {do: turn_end, player} | {do: out_turn, player} | {do: dragon_attack} | {do: score}
        (`choose` answers the step's decisions in order; an answer never asked for fails it:
         a card text's `may` is true or false, its `choose { A | B }` the branch's number from
         0 as written in content/ (1: the second), a card to discard its id; Teleport's way
         {do: move, to: [x, y]} or {do: explore, edge: E}; a tile placed by exploring
         {rotation: n} (n quarter turns clockwise, 0-3, among those whose tunnel fits);
         once the game is over no action is legal, `end` neither)
expect: {player, <field>: value}, a field of the player: pos, hand, deck (top first), discard, play_area,
        hand_size, deck_size, discard_size, discard_has [cards], skill, combat, movement, gold,
        lockpicks, cubes, damage, clank (cubes in the Clank! area), track, tokens, treasures,
        market, signposts, status, escaped, knocked_in_depths, mastery, clank_gained,
        neg_bank, no_movement (hand, discard, play_area, treasures, market: in any order; a market
        item [item, points] or, as in setup, its id)
        | {room: [x, y], treasures|idols|signposts|used|exits|tile}
        | {treasure_stack} | {clank_area} | {bag} (the cubes listed; {}: empty) | {row} | {row_size} | {dungeon_discard}
        | {legal, player, present} | {scores} | {winners} | {rage}
        | {tile_stack: n or [tile...]} (its size, or its tiles top first), and so prisoners, majors,
        minors, dungeon_deck | {reserve: {card: n}} (the piles named)
        | {market: {item: [points left...]}} (the items named)
        | {log} | {over}
"""
from __future__ import annotations

import difflib
from collections import Counter

from tomecraft.runtime.agents import ScriptedAgent, ScriptError, matches
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.clank_catacombs.engine import Engine, new_state, score
from tomecraft.runtime.engines.clank_catacombs.scenario_shape import (
    DUNGEON_CARDS, OPTION_KEYS, PILE_TYPES, SHAPES, STEP_KEYS, as_cards, check_expect_keys, check_setup_shape,
    SUPPLY_PILES, expectation_problem, known_keys, market_as_written, of_type)
from tomecraft.runtime.engines.clank_catacombs.scenario_draws import ScriptedRng
from tomecraft.runtime.engines.clank_catacombs.scenario_supply import check_supply
from tomecraft.runtime.engines.clank_catacombs.setup import start_cells
from tomecraft.runtime.engines.clank_catacombs.state import (
    ACTIVE, ESCAPED, KNOCKED_OUT, Cell, Player, State, rule,
)
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.scenario import (
    PACK_ID_HINT, ScenarioError, check_expectations, game_over_step, in_its_terms, refuse_unofferable,
    refuse_unplayed, setup_failure)


class FirstOption:
    """Answers a decision the script leaves open with the engine's suggestion or the first option."""

    def __init__(self) -> None:
        self.engine = None

    def choose(self, key, options, view=None):
        suggest = getattr(view, "suggest", None)
        if suggest is not None and key != "action":
            preferred = suggest(key, list(options))
            if preferred:
                return preferred[0]
        return options[0]


def _pos(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _cube(v):
    return int(v) if isinstance(v, int) or (isinstance(v, str) and v.isdigit()) else v


def _start_side(data, side) -> object:
    """The starting tile's side named `side`, refused in the scenario's terms if there is none."""
    sides = sorted(t.id for t in data.of("tile") if t.area == "start")
    if side not in sides:
        raise ValueError(f"starting tile side {side!r}: the starting tile's sides are {sides}")
    return data.get("tile", side)


def _players(data, n: int, where: str = "") -> int:
    """`new_game.players`, a hand-built state's `players_count` or its players listed (`where`
    names which), refused in the scenario's terms when the content has no setup for the count
    (a KeyError '1' for one player; "7 players need the 墓穴派对 pack" with the pack loaded)."""
    starts, most = rule(data, "rage_start"), rule(data, "max_players")   # the dragon's start by count
    if not (n <= most and str(n) in starts):
        fewest = min(k for k in range(1, most + 1) if str(k) in starts)
        extra = "" if most >= 6 else " (5-6 with the 墓穴派对 pack: packs: [.../packs/tomb_party])"
        raise ValueError(f"{where or f'new_game players {n}'}: the game is for "
                         f"{fewest}-{most} players{extra}")
    return n


def build(data, setup: dict) -> Engine:
    check_setup_shape(setup)
    if "new_game" in setup:
        spec = setup["new_game"]
        side = _start_side(data, spec.get("side", "start_a")).id
        state = new_state(data, _players(data, spec.get("players", 4)), Rng(spec.get("seed", 1)), side)
        agents = [ScriptedAgent(fallback=FirstOption()) for _ in state.players]
        engine = Engine(data, state, agents)
        engine.rng = ScriptedRng([])
        engine.setup_arrivals()                          # as a real game's set-up does
        return engine
    n = setup.get("players_count", len(setup.get("players", [])) or 2)
    state = State(players=[], cells={}, tile_stack=list(reversed(setup.get("tile_stack", []))),
                  treasure_stack=list(setup.get("treasure_stack", [])),
                  majors=list(reversed(setup.get("majors", []))),
                  minors=list(reversed(setup.get("minors", []))),
                  prisoners=list(reversed(setup.get("prisoners", []))),
                  dungeon_deck=list(reversed(setup.get("dungeon_deck", []))))
    start = setup.get("start", True)
    if start:                       # true: side A; or the side's id (start_b), as `new_game.side`
        state.cells.update(start_cells(data, _start_side(data, "start_a" if start is True else start)))
    for i, spec in enumerate(setup.get("tiles", [])):
        cell = _tile_cell(data, i, spec)
        if cell.pos in state.cells and list(cell.pos) in [t["at"] for t in setup["tiles"][:i]]:
            raise ValueError(f"tiles[{i}].at {list(cell.pos)}: a second tile at that place")
        state.cells[cell.pos] = cell
    state.row = list(setup.get("row", []))
    # The reserve as set up (L57-59, L186), with the piles the scenario names set to its counts:
    # `reserve: {secret_tome: 0}` used to empty every other pile too.
    state.reserve = Counter({**{c.id: c.count for c in data.of("card") if c.card_type == "reserve"},
                             **(setup.get("reserve") or {})})
    # The market board as set up (L172), with the items the scenario names left as it says.
    state.market = {k: list(v) for k, v in {**{i.id: i.points for i in data.of("market_item")},
                                            **(setup.get("market") or {})}.items()}
    # The bag as set up (24 dragon cubes, L166) unless the scenario says what it holds:
    # `bag: {}` is an empty bag, not the set-up one.
    bag = setup["bag"] if setup.get("bag") is not None else {"black": 24}
    state.bag = Counter({_cube(k): v for k, v in bag.items()})
    state.clank_area = Counter({_cube(k): v for k, v in (setup.get("clank_area") or {}).items()})
    state.ghosts = setup.get("ghosts", 5)
    state.rage = setup.get("rage", 1) - 1
    state.mastery_left = setup.get("mastery_left", n)
    specs = setup.get("players") or [{} for _ in range(n)]
    if "players_count" in setup:
        _players(data, n, f"players_count {n}")
        if setup.get("players") and len(specs) != n:    # which count would the rules use?
            raise ValueError(f"players_count {n} but {len(specs)} players listed")
    _players(data, len(specs), f"{len(specs)} players listed")   # L645: 2-4, 5-6 with the pack
    for seat, spec in enumerate(specs):
        p = Player(seat, _pos(spec.get("pos", [0, 0])), cubes=spec.get("cubes", 30))
        p.hand = list(spec.get("hand", []))
        p.deck = list(reversed(spec.get("deck", [])))
        p.discard = list(spec.get("discard", []))
        for key in ("skill", "combat", "movement", "gold", "lockpicks", "signposts"):
            setattr(p, key, spec.get(key, 0))
        p.track = ["own"] * spec.get("damage", 0)
        p.tokens = Counter(spec.get("tokens", {}))
        p.treasures = list(spec.get("treasures", []))
        p.market = [_market_entry(data, m, f"players[{seat}].market") for m in spec.get("market", [])]
        p.status = spec.get("status", "active")
        p.knocked_in_depths = bool(spec.get("knocked_in_depths", False))
        p.mastery = spec.get("mastery", 0)
        state.players.append(p)
    agents = [ScriptedAgent(fallback=FirstOption()) for _ in state.players]
    engine = Engine(data, state, agents)
    engine.rng = ScriptedRng([_cube(d) for d in setup.get("bag_draws", [])])   # "0" as 0, as in `bag`
    _check_setup(engine, setup)
    check_supply(engine, setup)          # no more ghosts, crowns, mastery... than the box has
    engine.check_everyone_out()          # L597: every player already out is a game over
    return engine


def _tile_cell(data, i: int, spec: dict) -> Cell:
    """A `tiles` entry as a room of the map; a tile, room, side, icon or treasure the content
    does not have is refused in the scenario's terms (an icon given as text, not a list, was
    split into letters, and a misspelt one made the tunnel silently impassable)."""
    where, tiles, rooms = f"tiles[{i}]", data.kinds["tile"], data.kinds["room"]
    tile_id = spec.get("tile", "depths_01")
    if tile_id not in tiles:
        raise ValueError(f"{where}.tile: no tile {tile_id!r} in the content")
    tile = tiles[tile_id]
    room_id = spec.get("room", tile.cells[0][2])
    if room_id not in rooms:
        raise ValueError(f"{where}.room: no room {room_id!r} in the content (rooms: {sorted(rooms)})")
    exits = spec.get("exits", "NESW")
    if not isinstance(exits, str) or not set(exits) <= set("NESW"):
        raise ValueError(f"{where}.exits {exits!r}: the open sides as letters N, E, S, W (e.g. 'EW')")
    icons = spec.get("icons") or {}
    known = set(data.kinds["tunnel_icon"]) | {"one_way_in"}
    for side, names in icons.items():
        if side not in ("N", "E", "S", "W") or not isinstance(names, list):
            raise ValueError(f"{where}.icons: {side!r}: {names!r}: a side N, E, S or W and a list of icons")
        if set(names) - known:
            raise ValueError(f"{where}.icons.{side}: no tunnel icon {sorted(set(names) - known)[0]!r} "
                             f"(icons: {sorted(known)})")
    treasures = list(spec.get("treasures", []))
    of_type(data, f"{where}.treasures", treasures, ("treasure",))
    cell = Cell(_pos(spec["at"]), tile, rooms[room_id], exits, {k: list(v) for k, v in icons.items()},
                bool(spec.get("depths", tile.area == "depths")), spec.get("plus_signs", 0),
                bool(spec.get("portal", False)), treasures)
    cell.idols = spec.get("idols", 0)
    cell.signposts = list(spec.get("signposts", []))
    cell.used = bool(spec.get("used", False))
    return cell


def _market_entry(data, entry, where: str) -> tuple:
    """A player's market item: `[item, points]`, or the bare item id (its first points value,
    as the market board holds it at setup); anything else said in the scenario's terms."""
    if isinstance(entry, str):
        item = data.kinds["market_item"].get(entry)
        if item is None:
            raise ValueError(f"{where}: no market item {entry!r} in the content")
        return (entry, list(item.points)[0])
    if isinstance(entry, (list, tuple)) and len(entry) == 2:
        return (entry[0], entry[1])
    raise ValueError(f"{where}: {entry!r} is not [item, points] or an item id")


def _check_setup(engine: Engine, setup: dict) -> None:
    """A hand-built state the engine could not play, said in the scenario's own terms (a
    ValueError: `run_scenario` reports it as a setup failure) instead of an engine error later."""
    st = engine.state
    seats = len(st.players)
    spaces = len(engine.track)
    if not 0 <= st.rage < spaces:
        raise ValueError(f"rage {st.rage + 1} is off the rage track (spaces 1-{spaces})")
    for where in ("clank_area", "bag"):
        for key in getattr(st, where):
            if key not in ("black", "ghost") and not (isinstance(key, int) and 0 <= key < seats):
                raise ValueError(f"{where} key {key!r}: a cube is 'black', 'ghost' or a seat 0-{seats - 1}")
    # the box has 24 dragon cubes (L40); a player's `cubes` is set alone (default 30), so
    # their colour is not summed across the supply, the bag and the health track
    black = st.bag["black"] + st.clank_area["black"]
    if black > 24:
        raise ValueError(f"bag and clank_area hold {black} black cubes: the box has 24 (L40)")
    for pile in ("row", "dungeon_deck"):          # dungeon cards only (L69-70, L186-190)
        _known_ids(engine, pile, getattr(st, pile), engine.cards, "card")
        other = next((c for c in getattr(st, pile) if engine.cards[c].card_type not in DUNGEON_CARDS), None)
        if other is not None:
            raise ValueError(f"{pile}: {other!r} is a {engine.cards[other].card_type} card, not a dungeon card "
                             "(the reserve's cards are in `reserve`)")
    for pile, types in PILE_TYPES.items():
        of_type(engine.data, pile, getattr(st, pile), types)
    _known_ids(engine, "market", st.market, engine.items, "market item")
    _known_ids(engine, "reserve", st.reserve, {c: d for c, d in engine.cards.items()
                                               if d.card_type == "reserve"}, "reserve card")
    for seat, p in enumerate(st.players):
        where = f"players[{seat}]"
        if p.status not in (ACTIVE, ESCAPED, KNOCKED_OUT):
            raise ValueError(f"{where}.status {p.status!r}: a status is "
                             f"{ACTIVE!r}, {ESCAPED!r} or {KNOCKED_OUT!r}")
        if p.active and len(p.track) >= engine.health:
            raise ValueError(f"{where}.damage {len(p.track)}: an active player has taken at most "
                             f"{engine.health - 1} (health {engine.health}); say status: knocked_out")
        held = sorted(t for t in p.tokens if t in engine.token_defs
                      and engine.token_defs[t].token_type == "treasure")
        if held:
            raise ValueError(f"{where}.tokens: {held[0]!r} is a treasure: list it in `treasures`")
        if p.active and p.pos not in st.cells:
            raise ValueError(f"{where}.pos {list(p.pos)} is no room on the map "
                             f"(rooms at {sorted(list(pos) for pos in st.cells)})")
        for zone in ("hand", "deck", "discard"):
            _known_ids(engine, f"{where}.{zone}", getattr(p, zone), engine.cards, "card")
        _known_ids(engine, f"{where}.tokens", p.tokens, engine.token_defs, "token")
        _known_ids(engine, f"{where}.treasures", p.treasures, engine.token_defs, "token")
        _known_ids(engine, f"{where}.market", [item for item, _ in p.market], engine.items, "market item")


# steps the runner plays itself, besides a player's actions
RUNNER_STEPS = ("turn_end", "out_turn", "dragon_attack", "score")
REFUSAL = "illegal"         # the refused step's key; `fails: true` is read as it (runtime/scenario.py)


def _known_ids(engine: Engine, where: str, ids, known: dict, kind: str) -> None:
    """An id the content lacks, named at its entry (`row[0]`, so that the failure stands at
    its line) with the closest id of the kind."""
    for i, entry in enumerate(ids):
        if entry not in known:
            close = difflib.get_close_matches(str(entry), [str(k) for k in known], n=1)
            at = where if isinstance(ids, dict) else f"{where}[{i}]"
            raise ValueError(f"{at}: no {kind} {entry!r} in the content; "
                             + (f"did you mean `{close[0]}`?" if close else PACK_ID_HINT))


def option_shapes(engine: Engine) -> dict:
    """Every kind of option `legal_actions` can offer, with the values its keys can take."""
    cards = set(engine.cards)
    # a move goes to a room on the map: one to [9, 9], where none is, was refused vacuously
    position = lambda v: isinstance(v, (list, tuple)) and len(v) == 2 and tuple(v) in engine.state.cells  # noqa: E731
    return {"play": {"card": cards}, "acquire": {"card": cards}, "use": {"card": cards},
            "defeat": {"card": cards}, "move": {"to": position, "portal": {True}},
            "explore": {"edge": set("NESW")}, "take_treasure": {}, "room": {},
            "buy": {"item": set(engine.items), "coupon": {True, False}},
            "token": {"token": set(engine.token_defs)}, "end": {}}


def _seat(st: State, seat) -> int:
    """A step's or expectation's `player`: a seat of the scenario's players."""
    if not isinstance(seat, int) or not 0 <= seat < len(st.players):
        raise ValueError(f"player {seat!r}: the scenario's players are seats 0-{len(st.players) - 1}")
    return seat


def _run_step(engine: Engine, step: dict, results: dict) -> None:
    st = engine.state
    p = st.players[_seat(st, step.get("player", 0))]
    agent = engine.agents[p.seat]
    agent.choices = list(step.get("choose", []))
    known_keys("step", step, STEP_KEYS)
    do = step.get("do")
    if do is None:
        raise ValueError(f"step {step!r} has no `do` (play, acquire, use, defeat, move, explore, "
                         "take_treasure, room, buy, token, end, turn_end, out_turn, dragon_attack, score)")
    if step.get("illegal") and do in RUNNER_STEPS:
        # the runner plays these, the engine never refuses them: it was played and passed
        raise ScenarioError(f"illegal: true refuses a player's action, not {do!r} (a step the runner plays)")
    if st.over and do in RUNNER_STEPS and do != "score":   # no action is legal then; these the runner played
        raise AssertionError(game_over_step(st.end_reason))
    if do == "turn_end":
        st.current = p.seat
        engine.end_turn(p)
    elif do == "out_turn":              # L617: the turn of a player who escaped or was knocked out
        if p.active:
            raise ValueError(f"out_turn: player {p.seat} is still in the game (status {p.status!r}); "
                             "an out turn is an escaped or knocked-out player's")
        engine.out_turn(p)
    elif do == "dragon_attack":
        engine.dragon_attack()
    elif do == "score":
        results["score"] = score(engine)
    else:
        if do not in option_shapes(engine):
            kinds = sorted(option_shapes(engine))
            close = difflib.get_close_matches(str(do), [*kinds, *RUNNER_STEPS], n=1)
            raise ValueError(f"step do: {do!r} is no action"
                             + (f"; did you mean `{close[0]}`?" if close else "")
                             + f" (a player's: {kinds}; also {', '.join(RUNNER_STEPS)})")
        option = {k: v for k, v in step.items() if k in OPTION_KEYS}
        legal = engine.legal_actions(p)
        found = next((o for o in legal if matches(option, o)), None)
        if step.get("illegal"):
            refuse_unofferable(option, option_shapes(engine))
            refuse_unplayed(step)
            if found is not None:
                raise AssertionError(f"{option} was expected to be illegal but is legal")
            return
        if found is None:
            raise AssertionError(f"{option} is not legal{_why_not(engine, p, option)}; legal: {legal}")
        engine.apply(p, found)
    if agent.choices:        # a step carried out asked for fewer answers than the script gives
        raise ScenarioError(f"scripted choices left unused: {agent.choices}")


def _why_not(engine: Engine, p, option: dict) -> str:
    """Why a card step is refused, when it is for want of the card or of points: a tester
    sees "(player 0 has 1 combat; bone_bats needs 2)", not only the list of legal options."""
    if engine.state.over:       # a hand-built state with no dungeon deck ends at its first turn_end (L530)
        return f" (the game is over: {engine.state.end_reason})"
    if not p.active:
        return f" (player {p.seat} is {p.status})"
    card = engine.cards.get(option.get("card")) if isinstance(option.get("card"), str) else None
    do = option.get("do")
    if card is None or do not in ("defeat", "acquire", "use"):
        return ""
    in_reserve = card.card_type == "reserve" or card.id == "goblin"
    if not in_reserve and card.id not in engine.state.row:
        return f" ({card.id} is not in the dungeon row: {list(engine.state.row)})"
    need, has, what = ((card.defeat_cost, p.combat, "combat") if do == "defeat"
                       else (card.cost, p.skill, "skill"))
    if need is not None and has < need:
        return f" (player {p.seat} has {has} {what}; {card.id} needs {need})"
    return ""


# Setup keys this runner reads as true or false, at any depth: `lore: "no"` must fail, not
# count as true (runtime/scenario.py checks them before the run).
FLAGS = frozenset(("depths", "knocked_in_depths", "portal", "used"))

# the player fields an expectation may check (the format's list)
PLAYER_FIELDS = frozenset((
    "pos hand deck discard play_area hand_size deck_size discard_size discard_has skill combat "
    "movement gold lockpicks cubes damage clank track tokens treasures market signposts status "
    "escaped knocked_in_depths mastery clank_gained neg_bank no_movement").split())


def _check(engine: Engine, exp: dict, results: dict) -> str | None:
    st = engine.state

    def cmp(label, got, want):
        return None if got == want else f"{label}: expected {want!r}, got {got!r}"
    check_expect_keys(exp)
    if problem := expectation_problem(engine, exp):
        return problem
    if "legal" in exp:
        p = st.players[_seat(st, exp.get("player", 0))]
        if not exp.get("present", True):
            refuse_unofferable(exp["legal"], option_shapes(engine))
        there = any(matches(exp["legal"], o) for o in engine.legal_actions(p))
        return cmp(f"{exp['legal']} legal", there, exp.get("present", True))
    if "room" in exp:
        cell = st.cells.get(_pos(exp["room"]))
        if cell is None:
            return f"no room at {exp['room']}"
        for key in ("treasures", "idols", "signposts", "used", "exits"):
            got, want = as_cards(key, getattr(cell, key, None), exp.get(key))    # treasures: L661-665
            if key in exp and (problem := cmp(f"room {exp['room']} {key}", got, want)):
                return problem
        if "tile" in exp:
            return cmp("tile", cell.tile.id, exp["tile"])
        return None
    if "player" in exp:
        p = st.players[_seat(st, exp["player"])]
        unknown = sorted(set(exp) - PLAYER_FIELDS - {"player"})
        if unknown:     # read by getattr, a misspelt `helth` ended in "AttributeError: 'Player'..."
            raise ScenarioError(f"unknown player field(s) {unknown}; known: {sorted(PLAYER_FIELDS)}")
        for key, want in exp.items():
            if key == "player":
                continue
            if key == "damage":
                got = p.damage_taken
            elif key == "clank":
                got = st.clank_area[p.seat]
            elif key == "pos":
                got, want = p.pos, _pos(want)
            elif key == "deck":         # top first, as `setup:` writes it (the list's end is the top)
                got = list(reversed(p.deck))
            elif key in ("hand_size", "deck_size", "discard_size"):
                got = len({"hand_size": p.hand, "deck_size": p.deck, "discard_size": p.discard}[key])
            elif key == "tokens":       # {} holds none: it compared nothing, and passed
                got = {k: p.tokens[k] for k in want} if want else {k: n for k, n in p.tokens.items() if n}
            elif key == "discard_has":      # as many of each as listed (two Burgles: two)
                got, want, key = sorted((Counter(want) - Counter(p.discard)).elements()), [], "discard_has, missing"
            elif key == "market":       # an item written [item, points] or, as in setup, its id alone
                got, want = market_as_written(p.market, want)
            elif key == "escaped":
                got = p.status == ESCAPED
            else:
                got = getattr(p, key)
            got, want = as_cards(key, got, want)
            if problem := cmp(f"player {exp['player']} {key}", got, want):
                return problem
        return None
    if "scores" in exp or "winners" in exp:
        result = results.get("score") or score(engine)
        for key in ("scores", "winners"):
            if key in exp and (problem := cmp(key, result[key], exp[key])):
                return problem
        return None
    if "treasure_stack" in exp:
        return cmp("treasure stack", st.treasure_stack, exp["treasure_stack"])
    for pile, label in (("clank_area", "Clank! area"), ("bag", "bag")):
        if pile in exp:         # the cubes listed (0: none of them), as every expected mapping; {}: empty
            held, want = {str(k): v for k, v in getattr(st, pile).items() if v}, {str(k): v for k, v in exp[pile].items()}
            return cmp(label, {k: held.get(k, 0) for k in want} if want else held, want)
    if "row_size" in exp:
        return cmp("row size", len(st.row), exp["row_size"])
    if "row" in exp:
        return cmp("row", sorted(st.row), sorted(exp["row"]))
    if "dungeon_discard" in exp:
        return cmp("dungeon discard", st.dungeon_discard, exp["dungeon_discard"])
    if "rage" in exp:
        return cmp("rage space", st.rage + 1, exp["rage"])
    if "tile_stack" in exp:
        if isinstance(exp["tile_stack"], list):      # the tiles, top first, as setup writes them
            return cmp("tile stack", list(reversed(st.tile_stack)), exp["tile_stack"])
        return cmp("tile stack size", len(st.tile_stack), exp["tile_stack"])
    if "market" in exp:              # the items named, as `tokens` of a player
        want = exp["market"]
        return cmp("market", {k: st.market.get(k) for k in want}, want)
    if "reserve" in exp:            # the piles named (L57-59, L296)
        return cmp("reserve", {k: st.reserve.get(k, 0) for k in exp["reserve"]}, exp["reserve"])
    if pile := next((k for k in SUPPLY_PILES if k in exp), None):     # top first as setup, or a count
        got = list(reversed(getattr(st, pile)))
        return cmp(pile, got if isinstance(exp[pile], list) else len(got), exp[pile])
    if "over" in exp:
        return cmp("game over", st.over, exp["over"])
    if "log" in exp:
        return None if any(exp["log"] in line for line in st.log) else f"no log line contains {exp['log']!r}"
    return f"unknown expectation {exp!r}"


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        engine = build(data, scenario.get("setup") or {})
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, EffectError) as err:
        return [setup_failure(err, "clank_catacombs")]
    results: dict = {}
    for i, step in enumerate(scenario.get("steps") or []):
        try:
            _run_step(engine, step, results)
        except (AssertionError, ScriptError, EffectError, KeyError, TypeError, ValueError,
                IndexError, AttributeError) as err:     # a value of the wrong shape
            return [f"steps[{i}]: {in_its_terms(err, 'clank_catacombs')}"]
    if left := engine.rng.left_over():
        return [left]
    return check_expectations(scenario.get("expect"), lambda exp: _check(engine, exp, results))
