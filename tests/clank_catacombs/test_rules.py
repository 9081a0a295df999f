"""Engine rules of Clank! Catacombs not covered by the scenario files, and the game checks."""
from __future__ import annotations

import shutil
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline
from tomecraft.generated.clank_catacombs import GAME
from tomecraft.runtime.engines.clank_catacombs import Engine, new_state
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2] / "content" / "clank_catacombs"


def test_setup_row_has_six_cards_without_the_dragon_attack_icon_for_every_seed():
    for seed in range(30):
        state = new_state(GAME, 4, Rng(seed))
        assert len(state.row) == 6
        assert not any(GAME.get("card", c).dragon_attack for c in state.row)
        assert len(state.row) + len(state.dungeon_deck) == 100


def test_tile_stack_puts_four_safe_tiles_on_top_of_the_22_depth_tiles():
    state = new_state(GAME, 3, Rng(5))
    areas = [GAME.get("tile", t).area for t in reversed(state.tile_stack)]   # top first
    assert areas[:4] == ["safe"] * 4 and areas[4:] == ["depths"] * 22


def test_both_starting_tile_sides_play_and_mastery_tokens_match_the_players():
    for side in ("start_a", "start_b"):
        state = new_state(GAME, 2, Rng(1), side)
        assert state.mastery_left == 2
        assert state.cells[(0, 0)].room.id == "mausoleum" and not state.cells[(0, 0)].depths
        assert state.cells[(0, 1)].room.id == "monkey_shrine" and state.cells[(0, 1)].depths
        assert state.cells[(0, 1)].idols == 3


def test_rage_never_passes_the_top_of_the_track():
    state = new_state(GAME, 4, Rng(2))
    engine = Engine(GAME, state, [RandomAgent(Rng(i)) for i in range(4)])
    engine.rage(99)
    assert state.rage == len(GAME.get("rule", "rage_track").value) - 1


def test_a_wrong_dungeon_deck_count_is_a_game_rule_error(tmp_path):
    copy = tmp_path / "clank_catacombs"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("packs"))
    cards = copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("    count: 6\n", "    count: 7\n", 1), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(copy, [], reporter)
    assert any("the dungeon deck holds 101 cards" in d.message for d in reporter.diagnostics)


def test_a_packs_card_that_breaks_the_deck_count_is_told_at_its_own_count(tmp_path):
    """A newcomer's pack added a monster without removing one: `check cards.yaml` of the pack
    was clean, and the full check put the 104-card error on a card of the installed game."""
    pack = tmp_path / "bone_vault"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: bone_vault\ngame: clank_catacombs\nversion: '1'\n",
                                    encoding="utf-8")
    (pack / "cards.yaml").write_text(
        "cards:\n  - id: bone_bats\n    name: {zh: 骸骨蝙蝠, en: Bone Bats}\n"
        "    source: approximation\n    note: a fan's monster\n    card_type: monster\n"
        "    after_use: dungeon_discard\n    count: 4\n    defeat_cost: 2\n", encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT, [pack], reporter)
    [d] = [d for d in reporter.diagnostics if "the dungeon deck holds" in d.message]
    assert (Path(d.file).name, d.line, d.message) == (
        "cards.yaml", 8, "the dungeon deck holds 104 cards; the rulebook has 100 (L69-70)")
    assert str(pack) in str(Path(d.file).resolve()) and "`remove: [{kind: card, id: ...}]`" in d.hint
    assert "replace: true" in d.hint          # or replaces one of the game's (fourth packs round)


def test_a_replaced_card_whose_count_breaks_the_deck_is_told_at_its_count(tmp_path):
    """A pack replacing Bat Swarm (4 -> 5 copies) and then Wraith (3, unchanged): the 101-card
    error stood at the Wraith's count, the pack's last card, not at the count it raised."""
    pack = tmp_path / "more_bats"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: more_bats\ngame: clank_catacombs\nversion: '1'\n",
                                    encoding="utf-8")
    card = ("  - id: {id}\n    replace: true\n    name: {{zh: {zh}, en: {en}}}\n"
            "    source: approximation\n    note: a fan's card\n    card_type: monster\n"
            "    after_use: dungeon_discard\n    count: {count}\n    defeat_cost: 1\n")
    (pack / "cards.yaml").write_text(
        "cards:\n" + card.format(id="bat_swarm", zh="蝙蝠", en="Bats", count=5)
        + card.format(id="wraith", zh="怨灵", en="Wraith", count=3), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT, [pack], reporter)
    [d] = [d for d in reporter.diagnostics if "the dungeon deck holds" in d.message]
    assert (Path(d.file).name, d.line, d.message) == (
        "cards.yaml", 9, "the dungeon deck holds 101 cards; the rulebook has 100 (L69-70)")


