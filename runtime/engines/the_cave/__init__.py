"""The Cave (洞窟) engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines import lazy

__getattr__ = lazy(__name__, {
    "Engine": "engine", "play_game": "engine", "majority": "scoring", "score": "scoring",
    "new_state": "start", "run_scenario": "scenario"})

__all__ = ["Engine", "majority", "new_state", "play_game", "run_scenario", "score"]

# How `tomecraft sim` summarises The Cave (see runtime/sim.py); the per-game action counters
# in `stats` are for tests, not for the summary.
FINISHED_LABEL = "back at base at the end"
SUMMARY_STATS = ()

# Decisions whose answer may be a free-form equipment mapping, not only one of the options
# (rules.check_answer checks it): the Python API holds other answers to the options.
FREE_ANSWERS = frozenset({"loadout", "re_equip", "camp_exchange"})
