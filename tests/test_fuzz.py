"""Fuzzing (issue 15): hostile YAML, effect text and pack layouts against `check`, `build`,
`sim --games 1` and `sheets`. Whatever is generated, the answer is exit 0, 1 (located
diagnostics) or 2 (usage), never an internal error, a traceback, a hang, a leaked line of a
file outside the content, or a raw control character.

The default run is small and derandomized (a fixed set of inputs, about 15 s in all). The
long run draws fresh random inputs; TOMECRAFT_FUZZ_EXAMPLES sets how many for the fast
targets (the loader and the checker, a few milliseconds an input), and a fiftieth of that
for the slow ones that run the command line (check, build, sim, sheets):

    TOMECRAFT_FUZZ_EXAMPLES=100000 python -m pytest -q -p no:cacheprovider tests/test_fuzz.py

(README, "Safety", gives the figures of such a run.)
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tomecraft.compiler import checks, cli, loader, pipeline
from tomecraft.compiler import diagnostics as dg

REPO = Path(__file__).resolve().parents[1]
LONG = int(os.environ.get("TOMECRAFT_FUZZ_EXAMPLES", "0"))
SECRET = "fuzz-secret-line: never print me"
RAW = ("\x1b", "\x00", "\x07", "\x9b", "\u202e")


def fuzz(fast: int, slow: bool = False):
    """Hypothesis settings: `fast` examples by default (derandomized, so CI sees the same
    inputs every run), else TOMECRAFT_FUZZ_EXAMPLES (a fiftieth for slow targets)."""
    if LONG:
        count, derandomize = max(1, LONG // 50 if slow else LONG), False
    else:
        count, derandomize = fast, True
    return settings(max_examples=count, derandomize=derandomize, deadline=None,
                    database=None, suppress_health_check=list(HealthCheck))


def clean_run(argv, capsys, allowed=(0, 1)) -> tuple[int, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    text = out + err
    assert code in allowed, (argv, code, text[-2000:])
    assert "internal error" not in text and "Traceback" not in text, text[-2000:]
    assert not any(ch in text for ch in RAW), "a raw control character reached the terminal"
    assert SECRET not in text
    return code, out


# --- hostile YAML ---------------------------------------------------------------------------

_PIECES = ["[", "]", "{", "}", "- ", ": ", ", ", "\n", "  ", "\t", "&a ", "*a ", "? ",
           "!!python/object:os.system ", "!x ", "<<: ", "|\n", ">-\n", "# c\n", "'", '"',
           '"\\e[31m"', '"\\0"', '"\\u202e"', '"x\\n"', "0x" + "f" * 60, "9" * 40, "-0o777",
           ".inf", ".nan", "~", "null", "true", "tokens", "id", "class", "self", "import",
           "name", "zh", "en", "note", "---\n", "...\n", "%YAML 1.1\n", "\u00e9", "洞",
           "\ufeff", "\x00", "\x1b", "\x85", "\r\n", "2001-01-01"]


@st.composite
def hostile_yaml(draw) -> bytes:
    kind = draw(st.sampled_from(["soup", "nested", "entity", "bytes"]))
    if kind == "soup":
        return "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=60))).encode("utf-8")
    if kind == "nested":
        depth = draw(st.sampled_from([1, 63, 64, 65, 66, 200, 5_000, 40_000]))
        opener, closer = draw(st.sampled_from([("[", "]"), ("{a: ", "}"), ("- ", "")]))
        return ("tokens: " + opener * depth + "1" + closer * depth + "\n").encode()
    if kind == "entity":
        value = draw(st.one_of(
            st.sampled_from(['"zz\\n"', "class", "import", "self", '"a\\e"', "0x" + "f" * 5000,
                             "9" * 5000, '"\\x00"', "&a [*a, *a]", "!!binary AAAA", '""']),
            st.text(max_size=30).map(json.dumps)))
        field = draw(st.sampled_from(["id", "note", "points", "term", "category", "name",
                                      "source", '"x\\n"', "self"]))
        text = ("tokens:\n  - id: fuzz_token\n    name: {zh: 甲, en: A}\n    source: rulebook\n"
                "    ref: L1\n    term: traverse\n    points: 1\n    category: traverse\n")
        lines = [line for line in text.splitlines() if not line.strip().startswith(f"{field}:")]
        return ("\n".join(lines) + f"\n    {field}: {value}\n").encode("utf-8")
    return draw(st.binary(max_size=200))


def _check_diagnostics(reporter: dg.Reporter) -> None:
    for d in reporter.diagnostics:
        assert d.code in dg.CODES and d.line >= 1 and d.column >= 1 and d.message
    text = dg.format_text(reporter) + dg.format_json(reporter)
    assert not any(ch in text for ch in RAW)


@fuzz(400)
@given(hostile_yaml())
def test_loader_never_raises(raw):
    reporter = dg.Reporter()
    loader.load_bytes(raw, Path("fuzz.yaml"), reporter, "fuzz.yaml")
    _check_diagnostics(reporter)


def _pack(root: Path, files: dict[str, bytes]) -> Path:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    (root / "pack.yaml").write_text("id: fuzz\ngame: the_cave\nversion: '1'\n")
    for name, raw in files.items():
        (root / name).write_bytes(raw)
    return root


@fuzz(12, slow=True)
@given(hostile_yaml())
def test_check_and_sim_answer_any_content_file(tmp_path_factory, capsys, raw):
    os.chdir(REPO)
    pack = _pack(tmp_path_factory.mktemp("yaml") / "fuzz", {"fuzz.yaml": raw})
    code, _ = clean_run(["check", "content/the_cave", "--pack", pack], capsys)
    if code == 0:
        clean_run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)


# --- effect text ----------------------------------------------------------------------------

_INTS = st.one_of(st.integers(0, 12), st.sampled_from([999, 1000, 1001, 10**6, 10**9,
                                                       10**40]))
_TOKENS = st.sampled_from(["traverse", "water", "photo", "squeeze_1", "class", "zz"])


def _int_expr(depth: int):
    leaf = st.one_of(_INTS.map(str), st.just("depth_levels()"), st.just("count(player)"),
                     st.just("v"))
    if depth <= 0:
        return leaf
    sub = _int_expr(depth - 1)
    return st.one_of(leaf, st.tuples(sub, st.sampled_from(["+", "-", "*", "//"]), sub)
                     .map(lambda t: f"({t[0]} {t[1]} {t[2]})"))


def _statement(depth: int):
    simple = st.one_of(
        st.tuples(_TOKENS, _int_expr(2)).map(lambda t: f"gain_token {t[0]} {t[1]}"),
        _int_expr(2).map(lambda e: f"place_rope {e}"),
        _TOKENS.map(lambda t: f"take_token {t}"),
        st.just("reach_depth"), st.just("squeeze 2 squeeze_2"), st.just("desperate_move"),
        st.sampled_from(["v", "class", "x_1", "_x"]).flatmap(
            lambda name: _int_expr(2).map(lambda e: f"let {name} = {e}")),
        st.just("require at_base()"),
    )
    if depth <= 0:
        return simple
    body = _block(depth - 1)
    return st.one_of(
        simple,
        st.tuples(_int_expr(1), body).map(lambda t: f"repeat {t[0]} {{ {t[1]} }}"),
        body.map(lambda b: f"if rope_placed() {{ {b} }}"),
        body.map(lambda b: f"on enter: {b}"),
        body.map(lambda b: f"on discover {{ {b} }}"),
        body.map(lambda b: f"each player {{ {b} }}"),
        body.map(lambda b: f"may {{ {b} }}"),
        st.tuples(body, body).map(lambda t: f"choose {{ {t[0]} | {t[1]} }}"),
    )


def _block(depth: int):
    return st.lists(_statement(depth), min_size=1, max_size=3).map("; ".join)


effect_text = st.one_of(
    _block(2).map(lambda b: "let v = 2; " + b),
    st.lists(st.sampled_from(["repeat", "let", "=", "(", ")", "{", "}", ";", ":", "//", "0",
                              "1000000000", "gain_token", "traverse", "class", "on", "enter",
                              "each", "player", "->", "pay", "ap", "1", "\x1b", "\n", "é"]),
             max_size=25).map(" ".join),
)


def _effect_pack(root: Path, effect: str) -> Path:
    body = ("tile_kinds:\n  - id: normal\n    replace: true\n    name: {zh: 甲, en: A}\n"
            "    source: rulebook\n    ref: L1\n    discover_from: true\n"
            f"    enter: [{{id: walk, effect: {json.dumps('pay ap 1; ' + effect)}}}]\n"
            f"    on_discover: {json.dumps(effect)}\n")
    return _pack(root, {"fuzz.yaml": body.encode("utf-8")})


@pytest.fixture(scope="module")
def cave():
    """The Cave compiled once: effect text is checked against its vocabulary in-process."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / "the_cave", [], reporter)
    assert reporter.errors == 0
    return game


