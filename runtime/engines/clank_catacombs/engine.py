"""Clank! Catacombs engine: setup A-H, turns, moving and exploring, the dragon, the end.

Every card, room, token, market item and tunnel icon runs through its generated effect; the
engine decides only what the effect language leaves to it: the map's geometry and legality
of moves, whose decision it is, the order of a turn, and the dragon bag.
"""
from __future__ import annotations

import itertools
from collections import Counter
from types import SimpleNamespace

from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.clank_catacombs import policy
from tomecraft.runtime.engines.clank_catacombs.handlers import Queries, Verbs
from tomecraft.runtime.engines.clank_catacombs.state import (
    ESCAPED, KNOCKED_OUT, OPPOSITE, Cell, Player, State, rotate, step,
)

TURN_ACTION_CAP = 120
# token types dealt into shuffled piles at setup (C): secrets, prisoners with the coupon
PILED = ("major_secret", "minor_secret", "prisoner", "coupon")


def rule(data, rule_id: str):
    return data.get("rule", rule_id).value


class Engine:
    def __init__(self, data, state: State, agents: list, log_enabled: bool = True) -> None:
        self.data = data
        self.state = state
        self.agents = agents
        self.verbs = Verbs(self)
        self.queries = Queries(self)
        self.log_enabled = log_enabled
        check_handlers(data, self.verbs, self.queries)
        self.cards = data.kinds["card"]
        self.rooms = data.kinds["room"]
        self.token_defs = data.kinds["token"]
        self.items = data.kinds["market_item"]
        self.icons = data.kinds["tunnel_icon"]
        self.health = rule(data, "health")
        self.track = list(rule(data, "rage_track"))
        self.hand_size = rule(data, "hand_size")
        self.row_size = rule(data, "row_size")
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
            # filters them: spend 1 combat if you have it, take 1 damage only if you may (L330).
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

    def once(self, ctx, scope: str, key: str) -> bool:
        token = (scope, key, getattr(ctx.you, "seat", None), getattr(ctx.self, "pos", None))
        if token in self.onces:
            return False
        self.onces.add(token)
        return True

    def continuous(self, ctx, body, key: str) -> None:
        body(ctx)

    def modify(self, ctx, obj, name: str, op: str, value, key: str) -> None:
        raise EffectError("Clank! Catacombs content sets no layered values")

    def emit(self, event: str, you: Player, **fields) -> None:
        ev = SimpleNamespace(**fields)
        for name, where, body, ctx in list(self.subs):
            if name != event or ctx.you is not you:
                continue
            bound = ctx.bind(event=ev)
            if where is None or where(bound):
                body(bound)

    def check_watches(self) -> None:
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
        if self.log_enabled:
            self.state.log.append(line)

    def ask(self, p: Player, key: str, options: list):
        if not options:
            raise EffectError(f"no options for decision {key!r}")
        if len(options) == 1 and key != "action":
            return options[0]
        return self.agents[p.seat].choose(key, options, policy.View(self, p))

    def ctx(self, p: Player, obj=None, **info) -> Context:
        return Context(engine=self, you=p, self=obj if obj is not None else self.cell_of(p), info=info)

    def cell_of(self, p: Player) -> Cell:
        return self.state.cells[p.pos]

    def shrine(self) -> Cell | None:
        return next((c for c in self.state.cells.values() if c.room.room_type == "monkey_shrine"), None)

    def treasure_limit(self, p: Player) -> int:
        extra = sum(self.items[i].treasure_limit or 0 for i, _ in p.market)
        return rule(self.data, "treasure_limit") + extra

    def gold_available(self, p: Player) -> int:
        return p.gold + sum(n * self.token_defs[t].value for t, n in p.tokens.items()
                            if n > 0 and self.counts_as_gold(t))

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

    # --- cards -------------------------------------------------------------------------
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
            self.log(f"{p.name} +{amount} Clank! ({place} cube(s) placed)")
        else:
            remove = min(-amount, st.clank_area[p.seat])
            st.clank_area[p.seat] -= remove
            p.cubes += remove
            p.neg_bank += -amount - remove
            self.log(f"{p.name} {amount} Clank! ({remove} cube(s) removed, {p.neg_bank} banked)")

    # --- damage ------------------------------------------------------------------------
    def damage(self, p: Player, amount: int, cube: str = "supply") -> None:
        for _ in range(amount):
            if not p.active:
                return
            if cube == "bag":
                p.track.append("own")
            elif p.cubes > 0:
                p.cubes -= 1
                p.track.append("own")
            else:
                p.track.append("black")        # gaps 25/27
            if len(p.track) >= self.health:
                self.knock_out(p)

    def heal(self, p: Player, amount: int) -> None:
        for _ in range(amount):
            if not p.track:
                return
            if p.track.pop() == "own":
                p.cubes += 1

    def knock_out(self, p: Player) -> None:
        p.status = KNOCKED_OUT
        p.knocked_in_depths = self.cell_of(p).depths
        self.log(f"{p.name} is knocked out{' in the depths' if p.knocked_in_depths else ''}")

    def may_take_damage(self, p: Player, n: int) -> bool:
        """L330: no voluntary damage without cubes, or if it would take the last health."""
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
        for _ in range(amount):
            pool = [k for k in sorted(st.bag, key=str) for _ in range(st.bag[k])]
            if not pool:
                break
            cube = self.rng.choice(pool)
            st.bag[cube] -= 1
            if cube == "black":
                self.log("the dragon draws a black cube")
            elif cube == "ghost":
                ghosts += 1
                self.log("the dragon draws a ghost cube")
                for q in st.players:
                    self.damage(q, 1)
            else:
                q = st.players[cube]
                self.log(f"the dragon draws a {q.name} cube")
                if q.active:
                    self.damage(q, 1, cube="bag")
                else:
                    q.cubes += 1                         # gap 24
        st.clank_area["ghost"] += ghosts
        st.bag = +st.bag
        ends = attack or rule(self.data, "bag_empty_means_short") == "any_draw"
        if ends and sum(st.bag.values()) == 0:           # gap 23
            self.end_game("the dragon bag is empty")

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

    # --- the map -------------------------------------------------------------------------
    def tunnel(self, src: Cell, d: str):
        """(destination cell or None for the map edge, icons, against the arrow)."""
        dst = self.state.cells.get(step(src.pos, d))
        mine = list(src.icons.get(d, ()))
        if dst is None:
            return None, mine, "one_way_in" in mine
        theirs = list(dst.icons.get(OPPOSITE[d], ()))
        against = "one_way_in" in mine or "one_way_arrow" in theirs
        icons = mine + theirs
        for _ in range(self.state.unlocked[frozenset((src.pos, dst.pos))]):
            if "lock_icon" in icons:
                icons.remove("lock_icon")
        return dst, icons, against

    def unlock(self, p: Player, info: dict) -> None:
        """A lock icon opened for good, for every player (L327)."""
        self.state.unlocked[frozenset((p.pos, tuple(info["to"])))] += 1
        self.log(f"{p.name} unlocks a lock icon")

    def crossing_ok(self, p: Player, icons: list, against: bool, movement: bool = True) -> bool:
        if against and not p.tokens["catacomb_map"]:
            return False
        if movement:
            if p.no_movement or p.movement < 1 + icons.count("footprints"):
                return False
        if p.lockpicks < icons.count("lock_icon"):
            return False
        monsters = icons.count("monster_icon")
        return self.may_take_damage(p, max(0, monsters - p.combat))

    def move_options(self, p: Player) -> list[dict]:
        src = self.cell_of(p)
        out = []
        for d in src.exits:
            dst, icons, against = self.tunnel(src, d)
            if dst is None:
                if self.state.tile_stack and self.crossing_ok(p, icons, against):
                    out.append({"do": "explore", "edge": d})
                continue
            if not dst.opens(OPPOSITE[d]):
                continue
            if dst.room.room_type == "mausoleum" and not p.treasures:
                continue
            if self.crossing_ok(p, icons, against):
                out.append({"do": "move", "to": list(dst.pos)})
        if src.portal and not p.no_movement and p.movement >= 1:
            for other in self.portals():
                if other is not src:
                    out.append({"do": "move", "to": list(other.pos), "portal": True})
        return out

    def portals(self) -> list:
        return [c for _, c in sorted(self.state.cells.items()) if c.portal]

    def cross(self, p: Player, to, icons: list, portal: bool = False) -> None:
        """Pay a tunnel's icons through the tunnel-icon effects, then step through it."""
        ctx = self.ctx(p, to=tuple(to), icons=icons)
        for icon in ("lock_icon", "footprints"):
            for _ in range(icons.count(icon)):
                if not self.icons[icon].cross(ctx):
                    raise EffectError(f"{p.name} cannot pay the {icon}")
        for _ in range(icons.count("monster_icon")):
            self.icons["monster_icon"].cross(ctx)
        base = self.icons["portal" if portal else "plain"]
        if not base.cross(ctx):
            raise EffectError(f"{p.name} cannot cross to {to}")

    def do_move(self, p: Player, option: dict) -> None:
        to = tuple(option["to"])
        if option.get("portal"):
            self.cross(p, to, [], portal=True)
            return
        src = self.cell_of(p)
        d = next(d for d in src.exits if step(src.pos, d) == to)
        _, icons, against = self.tunnel(src, d)
        ctx = self.ctx(p, against=against)
        if not self.icons["one_way_arrow"].cross(ctx):
            raise EffectError(f"{p.name} cannot cross against the arrow")
        self.cross(p, to, icons)

    def arrive(self, p: Player, pos) -> None:
        p.pos = tuple(pos)
        cell = self.cell_of(p)
        room = cell.room
        self.log(f"{p.name} enters {room.id} at {p.pos}")
        rewarded = room.reward and cell.pos in p.rewards  # a reward once per room a turn
        if room.on_enter is not None and not rewarded:
            if room.reward:
                p.rewards.add(cell.pos)
            room.on_enter(self.ctx(p, cell))
        self.emit("enter_room", p, room=room)

    def escape(self, p: Player) -> None:
        p.status = ESCAPED
        if self.state.mastery_left > 0:
            self.state.mastery_left -= 1
            p.mastery += 1
        self.log(f"{p.name} escapes with {p.treasures}")

    def teleport(self, p: Player) -> None:
        if not p.active:
            return
        src = self.cell_of(p)
        options = []
        for d in src.exits:
            dst = self.state.cells.get(step(src.pos, d))
            if dst is None:
                if self.state.tile_stack:
                    options.append({"do": "explore", "edge": d})
            elif dst.opens(OPPOSITE[d]) and (dst.room.room_type != "mausoleum" or p.treasures):
                options.append({"do": "move", "to": list(dst.pos)})
        if src.portal:
            options += [{"do": "move", "to": list(c.pos)} for c in self.portals() if c is not src]
        if not options:
            return
        choice = self.ask(p, "teleport", options)
        if choice["do"] == "explore":
            self.explore(p, choice["edge"], teleport=True)
        else:
            self.arrive(p, tuple(choice["to"]))

    def explore(self, p: Player, d: str, teleport: bool = False) -> None:
        st = self.state
        src = self.cell_of(p)
        tile = self.data.get("tile", st.tile_stack.pop())
        pos = step(src.pos, d)
        dx, dy, room_id, exits = tile.cells[0]
        raw_icons = {k: list(tile.icons[k]) for k in "NESW" if tile.icons and k in tile.icons}
        fits, connects = [], []
        mine = list(src.icons.get(d, ()))
        for turns in range(4):
            ex, ic = rotate(exits, raw_icons, turns)
            if OPPOSITE[d] not in ex:
                continue
            connects.append(turns)
            icons = mine + ic.get(OPPOSITE[d], [])
            against = "one_way_in" in mine or "one_way_arrow" in ic.get(OPPOSITE[d], [])
            if teleport or self.crossing_ok(p, icons, against):
                fits.append({"rotation": turns})
        if fits:
            turns = self.ask(p, "rotation", fits)["rotation"]
        else:                                            # gap 18: placed, but not crossed
            turns = connects[0] if connects else 0
        ex, ic = rotate(exits, raw_icons, turns)
        cell = Cell(pos, tile, self.rooms[room_id], ex, ic, tile.area == "depths",
                    tile.plus_signs or 0, bool(tile.portal))
        st.cells[pos] = cell
        self.log(f"{p.name} explores {tile.id} at {pos} (rotation {turns})")
        if cell.room.on_reveal is not None:
            cell.room.on_reveal(self.ctx(p, cell))
        self.emit("reveal_tile", p, tile=tile)
        if tile.haunted:
            self.add_ghosts(1)
        if not fits:
            return
        if teleport:
            self.arrive(p, pos)
        else:
            _, icons, _ = self.tunnel(src, d)
            self.cross(p, pos, icons)

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
        """The topmost token of the type in the shuffled piles (secrets, prisoners), taken."""
        st = self.state
        for pile in (st.majors, st.minors, st.prisoners):
            for i in range(len(pile) - 1, -1, -1):
                if self.token_defs[pile[i]].token_type == token_type:
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
        if not (t.kept or t.token_type in ("prisoner", "coupon")):
            p.tokens[tid] -= 1                           # used at once, back to the box

    def buy(self, p: Player, item_id: str) -> None:
        pts = self.state.market[item_id].pop(0)          # crowns: the highest left
        p.market.append((item_id, pts))
        item = self.items[item_id]
        if item.on_buy is not None:
            item.on_buy(self.ctx(p, item))
        self.emit("buy", p, item=item)
        self.log(f"{p.name} buys {item_id} ({pts} pts)")

    # --- actions -------------------------------------------------------------------------
    def legal_actions(self, p: Player) -> list[dict]:
        st = self.state
        out = [{"do": "play", "card": c} for c in sorted(set(p.hand))]
        if p.active and not st.over:
            cell = self.cell_of(p)
            for cid in sorted(set(st.row)):
                card = self.cards[cid]
                if card.card_type == "acquire" and p.skill >= card.cost:
                    out.append({"do": "acquire", "card": cid})
                elif card.card_type == "device" and p.skill >= card.cost:
                    out.append({"do": "use", "card": cid})
                elif card.card_type == "monster" and p.combat >= card.defeat_cost \
                        and card.on_defeat.can(self.ctx(p, card)):
                    out.append({"do": "defeat", "card": cid})
            for cid in ("mercenary", "explore", "secret_tome"):
                if st.reserve[cid] > 0 and p.skill >= self.cards[cid].cost:
                    out.append({"do": "acquire", "card": cid})
            if p.combat >= self.cards["goblin"].defeat_cost:
                out.append({"do": "defeat", "card": "goblin"})
            out += self.move_options(p)
            room = cell.room
            if room.room_type == "treasure_room":
                if cell.treasures and cell.pos not in p.taken_from \
                        and room.action.can(self.ctx(p, cell)):
                    out.append({"do": "take_treasure"})
            elif room.room_type == "market":
                for item_id in sorted(st.market):
                    if st.market[item_id] and self._can_buy(p, item_id, False):
                        out.append({"do": "buy", "item": item_id, "coupon": False})
                    if st.market[item_id] and p.tokens["coupon"] and self._can_buy(p, item_id, True):
                        out.append({"do": "buy", "item": item_id, "coupon": True})
            elif room.action is not None and not cell.used and room.action.can(self.ctx(p, cell)):
                out.append({"do": "room"})
            for tid in sorted(p.tokens):
                t = self.token_defs[tid]
                if p.tokens[tid] > 0 and t.use is not None and t.use.can(self.ctx(p, t)):
                    out.append({"do": "token", "token": tid})
        if not p.hand:
            out.append({"do": "end"})
        return out

    def _can_buy(self, p: Player, item_id: str, coupon: bool) -> bool:
        item = self.items[item_id]
        ctx = self.ctx(p, item, item=item_id, discount=5 if coupon else 0)
        if item.require_to_buy is not None and not item.require_to_buy.can(ctx):
            return False
        return self.cell_of(p).room.action.can(ctx)

    def apply(self, p: Player, option: dict) -> None:
        st = self.state
        do = option["do"]
        if do == "play":
            cid = option["card"]
            p.hand.remove(cid)
            p.play_area.append(cid)
            card = self.cards[cid]
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
            self.log(f"{p.name} acquires {cid}")
            if card.on_acquire is not None and card.card_type != "reserve":
                card.on_acquire(self.ctx(p, card))
            self.emit("acquire", p, card=card)
        elif do == "use":
            card = self.cards[option["card"]]
            p.skill -= card.cost
            st.row.remove(card.id)
            st.dungeon_discard.append(card.id)
            self.log(f"{p.name} uses {card.id}")
            card.on_use(self.ctx(p, card))
        elif do == "defeat":
            card = self.cards[option["card"]]
            p.combat -= card.defeat_cost
            if not card.never_discarded:
                st.row.remove(card.id)
                st.dungeon_discard.append(card.id)
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
            options = self.legal_actions(p)
            choice = self.ask(p, "action", options)
            if choice["do"] == "end":
                break
            self.apply(p, choice)
            if not p.active and not p.hand:
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
        p.rewards = set()
        self.subs.clear()
        self.watches.clear()
        self.onces = {o for o in self.onces if o[0] != "turn"}
        if st.over:
            return
        self.refill()

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
            self.log(f"{cid} arrives in the row")
            if card.on_arrive is not None:
                card.on_arrive(self.ctx(st.players[st.current], card))
            self.emit("arrive", st.players[st.current], card=card)
            attack = attack or bool(card.dragon_attack)
        if attack:
            self.dragon_attack()

    def play(self, cap: int) -> dict:
        st = self.state
        capped = False
        while not st.over:
            for seat in range(len(st.players)):
                st.current = seat
                self.play_turn(st.players[seat])
                if st.over or all(not q.active for q in st.players):
                    break
            if all(not q.active for q in st.players):
                st.over = True
                st.end_reason = st.end_reason or "every player escaped or was knocked out"
            if st.over:
                break
            st.round += 1
            if st.round > cap:
                capped = True
                break
        result = score(self)
        result.update(rounds=st.round, capped=capped, end=st.end_reason)
        return result


