"""A simple heuristic for sims: the random agent picks among `View.suggest`'s options.

It aims for ties (both sides to the graveyard, no HP lost, L139-141), avoids lethal rows,
rests when the hand is empty, and cashes loot at every clean-up. Relic uses and event cards,
whatever content adds them, are weighed by a one-step lookahead: the option is applied to a
copy of the game and the copy scored by `value` (never by the relic's or event's name).
`engine` below is the game's Engine (engine.py imports this module, not the other way).
"""
from __future__ import annotations

import copy
from functools import lru_cache
from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Virtual
from tomecraft.runtime.lookahead import FirstOption
from tomecraft.runtime.timing import Fizzle
from tomecraft.runtime.usage import quiet


def _row_tenths(p: int, e: int, n: int, size: int, power: int, risky: int) -> int:
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
    cards = sorted(engine.playable(), key=lambda c: (c.defn.points, c.defn.effect is not None, repr(c)))
    hand = tuple((c.defn.points, 3 if c.defn.effect is not None else 0) for c in cards)
    up = tuple((a, engine.state.tokens[a].up) for a in ATTRIBUTES)
    score, chosen = _search(tuple(rows), hand, up, engine.state.hp)
    return score / 10, [{"cards": [repr(cards[i]) for i in idx], "stacks": dict(stacks)}
                   for idx, stacks in chosen]


MAX_CARDS_PER_ROW = 5        # the search's horizon only; the engine has no such limit


@lru_cache(maxsize=50000)
def _plays(e: int, power: int, free: tuple, up: tuple, hand: tuple) -> list:
    """The best few (value, card indices, stacks, points played) for one row: card sets up to
    5 cards, alone or topped up to exactly the enemy total by one or two stacks of different
    attributes."""
    subsets = [((), 0, 0)]
    for i in free:
        subsets += [(idx + (i,), v + hand[i][0], r + hand[i][1]) for idx, v, r in subsets
                    if len(idx) < MAX_CARDS_PER_ROW and v + hand[i][0] <= e + 3]
    out = []
    for idx, v, r in subsets:
        out.append((_row_tenths(v, e, len(idx), 0, power, r), idx, (), v))
        need = e - v
        if need > 0:
            tops = _top_ups(up, need)
            if tops:
                tie = _row_tenths(e, e, len(idx), need, power, r)
                out += [(tie, idx, stacks, e) for stacks in tops]
    out.sort(key=lambda t: -t[0])
    return out[:6]


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
def _search(rows: tuple, hand: tuple, up: tuple, hp: int) -> tuple[int, tuple]:
    """(tenths, ((card indices, stacks) per row)): the first best plan in depth-first order.
    A plan that loses all HP costs 100 points at each row from there on."""
    return _suffix(rows, hand, hp, {}, 0, tuple(range(len(hand))), up, 0)


def _suffix(rows: tuple, hand: tuple, hp: int, best: dict, i: int, free: tuple, up: tuple,
            damage: int) -> tuple[int, tuple]:
    """The best plan for rows[i:] with the `free` hand cards and `up` tokens, memoised in
    `best` (a module-level function: a nested recursive one would leave each search's memo
    in a reference cycle for the garbage collector)."""
    key = (i, free, up, damage)
    if key in best:
        return best[key]
    total = -10000 if damage >= hp else 0
    chosen: tuple = ()
    if i < len(rows):
        e, power = rows[i]
        top = None
        for value, idx, stacks, p in _plays(e, power, free, up, hand):
            rest = tuple(j for j in free if j not in idx) if idx else free
            left = up
            if stacks:
                spent = dict(stacks)
                left = tuple((a, n - spent.get(a, 0)) for a, n in up)
            lost = power + (1 if p == 0 else 0) if p < e else 0
            after, then = _suffix(rows, hand, hp, best, i + 1, rest, left,
                                  min(hp, damage + lost))
            if top is None or value + after > top:
                top, chosen = value + after, ((idx, stacks),) + then
        total += top
    best[key] = (total, chosen)
    return best[key]


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


_FIRST = FirstOption()


def _trial(engine):
    """A copy of the whole game (state, triggers, random stream) with an agent that takes
    first options. The engine's own deep copy (snapshot.py) shares the content by itself,
    so lookahead.copy_game's memo of every definition is not needed; the player's agent and
    plan, which the trial replaces, are set aside instead of copied."""
    kept = engine.agent, getattr(engine, "policy_plan", None)
    engine.agent, engine.policy_plan = _FIRST, None
    try:
        trial = copy.deepcopy(engine)
    finally:
        engine.agent, engine.policy_plan = kept
    trial.log_enabled = False
    return trial


def value(engine) -> float:
    """How good the game looks for the player: HP and misses first (a miss is the score,
    HP 0 loses), then what helps later battles (cards in hand, face-up attribute tokens,
    resources, loot, relics), and the battle under way."""
    s = engine.state
    if s.won or s.lost:
        return 1e6 if s.won else -1e6
    v = 12.0 * s.hp - 4.0 * s.misses + 40.0 * s.descends
    v += 2.0 * len(s.hand) + sum(1.5 * t.up + 0.5 * t.down for t in s.tokens.values())
    v += sum(s.resources.values()) + 1.5 * len(s.loot) + 2.0 * len(s.equipment)
    row = engine.current_row
    if row is not None:
        p = sum(engine.points(c) for c in row.player)
        e = sum(engine.points(c) for c in row.enemy)
        power = sum(engine.power(c) for c in row.enemy)
        v += _row_tenths(p, e, len(row.player), 0, power, 0) / 10
    elif any(r.enemy for r in s.rows):
        rows = [(sum(engine.points(c) for c in r.enemy), sum(engine.power(c) for c in r.enemy))
                for r in reversed(s.rows)]
        v += plan(engine, rows)[0]
    return v


