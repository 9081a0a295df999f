"""Copies of a game for simulated players that try an option out before choosing it.

`copy_game(engine)` deep-copies an engine (its state, triggers and random stream) while
sharing the content it plays: the definitions are read-only and are never copied.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping


def copy_counter(counter: Counter) -> Counter:
    """A copy of a Counter without its constructor (Counter.__init__ runs Counter.update,
    which checks its argument in Python): the trial copies make thousands a game."""
    out = Counter.__new__(Counter)
    dict.update(out, counter)
    return out


class FirstOption:
    """An agent for trials: answers every decision with its first option."""

    def choose(self, key, options, view=None):
        return options[0]


def _content_memo(data) -> dict:
    """deepcopy's memo, seeded so that the content (data, its tables, their definitions and
    every other mapping the compiled game holds) maps to itself."""
    memo = {id(data): data}
    for value in list(vars(data).values()) if hasattr(data, "__dict__") else []:
        memo[id(value)] = value
        if isinstance(value, Mapping):
            for inner in value.values():
                memo[id(inner)] = inner
                if isinstance(inner, Mapping):
                    for definition in inner.values():
                        memo[id(definition)] = definition
    for table in data.kinds.values():
        memo[id(table)] = table
        for definition in table.values():
            memo[id(definition)] = definition
    return memo


_LAST_MEMO: list = []        # [(data, memo)]: the content's memo, built once per compiled game


def _cached_memo(data) -> dict:
    """`_content_memo(data)`, remembered for the last content seen (a sim copies its game
    thousands of times; walking every definition each time cost more than the copy)."""
    if not _LAST_MEMO or _LAST_MEMO[0][0] is not data:
        _LAST_MEMO[:] = [(data, _content_memo(data))]
    return _LAST_MEMO[0][1]


_LAST_SHARED: list = []      # [((data, *shared), memo)]: the last copy's memo before deepcopy filled it


def _shared_memo(data, shared: tuple) -> dict:
    """The content's memo with the `shared` tables and their values mapped to themselves,
    remembered for the last content and tables seen (by identity: they are read-only, and
    kept here, so no other object takes their id). A game's trials share the same tables:
    mapping their values again at every copy cost more than the rest of its memo."""
    key = (data, *shared)
    if _LAST_SHARED:
        known, memo = _LAST_SHARED[0]
        if len(known) == len(key) and all(a is b for a, b in zip(known, key)):
            return memo
    memo = dict(_cached_memo(data))
    for table in shared:
        memo[id(table)] = table
        if type(table) is dict or isinstance(table, Mapping):   # a plain dict without the ABC's check
            memo.update({id(value): value for value in table.values()})
    _LAST_SHARED[:] = [(key, memo)]
    return memo


def copy_game(engine, shared=()):
    """A deep copy of `engine` sharing its content (`engine.data`), logging nothing.
    `shared`: more read-only objects the engine derived from the content (tables of rules)
    that the copy shares too, they and the values they hold."""
    trial = copy.deepcopy(engine, dict(_shared_memo(engine.data, tuple(shared))))
    trial.log_enabled = False
    return trial
