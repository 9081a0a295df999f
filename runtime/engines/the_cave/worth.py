"""What a team of The Cave is worth to the simulated player (policy.py): its tokens
(`value`), its supplies for the rest of its trip (`logistics`) and its equipment's uses
(`kit`), each read the same way before and after an option is tried out."""
from __future__ import annotations

from tomecraft.runtime.engines.the_cave.state import BACKPACK_SLOTS, PACKED_CAMP_SLOTS, UPKEEP

MARGIN = 2          # turns of consumables a team wants beyond its way home (heuristic)
CAMP_WORTH = 0.5    # a camp that can still serve, in turns of consumables (heuristic)
ROOM_WORTH = 0.1    # a backpack slot to fill at the base, likewise (heuristic)


def value(engine, team) -> float:
    """What a team's tokens are worth: their points, plus a share of a majority bonus for
    each token of a scoring category."""
    worth = engine.__dict__.get("token_worth") or _token_worth(engine)
    total = 0.0
    for key, n in team.tokens.items():
        if key in worth:
            total += n * worth[key]
    return total


def _token_worth(engine) -> dict:
    """What one token of each kind is worth to `value`, worked out once per game (a trial
    copy of the engine shares it)."""
    worth = engine.__dict__.get("token_worth")
    if worth is None:
        worth = engine.token_worth = {
            key: (token.points or 0) + (0.5 if token.category else 0)
            for key, token in engine.data.kinds["token"].items()}
    return worth


def _short(need: int, have: float) -> float:
    return max(0.0, need - have)


def logistics(engine, team, dist: int | None = None) -> float:
    """What a team's supplies are worth for the rest of its trip (game-specific knowledge that
    shapes the evaluation, whatever option brings the change): consumables short of the way
    home plus MARGIN turns, counted once for the backpack and once more for what the team's
    own camp holds where it stands away from the base (an exchange there costs nothing,
    L261-262; at the base the bank serves); a camp that
    can still serve (packed, or set away from the base with consumables in it, until the end
    is triggered) is worth CAMP_WORTH; at the base, the backpack's room a re-equip can fill
    (a packed camp takes 2 of the 8 slots, L250-251) is worth ROOM_WORTH a slot."""
    items, state = engine.items, engine.state
    if dist is None:
        dist = engine.base_distance().get(team.pos, 0)
    need = (dist + 3) // 4 + MARGIN
    carried = items.uses_left(team.backpack, UPKEEP)
    here = 0
    if team.camp == "set" and team.camp_pos == team.pos != state.base:
        here = items.uses_left(team.camp_items, UPKEEP)
    total = -_short(need, carried) - _short(need, carried + here)
    if not state.end_triggered:
        if team.camp == "packed" or (team.camp == "set" and team.camp_pos != state.base
                                     and items.uses_left(team.camp_items, UPKEEP) > 0):
            total += CAMP_WORTH
    if team.pos == state.base:
        total += ROOM_WORTH * (BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if team.camp == "packed" else 0))
    return total


def kit(engine, team) -> int:
    """The uses left in a team's backpack, all items together."""
    return sum(engine.items.uses_left(team.backpack, term) for term in engine.items.order)
