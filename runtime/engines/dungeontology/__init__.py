"""Dungeontology: The Expedition (地城学：探险队) engine: `play_game` for sims, `run_scenario`
for scenario files."""
from tomecraft.runtime.engines import lazy

__getattr__ = lazy(__name__, {
    "Engine": "engine", "new_state": "engine", "play_game": "engine",
    "run_scenario": "scenario"})

__all__ = ["Engine", "new_state", "play_game", "run_scenario"]

# How `tomecraft sim` summarises Dungeontology (see runtime/sim.py).
FINISHED_LABEL = "theses that succeeded"
SUMMARY_STATS = ("research", "research_ok", "spy", "spy_ok", "theses", "theses_ok",
                 "omegas", "max_alert_by_omega", "boss_encounters", "traps_sprung")
