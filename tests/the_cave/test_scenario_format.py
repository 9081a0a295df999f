"""The Cave's scenario format refuses what a tester could mistype, with a message that says
where: a misspelt key used to set or check nothing (an expectation with a misspelt key passed
whatever the engine did), and a rappel tile given only its marker sat at depth 0."""
from __future__ import annotations

from tomecraft.generated.the_cave import GAME
from tomecraft.runtime.engines.the_cave.scenario import run_scenario

BASE = {"at": [0, 0], "kind": "start", "exits": "NESW"}


def run(setup: dict, steps=(), expect=()) -> list[str]:
    return run_scenario(GAME, {"setup": setup, "steps": list(steps), "expect": list(expect)})


def test_misspelt_expectation_keys_fail_instead_of_passing():
    setup = {"tiles": [BASE, {"at": [1, 0], "kind": "water", "exits": "W"}]}
    failures = run(setup, expect=[{"tile": [1, 0], "token": ["water"]},
                                  {"rope": [[0, 0], [1, 0]], "presnt": False},
                                  {"legal": {"do": "end"}, "presnt": False},
                                  {"teams": 0}])
    assert len(failures) == 4, failures
    assert "unknown key(s) ['token']" in failures[0]
    assert "unknown expectation" in failures[3]


def test_misspelt_setup_and_step_keys_and_bad_references_are_refused():
    assert "unknown key(s) ['position']" in run({"tiles": [BASE], "teams": [{"position": [0, 0]}]})[0]
    assert "unknown key(s) ['tile']" in run({"tile": [BASE]})[0]
    assert "no tile at [3, 3]" in run({"tiles": [BASE], "teams": [{"pos": [3, 3]}]})[0]
    assert "'lava:EW'" in run({"tiles": [BASE], "stacks": [["lava:EW"]]})[0]
    assert "exits 'nesw'" in run({"tiles": [dict(BASE, exits="nesw")]})[0]
    steps = [{"team": 2, "do": "start_turn"}]
    assert "teams 0 to 0" in run({"tiles": [BASE], "teams": [{}]}, steps)[0]
    assert "unknown key(s) ['chose']" in run({"tiles": [BASE]}, [{"do": "end", "chose": []}])[0]


def test_a_rappel_given_only_its_marker_or_its_depth_has_both():
    """L91-95: the yellow marker shows the depth and is always on a rappel tile."""
    near = {"at": [1, 0], "kind": "normal", "exits": "EW"}
    setup = {"tiles": [BASE, near, {"at": [2, 0], "kind": "rappel", "exits": "W", "marker": 50},
                       {"at": [1, 1], "kind": "rappel", "exits": "S", "depth": 25}],
             "teams": [{"pos": [1, 0], "backpack": {"rope": 2}}]}
    assert run(setup, [{"do": "move", "to": [2, 0], "via": "rope"}],
               [{"team": 0, "ap": 2, "backpack": {"rope": 0}},
                {"tile": [1, 1], "depth": 25, "marker": 25}]) == []
    clash = dict(setup, tiles=[BASE, {"at": [1, 0], "kind": "rappel", "depth": 25, "marker": 50}])
    assert "differ" in run(clash)[0]


def test_exits_are_compared_whatever_their_order():
    assert run({"tiles": [dict(BASE, exits="WSEN")]}, expect=[{"tile": [0, 0], "exits": "ESWN"}]) == []


def test_a_step_expected_to_fail_must_name_something_the_engine_could_offer():
    """`fails: true` with a misspelt id or via (or the use of an item with no action of its
    own) is refused by any engine: it used to pass whatever the engine did."""
    setup = {"tiles": [BASE, {"at": [1, 0], "kind": "water", "exits": "W", "tokens": ["water"]}],
             "teams": [{"backpack": {"oxygen": 1, "rope": 1}}]}
    for step in ({"do": "move", "to": [1, 0], "via": "oxgen", "fails": True},
                 {"do": "act", "id": "photo", "fails": True},
                 {"do": "use", "item": "rope", "illegal": True}):
        failures = run(setup, [step])
        assert failures and "vacuously" in failures[0], (step, failures)
    assert run(setup, [{"do": "move", "to": [1, 0], "via": "raft", "fails": True}]) == []


