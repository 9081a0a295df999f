"""Setup, the dwarves' turns and the Event Phase; `play_game` for `tomecraft sim`."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, mission_play
from tomecraft.runtime.engines.deep_rock_galactic.engine import (
    CLASSES, DEFAULT_SECONDARY, FALLBACK_SECONDARY, MAX_ROUNDS, Engine, load_mission, parse_map, plain)
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, Dwarf, Monster, State


def setup(data, players: int, rng, agents, options: dict, log: bool = False) -> Engine:
    mission = load_mission(data, options)
    cells = parse_map(mission["map"])
    pod = [tuple(h) for h in mission["drop_pod"]]
    exits = {e["exit"]: tuple(e["at"]) for e in mission["tunnel_exits"]}
    st = State(cells, pod, exits, tuple(mission["mine_head"]) if mission.get("mine_head") else None)
    hazard = int(options.get("hazard") or mission.get("hazard") or 2)
    engine = Engine(data, st, agents, rng, {**options, "hazard": hazard}, log_enabled=log)
    engine.mine_head_mission = st.mine_head is not None
    engine.mission = mission
    level = data.get("hazard_level", f"hazard_{hazard}")
    st.stalagmites = {tuple(h) for h in mission.get("stalagmites", [])}
    # minerals: fixed ones first, the rest at random on the diamond spaces (L209-213)
    diamonds = sorted(h for h, c in cells.items() if c == "*")
    tokens = [name for name, n in sorted(mission["minerals"].items()) for _ in range(n)]
    for fixed in mission.get("mineral_spaces", []):
        st.minerals[tuple(fixed["at"])] = fixed["mineral"]
        tokens.remove(fixed["mineral"]) if fixed["mineral"] in tokens else None
    free = [h for h in diamonds if h not in st.minerals]
    rng.shuffle(free)
    for h, name in zip(free, tokens):
        st.minerals[h] = name
    # pickups: face down on flare-stick spaces, the rest on the hidden segments (L215-221)
    pickups = [name for name, n in sorted(mission["pickups"].items()) for _ in range(n)]
    rng.shuffle(pickups)
    per_hidden = int(engine.rules["v18_pickups_per_hidden_segment"])
    for h in sorted(h for h, c in cells.items() if c == "?"):
        if pickups:
            st.pickups[h] = [pickups.pop(), False]
    st.segment_pool = [dict(t) for t in plain(engine.rules["hidden_segment_pool"])]
    rng.shuffle(st.segment_pool)                  # drawn at random from the 8 tiles (L196)
    for group in hx.components(cells, {"h"}):
        mine = [pickups.pop() for _ in range(min(per_hidden, len(pickups)))]
        st.hidden.append({"hexes": group, "pickups": mine, "revealed": False,
                          "tile": st.segment_pool.pop() if st.segment_pool else None})
    # decks (Before Starting removals, L147)
    removed = set(mission.get("remove_cards", []))
    for card in data.of("event_card"):
        if card.id in removed:
            continue
        pile = st.swarm_deck if card.deck == "swarm" else st.event_deck
        pile.extend([card] * (card.count or 1))
    for card in data.of("supply_card"):
        st.supply_deck.extend([card] * (card.count or 1))
    st.rs_deck = rock_and_stone_deck(data)
    st.upgrade_supply = [u.id for u in data.of("weapon_upgrade") for _ in range(u.count or 1)]
    st.throwable_deck = sorted(t.id for t in data.of("throwable"))    # 1 copy each (rule throwable_copies)
    for pile in (st.event_deck, st.swarm_deck, st.supply_deck, st.rs_deck, st.upgrade_supply, st.throwable_deck):
        rng.shuffle(pile)
    engine.mission_event = mission.get("mission_event_fx")
    # dwarves
    for seat in range(players):
        cls = options.get("classes", CLASSES)[seat % 4]
        ddef = data.get("dwarf", cls)
        primary = next(w.id for w in data.of("weapon") if w.dwarf == cls and w.default)
        d = Dwarf(seat, cls, pod[seat % len(pod)], health=ddef.health, ammo=ddef.primary_ammo,
                  secondary_ammo=ddef.secondary_ammo, secondary=DEFAULT_SECONDARY.get(cls, FALLBACK_SECONDARY), primary=primary)
        d.tokens = Counter(plain(ddef.equipment) or {})
        engine.draw_throwable(d)
        engine.draw_rock_and_stone(d, 1)
        st.dwarves.append(d)
    mission_play.place_drones(engine, mission)
    mission_play.place_tokens(engine, mission)
    if players == 1:
        around = sorted({n for h in pod for n in hx.neighbours(h)} - set(pod))
        spot = next((h for h in around if cells.get(h) in OPEN and h not in exits.values()), None)
        st.bosco, st.bosco_alive = spot, spot is not None
    hazard_setup(engine, level)
    objective = mission["objective"]
    if objective["type"] == "eliminate":
        creature = objective["creature"]
        waits = any(e["creature"] == creature for e in mission.get("hidden_monsters", []))
        if not waits:
            far = max((h for h, c in cells.items() if c in OPEN and h not in pod and h not in exits.values()
                       and h not in st.stalagmites), key=lambda h: (min(hx.distance(h, p) for p in pod), h))
            m = Monster(st.next_uid, creature, far)
            st.monsters[m.uid] = m
            st.next_uid += 1
            engine.face_nearest_dwarf(m)
    return engine


def hazard_setup(engine: Engine, level, threat: int | None = None) -> None:
    """The Hazard level's setup: the threat token on its start square (L167-169), and at
    Hazard 4-5 one extra Grunt on every tunnel exit (L173)."""
    st = engine.state
    st.threat = level.threat_start if threat is None else threat
    for h in engine.active_exits():
        for _ in range(level.extra_grunts_per_exit or 0):
            m = Monster(st.next_uid, "grunt", h)
            st.monsters[m.uid] = m
            st.next_uid += 1
            engine.face_nearest_dwarf(m)


def rock_and_stone_deck(data) -> list[str]:
    return [c.id for c in data.of("rock_and_stone_card") for _ in range(c.count or 1)]


# --- objectives and the end (L925-935) --------------------------------------------------------

def objectives_done(engine: Engine) -> bool:
    obj = engine.mission["objective"]
    st = engine.state
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
            d = st.dwarf_at(h)
            if d is not None:
                spot = next((n for n in hx.neighbours(h) if n not in st.pod and engine.dwarf_can_stop(d, n)), None)
                if spot is not None:
                    d.pos = spot
                d.statuses.add("knocked_over")
    if st.pod_returned:
        outside = [d for d in st.dwarves if d.conscious and not d.in_pod]
        if any(d.in_pod for d in st.dwarves) and not outside:
            st.result = "success"
            engine.log("every conscious dwarf is in the drop pod: success")


# --- a dwarf's turn -----------------------------------------------------------------------------

def start_turn(engine: Engine, d: Dwarf) -> None:
    st = engine.state
    d.used.clear()
    d.last_action = None
    for kind in ("flame", "flare"):
        for h, owner in list(st.tokens.get(kind, {}).items()):
            if owner == d.seat:
                del st.tokens[kind][h]
    if d.cls == "gunner" and engine.shield is not None:
        engine.shield = None                      # back to the general supply (L720-726)
    for kind in ("ifg", "lure"):
        for h, owner in list(st.tokens.get(kind, {}).items()):
            if owner == d.seat:
                del st.tokens[kind][h]


def take_turn(engine: Engine, d: Dwarf) -> None:
    from tomecraft.runtime.engines.deep_rock_galactic import actions, policy
    st = engine.state
    if d.in_pod or st.result:
        return
    start_turn(engine, d)
    engine.acting = d
    if not d.conscious:
        engine.log(f"{d.cls} is unconscious: the threat advances")
        engine.advance_threat(1, unconscious=True)
        return
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
    for m in st.monsters.values():
        if m.hidden_from == d.seat:
            m.hidden_from = None
    if st.bosco_alive and len(st.dwarves) == 1 and not st.result:
        policy.bosco_phase(engine, d)
    check_end(engine)
    if not st.result and d.conscious and not d.in_pod:
        event_phase(engine, d)
    check_end(engine)


def event_phase(engine: Engine, d: Dwarf) -> None:
    card = engine.draw("event")
    if card is None:
        return
    engine.log(f"{d.cls} draws {card.id}")
    engine.open_window()
    d.acted_at = engine.tick()
    if card.event_kind == "mission_specific":
        engine.run(engine.mission_event, you=d)
    elif card.event_kind == "reaction":
        if not reaction_attacks(engine, d):
            engine.run(card.effect, you=d)
    elif card.event_kind == "optional" and "knocked_over" in d.statuses:
        return
    else:
        engine.run(card.effect, you=d, placed=[])


def reaction_attacks(engine: Engine, d: Dwarf) -> bool:
    """Reaction Event (L909-925): a 1-HP monster traps the drawer; every other teammate (and
    the sentry, BOSCO) with range and line of sight to the drawer's space takes one action-free
    attack with a 1-action fire mode, in turn, paying its ammo only when it shoots (L915-919);
    once the monster is killed nobody else shoots. True if the monster is killed."""
    st = engine.state
    n = len(st.dwarves)
    for other in (st.dwarves[(d.seat + i) % n] for i in range(1, n)):
        if not other.conscious or other.in_pod or "knocked_over" in other.statuses:
            continue
        mode = reaction_mode(engine, other, d.pos)
        if mode is not None:
            other.ammo -= mode.get("ammo") or 0
            if reaction_shot(engine, mode.get("die"), mode.get("dice") or 1):
                return True
    for helper in (st.sentry, st.bosco if st.bosco_alive else None):
        if helper is not None and hx.distance(helper, d.pos) <= 3 and engine.los(helper, d.pos):
            if reaction_shot(engine, "bullet_die", 1):
                return True
    return False


def reaction_mode(engine: Engine, shooter: Dwarf, at: Hex):
    """The shooter's first 1-action fire mode it can pay for that reaches `at`, or None."""
    weapon = engine.data.get("weapon", shooter.primary)
    for mode in weapon.modes:
        if (mode.get("actions") or 0) == 1 and (mode.get("ammo") or 0) <= shooter.ammo \
                and hx.distance(shooter.pos, at) <= (mode.get("range") or 1) \
                and engine.los(shooter.pos, at, mode.get("ignores_line_of_sight") or "none"):
            return mode
    return None


