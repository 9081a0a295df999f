"""Damage and attacks: dwarves' shots and their hit assignment, monsters' attacks, the way
they face and the rear space of one on two spaces, kills, explosions (their Scare is a
monster move: monsters.py), the sentry gun, and the cards a dwarf draws (rulebook L440-470,
L660)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, hexindex
from tomecraft.runtime.engines.deep_rock_galactic.board import Board
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf, Monster
from tomecraft.runtime.scenario import ScenarioError

OVERCLOCKED_SECONDARY = 5   # an overclocked secondary's ammo spaces (L588, L608)
UNASKED = object()          # on_the_way: nearest_by_steps not asked yet


class Combat(Board):
    # --- damage --------------------------------------------------------------------------------
    def warden_protects(self, m: Monster) -> int:
        for w in self.state.monsters.values():
            wdef = self.monster_def(w)
            # a creature on 2 spaces (the Oppressor, L1197) is in the field if either space is
            if w is not m and wdef.field_range and \
                    min(hx.distance(w.pos, h) for h in m.spaces()) <= wdef.field_range:
                return wdef.field_reduction or 0
        return 0

    def fields(self, struck) -> dict[int, int]:
        """Per monster one attack strikes, the Warden field's protection when the attack is
        made: a Warden the same attack kills still shields the others from it (its damage is
        reckoned once the dice are assigned, L474-476), whichever monster is resolved first."""
        return {m.uid: self.warden_protects(m) for m in struck}

    def damage_monster(self, m: Monster, dtype: str, hits: int, attacker: Dwarf | None,
                       ignore_resistance: bool = False, from_behind: bool = False,
                       status: str | None = None, field: int | None = None) -> int:
        """One attack's total hits on one monster: resistance once (A-10), Warden field, rear.
        A dwarf's attack is `attacked` before resistance; any HP lost is `damaged`. `field`:
        the Warden field's protection as the attack found it (`fields`), else as it is now."""
        if m.uid not in self.state.monsters:
            return 0
        if attacker is not None:
            self.emit("attacked", it=m, hits=hits, behind=from_behind)
            if m.uid not in self.state.monsters:
                return 0
        mdef = self.monster_def(m)
        res = 0
        if not ignore_resistance and not (from_behind and mdef.rear_ignores_resistance):
            if not (dtype == "pickaxe" and attacker is not None and self.has_ability(attacker, "drill_attack")):
                res = self.resistance(m, dtype)
        if field is None:
            field = self.warden_protects(m)
        dealt = max(0, hits - res - (field if attacker is not None else 0))
        if status and hits > 0 and not (status == "stunned" and mdef.stun_immune):
            m.statuses.add(status)
        if dealt <= 0:
            return 0
        m.damage += dealt
        self.log(f"{m.kind}#{m.uid} takes {dealt} ({hits} {dtype} hits - {hits - dealt})")
        self.emit("damaged", it=m, amount=dealt)
        if m.damage >= mdef.hp:
            self.kill(m, attacker)
        elif mdef.hides_when_damaged and attacker is not None and not m.statuses & {"stunned", "frozen"}:
            m.hidden_from = attacker.seat
        return dealt

    def kill(self, m: Monster, killer: Dwarf | None) -> None:
        st = self.state
        if m.uid not in st.monsters:
            return
        del st.monsters[m.uid]
        st.killed[m.kind] += 1
        mdef = self.monster_def(m)
        self.log(f"{m.kind}#{m.uid} dies")
        if mdef.kill_reward and killer is not None:
            self.draw_rock_and_stone(killer, mdef.kill_reward)
        if mdef.self_destructs:
            self.explode(m)
        if mdef.on_kill is not None and not mdef.kill_reward:
            # ranges and line of sight of its effect are measured from the dying creature
            self.run(mdef.on_kill, you=killer, self_=m, origin=m.pos, **{"from": m.pos})
        self.emit("killed", it=m, killer=killer)

    def explode(self, m: Monster) -> None:
        """The Exploder's adjacent ring takes one Explosive roll (its attack and its death)."""
        self.state.monsters.pop(m.uid, None)
        result = self.roll("explosive_die", 1)
        hits = sum(f.get("hits", 0) or 0 for f in result)
        scare = any(f["face"] == "scare" for f in result)
        ring = hx.neighbours(m.pos)
        caught: set[int] = set()      # a creature on 2 spaces of the ring is hit once (L1197, L1207)
        for h in ring:
            d = self.state.dwarf_at(h)
            if d is not None and d.conscious and not self.shielded(h):
                self.hurt(d, hits)
            other = self.state.monster_at(h)
            if other is not None and other.uid not in caught:
                caught.add(other.uid)
                if hits:
                    self.damage_monster(other, "explosive", hits, None)
                if scare and other.uid in self.state.monsters:
                    self.scare(other, m.pos, 2)
        if self.state.sentry in ring and not scare:    # a Scare spares the sentry gun (L1081)
            self.state.sentry = None

    def hurt(self, d: Dwarf, n: int) -> None:
        if n <= 0 or not d.conscious:
            return
        d.health = max(0, d.health - n)
        self.log(f"{d.cls} takes {n} damage ({d.health} left)")
        if d.health == 0:
            d.statuses = {"unconscious"}
            self.log(f"{d.cls} is unconscious")
            if self.state.bosco_alive:
                self.revive(d)
                self.state.bosco_alive, self.state.bosco = False, None
                self.log("BOSCO revives the dwarf and is destroyed")
            elif all(not x.conscious for x in self.state.dwarves if not x.in_pod) and \
                    not any(x.in_pod for x in self.state.dwarves):
                self.state.result = "failure"
                self.log("every dwarf is unconscious: the mission fails")

    # --- facing and size (Praetorian, Oppressor: L1171-1175, L1197) -----------------------------
    def face_nearest_dwarf(self, m: Monster) -> None:
        """Rule rear_arc: a monster is placed facing the nearest dwarf, the one its move goes
        toward (L1177): nearest by its own ways (`attack_spots`, Monsters': round walls and
        pits, L1010), equally near ones to the dwarf who acted most recently (L972); with no
        way to any, the nearest in hexes, ties alike."""
        alive = [d for d in self.state.dwarves if d.conscious and not d.in_pod]
        if alive:
            toward = self.nearest_by_steps(m, self.monster_stepper(m))
            d = toward[0] if toward is not None else \
                min(alive, key=lambda d: (hx.distance(m.pos, d.pos), -d.acted_at, d.seat))
            self.face(m, d.pos)
        self.settle_tail(m)

    def nearest_by_steps(self, m: Monster, step) -> tuple[Dwarf, dict] | None:
        """(the dwarf the monster moves toward, the steps from each space to him), None with
        no way to any: the nearest standing dwarf by its own ways (L933, rule a07_distance:
        round walls and pits, L1010; past other monsters, L990; never through a dwarf, L988),
        of equally near ones the one who acted most recently (L972). Not the one whose range
        it reaches first: a Web Spitter 2 hexes from a dwarf behind a wall walks round the
        wall to him, not away to shoot one 7 hexes off. `step`: its monster_stepper."""
        best = None
        for d in self.state.dwarves:
            if not d.conscious or d.in_pod:
                continue
            back = steps_to((d.pos,), step)
            if m.pos in back and (best is None or (back[m.pos], -d.acted_at, d.seat) < best[0]):
                best = ((back[m.pos], -d.acted_at, d.seat), d, back)
        return None if best is None else best[1:]

    def on_the_way(self, m: Monster, step, reach: dict, toward=UNASKED) -> tuple[dict, Dwarf | None]:
        """(the part of `reach`, the monster's steps to each space, that is nearer than its own
        space to the dwarf it moves toward, with its own; that dwarf): it moves toward him
        (L933, `nearest_by_steps`) and stops on the first space on the way from which it can
        attack (L970), never on one aside that brings it no nearer him. All of `reach` and
        None with no way to any dwarf. `toward`: `nearest_by_steps`'s answer, if asked already
        while nothing has moved since."""
        if toward is UNASKED:
            toward = self.nearest_by_steps(m, step)
        if toward is None:
            return reach, None
        d, back = toward
        here = back[m.pos]
        return {h: n for h, n in reach.items() if back.get(h, here) < here or h == m.pos}, d

    def attack_spots(self, m: Monster, reach: dict, can_stop: set, blocks=None,
                     only: Dwarf | None = None) -> tuple | None:
        """The monster's target, the nearest dwarf (L933): the one it reaches range of in the
        fewest steps, counting spaces other monsters hold (ties to the one who acted most
        recently, L972): (that dwarf, the (steps, hex) of the empty spaces in its range in that
        order, the index of the first in its line of sight, the sight blocker read), or None if
        it has no way into range, or no empty space in range of the nearest dwarf (it then
        comes as near him as it can, `closer_spots`, not toward another). `blocks`: a sight
        blocker read while nothing has moved since (else one of its own); `only`: that dwarf
        alone (the one its move goes toward, `on_the_way`)."""
        st = self.state
        rng = max(1, self.monster_def(m).attack_range)
        if blocks is None:
            blocks = self.sight_blocker()      # nothing moves while the monster looks
        sees = blocks.sees
        best, best_key = None, None
        for d in st.dwarves:
            if not d.conscious or d.in_pod or (only is not None and d is not only):
                continue
            # the nearest space to attack this dwarf from: line of sight checked nearest first
            spots = sorted((reach[h], h) for h in hx.within(d.pos, rng, can_stop))
            first = next((i for i, (_, h) in enumerate(spots) if sees(h, d.pos)), None)
            # how near he is: a space in range another monster holds counts too (L990: it
            # may pass there), so every space beside him taken he stays the nearest
            steps = spots[first][0] if first is not None else None
            held = sorted((reach[h], h) for h in hx.disc(d.pos, rng)
                          if h in reach and h not in can_stop and (steps is None or reach[h] < steps))
            steps = next((n for n, h in held if sees(h, d.pos)), steps)
            if steps is None:
                continue
            key = (steps, -d.acted_at, d.seat)
            if best_key is None or key < best_key:
                best, best_key = ((d, spots, first, blocks) if first is not None else None), key
        return best

    def face(self, m: Monster, goal: Hex) -> None:
        if goal != m.pos:
            m.facing = hx.toward(m.pos, goal)

    def from_behind(self, m: Monster, attacker: Hex) -> bool:
        """Rule rear_arc: the rear ("the green area", not reproduced in the guide) is the
        120-degree arc behind the way the monster faces; the Oppressor's behind its rear
        space, its unarmoured weak spot (L1203-1205), not beside the middle of its body."""
        if m.tail is not None:
            return hx.in_rear_arc(m.tail, m.pos, attacker)
        return m.facing is not None and hx.in_rear_arc(m.pos, m.facing, attacker)

    def settle_tail(self, m: Monster) -> None:
        """A monster on two spaces (size 2) trails its second space behind its front one, else
        keeps it where it was (it turned to attack), else takes the first free space next to it
        (rule two_space_body); never across the shield's or an IFG's edge (`rear_may_take`)."""
        if (self.monster_def(m).size or 1) < 2:
            return
        behind = hx.ahead(m.facing, m.pos) if m.facing is not None else None
        around = hx.neighbours(m.pos)
        ring = [behind, m.tail] + sorted(around)
        m.tail = next((h for h in ring if h in around and self.rear_may_take(m, m.pos, h)), None)

    def rear_may_take(self, m: Monster, front: Hex, h: Hex) -> bool:
        """Whether the rear of a monster on two spaces, its front on `front`, may lie on h (next
        to it): an empty space, on the same side as the front of the shield's and an IFG's
        edge (no monster enters or leaves their areas, L730, L980, L1351)."""
        if h not in self.state.cells or not self.monster_can_stop(m, h):
            return False
        st = self.state
        areas = [set(st.tokens.get("ifg", {})) | set(st.tokens.get("ifg_field", {}))]
        if self.shield is not None:
            areas.append({self.shield, *hx.neighbours(self.shield)})
        return all((h in area) == (front in area) for area in areas)

    # --- target spaces and hit assignment (rulebook L392, L458-468) ---------------------------
    def aims(self, shooter: Hex, m: Monster, reach: int, lob: str = "none") -> list[Hex]:
        """The spaces of `m` a shot from `shooter` may take as its target space (L392): within
        `reach` and in sight; the front first, then the Oppressor's rear space (L1197)."""
        return [h for h in m.spaces() if hx.distance(shooter, h) <= reach and self.los(shooter, h, lob)]

    def assign(self, d: Dwarf, mode, target: Monster, dice: list[dict], plan: list | None = None,
               from_behind: bool = False, aim: Hex | None = None) -> dict[int, int]:
        """Assign each die to a space: the first must be a hit on the target space (`aim`, or
        with a plan either of the target's spaces in range and LOS); each next one to an
        assigned space or one next to it, in range and LOS; a die's hits never split.
        `plan` lists, per die, a hex (scenarios); without it dice sweep to adjacent monsters
        once the target has enough. Returns hits per monster uid (a monster on 2 spaces once)."""
        rng = mode.get("range") or 1
        lob = mode.get("ignores_line_of_sight") or "none"
        aim = aim or target.pos
        first_spaces = self.aims(d.pos, target, rng, lob) or [aim]
        assign = mode.get("assign") or "sweep"
        if assign == "best_die":
            dice = sorted(dice, key=lambda f: -(f.get("hits") or 0))[:1]
        if assign == "choose_one":
            dice = sorted(dice, key=lambda f: -(f.get("hits") or 0))[:1]
        order = sorted(range(len(dice)), key=lambda i: -(dice[i].get("hits") or 0))
        spaces: list[Hex] = []
        per_space: Counter = Counter()

        def legal(h: Hex, first: bool) -> bool:
            if first:
                return h in first_spaces
            if assign in ("single_target", "best_die", "choose_one"):
                return h == target.pos or h == target.tail
            near = any(h == s or h in hx.neighbours(s) for s in spaces)
            return near and hx.distance(d.pos, h) <= rng and self.los(d.pos, h, lob)

        if plan is not None:
            if len(plan) != len(dice):   # a plan a die short is the scenario's mistake, not a rule's refusal
                raise ScenarioError(f"plan: {len(dice)} dice rolled but {len(plan)} spaces planned: "
                                    "the plan pairs every die as rolled with a space")
            if not any(f.get("hits") for f in dice):
                return {target.uid: 0}   # all missed: no first hit to place, as unplanned (L454)
            # the plan pairs the dice as rolled with spaces; the player assigns them in the order
            # he likes (L470): first a hit on the target, then each die where it may go by then
            left = [(face, tuple(h)) for face, h in zip(dice, plan)]
            first = next((x for x in left if (x[0].get("hits") or 0) and legal(x[1], True)), None)
            if first is None:
                raise EffectError("the first die assigned must be a hit on the target")
            left.remove(first)
            spaces.append(first[1])
            where = ("the target's space" if assign in ("single_target", "best_die", "choose_one")
                     else f"an assigned space or one next to it, within range {rng} and in line of sight")
            for face, h in [first] + _chained(left, lambda h: legal(h, False), spaces, where):
                per_space[h] += face.get("hits") or 0
        else:
            need = self.hp(target) - target.damage + self.resistance(target, mode.get("die").replace("_die", "") if mode.get("die") else "")
            for n, i in enumerate(order):
                face = dice[i]
                h = aim
                if n > 0 and per_space[aim] >= need:
                    for cand in sorted(hx.neighbours(aim)):
                        other = self.state.monster_at(cand)
                        if other is not None and other is not target and legal(cand, False):
                            h = cand
                            break
                spaces.append(h)
                per_space[h] += face.get("hits") or 0
        hits: Counter = Counter()
        for h, n in per_space.items():
            m = self.state.monster_at(h)
            if m is not None:
                hits[m.uid] += n
        return dict(hits)

    def fire(self, d: Dwarf, weapon_id: str, mode_index: int, target: Monster,
             plan: list | None = None, free: bool = False, from_behind: bool = False) -> bool:
        """A ranged attack: its effect pays and targets; the engine assigns dice and applies."""
        weapon = self.data.get("weapon", weapon_id)
        mode = weapon.modes[mode_index]
        self.acting = d
        before = (d.actions, d.ammo, d.secondary_ammo)
        lob = mode.get("ignores_line_of_sight") or "none"
        aims = self.aims(d.pos, target, mode.get("range") or 1, lob)
        if not aims:
            return False
        try:
            ok = self.run(mode.get("effect"), you=d, target=None, weapon=weapon, mode=mode, aim=aims[0],
                          target_obj=target, plan=plan, from_behind=from_behind, free=free)
        except EffectError:
            d.actions, d.ammo, d.secondary_ammo = before    # an illegal assignment: nothing happened
            raise
        if free:
            d.actions = before[0]
        if ok:
            d.acted_at = self.tick()
            d.used[(weapon_id, mode.get("id"))] += 1
        return ok

    # --- cards in hand -------------------------------------------------------------------------
    def draw_rock_and_stone(self, d: Dwarf, n: int = 1) -> None:
        """Rock and Stone cards from the deck (the discard reshuffled when it runs out)."""
        st = self.state
        for _ in range(n):
            if not st.rs_deck and st.rs_discard:
                st.rs_deck, st.rs_discard = st.rs_discard, []
                self.rng.shuffle(st.rs_deck)
            if not st.rs_deck:
                return
            d.rock_and_stone.append(st.rs_deck.pop())

    def revive(self, d: Dwarf) -> None:
        """Revive (L626): the dwarf gets up with 1 health."""
        d.statuses.discard("unconscious")
        d.health = 1

    def health_cap(self, d: Dwarf) -> int:
        """The health spaces of the dwarf's board: its class's `health` (5 in the base game,
        L234, L608); healing, supplies and refills stop there."""
        return self.data.get("dwarf", d.cls).health

    def ammo_cap(self, d: Dwarf, resource: str) -> int:
        """Ammo spaces: the class's `primary_ammo` and `secondary_ammo` (5 and 3 in the base
        game, L608); overclocking unlocks the secondary's reserve to 5 (L588), never fewer
        than the class has; plus an installed upgrade's extra spaces."""
        board = self.data.get("dwarf", d.cls)
        slot = "primary" if resource == "ammo" else "secondary"
        if resource == "ammo":
            base = board.primary_ammo
        else:
            base = max(OVERCLOCKED_SECONDARY, board.secondary_ammo) if d.overclocked else board.secondary_ammo
        up = d.upgrades.get(slot)
        return base + ((self.data.get("weapon_upgrade", up).ammo_cap or 0) if up else 0)

    def take_upgrade(self, d: Dwarf, upgrade: str) -> None:
        """A picked-up upgrade goes straight onto a free slot it fits (L1369), the one the
        Move's `upgrade_to` names, else the first; or it waits on the character board (none
        free, or `spare` named: L1371)."""
        fits = self.data.get("weapon_upgrade", upgrade).fits or ()
        free = [slot for slot in fits if slot not in d.upgrades]
        wanted = self.upgrade_to.get(upgrade)
        if wanted is not None:
            free = [slot for slot in free if slot == wanted]
        if free:
            d.upgrades[free[0]] = upgrade
            self.log(f"{d.cls} installs {upgrade} on the {free[0]} weapon")
        else:
            d.spare_upgrades.append(upgrade)
            d.used[("spare", upgrade)] += 1      # installed from his next action phase (L1371)
            self.log(f"{d.cls} keeps {upgrade}")

    def draw_throwable(self, d: Dwarf) -> None:
        """The top Throwable card of the deck (L153); when the deck runs out its discard pile
        (L580) is shuffled into a new one. None left anywhere: no card."""
        st = self.state
        if not st.throwable_deck and st.throwable_discard:
            st.throwable_deck, st.throwable_discard = st.throwable_discard, []
            self.rng.shuffle(st.throwable_deck)
        if st.throwable_deck:
            d.throwables.append(st.throwable_deck.pop())

    # --- the sentry gun's window ---------------------------------------------------------------
    def open_window(self) -> None:
        """A new Event, Swarm or dwarf action: `once per activation` triggers (the sentry gun,
        L664) may fire at every monster again."""
        self.window += 1

    def attack_if_possible(self, m: Monster) -> bool:
        mdef = self.monster_def(m)
        dwarves = self.targets_in_range(m)
        st = self.state
        if not dwarves:
            if self.sentry_in_reach(m):
                at = st.sentry
                if mdef.self_destructs and at in hx.neighbours(m.pos):
                    # its blast is the attack: a Scare face spares the sentry gun (L1081)
                    self.log(f"{m.kind}#{m.uid} attacks the sentry gun")
                    self.explode(m)
                    return True
                self.log(f"{m.kind}#{m.uid} attacks the sentry gun: it returns to the Engineer")
                st.sentry = None
                if mdef.self_destructs:
                    self.explode(m)
                elif mdef.attack_places:           # goo around its target, the sentry (L1249)
                    self.place_around(at, mdef.attack_places, -1)
                return True
            lure = next((h for h in sorted(st.tokens.get("lure", {}))
                         if hx.distance(m.pos, h) <= mdef.attack_range and self.los(m.pos, h)), None)
            if lure is not None:   # L1353: with no dwarf or sentry in range it attacks the LURE
                self.log(f"{m.kind}#{m.uid} attacks the LURE at {list(lure)}")
                return True
            return False
        target = self.pick_dwarf(m, dwarves)
        self.monster_attack(m, target)
        return True

    def monster_attack(self, m: Monster, d: Dwarf) -> None:
        mdef = self.monster_def(m)
        self.face(m, d.pos)                    # rule rear_arc: it turns to its target
        self.settle_tail(m)
        self.log(f"{m.kind}#{m.uid} attacks {d.cls}")
        self.emit("monster_attacks", it=m)
        if mdef.self_destructs:
            self.explode(m)
            return
        faces = self.roll(mdef.attack_die or "monster_die", mdef.attack_dice or 0)
        if self.shielded(d.pos):
            self.log("the shield stops the attack")
        else:
            for f in faces:
                if f["face"] != "teeth" or not d.conscious:
                    continue
                if mdef.teeth is not None:         # the creature's own teeth effect
                    self.run(mdef.teeth, you=d, self_=m, target=d)
                else:
                    self.hurt(d, 1)
            for f in faces:
                if f["face"] == "bang" and mdef.bang is not None and d.conscious:
                    self.run(mdef.bang, you=d, self_=m, target=d)
        if mdef.attack_places:
            self.place_around(d.pos, mdef.attack_places, -1)


