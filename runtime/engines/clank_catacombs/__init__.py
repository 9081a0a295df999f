"""Clank! Catacombs (噤声寻宝记：地下墓穴) engine: `play_game` for sims, `run_scenario` for scenarios."""
from tomecraft.runtime.engines import lazy

__getattr__ = lazy(__name__, {
    "Engine": "engine", "new_state": "engine", "play_game": "engine", "score": "engine",
    "run_scenario": "scenario", "PLAYER_COUNTS": "state"})

__all__ = ["Engine", "new_state", "play_game", "run_scenario", "score"]

# How `tomecraft sim` summarises Clank! Catacombs (see runtime/sim.py).
FINISHED_LABEL = "escaped the catacombs"
