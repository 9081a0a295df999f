"""A simple heuristic for random agents: play every card, grab treasure, head home with it.

It only narrows the legal options (`suggest`); the random agent picks among what is left
(seeded, so ties break the same way every run). Every option the engine offers is a
candidate, whatever content added it: cards are played, rooms' and tokens' actions taken,
market purchases weighed by a one-step lookahead (each buy is tried on a copy of the game and
the player's standing, `standing`, compared before and after), monsters by what defeating
them gives, tried the same way, so that the turn's combat goes to the fights worth most
(`best_defeats`), devices and cards by their cost; no card, room, item or token is known by
name.
"""
from __future__ import annotations

from collections import deque

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.usage import quiet


def _trial(engine):
    return engine.trial()


def _resources(p) -> float:
    """What a turn's resources are worth: skill, combat, movement, gold; Clank! and damage
    cost."""
    return (p.skill + p.combat + p.movement + 0.5 * p.gold - p.clank_gained - len(p.track)
            + 0.5 * p.lockpicks)


def standing(engine, p) -> float:
    """Clank!'s evaluation of where a player stands (source: approximation, the weights are
    the sim's): the points they would score now (market items, gold, tokens' and treasures'
    points); a turn's skill, combat and movement, lockpicks at half; damage, each costing
    more the fuller the health track (knocked out in the depths, a player scores nothing);
    their cubes in the Clank! area (less any banked), each a likely damage when the dragon
    attacks: what the next damage would cost, and a quarter more; and 2.5 per treasure they
    may carry beyond the rule's limit."""
    defs = engine.token_defs
    points = sum(pts for _, pts in p.market) + engine.gold_available(p)
    points += sum((defs[t].points or 0) * n for t, n in p.tokens.items()
                  if n > 0 and not defs[t].value)
    points += sum(defs[t].points or 0 for t in p.treasures)
    damage = len(p.track)
    hurt = sum(1 + i / 2 for i in range(damage))
    noise = (engine.state.clank_area[p.seat] - p.neg_bank) * (1.25 + damage / 2)
    room = engine.treasure_limit(p) - engine.rule_treasure_limit
    return (points + p.skill + p.combat + p.movement + 0.5 * p.lockpicks - hurt - noise
            + 2.5 * room)


def gain(engine, p, option: dict, at=None) -> float:
    """What taking `option` changes in the player's standing, tried on a copy of the game
    (with the player moved to `at` first, if given)."""
    trial = _trial(engine)
    me = trial.state.players[p.seat]
    if at is not None:
        me.pos = at
    before = standing(trial, me)
    with quiet():
        try:
            trial.apply(me, option)
        except (EffectError, LookupError, ValueError):
            return float("-inf")
    return standing(trial, me) - before


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


def goal_distances(engine, goals: list) -> dict:
    """Tunnel steps from every room to the nearest of `goals` (positions), ignoring icons
    (read only: cached per game by the goals while the map keeps its size)."""
    key = (tuple(goals), len(engine.state.cells))
    cache = engine.__dict__.setdefault("policy_goals", {})
    if key not in cache:
        cache[key] = _distances(engine, goals)
    return cache[key]


def _distances(engine, starts) -> dict:
    """Tunnel steps from the nearest of `starts` to every room (one breadth-first search
    from all of them: each room's least distance to any; tunnels run both ways), through
    the tunnels the engine remembers per room (Board.tunnels_from)."""
    cells = engine.state.cells
    dist = dict.fromkeys(starts, 0)
    queue = deque(dist)
    while queue:
        pos = queue.popleft()
        for tunnel in engine.tunnels_from(cells[pos]):
            if tunnel.opens and tunnel.dst.pos not in dist:
                dist[tunnel.dst.pos] = dist[pos] + 1
                queue.append(tunnel.dst.pos)
    return dist


# The simulated player plays every card in its hand before anything else (`suggest` returns
# the plays whenever there is one). The engine relies on it (Engine.action_options: a random
# agent holding cards is asked among its plays alone); turning this off turns off both.
PLAYS_FIRST = True


