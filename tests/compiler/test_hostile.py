"""Hostile content (issue 15): every case ends in a located diagnostic (exit 1) or a usage
error (exit 2); never exit 3, a traceback, a signal, a hang, a leaked byte or a raw escape.

Each test plants one hostile input in a scratch pack (or mission, or content copy) and runs
the real command line in-process; the siblings of each case are parametrized.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tomecraft.compiler import cli, codegen, loader, names, packs, schemas
from tomecraft.compiler import diagnostics as dg
from tomecraft.runtime import effects

REPO = Path(__file__).resolve().parents[2]
SECRET = "tomecraft-secret-line: do not print me"
ESC = "\x1b"


@pytest.fixture(autouse=True)
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


def make_pack(tmp_path: Path, files: dict[str, str | bytes], game: str = "the_cave",
              pack_id: str = "fan", name: str = "fan") -> Path:
    pack = tmp_path / name
    pack.mkdir(parents=True)
    if "pack.yaml" not in files:
        (pack / "pack.yaml").write_text(f"id: {pack_id}\ngame: {game}\nversion: '1.0'\n",
                                        encoding="utf-8")
    for rel, text in files.items():
        path = pack / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return pack


def token(entity_id: str, extra: str = "", points: str = "1") -> str:
    """A small entity a Cave pack may add (an action: its engine has tokens built in)."""
    return (f"actions:\n  - id: {entity_id}\n    name: {{zh: 甲, en: A}}\n    source: rulebook\n"
            f"    ref: L1\n    order: {points}\n    effect: \"pay ap 1\"\n"
            + extra)


def tile_kind(effect: str, extra: str = "") -> str:
    """Replaces The Cave's `normal` tile kind so the effect runs in every simulated game."""
    return ("tile_kinds:\n  - id: normal\n    replace: true\n    name: {zh: 甲, en: A}\n"
            "    source: rulebook\n    ref: L1\n    discover_from: true\n"
            f"    enter: [{{id: walk, effect: {json.dumps('pay ap 1; ' + effect)}}}]\n"
            f"    on_discover: {json.dumps(effect)}\n" + extra)


def check_pack(pack: Path, capsys, game: str = "the_cave") -> tuple[int, str, str]:
    return run(["check", f"content/{game}", "--pack", pack, "--format", "json"], capsys)


def codes(out: str) -> list[str]:
    return [d["code"] for d in json.loads(out)["diagnostics"]]


def located(out: str) -> list[dict]:
    diags = json.loads(out)["diagnostics"]
    assert diags, "a refusal must say why"
    for d in diags:
        assert d["file"] and d["line"] >= 1 and d["column"] >= 1 and d["code"] in dg.CODES
    return diags


# --- 1. nesting: measured on the event stream before the C composer recurses ---------------

@pytest.mark.parametrize("body", [
    "tokens: " + "[" * 30_000 + "]" * 30_000 + "\n",
    "tokens:\n" + "- " * 30_000 + "x\n",
    "tokens: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n",
    "tokens:\n" + "".join(" " * i + f" k{i}:\n" for i in range(1_500)) + " " * 1_501 + "v\n",
], ids=["flow", "block-dashes", "flow-maps", "indented-maps"])
def test_deep_nesting_is_a_diagnostic_not_a_segfault(tmp_path, capsys, body):
    """Composing the file would recurse in C past the stack: reaching the diagnostic at all
    shows the nesting was measured before the composer saw it."""
    pack = make_pack(tmp_path, {"t.yaml": body})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.YAML_TOO_BIG]
    assert "64" in located(out)[0]["message"]


def test_deep_mission_file_is_a_diagnostic(tmp_path, capsys):
    mission = tmp_path / "deep.yaml"
    mission.write_text("game: deep_rock_galactic\nmission: " + "[" * 40_000 + "]" * 40_000)
    code, out, _ = run(["check", mission, "--format", "json"], capsys)
    assert code == 1 and codes(out) == [dg.YAML_TOO_BIG]
    code, _, _ = run(["sim", "deep_rock_galactic", "--games", "1", "--mission", mission], capsys)
    assert code == 1


# --- 2. one identifier rule: full match, ASCII, no keyword ---------------------------------

@pytest.mark.parametrize("bad", ['"zz_nl\\n"', '"zz\\n\\n"', "class", "import", "match",
                                 "self", '"café"', '"ｆｕｌｌ"', "_under", '"a b"'])
def test_ids_that_cannot_be_names_are_refused_by_check_and_sim(tmp_path, capsys, bad):
    pack = make_pack(tmp_path, {"t.yaml": token(bad)})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and set(codes(out)) == {dg.SCHEMA}  # names in YAML: the schema's rule
    assert "name" in located(out)[0]["message"] or "reserved" in located(out)[0]["message"]
    code, _, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1


@pytest.mark.parametrize("manifest", ['id: "fan\\n"', "id: class", 'id: "../up"'])
def test_pack_ids_that_cannot_be_names(tmp_path, capsys, manifest):
    pack = make_pack(tmp_path, {"pack.yaml": f"{manifest}\ngame: the_cave\nversion: '1'\n"})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and located(out)


def test_mission_id_with_a_newline_is_refused(tmp_path, capsys):
    source = REPO / "tests/deep_rock_galactic/missions/valid/aquarq_run.yaml"
    text = source.read_text(encoding="utf-8")
    head, _, tail = text.partition("  id: ")
    rest = tail.split("\n", 1)[1]
    mission = tmp_path / "m.yaml"
    mission.write_text(head + '  id: "aquarq\\n"\n' + rest, encoding="utf-8")
    code, out, _ = run(["check", mission, "--format", "json"], capsys)
    assert code == 1 and dg.SCHEMA in codes(out)
    code, _, err = run(["sheets", "--mission", mission, "--out", tmp_path / "out"], capsys)
    assert code == 1 and not any("\n" in p.name for p in tmp_path.rglob("*"))


def test_a_mission_id_too_long_for_a_file_name_is_refused_by_check_before_sheets(tmp_path, capsys):
    """A 250-character mission id checked clean, then `sheets --mission` failed writing
    `briefing_<id>.zh.html` ("File name too long"), blaming --out (missions blind test 6)."""
    source = REPO / "tests/deep_rock_galactic/missions/valid/aquarq_run.yaml"
    text = source.read_text(encoding="utf-8")
    head, _, tail = text.partition("  id: ")
    mission = tmp_path / "m.yaml"
    mission.write_text(head + "  id: " + "a" * 250 + "\n" + tail.split("\n", 1)[1], encoding="utf-8")
    code, out, _ = run(["check", mission, "--format", "json"], capsys)
    found = located(out)
    assert code == 1 and [(d["line"], d["code"]) for d in found] == [(text[:text.index("  id: ")].count("\n") + 1, dg.SCHEMA)]
    assert "250 characters long" in found[0]["message"]
    code, _, _ = run(["sheets", "--mission", mission, "--out", tmp_path / "out"], capsys)
    assert code == 1 and not list((tmp_path / "out").rglob("*.html"))


@pytest.mark.parametrize("effect", ["let class = 1; gain_token traverse class",
                                    "let import = 2; gain_token traverse import",
                                    "let _x = 1; gain_token traverse _x"])
def test_let_names_follow_the_rule(tmp_path, capsys, effect):
    pack = make_pack(tmp_path, {"t.yaml": tile_kind(effect)})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and dg.BAD_NAME in codes(out)


@pytest.mark.parametrize("effect", ["let traverse = 1; gain_token traverse traverse",
                                    "let pay = 1; gain_token traverse pay",
                                    "let you = 1; gain_token traverse you",
                                    "let normal = 1; gain_token traverse normal"])
def test_a_let_may_not_hide_a_name_of_the_game(tmp_path, capsys, effect):
    """`let traverse = 1; gain_token traverse traverse` checked clean (the checker read the
    argument as the token) and then `sim` ended in an internal error (KeyError: 1: the
    generated code passed the number)."""
    pack = make_pack(tmp_path, {"t.yaml": tile_kind(effect)})
    code, out, _ = check_pack(pack, capsys)
    # (the argument read as the local is also no token: TC-N003 after `let traverse = 1`)
    assert code == 1 and dg.BAD_NAME in codes(out)
    assert set(codes(out)) <= {dg.BAD_NAME, dg.WRONG_TYPE}
    assert any("hide" in d["message"] for d in located(out))
    code, _, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1


@pytest.mark.parametrize("param", ["class", "self", "lambda"])
def test_keyword_parameters_follow_the_rule(tmp_path, capsys, param):
    vocab = ("vocabulary:\n  keywords:\n    fan_kw:\n"
             f"      params: [{{name: {param}, type: int}}]\n"
             f"      effect: \"gain_token traverse {param}\"\n"
             "      text: {zh: 甲, en: A}\n")
    pack = make_pack(tmp_path, {"pack.yaml": "id: fan\ngame: the_cave\nversion: '1'\n" + vocab})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.PACK]  # the pack manifest's schema


@pytest.mark.parametrize("params", ["[{name: a, type: int}, {name: a, type: int}]",
                                    "[{name: a, type: int}, {name: b, type: int}, "
                                    "{name: a, type: bool}]"])
def test_a_keyword_naming_two_parameters_alike_is_refused_located(tmp_path, capsys, params):
    """Checked clean, then `sim` compiled `def kw_fan_kw(ctx, p_a, p_a)`: a SyntaxError, an
    internal error."""
    vocab = ("vocabulary:\n  keywords:\n    fan_kw:\n"
             f"      params: {params}\n"
             "      effect: \"gain_token traverse a\"\n"
             "      text: {zh: \"甲{a}\", en: \"A {a}\"}\n")
    pack = make_pack(tmp_path, {"pack.yaml": "id: fan\ngame: the_cave\nversion: '1'\n" + vocab,
                                "t.yaml": token("fan_rest")})
    code, out, _ = check_pack(pack, capsys)
    found = [d for d in located(out) if d["code"] == dg.VOCAB]
    assert code == 1 and len(found) == 1 and found[0]["line"] == 7     # at `params:`
    assert "two parameters named 'a'" in found[0]["message"]
    code, _, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1


def test_free_form_keys_named_self_or_with_newlines_build_and_run():
    """Free-form mapping keys stay data: `self`, `class` and `x` next to `x\\n` build into
    importable code (Record takes `self` as a field)."""
    from tomecraft.runtime.definitions import Record
    assert Record(self=1, ctx=2).self == 1
    text = codegen._literal({"self": 1, "x": 2, "x\n": 3, "class": 4}, {}, ())
    record = eval(text, {"Record": Record})  # noqa: S307 - our own generated literal
    assert record["x\n"] == 3 and record["class"] == 4 and record.self == 1


