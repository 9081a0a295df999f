"""Copies of The Cave's game for the simulated player to try an option out on (policy.py).

A trial copy shares with the game whatever an option cannot change (content, geometry
caches, the tiles it does not stand on or enter, the stacks' lists, which a draw replaces)
and is freed as soon as it is dropped: it holds no reference to itself.
"""
from __future__ import annotations

import inspect
from collections import Counter
from types import CodeType

from tomecraft.runtime.engines.the_cave.handlers import Queries, Verbs
from tomecraft.runtime.engines.the_cave.state import TURN_AP, Cell, State, placements
from tomecraft.runtime.engines.the_cave.walking import policy_cache

_new_object = object.__new__


def copy_team(team):
    """A copy of a team with its own backpack, tokens and reached depths (what effects change
    in place): each Counter copied as `copy_counter` does, written out. The camp's items and
    the items lost are shared: the rules replace those bags rather than change them in place
    (rules.py, Engine.start_turn), so a trial's changes never reach the game's."""
    out = _new_object(type(team))
    old = team.__dict__
    fields = out.__dict__ = old.copy()
    fields["backpack"] = bag = _new_counter(Counter)
    _fill(bag, old["backpack"])
    fields["tokens"] = bag = _new_counter(Counter)
    _fill(bag, old["tokens"])
    fields["depth_tokens"] = set(old["depth_tokens"])
    return out


_new_counter, _fill = Counter.__new__, dict.update


def trial_copy(engine, team, agent, at=None, entering=None):
    """A throwaway engine on a copy of the state, for trying an option of `team` out (moved
    to `at` first, if given), every decision in it answered by `agent`. Copy on write: only
    what an option can touch is copied: the team, its tile and the tile it enters
    (`entering`, for a move: an effect changes only its own tile, `ctx.self`, and new tiles
    go into the copy's own grid), and the other teams only if an effect selects them.
    `agent` must place a discovered tile the first way offered: a trial lists only that way
    (`_first_placement`)."""
    state = engine.state
    me = copy_team(team)
    if at is not None:
        me.pos, me.ap, me.done, me.forced = at, TURN_AP, False, False
    cells = dict(state.cells)
    own_cell(cells, me.pos)
    if entering is not None and entering != me.pos and entering in cells:
        own_cell(cells, entering)
    teams = list(state.teams)
    teams[team.seat] = me
    new = _new_object(State)
    fields = new.__dict__ = state.__dict__.copy()
    # (dict literals handed to update: no keyword dict built for the call)
    fields.update({"cells": cells, "teams": teams,
                   # a draw replaces the stack's list (rules.discover): share them
                   "stacks": list(state.stacks), "ropes": dict(state.ropes),
                   "log": [], "stats": _new_counter(Counter), "turn_log": []})
    cls = type(engine)
    trial = _new_object(_TRIAL_CLASSES.get(cls) or trial_class(cls))
    fields = trial.__dict__ = engine.__dict__.copy()
    fields.pop("verbs", None)       # the trial class makes its own (`trial_class`)
    fields.pop("queries", None)
    fields.update({"state": new, "agents": [agent] * len(teams), "log_enabled": False,
                   "undo_refused": False,       # a failed option's trial is thrown away
                   "policy_cache": {}})
    return trial, me


def own_cell(cells: dict, pos) -> None:
    """Give a trial's grid its own copy of a tile (and of its token list)."""
    cell = _new_object(Cell)
    cell.__dict__ = dict(cells[pos].__dict__)
    cell.tokens = list(cell.tokens)
    cells[pos] = cell


_TRIAL_CLASSES: dict = {}


def _first_placement(trial, cell, tile) -> list:
    """A trial's placements: only the first (its agent places a tile the first way offered,
    and `ask` hands a single option over as the agent would choose it)."""
    return placements(trial.state.cells, cell, tile, first=True)


def trial_class(cls):
    """The class of a trial copy of an engine of class `cls`: its `select` copies the teams
    it hands out to an effect first, and it makes its verb and query handlers when an effect
    asks for them. So a trial holds no reference to itself (no closure or handler pointing
    back at it) and is freed as soon as it is dropped, not left to the garbage collector."""
    if cls.__dict__.get("is_trial"):
        return cls
    found = _TRIAL_CLASSES.get(cls)
    if found is None:
        def select(trial, ctx, kind: str, zone):
            teams = trial.state.teams
            for i, t in enumerate(teams):
                if t is not ctx.you:
                    teams[i] = copy_team(t)
            return cls.select(trial, ctx, kind, zone)
        found = _TRIAL_CLASSES[cls] = type(f"Trial{cls.__name__}", (cls,), {
            "is_trial": True, "select": select, "placements": _first_placement,
            "verbs": property(Verbs), "queries": property(Queries)})
        _TRIAL_CLASSES[found] = found       # (a trial of a trial: the same class)
    return found


# --- what a trial can show -------------------------------------------------------------------

