"""Reachability (V-11) over every space a random placement can use, and winnability (W-01).

Dwarves walk the cave, dig any wall (`#`, `*`) with the pickaxe, cross pits (platforms,
ziplines, the Scout's grappling hook) and enter hidden segments once revealed; they never
leave the mission map (`x`). So a space is reachable when a path of non-`x` hexes joins it
to the drop pod. A mission is refused when SOME placement the set-up may draw at random
leaves the objective out of reach, not only when the placement drawn by one seed does.
"""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import DIAMOND, FLARE, HIDDEN, OFF
from tomecraft.runtime.engines.deep_rock_galactic.mission_play import target_spaces


def reachable(hexmap, starts) -> set[tuple[int, int]]:
    seen = {s for s in starts if hexmap.get(s) != OFF}
    stack = list(seen)
    while stack:
        h = stack.pop()
        for n in hexgrid.neighbours(h):
            if n not in seen and hexmap.get(n) != OFF:
                seen.add(n)
                stack.append(n)
    return seen


def check(ck, pod) -> None:
    if not pod:
        return
    reach = reachable(ck.map, pod)
    m = ck.m
    placed = [(("mine_head",), m.get("mine_head"), "the Mine Head")]
    placed += [(("tunnel_exits", i, "at"), e["at"], f"Exit {e['exit']}")
               for i, e in enumerate(m.get("tunnel_exits", []))]
    placed += [(("drones", i), h, "this drone") for i, h in enumerate(m.get("drones", []))]
    placed += [(("mineral_spaces", i, "at"), e["at"], f"this fixed {e['mineral']}")
               for i, e in enumerate(m.get("mineral_spaces", []))]
    for path, value, label in placed:
        if value is None:
            continue
        hex_ = (value[0], value[1])
        if ck.map.get(hex_) != OFF and hex_ not in reach:
            ck.at(path, "V-11", f"{label} cannot be reached from the drop pod",
                  "dwarves walk and dig but never cross `x`: join it to the cave")
    groups = hexgrid.components(ck.map.cells, {HIDDEN})
    for group in groups:
        if group[0] not in reach:
            ck.at_hex(group[0], "V-11", "this hidden segment cannot be reached from the drop pod",
                      "dwarves walk and dig but never cross `x`: join it to the cave")
    target_room(ck, pod)
    random_minerals(ck, reach)
    random_pickups(ck, reach, groups)
    winnable(ck, reach, groups)


def target_room(ck, pod) -> None:
    """V-02: an eliminate target that does not wait on a hidden segment starts on a free cave
    space the dwarves reach (mission_play.target_spaces); with none the set-up stopped."""
    obj, m = ck.m["objective"], ck.m
    creature = obj.get("creature")
    if obj["type"] != "eliminate" or not creature or any(
            e["creature"] == creature for e in m.get("hidden_monsters", [])):
        return
    taken = set(pod) | {(e["at"][0], e["at"][1]) for e in m.get("tunnel_exits", [])}
    taken |= {(h[0], h[1]) for key in ("stalagmites", "drones") for h in m.get(key, [])}
    if m.get("mine_head"):
        taken.add((m["mine_head"][0], m["mine_head"][1]))
    game = ck.names.game
    monster = game.entities.get("monster", {}).get(creature) if game is not None else None
    size = (monster.data.get("size") or 1) if monster is not None else 1
    exits = {(e["at"][0], e["at"][1]) for e in m.get("tunnel_exits", [])}
    if not target_spaces(ck.map.cells, pod, taken):
        ck.at(("objective", "creature"), "V-02",
              f"no free cave space for the {creature} to start on: the drop pod, exits, "
              "stalagmites, drones and the Mine Head fill every space the dwarves reach",
              "leave a free cave space, or let it wait on a hidden segment (`hidden_monsters`)")
    elif not target_spaces(ck.map.cells, pod, taken, size, exits):
        ck.at(("objective", "creature"), "V-02",
              f"the {creature} covers {size} spaces (L1197), but no free cave space the dwarves "
              "reach has a free space or exit beside it for its rear",
              "leave two free cave spaces side by side, or let it wait on a hidden segment (`hidden_monsters`)")


