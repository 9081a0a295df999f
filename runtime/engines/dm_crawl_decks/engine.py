"""Dungeon Master Crawl Decks' engine: setup, small rounds, turns, descending, a whole game.

Every card text runs through the generated effects; the timing windows, trigger order,
continuous effects and value layering run through the shared runtime (runtime/timing.py,
runtime/layering.py). The engine decides only what the rulebook leaves to procedure: zones,
who decides, and the rule choices recorded in content/dm_crawl_decks/rules.yaml (rNN below).

Layout (imports point one way, down this list):
  engine.py   the Engine: the Context API generated effects call, turn structure, setup
  battle.py   battles (a mixin of Engine)
  rules.py    rule procedures outside battle: draws, relics, loot, events, rests (a mixin)
  zones.py    where cards are, moving them, trigger order (a mixin)
  handlers.py the verbs and queries game.yaml names, calling the engine
  policy.py   the simulated player (its View is what agents see)
  planner.py  its battle planner (which cards and stacks each row gets, column values)
  twins.py    options its lookahead tries once for all (token flips alike, relics, events)
  state.py    the game state and its pieces
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.agents import took_unasked
from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.dm_crawl_decks import policy
from tomecraft.runtime.engines.dm_crawl_decks.battle import Battle
from tomecraft.runtime.engines.dm_crawl_decks.handlers import Queries, Verbs
from tomecraft.runtime.engines.dm_crawl_decks.rules import Rules
from tomecraft.runtime.engines.dm_crawl_decks.snapshot import copy_engine
from tomecraft.runtime.engines.dm_crawl_decks.state import (
    ATTRIBUTES, FIELD, Card, Row, State, Virtual,
)
from tomecraft.runtime.engines.dm_crawl_decks.zones import Zones
from tomecraft.runtime.layering import Layers
from tomecraft.runtime.timing import COLLECT, ContinuousEffects, Fizzle, OnceTracker, TriggerBus, WindowOrder, resolve
from tomecraft.runtime.usage import registering

TURN_CAP = 3000          # r30: a safety cap no game reaches
BATTLE = WindowOrder(("pre_battle", "before_round", "battle_round", "outcome", "post_battle"),
                     repeat=("before_round", "battle_round", "outcome"))
TURN = ("turn_start", "action", "turn_end")
_new_context = object.__new__
DECK_OF_KIND = {"card": "main", "event_card": "event", "relic": "relic"}   # what select lists


class Engine(Battle, Rules, Zones):
    def __init__(self, data, state: State, agent, rng, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agent = agent
        self.rng = rng
        self.log_enabled = log_enabled
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        check_handlers(data, self.verbs, self.queries)
        self.board = the_board(data)
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

    def __deepcopy__(self, memo: dict) -> "Engine":
        """A whole copy of the game (runtime/lookahead.copy_game): snapshot.py."""
        return copy_engine(self, memo)

    def __getattr__(self, name: str):
        """A trial copy's triggers, continuous effects, once-trackers, watches and random
        stream, copied on first use (snapshot.copy_engine with disposable=True)."""
        lazy = self.__dict__.get("_lazy")
        if lazy and name in lazy:
            value = self.__dict__[name] = lazy.pop(name)()
            return value
        raise AttributeError(name)

    # --- cards ---------------------------------------------------------------------------
    def new_card(self, defn, deck: str, zone: str) -> Card:
        self._uid += 1
        card = Card(self._uid, defn, deck, zone)
        if deck == "main":
            self.layers.set_base(card, "points", defn.points)
            self.layers.set_base(card, "power", defn.power)
            if defn.effect is not None:         # register its triggers and continuous effects
                with registering():             # not a use: its triggers' runs are
                    resolve(defn.effect, self.ctx(card))
        return card

    def ctx(self, card=None) -> Context:
        """Context(engine=self, you=self.state, self=card), made as Context.bind makes one
        (its frozen dataclass __init__ sets each field through object.__setattr__: this runs
        for every relic offered, effect resolved and card made)."""
        new = _new_context(Context)
        new.__dict__.update(engine=self, you=self.state, self=card, it=None, target=None,
                            event=None, scope=None, info={})
        return new

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
        deck = DECK_OF_KIND.get(kind)
        if deck is not None:
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

    def once_open(self, ctx, scope: str, key: str) -> bool:
        return not self.once_tracker.used(scope, ctx.self, key)

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
            if self.log_enabled:            # (the lines read the layered values)
                self.log(f"{obj} {name} {op} {value} (was {self.layers.value(obj, name)})")
            self.layers.modify(obj, name, op, value)
            if obj.zone in FIELD and self.log_enabled:
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

    def end_scope(self, scope: str) -> None:
        """`during <scope>` is over (turn, battle, rest, floor): its triggers and continuous
        effects end. A trial copy that has not copied them skips a scope none was made for."""
        bus, fx = self._pending("bus"), self._pending("continuous_fx")
        subs = bus.original._subs.values() if bus is not None else self.bus._subs.values()
        if any(s.active and s.scope == scope for lst in subs for s in lst):
            self.bus.end_scope(scope)
        regs = fx.original._regs if fx is not None else self.continuous_fx._regs
        if any(getattr(r.ctx, "scope", None) == scope for r in regs):
            self.continuous_fx.end_scope(scope)
            self.settle()

    def _pending(self, name: str):
        """The not yet copied `name` of a trial copy (snapshot.Pending), else None."""
        lazy = self.__dict__.get("_lazy")
        return lazy.get(name) if lazy else None

    def _continuous_idle(self) -> bool:
        """Whether a refresh would change nothing, known without copying the continuous
        effects (a trial copy that has not copied them: snapshot.Pending): none modifies
        anything and none's owner is active in the trial. (A refresh runs only the active
        bodies and replaces only what an applied one modified.)"""
        pending = self._pending("continuous_fx")
        if pending is None:
            return False
        active = self._active
        return not any(r.applied or active(pending.now(r.owner)) for r in pending.original._regs)

    def settle(self) -> None:
        if not self._continuous_idle():
            self.continuous_fx.refresh()
        pending = self._pending("_watchers")
        if pending is not None and not pending.original:
            return                                  # no watch to check (and none to copy)
        for w in list(self._watchers):
            # a body that changes a value settles again (modify), which may fire a watch
            # listed here: it is gone, and fires no second time
            if not any(x is w for x in self._watchers):
                continue
            ctx, cond, body = w
            if self._watching(ctx.self) and cond(ctx):
                self._watchers.remove(w)
                body(ctx)

    def watching(self, ctx) -> bool:
        """Whether a watch registered now may fire at once (effects.Context.when)."""
        return self._watching(ctx.self)

    def _watching(self, owner) -> bool:
        """Whether a watch (`when C: ...`) of `owner` may fire now. Every copy of a main-deck
        card registers its effect when it is made (new_card), wherever it lies, but a card's
        effect works only while the card is on the field (L274), and a relic's while it is in
        the equipment area; a watch of a card in the deck or the graveyard waits. An event
        card's effect is resolved when it is chosen: its watch holds from then."""
        if isinstance(owner, Card) and owner.deck in ("main", "relic"):
            return self._active(owner)
        return True

    def points(self, card) -> int:
        if isinstance(card, Virtual):
            return card.size
        return self.layers.value(card, "points")

    def power(self, card) -> int:
        return 0 if isinstance(card, Virtual) else self.layers.value(card, "power")

    # --- decisions and log -----------------------------------------------------------------
    def ask(self, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key not in ("action", "play"):
            return took_unasked(self.agent, key, options[0])     # (a script's answer: used up)
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
        s.hp = max(0, s.hp - amount)            # the counter stops at 0 (L83, L159: 归零)
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
        # 50 relic uses and spare moves, and still no action (a pack's free relic, used again
        # and again): the phase ends with an action, as every action phase does (L114), so
        # time passes; it ended with none, and the game stood still until the round cap
        options = [o for o in self.action_options() if o["do"] in ("battle", "short_rest", "long_rest")]
        if options and not self.state.over:
            self.take_action(self.ask("action", options))

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
        self.end_scope("turn")
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
        self.end_scope("floor")
        self.once_tracker.reset("floor")
        has_id = any(c.defn.identity for c in s.equipment)
        if s.dl >= self.board.dl_max and not has_id:                       # ④
            self.search_identity()
        else:
            s.dl += 1
            s.space += 1            # L194: space rises by 1 with each DL (from the next reset, r06)

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
    floors = s.dl       # the level reached: a pack's board may start deeper (dl_start)
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


def the_board(data):
    """The one set of board values (contract: exactly 1 board), whatever its id."""
    return next(iter(data.kinds["board"].values()))


def new_engine(data, rng, agent, log_enabled: bool = False) -> Engine:
    """Setup (L79-87): decks shuffled, DL 1, HP 5/5, misses and resources 0."""
    b = the_board(data)
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
    for _ in range(b.start_tokens):     # an attribute whose tokens are all out is not offered
        left = [{"attribute": a} for a in ATTRIBUTES
                if engine.state.tokens[a].total < engine.data.kinds["attribute"][a].supply]
        if not left:                       # a pack's start_tokens above the supply: no more
            break
        engine.gain_token(engine.ask("attribute", left)["attribute"])
    engine.choose_relics(b.relic_draw, b.relic_keep)


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    engine = new_engine(data, rng.fork("decks"), agents[0], log_enabled=bool((options or {}).get("log")))
    setup(engine)
    return engine.play()
