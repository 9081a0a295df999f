"""A simple heuristic for random agents: explore, grab tokens, go home in time.

It only narrows the legal options (`suggest`); the random agent picks among what is left.
"""
from __future__ import annotations

from collections import deque

from tomecraft.runtime.engines.the_cave.handlers import count_item

TOKEN_ACTS = {"photograph", "dive"}


def _passable(engine, team, src, dst) -> bool:
    """Roughly: can this team cross src -> dst on some turn with what it carries?"""
    if dst.kind.id == "water" and not (count_item(team.backpack, "oxygen") or team.backpack["raft"]):
        return False
    rope_edge = (dst.kind.rope_edges or src.kind.rope_edges) and src.depth != dst.depth
    if not rope_edge or frozenset((src.pos, dst.pos)) in engine.state.ropes:
        return True
    levels = abs(src.depth - dst.depth) // 25
    return levels <= 4 and levels <= team.backpack["rope"]


def _distances(engine, team, start, passable: bool = True) -> dict:
    """Steps from `start` to every tile reachable by road (and crossable if `passable`)."""
    cells = engine.state.cells
    dist = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for _, other in engine.neighbours(pos):
            if other.pos not in dist and (not passable or _passable(engine, team, cells[pos], other)):
                dist[other.pos] = dist[pos] + 1
                queue.append(other.pos)
    return dist


def _collectable(team, cell) -> bool:
    for token in cell.tokens:
        if token.startswith("squeeze"):
            return True
        if token == "photo" and team.backpack["camera"]:
            return True
        if token == "water" and count_item(team.backpack, "oxygen"):
            return True
    return False


def _nearest(engine, dist: dict, targets) -> int:
    """Steps to the nearest target; a target whose last edge is impassable counts via a
    neighbour plus one step (the 5-AP move can always make that step, L230)."""
    best = 99
    for p in targets:
        if p in dist:
            best = min(best, dist[p])
        else:
            for _, n in engine.neighbours(p):
                if n.pos in dist:
                    best = min(best, dist[n.pos] + 1)
    return best


def _toward(engine, team, moves, targets, passable=True) -> list:
    """The moves that bring the team strictly closer to the nearest target."""
    best, best_d = [], _nearest(engine, _distances(engine, team, team.pos, passable), targets)
    for o in moves:
        d = _nearest(engine, _distances(engine, team, tuple(o["to"]), passable), targets)
        if d < best_d:
            best, best_d = [o], d
        elif d == best_d and best:
            best.append(o)
    return best


def going_home(engine, team) -> bool:
    if team.pos == engine.state.base:
        team.homing = False
    if engine.state.end_triggered:
        return True
    dist = engine.base_distance().get(team.pos, 0)
    if team.backpack["consumable"] < (dist + 3) // 4:
        team.homing = True
    return team.homing


def _cheapest(moves: list) -> list:
    """Among moves, prefer not to spend equipment (raft over oxygen, walk over rope)."""
    plain = [o for o in moves if o["via"] not in ("oxygen", "rope") and not o["via"].startswith("rope+")]
    return plain or moves


def suggest(engine, team, key: str, options: list) -> list:
    if key == "loadout":
        return options[:2]
    if key == "re_equip":
        return options
    if key != "action":
        return options
    at_base = team.pos == engine.state.base
    moves = [o for o in options if o["do"] == "move" and o["via"] != "desperate_move"]
    desperate = [o for o in options if o["do"] == "move" and o["via"] == "desperate_move"]
    acts = {o["id"]: o for o in options if o["do"] == "act"}
    end = [o for o in options if o["do"] == "end"]
    base_dist = engine.base_distance()
    here = base_dist.get(team.pos, 99)
    if at_base:
        if engine.state.end_triggered:
            return end
        if "re_equip" in acts and (team.backpack["consumable"] < 3 or count_item(team.backpack, "rope") == 0):
            return [acts["re_equip"]]
    if going_home(engine, team) and not at_base:
        if "discover" in acts and not engine.state.end_triggered:
            return [acts["discover"]]     # one draw on the way keeps the cave growing
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), 99) < here]
        if closer:
            return _cheapest(closer)
        if team.forced or engine.state.end_triggered:
            closer = [o for o in desperate if base_dist.get(tuple(o["to"]), 99) < here]
            if closer and team.ap == 5:
                return closer
        return end
    if team.forced:
        return desperate or end
    token_acts = [o for k, o in acts.items() if k in TOKEN_ACTS]
    if token_acts:
        return token_acts
    if "discover" in acts:
        return [acts["discover"]]
    cells = engine.state.cells
    rich = [o for o in moves if _collectable(team, cells[tuple(o["to"])])
            and not (cells[tuple(o["to"])].kind.id == "water" and o["via"] != "oxygen")]
    if rich:
        return rich
    # head for the nearest tile with an unexplored exit, or a token the team can take
    targets = {p for p, c in cells.items()
               if (c.kind.discover_from and engine.unexplored(c)) or _collectable(team, c)}
    targets_all = set(targets)
    targets.discard(team.pos)
    if targets and desperate and team.ap == 5:
        normal = {tuple(o["to"]) for o in moves}
        jump = [o for o in desperate if tuple(o["to"]) in targets and tuple(o["to"]) not in normal]
        reach = _distances(engine, team, team.pos)
        near = [p for p in targets if reach.get(p, 99) <= 3]
        if jump and not near:
            return jump
    if targets and moves:
        best = _toward(engine, team, moves, targets)
        if best:
            return best
    if targets and desperate and team.ap == 5:
        best = _toward(engine, team, desperate, targets, passable=False)
        if best:
            return best
    # nothing worth doing from here with this equipment: go back and re-equip
    if team.ap < 5 or (team.pos in targets_all and not at_base):
        return end
    if not at_base:
        team.homing = True
        closer = [o for o in moves if base_dist.get(tuple(o["to"]), 99) < here]
        if closer:
            return closer
        return end
    if "re_equip" in acts:
        return [acts["re_equip"]]
    return moves or end
