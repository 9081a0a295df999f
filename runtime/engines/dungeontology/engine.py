"""Dungeontology's engine: setup, the five phases, stealth attempts, the University bag,
Maximum Alert, the end and final scoring.

Every region effect, token, skill, boss text and card effect runs through the generated
effects. Region keywords are effect snippets (game.yaml): running a region's effects registers
triggers (`on enter_region`, `on stealth_value`, ...) that the engine collects and fires at
the right moment, so a keyword added by a pack works with no engine change. The engine decides
only what the effect language leaves to it: geometry, turn order, who decides, and the rules
procedures of the rulebook (inventory §9). Rule decisions are `rule` entities in
content/dungeontology/rules.yaml.
"""
from __future__ import annotations

from collections import Counter, deque
from types import SimpleNamespace

from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.dungeontology.handlers import Queries, Verbs
from tomecraft.runtime.engines.dungeontology.policy import View
from tomecraft.runtime.engines.dungeontology.state import (
    BONFIRE_MAX, COLOURS, OPPOSITE, SIDES, START_HAND, THESIS_BONUS, Scholar, State, Tile,
    edge, research_increase, step,
)

ROUND_CAP = 120            # R-cap: a safety cap; a capped game is reported by the sim
CARD_AUX_TYPES = ("trick", "fate", "magic")     # usable in stealth attempts (L927-928)


def _rebind(ctx: Context, **changes) -> Context:
    """`ctx.bind(**changes)` without dataclasses' `replace`, which costs ten times more: this
    runs for every trigger handed out or fired. Context is a plain frozen dataclass."""
    copy = object.__new__(Context)
    copy.__dict__.update(ctx.__dict__)
    copy.__dict__.update(changes)
    return copy


def _fresh(ctx: Context) -> Context:
    """A copy of a kept trigger's context with an empty `info` (a verb may write there)."""
    return _rebind(ctx, info={})


class _Watched:
    """The verbs or queries an effect sees while it is collected: any use marks it as one
    that reads or acts (its triggers may differ next time). Closures made then keep it."""
    __slots__ = ("_engine", "_handlers")

    def __init__(self, engine, handlers) -> None:
        self._engine = engine
        self._handlers = handlers

    def __getattr__(self, name: str):
        self._engine._read = True
        return getattr(self._handlers, name)


