"""The dwarves' actions (rulebook L300-640): move, attack, pickaxe, call/collect supply,
revive, assist, stand up, overclock, sentry gun. `perform(engine, dwarf, action)` runs one."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, mission_play
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, WALLS, Dwarf


def perform(engine: Engine, d: Dwarf, act: dict) -> None:
    kind = act["do"]
    engine.open_window()
    d.acted_at = engine.tick()
    HANDLERS[kind](engine, d, act)
    if kind != "end":          # what the dwarf did last (Successive Attack follows a Burst)
        d.last_action = (kind, act.get("weapon"), act.get("mode"))
    engine.note_pod_left()


def spend(d: Dwarf, n: int) -> None:
    if d.actions < n:
        raise EffectError(f"{n} actions needed, {d.actions} left")
    d.actions -= n


# --- moving ----------------------------------------------------------------------------------

def move(engine: Engine, d: Dwarf, act: dict) -> None:
    """One Move action: up to 3 steps along `path` (L300-380)."""
    if act.get("webbed"):
        raise EffectError("a Webbed dwarf cannot Move")
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
    if fire is not None:
        mode = engine.data.get("weapon", fire["weapon"]).modes[fire["mode"]]
        if d.cls != "scout" or (mode.get("actions") or 0) != 1:
            raise EffectError("Light-Footed: the Scout's free shot after a Move uses a 1-action fire mode")
    if not (st.pod_returned and end in st.pod) and st.terrain(end) not in WALLS \
            and not engine.dwarf_can_stop(d, end):
        raise EffectError(f"{d.cls} cannot end a move on {list(end)}")
    spend(d, 1)
    engine.move_ended = False
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
    if d.cls == "scout" and act.get("then_fire"):
        fire = act["then_fire"]                # Light-Footed: a free shot after a Move (L812-820)
        target = st.monsters.get(fire["target"])
        mode = engine.data.get("weapon", fire["weapon"]).modes[fire["mode"]]
        if target is None or not engine.fire(d, fire["weapon"], fire["mode"], target, free=True):
            engine.log("Light-Footed: no target in range and line of sight for the free shot")


def enter(engine: Engine, d: Dwarf, h: Hex) -> bool:
    """Entering a space: flames, goo, pickups, ground minerals, Blood Sugar, the Mine Head,
    the returned drop pod. Returns True when the movement must stop."""
    st = engine.state
    if h in st.stalagmites and engine.has_ability(d, "power_drill"):
        st.stalagmites.discard(h)              # Power Drill: destroyed, no mineral die (L766, L772)
        engine.log(f"{d.cls} drills through the stalagmite at {list(h)}")
    engine.hurt(d, engine.entry_damage(h))             # flames (L806)
    stop = engine.stops_walker(h)                      # goo (Goo From Above)
    for n in [h] + hx.neighbours(h):
        if n in st.pickups and not st.pickups[n][1]:
            st.pickups[n][1] = True            # revealed by passing through or next to it
    if h in st.pickups and st.pickups[h][1]:
        kind = st.pickups[h][0]
        pdef = engine.data.get("pickup", kind)
        if not pdef.needs_pickaxe:
            del st.pickups[h]
            collect(engine, d, kind)
    mission_play.recover_drone(engine, d, h)           # a mission's drones ("!" tokens)
    if h in st.upgrade_tokens:                         # picked up by moving onto it (L334)
        engine.take_upgrade(d, st.upgrade_tokens.pop(h))
    if h in st.ground:
        for name, n in list(st.ground[h].items()):
            if name == "health_cube":
                take = min(n, 5 - d.health)
                d.health += take
                st.ground[h][name] -= take
            else:
                st.ground[h][name] -= carry(engine, d, name, n)   # beyond a carry limit it stays
        st.ground[h] = +st.ground[h]
        if not st.ground[h]:
            del st.ground[h]
    if st.mine_head is not None and (h == st.mine_head or h in hx.neighbours(st.mine_head)):
        for name, n in d.carried.items():
            st.shared[name] += n
        d.carried.clear()
    if st.pod_returned and h in st.pod:
        d.in_pod = True
        engine.log(f"{d.cls} boards the drop pod")
    return stop


def carry(engine: Engine, d: Dwarf, name: str, n: int = 1, at: Hex | None = None) -> int:
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


def collect(engine: Engine, d: Dwarf, kind: str) -> None:
    pdef = engine.data.get("pickup", kind)
    carry(engine, d, kind)
    if pdef.effect is not None:
        engine.run(pdef.effect, you=d, fire="picked_up")


# --- the pickaxe (L500-565) ------------------------------------------------------------------

def dig(engine: Engine, h: Hex) -> None:
    st = engine.state
    st.cells[h] = "."                           # a Single Space Cave Segment
    for seg in st.hidden:
        if not seg["revealed"] and any(n in seg["hexes"] for n in hx.neighbours(h)):
            reveal(engine, seg)


def reveal(engine: Engine, seg: dict) -> None:
    st = engine.state
    seg["revealed"] = True
    for x in seg["hexes"]:
        st.cells[x] = "."
    spots = [x for x in seg["hexes"] if x not in st.exits.values()]
    for name, x in zip(seg["pickups"], spots):
        st.pickups[x] = [name, False]
    # weapon upgrade tokens, face down at random (L552; rule upgrades_per_hidden_segment)
    free = [x for x in spots if x not in st.pickups]
    tile = seg.get("tile")
    upgrades = tile["upgrades"] if tile else int(engine.rules["upgrades_per_hidden_segment"])
    for _ in range(upgrades):
        if free and st.upgrade_supply:
            st.upgrade_tokens[free.pop(engine.rng.randrange(len(free)))] = st.upgrade_supply.pop()
    engine.log(f"a hidden segment is revealed at {list(seg['hexes'][0])}")
    for entry in engine.mission.get("hidden_monsters", []):
        for _ in range(entry["count"]):
            engine.spawn(entry["creature"], seg["hexes"][len(seg["hexes"]) // 2])


def pickaxe(engine: Engine, d: Dwarf, act: dict) -> None:
    """Roll the pickaxe die (rule g13: 1 die); each pickaxe result is one task on an adjacent
    space: mine, farm, self-defence, landscape or break a stalagmite."""
    st = engine.state
    targets = [tuple(h) for h in act["at"]]
    if not targets:
        raise EffectError("the pickaxe needs a target space")
    for h in targets:
        if hx.distance(d.pos, h) != 1:
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
            engine.run(pdef.effect, you=d, fire="struck", at=h)
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
            engine.damage_monster(m, "pickaxe", n, d)


# --- weapons --------------------------------------------------------------------------------

def attack(engine: Engine, d: Dwarf, act: dict) -> None:
    target = engine.state.monsters.get(act["target"])
    if target is None:
        raise EffectError("no such monster")
    weapon = engine.data.get("weapon", act["weapon"])
    mode = weapon.modes[act["mode"]]
    if mode.get("per_round") and d.used[(weapon.id, mode.get("id"))] >= mode.get("per_round"):
        raise EffectError(f"{mode.get('id')} at most {mode.get('per_round')} times a round")
    if mode.get("after") and not follows(weapon, mode, d):
        raise EffectError(f"{mode.get('id')} only right after {mode.get('after')} (L750-756)")
    if "from_behind" not in act:               # scenarios may state it; else the facing decides
        act = {**act, "from_behind": engine.from_behind(target, d.pos)}
    if weapon.slot == "secondary":
        fire_secondary(engine, d, weapon, act, target)
        return
    if not engine.fire(d, act["weapon"], act["mode"], target, plan=act.get("plan"),
                       free=act.get("free", False), from_behind=act.get("from_behind", False)):
        raise EffectError(f"{act['weapon']} cannot fire at {target.kind}")


def follows(weapon, mode, d: Dwarf) -> bool:
    """A mode with `after` (Successive Attack) fires only as the very next thing after the
    mode it follows (L750-756): so once per Burst, and never after a Move."""
    after = next((i for i, m in enumerate(weapon.modes) if m.get("id") == mode.get("after")), None)
    return after is not None and d.last_action == ("attack", weapon.id, after)


def fire_secondary(engine: Engine, d: Dwarf, weapon, act: dict, target) -> None:
    effect = weapon.overclocked if d.overclocked and weapon.overclocked is not None else weapon.modes[0].effect
    mode = weapon.modes[0]
    ok = engine.run(effect, you=d, weapon=weapon, mode=mode, target_obj=target, plan=act.get("plan"),
                    from_behind=act.get("from_behind", False), free=act.get("free", False))
    if not ok:
        raise EffectError(f"{weapon.id} cannot fire")


def overclock(engine: Engine, d: Dwarf, act: dict) -> None:
    if engine.state.shared["gold"] < 1:
        raise EffectError("Overclock costs 1 Gold from the Shared Supply (L590)")
    if d.overclocked:
        raise EffectError("already overclocked")
    spend(d, 1)
    engine.state.shared["gold"] -= 1
    d.overclocked = True                      # cap 5; no refill (L592-596)


# --- supply (L600-625) ----------------------------------------------------------------------

def call_supply(engine: Engine, d: Dwarf, act: dict) -> None:
    st = engine.state
    at = tuple(act["at"])
    if st.shared["nitra"] + st.shared["gold"] < 3:
        raise EffectError("a supply pod costs 3 Nitra (Gold may stand in)")
    if not can_land_supply_pod(engine, at):
        raise EffectError(f"a supply pod cannot land on {list(at)}")
    spend(d, 1)
    nitra = min(3, st.shared["nitra"])
    st.shared["nitra"] -= nitra
    st.shared["gold"] -= 3 - nitra
    land_supply_pod(engine, at)


def can_land_supply_pod(engine: Engine, h: Hex) -> bool:
    """A supply pod lands on an empty cave space, not a Tunnel Exit or a pit (rule g14): no
    monster, dwarf, stalagmite, sentry gun or BOSCO on it."""
    st = engine.state
    return st.terrain(h) in OPEN and h not in st.exits.values() and st.terrain(h) != "o" \
        and not st.monster_at(h) and not st.dwarf_at(h) and h not in st.stalagmites \
        and h != st.sentry and not (st.bosco_alive and h == st.bosco)


def supply_pod_spots(engine: Engine) -> list[Hex]:
    return sorted(h for h in engine.state.cells if can_land_supply_pod(engine, h))


def land_supply_pod(engine: Engine, at: Hex) -> None:
    """The pod lands with the top supply card's stock; an earlier pod's leftovers go (L600-615)."""
    st = engine.state
    if st.supply_pod is not None:
        st.supply_stock.clear()                # leftovers removed, old card discarded
    if not st.supply_deck:
        st.supply_deck = [c for c in engine.data.of("supply_card") for _ in range(c.count or 1)]
        engine.rng.shuffle(st.supply_deck)
    card = st.supply_deck.pop()
    st.supply_pod = at
    st.supply_stock = Counter({"health": card.health or 0, "ammo": card.ammo or 0,
                               "secondary_ammo": card.secondary_ammo or 0})


def collect_supply(engine: Engine, d: Dwarf, act: dict) -> None:
    st = engine.state
    if st.supply_pod is None or hx.distance(d.pos, st.supply_pod) > 1:
        raise EffectError("Collect Supply needs the supply pod next to you")
    spend(d, 1)
    caps = {"health": 5, "ammo": engine.ammo_cap(d, "ammo"),
            "secondary_ammo": engine.ammo_cap(d, "secondary_ammo")}
    for name, cap in caps.items():
        take = max(0, min(st.supply_stock[name], cap - getattr(d, name)))
        setattr(d, name, getattr(d, name) + take)
        st.supply_stock[name] -= take
    if d.cls == "gunner":
        d.tokens["shield"] = 1
    if not +st.supply_stock:
        st.supply_pod = None
        st.supply_stock.clear()


# --- helping each other (L626-640) ------------------------------------------------------------

def revive(engine: Engine, d: Dwarf, act: dict) -> None:
    other = engine.state.dwarves[act["who"]]
    if other is d or other.conscious or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("revive an adjacent unconscious dwarf, not yourself")
    spend(d, 1)
    engine.revive(other)


def assist(engine: Engine, d: Dwarf, act: dict) -> None:
    other = engine.state.dwarves[act["who"]]
    if other is d or "knocked_over" not in other.statuses or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("assist an adjacent knocked-over dwarf, not yourself")
    spend(d, 1)
    other.statuses.discard("knocked_over")


def stand(engine: Engine, d: Dwarf, act: dict) -> None:
    if "knocked_over" not in d.statuses:
        raise EffectError("not knocked over")
    spend(d, 2)
    d.statuses.discard("knocked_over")


def sentry(engine: Engine, d: Dwarf, act: dict) -> None:
    """Deploy or relocate the Sentry Gun: 1 action + 1 ammo, on an adjacent empty space."""
    st = engine.state
    at = tuple(act["at"])
    if d.cls != "engineer" or hx.distance(d.pos, at) != 1 or st.terrain(at) not in OPEN \
            or st.monster_at(at) or st.dwarf_at(at):
        raise EffectError("the sentry goes on an adjacent empty space")
    if d.ammo < 1 and d.secondary_ammo < 1:
        raise EffectError("the sentry costs 1 ammo")
    spend(d, 1)
    if d.ammo > 0:
        d.ammo -= 1
    else:
        d.secondary_ammo -= 1
    st.sentry = at


def throw(engine: Engine, d: Dwarf, act: dict) -> None:
    """Throw a throwable card (L566-584): range from the card, only walls block the throw;
    area effects hit every space around the landing space with the whole roll."""
    card = act["card"]
    if card not in d.throwables:
        raise EffectError(f"{d.cls} holds no {card}")
    tdef = engine.data.get("throwable", card)
    at = tuple(act["at"])
    if hx.distance(d.pos, at) > (tdef.range or 0) or not engine.los(d.pos, at, "arc"):
        raise EffectError(f"{card} cannot reach {list(at)}")
    before = (d.actions, list(d.throwables))
    if not act.get("free"):
        spend(d, 1)
    d.throwables.remove(card)
    single = engine.state.monster_at(at) if not (tdef.area or 0) else None   # single-target throwables
    try:
        engine.run(tdef.effect, you=d, origin=at, target_obj=single, at=at)
    except Exception:
        d.actions, d.throwables = before        # a refused choice: the card stays in hand
        raise
    engine.state.throwable_discard.append(card)   # used: onto the throwable discard pile (L580)


def shield(engine: Engine, d: Dwarf, act: dict) -> None:
    """Shield Generator (L712-726): 1 action, on your space or next to it; 7 spaces where
    monsters cannot enter or leave and attacks on dwarves have no effect."""
    at = tuple(act["at"])
    if d.cls != "gunner" or d.tokens["shield"] < 1 or hx.distance(d.pos, at) > 1:
        raise EffectError("the Gunner places his shield on or next to his space")
    spend(d, 1)
    d.tokens["shield"] -= 1
    engine.shield = at


def platforms(engine: Engine, d: Dwarf, act: dict) -> None:
    """Platform Gun (L664-676): 1 action, up to 3 platforms on pits in line of sight."""
    spots = [tuple(h) for h in act["at"]]
    st = engine.state
    if d.cls != "engineer" or not 0 < len(spots) <= 3:
        raise EffectError("the Engineer places 1 to 3 platforms")
    for h in spots:
        if st.terrain(h) != "o" or not engine.los(d.pos, h):
            raise EffectError(f"a platform goes on a pit in line of sight, not {list(h)}")
    spend(d, 1)
    placed = st.tokens.setdefault("platform", {})
    for h in spots:
        if len(placed) >= 6:
            placed.pop(next(iter(placed)))       # all 6 in use: move an old one
        placed[h] = d.seat


def zipline(engine: Engine, d: Dwarf, act: dict) -> None:
    """Zipline Launcher (L700-711): next to a pit, 1 action: 1-2 zipline tokens in a straight
    line from the Gunner's space across the pit to ground on the far side."""
    st = engine.state
    pits = [tuple(h) for h in act["over"]]
    land = tuple(act["land"])
    line = [d.pos] + pits + [land]
    if d.cls != "gunner" or not 1 <= len(pits) <= 2 or d.tokens["zipline"] < len(pits):
        raise EffectError("the Gunner lays 1 or 2 zipline tokens")
    step = None
    for a, b in zip(line, line[1:]):
        if b not in hx.neighbours(a):
            raise EffectError("a zipline runs in a straight line of touching spaces")
        cube = tuple(y - x for x, y in zip(hx.to_cube(a), hx.to_cube(b)))
        if step is not None and cube != step:
            raise EffectError("a zipline runs in a straight line")
        step = cube
    if any(st.terrain(h) != "o" for h in pits) or st.terrain(land) not in OPEN:
        raise EffectError("a zipline crosses pits and lands on ground")
    spend(d, 1)
    d.tokens["zipline"] -= len(pits)
    for h in pits:
        st.tokens.setdefault("zipline", {})[h] = d.seat
    engine.ziplines.add((d.pos, land))


