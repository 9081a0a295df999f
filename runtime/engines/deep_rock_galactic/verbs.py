"""The verb handlers generated effects call (game.yaml `verbs`)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import actions, hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.events import carry_out_event
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.movement import enter
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, WALLS, Dwarf, Monster, engine_twin, subject
from tomecraft.runtime.engines.deep_rock_galactic.verbs_damage import DamageVerbs


class Verbs(DamageVerbs):
    """Verb handlers called by generated effects (game.yaml `verbs`)."""

    def __init__(self, engine: Monsters) -> None:
        self.e = engine
        self.area_hit: list[Hex] = []      # the spaces the last area attack hit (Scare follows)

    def __deepcopy__(self, memo: dict) -> "Verbs":
        """The verbs of a trial's copy of the game (runtime/lookahead.copy_game)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(vars(self))
        new.e, new.area_hit = engine_twin(self.e, memo), list(self.area_hit)
        return new

    def _dwarf(self, ctx) -> Dwarf | None:
        """The dwarf a verb acts on: what the effect is about (state.subject: the item of the
        innermost `each`, the `target`, a trigger's subject) if a dwarf, else the other of
        `target` and `it` that is one, else you (the acting dwarf)."""
        about = subject(ctx)
        if isinstance(about, Dwarf):
            return about
        for who in (ctx.target, ctx.it, ctx.you):
            if isinstance(who, Dwarf):
                return who
        return None

    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        d = ctx.you
        if ctx.info.get("unpaid"):             # placed by the mission: nothing is paid
            return True
        if resource == "actions":
            return ctx.info.get("free") or (d is not None and d.actions >= amount)
        if resource == "ammo" and ctx.info.get("any_ammo"):    # the sentry gun (L652)
            return d is not None and d.ammo + d.secondary_ammo >= amount
        if resource == "ammo":
            return d is not None and d.ammo >= amount
        if resource == "secondary_ammo":
            return d is not None and d.secondary_ammo >= amount
        return self.e.state.shared[resource] >= amount

    def pay(self, ctx, resource: str, amount: int) -> None:
        d = ctx.you
        if ctx.info.get("unpaid") or amount <= 0:      # nothing to pay (see gain)
            return
        if resource == "actions":
            if not ctx.info.get("free"):
                d.actions -= amount
        elif resource == "ammo" and ctx.info.get("any_ammo"):   # primary first, then secondary
            primary = min(d.ammo, amount)
            d.ammo -= primary
            d.secondary_ammo -= amount - primary
        elif resource == "ammo":
            d.ammo -= amount
        elif resource == "secondary_ammo":
            d.secondary_ammo = max(0, d.secondary_ammo - amount)
        else:
            self.e.state.shared[resource] -= amount

    def gain(self, ctx, resource: str, amount: int) -> None:
        # An amount read from the game may come out below 1 (`gain nitra (hazard_level() - 5)`):
        # nothing is gained. Taking it as a count to add left the Shared Supply at -6 Nitra and a
        # dwarf at -4 ammo: minerals are tokens in the supply (rulebook L515) and ammo tokens on
        # the board's spaces (L236), never fewer than none.
        if amount <= 0:
            return
        d = self._dwarf(ctx)
        if resource in ("ammo", "secondary_ammo") and d is not None:
            setattr(d, resource, min(self.e.ammo_cap(d, resource), getattr(d, resource) + amount))
        elif self.e.mine_head_mission and d is not None:
            d.carried[resource] += amount
        else:
            self.e.state.shared[resource] += amount

    def deposit(self, ctx, resource: str, amount: int) -> None:
        if amount > 0:                                  # see gain
            self.e.state.shared[resource] += amount

    def take_damage(self, ctx, amount: int) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            if isinstance(ctx.self, Monster) and self.e.shielded(d.pos):
                return
            self.e.hurt(d, amount)

    def heal(self, ctx, amount: int) -> None:
        d = self._dwarf(ctx)
        if d is None or not d.conscious:
            return
        at = ctx.info.get("at")
        pile = self.e.state.ground.get(tuple(at)) if at is not None else None
        take = max(0, min(amount, self.e.health_cap(d) - d.health))
        if pile is not None and pile["health_cube"]:
            # cubes picked up from the ground (L538), by the striker only if he stands on that
            # space (L1399: '若敲击的矮人身处该格子且血量未满'); else they lie for passers-by
            take = min(take, pile["health_cube"]) if d.pos == tuple(at) else 0
            pile["health_cube"] -= take
            if not +pile:
                del self.e.state.ground[tuple(at)]
        d.health += take

    def inflict(self, ctx, status: str) -> None:
        who = subject(ctx)
        if self._inflict_per_die(ctx, who, status):
            return
        if isinstance(who, Dwarf):
            if not self.e.shielded(who.pos):
                who.statuses.add(status)
        elif isinstance(who, Monster):
            if not (status == "stunned" and self.e.monster_def(who).stun_immune):
                who.statuses.add(status)

    def _inflict_per_die(self, ctx, who, status: str) -> bool:
        """A fire mode whose hits carry a status and deal no damage (Frost Bite, L1309): its
        dice are assigned as they would be for damage (L462-464), and every monster a hit went
        to gets the status (L466), not only the target. True when done so."""
        mode, d = ctx.info.get("mode"), ctx.you
        if not (isinstance(who, Monster) and isinstance(d, Dwarf) and mode is not None
                and mode.get("hit_status") == status and (mode.get("dice") or 0) > 0
                and mode.get("assign") not in ("beam", "area") and self.e.last_roll):
            return False
        per_monster = self.e.assign(d, mode, who, self.e.last_roll, ctx.info.get("plan"),
                                    ctx.info.get("from_behind", False), tuple(ctx.info.get("aim") or who.pos))
        for uid, hits in per_monster.items():
            m = self.e.state.monsters.get(uid)
            if m is not None and hits > 0 and not (status == "stunned" and self.e.monster_def(m).stun_immune):
                m.statuses.add(status)
        return True

    def become(self, ctx, status: str) -> None:
        """"you become" (game.yaml): the acting dwarf, each one under `each player`."""
        if isinstance(ctx.you, Dwarf):
            ctx.you.statuses.add(status)

    def remove_status(self, ctx, status: str) -> None:
        about = subject(ctx)
        for who in (about if about is not None else ctx.target, ctx.you):
            if who is not None:
                who.statuses.discard(status)

    def spawn(self, ctx, creature: str, amount: int) -> None:
        if amount <= 0:
            return
        # beside the creature whose effect it is (alive or just killed), else at the first exit
        beside = isinstance(ctx.self, Monster)
        origin = ctx.self.pos if beside else (self.e.active_exits() or [None])[0]
        if origin is None:
            return
        placed = self.e.spawn(creature, origin, amount, ctx.you if isinstance(ctx.you, Dwarf) else None, beside)
        if "placed" in ctx.info:
            ctx.info["placed"].extend(placed)

    def spawn_at_exits(self, ctx, creature: str, amount: int) -> None:
        for h in self.e.active_exits():
            placed = self.e.spawn(creature, h, amount, ctx.you if isinstance(ctx.you, Dwarf) else None)
            if "placed" in ctx.info:
                ctx.info["placed"].extend(placed)

    def activate_monsters(self, ctx) -> None:
        if ctx.info.get("defer_activation"):
            return
        skip = {m.uid for m in ctx.info.get("placed", [])} if ctx.info.get("others_only") else set()
        self.e.activate_all(skip, move_and_attack=bool(ctx.info.get("move_and_attack")))

    def activate_other_monsters(self, ctx) -> None:
        """"Activated all other Creature" (L929): every monster but the ones this card placed."""
        if ctx.info.get("defer_activation"):
            ctx.info.setdefault("activation", {})["others_only"] = True    # the Swarm activates
            return
        self.e.activate_all({m.uid for m in ctx.info.get("placed", [])})

    def activate_monsters_move_and_attack(self, ctx) -> None:
        """"Move and attack" (L935, L970; Fast Critters, L1201): every creature that moves
        attacks after its move if a dwarf is in range; none attacks twice."""
        if ctx.info.get("defer_activation"):
            return
        self.e.activate_all(move_and_attack=True)

    def advance_threat(self, ctx, amount: int) -> None:
        self.e.advance_threat(amount)

    def reveal_swarm(self, ctx, amount: int) -> None:
        self.e.swarm(amount)

    def draw_rock_and_stone(self, ctx, amount: int) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            self.e.draw_rock_and_stone(d, amount)

    def draw_throwable(self, ctx) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            self.e.draw_throwable(d)

    def draw_event(self, ctx) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            carry_out_event(self.e, d)

    def place(self, ctx, token: str, amount: int) -> None:
        at = ctx.info.get("at", ctx.info.get("origin"))
        if token == "flame" and ctx.info.get("target_obj") is not None:
            self._flames(ctx, ctx.info["target_obj"], amount)
            return
        if at is None:
            raise EffectError(f"place {token}: no space chosen")
        if token == "health_cube":            # Blood Sugar's cubes lie on the struck space
            self.e.state.ground.setdefault(tuple(at), Counter())["health_cube"] += amount
            return
        at = tuple(at)
        if token == "sentry_gun":             # the one sentry gun on the board (State.sentry)
            self.e.state.sentry = at
        elif self.e.token_room(token) > 0 or at in self.e.state.tokens.get(token, {}):
            self.e.state.tokens.setdefault(token, {})[at] = ctx.you.seat if ctx.you else -1
        else:
            return
        self.e.placed.setdefault(ctx.info.get("play"), []).append((token, at))

    def _flames(self, ctx, target: Monster, amount: int) -> None:
        """Flaming Ground (L790-808): the first flame on the target space if its creature died,
        else on an empty space next to it; the others on empty spaces next to the target space
        and connected to the flames already placed. The target space is the one fired at (the
        Oppressor's rear, L392, L1197), else the creature's own. Which spaces, the rulebook
        leaves to the firer (L798-800): his player chooses each flame (`flame`) among the
        legal spaces, the first one offered the nearest him, then the lowest (Engine.suggest)."""
        st = self.e.state
        aim = tuple(ctx.info.get("aim") or target.pos)
        flames = st.tokens.setdefault("flame", {})
        owner = ctx.you.seat if isinstance(ctx.you, Dwarf) else -1
        amount = min(amount, self.e.token_room("flame"))      # 6 flame tokens (L260)
        if amount <= 0:
            return

        def empty(h: Hex) -> bool:
            return (st.terrain(h) in OPEN and h not in flames and not st.monster_at(h)
                    and not st.dwarf_at(h) and h not in st.stalagmites)
        placed: list[Hex] = []
        if target.uid not in st.monsters:
            placed.append(aim)
        while len(placed) < amount:
            spots = [h for h in hx.neighbours(aim) if empty(h) and h not in placed
                     and (not placed or any(h in hx.neighbours(p) for p in placed))]
            if not spots:
                break                  # the first flame that cannot be placed is not (L798)
            spots.sort(key=lambda h: (hx.distance(h, ctx.you.pos), h) if not placed else h)
            placed.append(spots[0] if len(spots) == 1 else tuple(self.e.decide(ctx, "flame", spots)))
        for h in placed:
            flames[h] = owner

    def fail_mission(self, ctx) -> None:
        self.e.state.result = "failure"

    def scare(self, ctx, steps: int) -> None:
        """The target flees the firer; an area attack (HE Grenade, L694) scares every monster
        left in its area, away from the target space and from the firer."""
        target = ctx.target if ctx.target is not None else ctx.info.get("target_obj")
        if not isinstance(target, Monster) or not isinstance(ctx.you, Dwarf):
            return
        mode = ctx.info.get("mode")
        if mode is None or mode.get("assign") != "area":
            for m in self._scared_by_dice(ctx, target):
                self.e.scare(m, tuple(ctx.info.get("from") or ctx.you.pos), steps)
            return
        area = self.area_hit or [target.pos]
        scared = {m.uid: m for h in area if (m := self.e.state.monster_at(h)) is not None}
        for m in scared.values():
            self.e.scare(m, [area[0], ctx.you.pos], steps)

    def _scared_by_dice(self, ctx, target: Monster) -> list[Monster]:
        """Who a Scare face scares (L450: the monster its die went to): with the dice
        assigned by a plan (a sweep, L462-464), the monster on each Scare die's space; else
        the target, if it still lives."""
        plan, mode, roll = ctx.info.get("plan"), ctx.info.get("mode"), self.e.last_roll
        sweep = mode is not None and mode.get("assign") not in ("best_die", "choose_one", "single_target")
        if plan is None or not sweep or len(plan) != len(roll):
            return [target] if target.uid in self.e.state.monsters else []
        scared: dict[int, Monster] = {}
        for face, h in zip(roll, plan):
            m = self.e.state.monster_at(tuple(h)) if face.get("face") == "scare" else None
            if m is not None:
                scared.setdefault(m.uid, m)
        return list(scared.values())

    def forbid_move(self, ctx) -> None:
        """The IFG (L1351): monsters cannot enter or leave its area, every space within the
        thrown card's `area` of the landing space, not only the token's space. The area is
        kept as `ifg_field` marks placed by the same play, so they leave the board with the
        card's token (discard_self); Board.monster_stepper fences them."""
        at, card = ctx.info.get("origin"), ctx.info.get("card")
        if at is None:
            return
        radius = (self.e.data.get("throwable", card).area or 0) if card else 0
        seat = ctx.you.seat if isinstance(ctx.you, Dwarf) else -1
        field = self.e.state.tokens.setdefault("ifg_field", {})
        placed = self.e.placed.setdefault(ctx.info.get("play"), [])
        for h in hx.disc(tuple(at), radius):
            if h in self.e.state.cells and h not in field:
                field[h] = seat
                placed.append(("ifg_field", h))

    def discard_self(self, ctx) -> None:
        """The effect ends: its triggers stop, the tokens it placed leave the board, and a
        delayed throwable's card goes to the discard pile (L1351-1359)."""
        self.e.discard_play(ctx.info.get("play"))
        card = ctx.info.get("card")
        if card is not None and ctx.info.get("delayed"):
            self.e.state.throwable_discard.append(card)

    def destroy(self, ctx, terrain: str) -> None:
        """Explosives clear the area around the landing space; minerals drop (L1359-1363)."""
        at = ctx.info.get("origin")
        if at is None:
            raise EffectError("destroy: no area")
        st = self.e.state
        area = [tuple(at), *hx.neighbours(tuple(at))]
        for h in area:
            if terrain == "wall" and st.terrain(h) in WALLS:
                if h in st.minerals:
                    st.ground.setdefault(h, Counter())[st.minerals.pop(h)] += 1
                st.cells[h] = "."
            if terrain == "stalagmite":
                st.stalagmites.discard(h)

    def retrieve(self, ctx, token: str) -> None:
        at = ctx.info.get("origin")
        if at is None:
            raise EffectError("retrieve: no area")
        area = {tuple(at)} | set(hx.neighbours(tuple(at)))
        for h in list(self.e.state.tokens.get(token, {})):
            if h in area:
                del self.e.state.tokens[token][h]

    # --- verbs that move, fight and help: the same rules as the actions (actions.py) ---------
    def push(self, ctx, steps: int) -> None:
        """Sticky Grenade (L1357): the thrower moves the single target up to `steps` spaces
        along its own passability; creatures on several spaces or that never move stay."""
        e, m = self.e, subject(ctx)
        if not isinstance(m, Monster) or e.monster_def(m).move == 0 or (e.monster_def(m).size or 1) > 1:
            return
        step = e.monster_stepper(m)
        reach = hx.bfs_from([m.pos], step)
        spots = sorted(h for h, n in reach.items()
                       if n <= steps and (h == m.pos or e.monster_can_stop(m, h)))
        dest = e.decide(ctx, "push", spots)
        for h in hx.path_to(m.pos, {dest}, step) or []:
            e.enter_monster(m, h)
            if m.uid not in e.state.monsters:
                return
        m.pos = dest
        e.log(f"{m.kind}#{m.uid} is moved to {list(dest)}")

    def move(self, ctx, steps: int) -> None:
        """A free move of up to `steps` spaces with the Move action's passability and entry
        rules (L300-380); `end_move` from anything entered stops it."""
        e, d = self.e, ctx.you
        if not isinstance(d, Dwarf) or not d.conscious:
            return
        passable = lambda a, b: e.dwarf_step(d, a, b)
        reach = hx.bfs_from([d.pos], passable)
        spots = sorted(h for h, n in reach.items() if n <= steps and (h == d.pos or e.dwarf_can_stop(d, h)))
        dest = e.decide(ctx, "move", spots)
        e.move_ended = False
        for h in hx.path_to(d.pos, {dest}, passable) or []:
            d.pos = h
            if enter(e, d, h) or e.move_ended or not d.conscious:
                break
        e.move_ended = False
        e.note_pod_left()

    def end_move(self, ctx) -> None:
        self.e.move_ended = True

    def attack(self, ctx) -> None:
        """One action-free ranged attack with any fire mode the dwarf could use now, or the
        throwable a Move states (`then_throw`: Light-Footed, L818)."""
        d = ctx.you
        if not isinstance(d, Dwarf):
            return
        if ctx.info.get("throw") is not None:   # Light-Footed's other choice: a throwable (L818)
            actions.HANDLERS["throw"](self.e, d, {**ctx.info["throw"], "do": "throw", "free": True})
            return
        saved, d.actions = d.actions, max(d.actions, 3)     # free: any mode's action cost is met
        try:
            shots = [{k: s[k] for k in ("do", "weapon", "mode", "target")} for s in actions.legal_attacks(self.e, d)]
            if "shot" in ctx.info:              # the shot a Move states (then_fire), if legal now
                stated = ctx.info["shot"]
                shots = [s for s in shots if stated is not None and
                         (s["weapon"], s["mode"], s["target"]) == (stated["weapon"], stated["mode"], stated["target"])]
                if not shots and stated is not None:
                    self.e.log("no target in range and line of sight for the free shot")
            if shots:
                actions.attack(self.e, d, {**self.e.decide(ctx, "attack", shots), "free": True})
        finally:
            d.actions = saved

    def overclock(self, ctx) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            d.overclocked = True                     # cap 5; no refill (L588-590)

    def reroll(self, ctx, amount: int) -> None:
        """Reroll the `amount` worst dice of the last roll, in place, so `hits(r)` sees them."""
        roll = self.e.last_roll
        # below 1, none (a negative slice, `[:-1]`, rerolled every die but one)
        worst = sorted(range(len(roll)), key=lambda i: (roll[i].get("hits") or 0, i))[:max(0, amount)]
        for i in worst:
            roll[i] = self.e.roll(self.e.last_die, 1)[0]
        self.e.last_roll = roll

    def revive(self, ctx) -> None:
        """Revive (L626): the target (or you) stands up with 1 health."""
        d = self._dwarf(ctx)
        if d is not None and not d.conscious:
            self.e.revive(d)

    def call_supply_pod(self, ctx) -> None:
        """A supply pod lands on a space the dwarf chooses (L594-604), the cost paid elsewhere."""
        spots = actions.supply_pod_spots(self.e)
        if spots:
            actions.land_supply_pod(self.e, self.e.decide(ctx, "supply_pod", spots))

    def place_around_target(self, ctx, token: str) -> None:
        """`token` on each empty space next to the target, never a Tunnel Exit or a pit."""
        target = subject(ctx)
        if target is not None:
            self.e.place_around(target.pos, token, ctx.you.seat if isinstance(ctx.you, Dwarf) else -1)

    def raise_shield(self, ctx) -> None:
        """Shield Generator (L724-732): the shield's 7 spaces around where it was placed."""
        at = ctx.info.get("at", ctx.info.get("origin"))
        if at is None and not isinstance(ctx.you, Dwarf):
            raise EffectError("raise_shield: no space and no dwarf")   # refused by check
        self.e.shield = tuple(at) if at is not None else ctx.you.pos

