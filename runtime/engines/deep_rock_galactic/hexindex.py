"""Hexes as small integers, for the breadth-first searches the monsters ask thousands of
times a game (hexgrid's set-based searches run here when no fence stands).

Every hex a search meets gets an index once, for the whole process (maps are small and a sim
plays the same few): its six neighbours are a tuple of indices, made once, and a set of
hexes a search reads (a monster kind's enterable spaces) becomes a set of indices once
(remembered by the set). A search then hashes small integers and fills a list, not a dict
keyed by coordinate tuples; its answer is the dict of hexes the tuple search built, in the
same order (the starts as given, then the hexes in the order found).
"""
from __future__ import annotations

from typing import Iterable

Hex = tuple[int, int]

EVEN_ROW = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))
ODD_ROW = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))


class Neighbours(dict):
    """Per hex, the six hexes around it in a fixed order (shared tuples: never mutated), made
    when first asked: the searches read `NEIGHBOURS[h]`, a subscript, not a call per hex."""

    def __missing__(self, h: Hex) -> tuple[Hex, ...]:
        r, c = h
        deltas = EVEN_ROW if r % 2 == 0 else ODD_ROW
        out = self[h] = tuple((r + dr, c + dc) for dr, dc in deltas)
        return out


NEIGHBOURS = Neighbours()

_INDEX: dict[Hex, int] = {}            # hex -> its index
_HEXES: list[Hex] = []                 # index -> hex
_AROUND: list = []                     # index -> its neighbours' indices (NEIGHBOURS' order), None until asked
_AROUND_KNOWN: set[Hex] = set()        # the hexes whose _AROUND is made


def _index(h: Hex) -> int:
    i = _INDEX.get(h)
    if i is None:
        i = _INDEX[h] = len(_HEXES)
        _HEXES.append(h)
        _AROUND.append(None)
    return i


def _know_around(hexes) -> None:
    """Indices for `hexes` and their neighbours, and each one's tuple of neighbours."""
    for h in set(hexes).difference(_AROUND_KNOWN):
        _AROUND[_index(h)] = tuple(_index(n) for n in NEIGHBOURS[h])
        _AROUND_KNOWN.add(h)


_SETS: dict = {}           # a set of hexes (frozen) -> the set of their indices: the last _SETS_KEPT
_SETS_KEPT = 256


def _indices(hexes) -> frozenset:
    """The indices of `hexes` (every one's neighbours known: a search may step out of it)."""
    key = hexes if type(hexes) is frozenset else frozenset(hexes)
    out = _SETS.get(key)
    if out is None:
        _know_around(key)
        if len(_SETS) >= _SETS_KEPT:
            del _SETS[next(iter(_SETS))]               # the oldest
        out = _SETS[key] = frozenset(map(_INDEX.__getitem__, key))
    return out


def _starts(starts: Iterable[Hex]) -> tuple[list[int], list[int]]:
    """(the starts' indices as given, once each; the same sorted by hex: the search's first
    queue), every start's neighbours known."""
    given = list(dict.fromkeys(starts))
    _know_around(given)
    firsts = [_INDEX[h] for h in given]
    return firsts, [_INDEX[h] for h in sorted(given)]


def _known(hexes) -> frozenset:
    """The indices of those of `hexes` a search may find (a hex with none is no neighbour of
    any hex searched from; None stands for them, never an index)."""
    return frozenset(map(_INDEX.get, hexes))


def _answer(firsts: list[int], queue: list[int], found_from: int, dist: list) -> dict[Hex, int]:
    """The search's dict: the starts as given, then the hexes found, in order."""
    out = dict.fromkeys(map(_HEXES.__getitem__, firsts), 0)
    found = queue[found_from:]
    out.update(zip(map(_HEXES.__getitem__, found), map(dist.__getitem__, found)))   # loops in C
    return out


def entering(starts: Iterable[Hex], enterable, most=float("inf")) -> dict[Hex, int]:
    """hexgrid._bfs_entering with no fence: steps into the hexes of `enterable` only, up to
    `most` steps."""
    inside = _indices(enterable)
    firsts, queue = _starts(starts)
    dist = [-1] * len(_HEXES)
    for i in firsts:
        dist[i] = 0
    around, push, head, found_from = _AROUND, queue.append, 0, len(queue)
    while head < len(queue):
        i = queue[head]
        head += 1
        far = dist[i] + 1
        if far > most:
            break                              # the rest lie as far: nothing nearer to find
        for n in around[i]:
            if dist[n] < 0 and n in inside:
                dist[n] = far
                push(n)
    return _answer(firsts, queue, found_from, dist)


def entering_until(starts: Iterable[Hex], enterable, until) -> dict[Hex, int]:
    """hexgrid._bfs_until: `entering` up to the distance of the nearest hex of `until`."""
    inside = _indices(enterable)
    firsts, queue = _starts(starts)
    goals = _known(until)
    dist = [-1] * len(_HEXES)
    for i in firsts:
        dist[i] = 0
    level = 0 if any(i in goals for i in firsts) else None
    around, push, head, found_from = _AROUND, queue.append, 0, len(queue)
    while head < len(queue):
        i = queue[head]
        head += 1
        if level is not None and dist[i] >= level:
            break
        far = dist[i] + 1
        for n in around[i]:
            if dist[n] < 0 and n in inside:
                dist[n] = far
                push(n)
                if level is None and n in goals:
                    level = far
    return _answer(firsts, queue, found_from, dist)


