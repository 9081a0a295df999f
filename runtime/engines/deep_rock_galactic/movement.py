"""The dwarves' Move action and what entering a space does (rulebook L300-380), carrying,
and the pickaxe (L500-565). `engine` is the Engine (typed by the layer it extends)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, mission_play
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.state import WALLS, Dwarf, spend


def check_move(engine: Monsters, d: Dwarf, act: dict) -> Hex:
    """Whether a Move along `act["path"]` is legal, changing nothing: the space it ends on,
    or EffectError."""
    if act.get("webbed"):
        raise EffectError("a Webbed dwarf cannot Move")
    if "knocked_over" in d.statuses:       # stuck in place until he stands (L314, L1583)
        raise EffectError("a Knocked Over dwarf cannot Move: stand up first (2 actions) or be Assisted")
    path = [tuple(h) for h in act["path"]]
    if not 0 < len(path) <= 3:
        raise EffectError("a Move action is 1 to 3 steps")
    st = engine.state
    # check the whole path first, so an illegal Move changes nothing
    prev, end = d.pos, None
    for h in path:
        if h not in hx.neighbours(prev):
            if (prev, h) in engine.ziplines or (h, prev) in engine.ziplines:
                prev = h                         # the whole zipline plus its landing: 1 step
                continue
            raise EffectError(f"{list(h)} is not next to {list(prev)}")
        if st.terrain(h) in WALLS and engine.has_ability(d, "power_drill"):
            if h in st.minerals:
                raise EffectError("Power Drill cannot dig a wall holding a mineral (L517)")
            end = h                          # Power Drill: dig, enter, the Move ends (L554)
            break
        if not engine.dwarf_step(d, prev, h):
            raise EffectError(f"{d.cls} cannot enter {list(h)}")
        prev = h
        if engine.token_flag(h, "stops_movement_on_entry") or (st.pod_returned and h in st.pod):
            end = h
            break
    end = end or prev
    fire = act.get("then_fire")
    if fire is not None and act.get("then_throw") is not None:
        raise EffectError("Light-Footed: one free shot or one throwable after a Move, not both (L818)")
    if act.get("then_throw") is not None:
        _check_free_throw(engine, d, act["then_throw"], end)
    if fire is not None:
        mode = engine.data.get("weapon", fire["weapon"]).modes[fire["mode"]]
        if not engine.listens(d, "move_action"):
            raise EffectError(f"no ability of the {d.cls} acts after a Move: no free shot")
        if (mode.get("actions") or 0) != 1:
            raise EffectError("Light-Footed: the free shot after a Move uses a 1-action fire mode (L818)")
    if not (st.pod_returned and end in st.pod) and st.terrain(end) not in WALLS \
            and not engine.dwarf_can_stop(d, end):
        raise EffectError(f"{d.cls} cannot end a move on {list(end)}")
    return end


def _check_free_throw(engine: Monsters, d: Dwarf, throw: dict, end: Hex) -> None:
    """The throwable a Move states (`then_throw`, Light-Footed, L818): a card in hand that
    reaches its space from where the Move ends (walls alone block a throw, L570)."""
    if not engine.listens(d, "move_action"):
        raise EffectError(f"no ability of the {d.cls} acts after a Move: no free throwable")
    card = throw["card"]
    if card not in d.throwables:
        raise EffectError(f"{d.cls} holds no {card}")
    at = tuple(throw["at"])
    if hx.distance(end, at) > (engine.data.get("throwable", card).range or 0) or not engine.los(end, at, "arc"):
        raise EffectError(f"{card} cannot reach {list(at)} from {list(end)}")


def _check_upgrade_to(engine: Monsters, d: Dwarf, upgrade_to: dict) -> None:
    """`upgrade_to` {upgrade id: primary | secondary | spare}: where an upgrade picked up on
    this Move goes (L1369: on the primary's or the secondary's slot; L1371: or kept spare)."""
    slots = [slot for slot in upgrade_to.values() if slot != "spare"]
    for up, slot in upgrade_to.items():
        fits = engine.data.get("weapon_upgrade", up).fits or ()
        if slot != "spare" and (slot not in fits or slot in d.upgrades or slots.count(slot) > 1):
            raise EffectError(f"{up} cannot go on the {slot} weapon's free slot")


def move(engine: Monsters, d: Dwarf, act: dict) -> None:
    """One Move action: up to 3 steps along `path` (L300-380)."""
    check_move(engine, d, act)
    _check_upgrade_to(engine, d, act.get("upgrade_to") or {})
    st = engine.state
    path = [tuple(h) for h in act["path"]]
    spend(d, 1)
    engine.move_ended = False
    engine.upgrade_to = dict(act.get("upgrade_to") or {})
    for h in path:
        if st.terrain(h) in WALLS:
            dig(engine, h)
            d.pos = h
            enter(engine, d, h)
            break
        d.pos = h
        stop = enter(engine, d, h)
        if d.in_pod or stop or engine.move_ended or not d.conscious:
            break
    engine.move_ended = False
    engine.upgrade_to = {}
    # the dwarf's `on move_action` triggers (Light-Footed, L816-818); `then_fire` is the free
    # shot, `then_throw` the free throwable the Move states (neither: none is taken)
    engine.emit("move_action", you=d, info={"shot": act.get("then_fire"), "throw": act.get("then_throw")})


def enter(engine: Monsters, d: Dwarf, h: Hex) -> bool:
    """Entering a space: flames, goo, pickups, ground minerals, Blood Sugar, the Mine Head,
    the returned drop pod. Returns True when the movement must stop."""
    st = engine.state
    if h in st.stalagmites and engine.has_ability(d, "power_drill"):
        st.stalagmites.discard(h)              # Power Drill: destroyed, no mineral die (L766, L772)
        engine.log(f"{d.cls} drills through the stalagmite at {list(h)}")
    engine.hurt(d, engine.entry_damage(h))             # flames (L808)
    stop = engine.stops_walker(h)                      # goo (Goo From Above)
    for n in (h, *hx.neighbours(h)):
        if n in st.pickups and not st.pickups[n][1]:
            st.pickups[n][1] = True            # revealed by passing through or next to it
    if h in st.pickups and st.pickups[h][1]:
        kind = st.pickups[h][0]
        pdef = engine.data.get("pickup", kind)
        if not pdef.needs_pickaxe:
            del st.pickups[h]
            collect(engine, d, kind)
    if mission_play.recover_drone(engine, d, h):       # a mission's drones ("!" tokens)
        carry(engine, d, mission_play.DRONE)
    if h in st.upgrade_tokens:                         # picked up by moving onto it (L332)
        engine.take_upgrade(d, st.upgrade_tokens.pop(h))
    if h in st.ground:
        for name, n in list(st.ground[h].items()):
            if name == "health_cube":
                take = max(0, min(n, engine.health_cap(d) - d.health))
                d.health += take
                st.ground[h][name] -= take
            else:
                st.ground[h][name] -= carry(engine, d, name, n)   # beyond a carry limit it stays
        st.ground[h] = +st.ground[h]
        if not st.ground[h]:
            del st.ground[h]
    if st.mine_head is not None and (h == st.mine_head or h in hx.neighbours(st.mine_head)):
        deposit(engine, d)
    if st.pod_returned and h in st.pod:
        d.in_pod = True
        engine.log(f"{d.cls} boards the drop pod")
    engine.emit("dwarf_enters", you=d, it=d, at=h)     # to triggers lying on this space
    return stop


def carry(engine: Monsters, d: Dwarf, name: str, n: int = 1, at: Hex | None = None) -> int:
    """The dwarf takes `n` of `name`: to the Shared Supply Space, or in Mine Head missions onto
    the dwarf's board (L370-372), where a mineral's carry limit holds (Aquarq: one at a time,
    L1499, L618). What it cannot take drops on the ground at `at`. Returns the amount taken."""
    if not engine.mine_head_mission:
        engine.state.shared[name] += n
        return n
    limit = next((m.carry_limit for m in engine.data.of("mineral") if m.id == name), None)
    take = n if limit is None else max(0, min(n, limit - d.carried[name]))
    d.carried[name] += take
    if take < n and at is not None:
        engine.state.ground.setdefault(at, Counter())[name] += n - take
        engine.log(f"{d.cls} can carry no more {name}: it drops on the ground")
    return take


def collect(engine: Monsters, d: Dwarf, kind: str) -> None:
    """A pickup taken by passing it: into the Shared Supply, its effect now; in a Mine Head
    mission onto the dwarf's board, its effect when deposited (L372)."""
    pdef = engine.data.get("pickup", kind)
    carry(engine, d, kind)
    if not engine.mine_head_mission:    # heard by every trigger, an effect or none (an Apoca Bloom)
        engine.emit("picked_up", you=d, effect=pdef.effect)


