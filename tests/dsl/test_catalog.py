"""The effect catalogs of the five games (tests/dsl/catalog/<game>.yaml) are the effect
language's requirements list: every entry parses, prints back to the same AST, passes the
name/type checker against its game's vocabulary with no diagnostic, and renders in zh and en.

An entry is `{pattern: <normalized tag>, source: "<inventory section / entity>",
effect: "<effect text>", tags: [<the inventory's own tags>]}` (tags optional).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.checks import Checker
from tomecraft.compiler.loader import load
from tomecraft.compiler.model import EffectSite, Game
from tomecraft.compiler.vocabulary import build
from tomecraft.dsl.parser import parse
from tomecraft.dsl.printer import to_text

ROOT = Path(__file__).resolve().parents[2]
CATALOG = Path(__file__).with_name("catalog")
GAMES = ("clank_catacombs", "dm_crawl_decks", "deep_rock_galactic", "dungeontology", "the_cave")

# The pattern tags of the issue, normalized.
TAGS = ("triggers-timings", "conditions", "counting", "cost-then-effect", "choices",
        "each-player", "durations", "set-vs-add-layering", "random-draws", "dice-results",
        "targets", "movement", "placement")
ALL = set(TAGS)

# The tags each game's catalog must cover. A tag is left out only where the game truly has
# no effect of that pattern; the comment says why.
EXPECTED = {
    # No dice in Clank! (randomness is the dragon bag and the ordered treasure stack).
    "clank_catacombs": ALL - {"dice-results"},
    # Solo game: no other player, so no each-player effect. No dice (randomness is drawing
    # from the shuffled main, event and relic decks).
    "dm_crawl_decks": ALL - {"each-player", "dice-results"},
    # Every pattern, dice included (hit dice, monster dice, mineral die, pickaxe die).
    "deep_rock_galactic": ALL,
    # No dice: randomness is the University bag, the scheme deck and randomizer cards.
    "dungeontology": ALL - {"dice-results"},
    # The Cave has no dice, no effect aimed at another player or at a chosen entity (a team
    # only acts on its own tile), no effect that applies to every player, and no value that
    # one effect sets and another adds to.
    "the_cave": ALL - {"dice-results", "targets", "each-player", "set-vs-add-layering"},
}


@lru_cache(maxsize=None)
def _load_catalog(game: str):
    reporter = dg.Reporter()
    doc = load(CATALOG / f"{game}.yaml", reporter)  # the project's own safe YAML loader
    return (doc.data if doc is not None else None), dg.format_text(reporter)


def entries(game: str) -> list[dict]:
    """The catalog's entries; [] if it is missing or malformed (test_catalog_exists says so)."""
    data, _ = _load_catalog(game)
    return [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []


CASES = [pytest.param(game, i, entry, id=f"{game}-{i}-{entry.get('pattern')}")
         for game in GAMES for i, entry in enumerate(entries(game))]


@lru_cache(maxsize=None)
def vocabulary(game: str):
    reporter = dg.Reporter()
    path = ROOT / "content" / game / "game.yaml"
    doc = load(path, reporter)
    assert doc is not None, dg.format_text(reporter)
    vocab = build(doc, reporter, str(path))
    assert vocab is not None and reporter.errors == 0, dg.format_text(reporter)
    return vocab


class _Doc:
    """Stands in for a loaded document: an effect position is the position in the string."""

    path = "catalog"

    def effect_position(self, path, line, column):
        return line, column


def diagnostics(game: str, text: str, ast) -> list[str]:
    reporter = dg.Reporter()
    checker = Checker(Game(vocab=vocabulary(game)), reporter)
    checker.check_site(EffectSite(("effect",), text, ast), _Doc(), f"catalog/{game}.yaml", {})
    return [f"{d.code} {d.line}:{d.column} {d.message} {d.hint}".rstrip()
            for d in reporter.diagnostics]


@pytest.mark.parametrize("game", GAMES)
def test_catalog_exists(game):
    data, problems = _load_catalog(game)
    assert isinstance(data, list) and data, f"{game}: the catalog must be a non-empty list\n{problems}"
    assert all(isinstance(e, dict) for e in data), f"{game}: every entry is a mapping"


@pytest.mark.parametrize("game, index, entry", CASES)
def test_entry_is_well_formed(game, index, entry):
    assert set(entry) <= {"pattern", "source", "effect", "tags"}, entry
    assert entry["pattern"] in TAGS, f"unknown pattern {entry['pattern']!r}"
    assert isinstance(entry["source"], str) and entry["source"].strip()
    assert isinstance(entry["effect"], str) and entry["effect"].strip()


@pytest.mark.parametrize("game, index, entry", CASES)
def test_parses_and_round_trips(game, index, entry):
    ast = parse(entry["effect"])
    text = to_text(ast)
    assert parse(text) == ast, text


@pytest.mark.parametrize("game, index, entry", CASES)
def test_checks_against_the_vocabulary(game, index, entry):
    ast = parse(entry["effect"])
    assert diagnostics(game, entry["effect"], ast) == []


@pytest.mark.parametrize("game, index, entry", CASES)
def test_renders_in_both_languages(game, index, entry):
    render = pytest.importorskip("tomecraft.dsl.render").render
    ast = parse(entry["effect"])
    for lang in ("zh", "en"):
        text = render(ast, vocabulary(game), lang)
        assert isinstance(text, str) and text.strip(), (lang, entry["effect"])


@pytest.mark.parametrize("game", GAMES)
def test_every_expected_pattern_is_covered(game):
    seen = {entry["pattern"] for entry in entries(game)}
    missing = sorted(EXPECTED[game] - seen)
    assert not missing, f"{game}: no catalog entry for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_vocabulary_loads_cleanly(game):
    assert vocabulary(game).game == game
