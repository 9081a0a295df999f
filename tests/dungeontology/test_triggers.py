"""Collecting triggers (runtime/engines/dungeontology/triggers.py): an effect that only
registers is run once per (effect, scholar, region) and its triggers handed out again with
fresh contexts; an effect that reads state, asks, or calls a verb or query is run every time,
so what it registers follows the game. The effects here are written as the generated ones
are (`verbs = ctx.verbs` / `queries = ctx.queries` first, `ctx.on(...)` to register)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.engines.dungeontology.scenario import build
from tomecraft.runtime.engines.dungeontology.state import Tile


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


@pytest.fixture
def engine(data):
    return build(data, {"scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]})


def _body(ctx):
    ctx.info["seen"] = True                 # as the `randomize` verb writes its card there


def test_an_effect_that_only_registers_runs_once_and_its_triggers_run_with_fresh_contexts(engine):
    runs, seen = [], []

    def registers(ctx):
        runs.append(1)
        ctx.on("turn_end", None, _body, "k")

    def body(ctx):
        seen.append(ctx)
        _body(ctx)

    who = engine.state.scholars[0]
    first = engine.triggers_of([registers], who, who)
    first[0][2](first[0][3])                 # the body writes in its context's info
    second = engine.triggers_of([registers], who, who)
    assert len(runs) == 1
    assert [t[0] for t in second] == ["turn_end"] and second[0][2] is _body
    assert second[0][3] is not first[0][3] and second[0][3].info == {}
    assert second[0][3].you is who and second[0][3].self is who
    kept = [(name, where, body, ctx) for name, where, _, ctx in engine.triggers_of([registers], who, who)]
    engine.fire(kept, "turn_end")
    engine.fire(kept, "turn_end")            # each run has a context of its own, info empty
    assert len(seen) == 2 and seen[0] is not seen[1] and seen[1].info == {"seen": True}
    assert kept[0][3].info == {} and seen[0] is not kept[0][3] and seen[1].you is who


def test_kept_triggers_are_per_scholar(engine):
    def registers(ctx):
        ctx.on("turn_end", None, _body, "k")

    a, b = engine.state.scholars
    assert engine.triggers_of([registers], a, a)[0][3].you is a
    assert engine.triggers_of([registers], b, b)[0][3].you is b


def test_an_effect_that_reads_a_query_registers_as_the_state_is_now(engine):
    runs = []

    def conditional(ctx):                    # "if students_owned() >= 2 { on turn_end: ... }"
        queries = ctx.queries
        runs.append(1)
        if queries.students_owned(ctx) >= 2:
            ctx.on("turn_end", None, _body, "k")

    who = engine.state.scholars[0]
    who.students = 0
    assert engine.triggers_of([conditional], who, who) == []
    who.students = 2
    assert [t[0] for t in engine.triggers_of([conditional], who, who)] == ["turn_end"]
    who.students = 0
    assert engine.triggers_of([conditional], who, who) == []
    assert len(runs) == 3


def test_an_effect_that_reads_an_attribute_is_run_every_time(engine):
    def conditional(ctx):                    # "if you.students >= 1 { on turn_end: ... }"
        if ctx.attr(ctx.you, "students") >= 1:
            ctx.on("turn_end", None, _body, "k")

    who = engine.state.scholars[0]
    who.students = 1
    assert len(engine.triggers_of([conditional], who, who)) == 1
    who.students = 0
    assert engine.triggers_of([conditional], who, who) == []


def test_an_event_filter_returns_only_that_events_triggers(engine):
    def registers(ctx):
        ctx.on("turn_end", None, _body, "a")
        ctx.on("action_phase", None, _body, "b")

    who = engine.state.scholars[0]
    for _ in range(2):                       # collected, then kept
        assert [t[0] for t in engine.triggers_of([registers], who, who, "action_phase")] \
            == ["action_phase"]
        assert [t[0] for t in engine.triggers_of([registers], who, who)] \
            == ["turn_end", "action_phase"]


def test_a_regions_kept_triggers_follow_its_tokens(engine):
    """A region's triggers are kept together per scholar while it holds the same tokens."""
    def region_fx(ctx):
        ctx.on("enter_region", None, _body, "r")

    def token_fx(ctx):
        ctx.on("movement", None, _body, "t")

    tile = Tile((5, 5), SimpleNamespace(effects=[region_fx]), [])
    who = engine.state.scholars[0]
    assert [t[0] for t in engine.tile_triggers(tile, who)] == ["enter_region"]
    assert engine.tile_triggers(tile, who, "movement") == []
    tile.tokens.append(SimpleNamespace(effect=token_fx, token="secret_passage"))
    assert [t[0] for t in engine.tile_triggers(tile, who)] == ["enter_region", "movement"]
    assert [t[0] for t in engine.tile_triggers(tile, who, "movement")] == ["movement"]
    tile.tokens.clear()
    assert engine.tile_triggers(tile, who, "movement") == []


