"""Speed shortcuts that must make what the plain code makes: a Crawl Decks card's name (repr),
made once when the card is made (its definition's id and its uid, unless a scenario labels it
later; a trial's copy of the card keeps the name), and the engine's Context, made without the
frozen dataclass's __init__."""
from __future__ import annotations

from types import SimpleNamespace

from tomecraft.runtime.engines.dm_crawl_decks.snapshot import _Copier
from tomecraft.runtime.engines.dm_crawl_decks.state import Card


def test_a_cards_name_is_its_id_and_uid_and_a_later_label_wins():
    card = Card(7, SimpleNamespace(id="zombie"), "main", "main_deck")
    assert repr(card) == "zombie#7"
    copied = _Copier({})(card)
    assert copied is not card and repr(copied) == "zombie#7"
    card.label = "Z1"                   # a scenario names its cards after making them
    assert repr(card) == "Z1" and repr(copied) == "zombie#7"


def test_the_engines_context_is_the_dataclass_one():
    from tomecraft.generated.dm_crawl_decks import GAME
    from tomecraft.runtime.effects import Context
    from tomecraft.runtime.engines.dm_crawl_decks.engine import new_engine
    from tomecraft.runtime.rng import Rng
    engine = new_engine(GAME, Rng(1), None)
    card = engine.state.main_deck[0]
    made, plain = engine.ctx(card), Context(engine=engine, you=engine.state, self=card)
    assert made == plain and made.__dict__ == plain.__dict__ and type(made) is Context
    assert made.info is not engine.ctx(card).info          # each its own info
