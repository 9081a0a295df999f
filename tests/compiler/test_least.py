"""A verb's or keyword's int parameter may declare `min:` in game.yaml; a constant argument
below it is refused at the argument (TC-N009). `gain skill 0` checked clean and printed
"Gain 0 skill"; `draw -2` checked clean and drew nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tests.keyword_packs import compile_with_keywords, errors_of, probe
RESOURCE = {"clank_catacombs": "gold", "deep_rock_galactic": "ammo", "dm_crawl_decks": "potion",
            "dungeontology": "students", "the_cave": "ap"}


def errors(tmp_path: Path, game: str, effect: str, params: str = "[]") -> list[tuple]:
    """The errors of a pack whose keyword `probe` has `effect` (keyword effects are checked
    like any entity's), as (code, line, column, message)."""
    reporter = compile_with_keywords(tmp_path / "least", game, probe(effect, params, quoted=True))
    return [(d.code, d.line, d.column, d.message) for d in errors_of(reporter)]


@pytest.mark.parametrize("game", sorted(RESOURCE))
@pytest.mark.parametrize("amount, said", [("0", "0"), ("-1", "-1"), ("(2 - 3)", "-1")])
def test_a_constant_below_the_least_is_refused_at_the_argument(tmp_path, game, amount, said):
    effect = f"pay {RESOURCE[game]} {amount}"
    start = 16 + effect.index(amount)           # `      effect: "` is 15 characters
    got = errors(tmp_path, game, effect)
    assert [(code, line, message) for code, line, _, message in got] == [
        (dg.BELOW_LEAST, 8, f"'pay' takes amount 1 or more, got {said}")]
    assert start <= got[0][2] < start + len(amount), (got, start)


@pytest.mark.parametrize("game", sorted(RESOURCE))
def test_an_amount_at_the_least_or_read_from_a_parameter_is_clean(tmp_path, game):
    assert errors(tmp_path, game, f"pay {RESOURCE[game]} 1; pay {RESOURCE[game]} n",
                  "[{name: n, type: int}]") == []


def test_a_signed_verb_without_a_least_takes_a_negative(tmp_path):
    """Clank! cards print "−2 Clank!" (L282): `clank` declares no `min:`."""
    assert errors(tmp_path, "clank_catacombs", "clank -2") == []


def test_a_packs_own_keyword_may_declare_a_least(tmp_path):
    loot = ("    loot:\n      params: [{name: n, type: int, min: 2}]\n      effect: gain gold n\n"
            "      text: {zh: \"战利品{n}\", en: \"Loot {n}\"}\n")
    reporter = compile_with_keywords(tmp_path / "own", "clank_catacombs", loot + probe("loot 1"))
    assert [(d.code, d.message) for d in reporter.diagnostics] == [
        (dg.BELOW_LEAST, "'loot' takes n 2 or more, got 1")], reporter.diagnostics


def _keywords(tmp_path, game: str, keywords: str) -> list[tuple]:
    return [(d.code, d.message) for d in errors_of(compile_with_keywords(tmp_path / "via", game, keywords))]


HAUL = ("    haul:\n      params: [{name: n, type: int}]\n      effect: draw n; gain gold n\n"
        "      text: {zh: \"搬运{n}\", en: \"Haul {n}\"}\n")


@pytest.mark.parametrize("call, said", [("haul 0", "0"), ("haul -2", "-2")])
def test_a_keyword_without_a_least_takes_that_of_the_verb_it_passes_its_count_to(
        tmp_path, call, said):
    """A pack's keyword `haul n` (`draw n; gain gold n`, no `min:`) took `haul 0` clean: it drew
    nothing and printed "Haul 0". Its count goes to `draw`, which takes 1 or more."""
    assert _keywords(tmp_path, "clank_catacombs", HAUL + probe(call)) == [
        (dg.BELOW_LEAST, f"'haul' takes n 1 or more (it is passed to 'draw'), got {said}")]


def test_a_shift_and_a_keyword_in_between_are_followed(tmp_path):
    """The Cave's `squeeze level token` pays `ap (level + 1)`: `squeeze -1` would pay 0 AP.
    Through a keyword of a keyword, the least is carried too; `haul 1` and `squeeze 0` are clean."""
    outer = ("    lug:\n      params: [{name: m, type: int}]\n      effect: haul (m - 1)\n"
             "      text: {zh: \"拖{m}\", en: \"Lug {m}\"}\n")
    assert _keywords(tmp_path, "clank_catacombs", HAUL + outer + probe("lug 1; haul 1")) == [
        (dg.BELOW_LEAST, "'lug' takes m 2 or more (it is passed to 'haul'), got 1")]
    cave = probe("squeeze -1 squeeze_1; squeeze 0 squeeze_1")
    assert _keywords(tmp_path / "c", "the_cave", cave) == [
        (dg.BELOW_LEAST, "'squeeze' takes level 0 or more (it is passed to 'pay'), got -1")]


def test_a_declared_least_below_what_the_count_is_passed_to_gives_way(tmp_path):
    """`{name: n, type: int, min: 0}` with `draw n`: `haul 0` checked clean and drew nothing;
    the least `draw` takes holds through the keyword."""
    low = HAUL.replace("type: int}", "type: int, min: -3}")
    assert _keywords(tmp_path, "clank_catacombs", low + probe("haul 0")) == [
        (dg.BELOW_LEAST, "'haul' takes n 1 or more (it is passed to 'draw'), got 0")]


def test_a_least_on_a_parameter_that_is_no_count_is_refused(tmp_path):
    """`{name: z, type: zone, min: 1}` was taken as it stands: a least no argument can be below."""
    zone = ("    pull:\n      params: [{name: z, type: zone, min: 1}]\n      effect: draw 1\n"
            "      text: {zh: \"拉{z}\", en: \"Pull {z}\"}\n")
    assert _keywords(tmp_path, "clank_catacombs", zone) == [
        (dg.PACK, "`min:` is the least of an int parameter; this one is a zone")]


@pytest.mark.parametrize("effect, said", [("repeat 0: draw 1", "0"), ("repeat -2 { draw 1 }", "-2"),
                                          ("repeat (1 - 1): draw 1", "0")])
def test_a_repeat_below_once_is_refused(tmp_path, effect, said):
    """`repeat 0: draw 1` checked clean and printed "Do this 0 times: draw 1 card"."""
    assert [(c, m) for c, _, _, m in errors(tmp_path, "clank_catacombs", effect)] == [
        (dg.BELOW_LEAST, f"`repeat` takes a count of 1 or more, got {said}")]


def test_a_keyword_count_used_as_a_repeat_count_takes_1_or_more(tmp_path):
    times = ("    times:\n      params: [{name: n, type: int}]\n      effect: \"repeat n: gain gold 1\"\n"
             "      text: {zh: \"重复{n}\", en: \"Times {n}\"}\n")
    assert _keywords(tmp_path, "clank_catacombs", times + probe("times 0; times 1")) == [
        (dg.BELOW_LEAST, "'times' takes n 1 or more (it is the count of a `repeat`), got 0")]


def test_a_pack_raising_a_base_keywords_least_names_its_own_definition(tmp_path):
    """A pack replacing Dungeontology's `ambush` with `min: 3`: the base game's regions calling
    `ambush 1` are refused in files the pack cannot change, and said nothing of the pack's own
    definition; each now says where the pack defines it."""
    ambush = ("    ambush:\n      replace: true\n      params: [{name: n, type: int, min: 3}]\n"
              "      effect: 'on enter_region: sacrifice n'\n"
              "      text: {zh: \"重伏击{n}\", en: \"Heavy ambush {n}\"}\n")
    reporter = compile_with_keywords(tmp_path / "heavy", "dungeontology", ambush)
    found = [d for d in reporter.diagnostics if d.code == dg.BELOW_LEAST]
    assert found and all(d.hint.endswith("heavy/pack.yaml:6)") and "'ambush' is defined at" in d.hint
                         for d in found), [d.hint for d in found]
