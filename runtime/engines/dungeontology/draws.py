"""The game's random draws with random.Random's own Python steps inlined: the same draws,
in the same order, from the same stream (an Rng's `_random`).

Random.shuffle calls its `_randbelow` once an item, and Rng.choice goes through
Random.choice and `_randbelow`: three Python calls for one draw. A game shuffles its decks
at setup and at every reshuffle, and a random agent draws at most decisions, so the calls
cost more than the draws. Where this Python's Random draws otherwise (its `_randbelow` is
not the getrandbits one), or the stream is not an Rng's, the stream's own methods."""
from __future__ import annotations

import random

from tomecraft.runtime.rng import seeded

_RANDBELOW_INLINED = random.Random._randbelow is random.Random._randbelow_with_getrandbits


def _bits(rng):
    """The stream's getrandbits where the inlined draws are its draws, else None."""
    stream = getattr(rng, "_random", None)
    return stream.getrandbits if _RANDBELOW_INLINED and type(stream) is random.Random else None


def shuffle(rng, items: list) -> None:
    """`rng.shuffle(items)`: the same order, the same draws."""
    getrandbits = _bits(rng)
    if getrandbits is None:
        rng.shuffle(items)
        return
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def choice(rng, options):
    """`rng.choice(options)` (options not empty): the same pick, the same draws."""
    getrandbits = _bits(rng)
    if getrandbits is None or not options:
        return rng.choice(options)
    n = len(options)
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return options[r]


class Unstarted:
    """A player's trial's own random stream (trials.skill_gain) before its first use: its
    first use -- any of its attributes (a draw, its seed) -- or the first read of the scheme
    deck (`start_drawing`) seeds it and first shuffles the deck with it, as the trial did at
    its start. A trial that draws nothing and reads no deck (most: a skill that moves blocks
    or stun) seeds no stream and shuffles nothing: neither is seen outside the trial (it puts
    the deck and the stream back), so the trial and the game are the same."""
    __slots__ = ("_engine", "_seed")

    def __init__(self, engine, seed: str) -> None:
        self._engine = engine
        self._seed = seed

    def start(self):
        """The stream, seeded, the engine's from now on; the deck shuffled with it first."""
        engine = self._engine
        rng = engine.rng = seeded(self._seed)
        shuffle(rng, engine.state.deck)
        return rng

    def __getattr__(self, name: str):
        return getattr(self.start(), name)


def start_drawing(engine) -> None:
    """Before the scheme deck is read: a trial's stream not yet used starts (`Unstarted`)."""
    if type(engine.rng) is Unstarted:
        engine.rng.start()
