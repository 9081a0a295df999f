"""A simple heuristic for random agents: play every card, grab treasure, head home with it.

It only narrows the legal options (`suggest`); the random agent picks among what is left.
Every option the engine offers is a candidate, whatever content added it: cards are played,
rooms' and tokens' actions taken, market items weighed by their points, devices and cards by
their cost; no card, item or token is known by name.
"""
from __future__ import annotations

from collections import deque

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.clank_catacombs.state import OPPOSITE, step
from tomecraft.runtime.lookahead import FirstOption, copy_game
from tomecraft.runtime.usage import quiet


def _trial(engine):
    trial = copy_game(engine)
    trial.agents = [FirstOption()] * len(trial.agents)
    return trial


def _resources(p) -> float:
    """What a turn's resources are worth: skill, combat, movement, gold; Clank! and damage
    cost."""
    return (p.skill + p.combat + p.movement + 0.5 * p.gold - p.clank_gained - len(p.track)
            + 0.5 * p.lockpicks)


def card_worth(engine, p, card_id: str) -> float:
    """A card's points and cost, plus what playing it gives (tried on a copy of the game);
    cached per game and card, since a card's play gives much the same each time."""
    cache = engine.__dict__.setdefault("policy_worth", {})
    if card_id not in cache:
        card = engine.cards[card_id]
        trial = _trial(engine)
        me = trial.state.players[p.seat]
        me.hand.append(card_id)
        before = _resources(me)
        with quiet():
            try:
                trial.apply(me, {"do": "play", "card": card_id})
                played = _resources(me) - before
            except (EffectError, LookupError, ValueError):
                played = 0.0
        cache[card_id] = played + (card.points or 0) + 0.1 * (card.cost or 0)
    return cache[card_id]


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
            cards = [o for o in options if isinstance(o, str) and o in self.engine.cards]
            if len(cards) < len(options):
                return options[:1]
            worth = {o: card_worth(self.engine, self.player, o) for o in cards}
            low = min(worth.values())
            return [o for o in cards if worth[o] == low]
        if key != "action":
            return []
        p, engine = self.player, self.engine
        by = {}
        for o in options:
            by.setdefault(o["do"], []).append(o)
        for do in ("play", "take_treasure", "room", "token"):
            if do in by:
                return by[do]
        if by.get("buy"):        # what the engine offers is buyable (require_to_buy is checked)
            return _best_buys(engine, by["buy"])
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
                if _can_afford_market(engine, p):
                    goals += [c.pos for c in engine.state.cells.values()
                              if c.room.room_type == "market"]
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


def _best_buys(engine, buys: list) -> list:
    """The market items worth the most points (then the cheapest), whatever items there are;
    a coupon is used when there is one."""
    def worth(o):
        item = engine.items[o["item"]]
        points = max(item.points or [0])
        return (points, o.get("coupon", False), -(item.price or 0))
    top = max(worth(o) for o in buys)
    return [o for o in buys if worth(o) == top]


def _can_afford_market(engine, p) -> bool:
    """Gold enough for the cheapest item still in the market (a market is then a goal)."""
    prices = [engine.items[i].price or 0 for i, n in engine.state.market.items() if n]
    return bool(prices) and p.gold >= min(prices)


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
