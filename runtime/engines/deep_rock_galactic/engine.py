"""The Deep Rock Galactic engine: setup from a mission, the dwarves' Action Phase, the Event
Phase, swarms, monster activation, success and failure.

Content drives the rules: monster stats and "!" effects, weapon modes (dice, range, cost,
assignment), event and swarm cards, pickups and the mission event are generated definitions;
effects run through the verbs and queries below (runtime/effects.py Context API).
Rule choices where the guide is silent are the `rule` entities of content/.../rules.yaml.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from tomecraft.runtime.effects import Context, EffectError, check_handlers
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import cells_of
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, WALLS, Dwarf, Monster, State

CLASSES = ("engineer", "gunner", "driller", "scout")
DEFAULT_SECONDARY = {"engineer": "warthog", "gunner": "bulldog", "driller": "subata", "scout": "zhukov"}
FALLBACK_SECONDARY = "zhukov"        # a pack's new class
MAX_ROUNDS = 60


def plain(value: Any) -> Any:
    """Generated Records and tuples -> plain dicts and lists (mission data)."""
    fields = getattr(value, "_fields", None)
    if fields is not None:
        return {k: plain(v) for k, v in fields.items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def load_mission(data, options: dict) -> dict:
    """The mission to play: options["mission"] (a mapping), else the content's mission
    options["mission_id"], else Mission 1."""
    chosen = options.get("mission")
    if isinstance(chosen, dict):
        return chosen
    if chosen:
        # The runtime never reads files: `tomecraft sim --mission` validates the file with
        # compiler.missions.load_mission and passes the mission mapping here.
        raise ValueError("pass the mission as the mapping compiler.missions.load_mission returns")
    m = data.get("mission", options.get("mission_id") or "m01")
    out = {k: plain(getattr(m, k)) for k in ("objective", "hazard", "minerals", "pickups",
                                              "remove_cards", "hidden_monsters", "tokens", "drop_pod",
                                              "tunnel_exits", "mine_head", "stalagmites", "mineral_spaces",
                                              "drones", "map")}
    out["id"], out["mission_event_fx"] = m.id, m.mission_event
    return {k: v for k, v in out.items() if v is not None}


def parse_map(text: str) -> dict[Hex, str]:
    """The hexes of a mission map, read by the one map reader the checker also uses."""
    return cells_of(text)


class Engine:
    def __init__(self, data, state: State, agents: list, rng, options: dict | None = None,
                 log_enabled: bool = False) -> None:
        self.data, self.state, self.agents, self.rng = data, state, agents, rng
        self.options = dict(options or {})
        self.rules = {r.id: r.value for r in data.of("rule")}
        track = plain(self.rules["g11_track_length"])
        self.track_len, self.swarm_squares = track["squares"], set(track["swarm_squares"])
        self.hazard = int(self.options.get("hazard", 2))
        self.verbs, self.queries = Verbs(self), Queries(self)
        self.token_defs = {t.token: t for t in data.of("board_token")}
        check_handlers(data, self.verbs, self.queries)
        self.move_ended = False         # set by the end_move verb during a move
        self.log_enabled, self.lines = log_enabled, []
        self.mission_event = None
        self.shots: set = set()         # once-per marks of effects (Engine.once)
        self.window = 0                 # which Event, Swarm or dwarf action is under way
        self.sentry_shots: set = set()  # (window, monster uid): the sentry fired at it (L664)
        self.last_roll: list = []
        self.last_die = ""
        self.plan: list | None = None   # scripted hit assignment (scenarios)
        self.acting: Dwarf | None = None
        self.flares: dict[Hex, int] = {}
        self.shield: Hex | None = None
        self.mine_head_mission = False
        self.forced_rolls: list[list[dict]] = []
        self.ziplines: set[tuple[Hex, Hex]] = set()   # (one end, other end) ground spaces
        self.spawned: Counter = Counter()
        self.activated: Counter = Counter()
        self.mission: dict = {"objective": {"type": "collect", "targets": {}}}

    # --- bookkeeping -----------------------------------------------------------------------
    def log(self, message: str) -> None:
        if self.log_enabled:
            self.lines.append(message)

    def monster_def(self, m: Monster):
        return self.data.get("monster", m.kind)

    def resistance(self, m: Monster, dtype: str) -> int:
        res = self.monster_def(m).resistances
        return int(plain(res).get(dtype, 0)) if res else 0

    def hp(self, m: Monster) -> int:
        return self.monster_def(m).hp

    def decide(self, ctx, key: str, options: list):
        seat = ctx.you.seat if isinstance(ctx.you, Dwarf) else 0
        if key.endswith("!target") and ctx.info.get("target") is not None:
            wanted = ctx.info["target"]
            for o in options:
                if o is wanted:
                    return o
            raise EffectError(f"target {wanted} is not a legal target")
        if len(options) == 1:
            return options[0]
        agent = self.agents[seat % len(self.agents)]
        if options and isinstance(options[0], Monster):
            choice = agent.choose("target", [m.uid for m in options], self)
            return next(m for m in options if m.uid == choice)
        return agent.choose(key, options, self)

    def suggest(self, key: str, options: list) -> list:
        if key == "upgrade_trade":              # Deep Dive: trade an upgrade only when in need
            needy = [o for o in options if not o.get("keep") and (
                (o["refill"] == "health" and self.state.dwarves[o["dwarf"]].health <= 2)
                or (o["refill"] == "ammo" and self.state.dwarves[o["dwarf"]].ammo <= 1))]
            return needy or [o for o in options if o.get("keep")]
        if key.endswith(":may2") or "may" in key:
            return [True] if self.acting and self.acting.health > 3 else [False]
        return []

    # Context protocol
    def attr(self, ctx, obj, name):
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        if kind == "monster":
            return [m for m in self.state.monsters.values()
                    if m.hidden_from is None or not isinstance(ctx.you, Dwarf) or m.hidden_from != ctx.you.seat]
        if kind == "player":
            return [d for d in self.state.dwarves if d.conscious]
        if kind == "dwarf":                     # every dwarf on the board, unconscious ones too
            return [d for d in self.state.dwarves if not d.in_pod]
        return []

    def subscribe(self, ctx, event, where, body, key) -> None:
        # Pickups' and cards' triggers fire at once when the engine runs them for that event.
        if ctx.info.get("fire") == event and (where is None or where(ctx)):
            body(ctx)

    def watch(self, ctx, cond, body, key) -> None:
        raise EffectError("`when` is not used by Deep Rock Galactic content")

    def once(self, ctx, scope, key) -> bool:
        mark = (scope, key, getattr(ctx.self, "uid", None), self.state.clock)
        if mark in self.shots:
            return False
        self.shots.add(mark)
        return True

    def continuous(self, ctx, body, key) -> None:
        body(ctx)

    def modify(self, ctx, obj, name, op, value, key) -> None:
        raise EffectError("value layering is not used by Deep Rock Galactic content")

    def run(self, fx, you=None, self_=None, target=None, **info) -> bool:
        if fx is None:
            return False
        ctx = Context(self, you=you, self=self_, target=target, info=info)
        return fx(ctx)

    # --- board tokens: their movement rules come from the board_token definitions -----------
    def tokens_at(self, h: Hex) -> list:
        defs = self.token_defs
        return [defs[k] for k, where in self.state.tokens.items() if h in where and k in defs]

    def token_flag(self, h: Hex, flag: str) -> bool:
        return any(getattr(t, flag) for t in self.tokens_at(h))

    def stops_walker(self, h: Hex, flying: bool = False) -> bool:
        """A token that stops a walker entering it (goo): True, and the token is removed if
        its definition says so. Flying monsters ignore it unless it affects flyers."""
        stop = False
        for t in self.tokens_at(h):
            if t.stops_movement_on_entry and (t.affects_flying or not flying):
                stop = True
                if t.removed_on_entry:
                    del self.state.tokens[t.token][h]
        return stop

    def entry_damage(self, h: Hex) -> int:
        return sum(t.damage_on_entry or 0 for t in self.tokens_at(h))

    # --- geometry and passability ----------------------------------------------------------
    def is_open(self, h: Hex) -> bool:
        return self.state.terrain(h) in OPEN or h in self.state.pod and not self.state.pod_returned

    def blocks_los(self, h: Hex, lob: str = "none") -> bool:
        st = self.state
        t = st.terrain(h)
        if t in WALLS or t == "h" or t == "x":
            return True
        if lob == "all":
            return False
        if lob == "arc":
            return False
        if h in st.stalagmites or self.token_flag(h, "blocks_line_of_sight"):
            return True
        m = st.monster_at(h)
        if m is not None and self.monster_def(m).blocks_line_of_sight is not False:
            return True
        d = st.dwarf_at(h)
        return d is not None and d.conscious and "knocked_over" not in d.statuses

    def los(self, a: Hex, b: Hex, lob: str = "none") -> bool:
        return lob == "all" or hx.line_of_sight(a, b, lambda h: self.blocks_los(h, lob))

    def dwarf_step(self, d: Dwarf, a: Hex, b: Hex) -> bool:
        st = self.state
        t = st.terrain(b)
        zipped = b in st.tokens.get("zipline_end", {})
        if t == "o":
            return b in st.tokens.get("platform", {}) or d.cls == "scout"
        if t not in OPEN and not (b in st.pod):
            return zipped
        if b in st.stalagmites and self.has_ability(d, "power_drill"):
            return True                    # destroyed as the Driller moves (L766)
        if b in st.stalagmites or st.monster_at(b):
            return d.cls == "scout"
        if b in st.tokens.get("flame", {}) and d.cls == "scout":
            return False
        return True

    def dwarf_can_stop(self, d: Dwarf, h: Hex) -> bool:
        st = self.state
        if st.terrain(h) not in OPEN and h not in st.pod:
            return False
        if h in st.stalagmites and not self.has_ability(d, "power_drill"):
            return False
        if st.terrain(h) == "o" or st.monster_at(h):
            return False
        if st.dwarf_at(h) not in (None, d) or h == st.sentry or h in st.exits.values() or h == st.supply_pod:
            return False
        return True

    def has_ability(self, d: Dwarf, ability: str) -> bool:
        """Whether the dwarf's class has the ability (Power Drill, ...)."""
        return any(a.id == ability for a in self.data.get("dwarf", d.cls).abilities or ())

    def note_pod_left(self) -> None:
        """Once every dwarf has left the drop pod its spaces are cave (L194, L374)."""
        st = self.state
        if not st.pod_left and not any(d.pos in st.pod and not d.in_pod for d in st.dwarves):
            st.pod_left = True
            self.log("every dwarf has left the drop pod: its spaces are cave")

    def pod_closed(self, h: Hex) -> bool:
        """A drop pod space monsters may not enter (L978): the pod is there, not yet flipped
        to cave, or back to pick the dwarves up."""
        st = self.state
        return h in st.pod and (st.pod_returned or not st.pod_left)

    def shielded(self, h: Hex) -> bool:
        return self.shield is not None and (h == self.shield or h in hx.neighbours(self.shield))

    def monster_step(self, m: Monster, a: Hex, b: Hex) -> bool:
        return self.monster_stepper(m)(a, b)

    def monster_stepper(self, m: Monster):
        """`step(a, b)`: whether the monster may move from a into b (L976-996), with the
        board read once (path searches call it thousands of times)."""
        st = self.state
        mdef = self.monster_def(m)
        flying = bool(mdef.flying)
        destroys = set(mdef.destroys_on_path or ())
        closed = {h for h in st.pod if self.pod_closed(h)}
        ifg = set(st.tokens.get("ifg", {}))
        platforms = set(st.tokens.get("platform", {}))
        blocked = {h for k, where in st.tokens.items() if getattr(self.token_defs.get(k), "blocks_monster_movement", False)
                   for h in where}
        shield = ({self.shield} | set(hx.neighbours(self.shield))) if self.shield is not None else set()
        standing = {d.pos for d in st.dwarves if d.conscious and not d.in_pod}
        cells, stalagmites = st.cells, st.stalagmites

        def step(a: Hex, b: Hex) -> bool:
            if b in closed or (a in shield) != (b in shield) or (a in ifg) != (b in ifg):
                return False
            t = cells.get(b, "x")
            if t == "x":
                return False
            if t in WALLS or t == "h":
                return "wall" in destroys
            if b in blocked:
                return False
            if t == "o":
                return flying or b in platforms
            if b in stalagmites:
                return flying or "stalagmite" in destroys
            return flying or b not in standing
        return step

    def monster_can_stop(self, m: Monster, h: Hex) -> bool:
        st = self.state
        if st.terrain(h) not in OPEN or h in st.stalagmites or h == st.sentry or h == st.bosco:
            return False
        if self.pod_closed(h):
            return False
        # another monster there, whichever is found first (L990, L996)
        if any(o is not m and h in (o.pos, o.tail) for o in st.monsters.values()):
            return False
        return st.dwarf_at(h) is None and h != st.supply_pod

    # --- dice --------------------------------------------------------------------------------
    def roll(self, die: str, n: int) -> list[dict]:
        if self.forced_rolls:                       # scenarios script their dice
            out = self.forced_rolls.pop(0)
            self.last_roll, self.last_die = out, die
            return out
        faces = next(d for d in self.data.of("die") if d.die == die).faces
        out = [plain(self.rng.choice(faces)) for _ in range(n)]
        self.last_roll, self.last_die = out, die
        return out

    # --- damage --------------------------------------------------------------------------------
    def warden_protects(self, m: Monster) -> int:
        for w in self.state.monsters.values():
            wdef = self.monster_def(w)
            if w is not m and wdef.field_range and hx.distance(w.pos, m.pos) <= wdef.field_range:
                return wdef.field_reduction or 0
        return 0

    def damage_monster(self, m: Monster, dtype: str, hits: int, attacker: Dwarf | None,
                       ignore_resistance: bool = False, from_behind: bool = False,
                       status: str | None = None) -> int:
        """One attack's total hits on one monster: resistance once (A-10), Warden field, rear."""
        if m.uid not in self.state.monsters:
            return 0
        mdef = self.monster_def(m)
        res = 0
        if not ignore_resistance and not (from_behind and mdef.rear_ignores_resistance):
            if not (dtype == "pickaxe" and attacker is not None and attacker.cls == "driller"):
                res = self.resistance(m, dtype)
        dealt = max(0, hits - res - (self.warden_protects(m) if attacker is not None else 0))
        if status and hits > 0 and not (status == "stunned" and mdef.stun_immune):
            m.statuses.add(status)
        if dealt <= 0:
            return 0
        m.damage += dealt
        self.log(f"{m.kind}#{m.uid} takes {dealt} ({hits} {dtype} hits - {hits - dealt})")
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

    def explode(self, m: Monster) -> None:
        """The Exploder's adjacent ring takes one Explosive roll (its attack and its death)."""
        self.state.monsters.pop(m.uid, None)
        result = self.roll("explosive_die", 1)
        hits = sum(f.get("hits", 0) or 0 for f in result)
        ring = hx.neighbours(m.pos)
        for h in ring:
            d = self.state.dwarf_at(h)
            if d is not None and d.conscious and not self.shielded(h):
                self.hurt(d, hits)
            other = self.state.monster_at(h)
            if other is not None:
                if hits:
                    self.damage_monster(other, "explosive", hits, None)
                if any(f["face"] == "scare" for f in result) and other.uid in self.state.monsters:
                    self.scare(other, m.pos, 2)
        if self.state.sentry in ring:
            self.state.sentry = None

    def scare(self, m: Monster, source: Hex | list[Hex], steps: int) -> None:
        """Scare (L450-452): `steps` spaces away from the source; with several sources (the HE
        Grenade: the target space and the firer) a step gets no closer to any of them and
        further from at least one."""
        if self.monster_def(m).move == 0 or (self.monster_def(m).size or 1) > 1:
            return
        sources = [source] if isinstance(source, tuple) else list(source)

        def away(a: Hex, b: Hex) -> bool:
            gains = [hx.distance(b, s) - hx.distance(a, s) for s in sources]
            return min(gains) >= 0 and max(gains) > 0
        # every way of up to `steps` steps, each away from the sources; it may pass other
        # monsters but ends on an empty space (L990, L996): the longest such flight
        step = self.monster_stepper(m)
        ways, frontier = {m.pos: 0}, [m.pos]
        for n in range(1, steps + 1):
            frontier = sorted({b for a in frontier for b in hx.neighbours(a)
                               if b not in ways and step(a, b) and away(a, b)})
            ways.update({b: n for b in frontier})
        ends = [h for h in ways if h == m.pos or self.monster_can_stop(m, h)]
        m.pos = min(ends, key=lambda h: (-ways[h], h))

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

    # --- hit assignment (rulebook L458-468) ---------------------------------------------------
    def assign(self, d: Dwarf, mode, target: Monster, dice: list[dict], plan: list | None = None,
               from_behind: bool = False) -> dict[int, int]:
        """Assign each die to a space: the first must be a hit on the target; each next one to an
        assigned space or one next to it, in range and LOS; a die's hits never split.
        `plan` lists, per die, a hex (scenarios); without it dice sweep to adjacent monsters
        once the target has enough. Returns hits per monster uid."""
        rng = mode.get("range") or 1
        lob = mode.get("ignores_line_of_sight") or "none"
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
                return h == target.pos
            if assign in ("single_target", "best_die", "choose_one"):
                return h == target.pos or h == target.tail
            near = any(h == s or h in hx.neighbours(s) for s in spaces)
            return near and hx.distance(d.pos, h) <= rng and self.los(d.pos, h, lob)

        if plan is not None:
            if len(plan) != len(dice):
                raise EffectError(f"{len(dice)} dice but {len(plan)} assignments")
            for i, (face, h) in enumerate(zip(dice, plan)):
                h = tuple(h)
                if i == 0 and not (face.get("hits") or 0):
                    raise EffectError("the first die assigned must be a hit")
                if not legal(h, i == 0):
                    raise EffectError(f"die {i + 1} cannot go to {list(h)}")
                spaces.append(h)
                per_space[h] += face.get("hits") or 0
        else:
            need = self.hp(target) - target.damage + self.resistance(target, mode.get("die").replace("_die", "") if mode.get("die") else "")
            for n, i in enumerate(order):
                face = dice[i]
                h = target.pos
                if n > 0 and per_space[target.pos] >= need:
                    for cand in sorted(hx.neighbours(target.pos)):
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
        if hx.distance(d.pos, target.pos) > (mode.get("range") or 1) or not self.los(d.pos, target.pos, lob):
            return False
        try:
            ok = self.run(mode.get("effect"), you=d, target=None, weapon=weapon, mode=mode,
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
        """Revive (L626-632): the dwarf gets up with 1 health."""
        d.statuses.discard("unconscious")
        d.health = 1

    def ammo_cap(self, d: Dwarf, resource: str) -> int:
        """Ammo spaces: primary 5; secondary 3, or 5 overclocked (L592-596); plus an installed
        upgrade's extra spaces."""
        slot = "primary" if resource == "ammo" else "secondary"
        base = 5 if resource == "ammo" or d.overclocked else 3
        up = d.upgrades.get(slot)
        return base + ((self.data.get("weapon_upgrade", up).ammo_cap or 0) if up else 0)

    def take_upgrade(self, d: Dwarf, upgrade: str) -> None:
        """A picked-up upgrade goes straight onto a free slot it fits (L1369), else it waits
        on the character board."""
        fits = self.data.get("weapon_upgrade", upgrade).fits or ()
        free = [slot for slot in fits if slot not in d.upgrades]
        if free:
            d.upgrades[free[0]] = upgrade
            self.log(f"{d.cls} installs {upgrade} on the {free[0]} weapon")
        else:
            d.spare_upgrades.append(upgrade)
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

    def tick(self) -> int:
        self.state.clock += 1
        return self.state.clock

    # --- spawning ------------------------------------------------------------------------------
    def nearest_dwarf_distance(self, h: Hex) -> int:
        alive = [d.pos for d in self.state.dwarves if d.conscious and not d.in_pod]
        return min((hx.distance(h, p) for p in alive), default=0)

    def spawn(self, kind: str, origin: Hex, n: int = 1, chooser: Dwarf | None = None) -> list[Monster]:
        """Placement priority (L870-885): as close to the origin as possible, then towards the
        dwarves, then the drawing dwarf decides."""
        placed = []
        for _ in range(n):
            probe = Monster(0, kind, origin)
            step = self.monster_stepper(probe)
            dist = hx.bfs(origin, lambda a, b: step(a, b) or self.state.monster_at(b) is not None)
            free = [h for h in dist if self.monster_can_stop(probe, h)]
            flames = self.state.tokens.get("flame", {})
            usable = [h for h in free if h not in flames] or free
            if not usable:
                break
            best = min(dist[h] for h in usable)
            ring = [h for h in usable if dist[h] == best]
            toward = min(self.nearest_dwarf_distance(h) for h in ring)
            ring = sorted(h for h in ring if self.nearest_dwarf_distance(h) == toward)
            seat = chooser.seat if chooser else 0
            at = ring[0] if len(ring) == 1 else tuple(self.agents[seat % len(self.agents)].choose("spawn", ring, None))
            m = Monster(self.state.next_uid, kind, at)
            self.state.next_uid += 1
            self.state.monsters[m.uid] = m
            self.face_nearest_dwarf(m)
            self.spawned[kind] += 1
            placed.append(m)
            self.log(f"{kind}#{m.uid} spawns at {list(at)}")
            if at in flames:
                del flames[at]
                self.damage_monster(m, "fire", 1, None)
            if m.uid in self.state.monsters:
                self.sentry_reacts(m)
        return placed

    def active_exits(self) -> list[Hex]:
        out = []
        for number, h in sorted(self.state.exits.items()):
            if self.state.terrain(h) != "h":
                out.append(h)
        return out

    # --- the sentry gun ------------------------------------------------------------------------
    def open_window(self) -> None:
        """A new Event, Swarm or dwarf action: the sentry may fire at every monster again."""
        self.window += 1

    def sentry_reacts(self, m: Monster) -> None:
        """The sentry fires once at a monster that acts, is placed or moves within its range
        and line of sight, once per monster per Event or Swarm (L662-668)."""
        st = self.state
        if st.sentry is None or m.uid not in st.monsters or (self.window, m.uid) in self.sentry_shots:
            return
        if hx.distance(st.sentry, m.pos) <= 3 and self.los(st.sentry, m.pos):
            self.sentry_shots.add((self.window, m.uid))
            self.log(f"the sentry fires at {m.kind}#{m.uid}")
            hits = sum(f.get("hits") or 0 for f in self.roll("bullet_die", 1))
            engineer = next((d for d in st.dwarves if d.cls == "engineer"), None)
            self.damage_monster(m, "bullet", hits, engineer)

    # --- monster activation (L964-1027) ---------------------------------------------------------
    def targets_in_range(self, m: Monster) -> list:
        mdef = self.monster_def(m)
        out = []
        for d in self.state.dwarves:
            if d.conscious and not d.in_pod and hx.distance(m.pos, d.pos) <= mdef.attack_range \
                    and self.los(m.pos, d.pos):
                out.append(d)
        return out

    def pick_dwarf(self, m: Monster, dwarves: list[Dwarf]) -> Dwarf:
        return min(dwarves, key=lambda d: (hx.distance(m.pos, d.pos), -d.acted_at))

    def activate_all(self, skip: set[int] = frozenset(), move_and_attack: bool = False) -> None:
        """Every monster acts, kind by kind in board order (L937-962); of one kind the one
        nearest a dwarf first, ties decided by the dwarf who drew the card (L974)."""
        kinds = sorted(self.data.of("monster"), key=lambda k: k.order)
        for kind in kinds:
            group = [m for m in self.state.monsters.values() if m.kind == kind.id and m.uid not in skip]
            if not group:
                continue
            near = self.walking_distances(group)
            while group and not self.state.result:
                m = self.next_to_act(group, near)
                group.remove(m)
                if m.uid in self.state.monsters:
                    self.activate(m, move_and_attack)

    def walking_distances(self, group: list[Monster]) -> dict[int, int]:
        """Per monster of one kind: steps along its own ways (around pits, through other
        monsters) to the nearest dwarf; one it cannot reach counts by straight distance,
        after every reachable one."""
        alive = {d.pos for d in self.state.dwarves if d.conscious and not d.in_pod}
        if not alive:
            return {m.uid: 0 for m in group}
        step = self.monster_stepper(group[0])
        back = hx.bfs_from(alive, lambda a, b: a in alive or step(b, a))
        return {m.uid: back[m.pos] if m.pos in back else 1000 + min(hx.distance(m.pos, p) for p in alive)
                for m in group}

    def next_to_act(self, group: list[Monster], near: dict[int, int]) -> Monster:
        """The monster of `group` nearest a dwarf; on a tie the drawing dwarf chooses."""
        best = min(near[m.uid] for m in group)
        tied = sorted((m for m in group if near[m.uid] == best), key=lambda m: m.uid)
        if len(tied) == 1:
            return tied[0]
        seat = self.acting.seat if self.acting is not None else 0
        choice = self.agents[seat % len(self.agents)].choose("activation_order", [m.uid for m in tied], self)
        return next(m for m in tied if m.uid == choice)

    def activate(self, m: Monster, move_and_attack: bool = False) -> None:
        """One activation (L966-1002): attack if a dwarf is in range, else move (and attack
        after the move when the card or the creature says so); then its special, whatever
        way it moves."""
        mdef = self.monster_def(m)
        self.activated[m.kind] += 1
        if m.statuses & {"stunned", "frozen"}:
            m.statuses -= {"stunned", "frozen"}
            self.log(f"{m.kind}#{m.uid} skips its activation (G-10)")
            return
        self.sentry_reacts(m)
        if m.uid not in self.state.monsters:
            return
        if mdef.moves_toward == "none":
            if mdef.attacks:
                self.attack_if_possible(m)
        elif mdef.moves_toward == "monster":
            self.move_monster(m, toward_monsters=True)
        elif not (mdef.attacks and self.attack_if_possible(m)):
            self.move_monster(m)
            if m.uid in self.state.monsters and mdef.attacks and (move_and_attack or mdef.moves_then_attacks):
                self.attack_if_possible(m)
        if mdef.special is not None and m.uid in self.state.monsters and not self.state.result:
            self.run(mdef.special, self_=m)

    def sentry_in_reach(self, m: Monster) -> bool:
        """The sentry gun within the monster's attack range and line of sight."""
        st = self.state
        return st.sentry is not None and hx.distance(m.pos, st.sentry) <= self.monster_def(m).attack_range \
            and self.los(m.pos, st.sentry)

    def attack_if_possible(self, m: Monster) -> bool:
        mdef = self.monster_def(m)
        dwarves = self.targets_in_range(m)
        st = self.state
        if not dwarves:
            if self.sentry_in_reach(m):
                self.log(f"{m.kind}#{m.uid} attacks the sentry gun: it returns to the Engineer")
                st.sentry = None
                if mdef.self_destructs:
                    self.explode(m)
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

    def token_room(self, token: str) -> int:
        """How many more `token`s the box holds (its definition's `supply`); unlimited if
        none is given."""
        supply = getattr(self.token_defs.get(token), "supply", None)
        return 10 ** 6 if supply is None else max(0, supply - len(self.state.tokens.get(token, {})))

    def place_around(self, centre: Hex, token: str, owner: int) -> None:
        """`token` on each empty space next to `centre`, never a Tunnel Exit or a pit, while
        the supply lasts."""
        st = self.state
        for h in hx.neighbours(centre):
            if self.is_open(h) and h not in st.exits.values() and st.terrain(h) != "o" \
                    and not st.monster_at(h) and not st.dwarf_at(h) and self.token_room(token) > 0:
                st.tokens.setdefault(token, {})[h] = owner

    def move_monster(self, m: Monster, toward_monsters: bool = False) -> None:
        """Move (L966-996): toward the nearest dwarf (ties: the one who acted most recently,
        L972), stopping on the first empty space from which it can attack (L970); it passes
        other monsters but never ends on one (L990, L996). With no such space within its
        move it gets as close as it can, on an empty space."""
        mdef = self.monster_def(m)
        step = self.monster_stepper(m)
        reach = hx.bfs(m.pos, step)
        can_stop = {h for h in reach if h == m.pos or self.monster_can_stop(m, h)}
        goals = self.monster_goals(m, reach, can_stop, toward_monsters)
        if not goals or m.pos in goals:
            return
        near = [h for h in goals if reach[h] <= mdef.move]
        if near:
            dest = min(near, key=lambda h: (reach[h], h))
        else:
            back = hx.bfs_from(goals, lambda a, b: step(b, a))
            spots = [h for h in can_stop if reach[h] <= mdef.move and h in back]
            dest = min(spots, key=lambda h: (back[h], reach[h], h), default=None)
            if dest is None or back[dest] >= back.get(m.pos, 10 ** 6):
                return
        stop_at_sentry = not toward_monsters and bool(mdef.attacks)
        self.walk_monster(m, hx.path_to(m.pos, {dest}, step) or [], stop_at_sentry)

    def monster_goals(self, m: Monster, reach: dict, can_stop: set, toward_monsters: bool) -> set:
        """Where the monster wants to end: next to another monster (the Warden), else on an
        empty space with its target dwarf in range and line of sight. The target is the dwarf
        it reaches range of in the fewest steps, ties to the one who acted most recently."""
        st = self.state
        if toward_monsters:
            return {h for h in can_stop if any(hx.distance(h, o.pos) == 1 for o in st.monsters.values() if o is not m)}
        rng = max(1, self.monster_def(m).attack_range)
        best, best_key = None, None
        for d in st.dwarves:
            if not d.conscious or d.in_pod:
                continue
            # the nearest space to attack this dwarf from: line of sight checked nearest first
            spots = sorted((reach[h], h) for h in can_stop if hx.distance(h, d.pos) <= rng)
            steps = next((n for n, h in spots if self.los(h, d.pos)), None)
            if steps is None:
                continue
            key = (steps, -d.acted_at, d.seat)
            if best_key is None or key < best_key:
                best, best_key = (d, spots), key
        if best is None:          # no way into range (a shield, an IFG, pits): get closer
            return self.closer_spots(m, reach, can_stop)
        d, spots = best
        return {h for _, h in spots if self.los(h, d.pos)}

    def closer_spots(self, m: Monster, reach: dict, can_stop: set) -> set:
        """The empty spaces within its move nearest (in hexes) to a dwarf, if nearer than now."""
        mdef = self.monster_def(m)
        spots = [h for h in can_stop if 0 < reach[h] <= mdef.move]
        if not spots:
            return set()
        here = self.nearest_dwarf_distance(m.pos)
        best = min(self.nearest_dwarf_distance(h) for h in spots)
        return {h for h in spots if self.nearest_dwarf_distance(h) == best} if best < here else set()

    def walk_monster(self, m: Monster, path: list[Hex], stop_at_sentry: bool = False) -> None:
        """Step along `path`, entering each space; a token that stops walkers (goo) ends the
        move on the last empty space passed. A monster that reaches an empty space with the
        sentry gun in its range stops there too (L968-970: the sentry counts as a target)."""
        st = self.state
        start = last_stop = m.pos
        for h in path:
            self.enter_monster(m, h)
            if m.uid not in st.monsters:
                return
            if self.monster_can_stop(m, h):
                last_stop = h
                if stop_at_sentry and self.sentry_in_reach(m):
                    break
            if self.stops_walker(h, flying=bool(self.monster_def(m).flying)):
                break
        m.pos = last_stop
        self.settle_tail(m)
        if m.pos != start:
            self.sentry_reacts(m)

    def enter_monster(self, m: Monster, h: Hex) -> None:
        st = self.state
        mdef = self.monster_def(m)
        if "wall" in (mdef.destroys_on_path or ()) and st.terrain(h) in WALLS:
            if h in st.minerals:
                st.ground.setdefault(h, Counter())[st.minerals.pop(h)] += 1
            st.cells[h] = "."
        if "stalagmite" in (mdef.destroys_on_path or ()):
            st.stalagmites.discard(h)
        if "grunt" in (mdef.destroys_on_path or ()):
            other = st.monster_at(h)
            if other is not None and other.kind == "grunt":
                self.kill(other, None)
        if h != m.pos:
            m.facing = hx.ahead(m.pos, h)      # it faces the way it moves
        m.pos = h
        self.sentry_reacts(m)
        prox = st.tokens.get("proximity", {})
        if h in prox:
            del prox[h]
            hits = sum(f.get("hits") or 0 for f in self.roll("explosive_die", 2))
            self.damage_monster(m, "explosive", hits, None)

    # --- facing and size (Praetorian, Oppressor: L416, L1117-1118) -----------------------------
    def face_nearest_dwarf(self, m: Monster) -> None:
        """Rule rear_arc: a monster is placed facing the nearest dwarf."""
        alive = [d.pos for d in self.state.dwarves if d.conscious and not d.in_pod]
        if alive:
            self.face(m, min(alive, key=lambda p: (hx.distance(m.pos, p), p)))
        self.settle_tail(m)

    def face(self, m: Monster, goal: Hex) -> None:
        if goal != m.pos:
            m.facing = hx.toward(m.pos, goal)

    def from_behind(self, m: Monster, attacker: Hex) -> bool:
        """Rule rear_arc: the rear ("the green area", not reproduced in the guide) is the
        120-degree arc behind the way the monster faces."""
        return m.facing is not None and hx.in_rear_arc(m.pos, m.facing, attacker)

    def settle_tail(self, m: Monster) -> None:
        """A monster on two spaces (size 2) trails its second space behind its front one, or
        on the first free space next to it (rule two_space_body)."""
        if (self.monster_def(m).size or 1) < 2:
            return
        behind = hx.ahead(m.facing, m.pos) if m.facing is not None else None
        ring = ([behind] if behind else []) + sorted(hx.neighbours(m.pos))
        m.tail = None
        m.tail = next((h for h in ring if h in self.state.cells and self.monster_can_stop(m, h)), None)

    # --- the Swarm Threat Track (L886-895, G-11) ------------------------------------------------
    def advance_threat(self, n: int, unconscious: bool = False) -> None:
        for _ in range(n):
            if self.state.result:
                return
            if self.state.threat >= self.track_len - 1:
                if any(d.in_pod for d in self.state.dwarves):
                    self.state.result = "success"
                    self.log("time runs out with a dwarf in the drop pod: just achieved")
                else:
                    self.state.result = "failure"
                    self.log("the Swarm Threat Track runs out: the mission fails")
                return
            self.state.threat += 1
            if self.state.threat in self.swarm_squares:
                self.swarm(1)
                return

    def swarm(self, cards: int) -> None:
        self.log("a Swarm comes")
        self.open_window()
        placed: list = []
        activation: dict = {}
        for _ in range(cards):
            card = self.draw("swarm")
            if card is not None:
                self.run(card.effect, you=self.acting, defer_activation=True, placed=placed,
                         activation=activation)
        # every card placed first, then one activation (L894); "all other" skips the new ones
        self.activate_all({m.uid for m in placed} if activation.get("others_only") else set())

    def draw(self, deck: str):
        st = self.state
        pile, discard = (st.event_deck, st.event_discard) if deck == "event" else (st.swarm_deck, st.swarm_discard)
        if not pile:
            pile.extend(discard)
            discard.clear()
            self.rng.shuffle(pile)
        if not pile:
            return None
        card = pile.pop()
        discard.append(card)
        return card


class Verbs:
    """Verb handlers called by generated effects (game.yaml `verbs`)."""

    def __init__(self, engine: Engine) -> None:
        self.e = engine
        self.area_hit: list[Hex] = []      # the spaces the last area attack hit (Scare follows)

    def _dwarf(self, ctx) -> Dwarf | None:
        for who in (ctx.target, ctx.you):
            if isinstance(who, Dwarf):
                return who
        return None

    def can_pay(self, ctx, resource: str, amount: int) -> bool:
        d = ctx.you
        if resource == "actions":
            return ctx.info.get("free") or (d is not None and d.actions >= amount)
        if resource == "ammo":
            return d is not None and d.ammo >= amount
        if resource == "secondary_ammo":
            return d is not None and d.secondary_ammo >= amount
        return self.e.state.shared[resource] >= amount

    def pay(self, ctx, resource: str, amount: int) -> None:
        d = ctx.you
        if resource == "actions":
            if not ctx.info.get("free"):
                d.actions -= amount
        elif resource == "ammo":
            d.ammo -= amount
        elif resource == "secondary_ammo":
            d.secondary_ammo = max(0, d.secondary_ammo - amount)
        else:
            self.e.state.shared[resource] -= amount

    def gain(self, ctx, resource: str, amount: int) -> None:
        d = self._dwarf(ctx)
        if resource in ("ammo", "secondary_ammo") and d is not None:
            setattr(d, resource, min(self.e.ammo_cap(d, resource), getattr(d, resource) + amount))
        elif self.e.mine_head_mission and d is not None:
            d.carried[resource] += amount
        else:
            self.e.state.shared[resource] += amount

    def deposit(self, ctx, resource: str, amount: int) -> None:
        self.e.state.shared[resource] += amount

    def deal(self, ctx, damage_type: str, hits: int) -> None:
        e = self.e
        if isinstance(ctx.self, Monster):            # the Exploder's own blast
            e.explode(ctx.self)
            return
        mode = ctx.info.get("mode")
        target = ctx.target if ctx.target is not None else ctx.it
        if mode is None or not isinstance(target, Monster):
            if isinstance(target, Monster):
                e.damage_monster(target, damage_type, hits, ctx.you)
            return
        d = ctx.you
        status = mode.get("hit_status")
        if mode.get("assign") == "area":
            area = [target.pos] + self._area_pair(target.pos)
            self.area_hit = area
            done = set()
            for h in area:
                m = e.state.monster_at(h)
                if m is not None and m.uid not in done:
                    done.add(m.uid)
                    e.damage_monster(m, damage_type, hits, d, status=status)
                friend = e.state.dwarf_at(h)
                if friend is not None:
                    e.hurt(friend, hits)
            return
        per_monster = e.assign(d, mode, target, e.last_roll, ctx.info.get("plan"),
                               ctx.info.get("from_behind", False))
        for uid, n in sorted(per_monster.items()):
            m = e.state.monsters.get(uid)
            if m is not None:
                e.damage_monster(m, damage_type, n, d, from_behind=ctx.info.get("from_behind", False),
                                 status=status)

    def _area_pair(self, h: Hex) -> list[Hex]:
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
        target = ctx.target if ctx.target is not None else ctx.it
        if isinstance(target, Monster):
            self.e.damage_monster(target, "pickaxe", hits, ctx.you, ignore_resistance=True)

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
        take = min(amount, 5 - d.health)
        if pile is not None and pile["health_cube"]:
            take = min(take, pile["health_cube"])   # cubes picked up from the ground (L538)
            pile["health_cube"] -= take
            if not +pile:
                del self.e.state.ground[tuple(at)]
        d.health += take

    def inflict(self, ctx, status: str) -> None:
        who = ctx.target if ctx.target is not None else ctx.it
        if isinstance(who, Dwarf):
            if not self.e.shielded(who.pos):
                who.statuses.add(status)
        elif isinstance(who, Monster):
            if not (status == "stunned" and self.e.monster_def(who).stun_immune):
                who.statuses.add(status)

    def become(self, ctx, status: str) -> None:
        if isinstance(ctx.you, Dwarf):
            ctx.you.statuses.add(status)

    def remove_status(self, ctx, status: str) -> None:
        for who in (ctx.target, ctx.you):
            if who is not None:
                who.statuses.discard(status)

    def spawn(self, ctx, creature: str, amount: int) -> None:
        if amount <= 0:
            return
        origin = ctx.self.pos if isinstance(ctx.self, Monster) else (self.e.active_exits() or [None])[0]
        if origin is None:
            return
        placed = self.e.spawn(creature, origin, amount, ctx.you if isinstance(ctx.you, Dwarf) else None)
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
        raise EffectError("draw_event is the engine's Event Phase, not an effect")

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
        if self.e.token_room(token) > 0 or tuple(at) in self.e.state.tokens.get(token, {}):
            self.e.state.tokens.setdefault(token, {})[tuple(at)] = ctx.you.seat if ctx.you else -1

    def _flames(self, ctx, target: Monster, amount: int) -> None:
        """Flaming Ground (L790-808): the first flame on the target's space if it died, else on
        an empty space next to it; the others on empty spaces next to the target space and
        connected to the flames already placed."""
        st = self.e.state
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
            placed.append(target.pos)
        else:
            first = sorted((h for h in hx.neighbours(target.pos) if empty(h)),
                           key=lambda h: (hx.distance(h, ctx.you.pos), h))
            if not first:
                return
            placed.append(first[0])
        while len(placed) < amount:
            nxt = sorted(h for h in hx.neighbours(target.pos)
                         if empty(h) and h not in placed and any(h in hx.neighbours(p) for p in placed))
            if not nxt:
                break
            placed.append(nxt[0])
        for h in placed:
            flames[h] = owner

    def fail_mission(self, ctx) -> None:
        self.e.state.result = "failure"

    def scare(self, ctx, steps: int) -> None:
        """The target flees the firer; an area attack (HE Grenade, L192) scares every monster
        left in its area, away from the target space and from the firer."""
        target = ctx.target if ctx.target is not None else ctx.info.get("target_obj")
        if not isinstance(target, Monster) or not isinstance(ctx.you, Dwarf):
            return
        mode = ctx.info.get("mode")
        if mode is None or mode.get("assign") != "area":
            self.e.scare(target, tuple(ctx.info.get("from") or ctx.you.pos), steps)
            return
        area = self.area_hit or [target.pos]
        scared = {m.uid: m for h in area if (m := self.e.state.monster_at(h)) is not None}
        for m in scared.values():
            self.e.scare(m, [area[0], ctx.you.pos], steps)

    def forbid_move(self, ctx) -> None:
        """The IFG's token itself keeps monsters in or out (Engine.monster_step)."""

    def discard_self(self, ctx) -> None:
        """Delayed throwables leave with their token (the engine removes tokens on use)."""

    def destroy(self, ctx, terrain: str) -> None:
        """Explosives clear the area around the landing space; minerals drop (L1359-1363)."""
        at = ctx.info.get("origin")
        if at is None:
            raise EffectError("destroy: no area")
        st = self.e.state
        area = [tuple(at)] + hx.neighbours(tuple(at))
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
        e, m = self.e, ctx.target if ctx.target is not None else ctx.it
        if not isinstance(m, Monster) or e.monster_def(m).move == 0 or (e.monster_def(m).size or 1) > 1:
            return
        step = e.monster_stepper(m)
        reach = hx.bfs(m.pos, step)
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
        from tomecraft.runtime.engines.deep_rock_galactic.actions import enter
        e, d = self.e, ctx.you
        if not isinstance(d, Dwarf) or not d.conscious:
            return
        passable = lambda a, b: e.dwarf_step(d, a, b)
        reach = hx.bfs(d.pos, passable)
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
        """One action-free ranged attack with any fire mode the dwarf could use now."""
        from tomecraft.runtime.engines.deep_rock_galactic.actions import attack
        from tomecraft.runtime.engines.deep_rock_galactic.policy import attacks
        d = ctx.you
        if not isinstance(d, Dwarf):
            return
        saved, d.actions = d.actions, max(d.actions, 3)     # free: any mode's action cost is met
        try:
            shots = [{k: s[k] for k in ("do", "weapon", "mode", "target")} for s in attacks(self.e, d)]
            if shots:
                attack(self.e, d, {**self.e.decide(ctx, "attack", shots), "free": True})
        finally:
            d.actions = saved

    def overclock(self, ctx) -> None:
        d = self._dwarf(ctx)
        if d is not None:
            d.overclocked = True                     # cap 5; no refill (L592-596)

    def reroll(self, ctx, amount: int) -> None:
        """Reroll the `amount` worst dice of the last roll, in place, so `hits(r)` sees them."""
        roll = self.e.last_roll
        worst = sorted(range(len(roll)), key=lambda i: (roll[i].get("hits") or 0, i))[:amount]
        for i in worst:
            roll[i] = self.e.roll(self.e.last_die, 1)[0]
        self.e.last_roll = roll

    def revive(self, ctx) -> None:
        """Revive (L626-632): the target (or you) stands up with 1 health."""
        d = self._dwarf(ctx)
        if d is not None and not d.conscious:
            self.e.revive(d)

    def call_supply_pod(self, ctx) -> None:
        """A supply pod lands on a space the dwarf chooses (L600-615), the cost paid elsewhere."""
        from tomecraft.runtime.engines.deep_rock_galactic.actions import land_supply_pod, supply_pod_spots
        spots = supply_pod_spots(self.e)
        if spots:
            land_supply_pod(self.e, self.e.decide(ctx, "supply_pod", spots))

    def place_around_target(self, ctx, token: str) -> None:
        """`token` on each empty space next to the target, never a Tunnel Exit or a pit."""
        target = ctx.target if ctx.target is not None else ctx.it
        if target is not None:
            self.e.place_around(target.pos, token, ctx.you.seat if isinstance(ctx.you, Dwarf) else -1)

    def raise_shield(self, ctx) -> None:
        """Shield Generator (L712-726): the shield's 7 spaces around where it was placed."""
        at = ctx.info.get("at", ctx.info.get("origin"))
        self.e.shield = tuple(at) if at is not None else ctx.you.pos


class Queries:
    """Query handlers (game.yaml `queries`)."""

    def __init__(self, engine: Engine) -> None:
        self.e = engine

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
        """The attack_rolled triggers of an upgrade installed on the weapon that rolled."""
        weapon, d = ctx.info.get("weapon"), ctx.you
        if weapon is None or not isinstance(d, Dwarf) or not faces or ctx.info.get("from"):
            return
        up = d.upgrades.get(weapon.slot)
        if up is not None:
            self.e.last_roll = faces          # reroll works on these dice, in place
            self.e.run(self.e.data.get("weapon_upgrade", up).effect, you=d, fire="attack_rolled")

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
        a = tuple(ctx.info["origin"]) if ctx.info.get("origin") is not None else self._shooter(ctx)
        b = self._pos(ctx.it if ctx.it is not None else ctx.target)
        if a is None or b is None:
            return False
        want = ctx.info.get("target_obj")
        if want is not None and (ctx.it is not want):
            return False
        return hx.distance(a, b) <= rng

    def line_of_sight(self, ctx) -> bool:
        a, b = self._shooter(ctx), self._pos(ctx.it if ctx.it is not None else ctx.target)
        if a is None or b is None:
            return False
        mode = ctx.info.get("mode")
        lob = (mode.get("ignores_line_of_sight") if mode is not None else None) or "none"
        return self.e.los(a, b, lob)

    def adjacent(self, ctx) -> bool:
        a, b = self._pos(ctx.you), self._pos(ctx.it)
        return a is not None and b is not None and hx.distance(a, b) <= 1

    def distance_to_monster(self, ctx) -> int:
        me = ctx.self
        others = [m for m in self.e.state.monsters.values() if m is not me]
        return min((hx.distance(me.pos, m.pos) for m in others), default=99)

    def has_status(self, ctx, status: str) -> bool:
        who = ctx.self or ctx.you
        if status == "full_health":
            return isinstance(who, Dwarf) and who.health >= 5
        return status in getattr(who, "statuses", ())

    def dwarf_in_range(self, ctx) -> bool:
        return bool(self.e.targets_in_range(ctx.self))

    def in_lit_area(self, ctx) -> bool:
        return self._lit(self._pos(ctx.it or ctx.target))

    def flying(self, ctx) -> bool:
        return bool(self.e.monster_def(ctx.it or ctx.self).flying)

    def size(self, ctx) -> int:
        return self.e.monster_def(ctx.it or ctx.target).size or 1

    def hazard_level(self, ctx) -> int:
        return self.e.hazard

    def on_last_square(self, ctx) -> bool:
        return self.e.state.threat >= self.e.track_len - 1
