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


def seeded(seed: int | str) -> Rng:
    """`Rng(seed)`: a player's trial takes a stream of its own seeded by the game's seed and
    clock. Seeded from the text each time (7 us): remembering the start state of the last
    seed cost more, reading it out (getstate, 15 us) at each new seed and setting it (7 us)
    at each trial, where half the seeds serve one trial only."""
    return Rng(seed)
