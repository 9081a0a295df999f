"""Hex geometry for mission maps: odd rows sit half a hex to the right ("odd-r" offset).

Distances, neighbours, lines of sight and walkable paths. Pure functions of positions, so
their answers are remembered per hex (or pair of hexes): monster movement and the players'
searches ask the same few hundred hexes hundreds of thousands of times a sim.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Callable, Iterable

from tomecraft.runtime.engines.deep_rock_galactic import hexindex
from tomecraft.runtime.engines.deep_rock_galactic.hexindex import NEIGHBOURS as _NEIGHBOURS

Hex = tuple[int, int]


class _SortedNeighbours(dict):
    """`_NEIGHBOURS[h]` in ascending order (path searches try them that way)."""

    def __missing__(self, h: Hex) -> tuple[Hex, ...]:
        out = self[h] = tuple(sorted(_NEIGHBOURS[h]))
        return out


_SORTED_NEIGHBOURS = _SortedNeighbours()
neighbours, sorted_neighbours = _NEIGHBOURS.__getitem__, _SORTED_NEIGHBOURS.__getitem__


def components(cells: dict[Hex, str], kinds: set[str]) -> list[list[Hex]]:
    """The connected groups of hexes whose cell character is in `kinds`, each sorted."""
    seen: set[Hex] = set()
    groups = []
    for start in sorted(h for h, c in cells.items() if c in kinds):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            h = stack.pop()
            group.append(h)
            for n in neighbours(h):
                if n not in seen and cells.get(n) in kinds:
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    return groups


def to_cube(h: Hex) -> tuple[float, float, float]:
    r, c = h
    x = c - (r - (r & 1)) / 2
    return (x, -x - r, r)


def from_cube(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    r = int(rz)
    return (r, int(rx + (r - (r & 1)) / 2))


def distance(a: Hex, b: Hex) -> int:
    """Hexes between a and b (cube coordinates in integers: r - (r & 1) is even); no max() call."""
    ar, ac = a
    br, bc = b
    dx = (ac - (ar - (ar & 1)) // 2) - (bc - (br - (br & 1)) // 2)
    dz = ar - br
    dy = -dx - dz
    dx, dy, dz = dx if dx >= 0 else -dx, dy if dy >= 0 else -dy, dz if dz >= 0 else -dz
    return (dx if dx >= dz else dz) if dx >= dy else (dy if dy >= dz else dz)


_DISCS: dict[tuple[Hex, int], frozenset[Hex]] = {}


def disc(h: Hex, radius: int) -> frozenset[Hex]:
    """The hexes within `radius` of h (h included): its neighbours' rings, one step out at a
    time, which on the unbounded grid are exactly the hexes at that distance."""
    out = _DISCS.get((h, radius))
    if out is None:
        found, ring = {h}, [h]
        for _ in range(max(0, radius)):
            ring = [n for x in ring for n in neighbours(x) if n not in found]
            found.update(ring)
        out = _DISCS[(h, radius)] = frozenset(found)
    return out


def within(h: Hex, radius: int, among: set) -> set:
    """The hexes of `among` within `radius` of h: read off the disc around h (remembered) when
    it is small or the smaller set, else by distance (a pack's creature may have any range: a
    disc of radius r holds 3r(r+1)+1 hexes)."""
    if radius < 0:
        return set()
    if radius <= _DISC_MOST or 3 * radius * (radius + 1) + 1 <= len(among):
        return among.intersection(disc(h, radius))
    return {x for x in among if distance(h, x) <= radius}


_DISC_MOST = 8      # a disc this wide (217 hexes) is read even when `among` is smaller: built once


@lru_cache(maxsize=1 << 16)
def lines(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The hexes strictly between a and b on the two slightly nudged centre lines."""
    n = distance(a, b)
    if n <= 1:
        return ((),)
    ca, cb = to_cube(a), to_cube(b)
    out = []
    for eps in (1e-6, -1e-6):
        path = []
        for i in range(1, n):
            t = i / n
            x, y, z = (ca[k] + (cb[k] - ca[k]) * t for k in range(3))
            path.append(from_cube(x + eps, y + eps, z - 2 * eps))
        out.append(tuple(path))
    return tuple(out)


def beam(a: Hex, b: Hex) -> list[Hex]:
    """The spaces a beam from `a` to `b` crosses on either nudged centre line (along a hex
    edge it touches both sides), then `b`."""
    return list(dict.fromkeys(h for line in lines(a, b) for h in line)) + [b]


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """Clear if some line from a to b crosses no blocking hex (the rule's 'any part' of a hex).
    Each line is read up to its first blocking hex, lines in order (loops, not generators:
    the monsters and the players ask this tens of thousands of times a sim)."""
    for path in lines(a, b):
        for h in path:
            if blocks(h):
                break
        else:
            return True
    return False


