"""Clank! Catacombs engine: the Context API, the actions a player may take, the turn and
its end (refilling the row), the game loop.

The layout, imports pointing one way (engine -> the rest -> state):
- engine.py   the Engine, legal actions and the turn structure; `play_game`;
- board.py    the map: tunnels, moving, teleporting, escaping, exploring (mixin Board);
- rules.py    cards, clank, damage, the dragon, the end, treasure, tokens, market, gold
              (mixin Rules), and `score`;
- handlers.py the verbs and queries game.yaml names; setup.py setup A-H; state.py the state;
- policy.py   what a player sees and the lookahead player (View); contract.py the contract.

Every card, room, token, market item and tunnel icon runs through its generated effect; the
engine decides only what the effect language leaves to it: the map's geometry and legality
of moves, whose decision it is, the order of a turn, and the dragon bag.
"""
from __future__ import annotations

import copy
from types import SimpleNamespace

from tomecraft.runtime.agents import matches, picks_from_suggestion
from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.clank_catacombs import policy
from tomecraft.runtime.engines.clank_catacombs.board import Board
from tomecraft.runtime.engines.clank_catacombs.handlers import Queries, Verbs
from tomecraft.runtime.engines.clank_catacombs.rules import Rules, reserve_piles, score
from tomecraft.runtime.engines.clank_catacombs.setup import new_state
from tomecraft.runtime.lookahead import FirstOption, copy_game
from tomecraft.runtime.engines.clank_catacombs.state import (
    KNOCKED_OUT, PILED, Cell, Player, State, rule,
)

__all__ = ["Engine", "PILED", "TURN_ACTION_CAP", "new_state", "play_game", "rule", "score"]

TURN_ACTION_CAP = 120

# Every field of a Context at its default: `Engine.ctx` copies it and sets its own (what
# Context.bind does; bind cannot take `self=`), at a fraction of the cost of the frozen
# dataclass's __init__ (a context is made for every effect run and every `can` check of the
# options offered).
_BLANK_CONTEXT = Context(engine=None).__dict__
# The last content whose handlers the engine's verbs and queries were checked against.
_CHECKED: list = [None]


