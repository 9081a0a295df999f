"""The simulated player weighs an action skill by what it does: each skill is tried out on the
game and undone (trials.Trial), and taken where its effect is worth more than its costs in the
player's standing. Before, the action's suggestion never built skills where research was
offered, so sermon, arcane_research and confession were offered about 50 times each in 20
games and never chosen (thirteenth session)."""
from __future__ import annotations

from collections import Counter

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime import sim
from tomecraft.runtime.engines.dungeontology import policy, trials


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


def _action_skills(data) -> set:
    return {k.id for sc in data.kinds["scholar"].values() for side in sc.sides
            for k in side.skills if k.timing == "action"}


def test_every_action_skill_is_chosen_in_a_seeded_sim(data):
    chosen = Counter()
    for g in range(60):
        result = sim.play_one(data, 3, 1, g)
        chosen.update({k[len("skill_"):]: v for k, v in result["stats"].items() if k.startswith("skill_")})
    skills = _action_skills(data)
    assert len(skills) == 8, skills
    assert not {s for s in skills if chosen[s] == 0}, chosen


def _fingerprint(e) -> str:
    st = e.state
    parts = [sorted((k, repr(v)) for k, v in vars(st).items() if k not in ("scholars", "tiles")),
             [sorted((k, repr(v)) for k, v in vars(s).items()) for s in st.scholars],
             [(pos, repr(vars(t))) for pos, t in sorted(st.tiles.items())],
             [repr(getattr(e, name)) for name in trials.ENGINE_STATE],
             e.progress, e.rng._random.getstate(), e.agents, e.log_enabled, e.attempt]
    return repr(parts)


def test_a_trial_leaves_the_game_as_it_was(data, monkeypatch):
    """Every trial of a few games: the state, the scholars, the regions, the engine's own
    state, its random stream and agents are as they were; the gains are numbers."""
    checked = []
    weigh = policy.View.skills_worth

    def checking(view, options):
        e = view._engine
        skills = [o for o in options if o["do"] == "skill"]
        if skills:
            before = _fingerprint(e)
            w = trials.Weights(e, view._me)
            gains = [trials.skill_gain(e, view._me, o, w) for o in skills]
            assert _fingerprint(e) == before
            assert all(g is None or isinstance(g, float) for g in gains), gains
            checked.append(len(skills))
        return weigh(view, options)

    monkeypatch.setattr(policy.View, "skills_worth", checking)
    for g in range(6):
        sim.play_one(data, 4, 3, g)
    assert len(checked) >= 10, checked


def test_a_skill_is_taken_only_when_its_trial_gains(data, monkeypatch):
    """The rule reads the trial's gain, not the skill: with every gain forced to -1 no skill
    is ever chosen; forced to +1, skills are chosen (the same skills, the same games)."""
    def chosen_with(gain) -> int:
        monkeypatch.setattr(policy, "skill_gain", lambda e, who, option, w: gain)
        total = 0
        for g in range(15):
            stats = sim.play_one(data, 3, 5, g)["stats"]
            total += sum(v for k, v in stats.items() if k.startswith("skill_"))
        return total
    assert chosen_with(-1.0) == 0
    assert chosen_with(1.0) > 0


def test_a_trials_stream_started_late_gives_the_same_gains_and_games(data, monkeypatch):
    """A trial's stream is seeded, and the deck shuffled with it, only at its first use or
    the deck's first read (draws.Unstarted): every gain of a few games, and the games, are
    those of trials that seed and shuffle at their start; some trials never start."""
    from tomecraft.runtime.engines.dungeontology import draws

    def play(gains: list) -> list:
        weigh = trials.skill_gain

        def recording(e, who, option, w):
            gain = weigh(e, who, option, w)
            gains.append((e.state.round, e.progress, option["id"], gain))
            return gain
        with monkeypatch.context() as m:
            m.setattr(trials, "skill_gain", recording)
            m.setattr(policy, "skill_gain", recording)
            return [sim.play_one(data, players, 1, g, {"log": True})
                    for players in (2, 4) for g in range(4)]

    counts = Counter()
    start = draws.Unstarted.start
    monkeypatch.setattr(draws.Unstarted, "start", lambda self: counts.update(["started"]) or start(self))
    late_gains: list = []
    late = play(late_gains)

    def at_once(e, seed):                    # the trial's stream as it was: seeded and the
        rng = draws.seeded(seed)             # deck shuffled at the trial's start
        draws.shuffle(rng, e.state.deck)
        return rng
    monkeypatch.setattr(trials, "Unstarted", at_once)
    eager_gains: list = []
    eager = play(eager_gains)
    assert late_gains == eager_gains and late == eager
    assert 0 < counts["started"] < len(late_gains), (counts, len(late_gains))
