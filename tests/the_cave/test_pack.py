"""A fan pack written only in YAML adds a tile kind the engine draws and enters."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import compile_and_import
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.the_cave import play_game
from tomecraft.runtime.rng import Rng
from tests.pack_play import compiled_with

ROOT = Path(__file__).resolve().parents[2]

PACK = """\
id: mud_pack
game: the_cave
version: "1.0"
name: {zh: 泥濘擴充, en: Mud expansion}
"""

MUD = """\
tile_kinds:
  - id: mud
    name: {zh: 泥濘版塊, en: Mud}
    source: approximation
    note: "A fan-made tile for the pack test: wading through mud costs 3 AP."
    enter:
      - {id: wade, effect: "pay ap 3"}
    discover_from: true
    rope_edges: false
tiles:
  - id: s1_normal_nesw
    replace: true
    name: {zh: 第1疊 泥濘版塊 NESW, en: Stack 1 mud NESW}
    source: approximation
    note: "Replaces the stack-1 passages with mud."
    stack: 1
    tile_kind: mud
    exits: NESW
    count: 3
  - id: s1_normal_nes
    replace: true
    name: {zh: 第1疊 泥濘版塊 NES, en: Stack 1 mud NES}
    source: approximation
    note: "Replaces the stack-1 passages with mud."
    stack: 1
    tile_kind: mud
    exits: NES
    count: 3
"""


def test_yaml_only_pack_adds_a_tile_kind_that_is_drawn_and_entered(tmp_path, monkeypatch):
    pack = tmp_path / "mud_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "mud.yaml").write_text(MUD, encoding="utf-8")
    monkeypatch.chdir(ROOT)
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "the_cave", [pack], reporter)
    assert data is not None, dg.format_text(reporter)
    assert not reporter.errors
    assert "mud" in data.kinds["tile_kind"]
    assert data.get("tile", "s1_normal_nesw").tile_kind == "mud"
    totals = Counter()
    for g in range(6):                  # stopped once both are counted: later games add only
        rng = Rng(f"mud:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(3)]
        result = play_game(data, 3, rng.fork("game"), agents, {})
        totals.update(result["stats"])
        if totals["drawn:mud"] > 0 and totals["entered:mud"] > 0:
            break
    assert totals["drawn:mud"] > 0
    assert totals["entered:mud"] > 0
    assert not list(pack.rglob("*.py")), "a pack is data only"


def test_mud_costs_three_ap_to_enter(tmp_path, monkeypatch):
    pack = tmp_path / "mud_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "mud.yaml").write_text(MUD, encoding="utf-8")
    monkeypatch.chdir(ROOT)
    data = compile_and_import(ROOT / "content" / "the_cave", [pack], dg.Reporter())
    from tomecraft.runtime.engines.the_cave.scenario import build
    engine = build(data, {"tiles": [{"at": [0, 0], "kind": "start", "exits": "E"},
                                    {"at": [1, 0], "kind": "mud", "exits": "W"}],
                          "teams": [{"pos": [0, 0]}]})
    team = engine.state.teams[0]
    engine.apply(team, {"do": "move", "to": (1, 0), "via": "wade"})
    assert team.ap == 2



ROCKFALL = """\
tile_kinds:
  - id: rockfall
    name: {zh: 落石版塊, en: Rockfall}
    source: approximation
    note: "A fan's second boulder: set aside like the boulder (no stack tile has it), its edges need not match; 3 AP to climb."
    enter:
      - {id: climb, effect: "pay ap 3"}
    discover_from: false
    match_edges: false
    rope_edges: false
