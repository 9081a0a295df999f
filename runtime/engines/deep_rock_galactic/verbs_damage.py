"""The damage verbs (game.yaml `deal`, `deal_ignoring_resistance`): a weapon's hits on its
target, and on whatever else the attack reaches (an area, a beam, a sweep), each creature
struck once, from behind or not by its own facing (L392, L460-466, L1171, L1195-1207)."""
from __future__ import annotations

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf, Monster, subject
from tomecraft.runtime.scenario import ScenarioError


class DamageVerbs:
    """Mixed into Verbs: `self.e` is the engine, `self.area_hit` the spaces last hit."""

    def deal(self, ctx, damage_type: str, hits: int) -> None:
        e = self.e
        if isinstance(ctx.self, Monster):            # the Exploder's own blast
            e.explode(ctx.self)
            return
        mode = ctx.info.get("mode")
        target = subject(ctx)
        if mode is None or not isinstance(target, Monster):
            if isinstance(target, Monster):
                e.log(f"{ctx.info.get('source') or 'an effect'}: {hits} {damage_type} hits on "
                      f"{target.kind}#{target.uid}")
                shooter = self._attacked_from(ctx, target)
                e.damage_monster(target, damage_type, hits, ctx.you,
                                 from_behind=shooter is not None and e.from_behind(target, shooter))
            return
        d = ctx.you
        status = mode.get("hit_status")
        aim = tuple(ctx.info.get("aim") or target.pos)     # the target space (L392): either of 2
        if mode.get("assign") == "beam":
            self._beam(ctx, target, damage_type, hits, status, aim)
            return
        if mode.get("assign") == "area":
            plan = ctx.info.get("plan")            # the 2 spaces the firer chose, if stated
            area = [aim] + (self._chosen_pair(aim, plan) if plan is not None else self._area_pair(aim))
            self.area_hit = area
            self._hit_spaces(ctx, area, damage_type, hits, status, target)
            return
        per_monster = e.assign(d, mode, target, e.last_roll, ctx.info.get("plan"),
                               ctx.info.get("from_behind", False), aim)
        fields = e.fields(e.state.monsters[uid] for uid in per_monster if uid in e.state.monsters)
        for uid, n in sorted(per_monster.items(), key=lambda kv: (self._blows_up(kv[0]), kv[0])):
            m = e.state.monsters.get(uid)
            if m is not None:
                e.damage_monster(m, damage_type, n, d, from_behind=self._behind(ctx, m, target),
                                 status=status, field=fields[uid])

    def _attacked_from(self, ctx, target: Monster) -> Hex | None:
        """Where a shot without a fire mode comes from, for 'from behind' (L1171, L1195): the
        sentry gun's space (it attacks too, L662), the thrower's for a throwable aimed at this
        one creature; None for a blast around where a throwable landed."""
        if ctx.info.get("source") == "the sentry":
            return self.e.state.sentry
        if ctx.info.get("card") is not None and ctx.info.get("target_obj") is target and isinstance(ctx.you, Dwarf):
            return ctx.you.pos
        return None

    def _behind(self, ctx, m: Monster, target: Monster) -> bool:
        """Whether the attack strikes `m` from behind (L1171, L1195): the target as the attack
        states it, any other monster it catches by where it faces from the shooter."""
        if m is target:
            return ctx.info.get("from_behind", False)
        shooter = tuple(ctx.info["from"]) if ctx.info.get("from") is not None else getattr(ctx.you, "pos", None)
        return shooter is not None and self.e.from_behind(m, shooter)

    def _beam(self, ctx, target: Monster, damage_type: str, hits: int, status, aim: Hex) -> None:
        """Breach Cutter's Focused Beam (L1319): the roll hits every creature between the
        firer and the target space `aim`, dwarves too, and the target; each monster once."""
        self._hit_spaces(ctx, hx.beam(ctx.you.pos, aim), damage_type, hits, status, target,
                         spare=ctx.you)

    def _hit_spaces(self, ctx, spaces, damage_type: str, hits: int, status, target: Monster,
                    spare: Dwarf | None = None) -> None:
        """The roll on every creature on `spaces`: each monster once (an Oppressor on two of
        them, L1207), from behind by its own facing; each dwarf but `spare` hurt."""
        e, d = self.e, ctx.you
        struck = list({m.uid: m for m in map(e.state.monster_at, spaces) if m is not None}.values())
        fields = e.fields(struck)
        for m in sorted(struck, key=lambda m: self._blows_up(m.uid)):     # stable: space order
            e.damage_monster(m, damage_type, hits, d, status=status,
                             from_behind=self._behind(ctx, m, target), field=fields.get(m.uid))
        for h in spaces:
            friend = e.state.dwarf_at(h)
            if friend is not None and friend is not spare:
                e.hurt(friend, hits)

    def _blows_up(self, uid: int) -> bool:
        """A creature that explodes when killed (the Exploder, L1087) takes an attack's damage
        after the others it strikes: its blast then finishes only what the attack left, and a
        kill the dwarf's own hits made is his (L489), whichever the setup listed first."""
        m = self.e.state.monsters.get(uid)
        return m is not None and bool(self.e.monster_def(m).self_destructs)

    @staticmethod
    def _chosen_pair(h: Hex, plan: list) -> list[Hex]:
        """The firer's triangle (L690): 2 spaces next to the target `h` and to each other."""
        pair = [tuple(x) for x in plan]
        if len(pair) != 2:         # the scenario's mistake, not the triangle rule's refusal
            raise ScenarioError(f"plan: an area's triangle names its 2 other spaces, not {len(pair)}")
        if any(x not in hx.neighbours(h) for x in pair) or pair[1] not in hx.neighbours(pair[0]):
            raise EffectError(f"the triangle is the target and 2 spaces next to it and to each other, "
                              f"not {[list(x) for x in pair]}")
        return pair

    def _area_pair(self, h: Hex) -> list[Hex]:
        """The triangle's 2 other spaces when the firer states none: the most monsters, the
        fewest dwarves."""
        ring = hx.neighbours(h)
        best, score = ring[:2], -1
        for a in ring:
            for b in ring:
                if a < b and b in hx.neighbours(a):
                    s = sum(self.e.state.monster_at(x) is not None for x in (a, b)) \
                        - 2 * sum(self.e.state.dwarf_at(x) is not None for x in (a, b))
                    if s > score:
                        best, score = [a, b], s
        return best

    def deal_ignoring_resistance(self, ctx, hits: int) -> None:
        target = subject(ctx)
        if isinstance(target, Monster):
            self.e.damage_monster(target, "pickaxe", hits, ctx.you, ignore_resistance=True)
