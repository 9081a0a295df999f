"""`play_game` for `tomecraft sim`: one mission, or a Deep Dive. Setting up is in
mission_setup.py, the turns and phases in turns.py (their names are kept here for callers)."""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic.deep_dive import play_deep_dive
from tomecraft.runtime.engines.deep_rock_galactic.engine import load_mission
from tomecraft.runtime.engines.deep_rock_galactic.mission_setup import hazard_setup, rock_and_stone_deck, setup
from tomecraft.runtime.engines.deep_rock_galactic.turns import (action_phase_over, check_end, event_phase,
                       objectives_done, play_mission, start_turn, take_turn)
from tomecraft.runtime.engines.deep_rock_galactic.events import reaction_attacks

__all__ = ["play_game", "setup", "hazard_setup", "rock_and_stone_deck", "action_phase_over", "check_end", "event_phase",
           "objectives_done", "play_mission", "reaction_attacks", "start_turn", "take_turn"]


def play_game(data, players: int, rng, agents, options: dict | None = None) -> dict:
    options = {} if options is None else options
    if options.get("deep_dive"):
        return play_deep_dive(data, players, rng, agents, options)
    if isinstance(options.get("mission"), str):
        # a mission file is read once: the loaded mission replaces its path in the run's
        # options, so the next games of the same `sim.run` reuse it
        options["mission"] = load_mission(data, options)
    options = dict(options)
    missions = sorted(m.id for m in data.of("mission"))
    if not options.get("mission") and not options.get("mission_id") and len(missions) > 1:
        # no mission asked for: each game plays one of the content's (a pack's too), drawn
        # from the game's own stream (the base game, with one mission, draws nothing)
        options["mission_id"] = rng.choice(missions)
    engine = setup(data, players, rng, agents, options)
    play_mission(engine)
    st = engine.state
    success = st.result == "success"
    return {"scores": [100 if success else 0] * players, "rounds": st.round,
            "capped": st.result is None, "finished": [d.in_pod for d in st.dwarves],
            "end": st.result or "round cap", "stats": {"success_rate": success},
            "roles": [d.cls for d in st.dwarves],            # each seat's class (balance reports)
            "success": success, "result": st.result, "killed": dict(st.killed),
            "spawned": dict(engine.spawned), "activated": dict(engine.activated)}