class View:
    __slots__ = ("engine", "player")

    def __init__(self, engine, player) -> None:
        self.engine = engine
        self.player = player

    def suggest(self, key: str, options: list) -> list:
        if key == "action":              # most decisions (no other test below takes it)
            return self._suggest_action(options)
        if key.endswith(":choose1") or "choose" in key:
            return options[:1]
        if key == "trash" or ":target" in key:
            cards = [o for o in options if isinstance(o, str) and o in self.engine.cards]
            if len(cards) < len(options):
                return options[:1]
            worth = {o: card_worth(self.engine, self.player, o) for o in cards}
            low = min(worth.values())
            return [o for o in cards if worth[o] == low]
        return []

    def _suggest_action(self, options: list) -> list:
        if PLAYS_FIRST and options and options[0]["do"] == "play":   # plays come first
            if options[-1]["do"] == "play":                          # (nothing but plays)
                return list(options)
            return [o for o in options if o["do"] == "play"]
        p, engine = self.player, self.engine
        by = {}
        for o in options:
            by.setdefault(o["do"], []).append(o)
        for do in ("play", "take_treasure", "room", "token"):
            if do in by:
                return by[do]
        if by.get("buy"):        # what the engine offers is buyable (require_to_buy is checked)
            best = _best_buys(engine, p, by["buy"])
            if best:
                return best
        if "defeat" in by:       # the monsters whose rewards make the best use of the combat
            best = best_defeats(engine, p, by["defeat"])
            if best:
                return best
        if "acquire" in by or "use" in by:
            cards = by.get("acquire", []) + by.get("use", [])
            costs = [engine.cards[o["card"]].cost for o in cards]
            best = max(costs)
            return [o for o, cost in zip(cards, costs) if cost == best]
        moves = by.get("move", []) + by.get("explore", [])
        if moves:
            shopping = engine.markets() if _market_gain(engine, p) else []
            if p.treasures:
                goals = engine.exits_home() + shopping
            else:
                goals = [c.pos for c in engine.state.cells.values() if c.treasures] + shopping
            better = _closer(by.get("move", []), goal_distances(engine, goals), p.pos)
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


def defeat_reward(engine, p, option: dict) -> float:
    """What defeating a monster gives the player, in their standing (`gain`: what its
    `on_defeat` does, tried on a copy of the game), the combat it costs aside: a turn's
    combat left at its end is lost (L524), so what the combat buys is the reward alone."""
    card = engine.cards[option["card"]]
    reward = gain(engine, p, option) + (card.defeat_cost or 0)
    if card.card_type != "reserve":     # a row card gone: one more card arrives (row_risk)
        reward -= row_risk(engine, p, card)
    return reward


def row_risk(engine, p, card) -> float:
    """What taking a card out of the dungeon row costs the player beyond its price: the
    card refilling its place may bring a dragon attack (engine.refill: a card with
    `dragon_attack`, as often as the deck holds them), whose cubes (the rage track's, one
    more per `danger` card in the row) are the player's in their share of the bag and the
    Clank! area, each a damage costing what `standing`'s next damage costs; a `danger`
    card gone takes one cube off each attack while it would have stayed. The weights are
    the sim's (source: approximation, measured over 1000 seeded games at 2 and 4 players):
    the refill's attack counts twice (it also brings the bag nearer its end), a danger
    card's cube for three attacks."""
    st = engine.state
    deck = st.dungeon_deck
    if not deck:
        return 0.0
    often = sum(1 for c in deck if engine.cards[c].dragon_attack) / len(deck)
    cubes = sum(st.bag.values()) + sum(st.clank_area.values())
    if not cubes:
        return 0.0
    mine = st.bag[p.seat] + st.clank_area[p.seat]
    per_cube = mine / cubes * (1 + len(p.track) / 2)
    danger = sum(1 for c in st.row if engine.cards[c].danger)
    drawn = engine.track[st.rage] + danger - (1 if card.danger else 0)
    return 2 * often * drawn * per_cube - (3 * per_cube if card.danger else 0.0)


