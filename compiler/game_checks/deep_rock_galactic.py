"""Deep Rock Galactic's compile-time rules: Mission Book missions obey inventory §9.5, the
monster info board has one monster per activation slot, dice have six faces, and each class
has exactly one default primary weapon."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import report
from tomecraft.compiler.model import Game


def check(game: Game, reporter: dg.Reporter) -> None:
    from tomecraft.compiler import missions
    names = missions.roster(game)
    for mission in game.of_kind("mission"):
        missions.MissionChecker(mission.doc, mission.display, reporter, names,
                                base=mission.path, check_event=False).run()
    seen: dict[int, str] = {}
    for monster in game.of_kind("monster"):
        order = monster.data["order"]
        if order in seen:
            report(reporter, monster, "order",
                   f"activation slot {order} is already taken by {seen[order]!r} (info board order, L940-962)")
        seen[order] = monster.id
    for die in game.of_kind("die"):
        if len(die.data["faces"]) != 6:
            report(reporter, die, "faces", f"a die has 6 faces, not {len(die.data['faces'])}")
    defaults: dict[str, str] = {}
    for weapon in game.of_kind("weapon"):
        if weapon.data.get("default"):
            dwarf = weapon.data.get("dwarf", "")
            if dwarf in defaults:
                report(reporter, weapon, "default",
                       f"{dwarf} already has the default primary {defaults[dwarf]!r}")
            defaults[dwarf] = weapon.id
    for dwarf in game.of_kind("dwarf"):
        if dwarf.id not in defaults:
            report(reporter, dwarf, "id", f"{dwarf.id} has no default primary weapon")