def deposit(engine: Monsters, d: Dwarf) -> None:
    """At the Mine Head what the dwarf carries goes to the Shared Supply; only now does it
    count as obtained and usable (L372): a carried pickup's effect (a Barley Bulb's Rock and
    Stone card) happens now."""
    carried, d.carried = +d.carried, Counter()
    pickups = {p.id: p for p in engine.data.of("pickup")}
    for name, n in carried.items():
        engine.state.shared[name] += n
        pdef = pickups.get(name)
        if pdef is not None and not pdef.needs_pickaxe:
            for _ in range(n):
                engine.emit("picked_up", you=d, effect=pdef.effect)


# --- the pickaxe (L500-565) ------------------------------------------------------------------

def dig(engine: Monsters, h: Hex) -> None:
    """A wall dug open (Monsters.open_wall: the Oppressor breaks walls the same way)."""
    engine.open_wall(h)


def reveal(engine: Monsters, seg: dict) -> None:
    engine.reveal_segment(seg)


def _farmable(engine: Monsters, h: Hex) -> bool:
    """A revealed pickup struck with the pickaxe lies on `h`: it may be struck from its own
    space as from next to it (L529), unlike a wall, a stalagmite or a monster (L511)."""
    pickup = engine.state.pickups.get(h)
    return pickup is not None and pickup[1] and engine.data.get("pickup", pickup[0]).needs_pickaxe


