"""A Crawl Decks card's name (repr), made once when the card is made: its definition's id and
its uid, unless a scenario labels it later; a trial's copy of the card keeps the name."""
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
