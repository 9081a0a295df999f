"""Scenario files for Deep Rock Galactic: set up a small map, play scripted steps with
scripted dice, check the result.

setup:  mission (a content mission's id: its map, pod, exits, mine head, stalagmites, objective,
        hidden monsters and Mission Specific Event, unless given here),
        map (missions/README.md format; default: an open 9x9 cave), hazard (1-5), pod [[r,c] x4] (default [[8,0],[8,1],[7,0],[7,1]]: monsters
        never enter it while a dwarf stands on it, not in_pod: L374, L978; an in_pod dwarf is `at` one of its spaces),
        exits {1: [r,c], ...} (exits 1, 2, 3; keys as strings; only Exit 3 on an `h`), mine_head, pod_returned,
        dwarves [{cls, at, health, ammo, secondary_ammo (within the board's spaces; unconscious = health 0), secondary, overclocked, statuses,
        actions (left in this Action Phase; default 3, 1 when Stunned), acted_at, in_pod, carried, throwables, rock_and_stone (count or card ids), upgrades
        {slot: id}, spare_upgrades}], upgrade_tokens {"r,c": id},
        monsters [{id, kind (a monster id), at, damage (below its health), statuses (a monster's: no webbed, knocked_over or unconscious; no stunned on a stun-resistant kind), tail (its rear space: a two-space Oppressor's, which needs one; no other monster has one),
        facing (the space it faces); both next to at}] (one a space, never on rock, a stalagmite, a dwarf,
        the sentry, BOSCO or the supply pod; every piece on the map; no dwarf, stalagmite or supply pod on a pit, nor the last two on an exit),
        (every piece, token and ground item on cave, never rock or an `h`; platforms on pits only, the sentry, Mine Head, pickups, ground items and upgrade tokens never on one) stalagmites, minerals {"r,c": name} (in a wall: `*` or `#`), pickups {"r,c": [kind, face_up]}, shared {..},
        tokens {kind: [[r,c], ...]}, sentry (with the Engineer), bosco (with a lone dwarf), shield (with the Gunner), supply_pod, supply_stock (with a supply_pod), threat (0 to the track's last square),
        event_deck [ids, top last], swarm_deck [ids], throwable_deck [ids, top last],
        upgrade_supply [upgrade ids, top last] (default: the content's, unshuffled),
        throwable_discard [ids], hidden_segments [{at: [r,c] of an `h` group, pickups [kinds],
        tile: pool tile id | {tile, upgrades}}], segment_pool [{tile, upgrades}], pod_left,
        hazard_setup: N (Hazard N's own setup: threat start, extra Grunts at the exits),
        event_discard, swarm_discard, supply_deck [ids, top last], rock_and_stone_deck,
        rock_and_stone_discard, ground {"r,c": {mineral|health_cube: n}}, ziplines [[a, b]],
        killed {kind: n}, round; per dwarf also tokens {kind: n}, used {"weapon:mode": n},
        last_action {do, weapon, mode}; per monster hidden_from (seat)
steps:  an action of a dwarf, {do: ACTION, dwarf (seat), choose: [the acting dwarf's decisions],
        choose_for: {seat: [...]}, ...its own fields}:
          move {path [[r,c], ...], then_fire {weapon, mode, target} | then_throw {card, at} (the
            Scout's free shot or throw), webbed, upgrade_to {upgrade: primary|secondary|spare}}
          attack {weapon, mode, target, plan (the dice as rolled, paired with spaces), from_behind}
          pickaxe {at [[r,c], ...] (one space per pickaxe result)} | overclock
          | call_supply {at} | collect_supply {take {health, ammo, secondary_ammo}}
          | revive {who} | assist {who} | stand | sentry {at}
          | throw {card, at} | shield {at} | platforms {at, take_back [[r,c]]}
          | exchange {who, give, take} | flare {at} | zipline {over, land}
          | rock_and_stone {card} | ability {id} | install {upgrade, slot} | end
        or a game step: {do: activate_all, drawer (acted last, L972), move_and_attack}
        | {do: spawn, kind, exit|near, n, drawer} | {do: advance_threat, n, drawer (whose Event it is: a Swarm's choices and ties)} | {do: event, dwarf} | {do: turn, dwarf}
        | {do: start_turn, dwarf} (the turn's start: its 3 actions, 1 when Stunned; Webbed for this turn only)
        | {do: kill, monster} | {do: check_end} | {do: bosco} (BOSCO's 2 actions)
        | {do: deep_dive_gold, choose: [{dwarf, take}]} | {do: deep_dive_trade, choose: [..]};
        each may have `rolls`, one list of faces per roll in order, one face per die rolled
        ([[teeth], [1, blank]]; a face the die has: 1, 2, blank, scare, teeth, bang, gold, nitra,
        or side1..side6: that side of the die as its content lists it) and `illegal: true` (or `fails: true`: must be refused)
expect: {bosco: [r,c] | null} | {sentry: [r,c] | null (not on the board)} | {shield: [r,c] | null}
        | {ground: [r,c], minerals: {..}}
        | {dwarf, health|ammo|secondary_ammo|statuses|pos|actions|rock_and_stone|throwables|
        overclocked|upgrades|spare_upgrades|in_pod|carried} | {monster, damage|dead|pos|statuses|hidden|tail|facing}
        | {monsters: kind, count, at} | {shared: {..}} | {result} | {threat} | {supply_pod, stock}
        | {terrain: [r,c], is} | {stalagmite: [r,c], present} | {tokens: kind, at: [[r,c]...]} | {log[, count]}
        | {throwable_deck: [ids]} | {throwable_discard: [ids]} | {upgrade_tokens: n}
        | {rock_and_stone_deck|rock_and_stone_discard|event_discard|swarm_discard: [ids, top last]}
        | {hidden_segment: [r,c], revealed}

An action step and an event step end, as play does, with the mission's end check (the pod
returns once the objective is complete, boarding may end the mission); check_end runs it alone.
Without objective (or mission) the objective is never complete: the pod only returns if
pod_returned says so.
A list of spaces holding one space may be written [r, c]; an attack's mode is its index or
its id (burst, aimed_shot...), 0 unless named.
choose entries: a space [r, c], a value, a mapping matched against the options' keys (its `target`
may name a monster: {weapon, mode, target: g}), or {monster: id} (which of tied monsters acts
first, L974). The decisions a choose answers, by key: action, target, the effects' own (a weapon
mode's `may`...), spawn (the drawer's space among the nearest, L878), activation_order,
monster_end (the drawer's, of spaces equally long ways end on; the rulebook is silent, so
unscripted the engine takes the space nearest the target, then the first by row and column), pod_landing (the space off the
returning pod a dwarf standing on it goes to, his player's, L1289), flame (each Flaming Ground
flame's space, the firer's, L798-800: asked per flame), gold_conversion, upgrade_trade. An activate_all right after spawn
steps belongs to their Event (one sentry window, L664); every other step is a new one.
Never a pass, even on an `illegal:` step: a misspelt setup key, an unknown step, dwarf,
monster, weapon, mode or card, a space off the map, a `plan` with a space for other than each
die rolled, `choose_for` a seat no dwarf has, a scripted choice the engine could never
offer (a well-formed one it does not offer now is a refusal), a choice or roll left unused
by a step that was carried out.
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.lookahead import copy_game
from tomecraft.runtime.engines.deep_rock_galactic import (
    actions, deep_dive, equipment, expectations, game, hexgrid, policy)
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine, load_mission, plain
from tomecraft.runtime.engines.deep_rock_galactic.scripted import NotOffered, ScenarioAgent
from tomecraft.runtime.engines.deep_rock_galactic.scenario_setup import (
    SHAPES, ScenarioError, after_the_end, known_keys, map_cells, named_kinds, placed_on_map, scripted_rolls,
    setup_cards, setup_dwarf, setup_objective)
from tomecraft.runtime.engines.deep_rock_galactic.scenario_checks import (check_actor, check_seats, event_drawer, hazard_setup,
                                                                           what_may_be_there)
from tomecraft.runtime.engines.deep_rock_galactic.state import Monster, State
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.scenario import check_expectations, in_its_terms, setup_failure, unknown_step

# Setup keys this runner reads as true or false, at any depth: `lore: "no"` must fail, not
# count as true (runtime/scenario.py checks them before the run).
FLAGS = frozenset(("in_pod", "overclocked", "pod_left", "pod_returned"))
OPEN_MAP = "\n".join((" " if r % 2 else "") + " ".join(["."] * 9) for r in range(9))


def _hex(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _key(k: str) -> tuple[int, int]:
    r, c = k.split(",")
    return (int(r), int(c))


def build(data, setup: dict) -> tuple[Engine, dict]:
    known_keys(setup)
    setup = _with_mission(data, setup)
    cells = map_cells(setup.get("map", OPEN_MAP))
    placed_on_map(data, setup, cells)
    what_may_be_there(data, setup, cells)
    named_kinds(data, setup)
    pod = [_hex(h) for h in setup.get("pod", [[8, 0], [8, 1], [7, 0], [7, 1]])]
    exits = {int(k): _hex(v) for k, v in setup.get("exits", {}).items()}
    st = State(cells, pod, exits, _hex(setup["mine_head"]) if setup.get("mine_head") else None)
    agents = [ScenarioAgent(cells) for _ in range(4)]
    engine = Engine(data, st, agents, Rng("scenario"), {"hazard": setup.get("hazard", 3)}, log_enabled=True)
    engine.mine_head_mission = st.mine_head is not None
    engine.state_last_spawn = False
    engine.mission = {"objective": setup_objective(data, setup.get("objective", {"type": "none"})),
                      "hidden_monsters": setup.get("hidden_monsters", [])}
    engine.mission_event = setup.get("mission_event")
    st.pod_returned = bool(setup.get("pod_returned", False))
    st.threat = setup.get("threat", 0)
    _hidden(engine, setup)
    st.throwable_deck = list(setup.get("throwable_deck", []))
    st.throwable_discard = list(setup.get("throwable_discard", []))
    st.stalagmites = {_hex(h) for h in setup.get("stalagmites", [])}
    st.minerals = {_key(k): v for k, v in setup.get("minerals", {}).items()}
    st.pickups = {_key(k): list(v) for k, v in setup.get("pickups", {}).items()}
    st.upgrade_tokens = {_key(k): v for k, v in setup.get("upgrade_tokens", {}).items()}
    st.shared = Counter(setup.get("shared", {}))
    for kind, hexes in setup.get("tokens", {}).items():
        st.tokens[kind] = {_hex(h): 0 for h in hexes}
    st.bosco = _hex(setup["bosco"]) if setup.get("bosco") else None
    st.bosco_alive = st.bosco is not None
    engine.shield = _hex(setup["shield"]) if setup.get("shield") else None
    st.supply_pod = _hex(setup["supply_pod"]) if setup.get("supply_pod") else None
    st.supply_stock = Counter(setup.get("supply_stock", {}))
    st.rs_deck = list(setup.get("rock_and_stone_deck", game.rock_and_stone_deck(data)))   # top last
    st.rs_discard = list(setup.get("rock_and_stone_discard", []))
    _more_state(engine, data, setup)
    st.upgrade_supply = list(setup.get("upgrade_supply", [u.id for u in data.of("weapon_upgrade")
                                                          for _ in range(u.count or 1)]))
    for seat, spec in enumerate(setup.get("dwarves", [])):
        st.dwarves.append(setup_dwarf(engine, data, seat, spec))
    # what a step does is stamped after every `acted_at` the setup gives: a dwarf drawing an
    # Event after one set up at 9 is the one who acted last (L1014), not the clock's 1
    st.clock = max([st.clock] + [d.acted_at for d in st.dwarves])
    for d in st.dwarves:
        equipment.hold_passive_abilities(engine, d)
    if setup.get("sentry"):
        equipment.place_sentry(engine, _hex(setup["sentry"]))
    names: dict = {}
    for spec in setup.get("monsters", []):
        m = Monster(st.next_uid, spec["kind"], _hex(spec["at"]), damage=spec.get("damage", 0),
                    statuses=set(spec.get("statuses", [])))
        if spec.get("tail"):
            m.tail = _hex(spec["tail"])
        if spec.get("facing"):
            m.facing = _hex(spec["facing"])
        if spec.get("hidden_from") is not None:   # a Menace hiding from this seat
            m.hidden_from = int(spec["hidden_from"])
        st.monsters[m.uid] = m
        st.next_uid += 1
        names[str(spec.get("id", m.uid))] = m.uid
    by_id = {c.id: c for c in data.of("event_card")}
    st.event_deck = setup_cards(by_id, setup, "event_deck")
    st.swarm_deck = setup_cards(by_id, setup, "swarm_deck")
    st.event_discard = setup_cards(by_id, setup, "event_discard")
    st.swarm_discard = setup_cards(by_id, setup, "swarm_discard")
    if "hazard_setup" in setup:       # the Hazard level's own setup (threat start, extra Grunts)
        hazard_setup(engine, data, setup)
    st.pod_left = bool(setup.get("pod_left", False))
    if "pod_left" not in setup:
        engine.note_pod_left()
    for agent in agents:
        agent.names = names         # to show a decision's monsters by their ids
    return engine, names


def _with_mission(data, setup: dict) -> dict:
    """`mission: ID`: the content's mission (a pack's too) gives what the setup leaves out: its
    map, drop pod, tunnel exits, mine head, stalagmites, objective, hidden monsters and its
    Mission Specific Event. Minerals and pickups stay the setup's (a mission scatters them at
    random)."""
    if "mission" not in setup:
        return setup
    known = sorted(data.kinds.get("mission", {}))
    if setup["mission"] not in known:
        raise ValueError(f"mission {setup['mission']!r}: no such mission (known: {', '.join(known)})")
    m = load_mission(data, {"mission_id": setup["mission"]})
    given = {"map": m["map"], "pod": m["drop_pod"], "stalagmites": m.get("stalagmites", []),
             "exits": {str(e["exit"]): e["at"] for e in m["tunnel_exits"]},
             "objective": m["objective"], "hidden_monsters": m.get("hidden_monsters", []),
             "mission_event": m.get("mission_event_fx")}
    if m.get("mine_head"):
        given["mine_head"] = m["mine_head"]
    return {**given, **setup}


def _more_state(engine: Engine, data, setup: dict) -> None:
    """The rest of the board: minerals and health cubes lying on the ground, ziplines, the
    supply deck, the kill count and the round."""
    st = engine.state
    st.ground = {_key(k): Counter(v) for k, v in setup.get("ground", {}).items()}
    engine.ziplines = {(_hex(a), _hex(b)) for a, b in setup.get("ziplines", [])}
    supply = {c.id: c for c in data.of("supply_card")}
    if "supply_deck" in setup:
        st.supply_deck = setup_cards(supply, setup, "supply_deck")
    st.killed = Counter(setup.get("killed", {}))
    st.round = int(setup.get("round", 0))


def _hidden(engine: Engine, setup: dict) -> None:
    """Hidden cave segments: each connected group of `h` in the map is one; `hidden_segments`
    gives, per segment (named by any of its hexes), its face-down pickups and its tile from
    the pool (`segment_pool`: the tiles not drawn, default the content's 8)."""
    st = engine.state
    pool = setup.get("segment_pool")
    st.segment_pool = [dict(t) for t in (pool if pool is not None else plain(engine.rules["hidden_segment_pool"]))]
    specs = {_hex(spec["at"]): spec for spec in setup.get("hidden_segments", [])}
    groups = hexgrid.components(st.cells, {"h"})
    for group in groups:
        spec = next((specs.pop(h) for h in group if h in specs), {})
        tiles = {t["tile"]: t for t in plain(engine.rules["hidden_segment_pool"])}
        tile = spec.get("tile")
        st.hidden.append({"hexes": group, "pickups": list(spec.get("pickups", [])), "revealed": False,
                          "tile": (tiles[tile] if isinstance(tile, str) else tile) if tile else None})
    if specs:
        raise ValueError(f"hidden_segments at {[list(h) for h in specs]}: no hidden segment (h) there")


HEX_FIELDS = ("at", "path", "over", "land", "plan", "take_back")   # `take_back: [[99, 99]]` passed as refused
# the fields every action step may have, and each action's own (what its handler reads); an
# action a pack adds to HANDLERS is not checked
STEP_KEYS = {"do", "dwarf", "rolls", "illegal", "choose", "choose_for"}
REFUSAL = "illegal"         # the refused step's key; `fails: true` is read as it (runtime/scenario.py)
ACTION_KEYS = {"move": {"path", "then_fire", "then_throw", "webbed", "upgrade_to"},
               "attack": {"weapon", "mode", "target", "plan", "from_behind"},
               "pickaxe": {"at"}, "overclock": set(), "call_supply": {"at"}, "collect_supply": {"take"},
               "revive": {"who"}, "assist": {"who"}, "stand": set(), "sentry": {"at"},
               "throw": {"card", "at"}, "shield": {"at"}, "platforms": {"at", "take_back"},
               "exchange": {"who", "give", "take"}, "flare": {"at"}, "zipline": {"over", "land"},
               "rock_and_stone": {"card"}, "ability": {"id"}, "install": {"upgrade", "slot"}, "end": set()}


def _validate(engine: Engine, names: dict, step: dict) -> None:
    """What an action step names must exist, so that a refusal (`illegal: true`) comes from a
    rule and never from a typo: the step kind, the dwarf, monsters, seats, weapons and their
    modes, cards, and every space (on the map)."""
    st, data = engine.state, engine.data
    kind = step.get("do")
    if kind not in actions.HANDLERS and kind not in STEPS:
        raise ScenarioError(unknown_step(kind, set(actions.HANDLERS) | set(STEPS)))
    check_seats(st, step)
    extra = sorted(set(step) - STEP_KEYS - {"drawer"} - GAME_STEP_KEYS.get(kind, set(step)))
    if extra:                                           # `drawr: 1` was read as no drawer
        raise ScenarioError(f"{kind}: unknown field(s) {extra}; known: {sorted(GAME_STEP_KEYS[kind] | STEP_KEYS)}")
    if kind == "kill" and names.get(str(step.get("monster"))) not in st.monsters:
        raise ScenarioError(f"kill {step.get('monster')!r}: no such monster on the map")
    if kind == "spawn":
        if len({"exit", "near"} & set(step)) != 1:     # both: one of them was silently unread
            raise ScenarioError("spawn: say where, at a tunnel `exit` (its number) or `near` a monster (its id), "
                                "one of them")
        known = sorted({m.id for m in data.of("monster")} | set(engine.creatures))
        if step.get("kind") not in known:
            raise ScenarioError(f"spawn kind {step.get('kind')!r}: no such monster; known: {known}")
        if "exit" in step and step["exit"] not in st.exits and step["exit"] != 3:   # none: ignored (L872)
            raise ScenarioError(f"exit {step['exit']!r}: no such tunnel exit; exits: {sorted(st.exits)}")
        if "near" in step and names.get(str(step["near"])) not in st.monsters:
            raise ScenarioError(f"near {step['near']!r}: no such monster on the map (killed, or never "
                                f"named); on the map: {sorted(n for n, uid in names.items() if uid in st.monsters)}")
    if kind not in actions.HANDLERS:
        return
    unknown = sorted(set(step) - STEP_KEYS - ACTION_KEYS.get(kind, set()))
    if unknown and kind in ACTION_KEYS:                 # a misspelt or unsupported field would silently do nothing
        raise ScenarioError(f"{kind}: unknown field(s) {unknown}; known: "
                            f"{sorted(ACTION_KEYS.get(kind, set()) | STEP_KEYS - {'do'})}")
    shots = [step] + ([step["then_fire"]] if isinstance(step.get("then_fire"), dict) else [])
    check_actor(engine, step, shots)        # the weapons and abilities it names exist
    for shot in shots:
        if isinstance(shot.get("target"), list):      # the rulebook's target space (L392)
            there = [n for n, uid in sorted(names.items()) if uid in st.monsters
                     and tuple(shot["target"]) in st.monsters[uid].spaces()]
            raise ScenarioError(f"target {shot['target']}: name the monster (its id), not a space"
                                + (f"; the monster there is {there[0]!r}" if there else "; no monster is there"))
        if "target" in shot and str(shot["target"]) not in names and shot["target"] not in st.monsters:
            raise ScenarioError(f"target {shot['target']!r}: no such monster; monsters: {sorted(names)}")
        if "weapon" in shot:
            modes = data.get("weapon", shot["weapon"]).modes
            if not (isinstance(shot.get("mode", 0), int) and 0 <= shot.get("mode", 0) < len(modes)):
                raise ScenarioError(f"mode {shot.get('mode')!r}: {shot['weapon']} has modes 0-{len(modes) - 1}")
    if "who" in step and not (isinstance(step["who"], int) and 0 <= step["who"] < len(st.dwarves)):
        raise ScenarioError(f"who {step['who']!r}: no such dwarf")
    throw = step.get("then_throw")            # a Move's free throwable (Light-Footed)
    if throw is not None and not (isinstance(throw, dict) and {"card", "at"} <= set(throw)):
        raise ScenarioError("then_throw: {card, at} expected")
    # a card of the kind its action plays: a Rock and Stone card thrown passed as refused
    for card, of in [(step.get("card"), "rock_and_stone_card" if kind == "rock_and_stone" else "throwable"),
                     (throw["card"] if throw else None, "throwable")]:
        if card is not None and card not in {c.id for c in data.of(of)}:
            raise ScenarioError(f"card {card!r}: no such {of.replace('_', ' ')} ({kind} plays one)")
    if any(step.get(k) == {} for k in ("take", "give")):     # `take: {}` names nothing handed over
        raise ScenarioError(f"{kind}: an empty take or give hands over nothing")
    for key in HEX_FIELDS:
        if key not in step:
            continue
        value = step[key]
        hexes = value if value and isinstance(value[0], list) else [value]
        for h in hexes:
            if _hex(h) not in st.cells:
                raise ScenarioError(f"{key}: {h} is not a space of the map")
    if throw and _hex(throw["at"]) not in st.cells:
        raise ScenarioError(f"then_throw at: {throw['at']} is not a space of the map")


# the game steps and the fields each reads besides STEP_KEYS (drawer: who drew the card)
GAME_STEP_KEYS = {"activate_all": {"drawer", "move_and_attack"}, "spawn": {"kind", "exit", "near", "n", "drawer"},
                  "advance_threat": {"n", "drawer"}, "event": set(), "turn": set(), "kill": {"monster", "type"},
                  "check_end": set(), "bosco": set(), "deep_dive_gold": set(), "deep_dive_trade": set(),
                  "start_turn": set()}
STEPS = tuple(GAME_STEP_KEYS)


# the fields that list spaces: one space [r, c] may be written alone, as `at` is elsewhere
SPACE_LISTS = {"pickaxe": ("at",), "platforms": ("at", "take_back"), "zipline": ("over",), "move": ("path",)}


def _normalized(engine: Engine, step: dict) -> dict:
    """The step as the handlers read it: a lone space in a list field wrapped in a list; an
    attack's (or a then_fire's) mode by its index, 0 when none is named (a secondary weapon
    has one), or named by its id (`mode: burst`)."""
    step = dict(step)
    for key in SPACE_LISTS.get(step.get("do"), ()):
        value = step.get(key)
        if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
            step[key] = [value]
    if step.get("do") == "attack" and "weapon" in step:
        step = _mode_index(engine, step)
    if isinstance(step.get("then_fire"), dict) and "weapon" in step["then_fire"]:
        step["then_fire"] = _mode_index(engine, step["then_fire"])
    return step


def _mode_index(engine: Engine, shot: dict) -> dict:
    shot = {"mode": 0, **shot}
    if isinstance(shot["mode"], str) and shot["weapon"] in {w.id for w in engine.data.of("weapon")}:
        ids = [m.get("id") for m in engine.data.get("weapon", shot["weapon"]).modes]
        if shot["mode"] not in ids:
            raise ScenarioError(f"mode {shot['mode']!r}: {shot['weapon']} has modes {ids} (or 0-{len(ids) - 1})")
        shot["mode"] = ids.index(shot["mode"])
    return shot


def _copy(engine: Engine) -> Engine:
    """A copy for a step that must be refused: its dice and scripted answers its own, the
    content's read-only tables shared (as a player's trial shares them, trials.py)."""
    return copy_game(engine, shared=(engine.rules, engine.mission, engine.options, engine.token_defs, engine.entry_stops,
                                     engine.moved_when_out, engine.creatures, engine.swarm_squares))


def _run_step(engine: Engine, names: dict, step: dict) -> None:
    st = engine.state
    step = _normalized(engine, step)
    _validate(engine, names, step)
    if step.get("do") not in ("activate_all",) or not engine.state_last_spawn:
        engine.open_window()        # a new Event, or a spawn and activate_all of one card
    engine.state_last_spawn = step.get("do") == "spawn"
    engine.forced_rolls = scripted_rolls(engine, step.get("rolls"))
    for seat, choices in enumerate(step.get("choose", []) and [step["choose"]]):
        engine.agents[step.get("drawer", step.get("dwarf", 0))].push(*[_choice(c, names) for c in choices])
    for seat, choices in (step.get("choose_for") or {}).items():     # other dwarves' decisions
        engine.agents[int(seat)].push(*[_choice(c, names) for c in choices])
    kind = step["do"]
    if kind in actions.HANDLERS:
        d = st.dwarves[step.get("dwarf", 0)]
        act = {k: v for k, v in step.items() if k not in ("dwarf", "rolls", "illegal", "choose", "choose_for")}
        act.update({"target": names.get(str(act["target"]), act["target"])} if "target" in act else {})
        if "then_fire" in act:
            act["then_fire"] = dict(act["then_fire"], target=names.get(str(act["then_fire"]["target"])))
        if "webbed" not in act and ("webbed" in d.statuses or d.seat in engine.worn_webs) and kind == "move":
            act["webbed"] = True
        actions.perform(engine, d, act)
        if d.actions == 0:          # his Action Phase is over: a Menace hiding from him is back (L1275)
            game.action_phase_over(engine, d)
        game.check_end(engine)      # as play does after every action and Event Phase (turns.py)
    elif kind == "activate_all":
        engine.acting = st.dwarves[step.get("drawer", 0)] if st.dwarves else None
        if engine.acting is not None:
            engine.acting.acted_at = max(d.acted_at for d in st.dwarves) + 1   # the drawer acted last
        engine.activate_all(move_and_attack=step.get("move_and_attack", False))
    elif kind == "spawn":
        origin = st.exits.get(step["exit"]) if "exit" in step else st.monsters[names[str(step["near"])]].pos
        drawer = st.dwarves[step.get("drawer", 0)] if st.dwarves else None
        # an exit on a face-down hidden segment, or none, places none, as in play (L872: active_exits)
        hidden = "exit" in step and origin not in engine.active_exits()
        for m in [] if hidden else engine.spawn(step["kind"], origin, step.get("n", 1), drawer):
            names[f"{step['kind']}{len([k for k in names if k.startswith(step['kind'])]) + 1}"] = m.uid
    elif kind == "advance_threat":
        if "drawer" in step:            # a Swarm it brings: his choices and ties (L878, L972, L974)
            engine.acting = st.dwarves[step["drawer"]]
            engine.acting.acted_at = max(d.acted_at for d in st.dwarves) + 1
        engine.advance_threat(step.get("n", 1))
    elif kind == "event":
        game.event_phase(engine, event_drawer(st, step.get("dwarf", 0)))
        game.check_end(engine)      # as play does after every action and Event Phase (turns.py)
    elif kind == "turn":
        engine.worn_webs.discard(step.get("dwarf", 0))     # a new turn: last turn's web is worn
        game.take_turn(engine, st.dwarves[step.get("dwarf", 0)])
    elif kind == "kill":
        m = st.monsters[names[str(step["monster"])]]
        engine.damage_monster(m, step.get("type", "bullet"), 99, st.dwarves[step.get("dwarf", 0)],
                              ignore_resistance=True)
    elif kind == "check_end":
        game.check_end(engine)
    elif kind == "bosco":
        policy.bosco_phase(engine, st.dwarves[step.get("dwarf", 0)])
    elif kind == "deep_dive_gold":
        deep_dive.convert_gold(engine)
    elif kind == "deep_dive_trade":
        deep_dive.trade_upgrades(engine)
    elif kind == "start_turn":
        d = st.dwarves[step.get("dwarf", 0)]
        game.start_turn(engine, d)
        # and the Action Phase's actions, as play gives them (turns.action_and_event_phases):
        # 3, or 1 when Stunned, which then wears off (L310); Webbed lasts this turn only
        # (L312, L1067): its moves are refused and it still shows, and the next start_turn
        # frees him unless a web caught him again since
        d.actions = 1 if "stunned" in d.statuses else 3
        d.statuses.discard("stunned")
        engine.worn_webs.discard(d.seat)
        if "webbed" in d.statuses:
            d.statuses.discard("webbed")
            engine.worn_webs.add(d.seat)
    else:
        raise ScenarioError(f"unknown step {kind!r}")
    if engine.forced_rolls:
        raise ScenarioError(f"{len(engine.forced_rolls)} scripted rolls were not used")


def _choice(c, names: dict):
    """A scripted decision: a space [r, c], a value, {monster: name} (which monster acts
    first among tied ones, L974), or a mapping whose `target` may name a monster."""
    if isinstance(c, dict) and set(c) == {"monster"}:
        if str(c["monster"]) not in names:
            raise ScenarioError(f"choose: no monster named {c['monster']!r}")
        return names[str(c["monster"])]
    if isinstance(c, dict) and isinstance(c.get("target"), str):   # {weapon, mode, target: name}
        if c["target"] not in names:
            raise ScenarioError(f"choose: no monster named {c['target']!r}")
        return {**c, "target": names[c["target"]]}
    return tuple(c) if isinstance(c, list) else c


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        engine, names = build(data, scenario.get("setup", {}))
    except (KeyError, ValueError, TypeError) as err:
        return [setup_failure(err, "deep_rock_galactic")]
    for i, step in enumerate(scenario.get("steps") or []):
        # a step that must be refused is played on a copy, dropped (README): a refusal half-way
        # (an answer refused after the returning pod was placed) leaves nothing behind
        work, known = (_copy(engine), dict(names)) if step.get("illegal") else (engine, names)
        try:
            after_the_end(work, step)
            _run_step(work, known, step)
        except ScenarioError as err:
            return [f"steps[{i}]: scenario error: {err}"]
        except (KeyError, IndexError, TypeError, ValueError) as err:    # a field missing or mistyped
            return [f"steps[{i}]: scenario error: {in_its_terms(err, 'deep_rock_galactic')}"]
        except (EffectError, NotOffered) as err:
            if step.get("illegal"):
                continue
            return [f"steps[{i}]: refused: {err}"]
        if left := sum(len(agent.choices) for agent in work.agents):
            return [f"steps[{i}]: scenario error: {left} scripted choices were not used"]
        if step.get("illegal"):
            return [f"steps[{i}]: expected to be refused, but it was carried out"]
    return check_expectations(scenario.get("expect"), lambda exp: expectations.check(engine, names, exp))
