"""The player edition (default) holds rules and references only: no raw ids, no developer
references, no sources table, and on Chinese sheets no English notes. The designer edition
keeps the sources table and the notes. `--pack` and `--all` print packs."""
from __future__ import annotations

import re
from argparse import Namespace
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
TARGETS = [(root.name, pack) for root in pipeline.game_roots()
           for pack in [None] + pipeline.in_repo_packs(root)]
RAW_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
# decision and gap ids (D-17, G-22, T-23, V-26, Gap 9), rulebook lines, source files
DEV_REF = re.compile(r"\bL\d+|\b[DGTV]-\d+\b|\b[Gg]aps? \d|\.py\b|runtime/|\binventory\b")


def text_of(page: str) -> str:
    page = re.sub(r"<(style|svg)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.fixture(scope="module", params=TARGETS, ids=lambda t: t[0] + (f"+{t[1].name}" if t[1] else ""))
def game(request):
    game_id, pack = request.param
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / game_id, [pack] if pack else [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_player_edition_has_no_raw_ids_nor_developer_references(game, lang):
    lab = sheets.labels(lang, game)
    for sheet in sheets.SHEETS[game.id]:
        page = sheets.render_html(game, sheet, lang)
        text = text_of(page)
        assert not RAW_ID.findall(text), (sheet.name, sorted(set(RAW_ID.findall(text)))[:8])
        assert not DEV_REF.findall(text), (sheet.name, DEV_REF.findall(text)[:8])
        assert lab["sources_title"] not in text and 'class="sources' not in page, sheet.name


def test_zh_player_edition_prints_no_english_notes(game):
    for sheet in sheets.SHEETS[game.id]:
        page = sheets.render_html(game, sheet, "zh")
        lines = re.findall(r'<span class="note-line">(.*?)</span>', page, flags=re.S)
        latin = [w for line in lines for w in re.findall(r"[A-Za-z]{3,}", line)]
        assert not latin, (sheet.name, latin[:8])


def test_designer_edition_keeps_sources_and_notes(game):
    sheet = sheets.SHEETS[game.id][0]
    for lang in ("zh", "en"):
        page = sheets.render_html(game, sheet, lang, "designer")
        assert sheets.labels(lang, game)["sources_title"] in page


def test_player_notes_drop_developer_ids():
    assert sheets.player_note("D-03 (G-26): a boulder takes the depth of its origin (L76-80).") \
        == "A boulder takes the depth of its origin."
    assert sheets.player_note("Gaps 25/27: any forced damage is marked with a black cube.") \
        == "Any forced damage is marked with a black cube."
    assert sheets.player_note("gap 17: the N on the back is 1.") == "The N on the back is 1."
    assert sheets.player_note("Computed by the shared runtime (runtime/layering.py).") \
        == "Computed by the shared runtime."
    assert sheets.player_note("uses rule g13_pickaxe_dice for the dice.") == ""


def _args(tmp_path: Path, **kw) -> Namespace:
    base = dict(game=None, mission=None, lang=["en"], format=["html"], out=str(tmp_path),
                all=False, pack=[], edition="player")
    return Namespace(**{**base, **kw})


def test_cli_pack_and_designer_edition(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    pack = REPO / "content" / "deep_rock_galactic" / "packs" / "goo_from_above"
    assert sheets.run_cli(_args(tmp_path, game="deep_rock_galactic", pack=[str(pack)])) == 0
    monsters = (tmp_path / "deep_rock_galactic__goo_from_above" / "monsters.en.html").read_text()
    assert "Goo Bomber" in monsters
    assert sheets.run_cli(_args(tmp_path, game="the_cave", edition="designer")) == 0
    assert "Sources and approximations" in (tmp_path / "the_cave" / "rules.designer.en.html").read_text()


def test_cli_all_prints_the_shipped_packs(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    assert sheets.run_cli(_args(tmp_path, all=True)) == 0
    written = {p.name for p in tmp_path.iterdir()}
    for root in pipeline.game_roots():
        assert root.name in written
        for pack in pipeline.in_repo_packs(root):
            assert f"{root.name}__{pack.name}" in written


def test_every_approximated_rule_with_a_named_value_says_it_in_words(game):
    """A rule whose value is a name (`from_origin`, `seat_0`) needs words in both languages."""
    for rule in game.of_kind("rule"):
        value = rule.data.get("value")
        if rule.source != "approximation" or not isinstance(value, str) \
                or value in game.vocab.names or re.fullmatch(r"[\d\s/+-]+", value):
            continue
        for lang in ("zh", "en"):
            assert sheets.value_words(game, rule, lang), (rule.id, lang)


def test_the_readme_lists_every_sheet_with_what_it_is_for():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Sheets"):readme.index("### Print-and-play cards")]
    for game_id in sheets.SHEETS:
        for sheet in sheets.SHEETS[game_id]:
            assert re.search(rf"\| `{sheet.name}` \| [^|]{{20,}} \|", table), (game_id, sheet.name)


def test_chinese_sheets_use_full_width_punctuation(game):
    cjk = "\u3400-\u9fff"
    half = re.compile(rf"[{cjk}][,;:!?]|[,;:!?][{cjk}]|\([^()]*[{cjk}][^()]*\)|[{cjk}]\(")
    for sheet in sheets.SHEETS[game.id]:
        text = text_of(sheets.render_html(game, sheet, "zh"))
        assert not half.findall(text), (sheet.name, half.findall(text)[:5])
