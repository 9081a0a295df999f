"""Verbs and queries that act on what play hands only some effects (Contract.context_needs):
used where play hands none, check was clean and then the sim stopped or nothing happened.
On main, each refused case below checked clean: The Cave's action `require depth_levels() >= 0`
stopped the sim ("AttributeError: 'NoneType' object has no attribute 'depth'"), Clank!'s card
`if can_record()` ("'Card' object has no attribute 'room'"), Dungeontology's doom card
`on turn_end: place_stairs` ("'Scholar' object has no attribute 'level'"); DMCD's relic
`summon_cards` always fizzled (`sim --usage`: never used), Dungeontology's `refuse_loss`
outside `on block_loss` was never read. Each is refused at the use; where play hands what it
acts on, the same use stays clean."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[2]
T = "source: approximation, note: a test"


def check(tmp_path: Path, game: str, content: str, remove: str = "[]", vocabulary: str = ""):
    pack = tmp_path / "fan_pack"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(f"id: fan_pack\ngame: {game}\nversion: '1.0'\n"
                                    f"remove: {remove}\n{vocabulary}", encoding="utf-8")
    (pack / "content.yaml").write_text(content, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / game, [pack], reporter)
    return [(d.code, d.line, d.column, d.message) for d in reporter.diagnostics
            if d.severity == "error"]


_CAVE_KIND = ("tile_kinds:\n  - {{id: sump, name: {{zh: 水坑, en: Sump}}, " + T +
              ", discover_from: true, rope_edges: false, {fields}}}\n")
_CLANK_CARD = ("cards:\n  - {{id: t_card, name: {{zh: 测, en: Test}}, " + T +
               ", card_type: acquire, count: 1, cost: 1, play: \"{play}\"}}\n")
_DMCD_RELIC = ("relics:\n  - {{id: horn, name: {{zh: 号角, en: Horn}}, " + T +
               ", label: scroll, window: pre_battle, use: \"{use}\"}}\n")
_DMCD_CARD = ("cards:\n  - {{id: caller, name: {{zh: 召唤者, en: Caller}}, " + T +
              ", card_type: monster, points: 1, power: 1, count: 1, effect: \"{effect}\"}}\n")
_DGN_DOOM = ("doom_cards:\n  - {{id: cave_in, name: {{zh: 塌方, en: Cave-in}}, " + T +
             ", penalty: 1, effect: \"{effect}\"}}\n")
_DGN_OUT = "[{kind: doom_card, id: stumble}]"

REFUSED = {
    # (game, content, remove, the use refused, its column in the line)
    "cave on_discover": ("the_cave", _CAVE_KIND.format(
        fields='enter: [{id: walk, effect: "pay ap 1"}], '
               'on_discover: "gain_token traverse depth_levels()"'), "[]", "depth_levels()"),
    "cave action": ("the_cave", "actions:\n  - {id: sound, name: {zh: 测深, en: Sound}, " + T +
                    ", order: 9, effect: \"require rope_placed(); pay ap 1 -> place_rope 1\"}\n",
                    "[]", "rope_placed()"),
    "clank card": ("clank_catacombs", _CLANK_CARD.format(
        play="gain skill 1; if can_record() { gain gold icons(lock_icon) }"),
        "[{kind: card, id: lute}]", "can_record()"),
    "dmcd relic": ("dm_crawl_decks", _DMCD_RELIC.format(
        use="pay scroll 1 -> summon_cards exploration monster"), "[]", "summon_cards"),
    "dgn doom card": ("dungeontology", _DGN_DOOM.format(effect="on turn_end: place_stairs"),
                      _DGN_OUT, "place_stairs"),
    "dgn event-bound": ("dungeontology", _DGN_DOOM.format(
        effect="on turn_end: refuse_loss"), _DGN_OUT, "refuse_loss"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_use_where_play_hands_nothing_to_act_on_is_refused_at_it(tmp_path, case):
    game, content, remove, use = REFUSED[case]
    found = check(tmp_path, game, content, remove)
    assert [c for c, *_ in found] and {c for c, *_ in found} == {"TC-C003"}, found
    code, line, column, message = found[0]
    assert line == 2 and message.startswith(f"the engine cannot run `{use}`"), found
    text = content.splitlines()[1]
    assert text[column - 1:].startswith(use.rstrip("()")), (column, text)


def test_the_cave_rope_and_depth_queries_stay_clean_in_a_tiles_entry(tmp_path):
    assert check(tmp_path, "the_cave", _CAVE_KIND.format(
        fields='enter: [{id: down, effect: "require not rope_placed(); let levels = '
               'depth_levels(); pay ap (levels + 1) -> place_rope levels; reach_depth"}]')) == []


def test_clank_room_and_tunnel_queries_stay_clean_where_play_hands_them(tmp_path):
    assert check(tmp_path, "clank_catacombs", """
tunnel_icons:
  - id: lock_icon
    replace: true
    name: {zh: 上锁图标, en: Lock icon}
    source: approximation
    note: a test
    icon: lock_icon
    cross: "require not against_arrow(); pay lockpick icons(lock_icon) -> unlock lock_icon"
""") == []


def test_dmcd_a_dungeon_cards_own_summon_stays_clean(tmp_path):
    assert check(tmp_path, "dm_crawl_decks", _DMCD_CARD.format(
        effect="on turn_end: summon_cards exploration trap")) == []


def test_dungeontology_refuse_loss_in_on_block_loss_stays_clean(tmp_path):
    assert check(tmp_path, "dungeontology", _DGN_DOOM.format(
        effect="on block_loss: refuse_loss"), _DGN_OUT) == []


def test_a_keyword_is_refused_where_it_is_called_without_what_its_body_acts_on(tmp_path):
    """A pack's keyword `hold_on` (`refuse_loss`) called from a doom card's `on turn_end` is
    refused at the call; from `on block_loss` it is clean."""
    vocabulary = ("vocabulary:\n  keywords:\n    hold_on:\n      params: []\n"
                  "      effect: \"refuse_loss\"\n      text: {zh: 坚持, en: hold on}\n")
    found = check(tmp_path / "a", "dungeontology", _DGN_DOOM.format(
        effect="on turn_end: hold_on"), _DGN_OUT, vocabulary)
    assert [(c, line) for c, line, *_ in found] == [("TC-C003", 2)], found
    assert "`refuse_loss` (through keyword 'hold_on')" in found[0][3]
    assert check(tmp_path / "b", "dungeontology", _DGN_DOOM.format(
        effect="on block_loss: hold_on"), _DGN_OUT, vocabulary) == []


def test_the_contract_command_prints_where_each_needy_verb_runs():
    from tomecraft.compiler import cli
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["contract", "dungeontology"]) == 0
    assert "refuse_loss: only in an `on block_loss` trigger (it acts on the block being lost)" \
        in out.getvalue()