def test_a_scenario_setup_the_engine_cannot_play_is_refused_in_the_scenario_s_terms():
    """A seat, rage space, room, cube or id a tester mistypes is a setup or step failure naming
    it, not an engine error ("internal error: IndexError") later."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    base = {"players": [{"pos": [3, 0]}, {}], "tiles": [room]}
    cases = [
        ({**base, "rage": 9}, [], "rage 9 is off the rage track"),
        ({**base, "players": [{"pos": [7, 7]}, {}]}, [], "players[0].pos [7, 7] is no room"),
        ({**base, "clank_area": {"P1": 2}}, [], "clank_area key 'P1'"),
        ({**base, "players": [{"pos": [3, 0], "hand": ["burgel"]}, {}]}, [], "no card 'burgel'"),
        (base, [{"do": "end", "player": 2}], "steps[0]: player 2: the scenario's players are seats 0-1"),
        ({**base, "players": [{"pos": [3, 0], "status": "escapd"}, {}]}, [], "players[0].status 'escapd'"),
        ({**base, "players": [{"pos": [3, 0], "damage": 10}, {}]}, [], "players[0].damage 10"),
        ({**base, "players": [{"pos": [3, 0], "tokens": {"treasure_10": 1}}, {}]}, [],
         "'treasure_10' is a treasure: list it in `treasures`"),
        ({**base, "players": [{"pos": [3, 0], "market": [["backpack", 5, 1]]}, {}]}, [],
         "players[0].market: ['backpack', 5, 1] is not [item, points]"),
        (base, [{"player": 0}], "steps[0]: step {'player': 0} has no `do`"),
        (base, [{"do": "teleport"}], "steps[0]: step do: 'teleport' is no action"),
        (base, [{"do": "defeet"}], "steps[0]: step do: 'defeet' is no action; did you mean `defeat`?"),
        (base, [{"do": "turnend"}], "steps[0]: step do: 'turnend' is no action; did you mean `turn_end`?"),
    ]
    for setup, steps, message in cases:
        failures = run_scenario(GAME, {"setup": setup, "steps": steps})
        assert len(failures) == 1 and message in failures[0], (message, failures)


def test_a_misspelt_card_in_a_pile_is_named_at_its_entry_with_the_closest_id():
    """A newcomer's `row: [bone_bat]` failed at the setup: line with "row: no card
    'bone_bat'" and no hint of the id meant."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    setup = {"players": [{"pos": [3, 0], "hand": ["burgle", "scrmble"]}, {}], "tiles": [room],
             "row": ["goblin", "goblinn"]}
    assert run_scenario(GAME, {"setup": setup}) == [
        "setup: row[1]: no card 'goblinn' in the content; "
        "did you mean `goblin`?"]
    del setup["row"]
    assert run_scenario(GAME, {"setup": setup}) == [
        "setup: players[0].hand[1]: no card 'scrmble' in the "
        "content; did you mean `scramble`?"]