@pytest.mark.parametrize("name, ok", [("squeeze_2", True), ("a", True), ("a\n", False),
                                      ("class", False), ("None", False), ("é", False),
                                      ("a-b", False), ("", False), ("ctx", False),
                                      ("a" * 64, True), ("a" * 65, False)])
def test_one_rule(name, ok):
    assert names.is_identifier(name) is ok
    assert (schemas.validator({"type": "string", "pattern": schemas.ID_PATTERN})
            .is_valid(name)) is ok


@pytest.mark.parametrize("pattern, value, ok", [
    ("^N?E?S?W?$", "NE\n", False), ("^N?E?S?W?$", "NE", True),
    ("^[a-z]+$", "ab\n", False), ("^[$]$", "$", True), ("^a\\$$", "a$", True),
])
def test_json_schema_patterns_mean_what_json_schema_says(pattern, value, ok):
    assert schemas.validator({"type": "string", "pattern": pattern}).is_valid(value) is ok


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(x*y?)*$", "^(a|aa)*$", "^(?:a+)+$", "("])
def test_catastrophic_or_broken_patterns_in_a_fans_game_are_refused_fast(tmp_path, capsys,
                                                                          pattern):
    game = tmp_path / "my_cave"
    shutil.copytree(REPO / "content" / "the_cave", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    old = "        pattern: \"^N?E?S?W?$\""
    assert old in text
    (game / "game.yaml").write_text(text.replace(old, f"        pattern: {json.dumps(pattern)}"),
                                    encoding="utf-8")
    tiles = (game / "tiles.yaml").read_text(encoding="utf-8")
    (game / "tiles.yaml").write_text(tiles.replace("exits: NESW", "exits: " + "a" * 40 + "!", 1),
                                     encoding="utf-8")
    # Refused before any use: the check never runs the pattern, which on 40 a's and a `!`
    # would backtrack 2**40 times. (Asserted first, so a regression fails here, not hangs.)
    assert names.pattern_problem(pattern) and names.compiled(pattern) is None
    code, out, _ = run(["check", game, "--format", "json"], capsys)
    assert code == 1 and dg.VOCAB in codes(out)


# --- huge integers --------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["note", "value"])
@pytest.mark.parametrize("number", ["0x" + "f" * 5000, "9" * 5000, "-" + "1" * 30,
                                    "0o" + "7" * 3000])
def test_huge_integers_are_refused(tmp_path, capsys, where, number):
    body = token("big_one", extra=f"    note: {number}\n") if where == "note" else \
        token("big_one", points=number)
    pack = make_pack(tmp_path, {"t.yaml": body})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.NUMBER_TOO_BIG]
    code, _, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1


@pytest.fixture(scope="module")
def scaffolds(tmp_path_factory):
    """`tomecraft new pack GAME` of every game, written once: each has one example entity of
    every kind, so a test swaps one field's value."""
    root = tmp_path_factory.mktemp("scaffolds")
    for game in ("clank_catacombs", "deep_rock_galactic", "dm_crawl_decks", "dungeontology",
                 "the_cave"):
        assert cli.main(["new", "pack", game, str(root / game), "--id", "fan"]) == 0
    return root


def scaffold_with(scaffolds: Path, tmp_path: Path, game: str, file: str, field: str,
                  value: str) -> Path:
    pack = tmp_path / game
    shutil.copytree(scaffolds / game, pack)
    text = (pack / file).read_text(encoding="utf-8")
    new, count = re.subn(rf"(?m)^(\s+(?:- )?{field}): -?\d+$", rf"\g<1>: {value}", text, count=1)
    assert count == 1, f"{file} of the {game} scaffold has no `{field}:` number"
    (pack / file).write_text(new, encoding="utf-8")
    return pack


# Each field play builds from: copies of a card or token, rounds to play. Past 10,000 each was a
# MemoryError (Deep Rock's event and supply cards; Clank!'s components), an OverflowError or a
# hang in `sim` after a clean check.
COUNTED_FIELDS = [
    ("deep_rock_galactic", "event_cards.yaml", "count"),
    ("deep_rock_galactic", "supply_cards.yaml", "count"),
    ("deep_rock_galactic", "rock_and_stone_cards.yaml", "count"),
    ("deep_rock_galactic", "weapon_upgrades.yaml", "count"),
    ("clank_catacombs", "tokens.yaml", "count"),
    ("clank_catacombs", "components.yaml", "count"),
    ("dm_crawl_decks", "cards.yaml", "count"),
    ("dungeontology", "scheme_cards.yaml", "count"),
    ("the_cave", "scoring.yaml", "extra_rounds"),
]


@pytest.mark.parametrize("game, file, field", COUNTED_FIELDS)
@pytest.mark.parametrize("value", ["9223372036854775807", "10001"])
def test_counts_past_what_play_can_build_are_refused_located(scaffolds, tmp_path, capsys, game,
                                                             file, field, value):
    pack = scaffold_with(scaffolds, tmp_path, game, file, field, value)
    code, out, _ = check_pack(pack, capsys, game)
    assert code == 1 and codes(out) == [dg.NUMBER_OUT_OF_RANGE]
    found = located(out)[0]
    assert found["file"].endswith(file) and value in found["message"].replace(",", "")


@pytest.mark.parametrize("rule, value", [
    ("initial_clank", "[9223372036854775807, 0, 0, 0]"),   # OverflowError in sim
    ("round_cap", "20000"),
])
def test_rule_values_past_the_limit_are_refused(tmp_path, capsys, rule, value):
    rules = (f"rules:\n  - {{id: {rule}, replace: true, name: {{zh: 规则, en: Rule}}, "
             f"source: approximation, note: a fan's, value: {value}}}\n")
    pack = make_pack(tmp_path, {"rules.yaml": rules}, game="clank_catacombs")
    code, out, _ = check_pack(pack, capsys, "clank_catacombs")
    assert code == 1 and codes(out) == [dg.NUMBER_OUT_OF_RANGE]
    code, _, err = run(["sim", "clank_catacombs", "--games", "1", "--pack", pack], capsys)
    assert code == 1 and "TC-S007" in err + _


def test_deep_rock_pickaxe_dice_past_the_limit_are_refused_before_play(tmp_path, capsys):
    """`g13_pickaxe_dice: 9223372036854775807` checked clean and `sim` rolled them forever."""
    rules = ("rules:\n  - {id: g13_pickaxe_dice, replace: true, name: {zh: 规则, en: Rule}, "
             "source: approximation, note: a fan's, value: 9223372036854775807}\n")
    pack = make_pack(tmp_path, {"rules.yaml": rules}, game="deep_rock_galactic")
    code, out, _ = check_pack(pack, capsys, "deep_rock_galactic")  # first: it fails, not hangs
    assert code == 1 and codes(out) == [dg.NUMBER_OUT_OF_RANGE]
    code, _, _ = run(["sim", "deep_rock_galactic", "--games", "1", "--pack", pack], capsys)
    assert code == 1


def test_many_counts_within_the_limit_still_add_up_past_the_total(scaffolds, tmp_path, capsys):
    """300 cards of 1,000 copies each: 300,000 event cards, each value within the limit."""
    pack = scaffold_with(scaffolds, tmp_path, "deep_rock_galactic", "event_cards.yaml", "count",
                         "1000")
    text = (pack / "event_cards.yaml").read_text(encoding="utf-8")
    head, entity = text.split("event_cards:\n")
    first_id = re.search(r"id: (\w+)", entity).group(1)
    (pack / "event_cards.yaml").write_text(
        head + "event_cards:\n" + "".join(entity.replace(first_id, f"fan_card_{i}")
                                          for i in range(150)), encoding="utf-8")
    code, out, _ = check_pack(pack, capsys, "deep_rock_galactic")
    found = located(out)
    assert code == 1 and [d["code"] for d in found] == [dg.NUMBER_OUT_OF_RANGE]
    assert "100,000" in found[0]["message"] and found[0]["file"].endswith("event_cards.yaml")


def test_counts_at_the_limit_check_clean_and_play(scaffolds, tmp_path, capsys):
    pack = scaffold_with(scaffolds, tmp_path, "dm_crawl_decks", "cards.yaml", "count", "10000")
    code, out, _ = check_pack(pack, capsys, "dm_crawl_decks")
    assert code == 0, out
    code, _, _ = run(["sim", "dm_crawl_decks", "--games", "1", "--pack", pack], capsys)
    assert code == 0


# --- bounded evaluation ---------------------------------------------------------------------

@pytest.mark.parametrize("effect", [
    "repeat 1000000000: gain_token traverse 1",
    "repeat 1001: gain_token traverse 1",
    "repeat (999 * 999): gain_token traverse 1",
    "repeat (count(player) * 11): gain_token traverse 1",
    "let a = count(player); let b = a * a; let c = b * b; let d = c * c; gain_token traverse d",
    "let a = 999; let b = a * a; let c = b * b; gain_token traverse c",
    "gain_token traverse (1 // 0)",
    "gain_token traverse (5 // (2 - 2))",
    "repeat count(player): repeat count(player): gain_token traverse 1",
    "gain_token traverse " + "9" * 3000,
    "gain_token traverse -5000",
    "gain_token traverse (0 - 999 * 999 * 2)",
    "repeat 1000: gain_token traverse 1000",     # an amount repeated: a million in all
    "repeat 100: repeat 10: gain_token traverse 101",
])
def test_unbounded_effects_are_refused_by_check(tmp_path, capsys, effect):
    pack = make_pack(tmp_path, {"t.yaml": tile_kind(effect)})
    code, out, _ = check_pack(pack, capsys)
    # a negative constant is also below gain_token's `min: 1` (TC-N009)
    below = {dg.BELOW_LEAST} if "traverse -" in effect or "traverse (0 -" in effect else set()
    assert code == 1 and set(codes(out)) == {dg.EFFECT_BOUNDS} | below
    assert all(d["file"].endswith("t.yaml") for d in located(out))


@pytest.mark.parametrize("keywords, cycle", [
    ({"loop_a": "loop_a"}, "loop_a -> loop_a"),
    ({"loop_a": "loop_b", "loop_b": "loop_a"}, "loop_a -> loop_b -> loop_a"),
    ({"loop_a": "loop_b", "loop_b": "loop_c", "loop_c": "loop_a"}, "loop_a -> loop_b"),
])
def test_recursive_keywords_are_refused(tmp_path, capsys, keywords, cycle):
    vocab = "vocabulary:\n  keywords:\n" + "".join(
        f"    {name}:\n      params: []\n      effect: \"pay ap 1; {callee}\"\n"
        f"      text: {{zh: 甲, en: A}}\n" for name, callee in keywords.items())
    pack = make_pack(tmp_path, {"pack.yaml": "id: fan\ngame: the_cave\nversion: '1'\n" + vocab})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and set(codes(out)) == {dg.RECURSIVE_KEYWORD}
    assert cycle in located(out)[0]["message"]
    assert len(codes(out)) == len(keywords)


def _keywords_pack(tmp_path, keywords: dict, use: str, params: str = "[]",
                   text: str = "{zh: 甲, en: A}") -> Path:
    vocab = "vocabulary:\n  keywords:\n" + "".join(
        f"    {name}:\n      params: {params}\n      effect: {json.dumps(body)}\n"
        f"      text: {text}\n" for name, body in keywords.items())
    return make_pack(tmp_path, {"pack.yaml": "id: fan\ngame: the_cave\nversion: '1'\n" + vocab,
                                "t.yaml": tile_kind(use)})


def test_a_number_parameter_named_like_a_token_is_no_token(tmp_path, capsys):
    """`params: [{name: traverse, type: int}]`, `gain_token traverse traverse`: the checker
    took the argument for the token, the generated code passed the number (sim: internal
    error, KeyError: 1). And the diagnostic is on the keyword's line, not pack.yaml's 1:1."""
    pack = _keywords_pack(tmp_path, {"fan_kw": "gain_token traverse traverse"}, "fan_kw 1",
                          params="[{name: traverse, type: int}]",
                          text="{zh: '甲{traverse}', en: 'A {traverse}'}")
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.WRONG_TYPE]
    assert located(out)[0]["line"] == 8 and located(out)[0]["file"].endswith("pack.yaml")
    code, _, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1


