"""Deep Rock Galactic sheets: monster board in activation order, class cards, weapons, statuses,
and a briefing for any mission file, in zh and en."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, missions, pipeline
from tomecraft.compiler.sheets import SHEETS, render_html
from tomecraft.compiler.sheets.deep_rock_galactic import briefing_context

ROOT = Path(__file__).resolve().parents[2]
FAN = ROOT / "tests/deep_rock_galactic/missions/valid"


@pytest.fixture(scope="module")
def game():
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content/deep_rock_galactic", [], reporter)
    assert reporter.errors == 0
    return g


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_monster_board_lists_every_monster_in_activation_order(game, lang):
    monsters = next(s for s in SHEETS["deep_rock_galactic"] if s.name == "monsters")
    html = render_html(game, monsters, lang)
    names = [m.data["name"][lang] for m in sorted(game.of_kind("monster"), key=lambda m: m.data["order"])]
    positions = [html.index(n) for n in names]
    assert positions == sorted(positions) and len(names) == 10


@pytest.mark.parametrize("lang, monster, pickup, generic", [
    ("en", "taken off the board when killed", "taken off the board once collected", "or used"),
    ("zh", "被击杀后从版图移除", "取得后从版图移除", "被击杀或用后")])
def test_what_happens_after_use_is_said_for_each_kind(game, lang, monster, pickup, generic):
    """A monster is removed when killed, a pickup once collected: neither sheet says the
    wording shared by both kinds ("when killed or used")."""
    html = {s.name: render_html(game, s, lang) for s in SHEETS["deep_rock_galactic"]}
    assert html["monsters"].count(monster) == len(game.of_kind("monster"))
    assert pickup in html["rules"]                       # Blood Sugar
    assert generic not in html["monsters"] + html["rules"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_sheet_renders_with_class_weapons_and_statuses(game, lang):
    html = {s.name: render_html(game, s, lang) for s in SHEETS["deep_rock_galactic"]}
    assert set(html) == {"rules", "monsters", "classes", "weapons", "statuses"}
    for dwarf in game.of_kind("dwarf"):
        assert dwarf.data["name"][lang] in html["classes"]
    for t in game.of_kind("throwable"):
        assert t.data["name"][lang] in html["weapons"]
    assert ("虫网束缚" if lang == "zh" else "Webbed") in html["statuses"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_briefing_shows_the_mission_and_its_map(game, lang):
    reporter = dg.Reporter()
    mission = missions.load_mission(FAN / "aquarq_run.yaml", reporter)
    ctx = briefing_context(game, mission, lang)
    (info, board) = ctx["sections"]
    assert any(("水痕碑石" if lang == "zh" else "Aquarq") in item for item in info["items"])
    assert len(board["hexmap"]) == 9
    assert sum(cell["text"] == "P" for row in board["hexmap"] for cell in row) == 4


def test_the_cli_writes_a_briefing_for_a_mission_file(tmp_path, run_cli):
    code, _, err = run_cli("sheets", "--mission", FAN / "fossil_field.yaml", "--format", "html", "--out", tmp_path)
    assert code == 0, err
    assert (tmp_path / "deep_rock_galactic/briefing_fossil_field.zh.html").is_file()
    assert (tmp_path / "deep_rock_galactic/briefing_fossil_field.en.html").is_file()


def test_a_broken_mission_file_gets_no_briefing(tmp_path, run_cli):
    code, out, _ = run_cli("sheets", "--mission", ROOT / "tests/deep_rock_galactic/missions/broken/b02_no_drop_pod.yaml",
                           "--format", "html", "--out", tmp_path)
    assert code == 1 and "V-07" in out
    assert not (tmp_path / "deep_rock_galactic").exists()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rules_sheet_covers_the_turn_events_hazards_minerals_end_and_solo(game, lang):
    rules = next(s for s in SHEETS["deep_rock_galactic"] if s.name == "rules")
    html = render_html(game, rules, lang)
    titles = (["回合流程", "行动（每回合3个）", "事件与虫群", "难度", "矿物与拾取物", "任务结束", "单人模式"]
              if lang == "zh" else ["Turn sequence", "Actions (3 a turn)", "Events and swarms",
                                    "Hazard levels", "Minerals and pickups", "End of the mission",
                                    "Solo play"])
    for title in titles:
        assert f"<h2>{title}</h2>" in html, title
    for entity in game.of_kind("mineral") + game.of_kind("pickup"):
        assert entity.data["name"][lang] in html, entity.id
    assert html.count("<tr>") >= len(game.of_kind("hazard_level")) + 1
    assert "(L" not in html and "（L" not in html           # the player edition: no line numbers


@pytest.mark.parametrize("lang, base, packed", [
    ("en", "Pickaxe: roll the pickaxe die to hit", "Pickaxe: roll 2 pickaxe dice to hit"),
    ("zh", "挥动铁镐：掷1颗铁镐骰", "挥动铁镐：掷2颗铁镐骰")])
def test_the_rules_sheet_says_the_pickaxe_dice_a_pack_sets(tmp_path, game, lang, base, packed):
    """Rule g13_pickaxe_dice is one a pack may change and play reads (movement.py); the rules
    sheet printed "1 pickaxe die" whatever the pack set (packs blind test round 2)."""
    rules = next(s for s in SHEETS["deep_rock_galactic"] if s.name == "rules")
    assert base in render_html(game, rules, lang)
    pack = tmp_path / "sharp"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: sharp\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "rules.yaml").write_text("""