def test_a_refused_card_step_says_what_the_player_lacks():
    """A newcomer's defeat step with too little combat got "is not legal; legal: [{'do':
    'end'}]" and had to work out why."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    setup = {"players": [{"pos": [3, 0], "combat": 0}, {}], "tiles": [room], "row": ["bat_swarm"]}
    for card, why in (("bat_swarm", "(player 0 has 0 combat; bat_swarm needs 1)"),
                      ("wraith", "(wraith is not in the dungeon row: ['bat_swarm'])")):
        [failure] = run_scenario(GAME, {"setup": setup, "steps": [{"do": "defeat", "card": card}]})
        assert f"is not legal {why}; legal:" in failure, failure


def test_a_scenario_s_misspelt_keys_fail_instead_of_setting_or_checking_nothing():
    """`gld: 5` in a player, a room's `treasure:` or `rwo:` set nothing, and an expectation
    `{room: [1, 0], treasure: [...]}` or `{rage: 1, over: true}` passed whatever the engine did;
    a tile's icon as text was split into letters, a misspelt icon or exit made the tunnel
    silently impassable (or failed later with a bare KeyError), and a chalice in the treasure
    stack was placed and taken as a treasure."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    base = {"players": [{"pos": [3, 0]}, {}], "tiles": [room]}
    cases = [
        ({**base, "rwo": ["lute"]}, [], [], "setup: unknown key(s) ['rwo']"),
        ({**base, "players": [{"pos": [3, 0], "gld": 5}, {}]}, [], [], "players[0]: unknown key(s) ['gld']"),
        ({**base, "tiles": [{**room, "treasure": ["treasure_5"]}]}, [], [], "tiles[0]: unknown key(s) ['treasure']"),
        (base, [{"do": "end", "chose": []}], [], "step: unknown key(s) ['chose']"),
        (base, [], [{"room": [3, 0], "treasure": ["x"]}], "unknown key(s) ['treasure']"),
        (base, [], [{"rage": 1, "over": True}], "one field of the game at a time"),
        (base, [], [{"legal": {"do": "end"}, "presnt": False}], "unknown key(s) ['presnt']"),
        ({**base, "tiles": [{**room, "icons": {"E": "monster_icon"}}]}, [], [], "a side N, E, S or W and a list"),
        ({**base, "tiles": [{**room, "icons": {"E": ["monster"]}}]}, [], [], "no tunnel icon 'monster'"),
        ({**base, "tiles": [{**room, "exits": "ew"}]}, [], [], "tiles[0].exits 'ew'"),
        ({**base, "tiles": [{**room, "room": "treasure"}]}, [], [], "tiles[0].room: no room 'treasure'"),
        ({**base, "tiles": [{**room, "treasures": ["treasure_99"]}]}, [], [], "no token 'treasure_99'"),
        ({**base, "treasure_stack": ["chalice"]}, [], [], "'chalice' is a major_secret, not a treasure"),
        ({**base, "row": ["mercenary"]}, [], [], "'mercenary' is a reserve card, not a dungeon card"),
        ({**base, "players": [{"pos": [3, 0], "hand": "lute"}, {}]}, [], [], "players[0].hand 'lute': a list"),
        ({**base, "players": [{"pos": [3, 0], "movement": "2"}, {}]}, [], [], "players[0].movement '2'"),
        ({**base, "bag": {"black": -3}}, [], [], "setup.bag.black -3: a whole number"),
        ({**base, "bag": {"black": 30}}, [], [], "30 black cubes: the box has 24 (L40)"),
        ({**base, "market": {"crown": 10}}, [], [], "each item's points left, as a list"),
        ({"new_game": {"players": 1}}, [], [], "new_game players 1: the game is for 2-4 players"),
        ({**base, "players": [{}]}, [], [], "1 players listed: the game is for 2-4 players"),
        ({**base, "players": [{}] * 5}, [], [], "5 players listed: the game is for 2-4 players"),
        ({**base, "players_count": 7}, [], [], "players_count 7: the game is for 2-4 players"),
        ({**base, "players_count": 3}, [], [], "players_count 3 but 2 players listed"),
        ({**base, "reserve": {"mercenery": 3}}, [], [], "reserve: no reserve card 'mercenery'"),
        (base, [{"do": "out_turn", "player": 0}], [], "out_turn: player 0 is still in the game"),
    ]
    for setup, steps, expect, message in cases:
        failures = run_scenario(GAME, {"setup": setup, "steps": steps, "expect": expect})
        assert len(failures) == 1 and message in failures[0], (message, failures)


