"""Deep Rock Galactic engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines import lazy

__getattr__ = lazy(__name__, {
    "Engine": "engine", "load_mission": "engine", "play_game": "game", "setup": "game",
    "run_scenario": "scenario", "check_options": "mission_setup"})

__all__ = ["Engine", "load_mission", "play_game", "run_scenario", "setup"]

# How `tomecraft sim` summarises this cooperative game (see runtime/sim.py): every dwarf
# scores 100 for a successful mission and 0 for a failed one.
SIM_OPTIONS = ("mission", "deep_dive", "hazard")   # tomecraft sim --mission FILE, --deep-dive, --hazard N
FINISHED_LABEL = "dwarves aboard the drop pod at the end"
SCORE_LABEL = "mission score (100 a success, 0 a failure)"
COOPERATIVE = True      # every seat has the team's score: no line of seat means
SUMMARY_STATS = ("success_rate", "missions_completed", "gold_converted")   # the last two: Deep Dive
# `tomecraft balance` also plays every hazard level (runtime option "hazard", levels 1-5),
# for its success-by-hazard figure.
BALANCE_SWEEP = ("hazard", (1, 2, 3, 4, 5))