def leaving(starts: Iterable[Hex], leavable, wanted=None, every_start=False) -> dict[Hex, int]:
    """hexgrid._bfs_leaving with no fence: steps out of the hexes of `leavable` only (into
    any hex), until every hex of `wanted` is found (all of them when None). `every_start`:
    the starts too, as if `leavable` held them (no hex is found twice, so a start is stepped
    out of only as a start): the steps to the dwarves (combat.steps_to) read the monster
    kind's enterable set as it is, whose indices are kept, not a new union with them."""
    inside = _indices(leavable)
    firsts, queue = _starts(starts)
    if every_start:
        inside = inside.union(firsts)
    dist = [-1] * len(_HEXES)
    for i in firsts:
        dist[i] = 0
    goals = _known(wanted) if wanted is not None else frozenset()
    missing = -1 if wanted is None else len(wanted) - sum(1 for h in wanted if _INDEX.get(h) in firsts)
    around, push, head, found_from = _AROUND, queue.append, 0, len(queue)
    while head < len(queue) and missing != 0:
        i = queue[head]
        head += 1
        if i not in inside:
            continue
        far = dist[i] + 1
        for n in around[i]:
            if dist[n] < 0:
                dist[n] = far
                push(n)
                if n in goals:
                    missing -= 1
    return _answer(firsts, queue, found_from, dist)


def fenced(starts: Iterable[Hex], allowed, fences: tuple, unfenced, entering: bool,
           wanted=None, most=float("inf")) -> dict[Hex, int]:
    """hexgrid._fenced on indices: `entering` (up to `most` steps) or `leaving` where a step
    from h to n also needs h and n on the same side of every fence (a shield's area, an IFG),
    save a step into (entering) or out of (leaving) a hex of `unfenced`."""
    inside, free = _indices(allowed), _indices(unfenced)
    sides, outside = _sides(allowed, fences, unfenced, entering)
    firsts, queue = _starts(starts)
    dist = [-1] * len(_HEXES)
    for i in firsts:
        dist[i] = 0
    around, push, head, found_from = _AROUND, queue.append, 0, len(queue)
    if entering:          # every side lies within allowed and unfenced: a side's hex is enterable
        while head < len(queue):
            i = queue[head]
            head += 1
            far = dist[i] + 1
            if far > most:
                break
            into = sides.get(i, outside)
            for n in around[i]:
                if dist[n] < 0 and n in into:
                    dist[n] = far
                    push(n)
        return _answer(firsts, queue, found_from, dist)
    goals = _known(wanted) if wanted is not None else frozenset()
    missing = -1 if wanted is None else len(wanted) - sum(1 for h in wanted if _INDEX.get(h) in firsts)
    while head < len(queue) and missing != 0:
        i = queue[head]
        head += 1
        far = dist[i] + 1
        if i in free:
            within, out = None, None           # every step out of it passes
        elif i not in inside:
            continue
        else:
            within = sides.get(i)              # inside some fence: the hexes inside the same ones
            out = within is None
            if out:
                within = outside               # in no fence: the fences' hexes, not stepped into
        for n in around[i]:
            if dist[n] < 0 and (out is None or (n not in within if out else n in within)):
                dist[n] = far
                push(n)
                if n in goals:
                    missing -= 1
    return _answer(firsts, queue, found_from, dist)


_SIDES: dict = {}          # _sides' answers by their inputs frozen: the last _SIDES_KEPT
_SIDES_KEPT = 64


def _sides(allowed, fences: tuple, unfenced, entering: bool) -> tuple[dict, frozenset]:
    """(per index of a fence's hex, the indices on its side of every fence; the side of a hex
    in no fence), as fence_sides tells them, remembered by its inputs."""
    key = (frozenset(allowed), tuple(map(frozenset, fences)), frozenset(unfenced), entering)
    got = _SIDES.get(key)
    if got is None:
        if len(_SIDES) >= _SIDES_KEPT:
            del _SIDES[next(iter(_SIDES))]             # the oldest
        got = _SIDES[key] = _sides_now(*key)
    return got


def _sides_now(allowed: frozenset, fences: tuple, unfenced: frozenset, entering: bool) -> tuple[dict, frozenset]:
    """`fence_sides` on indices."""
    sides, outside = fence_sides(allowed, fences, unfenced, entering)
    by_id: dict[int, frozenset] = {}        # one set per combination of fences, as there
    return ({_index(h): by_id.setdefault(id(side), frozenset(map(_index, side)))
             for h, side in sides.items()}, frozenset(map(_index, outside)))


def fence_sides(allowed, fences: tuple, unfenced, entering: bool) -> tuple[dict, frozenset]:
    """For the fenced searches: (per hex of a fence, the hexes on its side of every fence;
    the side of a hex in no fence). Entering, a side is the allowed hexes there and
    `unfenced`; leaving, the hexes inside the same fences, or, outside them all, their union
    (not to be stepped into). One set per combination of fences."""
    union = frozenset().union(*fences)
    outside = (allowed - union) | unfenced if entering else union
    by_key: dict[tuple, frozenset] = {}
    sides: dict = {}
    for h in union:
        key = tuple(h in f for f in fences)
        got = by_key.get(key)
        if got is None:
            inside = [f for f, i in zip(fences, key) if i]
            beyond = [f for f, i in zip(fences, key) if not i]
            got = frozenset.intersection(*map(frozenset, inside)).difference(*beyond)
            got = by_key[key] = (got & allowed) | unfenced if entering else got
        sides[h] = got
    return sides, frozenset(outside)
