"""Dungeontology scenario files: what a setup, a step or an expectation may say. A key the runner
does not read, or a count no scholar can hold, is an error: ignored, it would play or check a
different game than the tester wrote."""
from __future__ import annotations

from tomecraft.runtime.engines.dungeontology.state import COLOURS, edge
from tomecraft.runtime.scenario import ScenarioError, checks_nothing, game_over_step, key_problem, unknown_names

SETUP_KEYS = {"players", "alert_card", "alert_filled", "clan", "panic", "boss", "boss_side", "boss_at",
              "notebook", "max_alert", "bag", "bonfire", "reserve_students", "reserve_omega",
              "randomizer", "deck", "discard", "doom_deck", "stacks", "regions", "walls", "stairs",
              "scholars", "traps", "setup_game", "seed", "options"}
# `setup_game: true` deals a real game from these alone (setup.py reads the options' ids).
GAME_SETUP_KEYS = {"setup_game", "players", "seed", "options"}
SETUP_OPTIONS = {"alert", "boss", "boss_side"}
REGION_KEYS = {"region", "at", "slots", "entered", "tokens"}
SCHOLAR_KEYS = {"scholar", "side", "at", "students", "stun", "hand", "notebook", "lore", "interns",
                "dooms_hidden", "dooms", "steps"}


# What each setup value must be. A value of another type ended in an internal error
# (`students: x` TypeError, `regions: [-1]` AttributeError, `at: [é, 0]` ValueError).
INT, STR, LIST, MAP = "an integer", "an id (a string)", "a list", "a mapping"
IDS, PAIRS = "a list of ids", "a list of pairs of region ids"
SETUP_TYPES = {"players": INT, "alert_filled": INT, "bonfire": INT, "reserve_students": INT,
               "reserve_omega": INT, "seed": INT, "alert_card": STR, "clan": STR, "panic": STR,
               "boss": STR, "boss_side": STR, "boss_at": STR, "notebook": STR, "bag": MAP,
               "stacks": MAP, "options": MAP, "regions": LIST, "scholars": LIST, "deck": IDS,
               "discard": IDS, "doom_deck": IDS, "randomizer": IDS, "traps": IDS,
               "walls": PAIRS, "stairs": PAIRS}
REGION_TYPES = {"region": STR, "slots": LIST, "tokens": IDS}
SCHOLAR_TYPES = {"scholar": STR, "side": STR, "students": INT, "stun": INT, "steps": INT,
                 "hand": IDS, "notebook": MAP, "interns": IDS, "dooms_hidden": IDS, "dooms": IDS}


def _is(value, kind: str) -> bool:
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == IDS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == PAIRS:
        return isinstance(value, list) and all(_is(v, IDS) and len(v) == 2 for v in value)
    return isinstance(value, {STR: str, LIST: list, MAP: dict}[kind])


def _check_types(spec: dict, types: dict, where: str) -> None:
    for key, kind in types.items():
        if key in spec and not _is(spec[key], kind):     # `key:` with no value is None
            raise ScenarioError(f"{where} {key}: {spec[key]!r:.40} must be {kind}")


def check_setup_types(setup: dict) -> None:
    """Each setup value of the type the runner reads, before it is read: regions and scholars
    lists of mappings, counts integers, ids strings, a region's `at` a place [x, y]."""
    _check_types(setup, SETUP_TYPES, "setup")
    for key, inner in (("bag", INT), ("stacks", IDS), ("options", STR)):
        if not all(_is(v, inner) for v in (setup.get(key) or {}).values()):
            raise ScenarioError(f"setup {key}: {setup[key]!r:.40} must map each key to {inner}")
    for i, spec in enumerate(setup.get("regions") or []):
        check_keys(spec, REGION_KEYS, f"regions[{i}]")
        _check_types(spec, REGION_TYPES, f"regions[{i}]")
        at = spec.get("at", (0, 0))
        if not (isinstance(at, (list, tuple)) and len(at) == 2 and all(_is(n, INT) for n in at)):
            raise ScenarioError(f"regions[{i}] at: {at!r:.40} must be a place [x, y]")
    for seat, spec in enumerate(setup.get("scholars") or []):
        check_keys(spec, SCHOLAR_KEYS, f"scholar {seat}")
        _check_types(spec, SCHOLAR_TYPES, f"scholar {seat}")
        if spec.get("at") is not None and not isinstance(spec["at"], str):   # null: off the board
            raise ScenarioError(f"setup.scholars[{seat}].at: {spec['at']!r:.40} must be a region id")
        if not all(_is(n, INT) for n in (spec.get("notebook") or {}).values()):
            raise ScenarioError(f"setup.scholars[{seat}].notebook: {spec['notebook']!r:.40} must count blocks "
                                f"by colour ({{colour: n}})")