def flare(engine: Engine, d: Dwarf, act: dict) -> None:
    """Flare Shot (L832-844): 1 action, a flare on any space in line of sight; it lights its
    space and the 6 around it until the Scout's next turn."""
    at = tuple(act["at"])
    st = engine.state
    if d.cls != "scout" or d.tokens["flare"] - len([1 for o in st.tokens.get("flare", {}).values() if o == d.seat]) < 1:
        raise EffectError("the Scout has no flare left")
    if st.terrain(at) not in OPEN or not engine.los(d.pos, at):
        raise EffectError(f"a flare goes on a space in line of sight, not {list(at)}")
    spend(d, 1)
    st.tokens.setdefault("flare", {})[at] = d.seat


def exchange(engine: Engine, d: Dwarf, act: dict) -> None:
    """Exchange Supply (L621-624): with an adjacent dwarf, ammo, throwables and Rock and Stone
    cards; never health."""
    other = engine.state.dwarves[act["who"]]
    if other is d or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("exchange with an adjacent dwarf")
    give = act.get("give", {})
    if "health" in give:
        raise EffectError("health cubes cannot be exchanged")
    spend(d, 1)
    for name, n in give.items():
        if name == "rock_and_stone":           # n cards from the hand
            if len(d.rock_and_stone) < n:
                raise EffectError("not enough Rock and Stone cards")
            other.rock_and_stone += d.rock_and_stone[:n]
            del d.rock_and_stone[:n]
        elif name in ("ammo", "secondary_ammo"):
            if getattr(d, name) < n:
                raise EffectError(f"not enough {name}")
            setattr(d, name, getattr(d, name) - n)
            setattr(other, name, getattr(other, name) + n)
        elif name == "upgrades":               # only ones not installed (L614-616)
            for up in n:
                if up not in d.spare_upgrades:
                    raise EffectError(f"{up} is not a spare upgrade of the {d.cls}")
                d.spare_upgrades.remove(up)
                other.spare_upgrades.append(up)
        elif name == "throwables":
            for card in n:
                d.throwables.remove(card)
                other.throwables.append(card)
        else:
            raise EffectError(f"{name} cannot be exchanged")