class Engine:
    def __init__(self, data, state: State, agents: list, rng, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agents = agents
        self.rng = rng
        self.log_enabled = log_enabled
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        check_handlers(data, self.verbs, self.queries)
        self._watched = (_Watched(self, self.verbs), _Watched(self, self.queries))
        self._read = False                   # an effect being collected read or did something
        self._registrations: dict = {}       # see `registered`
        self.notebook = next(iter(data.kinds["notebook"].values()))
        self.columns = {c.colour: c for c in self.notebook.columns}
        self.units = {b.colour: b.unit_value for b in data.kinds["info_block"].values()}
        self.rules = {r.id: r.value for r in data.kinds.get("rule", {}).values()}
        self.dry = False
        self.entry_forbidden = False
        self.wants_rest = False
        self.moving_stopped = False
        self.rested = False                  # a rest ends the turn (L650)
        self.ownerless = False               # an effect nobody plays (the panic card)
        self.refused = False
        self.attempt: dict | None = None
        self.last_prophecy = 0
        self.passage_letters: list = []
        self._collecting: list | None = None
        self._once: set = set()
        self.affected: set = set()           # (skill user, target) seats this turn (铁头功, L307)
        self.bonus_points = Counter()
        self.resolving = None                # the pending card being resolved (T-23)
        self.pending_cards: list = []
        self.fixed_randomizer = False        # scenarios give the randomizer deck's order
        self.last_attempt: dict | None = None
        self.progress = 0                    # moves, actions and cards: Max Alert step 3
        self.scored = False                  # `final_scoring` has fired (once a game)

    # --- the Context API ---------------------------------------------------------------
    def attr(self, ctx, obj, name: str):
        self._read = True
        if isinstance(obj, Scholar):
            if name in ("stealth", "alert") and self.attempt is not None:
                return self.attempt[name]
            if name == "stars":
                return self.stars(obj)
            stats = obj.stats()
            if hasattr(stats, "_fields") and name in stats._fields:
                return stats[name]
            return getattr(obj, name)
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        self._read = True
        live = [s for s in self.state.scholars if not s.done]
        if kind == "player":
            return [s for s in live if (s is ctx.you and not self.ownerless) or not self.in_start(s)]
        if kind in ("opponent", "other_player"):
            return [s for s in live if s is not ctx.you and not self.in_start(s)]
        return []

    def decide(self, ctx, key: str, options: list):
        self._read = True
        return self.ask(ctx.you, key, options)

    def subscribe(self, ctx, event: str, where, body, key: str) -> None:
        if self._collecting is None:
            raise EffectError(f"trigger {key} registered outside a region, token or skill")
        self._collecting.append((event, where, body, ctx))

    def watch(self, ctx, cond, body, key: str) -> None:
        raise EffectError("Dungeontology's content has no watches")

    def continuous(self, ctx, body, key: str) -> None:
        raise EffectError("Dungeontology's content has no continuous effects")

    def once(self, ctx, scope: str, key: str) -> bool:
        self._read = True
        if key in self._once:
            return False
        if not self.dry:
            self._once.add(key)
        return True

    def modify(self, ctx, obj, name: str, op: str, value, key: str) -> None:
        self._read = True
        if isinstance(obj, Scholar) and name in ("stealth", "alert"):
            if self.attempt is not None:
                self.attempt_add(name, value if op == "+=" else -value, obj)
            return
        current = getattr(obj, name, 0)
        new = {"=": value, "+=": current + value, "-=": current - value,
               "*=": current * value}.get(op)
        if new is None:
            raise EffectError(f"unknown modifier {op}")
        setattr(obj, name, new)

    # --- helpers -----------------------------------------------------------------------
    def log(self, line: str) -> None:
        if self.log_enabled:
            self.state.log.append(line)

    def ask(self, who: Scholar, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key not in ("action", "move"):
            return options[0]
        return self.agents[who.seat].choose(key, options, View(self, who))

    def ctx(self, who: Scholar, tile: Tile | None = None, **info) -> Context:
        return Context(engine=self, you=who, self=tile, info=dict(info))

    def card(self, cid: str):
        return self.data.kinds["scheme_card"][cid]

    def cards_of(self, who: Scholar, card_type: str) -> int:
        return sum(1 for c in who.hand if self.card(c).card_type == card_type)

    def tile_of(self, who: Scholar) -> Tile:
        return self.state.tiles[who.pos]

    def in_start(self, who: Scholar) -> bool:
        return bool(self.state.tiles[who.pos].region.start)

    def stamina(self, who: Scholar) -> int:
        return who.stats().stamina

    def scholar_at(self, pos) -> list[Scholar]:
        return [s for s in self.state.scholars if s.pos == pos and not s.done]

    # --- triggers ----------------------------------------------------------------------
    def triggers_of(self, effects, who: Scholar, tile) -> list:
        """Run effect functions in collecting mode; return their registered triggers."""
        out: list = []
        for fx in effects or ():
            out += self.registered(fx, who, tile)
        return out

    def registered(self, fx, who: Scholar, tile) -> list:
        """The triggers `fx` registers for (who, tile). Collecting runs the effect, and the
        engine does so for every region around at every step (moves, secret passages), so
        an effect that only registers -- it read no state, asked nothing, called no verb or
        query -- registers the same triggers next time: those are kept and handed out again,
        each with a fresh context (a verb may write in a context's `info`). An effect that
        read anything is run again each time."""
        key = (fx, id(who), id(tile))
        kept = self._registrations.get(key)
        if kept is not None and kept[0] is who and kept[1] is tile:
            return [(event, where, body, _fresh(ctx)) for event, where, body, ctx in kept[2]]
        saved = self._collecting, self._read, self.verbs, self.queries
        self._collecting, self._read = [], False
        self.verbs, self.queries = self._watched       # handler use marks the effect as reading
        try:
            fx(self.ctx(who, tile))
            found, pure = self._collecting, not self._read
        finally:
            self._collecting, self._read, self.verbs, self.queries = saved
        if pure:
            self._registrations[key] = (who, tile, [(e, w, b, _fresh(c)) for e, w, b, c in found])
        else:
            self._read = True                          # an enclosing collection read too
        return found

    def tile_triggers(self, tile: Tile, who: Scholar) -> list:
        effects = list(tile.region.effects or ())
        effects += [t.effect for t in tile.tokens if t.effect is not None and t.token != "trap_token"]
        return self.triggers_of(effects, who, tile)

    def skill_triggers(self, who: Scholar) -> list:
        """Triggers that last while `who` has them: passive skills, owned interns, and revealed
        doom cards (until removed in a Rest, L1096)."""
        passive = [s.effect for s in who.stats().skills if s.timing == "passive"]
        passive += [self.data.get("intern_card", iid).effect
                    for iid, seat in sorted(self.state.interns.items()) if seat == who.seat]
        passive += [self.data.get("doom_card", did).effect for did in who.dooms]
        return self.triggers_of([fx for fx in passive if fx is not None], who, who)

    def fire(self, triggers: list, event: str, payload=None, who: Scholar | None = None) -> None:
        for name, where, body, ctx in triggers:
            if name != event:
                continue
            bound = ctx
            if payload is not None:
                bound = _rebind(bound, event=payload)
            if who is not None:
                bound = _rebind(bound, you=who)
            if where is None or where(bound):
                body(bound)

    # --- students ----------------------------------------------------------------------
    def sacrifice(self, who: Scholar, n: int) -> None:
        n = min(n, who.students)
        who.students -= n
        self.state.reserve_students += n
        if n:
            self.log(f"{who.name} sacrifices {n} student(s)")

    def gain_students(self, who: Scholar, n: int) -> None:
        n = min(n, self.state.bonfire)          # only those there (L230)
        self.state.bonfire -= n
        who.students += n

    def gain_stun(self, who: Scholar, n: int = 1, avoidable: bool = True) -> None:
        for _ in range(n):
            if who.stun >= self.stamina(who):
                return                           # at the cap no stun can be gained (L661)
            if avoidable and who.students > 0 and self.ask(who, "avoid_stun", [True, False]):
                self.sacrifice(who, 1)
                continue
            who.stun += 1
            self.log(f"{who.name} gains a stun token ({who.stun})")

    def draw_students(self, who: Scholar, n: int) -> None:
        """Draw n from the University at once (L1228-1241), with the omega procedure."""
        st = self.state
        drawn = Counter()
        for _ in range(n):
            pool = [k for k in ("normal", "omega") for _ in range(st.bag[k])]
            if not pool:
                break
            kind = pool[self.rng.randrange(len(pool))]
            st.bag[kind] -= 1
            drawn[kind] += 1
        st.stats["students_drawn"] += sum(drawn.values())
        if not drawn["omega"]:
            room = BONFIRE_MAX - st.bonfire
            st.bonfire += min(room, drawn["normal"])
            st.reserve_students += max(0, drawn["normal"] - room)
            return
        self.log(f"{who.name} draws an omega student")
        st.stats["omegas"] += drawn["omega"]
        st.reserve_students += st.bonfire + drawn["normal"]
        st.bonfire = 0
        for _ in range(drawn["omega"]):
            self.place_omega(who)

    def place_omega(self, who: Scholar) -> None:
        st = self.state
        if st.panic_revealed:
            st.bag["omega"] += 1                 # the infinite omega goes back (L1148)
            if st.bag["normal"] == 0:
                self.end("bag_empty")            # R-max-alert-bag: checked before it returns
            return
        slots = len(st.alert_card.rows) if st.alert_card is not None else 0
        if st.alert_card is None or st.alert_filled >= slots:
            st.reserve_omega += 1
            self.log("an omega reaches the panic card")
            if st.alert_card is not None and st.alert_card.rows:
                st.penalty_after_panic = st.alert_card.rows[-1].research_penalty
            st.alert_card = None
            self.max_alert("omega")
            return
        st.alert_filled += 1
        if st.doom_deck:
            who.dooms_hidden.append(st.doom_deck.pop())
        row = st.alert_card.rows[st.alert_filled - 1]
        normal = row.normal_per_player * st.players
        if st.reserve_students >= normal:       # refill only if the reserve has enough
            st.reserve_students -= normal
            st.bag["normal"] += normal
        omega = min(row.omega, st.reserve_omega)
        st.reserve_omega -= omega
        st.bag["omega"] += omega

    def research_penalty(self) -> int:
        st = self.state
        if st.alert_card is None:
            # rule g13: the lowest occupied row's penalty (L1260) stays, the card's last row
            return st.penalty_after_panic if self.rules.get("g13_penalty_after_panic") == "last_row" else 0
        if st.alert_filled == 0:
            return st.alert_card.research_penalty_before or 0
        return st.alert_card.rows[st.alert_filled - 1].research_penalty

    # --- cards -------------------------------------------------------------------------
    def draw_cards(self, who: Scholar, n: int) -> None:
        for _ in range(n):
            card = self.draw_one()
            if card is None:
                return
            who.hand.append(card)

    def draw_one(self):
        st = self.state
        if not st.deck:
            st.deck, st.discard = st.discard, []
            self.rng.shuffle(st.deck)         # T-32 (L408)
        return st.deck.pop() if st.deck else None

    def search_cards(self, who: Scholar, card_type: str) -> None:
        for i in range(len(self.state.deck) - 1, -1, -1):
            if self.card(self.state.deck[i]).card_type == card_type:
                who.hand.append(self.state.deck.pop(i))
                self.rng.shuffle(self.state.deck)
                return

    def prophecy(self, who: Scholar, n: int) -> None:
        """Reveal n cards, choose one; its bonus is the result; all go to the discard (R-02)."""
        shown = [c for c in (self.draw_one() for _ in range(n)) if c is not None]
        if not shown:
            self.last_prophecy = 0
            return
        pick = self.ask(who, "prophecy", sorted(set(shown)))
        self.last_prophecy = self.card(pick).bonus
        self.state.discard.extend(shown)
        self.log(f"{who.name} prophesies {pick} ({self.last_prophecy})")

    def randomize(self, applies):
        """Shuffle the randomizer deck and draw until a card applies (L1194)."""
        cards = list(self.state.randomizer)
        if not self.fixed_randomizer:
            self.rng.shuffle(cards)
        for card in cards:
            if applies(card):
                return card
        return None

    # --- notebook ----------------------------------------------------------------------
    def caste_short(self) -> bool:
        return self.rules.get("c2_caste_column", "short") == "short"

    def capacity(self, colour: str) -> int:
        if colour == "caste" and self.caste_short():
            return sum(1 for v in self.columns["caste"].values if v)
        return self.notebook.capacity

    def column_score(self, colour: str, n: int) -> int:
        values = list(self.columns[colour].values)
        if colour == "caste" and self.caste_short():
            values = [0] + [v for v in values if v]
        return values[min(n, len(values) - 1)]

    def notebook_score(self, who: Scholar) -> int:
        return sum(self.column_score(c, who.notebook[c]) for c in COLOURS)

    def stars(self, who: Scholar) -> int:
        return sum(1 for c in COLOURS for s in self.columns[c].stars if who.notebook[c] >= s)

    def research_bonus(self, who: Scholar) -> int:
        return sum(1 for c in COLOURS for r in self.columns[c].research if who.notebook[c] >= r)

    def clan_score(self, who: Scholar) -> int:
        mods = self.state.clan.modifiers
        return self.notebook_score(who) + sum(who.notebook[c] * (mods[c] or 0) for c in COLOURS)

    def gain_block(self, who: Scholar, colour: str) -> bool:
        """Put a block in its column; a full column destroys it (L1026). True if kept."""
        if who.notebook[colour] >= self.capacity(colour):
            self.state.reserve_blocks[colour] += 1
            self.log(f"{who.name}'s {colour} column is full: the block is destroyed")
            return False
        stars = self.stars(who)
        who.notebook[colour] += 1
        self.notebook_changed()
        if self.stars(who) > stars:              # the block uncovers a star (L392)
            self.fire(self.skill_triggers(who), "star_gained")
        return True

    def lose_block(self, who: Scholar, colour: str, protectable: bool = True) -> bool:
        """Remove the top block of a column. Losing is any removal from the notebook (L1030), so
        a protected colour may be kept whatever the cause, chosen or random (L1076); only a
        gift is not protected (`protectable=False`, L1054)."""
        if who.notebook[colour] <= 0:
            return False
        if protectable and self.loss_refused(who, colour):
            self.log(f"{who.name} refuses to lose the {colour} block")
            return False
        if protectable and self.protected(who, colour):
            if self.ask(who, "refuse_loss", [True, False]):
                self.log(f"{who.name} keeps the protected {colour} block")
                return False
        who.notebook[colour] -= 1
        self.notebook_changed()
        return True

    def loss_refused(self, who: Scholar, colour: str) -> bool:
        """`on block_loss` triggers of `who` hear the loss; `refuse_loss` there keeps it."""
        saved, self.refused = self.refused, False
        try:
            self.fire(self.skill_triggers(who), "block_loss", SimpleNamespace(colour=colour))
            return self.refused
        finally:
            self.refused = saved

    def protected(self, who: Scholar, colour: str) -> bool:
        return any(seat == who.seat and colour in (self.data.get("intern_card", iid).colours or ())
                   for iid, seat in self.state.interns.items())

    def notebook_changed(self) -> None:
        """Lore tokens and excitement (L345-347, L378): re-evaluated after every change."""
        scholars = self.state.scholars
        for s in scholars:
            if not s.lore and not Counter(s.card.lore_bonus) - s.notebook:
                s.lore = True
                self.log(f"{s.name} gains the lore token")
        top = max(self.stars(s) for s in scholars)
        for s in scholars:
            side = "excited" if self.stars(s) < top else "standard"
            if side != s.side:
                s.side = side
                s.stun = min(s.stun, self.stamina(s))    # excess stun is discarded (L373)
                self.log(f"{s.name} turns to the {side} side")

    def drop(self, who: Scholar, n: int, random: bool) -> None:
        """Drop n blocks into the region's rightmost empty slots, then connected regions,
        else destroy (L1032); a random drop draws the colour from the randomizer (L1210)."""
        for _ in range(n):
            owned = [c for c in COLOURS if who.notebook[c] > 0]
            if not owned:
                return
            if random:
                card = self.randomize(lambda c: who.notebook[c.info] > 0)
                colour = card.info if card is not None else owned[0]
            else:
                colour = self.ask(who, "drop", owned)
            if not self.lose_block(who, colour):        # a Toll's drop too (L816, L1076)
                continue
            self.place_dropped(who, colour)

    def place_dropped(self, who: Scholar, colour: str) -> None:
        here = self.tile_of(who)
        for tile in [here] + [self.state.tiles[p] for p in self.connected(here.pos)]:
            empty = [i for i, c in enumerate(tile.slots) if c is None]
            if empty:
                tile.slots[empty[-1]] = colour
                self.log(f"{who.name} drops a {colour} block in {tile.id}")
                return
        self.state.reserve_blocks[colour] += 1
        self.log(f"{who.name}'s dropped {colour} block is destroyed")

    def give(self, giver: Scholar, receiver: Scholar) -> None:
        owned = [c for c in COLOURS if giver.notebook[c] > 0]
        if not owned:
            return
        colour = self.ask(giver, "give", owned)          # the giver chooses (L1038)
        self.lose_block(giver, colour, protectable=False)   # giving is not losing (L1054)
        self.gain_block(receiver, colour)
        self.log(f"{giver.name} gives a {colour} block to {receiver.name}")

    def collect(self, who: Scholar, n: int) -> None:
        tile = self.tile_of(who)
        for index, colour in self.targets(who, tile, n):
            tile.slots[index] = None
            self.gain_block(who, colour)
            self.log(f"{who.name} collects a {colour} block from {tile.id}")

    def targets(self, who: Scholar, tile: Tile, n: int) -> list:
        """The first available blocks left to right, skipping full columns (L916, L1024)."""
        out = []
        for i, colour in tile.blocks():
            if len(out) == n:
                break
            if who.notebook[colour] + sum(1 for _, c in out if c == colour) >= self.capacity(colour):
                continue
            out.append((i, colour))
        return out

    # --- geometry ----------------------------------------------------------------------
    def open_side(self, tile: Tile, side: str) -> bool:
        return side in tile.region.passages

    def linked(self, a: Tile, b: Tile, side: str) -> bool:
        e = edge(a.pos, b.pos)
        if e in self.state.walls or not (self.open_side(a, side) and self.open_side(b, OPPOSITE[side])):
            return False
        return a.level == b.level or e in self.state.stairs

    def connected(self, pos) -> list:
        tile = self.state.tiles[pos]
        out = []
        for side in SIDES:
            other = self.state.tiles.get(step(pos, side))
            if other is not None and self.linked(tile, other, side):
                out.append(other.pos)
        return out

    def door_ok(self, who: Scholar, dst: Tile, side_in: str) -> bool:
        for door in dst.region.doors or ():
            if door.side == side_in and any(who.notebook[c] == 0 for c in door.colours):
                return False
        return True

    def letters(self, tile: Tile) -> list:
        self.passage_letters = []
        self.fire(self.tile_triggers(tile, self.state.scholars[0]), "movement")
        return list(self.passage_letters)

    def passage_targets(self, tile: Tile) -> list:
        mine = set(self.letters(tile))
        if not mine:
            return []
        return [t.pos for t in self.state.tiles.values()
                if t.pos != tile.pos and mine & set(self.letters(t))]

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
        """Draw from the level's stack; a tile that cannot connect goes to the bottom (L748);
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
        tile = self.tile_of(who)
        if not self.state.stacks[tile.level]:
            return []
        return [s for s in SIDES if self.open_side(tile, s) and step(tile.pos, s) not in self.state.tiles]

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
        """Dry-run the entry triggers: Ambush at the stun cap forbids entry (L808)."""
        self.dry, self.entry_forbidden = True, False
        try:
            triggers = self.tile_triggers(dst, who)
            for t in dst.tokens:
                if t.token == "trap_token":
                    triggers += self.triggers_of([t.effect], who, dst)
            self.fire(triggers, "enter_region")
            return not self.entry_forbidden
        finally:
            self.dry = False

    def move_options(self, who: Scholar) -> list:
        if who.steps <= 0:
            return []
        here = self.tile_of(who)
        out = []
        for side in SIDES:
            other = self.state.tiles.get(step(here.pos, side))
            if other is not None and self.linked(here, other, side) \
                    and self.door_ok(who, other, OPPOSITE[side]) and self.can_enter(who, other):
                out.append({"do": "move", "to": other.id})
        for side in self.explore_sides(who):
            out.append({"do": "explore", "side": side})
        for pos in self.passage_targets(here):
            dst = self.state.tiles[pos]
            if self.can_enter(who, dst):
                out.append({"do": "passage", "to": dst.id})
        return out

    def tile_by_id(self, rid: str) -> Tile:
        return next(t for t in self.state.tiles.values() if t.id == rid)

    def do_move(self, who: Scholar, option: dict) -> None:
        who.steps -= 1
        if option["do"] == "explore":
            here = self.tile_of(who)
            pos = step(here.pos, option["side"])
            region = self.draw_fitting(here.level, pos, OPPOSITE[option["side"]])
            if region is None:
                self.log(f"{who.name} finds no region to place {option['side']} of {here.id}")
                return
            tile = self.new_tile(region, pos)
            self.log(f"{who.name} places {region.id} {option['side']} of {here.id}")
            if self.can_enter(who, tile):
                self.enter(who, tile)
            return
        self.enter(who, self.tile_by_id(option["to"]))

    def enter(self, who: Scholar, tile: Tile) -> None:
        """L779-786: move in, flip a waiting trap first (L860), then the region's effects."""
        who.pos = tile.pos
        self.progress += 1
        first = not tile.entered
        tile.entered = True
        self.state.stats[f"entered:{tile.id}"] += 1
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
            options = self.move_options(who)
            if not options:
                return
            choice = self.ask(who, "move", options + [{"do": "stay"}])
            if choice["do"] == "stay":
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
        for s in order:
            other = self.state.tiles.get(step(here.pos, s))
            if other is not None and self.linked(here, other, s) \
                    and self.door_ok(who, other, OPPOSITE[s]) and self.can_enter(who, other):
                self.log(f"{who.name} moves at random {card.direction} ({card.id}): "
                         f"side {s}, {card.exit}most passage")
                self.enter(who, other)
                return
        self.log(f"{who.name} cannot move at random ({card.id}): no passage")

    def teleport(self, who: Scholar) -> None:
        options = sorted(t.id for t in self.state.tiles.values() if t.pos != who.pos)
        if options:
            self.enter(who, self.tile_by_id(self.ask(who, "teleport", options)))

    def place_tokens(self, who: Scholar, token: str, n: int) -> None:
        """R-17: the player puts each token on any revealed region other than the start."""
        st = self.state
        pool = [t for t in self.data.kinds["token"].values() if t.token == token]
        for _ in range(n):
            if token == "trap_token":
                if not st.traps:
                    return
                tok = st.traps.pop()
            elif pool:
                tok = pool[0]
            else:
                return
            options = sorted(t.id for t in st.tiles.values() if not t.region.start)
            tile = self.tile_by_id(self.ask(who, "place_token", options))
            if tok.token == "trap_token":
                tile.tokens.insert(0, tok)          # left of all effects (L860)
            else:
                tile.tokens.append(tok)
            self.log(f"{who.name} places a {token} on {tile.id}")

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
        else:
            target = self.ask(ctx.you, "boss_target", sorted(targets, key=lambda s: s.seat))
        for _ in range(steps):
            path = self.path(st.boss_pos, target.pos)
            if len(path) < 2:
                break
            st.boss_pos = path[1]
            here = self.scholar_at(st.boss_pos)
            if here and not st.tiles[st.boss_pos].region.start:
                for s in here:
                    self.state.stats["boss_encounters"] += 1
                    st.boss.encounter(self.ctx(s, st.tiles[st.boss_pos]))
                break

    def path(self, a, b) -> list:
        prev = {a: None}
        queue = deque([a])
        while queue:
            pos = queue.popleft()
            if pos == b:
                break
            for nxt in self.connected(pos):
                if nxt not in prev:
                    prev[nxt] = pos
                    queue.append(nxt)
        if b not in prev:
            return [a]
        out = [b]
        while prev[out[-1]] is not None:
            out.append(prev[out[-1]])
        return out[::-1]

    # --- stealth attempts --------------------------------------------------------------
    def attempt_add(self, name: str, amount: int, who) -> None:
        if self.attempt is not None:
            self.attempt[name] += amount

    def card_bonus(self, who: Scholar, cid: str, fate_main: bool) -> int:
        card = self.card(cid)
        event = SimpleNamespace(card_type=card.card_type,
                                bonus=(card.fate_bonus if fate_main and card.fate_bonus else card.bonus))
        self.fire(self.skill_triggers(who), "card_played", event)
        return event.bonus

    def stealth_cards(self, who: Scholar) -> None:
        """Discard any number (at least 1) of cards, summing their bonus values (L925)."""
        while who.hand:
            options = [{"card": c, "fate": False} for c in sorted(set(who.hand))]
            options += [{"card": c, "fate": True} for c in sorted(set(who.hand))
                        if self.card(c).fate_bonus]
            if self.attempt["cards"]:
                options.append({"card": None})
            pick = self.ask(who, "stealth_card", options)
            if pick["card"] is None:
                return
            who.hand.remove(pick["card"])
            self.state.discard.append(pick["card"])
            self.attempt["cards"].append(pick["card"])
            self.attempt["stealth"] += self.card_bonus(who, pick["card"], pick["fate"])

    def aux_round(self, who: Scholar) -> int:
        """`who` plays any number of Trick/Fate/Magic auxiliary effects; returns how many."""
        if self.in_start(who) or who.done:
            return 0
        played = 0
        while True:
            options = [c for c in sorted(set(who.hand)) if self.card(c).card_type in CARD_AUX_TYPES
                       and self.card(c).auxiliary is not None
                       and self.card(c).auxiliary.can(self.ctx(who, self.tile_of(who)))]
            if not options:
                return played
            pick = self.ask(who, "stealth_aux", options + [None])
            if pick is None:
                return played
            who.hand.remove(pick)
            self.state.discard.append(pick)
            self.card(pick).auxiliary(self.ctx(who, self.tile_of(who)))
            self.log(f"{who.name} plays {pick}'s auxiliary effect "
                     f"(stealth {self.attempt['stealth']}, alert {self.attempt['alert']})")
            played += 1

    def research_options(self, who: Scholar) -> list:
        tile = self.tile_of(who)
        if tile.region.start or not who.hand:
            return []
        n_max = len(self.targets(who, tile, who.stats().intellect))
        return [{"do": "research", "blocks": n} for n in range(1, n_max + 1)]

    def region_alert(self, tile: Tile) -> int:
        alert = tile.region.alert or 0
        if self.state.boss_pos == tile.pos and self.state.boss is not None:
            alert += self.state.boss.region_alert         # region modifier (L1297)
        return alert

    def research(self, who: Scholar, n: int) -> bool:
        """L909-930 and the research example L934-953."""
        tile = self.tile_of(who)
        targets = self.targets(who, tile, n)
        alert = self.region_alert(tile) + self.research_penalty() + research_increase(len(targets))
        self.attempt = {"kind": "research", "by": who, "stealth": 0, "alert": alert, "cards": []}
        try:
            self.stealth_cards(who)
            self.attempt["stealth"] += self.research_bonus(who)
            triggers = self.tile_triggers(tile, who) + self.skill_triggers(who)
            self.fire(triggers, "stealth_value")
            self.rivals_react(who)
            order = self.seat_order(who)[1:]
            for other in order:                  # clockwise, each opponent (L927)
                self.aux_round(other)
            self.aux_round(who)                  # then the researcher (L928)
            ok = self.attempt["stealth"] >= self.attempt["alert"]
            self.last_attempt = {**self.attempt, "ok": ok, "by": who.seat}
            self.log(f"{who.name} researches {tile.id} for {len(targets)} block(s): "
                     f"stealth {self.attempt['stealth']} vs alert {self.attempt['alert']}")
            self.state.stats["research"] += 1
            if ok:
                self.state.stats["research_ok"] += 1
                for index, colour in targets:
                    tile.slots[index] = None
                    self.gain_block(who, colour)
                    self.log(f"{who.name} collects a {colour} block")
            else:
                self.fail(who, triggers)
            return ok
        finally:
            self.attempt = None

    def rivals_react(self, who: Scholar) -> None:
        """Opponents' skills that answer another scholar's stealth value, clockwise (神圣干预, L1357)."""
        for other in self.seat_order(who)[1:]:
            if not other.done:
                self.fire(self.skill_triggers(other), "rival_stealth_value")

    def fail(self, who: Scholar, triggers: list) -> None:
        """A failed attempt: 1 stun and 1 student from the University (Danger N: N)."""
        event = SimpleNamespace(students=1)
        self.fire(triggers, "stealth_failed", event)
        self.gain_stun(who, 1)
        self.draw_students(who, event.students)

    def spy_targets(self, who: Scholar) -> list:
        here = self.tile_of(who)
        if here.region.start or not who.hand or who.students < 1:
            return []
        near = {here.pos, *self.connected(here.pos)}
        out = []
        for s in self.state.scholars:
            if s is who or s.done or self.in_start(s) or s.pos not in near:
                continue
            out += [{"do": "spy", "target": s.seat, "colour": c} for c in COLOURS if s.notebook[c]]
        return out

    def spy(self, who: Scholar, target: Scholar, colour: str) -> bool:
        """L955-973 and the spying example L991-1007."""
        self.sacrifice(who, 1)
        event = SimpleNamespace(students=target.students)
        self.fire(self.skill_triggers(who), "spy_alert", event)
        alert = self.units[colour] + event.students
        self.attempt = {"kind": "spy", "by": who, "stealth": 0, "alert": alert, "cards": []}
        try:
            self.stealth_cards(who)
            triggers = self.tile_triggers(self.tile_of(who), who) + self.skill_triggers(who)
            self.fire(triggers, "stealth_value")
            self.rivals_react(who)
            while True:                           # steps 2-3 repeat (L968-971)
                played = self.aux_round(target) + self.aux_round(who)
                if not played:
                    break
            ok = self.attempt["stealth"] >= self.attempt["alert"]
            self.last_attempt = {**self.attempt, "ok": ok, "by": who.seat}
            self.log(f"{who.name} spies on {target.name}'s {colour}: "
                     f"stealth {self.attempt['stealth']} vs alert {self.attempt['alert']}")
            self.state.stats["spy"] += 1
            if ok:
                self.state.stats["spy_ok"] += 1
                if self.lose_block(target, colour):
                    self.gain_block(who, colour)
                    self.log(f"{who.name} steals a {colour} block from {target.name}")
            else:
                self.fail(who, triggers)
            return ok
        finally:
            self.attempt = None

    def seat_order(self, first: Scholar) -> list:
        n = len(self.state.scholars)
        return [self.state.scholars[(first.seat + i) % n] for i in range(n)]

    # --- rest, thesis, Max Alert -------------------------------------------------------
    def rest(self, who: Scholar, move_to_start: bool = True) -> None:
        """L640-653."""
        if self.state.max_alert:
            return
        if move_to_start:
            who.pos = self.state.start_pos()
        who.stun = 0
        if who.dooms or who.dooms_hidden:
            pile = who.dooms if who.dooms else who.dooms_hidden
            self.state.doom_deck.insert(0, pile.pop())
        keep = []
        for cid in list(who.hand):
            if self.ask(who, "rest_discard", [False, True]):
                self.state.discard.append(cid)
            else:
                keep.append(cid)
        who.hand = keep
        self.draw_cards(who, max(0, who.stats().hand_value - len(who.hand)))
        need = max(0, who.stats().students_value - who.students)
        take = min(need, self.state.bonfire)
        self.state.bonfire -= take
        rest = min(need - take, self.state.reserve_students)
        self.state.reserve_students -= rest
        who.students += take + rest
        self.fire(self.skill_triggers(who), "rest_phase")     # steps 1-5 done (L640-650)
        self.state.stats["rests"] += 1
        self.rested = True                   # step 6: the rest ends the turn (L650, rule g07)
        self.log(f"{who.name} rests")

    def thesis(self, who: Scholar) -> bool:
        """L621-636; during Max Alert it starts from step 2 and ends the scholar's game."""
        st = self.state
        who.pos = st.start_pos()
        score = self.clan_score(who)
        ok = score >= st.clan.target
        st.stats["theses"] += 1
        if ok:
            st.theses += 1
            who.thesis = "success"
            who.thesis_order = st.theses
            who.done = True
            st.stats["theses_ok"] += 1
            self.log(f"{who.name} submits a thesis: success")
            if not st.max_alert:
                self.max_alert("thesis")
            return True
        who.thesis = "failure"
        self.log(f"{who.name} submits a thesis: failure")
        owned = [c for c in COLOURS if who.notebook[c]]
        if owned:
            mods = st.clan.modifiers
            worst = max(owned, key=lambda c: (self.units[c] + (mods[c] or 0), self.units[c]))
            if self.lose_block(who, worst):          # highest unit value + modifier;
                st.reserve_blocks[worst] += 1        # a loss, so protection applies (L1076)
        if st.doom_deck:
            who.dooms_hidden.append(st.doom_deck.pop())
        if st.max_alert:
            who.done = True
        return False

    def max_alert(self, why: str) -> None:
        st = self.state
        if st.max_alert:
            return
        st.max_alert = True
        st.panic_revealed = True
        st.stats[f"max_alert_by_{why}"] += 1
        self.log(f"Maximum Alert ({why}): the panic card {st.panic.id} is revealed")
        if st.panic.effect is not None:
            # nobody plays the panic card: the start region's immunity covers everyone standing
            # there (L729), the scholar who drew the omega too
            live = [s for s in st.scholars if not s.done]
            owner = next((s for s in live if not self.in_start(s)), None)
            self.ownerless = True
            try:
                if owner is not None:
                    st.panic.effect(self.ctx(owner, None))
            finally:
                self.ownerless = False
        if st.bag["omega"] == 0 and st.panic.infinite_omega:
            st.bag["omega"] = 1

    def end(self, why: str) -> None:
        if self.state.ended is None:
            self.state.ended = why
            self.log(f"the game ends: {why}")

    def check_end(self) -> None:
        st = self.state
        if st.ended:
            return
        if all(s.done for s in st.scholars):
            self.end("all_done")
        elif not any(t.blocks() for t in st.tiles.values()):
            if st.max_alert or not any(st.stacks.values()):
                self.end("no_blocks")      # L1134 / Max Alert

    # --- turn --------------------------------------------------------------------------
    def action_options(self, who: Scholar) -> list:
        """The action, plus the scheme cards that cost none (no 行动 mark, L436-440, L592)."""
        out = [{"do": "pass"}]
        if who.actions > 0:
            out += self.main_actions(who)
        return out + self.free_options(who)

    def main_actions(self, who: Scholar) -> list:
        out = self.research_options(who)
        out += self.spy_targets(who)
        tile = self.tile_of(who)
        if not tile.region.start:
            for cid in sorted(set(who.hand)):
                card = self.card(cid)
                if card.action and card.main is not None and card.main.can(self.ctx(who, tile)):
                    out.append({"do": "card", "card": cid})
        for i, (name, where, body, ctx) in enumerate(self.tile_triggers(tile, who)):
            if name == "region_action" and (where is None or where(ctx)) \
                    and not (self.state.max_alert and self.rests_when(body, ctx)):
                out.append({"do": "region", "index": i})
        for skill in who.stats().skills:
            if skill.timing == "action" and skill.effect.can(self.ctx(who, who)):
                out.append({"do": "skill", "id": skill.id})
        return out

    def rests_when(self, body, ctx) -> bool:
        """Whether a region action is a rest (no rest in Maximum Alert, L1161)."""
        self.dry, self.wants_rest = True, False
        try:
            body(ctx)
            return self.wants_rest
        finally:
            self.dry = False

    def free_options(self, who: Scholar) -> list:
        """Scheme cards playable in the movement phase without the action (L592)."""
        if self.in_start(who):
            return []
        out = []
        for cid in sorted(set(who.hand)):
            card = self.card(cid)
            ctx = self.ctx(who, self.tile_of(who))
            if not card.action and card.main is not None and card.main.can(ctx):
                out.append({"do": "card", "card": cid})
            if card.card_type not in CARD_AUX_TYPES and card.auxiliary is not None \
                    and card.auxiliary.can(ctx):
                out.append({"do": "aux", "card": cid})
        return out

    def play_card(self, who: Scholar, cid: str, part: str) -> None:
        """L446-452 (rule c13, T-23): after the active card, a priority round clockwise from the
        left neighbour lets each player add 1 Instant or Response card at a time until all pass;
        Responses resolve first, latest first; the other cards then in the order played."""
        who.hand.remove(cid)
        self.state.discard.append(cid)
        self.log(f"{who.name} plays {cid} ({part})")
        pending = [{"who": who, "card": cid, "part": part, "answers": None, "cancelled": False}]
        if self.priority_players(who):
            self.priority_round(who, pending)
        responses = [p for p in pending if self.card(p["card"]).timing == "response" and p is not pending[0]]
        order = responses[::-1] + [p for p in pending if p not in responses]
        for entry in order:
            self.resolve_card(entry, pending)

    def priority_players(self, who: Scholar) -> bool:
        return any(self.card(c).timing in ("instant", "response")
                   for s in self.state.scholars if s is not who and not self.in_start(s)
                   for c in s.hand)

    def priority_round(self, who: Scholar, pending: list) -> None:
        n = len(self.state.scholars)
        order = self.seat_order(self.state.scholars[(who.seat + 1) % n])
        passes, i = 0, 0
        while passes < n:
            s = order[i % n]
            i += 1
            options = [None]
            if not s.done and not self.in_start(s):       # Responses included (L733)
                ctx = self.ctx(s, self.tile_of(s))
                for c in sorted(set(s.hand)):
                    card = self.card(c)
                    if card.timing in ("instant", "response") and card.main is not None \
                            and card.main.can(ctx):
                        options.append({"card": c})
            pick = self.ask(s, "priority", options) if len(options) > 1 else None
            if pick is None:
                passes += 1
                continue
            passes = 0
            s.hand.remove(pick["card"])
            self.state.discard.append(pick["card"])
            self.state.stats["played_" + self.card(pick["card"]).timing] += 1
            self.log(f"{s.name} answers with {pick['card']} ({self.card(pick['card']).timing})")
            pending.append({"who": s, "card": pick["card"], "part": "main",
                            "answers": len(pending) - 1, "cancelled": False})

    def cancel_answered(self) -> None:
        entry = self.resolving
        if entry is None or entry["answers"] is None:
            return
        target = self.pending_cards[entry["answers"]]
        target["cancelled"] = True
        self.log(f"{entry['card']} cancels {target['card']}")

    def resolve_card(self, entry: dict, pending: list) -> None:
        if entry["cancelled"]:
            self.log(f"{entry['card']} is cancelled")
            return
        who, cid, part = entry["who"], entry["card"], entry["part"]
        card = self.card(cid)
        self.state.stats[f"played_{part}"] += 1
        self.log(f"{cid} resolves")
        saved = (self.resolving, self.pending_cards)
        self.resolving, self.pending_cards = entry, pending
        try:
            getattr(card, part)(self.ctx(who, self.tile_of(who)))
        finally:
            self.resolving, self.pending_cards = saved
        if part == "main" and card.intern is not None:
            owner = self.state.interns.get(card.intern)
            self.state.interns[card.intern] = who.seat       # first gets it, later steals it
            if owner is not None and owner != who.seat:
                self.log(f"{who.name} steals the intern {card.intern}")

    def do_action(self, who: Scholar, choice: dict) -> None:
        kind = choice["do"]
        self.progress += 1
        if kind == "aux":                    # an auxiliary effect never costs the action
            self.play_card(who, choice["card"], "auxiliary")
            return
        if kind == "card" and not self.card(choice["card"]).action:
            self.state.stats["free_cards_in_action_phase"] += 1
            self.play_card(who, choice["card"], "main")      # no 行动 mark: free (L440)
            return
        who.actions -= 1
        if kind == "research":
            self.research(who, choice["blocks"])
        elif kind == "spy":
            self.spy(who, self.state.scholars[choice["target"]], choice["colour"])
        elif kind == "card":
            self.play_card(who, choice["card"], "main")
        elif kind == "region":
            tile = self.tile_of(who)
            name, where, body, ctx = self.tile_triggers(tile, who)[choice["index"]]
            self.state.stats["region_actions"] += 1
            self.fire([(name, where, body, ctx)], "region_action")
        elif kind == "skill":
            skill = next(s for s in who.stats().skills if s.id == choice["id"])
            self.state.stats[f"skill_{skill.id}"] += 1
            skill.effect(self.ctx(who, who))

    def turn(self, who: Scholar) -> None:
        st = self.state
        self._once, self.affected = set(), set()
        self.rested = False
        self.log(f"-- round {st.round}: {who.name}")
        # 1. thesis submission (not in Max Alert, L1158)
        if not st.max_alert and self.stars(who) >= 2 and self.ask(who, "thesis", [False, True]):
            if self.thesis(who):
                return
            self.end_of_turn(who)
            return
        # 2. rest, forced at the stun cap (L642); it ends the turn
        if not st.max_alert:
            forced = who.stun >= self.stamina(who)
            if forced or self.ask(who, "rest", [False, True]):
                self.rest(who)
                return
        # 3. movement (cards may be played here)
        who.steps = who.stats().speed
        self.moving_stopped = False
        while not who.done and not st.ended and not self.rested:
            options = self.move_options(who) if not self.moving_stopped else []
            options += self.free_options(who)
            if not options:
                break
            choice = self.ask(who, "move", options + [{"do": "stay"}])
            if choice["do"] == "stay":
                break
            if choice["do"] in ("card", "aux"):
                self.play_card(who, choice["card"], "main" if choice["do"] == "card" else "auxiliary")
            else:
                self.do_move(who, choice)
        who.steps = 0
        if st.ended or self.rested:
            return
        # 4. action: the one action, and non-action scheme cards around it (L436-440, L592)
        who.actions = 1
        self.fire(self.skill_triggers(who), "action_phase")
        while not st.ended and not who.done and not self.rested:
            options = self.action_options(who)
            if len(options) == 1:
                break                        # only "pass" is left
            choice = self.ask(who, "action", options)
            if choice["do"] == "pass":
                break
            self.do_action(who, choice)
        who.actions = 0
        if st.ended or self.rested:
            return                           # a Camp's rest ends the turn (L828, L650)
        self.end_of_turn(who)

    def end_of_turn(self, who: Scholar) -> None:
        """L1082-1102, and the Max Alert thesis from the start region (L1160)."""
        st = self.state
        while who.dooms_hidden:
            doom = self.data.get("doom_card", who.dooms_hidden.pop())
            who.dooms.append(doom.id)
            self.log(f"{who.name} reveals the doom card {doom.id}")
            if doom.on_reveal is not None:
                doom.on_reveal(self.ctx(who, self.tile_of(who)))
        self.fire(self.skill_triggers(who), "turn_end")
        self.draw_cards(who, max(0, who.stats().hand_value - len(who.hand)))
        if st.max_alert and not who.done and self.in_start(who):
            self.thesis(who)
            who.done = True

    def play(self) -> None:
        st = self.state
        n = len(st.scholars)
        while st.ended is None and st.round < ROUND_CAP:
            st.round += 1
            before = self.progress
            for i in range(n):
                who = st.scholars[(st.first + i) % n]
                if who.done:
                    continue
                st.current = who.seat
                self.turn(who)
                self.check_end()
                if st.ended:
                    return
            if st.max_alert and self.progress == before:
                self.end("stalled")          # Max Alert step 3 (L1170), r_max_alert_stalled

    # --- scoring -----------------------------------------------------------------------
    def final_scores(self) -> list[int]:
        """L1172-1178: notebook + clan + thesis order + interns - doom, plus what
        `on final_scoring` triggers score."""
        self.final_scoring()
        out = []
        for s in self.state.scholars:
            total = self.clan_score(s)
            if s.thesis_order:
                total += THESIS_BONUS[s.thesis_order - 1]
            total += sum(self.data.get("intern_card", i).end_bonus
                         for i, seat in self.state.interns.items() if seat == s.seat)
            total -= sum(self.data.get("doom_card", d).penalty for d in s.dooms + s.dooms_hidden)
            total += self.bonus_points[s.seat]
            out.append(total)
        return out

    def final_scoring(self) -> None:
        """Step 4 of the end (L1172): each scholar's lasting triggers hear `final_scoring`
        once, in seat order, before the scores are added up."""
        if self.scored:
            return
        self.scored = True
        for who in self.state.scholars:
            self.fire(self.skill_triggers(who), "final_scoring")

    def winners(self) -> list[int]:
        """Ties: first thesis, then more students, then the youngest (R-27: seats share)."""
        scores = self.final_scores()

        def key(s):
            return (scores[s.seat], -(s.thesis_order or 99), s.students)
        best = max(key(s) for s in self.state.scholars)
        return [s.seat for s in self.state.scholars if key(s) == best]


# --- setup ---------------------------------------------------------------------------
def new_state(data, players: int, rng, options: dict | None = None) -> State:
    """L256-290."""
    options = options or {}
    st = State(players)
    regions = sorted(data.kinds["region"].values(), key=lambda r: r.id)
    start = next(r for r in regions if r.start)
    for level in (1, 2, 3):
        stack = [r for r in regions if r.level == level and not r.start]
        rng.shuffle(stack)
        st.stacks[level] = stack
    for block in data.kinds["info_block"].values():
        st.reserve_blocks[block.colour] = block.count
    st.tiles[(0, 0)] = Tile((0, 0), start, [], entered=True)
    scholars = sorted(data.kinds["scholar"].values(), key=lambda s: s.id)
    rng.shuffle(scholars)
    st.reserve_students = 40
    st.reserve_omega = 5
    for seat in range(players):
        s = Scholar(seat, scholars[seat], (0, 0))
        s.students = s.stats().students_value
        st.reserve_students -= s.students
        st.scholars.append(s)
    st.randomizer = sorted(data.kinds["randomizer_card"].values(), key=lambda c: c.id)
    colours = {s.colour for s in st.scholars}
    draw = list(st.randomizer)
    rng.shuffle(draw)
    first = next(c for c in draw if c.triangle in colours)      # draw until it applies (gap 24)
    st.first = next(s.seat for s in st.scholars if s.colour == first.triangle)
    st.deck = [c.id for c in sorted(data.kinds["scheme_card"].values(), key=lambda c: c.id)
               for _ in range(c.count)]
    rng.shuffle(st.deck)
    st.doom_deck = sorted(data.kinds["doom_card"])
    rng.shuffle(st.doom_deck)
    st.traps = [t for t in sorted(data.kinds["token"].values(), key=lambda t: t.id)
                if t.token == "trap_token" for _ in range(t.count or 0)]
    rng.shuffle(st.traps)
    alerts = sorted(data.kinds["alert_card"])
    default = "alert_standard" if "alert_standard" in alerts else alerts[0]     # R-alert
    st.alert_card = data.get("alert_card", options.get("alert", default))
    bosses = sorted(data.kinds["boss"])     # a pack's boss is drawn too (one boss: no draw)
    boss = data.get("boss", options.get("boss") or (rng.choice(bosses) if len(bosses) > 1 else bosses[0]))
    side = options.get("boss_side") or rng.choice([s.side for s in boss.sides])
    st.boss = next(s for s in boss.sides if s.side == side)
    panics = [p for p in sorted(data.kinds["panic_card"].values(), key=lambda p: p.id)
              if p.boss in (None, boss.id)]
    st.panic = rng.choice(panics)
    st.clan = rng.choice(sorted(data.kinds["clan_card"].values(), key=lambda c: c.id))
    normal = st.alert_card.normal_per_player * players
    st.bag["normal"] = min(normal, st.reserve_students)
    st.reserve_students -= st.bag["normal"]
    st.bag["omega"] = st.alert_card.omega
    st.reserve_omega -= st.alert_card.omega
    return st


def deal(engine: Engine) -> None:
    st = engine.state
    for i in range(len(st.scholars)):
        who = st.scholars[(st.first + i) % len(st.scholars)]
        engine.draw_cards(who, START_HAND[i])                   # 1/2/3/4 by seat (L265)


def play_game(data, players: int, rng, agents: list, options: dict) -> dict:
    state = new_state(data, players, rng.fork("setup"), options)
    engine = Engine(data, state, agents, rng.fork("play"), log_enabled=bool(options.get("log")))
    deal(engine)
    engine.play()
    capped = state.ended is None
    scores = engine.final_scores()
    return {
        "scores": scores,
        "rounds": state.round,
        "capped": capped,
        "end": state.ended or "round_cap",
        "max_alert": state.max_alert,
        "finished": [s.thesis == "success" for s in state.scholars],
        "winners": engine.winners(),
        "roles": [s.card.id for s in state.scholars],     # who each seat plays (balance reports)
        "stats": dict(state.stats),
        "log": state.log,
    }