def check_keys(spec: dict, known: set, where: str) -> None:
    """A mistyped key is a setup error, not a silently different game."""
    if problem := key_problem(where, spec, known):
        raise ScenarioError(problem)


def markers(setup: dict, key: str, tile_of: dict) -> set:
    """`walls` / `stairs`: the edges between pairs of adjacent placed regions."""
    out = set()
    for pair in setup.get(key) or []:
        if len(pair) != 2 or any(r not in tile_of for r in pair):
            raise ScenarioError(f"{key}: {pair} must name two placed regions; placed: {sorted(tile_of)}")
        (ax, ay), (bx, by) = tile_of[pair[0]], tile_of[pair[1]]
        if abs(ax - bx) + abs(ay - by) != 1:
            raise ScenarioError(f"{key}: {pair[0]} and {pair[1]} are not adjacent")
        out.add(edge(tile_of[pair[0]], tile_of[pair[1]]))
    return out


def check_scholar_counts(e) -> None:
    """Counts a scholar cannot hold: negative ones, more stun tokens than the side's stamina
    (L373), more blocks than a notebook column holds."""
    for s in e.state.scholars:
        if min(s.students, s.stun, s.steps) < 0:
            raise ScenarioError(f"setup.scholars[{s.seat}]: students, stun and steps cannot be negative")
        if s.stun > e.stamina(s):
            raise ScenarioError(f"setup.scholars[{s.seat}].stun: {s.stun}: at most the {s.side} side's stamina "
                                f"{e.stamina(s)} (L373)")
        for colour, n in s.notebook.items():
            if not 0 <= n <= e.capacity(colour):
                raise ScenarioError(f"setup.scholars[{s.seat}].notebook.{colour}: {n}: the column holds "
                                    f"0-{e.capacity(colour)} blocks")


STEP_KEYS = {"research": {"blocks"}, "spy": {"target", "colour"}, "move": {"to", "steps"},
             "passage": {"to", "steps"}, "explore": {"side"}, "enter": {"region"}, "skill": {"id"},
             "play": {"card", "part"}, "aux": {"card"}, "action": {"option"}, "draw_students": {"n"}, "thesis": set(),
             "rest": {"in_place"}, "turn": set(), "end_of_turn": set(), "gain_stun": {"n"},
             "notebook_changed": set()}


# A step's values of another type ended in internal errors (`seat: 1.5`, `choose: .nan`).
STEP_TYPES = {"seat": INT, "choose": LIST, "choose_for": MAP, "target": INT, "n": INT,
              "steps": INT, "blocks": INT}


def check_step_keys(step: dict) -> None:
    """A mistyped step key (`block: 2`, `chose:`) is an error, not a silently different step."""
    if not isinstance(step.get("do"), str):
        raise ScenarioError(f"a step needs do: (research, spy, move, ...): {step!r:.60}")
    _check_types(step, STEP_TYPES, f"step {step['do']}")
    for other, choices in (step.get("choose_for") or {}).items():
        seat_written = _is(other, INT) or (isinstance(other, str) and other.isdigit())   # "1": 1
        if not (seat_written and isinstance(choices, list)):
            raise ScenarioError(f"step {step['do']} choose_for: {other!r:.20}: {choices!r:.40} must "
                                f"be a seat and its list of answers")
    if step["do"] in STEP_KEYS:
        check_keys(step, STEP_KEYS[step["do"]] | {"do", "seat", "choose", "choose_for", "fails"},
                    f"step {step['do']}")


EXPECT_KEYS = {"region": {"slots", "tokens", "at", "absent"}, "attempt": set(), "campus": set(),
               "stats": set(), "boss": set(), "stairs": {"present"}, "wall": {"present"},
               "final_scores": set(), "winners": set(), "interns": set(), "log_order": set(),
               "log": set(), "options": {"seat", "option", "present", "none_of"}}
ATTEMPT_KEYS = {"stealth", "alert", "ok", "kind", "by", "cards"}


def check_expect_keys(exp: dict, option_kinds) -> None:
    """A mistyped expectation key (`slot:`, `stelth:`, `none_of: reserch`) is an error, not a
    check that silently passes."""
    kind = next((k for k in EXPECT_KEYS if k in exp), None)
    if kind is None or "scholar" in exp:
        return                               # scholar keys are checked with their values
    check_keys(exp, EXPECT_KEYS[kind] | {kind}, f"expectation {kind}")
    if kind == "attempt":
        check_keys(exp["attempt"], ATTEMPT_KEYS, "expectation attempt")
    if kind == "options" and "none_of" in exp and exp["none_of"] not in option_kinds:
        raise ScenarioError(f"none_of {exp['none_of']!r}: not an option kind "
                            f"({', '.join(sorted(option_kinds))})")


