"""Where a team of The Cave can walk, for the simulated player (policy.py).

A tile can be crossed if one of its entry options is affordable with a full turn of AP and
what the team carries (`_crossings`, run on the engine's own `move_options`). Those crossings
are cached per grid, ropes and the part of the backpack the checks read, and distances come
from one search over that cached graph. Nothing here names a tile kind or an item.
"""
from __future__ import annotations

from collections import Counter, deque
from itertools import islice

from tomecraft.runtime.engines.the_cave.state import TURN_AP
from tomecraft.runtime.lookahead import copy_counter

DESPERATE = "desperate_move"     # the engine's 5-AP move (L230)
FAR = 99


# --- copying cheaply ------------------------------------------------------------------------

def shallow(obj):
    """A shallow copy of a plain object, cheaper than copy.copy."""
    out = object.__new__(type(obj))
    out.__dict__ = obj.__dict__.copy()
    return out


# --- where a team can walk ---------------------------------------------------------------

class _Reading(Counter):
    """A copy of a backpack that notes the keys a check reads (`outer`; `inner` while an
    equipment question of `_Asking` reads it) and whether a check read it while it differed
    from the backpack it copies (`changed`: a rope used to leave a rappel tile, before the
    entry is checked; the effect is undone afterwards)."""

    def __init__(self, bag: Counter) -> None:
        # (Counter.__init__ with nothing to count does nothing: not called, one per check)
        dict.update(self, bag)
        self.original = bag
        self.outer: set = set()
        self.inner: set = set()
        self.asking = False
        self.dirty = False      # written to since it was last found equal to `original`
        self.changed = False

    def _settle(self) -> None:
        """A read while written to: clean again if equal to `original`, else `changed`."""
        if dict.__eq__(self, self.original):
            self.dirty = False
        else:
            self.changed = True

    # (each read notes its key inline: a check reads the backpack several times per tile)
    def __getitem__(self, key):
        (self.inner if self.asking else self.outer).add(key)
        if self.dirty:
            self._settle()
        return dict.get(self, key, 0)

    def get(self, key, default=None):      # the bag operations read with get (equipment.py)
        (self.inner if self.asking else self.outer).add(key)
        if self.dirty:
            self._settle()
        return dict.get(self, key, default)


def _writing(write):
    """A Counter method that changes it, for `_Reading`: noted as a write."""
    def noted(bag, *args, **kwargs):
        bag.dirty = True
        return write(bag, *args, **kwargs)
    return noted


for _name in ("__setitem__", "__delitem__", "clear", "pop", "popitem", "setdefault", "update",
              "subtract"):
    setattr(_Reading, _name, _writing(getattr(Counter, _name)))


class _Asking:
    """The content's equipment (engine.items) for a walking check: the questions a check
    asks of the backpack ("can it use rope twice?", "how many rafts?") are noted with the
    question as the thing read (`asked`), so that backpacks answering alike share what the
    check found (two oxygen tanks or one, 3 ropes or 4 where no check asks for more than
    2). Anything else is the items'."""

    def __init__(self, items, bag: _Reading) -> None:
        self.items, self.bag, self.asked = items, bag, set()

    # (the tables made when asked for, not kept: kept, each would point back at this object,
    # a cycle that only the garbage collector frees, one per check of a tile)
    @property
    def can_use_of(self) -> "_AskingTable":
        return _AskingTable(self, "can_use", self.items.can_use_of)

    @property
    def use_of(self) -> "_AskingTable":
        return _AskingTable(self, None, self.items.use_of)

    @property
    def use_once_of(self) -> "_AskingTable":
        return _AskingTable(self, None, self.items.use_once_of)

    def __getattr__(self, name):
        return getattr(self.items, name)

    def ask(self, question: tuple | None, fn, bag, *args):
        """`fn(bag, *args)`; if `bag` is the team's backpack, with its reads set apart and
        the question (if not None) noted (a check asking about another bag reads it
        unnoted)."""
        if bag is not self.bag:
            return fn(bag, *args)
        asking, bag.asking = bag.asking, True
        try:
            found = fn(bag, *args)
        finally:
            bag.asking = asking
        if question is not None:
            self.asked.add(question)
        return found

    def count(self, bag, term):
        return self.ask(("count", term), self.items.count, bag, term)

    def can_use(self, bag, term, times):
        return self.ask(("can_use", term, times), self.items.can_use, bag, term, times)

    def uses_left(self, bag, term):
        return self.ask(("uses_left", term), self.items.uses_left, bag, term)

    def use(self, bag, term, times=1):
        return self.ask(None, self.items.use, bag, term, times)

    def use_once(self, bag, term):
        return self.ask(None, self.items.use_once, bag, term)


