"""Scenario files for Deep Rock Galactic: set up a small map, play scripted steps with
scripted dice, check the result.

setup:  map (missions/README.md format; default: an open 9x9 cave), hazard, pod [[r,c] x4],
        exits {1: [r,c], ...} (keys as strings), mine_head, pod_returned,
        dwarves [{cls, at, health, ammo, secondary_ammo, secondary, overclocked, statuses,
        acted_at, in_pod, carried, throwables, rock_and_stone (count or card ids), upgrades
        {slot: id}, spare_upgrades}], upgrade_tokens {"r,c": id},
        monsters [{id, kind, at, damage, statuses, tail, facing}],
        stalagmites, minerals {"r,c": name}, pickups {"r,c": [kind, face_up]}, shared {..},
        tokens {kind: [[r,c], ...]}, sentry, bosco, shield, supply_pod, supply_stock, threat,
        event_deck [ids, top last], swarm_deck [ids]
steps:  {do: attack|move|pickaxe|overclock|call_supply|collect_supply|revive|assist|stand|
        sentry|throw|shield|platforms|exchange|flare|zipline|rock_and_stone, dwarf, ...action
        fields, choose: [the acting dwarf's decisions], choose_for: {seat: [...]}} | {do: activate_all, drawer} | {do: spawn, kind,
        exit|near, n, drawer} | {do: advance_threat, n} | {do: event, dwarf} | {do: turn, dwarf}
        | {do: kill, monster} | {do: check_end} | {do: bosco} (BOSCO's 2 actions)
        | {do: deep_dive_gold, choose: [{dwarf, take}]} | {do: deep_dive_trade, choose: [..]};
        each may have `rolls` (dice faces: 1, 2, blank, scare, teeth, bang, gold, nitra) and
        `illegal: true` (must be refused)
expect: {bosco: [r,c]} | {sentry: [r,c]} | {ground: [r,c], minerals: {..}}
        | {dwarf, health|ammo|secondary_ammo|statuses|pos|actions|rock_and_stone|throwables|
        overclocked|upgrades|spare_upgrades|in_pod} | {monster, damage|dead|pos|statuses|hidden} | {monsters: kind, count, at}
        | {shared: {..}} | {result} | {threat} | {supply_pod, stock} | {terrain: [r,c], is}
        | {stalagmite: [r,c], present} | {tokens: kind, at: [[r,c]...]} | {log}
"""
from __future__ import annotations

from collections import Counter

from runtime.agents import ScriptedAgent, ScriptError
from runtime.effects import EffectError
from runtime.engines.deep_rock_galactic import actions, deep_dive, game, policy
from runtime.engines.deep_rock_galactic.engine import Engine, parse_map, plain
from runtime.engines.deep_rock_galactic.state import Dwarf, Monster, State
from runtime.rng import Rng
from runtime.scenario import check_expectations

OPEN_MAP = "\n".join((" " if r % 2 else "") + " ".join(["."] * 9) for r in range(9))
FACES = {"1": {"face": "hit", "hits": 1}, "2": {"face": "hit", "hits": 2},
         "blank": {"face": "blank", "hits": 0}, "scare": {"face": "scare", "hits": 0},
         "teeth": {"face": "teeth"}, "bang": {"face": "bang"}, "gold": {"face": "four_squares"},
         "nitra": {"face": "long_bar"}}


