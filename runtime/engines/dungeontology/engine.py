"""Dungeontology's engine: the turn (thesis, rest, movement, action, end of turn), scheme
cards played and resolved, rest, thesis, Maximum Alert, the end and final scoring.

The layout, imports pointing one way (engine -> the rest -> state):
- engine.py    the Engine and the turn structure; `play_game`;
- triggers.py  the Context API and the triggers effects register (mixin EffectHost);
- campus.py    students, the University bag, scheme cards (their priority round), the
               notebook (mixin Campus);
- dungeon.py   geometry, exploring, moving, entering, the boss (mixin Dungeon);
- attempts.py  research and spying, the stealth attempts (mixin Attempts);
- actions.py   the action phase's options and the action carried out, scheme cards played
               and resolved (mixin Actions);
- handlers.py  the verbs and queries game.yaml names; setup.py a new game; state.py the state;
- policy.py    what a player sees and the heuristic (View); contract.py the engine contract.

Every region effect, token, skill, boss text and card effect runs through the generated
effects. Region keywords are effect snippets (game.yaml): running a region's effects registers
triggers (`on enter_region`, `on stealth_value`, ...) that the engine collects and fires at
the right moment, so a keyword added by a pack works with no engine change. The engine decides
only what the effect language leaves to it: geometry, turn order, who decides, and the rules
procedures of the rulebook (inventory §9). Rule decisions are `rule` entities in
content/dungeontology/rules.yaml.
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.agents import RandomAgent, picks_from_suggestion, took_unasked
from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.dungeontology.actions import Actions
from tomecraft.runtime.engines.dungeontology.attempts import Attempts
from tomecraft.runtime.engines.dungeontology.campus import Campus
from tomecraft.runtime.engines.dungeontology.draws import choice
from tomecraft.runtime.engines.dungeontology.dungeon import Dungeon
from tomecraft.runtime.engines.dungeontology.handlers import Queries, Verbs
from tomecraft.runtime.engines.dungeontology.policy import STAY, View
from tomecraft.runtime.engines.dungeontology.setup import deal, new_state
from tomecraft.runtime.engines.dungeontology.state import (
    COLOURS, THESIS_BONUS, Scholar, State, Tile,
)
from tomecraft.runtime.engines.dungeontology.triggers import EffectHost, Watched

__all__ = ["Engine", "ROUND_CAP", "deal", "new_state", "play_game"]

_set_field = object.__setattr__
ROUND_CAP = 120            # R-cap: a safety cap; a capped game is reported by the sim


class Engine(EffectHost, Campus, Dungeon, Attempts, Actions):
    def __init__(self, data, state: State, agents: list, rng, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agents = agents
        self.rng = rng
        self.log_enabled = log_enabled
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        check_handlers(data, self.verbs, self.queries)
        self._watched = (Watched(self, self.verbs), Watched(self, self.queries))
        self._naming_passages = (Watched(self, self.verbs, ("use_secret_passage",)), self._watched[1])
        self._letters: dict = {}             # see Dungeon.letters
        self._read = False                   # an effect being collected read or did something
        self._registrations: dict = {}       # see `registered`
        self.notebook = next(iter(data.kinds["notebook"].values()))
        self.columns = {c.colour: c for c in self.notebook.columns}
        self._marks: dict = {}               # see Campus.marks
        self._marks_kept: dict = {}          # see Campus.marks_of
        self._columns: dict = {}             # see Campus.column
        self._staminas: dict = {}            # see `stamina`
        self._lore_needs: dict = {}          # see Campus.lore_reached
        self._scheme_cards = data.kinds["scheme_card"]
        self.card_tables()
        self._action_skills: dict = {}       # see `action_skills`
        self._row_penalties = (None, ())     # see Campus.research_penalty
        self._boss_alert = (None, 0)         # see Attempts.region_alert
        self._scoring = None                 # see Campus.scoring
        self._capacities: dict = {}          # see Campus.targets
        self._clan_mods = (None, ())         # see Campus.clan_modifiers
        self._views: dict = {}               # see `ask`
        self._tile_kept: dict = {}           # see EffectHost.tile_triggers
        self._skills_kept: dict = {}         # see EffectHost.skill_triggers
        self._lasting_interns = {i for i, card in data.kinds.get("intern_card", {}).items()
                                 if card.effect is not None}
        self._links, self._links_version = {}, None     # see Dungeon.links
        self._distances = None               # see Dungeon.distances
        self._by_id = (None, 0, {})          # see Dungeon.tile_by_id
        self._blank = Context(engine=self)   # `ctx` copies its fields: cheaper than Context(...)
        self._blank_fields = dict(self._blank.__dict__)     # a plain dict (see `ctx`)
        self.units = {b.colour: b.unit_value for b in data.kinds["info_block"].values()}
        self.rules = {r.id: r.value for r in data.kinds.get("rule", {}).values()}
        self.dry = False
        self.entry_forbidden = False
        self.wants_rest = False
        self.moving_stopped = False
        self.rested = False                  # a rest ends the turn (L649)
        self.ownerless = False               # an effect nobody plays (the panic card)
        self.refused = False
        self.attempt: dict | None = None
        self.last_prophecy = 0
        self.last_drawn = 0                  # students the last University draw brought
        self.passage_letters: list = []
        self._collecting: list | None = None
        self.dropped: list = []              # (tile, slot, colour) of the last drop (L1331)
        self._once: set = set()
        self.affected: set = set()           # (skill user, target) seats this turn (铁头功, L307)
        self.bonus_points = Counter()
        self.resolving = None                # the pending card being resolved (T-23)
        self.pending_cards: list = []
        self.fixed_randomizer = False        # scenarios give the randomizer deck's order
        self.last_attempt: dict | None = None
        self.progress = 0                    # moves, actions and cards: Max Alert step 3
        self.scored = False                  # `final_scoring` has fired (once a game)

    # --- helpers -----------------------------------------------------------------------
    def log(self, line: str) -> None:
        if self.log_enabled:
            self.state.log.append(line)

    def ask(self, who: Scholar, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        agent = self.agents[who.seat]
        if len(options) == 1 and key != "action" and key != "move":
            return took_unasked(agent, key, options[0])   # (scripts: used up)
        view = self._views.get(id(who))      # `view`, inlined: every decision
        if view is None or view._me is not who:
            view = self.view(who)
        if type(agent) is RandomAgent:       # its `choose` without the call: the same draw,
            preferred = view.suggest(key, options) or options
            # but none for a single suggestion (the answer is the same, the draw is not needed)
            return preferred[0] if len(preferred) == 1 else choice(agent.rng, preferred)
        return agent.choose(key, options, view)

    def view(self, who: Scholar) -> View:
        view = self._views.get(id(who))      # a View reads the game live: one per scholar
        if view is None or view._me is not who:     # (it holds him: his id is not reused)
            view = self._views[id(who)] = View(self, who)
        return view

    def wanted(self, who: Scholar, key: str) -> frozenset | None:
        """The option kinds `who`'s agent can pick for `key` (`View.wanted`) when it picks among
        the view's suggestions, so that only those are worked out; None: any may be picked."""
        agent = self.agents[who.seat]
        if type(agent) is not RandomAgent and not picks_from_suggestion(agent):
            return None                      # a script or a person may pick anything legal
        view = self._views.get(id(who))      # `view`, inlined: every decision
        if view is None or view._me is not who:
            view = self.view(who)
        return view.wanted(key)

    def ctx(self, who: Scholar, tile: Tile | None = None, **info) -> Context:
        """A Context for `who` at `tile` (not `bind`: one per option checked). Its fields are
        a copy of a plain dict given as its __dict__: a dict filled through `copy.__dict__`
        shares the class's keys, and every field read of such a context misses CPython's
        fast path (4x dearer: the effects read `you` and `engine` at every step)."""
        copy = object.__new__(Context)
        fields = self._blank_fields.copy()
        fields["you"], fields["self"], fields["info"] = who, tile, info    # **info: a new dict
        _set_field(copy, "__dict__", fields)   # (Context is frozen)
        return copy

    def card(self, cid: str):
        return self._scheme_cards[cid]

    def cards_of(self, who: Scholar, card_type: str) -> int:
        cards = self._scheme_cards
        return sum(1 for c in who.hand if cards[c].card_type == card_type)

    def tile_of(self, who: Scholar) -> Tile:
        return self.state.tiles[who.pos]

    def in_start(self, who: Scholar) -> bool:
        return bool(self.state.tiles[who.pos].region.start)

    def stamina(self, who: Scholar) -> int:
        """The stun cap of the scholar's side, kept while its card and side stay (read at
        every turn, stun and rest check)."""
        kept = self._staminas.get(id(who))
        if kept is None or kept[0] is not who or kept[1] is not who.card or kept[2] != who.side:
            kept = self._staminas[id(who)] = (who, who.card, who.side, who.stats().stamina)
        return kept[3]

    def scholar_at(self, pos) -> list[Scholar]:
        return [s for s in self.state.scholars if s.pos == pos and not s.done]

    # --- rest, thesis, Max Alert -------------------------------------------------------
    def rest(self, who: Scholar, move_to_start: bool = True) -> None:
        """L640-653."""
        if self.state.max_alert:
            return
        if move_to_start:
            who.pos = self.state.start_pos()
        who.stun = 0
        self.rest_doom(who)
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
        self.fire(self.skill_triggers(who, "rest_phase"), "rest_phase")     # steps 1-5 done (L640-650)
        self.state.stats["rests"] += 1
        self.rested = True                   # step 6: the rest ends the turn (L649, rule g07)
        self.log(f"{who.name} rests")

    def rest_doom(self, who: Scholar) -> None:
        """Rest step 3 (L646): one doom card is discarded, its owner's choice among the revealed
        ones; a face-down one (not to be looked at, L1240) only when none is revealed."""
        if who.dooms:
            doom = self.ask(who, "rest_doom", sorted(set(who.dooms)))
            who.dooms.remove(doom)
        elif who.dooms_hidden:
            doom = who.dooms_hidden.pop()
        else:
            return
        self.state.doom_deck.insert(0, doom)

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
            value = {c: self.units[c] + (mods[c] or 0) for c in owned}
            tied = sorted((c for c in owned if value[c] == max(value.values())),
                          key=lambda c: -self.units[c])
            worst = self.ask(who, "thesis_loss", tied)   # a tie: the scholar removes (L630)
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
        for s in st.scholars:                # (loops, not generators: checked after every
            if not s.done:                   # move, action and turn)
                break
        else:
            self.end("all_done")
            return
        if (st.max_alert or not any(st.stacks.values())) and not self.blocks_left():
            self.end("no_blocks")          # L1134 / Max Alert (the stacks, cheaper, first)

    def blocks_left(self) -> bool:
        """Whether any placed region holds an info block."""
        for tile in reversed(self.state.tiles.values()):    # the latest placed hold the most
            slots = tile.slots
            if slots.count(None) < len(slots):
                return True
        return False

    # --- turn --------------------------------------------------------------------------
    def turn(self, who: Scholar) -> None:
        st = self.state
        self._once, self.affected = set(), set()
        self.rested = False
        if self.log_enabled:            # not formatted for nothing: a hot line
            self.log(f"-- round {st.round}: {who.name}")
        # 1. thesis submission (not in Max Alert, L1160)
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
            choice = self.move_choice(who)
            if choice is None or choice["do"] == "stay":
                break
            if choice["do"] in ("card", "aux"):
                self.play_card(who, choice["card"], "main" if choice["do"] == "card" else "auxiliary")
            else:
                self.do_move(who, choice)
            self.check_end()                 # a card may collect the last block (L1134)
        who.steps = 0
        if st.ended or self.rested:
            return
        # 4. action: the one action, and non-action scheme cards around it (L436-440, L592)
        who.actions = 1
        self.fire(self.skill_triggers(who, "action_phase"), "action_phase")
        while not st.ended and not who.done and not self.rested:
            options = self.action_options(who, self.wanted(who, "action"))
            if len(options) == 1:
                break                        # only "pass" is left
            choice = self.ask(who, "action", options)
            if choice["do"] == "pass":
                break
            self.do_action(who, choice)
            self.check_end()                 # no blocks left: the game ends at once (L1134)
        who.actions = 0
        if st.ended or self.rested:
            return                           # a Camp's rest ends the turn (L828, L649)
        self.end_of_turn(who)

    def move_choice(self, who: Scholar, cards: bool = True) -> dict | None:
        """The movement phase's next option (with `cards`, the scheme cards playable there);
        None when nothing is left to do (no one is asked). Only what the agent can pick is
        worked out (`wanted`): a scholar staying by the blocks he came for needs no way out;
        one on his way first the ways his suggestion prefers (`ways_wanted`), the cards only
        if there is no way to go (his suggestion is then empty: any option)."""
        kinds = self.wanted(who, "move")
        moving = not self.moving_stopped
        if kinds is None:
            options = (self.move_options(who) if moving else []) + (self.free_options(who) if cards else [])
        elif kinds == STAY:
            return None
        else:
            ways = self.ways_wanted(who) if moving else []
            agent = self.agents[who.seat]
            if ways and not self.state.max_alert and type(agent) is RandomAgent:
                # View._move suggests these ways, all of them, in this order (those into a
                # region worth entering, else exploring, else any: as `ways_wanted` found
                # them): a random agent's pick among them, as `ask` would make it
                return ways[0] if len(ways) == 1 else choice(agent.rng, ways)
            options = ways or (self.free_options(who) if cards else [])
        return self.ask(who, "move", options + [{"do": "stay"}]) if options else None

    def ways_wanted(self, who: Scholar) -> list:
        """The move options the view's suggestion picks among: in Maximum Alert all of them
        (it takes those toward the start region); else those into a region worth entering,
        or exploring, or any way (View.suggest's order): the better ones found, the others
        are not checked."""
        if self.state.max_alert:             # the suggestion finds the closer ones (one search)
            return self.move_options(who)
        return self.move_options(who, self.view(who).worth_entering) or self.explore_options(who) \
            or self.move_options(who)

    def end_of_turn(self, who: Scholar) -> None:
        """L1082-1102, and the Max Alert thesis from the start region (L1160)."""
        st = self.state
        while who.dooms_hidden:
            doom = self.data.get("doom_card", who.dooms_hidden.pop())
            who.dooms.append(doom.id)
            self.log(f"{who.name} reveals the doom card {doom.id}")
            if doom.on_reveal is not None and not self.in_start(who):   # L729: no effect there
                doom.on_reveal(self.ctx(who, self.tile_of(who)))
        self.fire([] if self.in_start(who) else self.skill_triggers(who, "turn_end"), "turn_end")  # L729
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
            self.fire(self.skill_triggers(who, "final_scoring"), "final_scoring")

    def winners(self) -> list[int]:
        """Ties: first thesis, then more students, then the youngest (R-27: seats share)."""
        scores = self.final_scores()

        def key(s):
            return (scores[s.seat], -(s.thesis_order or 99), s.students)
        best = max(key(s) for s in self.state.scholars)
        return [s.seat for s in self.state.scholars if key(s) == best]


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
