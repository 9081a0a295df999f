"""Whole games: every game ends, the same seed replays the same game, and agents see only
what their scholar may see."""
from __future__ import annotations

from collections import Counter

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime import sim
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dungeontology import play_game
from tomecraft.runtime.engines.dungeontology.policy import View
from tomecraft.runtime.engines.dungeontology.scenario import build, run_scenario
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.scenario import ScenarioError


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_ends_without_the_round_cap(data, players):
    ends = Counter()
    for g in range(15):
        rng = Rng(f"t:{players}:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
        result = play_game(data, players, rng.fork("game"), agents, {})
        assert not result["capped"], (players, g)
        assert len(result["scores"]) == players
        ends[result["end"]] += 1
    assert set(ends) <= {"all_done", "bag_empty", "no_blocks", "stalled"}


def test_sim_is_deterministic(data):
    a = sim.run(data, players=4, games=12, seed=7)
    b = sim.run(data, players=4, games=12, seed=7)
    assert a == b and a["completed"] == 12


def test_games_use_the_rules_machinery(data):
    keys = ("research_ok", "spy", "stairs", "omegas", "rests", "boss_discover",
            "boss_activate", "keyword_triggers", "region_actions", "theses")

    def all_seen() -> bool:
        return (all(stats[key] > 0 for key in keys)
                and stats["max_alert_by_omega"] + stats["max_alert_by_thesis"] > 0)
    stats = Counter()
    for g in range(30):                 # stopped once all are counted: later games add only
        rng = Rng(f"m:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
        stats.update(play_game(data, 4, rng.fork("game"), agents, {})["stats"])
        if all_seen():
            break
    for key in keys:
        assert stats[key] > 0, key
    assert stats["max_alert_by_omega"] + stats["max_alert_by_thesis"] > 0


class Spy:
    """An agent that records every view it is given."""

    def __init__(self, rng):
        self.inner = RandomAgent(rng)
        self.views = []

    def choose(self, key, options, view=None):
        self.views.append(view)
        return self.inner.choose(key, options, view)


def test_views_hide_the_clan_doom_cards_bag_and_other_hands(data):
    engine = build(data, {
        "clan": "clan_mystics",
        "scholars": [{"scholar": "valerio", "hand": ["bully"], "dooms_hidden": ["stumble"]},
                     {"scholar": "sofia", "hand": ["shortcut", "smoke_bomb"], "lore": True}],
    })
    mine, theirs = View(engine, engine.state.scholars[0]), View(engine, engine.state.scholars[1])
    assert mine.clan() is None                     # no lore token: the clan card stays hidden
    assert theirs.clan().id == "clan_mystics"      # with it, the scholar may look (L636)
    assert mine.hand == ("bully",)
    public = mine.scholars()
    assert public[1]["hand_size"] == 2 and "hand" not in public[1]
    assert public[0]["dooms_face_down"] == 1 and public[0]["dooms"] == []
    assert "bag" not in mine.campus() and mine.campus()["panic"] is None
    names = {n for n in dir(mine) if not n.startswith("_")}
    assert not names & {"state", "engine", "deck", "bag", "clan_card", "panic_card"}


def test_agents_only_ever_receive_views(data):
    rng = Rng("views")
    agents = [Spy(rng.fork(f"a{i}")) for i in range(3)]
    play_game(data, 3, rng.fork("game"), agents, {})
    views = [v for a in agents for v in a.views]
    assert views and all(isinstance(v, View) for v in views)


def test_simulated_scholars_play_free_cards_in_the_action_phase(data):
    """Non-action scheme cards are playable in the action phase (L436, L592) and the random
    agents use that: over a few seeded games some are played there."""
    played = 0
    for g in range(6):
        rng = Rng(f"free:{g}")
        agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(3)]
        result = play_game(data, 3, rng.fork("game"), agents, {})
        played += result["stats"].get("free_cards_in_action_phase", 0)
    assert played > 0


def test_a_random_agent_is_asked_what_its_choose_would_answer(data):
    """Engine.ask draws a random agent's answer itself (its `choose` without the call): the
    same answer and the same draws, the heuristic's suggestions preferred; a single suggestion
    is taken with no draw (`choose` would draw and answer it all the same)."""
    engine = build(data, {"scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]})
    engine.agents = [RandomAgent(Rng("asked")), RandomAgent(Rng("other"))]
    twin = RandomAgent(Rng("asked"))
    who = engine.state.scholars[0]
    view = View(engine, who)
    decisions = [("rest", [False, True]), ("move", [{"do": "stay"}]), ("drop", ["faith", "wealth"]),
                 ("action", [{"do": "pass"}, {"do": "spy", "target": 1, "colour": "faith"}])] * 5
    for key, options in decisions:
        preferred = view.suggest(key, options) or options
        answer = preferred[0] if len(preferred) == 1 else twin.choose(key, options, view)
        assert engine.ask(who, key, options) == answer, key
    assert engine.agents[0].rng.random() == twin.rng.random()


@pytest.mark.parametrize("setup,named", [
    ({"wals": [["camp", "shepherds_shelter"]]}, "wals"),
    ({"regions": [{"region": "shepherds_shelter", "at": [1, 0], "slot": ["faith"]}]}, "slot"),
    ({"scholars": [{"scholar": "valerio", "studnets": 3}, {"scholar": "sofia"}]}, "studnets"),
    ({"walls": [["camp", "hunters_camp"]]}, "placed regions"),
    ({"players": 3}, "as many as players"),
    ({"scholars": [{"scholar": "valerio"}, {"scholar": "valerio"}]}, "exists once"),
    ({"scholars": [{"scholar": "valerio", "stun": 5}, {"scholar": "sofia"}]}, "stamina"),
    ({"scholars": [{"scholar": "valerio", "notebook": {"civilization": 9}}, {"scholar": "sofia"}]}, "holds"),
    ({"boss_at": "hall_of_faith"}, "boss_at 'hall_of_faith': no such region is placed"),
])
def test_a_mistyped_or_impossible_scenario_setup_is_an_error(data, setup, named):
    """A setup key the runner does not read would silently play a different game."""
    base = {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
            "scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]}
    with pytest.raises(ScenarioError, match=named):
        build(data, {**base, **setup})


def test_a_mistyped_step_key_is_an_error(data):
    scenario = {"setup": {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
                          "scholars": [{"scholar": "valerio", "at": "shepherds_shelter", "hand": ["bully"]},
                                       {"scholar": "sofia"}]},
                "steps": [{"do": "research", "seat": 0, "block": 2}]}
    failures = run_scenario(data, scenario)
    assert failures and "block" in failures[0], failures


@pytest.mark.parametrize("bad", [{"region": "shepherds_shelter", "slot": [None]},
                                 {"attempt": {"stelth": 1}},
                                 {"options": "action", "seat": 0, "none_of": "reserch"}])
def test_a_mistyped_expectation_is_an_error(data, bad):
    scenario = {"setup": {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
                          "scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]},
                "expect": [bad]}
    failures = run_scenario(data, scenario)
    assert failures and ("reserch" in failures[0] or "unknown key" in failures[0]), failures


@pytest.mark.parametrize("bad, says", [
    ({"scholar": 0, "hand": 3}, "hand_size counts them"),
    ({"scholar": 0, "notebook": {"blue": 1}}, "unknown info block colour 'blue'"),
    ({"campus": {"bag": 5}}, "campus bag: a mapping"),
])
def test_an_expectation_of_the_wrong_kind_says_what_the_key_holds(data, bad, says):
    """A count for `hand`, a rulebook colour word, a number for `bag`: a message, not a
    TypeError or a silent mismatch."""
    scenario = {"setup": {"scholars": [{"scholar": "valerio"}, {"scholar": "sofia"}]}, "expect": [bad]}
    failures = run_scenario(data, scenario)
    assert failures and says in failures[0], failures


def test_doom_expectations_take_a_count_or_the_card_ids(data):
    scenario = {"setup": {"scholars": [{"scholar": "valerio", "dooms": ["stumble"],
                                        "dooms_hidden": ["lost_notes", "debts"]}, {"scholar": "sofia"}]},
                "expect": [{"scholar": 0, "dooms": 1, "dooms_hidden": 2},
                           {"scholar": 0, "dooms": ["stumble"], "dooms_hidden": ["debts", "lost_notes"]}]}
    assert run_scenario(data, scenario) == []
    scenario["expect"] = [{"scholar": 0, "dooms": ["debts"]}]
    assert "expected ['debts'], got ['stumble']" in run_scenario(data, scenario)[0]


@pytest.mark.parametrize("at, hand, says", [
    (None, ["bully"], "no scheme card is played in the start region"),   # L733
    ("shepherds_shelter", ["shortcut"], "not in seat 0's hand"),
])
def test_a_card_the_scenario_cannot_play_says_why(data, at, hand, says):
    """A newcomer's scholar left in the start region got only 'bully cannot be played'."""
    sofia = {"scholar": "sofia", "hand": hand, **({"at": at} if at else {})}
    scenario = {"setup": {"regions": [{"region": "shepherds_shelter", "at": [1, 0]}],
                          "scholars": [sofia, {"scholar": "valerio"}]},
                "steps": [{"do": "play", "seat": 0, "card": "bully"}]}
    failures = run_scenario(data, scenario)
    assert failures and says in failures[0], failures


def test_a_misspelt_card_id_names_its_entry_and_the_closest_id(data):
    """A newcomer's misspelt card got "scenario error: KeyError: 'bullly'" in a step, and
    in the set-up a failure at `setup:` rather than at the hand that holds it."""
    regions = [{"region": "shepherds_shelter", "at": [1, 0]}]
    in_hand = {"setup": {"regions": regions,
                         "scholars": [{"scholar": "sofia", "at": "shepherds_shelter", "hand": ["bullly"]},
                                      {"scholar": "valerio"}]}}
    assert run_scenario(data, in_hand) == [
        "setup: setup.scholars[0].hand[0]: no 'bullly' in the content; did you mean `bully` (scheme_card)?"]
    played = {"setup": {"regions": regions,
                        "scholars": [{"scholar": "sofia", "at": "shepherds_shelter", "hand": ["bully"]},
                                     {"scholar": "valerio"}]},
              "steps": [{"do": "play", "seat": 0, "card": "bullly"}]}
    assert run_scenario(data, played) == [
        "steps[0]: no 'bullly' in the content; did you mean `bully` (scheme_card)?"]


def test_an_id_only_a_pack_has_says_to_load_the_pack(data):
    """A newcomer's scenario of a pack's card without `packs:` got "no 'lantern_of_study' in
    the content" and nothing more."""
    scenario = {"setup": {"scholars": [{"scholar": "sofia", "hand": ["lantern_of_study"]},
                                       {"scholar": "valerio"}]}}
    assert run_scenario(data, scenario) == [
        "setup: setup.scholars[0].hand[0]: no 'lantern_of_study' in the content; an id of a "
        "pack? load the pack: `packs: [../my_pack]` in the file, or --pack"]


def test_the_formats_stealth_card_answers_play_as_written(data):
    """`scenario format dungeontology` did not say what a research step asks: a newcomer's
    research with no `choose:` played a card they did not pick (stealth -1, not 2)."""
    import re

    from ruamel.yaml import YAML

    from tomecraft.runtime.engines.dungeontology import scenario as runner
    line = re.search(r"choose: (\[\{card: .*\])\n", runner.__doc__).group(1)
    answers = YAML(typ="safe").load(line)
    scenario = {"setup": {"alert_filled": 1,
                          "regions": [{"region": "shepherds_shelter", "at": [1, 0], "slots": ["civilization"]}],
                          "scholars": [{"scholar": "sofia", "at": "shepherds_shelter",
                                        "hand": ["bully", "shortcut", "fate_star"]}, {"scholar": "valerio"}]},
                "steps": [{"do": "research", "seat": 0, "blocks": 1, "choose": answers}],
                "expect": [{"attempt": {"cards": ["shortcut", "bully"]}}, {"scholar": 0, "hand": ["fate_star"]}]}
    assert run_scenario(data, scenario) == []


def test_a_step_refused_mid_way_leaves_the_game_untouched(data):
    """Exploring East draws hunters_camp (its stairs ask for a level); the refused answer 3
    (level III is not adjacent to I, L769) must drop the whole step: the tile stays in its stack
    and the scholar keeps her steps, so the same exploration then plays with level II."""
    setup = {"stacks": {1: ["hunters_camp"], 2: ["slums"], 3: ["priests_cave"]},
             "scholars": [{"scholar": "sofia", "students": 2, "steps": 3}, {"scholar": "valerio"}]}
    explore = {"do": "explore", "seat": 0, "side": "E"}
    scenario = {"setup": setup,
                "steps": [{**explore, "choose": [3], "fails": True}, {**explore, "choose": [2]}],
                "expect": [{"region": "slums", "absent": False}, {"scholar": 0, "steps": 2},
                           {"scholar": 0, "region": "hunters_camp"}]}
    assert run_scenario(data, scenario) == []


@pytest.mark.parametrize("setup, says", [
    ({"options": {"alert_card": "alert_calm"}}, "unknown key(s) ['alert_card']"),
    ({"clan": "clan_mystics"}, "setup (setup_game: true): unknown key(s) ['clan']"),
    ({"options": {"boss_side": "sober"}}, "the bosses' sides are aggressive, drunk"),
])
def test_a_real_setup_refuses_what_it_would_ignore(data, setup, says):
    """`setup_game: true` deals from players, seed and options (alert, boss, boss_side) only: an
    option it does not read, or a hand-built key beside it, played the default game unseen."""
    scenario = {"setup": {"setup_game": True, "players": 3, **setup}}
    failures = run_scenario(data, scenario)
    assert failures and says in failures[0], failures


def test_a_real_setup_uses_its_alert_option(data):
    scenario = {"setup": {"setup_game": True, "players": 3, "options": {"alert": "alert_calm"}},
                "expect": [{"campus": {"alert_card": "alert_calm", "bag": {"normal": 15, "omega": 1}}}]}
    assert run_scenario(data, scenario) == []


def test_a_yes_answer_does_not_pick_a_choose_branch(data):
    """Iron Head asks no yes/no question (its stun cannot be avoided, L307): a scripted `true`
    is not an answer to its `choose` (True == 1 in Python picked branch 1, stealing a card)."""
    scenario = {"setup": {"randomizer": ["randomizer_01"],
                          "regions": [{"region": "hunters_camp", "at": [1, 0], "entered": True}],
                          "scholars": [{"scholar": "valerio", "at": "hunters_camp", "stun": 3},
                                       {"scholar": "sofia", "at": "hunters_camp", "hand": ["bully"],
                                        "notebook": {"civilization": 1}}]},
                "steps": [{"do": "skill", "seat": 0, "id": "iron_head", "choose": [True, {"seat": 1}, 0]}]}
    failures = run_scenario(data, scenario)
    assert failures and "not legal" in failures[0], failures


def test_every_step_the_format_lists_is_a_step_the_runner_plays():
    """The format listed `aux` and `setup` among the steps; the runner knew neither (`unknown
    step 'aux'`), so a grader's step written from the format failed. Each listed name must be
    a step the runner reads, and each step it reads must be listed."""
    import re

    from tomecraft.runtime.engines.dungeontology import scenario as runner
    from tomecraft.runtime.engines.dungeontology.scenario_checks import STEP_KEYS
    listed = re.search(r"\{do: ([a-z_|\s]+),", runner.__doc__).group(1)
    names = {n.strip() for n in listed.split("|")}
    assert names == set(STEP_KEYS), (names - set(STEP_KEYS), set(STEP_KEYS) - names)
