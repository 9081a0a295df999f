"""`tomecraft cards`: every card, token and monster of a game or pack at its stated size,
3 x 3 to an A4 page with crop marks, both languages, rules text rendered from the effect
language. PDF rendering stays bounded: one page."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline
from tomecraft.compiler.sheets import Footnotes, cards, write_pdf

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in pipeline.game_roots())
RAW_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


def compile_game(root: Path, extra=()):
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, list(extra), reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return compile_game(REPO / "content" / request.param)


def _text(html: str) -> str:
    html = re.sub(r"<style.*?</style>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_every_game_prints_cards(game):
    assert cards.spec(game), f"{game.id}: no print_and_play kinds in its sheet file"


def test_every_entity_of_a_printed_kind_is_on_a_card_once_per_copy(game):
    for lang in ("zh", "en"):
        laid = [c for page in cards.pages(game, lang, Footnotes()) for c in page["cards"]]
        for kind_spec in cards.spec(game):
            for entity in game.of_kind(kind_spec["kind"]):
                name = entity.data["name"][lang].casefold()
                assert sum(c["name"].casefold() == name for c in laid) >= cards.copies(entity, kind_spec), \
                    (kind_spec["kind"], entity.id)


def test_pages_hold_nine_cards_of_one_size_inside_a4_with_crop_marks(game):
    for page in cards.pages(game, "en", Footnotes()):
        assert 1 <= len(page["cards"]) <= 9
        assert (page["w"], page["h"]) in cards.SIZES.values()
        for c in page["cards"]:
            assert 0 <= c["x"] and c["x"] + page["w"] <= 210 and 0 <= c["y"] and c["y"] + page["h"] <= 297
        # 4 vertical cut lines x 2 ends + 4 horizontal x 2 ends, all in the page's margins
        assert len(page["marks"]) == 16
        for k in page["marks"]:
            assert 0 <= k["x"] <= 210 and 0 <= k["y"] <= 297


def test_a_full_page_of_poker_cards_is_3_by_3_at_63_by_88_mm():
    layout = cards._layout([{"name": str(i)} for i in range(9)], cards.SIZES["poker"])
    xs = sorted({c["x"] for c in layout["cards"]})
    ys = sorted({c["y"] for c in layout["cards"]})
    assert [round(b - a, 6) for a, b in zip(xs, xs[1:])] == [63, 63]
    assert [round(b - a, 6) for a, b in zip(ys, ys[1:])] == [88, 88]
    assert xs[0] == pytest.approx((210 - 189) / 2) and ys[0] == pytest.approx((297 - 264) / 2)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_card_text_has_no_raw_ids(game, lang):
    text = _text(cards.render_html(game, lang))
    assert not RAW_ID.findall(text), sorted(set(RAW_ID.findall(text)))[:10]
    if lang == "zh":
        assert 'lang="zh-Hans"' in cards.render_html(game, lang) or game.vocab.script == "hant"


def test_a_pack_adds_its_cards():
    base = compile_game(REPO / "content" / "deep_rock_galactic")
    packed = compile_game(REPO / "content" / "deep_rock_galactic",
                          [REPO / "content" / "deep_rock_galactic" / "packs" / "goo_from_above"])
    names = {c["name"] for page in cards.pages(packed, "en", Footnotes()) for c in page["cards"]}
    base_names = {c["name"] for page in cards.pages(base, "en", Footnotes()) for c in page["cards"]}
    assert {"Goo Bomber", "Menace"} <= names and not {"Goo Bomber", "Menace"} & base_names


@pytest.mark.parametrize("lang, says", [("en", "use 1 lantern from your backpack"),
                                         ("zh", "從背包使用1個提燈")])
def test_a_cave_packs_equipment_card_says_what_its_use_does(lang, says):
    """Found by the packs blind test: a pack's lantern chit printed its slots and uses but not
    the action it gives (`use`)."""
    packed = compile_game(REPO / "content" / "the_cave",
                          [REPO / "tests" / "the_cave" / "any_content_pack"])
    text = re.sub(r"\s+", " ", _text(cards.render_html(packed, lang)))
    assert says in text


def test_one_pdf_page_embeds_the_right_cjk_face(tmp_path):
    if not shutil.which("pdffonts"):
        pytest.skip("pdffonts (poppler-utils) is not installed")
    game = compile_game(REPO / "content" / "clank_catacombs")
    pdf = tmp_path / "cards.zh.pdf"
    write_pdf(cards.render_html(game, "zh", max_pages=1), pdf, max_pages=1)
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    faces = fonts.replace("-", "").replace(" ", "")
    assert "NotoSansCJKSC" in faces and "NotoSansCJKTC" not in faces, fonts


def test_the_cli_writes_both_languages_and_refuses_a_bad_pack(tmp_path, run_cli):
    code, _, err = run_cli("cards", "--game", "the_cave", "--format", "html", "--out", tmp_path)
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "the_cave").iterdir()) == [
        "print_and_play.en.html", "print_and_play.zh.html"]
    code, _, err = run_cli("cards", "--game", "the_cave", "--pack", tmp_path, "--out", tmp_path)
    assert code == 2 and "no pack.yaml" in err


def test_hostile_names_are_escaped_on_cards(tmp_path):
    root = tmp_path / "the_cave"
    shutil.copytree(REPO / "content" / "the_cave", root)
    tokens = root / "tokens.yaml"
    text = tokens.read_text(encoding="utf-8")
    first = re.search(r"name: \{zh: ([^,]+), en: ([^}]+)\}", text)
    tokens.write_text(text.replace(first.group(0),
                                   "name: {zh: \"<script>x</script>\", en: \"<img src=x onerror=alert(1)>\"}", 1),
                      encoding="utf-8")
    game = compile_game(root)
    for lang in ("zh", "en"):
        page = cards.render_html(game, lang)
        assert "<script" not in page and "<img" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in cards.render_html(game, "en")


@pytest.mark.parametrize("lang, says", [("en", "Cost: 0 skill"), ("zh", "花费：0技能点")])
def test_a_packs_free_clank_card_prints_its_cost_of_0(tmp_path, lang, says):
    """A 0 was left off every card: a pack's dungeon card costing 0 skill printed no cost at
    all, as if it could not be bought (fifth packs blind test). Other zeros stay off."""
    pack = tmp_path / "free_bard"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: free_bard\ngame: clank_catacombs\nversion: '1.0'\n"
                                    "remove: [{kind: card, id: lute}]\n", encoding="utf-8")
    (pack / "cards.yaml").write_text("""cards:
  - id: bard
    name: {zh: 吟游诗人, en: Bard}
    source: approximation
    note: a test
    card_type: acquire
    count: 1
    cost: 0
    points: 0
    play: "gain skill 1"
