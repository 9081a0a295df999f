"""Clank! Catacombs' rule procedures: cards (draw, trash), clank, damage and knock-outs, the
dragon (rage, ghosts, the bag, attacks), the end of the game, treasure, tokens and the market,
gold (paying with fortune tokens); and the final score.

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

import itertools
from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.clank_catacombs.state import ESCAPED, KNOCKED_OUT, PILED, Cell, Player, rule


def reserve_piles(cards: dict) -> tuple[list, list]:
    """The reserve's piles as the content has them (L186, L302, L314): the cards acquired from
    it (a cost) and the monsters fought there (a defeat_cost, as the Goblin). A pack's reserve
    card was never offered while the engine named the printed four."""
    reserve = [c for c in cards.values() if c.card_type == "reserve"]
    return ([c.id for c in reserve if c.cost is not None],
            [c.id for c in reserve if c.defeat_cost is not None])


def leaves_to(card_type, defeat_cost, never_discarded) -> str:
    """Where the engine puts a card once used (the card kind's `after_use`, which it does not
    read): a played card to its owner's discard pile (L524), a used device or a defeated
    monster to the dungeon discard pile (L300, L310), the Goblin nowhere (L314)."""
    if never_discarded:
        return "board"
    if card_type in ("monster", "device") or (card_type == "reserve" and defeat_cost is not None):
        return "dungeon_discard"
    return "discard"


def kept_when_gained(kept, points, token_type) -> bool:
    """Whether a gained token stays in front of its owner: one worth points is kept to be
    scored (L622-631), `kept` or not, and so are prisoners and coupons; any other goes back to
    the box once its effect is done."""
    return bool(kept or (points or 0) > 0 or token_type in ("prisoner", "coupon"))


def token_leaves_to(use) -> str | None:
    """Where the engine puts a token with a `use` (the token kind's `after_use`, which it does
    not read): back to the box once used (engine.py, the `token` action). None for the others:
    what happens to them is the kind's default or their own `after_use`."""
    return "box" if use else None


def score(engine) -> dict:
    scores, details, scored = [], [], []
    for p in engine.state.players:
        if not p.treasures or (p.status == KNOCKED_OUT and p.knocked_in_depths):
            scores.append(0)
            details.append({})
            continue
        scored.append(p.seat)
        parts = Counter()
        parts["treasure"] = sum(engine.token_defs[t].points for t in p.treasures)
        parts["gold"] = engine.gold_available(p)
        for tid, n in p.tokens.items():
            t = engine.token_defs[tid]
            if n <= 0 or t.value:
                continue
            parts["tokens"] += (t.points or 0) * n
            if t.scoring is not None:
                for _ in range(n):
                    ctx = engine.ctx(p, t)
                    t.scoring(ctx)
                    parts["tokens"] += ctx.info.get("score", 0)
        parts["mastery"] = 20 * p.mastery
        parts["market"] = sum(pts for _, pts in p.market)
        parts["cards"] = sum(engine.cards[c].points or 0 for c in p.all_cards())
        scores.append(sum(parts.values()))
        details.append(dict(parts))
    # Only those who take part in the scoring can have the highest score (L619-623, L637):
    # with no treasure out of the depths, nobody wins (every 0 "won" together).
    best = max((scores[i] for i in scored), default=None)
    tied = [i for i in scored if scores[i] == best]
    tb = {i: sum(engine.token_defs[t].value for t in engine.state.players[i].treasures) for i in tied}
    top = max(tb.values(), default=None)
    winners = [i for i in tied if tb[i] == top]
    return {"scores": scores, "details": details, "winners": winners,
            "finished": [p.status == ESCAPED for p in engine.state.players]}


# The token types a draw of one type takes from its pile (`pop_pile`): the prisoner pile holds
# the coupon too.
DRAWN_AS = {"prisoner": ("prisoner", "coupon")}