def test_names_in_the_setup_must_exist():
    near = {"at": [1, 0], "kind": "squeeze_2", "exits": "W"}
    assert "unknown token(s) ['squeeze']" in run({"tiles": [BASE, dict(near, tokens=["squeeze"])]})[0]
    assert "unknown token(s) ['photos']" in run({"tiles": [BASE], "teams": [{"tokens": {"photos": 2}}]})[0]
    assert "unknown equipment ['ropes']" in run({"tiles": [BASE], "teams": [{"backpack": {"ropes": 2}}]})[0]
    assert "needs its camp_pos" in run({"tiles": [BASE], "teams": [{"camp": "set"}]})[0]
    assert "'pitched' is not one of" in run({"tiles": [BASE], "teams": [{"camp": "pitched"}]})[0]
    assert "two adjacent tiles" in run({"tiles": [BASE, near], "ropes": [[[0, 0], [2, 0]]]})[0]
    rappel = {"at": [0, 1], "kind": "rappel", "exits": "S", "depth": 25}
    assert run({"tiles": [BASE, near, rappel], "ropes": [[[0, 0], [0, 1], 1]],
                "teams": [{"backpack": {"oxygen@1": 1}, "camp": "set", "camp_pos": [1, 0]}, {}]}) == []
    # a rope no play places: two tiles of one depth, a seat the game lacks (L128-136, L146-148)
    assert "a rappel to a tile of another depth" in run({"tiles": [BASE, near], "ropes": [[[0, 0], [1, 0]]]})[0]
    assert "seat 2 placed it" in run({"tiles": [BASE, rappel], "ropes": [[[0, 0], [0, 1], 2]],
                                      "teams": [{}, {}]})[0]


def test_tiles_left_out_lay_the_starting_board_for_the_player_count():
    """L33, L37-39, L50: a scenario may start from a game's own set-up for the count."""
    for players, piles in ((2, 12), (4, 16), (5, 18)):
        expect = [{"stacks": [piles] * 4}, {"team": players - 1, "pos": [0, 0]}]
        assert run({"teams": [{}] * players, "stacks": "dealt"}, expect=expect) == [], players
    assert "players 3 but 2 teams" in run({"players": 3, "teams": [{}, {}]})[0]
    # L14: 2-5 players; hand-built teams may be fewer (a partial position), never more
    assert "players 6: the_cave is for 2-5 players" in run({"players": 6})[0]
    assert "players 1: the_cave is for 2-5 players" in run({"players": 1})[0]
    tiles = [{"at": [0, 0], "kind": "start"}]
    assert "teams 6: the_cave is for 2-5 players" in run({"tiles": tiles, "teams": [{}] * 6})[0]
    assert run({"tiles": tiles, "teams": [{}]}) == []
    # a count of another type said so (it was a TypeError from a comparison)
    assert "setup.players: a whole number of players, not '3'" in run({"players": "3"})[0]
    assert "setup.teams: a list of teams" in run({"tiles": tiles, "teams": 3})[0]


def test_a_bonus_expectation_names_majority_categories():
    """L311-312: a misspelt category read as 0 let an expected 0 pass whatever was scored."""
    setup = {"tiles": [BASE], "teams": [{"tokens": {"photo": 2}}, {}]}
    failures = run(setup, [{"do": "score"}], [{"bonus": [{"photos": 0}, {}]}])
    assert "unknown categor(ies) ['photos']" in failures[0], failures
    assert run(setup, [{"do": "score"}], [{"bonus": [{"photo": 8}, {"photo": 0}]}]) == []


def test_a_team_holds_only_what_a_team_can_hold():
    """Counts are whole and not negative, worn sides exist, the slots and the camera/raft
    limit hold, reached-depth tokens are of real depths: each was taken silently (a negative
    count freed slots, oxygen@3 was carried but never usable, 20 ropes fit in 8 slots)."""
    def refused(team: dict) -> str:
        return run({"tiles": [BASE], "teams": [team]})[0]
    assert "a count of 0 or more, not -1" in refused({"backpack": {"rope": -1}})
    assert "a count of 0 or more, not 1.5" in refused({"tokens": {"water": 1.5}})
    assert "a mapping of names to counts" in refused({"backpack": "rope"})
    assert "'oxygen@3' is no side of 'oxygen'" in refused({"backpack": {"oxygen@3": 1}})
    assert "the backpack has 8" in refused({"backpack": {"rope": 9}})
    assert "the backpack has 6" in refused({"camp": "packed", "backpack": {"rope": 7}})
    assert "the camp has 4 slots" in refused({"camp": "packed", "camp_items": {"rope": 5}})
    assert "at most 1 camera" in refused({"camp": "packed", "backpack": {"camera": 1},
                                          "camp_items": {"camera": 1}})
    assert "depth_tokens: a list of [25, 50, 75]" in refused({"depth_tokens": [30]})
    assert "forced: true or false" in refused({"forced": "yes"})
    assert "lost: a list of items" in refused({"lost": "camera"})


