"""Clank! Catacombs' setup A-H: the map, the market, the dragon, the players."""
from __future__ import annotations

from tomecraft.runtime.engines.clank_catacombs.state import Cell, Player, State, rule


def _piles(data) -> dict:
    """The content's piles before shuffling, by what they hold: tiles by area, treasures by
    value, secrets and prisoners, the dungeon deck, a starting deck (lists of ids, in the
    content's id order). Read only: remembered for the last content set up (a sim sets up
    every game from the same content)."""
    if _LAST and _LAST[0] is data:
        return _LAST[1]
    of = {kind: data.of(kind) for kind in ("tile", "token", "card")}
    treasures = sorted((t for t in of["token"] if t.token_type == "treasure"
                        for _ in range(t.count)), key=lambda t: (t.value, not t.above_equal))

    def tokens(kinds):
        return [t.id for t in of["token"] if t.token_type in kinds for _ in range(t.count)]
    piles = {
        "depths": [t.id for t in of["tile"] if t.area == "depths" for _ in range(t.count)],
        "safe": [t.id for t in of["tile"] if t.area == "safe" for _ in range(t.count)],
        "treasures": [t.id for t in treasures],
        "majors": tokens(("major_secret",)), "minors": tokens(("minor_secret",)),
        "prisoners": tokens(("prisoner", "coupon")),
        "deck": [c.id for c in of["card"] if c.card_type in ("acquire", "device", "monster")
                 for _ in range(c.count)],
        "start_deck": [c.id for c in of["card"] if c.card_type == "starting"
                       for _ in range(c.per_deck)],
    }
    _LAST[:] = [data, piles]
    return piles


_LAST: list = []            # [data, its piles]: `_piles` of the last content set up


def start_cells(data, start) -> dict:
    """The starting tile's rooms by position (setup D): its icons on the upper half's tunnels,
    the golden monkey idols in the Monkey Shrine (L178). A scenario's hand-built map uses it
    too, so its starting tile is the one a game plays on."""
    cells = {}
    for i, (dx, dy, room_id, exits) in enumerate(start.cells):
        icons = {}
        if dy == 1 and start.icons:                     # the icons are on the upper half's tunnels
            icons = {k: list(start.icons[k]) for k in "NESW" if k in start.icons}
        cell = Cell((dx, dy), start, data.get("room", room_id), exits, icons, bool(start.depths[i]))
        if room_id == "monkey_shrine":
            cell.idols = data.get("token", "monkey_idol").count
        cells[(dx, dy)] = cell
    return cells


def new_state(data, players: int, rng, side: str | None = None) -> State:
    """`side`: the starting tile's id (default: the content's first start tile by id, the
    double-sided tile's A side in the base game)."""
    if players > rule(data, "max_players"):
        raise ValueError(f"{players} players need the 墓穴派对 pack (packs/tomb_party); "
                         f"the base game is for at most {rule(data, 'max_players')}")
    cards = data.kinds["card"]
    tokens = data.kinds["token"]
    piles = _piles(data)
    # B: 22 depth tiles shuffled, 2 of the 6 safe tiles back to the box, 4 on top.
    depths = list(piles["depths"])
    safe = list(piles["safe"])
    rng.shuffle(depths)
    rng.shuffle(safe)
    stack = depths + safe[:rule(data, "safe_tiles_used")]           # top last
    # C: treasure stack by value (lowest on top), secrets and prisoners shuffled.
    def pile(kind):                                  # the PILED token types
        ids = list(piles[kind])
        rng.shuffle(ids)
        return ids
    state = State(players=[], cells={}, tile_stack=stack,
                  treasure_stack=list(piles["treasures"]), majors=pile("majors"),
                  minors=pile("minors"), prisoners=pile("prisoners"), dungeon_deck=[])
    state.bag["black"] = data.get("component", "dragon_cubes").count
    state.ghosts = data.get("component", "ghost_cubes").count
    state.market = {i.id: list(i.points) for i in data.of("market_item")}
    state.mastery_left = min(players, tokens["mastery"].count)
    # D: the starting tile.
    start = data.get("tile", side or min(t.id for t in data.of("tile") if t.area == "start"))
    state.cells.update(start_cells(data, start))
    mausoleum = next(p for p, c in state.cells.items() if c.room.room_type == "mausoleum")
    # E: reserve and a dungeon row with no dragon-attack icon.
    for c in data.of("card"):
        if c.card_type == "reserve":
            state.reserve[c.id] = c.count
    deck = list(piles["deck"])
    rng.shuffle(deck)
    row, removed = [], []
    while len(row) < rule(data, "row_size") and deck:   # a pack's row of 200: what the deck has
        cid = deck.pop()
        (removed if cards[cid].dragon_attack else row).append(cid)
    deck += removed
    rng.shuffle(deck)
    state.row, state.dungeon_deck = row, deck
    # F, G: cubes, lockpicks, starting decks, 5 cards.
    start_deck = piles["start_deck"]
    per_player = data.get("component", "player_cubes").per_player
    for seat in range(players):
        p = Player(seat, mausoleum, cubes=per_player, lockpicks=rule(data, "start_lockpicks"))
        p.deck = list(start_deck)
        rng.shuffle(p.deck)
        # a pack's hand of 12 from a 10-card deck draws the 10 (it stopped sim: IndexError)
        p.hand = [p.deck.pop() for _ in range(min(rule(data, "hand_size"), len(p.deck)))]
        state.players.append(p)
    # A: the dragon marker; H: the initial Clank! by seat.
    state.rage = rule(data, "rage_start")[str(players)] - 1
    party = players > 4 and "party_initial_clank" in data.kinds["rule"]
    clank = list(rule(data, "party_initial_clank" if party else "initial_clank"))
    for seat, p in enumerate(state.players):
        n = clank[seat] if seat < len(clank) else 0
        p.cubes -= n
        state.clank_area[seat] += n
    return state
