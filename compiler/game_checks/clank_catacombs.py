"""Clank! Catacombs' compile-time rules: the box's counts (L20-101) and a playable map."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import report
from tomecraft.compiler.model import Game

ROOM_EXITS = "NESW"


def _total(entities, field: str = "count") -> int:
    return sum(int(e.data.get(field) or 0) for e in entities)


def check(game: Game, reporter: dg.Reporter) -> None:
    cards = game.of_kind("card")
    if cards:
        dungeon = [c for c in cards if c.data.get("card_type") in ("acquire", "device", "monster")]
        if dungeon and _total(dungeon) != 100:
            report(reporter, dungeon[-1], "count",
                   f"the dungeon deck holds {_total(dungeon)} cards; the rulebook has 100 (L69-70)")
        starting = [c for c in cards if c.data.get("card_type") == "starting"]
        if starting and _total(starting, "per_deck") != 10:
            report(reporter, starting[-1], "per_deck",
                   f"a starting deck holds {_total(starting, 'per_deck')} cards; the rulebook has 10 (L63-65)")
        for c in cards:
            kind = c.data.get("card_type")
            if kind == "monster" and c.data.get("defeat_cost") is None:
                report(reporter, c, "card_type", "a monster needs a defeat_cost (L302-316)")
            if kind in ("acquire", "device") and c.data.get("cost") is None:
                report(reporter, c, "card_type", f"an {kind} card needs a cost (L290-306)")
            if kind == "device" and not c.data.get("on_use"):
                report(reporter, c, "card_type", "a device needs an on_use effect (L302-306)")
    tiles = game.of_kind("tile")
    if tiles:
        depths = [t for t in tiles if t.data.get("area") == "depths"]
        safe = [t for t in tiles if t.data.get("area") == "safe"]
        if depths and _total(depths) != 22:
            report(reporter, depths[-1], "count", f"{_total(depths)} depth tiles; the rulebook has 22 (L27-28)")
        if safe and _total(safe) != 6:
            report(reporter, safe[-1], "count", f"{_total(safe)} safe-area tiles; the rulebook has 6 (L27-28)")
        haunted = [t for t in depths if t.data.get("haunted")]
        if depths and _total(haunted) != 4:
            report(reporter, depths[-1], "haunted",
                   f"{_total(haunted)} haunted depth tiles; the rulebook has 4 (L396-400)")
        rooms = game.entities.get("room", {})
        for t in tiles:
            for i, cell in enumerate(t.data.get("cells") or []):
                if cell[2] not in rooms:
                    report(reporter, t, ("cells", i, 2), f"unknown room {cell[2]!r}")
                if t.data.get("area") != "start" and len(cell[3]) < 1:
                    report(reporter, t, ("cells", i, 3), "a tile needs at least one tunnel")
            for edge in (t.data.get("icons") or {}):
                if all(edge not in cell[3] for cell in t.data.get("cells") or []):
                    report(reporter, t, ("icons", edge), f"icons on edge {edge}, which has no tunnel")
