"""What a mission file adds to the set-up and to play, beyond the map: the class tokens it
pre-places, its drones ("!" tokens) and their recovery, and the objective that includes them.

Rule choices (the guide gives none; missions/README.md "How the sim plays a mission"):
- `tokens`: the mission's tokens come out of the box, so the class that owns them has that
  many fewer in hand (the box holds each class's full set). They are placed where they do
  their job, nearest first, ties broken by position: platforms on pits (nearest the drop
  pod), flames and flares on the spaces around Exits 1 and 2, the sentry gun next to the
  drop pod. Ziplines and the shield need a dwarf to aim them: they only leave the hand.
- `drones`: a dwarf entering a drone's space recovers it (no action, like a pickup that needs
  no pickaxe); the mission succeeds only once every drone is recovered (the "!" token marks
  "the drones a mission requires you to recover", L1703).
"""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.equipment import SENTRY, place_sentry
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN

MISSION_OWNER = -1          # owner seat of tokens the mission placed (never cleared by a turn)
DRONE = "drone"


def place_tokens(engine, mission: dict) -> None:
    st = engine.state
    owners = {name: d.id for d in engine.data.of("dwarf") for name in (plain_keys(d.equipment))}
    for name, count in sorted((mission.get("tokens") or {}).items()):
        for d in st.dwarves:
            if owners.get(name) == d.cls:
                d.tokens[name] = max(0, d.tokens[name] - count)
        for h in _spots(engine, name)[:count]:
            if name == SENTRY:
                place_sentry(engine, h)
            else:
                st.tokens.setdefault(name, {})[h] = MISSION_OWNER


def plain_keys(value) -> list[str]:
    fields = getattr(value, "_fields", value) or {}
    return list(fields)


def _spots(engine, name: str) -> list[Hex]:
    st = engine.state
    taken = set(st.pod) | set(st.exits.values()) | st.stalagmites | set(st.drones)
    taken |= {m.pos for m in st.monsters.values()}
    if st.mine_head is not None:
        taken.add(st.mine_head)
    return token_places(st.cells, st.pod, st.exits, taken, name)


def token_places(cells: dict, pod, exits: dict, taken: set, name: str) -> list[Hex]:
    """Where the mission's `name` tokens go, nearest first (the checker counts them: a token
    with no place would leave the hand and never reach the board). `taken`: the spaces
    something already stands on."""
    if name == "platform":
        pits = [h for h, c in cells.items() if c == "o"]
        return sorted(pits, key=lambda h: (min(hx.distance(h, p) for p in pod), h))
    near_exits = [exits[n] for n in (1, 2) if n in exits]
    if name in ("flame", "flare") and near_exits:
        around = {n for e in near_exits for n in hx.neighbours(e)}
        free = [h for h in around if cells.get(h) in OPEN and h not in taken]
        return sorted(free, key=lambda h: (min(hx.distance(h, e) for e in near_exits), h))
    if name == "sentry_gun":
        around = {n for p in pod for n in hx.neighbours(p)}
        return sorted(h for h in around if cells.get(h) in OPEN and h not in taken)
    return []


def target_spaces(cells: dict, pod, taken: set, size: int = 1, exits=frozenset()) -> list[Hex]:
    """Where an eliminate mission's creature may start (one not waiting on a hidden segment):
    the free open spaces the dwarves can reach from the drop pod (they walk and dig, never
    cross `x`), farthest from the pod first; for a creature on two spaces (the Oppressor,
    L1197) only those with a space beside them for its rear, free or an exit (L996): one
    started on a single space with no rear. The checker refuses a mission with none."""
    reach = hx.bfs_from(pod, lambda _, n: cells.get(n, "x") != "x")
    free = [h for h, c in cells.items() if c in OPEN and h in reach and h not in taken]
    if size >= 2:
        rears = {h for h, c in cells.items() if c in OPEN and (h not in taken or h in exits)} - set(pod)
        free = [h for h in free if any(n in rears for n in hx.neighbours(h))]
    return sorted(free, key=lambda h: (min(hx.distance(h, p) for p in pod), h), reverse=True)


def target_start(cells: dict, mission: dict, size: int = 1) -> Hex | None:
    """Where an eliminate mission's creature starts: None when it is a collect mission or the
    creature waits on a hidden segment; else the first of target_spaces, the spaces taken by
    the drop pod, the exits, stalagmites, drones and the Mine Head left out. The engine places
    it there (mission_setup.place_target) and the briefing marks it (the briefing said only
    "Eliminate the Warden", and the players had no way to know where the Warden stands)."""
    objective = mission["objective"]
    if objective["type"] != "eliminate" or any(
            e["creature"] == objective["creature"] for e in mission.get("hidden_monsters", [])):
        return None
    pod = [tuple(h) for h in mission["drop_pod"]]
    taken = set(pod) | {tuple(e["at"]) for e in mission.get("tunnel_exits", [])} \
        | {tuple(h) for h in mission.get("stalagmites", [])} | {tuple(h) for h in mission.get("drones", [])}
    if mission.get("mine_head"):
        taken.add(tuple(mission["mine_head"]))
    exits = {tuple(e["at"]) for e in mission.get("tunnel_exits", [])}
    spaces = target_spaces(cells, pod, taken, size, exits)
    return spaces[0] if spaces else None


PLACED_TOKENS = {"platform": "pits", "flame": "free spaces around Exits 1 and 2",
                 "flare": "free spaces around Exits 1 and 2", "sentry_gun": "free spaces next to the drop pod"}


def place_drones(engine, mission: dict) -> None:
    engine.state.drones = {(h[0], h[1]) for h in mission.get("drones", [])}
    engine.drones_total = len(engine.state.drones)


def recover_drone(engine, d, h: Hex) -> bool:
    """A dwarf entering a drone's space recovers it: True, and the dwarf carries the drone
    (movement.enter)."""
    st = engine.state
    if h not in st.drones:
        return False
    st.drones.discard(h)
    engine.log(f"{d.cls} recovers the drone at {list(h)}")
    return True


def drones_recovered(engine) -> bool:
    return engine.state.shared[DRONE] >= getattr(engine, "drones_total", 0)
