"""The verb and query handlers game.yaml names; generated effects call them through ctx.

`ctx.you` is the acting Scholar, `ctx.self` the region Tile concerned (or the Scholar for
skills), `ctx.target` a chosen Scholar. In a dry run (`engine.dry`) verbs change nothing (but
`sacrifice` and `gain_stun` count on the scholar, who is restored after the run): the
engine uses it to learn whether entering a region is forbidden (Ambush at the stun cap).
"""
from __future__ import annotations


def _live(fn):
    """Skip the verb in a dry run."""
    def run(self, ctx, *args):
        if self.e.dry:
            return None
        return fn(self, ctx, *args)
    run.__name__ = fn.__name__
    return run


class Verbs:
    def __init__(self, engine) -> None:       # the game's Engine (engine.py imports this module)
        self.e = engine

    # --- costs ------------------------------------------------------------------------
    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        if resource == "students":
            return ctx.you.students >= amount
        if resource == "steps":
            return ctx.you.steps >= amount
        if resource == "action":
            return ctx.you.actions >= amount
        return False

    @_live
    def pay(self, ctx, resource: str, amount: int) -> None:
        if resource == "students":
            self.e.sacrifice(ctx.you, amount)
        elif resource == "steps":
            ctx.you.steps -= amount
        elif resource == "action":
            ctx.you.actions -= amount

    def can_sacrifice(self, ctx, amount: int) -> bool:
        return ctx.you.students >= amount

    def sacrifice(self, ctx, amount: int) -> None:
        if self.e.dry:          # counted, not paid: a later Ambush of the same entry sees it
            ctx.you.students -= min(amount, ctx.you.students)
            return
        self.e.sacrifice(ctx.you, amount)

    def can_gain_stun(self, ctx, amount: int) -> bool:
        return ctx.you.stun + amount <= self.e.stamina(ctx.you) or ctx.you.students >= amount

    def gain_stun(self, ctx, amount: int) -> None:
        if self.e.dry:          # counted up to the cap, no student asked (see `sacrifice`)
            ctx.you.stun = min(self.e.stamina(ctx.you), ctx.you.stun + amount)
            return
        self.e.gain_stun(ctx.you, amount)

    def can_take_stun(self, ctx, amount: int) -> bool:
        return ctx.you.stun + amount <= self.e.stamina(ctx.you)

    @_live
    def take_stun(self, ctx, amount: int) -> None:
        self.e.gain_stun(ctx.you, amount, avoidable=False)

    @_live
    def mark_affected(self, ctx, who) -> None:
        self.e.affected.add((ctx.you.seat, who.seat))

    def can_discard_cards(self, ctx, card_type: str, amount: int) -> bool:
        return self.e.cards_of(ctx.you, card_type) >= amount

    @_live
    def discard_cards(self, ctx, card_type: str, amount: int) -> None:
        for _ in range(amount):
            options = sorted({c for c in ctx.you.hand if self.e.card(c).card_type == card_type})
            cid = self.e.ask(ctx.you, "discard_card", options)
            ctx.you.hand.remove(cid)
            self.e.state.discard.append(cid)

    def can_discard(self, ctx, amount: int) -> bool:
        return len(ctx.you.hand) >= amount

    @_live
    def discard(self, ctx, amount: int) -> None:
        for _ in range(amount):
            cid = self.e.ask(ctx.you, "discard_card", sorted(set(ctx.you.hand)))
            ctx.you.hand.remove(cid)
            self.e.state.discard.append(cid)

    # --- students, cards, stun ---------------------------------------------------------
    @_live
    def gain_students(self, ctx, amount: int) -> None:
        self.e.gain_students(ctx.you, amount)

    @_live
    def draw_students(self, ctx, amount: int) -> None:
        self.e.draw_students(ctx.you, amount)

    @_live
    def draw_cards(self, ctx, amount: int) -> None:
        self.e.draw_cards(ctx.you, amount)

    @_live
    def draw_for(self, ctx, who, amount: int) -> None:
        self.e.draw_cards(who, amount)

    @_live
    def discard_random(self, ctx, who, amount: int) -> None:
        for _ in range(amount):
            if who.hand:
                cid = who.hand.pop(self.e.rng.randrange(len(who.hand)))
                self.e.state.discard.append(cid)
                self.e.log(f"{who.name} discards {cid} at random")

    @_live
    def steal_random_card(self, ctx, who) -> None:
        if who.hand:
            cid = who.hand.pop(self.e.rng.randrange(len(who.hand)))
            ctx.you.hand.append(cid)
            self.e.log(f"{ctx.you.name} takes {cid} from {who.name}")

    @_live
    def search_cards(self, ctx, card_type: str) -> None:
        self.e.search_cards(ctx.you, card_type)

    @_live
    def remove_stun(self, ctx, amount: int) -> None:
        ctx.you.stun = max(0, ctx.you.stun - amount)

    # --- stealth ----------------------------------------------------------------------
    @_live
    def prophecy(self, ctx, amount: int) -> None:
        self.e.prophecy(ctx.you, amount)

    @_live
    def add_stealth(self, ctx, amount: int) -> None:
        self.e.attempt_add("stealth", amount, ctx.you)

    @_live
    def add_alert(self, ctx, amount: int) -> None:
        self.e.attempt_add("alert", amount, ctx.you)

    # --- movement ---------------------------------------------------------------------
    @_live
    def move(self, ctx, steps: int) -> None:
        self.e.bonus_move(ctx.you, steps)

    @_live
    def end_movement(self, ctx) -> None:
        ctx.you.steps = 0
        self.e.moving_stopped = True
        self.e.log(f"{ctx.you.name}'s movement stops")

    def forbid_entry(self, ctx) -> None:
        self.e.entry_forbidden = True

    @_live
    def teleport_to(self, ctx) -> None:
        self.e.teleport(ctx.you)

    def use_secret_passage(self, ctx, letter: str) -> None:
        self.e.passage_letters.append(letter)

    @_live
    def place_stairs(self, ctx) -> None:
        self.e.place_stairs(ctx.you, ctx.self)

    def rest_in_place(self, ctx) -> None:
        if self.e.dry:
            self.e.wants_rest = True      # lets the engine hide Camp in Maximum Alert
            return
        self.e.rest(ctx.you, move_to_start=False)

    # --- info blocks ------------------------------------------------------------------
    @_live
    def drop_blocks(self, ctx, amount: int) -> None:
        self.e.drop(ctx.you, amount, random=False)

    @_live
    def random_drop(self, ctx, who, amount: int) -> None:
        self.e.drop(who, amount, random=True)

    @_live
    def give_block(self, ctx, who) -> None:
        self.e.give(who, ctx.you)

    @_live
    def collect_blocks(self, ctx, amount: int) -> None:
        self.e.collect(ctx.you, amount)

    @_live
    def collect_free(self, ctx, amount: int) -> None:
        self.e.collect(ctx.you, amount)

    @_live
    def collect_dropped(self, ctx) -> None:
        self.e.collect_dropped(ctx.you)

    def refuse_loss(self, ctx) -> None:
        self.e.refused = True

    # --- tokens, boss, misc -----------------------------------------------------------
    @_live
    def place_token(self, ctx, token: str, amount: int) -> None:
        self.e.place_tokens(ctx.you, token, amount)

    def flip_trap(self, ctx) -> None:
        pass      # traps resolve in Engine.enter (they come first, L860)

    @_live
    def place_boss(self, ctx) -> None:
        self.e.place_boss(ctx)

    @_live
    def discover_boss(self, ctx) -> None:
        self.e.boss_effect(ctx, "discover")

    @_live
    def activate_boss(self, ctx) -> None:
        self.e.boss_effect(ctx, "activate")

    @_live
    def move_boss(self, ctx, steps: int) -> None:
        self.e.move_boss(ctx, steps)

    @_live
    def randomize(self, ctx) -> None:
        ctx.info["randomizer"] = self.e.randomize(lambda card: True)

    @_live
    def random_move(self, ctx, who) -> None:
        self.e.random_move(who)

    @_live
    def cancel_card(self, ctx) -> None:
        self.e.cancel_answered()

    @_live
    def move_boss_toward(self, ctx) -> None:
        self.e.move_boss(ctx, 1)

    @_live
    def extra_action(self, ctx) -> None:
        ctx.you.actions += 1

    @_live
    def become(self, ctx, who, status: str) -> None:
        if status == "excited":
            who.side = "excited"

    @_live
    def discard_doom(self, ctx) -> None:
        if ctx.you.dooms:
            self.e.state.doom_deck.insert(0, ctx.you.dooms.pop())

    @_live
    def score(self, ctx, amount: int) -> None:
        self.e.bonus_points[ctx.you.seat] += amount


