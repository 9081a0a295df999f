"""A count that reads the game and comes out negative does nothing in play.

`check` refuses a constant below a parameter's `min:` (TC-N009: `gain skill 0`, `draw -2`), but
an amount read in play is not known until then: `pay gold (x)` with x at -2 gave 2 gold,
`take_damage (x)` healed, `draw (n - 3)` asked the engine for a negative number of cards.
For every verb of the five games whose int parameter declares `min:`, a pack keyword passes
its own parameter `n` to the verb; the keyword's compiled code, run with n negative, must
call and touch nothing (no handler, no inlined state change), and with n at the least it must
act. 0 read in play is handed on: an attack rolling no hits is still an attack (DRG's HE
grenade's area is chosen and checked, the sentry says "0 bullet hits": scenarios
r4_he_triangle_chosen, r2_sentry_once_per_swarm).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.keyword_packs import ROOT
from tomecraft.compiler import diagnostics as dg, pipeline
from tomecraft.compiler.loadgen import compile_and_import

GAMES = ["the_cave", "clank_catacombs", "dm_crawl_decks", "dungeontology", "deep_rock_galactic"]


def _argument(vocab, param) -> str:
    """An argument of the parameter's type: `n` for a count with a least, else a name the
    game's vocabulary gives that type (the first, sorted)."""
    if param.type == "int":
        return "n" if param.least is not None else "1"
    if param.type == "player":
        return "you"
    return min(name for name, types in vocab.names.items() if param.type in types)


def _probes(vocab) -> dict[str, tuple[str, int]]:
    """{keyword: (verb, least)}, one keyword per verb with a least, passing it `n`."""
    return {f"least_{name}": (name, min(p.least for p in verb.params if p.least is not None))
            for name, verb in sorted(vocab.verbs.items())
            if any(p.least is not None for p in verb.params)}


class _Recorder:
    """Whatever the compiled code calls or changes through it is written down (what it only
    reads is not: the inliner reads `ctx.you` once at the top of a function)."""

    def __init__(self, log: list, path: str) -> None:
        self._log, self._path = log, path

    def __getattr__(self, name: str):
        return _Recorder(self._log, f"{self._path}.{name}")

    def __call__(self, *args, **kwargs):
        self._log.append(f"{self._path}()")
        return _Recorder(self._log, f"{self._path}()")

    def __getitem__(self, key):
        return _Recorder(self._log, f"{self._path}[{key!r}]")

    def __ge__(self, other) -> bool:      # a cost's check (`ctx.you.ap >= n`) holds
        return True

    def __sub__(self, other):            # `ctx.you.ap -= n` reads, then sets (written down)
        return self

    __add__ = __sub__

    def __setitem__(self, key, value) -> None:
        self._log.append(f"{self._path}[{key!r}] =")

    def __setattr__(self, name: str, value) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            self._log.append(f"{self._path}.{name} =")


class _Ctx(_Recorder):
    def __init__(self) -> None:
        super().__init__([], "ctx")
        for name in ("verbs", "engine"):
            object.__setattr__(self, name, _Recorder(self._log, name))


@pytest.mark.parametrize("game", GAMES)
def test_an_amount_read_negative_does_nothing(tmp_path, game, monkeypatch):
    vocab = pipeline.compile_game(ROOT / "content" / game, [], dg.Reporter()).vocab
    probes = _probes(vocab)
    assert probes, f"{game} declares no `min:`: nothing under test"
    keywords = "".join(
        f"    {keyword}:\n      params: [{{name: n, type: int}}]\n"
        f"      effect: \"{verb} {' '.join(_argument(vocab, p) for p in vocab.verbs[verb].params)}\"\n"
        "      text: {zh: 探测, en: Probe}\n" for keyword, (verb, _) in probes.items())
    pack = tmp_path / "least_probe"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: least_probe\ngame: {game}\nversion: '1'\n"
                                    f"vocabulary:\n  keywords:\n{keywords}", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / game, [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    for keyword, (verb, least) in probes.items():
        run = data.keywords[keyword].effect
        for below in (-1, -3):
            ctx = _Ctx()
            assert run(ctx, below) is True
            assert ctx._log == [], (verb, below, ctx._log)
        ctx = _Ctx()
        run(ctx, least)
        assert ctx._log, (verb, least, "did nothing at its least")


def test_a_keyword_given_a_negative_count_is_not_run(tmp_path, monkeypatch):
    """A fan's keyword declaring `min:` (here 2), called with a count read in play that comes
    out negative, does nothing; with its least it runs."""
    pack = tmp_path / "least_keyword"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: least_keyword\ngame: clank_catacombs\nversion: '1'\nvocabulary:\n  keywords:\n"
        "    hoard:\n      params: [{name: n, type: int, min: 2}]\n      effect: gain gold n\n"
        "      text: {zh: 囤积, en: Hoard}\n"
        "    outer:\n      params: [{name: m, type: int}]\n      effect: hoard m\n"
        "      text: {zh: 外层, en: Outer}\n", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "clank_catacombs", [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    outer = data.keywords["outer"].effect
    ctx = _Ctx()
    assert outer(ctx, -1) is True and ctx._log == []
    ctx = _Ctx()
    outer(ctx, 2)
    assert ctx._log == ["verbs.gain()"], ctx._log


def test_a_count_known_not_below_0_is_not_tested_in_play(tmp_path, monkeypatch):
    """The test costs instructions in every effect that reads a count (The Cave's rappel entry
    went from 1.24x to 1.31x its hand-written twin): left out where the count cannot be
    below 0: a query declaring `min: 0` (`depth_levels()`), a let of one, their sums. Kept
    where it can (`x - 1`) or where nothing is known (a parameter with no `min:`)."""
    pack = tmp_path / "least_known"
    pack.mkdir()
    keywords = {"known": "let x = depth_levels(); pay ap (x + 1); place_rope (x * 2)",
                "unknown_sign": "let x = depth_levels(); pay ap (x - 1)",
                "unknown_param": "pay ap n"}
    (pack / "pack.yaml").write_text(
        "id: least_known\ngame: the_cave\nversion: '1'\nvocabulary:\n  keywords:\n" + "".join(
            f"    {name}:\n      params: [{{name: n, type: int}}]\n      effect: \"{effect}\"\n"
            f"      text: {{zh: '測{{n}}', en: 'Probe {{n}}'}}\n" for name, effect in keywords.items()),
        encoding="utf-8")
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "the_cave", [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    import inspect
    guarded = {name: "_n1 = " in inspect.getsource(data.keywords[name].effect)
               for name in keywords}
    assert guarded == {"known": False, "unknown_sign": True, "unknown_param": True}, guarded


def test_the_cave_depth_levels_is_never_below_its_declared_least():
    """`depth_levels` declares `min: 0`: the depth difference of any two tiles of the game,
    in either order, is 0 or more (the handler's abs)."""
    import importlib
    from types import SimpleNamespace
    data = importlib.import_module("tomecraft.generated.the_cave").GAME
    from tomecraft.runtime.engines.the_cave.handlers import Queries
    declared = pipeline.compile_game(ROOT / "content" / "the_cave", [], dg.Reporter()).vocab
    assert declared.queries["depth_levels"].least == 0
    depths = {getattr(kind, "depth", 0) or 0 for kind in data.kinds.get("tile_kind", {}).values()}
    depths |= {0, 25, 50, 75, 100, 125}
    for a in depths:
        for b in depths:
            ctx = SimpleNamespace(self=SimpleNamespace(depth=a), target=SimpleNamespace(depth=b))
            assert Queries.depth_levels(None, ctx) >= 0