def _hex(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _key(k: str) -> tuple[int, int]:
    r, c = k.split(",")
    return (int(r), int(c))


def build(data, setup: dict) -> tuple[Engine, dict]:
    cells = parse_map(setup.get("map", OPEN_MAP))
    pod = [_hex(h) for h in setup.get("pod", [[8, 0], [8, 1], [7, 0], [7, 1]])]
    exits = {int(k): _hex(v) for k, v in setup.get("exits", {}).items()}
    st = State(cells, pod, exits, _hex(setup["mine_head"]) if setup.get("mine_head") else None)
    agents = [ScriptedAgent() for _ in range(4)]
    engine = Engine(data, st, agents, Rng("scenario"), {"hazard": setup.get("hazard", 3)}, log_enabled=True)
    engine.mine_head_mission = st.mine_head is not None
    engine.mission = {"objective": setup.get("objective", {"type": "collect", "targets": {}}),
                      "hidden_monsters": setup.get("hidden_monsters", [])}
    st.pod_returned = bool(setup.get("pod_returned", False))
    st.threat = setup.get("threat", 0)
    st.stalagmites = {_hex(h) for h in setup.get("stalagmites", [])}
    st.minerals = {_key(k): v for k, v in setup.get("minerals", {}).items()}
    st.pickups = {_key(k): list(v) for k, v in setup.get("pickups", {}).items()}
    st.upgrade_tokens = {_key(k): v for k, v in setup.get("upgrade_tokens", {}).items()}
    st.shared = Counter(setup.get("shared", {}))
    for kind, hexes in setup.get("tokens", {}).items():
        st.tokens[kind] = {_hex(h): 0 for h in hexes}
    st.sentry = _hex(setup["sentry"]) if setup.get("sentry") else None
    st.bosco = _hex(setup["bosco"]) if setup.get("bosco") else None
    st.bosco_alive = st.bosco is not None
    engine.shield = _hex(setup["shield"]) if setup.get("shield") else None
    st.supply_pod = _hex(setup["supply_pod"]) if setup.get("supply_pod") else None
    st.supply_stock = Counter(setup.get("supply_stock", {}))
    st.rs_deck = game.rock_and_stone_deck(data)          # unshuffled: scenarios know the order
    for seat, spec in enumerate(setup.get("dwarves", [])):
        cls = spec["cls"]
        primary = spec.get("primary") or next(w.id for w in data.of("weapon") if w.dwarf == cls and w.default)
        d = Dwarf(seat, cls, _hex(spec["at"]), health=spec.get("health", 5), ammo=spec.get("ammo", 5),
                  secondary_ammo=spec.get("secondary_ammo", 3), secondary=spec.get("secondary", "zhukov"),
                  primary=primary, overclocked=spec.get("overclocked", False),
                  statuses=set(spec.get("statuses", [])), actions=spec.get("actions", 3),
                  in_pod=spec.get("in_pod", False), carried=Counter(spec.get("carried", {})),
                  throwables=list(spec.get("throwables", [])))
        d.upgrades, d.spare_upgrades = dict(spec.get("upgrades", {})), list(spec.get("spare_upgrades", []))
        cards = spec.get("rock_and_stone", [])
        if isinstance(cards, int):             # a count: dealt from the top of the deck
            engine.draw_rock_and_stone(d, cards)
        else:
            d.rock_and_stone = list(cards)
        d.tokens = Counter(plain(data.get("dwarf", cls).equipment) or {})
        d.acted_at = spec.get("acted_at", -1)
        if d.health == 0:
            d.statuses.add("unconscious")
        st.dwarves.append(d)
    names: dict = {}
    for spec in setup.get("monsters", []):
        m = Monster(st.next_uid, spec["kind"], _hex(spec["at"]), damage=spec.get("damage", 0),
                    statuses=set(spec.get("statuses", [])))
        if spec.get("tail"):
            m.tail = _hex(spec["tail"])
        if spec.get("facing"):
            m.facing = _hex(spec["facing"])
        st.monsters[m.uid] = m
        st.next_uid += 1
        names[str(spec.get("id", m.uid))] = m.uid
    by_id = {c.id: c for c in data.of("event_card")}
    st.event_deck = [by_id[i] for i in setup.get("event_deck", [])]
    st.swarm_deck = [by_id[i] for i in setup.get("swarm_deck", [])]
    return engine, names


def _rolls(raw) -> list[list[dict]]:
    return [[dict(FACES[str(f)]) for f in group] for group in raw or []]


def _run_step(engine: Engine, names: dict, step: dict) -> None:
    st = engine.state
    engine.forced_rolls = _rolls(step.get("rolls"))
    for seat, choices in enumerate(step.get("choose", []) and [step["choose"]]):
        engine.agents[step.get("drawer", step.get("dwarf", 0))].push(*[_choice(c) for c in choices])
    for seat, choices in (step.get("choose_for") or {}).items():     # other dwarves' decisions
        engine.agents[int(seat)].push(*[_choice(c) for c in choices])
    kind = step["do"]
    if kind in actions.HANDLERS:
        d = st.dwarves[step.get("dwarf", 0)]
        act = {k: v for k, v in step.items() if k not in ("dwarf", "rolls", "illegal", "choose", "choose_for")}
        if "target" in act:
            act["target"] = names.get(str(act["target"]), act["target"])
        if "then_fire" in act:
            act["then_fire"] = dict(act["then_fire"], target=names.get(str(act["then_fire"]["target"])))
        if "webbed" not in act and "webbed" in d.statuses and kind == "move":
            act["webbed"] = True
        actions.perform(engine, d, act)
    elif kind == "activate_all":
        engine.acting = st.dwarves[step.get("drawer", 0)]
        engine.acting.acted_at = max(d.acted_at for d in st.dwarves) + 1   # the drawer acted last
        engine.activate_all(move_and_attack=step.get("move_and_attack", False))
    elif kind == "spawn":
        origin = st.exits[step["exit"]] if "exit" in step else st.monsters[names[str(step["near"])]].pos
        drawer = st.dwarves[step.get("drawer", 0)] if st.dwarves else None
        for m in engine.spawn(step["kind"], origin, step.get("n", 1), drawer):
            names[f"{step['kind']}{len([k for k in names if k.startswith(step['kind'])]) + 1}"] = m.uid
    elif kind == "advance_threat":
        engine.advance_threat(step.get("n", 1))
    elif kind == "event":
        game.event_phase(engine, st.dwarves[step.get("dwarf", 0)])
    elif kind == "turn":
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
        game.start_turn(engine, st.dwarves[step.get("dwarf", 0)])
    else:
        raise AssertionError(f"unknown step {kind!r}")
    if engine.forced_rolls:
        raise AssertionError(f"{len(engine.forced_rolls)} scripted rolls were not used")


def _choice(c):
    return tuple(c) if isinstance(c, list) else c


def _check(engine: Engine, names: dict, exp: dict) -> str | None:
    st = engine.state
    if "dwarf" in exp:
        d = st.dwarves[exp["dwarf"]]
        for key, want in exp.items():
            if key == "dwarf":
                continue
            got = getattr(d, key)
            if key == "statuses":
                got, want = sorted(got), sorted(want)
            if key == "pos":
                want = _hex(want)
            if key in ("rock_and_stone", "throwables") and isinstance(want, int):
                got = len(got)                 # a count, or the list of card ids
            if got != want:
                return f"dwarf {exp['dwarf']} {key}: expected {want}, got {got}"
        return None
    if "monster" in exp:
        uid = names[str(exp["monster"])]
        m = st.monsters.get(uid)
        if exp.get("dead") is not None:
            if (m is None) != exp["dead"]:
                return f"monster {exp['monster']}: expected dead={exp['dead']}"
        for key in ("damage", "pos", "statuses"):
            if key in exp:
                if m is None:
                    return f"monster {exp['monster']} is dead"
                got, want = getattr(m, key), exp[key]
                if key == "pos":
                    want = _hex(want)
                if key == "statuses":
                    got, want = sorted(got), sorted(want)
                if got != want:
                    return f"monster {exp['monster']} {key}: expected {want}, got {got}"
        if "hidden" in exp and (m is not None and m.hidden_from is not None) != exp["hidden"]:
            return f"monster {exp['monster']} hidden: expected {exp['hidden']}"
        return None
    if "monsters" in exp:
        found = [m for m in st.monsters.values() if m.kind == exp["monsters"]]
        if "count" in exp and len(found) != exp["count"]:
            return f"{exp['monsters']}: expected {exp['count']}, found {len(found)} at {[list(m.pos) for m in found]}"
        if "at" in exp:
            want = sorted(_hex(h) for h in exp["at"])
            got = sorted(m.pos for m in found)
            if got != want:
                return f"{exp['monsters']} at {[list(h) for h in got]}, expected {[list(h) for h in want]}"
        return None
    if "shared" in exp:
        for k, v in exp["shared"].items():
            if st.shared[k] != v:
                return f"shared {k}: expected {v}, got {st.shared[k]}"
        return None
    if "result" in exp:
        return None if st.result == exp["result"] else f"result: expected {exp['result']}, got {st.result}"
    if "threat" in exp:
        return None if st.threat == exp["threat"] else f"threat: expected {exp['threat']}, got {st.threat}"
    if "supply_pod" in exp:
        at = _hex(exp["supply_pod"]) if exp["supply_pod"] else None
        if st.supply_pod != at:
            return f"supply pod at {st.supply_pod}, expected {at}"
        if "stock" in exp and dict(+st.supply_stock) != {k: v for k, v in exp["stock"].items() if v}:
            return f"supply stock {dict(+st.supply_stock)}, expected {exp['stock']}"
        return None
    if "terrain" in exp:
        got = st.terrain(_hex(exp["terrain"]))
        return None if got == exp["is"] else f"terrain {exp['terrain']}: expected {exp['is']!r}, got {got!r}"
    if "stalagmite" in exp:
        got = _hex(exp["stalagmite"]) in st.stalagmites
        return None if got == exp["present"] else f"stalagmite {exp['stalagmite']}: present={got}"
    if "sentry" in exp:
        return None if st.sentry == _hex(exp["sentry"]) else f"sentry at {st.sentry}, expected {exp['sentry']}"
    if "bosco" in exp:
        return None if st.bosco == _hex(exp["bosco"]) else f"BOSCO at {st.bosco}, expected {exp['bosco']}"
    if "ground" in exp:
        got = dict(+st.ground.get(_hex(exp["ground"]), Counter()))
        return None if got == exp["minerals"] else f"on the ground at {exp['ground']}: {got}"
    if "tokens" in exp:
        got = sorted(st.tokens.get(exp["tokens"], {}))
        want = sorted(_hex(h) for h in exp["at"])
        return None if got == want else f"{exp['tokens']} at {[list(h) for h in got]}, expected {[list(h) for h in want]}"
    if "log" in exp:
        return None if any(exp["log"] in line for line in engine.lines) else f"no log line with {exp['log']!r}"
    return f"unknown expectation {exp}"


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        engine, names = build(data, scenario.get("setup", {}))
    except (KeyError, ValueError, TypeError) as err:
        return [f"setup: {type(err).__name__}: {err}"]
    for i, step in enumerate(scenario.get("steps", [])):
        try:
            _run_step(engine, names, step)
        except (EffectError, ScriptError, AssertionError) as err:
            if step.get("illegal"):
                continue
            return [f"steps[{i}]: refused: {err}"]
        if step.get("illegal"):
            return [f"steps[{i}]: expected to be refused, but it was carried out"]
    return check_expectations(scenario.get("expect"), lambda exp: _check(engine, names, exp))
