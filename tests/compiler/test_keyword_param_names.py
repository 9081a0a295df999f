"""A keyword's parameter named as a word of the effect language, or as a name of the game,
was told only by a type error without a hint (packs round 11): `it` was taken by `each
player:` in its body ("expected a number, got player"), and `gold` in `gain gold gold`
("expected a resource, got int 'gold'"). The first is refused at the parameter (TC-N008), the
second says the parameter hides the resource."""
from __future__ import annotations

from tests.keyword_packs import compile_with_keywords, errors_of


def test_a_parameter_called_it_is_refused_at_the_parameter(tmp_path):
    reporter = compile_with_keywords(
        tmp_path / "smiters", "clank_catacombs",
        "    smite:\n      params: [{name: it, type: int, min: 1}]\n"
        "      effect: \"each player: damage_player it it\"\n"
        "      text: {zh: \"重击{it}\", en: \"Smite {it}\"}\n")
    found = [d for d in errors_of(reporter) if d.code == "TC-N008"]
    assert found, [d.message for d in reporter.diagnostics]
    assert found[0].line == 7 and "'it'" in found[0].message and found[0].hint


def test_a_parameter_hiding_a_resource_says_so(tmp_path):
    reporter = compile_with_keywords(
        tmp_path / "rallies", "clank_catacombs",
        "    rally:\n      params: [{name: gold, type: int, min: 1}]\n"
        "      effect: \"gain gold gold\"\n"
        "      text: {zh: \"集结{gold}\", en: \"Rally {gold}\"}\n")
    found = [d for d in errors_of(reporter) if d.code == "TC-N003"]
    assert found and "hides the resource 'gold'" in found[0].hint, \
        [(d.message, d.hint) for d in reporter.diagnostics]


def test_the_base_games_keyword_parameters_stand(tmp_path):
    """The Cave's `squeeze level token` names its count after the stat `level`, which its
    effect never reads as the stat: no diagnostic."""
    reporter = compile_with_keywords(tmp_path / "nothing", "the_cave", "    {}\n")
    assert not errors_of(reporter), [d.message for d in reporter.diagnostics]