# The names an effect's code may hold and still neither give a team a token nor add a tile:
# the camp, equipment and AP verbs and queries (handlers.py, rules.py) and what they read
# and write (AP, the camp, the backpack, the ropes). Any other name (take_token, gain_token,
# tokens, discover, a keyword of the content's, a pack's new verb...) may do either.
_NEITHER_TOKEN_NOR_TILE = frozenset({
    # generated code's own (effects.step, the error note)
    "step", "raised", "SOURCES", "Exception", "abs", "min", "max", "len",
    # what it reads and writes through the context
    "engine", "state", "base", "verbs", "queries", "you", "self", "target", "info", "pos",
    "depth", "ap", "done", "camp", "camp_pos", "camp_packed_before", "backpack", "items",
    "can_use_of", "use_of", "use_once_of", "count", "log_enabled", "log", "name", "ropes",
    "seat",
    # verbs and queries
    "can_pay", "pay", "can_spend", "spend", "can_use_oxygen", "use_oxygen", "end_actions",
    "discard_item", "re_equip", "set_camp", "swap_camp", "pack_camp", "abandon_camp",
    "has", "at_base", "camp_here", "camp_packed", "camp_packed_before", "camp_available",
    "can_discover",
})


def may_gain_or_grow(engine, team, option) -> bool:
    """Whether trying `option` of `team` out could show a token gained or a tile added, as
    the code of the effects it runs says (the names they hold, `_NEITHER_TOKEN_NOR_TILE`):
    an action's or an item's own effect; for an ordinary move, the way out of the team's
    tile (if any), the entry option and the entered tile's own actions (what `gain` tries
    after it). Where only those count (policy._weigh, _best), an option that can show
    neither need not be tried. Remembered for the game per what picks the effects: the
    tile kinds (of the team's tile, and the entered one) and the option's ids."""
    cells, do = engine.state.cells, option["do"]
    if do == "move":
        key = (do, id(cells[team.pos].kind), option["via"], id(cells[tuple(option["to"])].kind))
    elif do == "act":
        key = (do, id(cells[team.pos].kind), option["id"])
    else:
        key = (do, option.get("item"))
    known = policy_cache(engine).setdefault("may_gain_or_grow", {})
    found = known.get(key)
    if found is None:
        effects = _effects(engine, team, option)
        # (None: tried as before, what it runs is the engine's business; sim --usage wraps
        # each effect)
        found = known[key] = effects is None or any(
            not _names(getattr(inspect.unwrap(effect), "__code__", None)) <= _NEITHER_TOKEN_NOR_TILE
            for effect in effects)
    return found


# A discovery gives a team no token by itself (rules.discover: a tile drawn and placed, or a
# boulder), nor do the verbs that only mark the tile placed; what the placed tile's
# on_discover runs is read too (`may_gain_token`).
_NO_TOKEN = _NEITHER_TOKEN_NOR_TILE | {"discover", "place_token", "place_depth_marker"}
# What the compiler's inlined code of those tile verbs holds (place_token appends to the
# tile's tokens, place_depth_marker sets its marker): harmless while the code names no team
# (`you`), through which alone inlined code gives a token (take_token, gain_token).
_TILE_ONLY = frozenset({"tokens", "append", "marker", "max_marker"})


def may_gain_token(engine, team, option) -> bool:
    """Whether trying the action or item use `option` out could show the team a token
    gained, as the code of its effect says (`_NO_TOKEN`, `_TILE_ONLY`); a discovery in it
    runs some tile kind's on_discover, so every tile kind's is read too. Remembered as
    `may_gain_or_grow` is. (A move: True, it is not asked here.)"""
    if option["do"] not in ("act", "use"):
        return True
    cells = engine.state.cells
    key = ("token", id(cells[team.pos].kind), option.get("id"), option.get("item"))
    known = policy_cache(engine).setdefault("may_gain_or_grow", {})
    found = known.get(key)
    if found is None:
        effects = _effects(engine, team, option)
        if effects is not None and any("discover" in _code_names(e) for e in effects):
            effects = effects + [k.on_discover for k in engine.kinds.values()
                                 if k.on_discover is not None]
        found = known[key] = effects is None or any(_may_give_token(e) for e in effects)
    return found


def _may_give_token(effect) -> bool:
    names = _code_names(effect)
    if "you" in names:
        return not names <= _NO_TOKEN
    return not names <= _NO_TOKEN | _TILE_ONLY


def _code_names(effect) -> set:
    return _names(getattr(inspect.unwrap(effect), "__code__", None))


def _effects(engine, team, option) -> list | None:
    """The effects trying `option` out runs (`may_gain_or_grow`), None if not known here."""
    do = option["do"]
    if do == "act":
        effect = engine.action_effect(engine.state.cells[team.pos].kind, option["id"])
        return None if effect is None else [effect]
    if do == "use":
        item = engine.items.by_term.get(option["item"])
        return None if item is None or item.use is None else [item.use]
    if do != "move" or option["via"] == "desperate_move":
        return None
    cells = engine.state.cells
    kind, entered = cells[team.pos].kind, cells[tuple(option["to"])].kind
    out_id, _, enter_id = option["via"].rpartition("+")
    effects = [out for found, _, out in engine.ways_out(kind) if found == out_id] if out_id else []
    effects += [enter for found, _, enter in engine.entries(entered) if found == enter_id]
    effects += [engine.action_effect(entered, act) for act in engine.tile_action_ids(entered)]
    if None in effects or len(effects) != bool(out_id) + 1 + len(engine.tile_action_ids(entered)):
        return None         # (an option the engine would refuse: tried, as before)
    return effects


def _names(code: CodeType | None) -> set:
    """The global and attribute names a function's code holds, its nested code's too (for
    no code, one name that is on no list)."""
    if code is None:
        return {None}
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names(const)
    return names
