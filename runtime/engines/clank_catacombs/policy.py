"""A simple heuristic for random agents: play every card, grab treasure, head home with it.

It only narrows the legal options (`suggest`); the random agent picks among what is left.
"""
from __future__ import annotations

from collections import deque

from tomecraft.runtime.engines.clank_catacombs.state import OPPOSITE, step


def distances(engine, start) -> dict:
    """Tunnel steps from `start` to every room on the map, ignoring icons."""
    cells = engine.state.cells
    dist = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        cell = cells[pos]
        for d in cell.exits:
            other = cells.get(step(pos, d))
            if other is not None and other.opens(OPPOSITE[d]) and other.pos not in dist:
                dist[other.pos] = dist[pos] + 1
                queue.append(other.pos)
    return dist


class View:
    def __init__(self, engine, player) -> None:
        self.engine = engine
        self.player = player

    def suggest(self, key: str, options: list) -> list:
        if key == "monster_icon" or key.endswith(":choose1") or "choose" in key:
            return options[:1]
        if key == "trash" or ":target" in key:
            return [o for o in options if getattr(o, "id", o) == "stumble"] or options[:1]
        if key != "action":
            return []
        p, engine = self.player, self.engine
        by = {}
        for o in options:
            by.setdefault(o["do"], []).append(o)
        for do in ("play", "take_treasure", "room", "token"):
            if do in by:
                return by[do]
        buys = [o for o in by.get("buy", []) if o["item"] != "amulet" or len(p.track) >= 5]
        if buys:
            return buys
        if "defeat" in by and p.combat >= 2:
            return by["defeat"]
        if "acquire" in by or "use" in by:
            best = max(engine.cards[o["card"]].cost for o in by.get("acquire", []) + by.get("use", []))
            return [o for o in by.get("acquire", []) + by.get("use", [])
                    if engine.cards[o["card"]].cost == best]
        moves = by.get("move", []) + by.get("explore", [])
        if moves:
            if p.treasures:
                home = next(c.pos for c in engine.state.cells.values()
                            if c.room.room_type == "mausoleum")
                goal = distances(engine, home)
            else:
                goals = [c.pos for c in engine.state.cells.values() if c.treasures]
                goal = {}
                for g in goals:
                    for pos, n in distances(engine, g).items():
                        goal[pos] = min(goal.get(pos, 99), n)
            better = _closer(by.get("move", []), goal, p.pos)
            if better:
                return better
            if not p.treasures and by.get("explore"):
                return by["explore"]
            if not p.treasures:
                # no treasure in reach and nothing to explore here: walk toward a room with
                # an unexplored tunnel (else the later seats wait at the start for ever)
                better = _closer(by.get("move", []), frontier_distances(engine), p.pos)
                if better:
                    return better
        return by.get("end", [])


def _closer(moves: list, goal: dict, here) -> list:
    now = goal.get(here, 99)
    return [o for o in moves if goal.get(tuple(o["to"]), 99) < now]


def frontier_distances(engine) -> dict:
    """Tunnel steps from every room to the nearest room with an unexplored tunnel."""
    cells = engine.state.cells
    if not engine.state.tile_stack:
        return {}
    goal: dict = {}
    for pos, cell in cells.items():
        if any(step(pos, d) not in cells for d in cell.exits):
            for other, n in distances(engine, pos).items():
                goal[other] = min(goal.get(other, 99), n)
    return goal
