"""An attribute of an entity bound by a selector must be one it has in play: a field of its
kind, or what the engine's contract says (`attributes`). `each card in battlefield ...:
it.hp -= 1` in a Crawl Decks pack checked clean (hp is a stat, the player's) and `sim` then
stopped on "no layered value 'hp'"; a Deep Rock Galactic pack's `each monster where it.hp >= 2`
checked clean and stopped on "'Monster' object has no attribute 'hp'" (a monster in play has
its damage; its hp is on its card)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tests.keyword_packs import compile_with_keywords, errors_of, probe


def errors(tmp_path: Path, game: str, effect: str) -> list[tuple]:
    reporter = compile_with_keywords(tmp_path / "fields", game, probe(effect, quoted=True))
    return [(d.code, d.message) for d in errors_of(reporter)]


@pytest.mark.parametrize("game, effect, said", [
    ("dm_crawl_decks", "each card in battlefield where on_side(it, player_side): it.hp -= 1",
     "a card has no 'hp' in play"),
    ("deep_rock_galactic", "each monster where in_range(2) and it.hp >= 2: push 1",
     "a monster has no 'hp' in play"),
    ("deep_rock_galactic", "each dwarf where it.primary_ammo >= 1: heal 1",
     "a dwarf has no 'primary_ammo' in play"),
])
def test_a_stat_of_another_kind_is_refused_on_an_entity(tmp_path, game, effect, said):
    assert errors(tmp_path, game, effect) == [(dg.UNKNOWN_FIELD, said)]


@pytest.mark.parametrize("game, effect", [
    ("dm_crawl_decks", "each card in battlefield where on_side(it, player_side): it.points -= 1"),
    ("deep_rock_galactic", "each monster where in_range(2) and it.damage >= 1: push 1"),
    ("deep_rock_galactic", "each dwarf where it.health <= 2: heal 1"),
    ("dm_crawl_decks", "you.hp -= 1"),
])
def test_a_field_of_the_kind_and_a_players_stat_are_clean(tmp_path, game, effect):
    assert errors(tmp_path, game, effect) == []