@fuzz(300)
@given(effect_text)
def test_checker_answers_any_effect_text(cave, effect):
    from tomecraft.compiler.model import EffectSite
    from tomecraft.dsl.parser import EffectSyntaxError, parse
    doc = cave.documents[0]
    try:
        ast = parse(effect)
    except EffectSyntaxError:
        return
    site = EffectSite(("fuzz",), effect, ast)
    reporter = dg.Reporter()
    checker = checks.Checker(cave, reporter)
    checker.check_site(site, doc, "fuzz.yaml", {})
    checker.where = checks._Where(doc, "fuzz.yaml", site.path)
    checks.Bounds(checker).visit(ast, {}, 1)
    _check_diagnostics(reporter)


@fuzz(10, slow=True)
@given(effect_text)
def test_effects_that_check_accepts_play_to_the_end(tmp_path_factory, capsys, effect):
    os.chdir(REPO)
    pack = _effect_pack(tmp_path_factory.mktemp("fx") / "fuzz", effect)
    code, _ = clean_run(["check", "content/the_cave", "--pack", pack], capsys)
    if code == 0:
        clean_run(["sim", "the_cave", "--games", "1", "--pack", pack], capsys)


def _clank_statement(depth: int):
    simple = st.one_of(
        st.tuples(st.sampled_from(["clank", "draw", "heal", "take_damage"]), _int_expr(1))
        .map(lambda t: f"{t[0]} {t[1]}"),
        st.tuples(st.sampled_from(["skill", "gold", "combat", "movement"]), _int_expr(1))
        .map(lambda t: f"gain {t[0]} {t[1]}"),
    )
    if depth <= 0:
        return simple
    body = st.lists(_clank_statement(depth - 1), min_size=1, max_size=2).map("; ".join)
    return st.one_of(
        simple,
        body.map(lambda b: f"during turn {{ on gain_clank {{ {b} }} }}"),
        body.map(lambda b: f"during turn {{ on play {{ {b} }} }}"),
        st.tuples(_int_expr(0), body).map(lambda t: f"repeat {t[0]} {{ {t[1]} }}"),
    )


