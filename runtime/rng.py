"""The one source of randomness: a seeded generator passed around, never a global."""
from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


class Rng:
    """A seeded random stream. `fork(label)` derives an independent, reproducible stream."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(str(seed))

    def choice(self, options: Sequence[T]) -> T:
        if not options:
            raise ValueError("choice from an empty sequence")
        # random.choice draws exactly what options[randrange(len(options))] would (both are
        # _randbelow(n)), with one Python call less: every decision of every sim makes one
        return self._random.choice(options)

    def shuffle(self, items: list) -> None:
        self._random.shuffle(items)

    def randrange(self, n: int) -> int:
        return self._random.randrange(n)

    def random(self) -> float:
        return self._random.random()

    def __deepcopy__(self, memo: dict) -> "Rng":
        """A twin at the same point of the stream (a lookahead's copy of a game draws what
        the game would), copied in C: deepcopy would walk the generator's 625-word state."""
        twin = Rng.__new__(Rng)
        twin.seed = self.seed
        twin._random = random.Random.__new__(random.Random)   # not seeded from os.urandom:
        twin._random.setstate(self._random.getstate())         # its whole state is set here
        memo[id(self)] = twin
        return twin

    def fork(self, label: str) -> "Rng":
        return Rng(f"{self.seed}/{label}/{self._random.getrandbits(32)}")


_STARTS: list = []          # [(seed, the state Rng(seed) starts in)]: the last seed's only


def seeded(seed: int | str) -> Rng:
    """`Rng(seed)`, its generator set to the state that seed starts it in, remembered for the
    last seed: a player's trials of one decision each take a stream of the same seed, and
    seeding from text hashes it every time."""
    if not _STARTS or _STARTS[0][0] != seed:
        _STARTS[:] = [(seed, random.Random(str(seed)).getstate())]
    rng = Rng.__new__(Rng)
    rng.seed = seed
    rng._random = random.Random.__new__(random.Random)     # not seeded: its state is set next
    rng._random.setstate(_STARTS[0][1])
    return rng
