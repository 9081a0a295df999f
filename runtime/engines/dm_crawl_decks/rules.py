"""Crawl Decks' rule procedures outside battle: drawing and time, searching, placement beside
and in stacks, the spare slot, relics, loot, events, the exploration area and rests. A mixin
of `Engine` (it asks the player through `self.ask` and moves cards with `Zones`).
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Card
from tomecraft.runtime.timing import Fizzle, resolve
from tomecraft.runtime.usage import registering


def event_leaves_to(card_type) -> str:
    """Where a chosen event card goes (the event kind's `after_use`, which play does not read):
    a loot card to the loot pile, then to the event discard pile once cashed; a general event
    is activated at once, then to the event discard pile (L31)."""
    return "loot" if card_type == "loot" else "discard"


class Rules:
    # --- drawing ---------------------------------------------------------------------------
    def draw_hand(self, amount: int) -> int:
        """Rule draws take what is left (r04); effect draws fizzle instead (Verbs.draw_main)."""
        s = self.state
        n = max(0, min(amount, len(s.main_deck)))
        for _ in range(n):
            self.place(s.main_deck[-1], "hand")
        return n

    def consume_time(self, amount: int) -> None:
        """L220: turn over the top card and discard it, until X cards or the deck is empty."""
        s = self.state
        for _ in range(amount):
            if not s.main_deck or s.over:
                return
            card = s.main_deck[-1]
            if self.log_enabled:    # (not formatted with logging off)
                self.log(f"time: {card} turned over")
            self.discard(card)

    def return_hand(self, count_draw: bool, choices: list | None = None) -> int:
        """Put back any number of hand cards (not loot, r07); shuffle them in (r15)."""
        s = self.state
        back = 0
        while True:
            options = [{"return": repr(c)} for c in s.hand if c.deck == "main"] + [{"return": None}]
            pick = self.ask("return", options)
            if pick["return"] is None:
                break
            card = next(c for c in s.hand if repr(c) == pick["return"])
            self.place(card, "main_deck")
            back += 1
        if back:
            self.shuffle(s.main_deck)
        if count_draw:
            self.draw_hand(back)
        return back

    def search(self, zone: str, card_type: str, amount: int) -> None:
        """L246-252: the first `amount` matching cards from the top, then shuffle; none: fizzle."""
        pile = self.cards_in_zone(zone)
        found = [c for c in reversed(pile) if _is_a(c, card_type)
                 and not getattr(c.defn, "identity", False)][:amount]    # r02: descend ④ only
        real = self._pile({"event_deck": "event_deck", "main_deck": "main_deck",
                           "relic_deck": "relic_deck"}.get(zone, ""))
        if not found:
            if real is not None:
                self.shuffle(real)
            raise Fizzle(f"no {card_type} in the {zone}")
        for card in found:
            self.gain_card(card)
        if real is not None:
            self.shuffle(real)

    def gain_card(self, card: Card) -> None:
        if card.deck == "event":
            if event_leaves_to(card.defn.card_type) == "loot":
                self.gain_loot(card)
            else:
                self.place(card, "revealed")
                self.activate_event(card)
        elif card.deck == "relic":
            self.gain_relic(card)
        else:
            self.place(card, "hand")

    def redraw(self, card: Card) -> None:
        """L216: back to its deck, shuffle, draw 1 into the same position: a column's place,
        a battlefield row's place (same side), the hand or the spare slot."""
        s = self.state
        slot = self._redraw_slot(card)
        if slot is None:
            raise Fizzle(f"{card} has no place to redraw into")
        index = next(i for i, c in enumerate(slot) if c is card)
        zone = card.zone
        self.place(card, "main_deck")           # (a column or a row keeps its list object)
        self.shuffle(s.main_deck)
        new = s.main_deck.pop()
        new.zone = zone
        slot.insert(index, new)
        self.settle()
        self.log(f"redraw {card} -> {new}")

    def _redraw_slot(self, card: Card) -> list | None:
        """The list holding a main-deck card where a redraw can put another in its place."""
        s = self.state
        if card.deck != "main":
            return None
        if card.zone == "exploration":
            return next((col for col in s.columns if card in col), None)
        if card.zone == "battlefield":
            row = self.row_of(card)
            return None if row is None else (row.enemy if card in row.enemy else row.player)
        if card.zone in ("hand", "spare"):
            return getattr(s, card.zone)
        return None

    # --- placement ---------------------------------------------------------------------------
    def put_beside(self, card: Card, anchor) -> None:
        """侧边 (L268-270): same row, same side as the anchor, to its right (r12)."""
        row = self.row_of(anchor)
        side = self.side_of(anchor)
        if row is None or card is anchor:
            raise Fizzle("侧边 applies only on the battlefield")
        cards = row.enemy if side == "enemy_side" else row.player
        if card.zone:
            self.remove(card)
        card.zone = "battlefield"
        idx = next(i for i, c in enumerate(cards) if c is anchor)
        cards.insert(idx + 1, card)
        self.log(f"{card} put beside {anchor}")
        self.settle()

    def stack_at(self, card: Card, anchor: Card, position: str) -> None:
        """在上方/下方叠放 (L308-310): above = adjacent, nearer the column's top end."""
        s = self.state
        col = next((col for col in s.columns if any(c is anchor for c in col)), None)
        if col is None or card is anchor:
            raise Fizzle("叠放 needs a card in a column")
        if card.zone:
            self.remove(card)
        idx = next(i for i, c in enumerate(col) if c is anchor)
        col.insert(idx + 1 if position == "above" else idx, card)
        card.zone = "exploration"
        self.log(f"{card} stacked {position} {anchor}")
        self.settle()

    # --- spare slot -------------------------------------------------------------------------
    def spare_options(self) -> list[dict]:
        s = self.state
        if len(s.spare) >= self.board.spare_capacity:
            return []
        return [{"do": "spare", "column": i} for i, col in enumerate(s.columns) if col]

    def move_to_spare(self, column: int) -> None:
        card = self.state.columns[column][-1]
        self.remove(card)
        self.layers.clear(card)               # the spare slot is off the field (L75)
        card.zone = "spare"
        self.state.spare.append(card)
        self.log(f"{card} -> spare slot")
        self.settle()

    # --- relics ------------------------------------------------------------------------------
    def gain_relic(self, card: Card) -> None:
        s = self.state
        self.place(card, "equipment")
        if self.log_enabled:    # (not formatted with logging off)
            self.log(f"gain relic {card}")
        label = card.defn.label
        if label and label not in s.labels:      # L45: the first relic with this label
            s.labels.add(label)
            if self.ask("first_label", [True, False]):
                s.resources[label] += 1
                self.log(f"first {label} relic: gain 1 {label}")
        if card.defn.passive is not None:           # its triggers' runs are its uses
            with registering():
                resolve(card.defn.passive, self.ctx(card))
        self.settle()
        self.fire("acquired", card)

    def choose_relics(self, draw: int, keep: int) -> None:
        """Draw relics (the identity card stays in the deck, r02), keep some, rest to the bottom."""
        s = self.state
        drawn = [c for c in reversed(s.relic_deck) if not c.defn.identity][:draw]
        if not drawn:                    # a pack may leave no relic to draw: nothing to choose
            self.log("no relic to draw")
            return
        for c in drawn:
            self.place(c, "revealed")
        for _ in range(min(keep, len(drawn))):
            pick = self.ask("relic", [{"relic": repr(c)} for c in s.revealed if c.deck == "relic"])
            self.gain_relic(next(c for c in s.revealed if repr(c) == pick["relic"]))
        for c in [c for c in s.revealed if c.deck == "relic"]:
            self.place(c, "relic_deck", bottom=True)

    def relic_options(self, window: str) -> list[dict]:
        out = []
        for relic in self.state.equipment:
            fx = relic.defn.use
            if fx is None or relic.defn.window != window:
                continue
            if fx.can(self.ctx(relic)):
                out.append({"do": "relic", "id": repr(relic)})
        return out

    def use_relic(self, relic_repr: str) -> bool:
        relic = self.state.named("equipment", relic_repr)
        if self.log_enabled:    # (not formatted with logging off)
            self.log(f"use relic {relic}")
        return resolve(relic.defn.use, self.ctx(relic))

    def relic_window(self, window: str) -> None:
        for _ in range(20):
            options = self.relic_options(window)
            if not options or self.state.over:
                return
            pick = self.ask(f"relic_{window}", options + [{"do": "done"}])
            if pick["do"] == "done":
                return
            self.use_relic(pick["id"])

    # --- loot --------------------------------------------------------------------------------
    def loot_zone(self) -> str:
        """Where a loot card gained now goes (L73): the loot pile, else the hand, else it
        cannot be gained (r19: the event discard pile)."""
        s = self.state
        if s.size("loot") < self.board.loot_limit:      # (sizes: see State.size)
            return "loot"
        if s.size("hand") < self.hand_limit():
            return "hand"
        return "event_discard"

    def gain_loot(self, card: Card) -> bool:
        """Gaining a loot card only moves it to `loot_zone()` (no effect runs, nothing fires:
        the simulated player weighs it without a trial, policy.event_gain)."""
        zone = self.loot_zone()
        self.place(card, zone)
        if zone == "hand":
            self.log(f"{card} overflows into the hand")
        elif zone == "event_discard":
            self.log(f"{card} cannot be gained")
            return False
        return True

    def clean_up_loot(self) -> None:
        """L238-244: stack chosen loot (pile and hand) on the player side; resolve top to bottom."""
        s = self.state
        stack: list[Card] = []
        while True:
            loose = [c for c in s.loot + s.hand if c.deck == "event" and c not in stack]
            if not loose:
                break
            # every card of a kind, or one card (keep the rest for a bigger stack later, L33)
            options = [{"cash": k} for k in sorted({c.defn.resource for c in loose})] \
                + [{"loot": repr(c)} for c in loose] + [{"cash": None}]
            pick = self.ask("cleanup", options)
            if "loot" in pick:
                stack.append(next(c for c in loose if repr(c) == pick["loot"]))
            elif pick["cash"] is None:
                break
            else:
                stack += [c for c in loose if c.defn.resource == pick["cash"]]
        if not stack:
            return
        for c in stack:
            self.place(c, "cleanup")
        self.loot_done = Counter()
        self.fire("clean_up_loot")
        for card in list(s.cleanup):
            resolve(card.defn.effect, self.ctx(card))
            self.loot_done[card.defn.resource] += 1
            self.place(card, "event_discard")
        self.loot_done = Counter()

    # --- events after a battle -----------------------------------------------------------------
    def activate_event(self, card: Card) -> None:
        if self.log_enabled:    # (not formatted with logging off)
            self.log(f"event {card}")
        resolve(card.defn.effect, self.ctx(card))
        if card.zone == "revealed":
            self.place(card, "event_discard")

    def reshuffle_events(self) -> None:
        s = self.state
        for c in list(s.event_discard):
            self.place(c, "event_deck")
        self.shuffle(s.event_deck)
        self.log("event discard shuffled into the event deck")

    def reveal_events(self, amount: int) -> None:
        """An effect's event draw (L35): draw until the deck is empty; once that draw is over,
        a short deck takes the shuffled event discard; then take 1 or skip."""
        s = self.state
        drawn = []
        for _ in range(min(amount, len(s.event_deck))):
            card = s.event_deck[-1]
            self.place(card, "revealed")
            drawn.append(card)
        self.log(f"revealed {len(drawn)} of {amount} event cards")
        if len(drawn) < amount and s.event_discard:
            self.reshuffle_events()
        if not drawn:
            raise Fizzle("the event deck is empty")
        pick = self.ask("event", [{"event": repr(c)} for c in drawn] + [{"event": None}])
        chosen = next((c for c in drawn if repr(c) == pick["event"]), None)
        if chosen is not None:
            if event_leaves_to(chosen.defn.card_type) == "loot":
                self.gain_loot(chosen)
            else:
                self.activate_event(chosen)
        for c in drawn:
            if c.zone == "revealed":
                self.place(c, "event_discard")

    def post_battle_events(self) -> None:
        """L143: draw brightness cards (no mid-draw reshuffle), pick 1 or skip; reshuffle when
        the event deck is empty after the unchosen cards are placed (r08)."""
        s = self.state
        for _ in range(self.board.brightness):
            if not s.event_deck:
                break
            self.place(s.event_deck[-1], "revealed")
        if s.revealed:
            options = [{"event": repr(c)} for c in s.revealed] + [{"event": None}]
            pick = self.ask("event", options)
            if pick["event"] is not None:
                card = next(c for c in s.revealed if repr(c) == pick["event"])
                if event_leaves_to(card.defn.card_type) == "loot":
                    self.gain_loot(card)
                else:
                    self.activate_event(card)
            for c in list(s.revealed):
                self.place(c, "event_discard")
        if not s.event_deck and s.event_discard:
            self.reshuffle_events()

    # --- exploration area ---------------------------------------------------------------------
    def reset_exploration(self) -> None:
        """L202-206: shuffle the area back, optionally the spare card to a column's bottom end
        (r05), then deal row-major (r09) until every column has `space` cards or the deck ends."""
        s = self.state
        back = s.exploration_cards()
        for c in back:
            self.place(c, "main_deck")
        if back:
            self.shuffle(s.main_deck)
        if len(s.columns) != self.board.brightness:
            s.columns = [[] for _ in range(self.board.brightness)]
        if s.spare:
            options = [{"spare_to": i} for i in range(len(s.columns))] + [{"spare_to": None}]
            pick = self.ask("spare_return", options)
            if pick["spare_to"] is not None:
                card = s.spare.pop()
                card.zone = "exploration"
                s.columns[pick["spare_to"]].insert(0, card)
        while s.main_deck and any(len(col) < s.space for col in s.columns):
            for col in s.columns:
                if s.main_deck and len(col) < s.space:
                    card = s.main_deck.pop()
                    card.zone = "exploration"
                    col.append(card)
        self.settle()
        self.log("exploration: " + " | ".join(",".join(map(repr, col)) for col in s.columns))

    # --- rests --------------------------------------------------------------------------------
    def long_rest(self, free: bool) -> None:
        """L153-155 (free: L175): put back, draw to the limit, flip tokens, turn relics back."""
        s = self.state
        self.log("free long rest" if free else "long rest")
        self.return_hand(count_draw=False)
        self.draw_hand(self.hand_limit() - len(s.hand))
        options = []
        used = [a for a in ATTRIBUTES if s.tokens[a].down]
        if used:
            options.append({"flip": "each"})
        options += [{"flip": a} for a in ATTRIBUTES if s.tokens[a].down >= 2]
        if options:
            pick = self.ask("long_rest_tokens", options)
            for a in (used if pick["flip"] == "each" else [pick["flip"]] * 2):
                s.tokens[a].down -= 1
                s.tokens[a].up += 1
        for relic in s.equipment:
            relic.sideways = False              # L234
        self.once_tracker.reset("rest")
        self.end_scope("rest")
        self.fire("long_rest")
        if not free:
            self.consume_time(self.board.time_long_rest)     # r13: after the action

    def short_rest(self) -> None:
        """L147-149: put back any, draw as many, flip 1 used token; 1 time."""
        s = self.state
        self.log("short rest")
        self.return_hand(count_draw=True)
        used = [{"flip": a} for a in ATTRIBUTES if s.tokens[a].down]
        if used:
            a = self.ask("short_rest_token", used)["flip"]
            s.tokens[a].down -= 1
            s.tokens[a].up += 1
        self.consume_time(self.board.time_short_rest)


def _is_a(card: Card, card_type: str) -> bool:
    """Whether a card is of a card_type term: relics carry none, they are all `relic`."""
    if card.deck == "relic":
        return card_type == "relic"
    return getattr(card.defn, "card_type", None) == card_type
