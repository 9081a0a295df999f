"""The verb and query handlers game.yaml names; generated effects call them through ctx.

`ctx.you` is the State, `ctx.self` the card (or relic) whose effect runs, `ctx.target` a
chosen card. A handler that cannot carry out its part raises `Fizzle` (空发, L322-324).
`engine` is the game's Engine (engine.py, which imports this module, not the other way).
"""
from __future__ import annotations

from tomecraft.runtime.engines.dm_crawl_decks.state import Card, Virtual
from tomecraft.runtime.timing import Fizzle


class Verbs:
    def __init__(self, engine) -> None:
        self.engine = engine

    # --- resources, HP, time ------------------------------------------------------------
    def gain(self, ctx, resource: str, amount: int) -> None:
        self.engine.state.resources[resource] += amount
        self.engine.log(f"gain {amount} {resource}")

    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        return self.engine.state.resources[resource] >= amount

    def pay(self, ctx, resource: str, amount: int) -> None:
        self.engine.state.resources[resource] -= amount
        self.engine.log(f"spend {amount} {resource}")

    def can_consume_time(self, ctx, amount: int) -> bool:
        return True         # with an empty main deck nothing happens (L220)

    def consume_time(self, ctx, amount: int) -> None:
        self.engine.consume_time(amount)

    def lose_hp(self, ctx, amount: int) -> None:
        self.engine.lose_hp(amount)

    def heal(self, ctx, amount: int) -> None:
        state = self.engine.state
        if state.hp >= state.hp_max:
            raise Fizzle("no lost HP")
        state.hp = min(state.hp_max, state.hp + amount)
        self.engine.log(f"recover HP -> {state.hp}")

    def win_game(self, ctx) -> None:
        self.engine.win("the identity card")

    # --- drawing, searching ---------------------------------------------------------------
    def draw_main(self, ctx, amount: int) -> None:
        if len(self.engine.state.main_deck) < amount:
            raise Fizzle("the main deck is short")           # L25, L324
        self.engine.draw_hand(amount)

    def return_hand(self, ctx) -> None:
        self.engine.return_hand(count_draw=True)

    def draw_to_limit(self, ctx) -> None:
        self.engine.draw_hand(self.engine.hand_limit() - len(self.engine.state.hand))

    def search(self, ctx, zone: str, card_type: str, amount: int) -> None:
        self.engine.search(zone, card_type, amount)

    def redraw(self, ctx, card) -> None:
        self.engine.redraw(card)

    def gain_relic(self, ctx, amount: int, of: int) -> None:
        self.engine.choose_relics(of, amount)

    def reveal_events(self, ctx, amount: int) -> None:
        self.engine.reveal_events(amount)

    def choose_event(self, ctx) -> None:
        self.engine.post_battle_events()

    # --- moving cards -----------------------------------------------------------------------
    def send_to_graveyard(self, ctx, card) -> None:
        if isinstance(card, Virtual):
            return          # never sent to the graveyard (L224)
        self.engine.send_to_graveyard(card)

    def discard_card(self, ctx, card) -> None:
        if isinstance(card, Virtual):
            return
        self.engine.discard(card)

    def put_beside(self, ctx, card) -> None:
        self.engine.put_beside(card, ctx.self)

    def summon_cards(self, ctx, zone: str, card_type: str) -> None:
        found = [c for c in self.engine.cards_in_zone(zone)
                 if c is not ctx.self and getattr(c.defn, "card_type", None) == card_type]
        if not found:
            raise Fizzle("nothing to summon")
        for card in found:
            self.engine.put_beside(card, ctx.self)

    def stack_at(self, ctx, card, position: str) -> None:
        self.engine.stack_at(card, ctx.self, position)

    def stack_top(self, ctx, position: str) -> None:
        state = self.engine.state
        if not state.main_deck or ctx.self.zone != "exploration":
            raise Fizzle("no card to stack")
        self.engine.stack_at(state.main_deck[-1], ctx.self, position)

    def move_to_spare(self, ctx) -> None:
        options = self.engine.spare_options()
        if not options:
            raise Fizzle("no room in the spare slot")
        self.engine.move_to_spare(self.engine.ask("spare", options)["column"])

    def turn_face_up(self, ctx, card) -> None:
        if isinstance(card, Card):
            card.face_up = True
            self.engine.settle()

    # --- relics and tokens -------------------------------------------------------------------
    def can_turn_sideways(self, ctx) -> bool:
        return isinstance(ctx.self, Card) and not ctx.self.sideways

    def turn_sideways(self, ctx) -> None:
        ctx.self.sideways = True
        self.engine.log(f"{ctx.self} is turned sideways")

    def turn_back(self, ctx) -> None:
        ctx.self.sideways = False

    def flip_token(self, ctx, attribute: str, amount: int) -> None:
        tokens = self.engine.state.tokens[attribute]
        if tokens.down < 1:
            raise Fizzle(f"no used {attribute} token")
        n = min(amount, tokens.down)
        tokens.down -= n
        tokens.up += n

    def gain_token(self, ctx, attribute: str, amount: int) -> None:
        self.engine.gain_token(attribute, amount)


class Queries:
    def __init__(self, engine) -> None:
        self.engine = engine

    def cards_in(self, ctx, zone: str) -> int:
        return len(self.engine.cards_in_zone(zone))

    def on_side(self, ctx, card, side: str) -> bool:
        return self.engine.side_of(card) == side

    def same_row(self, ctx, card) -> bool:
        row = self.engine.row_of(ctx.self)
        if row is None:
            row = self.engine.current_row
        return row is not None and row == self.engine.row_of(card)

    def face_up(self, ctx, card) -> bool:
        return getattr(card, "face_up", True)

    def is_sideways(self, ctx) -> bool:
        return bool(getattr(ctx.self, "sideways", False))

    def tokens(self, ctx, attribute: str) -> int:
        return self.engine.state.tokens[attribute].total

    def loot_before(self, ctx, resource: str) -> int:
        return self.engine.loot_done[resource]

