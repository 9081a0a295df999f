"""V-28: how much of a Gold or Nitra objective can ever be had, by the counts the content fixes:
the mission's placed minerals, one mineral die per stalagmite a pickaxe breaks (movement.py: a
Gold face gives Gold, any other Nitra, rulebook L562), and each pickup's `on struck` effect as
its dice can fall (the Loot Bug: 1 Gold and a mineral die, L533). A die face the die lacks gives
nothing, so `faces(r, four_squares)` of a die with no such face is 0 on every roll. Any other
effect of the game, or the mission event, that gains the mineral leaves it unbounded (a card may
come round again): no finding then."""
from __future__ import annotations

from dataclasses import dataclass

from tomecraft.dsl import nodes as n

GOLD_FACE = "four_squares"       # the mineral die's Gold face (movement.py, scripted.py)


@dataclass
class Most:
    """The most of one mineral ever had, and where it comes from (for the message)."""
    total: int
    parts: list[str]


def most_had(game, mission: dict, name: str, faces_of: dict[str, set[str]]) -> Most | None:
    """The most of `name` (gold, nitra) the mission can ever give, None when unbounded."""
    event = mission.get("mission_event")
    if isinstance(event, str):
        from tomecraft.dsl.parser import EffectSyntaxError, parse
        try:
            if most_gained(parse(event), name, faces_of) != 0:
                return None
        except EffectSyntaxError:
            return None                     # V-21 says so
    placed = mission.get("minerals", {}).get(name, 0)
    parts = [f"{placed} placed"]
    mineral_die = faces_of.get("mineral_die", set())
    shows = bool(mineral_die & {GOLD_FACE}) if name == "gold" else bool(mineral_die - {GOLD_FACE})
    stalagmites = len(mission.get("stalagmites", []))
    total = placed + (stalagmites if shows else 0)
    if stalagmites:
        parts.append(f"{stalagmites if shows else 0} from {_things(stalagmites, 'stalagmite', 'stalagmites')}"
                     + ("" if shows else f" (the mineral die has no {name} face)"))
    pickups = mission.get("pickups", {})
    for kind in sorted(game.entities.get("pickup", {})):
        entity = game.entities["pickup"][kind]
        for site in entity.effects:
            got = most_gained(site.ast, name, faces_of) if site.ast is not None else 0
            if got is None:
                return None
            if pickups.get(kind, 0) and (got or _gains(site.ast, name)):
                total += got * pickups[kind]
                called = (entity.data.get("name") or {}).get("en") or kind
                parts.append(f"{got * pickups[kind]} from {_things(pickups[kind], called, called + 's')}")
    for kind, entities in game.entities.items():
        if kind == "pickup":
            continue
        for entity in entities.values():
            if any(site.ast is not None and most_gained(site.ast, name, faces_of) != 0
                   for site in entity.effects):
                return None
    return Most(total, parts)


def _things(count: int, one: str, many: str) -> str:
    """"the stalagmite", "2 stalagmites"."""
    return f"the {one}" if count == 1 else f"{count} {many}"


def most_gained(ast, name: str, faces_of: dict[str, set[str]]) -> int | None:
    """The most of `name` one run of an effect gains, as its rolls may fall; None if no bound
    is read (a `gain` of an amount this does not follow, in a repeat or a loop)."""
    return _block(ast, name, faces_of, {})


def _block(node, name, faces_of, rolls) -> int | None:
    stmts = node.stmts if isinstance(node, n.Block) else (node,)
    total = 0
    for stmt in stmts:
        got = _stmt(stmt, name, faces_of, rolls)
        if got is None:
            return None
        total += got
    return total


def _stmt(stmt, name, faces_of, rolls) -> int | None:
    if isinstance(stmt, n.Let):
        roll = _roll(stmt.value)
        if roll is not None:
            rolls[stmt.name] = roll
        return 0
    if isinstance(stmt, n.Call):
        if stmt.verb != "gain" or not stmt.args or _name(stmt.args[0]) != name:
            return 0
        return _amount(stmt.args[1] if len(stmt.args) > 1 else n.Num(1), faces_of, rolls)
    if isinstance(stmt, n.If):
        then_can, else_can = _branches(stmt.cond, faces_of, rolls)
        best = 0
        for can, block in ((then_can, stmt.then), (else_can, stmt.otherwise)):
            if can and block is not None:
                got = _block(block, name, faces_of, dict(rolls))
                if got is None:
                    return None
                best = max(best, got)
        return best
    if isinstance(stmt, (n.On, n.May, n.Once, n.During, n.Target)):
        return _block(stmt.body, name, faces_of, dict(rolls))
    if isinstance(stmt, n.Choose):
        options = [_block(b, name, faces_of, dict(rolls)) for b in stmt.options]
        return None if None in options else max(options, default=0)
    # a repeat, a loop, a cost, a lasting effect: bounded only if it gains none of it
    return None if _gains(stmt, name) else 0


def _gains(node, name: str) -> bool:
    """Whether a `gain NAME` lies anywhere in `node`."""
    return node is not None and any(isinstance(x, n.Call) and x.verb == "gain" and x.args
                                    and _name(x.args[0]) == name for x in n.walk(node))


def _name(expr) -> str | None:
    return expr.parts[0] if isinstance(expr, n.Name) and len(expr.parts) == 1 else None


def _roll(expr) -> tuple[str, int] | None:
    """(die, dice) of `roll(DIE, N)` with a number of dice written out."""
    if isinstance(expr, n.Func) and expr.name == "roll" and len(expr.args) == 2 \
            and _name(expr.args[0]) and isinstance(expr.args[1], n.Num):
        return _name(expr.args[0]), expr.args[1].value
    return None


def _faces_read(expr, rolls) -> tuple[str, int, str] | None:
    """(die, dice, face) of `faces(ROLL, FACE)`."""
    if isinstance(expr, n.Func) and expr.name == "faces" and len(expr.args) == 2:
        roll = rolls.get(_name(expr.args[0])) or _roll(expr.args[0])
        face = _name(expr.args[1])
        if roll is not None and face is not None:
            return roll[0], roll[1], face
    return None


def _amount(expr, faces_of, rolls) -> int | None:
    if isinstance(expr, n.Num):
        return max(0, expr.value)
    read = _faces_read(expr, rolls)
    if read is not None:
        die, dice, face = read
        return dice if face in faces_of.get(die, ()) else 0
    return None


def _branches(cond, faces_of, rolls) -> tuple[bool, bool]:
    """(the `then` may run, the `else` may run): `faces(r, F) > 0` (or `>= 1`) runs neither
    way on a die that lacks F (then never) or shows F alone (else never); anything else may
    go either way."""
    if isinstance(cond, n.BinOp) and cond.op in (">", ">=") and isinstance(cond.right, n.Num) \
            and cond.right.value == (0 if cond.op == ">" else 1):
        read = _faces_read(cond.left, rolls)
        if read is not None:
            die, _, face = read
            faces = faces_of.get(die)
            if faces is not None:
                return face in faces, faces != {face}
    return True, True
