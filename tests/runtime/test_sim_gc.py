"""sim.run plays its games with what was loaded before them frozen (set aside from the
collector) and a first generation that waits for 10,000 new objects, and gives both back afterwards."""
from __future__ import annotations

import gc

from tomecraft.generated.dm_crawl_decks import GAME
from tomecraft.runtime import sim


def test_games_run_with_the_loaded_objects_frozen_and_the_collector_restored(monkeypatch):
    seen = []
    play_one = sim.play_one

    def spy(*args, **kwargs):
        seen.append((gc.get_freeze_count(), gc.get_threshold()))
        return play_one(*args, **kwargs)

    monkeypatch.setattr(sim, "play_one", spy)
    kept = gc.get_threshold()
    gc.set_threshold(700, 10, 10)              # Python's default (the suite raises it)
    gc.freeze()                                # (as the suite does: it must stay frozen)
    try:
        before = (gc.get_freeze_count(), gc.get_threshold())
        sim.run(GAME, games=2, seed=1)
        after = (gc.get_freeze_count(), gc.get_threshold())
    finally:
        gc.set_threshold(*kept)
    assert len(seen) == 2
    assert all(frozen > before[0] for frozen, _ in seen)      # the content is set aside
    assert all(threshold[0] > before[1][0] for _, threshold in seen)
    # the threshold is given back, and what was frozen before stays frozen (the suite's)
    assert after[1] == before[1] and after[0] >= before[0]