def pickaxe(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Roll the pickaxe die (rule g13: 1 die); each pickaxe result is one task on an adjacent
    space: mine, farm, self-defence, landscape or break a stalagmite."""
    st = engine.state
    targets = [tuple(h) for h in act["at"]]
    if not targets:
        raise EffectError("the pickaxe needs a target space")
    for h in targets:
        if hx.distance(d.pos, h) != 1 and not (h == d.pos and _farmable(engine, h)):
            raise EffectError(f"the pickaxe reaches adjacent spaces only, not {list(h)}")
    spend(d, 1)                 # only once the swing is legal: a refused swing costs nothing
    faces = act.get("roll") or engine.roll("pickaxe_die", int(engine.rules["g13_pickaxe_dice"]))
    hits = sum(f.get("hits") or 0 for f in faces)
    if hits == 0:
        engine.log(f"{d.cls} swings and misses")
        return
    if len(targets) == 1:
        targets = targets * hits if st.monster_at(targets[0]) else targets[:1]
    per_monster: Counter = Counter()
    for h in targets[:hits]:
        m = st.monster_at(h)
        if m is not None:
            per_monster[m.uid] += 1
            continue
        if h in st.pickups and st.pickups[h][1]:
            kind = st.pickups.pop(h)[0]
            pdef = engine.data.get("pickup", kind)
            engine.emit("struck", you=d, effect=pdef.effect, info={"at": h})
            if not pdef.effect:
                carry(engine, d, kind)
            continue
        if h in st.stalagmites:
            st.stalagmites.discard(h)
            face = engine.roll("mineral_die", 1)[0]["face"]
            carry(engine, d, "gold" if face == "four_squares" else "nitra")
            continue
        if st.terrain(h) in WALLS:
            if h in st.minerals:
                carry(engine, d, st.minerals.pop(h), at=h)
            dig(engine, h)
    for uid, n in per_monster.items():
        m = st.monsters.get(uid)
        if m is not None:
            # from behind (the Oppressor: behind its rear space) its resistance is ignored (L1195)
            engine.damage_monster(m, "pickaxe", n, d, from_behind=engine.from_behind(m, d.pos))