class Queries:
    def __init__(self, engine) -> None:       # the game's Engine (engine.py imports this module)
        self.e = engine

    def has_block(self, ctx, colour: str) -> bool:
        return ctx.you.notebook[colour] > 0

    def blocks(self, ctx, colour: str) -> int:
        return ctx.you.notebook[colour]

    def same_region(self, ctx, who) -> bool:
        return who.pos == ctx.you.pos

    def boss_placed(self, ctx) -> bool:
        return self.e.state.boss_pos is not None

    def students_owned(self, ctx) -> int:
        return ctx.you.students

    def stun_tokens(self, ctx) -> int:
        return ctx.you.stun

    def affected_this_turn(self, ctx, who) -> bool:
        return (ctx.you.seat, who.seat) in self.e.affected

    def prophecy_bonus(self, ctx) -> int:
        return self.e.last_prophecy

    def students_drawn(self, ctx) -> int:
        return self.e.last_drawn

    def stars_of(self, ctx, who) -> int:
        return self.e.stars(who)

    def in_start_region(self, ctx) -> bool:
        return self.e.in_start(ctx.you)

    def attempting(self, ctx) -> bool:
        return self.e.attempt is not None and self.e.attempt["by"] is ctx.you

    def spying(self, ctx) -> bool:
        return self.e.attempt is not None and self.e.attempt["kind"] == "spy" \
            and self.e.attempt["by"] is ctx.you

    def cards_in_hand(self, ctx, card_type: str) -> int:
        return self.e.cards_of(ctx.you, card_type)

