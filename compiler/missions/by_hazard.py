"""What an effect's expressions come to at each Hazard level. `hazard_level()` is the one query
whose values are known before play: the players choose a level 1 to 5 (rulebook L167), and the
mission file's `hazard` only recommends one. An expression of numbers, `hazard_level()` and
operators can so be worked out for every level; anything else read from the game cannot.

Three checks stand on it (event_checks.py, checker.py, game_checks):
- a condition that holds at no level, or at every level, leaves a branch that never runs
  (`if hazard_level() > 5: spawn grunt 1`: a Mission Specific Event that never did anything
  checked clean), and a `repeat` whose count is below 1 at every level never runs its body;
- an amount that is below 0 at some level (`gain nitra (hazard_level() - 5)`: the sim left the
  Shared Supply at -6 Nitra before the engine learnt to gain nothing below 1);
- `advance_threat hazard_level()` surely advances the Swarm Threat Track (1 or more at every
  level), where only a literal was taken to;
- a division by what comes to 0 at some level (`spawn_at_exits grunt (3 // (hazard_level() - 3))`
  checked clean, then stopped the sim at Hazard 3 with "division by zero").

A name a `let` binds stands for its value (expand_lets): `let n = 0 - 5; repeat n {...}` and
`let n = 600; spawn_at_exits grunt (n + n)` were read as unknowns, and checked clean.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass, replace

from tomecraft.dsl import nodes as n

LEVELS = range(1, 6)        # rulebook L167: 游戏有1至5难度可选择


def at_level(e, level: int):
    """The value of `e` at Hazard `level` (an int or a bool), or None if it reads anything but
    numbers and `hazard_level()`."""
    return n.value_of(e, {"hazard_level": level})


def by_level(e, levels=LEVELS) -> list | None:
    """[value at each of `levels`], or None where `e` reads more than the level."""
    if e is None:
        return None
    values = [at_level(e, level) for level in levels]
    return None if any(v is None for v in values) else values


def is_count(values) -> bool:
    return values is not None and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _truth(e, levels) -> dict | None:
    """{level: whether condition `e` holds} over `levels`, or None if it reads more."""
    values = by_level(e, levels)
    if values is None or not all(isinstance(v, bool) for v in values):
        return None
    return dict(zip(levels, values))


def at_least(e, least: int) -> bool:
    """Whether the count `e` is `least` or more at every Hazard level (a literal too)."""
    values = by_level(e)
    return is_count(values) and min(values) >= least


LEVEL_HINT = "`hazard_level()` is 1 to 5: compare it with a level the players can choose, or leave the condition out"
REPEAT_HINT = "count the repeat 1 or more at some level, or leave the repeat out"
AMOUNT_HINT = ("keep the amount 0 or more at every level it is played at, e.g. "
               "`if hazard_level() >= 4 { spawn_at_exits grunt (hazard_level() - 3) }`")


def expand_lets(ast):
    """`ast` with each use of a name a `let` binds replaced by the let's value (itself
    expanded), placed at the use. A name assigned again (`n += 1`) is no longer known after
    the assignment; a block's lets end with it."""
    return _expanded(ast, {})


def _expanded(node, env: dict):
    if isinstance(node, n.Name):
        if len(node.parts) == 1 and node.head in env:
            value = env[node.head]
            return replace(value, pos=node.pos) if hasattr(value, "pos") else value
        return node
    if isinstance(node, n.Block):
        env, stmts = dict(env), []
        for stmt in node.stmts:
            if isinstance(stmt, n.Let):
                stmt = replace(stmt, value=_expanded(stmt.value, env))
                env[stmt.name] = stmt.value
            elif isinstance(stmt, n.Assign):
                stmt = replace(stmt, value=_expanded(stmt.value, env))
                env.pop(stmt.target.head, None)
            else:
                stmt = _expanded(stmt, env)
            stmts.append(stmt)
        return replace(node, stmts=tuple(stmts))
    if not env or not is_dataclass(node) or isinstance(node, n.Pos):
        return node
    changed = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            new = tuple(_expanded(item, env) for item in value)
            if any(a is not b for a, b in zip(new, value)):
                changed[f.name] = new
        elif is_dataclass(value) and not isinstance(value, n.Pos):
            new = _expanded(value, env)
            if new is not value:
                changed[f.name] = new
    return replace(node, **changed) if changed else node