def test_keywords_calling_keywords_twice_each_stop_located(tmp_path):
    """30 keywords each calling the next twice: 2**30 calls. A keyword over pure verbs counted
    no step, and one calling such keywords none either, so `sim` ran for hours."""
    chain = {f"fan_{i}": f"fan_{i + 1}; fan_{i + 1}" for i in range(30)}
    chain["fan_30"] = "gain_token traverse 1"
    pack = _keywords_pack(tmp_path, chain, "fan_0")
    done = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "sim", "the_cave",
                           "--games", "1", "--pack", str(pack)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and f"[{dg.STEP_BUDGET}]" in done.stdout


RUNAWAY_CARD = """\
cards:
  - id: burgle
    replace: true
    name: {{zh: 扒窃, en: "Burgle"}}
    source: rulebook
    ref: "L63-65, L228"
    card_type: "starting"
    per_deck: 6
    play: "{effect}"
"""


@pytest.mark.parametrize("effect", [
    "gain skill 1; during turn: on gain_clank: clank 1",
    "gain skill 1; during turn: on gain_clank: clank 1; clank 1",
])
def test_a_runaway_the_checker_cannot_see_stops_with_a_located_diagnostic(tmp_path, capsys,
                                                                           effect):
    pack = make_pack(tmp_path, {"cards.yaml": RUNAWAY_CARD.format(effect=effect)},
                     game="clank_catacombs")
    code, out, _ = check_pack(pack, capsys, game="clank_catacombs")
    assert code == 0, out  # triggers that set each other off are legal to write
    code, out, _ = run(["sim", "clank_catacombs", "--games", "3", "--pack", pack], capsys)
    assert code == 1 and f"[{dg.STEP_BUDGET}]" in out     # a count of steps, not a clock
    assert f"{pack / 'cards.yaml'}:9:" in out.replace(str(REPO) + "/", "")


SLIME = """\
cards:
  - id: growing_slime
    replace: true
    name: {{zh: 膨胀史莱姆, en: Swelling Slime}}
    source: approximation
    note: "x"
    card_type: monster
    points: 1
    power: 1
    count: 2
    effect: "{effect}"
"""


@pytest.mark.parametrize("effect", ["on turn_start: repeat 1000: self.points *= 1000",
                                    "on turn_start: self.points *= 1000"])
def test_layered_values_that_explode_stop_with_a_located_diagnostic(tmp_path, capsys, effect):
    pack = make_pack(tmp_path, {"cards.yaml": SLIME.format(effect=effect)},
                     game="dm_crawl_decks")
    assert check_pack(pack, capsys, game="dm_crawl_decks")[0] == 0
    code, out, _ = run(["sim", "dm_crawl_decks", "--games", "20", "--pack", pack], capsys)
    assert code in (0, 1)
    if code == 1:
        assert f"[{dg.STEP_BUDGET}]" in out and f"{pack / 'cards.yaml'}:11:" in out


def test_division_by_zero_at_run_time_is_located(tmp_path, capsys):
    effect = "gain_token traverse (2 // (depth_levels() - depth_levels()))"
    # entering only: depth_levels() reads the move, which a discovery is not handed
    tiles = "".join(line for line in tile_kind(effect).splitlines(keepends=True)
                    if "on_discover" not in line)
    pack = make_pack(tmp_path, {"t.yaml": tiles})
    assert check_pack(pack, capsys)[0] == 0  # not a literal zero: the checker cannot know
    code, out, _ = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1 and "division by zero" in out and f"{pack / 't.yaml'}:" in out


def _generated(origin: str, body):
    """A function shaped as compiler/codegen.py writes one that can set off more evaluation
    (a keyword, a trigger's body, an engine verb): step first, origin on the way out."""
    def fx(ctx):
        try:
            effects.step(ctx)
            return body(ctx)
        except Exception as err:
            effects.raised(err, origin)
            raise
    return fx


def test_free_entries_of_pure_verbs_still_end(tmp_path, capsys):
    """Entering costs nothing and calls only pure verbs, so it counts no step (the budget is
    for what can run on: triggers, loops, engine verbs); the engine's turn and round caps end
    every game all the same."""
    tiles = ("tile_kinds:\n  - id: normal\n    replace: true\n    name: {zh: 甲, en: A}\n"
             "    source: rulebook\n    ref: L1\n    discover_from: true\n"
             "    enter: [{id: walk, effect: \"gain_token water 1; take_token water\"}]\n")
    pack = make_pack(tmp_path, {"t.yaml": tiles})
    assert check_pack(pack, capsys)[0] == 0
    # two teams, not the default three: every turn runs to the action cap and the game to the
    # round cap whatever the count of teams (a third team was 200 more capped turns)
    code, out, _ = run(["sim", "the_cave", "--players", "2", "--games", "1", "--pack", pack], capsys)
    assert code == 0, out


def test_trial_copies_count_on_their_games_budget(monkeypatch):
    """A simulated player tries options on copies of the game. Every copy used to start a
    budget of its own, so the game's never filled: a 100,000-round repeat in a tile's
    `enter`, tried on every move, ran `sim` for hours. A copy carries its game's number."""
    import copy
    from types import SimpleNamespace

    class Engine:
        pass
    monkeypatch.setattr(effects, "MAX_GAME_STEPS", 1_000)
    game = Engine()
    effects.new_game()
    effects.step(SimpleNamespace(engine=game))
    with pytest.raises(effects.RunawayEffect):
        for _ in range(1_000):
            effects.step(SimpleNamespace(engine=copy.copy(game)))   # a trial
            effects.step(SimpleNamespace(engine=game))
    effects.step(SimpleNamespace(engine=Engine()))   # a new game played directly: a new budget
    assert effects.BUDGET.steps == 1
    effects.new_game()


@pytest.mark.parametrize("effect", ["repeat 100: repeat 1000: gain_token traverse 1",
                                    "repeat 10: repeat 10: repeat 10: repeat 10: repeat 10: "
                                    "gain_token traverse 1"])
def test_a_loop_the_checker_allows_but_the_trials_repeat_ends_located(tmp_path, effect):
    pack = make_pack(tmp_path, {"t.yaml": tile_kind(effect)})
    done = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "sim", "the_cave",
                           "--games", "1", "--pack", str(pack)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and f"[{dg.STEP_BUDGET}]" in done.stdout
    assert f"{pack / 't.yaml'}:8:" in done.stdout


def test_the_step_budget_stops_a_long_loop():
    def spin(ctx):
        for _ in effects.loop(10**9):
            pass
    busy = _generated("content/x.yaml:7", spin)
    effects.new_game()
    with pytest.raises(effects.RunawayEffect) as caught:
        busy(None)
    assert effects.error_origin(caught.value) == "content/x.yaml:7"
    assert effects.BUDGET.steps == effects.MAX_GAME_STEPS + 1
    effects.new_game()
    assert effects.BUDGET.steps == 0


def test_the_game_budget_stops_many_short_effects(monkeypatch):
    monkeypatch.setattr(effects, "MAX_GAME_STEPS", 1_000)
    short = _generated("content/y.yaml:3", lambda ctx: True)
    effects.new_game()
    with pytest.raises(effects.RunawayEffect, match="game") as caught:
        for _ in range(2_000):
            short(None)
    assert effects.error_origin(caught.value) == "content/y.yaml:3"
    effects.new_game()


def test_endless_recursion_and_division_by_zero_leave_located():
    def recurse(ctx):
        return again(ctx)
    again = _generated("content/z.yaml:9", recurse)
    effects.new_game()
    with pytest.raises(effects.RunawayEffect) as caught:
        again(None)
    assert caught.value.origin == "content/z.yaml:9"
    divide = _generated("content/z.yaml:4", lambda ctx: 1 // 0)
    with pytest.raises(effects.EffectError, match="division by zero") as caught:
        divide(None)
    assert effects.error_origin(caught.value) == "content/z.yaml:4"
    effects.new_game()


# --- never print what was not ours to read --------------------------------------------------

def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET}\nroot:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    return secret


def test_symlinked_pack_manifest_is_refused_unread(tmp_path, capsys):
    pack = tmp_path / "fan"
    pack.mkdir()
    os.symlink(_secret(tmp_path), pack / "pack.yaml")
    for fmt in ("text", "json"):
        code, out, err = run(["check", "content/the_cave", "--pack", pack, "--format", fmt],
                             capsys)
        assert code == 1 and dg.SYMLINK in out
        assert SECRET not in out + err and "root:x" not in out + err


@pytest.mark.parametrize("link_name", ["t.yaml", "sub/t.yaml", "inside.yaml"])
def test_symlinked_content_file_is_refused_unread(tmp_path, capsys, link_name):
    pack = make_pack(tmp_path, {"real.yaml": token("real_one")})
    target = _secret(tmp_path) if link_name != "inside.yaml" else pack / "real.yaml"
    (pack / link_name).parent.mkdir(exist_ok=True)
    os.symlink(target, pack / link_name)
    code, out, err = run(["check", "content/the_cave", "--pack", pack], capsys)
    assert code == 1 and SECRET not in out + err and "root:x" not in out + err
    assert "  1 |" not in out  # no excerpt of the link's target


def test_symlinked_mission_and_scenario_files_are_refused_unread(tmp_path, capsys):
    link = tmp_path / "m.yaml"
    os.symlink(_secret(tmp_path), link)
    for argv in (["check", link], ["sim", "deep_rock_galactic", "--games", "1", "--mission", link],
                 ["sheets", "--mission", link, "--out", tmp_path / "o"],
                 ["scenario", "run", link]):
        code, out, err = run(argv, capsys)
        assert code == 1 and SECRET not in out + err and "root:x" not in out + err, argv


