"""The dwarves' actions (rulebook L300-640): move, attack, pickaxe, call/collect supply,
revive, assist, stand up, overclock, sentry gun. `perform(engine, dwarf, action)` runs one.
The moves and the pickaxe are in movement.py, class equipment and cards in equipment.py."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.definitions import Record
from tomecraft.runtime.effects import Context, EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.board import terrain_kinds
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, Ctx, Dwarf, spend
from tomecraft.runtime.engines.deep_rock_galactic.equipment import (NATIVE_ABILITIES, ability, class_abilities, flare, platforms,
                                                          rock_and_stone, sentry, sentry_ability, shield, throw,
                                                          zipline)
from tomecraft.runtime.engines.deep_rock_galactic.movement import carry, check_move, collect, dig, enter, move, pickaxe, reveal

__all__ = ["HANDLERS", "NATIVE_ABILITIES", "PLACES_ONLY", "perform", "ability_actions", "legal_move", "spend", "carry", "collect", "dig", "enter", "reveal",
           "class_abilities", "follows", "legal_attacks", "can_land_supply_pod", "land_supply_pod",
           "supply_pod_spots"]


def perform(engine: Monsters, d: Dwarf, act: dict) -> None:
    kind = act["do"]
    engine.open_window()
    d.acted_at = engine.tick()
    HANDLERS[kind](engine, d, act)
    if kind != "end":          # what the dwarf did last (Successive Attack follows a Burst)
        d.last_action = (kind, act.get("weapon"), act.get("mode"))
    engine.note_pod_left()


# --- weapons --------------------------------------------------------------------------------

def attack(engine: Monsters, d: Dwarf, act: dict) -> None:
    target = engine.state.monsters.get(act["target"])
    if target is None:
        raise EffectError("no such monster")
    if act["weapon"] not in (d.primary, d.secondary):
        raise EffectError(f"the {d.cls} carries no {act['weapon']}")
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


def legal_attacks(engine: Monsters, d: Dwarf) -> list[dict]:
    """Every attack the dwarf may make now: per weapon and fire mode it can pay for (actions,
    ammo, per-round uses, `after`), each visible monster in range and line of sight; an area
    mode never where a teammate would be caught in the area, nor a beam through a teammate."""
    st = engine.state
    out = []
    in_sight: dict = {}           # (monster's space, sight rule) -> seen: looked at once per call
    weapons = [engine.data.get("weapon", d.primary), engine.data.get("weapon", d.secondary)]
    # the monsters the dwarf sees (not hidden from it) and how far each space of each is (the
    # Oppressor's 2, L1197: either may be the target space, L392): once, not per mode
    visible = [(m, [(h, hx.distance(d.pos, h)) for h in m.spaces()])
               for m in st.monsters.values() if m.hidden_from != d.seat]
    for weapon in weapons:
        for i, mode in enumerate(weapon.modes):
            ammo = d.ammo if weapon.slot == "primary" else d.secondary_ammo
            if (mode.get("ammo") or 0) > ammo or (mode.get("actions") or 0) > d.actions:
                continue
            if mode.get("per_round") and d.used[(weapon.id, mode.get("id"))] >= mode.get("per_round"):
                continue
            if mode.get("after") and not follows(weapon, mode, d):
                continue
            # the mode's fields read once, not once per monster
            lob = mode.get("ignores_line_of_sight") or "none"
            reach, area, dice = mode.get("range") or 1, mode.get("assign") == "area", mode.get("dice") or 0
            beam = mode.get("assign") == "beam"
            for m, spaces in visible:
                # the target space fire() takes: its first space in range and sight
                aim = next((h for h, far in spaces if far <= reach and _seen(engine, d.pos, h, lob, in_sight)), None)
                if aim is not None:
                    if area and any(hx.distance(x.pos, aim) <= 1 for x in st.dwarves if x is not d):
                        continue
                    if beam and any(x.pos in hx.beam(d.pos, aim) for x in st.dwarves if x is not d):
                        continue            # the beam would burn a teammate (L1319)
                    if not _takes(engine, d, weapon, mode, m, aim):
                        continue
                    out.append({"do": "attack", "weapon": weapon.id, "mode": i, "target": m.uid,
                                "dice": dice, "slot": weapon.slot})
    return out


def _takes(engine: Monsters, d: Dwarf, weapon, mode, target, aim) -> bool:
    """Whether the effect the shot would run may take this target: its `target ... where` may
    ask more than the mode's range and sight (a pack's rifle `... and flying()`), and a shot
    offered that its effect refuses stopped `sim` ("cannot fire"). Read from the effect's `can`
    (costs, and that the target is one its where-clause takes: in_range reads `target_obj`).
    Its `only_target` makes the effect's select look at the target alone (Engine.select): the
    where-clause run for every monster on the board, to find the one, was most of its cost."""
    effect = weapon.overclocked if weapon.slot == "secondary" and d.overclocked and \
        weapon.overclocked is not None else mode.get("effect")
    can = getattr(effect, "can", None)
    if can is None:
        return True
    saved = d.actions
    d.actions = max(d.actions, mode.get("actions") or 0)     # its action cost was checked above
    try:
        return bool(can(Ctx(engine, you=d, target=None, info={
            "weapon": weapon, "mode": mode, "aim": aim, "target_obj": target, "free": True,
            "only_target": target})))
    except EffectError:
        return False
    finally:
        d.actions = saved


def _seen(engine: Monsters, a: Hex, b: Hex, lob: str, memo: dict) -> bool:
    """`engine.los(a, b, lob)`, remembered in `memo` (keyed by b and lob) while nothing moves."""
    got = memo.get((b, lob))
    if got is None:
        got = memo[(b, lob)] = engine.los(a, b, lob)
    return got


def follows(weapon, mode, d: Dwarf) -> bool:
    """A mode with `after` (Successive Attack) fires only as the very next thing after the
    mode it follows (L750-756): so once per Burst, and never after a Move."""
    after = next((i for i, m in enumerate(weapon.modes) if m.get("id") == mode.get("after")), None)
    return after is not None and d.last_action == ("attack", weapon.id, after)


def fire_secondary(engine: Monsters, d: Dwarf, weapon, act: dict, target) -> None:
    effect = weapon.overclocked if d.overclocked and weapon.overclocked is not None else weapon.modes[0].effect
    mode = weapon.modes[0]
    spread = getattr(weapon, "overclocked_assign", None)
    if d.overclocked and spread:
        # overclocked, the dice are assigned otherwise (Plasma Igniter, Boomstick: both dice to
        # different neighbouring targets instead of one chosen die, L1329-1331)
        mode = Record(**{**mode._fields, "assign": spread})
    if d.secondary_ammo < (mode.get("ammo") or 0):
        # a shot needs its ammo even where it may be spent only after the roll (the overclocked
        # Zhukov keeps it on a double blank, L1339; a shot's ammo is never given back, L454)
        raise EffectError(f"{weapon.id} needs {mode.get('ammo')} secondary ammo")
    before = (d.actions, d.ammo, d.secondary_ammo)
    # the target space (L392), as fire() takes it; none in range and sight: the effect refuses
    aims = engine.aims(d.pos, target, mode.get("range") or 1, mode.get("ignores_line_of_sight") or "none")
    try:
        ok = engine.run(effect, you=d, weapon=weapon, mode=mode, target_obj=target, plan=act.get("plan"),
                        aim=aims[0] if aims else None,
                        from_behind=act.get("from_behind", False), free=act.get("free", False))
    except EffectError:
        d.actions, d.ammo, d.secondary_ammo = before
        raise
    if not ok:            # refused (out of range, out of sight): nothing paid, as for a primary
        d.actions, d.ammo, d.secondary_ammo = before
        raise EffectError(f"{weapon.id} cannot fire")


def overclock(engine: Monsters, d: Dwarf, act: dict) -> None:
    if engine.state.shared["gold"] < 1:
        raise EffectError("Overclock costs 1 Gold from the Shared Supply (L586)")
    if d.overclocked:
        raise EffectError("already overclocked")
    spend(d, 1)
    engine.state.shared["gold"] -= 1
    d.overclocked = True                      # cap 5; no refill (L588-590)


# --- supply (L592-616) ----------------------------------------------------------------------

def call_supply(engine: Monsters, d: Dwarf, act: dict) -> None:
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


def can_land_supply_pod(engine: Monsters, h: Hex) -> bool:
    """A supply pod lands on an empty cave space, not a Tunnel Exit or a pit (rule g14): no
    monster, dwarf, stalagmite, sentry gun or BOSCO on it."""
    st = engine.state
    return st.terrain(h) in OPEN and h not in st.exits.values() and st.terrain(h) != "o" \
        and not st.monster_at(h) and not st.dwarf_at(h) and h not in st.stalagmites \
        and h != st.sentry and not (st.bosco_alive and h == st.bosco)


def supply_pod_spots(engine: Monsters) -> list[Hex]:
    return sorted(h for h in engine.state.cells if can_land_supply_pod(engine, h))


def land_supply_pod(engine: Monsters, at: Hex) -> None:
    """The pod lands with the top supply card's stock; an earlier pod's leftovers go (L600-604)."""
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


def collect_supply(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Collect Supply (L608-610): next to the pod, any number of its health cubes and ammo
    (`take`; by default all the dwarf's board has room for); an emptied pod leaves."""
    st = engine.state
    if st.supply_pod is None or hx.distance(d.pos, st.supply_pod) > 1:
        raise EffectError("Collect Supply needs the supply pod next to you")
    caps = {"health": engine.health_cap(d), "ammo": engine.ammo_cap(d, "ammo"),
            "secondary_ammo": engine.ammo_cap(d, "secondary_ammo")}
    room = {name: max(0, min(st.supply_stock[name], cap - getattr(d, name))) for name, cap in caps.items()}
    wanted = act.get("take")          # any number of each (L608), else all the caps allow
    if wanted is not None:
        for name, n in wanted.items():
            if name not in room:
                raise EffectError(f"the supply pod holds no {name}")
            if not 0 <= n <= room[name]:
                raise EffectError(f"{n} {name}: the pod and the {d.cls}'s board allow {room[name]}")
        room = {name: wanted.get(name, 0) for name in room}
    spend(d, 1)
    for name, take in room.items():
        setattr(d, name, getattr(d, name) + take)
        st.supply_stock[name] -= take
    if engine.has_ability(d, "shield_generator"):
        d.tokens["shield"] = 1
    if not +st.supply_stock:
        st.supply_pod = None
        st.supply_stock.clear()


