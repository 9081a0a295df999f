"""The verb and query handlers game.yaml names; generated effects call them through ctx.

`ctx.you` is the acting Team, `ctx.self` the tile concerned (the tile being entered, or the
team's tile for actions), `ctx.target` the tile moved from, `ctx.info["edge"]` the edge
crossed.
"""
from __future__ import annotations

from tomecraft.runtime.engines.the_cave import rules
from tomecraft.runtime.engines.the_cave.state import edge


class Verbs:
    def __init__(self, engine) -> None:
        self.engine = engine

    # --- costs ------------------------------------------------------------------------
    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        return ctx.you.ap >= amount

    def pay(self, ctx, resource: str, amount: int) -> None:
        ctx.you.ap -= amount

    def can_spend(self, ctx, item: str, amount: int) -> bool:
        return self.engine.items.can_use_of[item](ctx.you.backpack, amount)

    def spend(self, ctx, item: str, amount: int) -> None:
        """Each of `amount` uses wears the item's most worn token, as its `uses` and
        `kept_after_use` say (equipment.py)."""
        if amount > 0:
            what = self.engine.items.use_of[item](ctx.you.backpack, amount)
            if self.engine.log_enabled:  # no formatting when logging is off
                self.engine.log(f"{ctx.you.name} {what} {amount} {item}")

    # use_oxygen is `spend oxygen 1` written out: game.yaml marks it pure, and the compiler
    # copies a pure handler's body into the effect only when it calls no other handler.
    def can_use_oxygen(self, ctx) -> bool:
        return self.engine.items.can_use_of["oxygen"](ctx.you.backpack, 1)

    def use_oxygen(self, ctx) -> None:
        """One use of oxygen: its `uses: 2` flip a token first, then discard it; D-24: a
        flipped token is used first."""
        what = self.engine.items.use_once_of["oxygen"](ctx.you.backpack)
        if self.engine.log_enabled:  # no formatting when logging is off
            self.engine.log(f"{ctx.you.name} {what} 1 oxygen")

    # --- tokens -----------------------------------------------------------------------
    def place_token(self, ctx, token: str) -> None:
        ctx.self.tokens.append(token)

    def take_token(self, ctx, token: str) -> None:
        tokens = ctx.self.tokens
        if token in tokens:
            tokens.remove(token)
            ctx.you.tokens[token] += 1
            if self.engine.log_enabled:  # no formatting when logging is off
                self.engine.log(f"{ctx.you.name} takes the {token} token")

    def gain_token(self, ctx, token: str, amount: int) -> None:
        if amount > 0:
            ctx.you.tokens[token] += amount
            if self.engine.log_enabled:  # no formatting when logging is off
                self.engine.log(f"{ctx.you.name} gains {amount} {token} token(s)")

    # --- depth and rope ---------------------------------------------------------------
    def place_rope(self, ctx, amount: int) -> None:
        if amount > 0:
            self.engine.state.ropes[ctx.info["edge"]] = ctx.you.seat
            ctx.info["own_rope"] = amount
            if self.engine.log_enabled:  # no formatting when logging is off
                self.engine.log(f"{ctx.you.name} places {amount} rope")

    def reach_depth(self, ctx) -> None:
        """D-14: the min(D, 75) token, once per value, only after placing own rope deeper."""
        if not ctx.info.get("own_rope") or ctx.self.depth <= ctx.target.depth:
            return
        value = min(ctx.self.depth, 75)
        if value not in ctx.you.depth_tokens:
            ctx.you.depth_tokens.add(value)
            ctx.you.tokens[f"depth_{value}"] += 1
            if self.engine.log_enabled:  # no formatting when logging is off
                self.engine.log(f"{ctx.you.name} takes the reached-depth {value} token")

    def place_depth_marker(self, ctx) -> None:
        """D-04 (R1): deepest marker placed so far + 25 (L85-86)."""
        state = self.engine.state
        state.max_marker += 25
        ctx.self.marker = ctx.self.depth = state.max_marker
        if self.engine.log_enabled:  # no formatting when logging is off
            self.engine.log(f"depth marker {state.max_marker} on {ctx.self.pos}")

    def end_actions(self, ctx) -> None:
        ctx.you.done = True

    # --- equipment and camp -----------------------------------------------------------
    def discard_item(self, ctx, item: str, amount: int) -> None:
        rules.discard(self.engine, ctx.you, item, amount)

    def re_equip(self, ctx) -> None:
        rules.re_equip(self.engine, ctx.you)

    def set_camp(self, ctx) -> None:
        rules.set_camp(self.engine, ctx.you)

    def swap_camp(self, ctx) -> None:
        rules.swap_camp(self.engine, ctx.you)

    def pack_camp(self, ctx) -> None:
        rules.pack_camp(self.engine, ctx.you)

    def abandon_camp(self, ctx) -> None:
        rules.abandon_camp(self.engine, ctx.you)

    def discover(self, ctx) -> None:
        rules.discover(self.engine, ctx.you)


class Queries:
    def __init__(self, engine) -> None:
        self.engine = engine

    def has(self, ctx, item: str) -> bool:
        return self.engine.items.count(ctx.you.backpack, item) > 0

    def token_here(self, ctx, token: str) -> bool:
        return token in ctx.self.tokens

    def rope_placed(self, ctx) -> bool:
        return ctx.info["edge"] in self.engine.state.ropes

    def depth_levels(self, ctx) -> int:
        return abs(ctx.self.depth - ctx.target.depth) // 25

    def at_base(self, ctx) -> bool:
        return ctx.you.pos == self.engine.state.base

    def camp_here(self, ctx) -> bool:
        return ctx.you.camp == "set" and ctx.you.camp_pos == ctx.you.pos

    def camp_packed(self, ctx) -> bool:
        return ctx.you.camp == "packed"

    def camp_packed_before(self, ctx) -> bool:
        return ctx.you.camp_packed_before

    def camp_available(self, ctx) -> bool:
        return ctx.you.camp != "abandoned"

    def can_discover(self, ctx) -> bool:
        return self.engine.can_discover(ctx.you)



__all__ = ["Verbs", "Queries", "edge"]
