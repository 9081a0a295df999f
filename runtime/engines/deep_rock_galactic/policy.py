"""A simple heuristic for simulated dwarves: help, stand up, shoot, mine, resupply, walk to the
next objective or back to the drop pod. The agent picks among the best-ranked options, so a
random agent still plays sensibly and a seed replays a game exactly.

No class, weapon or ability is named here: the options are what the engine offers this dwarf
(its weapons' legal attacks, its abilities' actions, a Move it may make), and an ability, a
card or a pickup is weighed by trying it on a copy of the game (trials.py), whatever content
defined it (tests/deep_rock_galactic/test_players.py checks the names, here and in trials.py)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.agents import picks_from_suggestion
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.actions import ability_actions, can_land_supply_pod, legal_move
from tomecraft.runtime.engines.deep_rock_galactic.actions import legal_attacks as attacks
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine
from tomecraft.runtime.engines.deep_rock_galactic.equipment import rock_and_stone_playable
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.movement import dig
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, WALLS, Dwarf
from tomecraft.runtime.engines.deep_rock_galactic.trials import (STRONG, Baseline, ability_gain, card_gain,
                                                                 evaluate, needs, strike_gain, threatened, trial_gain,
                                                                 unweighed)

__all__ = ["choose", "options", "evaluate", "needs", "trial_gain", "goals", "walk", "bosco_phase"]


class _View:
    def __init__(self, best: list) -> None:
        self.best = best

    def suggest(self, key: str, options: list) -> list:
        return self.best


def supply_pod_spares_objective(engine: Engine) -> bool:
    """A supply pod is affordable (3 Nitra, Gold standing in: actions.call_supply) without
    spending the Nitra or Gold the objective counts in the Shared Supply: a mission collecting
    Nitra saw every 3 Nitra mined spent on supply pods and never succeeded."""
    st = engine.state
    nitra, gold = st.shared.get("nitra", 0), st.shared.get("gold", 0)
    if nitra + gold < 3:
        return False
    targets = engine.mission["objective"].get("targets", {}) if not st.pod_returned else {}
    paid = min(3, nitra)
    return nitra - paid >= min(nitra, targets.get("nitra", 0)) and \
        gold - (3 - paid) >= min(gold, targets.get("gold", 0))


def choose(engine: Engine, d: Dwarf, webbed: bool) -> dict | None:
    agent = engine.agents[d.seat % len(engine.agents)]
    # an agent that picks among the view's suggestion (the best-ranked options) alone: options
    # it could never pick need not be looked for (`options`' every)
    ranked = options(engine, d, webbed, every=not picks_from_suggestion(agent))
    if not ranked:
        return None
    top = min(r for r, _ in ranked)
    best = [o for r, o in ranked if r == top]
    return agent.choose("action", [o for _, o in ranked], _View(best))


def _beaten(ranked: list[tuple[int, dict]], rank: int) -> bool:
    """Whether an option ranked better than `rank` is among `ranked`."""
    return any(r < rank for r, _ in ranked)


def _adjacent(a: Hex, b: Hex) -> bool:
    return hx.distance(a, b) == 1


def options(engine: Engine, d: Dwarf, webbed: bool, every: bool = True) -> list[tuple[int, dict]]:
    """The dwarf's options, ranked (lowest first). Not `every`: without the shots, the
    pickaxe and strikes or the walk when a better-ranked option is there already (an agent
    choosing among the best alone never takes them; looking for them changes nothing in the
    game: they read the board, a strike's trial is on a copy and remembered nowhere)."""
    st = engine.state
    out: list[tuple[int, dict]] = []
    if "knocked_over" in d.statuses:
        return [(0, {"do": "stand"})] if d.actions >= 2 else [(0, {"do": "end"})]
    now = Baseline(engine)
    for other in st.dwarves:
        if other is not d and not other.in_pod and _adjacent(d.pos, other.pos):
            if not other.conscious:
                out.append((0, {"do": "revive", "who": other.seat}))
            elif "knocked_over" in other.statuses:
                out.append((1, {"do": "assist", "who": other.seat}))
    for card in d.throwables:
        tdef = engine.data.get("throwable", card)
        if not tdef.area:
            continue
        best = None
        for m in st.monsters.values():
            at = m.pos
            if hx.distance(d.pos, at) > (tdef.range or 0) or not engine.los(d.pos, at, "arc"):
                continue
            area = [at, *hx.neighbours(at)]
            if any(x.pos in area for x in st.dwarves):
                continue
            count = sum(st.monster_at(h) is not None for h in area)
            if count >= 2 and (best is None or count > best[0]):
                best = (count, at)
        if best is not None:
            out.append((2, {"do": "throw", "card": card, "at": best[1]}))
    if every or not _beaten(out, 2):
        out += _single_throws(engine, d, now)
    # Rock and Stone cards cost no action: played first when in trouble (health 2 or less,
    # ammo 1 or less, a monster within 2), else kept; whatever pack defined a card, it is
    # played only if trying it on a copy of the game leaves the team better off
    trouble = d.health <= 2 or d.ammo <= 1 or any(hx.distance(d.pos, m.pos) <= 2 for m in st.monsters.values())
    for card in sorted(set(d.rock_and_stone)):
        if not rock_and_stone_playable(engine, d, card):
            continue
        act = {"do": "rock_and_stone", "card": card}
        out.append((0 if trouble and (card_gain(engine, d, act, now) or 0) > 0 else 9, act))
    # the shots (ranked 2 or 6; without them a pickaxe at a monster, 3) are not looked for when
    # an option ranked better is there already and only the best count (not `every`)
    shots = attacks(engine, d) if every or not _beaten(out, 2) else []
    if shots:
        most = max(s["dice"] + (1 if s["slot"] == "primary" else 0) for s in shots)
        for s in shots:
            rank = 2 if s["dice"] + (1 if s["slot"] == "primary" else 0) == most else 6
            out.append((rank, {k: s[k] for k in ("do", "weapon", "mode", "target")}))
    for m in st.monsters.values():
        if _adjacent(d.pos, m.pos) and not shots:
            out.append((3, {"do": "pickaxe", "at": [m.pos]}))
    needy = d.ammo <= 1 or d.health <= 2
    short = d.ammo < engine.ammo_cap(d, "ammo") or d.health < engine.health_cap(d)
    if st.supply_pod is not None and _adjacent(d.pos, st.supply_pod) and short:
        out.append((2, {"do": "collect_supply"}))
    if needy and st.supply_pod is None and supply_pod_spares_objective(engine):
        spots = [n for n in hx.neighbours(d.pos) if can_land_supply_pod(engine, n) and n not in st.stalagmites]
        if spots:
            out.append((2, {"do": "call_supply", "at": spots[0]}))
    if not st.pod_returned and (every or not _beaten(out, 3)):     # pickaxes (3), strikes (4)
        left = needs(engine)
        seek = _seek_hidden(engine, left, sum(
            n for k, n in left.items() if k in engine.data.kinds.get("pickup", {})))
        hidden = {h for seg in st.hidden if not seg["revealed"] for h in seg["hexes"]} if seek else set()
        for n in hx.neighbours(d.pos):
            if st.terrain(n) == "#" and any(x in hidden for x in hx.neighbours(n)):
                out.append((3, {"do": "pickaxe", "at": [n]}))     # open the way to a hidden segment
                continue
            if n in st.minerals:
                out.append((3, {"do": "pickaxe", "at": [n]}))
            elif n in st.pickups and st.pickups[n][1] and _worth_striking(engine, d, n, now):
                out.append((4, {"do": "pickaxe", "at": [n]}))
    if not webbed and (every or not _beaten(out, 5)):
        step = walk(engine, d)
        if step is not None:
            out.append((5, step))
    # the class's abilities (a shield, a sentry, a pack's Shockwave...), looked for last: each
    # tried on a copy of the game, then the monsters' next activation (the player's main cost),
    # kept when the team ends better off. Ranked 1 at best, so not tried when a rank-0 option
    # is there and only the best count (not `every`)
    if every or not _beaten(out, 1):
        for act in ability_actions(engine, d, unweighed(engine)):    # none sure to weigh 0 looked for
            gain = ability_gain(engine, d, act, now)
            if gain is not None and gain > 0:
                out.append((1 if gain >= STRONG else 4, act))
    if not out:
        out.append((9, {"do": "end"}))
    return out


def _single_throws(engine: Engine, d: Dwarf, now: Baseline) -> list[tuple[int, dict]]:
    """The throwables with no area (an Impact Axe at one monster, a LURE or a pack's mine left
    where monsters walk), whatever content defined them: each tried on a copy of the game at
    the nearest monsters in reach, or a delayed one, with none in reach, on the space beside
    the dwarf the nearest monster comes through, then the monsters' next activation
    (`ability_gain`, as an ability); thrown where it leaves the team best off, if anywhere.
    The area heuristic above never threw them: four of the game's nine throwables, and every
    pack's mine, were never used. A delayed one is tried only when a monster may strike the
    dwarf next (`threatened`: else it waits, its trial weighing the card alone), at the
    nearest monster in reach (the space beside was tried with monsters in reach too, and at
    a second monster: a third of the throws' trials, never the throw made in 60 games)."""
    st = engine.state
    out = []
    for card in sorted(set(d.throwables)):
        tdef = engine.data.get("throwable", card)
        if tdef.area:
            continue
        if tdef.delayed and not threatened(engine, d):
            continue            # it waits for a monster to come, and none may come next
        reach = tdef.range or 0
        near = sorted((hx.distance(d.pos, m.pos), m.pos) for m in st.monsters.values())
        # a delayed one at the nearest monster alone: its trials found a gain 1 time in 10
        spots = [at for far, at in near if far <= reach][:1 if tdef.delayed else 2]
        if tdef.delayed and near and not spots:
            nearest = near[0][1]
            beside = [n for n in hx.neighbours(d.pos) if st.terrain(n) in OPEN and n not in spots
                      and not any(x.pos == n for x in st.dwarves) and hx.distance(d.pos, n) <= reach]
            if beside:
                spots.append(min(beside, key=lambda n: (hx.distance(n, nearest), n)))
        best = None
        for at in spots:
            if not engine.los(d.pos, at, "arc"):
                continue
            act = {"do": "throw", "card": card, "at": at}
            gain = ability_gain(engine, d, act, now)
            if gain is not None and gain > 0 and (best is None or gain > best[0]):
                best = (gain, act)
        if best is not None:           # as an ability: a strong throw ranks with the best shots
            out.append((2 if best[0] >= STRONG else 6, best[1]))
    return out


NEAR = 2        # optional items (Gold, Nitra, upgrades) are fetched only this close


def _worth_striking(engine: Engine, d: Dwarf, at: Hex, now: Baseline | None = None) -> bool:
    """A face-up pickup that needs the pickaxe, struck only if its effect leaves the team
    better off: tried on a copy of the game (whatever pack defined it) and weighed by
    `evaluate` (a Loot Bug pays, Blood Sugar heals a hurt dwarf, an Alien Egg's Grunts cost)."""
    kind = engine.state.pickups[at][0]
    pdef = engine.data.get("pickup", kind)
    if not pdef.needs_pickaxe:
        return False
    if pdef.effect is None:
        return True                            # carried: an item the objective may count
    return strike_gain(engine, d, at, now or Baseline(engine)) > 0


def goals(engine: Engine, d: Dwarf) -> set[Hex]:
    """Where to walk: the objective first (its minerals, pickups, drones, target creature,
    the hidden segments that may hold what is still missing), optional items close by, and
    the drop pod once it returns. With nothing left to seek, everything collectable."""
    st = engine.state
    if st.pod_returned:
        return set(st.pod)
    left = needs(engine)       # read with get: a Counter's missing key calls __missing__ in Python
    near = lambda h: hx.distance(d.pos, h) <= NEAR                               # noqa: E731
    targets: set[Hex] = set()
    for h, name in st.minerals.items():
        if left.get(name, 0) > 0 or (name in ("nitra", "gold") and near(h)):
            targets |= {n for n in hx.neighbours(h) if st.terrain(n) in OPEN}
    wanted_pickups = sum(n for k, n in left.items() if k in engine.data.kinds.get("pickup", {}))
    for h, (kind, up) in st.pickups.items():
        if (not up and wanted_pickups) or left.get(kind, 0) > 0 or near(h):
            targets.add(h)
    for h, pile in st.ground.items():
        if any(left.get(k, 0) for k in pile) or near(h):
            targets.add(h)
    targets |= {h for h in st.upgrade_tokens if near(h)}
    targets |= set(st.drones)
    if engine.mission["objective"]["type"] == "eliminate":
        creature = engine.mission["objective"]["creature"]
        for m in st.monsters.values():
            if m.kind == creature:
                targets |= set(hx.neighbours(m.pos))
    if st.mine_head is not None and d.carried:
        targets |= set(hx.neighbours(st.mine_head))
    if d.ammo <= 1 and st.supply_pod is not None:
        targets |= set(hx.neighbours(st.supply_pod))
    if _seek_hidden(engine, left, wanted_pickups):
        targets |= hidden_doors(engine)
    if not targets:
        targets = {h for h in st.pickups} | set(st.ground) | set(st.upgrade_tokens)
        targets |= {n for h in st.minerals for n in hx.neighbours(h) if st.terrain(n) in OPEN}
    targets.discard(d.pos)
    return targets


def _seek_hidden(engine: Engine, left: Counter, wanted_pickups: int) -> bool:
    """Open hidden segments while the objective may lie in them: pickups still missing beyond
    those face down on the map, drones on them, or a target creature not yet seen."""
    st = engine.state
    if not any(not seg["revealed"] for seg in st.hidden):
        return False
    face_down = sum(1 for kind, up in st.pickups.values() if not up)
    visible = sum(1 for kind, up in st.pickups.values() if up and left.get(kind, 0) > 0)
    if wanted_pickups > visible + face_down:
        return True
    obj = engine.mission["objective"]
    if obj["type"] == "eliminate" and not any(m.kind == obj["creature"] for m in st.monsters.values()) \
            and st.killed[obj["creature"]] == 0:
        return True
    return any(st.terrain(h) == "h" for h in st.drones)


def hidden_doors(engine: Engine) -> set[Hex]:
    """Where a dwarf opens an unrevealed hidden segment: next to a wall that touches it (an
    open space), or, when no such space is open yet, the wall itself (dug towards)."""
    st = engine.state
    doors: set[Hex] = set()
    for seg in st.hidden:
        if seg["revealed"]:
            continue
        walls = {w for h in seg["hexes"] for w in hx.neighbours(h) if st.terrain(w) in WALLS}
        spaces = {n for w in walls for n in hx.neighbours(w) if st.terrain(n) in OPEN}
        doors |= spaces or walls
    return doors


def walk(engine: Engine, d: Dwarf) -> dict | None:
    st = engine.state
    wanted = goals(engine, d)
    if not wanted:
        return None
    # Board.dwarf_step reads only the space entered (its first space is not read): asked
    # once per space, not once per neighbour the searches reach it from; the first search
    # keeps its answers in `enters` for the second
    enters: dict[Hex, bool] = {}
    stepper = engine.dwarf_stepper(d)

    def step(b: Hex) -> bool:
        ok = enters.get(b)
        if ok is None:
            ok = enters[b] = stepper(b)
        return ok
    path = hx.path_into(d.pos, wanted, stepper, enters)
    if path is None:
        # dig towards the nearest goal: the first wall on a path through walls
        dig_path = hx.path_into(d.pos, wanted, lambda b: step(b) or (st.terrain(b) in WALLS))
        if dig_path:
            first_wall = next((h for h in dig_path if st.terrain(h) in WALLS), None)
            if first_wall is not None and _adjacent(d.pos, first_wall):
                # a Move into the wall when the dwarf may dig as it moves: sure, where the
                # pickaxe may miss
                through = {"do": "move", "path": [first_wall]}
                return through if legal_move(engine, d, through) else {"do": "pickaxe", "at": [first_wall]}
            path = dig_path[: dig_path.index(first_wall)] if first_wall in dig_path else dig_path
        if not path:
            return None
    steps = path[:3]
    stop = next((i for i, h in enumerate(steps) if engine.token_flag(h, "stops_movement_on_entry")), None)
    if stop is not None:                       # goo ends the move where it lies
        steps = steps[:stop + 1]
    while steps and not (engine.dwarf_can_stop(d, steps[-1]) or (st.pod_returned and steps[-1] in st.pod)):
        steps.pop()
    if not steps:
        return None
    act = {"do": "move", "path": steps}
    if engine.listens(d, "move_action"):          # an ability that shoots after a Move: aim it
        shot = _free_shot(engine, d, steps[-1])
        if shot is not None:
            act["then_fire"] = shot
    return act


def _free_shot(engine: Engine, d: Dwarf, end: Hex) -> dict | None:
    """The shot a free attack after a Move makes from `end`: the primary's first 1-action
    mode the dwarf has ammo for, at the nearest monster it reaches."""
    st = engine.state
    weapon = engine.data.get("weapon", d.primary)
    index = next((i for i, mode in enumerate(weapon.modes)
                  if (mode.get("actions") or 0) == 1 and (mode.get("ammo") or 0) <= d.ammo), None)
    if index is None:
        return None
    mode = weapon.modes[index]
    lob = mode.get("ignores_line_of_sight") or "none"
    for m in sorted(st.monsters.values(), key=lambda m: (_nearest(end, m), m.uid)):
        if m.hidden_from != d.seat and engine.aims(end, m, mode.get("range") or 1, lob):
            return {"weapon": d.primary, "mode": index, "target": m.uid}
    return None


def _nearest(h: Hex, m) -> int:
    """How far the nearer of the monster's spaces (the Oppressor has 2, L1197) is from h."""
    return min(hx.distance(h, x) for x in m.spaces())


def bosco_phase(engine: Engine, d: Dwarf) -> None:
    """BOSCO's 2 actions (L1437-1451): the rocket launcher (2 actions) on a monster the machine
    gun cannot reach, else the machine gun, else the pickaxe on a mineral wall next to it, else
    follow the dwarf. Its guns are the `bosco` weapon's modes, run as effects from its space."""
    st = engine.state
    left = 2
    while left > 0 and st.bosco is not None:
        shot = bosco_shot(engine, d, left)
        if shot is not None:
            mode, target = shot
            bosco_fire(engine, d, mode, target)
            left -= mode.get("actions") or 1
            continue
        left -= 1
        wall = next((h for h in sorted(hx.neighbours(st.bosco)) if h in st.minerals), None)
        if wall is not None:
            bosco_pickaxe(engine, d, wall)
            continue
        path = hx.path_to(st.bosco, set(hx.neighbours(d.pos)),
                          lambda a, b: st.terrain(b) not in WALLS and st.terrain(b) not in ("x", "h"))
        if path:
            for h in reversed(path[:3]):
                if st.terrain(h) in OPEN and not st.monster_at(h) and not st.dwarf_at(h):
                    st.bosco = h
                    break


def bosco_shot(engine: Engine, d: Dwarf, left: int):
    """The nearest monster BOSCO's machine gun reaches; else, with 2 actions left, the
    nearest its rocket launcher reaches. (mode, monster) or None."""
    st = engine.state
    drone = next(w for w in engine.data.of("weapon") if w.slot == "drone")      # BOSCO's guns
    for mode in sorted(drone.modes, key=lambda m: m.get("actions") or 1):
        if (mode.get("actions") or 1) > left:
            continue
        near = [m for m in st.monsters.values() if engine.aims(st.bosco, m, mode.get("range") or 1)]
        if near:
            return mode, min(near, key=lambda m: (_nearest(st.bosco, m), m.uid))
    return None


def bosco_fire(engine: Engine, d: Dwarf, mode, target) -> bool:
    """Run a BOSCO mode's effect from BOSCO's space; the hits count as the dwarf's team's."""
    at = engine.state.bosco
    aims = engine.aims(at, target, mode.get("range") or 1)     # its target space (L392)
    # from behind, BOSCO's shot ignores resistance like any attack (L1171, L1195)
    return engine.run(mode.get("effect"), you=d, mode=mode, target_obj=target, free=True,
                      aim=aims[0] if aims else None, from_behind=engine.from_behind(target, at),
                      **{"from": at})


def bosco_pickaxe(engine: Engine, d: Dwarf, at) -> None:
    """BOSCO's pickaxe (L1443): opens an adjacent wall or stalagmite, the mineral inside
    dropping on the ground for a dwarf to pick up; an opened wall reveals a hidden segment
    it touches. Pickaxe dice: rule g13 (G-13)."""
    st = engine.state
    faces = engine.roll("pickaxe_die", int(engine.rules["g13_pickaxe_dice"]))
    if not sum(f.get("hits") or 0 for f in faces):
        engine.log("BOSCO swings and misses")
        return
    if at in st.stalagmites:
        st.stalagmites.discard(at)
        return
    if at in st.minerals:
        st.ground.setdefault(at, Counter())[st.minerals.pop(at)] += 1
    dig(engine, at)
    engine.log(f"BOSCO opens the wall at {list(at)}")
