"""The query handlers generated effects call (game.yaml `queries`)."""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf, Monster, engine_twin, subject


class Queries:
    """Query handlers (game.yaml `queries`)."""

    def __init__(self, engine: Monsters) -> None:
        self.e = engine

    def __deepcopy__(self, memo: dict) -> "Queries":
        """The queries of a trial's copy of the game (runtime/lookahead.copy_game)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(vars(self))
        new.e = engine_twin(self.e, memo)
        return new

    def roll(self, ctx, die: str, amount: int):
        faces = self.e.roll(die, amount)
        target = ctx.info.get("target_obj")
        if ctx.info.get("mode") is not None and isinstance(target, Monster) and self._lit(target.pos) \
                and die != "pickaxe_die" and faces:
            # a flare's light: reroll 1 hit die of this damage roll (L836-842); the worst one
            worst = min(range(len(faces)), key=lambda i: (faces[i].get("hits") or 0, i))
            if (faces[worst].get("hits") or 0) < 2:
                faces = list(faces)
                faces[worst] = self.e.roll(die, 1)[0]
                self.e.last_roll = faces
                self.e.log("the flare's light: 1 die rerolled")
        self._upgrade_reacts(ctx, faces)
        return faces

    def _upgrade_reacts(self, ctx, faces: list) -> None:
        """`attack_rolled`: the installed upgrade's triggers on it, and the dwarf's own."""
        weapon, d = ctx.info.get("weapon"), ctx.you
        if weapon is None or not isinstance(d, Dwarf) or not faces or ctx.info.get("from"):
            return
        up = d.upgrades.get(weapon.slot)
        self.e.last_roll = faces              # reroll works on these dice, in place
        self.e.emit("attack_rolled", you=d,
                    effect=self.e.data.get("weapon_upgrade", up).effect if up is not None else None)

    def _lit(self, pos: Hex) -> bool:
        return any(pos == f or pos in hx.neighbours(f) for f in self.e.state.tokens.get("flare", {}))

    def faces(self, ctx, roll, face: str) -> int:
        return sum(f["face"] == face for f in roll)

    def hits(self, ctx, roll) -> int:
        return sum(f.get("hits") or 0 for f in roll)

    def best_die(self, ctx, roll) -> int:
        return max((f.get("hits") or 0 for f in roll), default=0)

    def _pos(self, who) -> Hex | None:
        return getattr(who, "pos", None)

    def _shooter(self, ctx) -> Hex | None:
        """Where the attack comes from: BOSCO's space when BOSCO fires, else the dwarf's."""
        return tuple(ctx.info["from"]) if ctx.info.get("from") is not None else self._pos(ctx.you)

    def in_range(self, ctx, rng: int) -> bool:
        """Whether a space of the creature (either of the Oppressor's 2, L1197) is within `rng`
        of the shooter or of the area's centre. The spaces that are are noted for
        `line_of_sight`, which must see one of them (a target space in range AND sight, L392)."""
        a = tuple(ctx.info["origin"]) if ctx.info.get("origin") is not None else self._shooter(ctx)
        who = subject(ctx)
        if a is None or self._pos(who) is None:
            return False
        want = ctx.info.get("target_obj")
        if want is not None and (ctx.it is not want):
            return False
        near = [h for h in self._spaces(who) if hx.distance(a, h) <= rng]
        ctx.info["within"] = (who, near)
        return bool(near)

    def line_of_sight(self, ctx) -> bool:
        who = subject(ctx)
        a = self._shooter(ctx)
        if a is None or self._pos(who) is None:
            return False
        mode = ctx.info.get("mode")
        lob = (mode.get("ignores_line_of_sight") if mode is not None else None) or "none"
        noted = ctx.info.get("within")
        spaces = noted[1] if noted is not None and noted[0] is who else self._spaces(who)
        return any(self.e.los(a, b, lob) for b in spaces)

    def _spaces(self, who) -> tuple:
        return who.spaces() if isinstance(who, Monster) else (who.pos,)

    def adjacent(self, ctx) -> bool:
        a, b = self._pos(ctx.you), self._pos(subject(ctx))
        return a is not None and b is not None and hx.distance(a, b) <= 1

    def distance_to_monster(self, ctx) -> int:
        me = ctx.self
        others = [m for m in self.e.state.monsters.values() if m is not me]
        # a creature on two spaces (the Oppressor, L1197) is as near as its nearer space
        return min((hx.distance(me.pos, h) for m in others for h in m.spaces()), default=99)

    def has_status(self, ctx, status: str) -> bool:
        who = subject(ctx)                # the candidate of a where-clause, the item of an each
        if who is None:
            who = ctx.self or ctx.you
        if status == "full_health":
            return isinstance(who, Dwarf) and who.health >= self.e.health_cap(who)
        return status in getattr(who, "statuses", ())

    def dwarf_in_range(self, ctx) -> bool:
        return bool(self.e.targets_in_range(ctx.self))

    def in_lit_area(self, ctx) -> bool:
        return self._lit(self._pos(subject(ctx)))

    def flying(self, ctx) -> bool:
        return bool(self.e.monster_def(subject(ctx) or ctx.self).flying)

    def size(self, ctx) -> int:
        return self.e.monster_def(subject(ctx)).size or 1

    def hazard_level(self, ctx) -> int:
        return self.e.hazard

    def on_last_square(self, ctx) -> bool:
        return self.e.state.threat >= self.e.track_len - 1
