"""The simulated player's idle memo (runtime/engines/dm_crawl_decks/policy.py `_idle_search`): a
relic use or an event card whose lookahead found no gain is not searched again in the same
game while the situation is the same. It is an approximation, not an exact cache, so this
checks it against the search it skips: at every skip of several seeded games the full search
is run anyway, and it would have found a gain at very few of them."""
from __future__ import annotations

from tomecraft.runtime import sim
from tomecraft.runtime.engines.dm_crawl_decks import policy


def test_a_skipped_search_would_rarely_have_found_a_gain(monkeypatch):
    from tomecraft.generated.dm_crawl_decks import GAME
    skips = {"gain": 0, "none": 0}
    searched = []
    relic_gain, event_gain = policy.relic_gain, policy.event_gain

    def check(got, engine, apply, before):
        if got == policy.IDLE:
            full = policy.search(engine, apply, before)[0]   # (trials: the game is unchanged)
            skips["gain" if full > 0 else "none"] += 1
        else:
            searched.append(got)

    def checked_relic(engine, option, before=None, key="action", where=None):
        got = relic_gain(engine, option, before, key, where)
        check(got[0], engine, lambda t: t.use_relic(option["id"]), before)
        return got

    def checked_event(engine, option, before=None):
        got = event_gain(engine, option, before)
        check(got[0], engine, lambda t: policy._take_event(t, option["event"]), before)
        return got

    monkeypatch.setattr(policy, "relic_gain", checked_relic)
    monkeypatch.setattr(policy, "event_gain", checked_event)
    sim.run(GAME, games=20, seed=1)
    skipped = skips["gain"] + skips["none"]
    # the memo does skip (less since a battle's relic windows with no lost row are not
    # searched at all: test_a_battle_window_with_no_lost_row_would_rarely_have_gained)
    assert skipped >= len(searched) / 20, (skips, len(searched))
    assert skips["gain"] <= 0.02 * skipped, skips


def test_the_situation_tells_a_tied_row_from_a_lost_one():
    """The memo's key: a relic found idle at a tied row is searched again at a lost one."""
    from tomecraft.generated.dm_crawl_decks import GAME
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.engines.dm_crawl_decks.engine import new_engine
    from tomecraft.runtime.engines.dm_crawl_decks.state import Row, Virtual
    from tomecraft.runtime.rng import Rng
    engine = new_engine(GAME, Rng("idle"), RandomAgent(Rng("agent")))
    enemy = engine.state.main_deck.pop()
    points = engine.points(enemy)
    row = Row(enemy=[enemy], player=[Virtual("strength", points)])
    engine.state.rows, engine.current_row = [row], row
    engine.battle_windows.enter("battle_round")
    tied = policy.situation(engine)
    row.player[0] = Virtual("strength", points + 1) if points == 0 else Virtual("strength", points - 1)
    assert policy.situation(engine) != tied


def test_a_target_skipped_by_its_place_would_rarely_have_gained_more(monkeypatch):
    """A battlefield target on a side and in a row of an outcome where a target of the same
    option did not gain is not tried again (policy.search `what`): at every such search of
    seeded games the search trying every target finds a better answer very rarely."""
    from tomecraft.generated.dm_crawl_decks import GAME
    search, found = policy.search, {"same": 0, "better": 0}

    def checked(engine, apply, before=None, what=None):
        got = search(engine, apply, before, what)
        if what is not None:
            full = search(engine, apply, before)          # every target tried
            found["better" if full[0] > got[0] else "same"] += 1
        return got

    monkeypatch.setattr(policy, "search", checked)
    sim.run(GAME, games=20, seed=1)
    assert found["better"] <= 0.02 * (found["same"] + found["better"]), found


def test_a_battle_window_with_no_lost_row_would_rarely_have_gained(monkeypatch):
    """policy.BATTLE_WINDOWS: a relic is not weighed in a battle's relic window where no row
    it may change stands lost. At every such window of seeded games the relics' full
    searches are run anyway: one worth taking (gain > 0) is rare."""
    from tomecraft.generated.dm_crawl_decks import GAME
    row_lost, counts = policy._row_lost, {"windows": 0, "gain": 0, "none": 0}

    def checked(engine, key):
        lost = row_lost(engine, key)
        if not lost:
            counts["windows"] += 1
            for relic in engine.relic_options(key.removeprefix("relic_")):
                apply = (lambda rid: lambda t: t.use_relic(rid))(relic["id"])
                counts["gain" if policy.search(engine, apply)[0] > 0 else "none"] += 1
        return lost

    monkeypatch.setattr(policy, "_row_lost", checked)
    sim.run(GAME, games=8, seed=2)
    assert counts["windows"] > 30 and counts["none"] > 30, counts
    assert counts["gain"] <= 0.03 * (counts["gain"] + counts["none"]), counts