def rock_and_stone(engine: Engine, d: Dwarf, act: dict) -> None:
    """Play a Rock and Stone card: no action (L577); its effect, then the discard."""
    card = act["card"]
    if card not in d.rock_and_stone:
        raise EffectError(f"{d.cls} holds no {card}")
    before = (d.actions, list(d.rock_and_stone))
    d.rock_and_stone.remove(card)
    try:
        engine.run(engine.data.get("rock_and_stone_card", card).effect, you=d, free=True)
    except Exception:
        d.actions, d.rock_and_stone = before
        raise
    d.actions = before[0]
    engine.state.rs_discard.append(card)
    engine.log(f"{d.cls} plays {card}")


# The base classes' abilities are carried out by the actions above; any other ability (a
# pack's new class) is run from its effect.
NATIVE_ABILITIES = {"sentry_gun": "sentry", "platform_gun": "platforms", "zipline_launcher": "zipline",
                    "shield_generator": "shield", "power_drill": "move", "drill_attack": "attack",
                    "light_footed": "move", "grappling_hook": "move", "flare_shot": "flare"}


def class_abilities(engine: Engine, d: Dwarf) -> list:
    return list(engine.data.get("dwarf", d.cls).abilities or ())


def ability(engine: Engine, d: Dwarf, act: dict) -> None:
    """Use a class ability by running its effect (its costs are part of it)."""
    found = next((a for a in class_abilities(engine, d) if a.id == act["id"]), None)
    if found is None:
        raise EffectError(f"the {d.cls} has no ability {act['id']!r}")
    if found.id in NATIVE_ABILITIES:
        raise EffectError(f"{found.id} is the {NATIVE_ABILITIES[found.id]} action")
    if not engine.run(found.effect, you=d):
        raise EffectError(f"{found.id} cannot be used now")
    engine.log(f"{d.cls} uses {found.id}")


def end(engine: Engine, d: Dwarf, act: dict) -> None:
    d.actions = 0


HANDLERS = {"move": move, "pickaxe": pickaxe, "attack": attack, "overclock": overclock,
            "call_supply": call_supply, "collect_supply": collect_supply, "revive": revive,
            "assist": assist, "stand": stand, "sentry": sentry, "throw": throw, "shield": shield,
            "platforms": platforms, "exchange": exchange, "flare": flare, "zipline": zipline,
            "rock_and_stone": rock_and_stone, "ability": ability, "end": end}