def reaction_shot(engine: Engine, die: str, n: int) -> bool:
    if sum(f.get("hits") or 0 for f in engine.roll(die, n)) > 0:
        engine.log("a reaction attack kills the ambusher")
        return True
    return False


def play_game(data, players: int, rng, agents, options: dict | None = None) -> dict:
    options = {} if options is None else options
    if options.get("deep_dive"):
        from tomecraft.runtime.engines.deep_rock_galactic.deep_dive import play_deep_dive
        return play_deep_dive(data, players, rng, agents, options)
    if isinstance(options.get("mission"), str):
        # a mission file is read once: the loaded mission replaces its path in the run's
        # options, so the next games of the same `sim.run` reuse it
        options["mission"] = load_mission(data, options)
    engine = setup(data, players, rng, agents, dict(options))
    play_mission(engine)
    st = engine.state
    success = st.result == "success"
    return {"scores": [100 if success else 0] * players, "rounds": st.round,
            "capped": st.result is None, "finished": [d.in_pod for d in st.dwarves],
            "end": st.result or "round cap", "stats": {"success_rate": success},
            "roles": [d.cls for d in st.dwarves],            # each seat's class (balance reports)
            "success": success, "result": st.result, "killed": dict(st.killed),
            "spawned": dict(engine.spawned), "activated": dict(engine.activated)}


def play_mission(engine: Engine) -> None:
    """Rounds of every dwarf's turn until success, failure or the round cap."""
    st = engine.state
    while not st.result and st.round < MAX_ROUNDS:
        st.round += 1
        for d in st.dwarves:
            take_turn(engine, d)
            if st.result:
                break
