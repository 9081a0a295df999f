"""Shared by the checker's tests that write a pack adding keywords to a game's vocabulary
(keyword effects are checked like any entity's, so a keyword `probe` carries the effect under
test): write the pack, compile the game with it, read the diagnostics."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[1]


def probe(effect: str, params: str = "[]", quoted: bool = False) -> str:
    """The `keywords:` entry of a keyword `probe` whose body is `effect`."""
    body = f'"{effect}"' if quoted else effect
    return (f"    probe:\n      params: {params}\n      effect: {body}\n"
            "      text: {zh: 探测, en: Probe}\n")


def compile_with_keywords(folder: Path, game: str, keywords: str) -> dg.Reporter:
    """The diagnostics of `game` compiled with a pack in `folder` (its id is the folder's
    name) whose pack.yaml adds `keywords`, the text under `vocabulary: keywords:`."""
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        f"id: {folder.name}\ngame: {game}\nversion: '1'\nvocabulary:\n  keywords:\n{keywords}",
        encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [folder], reporter)
    return reporter


def errors_of(reporter: dg.Reporter) -> list:
    return [d for d in reporter.diagnostics if d.severity == dg.ERROR]