def test_tiles_are_one_per_position_with_depths_in_levels_of_25():
    """A second tile at a position replaced the first unseen; a depth of 30 or -25 was taken
    (depths go by 25 from the base's 0, L87, L133); tokens written as a word were read letter
    by letter."""
    near = {"at": [1, 0], "kind": "normal", "exits": "W"}
    assert "a second tile at [1, 0]" in run({"tiles": [BASE, near, dict(near, kind="water")]})[0]
    assert "not 30" in run({"tiles": [BASE, dict(near, kind="rappel", depth=30)]})[0]
    assert "not -25" in run({"tiles": [BASE, dict(near, depth=-25)]})[0]
    assert "a list of tokens, not 'water'" in run({"tiles": [BASE, dict(near, kind="water", tokens="water")]})[0]


def test_max_marker_is_in_levels_of_25_and_not_below_a_placed_marker():
    """A max_marker of 30, or 25 beside a placed 50, made the next rappel's marker 55 or a
    second 50 (L85-86: the deepest placed + 25)."""
    deep = {"at": [1, 0], "kind": "rappel", "exits": "W", "marker": 50}
    assert "not 30" in run({"tiles": [BASE], "max_marker": 30})[0]
    assert "deepest marker placed (50), not 25" in run({"tiles": [BASE, deep], "max_marker": 25})[0]
    assert run({"tiles": [BASE, deep], "max_marker": 75}) == []


def test_a_move_out_of_a_rappel_may_name_only_its_way_out():
    """Leaving a rappel for a tile of another depth is offered as `out+in` (L128: rope both
    up and down); `via: rope` or `via: roped` alone, as a tester writes a rappel move, used to
    be "not legal" (and so passed as a refusal). It names the one such move now, also in an
    `illegal` step and a `legal` expectation."""
    setup = {"tiles": [BASE, {"at": [1, 0], "kind": "rappel", "exits": "WE", "depth": 25},
                       {"at": [2, 0], "kind": "normal", "exits": "W", "depth": 50}],
             "ropes": [[[0, 0], [1, 0], 1]],
             "teams": [{"pos": [1, 0], "backpack": {"rope": 1}}, {}]}
    down = {"do": "move", "to": [2, 0], "via": "rope"}
    assert run(setup, [down], [{"team": 0, "ap": 3, "tokens": {"traverse": 1, "depth_50": 1}}]) == []
    assert run(setup, [{"do": "move", "to": [0, 0], "via": "roped"}],
               [{"team": 0, "ap": 4, "pos": [0, 0]}]) == []
    assert "expected to be illegal" in run(setup, [dict(down, illegal=True)])[0]
    assert run(setup, expect=[{"legal": down, "present": True}]) == []
    assert "expected False" in run(setup, expect=[{"legal": down, "present": False}])[0]


