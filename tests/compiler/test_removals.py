"""Removing base content: either it plays, or `check` refuses it at the pack's `remove` entry.

For every entity kind of a game, a pack removes one entity of the kind, then every entity of
the kind; and, one at a time, each entity the engine's source names (a string literal equal
to its id: what an engine may look up by id), which a removal of the kind's first entity
does not reach. If `check` accepts the pack, seeded games must play to their end without an
internal error; if it refuses, every refusal must be located (a YAML file and line).
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loadgen
from tomecraft.runtime import sim

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["the_cave", "clank_catacombs", "dm_crawl_decks", "dungeontology", "deep_rock_galactic"]


def _cases():
    for game in GAMES:
        data = importlib.import_module(f"tomecraft.generated.{game}").GAME
        for kind in sorted(data.kinds):
            ids = sorted(data.kinds[kind])
            if ids:
                yield game, kind, ids[:1]
                if len(ids) > 1:
                    yield game, kind, ids


def _named_by_the_engine():
    """(game, kind, [id]) for each entity the engine's source names, but for the kind's first
    (above) and those the contract needs (refused by design)."""
    for game in GAMES:
        data = importlib.import_module(f"tomecraft.generated.{game}").GAME
        needed = {(need.kind, need.id) for need in
                  importlib.import_module(f"tomecraft.runtime.engines.{game}.contract").CONTRACT.needs}
        source = "".join(p.read_text(encoding="utf-8")
                         for p in (ROOT / "runtime" / "engines" / game).glob("*.py"))
        named = set(re.findall(r'"([a-z][a-z0-9_]*)"', source))
        for kind in sorted(data.kinds):
            for entity_id in sorted(data.kinds[kind])[1:]:
                if entity_id in named and (kind, entity_id) not in needed:
                    yield game, kind, [entity_id]


def _remove(tmp_path: Path, game: str, kind: str, ids: list[str]) -> Path:
    pack = tmp_path / "lean"
    pack.mkdir()
    entries = "".join(f"  - {{kind: {kind}, id: {i}}}\n" for i in ids)
    (pack / "pack.yaml").write_text(f"id: lean\ngame: {game}\nversion: '1.0'\nremove:\n{entries}",
                                    encoding="utf-8")
    return pack


@pytest.mark.parametrize("game, kind, ids", list(_cases()) + list(_named_by_the_engine()),
                         ids=lambda v: v if isinstance(v, str) else
                         (v[0] if len(v) == 1 else f"{len(v)}"))
def test_a_removal_plays_or_is_refused_at_its_place(tmp_path, game, kind, ids):
    pack = _remove(tmp_path, game, kind, ids)
    reporter = dg.Reporter()
    # checked, and when clean generated and imported: one compile (the pack's folder is new,
    # so no earlier run's compiled package stands in for it)
    data = loadgen.compile_and_import(ROOT / "content" / game, [pack], reporter)
    if reporter.errors:
        errors = [d for d in reporter.diagnostics if d.severity == dg.ERROR]
        assert all(d.line >= 1 and Path(d.file).suffix == ".yaml" for d in errors), errors
        return
    assert data is not None
    sim.run(data, games=2, seed=1)          # an exception here is an engine crash


def test_removing_a_misspelt_id_hints_the_entity_meant(tmp_path):
    """`remove: [{kind: card, id: swindlr}]` named no card: the diagnostic says which card
    was meant, as a misspelt name in an effect does."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from pathlib import Path
    (tmp_path / "pack.yaml").write_text(
        "id: typo\ngame: clank_catacombs\nversion: '1'\nremove: [{kind: card, id: swindlr}]\n")
    reporter = dg.Reporter()
    root = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs"
    pipeline.compile_game(root, [tmp_path], reporter)
    found = [d for d in reporter.diagnostics if "swindlr" in d.message]
    assert len(found) == 1 and found[0].line == 4 and "`swindler`" in found[0].hint, found
