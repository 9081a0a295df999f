"""A walk of The Cave's simulated player kept over several steps (policy._explore): the
targets it heads for and the distances toward them are worked out once and followed while
nothing they were worked out from has changed, rather than again at every step."""
from __future__ import annotations

from tomecraft.runtime.engines.the_cave.state import TURN_AP
from tomecraft.runtime.engines.the_cave.walking import (frontier, graph_for, policy_cache, toward,
                                                      walking_key)


def _walk_key(engine, team) -> tuple:
    """What a walk planned by policy._explore read that may change while the team walks it: the
    grid, the ropes and the backpack as far as the walking checks ask about it."""
    state = engine.state
    return (len(state.cells), len(state.ropes), walking_key(engine, team))


def planned_moves(engine, team, moves: list, desperate: list, end: list) -> list:
    """The moves that go on with the walk policy._explore planned at an earlier step, while
    nothing it read has changed (`_walk_key`), every target is still one (an unexplored
    exit, tokens) and the team has not reached one: the targets and the steps toward them
    are not worked out again at every step. (The tokens the team could walk to from where
    it planned are still taken for those it can walk to now; a token tile's worth is not
    asked again while its tokens are there (heuristic).) At the start of a turn a 5-AP move
    onto a target is weighed afresh. With no move left to make this turn: `end` (what
    policy._explore's search would come to)."""
    if not moves and team.ap < TURN_AP:
        return end
    plan = policy_cache(engine).get("walks", {}).get(team.seat)
    if plan is None or not moves:
        return []
    key, targets, dist = plan
    if team.pos in targets or key != _walk_key(engine, team):
        return []
    if team.ap == TURN_AP and any(tuple(o["to"]) in targets for o in desperate):
        return []
    cells, front = engine.state.cells, frontier(engine)
    if not all(p in front or cells[p].tokens for p in targets):
        return []
    if dist is None:        # (not searched when the walk was planned: policy._onto_target)
        dist = graph_for(engine, team).toward(engine, targets)
        plan[2:] = [dist]
    return toward(dist, team.pos, moves)


def keep_walk(engine, team, targets: frozenset, dist) -> None:
    """Remember the walk policy._explore chose: toward `targets`, by the distances `dist`
    (None: searched when first asked, over the same walking graph, as nothing it reads has
    changed by then)."""
    policy_cache(engine).setdefault("walks", {})[team.seat] = [
        _walk_key(engine, team), targets, dist]
