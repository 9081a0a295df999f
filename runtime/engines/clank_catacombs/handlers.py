"""The verb and query handlers game.yaml names; generated effects call them through ctx.

`ctx.you` is the acting Player, `ctx.self` the room (Cell) or card/token concerned,
`ctx.info` carries the move being made ("to", "edge", "icons", "against").
"""
from __future__ import annotations

from tomecraft.runtime.engines.clank_catacombs.state import ACTIVE, PILED

RESOURCES = ("skill", "combat", "movement", "gold", "lockpick")
# acquire_free's zone -> the Player list it goes to
FREE_CARD_ZONES = {"discard_pile": "discard", "hand": "hand", "deck": "deck"}


class Verbs:
    def __init__(self, engine) -> None:       # the game's Engine (engine.py imports this module)
        self.engine = engine

    # --- resources --------------------------------------------------------------------
    def gain(self, ctx, resource: str, amount: int) -> None:
        p = ctx.you
        attr = "lockpicks" if resource == "lockpick" else resource
        setattr(p, attr, getattr(p, attr) + amount)

    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        p = ctx.you
        if resource == "movement" and p.no_movement:
            return False
        if resource == "gold":
            return self.engine.gold_available(p) >= amount - ctx.info.get("discount", 0)
        attr = "lockpicks" if resource == "lockpick" else resource
        return getattr(p, attr) >= amount

    def pay(self, ctx, resource: str, amount: int) -> None:
        p = ctx.you
        if resource == "gold":
            self.engine.spend_gold(p, amount - ctx.info.pop("discount", 0))
            return
        attr = "lockpicks" if resource == "lockpick" else resource
        setattr(p, attr, getattr(p, attr) - amount)

    def clank(self, ctx, amount: int) -> None:
        self.engine.clank(ctx.you, amount)

    def draw(self, ctx, amount: int) -> None:
        self.engine.draw(ctx.you, amount)

    def can_discard(self, ctx, amount: int) -> bool:
        return len(ctx.you.hand) >= amount

    def discard(self, ctx, amount: int) -> None:
        p = ctx.you
        for _ in range(amount):
            card = self.engine.ask(p, "discard", sorted(set(p.hand)))
            p.hand.remove(card)
            p.discard.append(card)
            self.engine.log(f"{p.name} discards {card}")

    def trash(self, ctx, card) -> None:
        self.engine.trash(ctx.you, card)

    def acquire_free(self, ctx, card: str, zone: str) -> None:
        """The card goes where the effect says (the base game's Secret Tome: the discard
        pile; a pack's card may say hand or deck, whose top is the list's end): every zone
        went to the discard pile (fourth packs blind test). Check refuses other zones
        (compiler/game_checks/clank_catacombs.py)."""
        st = self.engine.state
        if st.reserve[card] > 0:
            st.reserve[card] -= 1
            getattr(ctx.you, FREE_CARD_ZONES[zone]).append(card)
            self.engine.log(f"{ctx.you.name} gains a free {card}")

    def heal(self, ctx, amount: int) -> None:
        self.engine.heal(ctx.you, amount)

    def take_damage(self, ctx, amount: int) -> None:
        self.engine.damage(ctx.you, amount)

    def damage_player(self, ctx, who, amount: int) -> None:
        self.engine.damage(who, amount)

    # --- moving -----------------------------------------------------------------------
    def cross(self, ctx) -> None:
        self.engine.arrive(ctx.you, ctx.info["to"])

    def cross_portal(self, ctx) -> None:
        self.engine.arrive(ctx.you, ctx.info["to"])

    def teleport(self, ctx) -> None:
        self.engine.teleport(ctx.you)

    def explore(self, ctx) -> None:
        self.engine.explore(ctx.you, ctx.info["edge"])

    def forbid(self, ctx, resource: str) -> None:
        if resource == "movement":
            ctx.you.no_movement = True
            ctx.you.movement = 0

    def allow_reverse(self, ctx, icon: str) -> None:
        """A token's passive (the Catacomb Map, a pack's): its holder crosses against one-way
        arrows while holding it (board.may_reverse); anything else's: for the rest of the turn.
        (It did nothing: the engine read the map by id, so a pack's token with this passive
        checked clean and never let anyone cross.)"""
        owner = getattr(ctx.self, "id", None)
        if owner in self.engine.token_defs:
            ctx.you.reverse_by.add(owner)
        else:
            ctx.you.reverse_this_turn = True

    def unlock(self, ctx, icon: str) -> None:
        self.engine.unlock(ctx.you, ctx.info)

    # --- the dragon -------------------------------------------------------------------
    def rage(self, ctx, amount: int) -> None:
        self.engine.rage(amount)

    def add_cubes(self, ctx, cube: str, amount: int) -> None:
        if cube == "ghost_cube":
            self.engine.add_ghosts(amount)
        elif cube == "player_cube":
            self.engine.clank(ctx.you, amount)

    def extra_dragon_cubes(self, ctx, amount: int) -> None:
        self.engine.extra_cubes += amount

    def draw_cubes(self, ctx, amount: int) -> None:
        self.engine.draw_from_bag(amount)

    def return_cube(self, ctx, cube: str, zone: str) -> None:
        """Black cubes drawn leave the bag; nothing to keep track of."""

    # --- treasure and tokens ----------------------------------------------------------
    def place_treasure(self, ctx, depth: int) -> None:
        self.engine.place_treasure(ctx.self, depth)

    def place_highest_treasure(self, ctx) -> None:
        self.engine.place_treasure(ctx.self, None)

    def take_treasure(self, ctx) -> None:
        self.engine.take_treasure(ctx.you, ctx.self)

    def take_token(self, ctx, token: str, amount: int) -> None:
        for _ in range(amount):
            if not self.engine.take_token(ctx.you, ctx.self, token):
                break

    def gain_random(self, ctx, token: str, amount: int) -> None:
        for _ in range(amount):
            self.engine.gain_random(ctx.you, token)

    def can_return_to_box(self, ctx) -> bool:
        return ctx.you.tokens[ctx.self.id] > 0

    def return_to_box(self, ctx) -> None:
        ctx.you.tokens[ctx.self.id] -= 1

    def discount(self, ctx, amount: int) -> None:
        ctx.info["discount"] = amount

    def buy_item(self, ctx) -> None:
        self.engine.buy(ctx.you, ctx.info["item"])

    def record_signpost(self, ctx) -> None:
        p, cell = ctx.you, ctx.self
        cell.signposts.append(p.seat)
        p.cubes -= 1
        p.signposts += 1
        self.engine.log(f"{p.name} records signpost #{p.signposts}")

    def escape(self, ctx) -> None:
        self.engine.escape(ctx.you)

    def can_return_idol(self, ctx) -> bool:
        return ctx.you.tokens["monkey_idol"] > 0 and self.engine.shrine() is not None

    def return_idol(self, ctx) -> None:
        ctx.you.tokens["monkey_idol"] -= 1
        self.engine.shrine().idols += 1
        self.engine.log(f"{ctx.you.name} returns a golden monkey idol to the Monkey Shrine")

    def score(self, ctx, amount: int) -> None:
        ctx.info["score"] = ctx.info.get("score", 0) + amount