DIVISION_HINT = ("divide by an amount that is not 0 at any Hazard level (1-5), e.g. "
                 "`(hazard_level() + 1)`, or leave the division out")


def _zero_divisions(stmt, levels):
    """(divisor, message, hint) for each `//` in the expressions of `stmt` itself (not of the
    blocks it holds) whose divisor comes to 0 at one of `levels`: the effect stops the game
    there. A literal 0 is the general check's (TC-E002)."""
    for f in fields(stmt):
        value = getattr(stmt, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if not is_dataclass(item) or isinstance(item, (n.Pos, n.Block)):
                continue
            for node in n.walk(item):
                if isinstance(node, n.BinOp) and node.op == "//" and n.constant(node.right) is None:
                    values = by_level(node.right, levels)
                    if is_count(values) and 0 in values:
                        level = levels[values.index(0)]
                        yield node.right, (f"at Hazard {level} this divides by 0: the effect "
                                           "stops the game there"), DIVISION_HINT


def findings(ast, keywords=(), levels=tuple(LEVELS)):
    """What `_findings` says of `ast`, with the names its lets bind read as their values."""
    if ast is None:
        return
    yield from _findings(expand_lets(ast), keywords, tuple(levels))


def _findings(ast, keywords=(), levels=tuple(LEVELS)):
    """(node, message, hint) for each part of an effect that runs at no Hazard level it can be
    reached at (the branch of an `if` whose condition is false at each such level, or the
    `else` of one true at each; what follows a `require` that never holds; the body of a
    `repeat` counted below 1), and each verb argument that reads the Hazard level and comes
    out below 0 at a level it is played at (constants are the general check's, TC-N009; `-x`
    is negative_amounts'). `levels`: those the effect may run at; a condition on the level
    narrows them for what it guards."""
    if isinstance(ast, n.Block):
        for stmt in ast.stmts:
            yield from _zero_divisions(stmt, levels)
            if isinstance(stmt, n.Require):
                truth = _truth(stmt.cond, levels)
                if truth is not None:
                    if not any(truth.values()):
                        yield stmt.cond, ("this `require` holds at no Hazard level (1-5) it can be "
                                          "played at: the effect never goes past it"), LEVEL_HINT
                        return
                    levels = tuple(lv for lv in levels if truth[lv])
                continue
            yield from _findings(stmt, keywords, levels)
        return
    if isinstance(ast, n.If):
        truth = _truth(ast.cond, levels)
        if truth is None:
            yield from _findings(ast.then, keywords, levels)
            yield from _findings(ast.otherwise, keywords, levels)
            return
        held = tuple(lv for lv in levels if truth[lv])
        missed = tuple(lv for lv in levels if not truth[lv])
        if not held:
            yield ast.cond, ("this condition holds at no Hazard level (1-5) it can be played at: "
                             "what it guards never runs"), LEVEL_HINT
        elif not missed and ast.otherwise is not None:
            yield ast.cond, ("this condition holds at every Hazard level (1-5) it can be played "
                             "at: its `else` never runs"), LEVEL_HINT
        if held:
            yield from _findings(ast.then, keywords, held)
        if missed and ast.otherwise is not None:
            yield from _findings(ast.otherwise, keywords, missed)
        return
    if isinstance(ast, n.Repeat):
        values = by_level(ast.count, levels)
        if is_count(values) and max(values) < 1:
            yield ast.count, ("this `repeat` runs 0 times at every Hazard level (1-5): its body "
                              "never runs"), REPEAT_HINT
            return
    if isinstance(ast, n.Call) and ast.verb not in keywords:
        for arg in ast.args:
            if isinstance(arg, (n.KwArg, n.Neg)) or n.constant(arg) is not None:
                continue
            values = by_level(arg, levels)
            if is_count(values) and min(values) < 0:
                level, value = next((lv, v) for lv, v in zip(levels, values) if v < 0)
                yield arg, (f"at Hazard {level} the amount for `{ast.verb}` is {value}: it "
                            "counts what the verb does, so below 0 it does nothing"), AMOUNT_HINT
    if isinstance(ast, n.Cost):
        for part in (*ast.costs, ast.effect):
            yield from _findings(part, keywords, levels)
    elif isinstance(ast, n.Choose):
        for option in ast.options:
            yield from _findings(option, keywords, levels)
    elif getattr(ast, "body", None) is not None:      # repeat, each, target, may, once...
        yield from _findings(ast.body, keywords, levels)