def test_symlinked_pack_folder_is_refused_unread(tmp_path, capsys):
    real = make_pack(tmp_path, {"t.yaml": token("linked_one", extra=f"    note: {SECRET}\n")})
    link = tmp_path / "link"
    os.symlink(real, link)
    code, out, err = run(["check", "content/the_cave", "--pack", link, "--format", "json"],
                         capsys)
    assert code == 1 and codes(out) == [dg.SYMLINK] and SECRET not in out + err


def test_excerpts_never_read_a_link():
    reporter = dg.Reporter()
    reporter.add(dg.PACK, "x", "/proc/self/environ", 1, 1)
    assert "|" not in dg.format_text(reporter).splitlines()[1]


# --- control characters ---------------------------------------------------------------------

@pytest.mark.parametrize("escape", ["\\e[31m", "\\x1b]0;title\\a", "\\0", "\\x07", "\\x9b",
                                    "\\u202e", "\\x7f"])
def test_control_characters_in_content_are_refused_and_never_printed_raw(tmp_path, capsys,
                                                                          escape):
    pack = make_pack(tmp_path, {"t.yaml": token("ctl", extra=f'    note: "x{escape}y"\n')})
    code, out, err = run(["check", "content/the_cave", "--pack", pack], capsys)
    assert code == 1 and dg.CONTROL_CHAR in out
    raw = escape.replace("\\e", "\\x1b").encode().decode("unicode_escape")[0]  # the control
    assert raw not in out + err
    code, out, _ = check_pack(pack, capsys)
    assert raw not in out and codes(out) == [dg.CONTROL_CHAR]


def test_control_characters_in_keys_are_refused(tmp_path, capsys):
    pack = make_pack(tmp_path, {"t.yaml": token("ctl", extra='    "a\\e": 1\n')})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.CONTROL_CHAR]


def test_raw_control_character_excerpt_is_escaped(tmp_path, capsys):
    pack = make_pack(tmp_path, {"t.yaml": token("ctl", extra=f"    note: x{ESC}[2Jy\n").encode()})
    code, out, err = run(["check", "content/the_cave", "--pack", pack], capsys)
    assert code == 1 and ESC not in out + err and "\\x1b" in out


def test_hostile_folder_and_file_names_are_printed_escaped(tmp_path, capsys):
    pack = make_pack(tmp_path, {f"bad{ESC}]0;x\x07.yaml": "tokens: [1, 2"},
                     name=f"fan{ESC}[2J\nx")
    code, out, err = run(["check", "content/the_cave", "--pack", pack], capsys)
    assert code == 1 and ESC not in out + err and "\x07" not in out + err
    code, out, err = run(["check", tmp_path / f"nowhere{ESC}"], capsys)
    assert code == 2 and ESC not in out + err


def test_every_text_output_escapes_controls():
    reporter = dg.Reporter()
    reporter.add(dg.SCHEMA, f"bad {ESC}[31m value\x00", f"a{ESC}.yaml", 1, 1, f"hint{ESC}")
    text, data = dg.format_text(reporter), dg.format_json(reporter)
    assert ESC not in text and "\x00" not in text and ESC not in data and "\x9b" not in data
    from tomecraft.compiler import report
    rows = [{"game": "g", "pack": "p", "kind": "k", "id": "i", "file": "f", "line": 1,
             "source": "approximation", "field": "", "note": f"n{ESC}[2J\x9b"}]
    assert ESC not in report.format_text(rows) and "\x9b" not in report.format_text(rows)
    assert ESC not in report.format_json(rows) and "\x9b" not in report.format_json(rows)
    from tomecraft.compiler import sheets
    html = sheets.environment().from_string("<p>{{ x }}</p>").render(x=f"a{ESC}b\x00c\x9bd")
    assert html == "<p>abcd</p>"


# --- input limits ---------------------------------------------------------------------------

def _deep_tree(root: Path, depth: int) -> None:
    here = os.getcwd()
    os.chdir(root)
    try:
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
        Path("x.yaml").write_text(token("deep_one"), encoding="utf-8")
    finally:
        os.chdir(here)


def _remove_deep_tree(top: Path) -> None:
    """shutil.rmtree recurses once per level: remove 1,200 levels bottom up instead."""
    subprocess.run(["rm", "-rf", str(top)], check=True)


@pytest.fixture(scope="module")
def deep_packs(tmp_path_factory):
    """deep_packs(depth): a pack holding `depth` nested folders (one YAML file at the bottom),
    made once per depth for this module's tests, which only read it (check, sim and scenario
    write nothing into a pack). Making and removing 1,200 levels is ~3.5 s of a worker's wall
    clock on ext4 (directory operations, not CPU): three tests used to make their own."""
    made: dict[int, Path] = {}

    def deep_pack(depth: int) -> Path:
        if depth not in made:
            made[depth] = make_pack(tmp_path_factory.mktemp(f"deep{depth}"), {})
            _deep_tree(made[depth], depth)
        return made[depth]
    yield deep_pack
    for pack in made.values():
        _remove_deep_tree(pack / "d")


@pytest.mark.parametrize("depth", [17, 1_200])
def test_deep_pack_folders_are_a_diagnostic(deep_packs, capsys, depth):
    code, out, _ = check_pack(deep_packs(depth), capsys)
    assert code == 1 and codes(out) == [dg.PACK_TOO_BIG]
    assert str(packs.MAX_DIR_DEPTH) in located(out)[0]["message"]
    assert len(located(out)[0]["file"]) < 300


def test_pack_folders_at_the_limit_are_read(tmp_path, capsys):
    pack = make_pack(tmp_path, {})
    _deep_tree(pack, packs.MAX_DIR_DEPTH)
    code, out, _ = check_pack(pack, capsys)
    assert code == 0, out


def test_too_many_files_is_a_diagnostic(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(packs, "MAX_FILES", 5)
    pack = make_pack(tmp_path, {f"f{i}.yaml": token(f"tok_{i}") for i in range(7)})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and dg.PACK_TOO_BIG in codes(out)


def test_too_many_bytes_is_a_diagnostic(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(packs, "MAX_PACK_BYTES", 1_000)
    pack = make_pack(tmp_path, {f"f{i}.yaml": token(f"tok_{i}") for i in range(7)})
    code, out, _ = check_pack(pack, capsys)
    # the lowered limit holds the base game too: its emptied kinds follow (TC-P003)
    assert code == 1 and codes(out)[0] == dg.PACK_TOO_BIG
    assert set(codes(out)) <= {dg.PACK_TOO_BIG, dg.NO_CONTENT}


def test_deep_scenario_folders_do_not_recurse(tmp_path, capsys):
    _deep_tree(tmp_path, 1_200)
    try:
        code, out, _ = run(["scenario", "run", tmp_path], capsys)
        assert code in (1, 2)
    finally:
        _remove_deep_tree(tmp_path / "d")


def test_huge_mission_map_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    source = REPO / "tests/deep_rock_galactic/missions/valid/aquarq_run.yaml"
    text = source.read_text(encoding="utf-8")
    head = text[: text.index("  map: |")]
    rows = "\n".join(("    " + " " * (r % 2) + " ".join("." * 700)) for r in range(700))
    mission = tmp_path / "huge.yaml"
    mission.write_text(head + "  map: |\n" + rows + "\n", encoding="utf-8")
    from tomecraft.compiler.missions import checker
    read_map = checker.read_map

    def read_small(text):       # the shipped missions' maps are read too, for the game check
        assert "." * 700 not in text.replace(" ", ""), "the huge map was read before its size was checked"
        return read_map(text)
    monkeypatch.setattr(checker, "read_map", read_small)
    code, out, _ = run(["check", mission, "--format", "json"], capsys)
    assert code == 1 and any("700" in d["message"] and "40" in d["message"]
                             for d in located(out))
    code, _, _ = run(["sim", "deep_rock_galactic", "--games", "1", "--mission", mission], capsys)
    assert code == 1


def test_file_over_the_size_limit_is_not_read(tmp_path, capsys):
    pack = make_pack(tmp_path, {"big.yaml": b"# " + b"x" * (loader.MAX_FILE_BYTES + 10)})
    code, out, _ = check_pack(pack, capsys)
    assert code == 1 and codes(out) == [dg.YAML_TOO_BIG]


# --- two shipped packs with one id ----------------------------------------------------------

def test_two_shipped_packs_with_the_same_id_are_refused(tmp_path, capsys, monkeypatch):
    content = tmp_path / "content"
    shutil.copytree(REPO / "content" / "the_cave", content / "the_cave")
    for folder in ("one", "two"):
        make_pack(content / "the_cave" / "packs", {"t.yaml": token(f"tok_{folder}")},
                  pack_id="same_id", name=folder)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check", "--format", "json"], capsys)
    assert code == 1 and codes(out) == [dg.PACK_CONFLICT]
    assert located(out)[0]["file"].endswith("two/pack.yaml")
    code, _, _ = run(["build"], capsys)
    assert code == 1 and not (tmp_path / "generated").exists()


# --- command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["sim", "the_cave", "--players", "0", "--games", "1"],
    ["sim", "the_cave", "--players", "-2", "--games", "1"],
    ["sim", "the_cave", "--games", "0"],
    ["sim", "the_cave", "--players", "9", "--games", "1"],
    ["sim", "dm_crawl_decks", "--players", "2", "--games", "1"],
    ["sim", "../the_cave", "--games", "1"],
    ["sim", "content/the_cave", "--games", "1"],
    ["sim", "/etc", "--games", "1"],
    ["sheets", "--game", "../content/the_cave", "--out", "{tmp}/o"],
    ["sheets", "--game", "the_cave/../the_cave", "--out", "{tmp}/o"],
    ["sheets", "--game", "the_cave", "--lang", "en", "--format", "html", "--out", "{tmp}/file"],
    ["sheets", "--game", "the_cave", "--lang", "en", "--format", "html",
     "--out", "{tmp}/file/below"],
    ["report", "gaps", "--game", "../x"],
    ["report", "gaps", "--game", "/etc"],
])
def test_usage_errors_exit_2_with_a_message(tmp_path, capsys, argv):
    (tmp_path / "file").write_text("not a folder")
    code, out, err = run([a.replace("{tmp}", str(tmp_path)) for a in argv], capsys)
    assert code == 2 and f"error[{dg.USAGE}]" in err and out == ""
    assert (tmp_path / "file").read_text() == "not a folder"


def test_usage_error_through_python_m(tmp_path):
    """`python -m tomecraft.compiler.cli` runs cli as __main__: its UsageError must be the same class
    as the one compiler.sheets raises through `compiler.cli`."""
    done = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "sheets", "--game", "../x",
                           "--out", str(tmp_path)], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "internal error" not in done.stderr