def _chained(dice: list, legal, spaces: list, where: str) -> list:
    """`dice` ((face, space) pairs) in an order where each space is legal once the ones before
    it are assigned; `legal` reads `spaces`, to which each is added. EffectError if none fits
    (`where` says where a die may go)."""
    out, left = [], list(dice)
    while left:
        nxt = next((x for x in left if legal(x[1])), None)
        if nxt is None:
            raise EffectError(f"a die cannot go to {list(left[0][1])}: each die after the first "
                              f"goes to {where}")
        left.remove(nxt)
        out.append(nxt)
        spaces.append(nxt[1])
    return out


# (a monster kind's enterable spaces, the dwarves' spaces in order) -> the steps from each space
# to the nearest of them, the last few: nearest_by_steps asks one per standing dwarf at every
# monster's move and placing (ten thousand a 20-game sim), walking_distances one for them all;
# the search remembered in hexgrid is keyed by the enterable spaces and the dwarves' joined in
# a new set, built and hashed at every ask
_STEPS_TO: dict = {}
_STEPS_TO_KEPT = 256


def steps_to(starts: tuple[Hex, ...], step) -> dict:
    """`hx.bfs_leaving(starts, step.enterable | set(starts), step.fences, unfenced=set(starts))`
    (`starts`: dwarves' spaces, sorted), remembered by the enterable set itself (a frozenset
    keeps its hash), and the fences as they stand (a shield, an IFG: mutable sets, frozen
    here). Shared: read it only."""
    fences = step.fences
    key = (step.enterable, starts, tuple(map(frozenset, fences))) if fences else (step.enterable, starts)
    back = _STEPS_TO.get(key)
    if back is None:
        if len(_STEPS_TO) >= _STEPS_TO_KEPT:
            del _STEPS_TO[next(iter(_STEPS_TO))]       # the oldest
        back = _STEPS_TO[key] = (
            hx.bfs_leaving(starts, step.enterable.union(starts), fences, unfenced=set(starts)) if fences
            else hexindex.leaving(starts, step.enterable, every_start=True))
    return back
