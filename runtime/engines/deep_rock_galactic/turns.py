"""The turn structure (rulebook L266-282, L858-935): each dwarf's turn (start, actions, BOSCO), the
Event Phase and Reaction Events, the end of the mission; `play_mission` is the loop."""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import actions, hexgrid as hx, mission_play, policy
from tomecraft.runtime.engines.deep_rock_galactic.engine import MAX_ROUNDS, Engine
from tomecraft.runtime.engines.deep_rock_galactic.events import carry_out_event
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf


# --- objectives and the end (L1281-1297) ----------------------------------------------------

def objectives_done(engine: Engine) -> bool:
    obj = engine.mission["objective"]
    st = engine.state
    if obj["type"] == "none":       # a scenario that names no objective: the pod never returns by itself
        return False
    if obj["type"] == "eliminate":
        return st.killed[obj["creature"]] > 0 and mission_play.drones_recovered(engine)
    return all(st.shared[k] >= n for k, n in obj.get("targets", {}).items()) \
        and mission_play.drones_recovered(engine)


def check_end(engine: Engine) -> None:
    st = engine.state
    if st.result:
        return
    if not st.pod_returned and objectives_done(engine):
        st.pod_returned = True
        engine.log("objectives complete: the drop pod returns")
        for h in st.pod:
            m = st.monster_at(h)
            if m is not None:
                st.monsters.pop(m.uid, None)
            crush_objects(engine, h)
            d = st.dwarf_at(h)
            if d is not None:
                spot = pod_landing(engine, d, h)
                if spot is not None:
                    d.pos = spot
                d.statuses.add("knocked_over")
    if st.pod_returned:
        outside = [d for d in st.dwarves if d.conscious and not d.in_pod]
        if any(d.in_pod for d in st.dwarves) and not outside:
            st.result = "success"
            engine.log("every conscious dwarf is in the drop pod: success")


def pod_landing(engine: Engine, d: Dwarf, h):
    """Where the returning pod puts a dwarf standing on its space `h` (L1289: moved to a space
    beside it, knocked over; the rulebook does not say which, so his player chooses,
    `pod_landing`): a free space next to it off the pod; a space with only pod spaces or rock
    around it (the default pod's corner (8, 0)) puts the dwarf on the nearest free space beside
    the pod (any free one if none is), his player choosing among equally near ones; None if
    there is none. The options come in neighbour order, the simulated player's preference
    the first (Engine.suggest)."""
    st = engine.state
    ring = [n for n in hx.neighbours(h) if n not in st.pod and engine.dwarf_can_stop(d, n)]
    if not ring:
        free = [c for c in st.cells if c not in st.pod and engine.dwarf_can_stop(d, c)]
        # beside the pod (L1289 '旁边空格'), reached over its spaces: never through a wall
        beside = [c for c in free if any(n in st.pod for n in hx.neighbours(c))]
        free = beside or free
        if not free:
            return None
        nearest = min(hx.distance(h, c) for c in free)
        ring = sorted(c for c in free if hx.distance(h, c) == nearest)
    if len(ring) == 1:
        return ring[0]
    return tuple(engine.agents[d.seat % len(engine.agents)].choose("pod_landing", ring, engine))


def crush_objects(engine: Engine, h) -> None:
    """The returning pod destroys and removes every object on its space (L1287: '怪物或物件'):
    tokens, a stalagmite, the sentry gun (back to the Engineer), a supply pod, pickups, upgrade
    tokens and what lies on the ground."""
    st = engine.state
    for placed in st.tokens.values():
        placed.pop(h, None)
    st.stalagmites.discard(h)
    for pile in (st.pickups, st.upgrade_tokens, st.ground):
        pile.pop(h, None)
    if st.sentry == h:
        st.sentry = None
    if st.supply_pod == h:
        st.supply_pod = None
        st.supply_stock.clear()


# --- a dwarf's turn -----------------------------------------------------------------------------

def start_turn(engine: Engine, d: Dwarf) -> None:
    st = engine.state
    d.used.clear()
    d.last_action = None
    for kind in ("flame", "flare"):
        for h, owner in list(st.tokens.get(kind, {}).items()):
            if owner == d.seat:
                del st.tokens[kind][h]
    if engine.has_ability(d, "shield_generator") and engine.shield is not None:
        engine.shield = None                      # back to the general supply (L736)
    engine.emit("turn_start", you=d)              # IFG, LURE: discarded now (L1351-1353)


def take_turn(engine: Engine, d: Dwarf) -> None:
    st = engine.state
    if d.in_pod or st.result:
        return
    start_turn(engine, d)
    engine.acting = d
    if not d.conscious:
        engine.log(f"{d.cls} is unconscious: the threat advances")
        engine.advance_threat(1, unconscious=True)
    else:
        action_and_event_phases(engine, d)
    if not st.result:
        engine.emit("turn_end", you=d)
        check_end(engine)


def action_and_event_phases(engine: Engine, d: Dwarf) -> None:
    """A conscious dwarf's Action Phase (3 actions, 1 when stunned), BOSCO's, then the
    dwarf's Event Phase."""
    st = engine.state
    d.actions = 1 if "stunned" in d.statuses else 3
    webbed = "webbed" in d.statuses
    d.statuses -= {"stunned", "webbed"}
    guard = 0
    while d.actions > 0 and not st.result and d.conscious and not d.in_pod and guard < 12:
        guard += 1
        act = policy.choose(engine, d, webbed)
        if act is None:
            break
        actions.perform(engine, d, act)
        check_end(engine)
    action_phase_over(engine, d)
    if st.bosco_alive and len(st.dwarves) == 1 and not st.result:
        policy.bosco_phase(engine, d)
    check_end(engine)
    if not st.result and d.conscious and not d.in_pod:
        event_phase(engine, d)
    check_end(engine)


def action_phase_over(engine: Engine, d: Dwarf) -> None:
    """A Menace hiding from the dwarf comes back once his Action Phase is over (L1275)."""
    for m in engine.state.monsters.values():
        if m.hidden_from == d.seat:
            m.hidden_from = None


def event_phase(engine: Engine, d: Dwarf) -> None:
    action_phase_over(engine, d)       # the Event Phase follows his Action Phase (a scenario's step)
    engine.emit("event_phase", you=d)
    carry_out_event(engine, d)


def play_mission(engine: Engine) -> None:
    """Rounds of every dwarf's turn until success, failure or the round cap."""
    st = engine.state
    while not st.result and st.round < MAX_ROUNDS:
        st.round += 1
        for d in st.dwarves:
            take_turn(engine, d)
            if st.result:
                break
    engine.emit("mission_end")
