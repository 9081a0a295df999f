"""Agents answer an engine's decisions: `choose(key, options, view) -> one of options`.

`key` names the decision ("action", "place", "re_equip"...), `options` are the legal answers
(plain dicts or values) and `view` is the engine's read-only view of the game; a view may
offer `suggest(key, options) -> list`, a game-specific heuristic subset that a random agent
prefers when it is not empty.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence

from tomecraft.runtime.rng import Rng


class Agent(Protocol):
    def choose(self, key: str, options: Sequence, view: Any = None) -> Any: ...


def picks_from_suggestion(agent: Agent) -> bool:
    """Whether `agent` declares it picks among the view's suggestions whenever there are any
    (RandomAgent does; a script or a person may pick anything legal)."""
    return getattr(agent, "picks_from_suggestion", False)


class ScriptError(LookupError):
    """A scripted choice matches none of the legal options, or the script ran out."""


def matches(want: Any, option: Any) -> bool:
    """An option matches a scripted choice if equal, or if the choice (a dict) is a subset of
    the option's keys, or of its attributes when the option is an object (`{seat: 1}` picks
    the player in seat 1). A yes/no never matches a number: Python's `True == 1` made a stray
    scripted `true` pick option 1 (Iron Head's "steal a card")."""
    if _same(want, option):
        return True
    if isinstance(want, dict) and isinstance(option, dict):
        return all(k in option and _same(v, option[k]) for k, v in want.items())
    if isinstance(want, dict) and want and not isinstance(option, (str, int, float, list, tuple)):
        missing = object()
        return all(_same(v, getattr(option, k, missing)) for k, v in want.items())
    return False


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def took_unasked(agent: Any, key: str, option: Any) -> Any:
    """Tell `agent` the engine takes `option`, the only answer to `key`, without asking it (a
    scripted agent uses up the answer it holds for that question, ScriptedAgent.forced);
    returns `option`."""
    forced = getattr(agent, "forced", None)
    if forced is not None:
        forced(key, option)
    return option


class RandomAgent:
    """Uniformly random among legal options, or among the view's suggestions if it has any."""

    # What an engine may rely on: where the view suggests some options, this agent picks one
    # of them, never another, so the engine need not work out options it could never pick.
    picks_from_suggestion = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, key: str, options: Sequence, view: Any = None) -> Any:
        suggest = getattr(view, "suggest", None)
        if suggest is not None:
            preferred = suggest(key, list(options))
            if preferred:
                return self.rng.choice(preferred)
        return self.rng.choice(list(options))


class ScriptedAgent:
    """Plays a list of choices in order; each must match a legal option (see `matches`).

    When the script is exhausted, `fallback` (another agent) answers, else ScriptError.
    """

    def __init__(self, choices: Sequence[Any] = (), fallback: Agent | None = None) -> None:
        self.choices = list(choices)
        self.fallback = fallback

    def push(self, *choices: Any) -> None:
        self.choices.extend(choices)

    def forced(self, key: str, option: Any) -> None:
        """The engine took `option` without asking, being the only answer to `key`: a scripted
        answer naming it was meant for this question, so it is used up here, never fed to the
        next question (where it could match something else)."""
        if self.choices and self.matches(key, self.choices[0], option):
            self.choices.pop(0)

    def matches(self, key: str, want: Any, option: Any) -> bool:
        """Whether the scripted `want` picks `option` for decision `key` (a runner may widen it)."""
        return matches(want, option)

    def choose(self, key: str, options: Sequence, view: Any = None) -> Any:
        if not self.choices:
            if self.fallback is not None:
                return self.fallback.choose(key, options, view)
            raise ScriptError(f"no scripted choice left for decision {key!r}; options: {list(options)}")
        want = self.choices.pop(0)
        if isinstance(want, dict) and set(want) == {"free"}:
            return want["free"]      # a free-form answer (e.g. a loadout); the engine validates it
        for option in options:
            if self.matches(key, want, option):
                return option
        raise ScriptError(f"scripted choice {want!r} is not legal for {key!r}; options: {list(options)}")