def score(engine: Engine) -> dict:
    scores, details = [], []
    for p in engine.state.players:
        if not p.treasures or (p.status == KNOCKED_OUT and p.knocked_in_depths):
            scores.append(0)
            details.append({})
            continue
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
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    tb = {i: sum(engine.token_defs[t].value for t in engine.state.players[i].treasures) for i in tied}
    top = max(tb.values())
    winners = [i for i in tied if tb[i] == top]
    return {"scores": scores, "details": details, "winners": winners,
            "finished": [p.status == ESCAPED for p in engine.state.players]}


def new_state(data, players: int, rng, side: str = "start_a") -> State:
    if players > rule(data, "max_players"):
        raise ValueError(f"{players} players need the 墓穴派对 pack (packs/tomb_party); "
                         f"the base game is for at most {rule(data, 'max_players')}")
    cards = data.kinds["card"]
    tokens = data.kinds["token"]
    # B: 22 depth tiles shuffled, 2 of the 6 safe tiles back to the box, 4 on top.
    depths = [t.id for t in data.of("tile") if t.area == "depths" for _ in range(t.count)]
    safe = [t.id for t in data.of("tile") if t.area == "safe" for _ in range(t.count)]
    rng.shuffle(depths)
    rng.shuffle(safe)
    stack = depths + safe[:rule(data, "safe_tiles_used")]           # top last
    # C: treasure stack by value (lowest on top), secrets and prisoners shuffled.
    treasures = sorted((t for t in data.of("token") if t.token_type == "treasure" for _ in range(t.count)),
                       key=lambda t: (t.value, not t.above_equal))
    def pile(kind):                                  # the PILED token types
        ids = [t.id for t in data.of("token") if t.token_type in kind for _ in range(t.count)]
        rng.shuffle(ids)
        return ids
    state = State(players=[], cells={}, tile_stack=stack,
                  treasure_stack=[t.id for t in treasures], majors=pile(("major_secret",)),
                  minors=pile(("minor_secret",)), prisoners=pile(("prisoner", "coupon")),
                  dungeon_deck=[])
    state.bag["black"] = data.get("component", "dragon_cubes").count
    state.ghosts = data.get("component", "ghost_cubes").count
    state.market = {i.id: list(i.points) for i in data.of("market_item")}
    state.mastery_left = min(players, tokens["mastery"].count)
    # D: the starting tile.
    start = data.get("tile", side)
    for i, (dx, dy, room_id, exits) in enumerate(start.cells):
        icons = {}
        if dy == 1 and start.icons:                     # the icons are on the upper half's tunnels
            icons = {k: list(start.icons[k]) for k in "NESW" if k in start.icons}
        cell = Cell((dx, dy), start, data.get("room", room_id), exits, icons, bool(start.depths[i]))
        if room_id == "monkey_shrine":
            cell.idols = tokens["monkey_idol"].count
        state.cells[(dx, dy)] = cell
    mausoleum = next(p for p, c in state.cells.items() if c.room.room_type == "mausoleum")
    # E: reserve and a dungeon row with no dragon-attack icon.
    for c in data.of("card"):
        if c.card_type == "reserve":
            state.reserve[c.id] = c.count
    deck = [c.id for c in data.of("card") if c.card_type in ("acquire", "device", "monster")
            for _ in range(c.count)]
    rng.shuffle(deck)
    row, removed = [], []
    while len(row) < rule(data, "row_size"):
        cid = deck.pop()
        (removed if cards[cid].dragon_attack else row).append(cid)
    deck += removed
    rng.shuffle(deck)
    state.row, state.dungeon_deck = row, deck
    # F, G: cubes, lockpicks, starting decks, 5 cards.
    start_deck = [c.id for c in data.of("card") if c.card_type == "starting" for _ in range(c.per_deck)]
    per_player = data.get("component", "player_cubes").per_player
    for seat in range(players):
        p = Player(seat, mausoleum, cubes=per_player, lockpicks=rule(data, "start_lockpicks"))
        p.deck = list(start_deck)
        rng.shuffle(p.deck)
        p.hand = [p.deck.pop() for _ in range(rule(data, "hand_size"))]
        state.players.append(p)
    # A: the dragon marker; H: the initial Clank! by seat.
    state.rage = rule(data, "rage_start")[str(players)] - 1
    party = players > 4 and "party_initial_clank" in data.kinds["rule"]
    clank = list(rule(data, "party_initial_clank" if party else "initial_clank"))
    for seat, p in enumerate(state.players):
        n = clank[seat] if seat < len(clank) else 0
        p.cubes -= n
        state.clank_area[seat] += n
    return state


def play_game(data, players: int, rng, agents: list, options: dict | None = None) -> dict:
    options = options or {}
    state = new_state(data, players, rng.fork("setup"), options.get("side", "start_a"))
    engine = Engine(data, state, agents, log_enabled=bool(options.get("log")))
    engine.rng = rng.fork("play")
    for cid in list(state.row):                          # arrive cards of the setup row
        card = engine.cards[cid]
        if card.on_arrive is not None:
            card.on_arrive(engine.ctx(state.players[0], card))
    result = engine.play(options.get("round_cap", rule(data, "round_cap")))
    if options.get("log"):
        result["log"] = list(state.log)
    return result
