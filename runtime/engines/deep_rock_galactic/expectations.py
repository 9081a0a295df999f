"""What a Deep Rock Galactic scenario expects of the state after its steps (scenario.py's
`expect:` list; the keys are documented there)."""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine
from tomecraft.runtime.engines.deep_rock_galactic.scenario_setup import STOCK, known_kinds
from tomecraft.runtime.scenario import checks_nothing, unknown_names

NO_STALAGMITE = {"#": "rock", "*": "rock", "x": "rock", "h": "a face-down hidden segment", "o": "a pit"}


def _hex(v) -> tuple[int, int]:
    if not (isinstance(v, (list, tuple)) and len(v) == 2):
        raise ValueError(f"a space is [row, column], not {v!r}")
    return (int(v[0]), int(v[1]))


def _hexes(v) -> list[tuple[int, int]]:
    """A list of spaces; one space may be written alone, [r, c], as steps take it."""
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v):
        return [_hex(v)]
    return [_hex(h) for h in v or []]


# per kind of expectation (its first key found, in this order), the keys it reads: any other
# key would be checked by nothing, so the expectation would pass whatever the state
KEYS = {"monster": {"monster", "dead", "damage", "pos", "statuses", "hidden", "facing", "tail"},
        "monsters": {"monsters", "count", "at"}, "shared": {"shared"}, "result": {"result"},
        "threat": {"threat"}, "supply_pod": {"supply_pod", "stock"}, "terrain": {"terrain", "is"},
        "stalagmite": {"stalagmite", "present"}, "sentry": {"sentry"}, "bosco": {"bosco"}, "shield": {"shield"},
        "ground": {"ground", "minerals"}, "tokens": {"tokens", "at"}, "throwable_deck": {"throwable_deck"},
        "throwable_discard": {"throwable_discard"}, "rock_and_stone_deck": {"rock_and_stone_deck"},
        "rock_and_stone_discard": {"rock_and_stone_discard"}, "event_discard": {"event_discard"},
        "swarm_discard": {"swarm_discard"}, "upgrade_tokens": {"upgrade_tokens"},
        "hidden_segment": {"hidden_segment", "revealed"}, "log": {"log", "count"}}
# a dwarf's fields an expectation reads (by getattr: a misspelt `helth` was an AttributeError)
DWARF_KEYS = {"dwarf", "health", "ammo", "secondary_ammo", "statuses", "pos", "actions", "rock_and_stone",
              "throwables", "overclocked", "upgrades", "spare_upgrades", "in_pod", "carried"}