@pytest.mark.parametrize("argv", [
    ["cards", "--game", "the_cave", "--lang", "en", "--format", "html", "--out", "{tmp}/file"],
    ["cards", "--game", "the_cave", "--lang", "en", "--format", "html",
     "--out", "{tmp}/file/below"],
    ["schema", "--out", "{tmp}/file"],
    ["schema", "--out", "{tmp}/link"],
    ["schema", "--out", "{tmp}/file/below"],
    ["new", "pack", "the_cave", "{tmp}/file"],
    ["new", "pack", "the_cave", "{tmp}/file/below"],
])
def test_writing_where_a_file_stands_is_a_usage_error(tmp_path, capsys, argv):
    """Every command that writes a folder (not only `sheets`) says a file is in the way."""
    (tmp_path / "file").write_text("not a folder")
    os.symlink(tmp_path / "file", tmp_path / "link")
    code, out, err = run([a.replace("{tmp}", str(tmp_path)) for a in argv], capsys)
    assert code == 2 and f"error[{dg.USAGE}]" in err
    assert (tmp_path / "file").read_text() == "not a folder"


def test_an_unwritable_out_folder_is_a_usage_error(tmp_path, capsys, monkeypatch):
    """A read-only --out (root ignores the mode bits, so the refusal is simulated)."""
    from tomecraft.compiler import editor_schemas

    def refuse(schema_files, out):
        raise PermissionError(13, "Permission denied", str(out))
    monkeypatch.setattr(editor_schemas, "write", refuse)
    code, _, err = run(["schema", "--out", tmp_path / "ro"], capsys)
    assert code == 2 and "Permission denied" in err


