"""Deep Rock Galactic's weapon modes and throwables say their numbers twice: in fields the
engine reads to offer an attack and the sheets print (`actions`, `ammo`, `range`, `die`,
`dice`), and in the effect that is run (`pay actions 1, pay ammo 1 -> target monster where
in_range(4): let r = roll(explosive_die, 1); ...`). A pack's rifle printed range 2, 1 ammo and
1 die while its effect paid 2 ammo at range 6 with 4 dice: check passed, the engine offered the
shot with 1 ammo left, and `sim` stopped on an unlocated "cannot fire". Check refuses a field
its effect contradicts, at the field."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import report
from tomecraft.compiler.model import Game
from tomecraft.dsl import nodes


def _num(node):
    return node.value if isinstance(node, nodes.Num) else None


def _name(node):
    return node.parts[0] if isinstance(node, nodes.Name) and len(node.parts) == 1 else None


def said(ast) -> dict:
    """What an effect says of its own numbers: the leading costs paid (`pays`), the first roll
    (`die`, `dice`) and the first range (`range`), each only when written as plain numbers."""
    out: dict = {"pays": {}}
    first = ast.stmts[0] if ast is not None and ast.stmts else None
    if isinstance(first, nodes.Cost):
        for call in first.costs:
            if call.verb == "pay" and len(call.args) == 2 and _name(call.args[0]) and _num(call.args[1]) is not None:
                res = _name(call.args[0])
                out["pays"][res] = out["pays"].get(res, 0) + _num(call.args[1])
    for node in nodes.walk(ast) if ast is not None else ():
        if isinstance(node, nodes.Func) and node.name == "roll" and "die" not in out and len(node.args) == 2:
            if _name(node.args[0]) and _num(node.args[1]) is not None:
                out["die"], out["dice"] = _name(node.args[0]), _num(node.args[1])
        if isinstance(node, nodes.Func) and node.name == "in_range" and "range" not in out and node.args:
            if _num(node.args[0]) is not None:
                out["range"] = _num(node.args[0])
    return out


def _site(entity, path: tuple):
    return next((s for s in entity.effects if tuple(s.path[-len(path):]) == path), None)


def check_printed_numbers(game: Game, reporter: dg.Reporter) -> None:
    for weapon in game.of_kind("weapon"):
        ammo = "ammo" if weapon.data.get("slot") == "primary" else "secondary_ammo"
        for i, mode in enumerate(weapon.data.get("modes") or ()):
            site = _site(weapon, ("modes", i, "effect"))
            if site is None or site.ast is None:
                continue
            got = said(site.ast)
            pays = got["pays"]
            if pays:      # the costs the offer checks (actions.legal_attacks) against those paid
                for field, res in (("actions", "actions"), ("ammo", ammo)):
                    if (mode.get(field) or 0) == pays.get(res, 0):
                        continue
                    if field in mode:
                        _refuse(reporter, weapon, ("modes", i, field), f"{field} {mode[field]}",
                                f"pays {pays.get(res, 0)} {res}")
                    else:         # left out, read as 0: offered to a dwarf who cannot pay
                        report(reporter, weapon, ("modes", i, "effect"),
                               f"the mode does not say its {field} (read as 0 to offer the attack, "
                               f"so it is offered to a dwarf with none), but its effect pays "
                               f"{pays[res]} {res}", f"add `{field}: {pays[res]}` to the mode")
            _compare(reporter, weapon, ("modes", i), mode, got, ("range", "die", "dice"))
    for throwable in game.of_kind("throwable"):
        site = _site(throwable, ("effect",))
        if site is not None and site.ast is not None:
            _compare(reporter, throwable, (), throwable.data, said(site.ast), ("die", "dice"))


def _compare(reporter, entity, at: tuple, fields: dict, got: dict, which: tuple) -> None:
    for field in which:
        if field in got and field in fields and fields[field] not in (None, 0) and fields[field] != got[field]:
            words = {"range": f"reaches in_range({got.get('range')})", "die": f"rolls {got.get('die')}",
                     "dice": f"rolls {got.get('dice')} {'die' if got.get('dice') == 1 else 'dice'}"}[field]
            _refuse(reporter, entity, at + (field,), f"{field} {fields[field]}", words)


def _refuse(reporter, entity, path: tuple, printed: str, effect: str) -> None:
    read = " (and read to offer the attack)" if entity.kind == "weapon" else ""
    report(reporter, entity, path, f"{printed} is printed{read}, but its effect {effect}",
           "make the field and the effect say the same")
