"""A simple heuristic for sims: the random agent picks among `View.suggest`'s options.

It aims for ties (both sides to the graveyard, no HP lost, L139-141), avoids lethal rows,
rests when the hand is empty, and cashes loot at every clean-up.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from runtime.engines.dm_crawl_decks.state import ATTRIBUTES

if TYPE_CHECKING:
    from runtime.engines.dm_crawl_decks.engine import Engine


def row_score(engine: "Engine", option: dict, enemy_total: int, enemy_power: int) -> float:
    values = {repr(c): engine.points(c) if c.zone != "hand" else c.defn.points
              for c in engine.state.hand}
    n = len(option["cards"])
    p = sum(values[name] for name in option["cards"]) + option["size"]
    # a card with a text may help the enemy (a War Drummer lifts the enemy side): play plain ones
    risky = sum(3 for c in engine.state.hand if repr(c) in option["cards"] and c.defn.effect is not None)
    if p == enemy_total:
        return 100 + n - 0.5 * option["size"] - risky
    if p > enemy_total:
        return 50 - 3 * n - 0.1 * (p - enemy_total) - 0.5 * option["size"] - risky
    damage = enemy_power + (1 if p == 0 else 0)
    if damage >= engine.state.hp:
        return -1000 + p
    return 40 - 15 * damage + 2 * n - 0.5 * option["size"] - risky


def _row_value(p: int, e: int, n: int, size: int, power: int, risky: int) -> float:
    if p == e:
        return 10 + n - 0.3 * size - risky
    if p > e:
        return 4 - 2 * n - 0.3 * size - risky
    return -12 * (power + (1 if p == 0 else 0)) + n - risky


def plan(engine: "Engine", rows: list) -> tuple[float, list]:
    """Best assignment of hand cards and token stacks to `rows` (enemy total, power) in play
    order: a small depth-first search over the top few plays of each row (memoised on the
    values involved, so equal hands are planned once)."""
    cards = sorted(engine.playable(), key=lambda c: (c.defn.points, c.defn.effect is not None, repr(c)))
    hand = tuple((c.defn.points, 3 if c.defn.effect is not None else 0) for c in cards)
    up = tuple((a, engine.state.tokens[a].up) for a in ATTRIBUTES)
    score, chosen = _search(tuple(rows), hand, up, engine.state.hp)
    return score, [{"cards": sorted(repr(cards[i]) for i in idx), "attr": a, "size": k}
                   for idx, a, k in chosen]


@lru_cache(maxsize=50000)
def _search(rows: tuple, hand: tuple, up: tuple, hp: int) -> tuple[float, tuple]:
    best_plan: list = [(-1e9, ())]

    def plays(e: int, power: int, free: list, up: dict) -> list:
        out = [(_row_value(0, e, 0, 0, power, 0), (), None, 0)]
        singles = [((i,), hand[i][0], hand[i][1]) for i in free]
        pairs = [((i, j), hand[i][0] + hand[j][0], hand[i][1] + hand[j][1])
                 for x, i in enumerate(free) for j in free[x + 1:]]
        for idx, v, r in singles + pairs:
            out.append((_row_value(v, e, len(idx), 0, power, r), idx, None, 0))
        for a, n in up.items():
            for k in range(1, n + 1):
                out.append((_row_value(k, e, 0, k, power, 0), (), a, k))
                for idx, v, r in singles:
                    if v + k <= e:
                        out.append((_row_value(v + k, e, 1, k, power, r), idx, a, k))
        out.sort(key=lambda t: -t[0])
        return out[:6]

    def dfs(i: int, free: list, up: dict, total: float, chosen: list, damage: int) -> None:
        if damage >= hp:
            total -= 1000
        if i == len(rows):
            if total > best_plan[0][0]:
                best_plan[0] = (total, tuple(chosen))
            return
        e, power = rows[i]
        for value, idx, a, k in plays(e, power, free, up):
            rest = [j for j in free if j not in idx]
            left = dict(up)
            if a:
                left[a] -= k
            p = sum(hand[j][0] for j in idx) + k
            lost = power + (1 if p == 0 else 0) if p < e else 0
            chosen.append((idx, a, k))
            dfs(i + 1, rest, left, total + value, chosen, damage + lost)
            chosen.pop()

    dfs(0, list(range(len(hand))), dict(up), 0.0, [], 0)
    return best_plan[0]


def best(options: list, score) -> list:
    scored = [(score(o), i) for i, o in enumerate(options)]
    top = max(s for s, _ in scored)
    return [options[i] for s, i in scored if s == top]


class View:
    def __init__(self, engine: "Engine", key: str) -> None:
        self.engine = engine
        self.key = key

    def suggest(self, key: str, options: list) -> list:  # noqa: C901 - one branch per decision
        e, s = self.engine, self.engine.state
        if key == "play" and e.current_row is not None:
            row = e.current_row
            order = list(reversed(s.rows))                  # played from the bottom end
            i = next(i for i, r in enumerate(order) if r is row)
            if i == 0 or getattr(e, "policy_plan", None) is None:
                rows = [(sum(e.points(c) for c in r.enemy), sum(e.power(c) for c in r.enemy))
                        for r in order]
                e.policy_plan = plan(e, rows)[1]
            want = e.policy_plan[i] if i < len(e.policy_plan) else None
            if want in options:
                return [want]
            total = sum(e.points(c) for c in row.enemy)
            power = sum(e.power(c) for c in row.enemy)
            return best(options, lambda o: row_score(e, o, total, power))
        if key == "action":
            return self._action(options)
        if key == "event":
            def value(o):
                if o["event"] is None:
                    return 0
                card = next(c for c in s.revealed if repr(c) == o["event"])
                d = card.defn
                if d.id == "healing_spring":
                    return 10 if s.hp < s.hp_max - 1 else 1
                if d.id == "relic_shrine":
                    return 6
                if d.card_type == "loot":
                    return 5 if len(s.loot) < e.board.loot_limit else -1
                return 2
            return best(options, value)
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
        if key == "relic_battle_round" and e.current_row is not None:
            row = e.current_row
            p = sum(e.points(c) for c in row.player)
            total = sum(e.points(c) for c in row.enemy)
            want = [o for o in options if o["do"] == "relic" and (
                ("crossbow" in o["id"] and p == total - 1)
                or ("golden_bribe" in o["id"] and p == 0 and total > 0))]
            return want or [o for o in options if o["do"] == "done"]
        if key == "relic_pre_battle":
            return [o for o in options if o["do"] == "done"]
        return []

    def _action(self, options: list) -> list:
        e, s = self.engine, self.engine.state
        relics = []
        for o in options:
            if o["do"] != "relic":
                continue
            if "healing_flask" in o["id"] and s.hp <= s.hp_max - 2:
                relics.append(o)
            elif "trail_rations" in o["id"] and any(s.tokens[a].down for a in ATTRIBUTES):
                relics.append(o)
            elif "lucky_coin" in o["id"] and len(s.hand) < e.hand_limit():
                relics.append(o)
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