class BagCubes:
    """The cubes in the dragon bag lined up by key (sorted as text: "black", "ghost", then
    seats), each key as many times as it has cubes, without making the line: the sequence
    the dragon draws from (`rng.choice`), as long as the bag holds cubes."""
    __slots__ = ("bag", "keys", "total")

    def __init__(self, bag: Counter) -> None:
        self.bag = bag
        self.keys = [k for k in sorted(bag, key=str) if bag[k] > 0]
        self.total = sum(map(bag.__getitem__, self.keys))

    def take(self, key) -> None:
        """One cube of `key` out of the bag (and of the line)."""
        self.bag[key] -= 1
        self.total -= 1
        if self.bag[key] <= 0:
            self.keys.remove(key)

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, index: int):
        if index < 0:
            index += self.total
        if not 0 <= index < self.total:
            raise IndexError(index)
        for key in self.keys:
            if index < self.bag[key]:
                return key
            index -= self.bag[key]
        raise IndexError(index)

    def __contains__(self, key) -> bool:
        return key in self.keys

    def __iter__(self):
        for key in self.keys:
            yield from [key] * self.bag[key]


def _once_token(ctx, scope: str, key: str) -> tuple:
    return scope, key, getattr(ctx.you, "seat", None), getattr(ctx.self, "pos", None)


