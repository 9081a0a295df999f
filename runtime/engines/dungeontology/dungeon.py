"""Dungeontology's dungeon: the geometry of placed regions (passages, doors, stairs, walls,
secret passages), exploring, moving and entering regions, and the boss's moves.

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from collections import Counter, deque

from tomecraft.runtime.engines.dungeontology.state import OPPOSITE, SIDES, STEP, Scholar, Tile, edge, step
from tomecraft.runtime.usage import quiet


class Dungeon:
    # --- geometry ----------------------------------------------------------------------
    def open_side(self, tile: Tile, side: str) -> bool:
        return side in tile.region.passages

    def linked(self, a: Tile, b: Tile, side: str) -> bool:
        e = edge(a.pos, b.pos)
        if e in self.state.walls or side not in a.region.passages \
                or OPPOSITE[side] not in b.region.passages:       # open_side, inlined (hot)
            return False
        return a.level == b.level or e in self.state.stairs

    def links(self, pos) -> list:
        """(side, tile) of each region connected to the one at pos, in SIDES order. Asked at
        every step, spy and boss move; kept until a region, wall or stair marker is added
        (the only changes of the geometry: each set only grows)."""
        st = self.state
        version = (len(st.tiles), len(st.walls), len(st.stairs))
        if version != self._links_version:
            self._links_version, self._links = version, {}
        found = self._links.get(pos)
        if found is None:
            tile, found = st.tiles[pos], []
            for side in SIDES:
                other = st.tiles.get(step(pos, side))
                if other is not None and self.linked(tile, other, side):
                    found.append((side, other))
            self._links[pos] = found
        return found

    def connected(self, pos) -> list:
        """The regions connected to the one at pos (L761): adjacent and joined by a passage or
        stairs (`links`), or by a secret passage of the same letter. Spying (L959) and drops
        (L1032) reach them."""
        linked = [other.pos for _, other in self.links(pos)]
        return linked + self.secret_neighbours(pos, linked)

    def secret_neighbours(self, pos, linked: list) -> list:
        """Adjacent regions, not already in `linked`, sharing a secret passage letter with the
        one at pos: connected with no passage on their common side (L761)."""
        tiles = self.state.tiles
        mine = self.letters(tiles[pos])
        if not mine:                         # most regions have no secret passage
            return []
        out, mine = [], set(mine)
        for side in SIDES:
            other = tiles.get(step(pos, side))
            if other is not None and other.pos not in linked and not mine.isdisjoint(self.letters(other)):
                out.append(other.pos)
        return out

    def door_ok(self, who: Scholar, dst: Tile, side_in: str) -> bool:
        for door in dst.region.doors or ():
            if door.side == side_in and any(who.notebook[c] == 0 for c in door.colours):
                return False
        return True

    def letters(self, tile: Tile) -> list:
        """The secret passage letters of a region: what its `movement` triggers name. Asked
        of every region at every step next to a passage, so when the triggers are the kept
        ones (`tile_triggers`) and firing them read nothing (they only named letters), the
        letters are kept too, while the region holds the same tokens."""
        who = self.state.scholars[0]
        kept = self._letters.get(id(tile))
        if kept is not None and kept[0] is tile and kept[1] is who and kept[2] == tile.tokens:
            return kept[3]                   # (the kept list: read, never changed, by all callers)
        triggers = self.tile_triggers(tile, who, "movement")
        self.passage_letters, read = [], False
        if triggers:                         # most regions have no secret passage
            saved = self._read, self.verbs, self.queries
            self._read = False
            self.verbs, self.queries = self._naming_passages       # any other handler: a read
            try:
                self.fire(triggers, "movement")
                read = self._read
            finally:
                self._read, self.verbs, self.queries = saved[0] or self._read, saved[1], saved[2]
        together = self._tile_kept.get((id(tile), id(who)))
        if not read and together is not None and together[0] is tile and together[1] is who \
                and together[2] == tile.tokens:
            self._letters[id(tile)] = (tile, who, list(tile.tokens), list(self.passage_letters))
        return list(self.passage_letters)

    def passage_targets(self, tile: Tile) -> list:
        mine = set(self.letters(tile))
        if not mine:
            return []
        out, kept_by, first = [], self._letters, self.state.scholars[0]
        for t in self.state.tiles.values():
            if t.pos == tile.pos:
                continue
            kept = kept_by.get(id(t))          # `letters`, inlined for kept ones: every region
            if kept is not None and kept[0] is t and kept[1] is first and kept[2] == t.tokens:
                theirs = kept[3]
            else:
                theirs = self.letters(t)
            if not mine.isdisjoint(theirs):
                out.append(t.pos)
        return out

    def fits(self, region, pos, side_from: str) -> bool:
        """A drawn tile fits at pos if it has a passage towards where it is attached."""
        return pos not in self.state.tiles and side_from in region.passages

    def new_tile(self, region, pos) -> Tile:
        tile = Tile(pos, region, [None] * len(region.slots or ()))
        self.state.tiles[pos] = tile
        for other_side in SIDES:
            other = self.state.tiles.get(step(pos, other_side))
            if other is None or other.level == tile.level:
                continue
            if self.open_side(tile, other_side) and self.open_side(other, OPPOSITE[other_side]) \
                    and edge(pos, other.pos) not in self.state.stairs:
                self.state.walls.add(edge(pos, other.pos))
        self.fill(tile)
        self.state.stats["placed"] += 1
        return tile

    def fill(self, tile: Tile) -> None:
        """Place info blocks in the slots from the reserve (not in Max Alert, L1163)."""
        if self.state.max_alert:
            return
        for i, colour in enumerate(tile.region.slots or ()):
            if self.state.reserve_blocks[colour] > 0:
                self.state.reserve_blocks[colour] -= 1
                tile.slots[i] = colour

    def draw_fitting(self, level: int, pos, side_from: str):
        """Draw from the level's stack; a tile that cannot connect goes to the bottom (L749);
        after one pass through the stack nothing fits (R-13)."""
        stack = self.state.stacks[level]
        for _ in range(len(stack)):
            region = stack.pop()
            if self.fits(region, pos, side_from):
                return region
            stack.insert(0, region)
        return None

    def explore_sides(self, who: Scholar) -> list:
        if self.state.max_alert:
            return []
        tile = self.state.tiles[who.pos]
        if not self.state.stacks[tile.level]:
            return []
        passages, tiles = tile.region.passages, self.state.tiles      # open_side, inlined
        x, y = tile.pos                                                  # `step`, inlined
        dead = self.state.dead_ends
        return [s for s in SIDES if s in passages and (x + STEP[s][0], y + STEP[s][1]) not in tiles
                and (tile.pos, s) not in dead]

    def place_stairs(self, who: Scholar, tile: Tile) -> None:
        """L864-874: a tile of an adjacent level, joined by stair markers; walls elsewhere."""
        if self.state.max_alert:
            return
        levels = [lv for lv in (tile.level - 1, tile.level + 1) if lv in (1, 2, 3) and self.state.stacks[lv]]
        sides = [s for s in SIDES if self.open_side(tile, s) and step(tile.pos, s) not in self.state.tiles]
        if not levels or not sides:
            return
        level = self.ask(who, "stairs_level", levels)
        stack = self.state.stacks[level]
        for _ in range(len(stack)):
            region = stack.pop()
            fitting = [s for s in sides if OPPOSITE[s] in region.passages]
            if fitting:
                side = self.ask(who, "stairs_side", fitting)
                pos = step(tile.pos, side)
                self.state.stairs.add(edge(tile.pos, pos))
                self.new_tile(region, pos)
                self.log(f"{who.name} takes the stairs of {tile.id}: {region.id} placed {side}")
                self.state.stats["stairs"] += 1
                return
            stack.insert(0, region)

    # --- moving ------------------------------------------------------------------------
    def can_enter(self, who: Scholar, dst: Tile) -> bool:
        """Dry-run the entry triggers: Ambush at the stun cap forbids entry (L808). Traps come
        first (L860), and what one would take (students, stun) counts for the next, as on a
        real entry; the scholar's counts are restored after."""
        self.dry, self.entry_forbidden = True, False
        students, stun = who.students, who.stun
        try:
            triggers = self.tile_triggers(dst, who, "enter_region")     # kept: not to be changed
            traps = [t for t in dst.tokens if t.token == "trap_token"]
            if traps:
                triggers = self.triggers_of([t.effect for t in traps], who, dst, "enter_region") + triggers
            if triggers:                     # most regions: nothing happens on entering
                with quiet():                # a dry run is no use (`sim --usage` counted
                    self.fire(triggers, "enter_region")     # every move listed)
            return not self.entry_forbidden
        finally:
            self.dry = False
            who.students, who.stun = students, stun

    def move_options(self, who: Scholar, into=None) -> list:
        """Every step `who` may take; with `into` (a test of the region entered) only the moves
        and secret passages into such regions, no exploring (a player's first choice)."""
        if who.steps <= 0:
            return []
        here = self.state.tiles[who.pos]
        out = []
        for side, other in self.links(here.pos):
            if (into is None or into(other)) and self.door_ok(who, other, OPPOSITE[side]) \
                    and self.can_enter(who, other):
                out.append({"do": "move", "to": other.region.id})
        if into is None:
            out += self.explore_options(who)
        for pos in self.passage_targets(here):
            dst = self.state.tiles[pos]
            if (into is None or into(dst)) and self.can_enter(who, dst):
                out.append({"do": "passage", "to": dst.id})
        return out

    def explore_options(self, who: Scholar) -> list:
        if who.steps <= 0:
            return []
        return [{"do": "explore", "side": side} for side in self.explore_sides(who)]

    def tile_by_id(self, rid: str) -> Tile:
        """The first placed region of that id. Asked for every way a player weighs, so the
        regions by id are kept while the same dict holds as many (regions are only added; a
        trial's copy is another dict); a kept answer is checked still placed, as that id."""
        tiles, kept = self.state.tiles, self._by_id
        if kept[0] is not tiles or kept[1] != len(tiles):
            by_id: dict = {}
            for t in tiles.values():
                by_id.setdefault(t.id, t)
            kept = self._by_id = (tiles, len(tiles), by_id)
        found = kept[2].get(rid)
        if found is not None and tiles.get(found.pos) is found and found.id == rid:
            return found
        return next(t for t in tiles.values() if t.id == rid)

    def do_move(self, who: Scholar, option: dict) -> None:
        who.steps -= 1
        if option["do"] == "explore":
            here = self.tile_of(who)
            pos = step(here.pos, option["side"])
            region = self.draw_fitting(here.level, pos, OPPOSITE[option["side"]])
            if region is None:
                # nothing connects: no move was made, the step is kept to go another way or
                # stay (L749); the stack only shrinks, so that side stays a dead end
                who.steps += 1
                self.state.dead_ends.add((here.pos, option["side"]))
                self.log(f"{who.name} finds no region to place {option['side']} of {here.id}")
                return
            tile = self.new_tile(region, pos)
            self.log(f"{who.name} places {region.id} {option['side']} of {here.id}")
            # the new region connects, but a door of a colour the scholar lacks blocks the way
            # in (L715-719) as on any move (or an Ambush at the stun cap, L808): the tile stays
            # placed, the scholar does not enter; he moved through no region, so the step is
            # kept, as when nothing connects (L749)
            if self.door_ok(who, tile, OPPOSITE[option["side"]]) and self.can_enter(who, tile):
                self.enter(who, tile)
            else:
                who.steps += 1
                self.log(f"{who.name} cannot enter {tile.id}")
            return
        self.enter(who, self.tile_by_id(option["to"]))

    def enter(self, who: Scholar, tile: Tile) -> None:
        """L779-786: move in, flip a waiting trap first (L860), then the region's effects."""
        who.pos = tile.pos
        self.progress += 1
        first = not tile.entered
        tile.entered = True
        self.state.stats[f"entered:{tile.id}"] += 1
        if self.log_enabled:            # not formatted for nothing: a hot line
            self.log(f"{who.name} enters {tile.id}")
        traps = [t for t in tile.tokens if t.token == "trap_token"]
        for trap in traps:
            tile.tokens.remove(trap)
            self.log(f"{who.name} springs a trap: {trap.id}")
            self.state.stats["traps_sprung"] += 1
            self.fire(self.triggers_of([trap.effect], who, tile), "enter_region")
        triggers = self.tile_triggers(tile, who)
        for name, where, body, ctx in triggers:
            if name == "first_enter" and not first:
                continue
            if name in ("first_enter", "enter_region"):
                self.fire([(name, where, body, ctx)], name)
        self.state.stats["keyword_triggers"] += sum(1 for t in triggers if t[0] == "enter_region")

    def bonus_move(self, who: Scholar, steps: int) -> None:
        saved, who.steps = who.steps, steps
        self.movement(who)
        who.steps = saved if not self.moving_stopped else 0

    def movement(self, who: Scholar) -> None:
        self.moving_stopped = False
        while who.steps > 0 and not self.moving_stopped and not who.done:
            choice = self.move_choice(who, cards=False)      # only steps (Engine.move_choice)
            if choice is None or choice["do"] == "stay":
                return
            self.do_move(who, choice)

    def random_move(self, who: Scholar) -> None:
        """EX-9 (L1214, rule c14): 1 step in the randomizer's direction; one passage per side, so
        the exit element C only names the passage; none usable there: first one clockwise."""
        card = self.randomize(lambda c: True)
        if card is None:
            return
        side = card.direction[0].upper()
        here = self.tile_of(who)
        order = SIDES[SIDES.index(side):] + SIDES[:SIDES.index(side)]
        linked = dict(self.links(here.pos))
        for s in order:
            other = linked.get(s)
            if other is not None and self.door_ok(who, other, OPPOSITE[s]) and self.can_enter(who, other):
                self.log(f"{who.name} moves at random {card.direction} ({card.id}): "
                         f"side {s}, {card.exit}most passage")
                self.enter(who, other)
                return
        self.log(f"{who.name} cannot move at random ({card.id}): no passage")

    def teleport(self, who: Scholar) -> None:
        """Any revealed region (L848-852) the scholar may enter: not an Ambush one he could
        neither pay nor answer with a stun (L808), however he comes."""
        options = sorted(t.id for t in self.state.tiles.values()
                         if t.pos != who.pos and self.can_enter(who, t))
        if options:
            self.enter(who, self.tile_by_id(self.ask(who, "teleport", options)))

    def place_tokens(self, who: Scholar, token: str, n: int) -> None:
        """R-17: the player puts each token on any revealed region other than the start."""
        st = self.state
        for _ in range(n):
            if token == "trap_token":
                if not st.traps:
                    return
                tok = st.traps.pop()
            else:
                supply = self.token_supply(token)
                if not supply:
                    self.log(f"{who.name} has no {token} left to place")
                    return
                tok = self.data.kinds["token"][self.ask(who, "token", supply)]
            options = sorted(t.id for t in st.tiles.values() if not t.region.start)
            tile = self.tile_by_id(self.ask(who, "place_token", options))
            if tok.token == "trap_token":
                tile.tokens.insert(0, tok)          # left of all effects (L860)
            else:
                tile.tokens.append(tok)
            self.log(f"{who.name} places a {token} on {tile.id}")

    def token_supply(self, token: str) -> list[str]:
        """The ids of the `token` tokens still in the supply: each entity of that type has
        `count` copies (no count: no limit), less those lying on regions. Which one goes
        down is the player's choice (a pack's secret passage Y beside the base X)."""
        placed = Counter(t.id for tile in self.state.tiles.values() for t in tile.tokens)
        return sorted(t.id for t in self.data.kinds["token"].values()
                      if t.token == token and (t.count is None or placed[t.id] < t.count))

    # --- boss --------------------------------------------------------------------------
    def boss_effect(self, ctx, which: str) -> None:
        fx = getattr(self.state.boss, which)
        self.state.stats[f"boss_{which}"] += 1
        fx(self.ctx(ctx.you, ctx.self))

    def place_boss(self, ctx) -> None:
        self.state.boss_pos = ctx.self.pos if isinstance(ctx.self, Tile) else ctx.you.pos
        self.log(f"the boss appears in {self.state.tiles[self.state.boss_pos].id}")

    def move_boss(self, ctx, steps: int) -> None:
        """R-15: the boss walks toward a scholar (ignoring doors, L1307): Drunk Latus picks
        the scholar by randomizer colour (L1206), otherwise the activating player chooses."""
        st = self.state
        if st.boss_pos is None:
            return
        targets = [s for s in st.scholars if not s.done and not self.in_start(s)]
        if not targets:
            return
        card = ctx.info.get("randomizer")
        if card is not None:
            found = card if any(s.colour == card.colour for s in targets) else \
                self.randomize(lambda c: any(s.colour == c.colour for s in targets))
            target = next(s for s in targets if s.colour == found.colour) if found else targets[0]
            card = found
        else:
            target = self.ask(ctx.you, "boss_target", sorted(targets, key=lambda s: s.seat))
        if target.pos == st.boss_pos:
            # the boss already stands with the scholar his effect names (a randomizer result):
            # that scholar suffers the encounter, even the one who activated him (L1300)
            self.state.stats["boss_encounters"] += 1
            st.boss.encounter(self.ctx(target, st.tiles[st.boss_pos]))
            return
        for _ in range(steps):
            nxt = self.boss_step(ctx.you, st.boss_pos, target.pos, card)
            if nxt is None:
                break
            st.boss_pos = nxt
            # every region with scholars he enters is an encounter (L1302); he walks on toward
            # his target (nothing stops him halfway, and more interaction is the rule, L1307)
            here = self.scholar_at(st.boss_pos)
            if here and not st.tiles[st.boss_pos].region.start:
                for s in here:
                    self.state.stats["boss_encounters"] += 1
                    st.boss.encounter(self.ctx(s, st.tiles[st.boss_pos]))

    def boss_step(self, who: Scholar, pos, goal, card):
        """The next region on a shortest way from pos to goal, None if none. Between several
        (L1206): a randomized move (Drunk Latus) takes the passage on the randomizer card's side,
        else the first one clockwise from it (a secret passage has no side: last); otherwise
        the activating player, who controls the boss's move (L1315), chooses."""
        dist = self.distances(goal)
        if dist.get(pos, 0) == 0:
            return None
        nexts = [p for p in self.ways(pos, self.lettered_regions()) if dist.get(p) == dist[pos] - 1]
        if len(nexts) <= 1:
            return nexts[0] if nexts else None
        if card is not None:
            first = SIDES.index(card.direction[0].upper())
            for side in SIDES[first:] + SIDES[:first]:
                if step(pos, side) in nexts:
                    return step(pos, side)
            return nexts[0]
        tiles = self.state.tiles
        return self.tile_by_id(self.ask(who, "boss_step", sorted(tiles[p].id for p in nexts))).pos

    def ways(self, pos, lettered: dict | None = None) -> list:
        """Where one step leads from pos: connected regions and secret passages (L761, L832);
        the boss may use secret passages (L1307), and so may a scholar. `lettered` (from
        `lettered_regions`) spares a search that asks often the reading of every region."""
        if lettered is None:
            return self.connected(pos) + self.passage_targets(self.state.tiles[pos])
        mine = lettered.get(pos)
        out = self.connected(pos)
        if mine:
            out += [p for p, theirs in lettered.items() if p != pos and not mine.isdisjoint(theirs)]
        return out

    def lettered_regions(self) -> dict:
        """{pos: its secret passage letters} of the regions that have some, read once for a
        search (a search changes nothing)."""
        out, kept_by, first = {}, self._letters, self.state.scholars[0]
        for tile in self.state.tiles.values():
            kept = kept_by.get(id(tile))          # `letters`, inlined for kept ones: every region,
            if kept is not None and kept[0] is tile and kept[1] is first and kept[2] == tile.tokens:
                letters = kept[3]                 # at every search and boss step
            else:
                letters = self.letters(tile)
            if letters:
                out[tile.pos] = set(letters)
        return out

    def distances(self, goal) -> dict:
        """Steps from every region that can reach goal (the ways are symmetric). The last one
        is kept while all the search read is the same: the regions, walls and stairs (each set
        only grows) and the secret passage letters (tokens come and go); not to be changed.
        (Asked at every step back in Maximum Alert and every boss move.)"""
        st, lettered = self.state, self.lettered_regions()
        key = (goal, len(st.tiles), len(st.walls), len(st.stairs), lettered)
        kept = self._distances
        if kept is not None and kept[0] == key:
            return kept[1]
        dist = {goal: 0}
        queue = deque([goal])
        while queue:
            pos = queue.popleft()
            for nxt in self.ways(pos, lettered):
                if nxt not in dist:
                    dist[nxt] = dist[pos] + 1
                    queue.append(nxt)
        self._distances = (key, dist)
        return dist

    def path(self, a, b) -> list:
        """A shortest way from a to b (`ways`)."""
        prev = {a: None}
        queue = deque([a])
        lettered = self.lettered_regions()
        while queue:
            pos = queue.popleft()
            if pos == b:
                break
            for nxt in self.ways(pos, lettered):
                if nxt not in prev:
                    prev[nxt] = pos
                    queue.append(nxt)
        if b not in prev:
            return [a]
        out = [b]
        while prev[out[-1]] is not None:
            out.append(prev[out[-1]])
        return out[::-1]
