"""Clank! Catacombs' setup A-H: the map, the market, the dragon, the players."""
from __future__ import annotations

from tomecraft.runtime.engines.clank_catacombs.state import Cell, Player, State, rule


def new_state(data, players: int, rng, side: str | None = None) -> State:
    """`side`: the starting tile's id (default: the content's first start tile by id, the
    double-sided tile's A side in the base game)."""
    if players > rule(data, "max_players"):
        raise ValueError(f"{players} players need the 墓穴派对 pack (packs/tomb_party); "
                         f"the base game is for at most {rule(data, 'max_players')}")
    cards = data.kinds["card"]
    tokens = data.kinds["token"]
    # B: 22 depth tiles shuffled, 2 of the 6 safe tiles back to the box, 4 on top.
    depths = [t.id for t in data.of("tile") if t.area == "depths" for _ in range(t.count)]
    safe = [t.id for t in data.of("tile") if t.area == "safe" for _ in range(t.count)]
    rng.shuffle(depths)
    rng.shuffle(safe)
    stack = depths + safe[:rule(data, "safe_tiles_used")]           # top last
    # C: treasure stack by value (lowest on top), secrets and prisoners shuffled.
    treasures = sorted((t for t in data.of("token") if t.token_type == "treasure" for _ in range(t.count)),
                       key=lambda t: (t.value, not t.above_equal))
    def pile(kind):                                  # the PILED token types
        ids = [t.id for t in data.of("token") if t.token_type in kind for _ in range(t.count)]
        rng.shuffle(ids)
        return ids
    state = State(players=[], cells={}, tile_stack=stack,
                  treasure_stack=[t.id for t in treasures], majors=pile(("major_secret",)),
                  minors=pile(("minor_secret",)), prisoners=pile(("prisoner", "coupon")),
                  dungeon_deck=[])
    state.bag["black"] = data.get("component", "dragon_cubes").count
    state.ghosts = data.get("component", "ghost_cubes").count
    state.market = {i.id: list(i.points) for i in data.of("market_item")}
    state.mastery_left = min(players, tokens["mastery"].count)
    # D: the starting tile.
    start = data.get("tile", side or min(t.id for t in data.of("tile") if t.area == "start"))
    for i, (dx, dy, room_id, exits) in enumerate(start.cells):
        icons = {}
        if dy == 1 and start.icons:                     # the icons are on the upper half's tunnels
            icons = {k: list(start.icons[k]) for k in "NESW" if k in start.icons}
        cell = Cell((dx, dy), start, data.get("room", room_id), exits, icons, bool(start.depths[i]))
        if room_id == "monkey_shrine":
            cell.idols = tokens["monkey_idol"].count
        state.cells[(dx, dy)] = cell
    mausoleum = next(p for p, c in state.cells.items() if c.room.room_type == "mausoleum")
    # E: reserve and a dungeon row with no dragon-attack icon.
    for c in data.of("card"):
        if c.card_type == "reserve":
            state.reserve[c.id] = c.count
    deck = [c.id for c in data.of("card") if c.card_type in ("acquire", "device", "monster")
            for _ in range(c.count)]
    rng.shuffle(deck)
    row, removed = [], []
    while len(row) < rule(data, "row_size"):
        cid = deck.pop()
        (removed if cards[cid].dragon_attack else row).append(cid)
    deck += removed
    rng.shuffle(deck)
    state.row, state.dungeon_deck = row, deck
    # F, G: cubes, lockpicks, starting decks, 5 cards.
    start_deck = [c.id for c in data.of("card") if c.card_type == "starting" for _ in range(c.per_deck)]
    per_player = data.get("component", "player_cubes").per_player
    for seat in range(players):
        p = Player(seat, mausoleum, cubes=per_player, lockpicks=rule(data, "start_lockpicks"))
        p.deck = list(start_deck)
        rng.shuffle(p.deck)
        p.hand = [p.deck.pop() for _ in range(rule(data, "hand_size"))]
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
