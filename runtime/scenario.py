"""Run scenario dicts with the game's engine: `run(data, scenario) -> list of failures`.

A failure is a string starting with the path of the failing entry, e.g. "expect[2]: ...",
which the CLI maps back to a file and line.
"""
from __future__ import annotations

import difflib

import importlib

from tomecraft.runtime import scenario_shapes
from tomecraft.runtime.agents import matches


def run(data, scenario: dict) -> list[str]:
    runner = importlib.import_module(f"tomecraft.runtime.engines.{data.engine}.scenario")
    scenario = one_refusal_key(scenario, getattr(runner, "REFUSAL", None))
    problem = flag_problem(scenario.get("setup") or {}, runner.FLAGS)
    if problem:
        return [problem]
    found = scenario_shapes.problem(scenario, shapes_of(runner))
    if found:
        return [scenario_shapes.failure(found)]
    return runner.run_scenario(data, scenario)


def one_refusal_key(scenario: dict, key: str | None) -> dict:
    """A step that must be refused says `illegal: true` or `fails: true` (README), in every game:
    the other spelling becomes the one the game's runner reads (its module's REFUSAL); a runner
    with none reads both. A step with both keeps them (the runner names the one it lacks)."""
    other = {"illegal": "fails", "fails": "illegal"}.get(key)
    steps = scenario.get("steps")
    if other is None or not isinstance(steps, list):
        return scenario
    steps = [{(key if k == other else k): v for k, v in step.items()}
             if isinstance(step, dict) and other in step and key not in step else step for step in steps]
    return {**scenario, "steps": steps}


def shapes_of(runner) -> dict:
    """The shapes a game's scenario values must have: its runner module's SHAPES with those
    every game shares (runtime/scenario_shapes.py)."""
    return scenario_shapes.merged(getattr(runner, "SHAPES", {}))


def flag_problem(setup: dict, flags: frozenset) -> str | None:
    """Why a setup entry the runner reads as true or false holds something else, else None:
    `lore: "no"` was read as true (any non-empty text is). `flags` are the keys the game's
    runner reads that way (its module's FLAGS), at any depth of the setup."""
    for path, value in _entries(setup, ()):
        if path[-1] in flags and not isinstance(value, bool):
            written = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
            return f"setup: setup{written}: true or false, not {value!r:.40}"
    return None


# what an id no entity has may be: one a pack defines, with the pack not loaded
PACK_ID_HINT = "an id of a pack? load the pack: `packs: [../my_pack]` in the file, or --pack"


def written_path_of(setup: dict, wanted) -> str:
    """`setup.scholars[0].hand[0]`: where the setup first holds `wanted` (a misspelt id a
    runner looked up), so that the failure is reported at that entry's line; '' if nowhere."""
    for path, value in _entries(setup, ()):
        items = [(path + (i,), item) for i, item in enumerate(value)] if isinstance(value, list) else []
        for where, found in [(path, value), *items]:
            if isinstance(found, str) and found == wanted:
                return "setup" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
    return ""


def _entries(value, path: tuple):
    """(path, value) of every mapping entry below `value`, at any depth, in file order."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield path + (key,), inner
            yield from _entries(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _entries(inner, path + (i,))


def check_expectations(expectations: list, check) -> list[str]:
    """Every failed expectation as "expect[i]: problem"; `check(exp)` returns the problem or
    None. An expectation the checker cannot read is a failure, not a crash."""
    failures = []
    for i, exp in enumerate(expectations or []):
        try:
            problem = check(exp)
        except ScenarioError as err:
            problem = str(err)
        except (KeyError, ValueError) as err:      # the runners' own words: no Python name
            problem = f"bad expectation: {err.args[0] if err.args else err}"
        except (TypeError, IndexError, AttributeError) as err:
            problem = (f"bad expectation (a value of the wrong shape? `tomecraft scenario format` "
                       f"says what each key holds): {type(err).__name__}: {err}")
        if problem:
            failures.append(f"expect[{i}]: {problem}")
    return failures


def checks_nothing(exp, alone=(), partial=()) -> str | None:
    """Why an expectation reads nothing of the game, else None: it passes whatever the game
    did. `alone` are the keys that only say what is checked (`team`, `player`, `scholar`, a
    `present:` qualifier): an expectation of those alone checks nothing; `partial` the keys
    whose value is compared only on the names it lists (`backpack: {rope: 2}`, `stats:`,
    `log_order:`), so that an empty one checks nothing. (Crawl's runner says the same of its
    own expectations, dm_crawl_decks/scenario_setup.py.)"""
    if not isinstance(exp, dict):
        return None
    if exp and all(key in alone for key in exp):
        return (f"the expectation {exp!r} checks nothing: name what to check "
                "(`tomecraft scenario format` lists the keys)")
    for key in partial:
        if key in exp and isinstance(exp[key], (dict, list)) and not exp[key]:
            return f"{key}: {exp[key]!r} is empty: it checks nothing"
    return None


def unknown_names(what: str, names, known) -> str | None:
    """Why names an expectation or a setup reads are not all names the game has, else None: a
    misspelt one counts 0 (or is never there), so `{tokens: {photoo: 0}}` passed whatever
    the state. Says the closest name, then those there are."""
    known = sorted(map(str, known))
    unknown = [n for n in names if str(n) not in known]
    if not unknown:
        return None
    close = difflib.get_close_matches(str(unknown[0]), known, n=1)
    hint = f"did you mean `{close[0]}`? " if close else ""
    return f"{what}: unknown {unknown[0]!r}; {hint}known: {', '.join(known)}"


def game_over_step(reason) -> str:
    """A step given once the game has ended: it fails by name, instead of playing half a turn
    on a finished game and letting the expectations read that."""
    return f"the game is over ({reason}): no step is played after its end"


def key_problem(where: str, spec, known) -> str | None:
    """Why a scenario mapping is not one the runner reads in full, else None: not a mapping,
    or keys it does not know (a misspelt key would silently set or check nothing). Every
    game's runner raises it as its own error."""
    if not isinstance(spec, dict):
        return f"{where} must be a mapping, not {spec!r:.40}"
    unknown = sorted(set(spec) - set(known), key=str)
    if unknown:
        return f"{where}: unknown key(s) {unknown}; known: {sorted(known, key=str)}"
    return None