def path_to(start: Hex, goals: Iterable[Hex], passable: Callable[[Hex, Hex], bool]) -> list[Hex] | None:
    """Shortest walkable path (start excluded) to the nearest goal; ties go to the first goal order."""
    goals = set(goals)
    if start in goals:
        return []
    prev = {start: None}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in sorted_neighbours(h):
            if n in prev or not passable(h, n):
                continue
            prev[n] = h
            if n in goals:
                return _walked(prev, n)
            todo.append(n)
    return None


def _walked(prev: dict, end: Hex) -> list[Hex]:
    """The path a search's `prev` links lead from its start (excluded) to `end`."""
    path = []
    while prev[end] is not None:
        path.append(end)
        end = prev[end]
    return path[::-1]


def path_into(start: Hex, goals: Iterable[Hex], enters: Callable[[Hex], bool],
              known: dict | None = None) -> list[Hex] | None:
    """`path_to` for a step that depends only on the space entered: `enters(n)`, asked
    once per space (not once per neighbour the search reaches it from), in the search's
    order (a dwarf's walk). `known`: the answers kept (filled here), if the caller keeps them."""
    goals = set(goals)
    if start in goals:
        return []
    if known is None:
        known = {}
    prev = {start: None}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in _SORTED_NEIGHBOURS[h]:
            if n in prev:
                continue
            ok = known.get(n)
            if ok is None:
                ok = known[n] = enters(n)
            if not ok:
                continue
            prev[n] = h
            if n in goals:
                return _walked(prev, n)
            todo.append(n)
    return None


def _path_entering(start: Hex, goals: Iterable[Hex], enterable, fences: tuple = ()) -> list[Hex] | None:
    """`path_to` where a step from h into n is passable exactly when n is in `enterable` and
    crosses no fence (as in `bfs_entering`): the same search, in the same order, with set
    lookups for the step's test (a monster's walk)."""
    goals = set(goals)
    if start in goals:
        return []
    prev = {start: None}
    todo = deque([start])
    if not fences:
        left = _unfound(enterable, prev)
        while todo:
            h = todo.popleft()
            for n in _SORTED_NEIGHBOURS[h]:
                if n in left:
                    left.remove(n)
                    prev[n] = h
                    if n in goals:
                        return _walked(prev, n)
                    todo.append(n)
        return None
    sides, outside = hexindex.fence_sides(enterable, fences, frozenset(), True)
    while todo:
        h = todo.popleft()
        into = sides.get(h, outside)
        for n in _SORTED_NEIGHBOURS[h]:
            if n in prev or n not in into:
                continue
            prev[n] = h
            if n in goals:
                return _walked(prev, n)
            todo.append(n)
    return None


# --- the set-based searches, remembered by their inputs: pure functions, asked again and again
# (a trial's monsters and the idle trial's, the real Event after the trials). The last 512 are
# kept, keyed by the arguments frozen (a frozenset hashes once; a monster's enterable spaces
# are one already), the starts in order (the answer's follows it). Distance maps are handed
# out shared (callers only read them: a copy per call cost about a search); a path is copied.
_SEARCHES: dict = {}
_SEARCHES_KEPT = 512


def _frozen(hexes):
    return hexes if hexes is None or type(hexes) is frozenset else frozenset(hexes)


def _remembered(key: tuple, search: Callable, *args):
    found = _SEARCHES.get(key)
    if found is None:
        if len(_SEARCHES) >= _SEARCHES_KEPT:
            del _SEARCHES[next(iter(_SEARCHES))]           # the oldest
        found = _SEARCHES[key] = (search(*args),)
    return found[0]


def bfs_entering(starts: Iterable[Hex], enterable, fences: tuple = (), unfenced=frozenset(),
                 until=None, most: int | None = None) -> dict[Hex, int]:
    """`_bfs_entering` (below), remembered by its inputs (shared: read it only); not a spawn's
    (`until`: its monsters' bodies are new each time, asked again one time in twenty)."""
    if until is not None:
        return _bfs_entering(starts, enterable, fences, unfenced, until, most)
    starts = tuple(starts)
    key = ("entering", starts, _frozen(enterable), tuple(map(_frozen, fences)), _frozen(unfenced), most)
    return _remembered(key, _bfs_entering, starts, enterable, fences, unfenced, None, most)


def bfs_leaving(starts: Iterable[Hex], leavable, fences: tuple = (), unfenced=frozenset(),
                wanted=None) -> dict[Hex, int]:
    """`_bfs_leaving` (below), remembered by its inputs (the answer is shared: read it only)."""
    starts = tuple(starts)
    key = ("leaving", starts, _frozen(leavable), tuple(map(_frozen, fences)), _frozen(unfenced), _frozen(wanted))
    return _remembered(key, _bfs_leaving, starts, leavable, fences, unfenced, wanted)


def path_entering(start: Hex, goals: Iterable[Hex], enterable, fences: tuple = ()) -> list[Hex] | None:
    """`_path_entering` (above), remembered by its inputs."""
    key = ("path", start, _frozen(goals), _frozen(enterable), tuple(map(_frozen, fences)))
    path = _remembered(key, _path_entering, start, goals, enterable, fences)
    return None if path is None else list(path)


