"""Per-call cost of compiled effects against hand-written Python for the same state change.

Run by bench/run.py as a subprocess in the checkout being measured (so the "before" figures
come from the old compiler's generated code):  python bench/effects_probe.py [--repeat N]
(with `--count NAME WHICH N` it only makes N calls of one function, for bench/run.py
--instructions to count under callgrind).
Prints one JSON object: {effect: [compiled, hand-written, hand-written with the engine's
handlers]} in nanoseconds per call. "Hand-written" does the state change directly, as an
engine without the effect language would; "with the engine's handlers" calls the same verb
and query handlers the compiled effect calls, so it shows the compiler's own overhead.

Each loop resets the state the effect changes, so every call does the same work; the cost of
the loop and the reset alone is measured too and subtracted from both (one call each stays
in both figures). Logging is off, as in
`tomecraft sim`.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path.cwd()))

from tomecraft.generated.the_cave import GAME, effects  # noqa: E402
from tomecraft.runtime.agents import RandomAgent  # noqa: E402
from tomecraft.runtime.effects import Context  # noqa: E402
from tomecraft.runtime.engines.the_cave.engine import Engine, new_state  # noqa: E402
from tomecraft.runtime.rng import Rng  # noqa: E402

CALLS = 20_000
EDGE = ((0, 0), (0, 1))


def setup():
    rng = Rng("bench")
    state = new_state(GAME, 3, rng.fork("game"))
    engine = Engine(GAME, state, [RandomAgent(rng.fork(f"a{i}")) for i in range(3)],
                    log_enabled=False)
    team = state.teams[0]
    cell = SimpleNamespace(depth=50, tokens=[], pos=(0, 1))
    origin = SimpleNamespace(depth=0, tokens=[], pos=(0, 0))
    ctx = Context(engine=engine, you=team, self=cell, target=origin, info={"edge": EDGE})
    return engine, team, cell, ctx


# --- hand-written equivalents: the same checks and state changes, no effect machinery -----

def hand_pay_ap_1(ctx):
    you = ctx.you
    if you.ap < 1:
        return False
    you.ap -= 1
    return True


def hand_oxygen(ctx):
    """pay ap 2, use_oxygen -> take_token water"""
    you, engine = ctx.you, ctx.engine
    bag = you.backpack
    if you.ap < 2 or bag["oxygen"] + bag["oxygen@1"] <= 0:     # a tank on its one-use side
        return False
    you.ap -= 2
    if bag["oxygen@1"]:
        bag["oxygen@1"] -= 1
    else:
        bag["oxygen"] -= 1
        bag["oxygen@1"] += 1
    tokens = ctx.self.tokens
    if "water" in tokens:
        tokens.remove("water")
        you.tokens["water"] += 1
    if engine.log_enabled:
        engine.log(f"{you.name} uses oxygen and takes the water token")
    return True


def hand_rappel(ctx):
    """require not rope_placed(); let levels = depth_levels(); pay ap (levels + 1),
    spend rope levels -> place_rope levels; gain_token traverse levels; reach_depth"""
    you, engine, info = ctx.you, ctx.engine, ctx.info
    state = engine.state
    edge = info["edge"]
    if edge in state.ropes:
        return False
    here, there = ctx.self, ctx.target
    levels = abs(here.depth - there.depth) // 25
    bag = you.backpack
    if you.ap < levels + 1 or bag["rope"] < levels:         # a rope has one use
        return False
    you.ap -= levels + 1
    bag["rope"] -= levels
    if levels > 0:
        state.ropes[edge] = you.seat
        info["own_rope"] = levels
        you.tokens["traverse"] += levels
    if info.get("own_rope") and here.depth > there.depth:
        value = min(here.depth, 75)
        if value not in you.depth_tokens:
            you.depth_tokens.add(value)
            you.tokens[f"depth_{value}"] += 1
    if engine.log_enabled:
        engine.log(f"{you.name} places {levels} rope")
    return True


# --- hand-written against the engine's API: the same handlers, called directly --------------

def api_pay_ap_1(ctx):
    verbs = ctx.engine.verbs
    if not verbs.can_pay(ctx, "ap", 1):
        return False
    verbs.pay(ctx, "ap", 1)
    return True


def api_oxygen(ctx):
    verbs = ctx.engine.verbs
    if not (verbs.can_pay(ctx, "ap", 2) and verbs.can_use_oxygen(ctx)):
        return False
    verbs.pay(ctx, "ap", 2)
    verbs.use_oxygen(ctx)
    verbs.take_token(ctx, "water")
    return True


def api_rappel(ctx):
    engine = ctx.engine
    verbs, queries = engine.verbs, engine.queries
    if queries.rope_placed(ctx):
        return False
    levels = queries.depth_levels(ctx)
    if not (verbs.can_pay(ctx, "ap", levels + 1) and verbs.can_spend(ctx, "rope", levels)):
        return False
    verbs.pay(ctx, "ap", levels + 1)
    verbs.spend(ctx, "rope", levels)
    verbs.place_rope(ctx, levels)
    verbs.gain_token(ctx, "traverse", levels)
    verbs.reach_depth(ctx)
    return True


def resets(engine, team, cell):
    ropes = engine.state.ropes

    def pay():
        team.ap = 10

    def oxygen():
        team.ap = 10
        team.backpack["oxygen"] = 2
        team.backpack["oxygen@1"] = 0
        cell.tokens[:] = ["water"]

    def rappel():
        team.ap = 10
        team.backpack["rope"] = 4
        ropes.pop(EDGE, None)
    return {"pay": pay, "oxygen": oxygen, "rappel": rappel}


def _loop(fn, reset, ctx) -> int:
    start = time.perf_counter_ns()
    _loop_n(fn, reset, ctx, CALLS)
    return time.perf_counter_ns() - start


def _loop_n(fn, reset, ctx, calls: int) -> None:
    if fn is None:
        for _ in range(calls):
            reset()
    else:
        for _ in range(calls):
            reset()
            fn(ctx)


def per_call(functions: list, reset, ctx, repeat: int) -> list[float]:
    """Best-of-`repeat` ns per call of each function, runs alternating, less the reset loop."""
    best = [float("inf")] * (len(functions) + 1)
    for _ in range(repeat):
        for i, fn in enumerate([None, *functions]):
            best[i] = min(best[i], _loop(fn, reset, ctx))
    return [(b - best[0]) / CALLS for b in best[1:]]


def cases() -> dict:
    """effect name -> (compiled, hand-written, via the handlers, its reset's key)."""
    return {
        "pay ap 1": (effects.fx_tile_kind__normal__enter__0__effect, hand_pay_ap_1,
                     api_pay_ap_1, "pay"),
        "cost+verbs (water, oxygen)": (effects.fx_tile_kind__water__enter__0__effect,
                                       hand_oxygen, api_oxygen, "oxygen"),
        "rappel entry": (effects.fx_tile_kind__rappel__enter__1__effect, hand_rappel,
                         api_rappel, "rappel"),
    }


def count_calls(name: str, which: int, calls: int) -> None:
    """`--count NAME WHICH N`: N calls of one function of a case (WHICH: 0 compiled, 1
    hand-written, 2 via the handlers, -1 none: the loop and the reset alone), after a warm-up,
    for an instruction counter (callgrind) to run twice with two N: the difference over the
    difference in N is the instructions per call, start-up and warm-up cancelled out."""
    engine, team, cell, ctx = setup()
    *functions, key = cases()[name]
    reset = resets(engine, team, cell)[key]
    fn = None if which < 0 else functions[which]
    for _ in range(2_000):                  # the specialising interpreter settles first
        reset()
        if fn is not None:
            fn(ctx)
    _loop_n(fn, reset, ctx, calls)


def main() -> int:
    if "--count" in sys.argv:
        name, which, calls = sys.argv[sys.argv.index("--count") + 1:][:3]
        count_calls(name, int(which), int(calls))
        return 0
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 7
    engine, team, cell, ctx = setup()
    reset = resets(engine, team, cell)
    out = {}
    for name, (compiled, hand, api, key) in cases().items():
        for fn in (compiled, hand, api):
            reset[key]()
            assert fn(ctx), (name, fn.__name__)
        out[name] = [round(x, 1) for x in per_call([compiled, hand, api], reset[key], ctx, repeat)]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
