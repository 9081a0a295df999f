"""Crawl Decks compile-time rules (compiler/game_checks/dm_crawl_decks.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check(tmp_path: Path, edit, run_cli) -> tuple[int, str, str]:
    """`tomecraft check` of a copy of the game with one edit (in this process: run_cli)."""
    game = tmp_path / "dm_crawl_decks"
    shutil.copytree(ROOT / "content" / "dm_crawl_decks", game)
    path, old, new = edit
    text = (game / path).read_text(encoding="utf-8")
    assert old in text
    (game / path).write_text(text.replace(old, new, 1), encoding="utf-8")
    return run_cli("check", game)


def test_the_shipped_content_is_clean(run_cli):
    code, out, _ = run_cli("check", "content/dm_crawl_decks")
    assert code == 0 and "0 errors" in out


@pytest.mark.parametrize("edit,message", [
    (("relics.yaml", 'use: "pay ammo 1 ->', 'use: "pay gold 1 ->'), "labelled 'ammo' consumes ammo"),
    (("relics.yaml", "    identity: true\n", ""), "0 relics are marked identity"),
    (("relics.yaml", "    window: action\n    use: \"turn_sideways -> draw_main 1\"",
      "    window: action\n    use: \"draw_main 1\""), "turns sideways when used"),
    (("events.yaml", "resource: gold, count: 3", "resource: food, count: 3"), "no loot card turns into gold"),
    # a passive relic with a window was told it 'needs a `window` ..., and only then'
    (("relics.yaml", "    window: action\n    use: \"turn_sideways -> draw_main 1\"",
      "    window: action\n    passive: \"on descend: draw_main 1\""),
     "`window` is when a relic's `use` may be activated, and this relic has no `use`"),
    (("relics.yaml", "    window: action\n    use: \"turn_sideways -> draw_main 1\"",
      "    use: \"turn_sideways -> draw_main 1\""),
     "a relic with `use` needs a `window`: when it may be activated\n"),
    (("board.yaml", "dl_start: 1\n", "dl_start: 4\n"), "starts at level 4, above its deepest level"),
    # a board keeping 3 of 1 drawn relic checked clean; set-up kept 1 (eighth packs blind test)
    (("board.yaml", "relic_keep: 2\n", "relic_keep: 6\n"), "6 relics kept of the 5 drawn at set-up"),
    # its sibling in an effect: the event card read "draw 1 relic, gain 3" (tenth packs blind test)
    (("events.yaml", 'effect: "gain_relic 1 3"', 'effect: "gain_relic 3 1"'),
     "events.yaml:39:14: error[TC-G001]: `gain_relic 3 1` keeps 3 relics of 1 drawn"),
])
def test_broken_content_is_reported(tmp_path, run_cli, edit, message):
    code, out, _ = check(tmp_path, edit, run_cli)
    assert code == 1 and "TC-G" in out and message in out, out


PACK = """id: crown_pack
game: dm_crawl_decks
version: "0.1"
name: {zh: crown, en: crown}
requires: []
remove: REMOVE
"""
CROWN = """relics:
  - id: crown
    name: {zh: 王冠, en: Crown}
    source: approximation
    note: "a fan's identity card"
    identity: true
    passive: "on acquired: win_game"
"""


@pytest.mark.parametrize("remove", ["[]", "[{kind: relic, id: yande_identity}]"])
def test_a_packs_identity_card_replaces_yandes_or_is_refused_where_it_is(tmp_path, run_cli, remove):
    """A pack adding a second identity card is refused at both cards (the pack's line, not the
    first relic of the base game); one replacing Yande's (`remove`) checks clean."""
    (tmp_path / "pack.yaml").write_text(PACK.replace("REMOVE", remove), encoding="utf-8")
    (tmp_path / "relics.yaml").write_text(CROWN, encoding="utf-8")
    code, out, _ = run_cli("check", "content/dm_crawl_decks", "--pack", tmp_path)
    if remove == "[]":
        assert code == 1 and "2 relics are marked identity" in out, out
        assert f"{tmp_path / 'relics.yaml'}:6:" in out and "content/dm_crawl_decks/relics.yaml:" in out, out
    else:
        assert code == 0 and "0 errors" in out, out