def check_regions(specs: list, start_id: str) -> None:
    """Each listed region once, each at its own place; a region other than the start one needs
    `at` (left out, it would silently take the start region's place at [0, 0])."""
    seen_ids, seen_at = set(), {}
    if start_id not in {spec.get("region") for spec in specs}:
        seen_at[(0, 0)] = start_id
    for i, spec in enumerate(specs):      # each failure names its entry: setup.regions[i] (its line)
        rid = spec.get("region")
        if rid in seen_ids:
            raise ScenarioError(f"setup.regions[{i}]: region {rid!r} is listed twice (each region tile exists once)")
        seen_ids.add(rid)
        if "at" not in spec and rid != start_id:
            raise ScenarioError(f"setup.regions[{i}]: region {rid!r} needs at: [x, y] (the start region stands at [0, 0])")
        pos = position(spec.get("at", (0, 0)))
        if pos in seen_at:
            raise ScenarioError(f"setup.regions[{i}].at: regions {seen_at[pos]!r} and {rid!r} are both at {list(pos)}")
        seen_at[pos] = rid


def check_colours(colours: list, where: str, allow_empty: bool = False) -> None:
    for colour in colours:
        if colour is None and allow_empty:
            continue
        if colour not in COLOURS:
            raise ScenarioError(f"{where}: unknown info block colour {colour!r} ({', '.join(COLOURS)})")


def position(v) -> tuple[int, int]:
    """A scenario's [x, y] as a board position."""
    return (int(v[0]), int(v[1]))


def scholar_want(key: str, want):
    """A scholar expectation in the form it is compared in; a value of the wrong kind is a
    scenario error that says what the key holds (it was a TypeError, or a silent mismatch)."""
    if key == "notebook":
        if not isinstance(want, dict):
            raise ScenarioError(f"notebook: a mapping {{colour: blocks}}, got {want!r}")
        check_colours(list(want), "notebook")
        return dict(want)                    # the colours listed (0: none of it); {}: no block
    if key == "hand":
        if not isinstance(want, list):
            raise ScenarioError(f"hand: the list of card ids (hand_size counts them), got {want!r}")
        return sorted(want)
    if key in ("dooms", "dooms_hidden") and isinstance(want, list):
        return sorted(want)                  # the ids, as in the setup; a number counts them
    return want


BAG = ("normal", "omega")

# The engine's counters (`state.stats`) a scenario may read in `stats:`. A family ends with
# what it counts: a region entered, a skill used, a card part or timing played, a boss text,
# what raised the Maximum Alert. A misspelt one counts 0, so `{stats: {boss_activte: 0}}`
# passed whatever the game did. tests/dungeontology/test_scenario_stats.py keeps this in step
# with the counters seeded games raise.
STATS = frozenset({"research", "research_ok", "spy", "spy_ok", "theses", "theses_ok", "placed",
                   "stairs", "traps_sprung", "keyword_triggers", "boss_encounters", "boss_discover",
                   "boss_activate", "students_drawn", "omegas", "free_cards_in_action_phase",
                   "region_actions", "rests", "max_alert_by_omega", "max_alert_by_thesis",
                   "played_main", "played_auxiliary", "played_normal", "played_instant",
                   "played_response"})


def stat_names(data) -> set[str]:
    """Every counter name the engine can raise for this content."""
    skills = {s.id for scholar in data.kinds["scholar"].values() for side in scholar.sides
              for s in side.skills}
    return (STATS | {f"entered:{rid}" for rid in data.kinds["region"]}
            | {f"skill_{sid}" for sid in skills})