@fuzz(6, slow=True)
@given(st.lists(_clank_statement(2), min_size=1, max_size=3).map("; ".join))
def test_clank_triggers_play_to_the_end(tmp_path_factory, capsys, effect):
    """Triggers can set each other off: the run-time budget, not the checker, stops them."""
    os.chdir(REPO)
    card = ("cards:\n  - id: burgle\n    replace: true\n    name: {zh: 扒窃, en: Burgle}\n"
            "    source: rulebook\n    ref: L63\n    card_type: starting\n    per_deck: 6\n"
            f"    play: {json.dumps('let v = 2; ' + effect)}\n")
    pack = _pack(tmp_path_factory.mktemp("clank") / "fuzz", {"cards.yaml": card.encode()})
    (pack / "pack.yaml").write_text("id: fuzz\ngame: clank_catacombs\nversion: '1'\n")
    code, _ = clean_run(["check", "content/clank_catacombs", "--pack", pack], capsys)
    if code == 0:
        clean_run(["sim", "clank_catacombs", "--games", "1", "--pack", pack], capsys)


# --- pack layouts ---------------------------------------------------------------------------

_ENTRY_NAMES = st.sampled_from(["a.yaml", "b.yml", "sub", "deep", "x", "pack.yaml", "game.yaml",
                                "missions", "scenarios", "é.yaml", "new\nline.yaml",
                                "..yaml", ".hidden.yaml"])


