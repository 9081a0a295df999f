"""The Cave player's walks (runtime/engines/the_cave/policy.py `_explore`, walks.py): what it
finds without a search is what the search finds."""
from __future__ import annotations

from tomecraft.runtime import sim


def test_what_is_found_without_a_search_is_what_the_search_would_choose(monkeypatch):
    """policy._found_without_search answers an exploring step with the ordinary moves onto a
    target (or, from a tile beside none, onto a tile beside one; beside one with part of the
    AP spent, ending the turn) without the walking graph's search: at every step of two
    seeded games where it does, `_explore` with the search (the shortcut switched off)
    chooses the same. Its walk, kept with no distances, is searched when a later step
    follows it (walks.planned_moves), toward every token tile it aimed at, walkable or not:
    those steps choose what a search toward the walkable ones only (as `_explore` aims)
    chooses. Where the search is made (toward token tiles the team may not walk to, but at a
    turn's start), the moves it chooses are those toward the walkable ones, and enter no
    target, nor a tile beside one from a tile beside none (the shortcut missed none)."""
    from tomecraft.generated.the_cave import GAME
    from tomecraft.runtime.engines.the_cave import policy, walks
    from tomecraft.runtime.engines.the_cave.walking import (_Nearest, _seeds, frontier,
                                                           graph_for, toward, walkable)
    explore, found_without_search, planned_moves = policy._explore, policy._found_without_search, walks.planned_moves
    fired, checked = [], {"onto": 0, "ends": 0, "followed": 0, "searched": 0}

    def noted_onto(*args):
        found = found_without_search(*args)
        fired.append(bool(found))
        return found

    def walk_of(engine, team):
        return policy.policy_cache(engine).get("walks", {}).get(team.seat)

    def checked_explore(*args):
        fired.clear()
        before = walk_of(args[0], args[1])
        found = explore(*args)
        if fired and fired[-1]:
            monkeypatch.setattr(policy, "_found_without_search", lambda *_: [])
            searched = explore(*args)
            monkeypatch.setattr(policy, "_found_without_search", noted_onto)
            assert found == searched
            assert explore(*args) == found      # (its walk kept again, with no distances)
            checked["ends" if found[0]["do"] == "end" else "onto"] += 1
        elif fired and walk_of(args[0], args[1]) is not before:
            engine, team, aimed = args[0], args[1], walk_of(args[0], args[1])[1]
            entered = [tuple(o["to"]) for o in found]   # (a walk searched: none of its first
            assert not any(p in aimed for p in entered)     # moves enters a target, nor,
            assert policy._beside(engine, team.pos, aimed) or not any(  # from a tile beside
                policy._beside(engine, p, aimed) for p in entered)      # none, a tile beside one)
            graph = graph_for(engine, team)
            assert found == toward(_walkable_only(graph, engine, team, aimed), team.pos, args[2])
            checked["searched"] += 1
        return found

    def checked_planned(engine, team, moves, desperate, end):
        walk = walk_of(engine, team)
        lazy = walk is not None and walk[2] is None
        found = planned_moves(engine, team, moves, desperate, end)
        if lazy and walk[2] is not None:        # (searched just now)
            searched = _walkable_only(graph_for(engine, team), engine, team, walk[1])
            assert found == toward(searched, team.pos, moves)
            checked["followed"] += 1
        return found

    def _walkable_only(graph, engine, team, aimed):
        """Distances toward the tiles of `aimed` with an unexplored exit or tokens the team
        can walk to, searched afresh."""
        reach = graph.reach(team.pos)
        aimed = [p for p in aimed if p in frontier(engine) or walkable(engine, reach, p)]
        graph.toward(engine, frozenset(aimed))          # (the reversed links made)
        return _Nearest(_seeds(engine, aimed), graph.into)

    monkeypatch.setattr(policy, "_found_without_search", noted_onto)
    monkeypatch.setattr(policy, "_explore", checked_explore)
    monkeypatch.setattr(policy, "planned_moves", checked_planned)
    sim.run(GAME, players=3, games=2, seed=1)
    assert checked["onto"] > 20 and checked["ends"] > 5 and checked["followed"] > 10 and checked["searched"] > 20, checked