def expectation_problem(e, exp: dict) -> str | None:
    """Why an expectation would pass whatever the game did, else None: it checks nothing
    (`{scholar: 0}` alone; an empty `attempt: {}`, `campus: {}`, `stats: {}`, `log_order: []`:
    the names listed are compared), or a name it reads is none the game has (a campus bag
    `normall: 0` or a block colour counted 0, a region id expected absent, a counter in
    `stats:` the engine never raises). A campus `bag: {}`
    says the bag holds none (the runner compares it whole)."""
    if vacuous := checks_nothing(exp, alone={"scholar"}, partial=("attempt", "campus", "stats", "log_order")):
        return vacuous
    campus = exp.get("campus") if isinstance(exp.get("campus"), dict) else {}
    for key, known in (("bag", BAG), ("reserve_blocks", COLOURS)):
        if isinstance(campus.get(key), dict) and (problem := unknown_names(f"campus {key}", campus[key], known)):
            return problem
    if isinstance(exp.get("stats"), dict) and (problem := unknown_names("stats", exp["stats"], stat_names(e.data))):
        return problem
    at = {t.id: t.pos for t in e.state.tiles.values()}
    for key in ("stairs", "wall"):        # a marker between regions not side by side is never there
        pair = exp.get(key) if isinstance(exp.get(key), list) else []
        if len(pair) == 2 and all(r in at for r in pair) and \
                abs(at[pair[0]][0] - at[pair[1]][0]) + abs(at[pair[0]][1] - at[pair[1]][1]) != 1:
            return f"{key}: {pair[0]} and {pair[1]} are not adjacent: no marker could be between them"
    if isinstance(exp.get("region"), str) and exp["region"] not in e.data.kinds["region"]:
        return unknown_names("region", [exp["region"]], e.data.kinds["region"])
    if "region" in exp and "scholar" not in exp and exp.get("absent") and set(exp) - {"region", "absent"}:
        return (f"region {exp['region']}: absent: true, and {sorted(set(exp) - {'region', 'absent'})} of it "
                "(read of no region: they checked nothing)")
    if "options" in exp and "none_of" in exp and {"option", "present"} & set(exp):
        return (f"none_of checks that no option of a kind is offered; {sorted({'option', 'present'} & set(exp))} "
                "beside it was read by nothing")
    if "attempt" in exp and getattr(e, "last_attempt", None) is None:   # each key read None of none
        return "attempt: no stealth attempt (research, spy) was made: the expectation reads nothing"
    return None


def after_the_end(e) -> None:
    """A step given once the game ended (L1164, L1270-1275: every scholar done, the bag or the
    regions' blocks run out) fails by name: it was played on the finished game."""
    if e.state.ended is not None:
        raise ScenarioError(game_over_step(f"ended: {e.state.ended}, L1270-1275"))


def check_box(data, st, setup: dict) -> None:
    """More of a component set up than the box has (L171-176, L838-842): 41 students or 6
    omegas among the bag, the bonfire, the scholars, the alert card and a listed reserve;
    more info blocks of a colour in notebooks and region slots than exist; a doom card, a
    randomizer card or a region tile set up twice. Each was set up and played (a 50-student
    bag drew on; a doom card held by two scholars cost both)."""
    lead = next((k for k in ("bag", "bonfire", "reserve_students") if k in setup), "scholars")
    normal = st.bag["normal"] + st.bonfire + sum(s.students for s in st.scholars)
    normal += setup.get("reserve_students", 0)
    if normal > 40:
        raise ScenarioError(f"{lead}: {normal} students set up (bag, bonfire, scholars' hands"
                            f"{', reserve' if 'reserve_students' in setup else ''}); the box has 40 (L171)")
    omega = st.bag["omega"] + st.alert_filled + setup.get("reserve_omega", 0)
    if omega > 5:
        lead = next((k for k in ("bag", "alert_filled", "reserve_omega") if k in setup), "bag")
        raise ScenarioError(f"{lead}: {omega} omega students set up (bag, alert card"
                            f"{', reserve' if 'reserve_omega' in setup else ''}); the box has 5 (L171)")
    for block in data.kinds["info_block"].values():
        held = sum(t.slots.count(block.colour) for t in st.tiles.values())
        for seat, s in enumerate(st.scholars):
            held += s.notebook[block.colour]
            if held > block.count:
                raise ScenarioError(f"setup.scholars[{seat}].notebook: {held} {block.colour} blocks in "
                                    f"notebooks and region slots; the box has {block.count} (L838-842)")
        if held > block.count:
            raise ScenarioError(f"regions: {held} {block.colour} blocks in region slots; the box has "
                                f"{block.count} (L838-842)")
    seen: dict = {}
    held = [(f"setup.scholars[{i}].{key}", d) for i, spec in enumerate(setup.get("scholars") or [])
            for key in ("dooms", "dooms_hidden") for d in spec.get(key) or []]
    for where, card in held + [("doom_deck", d) for d in setup.get("doom_deck") or []]:
        if card in seen:
            raise ScenarioError(f"{where}: the doom card {card} is also in {seen[card]} (each of the "
                                f"15 doom cards exists once, L176)")
        seen[card] = where.replace("setup.", "")
    _once(setup.get("randomizer") or [], "randomizer", "randomizer card", "16 randomizer cards, L175")
    _once([r for ids in (setup.get("stacks") or {}).values() for r in ids], "stacks", "region tile",
          "19 region tiles, L173")


def _once(ids: list, where: str, what: str, why: str) -> None:
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ScenarioError(f"{where}: the {what} {twice[0]} is listed twice (each of the {why})")
