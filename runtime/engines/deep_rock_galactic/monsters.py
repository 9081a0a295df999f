"""The monsters' side: spawning (L870-885), activation order and each activation
(L937-1027), movement, Scare (L450-452), the Swarm Threat Track and Swarms (L886-895)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.board import terrain_kinds
from tomecraft.runtime.engines.deep_rock_galactic.combat import UNASKED, Combat, steps_to
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import WALLS, Dwarf, Monster


_BEYOND = object()       # no spot to attack from within the monster's move: the full search decides


_ORDER: list = []        # [(content, its monsters in board order)]: the last content's


def _in_board_order(data) -> list:
    """The content's monster kinds in board order (`order`; ties by id), once per content."""
    if not _ORDER or _ORDER[0][0] is not data:
        _ORDER[:] = [(data, sorted(data.of("monster"), key=lambda k: k.order))]
    return _ORDER[0][1]


class Monsters(Combat):
    # --- spawning ------------------------------------------------------------------------------
    def nearest_dwarf_distances(self, hexes) -> dict:
        """`nearest_dwarf_distance` of each hex, the dwarves read once."""
        alive = [d.pos for d in self.state.dwarves if d.conscious and not d.in_pod]
        distance = hx.distance
        return {h: min([distance(h, p) for p in alive], default=0) for h in hexes}

    def spawn(self, kind: str, origin: Hex, n: int = 1, chooser: Dwarf | None = None,
              beside: bool = False) -> list[Monster]:
        """Placement priority (L870-885): as close to the origin as possible, then towards the
        dwarves, then the drawing dwarf decides. `kind`: a creature term or a monster id.
        `beside`: the origin is a creature's space, never placed on (a killed Brood Nexus's
        last Grunts go beside where it stood, L1137-1139)."""
        kind = self.creatures.get(kind, kind)
        placed = []
        for _ in range(n):
            probe = Monster(0, kind, origin)
            terrain = terrain_kinds(self.state.cells)
            # the map's open spaces: the spaces a monster may stop on lie among them (reading
            # every hex of the map found the same set)
            # ...where its whole body fits: an Oppressor's rear needs a free space too (L1197)
            stops = self.fitting(probe, self.monster_stops(probe, terrain.open, terrain))
            if beside:
                stops = stops - {origin}
            flames = self.state.tokens.get("flame", {})
            # placing is no move: "as near the exit" counts spaces as a range does (L876, L880
            # "2格距离", L408), through every cave space, rock aside: past monsters, dwarves,
            # pits and stalagmites (a held exit ringed by stalagmites placed no Grunt), across
            # the shield's and an IFG's edge (they stop monsters moving, L730; a monster may
            # still be placed in an IFG field, L1351). The search may stop at the nearest empty
            # space with no flame: those at its distance are the ring placed on; with none, it
            # searches on to the end
            dist = hx.bfs_entering([origin], terrain.ground | terrain.pits, until=stops.difference(flames))
            free = [h for h in dist if h in stops]
            usable = [h for h in free if h not in flames] or free
            if not usable:
                break
            best = min(dist[h] for h in usable)
            ring = [h for h in usable if dist[h] == best]
            far = self.nearest_dwarf_distances(ring)
            toward = min(far.values())
            ring = sorted(h for h in ring if far[h] == toward)
            # no dwarf named (a Brood Nexus's or a Warden's Grunt): the one who drew the card
            # that activates them decides (L878)
            if chooser is None:
                chooser = self.acting
            seat = chooser.seat if chooser else 0
            at = ring[0] if len(ring) == 1 else tuple(self.agents[seat % len(self.agents)].choose("spawn", ring, None))
            m = Monster(self.state.next_uid, kind, at)
            self.state.next_uid += 1
            self.state.monsters[m.uid] = m
            self.face_nearest_dwarf(m)
            self.spawned[kind] += 1
            placed.append(m)
            self.log(f"{kind}#{m.uid} spawns at {list(at)}")
            if at in flames:
                del flames[at]
                self.damage_monster(m, "fire", 1, None)
            if m.uid in self.state.monsters:
                self.emit("monster_placed", it=m, monster=m.kind)
        return placed

    # --- monster activation (L964-1027) ---------------------------------------------------------
    def pick_dwarf(self, m: Monster, dwarves: list[Dwarf]) -> Dwarf:
        return min(dwarves, key=lambda d: (hx.distance(m.pos, d.pos), -d.acted_at))

    def activate_all(self, skip: set[int] = frozenset(), move_and_attack: bool = False) -> None:
        """Every monster acts, kind by kind in board order (L937-962); of one kind the one
        nearest a dwarf first, ties decided by the dwarf who drew the card (L974)."""
        monsters, read, groups = self.state.monsters, None, {}
        for kind in _in_board_order(self.data):
            # the monsters by kind, read again only when one was placed or removed since (a
            # placed one takes a new uid): not one pass over them per kind of the content
            if read != (self.state.next_uid, len(monsters)):
                read, groups = (self.state.next_uid, len(monsters)), {}
                for m in monsters.values():
                    if m.uid not in skip:
                        groups.setdefault(m.kind, []).append(m)
            group = groups.get(kind.id)
            if not group:
                continue
            # the order among one kind is all the distances decide: a lone monster needs none
            near = self.walking_distances(group) if len(group) > 1 else {group[0].uid: 0}
            standing = self.standing_dwarves()
            while group and not self.state.result:
                m = self.next_to_act(group, near)
                group = [o for o in group if o is not m]     # not remove(): == compares every field
                if m.uid in self.state.monsters:
                    self.activate(m, move_and_attack)
                # the nearest of the rest acts next (L974): measured again once a dwarf they
                # walked to is knocked out (ignored, L986) or gone into the pod
                if len(group) > 1 and self.standing_dwarves() != standing:
                    near, standing = self.walking_distances(group), self.standing_dwarves()

    def standing_dwarves(self) -> tuple:
        """Where the dwarves monsters walk to stand: conscious, not in the pod."""
        return tuple(sorted(d.pos for d in self.state.dwarves if d.conscious and not d.in_pod))

    def walking_distances(self, group: list[Monster]) -> dict[int, int]:
        """Per monster of one kind: steps along its own ways (around pits, through other
        monsters) to the nearest dwarf; one it cannot reach counts by straight distance,
        after every reachable one."""
        alive = {d.pos for d in self.state.dwarves if d.conscious and not d.in_pod}
        if not alive:
            return {m.uid: 0 for m in group}
        step = self.monster_stepper(group[0])
        # the whole search, not one stopped once it has the group: their distances are the
        # same, and it is remembered (hexgrid) for every kind that walks alike on this board
        # and every trial of it; the starts in order, so that equal sets ask the same search
        back = steps_to(tuple(sorted(alive)), step)
        return {m.uid: back[m.pos] if m.pos in back else 1000 + min(hx.distance(m.pos, p) for p in alive)
                for m in group}

    def next_to_act(self, group: list[Monster], near: dict[int, int]) -> Monster:
        """The monster of `group` nearest a dwarf; on a tie the drawing dwarf chooses."""
        best = min([near[m.uid] for m in group])
        tied = [m for m in group if near[m.uid] == best]
        if len(tied) == 1:
            return tied[0]
        tied.sort(key=lambda m: m.uid)
        choice = self.drawer_picks("activation_order", [m.uid for m in tied])
        return next(m for m in tied if m.uid == choice)

    def drawer_picks(self, key: str, options: list):
        """What the dwarf who drew the activating card decides (L878 where a spawned monster
        goes, L974 which tied monster acts first; rule monster_end_tie: where a move ends)."""
        if len(options) == 1:
            return options[0]
        seat = self.acting.seat if self.acting is not None else 0
        return self.agents[seat % len(self.agents)].choose(key, options, self)

    def end_of_move(self, ranked: list) -> Hex:
        """The space a move ends on, of `ranked` (key, space) pairs: the least key's; spaces
        of equally good keys (paths of equal length to different spaces) are the drawing
        dwarf's choice (rule monster_end_tie)."""
        best = min(key for key, _ in ranked)
        tied = sorted(h for key, h in ranked if key == best)
        return tied[0] if len(tied) == 1 else tuple(self.drawer_picks("monster_end", tied))

    def activate(self, m: Monster, move_and_attack: bool = False) -> None:
        """One activation (L966-1002): attack if a dwarf is in range, else move (and attack
        after the move when the card or the creature says so); then its special, whatever
        way it moves."""
        mdef = self.monster_def(m)
        self.activated[m.kind] += 1
        if m.statuses & {"stunned", "frozen"}:
            m.statuses -= {"stunned", "frozen"}
            self.log(f"{m.kind}#{m.uid} skips its activation (G-10)")
            return
        self.emit("monster_activated", it=m, monster=m.kind)
        if m.uid not in self.state.monsters:
            return
        if mdef.moves_toward == "none":
            if mdef.attacks:
                self.attack_if_possible(m)
        elif mdef.moves_toward == "monster":
            self.move_monster(m, toward_monsters=True)
        elif not (mdef.attacks and self.attack_if_possible(m)):
            self.move_monster(m)
            if m.uid in self.state.monsters and mdef.attacks and (move_and_attack or mdef.moves_then_attacks):
                self.attack_if_possible(m)
        if mdef.special is not None and m.uid in self.state.monsters and not self.state.result:
            self.run(mdef.special, self_=m)

    def move_monster(self, m: Monster, toward_monsters: bool = False) -> None:
        """Move (L966-996): toward the nearest dwarf (ties: the one who acted most recently,
        L972), stopping on the first empty space from which it can attack (L970); it passes
        other monsters but never ends on one (L990, L996). With no such space within its
        move it gets as close as it can, on an empty space."""
        mdef = self.monster_def(m)
        step = self.monster_stepper(m)
        blocks = self.sight_blocker()          # one for the move: nothing moves while it looks
        # the dwarf it moves toward, once asked (`on_the_way`): nothing moves while it looks
        dest, toward = (_BEYOND, UNASKED) if toward_monsters else self.attack_spot_within_move(m, step, blocks)
        if dest is _BEYOND:
            reach = hx.bfs_entering([m.pos], step.enterable, step.fences)
            dest = self.destination(m, step, reach, toward_monsters, blocks, toward)
        if dest is None:
            return
        stop_at_sentry = not toward_monsters and bool(mdef.attacks)
        self.walk_monster(m, hx.path_entering(m.pos, {dest}, step.enterable, step.fences) or [], stop_at_sentry)

    def attack_spot_within_move(self, m: Monster, step, blocks=None) -> tuple:
        """(`destination`'s answer when the nearest spot to attack from lies within the
        monster's move, found by searching no farther than its move: that spot (None: its
        own space), else _BEYOND; `nearest_by_steps`'s answer if asked, else UNASKED). The search's spots are the full search's nearest ones, in
        the same order, so a target's first spot in sight among them is its first overall,
        and a target with one beats every target without (the nearest spot decides first)."""
        mdef = self.monster_def(m)
        move, rng = mdef.move, max(1, mdef.attack_range)
        # a spot within the move and the range lies within move + range hexes of its target
        if not any(d.conscious and not d.in_pod and hx.distance(m.pos, d.pos) <= move + rng
                   for d in self.state.dwarves):
            return _BEYOND, UNASKED
        toward = self.nearest_by_steps(m, step)
        near, _ = self.on_the_way(m, step, hx.bfs_entering([m.pos], step.enterable, step.fences, most=move), toward)
        aim = self.attack_spots(m, near, self.move_stops(m, near, step.terrain) | {m.pos}, blocks)
        if aim is None:
            return _BEYOND, toward
        nearest = self.attack_end(aim)
        return (nearest if nearest != m.pos else None), toward

    def destination(self, m: Monster, step, reach: dict, toward_monsters: bool, blocks=None,
                    toward=UNASKED) -> Hex | None:
        """Where the monster's move ends (`move_monster`), None if it stays: the goal
        nearest by (steps, hex) within its move, else the empty space within its move nearest
        the goals if nearer than its own. `step`: its monster_stepper; `reach`: its steps to
        every space it can enter; `blocks`: the move's sight blocker, if read already;
        `toward`: `nearest_by_steps`'s answer, if asked already."""
        move = self.monster_def(m).move
        can_stop = self.move_stops(m, reach, step.terrain) | {m.pos}
        aim, way = None, reach
        if not toward_monsters:
            way, target = self.on_the_way(m, step, reach, toward)      # L933: its move brings it nearer him
            aim = self.attack_spots(m, way, can_stop.intersection(way), blocks)
            if aim is not None and aim[1][aim[2]][0] <= move:
                # the first spot in sight on its way, the one gone to (L970): no need for others
                nearest = self.attack_end(aim)
                return nearest if nearest != m.pos else None
            aim = self.attack_spots(m, reach, can_stop, blocks, only=target)
        goals = self.monster_goals(m, reach, can_stop, toward_monsters, aim)
        if not goals or m.pos in goals:
            return None
        # a spot within its move not on its way (aside, no nearer him) is none to stop on
        goals = {h for h in goals if reach[h] > move or h in way}
        near = [h for h in goals if reach[h] <= move]
        if near:
            return self.end_of_move([(reach[h], h) for h in near])
        within_move = {h for h in can_stop if reach[h] <= move}     # m.pos among them
        # the whole search (remembered, as in walking_distances): within_move's are the same
        back = hx.bfs_leaving(sorted(goals), step.enterable, step.fences)
        spots = [h for h in can_stop if h in within_move and h in back]
        if not spots:
            return None
        # of the spots nearest the goals (the key's first part: the rest only breaks ties)...
        nearest = min(back[h] for h in spots)
        if nearest >= back.get(m.pos, 10 ** 6):
            return None
        spots = [h for h in spots if back[h] == nearest]
        # ...it moves toward the dwarf (L933), the Warden toward the creature (L1223): the
        # nearest to it (not the first by coordinates: that walked a Warden away from it)
        target = aim[0].pos if aim is not None else None
        near_dwarf = (lambda h: hx.distance(h, target)) if target else \
            self.nearest_creature_distance(m) if toward_monsters else self.nearest_dwarf_distance
        return self.end_of_move([((near_dwarf(h), reach[h]), h) for h in spots])

    def attack_end(self, aim: tuple) -> Hex:
        """Where a move to attack ends (`attack_spots`'s answer `aim`): the nearest empty space
        in range and sight of the target; of equally near ones, the drawer's choice."""
        target, spots, first, blocks = aim
        steps = spots[first][0]
        return self.end_of_move([(n, h) for n, h in spots if n == steps and blocks.sees(h, target.pos)])

    def nearest_creature_distance(self, m: Monster):
        """h -> hexes from h to the nearest space of another creature (the Warden's way, L1223)."""
        others = [s for o in self.state.monsters.values() if o is not m for s in o.spaces()]
        return lambda h: min((hx.distance(h, s) for s in others), default=0)

    def move_stops(self, m: Monster, hexes, terrain) -> set[Hex]:
        """Where a move may end (`monster_stops`), and for a monster that destroys what stands
        in its way (the Oppressor, L1199) also on a wall, a stalagmite or a Grunt it breaks
        there: the space is then empty."""
        stops = self.monster_stops(m, hexes, terrain)
        destroys = set(self.monster_def(m).destroys_on_path or ())
        if not destroys:
            return self.fitting(m, stops)
        st = self.state
        broken = set()
        if "wall" in destroys:
            broken |= terrain.walls.intersection(hexes)
        if "stalagmite" in destroys:
            broken |= st.stalagmites.intersection(hexes)
        grunts = {o.pos for o in st.monsters.values() if o.kind == "grunt"} if "grunt" in destroys else set()
        broken |= grunts.intersection(hexes)
        taken = {st.sentry, st.bosco, st.supply_pod} | self.closed_pod()
        taken |= {d.pos for d in st.dwarves if not d.in_pod}
        taken |= {h for o in st.monsters.values() if o is not m and o.pos not in grunts for h in (o.pos, o.tail)}
        return self.fitting(m, stops | (broken - taken), broken)

    def fitting(self, m: Monster, stops: set, crushed=frozenset()) -> set:
        """The stops where the monster's whole body fits (`body_fits`): a monster on two
        spaces never ends with its rear on another monster, a dwarf or rock (L1197, L990).
        `crushed`: what it may break on its way (whether it does is known once it walks)."""
        if (self.monster_def(m).size or 1) < 2:
            return stops
        return {h for h in stops if self.body_fits(m, h, crushed)}

    def body_fits(self, m: Monster, h: Hex, crushed=frozenset()) -> bool:
        """Whether a monster on two spaces (L1197, rule two_space_body) may end with its front on
        h: a space next to h takes its rear (`rear_may_take`, or one in `crushed`, what it
        destroys on its way). A one-space monster always fits."""
        if (self.monster_def(m).size or 1) < 2:
            return True
        return any(n in crushed or self.rear_may_take(m, h, n) for n in hx.neighbours(h))

    def monster_goals(self, m: Monster, reach: dict, can_stop: set, toward_monsters: bool,
                      aim: tuple | None) -> set:
        """Where the monster wants to end: next to another monster (the Warden), else on an
        empty space with its target dwarf in range and line of sight (`aim`, what
        `attack_spots` answered for these spaces), else nearer a dwarf (`closer_spots`)."""
        st = self.state
        if toward_monsters:
            # beside either space of a creature on two (the Oppressor's rear too, L1197)
            others = [s for o in st.monsters.values() if o is not m for s in o.spaces()]
            beside = {n for s in others for n in hx.neighbours(s)}
            # none to stand beside (a pit between, L992): it still moves toward the nearest
            # creature, as near as it gets (L1223), as a monster does toward a dwarf
            return can_stop & beside or self.closer_spots(m, reach, can_stop, self.nearest_creature_distance(m))
        if aim is None:   # no way into range (a shield, an IFG, pits) or none free: get closer
            return self.closer_spots(m, reach, can_stop)
        d, spots, first, blocks = aim
        # the spots before the first in sight are out of sight
        return {h for _, h in spots[first:] if blocks.sees(h, d.pos)}

    def closer_spots(self, m: Monster, reach: dict, can_stop: set, far=None) -> set:
        """The empty spaces within its move nearest to a dwarf, if nearer than now: by steps
        (`steps_to_dwarves`) when it has a way to one, else in hexes. `far(h)`: the distance
        to get closer by (default: to the nearest dwarf)."""
        mdef = self.monster_def(m)
        spots = [h for h in can_stop if 0 < reach[h] <= mdef.move]
        if not spots:
            return set()
        walk = self.steps_to_dwarves(m) if far is None else {}
        if m.pos in walk:
            # it walks toward the nearest dwarf (L933), by its ways (L1010: round the pit), past
            # other monsters (L990): every space beside him taken, it still comes nearer by steps
            here, dist = walk[m.pos], {h: walk[h] for h in spots if h in walk}
        elif far is None:     # no way to him (a shield, an IFG, pits): nearer in hexes
            here, dist = self.nearest_dwarf_distance(m.pos), self.nearest_dwarf_distances(spots)
        else:
            here, dist = far(m.pos), {h: far(h) for h in spots}
        best = min(dist.values(), default=here)
        return {h for h in dist if dist[h] == best} if best < here else set()

    def steps_to_dwarves(self, m: Monster) -> dict:
        """Steps from each space the monster may walk to the nearest standing dwarf's space, by
        its own ways (`monster_stepper`: through other monsters, not through dwarves), as
        `walking_distances` counts them; a space with no way to any dwarf is not in it."""
        alive = {d.pos for d in self.state.dwarves if d.conscious and not d.in_pod}
        if not alive:
            return {}
        step = self.monster_stepper(m)
        return steps_to(tuple(sorted(alive)), step)

    def scare(self, m: Monster, source: Hex | list[Hex], steps: int) -> None:
        """Scare (L450-452): `steps` spaces away from the source; with several sources (the HE
        Grenade: the target space and the firer) a step gets no closer to any of them and
        further from at least one. The flight is a move: goo stops it (L1255), the sentry
        shoots a monster it brings into range (L662); it does not turn the monster (it flees),
        but one on two spaces moves its front and faces that way (L1197). Every monster that
        moves is scared, the Oppressor too (L450, L694; only the Sticky Grenade spares it, L1357)."""
        if self.monster_def(m).move == 0:
            return
        sources = [source] if isinstance(source, tuple) else list(source)

        def away(a: Hex, b: Hex) -> bool:
            gains = [hx.distance(b, s) - hx.distance(a, s) for s in sources]
            return min(gains) >= 0 and max(gains) > 0
        # every way of up to `steps` steps, each away from the sources; it may pass other
        # monsters but ends on an empty space (L990, L996): the longest such flight
        step = self.monster_stepper(m)
        ways, came_from, frontier = {m.pos: 0}, {}, [m.pos]
        for n in range(1, steps + 1):
            found = {}
            for a in frontier:
                for b in hx.neighbours(a):
                    if b not in ways and b not in found and step(a, b) and away(a, b):
                        found[b] = a
            frontier = sorted(found)
            ways.update({b: n for b in frontier})
            came_from.update(found)
        ends = [h for h in ways if h == m.pos or (self.monster_can_stop(m, h) and self.body_fits(m, h))]
        # of the longest flights, the one ending farthest from the sources as the crow flies
        # (L450 远离, L694 反方向: straight away), not sideways round the firer at one distance
        def spread(h: Hex) -> float:
            return sum(sum((a - b) ** 2 for a, b in zip(hx.to_cube(h), hx.to_cube(s))) ** 0.5 for s in sources)
        end = min(ends, key=lambda h: (-ways[h], -round(spread(h), 9), h))
        path = []
        while end != m.pos:
            path.append(end)
            end = came_from[end]
        facing = m.facing
        self.walk_monster(m, path[::-1])
        if m.tail is None:
            m.facing = facing

    def walk_monster(self, m: Monster, path: list[Hex], stop_at_sentry: bool = False) -> None:
        """Step along `path`, entering each space; a token that stops walkers (goo) ends the
        move on the last empty space passed. A monster that reaches an empty space with the
        sentry gun in its range stops there too (L968-970: the sentry counts as a target)."""
        st = self.state
        start = last_stop = m.pos
        facing = m.facing         # the way it faces on last_stop (it faces the way it moves)
        for h in path:
            self.enter_monster(m, h)
            if m.uid not in st.monsters:
                return
            if self.monster_can_stop(m, h) and self.body_fits(m, h):
                last_stop, facing = h, m.facing
                if stop_at_sentry and self.sentry_in_reach(m):
                    break
            if self.stops_walker(h, flying=bool(self.monster_def(m).flying)):
                break
        m.pos, m.facing = last_stop, facing
        self.settle_tail(m)
        if m.pos != start and path and m.pos != path[-1]:
            self.emit("monster_moved", it=m, monster=m.kind)    # back on the last empty space

    def enter_monster(self, m: Monster, h: Hex) -> None:
        st = self.state
        mdef = self.monster_def(m)
        if "wall" in (mdef.destroys_on_path or ()) and (st.terrain(h) in WALLS or st.terrain(h) == "h"):
            if h in st.minerals:
                st.ground.setdefault(h, Counter())[st.minerals.pop(h)] += 1
            self.open_wall(h)
        if "stalagmite" in (mdef.destroys_on_path or ()):
            st.stalagmites.discard(h)
        if "grunt" in (mdef.destroys_on_path or ()):
            other = st.monster_at(h)
            if other is not None and other.kind == "grunt":
                self.kill(other, None)
        if h != m.pos:
            m.facing = hx.ahead(m.pos, h)      # it faces the way it moves
        m.pos = h
        self.emit("monster_moved", it=m, monster=m.kind)
        if m.uid in st.monsters:
            self.emit("monster_enters", it=m, at=h, monster=m.kind)

    # --- walls opened (L552) ----------------------------------------------------------------------
    def open_wall(self, h: Hex) -> None:
        """A wall space dug by a dwarf or broken by a monster (the Oppressor, L1199) becomes a
        Single Space Cave Segment; a face-down Hidden Cave Segment it is part of or touches is
        revealed (L552)."""
        st = self.state
        st.cells[h] = "."
        for seg in st.hidden:
            if not seg["revealed"] and (h in seg["hexes"] or any(n in seg["hexes"] for n in hx.neighbours(h))):
                self.reveal_segment(seg)

    def reveal_segment(self, seg: dict) -> None:
        st = self.state
        seg["revealed"] = True
        for x in seg["hexes"]:
            st.cells[x] = "."
        spots = [x for x in seg["hexes"] if x not in st.exits.values()]
        for name, x in zip(seg["pickups"], spots):
            st.pickups[x] = [name, False]
        # weapon upgrade tokens, face down at random (L552; rule upgrades_per_hidden_segment)
        free = [x for x in spots if x not in st.pickups]
        tile = seg.get("tile")
        upgrades = tile["upgrades"] if tile else int(self.rules["upgrades_per_hidden_segment"])
        for _ in range(upgrades):
            if free and st.upgrade_supply:
                st.upgrade_tokens[free.pop(self.rng.randrange(len(free)))] = st.upgrade_supply.pop()
        self.log(f"a hidden segment is revealed at {list(seg['hexes'][0])}")
        for entry in self.mission.get("hidden_monsters", []):
            # one call for the count: spawn stops when the map has no space left (a count of
            # a million searched the board a million times)
            self.spawn(entry["creature"], seg["hexes"][len(seg["hexes"]) // 2], entry["count"])

    # --- the Swarm Threat Track (L886-895, G-11) ------------------------------------------------
    def advance_threat(self, n: int, unconscious: bool = False) -> None:
        for _ in range(n):
            if self.state.result:
                return
            if self.state.threat >= self.track_len - 1:
                if any(d.in_pod for d in self.state.dwarves):
                    self.state.result = "success"
                    self.log("time runs out with a dwarf in the drop pod: just achieved")
                else:
                    self.state.result = "failure"
                    self.log("the Swarm Threat Track runs out: the mission fails")
                return
            self.state.threat += 1
            if self.state.threat in self.swarm_squares:
                self.swarm(1)
                return

    def swarm(self, cards: int) -> None:
        self.log("a Swarm comes")
        self.open_window()
        self.emit("swarm")
        placed: list = []
        activation: dict = {}
        for _ in range(cards):
            card = self.draw("swarm")
            if card is not None:
                self.run(card.effect, you=self.acting, defer_activation=True, placed=placed,
                         activation=activation)
        # every card placed first, then one activation (L894); "all other" skips the new ones
        self.activate_all({m.uid for m in placed} if activation.get("others_only") else set())