def test_more_starting_tokens_than_the_attributes_hold_is_warned_and_set_up(tmp_path, run_cli):
    """A pack's board with start_tokens 1000 checked clean and stopped sim at set-up ('no
    agility token left', an internal error) once the chosen attribute's 5 tokens were out:
    check warns, and set-up offers only attributes with tokens left (fifth packs blind test)."""
    from tomecraft.compiler.loadgen import compile_and_import
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.engines.dm_crawl_decks import engine as crawl
    from tomecraft.runtime.rng import Rng
    code, out, _ = check(tmp_path, ("board.yaml", "start_tokens: 1\n", "start_tokens: 1000\n"), run_cli)
    assert code == 0 and "warning[TC-G002]" in out and \
        "1000 starting attribute tokens, but the attributes hold 20 in all" in out, out
    reporter = dg.Reporter()
    data = compile_and_import(tmp_path / "dm_crawl_decks", [], reporter)
    assert data is not None, dg.format_text(reporter)
    game = crawl.new_engine(data, Rng(1), RandomAgent(Rng(2)))
    crawl.setup(game)
    assert {a: game.state.tokens[a].total for a in crawl.ATTRIBUTES} == dict.fromkeys(crawl.ATTRIBUTES, 5)


PURSE_PACK = {"pack.yaml": "id: purse\ngame: dm_crawl_decks\nversion: '1.0'\n",
              "relics.yaml": """relics:
  - id: bottomless_purse
    name: {zh: 无底钱袋, en: Bottomless Purse}
    source: approximation
    note: a free relic with no limit
    window: action
    use: "gain gold 1"
"""}


def test_an_action_phase_of_endless_relic_uses_still_ends_with_an_action(tmp_path):
    """A pack's free relic with no limit (`use: "gain gold 1"`, L43: a relic stays after use):
    the simulated player used it 50 times, the action phase ended with no action, no time
    passed, and every turn did the same until the turn cap (100 s a game, eighth packs blind
    test). After 50 uses the phase ends with an action, as every action phase does (L114)."""
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.compiler.loadgen import compile_and_import
    from tomecraft.runtime.engines.dm_crawl_decks import engine as crawl
    from tomecraft.runtime.rng import Rng
    for name, text in PURSE_PACK.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    data = compile_and_import(ROOT / "content" / "dm_crawl_decks", [tmp_path], reporter)
    assert data is not None, dg.format_text(reporter)

    class RelicFirst:        # always the relic when offered, else the first option
        def choose(self, key, options, view=None):
            return next((o for o in options if isinstance(o, dict) and o.get("do") == "relic"),
                        options[0])

    game = crawl.new_engine(data, Rng(1), RelicFirst(), log_enabled=True)
    crawl.setup(game)
    if not any(c.defn.id == "bottomless_purse" for c in game.state.equipment):
        game.gain_relic(next(c for c in game.state.relic_deck
                             if c.defn.id == "bottomless_purse"))
    game.start_turn()
    seen = len(game.state.log)
    game.action_phase()
    lines = game.state.log[seen:]
    assert sum(line.startswith("use relic bottomless_purse") for line in lines) >= 49, lines
    assert any(line.startswith("battle column") or "rest" in line for line in lines), \
        f"the action phase ended with no action: {lines[-5:]}"
    assert any(line.startswith("time:") for line in lines), "no time passed"


# the paying relic carries its label (`label: "gold"` after its use): L39, a relic with no
# label is a free one, and check refuses one that pays
@pytest.mark.parametrize("use, warned", [("gain gold 1", True), ("once per turn: gain gold 1", False),
                                         ('pay gold 1 -> heal 1"\n    label: "gold', False)])
def test_a_relic_usable_without_end_is_warned(tmp_path, run_cli, use, warned):
    """A relic stays after use (L43): one with no cost and no limit checked clean and was used
    50 times a turn by the simulated player (eighth packs blind test): check warns at its use."""
    for name, text in PURSE_PACK.items():
        (tmp_path / name).write_text(text.replace('use: "gain gold 1"', f'use: "{use}"'),
                                     encoding="utf-8")
    code, out, _ = run_cli("check", tmp_path)
    assert code == 0, out
    assert ("warning[TC-G002]" in out and "any number of times" in out
            and f"{tmp_path / 'relics.yaml'}:7:" in out) == warned, out


def test_a_long_rest_that_spends_no_time_is_warned_about(tmp_path, run_cli):
    """A long rest spends 2 time (L153): at 0 the player may rest every turn and the dungeon
    never moves on; a pack's board with `time_long_rest: 0` checked clean and 17 of 30
    simulated games ran to the round cap, resting."""
    code, out, _ = check(tmp_path, ("board.yaml", "time_long_rest: 2\n", "time_long_rest: 0\n"), run_cli)
    assert code == 0 and "warning[TC-G002]" in out and "time_long_rest" not in out.split("warning")[0], out
    assert "a long rest that spends no time" in out, out
