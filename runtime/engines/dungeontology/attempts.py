"""Dungeontology's stealth attempts: researching a region and spying on a scholar (L909-1007),
with the cards, skills and auxiliary effects every player may add.

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from types import SimpleNamespace

from tomecraft.runtime.agents import RandomAgent, took_unasked
from tomecraft.runtime.engines.dungeontology.draws import choice
from tomecraft.runtime.engines.dungeontology.policy import NOTHING
from tomecraft.runtime.engines.dungeontology.state import COLOURS, Scholar, Tile, research_increase


class Attempts:
    # --- stealth attempts --------------------------------------------------------------
    def attempt_add(self, name: str, amount: int, who) -> None:
        if self.attempt is not None:
            self.attempt[name] += amount

    def take_intern(self, who: Scholar, card) -> None:
        """Playing a card's main effect gives the intern it names to `who`, first or stolen
        (L1060-1066); its bonus value or auxiliary effect gives none (b_intern_not_from_bonus)."""
        if card.intern is None:
            return
        owner = self.state.interns.get(card.intern)
        self.state.interns[card.intern] = who.seat       # first gets it, later steals it
        if owner is not None and owner != who.seat and self.log_enabled:   # a hot line
            self.log(f"{who.name} steals the intern {card.intern}")

    def card_bonus(self, who: Scholar, cid: str, fate_main: bool) -> int:
        card = self.card(cid)
        if fate_main and card.fate_bonus:
            # a Fate card's central value is its main effect (L458-462): the shipped Star of
            # Fate's Astrologer and a pack's Fate-card intern never came into play
            self.take_intern(who, card)
        bonus = card.fate_bonus if fate_main and card.fate_bonus else card.bonus
        triggers = self.skill_triggers(who, "card_played")
        if not triggers:                     # most scholars: nothing hears it
            return bonus
        event = SimpleNamespace(card_type=card.card_type, bonus=bonus)
        self.fire(triggers, "card_played", event)
        return event.bonus

    def stealth_cards(self, who: Scholar) -> None:
        """Discard any number (at least 1) of cards, summing their bonus values (L922)."""
        agent = self.agents[who.seat]
        simple = type(agent) is RandomAgent
        while who.hand:
            a = self.attempt
            if simple:                       # what View._stealth_card suggests, picked as `ask`
                if a["stealth"] < a["alert"]:                    # picks (none built)
                    strongest = self.strongest_cards(who)
                    pick = strongest[0] if len(strongest) == 1 else choice(agent.rng, strongest)
                    self.spend_stealth_card(who, pick)
                    continue
                if a["cards"]:
                    return       # the stop alone (taken with no draw)
            cards = sorted(set(who.hand))
            options = [{"card": c, "fate": False} for c in cards]
            by_id = self._scheme_cards
            options += [{"card": c, "fate": True} for c in cards if by_id[c].fate_bonus]
            if self.attempt["cards"]:
                options.append({"card": None})
            pick = self.ask(who, "stealth_card", options)
            if pick["card"] is None:
                return
            self.spend_stealth_card(who, pick)
        if self.attempt["cards"]:           # the hand is empty: stopping is the only answer, and
            took_unasked(self.agents[who.seat], "stealth_card", {"card": None})   # a scripted stop is it

    def spend_stealth_card(self, who: Scholar, pick: dict) -> None:
        who.hand.remove(pick["card"])
        self.state.discard.append(pick["card"])
        self.attempt["cards"].append(pick["card"])
        self.attempt["stealth"] += self.card_bonus(who, pick["card"], pick["fate"])

    def strongest_cards(self, who: Scholar) -> list:
        """The stealth options of the highest printed bonus (a Fate card's central value as
        one), in the order `stealth_cards` offers them: what View._stealth_card suggests
        while the attempt is short of its alert."""
        bonuses = self.card_bonuses
        cards = sorted(set(who.hand))
        weighed = [(bonuses[c][0], c, False) for c in cards]
        weighed += [(bonuses[c][1], c, True) for c in cards if bonuses[c][1]]
        best = max(bonus for bonus, _, _ in weighed)
        return [{"card": c, "fate": fate} for bonus, c, fate in weighed if bonus == best]

    def aux_round(self, who: Scholar) -> int:
        """`who` plays any number of Trick/Fate/Magic auxiliary effects; returns how many."""
        if who.done or self.state.tiles[who.pos].region.start:      # `in_start`, inlined
            return 0
        played, aux_parts = 0, self._aux_parts      # Trick/Fate/Magic cards' auxiliary effects
        agent = self.agents[who.seat]
        view = self.view(who) if type(agent) is RandomAgent else None
        while True:
            a = self.attempt
            helps = view.aux_helps(a) if view is not None and a is not None else None
            if helps is False or (helps is None and self.wanted(who, "stealth_aux") == NOTHING):
                return played                # he would decline any: none worked out
            options, ctx = [], None
            for c in sorted(set(who.hand)):
                aux = aux_parts[c]
                if aux is None:
                    continue
                if ctx is None:               # one for every check: a `can` changes nothing
                    ctx = self.ctx(who, self.state.tiles[who.pos])
                if aux.can(ctx):
                    options.append(c)
            if not options:                  # passing is the only answer: a scripted pass is it
                took_unasked(self.agents[who.seat], "stealth_aux", None)
                return played
            if helps:                        # View._stealth_aux suggests every card (as
                pick = options[0] if len(options) == 1 else choice(agent.rng, options)  # `ask`)
            else:
                pick = self.ask(who, "stealth_aux", options + [None])
            if pick is None:
                return played
            who.hand.remove(pick)
            self.state.discard.append(pick)
            self.card(pick).auxiliary(self.ctx(who, self.tile_of(who)))
            if self.log_enabled:            # not formatted for nothing: a hot line
                self.log(f"{who.name} plays {pick}'s auxiliary effect "
                         f"(stealth {self.attempt['stealth']}, alert {self.attempt['alert']})")
            played += 1

    def research_options(self, who: Scholar) -> list:
        tile = self.state.tiles[who.pos]
        if tile.region.start or not who.hand:
            return []
        n_max = len(self.targets(who, tile, who.stats().intellect))
        return [{"do": "research", "blocks": n} for n in range(1, n_max + 1)]

    def region_alert(self, tile: Tile) -> int:
        alert = tile.region.alert or 0
        st = self.state
        if st.boss_pos == tile.pos and st.boss is not None:
            kept = self._boss_alert          # region modifier (L1297), read once per boss side
            if kept[0] is not st.boss:
                kept = self._boss_alert = (st.boss, st.boss.region_alert)
            alert += kept[1]
        return alert

    def research(self, who: Scholar, n: int) -> bool:
        """L909-930 and the research example L934-953."""
        tile = self.state.tiles[who.pos]
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
            if self.log_enabled:            # not formatted for nothing: a hot line
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
        """Opponents' skills that answer another scholar's stealth value, clockwise (神圣干预, L1357);
        not from the start region, where no effect touches a scholar (L729), as for cards."""
        tiles = self.state.tiles             # (`in_start`, inlined: every attempt, every rival)
        for other in self.seat_order(who)[1:]:
            if not other.done and not tiles[other.pos].region.start:
                self.fire(self.skill_triggers(other, "rival_stealth_value"), "rival_stealth_value")

    def fail(self, who: Scholar, triggers: list) -> None:
        """A failed attempt: 1 stun and 1 student from the University (Danger N: N)."""
        event = SimpleNamespace(students=1)
        self.fire(triggers, "stealth_failed", event)
        self.gain_stun(who, 1)
        self.draw_students(who, event.students)

    def spy_targets(self, who: Scholar) -> list:
        here = self.state.tiles[who.pos]
        if here.region.start or not who.hand or who.students < 1:
            return []
        near, tiles = {here.pos, *self.connected(here.pos)}, self.state.tiles
        out = []
        for s in self.state.scholars:
            if s is who or s.done or s.pos not in near or tiles[s.pos].region.start:
                continue
            notebook = s.notebook                # `get`: no Counter missing-key call
            out += [{"do": "spy", "target": s.seat, "colour": c} for c in COLOURS if notebook.get(c)]
        return out

    def spy(self, who: Scholar, target: Scholar, colour: str) -> bool:
        """L955-973 and the spying example L991-1007."""
        self.sacrifice(who, 1)
        event = SimpleNamespace(students=target.students)
        self.fire(self.skill_triggers(who, "spy_alert"), "spy_alert", event)
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
        scholars = self.state.scholars
        seat = first.seat % len(scholars)
        return scholars[seat:] + scholars[:seat]
