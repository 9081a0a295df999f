"""Setting a mission up (rulebook L140-221): map, minerals, pickups, hidden segments, decks,
dwarves, the mission's tokens and drones, the Hazard level."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, mission_play
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine, load_mission, parse_map, plain
from tomecraft.runtime.engines.deep_rock_galactic.equipment import hold_passive_abilities
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, Dwarf, Monster, State
from tomecraft.runtime.rng import Rng


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
    level = hazard_of(data, hazard)
    st.stalagmites = {tuple(h) for h in mission.get("stalagmites", [])}
    # minerals: fixed ones first, the rest at random on the diamond spaces (L215)
    diamonds = sorted(h for h, c in cells.items() if c == "*")
    tokens = [name for name, n in sorted(mission["minerals"].items()) for _ in range(n)]
    for fixed in mission.get("mineral_spaces", []):
        st.minerals[tuple(fixed["at"])] = fixed["mineral"]
        tokens.remove(fixed["mineral"]) if fixed["mineral"] in tokens else None
    free = [h for h in diamonds if h not in st.minerals]
    rng.shuffle(free)
    for h, name in zip(free, tokens):
        st.minerals[h] = name
    # pickups: face down on flare-stick spaces, the rest on the hidden segments (L217-221)
    pickups = [name for name, n in sorted(mission["pickups"].items()) for _ in range(n)]
    rng.shuffle(pickups)
    per_hidden = int(engine.rules["v18_pickups_per_hidden_segment"])
    flares = sorted(h for h, c in cells.items() if c == "?")
    if len(pickups) < len(flares):       # which flare-stick spaces stay empty is random too
        rng.shuffle(flares)              # (L217); drawn only then: all filled, the order is moot
    for h in flares[:len(pickups)]:
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
    for seat, cls in enumerate(team(data, players, rng, options)):
        ddef = data.get("dwarf", cls)
        primary, secondary = loadout(data, cls, rng)
        d = Dwarf(seat, cls, pod[seat % len(pod)], health=ddef.health, ammo=ddef.primary_ammo,
                  secondary_ammo=ddef.secondary_ammo, secondary=secondary, primary=primary)
        d.tokens = Counter(plain(ddef.equipment) or {})
        engine.draw_throwable(d)
        engine.draw_rock_and_stone(d, 1)
        st.dwarves.append(d)
    for d in st.dwarves:
        hold_passive_abilities(engine, d)
    mission_play.place_drones(engine, mission)
    mission_play.place_tokens(engine, mission)
    if players == 1:
        # BOSCO goes on an empty space next to the pod (L1425): not on a stalagmite, an
        # exit, the Mine Head or the sentry gun (he stood on the first stalagmite around it)
        around = sorted({n for h in pod for n in hx.neighbours(h)} - set(pod))
        taken = set(exits.values()) | st.stalagmites | {st.mine_head, st.sentry}
        spot = next((h for h in around if cells.get(h) in OPEN and h not in taken), None)
        st.bosco, st.bosco_alive = spot, spot is not None
    hazard_setup(engine, level)
    place_target(engine, mission)
    return engine


def place_target(engine: Engine, mission: dict) -> None:
    """An eliminate mission's creature, unless it waits on a hidden segment: on the free cave
    space farthest from the drop pod among those the dwarves can reach (they walk and dig, but
    never cross `x`; a cave pocket cut off by `x` would make the mission unwinnable)."""
    creature = mission["objective"].get("creature")
    size = (engine.data.get("monster", creature).size or 1) if creature else 1
    far = mission_play.target_start(engine.state.cells, mission, size)
    if far is None:
        return
    st = engine.state
    m = Monster(st.next_uid, creature, far)
    st.monsters[m.uid] = m
    st.next_uid += 1
    engine.face_nearest_dwarf(m)


def _stream(rng, label: str) -> Rng:
    """A stream of its own for a setup choice, seeded by the game's seed: drawing from it
    leaves the game's own dice as they were."""
    return Rng(f"{getattr(rng, 'seed', 'game')}/{label}")


def team(data, players: int, rng, options: dict) -> list[str]:
    """Each seat's class: options["classes"] when given (in turn), else the content's dwarves.
    With no more classes than seats every class plays (the base game's 4 at 4 players), else
    `players` of them are drawn (so a pack's class plays in some games); seated in id order."""
    chosen = list(options.get("classes") or ())
    if chosen:
        return [chosen[seat % len(chosen)] for seat in range(players)]
    classes = [d.id for d in data.of("dwarf")]
    if len(classes) > players:
        pool = list(classes)
        _stream(rng, "team").shuffle(pool)
        classes = sorted(pool[:players])
    return [classes[seat % len(classes)] for seat in range(players)]


def loadout(data, cls: str, rng) -> tuple[str, str]:
    """(primary, secondary) for a class, from the weapons the content offers it. Primary: the
    class's default one (L247: an optional primary only replaces it by choice), else one of
    its primaries. Secondary: each player picks any secondary card (L238; one naming a `dwarf`
    is that class's only), preferring a die other than the primary's (L241's advice); drawn
    among those from the game's seed, so every secondary is carried in some games."""
    weapons = data.of("weapon")
    mine = [w for w in weapons if w.slot == "primary" and w.dwarf == cls]
    if not mine:
        raise ValueError(f"the content offers the {cls} no primary weapon")
    primary = next((w for w in mine if w.default), None) or _stream(rng, f"primary/{cls}").choice(mine)
    open_ = [w for w in weapons if w.slot == "secondary" and w.dwarf in (None, cls)]
    if not open_:
        raise ValueError(f"the content offers the {cls} no secondary weapon")
    dice = {m.get("die") for m in primary.modes}
    other = [w for w in open_ if not dice & {m.get("die") for m in w.modes}]
    return primary.id, _stream(rng, f"secondary/{cls}").choice(other or open_).id


def check_options(data, options: dict) -> None:
    """`tomecraft sim`'s options, refused before any game is played (a ValueError, shown as a
    usage error): a Hazard level the content has no entity for."""
    dive = options.get("deep_dive")
    missions = dive if isinstance(dive, list) else [options.get("mission") or {}]
    for mission in missions:
        hazard_of(data, int(options.get("hazard") or mission.get("hazard") or 2))


def hazard_of(data, level: int):
    """The hazard level entity whose `level` is `level` (a contract key: one per level, so a
    pack's replacement is found whatever its id)."""
    found = next((h for h in data.of("hazard_level") if h.level == level), None)
    if found is None:
        levels = sorted(h.level for h in data.of("hazard_level"))
        raise ValueError(f"no hazard level {level} in the content (levels: {levels})")
    return found


def hazard_setup(engine: Engine, level, threat: int | None = None) -> None:
    """The Hazard level's setup: the threat token on its start square (L167-169), and at
    Hazard 4-5 one extra Grunt on every tunnel exit (L173). An exit already held (a pack's level
    with 2 Grunts an exit, a scenario's monster on it) places the next as any spawn does, as near
    the exit as it can (L874): two Grunts were stacked on one space."""
    st = engine.state
    st.threat = level.threat_start if threat is None else threat
    for h in engine.active_exits():
        for _ in range(level.extra_grunts_per_exit or 0):
            if any(h in (o.pos, o.tail) for o in st.monsters.values()):
                engine.spawn("grunt", h)
                continue
            m = Monster(st.next_uid, "grunt", h)
            st.monsters[m.uid] = m
            st.next_uid += 1
            engine.face_nearest_dwarf(m)


def rock_and_stone_deck(data) -> list[str]:
    return [c.id for c in data.of("rock_and_stone_card") for _ in range(c.count or 1)]
