"""Dungeontology scenario files: what a setup, a step or an expectation may say. A key the runner
does not read, or a count no scholar can hold, is an error: ignored, it would play or check a
different game than the tester wrote."""
from __future__ import annotations

from tomecraft.runtime.engines.dungeontology.state import edge
from tomecraft.runtime.scenario import ScenarioError, key_problem

SETUP_KEYS = {"players", "alert_card", "alert_filled", "clan", "panic", "boss", "boss_side", "boss_at",
              "notebook", "max_alert", "bag", "bonfire", "reserve_students", "reserve_omega",
              "randomizer", "deck", "discard", "doom_deck", "stacks", "regions", "walls", "stairs",
              "scholars", "traps", "setup_game", "seed", "options"}
REGION_KEYS = {"region", "at", "slots", "entered", "tokens"}
SCHOLAR_KEYS = {"scholar", "side", "at", "students", "stun", "hand", "notebook", "lore", "interns",
                "dooms_hidden", "dooms", "steps"}


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
    (L357), more blocks than a notebook column holds."""
    for s in e.state.scholars:
        if min(s.students, s.stun, s.steps) < 0:
            raise ScenarioError(f"scholar {s.seat}: students, stun and steps cannot be negative")
        if s.stun > e.stamina(s):
            raise ScenarioError(f"scholar {s.seat} stun {s.stun}: at most the {s.side} side's stamina "
                                f"{e.stamina(s)} (L357)")
        for colour, n in s.notebook.items():
            if not 0 <= n <= e.capacity(colour):
                raise ScenarioError(f"scholar {s.seat} notebook {colour} {n}: the column holds "
                                    f"0-{e.capacity(colour)} blocks")


STEP_KEYS = {"research": {"blocks"}, "spy": {"target", "colour"}, "move": {"to", "steps"},
             "passage": {"to", "steps"}, "explore": {"side"}, "enter": {"region"}, "skill": {"id"},
             "play": {"card", "part"}, "action": {"option"}, "draw_students": {"n"}, "thesis": set(),
             "rest": {"in_place"}, "turn": set(), "end_of_turn": set(), "gain_stun": {"n"},
             "notebook_changed": set()}


def check_step_keys(step: dict) -> None:
    """A mistyped step key (`block: 2`, `chose:`) is an error, not a silently different step."""
    if "do" not in step:
        raise ScenarioError(f"a step needs do: (research, spy, move, ...): {step}")
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
