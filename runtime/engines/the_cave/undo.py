"""Undoing a refused action or move, all or nothing (Engine._atomic).

An offered action's leading requires and costs held, but its effect may still be refused later
(a `require` or `pay` after `->`, a choice with no legal answer, a verb that refuses, an answer
not offered): what it changed before must be put back. Most effects change only the acting
team and its tile before they can be refused: a cheap snapshot of those (and of the stacks, a
draw replaces them) undoes them. An effect that can change anything else (place a tile, a rope,
a depth marker, trigger the end, another team) and be refused afterwards gets a snapshot of the
whole game state instead. Which effect needs which is decided once per effect function from its
generated code (`late_refusal`), conservatively: whatever the analysis does not know counts as
both a change and a refusal. The base game's effects all take the cheap path, so its sims are
unchanged in speed and in play.
"""
from __future__ import annotations

import ast
import inspect
import linecache
import textwrap

from tomecraft.runtime.lookahead import copy_counter

# verbs that change only the acting team (handlers.py, rules.py): the cheap snapshot covers them
_TEAM_VERBS = frozenset({"pay", "spend", "use_oxygen", "gain_token", "end_actions",
                         "discard_item", "re_equip", "set_camp", "swap_camp", "pack_camp",
                         "abandon_camp"})
_READ_METHODS = frozenset({"get", "count", "items", "keys", "values", "copy"})
_MUTATORS = frozenset({"append", "remove", "add", "extend", "pop", "clear", "update", "insert",
                       "discard", "setdefault"})
_PURE_CALLS = frozenset({"abs", "min", "max", "len", "int", "bool", "str", "sorted", "sum",
                         "any", "all", "range", "step", "raised"})
_YOU = ("ctx.you", "ctx_you")
C, R = "change", "refusal"


def _root(node) -> str:
    """The dotted name an attribute or subscript chain starts from (`ctx.you` for
    `ctx.you.tokens['x']`), as far as it is plain names."""
    while isinstance(node, ast.Subscript):
        node = node.value
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
        while isinstance(node, ast.Subscript):
            node = node.value
    if not isinstance(node, ast.Name):
        return "?"
    parts.append(node.id)
    return ".".join(reversed(parts))


_TEAM_ONLY = [True]     # False while a move's effects are read: a move has no cheap snapshot


def _on_team(target) -> bool:
    if not _TEAM_ONLY[0]:
        return False
    root = _root(target)
    return any(root == y or root.startswith(y + ".") for y in _YOU)