def test_the_format_says_turns_lists_the_whole_trigger_round(capsys):
    """L303-305: `turns` after an end_sequence that triggers the end lists the trigger round
    whole (seat 0 first, the trigger seat's own turn too), not only the turns after the
    trigger: the format text says so where it describes `turns`, and the engine does it."""
    from tomecraft.compiler import cli
    assert cli.main(["scenario", "format", "the_cave"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "`turns` lists [round, seat]" in text and "the whole trigger round" in text
    assert "not only the turns after the trigger" in text
    setup = {"players": 3, "tiles": [BASE]}
    step = [{"do": "end_sequence", "trigger_seat": 1}]
    whole = [[r, s] for r in range(1, 5) for s in range(3)]
    assert run(setup, step, [{"turns": whole}]) == []
    after = [[1, 2]] + whole[3:]
    assert run(dict(setup, end_triggered=True), step, [{"turns": after}]) == []


# --- a step that must be refused leaves the game as it was (README, Scenario files) -----------

def _refusal_pack(monkeypatch):
    from pathlib import Path

    from tests.pack_play import compiled_with
    return compiled_with("the_cave", Path(__file__).with_name("refusal_pack"), monkeypatch)


LEDGE = {"at": [1, 0], "kind": "ledge", "exits": "NESW"}


def test_an_entry_refused_after_paying_leaves_the_ap_and_the_team_as_they_were(monkeypatch):
    """The climb pays 2 AP, then its choice is answered with the camera's branch (no camera:
    not offered): the engine does not undo a move, the runner drops the copy it played on."""
    data = _refusal_pack(monkeypatch)
    steps = [{"do": "move", "to": [1, 0], "via": "climb", "choose": [0], "fails": True}]
    setup = {"tiles": [BASE, LEDGE], "teams": [{"pos": [0, 0], "ap": 5}]}
    assert run_scenario(data, {"setup": setup, "steps": steps, "expect": [
        {"team": 0, "ap": 5, "pos": [0, 0], "tokens": {"traverse": 0}}]}) == []


def test_a_scout_refused_after_placing_a_tile_leaves_map_and_stack_as_they_were(monkeypatch):
    data = _refusal_pack(monkeypatch)
    setup = {"tiles": [BASE, dict(LEDGE, exits="EW")], "stacks": [["water:EW"]],
             "teams": [{"pos": [1, 0], "ap": 5}]}
    steps = [{"do": "act", "id": "scout", "choose": [{"dir": "E", "exits": "EW"}, 0], "fails": True}]
    assert run_scenario(data, {"setup": setup, "steps": steps, "expect": [
        {"team": 0, "ap": 5}, {"tile": [2, 0], "absent": True}, {"stacks": [1, 0, 0, 0]},
        {"end_triggered": False}, {"log": "step refused"}]}) == []


def test_a_step_expected_refused_that_the_engine_accepts_still_fails(monkeypatch):
    """Played on a copy, a step that succeeds is still no refusal: the scenario fails."""
    data = _refusal_pack(monkeypatch)
    steps = [{"do": "move", "to": [1, 0], "via": "climb", "choose": [1], "fails": True}]
    failures = run_scenario(data, {"setup": {"tiles": [BASE, LEDGE], "teams": [{"pos": [0, 0]}]},
                                   "steps": steps, "expect": []})
    assert failures and "expected to be refused but succeeded" in failures[0], failures


def test_illegal_on_a_step_that_is_no_action_fails_instead_of_playing_it():
    """`illegal: true` refuses an action; on start_turn it was ignored and the turn started
    (AP back to 5): a pass for a step the engine accepts."""
    for step in ({"do": "start_turn", "illegal": True}, {"do": "score", "illegal": True}):
        failures = run({"tiles": [BASE], "teams": [{"ap": 1}]}, [step], [{"team": 0, "ap": 1}])
        assert failures and "illegal: true refuses an action" in failures[0], failures


def test_team_expectation_values_are_refused_in_the_wrong_shape():
    """A team's tokens given as a list (as a tile's are) or `lost: false` read as elimination
    (it lists the items lost) said "expected [...], got {...}" or "TypeError: 'bool' object is
    not iterable"; each now says what the key takes, as the setup does."""
    team = {"pos": [0, 0], "tokens": {"water": 1}}
    failures = run({"tiles": [BASE], "teams": [team]},
                   expect=[{"team": 0, "tokens": ["water"]}, {"team": 0, "lost": False},
                           {"team": 0, "depth_tokens": 25}, {"team": 0, "forced": "no"},
                           {"team": 0, "ap": "5"}, {"team": 0, "tokens": {"water": 1}}])
    assert len(failures) == 5, failures
    assert "team 0.tokens: a mapping of names to counts" in failures[0]
    assert "team 0.lost: a list of items lost" in failures[1]
    assert "team 0.depth_tokens: a list of reached depths" in failures[2]
    assert "team 0.forced: true or false" in failures[3]
    assert "team 0.ap: a whole number" in failures[4]


def test_stacks_expected_as_setup_writes_them_are_compared_tile_by_tile():
    """`{stacks}` took only counts: the tiles left, written top first as setup.stacks writes
    them, failed whatever was left. Counts still work; a wrong tile still fails."""
    setup = {"tiles": [BASE, {"at": [1, 0], "kind": "normal", "exits": "NESW"}],
             "stacks": [["wonder:NESW", "water:SN"], [], ["squeeze_2:EW"]],
             "teams": [{"pos": [1, 0], "backpack": {"consumable": 2}}]}
    steps = [{"do": "act", "id": "discover", "choose": [{"dir": "E"}]}]
    assert run(setup, steps, [{"stacks": [["water:NS"], [], ["squeeze_2:WE"], []]},
                              {"stacks": [1, 0, 1, 0]}]) == []
    wrong = run(setup, steps, [{"stacks": [["wonder:NESW"], [], ["squeeze_2:EW"], []]},
                               {"stacks": [["water:NS"], [], [], []]}])
    assert len(wrong) == 2 and "got [['water:NS'], [], ['squeeze_2:EW'], []]" in wrong[0], wrong


def test_depth_tokens_given_in_setup_are_held_tokens_that_score():
    """L151-154: a reached-depth token scores 3/4/5; `depth_tokens: [25]` in a team's setup
    held it for the once-per-value rule but scored nothing."""
    setup = {"tiles": [BASE], "teams": [{"depth_tokens": [25, 75]}, {"tokens": {"depth_50": 1}}]}
    assert run(setup, [{"do": "score"}], [{"scores": [8, 4]},
                                          {"team": 0, "tokens": {"depth_25": 1, "depth_75": 1}}]) == []