def test_an_empty_bag_in_a_scenario_is_empty():
    """`bag: {}` set up the 24-cube bag of a new game: an attack meant to empty the bag drew
    from 24 black cubes and the game went on (L544)."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    setup = {"players": [{"pos": [3, 0]}, {"pos": [3, 0]}], "tiles": [room], "rage": 1, "bag": {},
             "clank_area": {"1": 1}, "bag_draws": ["1"]}
    expect = [{"bag": {}}, {"over": True}, {"player": 1, "damage": 1}]
    assert run_scenario(GAME, {"setup": setup, "steps": [{"do": "dragon_attack"}], "expect": expect}) == []


def test_a_scenario_s_reserve_and_market_name_only_the_piles_they_change():
    """`reserve: {secret_tome: 0}` emptied every reserve pile, `market: {crown: [8]}` sold out
    every other item; now the others are as set up, and a market expectation checks the items
    it names (as a player's `tokens` does)."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "market", "exits": "EW"}
    setup = {"players": [{"pos": [3, 0], "skill": 2, "gold": 7}, {}], "tiles": [room],
             "reserve": {"secret_tome": 0}, "market": {"crown": [8]}}
    steps = [{"do": "acquire", "card": "mercenary"}, {"do": "buy", "item": "backpack"}]
    expect = [{"market": {"crown": [8], "backpack": [5]}}, {"player": 0, "discard": ["mercenary"]}]
    assert run_scenario(GAME, {"setup": setup, "steps": steps, "expect": expect}) == []


def test_a_scenario_may_name_a_player_s_market_item_alone_and_its_dragon_draws_as_text():
    """`market: [backpack]` is the backpack at its first points value; `bag_draws: ["0"]` is seat
    0's cube, as `bag: {"0": n}` is (a tester writes either)."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [3, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    setup = {"players": [{"pos": [3, 0], "market": ["backpack"]}, {}], "tiles": [room],
             "bag": {"black": 2}, "clank_area": {"0": 1}, "bag_draws": ["0", "black"]}
    expect = [{"player": 0, "market": [["backpack", 5]], "damage": 1}]
    assert run_scenario(GAME, {"setup": setup, "steps": [{"do": "dragon_attack"}], "expect": expect}) == []


def test_the_setup_row_s_arrive_effects_run_before_the_first_turn_in_a_game_and_a_scenario():
    """L496: a card with an arrive effect dealt to the setup row (no base card can be: they all
    carry the dragon icon, a pack's may not) acts before the first turn, in `play_game` and in a
    scenario's `new_game` alike (both call Engine.setup_arrivals)."""
    state = new_state(GAME, 2, Rng(4))
    state.row[0] = "wraith"                               # arrive: a ghost to the Clank! area
    engine = Engine(GAME, state, [RandomAgent(Rng(1)) for _ in state.players])
    engine.setup_arrivals()
    assert state.clank_area["ghost"] == 1 and state.ghosts == 4


def test_a_scripted_answer_to_a_decision_with_one_option_is_used_up_there():
    """A tester scripts the teleport's destination even when it is the only one (the map's edge
    to explore); that answer belongs to the teleport, not to the tile's rotation asked next."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    room = {"at": [-1, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW"}
    setup = {"players": [{"pos": [-1, 0], "hand": ["secret_passage"]}, {}], "tiles": [room],
             "tile_stack": ["depths_09"]}
    steps = [{"do": "play", "card": "secret_passage",
              "choose": [True, {"do": "explore", "edge": "W"}, {"rotation": 1}]}]
    expect = [{"player": 0, "pos": [-2, 0]}, {"room": [-2, 0], "exits": "ES"}]
    assert run_scenario(GAME, {"setup": setup, "steps": steps, "expect": expect}) == []


COMPASS = """tokens:
  - id: fan_compass
    name: {zh: 罗盘, en: Compass}
    source: approximation
    note: a test token with the Catacomb Map's passive
    token_type: major_secret
    count: 1
    points: 1
    passive: "continuous: allow_reverse one_way_arrow"
    kept: true
cards:
  - id: war_horn
    replace: true
    name: {zh: 逆行号角, en: Reverse Horn}
    source: approximation
    note: a test card that lets its player cross against arrows this turn
    card_type: acquire
    count: 2
    cost: 3
    dragon_attack: true
    play: "allow_reverse one_way_arrow"
"""


def test_a_packs_allow_reverse_lets_its_holder_cross_against_the_arrow(tmp_path):
    """Found by the packs blind test: allow_reverse did nothing (the engine read the Catacomb
    Map by id), so a pack's token with the map's passive, or a card playing it, checked clean
    and never let anyone cross against a one-way arrow. A token's lasts while it is held; a
    card's for the rest of the turn."""
    from tomecraft.compiler.loadgen import compile_and_import
    from tomecraft.runtime.engines.clank_catacombs.scenario import build
    pack = tmp_path / "compass"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: compass\ngame: clank_catacombs\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "content.yaml").write_text(COMPASS, encoding="utf-8")
    reporter = dg.Reporter()
    data = compile_and_import(ROOT, [pack], reporter)
    assert data is not None and not reporter.errors, dg.format_text(reporter)
    setup = {"players": [{"pos": [2, 0], "movement": 3, "hand": ["war_horn"]}, {"pos": [2, 0]}],
             "tiles": [{"at": [1, 0], "tile": "safe_06", "room": "plain_room", "exits": "EW",
                        "icons": {"E": ["one_way_arrow"]}},
                       {"at": [2, 0], "tile": "safe_06", "room": "plain_room", "exits": "W"}]}
    engine = build(data, setup)
    player, holder = engine.state.players

    def can_go_west():
        return any(o.get("do") == "move" and tuple(o.get("to", ())) == (1, 0)
                   for o in engine.legal_actions(player))
    assert not can_go_west()
    engine.apply(player, {"do": "play", "card": "war_horn"})
    assert can_go_west()
    engine.end_turn(player)                               # a card's: for the rest of the turn
    assert not engine.may_reverse(player)
    assert not engine.may_reverse(holder)
    engine.gain_token(holder, "fan_compass")
    engine.end_turn(holder)                               # a held token's passive lasts
    assert engine.may_reverse(holder)


def test_a_hand_built_scenario_state_refuses_five_players_without_the_party_pack():
    """`sim` refuses 5 players without 墓穴派对; a scenario's hand-built state did not, and
    played the base rules (one treasure in a + room, L661-665) for a 5-player position."""
    import pytest
    from tomecraft.runtime.engines.clank_catacombs.scenario import build
    with pytest.raises(ValueError, match="tomb_party"):
        build(GAME, {"players": [{"pos": [0, 0]}, {}, {}, {}, {}]})
    with pytest.raises(ValueError, match="tomb_party"):
        build(GAME, {"players": [{"pos": [0, 0]}, {}], "players_count": 6})
    assert len(build(GAME, {"players": [{"pos": [0, 0]}, {}, {}, {}]}).state.players) == 4


def test_a_free_card_into_a_zone_no_player_holds_cards_in_is_refused_at_the_zone(tmp_path):
    """`acquire_free mercenary dungeon_row` was played as the discard pile."""
    (tmp_path / "pack.yaml").write_text("id: row\ngame: clank_catacombs\nversion: '1'\n",
                                        encoding="utf-8")
    card = ("  - {id: lute, replace: true, name: {zh: 测, en: Test}, source: approximation, "
            "note: x, card_type: acquire, count: 1, cost: 1, "
            "play: \"acquire_free mercenary dungeon_row\"}")
    (tmp_path / "cards.yaml").write_text("cards:\n" + card + "\n", encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT, [tmp_path], reporter)
    found = [(Path(d.file).name, d.line, d.column) for d in reporter.diagnostics]
    assert found == [("cards.yaml", 2, card.index("dungeon_row") + 1)], dg.format_text(reporter)


def test_the_formats_new_game_side_values_set_up_a_game():
    """`new_game: {..., side: A}` (the format said only `side`) failed: the sides are ids."""
    import re

    from tomecraft.runtime.engines.clank_catacombs import scenario as runner
    sides = re.search(r"side: ([a-z_|]+)\}", runner.__doc__).group(1).split("|")
    for side in sides:
        setup = {"new_game": {"players": 3, "seed": 4, "side": side}}
        assert runner.run_scenario(GAME, {"setup": setup, "expect": [{"row_size": 6}]}) == []


def test_a_packs_hand_larger_than_the_starting_deck_and_row_larger_than_the_deck_set_up(tmp_path, monkeypatch):
    """A pack's hand_size 12 (the starting deck holds 10) and row_size 200 checked clean and
    stopped sim at set-up (IndexError: pop from empty list): the hand takes the whole deck and
    the row what the dungeon deck has (fifth packs blind test)."""
    from tests.pack_play import compiled_with
    pack = tmp_path / "big_hands"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: big_hands\ngame: clank_catacombs\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "rules.yaml").write_text("rules:\n" + "".join(
        f"  - {{id: {rule}, replace: true, name: {{zh: 规则, en: Rule}}, source: approximation, "
        f"note: a test, value: {value}}}\n" for rule, value in (("hand_size", 12), ("row_size", 200))),
        encoding="utf-8")
    data = compiled_with("clank_catacombs", pack, monkeypatch)
    state = new_state(data, 2, Rng(1))
    assert [len(p.hand) for p in state.players] == [10, 10] and not state.players[0].deck
    assert state.dungeon_deck and all(data.get("card", c).dragon_attack for c in state.dungeon_deck)


def test_a_step_after_the_game_ended_says_the_game_is_over():
    """A hand-built state with no dungeon deck ends at its first turn_end (L530); the next
    step failed with only "is not legal; legal: [{'do': 'end'}]", the player's cards in hand."""
    from tomecraft.runtime.engines.clank_catacombs.scenario import run_scenario
    setup = {"players": [{"hand": [], "deck": ["sidestep"] * 5}, {"hand": ["burgle"]}]}
    steps = [{"do": "turn_end", "player": 0}, {"do": "play", "player": 1, "card": "burgle"}]
    [failure] = run_scenario(GAME, {"setup": setup, "steps": steps})
    assert "(the game is over: the dungeon deck cannot refill the row)" in failure
