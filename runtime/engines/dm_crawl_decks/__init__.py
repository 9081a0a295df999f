"""Dungeon Master Crawl Decks engine: `play_game` for sims, `run_scenario` for scenario files."""
from tomecraft.runtime.engines.dm_crawl_decks.engine import (Engine, new_engine, play_game, result, setup,
                                                   summarise)
from tomecraft.runtime.engines.dm_crawl_decks.scenario import run_scenario

__all__ = ["Engine", "new_engine", "play_game", "result", "run_scenario", "setup", "summarise"]

# How `tomecraft sim` summarises this solo game (see runtime/sim.py): the score is the
# number of misses (lower is better) and a "round" is a floor reached.
FINISHED_LABEL = "won"
