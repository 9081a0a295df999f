"""What a hand-built Clank! Catacombs position may hold (scenario.py calls `check_supply` once
the players are built): no more of the box's limited components than it has, where a rule reads
the supply, and on each room only what that room holds. Such a setup played on silently: 7 ghost
cubes (5 in the box, L53; a haunting with all 5 out adds none, L432), a second 10-point crown
(the board's 3, L107, L172; a buyer takes the highest left, L898), a signpost room with five
cubes or a player's cube on it twice (4 spaces, one record per player and room, L480-484, L671),
more mastery tokens than players (L180), a treasure in a plain room (never taken nor said). What
the setup leaves out is counted from what it places: the supply keeps the ghosts nobody placed,
the market board the items nobody bought, the Mausoleum the mastery tokens no escaped player
took (the `ghosts: 5`, full board and `mastery_left: players` defaults counted them twice), and
a knocked-out player left without `knocked_in_depths` fell where its marker lies (scored 0 in
the depths, L605-607: a player knocked out on a depths tile scored as if in a safe room).
Treasures and idols are not counted: a tie of two equal treasures (L637) or an idol returned
to a full shrine (L673) is set up by giving a player a copy."""
from __future__ import annotations

from collections import Counter


def check_supply(engine, setup: dict) -> None:
    st = engine.state
    n = len(st.players)
    _ghosts(engine, setup)
    _market(engine, setup)
    _players_hold(engine)
    _own_cubes(engine, setup)
    _piles(engine)
    held = [p.mastery for p in st.players]
    left = setup.get("mastery_left")
    if sum(held) + (left or 0) > n:
        at = (f"setup.mastery_left {left}" if left is not None and left > 0 else
              f"setup.players[{max(range(n), key=lambda s: held[s])}].mastery")
        raise ValueError(f"{at}: the players hold {sum(held)} mastery token(s) and {left or 0} are "
                         f"left by the Mausoleum: a game of {n} sets out {n} (L180)")
    if left is None:
        st.mastery_left = n - sum(held)
    for spec, p in zip(setup.get("players") or [], st.players):
        if p.status == "knocked_out" and "knocked_in_depths" not in spec and p.pos in st.cells:
            p.knocked_in_depths = st.cells[p.pos].depths     # where the marker lies (L605, L607)
    for i, spec in enumerate(setup.get("tiles") or []):
        cell = st.cells.get((spec["at"][0], spec["at"][1]))
        if cell is not None:
            _room_holds(cell, spec, f"setup.tiles[{i}]")
        if cell is not None and cell.signposts:
            _signposts(cell, f"setup.tiles[{i}].signposts")


# What only some rooms hold (a treasure in a plain room was set up, never taken nor said):
# the key, the room type that holds it, the rulebook line.
ROOM_HOLDS = (("treasures", "treasure_room", "a treasure room's treasure, L348, L408"),
              ("plus_signs", "treasure_room", "a treasure room's + signs, L410"),
              ("idols", "monkey_shrine", "the Monkey Shrine's golden monkey idols, L178, L468"))


def _room_holds(cell, spec: dict, where: str) -> None:
    room = cell.room
    for key, room_type, what in ROOM_HOLDS:
        if spec.get(key) and room.room_type != room_type:
            raise ValueError(f"{where}.{key}: a {room.id} room holds no {key} ({what})")
    if spec.get("used") and not getattr(room, "once_per_game", False):
        raise ValueError(f"{where}.used: a {room.id} room has no locked chest, tome or cell to "
                         "have been unlocked (L356-358)")


def _ghosts(engine, setup: dict) -> None:
    st = engine.state
    box = engine.data.get("component", "ghost_cubes").count
    placed = st.clank_area["ghost"] + st.bag["ghost"]
    supply = setup.get("ghosts")
    if placed + (supply or 0) > box:
        at = ("setup.ghosts" if supply else "setup.clank_area.ghost" if st.clank_area["ghost"]
              else "setup.bag.ghost")
        raise ValueError(f"{at}: the Clank! area and the bag hold {placed} ghost cube(s) and the "
                         f"supply {supply or 0}: the box has {box} (L53)")
    if supply is None:
        st.ghosts = box - placed


