"""The one random stream: its draws are part of every seeded game, so they must not drift."""
from __future__ import annotations

import random

import pytest

from tomecraft.runtime.rng import Rng


def test_a_choice_draws_what_randrange_of_the_length_would():
    """Rng.choice uses random.choice; seeded games recorded before drew options[randrange(n)]."""
    rng, reference = Rng("seed"), random.Random("seed")
    for n in list(range(1, 60)) * 200:
        options = list(range(n))
        assert rng.choice(options) == options[reference.randrange(n)]


def test_a_choice_from_nothing_is_a_value_error():
    with pytest.raises(ValueError):
        Rng(1).choice([])


def test_forks_are_reproducible_and_independent():
    a, b = Rng(7), Rng(7)
    assert [a.fork("x").randrange(1000) for _ in range(5)] == \
        [b.fork("x").randrange(1000) for _ in range(5)]
    assert Rng(7).fork("x").random() != Rng(7).fork("y").random()


def test_a_deep_copy_draws_what_the_original_draws_next():
    """A trial's copy of the game continues the game's stream: the generator's whole state,
    including a pending Gaussian half-pair, is set on the twin (it is never reseeded)."""
    import copy
    original = Rng("copy me")
    original.shuffle(list(range(50)))
    original._random.gauss(0, 1)            # leaves the second value of the pair pending
    twin = copy.deepcopy(original)
    assert twin is not original and twin._random is not original._random
    assert twin._random.gauss(0, 1) == original._random.gauss(0, 1)
    assert [twin.randrange(1000) for _ in range(100)] == [original.randrange(1000) for _ in range(100)]
    assert twin.fork("a").random() == original.fork("a").random()
