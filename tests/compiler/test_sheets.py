"""Printable sheets of The Cave: content, languages, escaping, determinism and the PDF."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from argparse import Namespace
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
CAVE = REPO / "content" / "the_cave"


def compile_game(root: Path):
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


@pytest.fixture(scope="module")
def cave():
    return compile_game(CAVE)


def sheet(name: str):
    return next(s for s in sheets.SHEETS["the_cave"] if s.name == name)


@pytest.fixture(scope="module")
def pages(cave):
    return {(s.name, lang): sheets.render_html(cave, s, lang)
            for s in sheets.SHEETS["the_cave"] for lang in ("zh", "en")}


def rows(page: str) -> list[str]:
    return re.findall(r"<tr.*?</tr>", page, flags=re.S)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_reference_names_every_tile_kind_and_action(cave, pages, lang):
    page = pages[("rules", lang)]
    for entity in cave.of_kind("tile_kind") + cave.of_kind("action"):
        name = entity.data["name"][lang]          # zh sheets print full-width punctuation
        assert html.escape(sheets.zh_punctuation(name) if lang == "zh" else name) in page, entity.id
    assert len(cave.of_kind("tile_kind")) >= 9


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_token_sheet_lists_every_token_with_its_points(cave, pages, lang):
    page = pages[("tokens", lang)]
    tokens = cave.of_kind("token")
    assert tokens, "the_cave has tokens"
    for token in tokens:
        name = html.escape(token.data["name"][lang])
        row = next((r for r in rows(page) if name in r and "points" in r), None)
        assert row is not None, token.id
        assert f'<td class="num points">{token.data["points"]}</td>' in row, token.id


def test_token_sheet_says_how_water_is_earned(pages):
    en = pages[("tokens", "en")]
    assert "take the water token from this tile if it is there" in en
    assert "若此版塊上有水域標記則拿取" in pages[("tokens", "zh")]


def test_chinese_sheets_use_chinese_labels(cave, pages):
    zh_labels, en_labels = sheets.labels("zh"), sheets.labels("en")
    for name in ("rules", "tokens"):
        zh = pages[(name, "zh")]
        assert 'lang="zh-Hant"' in zh
        assert zh_labels["approx_title"] in zh and en_labels["approx_title"] not in zh
        designer = sheets.render_html(cave, sheet(name), "zh", "designer")
        assert zh_labels["sources_title"] in designer and en_labels["sources_title"] not in designer
    assert zh_labels["earned"] in pages[("tokens", "zh")]
    assert en_labels["earned"] not in pages[("tokens", "zh")]
    assert "回合流程" in pages[("rules", "zh")] and "Turn structure" not in pages[("rules", "zh")]


def test_rules_reference_shows_both_rulebook_majority_examples(pages):
    page = pages[("rules", "en")]
    assert "Example 1" in page and "Example 2" in page
    # Example 1: A = B = 8 water, C = 4 -> 4, 4, 0; example 2: A = 6, B = C = 4 -> 8, 0, 0.
    bonuses = re.findall(r'<td>([ABC])</td><td class="num">(\d+)</td><td class="num">(\d+)</td>',
                         page)
    assert bonuses == [("A", "8", "4"), ("B", "8", "4"), ("C", "4", "0"),
                       ("A", "6", "8"), ("B", "4", "0"), ("C", "4", "0")]


def test_majority_tie_rules():
    assert sheets.majority_awards({"A": 8, "B": 8, "C": 4}, [8, 4], "drop_one_rank") == \
        {"A": 4, "B": 4, "C": 0}
    assert sheets.majority_awards({"A": 5, "B": 5, "C": 5}, [8, 4], "drop_one_rank") == \
        {"A": 4, "B": 4, "C": 4}
    assert sheets.majority_awards({"A": 5, "B": 5, "C": 5}, [8, 4], "lowest_spanned") == \
        {"A": 0, "B": 0, "C": 0}


def test_approximations_are_marked_and_footnoted(cave, pages):
    start = cave.entities["tile_kind"]["start"]
    note = start.data["approximations"]["enter"]
    designer = sheets.render_html(cave, sheet("rules"), "en", "designer")
    assert html.escape(note, quote=True) in designer or html.escape(note, quote=False) in designer
    assert 'class="approx"' in designer and "Sources and approximations" in designer
    page = pages[("rules", "en")]         # the player edition: marker, short list, no sources
    assert 'class="approx"' in page and "What is approximate" in page
    assert "Sources and approximations" not in page
    assert sheets.player_note(note) in page


def test_html_is_deterministic(cave, pages):
    again = sheets.render_html(cave, sheet("rules"), "zh")
    assert again == pages[("rules", "zh")]


def test_hostile_names_are_escaped(tmp_path):
    root = tmp_path / "the_cave"
    shutil.copytree(CAVE, root)
    kinds = root / "tile_kinds.yaml"
    kinds.write_text(kinds.read_text(encoding="utf-8").replace(
        "{zh: 一般版塊, en: Passage}",
        "{zh: \"<script>alert('zh')</script>\", en: \"<script>alert('en')</script>\"}"),
        encoding="utf-8")
    vocab = root / "game.yaml"
    vocab.write_text(vocab.read_text(encoding="utf-8").replace(
        "water: {zh: 水域標記, en: water token}",
        "water: {zh: \"水域<script>標記\", en: \"<img src=x onerror=alert(1)> token\"}"),
        encoding="utf-8")
    game = compile_game(root)
    for lang in ("zh", "en"):
        for s in sheets.SHEETS["the_cave"]:
            page = sheets.render_html(game, s, lang)
            assert "<script" not in page and "<img" not in page
        rules = sheets.render_html(game, sheet("rules"), lang)
        assert f"&lt;script&gt;alert(‘{lang}’)&lt;/script&gt;" in rules   # its quotes typeset
    tokens = sheets.render_html(game, sheet("tokens"), "en")
    assert "&lt;img src=x onerror=alert(1)&gt; token" in tokens


def test_pdf_embeds_a_cjk_font_and_is_reproducible(cave, tmp_path):
    first = sheets.render_game(cave, "zh", ["pdf"], tmp_path / "a")
    second = sheets.render_game(cave, "zh", ["pdf"], tmp_path / "b")
    assert [p.name for p in first] == ["rules.zh.pdf", "tokens.zh.pdf"]
    pdf = first[1]
    assert pdf.read_bytes().startswith(b"%PDF")
    assert pdf.read_bytes() == second[1].read_bytes()
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    assert "NotoSansCJK" in fonts.stdout.replace("-", "").replace(" ", "")


def test_cli_writes_the_requested_sheets(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    args = Namespace(game="the_cave", mission=None, lang=["en"], format=["html"],
                     out=str(tmp_path), all=False)
    assert sheets.run_cli(args) == 0
    written = sorted(p.name for p in (tmp_path / "the_cave").iterdir())
    assert written == ["rules.en.html", "tokens.en.html"]
    assert f"writing {tmp_path / 'the_cave' / 'rules.en.html'}" in capsys.readouterr().err


def test_cli_all_skips_games_without_sheets(tmp_path, monkeypatch, capsys):
    content = tmp_path / "content"
    shutil.copytree(CAVE, content / "other_game", ignore=shutil.ignore_patterns("*s.yaml"))
    monkeypatch.setattr(pipeline, "CONTENT", content)
    args = Namespace(game=None, mission=None, lang=None, format=None,
                     out=str(tmp_path / "out"), all=True)
    assert sheets.run_cli(args) == 0
    assert "skipping other_game" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


# --- the Chinese script of each game's sheets follows its rulebook ------------------------------

RULEBOOKS = REPO.parent / "shared" / "rulebooks"
# Characters that exist only in Traditional script, common in rules text.
TRADITIONAL_ONLY = set("並個內則將對後擇數於標沒為無營續裡複設該變選間隊項時與從開當張點輪動發"
                       "費結傷彈藥擋視達這們")


def _rulebook_script(game) -> str:
    text = (RULEBOOKS / game.vocab.rulebook).read_text(encoding="utf-8")
    simplified = sum(text.count(c) for c in "这们个")
    traditional = sum(text.count(c) for c in "這們個")
    return "hans" if simplified > traditional else "hant"


@pytest.mark.parametrize("game_id", sorted(sheets.SHEETS))
def test_zh_sheets_use_the_script_of_the_rulebook(game_id):
    game = compile_game(REPO / "content" / game_id)
    if not RULEBOOKS.is_dir():
        pytest.skip(f"the rulebooks are not here ({RULEBOOKS}): ../shared/ is not part of "
                    "the project; CI runs this test with them")
    script = getattr(game.vocab, "script", "hant") or "hant"
    assert script == _rulebook_script(game), f"game.yaml `script:` should say {_rulebook_script(game)}"
    if script != "hans":
        return
    for s in sheets.SHEETS[game_id]:
        page = sheets.render_html(game, s, "zh")
        wrong = sorted(TRADITIONAL_ONLY & set(page))
        assert not wrong, f"{s.name}: Traditional characters {''.join(wrong)} on a Simplified sheet"


@pytest.mark.parametrize("lang, label, says", [
    ("en", "Use (an action)", "use 1 lantern from your backpack"),
    ("zh", "使用（行動）", "從背包使用1個提燈"),
])
def test_a_packs_equipment_use_is_printed_with_the_equipment(lang, label, says):
    """A pack's item a team uses as an action (the any-content pack's lantern): the rules sheet
    prints "use 1 lantern", one of its 3 uses (`spend` takes uses, the Uses column says how
    many; it was "use up 1 lantern", read as the whole lantern, outside-tester round 4). The
    rules sheet prints what the use does under the item, and the token sheet names the field in words.
    Found by the packs blind test: the rules sheet printed no use at all, and the token sheet
    "Lantern › use" / "提燈・use"."""
    reporter = dg.Reporter()
    game = pipeline.compile_game(CAVE, [REPO / "tests" / "the_cave" / "any_content_pack"],
                                 reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    rules = html.unescape(sheets.render_html(game, sheet("rules"), lang))
    uses = [re.sub(r"<[^>]+>", "", r) for r in rows(rules) if label in r]
    assert any(says in use for use in uses), uses
    tokens = html.unescape(sheets.render_html(game, sheet("tokens"), lang))
    assert "› use" not in tokens and "・use" not in tokens


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", ["scores 10; second place scores 5, third place scores 2",
            "play 1 more round.", "Teams need not be back at the base"],
     ["not back at the base after those rounds loses", "3 more rounds"]),
    ("zh", ["得10分，第二名得5分，第三名得2分", "額外的1輪", "隊伍不必回到基地"],
     ["仍未回到基地的隊伍自動輸掉", "再進行3輪"]),
])
def test_the_rules_sheet_says_a_packs_scoring(tmp_path, lang, says, not_said):
    """A pack's scoring with three majority ranks, one extra round and no need to be back at the
    base (the engine scores every team: must_return_to_base false). The sheet printed only
    the second rank, "1 more rounds" and "a team not back at the base loses" (packs blind
    test round 2); its list of assumptions, "then 3 more rounds" (round 4)."""
    pack = tmp_path / "abyss"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: abyss\ngame: the_cave\nversion: '1.0'\n", "utf-8")
    (pack / "scoring.yaml").write_text("""
