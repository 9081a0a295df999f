"""The statistics of a balance report, in plain Python (no SciPy): exact where it is cheap.

- A paired difference of means (game length, a seat's score): base and pack games share their
  seeds, so game i of one is compared with game i of the other. Interval: a seeded percentile
  bootstrap of the mean difference; test: a paired sign-flip permutation test (exact for up to
  12 pairs, its normal approximation beyond).
- A paired difference of win rates (a seat wins in base game i and in pack game i): McNemar's
  exact test on the discordant pairs; interval by the same bootstrap.
- An entity's win-rate lift (players who used it against those who did not, within one run):
  Fisher's exact test; interval: Newcombe's hybrid score interval for a difference of two
  proportions (Wilson intervals combined).
- Multiple comparisons: Holm's step-down correction over every test of a report, so a
  difference is flagged only if it stays significant given how many were made.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from tomecraft.runtime.rng import Rng

ALPHA = 0.05
BOOTSTRAP = 1000
Z95 = 1.959963984540054


@dataclass
class Comparison:
    """One difference with its interval and test; `flagged` is set after correction."""
    name: str
    base: float
    pack: float
    diff: float
    low: float
    high: float
    p: float
    n: int
    p_adjusted: float = 1.0
    flagged: bool = False

    def as_dict(self) -> dict:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in vars(self).items()}


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def bootstrap_interval(diffs: list[float], seed: str) -> tuple[float, float]:
    """95% percentile interval of the mean of `diffs` (paired differences)."""
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0
    rng = Rng(f"bootstrap/{seed}")
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(BOOTSTRAP))
    return means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1]


def sign_flip_p(diffs: list[float]) -> float:
    """Two-sided p-value of a zero mean difference, by flipping the signs of the pairs."""
    nonzero = [d for d in diffs if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0
    observed = abs(sum(nonzero))
    if n <= 12:                             # exact: every sign pattern
        hits = sum(1 for mask in range(1 << n)
                   if abs(sum(d if mask >> i & 1 else -d for i, d in enumerate(nonzero)))
                   >= observed - 1e-12)
        return hits / (1 << n)
    # Beyond that, the normal approximation of the sign-flip distribution (its variance is
    # the sum of the squared differences): it has the resolution that a Monte Carlo p-value
    # lacks once Holm multiplies it by the number of comparisons.
    z = observed / math.sqrt(sum(d * d for d in nonzero))
    return math.erfc(z / math.sqrt(2))


def paired_means(name: str, base: list[float], pack: list[float]) -> Comparison:
    diffs = [b - a for a, b in zip(base, pack)]
    low, high = bootstrap_interval(diffs, name)
    return Comparison(name, mean(base), mean(pack), mean(diffs), low, high,
                      sign_flip_p(diffs), len(diffs))


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p of k successes in n fair coin flips."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(0, min(k, n - k) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired_rates(name: str, base: list[bool], pack: list[bool]) -> Comparison:
    """Win rates of the same seat over paired games: McNemar's exact test."""
    only_pack = sum(1 for a, b in zip(base, pack) if b and not a)
    only_base = sum(1 for a, b in zip(base, pack) if a and not b)
    diffs = [float(b) - float(a) for a, b in zip(base, pack)]
    low, high = bootstrap_interval(diffs, name)
    return Comparison(name, mean(map(float, base)), mean(map(float, pack)), mean(diffs),
                      low, high, binomial_two_sided(only_pack, only_pack + only_base), len(diffs))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided p of Fisher's exact test on [[a, b], [c, d]] (rows: used / not used)."""
    row1, row2, col1 = a + b, c + d, a + c
    n = row1 + row2
    lo, hi = max(0, col1 - row2), min(row1, col1)

    def logp(x: int) -> float:
        return _log_comb(row1, x) + _log_comb(row2, col1 - x) - _log_comb(n, col1)
    observed = logp(a)
    total = sum(math.exp(logp(x)) for x in range(lo, hi + 1) if logp(x) <= observed + 1e-9)
    return min(1.0, total)


def wilson(successes: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return centre - half, centre + half


def lift(name: str, used_won: int, used_lost: int, unused_won: int,
         unused_lost: int) -> Comparison:
    """Win rate of the players who used an entity minus that of the others (Newcombe)."""
    n1, n2 = used_won + used_lost, unused_won + unused_lost
    p1 = used_won / n1 if n1 else 0.0
    p2 = unused_won / n2 if n2 else 0.0
    l1, u1 = wilson(used_won, n1)
    l2, u2 = wilson(unused_won, n2)
    diff = p1 - p2
    low = diff - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = diff + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    p = fisher_exact(used_won, used_lost, unused_won, unused_lost) if n1 and n2 else 1.0
    return Comparison(name, p2, p1, diff, low, high, p, n1 + n2)


def holm(comparisons: list[Comparison], alpha: float = ALPHA) -> None:
    """Holm's step-down adjustment; sets p_adjusted and flagged in place."""
    ordered = sorted(comparisons, key=lambda c: (c.p, c.name))
    m = len(ordered)
    running = 0.0
    for i, comp in enumerate(ordered):
        running = max(running, min(1.0, (m - i) * comp.p))
        comp.p_adjusted = running
        comp.flagged = running < alpha


def settled(comp: Comparison, tolerance: float) -> bool:
    """Decided: significant after correction, or its interval is narrower than tolerance on
    each side of zero (a difference too small to matter)."""
    return comp.flagged or (comp.high - comp.low) / 2 <= tolerance