"""


def test_a_packs_copy_of_the_boulder_is_placed_as_a_boulder(tmp_path, monkeypatch):
    """A tile kind set aside like the boulder (no tile of the stacks has it) whose edges need
    not match is a boulder too: the team placing a boulder picks which (L76-80), so a pack's
    copy is placed, not inert; the base boulder stays offered first."""
    pack = tmp_path / "rockfall_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: rockfall_pack\ngame: the_cave\nversion: "1.0"\n'
                                    'name: {zh: 落石, en: Rockfall}\n', encoding="utf-8")
    (pack / "rockfall.yaml").write_text(ROCKFALL, encoding="utf-8")
    monkeypatch.chdir(ROOT)
    data = compile_and_import(ROOT / "content" / "the_cave", [pack], dg.Reporter())
    from tomecraft.runtime.engines.the_cave.scenario import build
    setup = {"tiles": [{"at": [0, 0], "kind": "start", "exits": "NESW"},
                       {"at": [1, 0], "kind": "normal", "exits": "EW"},
                       {"at": [2, 1], "kind": "normal", "exits": "S"}],
             "stacks": [["normal:NS"], [], [], []], "teams": [{"pos": [1, 0]}]}
    engine = build(data, setup)
    assert [k.id for k in engine.boulders] == ["boulder", "rockfall"]
    engine.agents[0].push({"kind": "rockfall"})
    team = engine.state.teams[0]
    engine.apply(team, {"do": "act", "id": "discover"})
    cell = engine.state.cells[(2, 0)]
    assert cell.kind.id == "rockfall" and cell.exits == "W"
    engine.apply(team, {"do": "move", "to": (2, 0), "via": "climb"})
    assert team.ap == 1                                   # 5 - 1 (discover) - 3 (climb)
    totals = Counter()
    for g in range(4):                  # stopped once both are counted: later games add only
        rng = Rng(f"rockfall:{g}")
        result = play_game(data, 3, rng.fork("game"), [RandomAgent(rng.fork(f"a{i}")) for i in range(3)], {})
        totals.update(result["stats"])
        if totals["boulder:rockfall"] > 0 and totals["boulder:boulder"] > 0:
            break
    assert totals["boulder:rockfall"] > 0 and totals["boulder:boulder"] > 0, totals


LAMP_PACK = PACK.replace("id: mud_pack", "id: lamp_pack") + """\
vocabulary:
  terms:
    equipment:
      lamp: {zh: 燈, en: lamp}
"""

DARK = MUD.replace("id: mud\n", "id: dark\n").replace("tile_kind: mud", "tile_kind: dark").replace(
    '      - {id: wade, effect: "pay ap 3"}',
    '      - {id: lit, effect: "pay ap 1, spend lamp 1 -> take_token water"}\n'
    '      - {id: grope, effect: "pay ap 3"}')


def test_an_equipment_word_no_item_has_holds_no_uses(tmp_path, monkeypatch):
    """A pack may declare an equipment word and spend it with no equipment of that term (or
    remove the item): check accepts it, the option is never open, and games play on."""
    pack = tmp_path / "lamp_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(LAMP_PACK, encoding="utf-8")
    (pack / "dark.yaml").write_text(DARK, encoding="utf-8")
    data = compiled_with("the_cave", pack, monkeypatch)       # it checks clean
    from tomecraft.runtime.engines.the_cave.scenario import build
    engine = build(data, {"tiles": [{"at": [0, 0], "kind": "start", "exits": "E"},
                                    {"at": [1, 0], "kind": "dark", "exits": "W"}],
                          "teams": [{"pos": [0, 0]}]})
    team = engine.state.teams[0]
    team.backpack["lamp"] = 2          # even a token under that word is no item's use
    vias = {o["via"] for o in engine.move_options(team) if tuple(o["to"]) == (1, 0)}
    assert "grope" in vias and "lit" not in vias
    entered = Counter()
    for g in range(3):                  # stopped once counted: later games add only
        rng = Rng(f"lamp:{g}")
        result = play_game(data, 3, rng.fork("game"), [RandomAgent(rng.fork(f"a{i}")) for i in range(3)], {})
        entered.update(result["stats"])
        if entered["entered:dark"] > 0:
            break
    assert entered["entered:dark"] > 0


SUMP = """\
tile_kinds:
  - id: sump
    name: {{zh: 深潭版塊, en: Sump}}
    source: approximation
    note: "A fan's water passage too long for one tank."
    on_discover: "place_token water"
    enter:
      - {{id: dive, effect: "{cost} -> take_token water"}}
    discover_from: true
    rope_edges: false
