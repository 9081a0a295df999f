"""Dungeon Master Crawl Decks' engine: setup, small rounds, turns, battles, rests, descending.

Every card text runs through the generated effects; the timing windows, trigger order,
continuous effects and value layering run through the shared runtime (runtime/timing.py,
runtime/layering.py). The engine decides only what the rulebook leaves to procedure: zones,
who decides, and the rule choices recorded in content/dm_crawl_decks/rules.yaml (rNN below).
"""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.dm_crawl_decks import policy
from tomecraft.runtime.engines.dm_crawl_decks.handlers import Queries, Verbs
from tomecraft.runtime.engines.dm_crawl_decks.state import (
    ATTRIBUTES, FIELD, Card, Row, State, Virtual,
)
from tomecraft.runtime.layering import Layers
from tomecraft.runtime.timing import COLLECT, ContinuousEffects, Fizzle, OnceTracker, TriggerBus, WindowOrder, resolve

TURN_CAP = 3000          # r30: a safety cap no game reaches
ROW_EVENTS = ("before_round", "battle_round", "victory", "defeat")
BATTLE = WindowOrder(("pre_battle", "before_round", "battle_round", "outcome", "post_battle"),
                     repeat=("before_round", "battle_round", "outcome"))
TURN = ("turn_start", "action", "turn_end")