# --- helping each other (L620-628) ------------------------------------------------------------

def revive(engine: Monsters, d: Dwarf, act: dict) -> None:
    other = engine.state.dwarves[act["who"]]
    if other is d or other.conscious or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("revive an adjacent unconscious dwarf, not yourself")
    spend(d, 1)
    engine.revive(other)


def assist(engine: Monsters, d: Dwarf, act: dict) -> None:
    other = engine.state.dwarves[act["who"]]
    if other is d or "knocked_over" not in other.statuses or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("assist an adjacent knocked-over dwarf, not yourself")
    spend(d, 1)
    other.statuses.discard("knocked_over")


def stand(engine: Monsters, d: Dwarf, act: dict) -> None:
    if "knocked_over" not in d.statuses:
        raise EffectError("not knocked over")
    spend(d, 2)
    d.statuses.discard("knocked_over")

def exchange(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Exchange Supply (L612-616): with an adjacent dwarf, each other's ammo, throwables,
    spare upgrades and Rock and Stone cards ('交换彼此的'): `give` goes to the other dwarf,
    `take` comes from him, in one action; never health. All or nothing: what cannot move
    (caps counted after both ways) is refused before anything moves or the action is spent."""
    other = engine.state.dwarves[act["who"]]
    if other is d or hx.distance(d.pos, other.pos) > 1:
        raise EffectError("exchange with an adjacent dwarf")
    give, take = act.get("give", {}), act.get("take", {})
    for giver, getter, what, back in ((d, other, give, take), (other, d, take, give)):
        for name, n in what.items():
            problem = _cannot_give(engine, giver, getter, name, n, back.get(name, 0))
            if problem:
                raise EffectError(problem)
    spend(d, 1)
    given, taken = _hand_over(d, give), _hand_over(other, take)
    _receive(other, given)
    _receive(d, taken)


def _hand_over(d: Dwarf, what: dict) -> dict:
    """Takes `what` off the dwarf (checked before): ammo counts, cards and upgrades by id, the
    first n Rock and Stone cards of the hand."""
    out = {}
    for name, n in what.items():
        if name == "rock_and_stone":
            out[name] = d.rock_and_stone[:n]
            del d.rock_and_stone[:n]
        elif name in ("ammo", "secondary_ammo"):
            setattr(d, name, getattr(d, name) - n)
            out[name] = n
        else:                                  # upgrades, throwables: by id
            mine = d.spare_upgrades if name == "upgrades" else d.throwables
            for item in n:
                mine.remove(item)
            out[name] = list(n)
    return out


def _receive(d: Dwarf, got: dict) -> None:
    for name, n in got.items():
        if name in ("ammo", "secondary_ammo"):
            setattr(d, name, getattr(d, name) + n)
        else:
            {"rock_and_stone": d.rock_and_stone, "upgrades": d.spare_upgrades,
             "throwables": d.throwables}[name].extend(n)
            if name == "upgrades":             # installed from his next action phase (L1371)
                d.used.update(("spare", up) for up in n)


def _cannot_give(engine: Monsters, d: Dwarf, other: Dwarf, name: str, n, back=0) -> str:
    """Why `d` cannot give `n` of `name` to `other`, who gives `back` of it in return ("" if
    it can)."""
    if name == "health":
        return "health cubes cannot be exchanged"
    if name == "rock_and_stone":
        return "" if len(d.rock_and_stone) >= n else "not enough Rock and Stone cards"
    if name in ("rock_and_stone", "ammo", "secondary_ammo") and not (isinstance(n, int) and n >= 0):
        return f"{n!r} {name}: a count, 0 or more"     # -2 ammo given was 2 taken
    if name in ("ammo", "secondary_ammo"):
        if getattr(d, name) < n:
            return f"not enough {name}"
        if getattr(other, name) + n - back > engine.ammo_cap(other, name):    # its board's spaces (L608)
            return f"the {other.cls} has no room for {n} more {name}"
        return ""
    if name == "upgrades":                     # only ones not installed (L614-616)
        held = list(d.spare_upgrades)
        what = "a spare upgrade"
    elif name == "throwables":
        held = list(d.throwables)
        what = "a throwable"
    else:
        return f"{name} cannot be exchanged"
    for item in n:
        if item not in held:
            return f"{item} is not {what} of the {d.cls}"
        held.remove(item)
    return ""


def install(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Install a spare weapon upgrade (L1371): a free action, from the action phase after the
    one it came to the board in, on a slot it fits; an upgrade already there is removed and
    lost, back to the supply (L1373)."""
    up, slot = act["upgrade"], act["slot"]
    if up not in d.spare_upgrades:
        raise EffectError(f"{up} is not a spare upgrade of the {d.cls}")
    if d.used[("spare", up)]:
        raise EffectError("a spare upgrade is installed in a later action phase (L1371)")
    if slot not in (engine.data.get("weapon_upgrade", up).fits or ()):
        raise EffectError(f"{up} does not fit the {slot} weapon")
    old = d.upgrades.get(slot)
    d.spare_upgrades.remove(up)
    d.upgrades[slot] = up
    if old is not None:
        engine.state.upgrade_supply.insert(0, old)
        # an ammo space the lost upgrade gave goes with it: ammo over the weapon's cap is lost
        resource = "ammo" if slot == "primary" else "secondary_ammo"
        setattr(d, resource, min(getattr(d, resource), engine.ammo_cap(d, resource)))
    engine.log(f"{d.cls} installs {up} on the {slot} weapon" + (f", losing {old}" if old else ""))


def end(engine: Monsters, d: Dwarf, act: dict) -> None:
    d.actions = 0


HANDLERS = {"move": move, "pickaxe": pickaxe, "attack": attack, "overclock": overclock,
            "call_supply": call_supply, "collect_supply": collect_supply, "revive": revive,
            "assist": assist, "stand": stand, "sentry": sentry, "throw": throw, "shield": shield,
            "platforms": platforms, "exchange": exchange, "flare": flare, "zipline": zipline,
            "rock_and_stone": rock_and_stone, "ability": ability, "install": install, "end": end}


# --- what a dwarf's abilities offer now (for the simulated players) ---------------------------

def legal_move(engine: Monsters, d: Dwarf, act: dict) -> bool:
    """Whether the Move `act` is legal now (a Power Drill digs through a wall, a Scout's
    grappling line crosses a pit...), without making it."""
    try:
        check_move(engine, d, act)
    except EffectError:
        return False
    return True


def _empty(engine: Monsters, h: Hex) -> bool:
    st = engine.state
    return st.terrain(h) in OPEN and not st.monster_at(h) and not st.dwarf_at(h) \
        and h not in st.exits.values() and h not in st.stalagmites and h != st.supply_pod


def _nearest_monster(engine: Monsters, at: Hex, los: bool = True):
    st = engine.state
    seen = [m for m in st.monsters.values() if not los or engine.los(at, m.pos)]
    return min(seen, key=lambda m: (hx.distance(at, m.pos), m.uid), default=None)


def _sentry_at(engine: Monsters, d: Dwarf) -> dict | None:
    """The sentry on the adjacent empty space nearest the monsters (deployed or moved)."""
    st = engine.state
    spots = [n for n in hx.sorted_neighbours(d.pos) if _empty(engine, n) and n != st.sentry]
    if not spots or not st.monsters:
        return None
    near = lambda h: sum(hx.distance(h, m.pos) <= 3 for m in st.monsters.values())   # noqa: E731
    at = max(spots, key=lambda h: (near(h), -spots.index(h)))
    return {"do": "sentry", "at": at} if _sentry_payable(engine, d, at) else None


def _sentry_payable(engine: Monsters, d: Dwarf, at: Hex) -> bool:
    """Whether the sentry ability's effect passes its own checks (its costs: an action and
    an ammo of either weapon) as `sentry` would run it on `at`: else `sentry` refuses it,
    and a player's trial of it would copy the game for nothing. An effect without a check
    (`can`) is offered, for the engine to refuse."""
    found = sentry_ability(engine, d.cls)
    if found is None or found.effect is None:
        return False                           # `sentry` refuses it
    can = getattr(found.effect, "can", None)
    info = {"at": at, "any_ammo": True, "source": "the sentry", "play": engine.plays + 1}
    return can is None or bool(can(Context(engine, you=d, info=info)))


def _shield_at(engine: Monsters, d: Dwarf) -> dict | None:
    """The shield on the dwarf's space, while none is out and the dwarf has a shield token
    (else `shield` refuses it: a player's trial of it would copy the game for nothing)."""
    if engine.shield is not None or not engine.has_ability(d, "shield_generator") or d.tokens["shield"] < 1:
        return None
    return {"do": "shield", "at": d.pos}


def _platforms_at(engine: Monsters, d: Dwarf) -> dict | None:
    """Up to 3 platforms on the nearest pits in line of sight that have none."""
    st = engine.state
    have = st.tokens.get("platform", {})
    blocks = engine.sight_blocker()
    pits = sorted((h for h in terrain_kinds(st.cells).pits if h not in have
                   and hx.line_of_sight(d.pos, h, blocks)),
                  key=lambda h: (hx.distance(d.pos, h), h))
    return {"do": "platforms", "at": pits[:3]} if pits else None


def _zipline_at(engine: Monsters, d: Dwarf) -> dict | None:
    """A zipline over 1 or 2 pits in a straight line from the dwarf to ground."""
    st = engine.state
    for n in hx.sorted_neighbours(d.pos):
        if st.terrain(n) != "o":
            continue
        step = tuple(y - x for x, y in zip(hx.to_cube(d.pos), hx.to_cube(n)))
        line = [n]
        while len(line) <= 2:
            nxt = next((h for h in hx.neighbours(line[-1])
                        if tuple(y - x for x, y in zip(hx.to_cube(line[-1]), hx.to_cube(h))) == step), None)
            if nxt is None:
                break
            if st.terrain(nxt) == "o":
                line.append(nxt)
                continue
            if st.terrain(nxt) in OPEN and len(line) <= 2:
                return {"do": "zipline", "over": line, "land": nxt}
            break
    return None


def _flare_at(engine: Monsters, d: Dwarf) -> dict | None:
    """A flare on the nearest monster in line of sight (its light rerolls a die, L836-842)."""
    m = _nearest_monster(engine, d.pos)
    return {"do": "flare", "at": m.pos} if m is not None and engine.state.terrain(m.pos) in OPEN else None


# the spaces a base class's ability action is offered on; a Move or an attack an ability
# changes (Power Drill, Grappling Hook, Drill Attack) is offered as that Move or attack
_WHERE = {"sentry": _sentry_at, "shield": _shield_at, "platforms": _platforms_at,
          "zipline": _zipline_at, "flare": _flare_at}
# the base classes' ability actions that change nothing but what they place, besides what
# the dwarf pays (an action, its own tokens): board tokens of one kind, or (None) the
# Gunner's shield; a zipline also the ride along it that dwarves take. The players' trials
# read it (trials.weighs_nothing).
PLACES_ONLY = {"platforms": "platform", "zipline": "zipline", "flare": "flare", "shield": None}


def ability_actions(engine: Monsters, d: Dwarf, unwanted=frozenset()) -> list[dict]:
    """The actions the dwarf's class abilities offer now, each once: a base class's ability as
    the engine's own action (on one sensible space), any other (a pack's class) as the
    generic `ability` action when its effect can run. Whether one is worth it is the player's
    to weigh (`unwanted`: the base actions it would not take, not looked for); the engine
    still refuses an illegal one."""
    out = []
    for ab in class_abilities(engine, d):
        kind = NATIVE_ABILITIES.get(ab.id)
        if kind is None:
            if ab.effect is not None and ab.effect.can(Context(engine, you=d)):
                out.append({"do": "ability", "id": ab.id})
        elif kind in _WHERE and kind not in unwanted:
            act = _WHERE[kind](engine, d)
            if act is not None:
                out.append(act)
    return out
