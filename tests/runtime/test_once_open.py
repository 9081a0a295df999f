"""`once_open` (thirteenth session): a `can` check asks whether an effect's leading `once per
<scope>` is still open, so that an option whose limit is spent is not offered (it would do
nothing: a Crawl relic's `once per turn: gain gold 1` was offered and used again). Each
engine answers it from the same record its `once` spends; this checks, at every `once` of
whole seeded games, that the answer is the one `once` then gives, and that asking spends
nothing."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tomecraft.compiler import api
from tomecraft.runtime import sim

REPO = Path(__file__).resolve().parents[2]
# A Clank! card whose gift comes once a turn (the base game's `once per` is in reward rooms
# the engine limits itself); The Cave's check refuses `once per`.
CLANK_CARD = """cards:
  - id: tally_boots
    name: {zh: 计步靴, en: Tally Boots}
    source: approximation
    note: "A test card: its gift comes once a turn however many copies are played."
    card_type: "reserve"
    count: 15
    cost: 1
    play: "gain skill 1; once per turn: gain movement 1"
"""
GAMES = {"clank_catacombs": "card pack", "deep_rock_galactic": None, "dungeontology": None,
         "dm_crawl_decks": REPO / "tests/dm_crawl_decks/limits_pack"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_once_open_answers_what_once_then_does_and_spends_nothing(game, monkeypatch, tmp_path):
    pack = GAMES[game]
    if pack == "card pack":
        pack = tmp_path / "once_test"
        pack.mkdir()
        (pack / "pack.yaml").write_text("id: once_test\ngame: clank_catacombs\nversion: '1'\n")
        (pack / "cards.yaml").write_text(CLANK_CARD, encoding="utf-8")
    data = api.load_game(game, [pack] if pack else [])
    engine_class = importlib.import_module(f"tomecraft.runtime.engines.{game}.engine").Engine
    real_once, real_open = engine_class.once, engine_class.once_open
    seen = {True: 0, False: 0}
    closed = []

    def counted_open(self, ctx, scope, key):
        answer = real_open(self, ctx, scope, key)
        if not answer:
            closed.append(key)
        return answer

    def checked_once(self, ctx, scope, key):
        open_before = self.once_open(ctx, scope, key)
        assert self.once_open(ctx, scope, key) == open_before      # asking spends nothing
        ran = real_once(self, ctx, scope, key)
        assert ran == open_before, (scope, key)
        seen[ran] += 1
        return ran
    monkeypatch.setattr(engine_class, "once", checked_once)
    monkeypatch.setattr(engine_class, "once_open", counted_open)
    for index in range(12):
        sim.play_one(data, sim.player_counts(data)["default"], 7, index)
    # limits were spent, and then found spent (by a `can` check or a second `once`)
    assert seen[True] > 0 and closed, f"{game}: {seen}, {len(closed)} (the check saw too little)"