def check(engine: Engine, names: dict, exp: dict) -> str | None:
    """None if the scenario expectation `exp` holds, else what was found instead."""
    st = engine.state
    kind = next((k for k in KEYS if k in exp), None) if "dwarf" not in exp else None
    known = DWARF_KEYS if "dwarf" in exp else KEYS.get(kind)
    if known is not None and set(exp) - known:
        return f"unknown key(s) {sorted(set(exp) - known)} for a {kind or 'dwarf'!r} expectation; " \
               f"known: {sorted(known)}"
    # a dwarf, monster or kind named and nothing of it read, an empty `shared: {}`: it passed
    if vacuous := checks_nothing(exp, alone={"dwarf", "monster", "monsters"}, partial=("shared",)):
        return vacuous
    if isinstance(exp.get("stock"), dict) and (bad := unknown_names("stock", exp["stock"], STOCK)):
        return bad          # a misspelt `helth: 0` was dropped as 0 and passed
    for key in ("stalagmite", "ground", "terrain", "hidden_segment"):     # nothing can be there
        if key in exp and _hex(exp[key]) not in st.cells:
            return f"{key} {exp[key]}: no space of the map: the expectation checks nothing there"
    if "dwarf" in exp:
        if not (isinstance(exp["dwarf"], int) and 0 <= exp["dwarf"] < len(st.dwarves)):
            return f"no dwarf {exp['dwarf']!r} (seats 0-{len(st.dwarves) - 1})"
        d = st.dwarves[exp["dwarf"]]
        for key, want in exp.items():
            if key == "dwarf":
                continue
            got = getattr(d, key)
            if key == "statuses":          # Webbed worn through this turn still shows
                got = set(got) | ({"webbed"} if d.seat in engine.worn_webs else set())
                got, want = sorted(got), sorted(want)
            if key == "pos":
                want = _hex(want)
            if key in ("rock_and_stone", "throwables") and isinstance(want, int):
                got = len(got)                 # a count, or the list of card ids
            if got != want:
                return f"dwarf {exp['dwarf']} {key}: expected {want}, got {got}"
        return None
    if "monster" in exp:
        if str(exp["monster"]) not in names:
            return f"no monster named {exp['monster']!r}; monsters: {sorted(names)}"
        uid = names[str(exp["monster"])]
        m = st.monsters.get(uid)
        if exp.get("dead") is not None:
            if (m is None) != exp["dead"]:
                return f"monster {exp['monster']}: expected dead={exp['dead']}"
        for key in ("damage", "pos", "statuses", "facing", "tail"):
            if key in exp:
                if m is None:
                    return f"monster {exp['monster']} is dead"
                got, want = getattr(m, key), exp[key]
                if key in ("pos", "facing", "tail"):     # facing: the space it faces
                    want = _hex(want) if want is not None else None
                if key == "statuses":
                    got, want = sorted(got), sorted(want)
                if got != want:
                    return f"monster {exp['monster']} {key}: expected {want}, got {got}"
        if "hidden" in exp and (m is not None and m.hidden_from is not None) != exp["hidden"]:
            return f"monster {exp['monster']} hidden: expected {exp['hidden']}"
        return None
    named = {"monsters": "monster", "tokens": "token"}.get(kind)
    names = [exp[kind]] if named else list(exp["shared"] or {}) if kind == "shared" else []
    known = known_kinds(engine.data)[named or "shared"] if names else []
    unknown = [n for n in names if n not in known]
    if unknown:           # a misspelt kind found none: `count: 0` passed whatever the state
        return f"unknown {named or 'shared supply item'} {unknown[0]!r}; known: {known}"
    if "monsters" in exp:
        found = [m for m in st.monsters.values() if m.kind == exp["monsters"]]
        if "count" in exp and len(found) != exp["count"]:
            return f"{exp['monsters']}: expected {exp['count']}, found {len(found)} at {[list(m.pos) for m in found]}"
        if "at" in exp:
            want = sorted(_hexes(exp["at"]))
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
        if not got and st.terrain(_hex(exp["stalagmite"])) in NO_STALAGMITE:   # a stalagmite stands on cave
            return f"stalagmite {exp['stalagmite']}: the space is {NO_STALAGMITE[st.terrain(_hex(exp['stalagmite']))]}, " \
                   "where no stalagmite can stand: `present: false` checks nothing there"
        return None if got == exp["present"] else f"stalagmite {exp['stalagmite']}: present={got}"
    if "sentry" in exp:          # null: not on the board (back with the Engineer)
        want = _hex(exp["sentry"]) if exp["sentry"] is not None else None
        return None if st.sentry == want else f"sentry at {st.sentry}, expected {exp['sentry']}"
    if "shield" in exp:          # null: not on the board
        want = _hex(exp["shield"]) if exp["shield"] is not None else None
        return None if engine.shield == want else f"shield at {engine.shield}, expected {exp['shield']}"
    if "bosco" in exp:           # null: not on the board (destroyed)
        want = _hex(exp["bosco"]) if exp["bosco"] is not None else None
        return None if st.bosco == want else f"BOSCO at {st.bosco}, expected {exp['bosco']}"
    if "ground" in exp:
        got = dict(+st.ground.get(_hex(exp["ground"]), Counter()))
        return None if got == exp["minerals"] else f"on the ground at {exp['ground']}: {got}"
    if "tokens" in exp:
        got = sorted(st.tokens.get(exp["tokens"], {}))
        if exp["tokens"] == "shield":      # the one shield is kept apart from the other tokens
            got = [engine.shield] if engine.shield is not None else []
        want = sorted(_hexes(exp["at"]))
        return None if got == want else f"{exp['tokens']} at {[list(h) for h in got]}, expected {[list(h) for h in want]}"
    for pile in ("throwable_deck", "throwable_discard"):
        if pile in exp:
            got = getattr(st, pile)
            return None if got == exp[pile] else f"{pile}: expected {exp[pile]}, got {got}"
    # the card piles a scenario's setup can fill can be checked too (ids, top last)
    for pile, attr in (("rock_and_stone_deck", "rs_deck"), ("rock_and_stone_discard", "rs_discard"),
                       ("event_discard", "event_discard"), ("swarm_discard", "swarm_discard")):
        if pile in exp:
            got = [getattr(c, "id", c) for c in getattr(st, attr)]
            return None if got == exp[pile] else f"{pile}: expected {exp[pile]}, got {got}"
    if "upgrade_tokens" in exp:
        got = len(st.upgrade_tokens)
        return None if got == exp["upgrade_tokens"] else f"upgrade tokens: expected {exp['upgrade_tokens']}, got {got}"
    if "hidden_segment" in exp:
        seg = next((x for x in st.hidden if _hex(exp["hidden_segment"]) in x["hexes"]), None)
        if seg is None:
            return f"no hidden segment at {exp['hidden_segment']}"
        return None if seg["revealed"] == exp["revealed"] else f"hidden segment revealed={seg['revealed']}"
    if "log" in exp:
        found = sum(exp["log"] in line for line in engine.lines)
        if "count" in exp:          # exactly this many lines (once-per rules)
            return None if found == exp["count"] else f"{found} log lines with {exp['log']!r}, expected {exp['count']}"
        return None if found else f"no log line with {exp['log']!r}"
    return f"unknown expectation {exp}"