scoring:
  - id: scoring
    replace: true
    name: {zh: 深淵計分, en: Abyss scoring}
    source: approximation
    note: three ranks, teams scored wherever they are
    majority_points: [10, 5, 2]
    tie_rule: lowest_spanned
    zero_scores_majority: true
    extra_rounds: 1
    must_return_to_base: false
""", "utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(CAVE, [pack], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    text = re.sub(r"<[^>]+>", "", html.unescape(sheets.render_html(game, sheet("rules"), lang)))
    for phrase in says:
        assert phrase in text, phrase
    for phrase in not_said:
        assert phrase not in text, phrase


# "-2 Clank!" and "该牌的点数-1" (a Chinese character before it), not "G-1" or "L278-282"
HYPHEN_MINUS = re.compile(r"(?<![A-Za-z0-9_.])-(?=\d)")


@pytest.mark.parametrize("game_id", sorted(sheets.SHEETS))
def test_every_signed_number_is_printed_with_the_typeset_minus(game_id):
    """A sheet printed "Wealth -1" beside a doom card's "−1": a negative number is set with
    the minus sign (U+2212) on every sheet, in rendered effects, card fields and prose."""
    game = compile_game(REPO / "content" / game_id)
    negatives = 0
    for s in sheets.SHEETS[game_id]:
        for lang in ("zh", "en"):
            text = re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", "", sheets.render_html(game, s, lang), flags=re.S))
            text = html.unescape(text)
            assert not [m.start() for m in HYPHEN_MINUS.finditer(text)], \
                [text[max(0, m.start() - 30):m.end() + 10] for m in HYPHEN_MINUS.finditer(text)]
            negatives += text.count("\u2212")
    assert game_id not in ("clank_catacombs", "dungeontology") or negatives, "no negative number to look at"


@pytest.mark.parametrize("game_id", sorted(sheets.SHEETS))
def test_a_title_reads_as_the_game_then_the_sheet(game_id):
    """"Dungeontology: The Expedition: rules reference" and "噤声寻宝记：地下墓穴：规则速查" read
    as three parts: after a game name holding a colon, a dash separates the sheet's name."""
    game = compile_game(REPO / "content" / game_id)
    for s in sheets.SHEETS[game_id]:
        for lang in ("zh", "en"):
            title = re.search(r"<h1>(.*?)</h1>", sheets.render_html(game, s, lang)).group(1)
            name = game.vocab.name.get(lang)
            assert title.startswith(name), (title, name)
            rest = html.unescape(title[len(name):])
            sep = next((s for s in (": ", "：", " — ", "——") if rest.startswith(s)), None)
            assert sep and ":" not in rest[len(sep):] and "：" not in rest[len(sep):], title
            assert (sep in (" — ", "——")) == (":" in name or "：" in name), title
