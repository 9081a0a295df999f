"""Clank! Catacombs' map: tunnels between rooms, locks and crossings, moving, portals,
teleporting, escaping, and exploring (placing catacomb tiles).

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.clank_catacombs.state import (
    ESCAPED, OPPOSITE, Cell, Player, rotate, step, turned,
)
from tomecraft.runtime.usage import quiet

# Tile-edge marks the map itself reads (which way a one-way tunnel goes); `one_way_arrow` is
# also a tunnel icon, run once per move by `do_move`, not among a tunnel's crossing costs.
DIRECTION = ("one_way_arrow", "one_way_in")
# The icons whose costs `crossing_ok` knows how to count without trying them.
COUNTED = ("footprints", "lock_icon", "monster_icon")
KNOWN = frozenset(COUNTED + DIRECTION)
# (d, turns): the side of a tile turned `turns` quarter turns that faces a room across its
# tunnel `d` (`explore` tries each rotation).
FACING = {(d, turns): turned(OPPOSITE[d], -turns) for d in OPPOSITE for turns in range(4)}


def other_icons(icons: list) -> list:
    """A tunnel's icons other than the counted and direction ones (a pack's new tunnel
    icons, on a tile that carries them), in the order the tunnel lists them."""
    return [i for i in icons if i not in COUNTED and i not in DIRECTION]


def tile_icons(tile) -> dict:
    """A catacomb tile's icons by side as placed unturned (read only: `rotate` copies them),
    remembered per tile: tiles are content, explored again in every game."""
    found = _TILE_ICONS.get(id(tile))
    if found is None or found[0] is not tile:
        icons = {k: list(tile.icons[k]) for k in "NESW" if tile.icons and k in tile.icons}
        found = _TILE_ICONS[id(tile)] = (tile, icons)    # the tile is kept: its id stays its own
    return found[1]


_TILE_ICONS: dict = {}      # id(tile) -> (tile, its icons by side)


class Tunnel:
    """A tunnel out of a room as the map has it now (`Board.tunnel`), with the counts of its
    icons `can_take` reads; `plain`: no icon and not against an arrow (crossing it takes a
    movement and nothing else). Read only."""
    __slots__ = ("d", "dst", "icons", "against", "opens", "to_mausoleum",
                 "footprints", "locks", "monsters", "known", "plain")

    def __init__(self, d: str | None, dst: Cell | None, icons: list, against: bool) -> None:
        self.d = d
        self.dst = dst
        self.icons = icons
        self.against = against
        self.opens = dst is not None and dst.opens(OPPOSITE[d])
        self.to_mausoleum = dst is not None and dst.room.room_type == "mausoleum"
        self.plain = not icons and not against
        if icons:
            self.footprints = icons.count("footprints")
            self.locks = icons.count("lock_icon")
            self.monsters = icons.count("monster_icon")
            self.known = KNOWN.issuperset(icons)
        else:
            self.footprints = self.locks = self.monsters = 0
            self.known = True


class Board:
    # --- the map -------------------------------------------------------------------------
    def tunnel(self, src: Cell, d: str):
        """(destination cell or None for the map edge, icons, against the arrow)."""
        dst = self.state.cells.get(step(src.pos, d))
        mine = list(src.icons.get(d, ()))
        if dst is None:
            return None, mine, "one_way_in" in mine
        theirs = list(dst.icons.get(OPPOSITE[d], ()))
        against = "one_way_in" in mine or "one_way_arrow" in theirs
        icons = mine + theirs
        if "lock_icon" in icons:                         # opened locks (L327) are gone
            for _ in range(self.state.unlocked[frozenset((src.pos, dst.pos))]):
                if "lock_icon" in icons:
                    icons.remove("lock_icon")
        return dst, icons, against

    def unlock(self, p: Player, info: dict) -> None:
        """A lock icon opened for good, for every player (L327)."""
        self.state.unlocked[frozenset((p.pos, tuple(info["to"])))] += 1
        self.log(f"{p.name} unlocks a lock icon")

    def crossing_ok(self, p: Player, icons: list, against: bool, movement: bool = True) -> bool:
        if not icons and not against:              # a plain tunnel: a movement, if asked
            return not movement or (not p.no_movement and p.movement >= 1)
        return self.can_take(p, Tunnel(None, None, icons, against), movement)

    @staticmethod
    def may_reverse(p: Player) -> bool:
        """Whether the player may cross against a one-way arrow (the Catacomb Map, L846-848):
        a held token whose passive allows it, or an allow_reverse this turn. (The map by id
        too: a scenario may hand it out without its passive running.)"""
        return bool(p.reverse_this_turn or p.tokens["catacomb_map"]
                    or any(p.tokens[t] for t in p.reverse_by))

    def can_take(self, p: Player, tunnel: "Tunnel", movement: bool = True) -> bool:
        """Whether the player may cross the tunnel now (`crossing_ok` of its icons)."""
        if tunnel.against and not self.may_reverse(p):
            return False
        if movement:
            if p.no_movement or p.movement < 1 + tunnel.footprints:
                return False
        if p.lockpicks < tunnel.locks:
            return False
        if not self.may_take_damage(p, max(0, tunnel.monsters - p.combat)):
            return False
        return tunnel.known or self._can_cross(p, tunnel.icons, movement)

    def _can_cross(self, p: Player, icons: list, movement: bool) -> bool:
        """Whether the player can pay a tunnel whose icons include ones `crossing_ok` cannot
        count (a pack's): their `cross` effects are run, with the counted icons', on a copy
        of the game; a crossing then still needs what the plain tunnel's effect asks."""
        trial = self.trial()
        me = trial.state.players[p.seat]
        ctx = trial.ctx(me, icons=list(icons))
        with quiet():
            try:
                if not trial.pay_icons(me, ctx, icons):
                    return False
                return not movement or trial.icons["plain"].cross.can(ctx)
            except (EffectError, LookupError, ValueError):
                return False

    def pay_icons(self, p: Player, ctx, icons: list) -> bool:
        """Run the `cross` effect of each icon on the tunnel: locks, footprints, any other
        icon a tile carries, then monsters. False as soon as one cannot be paid."""
        for icon in ("lock_icon", "footprints"):
            for _ in range(icons.count(icon)):
                if not self.icons[icon].cross(ctx):
                    return False
        for icon in other_icons(icons):
            if not self.icons[icon].cross(ctx):
                return False
        for _ in range(icons.count("monster_icon")):
            self.icons["monster_icon"].cross(ctx)
        return True

    def move_options(self, p: Player) -> list[dict]:
        src = self.state.cells[p.pos]
        out = []
        # what `can_take` answers for a plain tunnel: a movement to spend
        can_walk = not p.no_movement and p.movement >= 1
        for tunnel in self.tunnels_from(src):
            dst = tunnel.dst
            if dst is None:
                if self.state.tile_stack and \
                        (can_walk if tunnel.plain else self.can_take(p, tunnel)):
                    out.append({"do": "explore", "edge": tunnel.d})
                continue
            if not tunnel.opens:
                continue
            if tunnel.to_mausoleum and not p.treasures:
                continue
            if can_walk if tunnel.plain else self.can_take(p, tunnel):
                out.append({"do": "move", "to": list(dst.pos)})
        if src.portal and can_walk:
            for other in self.portals():
                if other is not src:
                    out.append({"do": "move", "to": list(other.pos), "portal": True})
        return out

    def tunnels_from(self, src: Cell) -> list["Tunnel"]:
        """The tunnels out of the room, one per exit in the order of its exits (`tunnel`).
        A tunnel changes only when a tile is placed at its open end or a lock is opened:
        remembered per room with the map's size and the number of locks opened; after the
        map grew, only the tunnels whose open end it reached are looked at again (a trial's
        copy of the game starts without them: its map may grow otherwise)."""
        st = self.state
        cells = st.cells
        locks = sum(st.unlocked.values()) if st.unlocked else 0
        cache = self.__dict__.setdefault("cache_tunnels", {})
        found = cache.get(src.pos)
        if found is None or found[1] != locks:
            tunnels = [Tunnel(d, *self.tunnel(src, d)) for d in src.exits]
        elif found[0] == len(cells):
            return found[2]
        else:                                               # the map grew since
            tunnels = [Tunnel(t.d, *self.tunnel(src, t.d))
                       if t.dst is None and step(src.pos, t.d) in cells else t
                       for t in found[2]]
        cache[src.pos] = [len(cells), locks, tunnels]
        return tunnels

    def portals(self) -> list:
        return [c for _, c in sorted(self.state.cells.items()) if c.portal]

    def cross(self, p: Player, to, icons: list, portal: bool = False) -> None:
        """Pay a tunnel's icons through the tunnel-icon effects, then step through it."""
        ctx = self.ctx(p, to=tuple(to), icons=icons)
        if not self.pay_icons(p, ctx, icons):
            raise EffectError(f"{p.name} cannot pay the tunnel's icons {icons}")
        base = self.icons["portal" if portal else "plain"]
        if not base.cross(ctx):
            raise EffectError(f"{p.name} cannot cross to {to}")

    def do_move(self, p: Player, option: dict) -> None:
        to = tuple(option["to"])
        if option.get("portal"):
            self.cross(p, to, [], portal=True)
            return
        src = self.cell_of(p)
        tunnel = next(t for t in self.tunnels_from(src) if t.dst is not None and t.dst.pos == to)
        icons, against = list(tunnel.icons), tunnel.against
        ctx = self.ctx(p, against=against)
        if not self.icons["one_way_arrow"].cross(ctx):
            raise EffectError(f"{p.name} cannot cross against the arrow")
        self.cross(p, to, icons)

    def arrive(self, p: Player, pos) -> None:
        p.pos = tuple(pos)
        cell = self.cell_of(p)
        room = cell.room
        if self.log_enabled:
            self.log(f"{p.name} enters {room.id} at {p.pos}")
        rewarded = room.reward and cell.pos in p.rewards  # a reward once per room a turn
        if room.on_enter is not None and not rewarded:
            if room.reward:
                p.rewards.add(cell.pos)
            room.on_enter(self.ctx(p, cell))
        self.emit("enter_room", p, room=room)

    def escape(self, p: Player) -> None:
        p.status = ESCAPED
        if self.state.mastery_left > 0:
            self.state.mastery_left -= 1
            p.mastery += 1
        self.log(f"{p.name} escapes with {p.treasures}")

    def teleport(self, p: Player) -> None:
        if not p.active:
            return
        src = self.cell_of(p)
        options = []
        for d in src.exits:
            dst = self.state.cells.get(step(src.pos, d))
            if dst is None:
                if self.state.tile_stack:
                    options.append({"do": "explore", "edge": d})
            elif dst.opens(OPPOSITE[d]) and (dst.room.room_type != "mausoleum" or p.treasures):
                options.append({"do": "move", "to": list(dst.pos)})
        if src.portal:
            options += [{"do": "move", "to": list(c.pos)} for c in self.portals() if c is not src]
        if not options:
            return
        choice = self.ask(p, "teleport", options)
        if choice["do"] == "explore":
            self.explore(p, choice["edge"], teleport=True)
        else:
            self.arrive(p, tuple(choice["to"]))

    def explore(self, p: Player, d: str, teleport: bool = False) -> None:
        st = self.state
        src = self.cell_of(p)
        tile = self.data.get("tile", st.tile_stack.pop())
        pos = step(src.pos, d)
        dx, dy, room_id, exits = tile.cells[0]
        raw_icons = tile_icons(tile)
        fits, connects = [], []
        mine = list(src.icons.get(d, ()))
        for turns in range(4):
            side = FACING[d, turns]             # the tile's side that turns to face the room
            if side not in exits:
                continue
            connects.append(turns)
            theirs = raw_icons.get(side, [])
            icons = mine + theirs
            against = "one_way_in" in mine or "one_way_arrow" in theirs
            if teleport or self.crossing_ok(p, icons, against):
                fits.append({"rotation": turns})
        if fits:
            turns = self.ask(p, "rotation", fits)["rotation"]
        else:                                            # gap 18: placed, but not crossed
            turns = connects[0] if connects else 0
        ex, ic = rotate(exits, raw_icons, turns)
        cell = Cell(pos, tile, self.rooms[room_id], ex, ic, tile.area == "depths",
                    tile.plus_signs or 0, bool(tile.portal))
        st.cells[pos] = cell
        if self.log_enabled:
            self.log(f"{p.name} explores {tile.id} at {pos} (rotation {turns})")
        if cell.room.on_reveal is not None:
            cell.room.on_reveal(self.ctx(p, cell))
        self.emit("reveal_tile", p, tile=tile)
        if tile.haunted:
            self.add_ghosts(1)
        if not fits:
            return
        if teleport:
            self.arrive(p, pos)
        else:
            _, icons, _ = self.tunnel(src, d)
            self.cross(p, pos, icons)