class Engine:
    def __init__(self, data, state: State, agent, rng, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agent = agent
        self.rng = rng
        self.log_enabled = log_enabled
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        check_handlers(data, self.verbs, self.queries)
        self.board = data.kinds["board"]["standard"]
        self.rules = {r.id: r.value for r in data.kinds.get("rule", {}).values()}
        self.layers = Layers(on_zero=self._zero)
        self.bus = TriggerBus()
        self.once_tracker = OnceTracker()
        self.continuous_fx = ContinuousEffects(self.layers, active=self._active)
        self.battle_windows = WindowOrder(BATTLE.names, BATTLE.repeat)
        self.turn_windows = WindowOrder(TURN)
        self.current_row: Row | None = None
        self.loot_done: Counter = Counter()
        self._uid = 0
        self._watchers: list = []

    # --- cards ---------------------------------------------------------------------------
    def new_card(self, defn, deck: str, zone: str) -> Card:
        self._uid += 1
        card = Card(self._uid, defn, deck, zone)
        if deck == "main":
            self.layers.set_base(card, "points", defn.points)
            self.layers.set_base(card, "power", defn.power)
            if defn.effect is not None:         # register its triggers and continuous effects
                resolve(defn.effect, self.ctx(card))
        return card

    def ctx(self, card=None) -> Context:
        return Context(engine=self, you=self.state, self=card)

    # --- the Context API ---------------------------------------------------------------------
    def attr(self, ctx, obj, name: str):
        if isinstance(obj, Virtual):
            return obj.size if name == "points" else 0
        if isinstance(obj, Card):
            if obj.deck == "main" and name in ("points", "power"):
                return self.layers.value(obj, name)
            return getattr(obj.defn, name)
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        if kind in ("card", "event_card", "relic"):
            deck = {"card": "main", "event_card": "event", "relic": "relic"}[kind]
            cards = self.cards_in_zone(zone) if zone else self.all_field_cards()
            return [c for c in cards if isinstance(c, Card) and c.deck == deck]
        if kind == "player":
            return [self.state]
        return []

    def decide(self, ctx, key: str, options: list):
        if options and all(isinstance(o, (Card, Virtual)) for o in options):
            names = [repr(o) for o in options]           # agents answer with the card's name
            return options[names.index(self.ask("target", names))]
        return self.ask(key, options)

    def subscribe(self, ctx, event: str, where, body, key: str) -> None:
        self.bus.subscribe(event, ctx.self, ctx, body, where, key, ctx.scope)

    def watch(self, ctx, cond, body, key: str) -> None:
        self._watchers.append((ctx, cond, body))

    def once(self, ctx, scope: str, key: str) -> bool:
        return self.once_tracker.once(scope, ctx.self, key)

    def continuous(self, ctx, body, key: str) -> None:
        self.continuous_fx.register(ctx.self, ctx, body, key)

    def modify(self, ctx, obj, name: str, op: str, value, key: str) -> None:
        if isinstance(obj, Virtual):
            return                      # r20: virtual cards are not affected (L224)
        collect = ctx.info.get(COLLECT)
        if collect is not None:
            collect.append((obj, name, op, value, key))
            return
        if isinstance(obj, Card):
            if obj.deck != "main" or obj.zone not in FIELD:
                return
            self.log(f"{obj} {name} {op} {value} (was {self.layers.value(obj, name)})")
            self.layers.modify(obj, name, op, value)
            if obj.zone in FIELD:
                self.log(f"{obj} {name} now {self.layers.value(obj, name)}")
            self.settle()
            return
        raise EffectError(f"cannot modify {name} of {obj!r}")

    # --- layering integration ------------------------------------------------------------------
    def _active(self, owner) -> bool:
        if not isinstance(owner, Card):
            return False
        if owner.deck == "relic":
            return owner.zone == "equipment"
        return owner.zone in FIELD and owner.face_up

    def _zero(self, card, attr: str) -> None:
        """L330: a card whose points reach 0 goes to the graveyard at once, mid-resolution."""
        if attr != "points" or not isinstance(card, Card) or card.zone not in FIELD:
            return
        self.log(f"{card} reaches 0 points")
        self.fire("points_zero", card)
        if card.zone in FIELD:
            self.send_to_graveyard(card)

    def settle(self) -> None:
        self.continuous_fx.refresh()
        for w in list(self._watchers):
            ctx, cond, body = w
            if cond(ctx):
                self._watchers.remove(w)
                body(ctx)

    def points(self, card) -> int:
        if isinstance(card, Virtual):
            return card.size
        return self.layers.value(card, "points")

    def power(self, card) -> int:
        return 0 if isinstance(card, Virtual) else self.layers.value(card, "power")

    # --- zones -----------------------------------------------------------------------------
    def cards_in_zone(self, zone: str) -> list:
        s = self.state
        if zone == "exploration":
            return s.exploration_cards()
        if zone == "battlefield":
            return [c for r in s.rows for c in r.enemy + r.player if isinstance(c, Card)]
        return list({"main_deck": s.main_deck, "graveyard": s.graveyard, "discard_pile": s.discard,
                     "event_deck": s.event_deck, "event_discard": s.event_discard,
                     "relic_deck": s.relic_deck, "loot_pile": s.loot, "spare_slot": s.spare,
                     "hand": s.hand, "equipment_area": s.equipment}.get(zone, []))

    def all_field_cards(self) -> list:
        return self.cards_in_zone("exploration") + self.cards_in_zone("battlefield")

    def _pile(self, zone: str) -> list | None:
        s = self.state
        return {"main_deck": s.main_deck, "graveyard": s.graveyard, "discard": s.discard,
                "event_deck": s.event_deck, "event_discard": s.event_discard,
                "relic_deck": s.relic_deck, "loot": s.loot, "spare": s.spare, "hand": s.hand,
                "equipment": s.equipment, "cleanup": s.cleanup, "revealed": s.revealed}.get(zone)

    def row_of(self, card):
        for row in self.state.rows:
            if any(c is card for c in row.enemy) or any(c is card for c in row.player):
                return row
        return None

    def side_of(self, card) -> str | None:
        for row in self.state.rows:
            if any(c is card for c in row.enemy):
                return "enemy_side"
            if any(c is card for c in row.player):
                return "player_side"
        return None

    def remove(self, card) -> None:
        zone = card.zone
        if zone == "exploration":
            for col in self.state.columns:
                if any(c is card for c in col):
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
            self.bus.drop_owner(card)
            self.continuous_fx.drop(card)
        card.zone = zone
        pile = self._pile(zone)
        if pile is None:
            raise EffectError(f"unknown zone {zone}")
        if bottom:
            pile.insert(0, card)
        else:
            pile.append(card)

    def send_to_graveyard(self, card: Card) -> None:
        if card.deck != "main":
            self.place(card, "event_discard" if card.deck == "event" else "relic_deck", bottom=True)
            return
        if card.zone == "graveyard":
            return
        self.place(card, "graveyard")
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
        self.log(f"{card} -> discard")
        self.settle()
        self.fire("discarded", card)             # from anywhere (L306)

    def shuffle(self, pile: list) -> None:
        self.rng.shuffle(pile)

    # --- triggers --------------------------------------------------------------------------
    def fire(self, event: str, payload=None) -> int:
        if self.state.over:
            return 0
        return self.bus.fire(event, payload, eligible=self._eligible(event, payload),
                             order=self._order)

    def _eligible(self, event: str, payload):
        if event in ("turn_start", "turn_end"):
            return lambda o: isinstance(o, Card) and o.zone == "exploration" and o.face_up
        if event == "pre_battle":
            return lambda o: isinstance(o, Card) and o.zone == "battlefield" and o.face_up
        if event in ROW_EVENTS:
            row = self.current_row
            return lambda o: isinstance(o, Card) and o.face_up and row is not None \
                and self.row_of(o) is row
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

    # --- decisions and log -----------------------------------------------------------------
    def ask(self, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key not in ("action", "play"):
            return options[0]
        return self.agent.choose(key, options, policy.View(self, key))

    def log(self, line: str) -> None:
        if self.log_enabled:
            self.state.log.append(line)

    # --- counters --------------------------------------------------------------------------
    def hand_limit(self) -> int:
        b = self.board
        return b.hand_limit + self.state.token_total() // b.hand_limit_per_tokens   # L212

    def lose_hp(self, amount: int) -> None:
        s = self.state
        if amount <= 0 or s.over:
            return
        s.hp -= amount
        self.log(f"lose {amount} HP -> {s.hp}")
        if s.hp <= 0:
            self.lose("HP reached 0")           # L159, r17: at once

    def lose(self, reason: str) -> None:
        if not self.state.over:
            self.state.lost = True
            self.state.reason = reason
            self.log(f"game over: {reason}")

    def win(self, reason: str) -> None:
        if not self.state.over:
            self.state.won = True
            self.state.reason = reason
            self.log(f"victory: {reason}")

    def gain_token(self, attribute: str, amount: int = 1) -> None:
        supply = self.data.kinds["attribute"][attribute].supply
        tokens = self.state.tokens[attribute]
        n = min(amount, supply - tokens.total)
        if n <= 0:
            raise Fizzle(f"no {attribute} token left")
        tokens.up += n                      # r18: a new token is face up
        self.log(f"gain {n} {attribute} token(s)")

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
        found = [c for c in reversed(pile) if getattr(c.defn, "card_type", None) == card_type
                 and not getattr(c.defn, "identity", False)][:amount]
        if zone == "relic_deck" and card_type == "relic":
            found = [c for c in reversed(pile)][:amount]
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
            if card.defn.card_type == "loot":
                self.gain_loot(card)
            else:
                self.place(card, "revealed")
                self.activate_event(card)
        elif card.deck == "relic":
            self.gain_relic(card)
        else:
            self.place(card, "hand")

    def redraw(self, card: Card) -> None:
        """L216: back to its deck, shuffle, draw 1 into the same position."""
        s = self.state
        if card.zone != "exploration":
            raise Fizzle("only exploration cards are redrawn here")
        ci, ri = next((ci, ri) for ci, col in enumerate(s.columns) for ri, c in enumerate(col) if c is card)
        self.place(card, "main_deck")
        self.shuffle(s.main_deck)
        new = s.main_deck.pop()
        new.zone = "exploration"
        s.columns[ci].insert(ri, new)
        self.settle()
        self.log(f"redraw {card} -> {new}")

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
        self.log(f"gain relic {card}")
        label = card.defn.label
        if label and label not in s.labels:      # L45: the first relic with this label
            s.labels.add(label)
            if self.ask("first_label", [True, False]):
                s.resources[label] += 1
                self.log(f"first {label} relic: gain 1 {label}")
        if card.defn.passive is not None:
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
        relic = next(c for c in self.state.equipment if repr(c) == relic_repr)
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
    def gain_loot(self, card: Card) -> bool:
        """L73: the loot pile, else the hand, else it cannot be gained (r19: event discard)."""
        s = self.state
        if len(s.loot) < self.board.loot_limit:
            self.place(card, "loot")
        elif len(s.hand) < self.hand_limit():
            self.place(card, "hand")
            self.log(f"{card} overflows into the hand")
        else:
            self.place(card, "event_discard")
            self.log(f"{card} cannot be gained")
            return False
        return True

    def clean_up_loot(self) -> None:
        """L238-244: stack chosen loot (pile and hand) on the player side; resolve top to bottom."""
        s = self.state
        kinds = sorted({c.defn.resource for c in s.loot + s.hand if c.deck == "event"})
        stack: list[Card] = []
        while kinds:
            pick = self.ask("cleanup", [{"cash": k} for k in kinds] + [{"cash": None}])
            if pick["cash"] is None:
                break
            kinds.remove(pick["cash"])
            stack += [c for c in s.loot + s.hand if c.deck == "event" and c.defn.resource == pick["cash"]]
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
            if chosen.defn.card_type == "loot":
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
                if card.defn.card_type == "loot":
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

    # --- battle ---------------------------------------------------------------------------------
    def playable(self) -> list[Card]:
        return [c for c in self.state.hand if c.deck == "main"]     # loot cannot battle (L73)

    def play_options(self, row: Row | None, stacked: frozenset = frozenset()) -> list[dict]:
        """The next play into a row (L127): any hand card, or a stack of face-up tokens of an
        attribute not stacked in this row yet (L224-228), or `done`. A row may hold any number
        of cards and stacks; a second stack of the same attribute in one row is never offered
        (rule r16: it adds nothing a taller stack would not, and flips one more token)."""
        out = [{"do": "done"}]
        out += [{"card": name} for name in sorted({repr(c) for c in self.playable()})]
        out += [{"attr": a, "size": k} for a in ATTRIBUTES if a not in stacked
                for k in range(1, self.state.tokens[a].up + 1)]
        return out

    def fill_row(self, row: Row) -> None:
        """Play cards and token stacks into one row, one at a time, until the player is done."""
        s, stacked = self.state, set()
        while True:
            pick = self.ask("play", self.play_options(row, frozenset(stacked)))
            if pick.get("do") == "done":
                cards = sum(1 for c in row.player if isinstance(c, Card))
                s.stats["rows_over_3_cards"] += cards > 3     # plays the old cap r16 refused
                s.stats["rows_with_2_stacks"] += len(stacked) > 1
                return
            if "card" in pick:
                card = next(c for c in s.hand if repr(c) == pick["card"])
                self.remove(card)
                card.zone = "battlefield"
                row.player.append(card)
            else:
                s.tokens[pick["attr"]].up -= pick["size"]
                stacked.add(pick["attr"])
                row.player.append(Virtual(pick["attr"], pick["size"]))

    def battle(self, column: int) -> None:
        s = self.state
        self.battle_windows.reset()
        col = s.columns[column]
        s.columns[column] = []
        s.rows = [Row(enemy=[card]) for card in reversed(col)]   # the top end is the top row
        for card in col:
            card.zone = "battlefield"
        self.settle()               # continuous effects now reach the battlefield (L280)
        self.log(f"battle column {column}: " + ", ".join(map(repr, reversed(col))))
        # B2: play from the bottom end to the top end (L127)
        for row in reversed(s.rows):
            self.current_row = row
            self.fill_row(row)
        self.current_row = None
        self.settle()
        # B3: pre-battle (L131): face up, relics, pre-battle effects (continuous already applied)
        self.battle_windows.enter("pre_battle")
        for row in s.rows:
            for card in row.enemy + row.player:
                if isinstance(card, Card) and not card.face_up:
                    card.face_up = True
        self.settle()
        self.relic_window("pre_battle")
        self.fire("pre_battle")
        # B4: rows from the top end to the bottom end (L133)
        for row in list(s.rows):
            if s.over:
                break
            self.resolve_row(row)
        s.rows = []
        self.current_row = None
        if s.over:
            return
        self.battle_windows.enter("post_battle")
        self.fire("post_battle")
        self.once_tracker.reset("battle")
        if not s.over:
            self.post_battle_events()

    def resolve_row(self, row: Row) -> None:
        s = self.state
        self.current_row = row
        self.battle_windows.enter("before_round")
        self.fire("before_round")
        self.battle_windows.enter("battle_round")
        self.relic_window("battle_round")
        self.fire("battle_round")
        self.battle_windows.enter("outcome")
        p = sum(self.points(c) for c in row.player)
        e = sum(self.points(c) for c in row.enemy)
        enemy = [c for c in row.enemy if isinstance(c, Card)]
        player = [c for c in row.player if isinstance(c, Card)]
        virtual = [c for c in row.player if isinstance(c, Virtual)]
        s.stats["rows"] += 1
        if p < e:                                               # ① defeat (L135)
            s.stats["defeats"] += 1
            self.log(f"row lost {p} < {e}")
            damage = sum(self.power(c) for c in enemy)
            self.fire("defeat", SimpleNamespace(total=p, enemy=e))
            self.lose_hp(damage + (1 if p == 0 else 0))
            for c in enemy:
                self.discard(c)
            for c in player:
                self.send_to_graveyard(c)
        else:                                                   # ② / ③ victory (L136-137)
            s.stats["ties" if p == e else "wins"] += 1
            self.log(f"row won {p} {'=' if p == e else '>'} {e}")
            self.fire("victory", SimpleNamespace(total=p, enemy=e))
            for c in enemy:
                self.send_to_graveyard(c)
            for c in player:
                if p == e:
                    self.send_to_graveyard(c)
                else:
                    self.discard(c)
        for v in virtual:                                       # L226: flip the top token
            tokens = s.tokens[v.attribute]
            tokens.up += v.size - 1
            tokens.down += 1
        for c in list(row.enemy + row.player):                  # anything an effect left behind
            if isinstance(c, Card) and c.zone == "battlefield":
                self.send_to_graveyard(c) if p >= e else self.discard(c)
        row.enemy.clear()
        row.player.clear()
        self.current_row = None

    # --- turns ----------------------------------------------------------------------------------
    def action_options(self) -> list[dict]:
        s = self.state
        out = [{"do": "battle", "column": i} for i, col in enumerate(s.columns) if col]
        if s.main_deck:                                    # L147, L153
            out += [{"do": "short_rest"}, {"do": "long_rest"}]
        out += self.relic_options("action")
        out += self.spare_options()
        return out

    def start_turn(self) -> None:
        s = self.state
        s.turn += 1
        self.turn_windows.reset()
        self.turn_windows.enter("turn_start")
        if not s.exploration_cards():                      # ① a new small round (L109)
            self.clean_up_loot()
            order = self.ask("round_order", [{"first": "rest"}, {"first": "reset"}])
            if order["first"] == "rest":
                self.long_rest(free=True)
                self.reset_exploration()
            else:
                self.reset_exploration()
                self.long_rest(free=True)
        if not s.over:
            self.fire("turn_start")                        # ②

    def action_phase(self) -> None:
        self.turn_windows.enter("action")
        for _ in range(50):
            if self.state.over:
                return
            options = self.action_options()
            if not [o for o in options if o["do"] in ("battle", "short_rest", "long_rest")]:
                return                                         # r22: nothing to do
            pick = self.ask("action", options)
            if pick["do"] == "relic":
                self.use_relic(pick["id"])
                continue
            if pick["do"] == "spare":
                self.move_to_spare(pick["column"])
                continue
            self.take_action(pick)
            return

    def take_action(self, pick: dict) -> None:
        s = self.state
        if pick["do"] == "battle":
            had_cards = bool(s.main_deck)
            self.battle(pick["column"])
            if had_cards and not s.over:
                self.consume_time(self.board.time_battle)       # L125, r13
        elif pick["do"] == "short_rest":
            self.short_rest()
        elif pick["do"] == "long_rest":
            self.long_rest(free=False)
        s.stats[pick["do"]] += 1

    def end_turn(self) -> None:
        s = self.state
        self.turn_windows.enter("turn_end")
        self.fire("turn_end")                                   # ①
        self.bus.end_scope("turn")
        self.once_tracker.reset("turn")
        if s.over:
            return
        no_play = not self.playable()                           # ② (L119)
        if not s.main_deck and (no_play or not s.exploration_cards()):
            self.descend()

    def play_turn(self) -> None:
        self.start_turn()
        if not self.state.over:
            self.action_phase()
        if not self.state.over:
            self.end_turn()

    # --- descending --------------------------------------------------------------------------
    def descend(self) -> None:
        """L177-186 with r03 (misses tallied after D0) and r07 (loot stays in the hand)."""
        s = self.state
        self.log(f"descend from DL {s.dl}")
        for c in [c for c in s.hand if c.deck == "main"] + s.exploration_cards() + list(s.spare):
            self.discard(c)
        s.misses += len(s.discard)                      # L167
        self.log(f"misses +{len(s.discard)} -> {s.misses}")
        if len(s.graveyard) <= len(s.discard):          # L179
            self.lose(f"graveyard {len(s.graveyard)} <= discard {len(s.discard)} at descend")
            return
        for _ in range(len(s.graveyard) // self.board.level_up_every):     # ①
            options = [{"attribute": a} for a in ATTRIBUTES
                       if s.tokens[a].total < self.data.kinds["attribute"][a].supply]
            if options:
                self.gain_token(self.ask("level_up", options)["attribute"])
        s.hp = min(s.hp_max, s.hp + self.board.descend_heal)              # ②
        for c in list(s.graveyard) + list(s.discard):                      # ③
            self.place(c, "main_deck")
        self.shuffle(s.main_deck)
        for c in list(s.event_discard):
            self.place(c, "event_deck")
        self.shuffle(s.event_deck)
        s.descends += 1
        self.fire("descend")
        self.once_tracker.reset("floor")
        has_id = any(c.defn.identity for c in s.equipment)
        if s.dl >= self.board.dl_max and not has_id:                       # ④
            self.search_identity()
        else:
            s.dl += 1
            s.space = self.board.space + (s.dl - self.board.dl_start)      # L194, r06

    def search_identity(self) -> bool:
        """④ (L186, L248-252): the first identity card of the relic deck, then shuffle."""
        s = self.state
        card = next((c for c in reversed(s.relic_deck) if c.defn.identity), None)
        if card is not None:
            self.gain_relic(card)
        self.shuffle(s.relic_deck)
        if card is None:
            self.log("the identity card is not in the relic deck: only shuffle")
        return card is not None

    # --- a whole game ----------------------------------------------------------------------------
    def play(self, cap: int = TURN_CAP) -> dict:
        s = self.state
        while not s.over and s.turn < cap:
            self.play_turn()
        return result(self, capped=not s.over)


def result(engine: Engine, capped: bool = False) -> dict:
    s = engine.state
    floors = min(s.descends + 1, engine.board.dl_max)
    return {"scores": [s.misses], "rounds": floors, "capped": capped, "finished": [s.won],
            "won": s.won, "misses": s.misses, "floors": floors, "descends": s.descends,
            "hp": s.hp, "reason": s.reason, "turns": s.turn,
            "row_plays": {k: s.stats[k] for k in ("rows", "rows_over_3_cards", "rows_with_2_stacks")},
            # what `tomecraft sim` summarises by name (runtime/sim.py)
            "end": _ending(s), "stats": {"win_rate": s.won, "mean_misses": s.misses,
                                       "mean_floors_reached": floors, "mean_turns": s.turn}}


def _ending(s) -> str:
    """How the game ended, as a category for the sim summary (s.reason has the details)."""
    if s.won:
        return "won"
    if s.hp <= 0:
        return "lost: HP reached 0"
    if s.reason.startswith("graveyard"):
        return "lost: descend check failed"
    return s.reason or "not over"


def summarise(results: list[dict]) -> dict:
    """Win rate, mean misses and mean floors reached of finished games (what `tomecraft sim`
    shows generically as: back at base = win rate, scores = misses, mean rounds = floors)."""
    n = len(results) or 1
    won = [r for r in results if r["won"]]
    return {"games": len(results), "win_rate": round(len(won) / n, 3),
            "mean_misses": round(sum(r["misses"] for r in results) / n, 2),
            "mean_misses_of_wins": round(sum(r["misses"] for r in won) / (len(won) or 1), 2),
            "mean_floors": round(sum(r["floors"] for r in results) / n, 2),
            "lost_hp": sum(1 for r in results if not r["won"] and r["hp"] <= 0),
            "lost_descend": sum(1 for r in results if "descend" in r["reason"])}


def new_engine(data, rng, agent, log_enabled: bool = False) -> Engine:
    """Setup (L79-87): decks shuffled, DL 1, HP 5/5, misses and resources 0."""
    b = data.kinds["board"]["standard"]
    state = State(hp=b.hp, hp_max=b.hp, dl=b.dl_start, space=b.space)
    state.columns = [[] for _ in range(b.brightness)]
    engine = Engine(data, state, agent, rng, log_enabled)
    for defn in data.of("card"):
        for _ in range(defn.count):
            state.main_deck.append(engine.new_card(defn, "main", "main_deck"))
    for defn in data.of("event_card"):
        for _ in range(defn.count):
            state.event_deck.append(engine.new_card(defn, "event", "event_deck"))
    for defn in data.of("relic"):
        state.relic_deck.append(engine.new_card(defn, "relic", "relic_deck"))
    engine.shuffle(state.main_deck)
    engine.shuffle(state.event_deck)
    engine.shuffle(state.relic_deck)
    return engine


def setup(engine: Engine) -> None:
    s, b = engine.state, engine.board
    s.resources["gold"] += b.start_gold                               # L87
    for _ in range(b.start_tokens):
        engine.gain_token(engine.ask("attribute", [{"attribute": a} for a in ATTRIBUTES])["attribute"])
    engine.choose_relics(b.relic_draw, b.relic_keep)


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    engine = new_engine(data, rng.fork("decks"), agents[0], log_enabled=bool((options or {}).get("log")))
    setup(engine)
    return engine.play()