class _AskingTable:
    """`items.can_use_of` (or `use_of`, `use_once_of`) for `_Asking`: term -> bag call."""

    def __init__(self, asking: _Asking, kind: str | None, table: dict) -> None:
        self.asking, self.kind, self.table = asking, kind, table

    def __getitem__(self, term):
        fn = self.table[term]
        asking, kind = self.asking, self.kind
        if kind is None:
            return lambda bag, *args: asking.ask(None, fn, bag, *args)
        return lambda bag, times: asking.ask((kind, term, times), fn, bag, times)


def answer(items, bag, question: tuple):
    """What the backpack `bag` answers to a question a walking check asked (`_Asking`), or
    holds under a key it read (("key", key))."""
    kind = question[0]
    if kind == "key":
        return bag.get(question[1], 0)      # (a Counter: an absent key reads 0, as bag[k] does)
    if kind == "can_use":
        return items.can_use(bag, question[1], question[2])
    if kind == "count":
        return items.count(bag, question[1])
    return items.uses_left(bag, question[1])


class _Answers(dict):
    """A backpack's answers to the walking checks' questions (`answer`), each worked out
    once: question -> answer (of a copy of the backpack, so that it may be kept for any
    backpack that holds the same: `_answers`)."""

    def __init__(self, items, bag) -> None:
        self.items, self.bag = items, copy_counter(bag)
        self.graph_key: tuple = (-1, ())      # `_graph_key`: (questions asked, the key)

    def __missing__(self, question):
        found = self[question] = answer(self.items, self.bag, question)
        return found


def _crossings(engine, team, pos, seen: set) -> tuple[frozenset, tuple]:
    """The tiles the team could enter from `pos` by an ordinary move with a full turn of AP
    and what it carries, and the questions the checks asked of its backpack (sorted; also
    added to `seen`): the equipment's questions, and the keys read outside them; only keys,
    every key read, if a check read the backpack while an effect tried out had changed it
    (`_Reading.changed`). Only the player asks, in its decision's usage.quiet block (the
    checks tried here are not uses)."""
    probe = shallow(team)
    probe.pos, probe.ap, probe.done, probe.forced = pos, TURN_AP, False, False
    bag = probe.backpack = _Reading(team.backpack)
    probe.tokens, probe.depth_tokens = copy_counter(team.tokens), set(team.depth_tokens)
    asking = _Asking(engine.items, bag)
    checker = shallow(engine)
    checker.items = asking
    found = frozenset(tuple(o["to"]) for o in checker.move_options(probe, desperate=False)
                      if o["via"] != DESPERATE)
    if bag.changed:         # (the questions asked since were not asked of the backpack)
        read = {("key", k) for k in bag.outer | bag.inner}
    else:
        read = asking.asked | {("key", k) for k in bag.outer}
    seen |= read
    return found, tuple(sorted(read))


def _node(engine, team, pos, seen: set, told: _Answers) -> tuple[frozenset, tuple, tuple]:
    """`_crossings` from `pos`, remembered per tile, its neighbours (their tokens too) and the
    ropes between them, and the backpack's answers (`told`) to the questions the checks
    asked there: a plain tile asks none, so one answer serves every backpack. Returns the
    crossings, the questions and their answers."""
    memo = policy_cache(engine).setdefault("nodes", {})
    ropes = engine.state.ropes
    key = (pos, tuple([(n.pos, tuple(n.tokens), frozenset((pos, n.pos)) in ropes)     # edge()
                       for _, n in engine.neighbours(pos)]))
    entries = memo.setdefault(key, [])
    for questions, answers, result in entries:
        if tuple([told[q] for q in questions]) == answers:
            return result, questions, answers
    result, questions = _crossings(engine, team, pos, seen)
    answers = tuple([told[q] for q in questions])
    entries.append((questions, answers, result))
    return result, questions, answers


