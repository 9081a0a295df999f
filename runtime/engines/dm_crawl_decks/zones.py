"""Crawl Decks' geometry: which pile or place a card is in, moving it between them, and the
order in which the cards' triggers resolve ("in order", r11). A mixin of `Engine`: it works
on `self.state`, `self.layers`, `self.bus` and `self.continuous_fx`, which Engine sets up.
"""
from __future__ import annotations

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.dm_crawl_decks.state import FIELD, Card

ROW_EVENTS = ("before_round", "battle_round", "victory", "defeat")
# A card's zone names its pile in the state; content names some piles otherwise. (Only the
# pile asked for is read: a trial copy copies a deck when it is first read, snapshot.py.)
PILES = frozenset(("main_deck", "graveyard", "discard", "event_deck", "event_discard",
                   "relic_deck", "loot", "spare", "hand", "equipment", "cleanup", "revealed"))
ZONE_PILES = {"main_deck": "main_deck", "graveyard": "graveyard", "discard_pile": "discard",
              "event_deck": "event_deck", "event_discard": "event_discard",
              "relic_deck": "relic_deck", "loot_pile": "loot", "spare_slot": "spare",
              "hand": "hand", "equipment_area": "equipment"}


class Zones:
    # --- zones -----------------------------------------------------------------------------
    def cards_in_zone(self, zone: str) -> list:
        s = self.state
        if zone == "exploration":
            return s.exploration_cards()
        if zone == "battlefield":       # (each row's enemy side, then its player side)
            return [c for r in s.rows for side in (r.enemy, r.player) for c in side
                    if isinstance(c, Card)]
        name = ZONE_PILES.get(zone)
        return list(getattr(s, name)) if name else []

    def all_field_cards(self) -> list:
        return self.cards_in_zone("exploration") + self.cards_in_zone("battlefield")

    def _pile(self, zone: str) -> list | None:
        return getattr(self.state, zone) if zone in PILES else None

    # Rows hold Cards and Virtuals, which compare by identity (dataclasses with eq=False):
    # `card in row.enemy` is `any(c is card for c in row.enemy)` without a generator (these
    # run for every card a where-clause looks at).
    def row_of(self, card):
        for row in self.state.rows:
            if card in row.enemy or card in row.player:
                return row
        return None

    def side_of(self, card) -> str | None:
        for row in self.state.rows:
            if card in row.enemy:
                return "enemy_side"
            if card in row.player:
                return "player_side"
        return None

    def remove(self, card) -> None:
        zone = card.zone
        if zone == "exploration":
            for col in self.state.columns:
                if card in col:                 # identity, as in row_of
                    col[:] = [c for c in col if c is not card]
                    return
        elif zone == "battlefield":
            for row in self.state.rows:
                row.enemy[:] = [c for c in row.enemy if c is not card]
                row.player[:] = [c for c in row.player if c is not card]
            return
        else:
            pile = self._pile(zone)
            if pile is not None:
                for i, c in enumerate(pile):
                    if c is card:
                        del pile[i]
                        return
        raise EffectError(f"{card} is not in {zone}")

    def place(self, card, zone: str, bottom: bool = False) -> None:
        """Move a card to a pile; leaving the field ends its one-shot modifications (r24)."""
        was = card.zone
        if was:
            self.remove(card)
        if was in FIELD and zone not in FIELD and card.deck == "main":
            self.layers.clear(card)
        if card.deck == "relic" and zone != "equipment":
            self._drop_relic(card)
        card.zone = zone
        if zone not in PILES:
            raise EffectError(f"unknown zone {zone}")
        if bottom:
            getattr(self.state, zone).insert(0, card)
        else:               # (a trial copy need not copy the pile to put a card on it)
            self.state.put(zone, card)

    def _drop_relic(self, card) -> None:
        """A relic left the equipment: its triggers and continuous effects end. A trial copy
        that has not copied them (snapshot.Pending) skips a drop that would find none."""
        bus = self._pending("bus")
        if bus is not None:         # (x such that bus.now(x) is card, for every owner x)
            was = bus.original_of(card)
        if bus is None or any(s.active and s.owner is was
                              for subs in bus.original._subs.values() for s in subs):
            self.bus.drop_owner(card)
        fx = self._pending("continuous_fx")
        if fx is not None:
            was = fx.original_of(card)
        if fx is None or any(r.owner is was for r in fx.original._regs):
            self.continuous_fx.drop(card)

    def send_to_graveyard(self, card: Card) -> None:
        if card.deck != "main":
            self.place(card, "event_discard" if card.deck == "event" else "relic_deck", bottom=True)
            return
        if card.zone == "graveyard":
            return
        self.place(card, "graveyard")
        if self.log_enabled:    # (not formatted with logging off)
            self.log(f"{card} -> graveyard")
        self.settle()
        self.fire("sent_to_graveyard", card)     # from anywhere (L302)

    def discard(self, card: Card) -> None:
        if card.deck != "main":
            if card.deck == "event" and card.zone == "hand":
                return                          # loot in hand cannot be discarded (L73)
            self.place(card, "event_discard")
            return
        if card.zone == "discard":
            return
        self.place(card, "discard")
        if self.log_enabled:    # (not formatted with logging off)
            self.log(f"{card} -> discard")
        self.settle()
        self.fire("discarded", card)             # from anywhere (L306)

    def shuffle(self, pile: list) -> None:
        self.rng.shuffle(pile)

    # --- triggers --------------------------------------------------------------------------
    def fire(self, event: str, payload=None) -> int:
        if self.state.over:
            return 0
        eligible = self._eligible(event, payload)
        # A trial copy that has not copied the triggers: when none listens, or none that would
        # resolve (the card sent to the graveyard has no trigger of its own: the usual case),
        # firing would only copy them. (A card the trial has not copied is as in the game.)
        pending = self._pending("bus")
        if pending is not None and not any(s.active and eligible(pending.now(s.owner))
                                           for s in pending.original._subs.get(event, ())):
            return 0
        return self.bus.fire(event, payload, eligible=eligible, order=self._order)

    def _eligible(self, event: str, payload):
        if event in ("turn_start", "turn_end"):
            return lambda o: isinstance(o, Card) and o.zone == "exploration" and o.face_up
        if event == "pre_battle":
            return lambda o: isinstance(o, Card) and o.zone == "battlefield" and o.face_up
        if event in ROW_EVENTS:
            row = self.current_row
            # (a card in a row is on the battlefield: the zone is read first, for a deck of
            # thousands of cards listening, each asked at every row's events)
            return lambda o: isinstance(o, Card) and o.zone == "battlefield" and o.face_up \
                and row is not None and self.row_of(o) is row
        if event == "post_battle":       # r10: exploration cards and relics
            return lambda o: isinstance(o, Card) and (
                (o.zone == "exploration" and o.face_up) or o.zone == "equipment")
        if event in ("sent_to_graveyard", "discarded", "points_zero", "acquired"):
            return lambda o: o is payload
        if event in ("long_rest", "descend", "clean_up_loot"):
            return lambda o: isinstance(o, Card) and o.zone == "equipment"
        return lambda o: True

    def _order(self, owner):
        """r11 "in order": columns left to right, bottom end to top end; rows top to bottom,
        enemy side left to right then player side; relics left to right."""
        s = self.state
        if isinstance(owner, Card):
            if owner.zone == "exploration":
                for ci, col in enumerate(s.columns):
                    for ri, c in enumerate(col):
                        if c is owner:
                            return (0, ci, ri)
            if owner.zone == "battlefield":
                for ri, row in enumerate(s.rows):
                    for side, cards in ((0, row.enemy), (1, row.player)):
                        for pi, c in enumerate(cards):
                            if c is owner:
                                return (1, ri, side * 100 + pi)
            if owner.zone == "equipment":
                return (2, next(i for i, c in enumerate(s.equipment) if c is owner), 0)
        return (3, 0, 0)

