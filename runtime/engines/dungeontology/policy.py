"""What an agent may see (`View`), and the simple heuristic random agents prefer (`suggest`).

Hidden information (inventory §9.16) stays out of the view: the clan card (visible only to a
scholar holding the lore token), face-down doom cards (not even their owner), the panic card
until it is revealed, other scholars' hands (only their sizes), the scheme deck's order and
the University bag (players may never count it, L1234).
"""
from __future__ import annotations

from tomecraft.runtime.engines.dungeontology.state import COLOURS
from tomecraft.runtime.engines.dungeontology.trials import Weights, skill_gain


# the option kinds a suggestion picks among (`View.wanted`)
GO_BACK = frozenset(("move", "passage", "stay"))       # in Maximum Alert, toward the start
STAY = frozenset(("stay",))                            # by blocks to research
WAYS = ("move", "passage")                             # options naming the region entered
GO = frozenset(("move", "explore", "passage"))         # to find some
RESEARCH_OR_CARD = frozenset(("research", "card"))
RESEARCH_SPY_OR_CARD = frozenset(("research", "spy", "card", "skill"))   # skills: by trial
NOTHING = frozenset()
ACTING = ("spy", "skill", "card", "region")            # actions, no research: any of them


class View:
    __slots__ = ("_engine", "_me")

    def __init__(self, engine, me) -> None:
        self._engine = engine
        self._me = me

    # --- what the agent's own scholar knows ----------------------------------------------
    @property
    def seat(self) -> int:
        return self._me.seat

    @property
    def hand(self) -> tuple:
        return tuple(self._me.hand)

    def clan(self):
        """The clan card, only with the lore token (L636)."""
        return self._engine.state.clan if self._me.lore else None

    # --- public information ----------------------------------------------------------------
    def scholars(self) -> list[dict]:
        e = self._engine
        return [{"seat": s.seat, "scholar": s.card.id, "side": s.side, "region": e.tile_of(s).id,
                 "students": s.students, "stun": s.stun, "hand_size": len(s.hand),
                 "notebook": {c: s.notebook[c] for c in COLOURS}, "stars": e.stars(s),
                 "dooms_face_down": len(s.dooms_hidden), "dooms": list(s.dooms), "done": s.done}
                for s in e.state.scholars]

    def regions(self) -> list[dict]:
        return [{"region": t.id, "at": t.pos, "blocks": [c for _, c in t.blocks()]}
                for t in self._engine.state.tiles.values()]

    def campus(self) -> dict:
        st = self._engine.state
        return {"bonfire": st.bonfire, "alert_card": st.alert_card.id if st.alert_card else None,
                "omegas_on_alert_card": st.alert_filled, "max_alert": st.max_alert,
                "panic": st.panic.id if st.panic_revealed else None}

    def attempt(self) -> dict | None:
        a = self._engine.attempt
        if a is None:
            return None
        return {"kind": a["kind"], "by": a["by"].seat, "stealth": a["stealth"], "alert": a["alert"]}

    # --- heuristic ---------------------------------------------------------------------
    def wanted(self, key: str) -> frozenset | None:
        """The option kinds ("do") `suggest` picks among for `key`, read before the options
        are worked out (Engine.wanted builds only those); None: it may pick any; an empty
        set: it declines whatever is offered (answers None)."""
        e, me = self._engine, self._me
        if key == "move":
            if e.state.max_alert:
                return GO_BACK
            return STAY if self.stays() else GO
        if key == "action":
            if me.actions > 0 and self.can_research():
                return RESEARCH_SPY_OR_CARD if self.spy_reach() is not None else RESEARCH_OR_CARD
            return None
        if key == "stealth_aux":
            a = e.attempt
            if a is not None and self.aux_helps(a) is False:
                return NOTHING
        return None

    def can_research(self) -> bool:
        """Whether research is offered (Attempts.research_options has one of 1 block)."""
        e, me = self._engine, self._me
        tile = e.state.tiles[me.pos]
        return not tile.region.start and bool(me.hand) and me.stats().intellect > 0 \
            and bool(e.targets(me, tile, 1))

    def stays(self) -> bool:
        """Blocks left here (`blocks`) keep the scholar where he is, out of the start region."""
        here = self._engine.state.tiles[self._me.pos]
        return here.slots.count(None) < len(here.slots) and not here.region.start

    def aux_helps(self, a: dict) -> bool:
        """Whether an auxiliary effect now serves this scholar: his own attempt short of the
        alert, or a rival's attempt that would succeed."""
        mine = a["by"] is self._me
        return (mine and a["stealth"] < a["alert"]) or (not mine and a["stealth"] >= a["alert"])

    def suggest(self, key: str, options: list) -> list:
        by_key = _SUGGESTIONS.get(key)       # one lookup: asked at every decision
        return by_key(self, options) if by_key is not None else []

    def _thesis(self, options: list) -> list:
        e, me = self._engine, self._me
        clan = self.clan()
        score = e.clan_score(me) if clan is not None else e.notebook_score(me)
        target = clan.target if clan is not None else 22
        return [score >= target]

    def _rest(self, options: list) -> list:
        me = self._me
        return [me.stun >= self._engine.stamina(me) - 1 or not me.hand]

    def _avoid_stun(self, options: list) -> list:
        return [self._me.students >= 2]

    def _boss_target(self, options: list) -> list:
        me = self._me                            # the boss is sent after a rival (L1315): the
        return [s for s in options if s is not me]   # one he names suffers him (L1300)

    def _rest_doom(self, options: list) -> list:     # the heaviest penalty goes
        e = self._engine
        worst = max(e.data.get("doom_card", d).penalty for d in options)
        return [d for d in options if e.data.get("doom_card", d).penalty == worst]

    def _discard_card(self, options: list) -> list:     # the lowest printed bonus goes
        bonus = self._engine.best_bonus
        least = min(bonus[c] for c in options)
        return [c for c in options if bonus[c] == least]

    def _stealth_card(self, options: list) -> list:
        a = self._engine.attempt
        if a is None:
            return []
        if a["stealth"] >= a["alert"]:
            return [o for o in options if o.get("card") is None]
        weighed = [(self.card_bonus(o), o) for o in options if o.get("card") is not None]
        best = max(bonus for bonus, _ in weighed)     # the fewest cards spent (heuristic)
        return [o for bonus, o in weighed if bonus == best]

    def _stealth_aux(self, options: list) -> list:
        a = self._engine.attempt
        if a is None:
            return []
        if self.aux_helps(a):
            return [o for o in options if o is not None]
        return [None]

    def _action(self, options: list) -> list:
        research = [o for o in options if o["do"] == "research" and o["blocks"] <= 2]
        if not research:
            acting = [o for o in options if o["do"] in ACTING]
            skills = self.skills_worth(acting)
            worth = [o for o in acting if o["do"] != "skill" or o in skills]
            return worth or ([o for o in options if o["do"] == "pass"] if acting else [])
        # spying instead, where the hand cannot reach researching's alert and reaches the
        # spy's (heuristic: printed bonuses and alerts, before any card or skill effect)
        reach, spies = self.spy_reach(), []
        if reach is not None:
            spies = [o for o in options if o["do"] == "spy" and self.spy_alert(o) <= reach]
            research = [] if spies else research
        # where the hand falls short of researching's alert, an action skill is one of the
        # actions worth the turn when what it does, tried out (trials.skill_gain), is worth
        # more than it costs (where the hand reaches it, researching is: a block for cards
        # the turn's end replaces, L1087)
        skills = self.skills_worth(options) if reach is not None else []
        # a non-action scheme card costs no action (L440): play it around the action; an
        # action scheme card's main effect is weighed like research: whatever it does (a
        # pack's card too), it is one of the actions worth the turn
        e, acts, free = self._engine, [], []
        acting, responses = e.action_cards, e.response_cards
        for o in options:
            if o["do"] == "card":
                if o["card"] in acting:
                    acts.append(o)
                elif o["card"] not in responses:
                    free.append(o)
        return research + spies + acts + skills + free

    def skills_worth(self, options: list) -> list:
        """The action skills among `options` whose trial gain (trials.skill_gain: what the
        skill does less what it costs, in points of the player's standing) is above 0."""
        skills = [o for o in options if o["do"] == "skill"]
        if not skills:
            return skills
        e, me = self._engine, self._me
        weights = Weights(e, me)
        return [o for o in skills if (skill_gain(e, me, o, weights) or 0.0) > 0.0]

    def _move(self, options: list) -> list:
        e = self._engine
        stay = [o for o in options if o["do"] == "stay"]
        if e.state.max_alert:
            closer = self.closer_to_start()
            return [o for o in options if o["do"] in WAYS and closer(e.tile_by_id(o["to"]))] or stay
        if self.stays():
            return stay
        ways = [o for o in options if o["do"] in WAYS]
        return [o for o in ways if self.worth_entering(e.tile_by_id(o["to"]))] \
            or [o for o in options if o["do"] == "explore"] or ways

    def research_alert(self) -> int:
        """The alert of researching one block here (Attempts.research), before any effect."""
        e = self._engine
        return e.region_alert(e.state.tiles[self._me.pos]) + e.research_penalty()

    def spy_alert(self, option: dict) -> int:
        """The alert of a spy option (Attempts.spy), before any effect."""
        e = self._engine
        return e.units[option["colour"]] + e.state.scholars[option["target"]].students

    def spy_reach(self) -> int | None:
        """The stealth the hand's printed bonuses reach, where it is short of researching's
        alert here (then spying is weighed); None where research is within reach."""
        e, me = self._engine, self._me
        reach = sum(map(e.best_bonus.__getitem__, me.hand))
        alert = self.research_alert()
        return reach if reach < alert and reach + e.research_bonus(me) < alert else None

    def card_bonus(self, option: dict) -> int:
        """A stealth option's printed bonus (skills that change it on play are not counted)."""
        bonus, fate = self._engine.card_bonuses[option["card"]]
        return fate if option["fate"] and fate else bonus

    # --- where to go (heuristic) ----------------------------------------------------------
    def worth_entering(self, tile) -> bool:
        """A region holding a block this scholar can still put in his notebook (`targets`):
        the nearest research, preferred to exploring, preferred to any other way."""
        return not tile.region.start and bool(self._engine.targets(self._me, tile, 1))

    def closer_to_start(self):
        """Whether a region is fewer steps from the start region than this scholar's (one
        search a decision: in Maximum Alert he goes back to submit, L1160)."""
        e = self._engine
        steps = e.distances(e.state.start_pos())
        here = steps.get(self._me.pos, len(e.state.tiles))
        return lambda tile: steps.get(tile.pos, here) < here


# what `suggest` answers, by decision key (none listed: no suggestion, any option)
_SUGGESTIONS = {
    "thesis": View._thesis, "rest": View._rest, "avoid_stun": View._avoid_stun,
    "boss_target": View._boss_target, "rest_discard": lambda view, options: [False],
    "refuse_loss": lambda view, options: [True], "rest_doom": View._rest_doom,
    "thesis_loss": lambda view, options: options[:1],     # the highest unit value first
    "stealth_card": View._stealth_card, "stealth_aux": View._stealth_aux,
    "action": View._action, "move": View._move, "discard_card": View._discard_card,
}