def random_minerals(ck, reach) -> None:
    """Minerals not fixed by `mineral_spaces` go on any free diamond space: every objective
    mineral the set-up may put out of reach must be spare."""
    m = ck.m
    fixed = {(e["at"][0], e["at"][1]): e["mineral"] for e in m.get("mineral_spaces", [])}
    free = [h for h, c in sorted(ck.map.cells.items()) if c == DIAMOND and h not in fixed]
    lost_spaces = [h for h in free if h not in reach]
    for name, wanted in m["objective"].get("targets", {}).items():
        if name not in ck.names.minerals:
            continue
        listed = m["minerals"].get(name, 0)
        fixed_here = [h for h, k in fixed.items() if k == name]
        random_count = max(0, listed - len(fixed_here))
        lost = sum(h not in reach for h in fixed_here) + min(random_count, len(lost_spaces))
        if listed - lost < wanted and lost_spaces and random_count:
            ck.at_hex(lost_spaces[0], "V-11",
                      f"the set-up may place {name} on this diamond space, which no dwarf can reach: "
                      f"then only {listed - lost} of the {wanted} {name} the objective needs are reachable",
                      "join the space to the cave, or fix the objective minerals with `mineral_spaces`")


def random_pickups(ck, reach, groups) -> None:
    """Pickups go at random on flare-stick spaces, the rest on hidden segments."""
    m = ck.m
    per_hidden = int(ck.names.rules.get("v18_pickups_per_hidden_segment") or 2)
    spaces = [(h, 1) for h, c in sorted(ck.map.cells.items()) if c == FLARE]
    spaces += [(g[0], per_hidden) for g in groups]
    lost_room = sum(n for h, n in spaces if h not in reach)
    if not lost_room:
        return
    first = next(h for h, n in spaces if h not in reach)
    for name, wanted in m["objective"].get("targets", {}).items():
        listed = m["pickups"].get(name, 0)
        if name in ck.names.pickups and listed - min(listed, lost_room) < wanted:
            ck.at_hex(first, "V-11",
                      f"the set-up may place {name} here, where no dwarf can reach: then fewer than "
                      f"the {wanted} {name} the objective needs are reachable",
                      "join the space to the cave, or list spare pickups")
            return
    # a hidden segment out of reach is refused above (V-11); a flare-stick space only warned of
    cut_off = next((h for h, n in spaces if h not in reach and ck.map.cells[h] == FLARE), None)
    if cut_off is not None and sum(m["pickups"].values()):    # (the objective's are above: an error)
        ck.at_hex(cut_off, "W-02", "the set-up may place a pickup here, where no dwarf can reach "
                  "it: that pickup is never picked up", "join the space to the cave, or make it "
                  "rock (`#`)", warning=True)


def winnable(ck, reach, groups) -> None:
    """W-01 (warning): the objective cannot be completed by any sequence of legal moves."""
    m = ck.m
    obj = m["objective"]
    if obj["type"] == "eliminate" and obj.get("creature"):
        waits = any(e["creature"] == obj["creature"] for e in m.get("hidden_monsters", []))
        spawned = obj["creature"] in m.get("mission_event", "")
        if waits and not any(g[0] in reach for g in groups) and not spawned:
            ck.at(("objective", "creature"), "W-01",
                  f"the {obj['creature']} waits on hidden segments no dwarf can reveal: "
                  "the mission cannot succeed", "make a hidden segment reachable", warning=True)
    # collect: a collectable pickup with no flare-stick space and no hidden segment to lie on
    targets = obj.get("targets", {}) if obj["type"] == "collect" else {}
    pickups_wanted = [k for k in targets if k in ck.names.pickups]
    if pickups_wanted and not any(c == FLARE for c in ck.map.cells.values()) and not groups:
        ck.at(("objective", "targets", pickups_wanted[0]), "W-01",
              f"{pickups_wanted[0]} has no flare-stick space or hidden segment to lie on: "
              "the mission cannot succeed", "add flare-stick spaces (`?`)", key=True, warning=True)