def gain(engine, apply, before: float | None = None) -> float:
    """value after `apply(trial)` on a copy of the game, minus value before (`before`: the
    game's value, when the caller weighs several options of one decision)."""
    if before is None:
        before = value(engine)
    trial = _trial(engine)
    try:
        with quiet():
            try:
                apply(trial)
            except (Fizzle, LookupError, ValueError):
                return -1e9
        return value(trial) - before
    finally:
        # The copy is a web of cycles (its handlers, contexts and effects point back at it):
        # emptying it lets reference counting free it at once, instead of leaving ~1,000
        # objects per trial to the cyclic garbage collector (a third of the run time).
        trial.__dict__.clear()


def relic_gain(engine, option: dict, before: float | None = None) -> float:
    return gain(engine, lambda t: t.use_relic(option["id"]), before)


def _take_event(trial, name) -> None:
    s = trial.state
    card = next(c for c in s.revealed if repr(c) == name)
    if card.defn.card_type == "loot":
        trial.gain_loot(card)
    else:
        trial.activate_event(card)


def _event_kind(s, name):
    """Options that are worth the same: copies of one event card, and any loot card (taking
    loot runs no effect, it only moves the card: L73), so one trial answers for each."""
    if name is None:
        return None
    card = next(c for c in s.revealed if repr(c) == name)
    return ("loot",) if card.defn.card_type == "loot" else card.defn.id


def event_gain(engine, option: dict, before: float | None = None) -> float:
    if option["event"] is None:
        return 0.0
    return gain(engine, lambda t: _take_event(t, option["event"]), before)


def best(options: list, score) -> list:
    scored = [(score(o), i) for i, o in enumerate(options)]
    top = max(s for s, _ in scored)
    return [options[i] for s, i in scored if s == top]


class View:
    def __init__(self, engine, key: str) -> None:
        self.engine = engine
        self.key = key

    def suggest(self, key: str, options: list) -> list:  # noqa: C901 - one branch per decision
        e, s = self.engine, self.engine.state
        if key == "play" and e.current_row is not None:
            row = e.current_row
            order = list(reversed(s.rows))                  # played from the bottom end
            i = next(i for i, r in enumerate(order) if r is row)
            fresh = i == 0 and not row.player
            if fresh or getattr(e, "policy_plan", None) is None:
                rows = [(sum(e.points(c) for c in r.enemy), sum(e.power(c) for c in r.enemy))
                        for r in order]
                e.policy_plan = plan(e, rows)[1]
            want = e.policy_plan[i] if i < len(e.policy_plan) else None
            return [next_play(row, want, options)]
        if key == "action":
            return self._action(options)
        if key == "event":
            by_kind: dict = {}
            before = value(e)
            def worth(o):
                kind = _event_kind(s, o["event"])
                if kind not in by_kind:
                    by_kind[kind] = event_gain(e, o, before)
                return by_kind[kind]
            return best(options, worth)
        if key == "cleanup":
            return [o for o in options if o["cash"] is not None] or options
        if key == "round_order":
            short = len(s.main_deck) < e.hand_limit() + e.board.brightness * s.space
            return [o for o in options if o["first"] == ("rest" if short else "reset")]
        if key == "return":
            return [o for o in options if o["return"] is None]
        if key == "first_label":
            return [True]
        if key in ("attribute", "level_up"):
            return best(options, lambda o: s.tokens[o["attribute"]].total)
        if key in ("relic_battle_round", "relic_pre_battle"):
            return self._relics(options) or [o for o in options if o["do"] == "done"]
        return []

    def _relics(self, options: list) -> list:
        """The relic uses that make the game look best, if any makes it look better."""
        relics = [o for o in options if o["do"] == "relic"]
        before = value(self.engine) if relics else 0.0
        scored = [(relic_gain(self.engine, o, before), o) for o in relics]
        top = max((g for g, _ in scored), default=0.0)
        return [o for g, o in scored if g > 0 and g == top]

    def _action(self, options: list) -> list:
        e, s = self.engine, self.engine.state
        relics = self._relics(options)
        if relics:
            return relics
        battles = [o for o in options if o["do"] == "battle"]
        hand = e.playable()
        up = sum(s.tokens[a].up for a in ATTRIBUTES)
        if s.main_deck and len(hand) <= 1 and not up:
            rest = [o for o in options if o["do"] == "long_rest"]
            if rest:
                return rest
        if not battles:
            return [o for o in options if o["do"] in ("short_rest", "long_rest")]
        scores = {}
        for o in battles:
            col = s.columns[o["column"]]
            rows = [(e.points(c), e.power(c)) for c in col]      # bottom end first = play order
            scores[o["column"]] = plan(e, rows)[0] / max(1, len(col))
        top = max(scores.values())
        rests = [o for o in options if o["do"] == "long_rest"]
        if top < 0 and rests and len(s.hand) < e.hand_limit():
            return rests
        if top < 5 and len(hand) < 3 and rests:     # a thin hand: refill before it costs HP
            return rests
        return [o for o in battles if scores[o["column"]] == top]