"""


def test_a_cost_paid_twice_before_one_arrow_is_refused_by_check(tmp_path, monkeypatch):
    """Costs are checked one by one before any is paid: `use_oxygen, use_oxygen` checked
    clean, was offered to a team holding one flipped oxygen (one use, L173-175), and `sim`
    stopped on the second payment (KeyError 'oxygen'). check now refuses it at its line; the
    same cost written once (`spend oxygen 2`) is checked as a whole and refused when short."""
    pack = tmp_path / "sump_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.replace("mud_pack", "sump_pack"), encoding="utf-8")
    for cost in ("pay ap 3, use_oxygen, use_oxygen", "pay ap 1, spend rope 1, pay ap 2, spend rope 2"):
        (pack / "sump.yaml").write_text(SUMP.format(cost=cost), encoding="utf-8")
        reporter = dg.Reporter()
        monkeypatch.chdir(ROOT)
        compile_and_import(ROOT / "content" / "the_cave", [pack], reporter)
        found = [d for d in reporter.diagnostics if d.code == "TC-E006"]
        assert len(found) == (1 if "oxygen" in cost else 2), dg.format_text(reporter)
        assert "sump.yaml" in str(found[0].file) and found[0].line == 8
    (pack / "sump.yaml").write_text(SUMP.format(cost="pay ap 3, spend oxygen 2"), encoding="utf-8")
    data = compiled_with("the_cave", pack, monkeypatch)       # it checks clean
    from tomecraft.runtime.engines.the_cave.scenario import build
    engine = build(data, {"tiles": [{"at": [0, 0], "kind": "start", "exits": "E"},
                                    {"at": [1, 0], "kind": "sump", "exits": "W", "tokens": ["water"]}],
                          "teams": [{"pos": [0, 0], "backpack": {"oxygen@1": 1}}]})
    team = engine.state.teams[0]
    assert not [o for o in engine.move_options(team) if tuple(o["to"]) == (1, 0) and o["via"] == "dive"]
    team.backpack["oxygen"] = 1
    assert [o for o in engine.move_options(team) if tuple(o["to"]) == (1, 0) and o["via"] == "dive"]


def test_a_cost_after_the_arrow_is_refused_by_check(tmp_path, monkeypatch):
    """A cost after `->` is checked only once those before it are paid: `pay ap 3 -> spend
    oxygen 2 -> ...` checked clean, was offered to a team with no oxygen, and `sim` stopped
    ("the effect fizzled after its leading requires and costs held"). check refuses it at
    the late cost, also when it is a bare call after other statements."""
    pack = tmp_path / "sump_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.replace("mud_pack", "sump_pack"), encoding="utf-8")
    for cost, late in (("pay ap 3 -> spend oxygen 2", "spend"), ("pay ap 3 -> take_token photo; use_oxygen", "use_oxygen")):
        text = SUMP.format(cost=cost)
        (pack / "sump.yaml").write_text(text, encoding="utf-8")
        column = text.splitlines()[7].index(late) + 1
        reporter = dg.Reporter()
        monkeypatch.chdir(ROOT)
        compile_and_import(ROOT / "content" / "the_cave", [pack], reporter)
        found = [d for d in reporter.diagnostics if "paid after `->`" in d.message]
        assert [(d.line, d.column) for d in found] == [(8, column)], dg.format_text(reporter)


SHOUT = """\
actions:
  - id: shout
    name: {{zh: 呼喊, en: Shout}}
    source: approximation
    note: "A fan's action."
    order: 8
    effect: "{effect}"
"""


def test_a_free_action_that_gains_a_token_is_warned_about(tmp_path, monkeypatch):
    """An action with no cost that gains a token from the supply can be taken any number of
    times in a turn (The Cave keeps no `once per`): a pack's free Shout (`require has(camera);
    gain_token traverse 1`) checked clean, and every simulated team shouted 60 times a turn
    until the round cap. check warns at the effect; with a cost, it says nothing."""
    pack = tmp_path / "shout_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.replace("mud_pack", "shout_pack"), encoding="utf-8")
    monkeypatch.chdir(ROOT)
    found = {}
    for effect in ("require has(camera); gain_token traverse 1", "pay ap 1 -> gain_token traverse 1"):
        (pack / "shout.yaml").write_text(SHOUT.format(effect=effect), encoding="utf-8")
        reporter = dg.Reporter()
        compile_and_import(ROOT / "content" / "the_cave", [pack], reporter)
        found[effect] = [(d.severity, d.code, d.line) for d in reporter.diagnostics]
    assert found == {"require has(camera); gain_token traverse 1": [("warning", "TC-G002", 7)],
                     "pay ap 1 -> gain_token traverse 1": []}, found