def _market(engine, setup: dict) -> None:
    st = engine.state
    named = setup.get("market") or {}
    for item_id, item in engine.items.items():
        bought = Counter(pts for p in st.players for it, pts in p.market if it == item_id)
        box = Counter(item.points)
        if item_id not in named:          # the board as set up, less what the players bought
            left = list(item.points)
            for pts in bought.elements():
                if pts in left:
                    left.remove(pts)
            st.market[item_id] = left
        if bought + Counter(st.market.get(item_id, [])) - box:
            seat = next((p.seat for p in st.players if any(it == item_id for it, _ in p.market)), None)
            at = (f"setup.market.{item_id}" if item_id in named or seat is None
                  else f"setup.players[{seat}].market")
            raise ValueError(f"{at}: the players hold {item_id} {sorted(bought.elements(), reverse=True)} "
                             f"and the market board {st.market.get(item_id, [])}: the box has "
                             f"{list(item.points)} (L95-107, L172)")


def _players_hold(engine) -> None:
    """What one player can hold: no more treasures than its limit (one, +1 per Backpack, L348,
    L880: two treasures without a Backpack were scored), a treasure if it escaped (the
    Mausoleum is not entered empty-handed, L424), and a mastery token only once it escaped,
    one (L601: an active player's mastery or a second one were scored 20 each)."""
    for p in engine.state.players:
        where = f"setup.players[{p.seat}]"
        limit = engine.treasure_limit(p)
        if len(p.treasures) > limit:
            raise ValueError(f"{where}.treasures: {len(p.treasures)} held, the limit is {limit} "
                             "(one, and one more per Backpack: L348, L880)")
        if p.status == "escaped" and not p.treasures:
            raise ValueError(f"{where}: an escaped player holds a treasure (the Mausoleum is not "
                             "entered empty-handed, L424); list it in `treasures`")
        if p.mastery > (1 if p.status == "escaped" else 0):
            raise ValueError(f"{where}.mastery {p.mastery}: a player takes one mastery token, as it "
                             f"escapes (L601); this one is {p.status}")


def _own_cubes(engine, setup: dict) -> None:
    """A player has 30 cubes of its colour (L45, L212): those on its health track, in the Clank!
    area, in the bag and on signpost rooms, and its supply if the setup says it (`cubes` left
    out is 30 as set alone). 40 of a seat's cubes in the bag were drawn by the dragon."""
    st = engine.state
    box = engine.data.get("component", "player_cubes").per_player
    on_rooms = [seat for cell in st.cells.values() for seat in (cell.signposts or [])]
    for spec, p in zip(setup.get("players") or [], st.players):
        track = sum(1 for c in p.track if c != "black")    # a ghost's black cube is no own cube
        placed = (track + st.clank_area[p.seat] + st.bag[p.seat] + on_rooms.count(p.seat))
        total = placed + (p.cubes if "cubes" in spec else 0)
        if total > box:
            raise ValueError(f"setup.players[{p.seat}]: {total} of its cubes are set up (supply "
                             f"{p.cubes if 'cubes' in spec else 'left out'}, health track {track}, "
                             f"Clank! area {st.clank_area[p.seat]}, bag {st.bag[p.seat]}, signposts "
                             f"{on_rooms.count(p.seat)}): a player has {box} (L45, L212)")


def _piles(engine) -> None:
    """The dungeon row has its 6 spaces (L515-519: a 7th card was never refilled past, and a
    7th danger card drew a cube), and the tile stack holds square tiles (the starting tile
    is placed at setup, L176; set up in the stack it was explored as a square tile)."""
    st = engine.state
    if len(st.row) > engine.row_size:
        raise ValueError(f"row: {len(st.row)} cards, the dungeon row has {engine.row_size} spaces (L515-519)")
    tiles = engine.data.kinds["tile"]
    start = next((t for t in reversed(st.tile_stack) if getattr(tiles.get(t), "area", None) == "start"), None)
    if start is not None:
        raise ValueError(f"tile_stack: {start!r} is the starting tile, placed at setup (L176); "
                         "the stack holds square tiles (L27-28)")


def _signposts(cell, at: str) -> None:
    at = f"{at} {cell.signposts}"
    if cell.room.room_type != "signpost":
        raise ValueError(f"{at}: only a signpost room holds the players' cubes (L480)")
    spaces = cell.room.spaces or 4
    if len(cell.signposts) > spaces:
        raise ValueError(f"{at}: the room has {spaces} spaces (L671)")
    if len(set(cell.signposts)) < len(cell.signposts):
        raise ValueError(f"{at}: a player records a signpost room once (L484)")