class _Events(ast.NodeVisitor):
    """The changes beyond the acting team (C) and the points where the effect can be refused
    (R), in source order; nested `can` checks read only, the generated except handler only
    passes a refusal on."""

    def __init__(self, fx, discover_refuses: bool, seen: set) -> None:
        self.fx, self.discover_refuses, self.seen = fx, discover_refuses, seen
        self.events: list[str] = []

    def visit_FunctionDef(self, node) -> None:
        if node.name.startswith("can"):
            return
        for stmt in node.body:
            self.visit(stmt)

    def visit_Try(self, node) -> None:
        for stmt in node.body + node.orelse + node.finalbody:
            self.visit(stmt)

    def visit_Return(self, node) -> None:
        if isinstance(node.value, ast.Constant) and node.value.value is False:
            self.events.append(R)
        elif node.value is not None:
            self.visit(node.value)

    def visit_If(self, node) -> None:
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) \
                and isinstance(test.operand, ast.Call) and isinstance(test.operand.func, ast.Name) \
                and not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.Return) \
                and isinstance(node.body[0].value, ast.Constant) and node.body[0].value.value is False:
            # `if not keyword(...): return False`: refused where the keyword refuses
            self.visit(test.operand)
            if _name_known(self.fx, test.operand.func.id):
                return
            self.events.append(R)
            return
        self.generic_visit(node)

    def visit_Raise(self, node) -> None:
        self.events.append(R)

    def visit_For(self, node) -> None:          # a loop repeats: its refusals follow its changes
        self.events += [C, R, C]

    visit_While = visit_AsyncFor = visit_For

    def _write(self, targets) -> None:
        for target in targets:
            if not isinstance(target, ast.Name) and not _on_team(target):
                self.events.append(C)

    def visit_Assign(self, node) -> None:
        self.visit(node.value)
        self._write(node.targets)

    def visit_AugAssign(self, node) -> None:
        self.visit(node.value)
        self._write([node.target])

    def visit_Delete(self, node) -> None:
        self._write(node.targets)

    def visit_Call(self, node) -> None:
        for arg in list(node.args) + [k.value for k in node.keywords]:
            self.visit(arg)
        func = node.func
        text = ast.unparse(func)
        if isinstance(func, ast.Name):
            self._name_call(func.id)
        elif isinstance(func, ast.Subscript) and isinstance(func.value, ast.Tuple):
            pass        # (option1, option2...)[choice]: the options' bodies are visited
        elif text.startswith("verbs."):
            self._verb(text[len("verbs."):])
        elif text.startswith(("queries.", "ctx.engine.items.", "ctx_engine.items.")):
            pass        # reads, or an item's use on the backpack handed to it: the team's
        elif text in ("ctx.choose", "ctx.decide"):
            self.events.append(R)
        elif text in ("ctx.engine.log", "ctx_engine.log"):
            pass
        elif isinstance(func, ast.Attribute) and func.attr in _READ_METHODS:
            pass
        elif isinstance(func, ast.Attribute) and _on_team(func.value):
            pass        # a team's own bag changed (depth_tokens.add): the cheap snapshot's
        elif isinstance(func, ast.Attribute) and func.attr in _MUTATORS:
            self.events.append(C)       # a list or dict changed in place: no refusal
        else:
            self.events += [C, R]

    def _name_call(self, name: str) -> None:
        if name in _PURE_CALLS or name.startswith("can"):
            return
        found = getattr(self.fx, "__globals__", {}).get(name)
        if found is None or not callable(found) or found in self.seen:
            self.events += [C, R]
            return
        inner = events_of(found, self.discover_refuses, self.seen)
        if inner is None or _late(inner):
            self.events += [C, R]
        else:
            self.events += inner

    def _verb(self, name: str) -> None:
        if name in _TEAM_VERBS:
            self.events += [R] if _TEAM_ONLY[0] else [R, C]       # may refuse, changing only the team before
        elif name == "discover":
            # rules.discover: asks (R), places the tile (C), runs its on_discover (R if one can
            # be refused or raise), then may trigger the end (C)
            self.events += [R, C] + ([R] if self.discover_refuses else []) + [C]
        elif name in ("place_token", "take_token"):
            self.events.append(C)       # the tile's tokens (not always the team's tile)
        else:
            self.events += [C, R]


def _name_known(fx, name: str) -> bool:
    """Whether `name` is a generated function `_Events` reads (a keyword's), not a builtin."""
    found = getattr(fx, "__globals__", {}).get(name)
    return callable(found) and name not in _PURE_CALLS and not name.startswith("can")


def _late(events: list[str]) -> bool:
    return C in events and R in events[events.index(C):]


def events_of(fx, discover_refuses: bool, seen: set | None = None) -> list[str] | None:
    """The C/R events of a generated effect function's code, or None if its code is not
    available (then it is taken to change anything and be refusable after)."""
    fx = inspect.unwrap(fx)
    seen = set() if seen is None else seen
    seen.add(fx)
    body = _function_tree(fx)
    if body is None:
        try:
            body = ast.parse(textwrap.dedent(inspect.getsource(fx))).body
        except (OSError, TypeError, SyntaxError):
            return None
    visitor = _Events(fx, discover_refuses, seen)
    for node in body:
        visitor.visit(node)
    return visitor.events


def _function_tree(fx) -> list | None:
    """[the def of `fx`], parsed from the lines its code spans (what parsing
    inspect.getsource(fx) gives, without getsource's tokenizing of the module up to the
    function, most of the analysis's time), or None if those lines do not parse to that
    def (then getsource is asked)."""
    code = getattr(fx, "__code__", None)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename)
    last = max((end for _, end, _, _ in _positions(code) if end is not None), default=0)
    try:
        tree = ast.parse(textwrap.dedent("".join(lines[code.co_firstlineno - 1:last])))
    except (SyntaxError, ValueError):
        return None
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) \
            or body[0].name != code.co_name:
        return None
    return body


def _positions(code):
    """Every instruction's source positions in `code` and the code nested in it."""
    yield from code.co_positions()
    for const in code.co_consts:
        if hasattr(const, "co_positions"):
            yield from _positions(const)


_TABLES: list = []      # [(content, its table of decisions)]: the last content seen