""", encoding="utf-8")
    packed = compile_game(REPO / "content" / "clank_catacombs", [pack])
    bard = next(c for page in cards.pages(packed, lang, Footnotes()) for c in page["cards"]
                if c["name"] in ("Bard", "吟游诗人"))
    assert bard["stats"] == [says]


def test_every_copy_of_the_shipped_games_is_printed_and_a_huge_count_is_said():
    """At most 20 copies were printed, silently: The Cave's 40 traverse tokens printed 20, and
    a pack's `count: 5000` printed 20 with no word (fifth packs blind test)."""
    cave = compile_game(REPO / "content" / "the_cave")
    laid = [c["name"] for page in cards.pages(cave, "en", Footnotes()) for c in page["cards"]]
    assert laid.count("Traverse token") == 40
    assert cards.capped_notes(cave) == []
    entity = cave.entities["token"]["traverse"]
    entity.data["supply"] = 5000
    try:
        notes = cards.capped_notes(cave)
    finally:
        entity.data["supply"] = 40
    assert notes == [f"note: {entity.display}:11: token 'traverse' has 5000 copies; "
                     f"{cards.MAX_COPIES} are printed"]


@pytest.mark.parametrize("lang, says", [("en", ["Points 0", "Power 0"]), ("zh", ["点数 0", "威力 0"])])
def test_a_packs_zero_point_crawl_card_prints_both_numbers(tmp_path, lang, says):
    """Every main-deck card shows its points (top left) and power (top right), 0 too
    (Crawl Decks rulebook L19); a pack's 0/0 monster printed neither on its card (eighth packs
    blind test)."""
    pack = tmp_path / "zero_hound"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: zero_hound\ngame: dm_crawl_decks\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "cards.yaml").write_text("""cards:
  - id: zero_hound
    name: {zh: 零号猎犬, en: Zero Hound}
    source: approximation
    note: a test
    card_type: monster
    points: 0
    power: 0
    count: 1
""", encoding="utf-8")
    packed = compile_game(REPO / "content" / "dm_crawl_decks", [pack])
    hound = next(c for page in cards.pages(packed, lang, Footnotes()) for c in page["cards"]
                 if c["name"] in ("Zero Hound", "零号猎犬"))
    assert hound["stats"] == says


@pytest.mark.parametrize("lang, says", [("en", "Bonus 0"), ("zh", "加成 0")])
def test_a_packs_zero_bonus_scheme_card_prints_its_bonus(tmp_path, lang, says):
    """Every scheme card shows its bonus value top left (Dungeontology rulebook L198, L412), 0
    too; a pack's 0-bonus card printed none (eighth packs blind test)."""
    pack = tmp_path / "zero_scheme"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: zero_scheme\ngame: dungeontology\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "scheme_cards.yaml").write_text("""scheme_cards:
  - id: zero_scheme
    name: {zh: 零号诡计, en: Zero Scheme}
    source: approximation
    note: a test
    card_type: exploration
    bonus: 0
    count: 1
    main: "move 1"
""", encoding="utf-8")
    packed = compile_game(REPO / "content" / "dungeontology", [pack])
    card = next(c for page in cards.pages(packed, lang, Footnotes()) for c in page["cards"]
                if c["name"] in ("Zero Scheme", "零号诡计"))
    assert says in card["stats"]


@pytest.mark.parametrize("lang, says", [("en", "Move 0"), ("zh", "行动力 0")])
def test_a_monster_that_never_moves_prints_move_0(lang, says):
    """The rulebook's Brood Nexus reads '行动力:0' (DRG rules guide L1127); its card, and a
    pack's monster with move 0, printed no move at all (eighth packs blind test)."""
    drg = compile_game(REPO / "content" / "deep_rock_galactic")
    nexus = next(c for page in cards.pages(drg, lang, Footnotes()) for c in page["cards"]
                 if c["name"] in ("Brood Nexus", "异虫母巢"))
    assert says in nexus["stats"]
