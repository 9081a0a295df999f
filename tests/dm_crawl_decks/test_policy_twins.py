"""Twin options (runtime/engines/dm_crawl_decks/twins.py): a search of the simulated player
tries one token flip per kind of token state, not all four, and one relic to keep per kind,
and finds what trying all of them finds."""
from __future__ import annotations

from pathlib import Path

from tomecraft.runtime import sim
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dm_crawl_decks import policy, twins
from tomecraft.runtime.engines.dm_crawl_decks.engine import new_engine
from tomecraft.runtime.rng import Rng
from tests.pack_play import compiled_with

PACK = Path(__file__).with_name("any_content_pack")
RATIONS = "fx_relic__trail_rations__use:choose10"     # flip one token of any attribute


def _engine(data):
    return new_engine(data, Rng("twins"), RandomAgent(Rng("agent")))


def _base():
    from tomecraft.generated.dm_crawl_decks import GAME
    return GAME


def test_flips_of_attributes_with_the_same_tokens_are_twins():
    engine = _engine(_base())
    engine.state.tokens["agility"].down = 1
    engine.state.tokens["intelligence"].down = 1
    classes = twins.twin_classes(engine, RATIONS, [0, 1, 2, 3])  # strength agility perception intelligence
    assert classes[0] == classes[2] != classes[1] == classes[3]
    assert twins.twin_classes(engine, RATIONS, [1, 2]) == (classes[1], classes[2])


def test_no_twins_outside_a_choose_of_attributes():
    engine = _engine(_base())
    assert twins.twin_classes(engine, "target", [0, 1]) is None
    assert twins.twin_classes(engine, "relic", [{"relic": "no such relic"}]) is None
    assert twins.twin_classes(engine, "fx_relic__no_such__use:choose1", [0, 1]) is None


def test_an_attribute_another_effect_names_has_no_twins(monkeypatch):
    """The pack's warm_hearth flips strength by name: a choose naming strength has no twins;
    its ember_drill's choose of the three others still has."""
    engine = _engine(compiled_with("dm_crawl_decks", PACK, monkeypatch))
    assert twins.twin_classes(engine, RATIONS, [0, 1, 2, 3]) is None
    drill = "fx_event_card__ember_drill__effect:choose8"
    assert twins.twin_classes(engine, drill, [0, 1, 2]) == ((0, 0, 0, 5),) * 3


def test_a_search_trying_twins_once_finds_what_trying_all_finds(monkeypatch):
    """At every search of seeded games (base game and the pack), the search is run again
    with every option tried: same gain, same answers; and twins did save trials."""
    search, tried = policy.search, {"twins": 0, "all": 0}
    real_try = policy._try

    def counted(mode):
        def run(*args):
            tried[mode] += 1
            return real_try(*args)
        return run

    def both(engine, apply, before=None, what=None):      # (no target memo: run twice)
        monkeypatch.setattr(policy, "_try", counted("twins"))
        got = search(engine, apply, before)
        monkeypatch.setattr(policy, "_try", counted("all"))
        monkeypatch.setattr(policy, "twin_classes", lambda *a: None)
        assert search(engine, apply, before) == got
        monkeypatch.setattr(policy, "twin_classes", twins.twin_classes)
        return got

    monkeypatch.setattr(policy, "search", both)
    sim.run(_base(), games=15, seed=1)
    sim.run(compiled_with("dm_crawl_decks", PACK, monkeypatch), games=10, seed=1)
    assert tried["twins"] < 0.95 * tried["all"], tried


def test_twins_are_found_while_sim_usage_wraps_the_effects():
    from tomecraft.runtime import usage
    engine = _engine(_base())
    with usage.track(engine.data):
        assert twins.twin_classes(engine, RATIONS, [0, 1, 2, 3]) is not None


def test_relics_to_keep_are_twins_when_they_only_have_a_use_and_alike_labels():
    engine = _engine(_base())
    s = engine.state
    by_id = {c.defn.id: c for c in s.relic_deck}
    for name in ("crossbow", "golden_bribe", "healing_flask", "bedroll"):
        engine.place(by_id[name], "revealed")
    s.labels.add("potion")                       # the flask's label is no longer new
    options = [{"relic": repr(c)} for c in s.revealed]
    classes = dict(zip([c.defn.id for c in s.revealed], twins.twin_classes(engine, "relic", options)))
    assert classes["crossbow"] == classes["golden_bribe"] != classes["healing_flask"]
    assert classes["bedroll"] not in (classes["crossbow"], classes["healing_flask"])


def test_revealed_loot_cards_are_twins_and_an_event_card_is_its_own_kind():
    engine = _engine(_base())
    s = engine.state
    loot = [c for c in s.event_deck if c.defn.card_type == "loot"]
    two_kinds = [next(c for c in loot if c.defn.resource == r) for r in ("gold", "ammo")]
    spring = next(c for c in s.event_deck if c.defn.id == "healing_spring")
    for c in two_kinds + [spring]:
        engine.place(c, "revealed")
    options = [{"event": repr(c)} for c in two_kinds + [spring]] + [{"event": None}]
    gold, ammo, heal, skip = twins.twin_classes(engine, "event", options)
    assert gold == ammo and len({gold, heal, skip}) == 3