_AHEAD: dict[tuple[Hex, Hex], Hex] = {}
_TOWARD: dict[tuple[Hex, Hex], Hex] = {}


def ahead(prev: Hex, h: Hex) -> Hex:
    """The hex one step further along the line from prev through h (a neighbour of h);
    remembered per pair (a monster's every step asks it)."""
    out = _AHEAD.get((prev, h))
    if out is None:
        (px, py, pz), (x, y, z) = to_cube(prev), to_cube(h)
        out = _AHEAD[(prev, h)] = from_cube(2 * x - px, 2 * y - py, 2 * z - pz)
    return out


def toward(h: Hex, goal: Hex) -> Hex:
    """The neighbour of h nearest the straight line to goal (ties: the lowest hex);
    remembered per pair."""
    out = _TOWARD.get((h, goal))
    if out is None:
        gx, gy, gz = to_cube(goal)
        hx_, hy, hz = to_cube(h)
        dist = max(abs(gx - hx_), abs(gy - hy), abs(gz - hz)) or 1
        out = _TOWARD[(h, goal)] = from_cube(hx_ + (gx - hx_) / dist, hy + (gy - hy) / dist,
                                             hz + (gz - hz) / dist)
    return out


def in_rear_arc(h: Hex, facing: Hex, other: Hex) -> bool:
    """Whether `other` lies within 60 degrees of straight behind a figure on h facing the
    neighbour `facing` (the 120-degree rear arc). Cube coordinates keep angles."""
    v = [a - b for a, b in zip(to_cube(facing), to_cube(h))]
    w = [a - b for a, b in zip(to_cube(other), to_cube(h))]
    dot = -sum(a * b for a, b in zip(v, w))
    norm = (sum(a * a for a in v) * sum(b * b for b in w)) ** 0.5
    return norm > 0 and dot >= 0.5 * norm - 1e-9


def bfs_from(starts: Iterable[Hex], passable: Callable[[Hex, Hex], bool]) -> dict[Hex, int]:
    """Walking distance from the nearest of several starts to every reachable hex."""
    dist = {h: 0 for h in starts}
    todo = deque(sorted(dist))
    popleft, push = todo.popleft, todo.append
    while todo:
        h = popleft()
        far = dist[h] + 1
        for n in _NEIGHBOURS[h]:
            if n not in dist and passable(h, n):
                dist[n] = far
                push(n)
    return dist


def _bfs_entering(starts: Iterable[Hex], enterable, fences: tuple = (), unfenced=frozenset(),
                  until=None, most: int | None = None) -> dict[Hex, int]:
    """`bfs_from` where a step into n is passable exactly when n is in `enterable` (a set):
    the fast form for monsters whose way depends only on the space entered. `fences`: sets
    of hexes a step never crosses (from inside one to outside it, or back: a shield's area,
    an IFG), except a step into `unfenced`. With `until` (a set of hexes), the search may
    stop once it has found every hex as near as the nearest of them (where a spawn looks).
    With `most`, only the hexes at most that many steps away: the full search's first
    entries, in its order (a breadth-first search finds them all before any farther one)."""
    most = _NO_LIMIT if most is None else most
    if fences:
        return _fenced(starts, enterable, fences, unfenced, entering=True, most=most)
    if until is not None:
        return hexindex.entering_until(starts, enterable, until)
    return hexindex.entering(starts, enterable, most)     # the same search, on indices


_NO_LIMIT = float("inf")


def _unfound(enterable, found: dict) -> set:
    """The hexes of `enterable` a search has not found yet (kept up to date by the search):
    one set test per neighbour, where `n in enterable and n not in dist` made two."""
    left = set(enterable)
    left.difference_update(found)
    return left


def _bfs_leaving(starts: Iterable[Hex], leavable, fences: tuple = (), unfenced=frozenset(),
                 wanted=None) -> dict[Hex, int]:
    """`bfs_from` where a step out of h is passable exactly when h is in `leavable` (a set):
    walking distances *to* the starts along ways that depend only on the space entered.
    `fences` as in `bfs_entering`, except a step out of `unfenced`. With `wanted` (a set of
    hexes), the search may stop once it has found them all: their distances, and those of
    the hexes found before them, are the full search's (a breadth-first search finds each
    hex at its final distance)."""
    if fences:
        return _fenced(starts, leavable, fences, unfenced, entering=False, wanted=wanted)
    return hexindex.leaving(starts, leavable, wanted)     # the same search, on indices


def _fenced(starts: Iterable[Hex], allowed, fences: tuple, unfenced, entering: bool,
            wanted=None, most=_NO_LIMIT) -> dict[Hex, int]:
    """`bfs_entering` (entering, up to `most` steps) or `bfs_leaving` with fences: the same
    search, in the same order, where a step from h to n also needs h and n on the same side
    of every fence (on indices: hexindex.fenced)."""
    return hexindex.fenced(starts, allowed, fences, unfenced, entering, wanted, most)
