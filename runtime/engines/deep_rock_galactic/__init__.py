"""Deep Rock Galactic engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine, load_mission
from tomecraft.runtime.engines.deep_rock_galactic.game import play_game, setup
from tomecraft.runtime.engines.deep_rock_galactic.scenario import run_scenario

__all__ = ["Engine", "load_mission", "play_game", "run_scenario", "setup"]

# How `tomecraft sim` summarises this cooperative game (see runtime/sim.py): every dwarf
# scores 100 for a successful mission and 0 for a failed one.
SIM_OPTIONS = ("mission", "deep_dive", "hazard")   # tomecraft sim --mission FILE, --deep-dive, --hazard N
FINISHED_LABEL = "dwarves aboard the drop pod at the end"
SUMMARY_STATS = ("success_rate", "missions_completed", "gold_converted")   # the last two: Deep Dive
# `tomecraft balance` also plays every hazard level (runtime option "hazard", levels 1-5),
# for its success-by-hazard figure.
BALANCE_SWEEP = ("hazard", (1, 2, 3, 4, 5))