def unknown_step(do, known) -> str:
    """Why a step kind the runner does not play fails: the closest kind, then them all."""
    close = difflib.get_close_matches(str(do), sorted(known), n=1)
    hint = f"did you mean `{close[0]}`? " if close else ""
    return f"unknown step {do!r}; {hint}steps: {', '.join(sorted(known))}"


def setup_failure(err: Exception, game: str) -> str:
    """A setup the runner could not build, in the scenario's terms. The runners raise
    ValueError (and ScenarioError, EffectError) with their own message, naming the entry; any
    other error is a value of a shape the game's SHAPES do not declare, which Python's own
    message ("'NoneType' object is not subscriptable") does not say: it is said so, with where
    the shapes are written."""
    return f"setup: {in_its_terms(err, game)}"


def in_its_terms(err: Exception, game: str) -> str:
    """An error's message as a scenario failure says it: a runner's own (ValueError,
    AssertionError, ScenarioError, EffectError...) as it is; Python's (KeyError, TypeError,
    IndexError, AttributeError: a value of a shape no SHAPES entry declares) named as such."""
    if not isinstance(err, (KeyError, TypeError, IndexError, AttributeError)):
        return str(err)
    return (f"a value the scenario cannot hold ({type(err).__name__}: {err}); "
            f"`tomecraft scenario format {game}` says what each key holds")


class ScenarioError(AssertionError):
    """The scenario itself is wrong (e.g. a refused option no engine could ever offer); it is
    reported as a failure, never counted as the refusal the scenario expects."""


def never_offered(option, shapes: dict, exact: bool = False) -> str | None:
    """Why `option` matches nothing the engine could offer in any state, else None.

    A scenario that expects an option to be refused (`illegal: true`, `fails: true`, or an
    `options`/`legal` expectation with `present: false`) passes vacuously when the option
    could never be offered at all: a misspelt id, a key the engine's options never carry. Each
    runner describes its options as `shapes`: {do value: {key: allowed values, or None for any
    value}}. With `exact` (runners that compare options with ==) the option must carry every
    key of its shape too, else it can never be equal to one."""
    if not isinstance(option, dict):
        return None
    do = option.get("do")
    if do not in shapes:
        return f"'do: {do}' is not an option kind the engine offers ({', '.join(map(str, shapes))})"
    shape = shapes[do]
    for key, value in option.items():
        if key == "do":
            continue
        if key not in shape:
            return f"options 'do: {do}' never carry {key!r} (they carry {sorted(shape) or 'nothing else'})"
        allowed = shape[key]
        if allowed is not None and not _allowed(value, allowed):
            return f"{key}: {value!r} is not a value the engine could offer"
    missing = sorted(set(shape) - set(option))
    if exact and missing:
        return f"options 'do: {do}' always carry {missing}: without them nothing can be equal"
    return None


def _allowed(value, allowed) -> bool:
    if callable(allowed):
        return bool(allowed(value))
    try:
        return value in allowed
    except TypeError:                       # an unhashable value (a list) in a set
        return False


def refuse_unofferable(option, shapes: dict, exact: bool = False) -> None:
    """Raise ScenarioError when a refused option matches nothing the engine could offer."""
    problem = never_offered(option, shapes, exact)
    if problem:
        raise ScenarioError(f"scenario error: {option} is refused vacuously: {problem}")


def refuse_unplayed(step: dict, why: str = "illegal: true checks that the step is not offered and "
                                          "never plays it") -> None:
    """Raise ScenarioError when a step refused as an option, never played, scripts answers: no
    decision of it is ever asked, so `choose: [{dir: Q}]` (a misspelt answer, or one for a step
    the tester thought was played) passed with the refusal, as no played step's unused answer does."""
    if step.get("choose") or step.get("choose_for"):
        raise ScenarioError(f"scenario error: {why}: its `choose` answers nothing")



def answer_never_taken(want, options: list, keys=None, values: dict | None = None) -> str | None:
    """Why a scripted answer matches nothing a decision could offer in any state, else None:
    on a step that must be refused, an answer the decision does not take counts as the refusal,
    so a misspelt one (`{dir: Q}`, `{drection: E}`, a text where the options are mappings)
    passed. `options` are the decision's options now; `keys` the keys its mapping answers may
    carry in any state (default: those the options now carry); `values` what a key's value may
    be ({key: set, or a test}). An answer of the options' form with values they could hold is
    a refusal, not an error."""
    if any(matches(want, o) for o in options):
        return None
    forms = sorted({type(o).__name__ for o in options})
    if isinstance(want, dict):
        dicts = [o for o in options if isinstance(o, dict)]
        if not dicts and keys is None:
            return f"the answers are {forms}, not a mapping"
        carried = set(keys) if keys is not None else set().union(*map(set, dicts))
        if unknown := sorted(set(want) - carried, key=str):
            return f"no answer carries {unknown} (they carry {sorted(carried, key=str)})"
        for key, value in want.items():
            allowed = (values or {}).get(key)
            if allowed is not None and not _allowed(value, allowed):
                return f"{key}: {value!r} is no value an answer takes"
        return None
    if options and not any(type(o) is type(want) for o in options):
        return f"the answers are {forms}, not {want!r}"
    return None
