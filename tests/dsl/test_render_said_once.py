"""A bracketed remark a verb's template adds is not said again in the clauses that follow
(blind test of the printed sheets, 2026-11-28): DRG's Soil Smasher read "Destroy the wall in
the area (minerals inside drop on the ground). Destroy the stalagmite in the area (minerals
inside drop on the ground)." A new trigger or branch (after a colon) says it again."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline
from tomecraft.dsl.parser import parse
from tomecraft.dsl.render import render

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def drg():
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "deep_rock_galactic", [], reporter)
    assert game is not None, dg.format_text(reporter)
    return game


@pytest.mark.parametrize("lang,remark", [("en", "(minerals inside drop on the ground)"),
                                         ("zh", "（其中矿物掉落在地）")])
def test_a_verbs_remark_is_said_once(drg, lang, remark):
    text = render(parse("destroy wall; destroy stalagmite"), drg.vocab, lang)
    assert text.count(remark) == 1, text
    assert text.index(remark) < text.index("石笋" if lang == "zh" else "stalagmite"), text


def test_different_remarks_stay(drg):
    text = render(parse("let r = roll(bullet_die, 2); deal bullet hits(r); "
                        "let s = roll(fire_die, 1); deal fire hits(s)"), drg.vocab, "zh")
    assert "X为" in text and "Y为" in text, text


def test_a_remark_after_a_new_trigger_is_said_again():
    """Vincenzo's Divine Intervention gains a stun token in two triggers; each says that no
    student may be sacrificed to avoid it."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "dungeontology", [], reporter)
    assert game is not None, dg.format_text(reporter)
    texts = [render(parse(site.text), game.vocab, "en")
             for e in game.entities["scholar"].values() for site in e.effects]
    remark = "(no student may be sacrificed to avoid it)"
    assert any(t.count(remark) == 2 for t in texts), [t for t in texts if remark in t]