@st.composite
def layouts(draw) -> list[tuple[str, str, int]]:
    """(relative path, what, depth) entries: a file, a folder chain, or a symbolic link."""
    entries = []
    for _ in range(draw(st.integers(0, 6))):
        parts = draw(st.lists(_ENTRY_NAMES, min_size=1, max_size=3))
        what = draw(st.sampled_from(["file", "bad_file", "deep", "link_secret", "link_inside",
                                     "link_dir_out", "link_dangling", "link_loop"]))
        depth = draw(st.sampled_from([1, 16, 17, 40]))
        entries.append(("/".join(parts), what, depth))
    return entries


def _build_layout(pack: Path, entries, secret: Path) -> None:
    good = ("tokens:\n  - id: fuzz_{n}\n    name: {{zh: 甲, en: A}}\n    source: rulebook\n"
            "    ref: L1\n    term: traverse\n    points: 1\n    category: traverse\n")
    for n, (rel, what, depth) in enumerate(entries):
        path = pack / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() or path.is_symlink():
                continue
            if what == "file":
                path.write_text(good.format(n=n))
            elif what == "bad_file":
                path.write_bytes(b"tokens: [" + b"[" * 200)
            elif what == "deep":
                (path / "/".join(["d"] * depth)).mkdir(parents=True)
                (path / "/".join(["d"] * depth) / "t.yaml").write_text(good.format(n=n))
            elif what == "link_secret":
                os.symlink(secret, path)
            elif what == "link_inside":
                os.symlink(pack / "pack.yaml", path)
            elif what == "link_dir_out":
                os.symlink(secret.parent, path)
            elif what == "link_dangling":
                os.symlink(pack / "nowhere", path)
            elif what == "link_loop":
                os.symlink(path, path)
        except (OSError, ValueError):
            continue  # a layout the file system refuses is no test


@fuzz(15, slow=True)
@given(layouts())
def test_check_answers_any_pack_layout(tmp_path_factory, capsys, entries):
    os.chdir(REPO)
    scratch = tmp_path_factory.mktemp("layout")
    secret = scratch / "outside" / "secret.yaml"
    secret.parent.mkdir()
    secret.write_text(f"# {SECRET}\ntokens: []\n")
    pack = _pack(scratch / "fuzz", {})
    _build_layout(pack, entries, secret)
    clean_run(["check", "content/the_cave", "--pack", pack], capsys)
    clean_run(["check", "content/the_cave", "--pack", pack, "--format", "json"], capsys)


# --- build and sheets on a project holding the hostile content ------------------------------

@fuzz(3, slow=True)
@given(st.one_of(hostile_yaml(), effect_text.map(lambda e: ("tile_kinds:\n  - id: fz\n"
       "    name: {zh: 甲, en: A}\n    source: rulebook\n    ref: L1\n    discover_from: true\n"
       f"    enter: [{{id: walk, effect: {json.dumps(e)}}}]\n").encode())))
def test_build_and_sheets_answer_hostile_content(tmp_path_factory, capsys, raw):
    project = tmp_path_factory.mktemp("project")
    shutil.copytree(REPO / "content" / "the_cave", project / "content" / "the_cave")
    (project / "content" / "the_cave" / "fuzz.yaml").write_bytes(raw)
    os.chdir(project)
    try:
        code, _ = clean_run(["build"], capsys)
        if code == 1:
            assert not (project / "generated").exists()
        clean_run(["sheets", "--game", "the_cave", "--lang", "en", "--format", "html",
                   "--out", project / "sheets"], capsys)
    finally:
        os.chdir(REPO)
