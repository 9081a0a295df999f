"""The board of a Deep Rock Galactic mission as the engine reads it: the monsters' and
tokens' definitions, line of sight, who may step or stop where, dice and decks.

The lowest layer of the engine (board -> combat -> monsters -> engine): these methods only
read and mark the state; nothing here damages, moves or activates anything.
"""
from __future__ import annotations

from typing import Any

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import cells_of
from tomecraft.runtime.engines.deep_rock_galactic.scripted import written_face
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, WALLS, Ctx, Dwarf, Monster
from tomecraft.runtime.engines.deep_rock_galactic.triggers import Triggers


def plain(value: Any) -> Any:
    """Generated Records and tuples -> plain dicts and lists (mission data)."""
    fields = getattr(value, "_fields", None)
    if fields is not None:
        return {k: plain(v) for k, v in fields.items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


_MAPS: dict[str, dict[Hex, str]] = {}     # map text -> its hexes: the last _MAPS_KEPT maps read
_MAPS_KEPT = 16


def parse_map(text: str) -> dict[Hex, str]:
    """The hexes of a mission map, read by the one map reader the checker also uses; each
    text read once (a sim plays one map every game): each caller gets its own copy."""
    cells = _MAPS.get(text)
    if cells is None:
        if len(_MAPS) >= _MAPS_KEPT:
            del _MAPS[next(iter(_MAPS))]               # the oldest
        cells = _MAPS[text] = cells_of(text)
    return dict(cells)


class Board(Triggers):
    """State queries of the Engine (engine.py builds the fields these read)."""

    def log(self, message: str) -> None:
        if self.log_enabled:
            self.lines.append(message)

    def monster_def(self, m: Monster):
        return self.data.kinds["monster"][m.kind]      # data.get("monster", ...), one call less

    def resistance(self, m: Monster, dtype: str) -> int:
        res = self.monster_def(m).resistances
        return int(plain(res).get(dtype, 0)) if res else 0

    def hp(self, m: Monster) -> int:
        return self.monster_def(m).hp
    def run(self, fx, you=None, self_=None, target=None, **info) -> bool:
        if fx is None:
            return False
        info.setdefault("play", self.new_play())
        ctx = Ctx(self, you=you, self=self_, target=target, info=info)
        return fx(ctx)

    # --- board tokens: their movement rules come from the board_token definitions -----------
    def tokens_at(self, h: Hex) -> list:
        defs = self.token_defs
        return [defs[k] for k, where in self.state.tokens.items() if h in where and k in defs]

    def token_flag(self, h: Hex, flag: str) -> bool:
        """Whether a token on h has `flag` (`tokens_at` read until the first that has it;
        every sight line asks this of each space it crosses)."""
        defs = self.token_defs
        for k, where in self.state.tokens.items():
            if h in where:
                t = defs.get(k)
                if t is not None and getattr(t, flag):
                    return True
        return False

    def stops_walker(self, h: Hex, flying: bool = False) -> bool:
        """A token that stops a walker entering it (goo): True, and the token is removed if
        its definition says so. Flying monsters ignore it unless it affects flyers."""
        stop = False
        for t in self.tokens_at(h):
            stops, affects_flying, removed = self.entry_stops[t.token]
            if stops and (affects_flying or not flying):
                stop = True
                if removed:
                    del self.state.tokens[t.token][h]
        return stop

    def entry_damage(self, h: Hex) -> int:
        return sum(t.damage_on_entry or 0 for t in self.tokens_at(h))

    # --- geometry and passability ----------------------------------------------------------
    def is_open(self, h: Hex) -> bool:
        return self.state.terrain(h) in OPEN or h in self.state.pod and not self.state.pod_returned

    def blocks_los(self, h: Hex, lob: str = "none") -> bool:
        # State.terrain, monster_at, dwarf_at inline: every sight line asks this of each space
        st = self.state
        t = st.cells.get(h, "x")
        if t in WALLS or t == "h" or t == "x":
            return True
        if lob == "all" or lob == "arc":
            return False
        if h in st.stalagmites or (st.tokens and self.token_flag(h, "blocks_line_of_sight")):
            return True
        for m in st.monsters.values():          # the first monster there (monster_at)
            if m.pos == h or m.tail == h:
                if self.monster_def(m).blocks_line_of_sight is not False:
                    return True
                break
        for d in st.dwarves:                    # the first dwarf there (dwarf_at)
            if d.pos == h and not d.in_pod:
                return "unconscious" not in d.statuses and "knocked_over" not in d.statuses
        return False

    def los(self, a: Hex, b: Hex, lob: str = "none") -> bool:
        if lob == "none":                    # blocks_los's own default: no call in between
            return hx.line_of_sight(a, b, self.blocks_los)
        return lob == "all" or hx.line_of_sight(a, b, lambda h: self.blocks_los(h, lob))

    def sight_blocker(self, lob: str = "none"):
        """`blocks_los(h, lob)` remembered per hex, for the many sight lines one search reads
        while nothing on the board changes (use it within that search only); its `sees(a, b)`:
        `hx.line_of_sight(a, b, blocks)`, remembered per pair."""
        seen, lines = {}, {}          # blocks per hex; sight per pair of hexes

        def blocks(h: Hex) -> bool:
            out = seen.get(h)
            if out is None:
                out = seen[h] = self.blocks_los(h, lob)
            return out

        def sees(a: Hex, b: Hex) -> bool:    # a monster's look asks its spots again
            out = lines.get((a, b))
            if out is None:
                out = lines[(a, b)] = hx.line_of_sight(a, b, blocks)
            return out
        blocks.sees = sees
        return blocks

    def dwarf_step(self, d: Dwarf, a: Hex, b: Hex) -> bool:
        st = self.state
        t = st.terrain(b)
        zipped = b in st.tokens.get("zipline_end", {})
        if t == "o":
            return b in st.tokens.get("platform", {}) or self.has_ability(d, "grappling_hook")
        if t not in OPEN and not (b in st.pod):
            return zipped
        if b in st.stalagmites and self.has_ability(d, "power_drill"):
            return True                    # destroyed as the Driller moves (L766)
        if b in st.stalagmites or st.monster_at(b):
            return self.has_ability(d, "grappling_hook")
        if b in st.tokens.get("flame", {}) and self.has_ability(d, "grappling_hook"):
            return False
        return True

    def dwarf_stepper(self, d: Dwarf):
        """`dwarf_step(d, _, b)` as a function of the space entered alone, with the board
        read once (a walk's search asks it of every space it reaches while nothing moves)."""
        st = self.state
        cells, stalagmites, pod = st.cells, st.stalagmites, frozenset(st.pod)
        zipped, platforms = st.tokens.get("zipline_end", {}), st.tokens.get("platform", {})
        flames = st.tokens.get("flame", {})
        scout, drills = self.has_ability(d, "grappling_hook"), self.has_ability(d, "power_drill")
        monsters = {h for m in st.monsters.values() for h in (m.pos, m.tail)}   # monster_at's

        def step(b: Hex) -> bool:
            t = cells.get(b, "x")
            if t == "o":
                return b in platforms or scout
            if t not in OPEN and b not in pod:
                return b in zipped
            if b in stalagmites:
                return drills or scout
            if b in monsters:
                return scout
            return not (scout and b in flames)
        return step

    def dwarf_can_stop(self, d: Dwarf, h: Hex) -> bool:
        st = self.state
        if st.terrain(h) not in OPEN and h not in st.pod:
            return False
        if h in st.stalagmites and not self.has_ability(d, "power_drill"):
            return False
        if st.terrain(h) == "o" or st.monster_at(h):
            return False
        other = st.dwarf_at(h)           # `is`: a dataclass's == compares every field
        if (other is not None and other is not d) or h == st.sentry or h in st.exits.values() \
                or h == st.supply_pod:
            return False
        return True

    def has_ability(self, d: Dwarf, ability: str) -> bool:
        """Whether the dwarf's class has the ability: play goes by it, not by the class."""
        return any(a.id == ability for a in self.data.get("dwarf", d.cls).abilities or ())

    def note_pod_left(self) -> None:
        """Once every dwarf has left the drop pod its spaces are cave (L194, L374)."""
        st = self.state
        if not st.pod_left and not any(d.pos in st.pod and not d.in_pod for d in st.dwarves):
            st.pod_left = True
            self.log("every dwarf has left the drop pod: its spaces are cave")

    def closed_pod(self) -> set[Hex]:
        """The drop pod spaces `pod_closed` tells: all of them or none (one test, not one a
        space: every monster's move and spawn asks)."""
        st = self.state
        return set(st.pod) if st.pod_returned or not st.pod_left else set()

    def pod_closed(self, h: Hex) -> bool:
        """A drop pod space monsters may not enter (L978): the pod is there, not yet flipped
        to cave, or back to pick the dwarves up."""
        st = self.state
        return h in st.pod and (st.pod_returned or not st.pod_left)

    def shielded(self, h: Hex) -> bool:
        return self.shield is not None and (h == self.shield or h in hx.neighbours(self.shield))

    def monster_step(self, m: Monster, a: Hex, b: Hex) -> bool:
        return self.monster_stepper(m)(a, b)

    def monster_stepper(self, m: Monster):
        """`step(a, b)`: whether the monster may move from a into b (L976-996), with the
        board read once (path searches call it thousands of times)."""
        st = self.state
        mdef = self.monster_def(m)
        flying = bool(mdef.flying)
        destroys = set(mdef.destroys_on_path or ())
        closed = self.closed_pod()
        ifg = set(st.tokens.get("ifg", {})) | set(st.tokens.get("ifg_field", {}))   # the IFG's area (L1351)
        platforms = set(st.tokens.get("platform", {}))
        blocking = _blocking_kinds(self.token_defs)
        blocked = {h for k, where in st.tokens.items() if k in blocking for h in where}
        shield = ({self.shield} | set(hx.neighbours(self.shield))) if self.shield is not None else set()
        standing = {d.pos for d in st.dwarves if d.conscious and not d.in_pod}
        cells, stalagmites = st.cells, st.stalagmites

        def step(a: Hex, b: Hex) -> bool:
            if b in closed or (a in shield) != (b in shield) or (a in ifg) != (b in ifg):
                return False
            t = cells.get(b, "x")
            if t == "x":
                return False
            if t in WALLS or t == "h":
                return "wall" in destroys
            if b in blocked:
                return False
            if t == "o":
                return flying or b in platforms
            if b in stalagmites:
                return flying or "stalagmite" in destroys
            # no monster passes a standing dwarf, a flyer neither (L988; L1101 lists only
            # stalagmites, pits and other monsters)
            return b not in standing

        # a step depends only on the space entered and on crossing no fence (the shield's
        # area, the IFG): for the fast searches (hexgrid.bfs_entering/bfs_leaving)
        # the map's terrain kinds, for monster_stops while the map is as it is now
        step.terrain = terrain_kinds(cells)
        step.enterable = _enterable(step.terrain, closed, blocked, platforms, stalagmites, standing, flying,
                                    destroys)
        step.fences = tuple(f for f in (shield, ifg) if f)
        return step

    def monster_can_stop(self, m: Monster, h: Hex) -> bool:
        st = self.state
        if st.terrain(h) not in OPEN or h in st.stalagmites or h == st.sentry or h == st.bosco:
            return False
        if self.pod_closed(h):
            return False
        # another monster there, whichever is found first (L990, L996): a loop, not any()'s generator
        for o in st.monsters.values():
            if o is not m and (o.pos == h or o.tail == h):
                return False
        return st.dwarf_at(h) is None and h != st.supply_pod

    def monster_stops(self, m: Monster, hexes, terrain: TerrainKinds | None = None) -> set[Hex]:
        """The hexes of `hexes` where `monster_can_stop(m, h)` holds, with the board read once
        (a monster's move asks it of every hex it can reach)."""
        st = self.state
        taken = {st.sentry, st.bosco, st.supply_pod}
        taken.update(self.closed_pod())
        for o in st.monsters.values():
            if o is not m:
                taken.add(o.pos)
                taken.add(o.tail)
        taken.update(d.pos for d in st.dwarves if not d.in_pod)
        out = set((terrain or terrain_kinds(st.cells)).open.intersection(hexes))
        out.difference_update(st.stalagmites, taken)      # in place: no copy per difference
        return out

    # --- dice --------------------------------------------------------------------------------
    def roll(self, die: str, n: int) -> list[dict]:
        if self.forced_rolls:                       # scenarios script their dice
            out = self.forced_rolls.pop(0)
            if len(out) != n:     # a Slasher's scripted [teeth, teeth, teeth] bit three times
                raise ValueError(f"a scripted roll of {len(out)} faces for {n} {die} (one face per die)")
            sides = next(d for d in self.data.of("die") if d.die == die).faces
            on_die = {(p["face"], p.get("hits") or 0) for p in map(plain, sides)}
            wrong = [f for f in out if "side" not in f and (f["face"], f.get("hits") or 0) not in on_die]
            if wrong:             # a "1" scripted for a monster die was no tooth and no miss either
                raise ValueError(f"a scripted face {written_face(wrong[0])} is not "
                                 f"on the {die}: {sorted({f'{a} {b}' if b else a for a, b in on_die})}")
            if any("side" in f for f in out):       # `sideN`: the die's own N-th side
                if any(f.get("side", 1) > len(sides) for f in out):
                    raise ValueError(f"a scripted side beyond the {len(sides)} of the {die}")   # a script error, never a refusal
                out = [plain(sides[f["side"] - 1]) if "side" in f else f for f in out]
            self.last_roll, self.last_die = out, die
            return out
        out = []
        for _ in range(n):
            flat, face = self.rng.choice(plain_faces(self.data, die))    # the same draw as of its faces
            out.append(dict(flat) if flat is not None else plain(face))
        self.last_roll, self.last_die = out, die
        return out

    def tick(self) -> int:
        self.state.clock += 1
        return self.state.clock

    def nearest_dwarf_distance(self, h: Hex) -> int:
        alive = [d.pos for d in self.state.dwarves if d.conscious and not d.in_pod]
        return min((hx.distance(h, p) for p in alive), default=0)

    def active_exits(self) -> list[Hex]:
        out = []
        for number, h in sorted(self.state.exits.items()):
            if self.state.terrain(h) != "h":
                out.append(h)
        return out

    def targets_in_range(self, m: Monster) -> list:
        mdef = self.monster_def(m)
        out = []
        for d in self.state.dwarves:
            if d.conscious and not d.in_pod and hx.distance(m.pos, d.pos) <= mdef.attack_range \
                    and self.los(m.pos, d.pos):
                out.append(d)
        return out

    def sentry_in_reach(self, m: Monster) -> bool:
        """The sentry gun within the monster's attack range and line of sight."""
        st = self.state
        return st.sentry is not None and hx.distance(m.pos, st.sentry) <= self.monster_def(m).attack_range \
            and self.los(m.pos, st.sentry)

    def token_room(self, token: str) -> int:
        """How many more `token`s the box holds (its definition's `supply`); unlimited if
        none is given."""
        supply = getattr(self.token_defs.get(token), "supply", None)
        return 10 ** 6 if supply is None else max(0, supply - len(self.state.tokens.get(token, {})))

    def place_around(self, centre: Hex, token: str, owner: int) -> None:
        """`token` on each empty space next to `centre`, never a Tunnel Exit or a pit, while
        the supply lasts; a token `moved_when_out` (goo, L1253) is then taken from elsewhere
        on the board, the one farthest from `centre` first. Empty (L1251, as in L996): no
        creature, and no stalagmite, sentry gun, BOSCO or supply pod on it."""
        st = self.state
        placed = st.tokens.setdefault(token, {})
        objects = {st.sentry, st.bosco, st.supply_pod}
        spots = [h for h in hx.neighbours(centre)
                 if self.is_open(h) and h not in st.exits.values() and st.terrain(h) != "o"
                 and h not in st.stalagmites and h not in objects
                 and not st.monster_at(h) and not st.dwarf_at(h) and h not in placed]
        movable = token in self.moved_when_out
        for h in spots:
            if self.token_room(token) <= 0:
                elsewhere = [p for p in placed if hx.distance(p, centre) > 1]
                if not movable or not elsewhere:
                    break
                del placed[max(elsewhere, key=lambda p: (hx.distance(p, centre), p))]
            placed[h] = owner

    def draw(self, deck: str):
        st = self.state
        pile, discard = (st.event_deck, st.event_discard) if deck == "event" else (st.swarm_deck, st.swarm_discard)
        if not pile:
            pile.extend(discard)
            discard.clear()
            self.rng.shuffle(pile)
        if not pile:
            return None
        card = pile.pop()
        discard.append(card)
        return card


_BLOCKING: list = []        # [(token definitions, the kinds that block monsters)]: the last game's


def _blocking_kinds(defs: dict) -> frozenset:
    """The board tokens whose definition blocks monster movement, read once per game (its
    token definitions are read-only and shared by its trials)."""
    if not _BLOCKING or _BLOCKING[0][0] is not defs:
        _BLOCKING[:] = [(defs, frozenset(k for k, t in defs.items() if getattr(t, "blocks_monster_movement", False)))]
    return _BLOCKING[0][1]


_ENTERABLE: dict = {}       # _enterable's answers by what they read: the last _ENTERABLE_KEPT
_ENTERABLE_KEPT = 256


def _enterable(terrain: TerrainKinds, closed: set, blocked: set, platforms: set, stalagmites: set,
               standing: set, flying: bool, destroys: set) -> frozenset:
    """The spaces a monster may step into (fences aside): `monster_stepper`'s test of the
    space entered (same checks, same order: a wall by the monster's destroying walls
    whatever token lies there, then a blocking token, a pit, a stalagmite, a dwarf), as set
    operations on the map's terrain kinds. Remembered by what it reads (the map's kinds by
    identity: a TerrainKinds never changes): a board read again gives the same frozenset,
    which the searches remembering their answers (hexgrid) hash once."""
    rocks = terrain.ground & stalagmites
    bridged = terrain.pits if flying else terrain.pits & platforms
    climbs, digs = flying or "stalagmite" in destroys, "wall" in destroys
    key = (terrain, rocks, bridged, frozenset(standing), climbs, digs,
           frozenset(blocked), frozenset(closed))
    out = _ENTERABLE.get(key)
    if out is None:
        if len(_ENTERABLE) >= _ENTERABLE_KEPT:
            del _ENTERABLE[next(iter(_ENTERABLE))]      # the oldest
        out = _ENTERABLE[key] = _enterable_now(terrain, rocks, bridged, standing, climbs, digs,
                                               blocked, closed)
    return out


def _enterable_now(terrain: TerrainKinds, rocks: frozenset, bridged: frozenset, standing: set,
                   climbs: bool, digs: bool, blocked: set, closed: set) -> frozenset:
    out = set(terrain.ground - rocks) if rocks else set(terrain.ground)
    out -= standing                     # flyers too (L988, L1101)
    if climbs:
        out |= rocks
    out |= bridged
    out -= blocked
    if digs:
        out |= terrain.walls
    out -= closed
    return frozenset(out)


_FACES: list = []       # [(content, {die term: its faces})]: the last content's, filled as asked


def die_faces(data, die: str) -> tuple:
    """The faces of the content's die with this term (its first by id; the term is a contract
    key, one per die), remembered per content: every roll asked for them."""
    if not _FACES or _FACES[0][0] is not data:
        _FACES[:] = [(data, {})]
    known = _FACES[0][1]
    faces = known.get(die)
    if faces is None:
        faces = known[die] = next(d for d in data.of("die") if d.die == die).faces
    return faces


_ATOMS = (int, float, str, bool, type(None))


def plain_faces(data, die: str) -> tuple:
    """Per face of `die_faces(data, die)`: (its `plain` dict if that holds only numbers and
    text, else None; the face), remembered per content: a roll copies the dict (a face's own,
    as plain(face) made it) rather than converting the face each time."""
    known = _FACES[0][1] if _FACES and _FACES[0][0] is data else None
    pairs = known.get((die, "plain")) if known is not None else None
    if pairs is None:
        faces = die_faces(data, die)
        pairs = []
        for face in faces:
            flat = plain(face)
            atomic = type(flat) is dict and all(type(v) in _ATOMS for v in flat.values())
            pairs.append((flat if atomic else None, face))
        pairs = _FACES[0][1][(die, "plain")] = tuple(pairs)
    return pairs


class TerrainKinds:
    """The hexes of a map by kind of terrain: walls (with the hidden segments' "h"), pits
    ("o"), the rest of the board (open spaces and the drop pod), and the open spaces alone."""
    __slots__ = ("walls", "pits", "ground", "open")

    def __init__(self, cells: dict) -> None:
        walls, pits, ground, opens = [], [], [], []
        for h, t in cells.items():
            if t in WALLS or t == "h":
                walls.append(h)
            elif t == "o":
                pits.append(h)
            elif t != "x":
                ground.append(h)
                if t in OPEN:
                    opens.append(h)
        self.walls, self.pits = frozenset(walls), frozenset(pits)
        self.ground, self.open = frozenset(ground), frozenset(opens)


# the last maps read, newest first: [(a copy of the map, its TerrainKinds)]. Kept by content, so
# a trial's copy of the map (or the map once more after a dig) finds its kinds
_TERRAIN: list = []


def terrain_kinds(cells: dict) -> TerrainKinds:
    """`TerrainKinds(cells)`, remembered for the last few maps by their content (compared
    in full, as dicts: the kinds are sets, whatever the order; most monster moves and trials
    read a map an earlier one read)."""
    for i, (known, kinds) in enumerate(_TERRAIN):
        if known == cells:
            if i:
                _TERRAIN.insert(0, _TERRAIN.pop(i))
            return kinds
    kinds = TerrainKinds(cells)
    _TERRAIN.insert(0, (dict(cells), kinds))
    del _TERRAIN[4:]
    return kinds
