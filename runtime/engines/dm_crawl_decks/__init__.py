"""Dungeon Master Crawl Decks engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines import lazy

__getattr__ = lazy(__name__, {
    "Engine": "engine", "new_engine": "engine", "play_game": "engine", "result": "engine",
    "setup": "engine", "summarise": "engine", "run_scenario": "scenario"})

__all__ = ["Engine", "new_engine", "play_game", "result", "run_scenario", "setup", "summarise"]

# How `tomecraft sim` summarises this solo game (see runtime/sim.py): the score is the
# number of misses (lower is better) and a "round" is a floor reached.
FINISHED_LABEL = "won"
SCORE_LABEL = "misses (the score: fewer is better)"     # rulebook L99, L167
ROUNDS_LABEL = "mean floors reached"
HISTOGRAM_LABEL = "misses of the games won"
SUMMARY_STATS = ("mean_turns",)     # win rate, misses and floors are the lines above
