"""column_scores (runtime/engines/dm_crawl_decks/planner.py) ranks the columns with searches
over the best SCORING_KEPT plays of each row, fewer than a battle's own plan explores: at
almost every action of seeded games it picks a column the full search would pick."""
from __future__ import annotations

from tomecraft.runtime import sim
from tomecraft.runtime.engines.dm_crawl_decks import planner, policy


def _best(scores: dict) -> set:
    top = max(scores.values())
    return {c for c, v in scores.items() if v == top}


def test_the_columns_ranked_with_fewer_plays_are_those_of_the_full_search(monkeypatch):
    from tomecraft.generated.dm_crawl_decks import GAME
    scored, counts = planner.column_scores, {"same": 0, "other": 0}
    kept = planner.SCORING_KEPT

    def both(engine, battles):
        got = scored(engine, battles)
        monkeypatch.setattr(planner, "SCORING_KEPT", 6)
        full = scored(engine, battles)
        monkeypatch.setattr(planner, "SCORING_KEPT", kept)
        counts["same" if _best(got) <= _best(full) else "other"] += 1
        return got

    assert kept < 6
    monkeypatch.setattr(policy, "column_scores", both)
    sim.run(GAME, games=20, seed=1)
    assert counts["same"] > 100 and counts["other"] <= 0.05 * counts["same"], counts