class Queries:
    def __init__(self, engine) -> None:       # the game's Engine (engine.py imports this module)
        self.engine = engine

    def in_room(self, ctx, room_type: str) -> bool:
        return self.engine.cell_of(ctx.you).room.room_type == room_type

    def has_token(self, ctx, token: str) -> bool:
        p = ctx.you
        if token == "mastery":
            return p.mastery > 0
        if token == "crown":
            return any(item == "crown" for item, _ in p.market)
        if token == "treasure":
            return bool(p.treasures)
        data = self.engine.data.kinds["token"]
        return any(n > 0 and data[t].token_type == token for t, n in p.tokens.items())

    def has_status(self, ctx, status: str) -> bool:
        return self.player_is(ctx, ctx.you, status)

    def player_is(self, ctx, who, status: str) -> bool:
        if status == "escaped":
            return who.status == "escaped"
        if status == "knocked_out":
            return who.status == "knocked_out"
        if status == "in_depths":
            return self.engine.cell_of(who).depths
        if status == "holding_treasure":
            return bool(who.treasures)
        if status == "crystal_caved":
            return who.no_movement
        return False

    def clank_gained(self, ctx, scope: str) -> int:
        return ctx.you.clank_gained

    def icons(self, ctx, icon: str) -> int:
        return list(ctx.info.get("icons", ())).count(icon)

    def tokens_left(self, ctx, token: str) -> int:
        """What `gain_random` could still give: the treasure stack, a pile's tokens (the
        prisoner pile holds the coupon too), the mastery tokens left, else the supply (a pack's
        new type: every token of the type less what players hold, rules.supply_token). A
        pack's type counted 0, so a room requiring one left never offered its action."""
        st = self.engine.state
        piled = {"treasure": st.treasure_stack, "major_secret": st.majors,
                 "minor_secret": st.minors, "prisoner": st.prisoners}.get(token)
        if piled is not None:
            return len(piled)
        if token == "mastery":
            return st.mastery_left
        defs = self.engine.token_defs
        if token in PILED:
            return sum(defs[t].token_type == token for pile in (st.majors, st.minors, st.prisoners)
                       for t in pile)
        return sum(max(0, (t.count if t.count is not None else 1)
                       - sum(q.tokens[tid] for q in st.players))
                   for tid, t in defs.items() if t.token_type == token)

    def treasures_held(self, ctx) -> int:
        return len(ctx.you.treasures)

    def prisoners_held(self, ctx) -> int:
        data = self.engine.data.kinds["token"]
        return sum(n for t, n in ctx.you.tokens.items() if data[t].token_type == "prisoner")

    def tomes_held(self, ctx) -> int:
        return ctx.you.all_cards().count("secret_tome")

    def idols_held(self, ctx) -> int:
        return ctx.you.tokens["monkey_idol"] + ctx.you.tokens["monkey_robot"]

    def reserve_left(self, ctx, card: str) -> int:
        return self.engine.state.reserve[card]

    def can_record(self, ctx) -> bool:
        cell, p = ctx.self, ctx.you
        spaces = cell.room.spaces or 4
        return p.seat not in cell.signposts and len(cell.signposts) < spaces and p.cubes > 0

    def in_depths(self, ctx) -> bool:
        return self.engine.cell_of(ctx.you).depths

    def holds(self, ctx, token: str) -> bool:
        return ctx.you.tokens[token] > 0

    def against_arrow(self, ctx) -> bool:
        return bool(ctx.info.get("against"))

    def hand_size(self, ctx) -> int:
        return len(ctx.you.hand)



__all__ = ["ACTIVE", "Queries", "Verbs"]
