"""Crawl Decks' battle planner, for the simulated player (policy.py): which hand cards and
token stacks to play into each row of a column, by a small memoised depth-first search over
the best few plays of each row, and the value of each column the player may battle.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import filterfalse
from operator import itemgetter

from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Virtual


def row_tenths(p: int, e: int, n: int, size: int, power: int, risky: int) -> int:
    """How good one row's outcome is, in tenths (integers: the planner's sums are exact, so
    its memoised search finds the same plan in whatever order it adds them up)."""
    if p == e:
        return 100 + 10 * n - 3 * size - 10 * risky
    if p > e:
        return 40 - 20 * n - 3 * size - 10 * risky
    return -120 * (power + (1 if p == 0 else 0)) + 10 * n - 10 * risky


def plan(engine, rows: list) -> tuple[float, list]:
    """Best assignment of hand cards and token stacks to `rows` (enemy total, power) in play
    order, each row as {"cards": [...], "stacks": {attribute: size}}: a small depth-first search
    over the top few plays of each row, memoised on the values involved (equal hands are
    planned once; within a search, equal remainders of hand, tokens and damage once). A row may take any number of cards and stacks of different attributes."""
    cards, hand, up = _hand(engine)
    score, chosen = _search(tuple(rows), hand, up, engine.state.hp)
    return score / 10, [{"cards": [repr(cards[i]) for i in idx], "stacks": dict(stacks)}
                   for idx, stacks in chosen]


def _hand(engine) -> tuple[list, tuple, tuple]:
    """What `plan` plans with: the playable cards in the search's order, their (points,
    risk) values, and the face-up tokens as ((attribute, count), ...)."""
    cards = sorted(engine.playable(), key=lambda c: (c.defn.points, c.defn.effect is not None, repr(c)))
    hand = tuple((c.defn.points, 3 if c.defn.effect is not None else 0) for c in cards)
    up = tuple((a, engine.state.tokens[a].up) for a in ATTRIBUTES)
    return cards, hand, up




MAX_CARDS_PER_ROW = 5        # the search's horizon only; the engine has no such limit
# The plays per row that column_scores' searches explore (the battle's own plan explores 6):
# ranking the columns needs less than playing one; with 2, over 1,500 seeded games the win
# rate and the misses are those of 6 (9.6% and 17.22 against 9.3% and 17.21).
SCORING_KEPT = 2


@lru_cache(maxsize=50000)
def _plays(e: int, power: int, free: tuple, up: tuple, hand: tuple) -> list:
    """The best few (value, card indices, stacks, HP lost, face-up tokens left) for one row
    (the hand cards left are worked out by _suffix, for the few plays it explores): card sets up to
    5 cards, alone or topped up to exactly the enemy total by one or two stacks of different
    attributes."""
    subsets = [((), 0, 0)]
    for i in free:
        points, risk = hand[i]
        most = e + 3 - points
        subsets += [(idx + (i,), v + points, r + risk) for idx, v, r in subsets
                    if v <= most and len(idx) < MAX_CARDS_PER_ROW]
    out = []
    lose = -120 * power
    reach = _reach(up)
    top_ups = _top_ups_to(up, min(e, reach))     # (a pack's effect may make `e` astronomical)
    for idx, v, r in subsets:           # row_tenths(v, e, len(idx), 0, power, r), inlined
        n = len(idx)
        if v == e:
            out.append((100 + 10 * n - 10 * r, idx, (), v))
        elif v > e:
            out.append((40 - 20 * n - 10 * r, idx, (), v))
        else:
            out.append(((lose - 120 if v == 0 else lose) + 10 * n - 10 * r, idx, (), v))
            need = e - v
            if need > reach:            # more than one or two stacks can add: no top-up
                tops = ()
            else:                       # (need > e: a pack's card of negative points)
                tops = top_ups[need] if need < len(top_ups) else _top_ups(up, need)
            if tops:                    # row_tenths(e, e, n, need, power, r)
                tie = 100 + 10 * n - 3 * need - 10 * r
                out += [(tie, idx, stacks, e) for stacks in tops]
    out.sort(key=_FIRST, reverse=True)          # stable: equal values keep their order
    top = []
    for value, idx, stacks, p in out[:6]:
        lost = (power + (1 if p == 0 else 0)) if p < e else 0      # L135, 1 more for nothing
        top.append((value, idx, stacks, lost, _left(up, stacks) if stacks else up))
    return top


_FIRST = itemgetter(0)


@lru_cache(maxsize=4096)
def _top_ups_to(up: tuple, most: int) -> tuple:
    """`_top_ups(up, need)` for every need from 0 to `most`, by need (looked up once per
    row instead of once per card set)."""
    return tuple(_top_ups(up, need) for need in range(most + 1))


@lru_cache(maxsize=4096)
def _reach(up: tuple) -> int:
    """The most that one or two stacks of the face-up tokens `up` can add."""
    return sum(max(k, 0) for k in sorted((k for _, k in up), reverse=True)[:2])


@lru_cache(maxsize=4096)
def _left(up: tuple, stacks: tuple) -> tuple:
    """The face-up tokens `up` after playing `stacks`."""
    spent = dict(stacks)
    return tuple([(a, k - spent.get(a, 0)) for a, k in up])


@lru_cache(maxsize=4096)
def _top_ups(up: tuple, need: int) -> tuple:
    """The ways to add exactly `need` points with face-up tokens: one stack, or two stacks of
    different attributes, in a fixed order."""
    ups = dict(up)
    out = []
    for a in ATTRIBUTES:
        if ups[a] >= need:
            out.append(((a, need),))
        for b in ATTRIBUTES:
            if a < b:
                for k in range(1, min(ups[a], need - 1) + 1):
                    if ups[b] >= need - k:
                        out.append(((a, k), (b, need - k)))
    return tuple(out)


@lru_cache(maxsize=50000)
def _search(rows: tuple, hand: tuple, up: tuple, hp: int, kept: int = 6) -> tuple[int, tuple]:
    """(tenths, ((card indices, stacks) per row)): the first best plan in depth-first order
    over the best `kept` plays of each row. A plan that loses all HP costs 100 points at
    each row from there on."""
    free = tuple(range(len(hand)))
    return _suffix(rows, hand, hp, {}, 0, free, up, 0, _bounds(rows, hand, up, free), kept)


def _bounds(rows: tuple, hand: tuple, up: tuple, free: tuple) -> tuple:
    """For each i, the most rows[i:] can add up to (and 0 past the end): each row's best play
    with the whole hand and all the face-up tokens (fewer cards or tokens never play better:
    their card sets and top-ups are among these; losing all HP only costs)."""
    bounds = [0]
    for e, power in reversed(rows):
        bounds.append(bounds[-1] + _plays(e, power, free, up, hand)[0][0])
    return tuple(reversed(bounds))


def _suffix(rows: tuple, hand: tuple, hp: int, best: dict, i: int, free: tuple, up: tuple,
            damage: int, bounds: tuple, kept: int) -> tuple[int, tuple]:
    """The best plan for rows[i:] with the `free` hand cards and `up` tokens, memoised in
    `best` (a module-level function: a nested recursive one would leave each search's memo
    in a reference cycle for the garbage collector). A play whose value plus the most the
    later rows can add (`bounds`, see _bounds) is no more than the best found so far cannot
    be chosen (only a greater total replaces it): it and the plays after it (sorted by
    value) are not searched."""
    key = (i, free, up, damage)
    got = best.get(key)
    if got is not None:
        return got
    total = -10000 if damage >= hp else 0
    chosen: tuple = ()
    if i < len(rows):
        e, power = rows[i]
        top = None
        if i + 1 == len(rows):   # the last row: what _suffix gives past it, without the call
            for value, idx, stacks, lost, left in _plays(e, power, free, up, hand)[:kept]:
                if damage + lost >= hp:                  # (all HP lost)
                    value -= 10000
                if top is None or value > top:
                    top, chosen = value, ((idx, stacks),)
        else:
            most_after = bounds[i + 1]
            for value, idx, stacks, lost, left in _plays(e, power, free, up, hand)[:kept]:
                if top is not None and value + most_after <= top:
                    break
                rest = tuple(filterfalse(idx.__contains__, free)) if idx else free
                after, then = _suffix(rows, hand, hp, best, i + 1, rest, left,
                                      min(hp, damage + lost), bounds, kept)
                if top is None or value + after > top:
                    top, chosen = value + after, ((idx, stacks),) + then
        total += top
    got = best[key] = (total, chosen)
    return got


def next_play(row, want: dict | None, options: list) -> dict:
    """The next step of a planned row: its cards, then its stacks, then done."""
    if want is not None:
        placed = [repr(c) for c in row.player if not isinstance(c, Virtual)]
        stacked = {c.attribute for c in row.player if isinstance(c, Virtual)}
        for name in want["cards"]:
            if name in placed:
                placed.remove(name)
            elif {"card": name} in options:
                return {"card": name}
        for a, k in want["stacks"].items():
            if a not in stacked and {"attr": a, "size": k} in options:
                return {"attr": a, "size": k}
    return {"do": "done"}


def column_scores(engine, battles: list) -> dict:
    """{column: its plan's value per card} for the battle options, exact for every column
    that may have the best value: the columns are planned in the order of their bounds
    (see below), and one whose bound is below the best value planned so far is not planned
    (its value cannot reach it; its bound stands for it, below the best). The best value
    and the columns that have it are those of planning them all."""
    _, hand, up = _hand(engine)
    everything, hp = tuple(range(len(hand))), engine.state.hp
    rows_of, bound = {}, {}
    for o in battles:
        col = engine.state.columns[o["column"]]
        rows = tuple([(engine.points(c), engine.power(c)) for c in col])  # bottom end first
        rows_of[o["column"]] = rows
        # (an upper bound on the plan's value, cheap next to its search: each row's best play
        # with the whole hand and all the face-up tokens, _bounds)
        bound[o["column"]] = _bounds(rows, hand, up, everything)[0] / 10 / max(1, len(col))
    scores: dict = {}
    top = None
    for column in sorted(bound, key=bound.__getitem__, reverse=True):
        if top is not None and bound[column] < top:
            scores[column] = bound[column]
            continue
        rows = rows_of[column]
        scores[column] = _search(rows, hand, up, hp, SCORING_KEPT)[0] / 10 / max(1, len(rows))
        top = scores[column] if top is None else max(top, scores[column])
    return scores