class Engine(Board, Rules):
    def __init__(self, data, state: State, agents: list, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agents = agents
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        self.log_enabled = log_enabled
        if _CHECKED[0] is not data:      # once per content: a sim sets up every game from it
            check_handlers(data, self.verbs, self.queries)
            _CHECKED[0] = data
        self.cards = data.kinds["card"]
        self.rooms = data.kinds["room"]
        self.token_defs = data.kinds["token"]
        self.items = data.kinds["market_item"]
        self.icons = data.kinds["tunnel_icon"]
        self.reserve_buys, self.reserve_foes = reserve_piles(self.cards)
        self.health = rule(data, "health")
        self.track = list(rule(data, "rage_track"))
        self.hand_size = rule(data, "hand_size")
        self.row_size = rule(data, "row_size")
        self.rule_treasure_limit = rule(data, "treasure_limit")
        self.subs: list = []          # (event, where, body, ctx)
        self.watches: list = []       # (cond, body, ctx)
        self.onces: set = set()
        self.extra_cubes = 0
        self.multi_treasure = bool(rule(data, "multi_treasure"))   # 墓穴派对 (L661-665)

    # --- the Context API ---------------------------------------------------------------
    def attr(self, ctx, obj, name: str):
        if isinstance(obj, Player) and name == "treasure_limit":
            return self.treasure_limit(obj)
        if isinstance(obj, str):
            obj = self.cards.get(obj) or self.token_defs.get(obj)
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        p = ctx.you
        if kind in ("player", "opponent", "other_player"):
            players = [q for q in self.state.players if q.active]
            n = len(self.state.players)
            players.sort(key=lambda q: (q.seat - p.seat) % n if p else q.seat)
            return [q for q in players if kind == "player" or q is not p]
        if kind == "card":
            cards = {"play_area": p.play_area, "hand": p.hand, "discard_pile": p.discard,
                     "deck": p.all_cards(), "dungeon_row": self.state.row}.get(zone, [])
            return [self.cards[c] for c in cards]
        if kind == "token":
            return [self.token_defs[t] for t, n in sorted(p.tokens.items()) for _ in range(n)]
        return []

    def decide(self, ctx, key: str, options: list):
        if key.startswith("fx_tunnel_icon__monster_icon__cross"):
            # The generated availability of `choose` options is always True, so the engine
            # filters them: spend 1 combat if you have it, take 1 damage only if you may (L557).
            p = ctx.you
            options = [i for i in options if (i == 0 and p.combat >= 1)
                       or (i == 1 and self.may_take_damage(p, 1))]
        elif key.startswith("fx_token__magic_spring__passive:choose"):
            # Same limitation: offer only a zone that holds a card (discard pile, play area).
            p = ctx.you
            options = [i for i in options if (p.discard, p.play_area)[i]]
            if not options:
                return None
        return self.ask(ctx.you, key, options)

    def subscribe(self, ctx, event: str, where, body, key: str) -> None:
        self.subs.append((event, where, body, ctx))

    def watch(self, ctx, cond, body, key: str) -> None:
        self.watches.append((cond, body, ctx))

    def continuous(self, ctx, body, key: str) -> None:
        body(ctx)

    def modify(self, ctx, obj, name: str, op: str, value, key: str) -> None:
        raise EffectError("Clank! Catacombs content sets no layered values")

    def emit(self, event: str, you: Player, **fields) -> None:
        if not self.subs:                # most events fire with nobody listening
            return
        ev = None
        for name, where, body, ctx in list(self.subs):
            if name != event or ctx.you is not you:
                continue
            if ev is None:
                ev = SimpleNamespace(**fields)
            bound = ctx.bind(event=ev)
            if where is None or where(bound):
                body(bound)

    def check_watches(self) -> None:
        if not self.watches:
            return
        fired = True
        while fired:
            fired = False
            for entry in list(self.watches):
                cond, body, ctx = entry
                if ctx.you.active and cond(ctx):
                    self.watches.remove(entry)
                    body(ctx)
                    fired = True

    # --- helpers -----------------------------------------------------------------------
    def log(self, line: str) -> None:
        """Keep a line of the game's log (only when logging is on; the hot callers, run many
        times a game, check `log_enabled` before formatting their line)."""
        if self.log_enabled:
            self.state.log.append(line)

    def ask(self, p: Player, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key != "action":
            self._skip_forced_script(p, options[0])
            return options[0]
        return self.agents[p.seat].choose(key, options, policy.View(self, p))

    def _skip_forced_script(self, p: Player, only) -> None:
        """A scenario's script may name the answer to a decision that has one option (the one
        teleport destination): that scripted choice is used up here, not left for the next
        decision (where it would be refused). Agents without a script have no `choices`."""
        script = getattr(self.agents[p.seat], "choices", None) if self.agents else None
        if script and matches(script[0], only):
            script.pop(0)

    def trial(self) -> "Engine":
        """A copy of the game to try something on (runtime/lookahead.copy_game), logging
        nothing, whose players answer every decision with its first option. Neither the
        agents (a random agent's stream) nor the caches kept on the engine, the simulated
        players' (`policy_*`) and the map's (`cache_*`), are copied: the copy starts without
        them."""
        agents, self.agents = self.agents, []
        caches = {k: self.__dict__.pop(k) for k in list(self.__dict__)
                  if k.startswith(("policy_", "cache_"))}
        try:
            trial = copy_game(self)
        finally:
            self.agents = agents
            self.__dict__.update(caches)
        trial.agents = [FirstOption()] * len(agents)
        return trial

    def __deepcopy__(self, memo: dict) -> "Engine":
        """A lookahead's copy (`trial`, runtime/lookahead.copy_game): what deepcopy builds,
        except that the verb and query handlers (which hold nothing but their engine) are
        made anew for the copy instead of being reduced and rebuilt."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        fields = twin.__dict__
        for name, value in self.__dict__.items():
            if value is self.verbs or value is self.queries:
                fields[name] = type(value)(twin)
            else:
                fields[name] = copy.deepcopy(value, memo)
        return twin

    def ctx(self, p: Player, obj=None, **info) -> Context:
        ctx = object.__new__(Context)
        fields = ctx.__dict__
        fields.update(_BLANK_CONTEXT)
        fields["engine"] = self
        fields["you"] = p
        fields["self"] = obj if obj is not None else self.state.cells[p.pos]
        fields["info"] = info
        return ctx

    def cell_of(self, p: Player) -> Cell:
        return self.state.cells[p.pos]

    def shrine(self) -> Cell | None:
        return next((c for c in self.state.cells.values() if c.room.room_type == "monkey_shrine"), None)

    def exits_home(self) -> list:
        """Where players escape from: the Mausoleum's cells (the simulated players head there
        with a treasure)."""
        return self._rooms_of_type("mausoleum")

    def markets(self) -> list:
        """The cells where players may buy market items (`legal_actions` offers `buy` there)."""
        return self._rooms_of_type("market")

    def _rooms_of_type(self, room_type: str) -> list:
        """The positions of the rooms of that type on the map, in order (the map only grows:
        remembered while it keeps its size)."""
        cells = self.state.cells
        key = (room_type, len(cells))
        found = self.__dict__.setdefault("cache_room_positions", {})
        if key not in found:
            found[key] = [pos for pos, c in sorted(cells.items()) if c.room.room_type == room_type]
        return found[key]

    def discount(self, p: Player) -> int:
        """The gold a coupon the player holds would take off a purchase (0 without one)."""
        return rule(self.data, "coupon_discount") if p.tokens["coupon"] > 0 else 0

    def treasure_limit(self, p: Player) -> int:
        extra = sum(self.items[i].treasure_limit or 0 for i, _ in p.market)
        return rule(self.data, "treasure_limit") + extra

    # --- actions -------------------------------------------------------------------------
    def legal_actions(self, p: Player) -> list[dict]:
        st = self.state
        if st.over:             # the game has ended (L530, L597): no action, not even `end`
            return []
        out = self.play_options(p)
        if p.active and not st.over:
            cell = st.cells[p.pos]
            cards, skill, combat = self.cards, p.skill, p.combat
            for cid in sorted(set(st.row)):
                card = cards[cid]
                kind = card.card_type
                if kind == "acquire":
                    if skill >= card.cost:
                        out.append({"do": "acquire", "card": cid})
                elif kind == "device":
                    if skill >= card.cost:
                        out.append({"do": "use", "card": cid})
                elif kind == "monster" and combat >= card.defeat_cost \
                        and card.on_defeat.can(self.ctx(p, card)):
                    out.append({"do": "defeat", "card": cid})
            out += self.reserve_options(p)
            out += self.move_options(p)
            room = cell.room
            if room.room_type == "treasure_room":
                if cell.treasures and cell.pos not in p.taken_from \
                        and room.action.can(self.ctx(p, cell)):
                    out.append({"do": "take_treasure"})
            elif room.room_type == "market":
                out += self.buy_options(p, cell)
            elif room.action is not None and not cell.used and room.action.can(self.ctx(p, cell)):
                out.append({"do": "room"})
            tokens, defs = p.tokens, self.token_defs
            for tid in sorted(tokens):
                if tokens[tid] > 0:
                    use = defs[tid].use
                    if use is not None and use.can(self.ctx(p, defs[tid])):
                        out.append({"do": "token", "token": tid})
        if not p.hand or p.status == KNOCKED_OUT:
            out.append({"do": "end"})
        return out

    def play_options(self, p: Player) -> list[dict]:
        """The cards the player may play: one option per card in hand (`legal_actions`'
        first options); none once knocked out: the player's game is cut short at once (L605,
        rule knockout_ends_turn), while one who escaped still finishes the turn (L601)."""
        if p.status == KNOCKED_OUT:
            return []
        return [{"do": "play", "card": c} for c in sorted(set(p.hand))]

    def action_options(self, p: Player) -> list[dict]:
        """The options the turn's "action" decision offers the player's agent: every legal
        action (`legal_actions`), except for a random agent holding cards: its view suggests
        exactly the plays whenever there is one (policy.PLAYS_FIRST) and it draws among the
        suggestions (agents.picks_from_suggestion), so it is offered the plays alone, the same draw without computing the
        moves, purchases and actions it would never pick (most of a turn's decisions).
        Any other agent (a scenario's script) is offered every legal option."""
        if policy.PLAYS_FIRST and p.hand and p.status != KNOCKED_OUT \
                and picks_from_suggestion(self.agents[p.seat]):
            return self.play_options(p)
        return self.legal_actions(p)

    def buy_options(self, p: Player, market: Cell) -> list[dict]:
        """The purchases the player could make in that market room (`legal_actions` offers
        them there; the simulated players ask what a market would offer from afar)."""
        st, out = self.state, []
        for item_id in sorted(st.market):
            if st.market[item_id] and self._can_buy(p, item_id, False, market):
                out.append({"do": "buy", "item": item_id, "coupon": False})
            if st.market[item_id] and p.tokens["coupon"] and self._can_buy(p, item_id, True, market):
                out.append({"do": "buy", "item": item_id, "coupon": True})
        return out

    def _can_buy(self, p: Player, item_id: str, coupon: bool, market: Cell) -> bool:
        item = self.items[item_id]
        ctx = self.ctx(p, item, item=item_id, discount=5 if coupon else 0)
        if item.require_to_buy is not None and not item.require_to_buy.can(ctx):
            return False
        return market.room.action.can(ctx)

    def apply(self, p: Player, option: dict) -> None:
        st = self.state
        do = option["do"]
        if do == "play":
            cid = option["card"]
            p.hand.remove(cid)
            p.play_area.append(cid)
            card = self.cards[cid]
            if self.log_enabled:
                self.log(f"{p.name} plays {cid}")
            self.emit("play", p, card=card)             # before its own effect: not heard by itself
            if card.play is not None:
                card.play(self.ctx(p, card))
        elif do == "acquire":
            cid = option["card"]
            card = self.cards[cid]
            p.skill -= card.cost
            if card.card_type == "reserve":
                st.reserve[cid] -= 1
            else:
                st.row.remove(cid)
            p.discard.append(cid)
            if self.log_enabled:
                self.log(f"{p.name} acquires {cid}")
            if card.on_acquire is not None and card.card_type != "reserve":
                card.on_acquire(self.ctx(p, card))
            self.emit("acquire", p, card=card)
        elif do == "use":
            card = self.cards[option["card"]]
            p.skill -= card.cost
            st.row.remove(card.id)
            st.dungeon_discard.append(card.id)
            if self.log_enabled:
                self.log(f"{p.name} uses {card.id}")
            card.on_use(self.ctx(p, card))
        elif do == "defeat":
            card = self.cards[option["card"]]
            p.combat -= card.defeat_cost
            if not card.never_discarded:      # to the dungeon discard pile (L310, rules.leaves_to)
                if card.card_type == "reserve":
                    st.reserve[card.id] -= 1      # a pack's reserve monster that leaves its pile
                else:
                    st.row.remove(card.id)
                st.dungeon_discard.append(card.id)
            if self.log_enabled:
                self.log(f"{p.name} defeats {card.id}")
            card.on_defeat(self.ctx(p, card))
            self.emit("defeat", p, card=card)
        elif do == "move":
            self.do_move(p, option)
        elif do == "explore":
            self.explore(p, option["edge"])
        elif do == "take_treasure":
            cell = self.cell_of(p)
            cell.room.action(self.ctx(p, cell))
        elif do == "room":
            cell = self.cell_of(p)
            if cell.room.action(self.ctx(p, cell)) and cell.room.once_per_game:
                cell.used = True
        elif do == "buy":
            cell = self.cell_of(p)
            ctx = self.ctx(p, cell, item=option["item"])
            if option.get("coupon"):
                p.tokens["coupon"] -= 1
                ctx.info["discount"] = rule(self.data, "coupon_discount")
            if not cell.room.action(ctx):
                raise EffectError(f"{p.name} cannot buy {option['item']}")
        elif do == "token":
            t = self.token_defs[option["token"]]
            if t.use(self.ctx(p, t, cell=self.cell_of(p))):
                p.tokens[t.id] -= 1
        elif do != "end":
            raise EffectError(f"unknown action {option!r}")
        self.check_watches()

    # --- turns ---------------------------------------------------------------------------
    def play_turn(self, p: Player) -> None:
        if not p.active:
            self.out_turn(p)
            return
        for _ in range(TURN_ACTION_CAP):
            if self.state.over:
                return
            options = self.action_options(p)
            choice = self.ask(p, "action", options)
            if choice["do"] == "end":
                break
            self.apply(p, choice)
            if p.status == KNOCKED_OUT or (not p.active and not p.hand):
                break
        self.end_turn(p)

    def out_turn(self, p: Player) -> None:
        """L617: cubes to the bag, draw 4 (6 with 2 players), ignoring rage and danger."""
        self.fill_bag()
        players = len(self.state.players)
        which = "out_draw_two_players" if players == 2 else "out_draw"
        if players > 4 and "party_out_draw" in self.data.kinds["rule"]:
            which = "party_out_draw"
        n = rule(self.data, which)
        self.log(f"{p.name} is out: the dragon draws {n}")
        self.draw_from_bag(n, attack=False)

    def end_turn(self, p: Player) -> None:
        st = self.state
        self.emit("turn_end", p)                        # gap 30: the spring, before the refill
        p.tokens["magic_spring"] -= p.spring             # ... then back to the box
        p.spring = 0
        p.discard += p.play_area
        p.play_area = []
        p.discard += p.hand
        p.hand = []
        if p.status != KNOCKED_OUT:
            self.draw(p, self.hand_size)
        p.skill = p.combat = p.movement = 0
        p.clank_gained = p.neg_bank = 0
        p.no_movement = False
        p.reverse_this_turn = False
        p.rewards = set()
        self.subs.clear()
        self.watches.clear()
        self.onces = {o for o in self.onces if o[0] != "turn"}
        if st.over:
            return
        self.refill()
        self.check_everyone_out()                       # the last one out finished the turn

    def refill(self) -> None:
        st = self.state
        need = self.row_size - len(st.row)
        if need > len(st.dungeon_deck):
            self.end_game("the dungeon deck cannot refill the row")
            return
        attack = False
        for _ in range(need):
            cid = st.dungeon_deck.pop()
            st.row.append(cid)
            card = self.cards[cid]
            if self.log_enabled:
                self.log(f"{cid} arrives in the row")
            if card.on_arrive is not None:
                card.on_arrive(self.ctx(st.players[st.current], card))
            self.emit("arrive", st.players[st.current], card=card)
            attack = attack or bool(card.dragon_attack)
        if attack:
            self.dragon_attack()

    def setup_arrivals(self) -> None:
        """L496: the arrive effects of the cards dealt to the row at setup, before the start
        player's first turn (`play_game`; a scenario's `new_game`)."""
        st = self.state
        for cid in list(st.row):
            card = self.cards[cid]
            if card.on_arrive is not None:
                card.on_arrive(self.ctx(st.players[0], card))

    def play(self, cap: int) -> dict:
        st = self.state
        capped = False
        while not st.over:
            for seat in range(len(st.players)):
                st.current = seat
                self.play_turn(st.players[seat])
                if st.over or all(not q.active for q in st.players):
                    break
            self.check_everyone_out()
            if st.over:
                break
            st.round += 1
            if st.round > cap:
                capped = True
                break
        result = score(self)
        result.update(rounds=st.round, capped=capped, end=st.end_reason)
        return result


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    options = options or {}
    state = new_state(data, players, rng.fork("setup"), options.get("side"))
    engine = Engine(data, state, agents, log_enabled=bool(options.get("log")))
    engine.rng = rng.fork("play")
    engine.setup_arrivals()
    result = engine.play(options.get("round_cap", rule(data, "round_cap")))
    if options.get("log"):
        result["log"] = list(state.log)
    return result
