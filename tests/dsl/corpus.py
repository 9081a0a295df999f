"""One derandomized draw of effects from strategies.effects, shared by the property tests that
each drew their own: the round trip (parse reads back what the printer writes), the renderer
(no identifier in the rules text) and the damaged-effect fuzz (the parser answers or raises
EffectSyntaxError). Drawing is what costs: the recursive strategy takes about 30 ms a draw and
checking an effect a few; three draws of 120, 150 and 60 were 11 CPU-s of the suite, one draw
of 150 shared is under 4. The tests carry the mark SHARED so that xdist runs them on one worker,
where the draw is made once.

The draw is as derandomized as the tests' own were (the same 150 effects every run). Hypothesis
does not shrink an effect that fails a test here: the test names the failing effect's text.
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.dsl import strategies as s

COUNT = 150
SHARED = pytest.mark.xdist_group("dsl_effect_corpus")


@lru_cache(maxsize=None)
def effects() -> tuple:
    """COUNT effects (nodes.Block), drawn once per process."""
    drawn = []

    @settings(max_examples=COUNT, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(s.effects)
    def draw(ast):
        drawn.append(ast)

    draw()
    return tuple(drawn)
