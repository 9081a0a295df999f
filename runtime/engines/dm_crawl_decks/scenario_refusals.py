"""Crawl Decks scenario steps that must be refused (`illegal: true`, or `fails: true`).

A step is refused at its option (a player's option that is not legal now: nothing is played)
or at one of its `choose` answers (the engine asks the decision and the scripted answer is
none of its options, e.g. a level-up naming an attribute whose 5 tokens are out, L13): the
step is then played on a copy of the game, which is thrown away, so a refused step changes
nothing either way. Neither refusal may pass vacuously: the option must be one the engine
offers in some state (runtime.scenario.never_offered), and the refused answer must name
what that decision could take in some state (an attribute, a resource, a card of the game:
`never_answers`); an answer the step never gets to ask is no refusal.
"""
from __future__ import annotations

import copy

from tomecraft.runtime.agents import ScriptedAgent, ScriptError
from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, RESOURCES
from tomecraft.runtime.engines.dm_crawl_decks.zones import PILES
from tomecraft.runtime.lookahead import _shared_memo
from tomecraft.runtime.scenario import ScenarioError, refuse_unofferable, refuse_unplayed


class Refused(ScriptError):
    """A scripted answer the engine did not offer this time, though the decision could take
    it in some state: the refusal an `illegal: true` step may expect."""


# The values an answer's key can take in any state (others: a card of the game, by name)
DOMAINS = {"attribute": set(ATTRIBUTES), "attr": set(ATTRIBUTES), "flip": {*ATTRIBUTES, "each"},
           "cash": {*RESOURCES, None}, "first": {"rest", "reset"}}


def card_names(sc) -> set:
    """Every name a decision can give a card of this game: its label or `id#uid`."""
    s = sc.engine.state
    cards = [c for zone in PILES for c in getattr(s, zone)]
    cards += [c for col in s.columns for c in col] + [c for r in s.rows for c in r.enemy + r.player]
    return {repr(c) for c in cards} | set(sc.labels)


# The answers a decision offers in some state though not in every one: `play` offers a stack
# only while a token of the attribute is face up (L224), so `{attr: strength, size: 1}` with
# both strength tokens used was called an answer `play` could never take, and the refusal an
# `illegal: true` step expects was a scenario error; the clean-up offers one loot card only
# while one is loose, the action phase a relic only while one can be used.
ANSWER_SHAPES = {"play": ({"do"}, {"card"}, {"attr", "size"}), "cleanup": ({"cash"}, {"loot"}),
                 "action": ({"do"}, {"do", "column"}, {"do", "id"})}


def _shapes(key: str) -> tuple:
    return ({"do"}, {"do", "id"}) if key.startswith("relic_") else ANSWER_SHAPES.get(key, ())


def _sizes(sc) -> range:
    """The heights a token stack may have in some state: 1 to an attribute's supply (L13)."""
    return range(1, max((a.supply for a in sc.engine.data.kinds["attribute"].values()), default=0) + 1)


def never_answers(sc, key: str, want, options: list) -> str | None:
    """Why the scripted answer `want` matches nothing decision `key` could offer in any state
    (a misspelt attribute or card, a key its options never carry), else None."""
    if want in options:
        return None
    if isinstance(want, dict):
        shaped = [o for o in options if isinstance(o, dict)]
        if not any(set(want) <= set(o) for o in shaped) and not any(set(want) <= k for k in _shapes(key)):
            return (f"{key!r} answers carry {sorted({k for o in shaped for k in o}) or 'no keys'}, "
                    f"not {sorted(want)}")
        for k, v in want.items():
            seen = [o[k] for o in shaped if k in o]
            if v in seen or _hashable(v) and v in DOMAINS.get(k, ()):
                continue
            if k == "size":             # a stack of 0 or -1 tokens was of the options' type, so "offerable"
                if type(v) is int and v in _sizes(sc):
                    continue
                return f"size: {v!r} is no stack height ({_sizes(sc).start}-{_sizes(sc).stop - 1} tokens, L13)"
            if k in DOMAINS or isinstance(v, str) and v not in card_names(sc) \
                    or not isinstance(v, str) and not any(type(s) is type(v) for s in seen):
                return f"{k}: {v!r} is no value a {key!r} answer takes"
        return None
    if isinstance(want, str):
        return None if want in card_names(sc) else f"{want!r} names no card of the game"
    if not any(type(o) is type(want) for o in options):
        return f"{key!r} answers are {sorted({type(o).__name__ for o in options})}, not {want!r}"
    return None


def _hashable(value) -> bool:
    return isinstance(value, (str, int, float, bool, type(None), tuple))