def test_passage_letters_are_kept_only_while_naming_them_reads_nothing(engine):
    """`letters` fires a region's `movement` triggers at every step next to a passage: a
    trigger that only names its letter is fired once, one that reads a query every time."""
    fired = []

    def names(ctx):
        def body(ctx):
            fired.append("names")
            ctx.verbs.use_secret_passage(ctx, "x")
        ctx.on("movement", None, body, "k")

    def reads(ctx):
        def body(ctx):
            fired.append("reads")
            if ctx.queries.students_owned(ctx) >= 0:
                ctx.verbs.use_secret_passage(ctx, "y")
        ctx.on("movement", None, body, "k")

    plain = Tile((5, 5), SimpleNamespace(effects=[names]), [])
    reading = Tile((6, 6), SimpleNamespace(effects=[reads]), [])
    for _ in range(2):
        assert engine.letters(plain) == ["x"]
        assert engine.letters(reading) == ["y"]
    assert fired == ["names", "reads", "reads"]


def test_no_verb_of_the_vocabulary_is_inlined():
    """An `inline: you_stat` verb compiles to a direct read of `ctx.you`, which the engine
    cannot see while collecting: an effect using one would be kept although it reads state.
    Dungeontology's vocabulary has none; adding one needs `registered` to learn of it."""
    game = yaml.safe_load((Path(__file__).parents[2] / "content/dungeontology/game.yaml")
                          .read_text(encoding="utf-8"))
    assert not [name for name, verb in game["verbs"].items() if (verb or {}).get("inline")]


def test_card_played_fires_only_for_a_cards_bonus_and_its_texts_say_so(data):
    """L210: a scheme card is played for its bonus value, or for its main or auxiliary effect
    instead; `card_played` carries the bonus (Magic Prodigy doubles it, L1369), so it fires
    when a card is played for its bonus in a stealth attempt (L922, L1011), not when one is
    played for its main effect. The sheets' words and the contract's say exactly that (they
    said "when a scheme card is played")."""
    from tomecraft.runtime.engines.dungeontology.contract import EVENTS
    from tomecraft.runtime.engines.dungeontology.scenario import _run_step
    game = yaml.safe_load((Path(__file__).resolve().parents[2] / "content" / "dungeontology"
                           / "game.yaml").read_text(encoding="utf-8"))
    text = game["events"]["card_played"]
    assert "bonus value" in text["en"] and "加成值" in text["zh"] and "bonus value" in EVENTS["card_played"]
    e = build(data, {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
                     "scholars": [{"scholar": "rebecca", "at": "shepherds_shelter",
                                   "hand": ["crystal_ball", "crystal_ball", "bully"]},
                                  {"scholar": "sofia"}]})
    fired = []
    fire = e.fire
    e.fire = lambda triggers, name, *rest: (fired.append(name), fire(triggers, name, *rest))[1]
    _run_step(e, {"do": "play", "seat": 0, "card": "crystal_ball", "part": "main"})
    assert "card_played" not in fired
    e.agents[0].choices = [{"card": "crystal_ball"}, {"card": "bully"}, {"card": None}]
    _run_step(e, {"do": "research", "seat": 0, "blocks": 1})
    assert fired.count("card_played") == 2
