"""One engine per game: `runtime.engines.<GameData.engine>` with play_game and run_scenario."""
