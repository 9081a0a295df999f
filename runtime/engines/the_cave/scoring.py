"""Scoring The Cave: token points and the majority bonuses of each category (L311-333)."""
from __future__ import annotations


def majority(counts: dict, points, tie_rule: str, zero_scores: bool) -> dict:
    """L311-318: most tokens 8, second 4; tied teams drop one rank (D-17 for zeros)."""
    out = {}
    for who, c in counts.items():
        above = sum(1 for v in counts.values() if v > c)
        tied = sum(1 for v in counts.values() if v == c)
        rank = above + 1 + (1 if tied > 1 else 0) if tie_rule == "drop_one_rank" else above + tied
        bonus = points[rank - 1] if rank <= len(points) else 0
        out[who] = 0 if (c == 0 and not zero_scores) else bonus
    return out


def score(engine, capped: bool = False) -> dict:
    state, rules = engine.state, engine.scoring
    tokens = engine.data.kinds["token"]
    finishers = [t for t in state.teams if t.pos == state.base or not rules.must_return_to_base]
    totals = {t.seat: 0 for t in state.teams}
    bonus: dict[int, dict] = {t.seat: {} for t in state.teams}
    for t in finishers:
        totals[t.seat] = sum(tokens[k].points * n for k, n in t.tokens.items())
    categories = sorted({tok.category for tok in tokens.values() if tok.category})
    for cat in categories:
        counts = {t.seat: sum(n for k, n in t.tokens.items() if tokens[k].category == cat)
                  for t in finishers}
        for seat, b in majority(counts, rules.majority_points, rules.tie_rule,
                                bool(rules.zero_scores_majority)).items():
            bonus[seat][cat] = b
            totals[seat] += b
    scores = [totals[t.seat] for t in state.teams]
    # the highest total among the teams back at the base wins; rule d27: ties share (L333)
    best = max((totals[t.seat] for t in finishers), default=None)
    winners = [t.seat for t in finishers if totals[t.seat] == best]
    return {"scores": scores, "winners": winners, "rounds": state.round, "capped": capped,
            "finished": [t.pos == state.base for t in state.teams], "bonus": [bonus[t.seat] for t in state.teams],
            "stats": dict(state.stats)}