def _content_table(data) -> dict:
    if not _TABLES or _TABLES[0][0] is not data:
        _TABLES[:] = [(data, {})]
    return _TABLES[0][1]


def late_refusal(engine, fx, move: bool = False) -> bool:
    """(`move`: for a move's effects, which have no cheap snapshot, with a team's changes
    counted as any other.) Whether `fx` (an effect function, or a tuple of them run one after the other, as a
    move's way out and entry) can change more than the acting team and then be refused:
    decided once per content, for every game played with it."""
    table = _content_table(engine.data)
    key = ("late", fx, move)
    found = table.get(key)
    if found is None:
        refuses = table.get("discover refuses")
        if refuses is None:
            refuses = table["discover refuses"] = any(
                kind.on_discover is not None and R in (events_of(kind.on_discover, True) or [R])
                for kind in engine.kinds.values())
        events: list[str] = []
        _TEAM_ONLY[0] = not move
        try:
            for one in (fx if isinstance(fx, tuple) else (fx,)):
                found_events = events_of(one, refuses)
                events += [C, R] if found_events is None else found_events
        finally:
            _TEAM_ONLY[0] = True
        found = table[key] = _late(events)
    return found


# --- the snapshots ---------------------------------------------------------------------------

def team_snapshot(team, cell) -> tuple:
    return (team.ap, team.done, team.camp, team.camp_pos, team.camp_packed_before,
            copy_counter(team.backpack), copy_counter(team.camp_items), copy_counter(team.tokens),
            copy_counter(team.lost), set(team.depth_tokens), list(cell.tokens))


def team_restore(team, cell, saved) -> None:
    (team.ap, team.done, team.camp, team.camp_pos, team.camp_packed_before,
     team.backpack, team.camp_items, team.tokens, team.lost, team.depth_tokens,
     cell.tokens[:]) = saved


def _copied(value):
    if isinstance(value, dict):
        return type(value)(value) if type(value) is not dict else dict(value)
    if isinstance(value, (list, set)):
        return type(value)(value)
    return value


def game_snapshot(engine) -> tuple:
    """Everything an effect can change: the state's fields (the grid by its tiles' order, the
    stacks, ropes, markers, the end trigger, the counters, the log's length), every tile's
    fields and every team's, each container copied."""
    state = engine.state
    fields = {k: _copied(v) for k, v in state.__dict__.items() if k not in ("log", "cells")}
    cells = [(cell, {k: _copied(v) for k, v in cell.__dict__.items()})
             for cell in state.cells.values()]
    teams = [(team, {k: _copied(v) for k, v in team.__dict__.items()}) for team in state.teams]
    return fields, list(state.cells), cells, teams, len(state.log)


def game_restore(engine, snap) -> None:
    """Put the game back as `game_snapshot` saw it, in place (the same State, Team and Cell
    objects), and drop the engine's caches of the grid, which are keyed by its size."""
    fields, order, cells, teams, log_size = snap
    state = engine.state
    grid = state.cells
    for pos in list(grid)[len(order):]:
        del grid[pos]
    for obj, saved in cells + teams:
        obj.__dict__.clear()
        obj.__dict__.update({k: _copied(v) for k, v in saved.items()})
    state.teams[:] = [team for team, _ in teams]
    for key, value in fields.items():
        setattr(state, key, _copied(value))
    del state.log[log_size:]
    engine._base_dist = None
    engine._links, engine._open = (0, {}), (0, {})
    engine._near = (None, 0, {})
    engine.__dict__.pop("policy_cache", None)


def atomic(engine, team, cell, run, fx, move: bool = False) -> bool:
    """Run `run()` all or nothing (Engine._atomic): `fx` is the effect (or effects) it runs,
    which says which snapshot is needed. A move takes the whole game's snapshot when its
    effects can change anything before they are refused, none otherwise."""
    if not engine.undo_refused:
        return run()
    if late_refusal(engine, fx, move):
        snap = game_snapshot(engine)
        try:
            ok = run()
        except Exception:
            game_restore(engine, snap)
            raise
        if not ok:
            game_restore(engine, snap)
        return ok
    if move:
        return run()
    state = engine.state
    saved = team_snapshot(team, cell)
    piles = (list(state.stacks), state.discarded)
    try:
        ok = run()
    except Exception:
        ok = None
        raise
    finally:
        if not ok:      # refused: raised, or returned False
            team_restore(team, cell, saved)
            state.stacks[:], state.discarded = piles
    return ok