class _Graph:
    """Who can cross where, for one content of the backpack (as far as the checks read it);
    brought up to date as tiles and ropes are added (the engine never removes either)."""

    def __init__(self) -> None:
        self.cells: dict | None = None
        self.size = 0
        self.ropes: set = set()
        self.out: dict = {}
        self.reads: dict = {}           # pos -> (questions its checks asked, the answers)
        self.into: dict | None = None   # `out` reversed (pos -> the tiles that enter it),
                                        # made when a search first asks, then kept up to date
        self.searches: dict = {}        # cached distances, valid until the graph changes

    def adopt(self, engine, team, donor: "_Graph", seen: set, told: _Answers) -> None:
        """Start from another backpack's graph of the same grid: a tile whose checks get the
        same answers from this backpack keeps its crossings (a plain tile asks nothing), the
        others are worked out again."""
        self.cells, self.size, self.ropes = donor.cells, donor.size, set(donor.ropes)
        self.out, self.reads = dict(donor.out), dict(donor.reads)
        for pos, (questions, answers) in donor.reads.items():
            if questions and tuple([told[q] for q in questions]) != answers:
                self.out[pos], *read = _node(engine, team, pos, seen, told)
                self.reads[pos] = tuple(read)

    def update(self, engine, team, seen: set, told: _Answers) -> None:
        cells, ropes = engine.state.cells, engine.state.ropes
        if self.cells is cells and self.size == len(cells) and len(self.ropes) == len(ropes):
            return
        if self.cells is not cells:
            dirty = set(cells)
            self.cells, self.out, self.reads, self.ropes = cells, {}, {}, set()
            self.into = None
        else:
            dirty = set()
            for pos in list(cells)[self.size:]:          # tiles placed since (dicts keep order)
                dirty.add(pos)
                dirty.update(n.pos for _, n in engine.neighbours(pos))
        for rope in ropes:
            if rope not in self.ropes:
                dirty.update(rope)
                self.ropes.add(rope)
        into = self.into
        for pos in dirty:
            if pos in cells:
                was = self.out.get(pos, ())
                self.out[pos], *read = _node(engine, team, pos, seen, told)
                self.reads[pos] = tuple(read)
                if into is not None and was != self.out[pos]:
                    _reverse(into, pos, was, self.out[pos])
        self.size = len(cells)
        self.searches = {}

    def reach(self, start) -> dict:
        """Steps from `start` to every tile the team can walk to."""
        key = ("from", start)
        if key not in self.searches:
            self.searches[key] = _search({start: 0}, self.out)
        return self.searches[key]

    def toward(self, engine, targets: frozenset) -> "_Nearest":
        """Steps from every tile to the nearest target (`get`); a target whose last edge the
        team cannot cross counts from a neighbour plus one step (the 5-AP move can make
        it)."""
        key = ("to", targets)
        if key not in self.searches:
            into = self.into
            if into is None:
                into = self.into = {}
                for src, dsts in self.out.items():       # (`_reverse` from nothing, inlined)
                    for dst in dsts:
                        found = into.get(dst)
                        if found is None:
                            into[dst] = {src}
                        else:
                            found.add(src)
            self.searches[key] = _Nearest(_seeds(engine, targets), into)
        return self.searches[key]


def _reverse(into: dict, src, was, now) -> None:
    """Bring the reversed edges `into` up to date for `src`'s crossings changed from `was`
    to `now` (sets of tiles: a breadth-first search's distances do not depend on the order
    it takes the edges in)."""
    for dst in was:
        if dst not in now:
            into[dst].discard(src)
    for dst in now:
        if dst not in was:
            found = into.get(dst)
            if found is None:
                into[dst] = {src}
            else:
                found.add(src)


def _search(seeds: dict, links) -> dict:
    """Breadth-first distances from `seeds` ({pos: start distance}, 0s before 1s) along
    `links` (a dict pos -> next positions, or a function of pos): `_Nearest` searched to its
    end, with no tile to stop at (the queue a list that the loop reads as it grows)."""
    dist = dict(seeds)
    queue = sorted(seeds, key=seeds.get)
    links_of = links.get if isinstance(links, dict) else lambda pos, _: links(pos)
    none = ()
    for at in queue:
        step = dist[at] + 1
        for other in links_of(at, none):
            if other not in dist:
                dist[other] = step
                queue.append(other)
    return dist


class _Nearest:
    """`_search`'s distances, searched only as far as asked: `get` goes on with the search
    until the tile asked for is reached (breadth first, a distance is final once found;
    the player asks for the team's tile and its neighbours, seldom far from a target)."""

    def __init__(self, seeds: dict, links) -> None:
        self.dist = dict(seeds)
        self.queue = deque(sorted(seeds, key=seeds.get))
        # (the graph's own edges are a dict: read with no call of ours per tile)
        self.links_of = links.get if isinstance(links, dict) else lambda pos, _: links(pos)

    def get(self, pos, default=None):
        dist = self.dist
        found = dist.get(pos)
        if found is not None:
            return found
        queue, links_of, none = self.queue, self.links_of, ()
        while queue:
            at = queue.popleft()
            step = dist[at] + 1
            for other in links_of(at, none):
                if other not in dist:
                    dist[other] = step
                    queue.append(other)
            if pos in dist:
                return dist[pos]
        return default


def _seeds(engine, targets) -> dict:
    seeds = {p: 0 for p in targets}
    for p in targets:
        for _, n in engine.neighbours(p):
            seeds.setdefault(n.pos, 1)
    return seeds


