"""The Cave (洞窟) engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines.the_cave.engine import Engine, play_game
from tomecraft.runtime.engines.the_cave.scoring import majority, score
from tomecraft.runtime.engines.the_cave.start import new_state
from tomecraft.runtime.engines.the_cave.scenario import run_scenario

__all__ = ["Engine", "majority", "new_state", "play_game", "run_scenario", "score"]

# How `tomecraft sim` summarises The Cave (see runtime/sim.py); the per-game action counters
# in `stats` are for tests, not for the summary.
FINISHED_LABEL = "back at base at the end"
SUMMARY_STATS = ()