@pytest.mark.parametrize("pack_id", ["class", "match", "self", "fan\n"])
def test_new_refuses_a_pack_id_check_would_refuse(tmp_path, capsys, pack_id):
    """`new` used its own `^...$` pattern: `class` (and "fan\\n") scaffolded a pack that
    `check` then refused (TC-P001). It now asks compiler/names.py, like check."""
    code, _, err = run(["new", "pack", "the_cave", tmp_path / "p", "--id", pack_id], capsys)
    assert code == 2 and not (tmp_path / "p").exists()


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks its workers on Linux")
@pytest.mark.parametrize("to_group", [False, True], ids=["parent", "process-group"])
def test_ctrl_c_ends_a_parallel_balance_run_at_once(to_group):
    """The pool's exit waited for every queued batch (here 2 x 100,000 games) after Ctrl-C:
    a terminal's Ctrl-C (the whole group) or a SIGINT to the parent must end it now."""
    import signal
    import time
    argv = [sys.executable, "-m", "tomecraft.compiler.cli", "balance", "clank_catacombs",
            "--pack", "content/clank_catacombs/packs/tomb_party", "--games", "100000",
            "--workers", "2", "--quiet"]
    child = subprocess.Popen(argv, cwd=REPO, start_new_session=True, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_children(child.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)                                  # the workers are playing
        if to_group:
            os.killpg(child.pid, signal.SIGINT)
        else:
            os.kill(child.pid, signal.SIGINT)
        # without the fix the run goes on for the queued games (half an hour); the margin is
        # for a loaded machine (the suite's other worker), not for the interrupt itself
        _, err = child.communicate(timeout=90)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_an_interrupted_process_ends_even_when_a_thread_is_left_stuck():
    """CPython 3.11's process pool can leave its manager thread stuck after its workers were
    ended mid-message, and the interpreter's exit joins it forever: an interrupted command
    run as a process ends with 130 after its message, whatever threads remain."""
    script = (
        "import sys, threading\n"
        "from tomecraft.compiler import cli\n"
        "threading.Thread(target=threading.Event().wait).start()\n"   # never ends
        "def interrupted(argv):\n"
        "    return cli._expected(KeyboardInterrupt())\n"
        "cli._main = interrupted\n"
        "sys.argv = ['tomecraft', 'explain', 'TC-E001']\n"
        "sys.exit(cli.main())\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 130 and done.stderr == "tomecraft: interrupted\n"


# --- scenario files of the wrong shape ---------------------------------------------------------

CAVE_SCENARIO = REPO / "tests/scenarios/the_cave/b_abandon_needs_carried_camp.yaml"
CLANK_SCENARIO = REPO / "tests/scenarios/clank_catacombs/b_barbarian_combat.yaml"
CAVE_LOADOUT = REPO / "tests/scenarios/the_cave/b_setup_loadout_free.yaml"
DNG_SCENARIO = REPO / "tests/scenarios/dungeontology/b_confession_one_student.yaml"
DRG_SCENARIO = REPO / "tests/scenarios/deep_rock_galactic/b6_beam_to_oppressor_rear.yaml"


@pytest.mark.parametrize("source, old, new, said", [
    (CAVE_SCENARIO, '  - {"do": "act", "id": "abandon_camp", "illegal": true}', "  - 5",
     "steps[0] must be a mapping"),
    (CAVE_SCENARIO, '{"consumable": 8}', '{"consumable": 9223372036854775807}', "beyond"),
    (CAVE_SCENARIO, '{"consumable": 8}', '{"consumable": 100000000}', "beyond"),
    (CLANK_SCENARIO, 'setup: {"players"', 'setup: {"new_game": [1], "x"', ""),
    (CAVE_SCENARIO, "source:", "sorce:", "unknown key 'sorce': did you mean `source`?"),
    (DRG_SCENARIO, "kind: grunt, at: [4, 2]", "kind: grunt, at: []", "setup.monsters[0].at: a space [r, c] (two whole numbers), not []"),
    (DRG_SCENARIO, "tail: [4, 4]", "tail: [a, 4]", "setup.monsters[1].tail: a space [r, c]"),
    (DRG_SCENARIO, "facing: [4, 6]", "facing: 7", "setup.monsters[1].facing: a space [r, c] (two whole numbers), not 7"),
    (DRG_SCENARIO, "setup:\n", "setup:\n  map: {}\n", "setup.map: a text, not {}"),
    (DRG_SCENARIO, "setup:\n", "setup:\n  exits: -1\n", "setup.exits: a mapping of exit numbers to spaces"),
    (DRG_SCENARIO, "setup:\n", "setup:\n  minerals: -1\n", "setup.minerals: a mapping of spaces to minerals"),
    (DRG_SCENARIO, "setup:\n", "setup:\n  tokens: x\n", "setup.tokens: a mapping of token kinds to spaces"),
    (DRG_SCENARIO, "steps:\n  - {do: attack, dwarf: 0, weapon: breach_cutter, mode: 0, target: o, "
     "rolls: [[1, 1]]}", "steps:", "expect[0]"),
    (CAVE_SCENARIO, '"illegal": true', '"illegal": "no"', "steps[0] illegal: true or false, not 'no'"),
    (CAVE_LOADOUT, '"pack_camp": true', '"pack_camp": "no"', "pack_camp: true or false, not 'no'"),
    (DNG_SCENARIO, "students: 1}", "students: x}", "setup.scholars[0].students: a whole number, 0 or more, not 'x'"),
    (DNG_SCENARIO, "students: 1}", "students: }", "setup.scholars[0].students: a whole number, 0 or more, not null"),
    (DNG_SCENARIO, "at: [1, 0]", "at: [é, 0]", "setup.regions[0].at: a position [x, y] (two whole numbers), not ['é', 0]"),
    (DNG_SCENARIO, "  regions:\n    - {", "  regions:\n    - -1\n    - {", "setup.regions[0]: a mapping {region, at, slots, tokens}, not -1"),
    (DNG_SCENARIO, "  regions:", "  traps: [{}]\n  regions:", "setup.traps[0]: a text, not {}"),
    (DNG_SCENARIO, "  regions:", "  bag: {normal: x}\n  regions:", "setup.bag.normal: a whole number, 0 or more, not 'x'"),
    (DNG_SCENARIO, "{civilization: 3}", "{civilization: {a: 1}}", "setup.scholars[1].notebook.civilization: a whole number, 0 or more"),
    (DNG_SCENARIO, "expect:", "steps:\n  - {do: [turn]}\nexpect:", "a step needs do:"),
    (DNG_SCENARIO, "expect:", "steps:\n  - {do: turn, seat: 1.5}\nexpect:", "steps[0].seat: a whole number, 0 or more, not 1.5"),
    (DNG_SCENARIO, "expect:", "steps:\n  - {do: turn, choose: .nan}\nexpect:", "steps[0].choose: a list of answers, in order ([...]), not nan"),
    (DNG_SCENARIO, "expect:", "steps:\n  - {do: turn, choose_for: {x: 1}}\nexpect:", "steps[0].choose_for.x: a list of answers, in order, not 1"),
], ids=["step-number", "count-2**63", "count-10**8", "clank-new-game-list", "misspelt-key",
        "drg-monster-at-empty", "drg-monster-tail-letter", "drg-monster-facing-number",
        "drg-map-mapping", "drg-exits-number",
        "drg-minerals-number", "drg-tokens-text", "drg-steps-empty",
        "cave-illegal-text", "cave-pack-camp-text", "dng-students-letter", "dng-students-none", "dng-region-at-letter", "dng-region-number",
        "dng-traps-mapping", "dng-bag-letter", "dng-notebook-nested", "dng-step-do-list",
        "dng-step-seat-float", "dng-step-choose-nan", "dng-step-choose-for-letter"])
def test_scenarios_of_the_wrong_shape_fail_located_and_fast(tmp_path, capsys, source, old, new, said):
    """A step that is a number ended in "internal error: AttributeError"; a backpack of 10**8
    consumables had the engine build them all (a hang: 10**6 took 19 s); a misspelt `source:`
    was read as no source at all."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, out, err = run(["scenario", "run", scenario], capsys)
    assert code == 1 and "internal error" not in out + err
    assert f"{scenario}:" in out and said in out


@pytest.mark.parametrize("key, value, said", [
    ("steps", {"a": 1}, "`steps` must be a list of mappings"),
    ("steps", "hello", "`steps` must be a list of mappings"),
    ("steps", 0, "`steps` must be a list of mappings"),
    ("expect", False, "`expect` must be a list of mappings"),
    ("setup", [1, 2], "`setup` must be a mapping"),
    ("expect", 7, "`expect` must be a list of mappings"),
])
def test_a_scenario_section_of_the_wrong_type_fails_at_its_line(tmp_path, capsys, key, value, said):
    """The section is replaced in place (the lines of the others stay), so the failure's line
    is the section's own."""
    lines = CAVE_SCENARIO.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"{key}:")
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    lines[start:end] = [f"{key}: {json.dumps(value)}"]
    scenario = tmp_path / "s.yaml"
    scenario.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(["scenario", "run", scenario], capsys)
    assert code == 1 and f"{scenario}:{start + 1}: " in out and said in out, out


def test_check_of_a_pack_folder_holding_a_game_yaml_checks_the_pack(tmp_path, capsys):
    """`check PACK` of a pack with a game.yaml in it read that file as a game (seven schema
    errors, exit 1) while `check --pack PACK` warned it is not read (TC-P005): the folder is
    a pack either way."""
    pack = make_pack(tmp_path, {"game.yaml": "id: the_cave\nengine: [1]\n", "a.yaml": token("fan_a")})
    for argv in (["check", pack], ["check", "--pack", pack]):
        code, out, err = run(argv, capsys)
        assert code == 0 and "TC-P005" in out + err and "TC-S005" not in out + err, out + err


@pytest.mark.parametrize("game, setup, key", [
    ("dungeontology", "setup:\n  players: 2\n  max_alert: \"no\"\n", "max_alert"),
    ("deep_rock_galactic", "setup:\n  pod_returned: 0\n", "pod_returned"),
    ("dungeontology", "setup:\n  scholars:\n    - {scholar: valerio, lore: \"false\"}\n", "lore"),
])
def test_a_setup_flag_that_is_not_true_or_false_fails_at_its_line(tmp_path, capsys, game, setup, key):
    """`lore: "false"` or `max_alert: "no"` was read as true (any non-empty text is)."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"game: {game}\nname: n\n{setup}steps: []\nexpect: []\n", encoding="utf-8")
    code, out, _ = run(["scenario", "run", scenario], capsys)
    line = next(i for i, text in enumerate(scenario.read_text().splitlines(), 1) if key in text)
    assert code == 1 and f"{scenario}:{line}: n: setup: setup." in out and f"{key}: true or false, not " in out, out


# --- round 3: options and outputs -------------------------------------------------------------

@pytest.mark.parametrize("hazard", ["1-99999999999", "1-5,2-10000000000000", "5-1", "0", "6"])
def test_a_huge_hazard_range_is_a_usage_error_not_a_memory_error(capsys, hazard):
    """`sim --hazard 1-99999999999` built the whole range before checking it: MemoryError."""
    code, out, err = run(["sim", "deep_rock_galactic", "--hazard", hazard, "--games", "1"], capsys)
    assert code == 2 and "Hazard levels go from 1 to 5" in err and out == ""


TOMB_PARTY = "content/clank_catacombs/packs/tomb_party"


@pytest.mark.parametrize("html", ["/dev/full", "{tmp}/missing/r.html", "{tmp}/fifo", "",
                                  "{tmp}"])
def test_balance_html_that_cannot_be_written_is_refused_before_the_games(tmp_path, capsys,
                                                                        monkeypatch, html):
    """`balance --html /dev/full` (or into a missing folder) played every game, then failed
    writing: an internal error. `--html ""` was silently not written."""
    from tomecraft.compiler import balance
    os.mkfifo(tmp_path / "fifo")
    monkeypatch.setattr(balance, "run", lambda *a, **k: pytest.fail("games played"))
    code, out, err = run(["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "2",
                          "--workers", "1", "--quiet", "--html", html.replace("{tmp}", str(tmp_path))],
                         capsys)
    assert code == 2 and "--html" in err and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_balance_html_write_that_fails_leaves_no_page_behind(tmp_path, capsys, monkeypatch):
    """A full disk while the page is written: a usage error, and no half page left as if good."""
    from tomecraft.compiler import console

    class FullDisk:  # os, for console.write_atomic only: its last step fails
        def __getattr__(self, name):
            return getattr(os, name)

        def replace(self, *args):
            raise OSError(28, "No space left on device")
    monkeypatch.setattr(console, "os", FullDisk())
    code, _, err = run(["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "1",
                        "--workers", "1", "--quiet", "--html", tmp_path / "r.html"], capsys)
    assert code == 2 and "No space left on device" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["nonsense", "inproc://x", ""])
def test_a_dask_address_that_leads_nowhere_is_a_usage_error(capsys, monkeypatch, address):
    """`balance --dask nonsense` was an internal error (ValueError: missing port number);
    `--dask ''` ran locally as if no --dask had been given."""
    pytest.importorskip("distributed")
    from tomecraft.compiler import balance
    monkeypatch.setattr(balance, "run", lambda *a, **k: pytest.fail("games played"))
    code, out, err = run(["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "1",
                          "--workers", "1", "--quiet", "--dask", address], capsys)
    assert code == 2 and "--dask" in err and out == ""


@pytest.mark.parametrize("option, value", [("--workers", "1000"), ("--workers", "-1"),
                                           ("--games", str(10**12)), ("--max-games", "-5"),
                                           ("--max-games", str(10**12))])
def test_balance_sizes_beyond_reason_are_usage_errors(capsys, monkeypatch, option, value):
    """`balance --workers 1000` forked a thousand processes at once (build stops at 64);
    `--games 10**12` listed every game index first: MemoryError, an internal error."""
    from tomecraft.compiler import balance
    monkeypatch.setattr(balance, "run", lambda *a, **k: pytest.fail("games played"))
    argv = {"--workers": "1", "--games": "1", "--max-games": "0", option: value}
    code, out, err = run(["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--quiet",
                          "--until-significant", *[x for kv in argv.items() for x in kv]], capsys)
    assert code == 2 and option in err and out == ""


@pytest.mark.parametrize("command", ["sheets", "cards"])
@pytest.mark.parametrize("out", ["", "content/the_cave", "content", "{pack}", "{pack}/prints",
                                 "generated", "generated/the_cave", "schemas", "tests/x",
                                 "compiler"])
def test_printouts_are_not_written_into_the_content_or_the_current_folder(tmp_path, capsys,
                                                                          command, out):
    """`--out content/the_cave` wrote content/the_cave/the_cave/*.html among the game's files;
    `--out ''` wrote into the current folder (here: the repository's root); `--out generated`
    (or schemas, tests...) among the build's outputs or tomecraft's code."""
    pack = make_pack(tmp_path, {})
    before = sorted(REPO.rglob("*.html")) + sorted(tmp_path.rglob("*"))
    code, out_text, err = run([command, "--game", "the_cave", "--pack", pack, "--lang", "en",
                               "--format", "html", "--out", out.replace("{pack}", str(pack))],
                              capsys)
    assert code == 2 and "--out" in err
    assert sorted(REPO.rglob("*.html")) + sorted(tmp_path.rglob("*")) == before


def test_a_newline_in_an_out_path_cannot_forge_a_line_of_progress(tmp_path, capsys):
    """`--out 'x\\nerror[TC-E001]: ...'` printed `writing x` and a forged line on its own."""
    out = tmp_path / "x\nerror[TC-E001]: forged"
    code, _, err = run(["cards", "--game", "the_cave", "--lang", "en", "--format", "html",
                        "--out", out], capsys)
    assert code == 0 and (out / "the_cave" / "print_and_play.en.html").is_file()
    assert "forged" in err and not any(line.startswith("error[") for line in err.splitlines())


@pytest.mark.parametrize("argv", [
    ["sheets", "--game", "the_cave", "--pack", "{tmp}/x\nerror[TC-E001]: forged"],
    ["schema", "--out", "{tmp}/file\nerror[TC-E001]: forged"],
    ["scenario", "run", "{tmp}/none\nerror[TC-E001]: forged"],
])
def test_a_newline_in_a_path_cannot_forge_a_usage_error_line(tmp_path, capsys, argv):
    (tmp_path / "file\nerror[TC-E001]: forged").write_text("a file")
    code, _, err = run([a.replace("{tmp}", str(tmp_path)) for a in argv], capsys)
    assert code == 2 and "forged" in err
    assert not any(line.startswith("error[") for line in err.splitlines()), err


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_github_and_sarif_output_escape_controls_in_file_names(tmp_path, capsys, fmt):
    """`check --format github` printed a file name's ESC, BEL, U+202E and U+009B raw (text and
    json escaped them); sarif left the bidi and C1 controls raw (json.dumps keeps them)."""
    pack = make_pack(tmp_path, {f"bad{ESC}]0;x\x07\u202e\x9b.yaml": "tokens: [1, 2"})
    code, out, err = run(["check", "content/the_cave", "--pack", pack, "--format", fmt], capsys)
    assert code == 1 and "bad" in out
    for raw in (ESC, "\x07", "\u202e", "\x9b"):
        assert raw not in out + err
    if fmt == "sarif":
        assert json.loads(out)["runs"][0]["results"]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_balance_report_escapes_controls_in_a_pack_folders_name(tmp_path, capsys, as_json):
    """A --pack folder named `tp<ESC>[31m<U+202E><U+009B>` reached the balance report raw:
    the text's first line, the JSON's packs (C1 and bidi) and the HTML page's title."""
    pack = tmp_path / f"tp{ESC}[31m\u202e\x9b"
    shutil.copytree(REPO / TOMB_PARTY, pack)
    html = tmp_path / "r.html"
    code, out, err = run(["balance", "clank_catacombs", "--pack", pack, "--games", "1",
                          "--workers", "1", "--quiet", "--html", html]
                         + (["--json"] if as_json else []), capsys)
    assert code == 0 and "tp" in out
    for raw in (ESC, "\u202e", "\x9b"):
        assert raw not in out + err and raw not in html.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [["sim", "the_cave", "--games", "1"],
                                     ["balance", "the_cave", "--games", "1", "--workers", "1"],
                                     ["scenario", "run", "tests/scenarios/the_cave/ex_camp_base.yaml"]])
def test_a_pack_holding_a_symlink_loop_is_a_diagnostic_in_every_command(tmp_path, capsys,
                                                                        command):
    """`loop.yaml -> loop.yaml` in a pack: check reported it, but sim, balance and scenario
    hashed the pack first, and Path.resolve raised RuntimeError: an internal error. One
    scenario file: each file loads the game with the pack again."""
    pack = make_pack(tmp_path, {})
    os.symlink("loop.yaml", pack / "loop.yaml")
    code, out, err = run([*command, "--pack", pack], capsys)
    assert code == 1 and "loop.yaml" in out + err


def test_sim_with_a_folder_that_is_no_pack_says_so_before_reading_it(tmp_path, capsys,
                                                                       monkeypatch):
    """`sim --pack /` walked and hashed every YAML file on the machine before saying / holds no
    pack.yaml (and met a symlink loop somewhere under /tmp: an internal error)."""
    from tomecraft.compiler import fingerprint
    monkeypatch.setattr(fingerprint, "roots_hash", lambda roots: pytest.fail(f"hashed {roots}"))
    (tmp_path / "deep").mkdir()
    code, out, err = run(["sim", "the_cave", "--games", "1", "--pack", tmp_path], capsys)
    assert code == 1 and "pack.yaml is missing" in out


@pytest.mark.parametrize("command", [["sim", "the_cave", "--games", "1"],
                                     ["scenario", "run", "tests/scenarios/the_cave/ex_camp_base.yaml"]])
def test_deep_pack_folders_are_a_diagnostic_in_sim_and_scenario_too(deep_packs, capsys, command):
    """check refused 1,200 nested folders, but sim and scenario hashed the pack first with
    os.walk, which recurses once per level: RecursionError, an internal error. One scenario
    file: each file loads the game with the pack again (the Cave's 162 took 2 CPU-s here)."""
    code, out, err = run([*command, "--pack", deep_packs(1_200)], capsys)
    assert code == 1 and str(packs.MAX_DIR_DEPTH) in out + err


def test_an_oversized_file_is_not_read_to_hash_it(tmp_path, capsys, monkeypatch):
    """sim read a pack's every YAML file whole to hash it, before the loader's 2 MiB limit."""
    from tomecraft.compiler import fingerprint
    pack = make_pack(tmp_path, {})
    with open(pack / "huge.yaml", "wb") as handle:
        handle.truncate(fingerprint._MAX_READ + 1)           # sparse: no disk used
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole")
                        if self.name == "huge.yaml" else real(self))
    code, out, err = run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)
    assert code == 1 and "huge.yaml" in out


@pytest.mark.parametrize("argv", [["schema", "--out", ""],
                                  ["new", "pack", "the_cave", "{tmp}/p", "--id", ""]])
def test_empty_option_values_are_usage_errors(tmp_path, capsys, monkeypatch, argv):
    """`schema --out ''` wrote every schema into the current folder; `new --id ''` took the
    folder's name as if no --id had been given."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run([a.replace("{tmp}", str(tmp_path)) for a in argv], capsys)
    assert code == 2 and ("--out" in err or "--id" in err) and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["explain", "TC-E001"], ["report", "gaps"], ["--help"]])
def test_a_standard_output_that_refuses_writes_is_no_internal_error(argv):
    """`tomecraft report gaps > /dev/full` said 'internal error: OSError ... this is a bug in
    tomecraft' (--help: a traceback); a full disk is the user's to fix, said in one line."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *argv], cwd=REPO,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "No space left on device" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_player_count_given_twice_is_played_once(capsys):
    """`balance --players 2 --players 2 --games 3` played 6 games per side, each pair twice:
    duplicated samples narrow every interval (differences flagged that are not there)."""
    code, out, _ = run(["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "3",
                        "--workers", "1", "--quiet", "--json", "--players", "2", "--players", "2"],
                       capsys)
    report = json.loads(out)
    assert code == 0 and list(report["by_players"]) == ["2"]
    assert report["by_players"]["2"]["base"]["games"] == 3
    assert sorted(r["index"] for r in report["records"]["2:base"]) == [0, 1, 2]


@pytest.mark.parametrize("argv", [["check"], ["sim", "evil", "--games", "1"], ["contract", "evil"],
                                  ["scenario", "format", "evil"]])
def test_a_game_naming_an_engine_tomecraft_lacks_is_refused_at_its_line(tmp_path, capsys,
                                                                         monkeypatch, argv):
    """A fan's game.yaml with `engine: nope` checked clean, then sim and scenario format
    imported tomecraft.runtime.engines.nope: ModuleNotFoundError, an internal error;
    contract said 'no contract yet' with exit 0."""
    game = tmp_path / "content" / "evil"
    shutil.copytree(REPO / "content" / "the_cave", game, ignore=shutil.ignore_patterns("packs"))
    text = (game / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("engine: the_cave", "engine: nope").replace("game: the_cave", "game: evil")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code in (1, 2) and ("engine 'nope'" in out or "does not load" in err), out + err
    if code == 1:
        assert "game.yaml:" in out


def test_a_newline_in_a_file_name_cannot_forge_a_diagnostic_line(tmp_path, capsys):
    """A pack file named 'x<newline>tokens.yaml:1:1: error[TC-E001]: forged.yaml' printed its
    diagnostic on two lines, the second a well-formed error of a file that has none."""
    pack = make_pack(tmp_path, {"x\ntokens.yaml:1:1: error[TC-E001]: forged.yaml": "tokens: [1, 2"})
    code, out, _ = run(["check", "content/the_cave", "--pack", pack], capsys)
    assert code == 1 and "forged" in out
    assert not any(line.startswith("tokens.yaml") for line in out.splitlines()), out


def test_a_newline_in_a_scenario_name_cannot_forge_a_verdict(tmp_path, capsys):
    """A scenario named "x\\nok    all.yaml: everything passes" (content text may hold a
    newline) printed a verdict line of its own; so did a scenario file's name."""
    source = sorted((REPO / "tests" / "scenarios" / "the_cave").glob("*.yaml"))[0]
    text = source.read_text(encoding="utf-8")
    name_line = next(line for line in text.splitlines() if line.startswith("name:"))
    (tmp_path / "a.yaml").write_text(text.replace(
        name_line, 'name: "x\\nok    all.yaml: everything passes"'), encoding="utf-8")
    (tmp_path / "b\nok    forged.yaml").write_text("game: the_cave\nsteps: [1, 2\n")
    code, out, _ = run(["scenario", "run", tmp_path], capsys)
    assert code == 1 and "forged" in out and "everything passes" in out
    assert [line[:6] for line in out.splitlines()[:-1]].count("ok    ") <= 1, out


def test_sim_usage_is_not_dropped_by_a_hazard_level(capsys):
    """`sim deep_rock_galactic --hazard 3 --usage` printed no usage at all: the option was
    silently dropped; a sweep of several levels cannot show it on its one line a level."""
    code, out, _ = run(["sim", "deep_rock_galactic", "--hazard", "3", "--usage", "--games", "1"],
                       capsys)
    assert code == 0 and "usage (entities" in out
    code, _, err = run(["sim", "deep_rock_galactic", "--hazard", "1-2", "--usage", "--games", "1"],
                       capsys)
    assert code == 2 and "--usage" in err


@pytest.mark.parametrize("argv", [
    ["sheets", "--mission", "{mission}", "--game", "the_cave", "--out", "{tmp}/o"],
    ["sheets", "--mission", "{mission}", "--all", "--out", "{tmp}/o"],
    ["sheets", "--mission", "{mission}", "--edition", "designer", "--out", "{tmp}/o"],
    ["schema", "the_cave/token.schema.json", "--out", "{tmp}/o"],
    ["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--max-games", "8", "--games", "1",
     "--workers", "1"],
])
def test_an_option_that_would_be_ignored_is_a_usage_error(tmp_path, capsys, argv):
    """Each of these was silently ignored (`sheets --mission M --game the_cave` wrote the
    mission's briefing and no Cave sheet; `schema NAME --out` wrote every schema)."""
    mission = sorted((REPO / "tests" / "deep_rock_galactic" / "missions" / "valid").glob("*.yaml"))[0]
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{mission}", str(mission)) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and not (tmp_path / "o").exists(), err


def test_schema_out_never_writes_through_a_planted_symlink(tmp_path, capsys):
    """A symlink at --out/the_cave/token.schema.json led the schema into the file it points at,
    outside the chosen folder; sheets and cards already replaced such a link."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "out" / "the_cave").mkdir(parents=True)
    os.symlink(victim, tmp_path / "out" / "the_cave" / "token.schema.json")
    code, _, err = run(["schema", "--out", tmp_path / "out"], capsys)
    assert code == 0, err
    assert victim.read_text() == "keep me"
    written = tmp_path / "out" / "the_cave" / "token.schema.json"
    assert not written.is_symlink() and json.loads(written.read_text(encoding="utf-8"))


def test_balance_progress_writes_to_the_stderr_of_now(monkeypatch):
    """Progress bound sys.stderr at import: a later run in the same process (another test's
    capture, an embedding program that swapped stderr) wrote to a closed stream, and
    `balance --players 5` said 'error: I/O operation on closed file' instead of why."""
    import io
    from tomecraft.compiler.balance.runner import Progress
    now = io.StringIO()
    monkeypatch.setattr(sys, "stderr", now)
    assert Progress(5, quiet=False).stream is now

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stderr", Terminal())
    bar = Progress(5, quiet=False)
    bar(1)
    assert bar.on and "1/5 games" in sys.stderr.getvalue()   # the bar still shows on a terminal


@pytest.mark.parametrize("game", ["[x]", "{a: 1}"])
@pytest.mark.parametrize("command", [["check", "{file}"],
                                     ["sim", "deep_rock_galactic", "--games", "1", "--mission", "{file}"],
                                     ["sheets", "--mission", "{file}", "--out", "{tmp}/o"]])
def test_a_yaml_file_whose_game_is_not_a_name_is_a_diagnostic(tmp_path, capsys, game, command):
    """`game: [x]` in a file given to check, sim --mission or sheets --mission: the mission
    test looked the list up in a set: TypeError (unhashable type), an internal error."""
    path = tmp_path / "m.yaml"
    path.write_text(f"game: {game}\nmission: {{id: x}}\n", encoding="utf-8")
    code, out, err = run([a.replace("{file}", str(path)).replace("{tmp}", str(tmp_path))
                          for a in command], capsys)
    assert code in (1, 2) and "m.yaml" in out + err and not (tmp_path / "o").exists()


@pytest.mark.parametrize("requires", ["1", "true", "1.5"])
def test_a_requires_that_is_not_a_list_is_a_diagnostic_in_check(tmp_path, capsys, requires):
    """`requires: 1` in pack.yaml: sim reported it at its line, but `check --pack` iterated the
    number looking for shipped packs: TypeError, an internal error."""
    pack = make_pack(tmp_path, {"pack.yaml": f"id: fan\ngame: the_cave\nversion: '1'\n"
                                             f"requires: {requires}\n"})
    code, out, err = run(["check", "--pack", pack, "--format", "json"], capsys)
    assert code == 1 and located(out)[0]["file"].endswith("pack.yaml")


@pytest.mark.parametrize("argv, sub", [
    (["sheets", "--game", "the_cave", "--lang", "en", "--format", "html"], "the_cave"),
    (["cards", "--game", "the_cave", "--lang", "en", "--format", "html"], "the_cave"),
    (["schema"], "the_cave"),
])
def test_a_symlinked_folder_planted_in_out_does_not_lead_the_files_elsewhere(tmp_path, capsys,
                                                                             argv, sub):
    """--out DIR holding DIR/the_cave -> elsewhere: the sheets, cards or schemas were written
    into `elsewhere`, outside the folder chosen; now a usage error naming the link."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    os.symlink(elsewhere, tmp_path / "out" / sub)
    code, _, err = run([*argv, "--out", tmp_path / "out"], capsys)
    assert code == 2 and "symbolic link" in err and str(tmp_path / "out" / sub) in err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["fifo", "folder"])
def test_a_game_yaml_that_is_no_file_is_named_not_called_unknown(tmp_path, capsys, monkeypatch,
                                                                 make):
    """content/evil/game.yaml a FIFO or a folder: `sim evil` said "unknown game 'evil' (games:
    evil)", contradicting itself; it now says what is wrong with the file (and never reads it)."""
    (tmp_path / "content" / "evil").mkdir(parents=True)
    shutil.copytree(REPO / "content" / "the_cave", tmp_path / "content" / "the_cave",
                    ignore=shutil.ignore_patterns("packs"))
    make(tmp_path / "content" / "evil" / "game.yaml")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["sim", "evil", "--games", "1"], capsys)
    assert code == 2 and "not a regular file" in err and "unknown game" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv, code", [
    (["sim", "the_cave", "--games", "2"], 0),
    (["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "1", "--workers", "1"], 0),
    (["sim", "nope"], 2),
])
def test_a_standard_error_that_refuses_writes_does_not_stop_the_command(argv, code):
    """`sim the_cave 2>/dev/full`: the first progress line failed, the internal-error message
    failed too, and the command ended with exit 1 and no summary on its working stdout."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *argv], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=full, text=True, timeout=300)
    assert done.returncode == code
    assert (done.stdout != "") == (code == 0)


# --- follow-ups of round 3: command-line consistency -------------------------------------------

@pytest.mark.parametrize("argv", [
    ["check"],
    ["sim", "the_cave", "--games", "1"],
    ["cards", "--game", "the_cave", "--format", "html", "--lang", "en", "--out", "{tmp}/out"],
], ids=["check", "sim", "cards"])
def test_the_same_pack_folder_given_twice_is_loaded_once_by_every_command(tmp_path, capsys, argv):
    """`check --pack P --pack P` skipped the duplicate; `sim` and the others said 'loaded twice'."""
    pack = make_pack(tmp_path, {})
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(argv + ["--pack", pack, "--pack", f"{pack}/"], capsys)
    assert code == 0 and "loaded twice" not in out + err, out + err


def test_two_folders_holding_one_pack_id_still_conflict(tmp_path, capsys):
    first, second = make_pack(tmp_path, {}), make_pack(tmp_path, {}, name="copy")
    code, out, _ = run(["sim", "the_cave", "--games", "1", "--pack", first, "--pack", second],
                       capsys)
    assert code == 1 and "TC-P002" in out and "already loaded from another folder" in out
    assert "rename one of the two" in out


def _engine_bug(*args, **kwargs):
    raise ValueError("an engine bug while playing")


@pytest.mark.parametrize("argv", [
    ["sim", "the_cave", "--games", "1"],
    ["sim", "deep_rock_galactic", "--games", "1", "--hazard", "1-2"],
    ["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "1", "--workers", "1",
     "--quiet"],
], ids=["sim", "sim-hazard", "balance"])
def test_a_value_error_while_playing_is_an_internal_error_not_a_usage_error(capsys, monkeypatch,
                                                                             argv):
    """`sim` and `balance` showed any ValueError raised while playing as a usage error (exit 2):
    an engine bug passed for the user's mistake. Only the set-up checks are usage errors."""
    from tomecraft.runtime import sim
    monkeypatch.setattr(sim, "play_one", _engine_bug)
    monkeypatch.delenv("TOMECRAFT_DEBUG", raising=False)
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 3 and "internal error: ValueError: an engine bug" in err, err


@pytest.mark.parametrize("argv, said", [
    (["sim", "the_cave", "--players", "9"], "is for 2-5 players"),
    (["sim", "deep_rock_galactic", "--hazard", "4"], "no hazard level 14 in the content"),
    (["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--players", "9", "--workers", "1"],
     "is for 2-6 players"),
])
def test_what_the_engine_refuses_to_set_up_is_a_usage_error_before_any_game(capsys, monkeypatch,
                                                                           argv, said):
    from tomecraft.runtime import sim
    from tomecraft.runtime.engines.deep_rock_galactic import mission_setup
    real = mission_setup.hazard_of
    monkeypatch.setattr(sim, "play_one", lambda *a, **k: pytest.fail("a game was played"))
    monkeypatch.setattr(mission_setup, "hazard_of", lambda data, level: real(data, level + 10)
                        if level == 4 else real(data, level))   # as if a pack removed level 4
    code, out, err = run(argv + ["--games", "1"], capsys)
    assert code == 2 and said in err and out == "", err


@pytest.mark.parametrize("where", ["inside", "outside", "above"])
def test_sarif_uris_are_uris_not_raw_paths(tmp_path, capsys, monkeypatch, where):
    """`check --format sarif` wrote raw paths as `uri` ("my packs/fan #1/pack.yaml"): SARIF
    2.1.0 wants URI references, relative ones against a uriBaseId."""
    from urllib.parse import unquote, urlsplit
    folder = tmp_path / "my packs" / "fan #1 été%"
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text("id: fan\ngame: nope\nversion: '1.0'\n", encoding="utf-8")
    if where == "inside":
        monkeypatch.chdir(tmp_path)
    elif where == "above":      # `check ../fan`: the diagnostics' relative path leaves SRCROOT
        (tmp_path / "elsewhere").mkdir()
        monkeypatch.chdir(tmp_path / "elsewhere")
        folder = Path("..") / "my packs" / "fan #1 été%"
    code, out, _ = run(["check", folder, "--format", "sarif"], capsys)
    run_log = json.loads(out)["runs"][0]
    location = run_log["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    uri = location["uri"]
    assert code == 1 and " " not in uri and "#" not in uri and uri.isascii(), uri
    if where == "inside":
        base = run_log["originalUriBaseIds"][location["uriBaseId"]]["uri"]
        assert base.startswith("file:///") and base.endswith("/")
        assert unquote(uri) == "my packs/fan #1 été%/pack.yaml"
    else:       # a file: URI, the absolute path (packs round 11: "../my packs/..." was relative)
        absolute = tmp_path / "my packs" / "fan #1 été%" / "pack.yaml"
        assert urlsplit(uri).scheme == "file" and unquote(urlsplit(uri).path) == str(absolute)


def test_report_gaps_text_keeps_each_note_on_one_line():
    """A note written as a YAML block (`note: |`) printed across several lines, the later ones
    looking like facts of their own; a folded note (`>`) added an empty line."""
    from tomecraft.compiler import report
    row = {"game": "g", "pack": "g", "kind": "tile", "id": "t", "file": "g/t.yaml", "line": 3,
           "source": "public", "field": "a\nb"}
    text = report.format_text([{**row, "note": "first line\n  public tile x.y (g/x.yaml:1)\n"},
                               {**row, "note": "folded\n"}])
    assert text.splitlines() == [
        "g: 2 facts not from the rulebook",
        "  public        tile t.a\\nb  (g/t.yaml:3)",
        "      first line\\n  public tile x.y (g/x.yaml:1)",
        "  public        tile t.a\\nb  (g/t.yaml:3)",
        "      folded",
        "0 approximations, 2 public facts"]


@pytest.mark.parametrize("value", [" 3", "３", "3_0", "+3", "٣"])
@pytest.mark.parametrize("argv", [
    ["sim", "deep_rock_galactic", "--games", "1", "--hazard"],
    ["sim", "the_cave", "--games", "1", "--seed"],
    ["sim", "the_cave", "--players"],
    ["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--workers", "1", "--games"],
    ["balance", "clank_catacombs", "--pack", TOMB_PARTY, "--games", "1", "--seed"],
    ["build", "--check", "--workers"],
], ids=["hazard", "sim-seed", "players", "balance-games", "balance-seed", "workers"])
def test_numeric_options_take_ascii_digits_only(capsys, monkeypatch, argv, value):
    """`--hazard ' 3'` and `--hazard ３` (full width) were played as 3: int() takes spaces,
    underscores, a '+' and any script's digits. Every numeric option refuses them alike."""
    from tomecraft.runtime import sim
    monkeypatch.setattr(sim, "play_one", lambda *a, **k: pytest.fail("a game was played"))
    code, out, err = run(argv + [value], capsys)
    assert code == 2 and out == "" and repr(value) in err, err


@pytest.mark.parametrize("out", ["schemas", "schemas/the_cave", "generated", "tests/x"])
def test_schema_out_is_not_written_into_the_builds_folders(tmp_path, capsys, out):
    """`schema --out schemas` (or generated/, tests/) wrote among what `tomecraft build` owns."""
    before = sorted(REPO.rglob("*.schema.json"))
    code, stdout, err = run(["schema", "--out", out], capsys)
    assert code == 2 and "--out" in err and stdout == ""
    assert sorted(REPO.rglob("*.schema.json")) == before


def test_a_budget_runaway_names_the_effect_that_ran_the_one_it_stopped_in(tmp_path):
    """A pack's event card `repeat 1000: reveal_swarm 1000` ran the base Swarm card's spawn a
    million times, and the budget ran out inside the base card: the diagnostic named only
    content/deep_rock_galactic/cards.yaml, not the pack's card that ran it."""
    from tomecraft.compiler import packs
    from tomecraft.runtime import effects
    card = tmp_path / "event_cards.yaml"
    err = effects.RunawayEffect("the game's effects ran past their budget of 1,000,000 steps")
    err.add_note("in effect from content/deep_rock_galactic/cards.yaml:18")
    err.add_note(f"in effect from {card}:14")
    reporter = dg.Reporter()
    packs.effect_diagnostic(err, reporter)
    [found] = reporter.diagnostics
    assert found.code == dg.STEP_BUDGET and found.file.endswith("cards.yaml") and found.line == 18
    assert found.message.endswith(f", in an effect run from {packs.display_origin(f'{card}:14')}")
    alone = effects.RunawayEffect("the game's effects ran past their budget of 1,000,000 steps")
    alone.add_note(f"in effect from {card}:14")
    reporter = dg.Reporter()
    packs.effect_diagnostic(alone, reporter)
    assert "run from" not in reporter.diagnostics[0].message   # one effect: said once


def test_an_engine_stop_outside_any_effect_is_placed_at_the_content_played(tmp_path):
    """An EffectError the engine raises outside any one effect (a pack's content it cannot
    play) was printed "?:1:1: error[...]": it is placed at the folder played, and says so."""
    from tomecraft.compiler import packs
    from tomecraft.runtime import effects
    pack = tmp_path / "fan_pack"
    pack.mkdir()
    reporter = dg.Reporter()
    packs.effect_diagnostic(effects.EffectError("P1 cannot move to (-1, 1) via wade"), reporter,
                            pack)
    [found] = reporter.diagnostics
    assert (found.file, found.line) == (packs.display_path(pack), 1)
    assert found.message.endswith("(outside any one effect of this content)")
    assert not dg.format_text(reporter).startswith("?")