def best_defeats(engine, p, defeats: list) -> list:
    """The defeats that begin a best use of the player's combat: of the monsters whose
    reward (`defeat_reward`) is worth something, the set that the combat can pay whose
    rewards add up to the most (a small knapsack: a row monster as many times as it lies
    in the row, a reserve's as its pile allows, one never discarded as often as the combat
    pays); none if no monster is worth its combat. So 5 combat goes to a monster giving 5
    before a cheap one giving 1 for 2 that would leave too little for it."""
    st, combat, items = engine.state, p.combat, []
    for o in defeats:
        card = engine.cards[o["card"]]
        cost = card.defeat_cost or 0
        if cost <= 0 and card.never_discarded:      # free and never gone: no plan ends
            continue
        reward = defeat_reward(engine, p, o)
        if reward <= 0:
            continue
        if card.card_type == "reserve":
            copies = st.reserve[card.id]
            if card.never_discarded:
                copies = combat // cost
        else:
            copies = st.row.count(card.id)
        items += [(cost, reward, card.id)] * (min(copies, combat // cost) if cost else copies)
    if not items:
        return []
    best = _knapsack(items, combat)
    out = []
    for o in defeats:
        for k, (cost, reward, cid) in enumerate(items):
            if cid == o["card"]:
                rest = items[:k] + items[k + 1:]
                if abs(reward + _knapsack(rest, combat - cost) - best) < 1e-9:
                    out.append(o)
                break
    return out


def _knapsack(items: list, capacity: int) -> float:
    """The most the rewards of `items` (cost, reward, _) can add up to within `capacity`."""
    table = [0.0] * (capacity + 1)
    for cost, reward, _ in items:
        for c in range(capacity, cost - 1, -1):
            table[c] = max(table[c], table[c - cost] + reward)
    return table[capacity]


def _best_buys(engine, p, buys: list) -> list:
    """The purchases that raise the player's standing most (`buy_gain`), whatever items there
    are; none if no purchase raises it. Of equal purchases, those with the most left in the
    market (two items alike are then bought in turn); the agent's seed picks among the rest."""
    gains = {i: buy_gain(engine, p, o) for i, o in enumerate(buys)}
    top = max(gains.values())
    if top <= 0:
        return []
    best = [buys[i] for i, g in gains.items() if g == top]
    most = max(len(engine.state.market[o["item"]]) for o in best)   # ties: the larger stock,
    return [o for o in best if len(engine.state.market[o["item"]]) == most]   # then the seed


def buy_gain(engine, p, option: dict, at=None) -> float:
    """What a purchase changes in the player's standing (`gain`: the points for the gold
    spent, what `on_buy` gives, a coupon's saving), tried on a copy of the game; cached per
    game by item, coupon, the item's stock and the player's damage, since a purchase gives
    much the same each time (what healing is worth depends on the damage). An item with
    nothing to run (no `on_buy`), bought without a coupon, is weighed from its numbers, as
    the trial would: its points and extra treasure, less its price."""
    item = engine.items[option["item"]]
    left = engine.state.market.get(item.id) or [0]
    if item.on_buy is None and not option.get("coupon"):
        return left[0] + 2.5 * (item.treasure_limit or 0) - (item.price or 0)
    key = (item.id, bool(option.get("coupon")), len(left), len(p.track))
    cache = engine.__dict__.setdefault("policy_buys", {})
    if key not in cache:
        cache[key] = gain(engine, p, option, at)
    return cache[key]


def _market_gain(engine, p) -> bool:
    """Whether a purchase the player could make at a market now would raise their standing
    (a market is then a goal): what a market would offer them (`buy_options`), weighed by
    `buy_gain`. Cached per player while their gold, damage, kinds of tokens, purchases and
    the market's stock are unchanged."""
    st = engine.state
    cheapest = engine.__dict__.get("policy_cheapest")
    if cheapest is None:
        cheapest = engine.__dict__["policy_cheapest"] = min(
            [i.price or 0 for i in engine.items.values()] or [0])
    gold = engine.gold_available(p)
    if gold + engine.discount(p) < cheapest or not any(st.market.values()):
        return False
    key = (p.seat, gold, len(p.track), len(p.market), sum(map(len, st.market.values())),
           tuple(sorted(t for t, n in p.tokens.items() if n > 0)))
    cache = engine.__dict__.setdefault("policy_market", {})
    if key not in cache:
        markets = engine.markets()
        cache[key] = bool(markets) and any(
            buy_gain(engine, p, o, at=markets[0]) > 0
            for o in engine.buy_options(p, st.cells[markets[0]]))
    return cache[key]


def _closer(moves: list, goal: dict, here) -> list:
    now = goal.get(here, 99)
    return [o for o in moves if goal.get(tuple(o["to"]), 99) < now]


def frontier_distances(engine) -> dict:
    """Tunnel steps from every room to the nearest room with an unexplored tunnel (read
    only: cached per game while the map keeps its size)."""
    cells = engine.state.cells
    if not engine.state.tile_stack:
        return {}
    cache = engine.__dict__.setdefault("policy_frontier", {})
    if len(cells) not in cache:
        frontier = [pos for pos, cell in cells.items()
                    if any(t.dst is None for t in engine.tunnels_from(cell))]
        cache[len(cells)] = _distances(engine, frontier)
    return cache[len(cells)]