rules:
  - id: g13_pickaxe_dice
    replace: true
    name: {zh: 铁镐判定骰数量, en: Pickaxe dice per swing}
    source: approximation
    note: a sharper pickaxe
    value: 2
""", encoding="utf-8")
    reporter = dg.Reporter()
    packed_game = pipeline.compile_game(ROOT / "content/deep_rock_galactic", [pack], reporter)
    assert reporter.errors == 0
    html = render_html(packed_game, rules, lang)
    assert packed in html and base not in html


@pytest.mark.parametrize("lang, chilled", [("zh", "寒冷"), ("en", "Chilled")])
def test_the_statuses_sheet_lists_a_packs_new_status_and_what_causes_it(lang, chilled):
    """A pack's status (the Cryo pack's Chilled) was missing from the sheet: it listed the
    printed six only."""
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content/deep_rock_galactic",
                              [ROOT / "tests/deep_rock_galactic/cryo_pack"], reporter)
    assert reporter.errors == 0
    html = render_html(g, next(s for s in SHEETS["deep_rock_galactic"] if s.name == "statuses"), lang)
    row = html[html.index(chilled):]
    row = row[:row.index("</tr>")]
    assert g.entities["throwable"]["cryo_grenade"].data["name"][lang] in row


@pytest.mark.parametrize("lang, says, not_said", [
    ("en", ["fire its machine gun (1 action, range 5, 2 Bullet dice) or its rocket launcher "
            "(1 action, range 6, 3 Explosive dice), or assist."],
     ["range 3, 1 Bullet die", "2 actions, range 4"]),
    ("zh", ["挥动铁镐、用机枪（1个行动，射程5，2颗子弹骰）、用火箭发射器（1个行动，射程6，3颗爆炸骰）或协助起身"],
     ["射程3，1颗子弹骰", "2个行动，射程4"]),
])
def test_the_solo_rules_say_a_packs_bosco_guns(tmp_path, lang, says, not_said):
    """The solo paragraph said BOSCO's machine gun is 1 action, range 3, 1 Bullet die and its
    rocket launcher 2 actions, range 4, 1 Explosive die beside a pack's `bosco` weapon whose
    modes (which play reads) say otherwise."""
    import html as html_lib
    import re
    from ruamel.yaml import YAML
    weapons = YAML(typ="safe").load((ROOT / "content/deep_rock_galactic/secondary_weapons.yaml")
                                    .read_text("utf-8"))
    key = next(k for k in weapons if isinstance(weapons[k], list))
    bosco = next(w for w in weapons[key] if w["id"] == "bosco")
    for mode, (rng, dice) in zip(bosco["modes"], ((5, 2), (6, 3))):
        old = f"in_range({mode['range']})"
        mode["effect"] = mode["effect"].replace(old, f"in_range({rng})").replace(
            f", {mode['dice']})", f", {dice})").replace("pay actions 2", "pay actions 1")
        mode.update(range=rng, dice=dice, actions=1)
    pack = tmp_path / "guns"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: guns\ngame: deep_rock_galactic\nversion: '1.0'\n", "utf-8")
    with (pack / "weapons.yaml").open("w", encoding="utf-8") as out:
        YAML().dump({key: [{**bosco, "replace": True}]}, out)
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content/deep_rock_galactic", [pack], reporter)
    assert g is not None and not reporter.errors, dg.format_text(reporter)
    rules = next(s for s in SHEETS["deep_rock_galactic"] if s.name == "rules")
    text = " ".join(re.sub(r"<[^>]+>", " ", html_lib.unescape(render_html(g, rules, lang))).split())
    for phrase in says:
        assert phrase in text, phrase
    for phrase in not_said:
        assert phrase not in text, phrase


@pytest.mark.parametrize("lang, said", [("zh", "每个牙齿印：受到2点伤害"), ("en", "each Teeth rolled: take 2 damage")])
def test_the_monster_board_says_a_monsters_own_teeth_effect(lang, said):
    """A pack's monster whose teeth faces do more than the default 1 damage (the creatures
    pack's Acid Biter: 2) said nothing of it on the monster board, which printed only the "!"
    effect, its special and its kill reward (its print-and-play card said it)."""
    reporter = dg.Reporter()
    g = pipeline.compile_game(ROOT / "content/deep_rock_galactic",
                              [ROOT / "tests/deep_rock_galactic/creatures_pack"], reporter)
    assert reporter.errors == 0
    html = render_html(g, next(s for s in SHEETS["deep_rock_galactic"] if s.name == "monsters"), lang)
    row = html[html.index(g.entities["monster"]["acid_biter"].data["name"][lang]):]
    row = row[:row.index("</tr>")]
    assert said.lower() in row.lower(), row
