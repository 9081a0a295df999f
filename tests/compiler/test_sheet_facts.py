"""Every token, card and monster a sheet shows says what happens to it after use (kept, back to
the box, discarded...), as the rulebook gives it, and the player edition prints it in words."""
from __future__ import annotations

from markupsafe import escape
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
# The kinds whose entities a player keeps, spends or discards, per game.
FACT_KINDS = {
    "the_cave": ("token", "equipment"),
    "clank_catacombs": ("token", "market_item", "card"),
    "deep_rock_galactic": ("monster", "throwable", "rock_and_stone_card", "weapon_upgrade",
                           "pickup", "mineral"),
    "dm_crawl_decks": ("card", "event_card", "relic"),
    "dungeontology": ("scheme_card", "clan_card", "intern_card", "doom_card", "token"),
}
LINE = re.compile(r"\bL\d+")


@pytest.fixture(scope="module", params=sorted(FACT_KINDS))
def game(request):
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / request.param, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


@pytest.fixture(scope="module")
def pages(game):
    return {(s.name, lang): sheets.render_html(game, s, lang)
            for s in sheets.SHEETS[game.id] for lang in ("zh", "en")}


def test_every_game_declares_its_kinds():
    assert set(FACT_KINDS) == set(sheets.SHEETS)


def test_every_entity_has_an_after_use_fact_with_a_rulebook_line(game):
    for kind in FACT_KINDS[game.id]:
        spec = game.vocab.kinds[kind]["fields"].get("after_use")
        assert spec is not None, f"{game.id}: kind {kind} has no after_use field"
        for entity in game.of_kind(kind):
            value = sheets.after_use(game, entity)
            assert value in sheets.AFTER_USE, (kind, entity.id, value)
            # the kind's description cites the line of each value; an entity may cite its own
            cited = LINE.search(str(spec.get("description", ""))) or \
                ("after_use" in entity.data and LINE.search(str(entity.data.get("ref", ""))))
            assert cited, f"{kind} {entity.id}: the after_use fact cites no rulebook line"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_entity_row_on_a_sheet_says_its_fate(game, pages, lang):
    rows = [row for (name, one), page in pages.items() if one == lang
            for row in re.findall(r"<tr.*?</tr>", page, flags=re.S)]
    for kind in FACT_KINDS[game.id]:
        for entity in game.of_kind(kind):
            name = sheets.name_of(entity, lang)     # zh sheets print full-width brackets
            # as printed: escaped, then typeset ("Thieves’ Toolkit")
            name = sheets.typeset(str(escape(sheets.zh_punctuation(name) if lang == "zh" else name)))
            words = sheets.typeset(str(escape(sheets.after_use_text(game, entity, lang))))
            assert words, (kind, entity.id)
            mine = [r for r in rows if re.search(rf">{re.escape(name)}(<|$)", r)]
            assert mine, f"{kind} {entity.id} ({name}) is on no {lang} sheet"
            assert any(words in r for r in mine), f"{kind} {entity.id}: {words!r} not on its row"


def test_every_after_use_value_has_words_in_every_language():
    for lang in ("zh", "en"):
        for game_id in FACT_KINDS:
            lab = sheets.labels(lang, game_id)
            for value in sheets.AFTER_USE:
                assert lab.get(f"after_use_{value}"), (lang, game_id, value)


def test_clank_tokens_used_once_go_back_to_the_box():
    """Token sheet L786-942: potions, the Coupon, the Puzzle Box, the Magic Spring, the
    Skill Boost and the Unlocking Tool go back to the box after use."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "clank_catacombs", [], reporter)
    boxed = {t.id for t in game.of_kind("token") if sheets.after_use(game, t) == "box"}
    assert boxed == {"coupon", "skill_boost", "greater_healing", "unlocking_tool", "magic_spring",
                     "healing_potion", "agility_potion", "strength_potion", "puzzle_box"}
