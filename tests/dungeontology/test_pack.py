"""A YAML-only pack adds a new region keyword (as an effect snippet) and a region using it;
the engine applies it with no Python changed."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dungeontology import play_game
from tomecraft.runtime.engines.dungeontology.scenario import run_scenario
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]

PACK = """\
id: echo_pack
game: dungeontology
version: "1.0"
name: {zh: 回声扩充, en: Echo expansion}
vocabulary:
  keywords:
    echo:
      params: [{name: n, type: int}]
      effect: "on enter_region: draw_students n"
      text: {zh: "回声{n}", en: "Echo {n}"}
"""

REGIONS = """\
regions:
  - id: echo_cave
    name: {zh: 回声洞, en: Echo Cave}
    source: approximation
    note: "A fan-made region for the pack test: every entry wakes the satyrs (Echo 2)."
    number: I
    level: 1
    alert: 2
    slots: [civilization]
    passages: NESW
    effects: ["echo 2"]
"""

SCENARIO = {
    "setup": {
        "bag": {"normal": 6},
        "regions": [{"region": "echo_cave", "at": [1, 0]}],
        "scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}],
    },
    "steps": [{"do": "move", "seat": 0, "to": "echo_cave", "steps": 1}],
    "expect": [{"scholar": 0, "region": "echo_cave"},
               {"campus": {"bonfire": 2, "bag": {"normal": 4}}}],
}


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "echo_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "regions.yaml").write_text(REGIONS, encoding="utf-8")
    return pack


def _data(tmp_path, monkeypatch):
    pack = _pack(tmp_path)
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "dungeontology", [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    assert not list(pack.rglob("*.py")), "a pack is data only"
    return data


def test_pack_keyword_draws_two_students_when_entering_its_region(tmp_path, monkeypatch):
    data = _data(tmp_path, monkeypatch)
    assert "echo" in data.keywords
    assert run_scenario(data, SCENARIO) == []


def test_pack_keyword_fires_in_full_games(tmp_path, monkeypatch):
    data = _data(tmp_path, monkeypatch)
    stats = Counter()
    for g in range(8):
        rng = Rng(f"echo:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
        result = play_game(data, 4, rng.fork("game"), agents, {})
        assert not result["capped"]
        stats.update(result["stats"])
    assert stats["entered:echo_cave"] > 0


def test_without_the_pack_the_region_draws_nothing(tmp_path, monkeypatch):
    """The same entry in a base region without the keyword leaves the bonfire empty."""
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    base = compile_and_import(ROOT / "content" / "dungeontology", [], reporter)
    scenario = {**SCENARIO, "setup": {**SCENARIO["setup"],
                                      "regions": [{"region": "shepherds_shelter", "at": [1, 0]}]},
                "steps": [{"do": "move", "seat": 0, "to": "shepherds_shelter", "steps": 1}],
                "expect": [{"campus": {"bonfire": 0, "bag": {"normal": 6}}}]}
    assert run_scenario(base, scenario) == []


INTERNS = """\
intern_cards:
  - id: muse
    name: {zh: 缪斯, en: Muse}
    source: approximation
    note: "A fan-made intern for the pack test: +1 to its owner's stealth value."
    end_bonus: 1
    effect: "on stealth_value where attempting(): you.stealth += 1"
