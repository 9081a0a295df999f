"""Dungeontology's action phase (L592, L436-452): the options of a scholar's one action and the
scheme cards that cost none, carrying out the action chosen, and scheme cards played and
resolved (their priority round is Campus.priority_round).

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from tomecraft.runtime.engines.dungeontology.state import Scholar


class Actions:
    def action_options(self, who: Scholar, kinds: frozenset | None = None) -> list:
        """The action, plus the scheme cards that cost none (no 行动 mark, L436-440, L592);
        with `kinds` (Engine.wanted) only the actions of those kinds and research, and no
        auxiliary effects: the view names kinds only where research is offered, and then its
        suggestion (View._action) is never empty and holds no auxiliary effect."""
        out = [{"do": "pass"}]
        if who.actions > 0:
            out += self.main_actions(who, kinds)
        return out + self.free_options(who, aux=kinds is None)

    def main_actions(self, who: Scholar, kinds: frozenset | None = None) -> list:
        out = self.research_options(who)
        if kinds is None or "spy" in kinds:
            out += self.spy_targets(who)
        if kinds is None or "card" in kinds:
            out += self.card_actions(who)
        if kinds is not None and kinds.isdisjoint(("region", "skill")):
            return out                       # none of the others would be picked
        tile = self.state.tiles[who.pos]
        for i, (name, where, body, ctx) in enumerate(self.tile_triggers(tile, who)
                                                     if kinds is None or "region" in kinds else ()):
            if name != "region_action":
                continue
            ctx = self.runnable(ctx)
            if (where is None or where(ctx)) and not (self.state.max_alert and self.rests_when(body, ctx)):
                out.append({"do": "region", "index": i})
        if tile.region.start:
            return out        # no effect touches a scholar in the start region (L729): no skill
        for skill_id, effect in self.action_skills(who.stats()):
            if effect.can(self.ctx(who, who)):
                out.append({"do": "skill", "id": skill_id})
        return out

    def card_actions(self, who: Scholar) -> list:
        """The scheme cards whose main effect is an action (行动) `who` can play now."""
        tile = self.state.tiles[who.pos]
        if tile.region.start:
            return []
        out, cards, ctx = [], self._scheme_cards, None
        for cid in sorted(set(who.hand)):
            card = cards[cid]
            if card.action and card.main is not None \
                    and card.main.can(ctx or (ctx := self.ctx(who, tile))):    # one for all
                out.append({"do": "card", "card": cid})
        return out

    def action_skills(self, side) -> list:
        """(id, effect) of a scholar side's action skills (read at every action choice; sides
        never change, their skills' fields are read once a game: a Record's read is dear)."""
        return self.skill_table(side)[0]

    def skill_effect(self, side, skill_id: str):
        """The effect of the side's first skill of that id."""
        return self.skill_table(side)[1][skill_id]

    def skill_table(self, side) -> tuple:
        kept = self._action_skills.get(id(side))
        if kept is None or kept[0] is not side:
            by_id: dict = {}
            for s in side.skills:
                by_id.setdefault(s.id, s.effect)
            acting = [(s.id, s.effect) for s in side.skills if s.timing == "action"]
            kept = self._action_skills[id(side)] = (side, (acting, by_id))
        return kept[1]

    def rests_when(self, body, ctx) -> bool:
        """Whether a region action is a rest (no rest in Maximum Alert, L1161)."""
        self.dry, self.wants_rest = True, False
        who = ctx.you
        students, stun = who.students, who.stun      # a dry run may count them (handlers)
        try:
            body(ctx)
            return self.wants_rest
        finally:
            self.dry = False
            who.students, who.stun = students, stun

    def play_card(self, who: Scholar, cid: str, part: str) -> None:
        """L446-452 (rule c13, T-23): after the active card, a priority round clockwise from the
        left neighbour lets each player add 1 Instant or Response card at a time until all pass;
        Responses resolve first, latest first; the other cards then in the order played."""
        who.hand.remove(cid)
        self.state.discard.append(cid)
        if self.log_enabled:            # not formatted for nothing: a hot line
            self.log(f"{who.name} plays {cid} ({part})")
        pending = [{"who": who, "card": cid, "part": part, "answers": None, "cancelled": False}]
        if self.priority_players(who):
            self.priority_round(who, pending)
        cards = self._scheme_cards
        responses = [p for p in pending if cards[p["card"]].timing == "response" and p is not pending[0]]
        order = responses[::-1] + [p for p in pending if p not in responses]
        for entry in order:
            self.resolve_card(entry, pending)

    def cancel_answered(self) -> None:
        entry = self.resolving
        if entry is None or entry["answers"] is None:
            return
        target = self.pending_cards[entry["answers"]]
        target["cancelled"] = True
        self.log(f"{entry['card']} cancels {target['card']}")

    def resolve_card(self, entry: dict, pending: list) -> None:
        if entry["cancelled"]:
            self.log(f"{entry['card']} is cancelled")
            return
        who, cid, part = entry["who"], entry["card"], entry["part"]
        card = self.card(cid)
        self.state.stats[f"played_{part}"] += 1
        if self.log_enabled:            # not formatted for nothing: a hot line
            self.log(f"{cid} resolves")
        saved = (self.resolving, self.pending_cards)
        self.resolving, self.pending_cards = entry, pending
        try:
            getattr(card, part)(self.ctx(who, self.state.tiles[who.pos]))
        finally:
            self.resolving, self.pending_cards = saved
        if part == "main":
            self.take_intern(who, card)

    def do_action(self, who: Scholar, choice: dict) -> None:
        kind = choice["do"]
        self.progress += 1
        if kind == "aux":                    # an auxiliary effect never costs the action
            self.play_card(who, choice["card"], "auxiliary")
            return
        if kind == "card" and not self.card(choice["card"]).action:
            self.state.stats["free_cards_in_action_phase"] += 1
            self.play_card(who, choice["card"], "main")      # no 行动 mark: free (L440)
            return
        who.actions -= 1
        if kind == "research":
            self.research(who, choice["blocks"])
        elif kind == "spy":
            self.spy(who, self.state.scholars[choice["target"]], choice["colour"])
        elif kind == "card":
            self.play_card(who, choice["card"], "main")
        elif kind == "region":
            tile = self.tile_of(who)
            name, where, body, ctx = self.tile_triggers(tile, who)[choice["index"]]
            self.state.stats["region_actions"] += 1
            self.fire([(name, where, body, ctx)], "region_action")
        elif kind == "skill":
            effect = self.skill_effect(who.stats(), choice["id"])
            self.state.stats[f"skill_{choice['id']}"] += 1
            effect(self.ctx(who, who))