def policy_cache(engine) -> dict:
    found = engine.__dict__.get("policy_cache")
    if found is None:       # (not setdefault: no dict made for nothing at every call)
        found = engine.__dict__["policy_cache"] = {}
    return found


def _donor(engine, graphs: dict) -> _Graph | None:
    """The graph a new backpack's graph starts from: one of the same grid, the most up to
    date (the tiles and ropes added since are worked out again by `_Graph.update`, as for
    any graph brought up to date), so that a new graph need not work out every tile."""
    cells, ropes = engine.state.cells, engine.state.ropes
    best = None
    for graph in graphs.values():
        if graph.cells is cells and graph.size <= len(cells):
            if graph.size == len(cells) and len(graph.ropes) == len(ropes):
                return graph
            if best is None or graph.size > best.size:
                best = graph
    return best


def _answers(engine, cache: dict, bag) -> _Answers:
    """The backpack's `_Answers`, kept per content of the backpack for the game (answers
    depend on nothing else), so that the walking checks' questions are not asked again at
    every look-up (the backpack seldom changes from one decision to the next)."""
    known = cache.setdefault("answers", {})
    content = frozenset(bag.items())
    told = known.get(content)
    if told is None:
        told = known[content] = _Answers(engine.items, bag)
    return told


def graph_for(engine, team) -> _Graph:
    cache = policy_cache(engine)
    seen: set = cache.setdefault("read", set())
    graphs: dict = cache.setdefault("graphs", {})
    told = _answers(engine, cache, team.backpack)
    key = _graph_key(told, seen)
    graph = graphs.get(key)
    before = len(seen)
    if graph is None:
        graph = graphs[key] = _Graph()
        donor = _donor(engine, graphs)
        if donor is not None:
            graph.adopt(engine, team, donor, seen, told)
    graph.update(engine, team, seen, told)
    if len(seen) != before:       # the checks asked a new question: file the graph under it too
        graphs[_graph_key(told, seen)] = graph
    return graph


def walking_key(engine, team) -> tuple:
    """The team's backpack as far as the walking checks have asked about it (`_graph_key`):
    backpacks alike there walk alike."""
    cache = policy_cache(engine)
    return _graph_key(_answers(engine, cache, team.backpack), cache.setdefault("read", set()))


def _graph_key(told: _Answers, seen: set) -> tuple:
    """The backpack as far as any check has asked about it: its answer (`told`) to each
    question asked (`_crossings`; `seen` only grows, so keys of different lengths never
    meet). Remembered with the answers while no new question is asked (`told` answers each
    question alike for the game)."""
    found = told.graph_key
    if found[0] != len(seen):
        found = told.graph_key = (len(seen), tuple([told[q] for q in sorted(seen)]))
    return found[1]


def road_toward(engine, targets: frozenset) -> dict:
    """Steps by road (as 5-AP moves go) from every tile to the nearest target."""
    cache = policy_cache(engine).setdefault("roads", {})
    key = (len(engine.state.cells), targets)
    if key not in cache:
        cache.clear()
        cache[key] = _search({p: 0 for p in targets},
                             lambda p: [n.pos for _, n in engine.neighbours(p)])
    return cache[key]


def frontier(engine) -> set:
    """Tiles a team could discover from (an unexplored exit). When the grid grows, only the
    new tiles and the tiles beside them are looked at again (a new tile closes exits only of
    its neighbours; tiles are only ever added, at the end of the grid's dict)."""
    cache = policy_cache(engine)
    cells = engine.state.cells
    size = len(cells)
    known = cache.get("frontier")
    if known is not None and known[0] == size:
        return known[1]
    if known is None or known[0] > size:
        found = {p for p, c in cells.items() if c.kind.discover_from and engine.unexplored(c)}
    else:
        found = set(known[1])
        for x, y in islice(cells, known[0], None):
            for pos in ((x, y), (x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
                cell = cells.get(pos)
                if cell is not None and cell.kind.discover_from and engine.unexplored(cell):
                    found.add(pos)
                else:
                    found.discard(pos)
    cache["frontier"] = (size, found)
    return found


def walkable(engine, reach: dict, pos) -> bool:
    """The tile or one of its neighbours is reachable by the team's ordinary moves."""
    return pos in reach or any(n.pos in reach for _, n in engine.neighbours(pos))


def toward(dist: dict, here, moves: list) -> list:
    """The moves that bring the team strictly closer to the nearest target (`dist`)."""
    best, best_d = [], dist.get(here, FAR)
    for o in moves:
        d = dist.get(tuple(o["to"]), FAR)
        if d < best_d:
            best, best_d = [o], d
        elif d == best_d and best:
            best.append(o)
    return best