"""


def _intern_pack(tmp_path: Path, body: str) -> Path:
    pack = tmp_path / "intern_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        'id: intern_pack\ngame: dungeontology\nversion: "1.0"\nname: {zh: 实习生, en: Interns}\n',
        encoding="utf-8")
    (pack / "interns.yaml").write_text(body, encoding="utf-8")
    return pack


def test_pack_intern_effect_lasts_while_owned(tmp_path, monkeypatch):
    """An intern's effect is a trigger its owner carries: Sofia's research reaches 5, not 4."""
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "dungeontology",
                              [_intern_pack(tmp_path, INTERNS)], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)

    def research(interns):
        return {"setup": {"alert_filled": 1,
                          "regions": [{"region": "shepherds_shelter", "at": [1, 0],
                                       "slots": ["civilization", "faith", "civilization"]}],
                          "scholars": [{"scholar": "sofia", "at": "shepherds_shelter", "interns": interns,
                                        "hand": ["bully", "shortcut", "fate_star"]},
                                       {"scholar": "valerio"}]},
                "steps": [{"do": "research", "seat": 0, "blocks": 1,
                           "choose": [{"card": "bully"}, {"card": "shortcut"},
                                      {"card": "fate_star", "fate": False}, {"card": None}]}]}
    assert run_scenario(data, {**research(["muse"]),
                               "expect": [{"attempt": {"stealth": 5, "alert": 4, "ok": True}}]}) == []
    assert run_scenario(data, {**research([]),
                               "expect": [{"attempt": {"stealth": 4, "alert": 4, "ok": True}}]}) == []


def test_intern_effect_that_is_not_a_trigger_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    bad = INTERNS.replace('"on stealth_value where attempting(): you.stealth += 1"', '"gain_students 1"')
    compile_and_import(ROOT / "content" / "dungeontology", [_intern_pack(tmp_path, bad)], reporter)
    found = [(d.code, Path(d.file).name, d.line) for d in reporter.sorted()
             if d.severity == dg.ERROR]   # (the warning: no scheme card hands this intern out)
    assert found == [(dg.GAME_RULE, "interns.yaml", 7)], dg.format_text(reporter)


def test_a_misspelt_keyword_in_a_lasting_effect_is_one_error_and_the_trigger_hint_fits(
        tmp_path, monkeypatch):
    """A newcomer's misspelt keyword in a token's effect got a second error telling them to
    wrap it in `on action_phase: ...`, an event a token never hears (TC-C003 next)."""
    monkeypatch.chdir(ROOT)
    token = ("tokens:\n  - id: shade\n    name: {zh: 阴影, en: Shade}\n    source: approximation\n"
             "    note: a fan's token\n    token: secret_passage_token\n    effect: {effect}\n"
             "    count: 1\n")
    found = {}
    for effect in ("tol 1", "draw_students 1"):
        pack = tmp_path / effect.split()[0]
        pack.mkdir()
        (pack / "pack.yaml").write_text('id: shade\ngame: dungeontology\nversion: "1"\n',
                                        encoding="utf-8")
        (pack / "tokens.yaml").write_text(token.replace("{effect}", effect), encoding="utf-8")
        reporter = dg.Reporter()
        compile_and_import(ROOT / "content" / "dungeontology", [pack], reporter)
        found[effect] = [(d.code, d.hint) for d in reporter.sorted() if d.severity == dg.ERROR]
    assert found["tol 1"] == [(dg.UNKNOWN_NAME, "did you mean `toll`?")], found
    [(code, hint)] = found["draw_students 1"]
    assert code == dg.GAME_RULE and hint.startswith("wrap it in a trigger on an event this "
                                                    "field hears, e.g. `on enter_region: ...`"), hint


def test_a_packs_region_on_a_taken_number_is_told_at_its_own_number(tmp_path, monkeypatch):
    """A newcomer's region on number I-5 passed `check regions.yaml` of the pack: the error
    stood at the base game's region, in the installed content."""
    monkeypatch.chdir(ROOT)
    pack = tmp_path / "gallery"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: gallery\ngame: dungeontology\nversion: "1"\n', encoding="utf-8")
    (pack / "regions.yaml").write_text(
        "regions:\n  - id: shadow_gallery\n    name: {zh: 暗影长廊, en: Shadow Gallery}\n"
        "    source: approximation\n    note: a fan's region\n    number: I-5\n    level: 1\n"
        "    alert: 2\n    slots: [military]\n    passages: NESW\n", encoding="utf-8")
    reporter = dg.Reporter()
    compile_and_import(ROOT / "content" / "dungeontology", [pack], reporter)
    [d] = [d for d in reporter.sorted() if d.severity == dg.ERROR]
    assert (Path(d.file).name, d.line, d.message) == (
        "regions.yaml", 6, "region number I-5 is also 'workers_party'"), dg.format_text(reporter)
    assert "`remove: [{kind: region, id: workers_party}]`" in d.hint