class AnswerAgent(ScriptedAgent):
    """The scenario's scripted answers. An answer that is none of a decision's options is
    `Refused` when the decision could take it in some state, else a scenario error; so is an
    answer written for a decision the engine takes alone (a lone option, `forced`) that is
    not that option."""

    def __init__(self, sc) -> None:
        super().__init__()
        self.sc = sc

    def choose(self, key, options, view=None):
        if not self.choices:
            return super().choose(key, options, view)       # its ScriptError: none left
        want = self.choices[0] = self.sc.named(self.choices[0])
        try:
            return super().choose(key, options, view)
        except ScriptError:
            self.refuse(key, want, list(options))

    def forced(self, key, option) -> None:
        if self.choices:
            self.choices[0] = self.sc.named(self.choices[0])
        want = self.choices[0] if self.choices else None
        if isinstance(want, dict) and isinstance(option, dict) and want and set(want) <= set(option) \
                and not self.matches(key, want, option):
            self.choices.pop(0)
            self.refuse(key, want, [option])
        super().forced(key, option)

    def refuse(self, key, want, options: list):
        problem = never_answers(self.sc, key, want, options)
        if problem:
            raise ScenarioError(f"scenario error: the answer {want!r} to {key!r} could never be "
                                f"taken, so its refusal would pass vacuously: {problem}")
        raise Refused(f"scripted choice {want!r} is not legal for {key!r}; options: {options}")


def player_option(sc, step: dict) -> tuple[dict, list] | None:
    """The player's option a step plays and the options legal now (None: a rule procedure)."""
    e, do = sc.engine, step["do"]
    if do == "action":
        return step["action"], e.action_options()
    if do in ("battle", "spare"):
        return {"do": do, "column": int(step["column"])}, e.action_options()
    if do == "short_rest" or (do == "long_rest" and not step.get("free")):   # L147, L153
        return {"do": do}, e.action_options()
    if do == "use_relic":
        relic = sc.ref(step["relic"])
        if relic.zone != "equipment":
            raise AssertionError(f"{step['relic']} is not in the equipment (it is in "
                                 f"{relic.zone or 'no zone'}); only relics in the equipment are used (L43, L276)")
        return {"do": "relic", "id": repr(relic)}, e.relic_options(relic.defn.window)
    return None


def option_shapes(sc) -> dict:
    """Every kind of turn action `action_options` can offer, with the values of its keys: a
    relic is named by a scenario label or a held relic."""
    s = sc.engine.state
    columns = set(range(len(s.columns)))
    relics = {repr(c) for c in sc.labels.values()} | {repr(c) for c in s.equipment}
    return {"battle": {"column": columns}, "spare": {"column": columns}, "short_rest": {},
            "long_rest": {}, "relic": {"id": relics}}


def refusal(sc, step: dict) -> str | None:
    """What an `illegal: true` step expects refused: "option" (checked here: it is not legal
    now), "answer" (one of its `choose` answers, see refused_answer), None for a step to play;
    a player's option that is not legal now, on a step to play, fails the scenario."""
    asked = player_option(sc, step)
    if not (step.get("illegal") or step.get("fails")):
        if asked and asked[0] not in asked[1]:
            raise AssertionError(f"{asked[0]} is not legal; legal: {asked[1]}")
        return None
    if asked is not None and (asked[0] not in asked[1] or not step.get("choose")):
        refuse_unofferable(asked[0], option_shapes(sc), exact=True)
        if asked[0] in asked[1]:
            raise AssertionError(f"{asked[0]} was expected to be illegal but is legal")
        refuse_unplayed(step, f"{asked[0]} is not legal now: the step is refused as an option, never played")
        return "option"
    if not step.get("choose"):
        raise ScenarioError(f"scenario error: {step['do']} is no player's option to refuse "
                            "(action, battle, spare, short_rest, long_rest (paid), use_relic); "
                            "a refused answer is named in its `choose`")
    return "answer"


def refused_answer(sc, step: dict, play) -> None:
    """Play `step` (by `play(sc, step)`) on a copy of the game, which is then dropped: it must
    stop at a `Refused` answer. Any other end fails the scenario."""
    real, labels = sc.engine, sc.labels
    memo = dict(_shared_memo(real.data, ()))
    memo[id(sc.agent)] = sc.agent                    # the copy asks the same script
    sc.engine = copy.deepcopy(real, memo)
    sc.labels = {name: memo.get(id(card), card) for name, card in labels.items()}
    try:
        play(sc, step)
    except Refused:
        return
    except ScriptError as err:          # the script ran out: every answer it gave was taken
        raise AssertionError(f"an answer of {step.get('choose')} was expected to be refused, but "
                             f"the step took them all ({err})") from None
    finally:
        sc.engine, sc.labels = real, labels
        sc.agent.choices.clear()
    raise AssertionError(f"an answer of {step.get('choose')} was expected to be refused, but "
                         f"the step took them all")
