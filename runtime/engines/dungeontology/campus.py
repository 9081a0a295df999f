"""Dungeontology's rules for what scholars hold: students and the University bag (with the
omega procedure), scheme cards, the notebook's columns, stars and scores, and info blocks gained,
lost, dropped and given.

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from tomecraft.runtime.engines.dungeontology.draws import shuffle, start_drawing
from tomecraft.runtime.engines.dungeontology.state import BONFIRE_MAX, CARD_AUX_TYPES, COLOURS, Scholar, Tile


class Campus:
    # --- students ----------------------------------------------------------------------
    def sacrifice(self, who: Scholar, n: int) -> None:
        n = min(n, who.students)
        who.students -= n
        self.state.reserve_students += n
        if n and self.log_enabled:          # not formatted for nothing: a hot line
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
            if self.log_enabled:            # not formatted for nothing: a hot line
                self.log(f"{who.name} gains a stun token ({who.stun})")

    def draw_students(self, who: Scholar, n: int) -> None:
        """Draw n from the University at once (L1228-1241), with the omega procedure."""
        st, bag = self.state, self.state.bag
        drawn_normal = drawn_omega = 0           # counts, not a Counter: drawn at every fail
        for _ in range(n):
            # one draw from the bag's students, normal ones first (no list of them built)
            normal, omega = max(0, bag["normal"]), max(0, bag["omega"])
            if not normal + omega:
                break
            if self.rng.randrange(normal + omega) < normal:
                bag["normal"] -= 1
                drawn_normal += 1
            else:
                bag["omega"] -= 1
                drawn_omega += 1
        st.stats["students_drawn"] += drawn_normal + drawn_omega
        self.last_drawn = drawn_normal + drawn_omega     # 'as many as drawn' (猎人的陷阱, L424)
        if not drawn_omega:
            room = BONFIRE_MAX - st.bonfire
            st.bonfire += min(room, drawn_normal)
            st.reserve_students += max(0, drawn_normal - room)
            return
        self.log(f"{who.name} draws an omega student")
        st.stats["omegas"] += drawn_omega
        st.reserve_students += st.bonfire + drawn_normal
        st.bonfire = 0
        for _ in range(drawn_omega):
            self.place_omega(who)
        if st.max_alert and st.bag["normal"] == 0:
            self.end("bag_empty")      # an omega drawn, the University empty (L1165, L1274)

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
        if self.rules.get("g29_refill_short_reserve", "what_is_there") == "what_is_there":
            normal = min(normal, st.reserve_students)   # 若后备区足够 (L1259): as at L357
        elif st.reserve_students < normal:
            normal = 0
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
        kept = self._row_penalties           # the rows' penalties, read once per alert card (a
        if kept[0] is not st.alert_card:     # Record's field read is dear; asked at every decision)
            kept = self._row_penalties = (st.alert_card, tuple(r.research_penalty for r in st.alert_card.rows))
        return kept[1][st.alert_filled - 1]

    # --- cards -------------------------------------------------------------------------
    def card_tables(self) -> None:
        """What the option loops read of each scheme card, found once (cards never change)."""
        self._free_parts = {cid: _free_parts(c) for cid, c in self._scheme_cards.items()}
        self._free_mains = {cid: (main, None) for cid, (main, _) in self._free_parts.items()}
        self._aux_parts = {cid: c.auxiliary if c.card_type in CARD_AUX_TYPES else None
                           for cid, c in self._scheme_cards.items()}
        self._answers = {cid for cid, c in self._scheme_cards.items()
                         if c.timing in ("instant", "response")}
        # what the player's heuristic weighs of each (policy.View): plain reads, not the
        # entities' attribute lookups, at every decision
        self.card_bonuses = {cid: (c.bonus, c.fate_bonus or 0) for cid, c in self._scheme_cards.items()}
        self.best_bonus = {cid: max(bonuses) for cid, bonuses in self.card_bonuses.items()}
        self.action_cards = {cid for cid, c in self._scheme_cards.items() if c.action}
        self.response_cards = {cid for cid, c in self._scheme_cards.items() if c.timing == "response"}

    def free_options(self, who: Scholar, aux: bool = True) -> list:
        """Scheme cards playable in the movement phase without the action (L592); without
        `aux`, only their main effects (Actions.action_options)."""
        tile = self.state.tiles[who.pos]
        if tile.region.start:
            return []
        out, ctx = [], None
        free_parts = self._free_parts if aux else self._free_mains
        for cid in sorted(set(who.hand)):
            main, aux = free_parts[cid]
            if main is None and aux is None:
                continue                     # no context needed
            if ctx is None:                  # one for every check, as in `priority_round`:
                ctx = self.ctx(who, tile)    # a `can` changes nothing
            if main is not None and main.can(ctx):
                out.append({"do": "card", "card": cid})
            if aux is not None and aux.can(ctx):
                out.append({"do": "aux", "card": cid})
        return out

    def priority_players(self, who: Scholar) -> bool:
        answers, tiles = self._answers, self.state.tiles     # the Instant and Response cards' ids
        for s in self.state.scholars:
            if s is not who and not answers.isdisjoint(s.hand) and not tiles[s.pos].region.start:
                return True
        return False

    def priority_round(self, who: Scholar, pending: list) -> None:
        n = len(self.state.scholars)
        order = self.seat_order(self.state.scholars[(who.seat + 1) % n])
        passes, i = 0, 0
        while passes < n:
            s = order[i % n]
            i += 1
            options = [None]
            if not s.done and not self.in_start(s):       # Responses included (L733)
                ctx, cards = self.ctx(s, self.state.tiles[s.pos]), self._scheme_cards
                for c in sorted(set(s.hand)):
                    card = cards[c]
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

    def draw_cards(self, who: Scholar, n: int) -> None:
        for _ in range(n):
            card = self.draw_one()
            if card is None:
                return
            who.hand.append(card)

    def draw_one(self):
        start_drawing(self)                  # a trial's deck shuffled first (draws.Unstarted)
        st = self.state
        if not st.deck:
            st.deck, st.discard = st.discard, []
            shuffle(self.rng, st.deck)         # T-32 (L408)
        return st.deck.pop() if st.deck else None

    def search_cards(self, who: Scholar, card_type: str) -> None:
        start_drawing(self)                  # a trial's deck shuffled first (draws.Unstarted)
        for i in range(len(self.state.deck) - 1, -1, -1):
            if self.card(self.state.deck[i]).card_type == card_type:
                who.hand.append(self.state.deck.pop(i))
                shuffle(self.rng, self.state.deck)
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
        if self.log_enabled:            # not formatted for nothing: a hot line
            self.log(f"{who.name} prophesies {pick} ({self.last_prophecy})")

    def randomize(self, applies):
        """Shuffle the randomizer deck and draw until a card applies (L1194)."""
        cards = list(self.state.randomizer)
        if not self.fixed_randomizer:
            shuffle(self.rng, cards)
        for card in cards:
            if applies(card):
                return card
        return None

    # --- notebook ----------------------------------------------------------------------
    def caste_short(self) -> bool:
        return self.rules.get("c2_caste_column", "short") == "short"

    def capacity(self, colour: str) -> int:
        return self.column(colour)[1]

    def column_score(self, colour: str, n: int) -> int:
        values = self.column(colour)[0]
        return values[min(n, len(values) - 1)]

    def column(self, colour: str) -> tuple:
        """(the scores by block count, the capacity) of a notebook column: read once (the
        notebook and the rules never change in a game), scores and targets read them often."""
        found = self._columns.get(colour)
        if found is None:
            values, capacity = list(self.columns[colour].values), self.notebook.capacity
            if colour == "caste" and self.caste_short():
                values = [0] + [v for v in values if v]
                capacity = sum(1 for v in self.columns["caste"].values if v)
            found = self._columns[colour] = (values, capacity)
        return found

    def notebook_score(self, who: Scholar) -> int:
        total, notebook = 0, who.notebook        # a loop, `get` (as `marks_reached`)
        for colour, values, last in self._scoring or self.scoring():
            n = notebook.get(colour, 0)
            total += values[n if n < last else last]
        return total

    def scoring(self) -> tuple:
        """(colour, scores by block count, the last index) of each column, read once (scores
        are counted at every thesis check and every trial)."""
        self._scoring = tuple((c, self.column(c)[0], len(self.column(c)[0]) - 1) for c in COLOURS)
        return self._scoring

    def marks(self, kind: str) -> tuple:
        """(colour, reached) of each notebook column with `kind` (star or research) marks:
        reached[n] is how many of its marks n blocks reach, up to its highest mark (read
        once: stars are counted at every turn, every thesis check and every block gained)."""
        found = self._marks.get(kind)
        if found is None:
            found = []
            for colour in COLOURS:
                at = getattr(self.columns[colour], kind)    # block counts, each at least 1
                if at:
                    found.append((colour, tuple(sum(1 for m in at if m <= n) for n in range(max(at) + 1))))
            found = self._marks[kind] = tuple(found)
        return found

    def stars(self, who: Scholar) -> int:
        return self.marks_of(who)[0]

    def research_bonus(self, who: Scholar) -> int:
        return self.marks_of(who)[1]

    def marks_of(self, who: Scholar) -> tuple:
        """(stars, research marks) `who`'s blocks reach (`marks_reached`), kept while his
        notebook holds the same blocks and follows the same layout (stars are counted at
        every turn, every block gained and every thesis check; blocks change far less)."""
        kept = self._marks_kept.get(id(who))
        if kept is not None and kept[0] is who and kept[1] is self.notebook \
                and _same_blocks(kept[2], who.notebook) is True:
            return kept[3]
        found = (self.marks_reached(who, "stars"), self.marks_reached(who, "research"))
        self._marks_kept[id(who)] = (who, self.notebook, dict(who.notebook), found)
        return found

    def marks_reached(self, who: Scholar, kind: str) -> int:
        """How many of the notebook's `kind` marks `who`'s blocks reach (`get` rather than the
        Counter's missing-key call)."""
        notebook, reached = who.notebook, 0
        for colour, by_count in self._marks.get(kind) or self.marks(kind):
            n = notebook.get(colour, 0)
            if n > 0:
                reached += by_count[n] if n < len(by_count) else by_count[-1]
        return reached

    def clan_score(self, who: Scholar) -> int:
        notebook, total = who.notebook, self.notebook_score(who)
        for colour, mod in self.clan_modifiers():
            total += notebook.get(colour, 0) * mod
        return total

    def clan_modifiers(self) -> tuple:
        """(colour, modifier) of the clan card's columns, read once per clan card (a Record's
        fields: dear to read, at every score)."""
        kept = self._clan_mods
        if kept[0] is not self.state.clan:
            mods = self.state.clan.modifiers
            kept = self._clan_mods = (self.state.clan, tuple((c, mods[c] or 0) for c in COLOURS))
        return kept[1]

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
            self.fire(self.skill_triggers(who, "star_gained"), "star_gained")
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
            self.fire(self.skill_triggers(who, "block_loss"), "block_loss", SimpleNamespace(colour=colour))
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
            if not s.lore and self.lore_reached(s):
                s.lore = True
                self.log(f"{s.name} gains the lore token")
        stars = [self.stars(s) for s in scholars]      # once each: a side does not change them
        top = max(stars)
        for s, n in zip(scholars, stars):
            side = "excited" if n < top else "standard"
            if side != s.side:
                s.side = side
                s.stun = min(s.stun, self.stamina(s))    # excess stun is discarded (L373)
                self.log(f"{s.name} turns to the {side} side")

    def lore_reached(self, who: Scholar) -> bool:
        """Whether the notebook holds the scholar's lore bonus blocks (counted once per card)."""
        kept = self._lore_needs.get(id(who.card))
        if kept is None or kept[0] is not who.card:
            kept = self._lore_needs[id(who.card)] = (who.card, tuple(Counter(who.card.lore_bonus).items()))
        notebook = who.notebook
        for colour, n in kept[1]:            # a loop, not all(generator): after every block
            if notebook.get(colour, 0) < n:
                return False
        return True

    def drop(self, who: Scholar, n: int, random: bool) -> None:
        """Drop n blocks into the region's rightmost empty slots, then connected regions,
        else destroy (L1032); a random drop draws the colour from the randomizer (L1210).
        Where they land is kept for `collect_dropped` (无敌铁头功, L1331)."""
        self.dropped = []
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
                self.dropped.append((tile, empty[-1], colour))
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

    def collect_dropped(self, who: Scholar) -> None:
        """Collect the blocks the last drop put in `who`'s region (L1331: 'collect these
        blocks'); one that went to another region, or whose column is full, stays."""
        here = self.tile_of(who)
        for tile, index, colour in self.dropped:
            if tile is here and tile.slots[index] == colour and who.notebook[colour] < self.capacity(colour):
                tile.slots[index] = None
                self.gain_block(who, colour)
                self.log(f"{who.name} collects the dropped {colour} block")
        self.dropped = []

    def collect(self, who: Scholar, n: int) -> None:
        tile = self.tile_of(who)
        for index, colour in self.targets(who, tile, n):
            tile.slots[index] = None
            self.gain_block(who, colour)
            self.log(f"{who.name} collects a {colour} block from {tile.id}")

    def targets(self, who: Scholar, tile: Tile, n: int) -> list:
        """The first available blocks left to right, skipping full columns (L916, L1024)."""
        out, taken, notebook = [], {}, who.notebook
        capacities = self._capacities        # {colour: capacity}, `capacity` read once a game
        if n == 0:                           # (a negative n takes them all, as it always did)
            return out
        for i, colour in enumerate(tile.slots):
            if colour is None:
                continue
            capacity = capacities.get(colour)
            if capacity is None:
                capacity = capacities[colour] = self.column(colour)[1]
            had = taken.get(colour, 0)
            if notebook.get(colour, 0) + had >= capacity:
                continue
            out.append((i, colour))
            if len(out) == n:
                break
            taken[colour] = had + 1
        return out


# the same blocks: plain dict equality, counts as they are (a Counter's own == is Python code)
_same_blocks = dict.__eq__


def _free_parts(card) -> tuple:
    """(main, auxiliary) effects of a scheme card playable in the movement phase without the
    action (L592), None for a part that is not: the main effect of a card with no 行动 mark,
    the auxiliary effect of a card that is not a Trick, Fate or Magic."""
    main = card.main if not card.action else None
    aux = card.auxiliary if card.card_type not in CARD_AUX_TYPES else None
    return main, aux