class Rules:
    # --- effects' limits ---------------------------------------------------------------
    def once(self, ctx, scope: str, key: str) -> bool:
        """`once per scope`: per player and room (`turn` ones are forgotten at each turn's end)."""
        token = _once_token(ctx, scope, key)
        if token in self.onces:
            return False
        self.onces.add(token)
        return True

    def once_open(self, ctx, scope: str, key: str) -> bool:
        """Whether `once` would run, without spending it: an option whose limit is spent is
        not offered (it would do nothing)."""
        return _once_token(ctx, scope, key) not in self.onces

    # --- cards -------------------------------------------------------------------------
    def reserve_options(self, p: Player) -> list[dict]:
        """Acquire from a reserve pile left, or fight a reserve monster (the Goblin, any
        number of times a turn, L314; one without never_discarded leaves its pile)."""
        st, cards, out = self.state, self.cards, []
        for cid in self.reserve_buys:
            if st.reserve[cid] > 0 and p.skill >= cards[cid].cost:
                out.append({"do": "acquire", "card": cid})
        for cid in self.reserve_foes:
            card = cards[cid]
            if st.reserve[cid] > 0 and p.combat >= card.defeat_cost \
                    and (card.on_defeat is None or card.on_defeat.can(self.ctx(p, card))):
                out.append({"do": "defeat", "card": cid})
        return out

    def draw(self, p: Player, amount: int) -> None:
        for _ in range(amount):
            if not p.deck:
                if not p.discard:
                    return              # gap 17: draw fewer
                p.deck = p.discard
                p.discard = []
                self.rng.shuffle(p.deck)
            p.hand.append(p.deck.pop())

    def trash(self, p: Player, card) -> None:
        cid = card.id if hasattr(card, "id") else card
        for zone in (p.discard, p.play_area):
            if cid in zone:
                zone.remove(cid)
                self.state.trashed.append(cid)
                self.log(f"{p.name} trashes {cid}")
                return

    def clank(self, p: Player, amount: int) -> None:
        if not p.active or amount == 0:
            return
        st = self.state
        if amount > 0:
            p.clank_gained += amount
            self.emit("gain_clank", p, amount=amount)
            cancel = min(p.neg_bank, amount)
            p.neg_bank -= cancel
            place = min(amount - cancel, p.cubes)
            p.cubes -= place
            st.clank_area[p.seat] += place
            if self.log_enabled:
                self.log(f"{p.name} +{amount} Clank! ({place} cube(s) placed)")
        else:
            remove = min(-amount, st.clank_area[p.seat])
            st.clank_area[p.seat] -= remove
            p.cubes += remove
            p.neg_bank += -amount - remove
            if self.log_enabled:
                self.log(f"{p.name} {amount} Clank! ({remove} cube(s) removed, {p.neg_bank} banked)")

    # --- damage ------------------------------------------------------------------------
    def damage(self, p: Player, amount: int, cube: str = "supply", settle: bool = True) -> None:
        """`settle`: a knock-out of the last player still in ends the game at once (L563,
        L597); the dragon's draws settle that after their last cube (`draw_from_bag`)."""
        for _ in range(amount):
            if not p.active:
                break
            if cube == "bag":
                p.track.append("own")
            elif p.cubes > 0:
                p.cubes -= 1
                p.track.append("own")
            else:
                p.track.append("black")        # gaps 25/27
            if len(p.track) >= self.health:
                self.knock_out(p)
        if settle:
            self.check_everyone_out()

    def heal(self, p: Player, amount: int) -> None:
        """L561: healing takes the player's own cubes off the health track back to their
        supply; a black cube that marked a ghost's damage (L548) goes only when none is left."""
        for _ in range(amount):
            if not p.track:
                return
            if "own" in p.track:
                del p.track[len(p.track) - 1 - p.track[::-1].index("own")]
                p.cubes += 1
            else:
                p.track.pop()

    def knock_out(self, p: Player) -> None:
        p.status = KNOCKED_OUT
        p.knocked_in_depths = self.cell_of(p).depths
        self.log(f"{p.name} is knocked out{' in the depths' if p.knocked_in_depths else ''}")

    def may_take_damage(self, p: Player, n: int) -> bool:
        """L557: no voluntary damage without cubes, or if it would take the last health."""
        return n == 0 or (p.cubes >= n and len(p.track) + n < self.health)

    # --- the dragon ----------------------------------------------------------------------
    def rage(self, amount: int) -> None:
        self.state.rage = min(self.state.rage + amount, len(self.track) - 1)
        self.log(f"rage moves to space {self.state.rage + 1}")

    def add_ghosts(self, amount: int) -> None:
        n = min(amount, self.state.ghosts)             # gap 26
        self.state.ghosts -= n
        self.state.clank_area["ghost"] += n

    def fill_bag(self) -> None:
        st = self.state
        for k, n in st.clank_area.items():
            st.bag[k] += n
        st.clank_area.clear()

    def draw_from_bag(self, amount: int, attack: bool = True) -> None:
        """Draw cubes and resolve them (L536-548); `attack` is False for the draw on an out
        player's turn, which ends the game on an empty bag only under rule any_draw."""
        st = self.state
        ghosts = 0
        cubes = BagCubes(st.bag)            # drawing takes cubes out, never puts one in
        for _ in range(amount):
            if not cubes:
                break
            cube = self.rng.choice(cubes)
            cubes.take(cube)
            if cube == "black":
                self.log("the dragon draws a black cube")
            elif cube == "ghost":
                ghosts += 1
                self.log("the dragon draws a ghost cube")
                for q in st.players:
                    self.damage(q, 1, settle=False)
            else:
                q = st.players[cube]
                if self.log_enabled:
                    self.log(f"the dragon draws a {q.name} cube")
                if q.active:
                    self.damage(q, 1, cube="bag", settle=False)
                else:
                    q.cubes += 1                         # gap 24
        st.clank_area["ghost"] += ghosts
        for k in [k for k, n in st.bag.items() if n <= 0]:   # `+bag`, in place: the keys
            del st.bag[k]                                    # left keep their order
        ends = attack or rule(self.data, "bag_empty_means_short") == "any_draw"
        if ends and sum(st.bag.values()) == 0:           # gap 23
            self.end_game("the dragon bag is empty")
        self.check_everyone_out()                        # the draw may knock out the last one

    def check_everyone_out(self) -> None:
        """L597: the game is over once every player has escaped or been knocked out (checked
        when the turn of a player who escaped ends, and after the dragon's draws)."""
        st = self.state
        if not st.over and not any(q.active for q in st.players):
            st.over = True
            st.end_reason = st.end_reason or "every player escaped or was knocked out"

    def dragon_attack(self) -> None:
        st = self.state
        self.fill_bag()
        self.extra_cubes = 0
        for cid in st.row:
            if self.cards[cid].danger:
                self.extra_cubes += 1
        for p in st.players:
            self.emit("dragon_attack", p)               # `danger` listens while its card is out
        n = self.track[st.rage] + self.extra_cubes
        if self.log_enabled:
            self.log(f"the dragon attacks: {n} cube(s)")
        self.draw_from_bag(n)

    def end_game(self, reason: str) -> None:
        st = self.state
        if st.over:
            return
        st.over = True
        st.end_reason = reason
        for p in st.players:
            if p.active:
                self.knock_out(p)
        self.log(f"game over: {reason}")

    # --- treasure, tokens, market ----------------------------------------------------------
    def place_treasure(self, cell: Cell, depth) -> None:
        stack = self.state.treasure_stack
        if not stack:
            return
        if self.multi_treasure:                          # 5-6p: the top and the next N
            n = min(len(stack), 1 + (cell.plus_signs or 0))
            cell.treasures += stack[:n]
            del stack[:n]
            return
        if depth is None:
            best = max(range(len(stack)), key=lambda i: (self.token_defs[stack[i]].value, i))
            cell.treasures.append(stack.pop(best))
        else:
            cell.treasures.append(stack.pop(depth))

    def take_treasure(self, p: Player, cell: Cell) -> None:
        best = max(cell.treasures, key=lambda t: self.token_defs[t].value)
        cell.treasures.remove(best)
        p.treasures.append(best)
        if self.multi_treasure:                          # never a 2nd from the same room (L665)
            p.taken_from.add(cell.pos)
        self.log(f"{p.name} takes {best}")

    def gain_random(self, p: Player, token_type: str) -> None:
        """The top token of that type from its shuffled pile; a type kept in no pile comes from
        the supply (`supply_token`)."""
        tid = self.pop_pile(token_type)
        if tid is None and token_type not in PILED:
            tid = self.supply_token(token_type)
        if tid is not None:
            self.gain_token(p, tid)

    def pop_pile(self, token_type: str) -> str | None:
        """The topmost token of the type in the shuffled piles (secrets, prisoners), taken. A
        prisoner is drawn from the prisoner pile whatever it turns out to be: the coupon is one
        of its 20 tokens (L111, L170), freed from a cell like the others (L370), though not a
        prisoner for the rules that count prisoners (token sheet 优惠券)."""
        st = self.state
        kinds = DRAWN_AS.get(token_type, (token_type,))
        for pile in (st.majors, st.minors, st.prisoners):
            for i in range(len(pile) - 1, -1, -1):
                if self.token_defs[pile[i]].token_type in kinds:
                    return pile.pop(i)
        return None

    def supply_token(self, token_type: str) -> str | None:
        """The first token of the type (by id) that players do not hold all `count` of."""
        for tid, t in sorted(self.token_defs.items()):
            held = sum(q.tokens[tid] for q in self.state.players)
            if t.token_type == token_type and held < (t.count if t.count is not None else 1):
                return tid
        return None

    def take_token(self, p: Player, cell: Cell, token_type: str) -> bool:
        """`take_token`: one token of the type from this room; False when none is left. The
        room's own tokens first: the Monkey Shrine's idols (L468), a room's treasure; any
        other type comes from where the game keeps it (its pile, else the supply)."""
        if token_type == "monkey_idol" and cell.idols > 0:
            cell.idols -= 1
            p.tokens["monkey_idol"] += 1
            self.log(f"{p.name} takes a golden monkey idol")
            return True
        if token_type == "treasure":
            if not cell.treasures:
                return False
            self.take_treasure(p, cell)
            return True
        if token_type == "monkey_idol":
            return False                 # the idols are the shrine's; returned ones go back there
        if token_type == "mastery":      # kept apart from the tokens, as when escaping (L599-603)
            if self.state.mastery_left <= 0:
                return False
            self.state.mastery_left -= 1
            p.mastery += 1
            self.log(f"{p.name} takes a mastery token")
            return True
        tid = self.pop_pile(token_type)
        if tid is None and token_type not in PILED:
            tid = self.supply_token(token_type)
        if tid is None:
            return False
        self.log(f"{p.name} takes {tid} from {cell.room.id}")
        self.gain_token(p, tid)
        return True

    def gain_token(self, p: Player, tid: str) -> None:
        t = self.token_defs[tid]
        p.tokens[tid] += 1
        self.log(f"{p.name} gains {tid}")
        if t.on_gain is not None:
            t.on_gain(self.ctx(p, t))
        self.emit("gain_token", p, token=t)
        if t.passive is not None:                        # the map's reverse crossing, the spring
            t.passive(self.ctx(p, t))
            if tid == "magic_spring":
                p.spring += 1
        # A token worth points is kept to be scored (L622-631), `kept` or not: back in the
        # box its points would be lost (a pack's minor secret with `points: 1` and no `kept`).
        if not kept_when_gained(t.kept, t.points, t.token_type):
            p.tokens[tid] -= 1                           # used at once, back to the box

    def buy(self, p: Player, item_id: str) -> None:
        pts = self.state.market[item_id].pop(0)          # crowns: the highest left
        p.market.append((item_id, pts))
        item = self.items[item_id]
        if item.on_buy is not None:
            item.on_buy(self.ctx(p, item))
        self.emit("buy", p, item=item)
        self.log(f"{p.name} buys {item_id} ({pts} pts)")

    # --- gold -------------------------------------------------------------------------
    def gold_available(self, p: Player) -> int:
        values = self.__dict__.get("cache_gold_values")
        if values is None:       # the fortune tokens' values (`counts_as_gold`), by token id
            values = self.cache_gold_values = {t: self.token_defs[t].value for t in self.token_defs
                                         if self.counts_as_gold(t)}
        tokens = p.tokens
        return p.gold + sum(tokens[t] * value for t, value in values.items()
                            if tokens.get(t, 0) > 0)

    def spend_gold(self, p: Player, amount: int) -> None:
        """Gold tokens come in 1, 5 and 10 from an unlimited supply (L162), so coins always make
        exact change; a fortune token counts as its value in gold (L866). Coins pay first, then
        the fortunes that overpay least (then the fewest tokens), and the overpay comes back
        as change: a payment costs exactly `amount`."""
        if amount <= 0:
            return
        take = min(p.gold, amount)
        p.gold -= take
        amount -= take
        if amount == 0:
            return
        spent = self.fortunes_to_pay(p, amount)
        if spent is None:
            raise EffectError(f"{p.name} cannot pay {amount} more gold")
        paid = 0
        for tid, n in spent.items():
            p.tokens[tid] -= n
            paid += n * self.token_defs[tid].value
        p.gold += paid - amount
        if paid > amount:
            self.log(f"{p.name} pays with fortune tokens and takes {paid - amount} gold in change")

    def fortunes_to_pay(self, p: Player, amount: int) -> Counter | None:
        """The fortune tokens covering `amount` with the least overpay, then the fewest tokens;
        None if they cannot. Ties left after that go to the first in id order."""
        kinds = sorted(t for t, n in p.tokens.items() if n > 0 and self.counts_as_gold(t))
        best, best_key = None, None
        for combo in itertools.product(*(range(p.tokens[t] + 1) for t in kinds)):
            paid = sum(n * self.token_defs[t].value for t, n in zip(kinds, combo))
            if paid < amount:
                continue
            key = (paid - amount, sum(combo))
            if best_key is None or key < best_key:
                best, best_key = Counter({t: n for t, n in zip(kinds, combo) if n}), key
        return best

    def counts_as_gold(self, tid: str) -> bool:
        token = self.token_defs[tid]
        return token.token_type in ("major_secret", "minor_secret") and bool(token.value)
