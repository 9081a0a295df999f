"""The simulated players use any content: a YAML-only pack with one new item of every kind the
game has (event and Swarm cards, a Rock and Stone card, a throwable, a pickup, a Supply Pod
card, a mission, a dwarf class with its ability and primary, a secondary weapon, a weapon
upgrade, a die, a creature and its board token, a mineral its mission lays out) has each one
with an effect used in a seeded sim; the pack's mission is played with `mission_id` like the
base game's, and drawn among the content's missions when none is asked for. The team and the
weapons come from the content, and no player code names a class, weapon or ability
(runtime/engines/deep_rock_galactic/policy.py weighs abilities by trying them)."""
from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from tomecraft.generated.deep_rock_galactic import GAME
from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage

PACK = Path(__file__).with_name("any_content_pack")
MISSION = {"mission_id": "glow_caves"}      # the pack's mission: it lays out the pack's pickup


def _data(monkeypatch):
    return compiled_with("deep_rock_galactic", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    every = pack_usage(data, "any_content", tracked_only=False, games=20, seed=1, options=MISSION)
    new = {key: e for key, e in every.items() if e["tracked"]}
    kinds = {key.split(":")[0] for key in new}
    assert {"event_card", "rock_and_stone_card", "throwable", "pickup", "mission", "dwarf", "weapon",
            "weapon_upgrade", "monster"} <= kinds, kinds
    assert {"weapon:plasma_carbine", "weapon:nail_gun", "dwarf:sapper"} <= set(new), new
    assert all(e["uses"] > 0 for e in new.values()), new
    # the kinds with no effect of their own are used through the items that name them: the
    # pack's die is what its used weapons roll, its board token what its used creature leaves
    assert {"die:plasma", "board_token:acid_puddle", "supply_card:supply_pack"} <= set(every)
    rolled = {m.die for key in new if key.startswith("weapon:") for m in data.get("weapon", key[7:]).modes}
    left = {data.get("monster", key[8:]).attack_places for key in new if key.startswith("monster:")}
    assert data.get("die", "plasma").die in rolled and data.get("board_token", "acid_puddle").token in left


def test_the_team_and_weapons_come_from_the_content(monkeypatch):
    """No class list: with the pack's fifth class, a seeded draw seats 4 of the 5 (the Sapper
    in some games, not all); the base game seats its 4. Each dwarf carries its class's default
    primary and a secondary open to it, one whose die differs from the primary's (L238-241)."""
    from tomecraft.runtime.engines.deep_rock_galactic import setup
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    data = _data(monkeypatch)
    teams, secondaries = [], set()
    for game in range(12):
        engine = setup(data, 4, Rng(f"team:{game}").fork("g"), [FirstOption()] * 4, {})
        teams.append(sorted(d.cls for d in engine.state.dwarves))
        for d in engine.state.dwarves:
            primary = data.get("weapon", d.primary)
            second = data.get("weapon", d.secondary)
            assert primary.dwarf == d.cls and primary.default and second.slot == "secondary"
            assert second.dwarf in (None, d.cls)
            assert not {m.die for m in primary.modes} & {m.die for m in second.modes}
            secondaries.add(d.secondary)
    assert all(len(set(t)) == 4 for t in teams)
    assert 0 < sum("sapper" in t for t in teams) < len(teams), teams
    assert "nail_gun" in secondaries and len(secondaries) > 3, secondaries
    base = setup(GAME, 4, Rng("team").fork("g"), [FirstOption()] * 4, {})
    assert sorted(d.cls for d in base.state.dwarves) == sorted(GAME.kinds["dwarf"])


def test_the_player_names_no_class_weapon_or_ability_of_the_content():
    """The player offers what the engine offers and weighs it, never by a list of known
    names: no id of the base game's classes, weapons, abilities or board tokens appears as a
    string in its code."""
    import ast

    from tomecraft.runtime.engines.deep_rock_galactic import policy, trials
    names = set(GAME.kinds["dwarf"]) | set(GAME.kinds["weapon"]) | set(GAME.kinds["board_token"])
    names |= {a.id for d in GAME.kinds["dwarf"].values() for a in d.abilities}
    names |= {t.token for t in GAME.kinds["board_token"].values()}
    strings = set()
    for module in (policy, trials):           # the options, and their trials on copies
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        strings |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                    and isinstance(n.value, str)}
    assert {"engineer", "minigun", "shield_generator", "shield"} <= names
    assert strings & names == set()


def test_the_packs_cards_are_used_on_the_base_mission_too(monkeypatch):
    data = _data(monkeypatch)
    cards = {"event_card:slashers_exit", "event_card:swarm_exploders_too",
             "rock_and_stone_card:rs_pale_ale", "throwable:shock_mine"}
    new = pack_usage(data, "any_content", wanted=cards, games=20, seed=1, options={"mission_id": "m01"})
    used = {key for key, e in new.items() if e["uses"] > 0}
    assert cards <= used, new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=5, seed=2, options=MISSION) == sim.run(data, games=5, seed=2, options=MISSION)


def _next_to_a_dwarf(engine, kind: str):
    """Lay a face-up `kind` pickup on an open space next to dwarf 0; (dwarf, space)."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN
    st = engine.state
    d = st.dwarves[0]
    at = next(n for n in hx.sorted_neighbours(d.pos) if st.terrain(n) in OPEN
              and not st.monster_at(n) and not st.dwarf_at(n) and n not in st.pod)
    st.pickups[at] = [kind, True]
    return d, at


@pytest.mark.parametrize("kind, hurt, strike", [
    ("glow_nut", False, True),        # the pack's: gold, worth a swing
    ("alien_egg", False, False),      # Grunts at the exits (or nothing): never worth it
    ("blood_sugar", True, True),      # heals a hurt dwarf
    ("blood_sugar", False, False),    # a dwarf at full health gains nothing
])
def test_the_player_strikes_a_pickup_by_what_its_effect_does_not_its_name(monkeypatch, kind, hurt, strike):
    from tomecraft.runtime.engines.deep_rock_galactic import policy, setup
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    data = _data(monkeypatch)
    engine = setup(data, 4, Rng("strike").fork("g"), [FirstOption()] * 4, {})
    d, at = _next_to_a_dwarf(engine, kind)
    if hurt:
        d.health = 2
        d.pos = at          # Blood Sugar heals a striker standing on its space (L1399)
    rolls = copy.deepcopy(engine.rng)
    assert policy._worth_striking(engine, d, at) is strike
    # tried on a copy: the real game keeps its pickup and its dice stream
    assert engine.state.pickups[at] == [kind, True] and engine.rng.random() == rolls.random()


def test_a_trial_copy_changes_nothing_of_the_real_game(monkeypatch):
    """The players' trial copies (State.__deepcopy__ copies flat fields flat): mining, tokens,
    dwarves, monsters and supplies changed on the copy leave the game as it was."""
    from tomecraft.runtime.engines.deep_rock_galactic import setup
    from tomecraft.runtime.lookahead import FirstOption, copy_game
    from tomecraft.runtime.rng import Rng
    engine = setup(_data(monkeypatch), 4, Rng("copy").fork("g"), [FirstOption()] * 4, {})
    st = engine.state
    engine.spawn("grunt", st.exits[1])
    before = copy.deepcopy(st)
    trial = copy_game(engine, shared=(engine.rules,))
    t = trial.state
    assert t.dwarves[0] is not st.dwarves[0] and t.cells == st.cells and t.cells is not st.cells
    wall = next(h for h, c in t.cells.items() if c == "#")
    t.cells[wall] = "."
    t.tokens.setdefault("flame", {})[wall] = 0
    t.dwarves[0].health = 1
    t.dwarves[0].rock_and_stone.append("rs_pale_ale")
    next(iter(t.monsters.values())).damage += 1
    t.shared["gold"] += 3
    t.event_deck.clear()
    t.stalagmites.add(wall)
    assert st == before


def test_a_trial_copy_sees_the_piles_on_the_ground_as_they_are(monkeypatch):
    """A pile on the ground is a Counter: the copy holds the same pile (built from its pairs,
    a Counter would count the pairs: `{'nitra': 2}` became `{('nitra', 2): 1}`), and taking
    from the copy's pile leaves the game's as it was."""
    from tomecraft.runtime.engines.deep_rock_galactic import setup
    from tomecraft.runtime.lookahead import FirstOption, copy_game
    from tomecraft.runtime.rng import Rng
    engine = setup(_data(monkeypatch), 4, Rng("pile").fork("g"), [FirstOption()] * 4, {})
    at = engine.state.dwarves[0].pos
    engine.state.ground[at] = Counter({"nitra": 2, "health": 1})
    trial = copy_game(engine, shared=(engine.rules,))
    assert trial.state.ground == {at: Counter({"nitra": 2, "health": 1})}
    trial.state.ground[at]["nitra"] -= 2
    assert engine.state.ground[at] == Counter({"nitra": 2, "health": 1})


def test_a_walks_stepper_answers_as_dwarf_step_for_every_space():
    """Board.dwarf_stepper (the board read once per walk) says what dwarf_step says of every
    space, for every class: pits with and without a platform, walls, zipline ends, the pod,
    stalagmites, monsters (a tail too), flames and open ground."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx, setup
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    engine = setup(GAME, 4, Rng("stepper").fork("g"), [FirstOption()] * 4, {})
    st = engine.state
    spaces = sorted({n for h in st.cells for n in (h, *hx.neighbours(h))})
    by_kind = {c: [h for h in spaces if st.cells.get(h) == c] for c in ("o", "#", ".")}
    st.tokens.setdefault("platform", {})[by_kind["o"][0]] = 0
    st.tokens.setdefault("zipline_end", {})[by_kind["#"][0]] = 0
    ground = [h for h in by_kind["."] if h not in st.pod and st.dwarf_at(h) is None]
    st.stalagmites.add(ground[0])
    st.tokens.setdefault("flame", {})[ground[1]] = 0
    m = engine.spawn("grunt", ground[2])[0]
    m.tail = ground[3]
    assert {d.cls for d in st.dwarves} >= {"scout", "driller", "engineer"}
    for d in st.dwarves:
        step = engine.dwarf_stepper(d)
        assert [step(b) for b in spaces] == [engine.dwarf_step(d, None, b) for b in spaces], d.cls


def test_an_abilitys_gain_is_measured_against_the_monsters_acting_in_the_same_game():
    """An ability's gain is its trial's score once the monsters have acted, less the score of
    the monsters acting with no ability used. The second is shared by the abilities weighed in
    one situation, but only within one decision: a later decision in the same round and
    situation (here after the Gunner's grunt took a wound, which the situation does not hold)
    weighs a second ability against the game as it is then, as a fresh player would. Kept for
    the round, the shield was worth 3 more: the wound counted as its gain."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    from tomecraft.runtime.engines.deep_rock_galactic import setup, trials
    from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN
    from tomecraft.runtime.lookahead import FirstOption, copy_game
    from tomecraft.runtime.rng import Rng
    engine = setup(GAME, 4, Rng("idle").fork("g"), [FirstOption()] * 4, {})
    st = engine.state
    gunner = next(d for d in st.dwarves if "shield" in d.tokens)
    gunner.actions = 3
    beside = [n for n in hx.sorted_neighbours(gunner.pos) if st.terrain(n) in OPEN
              and not st.monster_at(n) and not st.dwarf_at(n) and n not in st.pod]
    for at in beside[:trials.STRIKES_WORTH_A_TRIAL]:     # enough dice coming to try the monsters' activation
        engine.spawn("grunt", at)
    assert trials._threats(engine, gunner)
    shield = {"do": "shield", "at": gunner.pos}
    assert trials.ability_gain(engine, gunner, shield, trials.Baseline(engine)) is not None
    next(iter(st.monsters.values())).damage += 1
    # another ability's action in the same situation (the memo keys an action by its items)
    other = {**shield, "second": True}
    fresh = copy_game(engine, shared=(engine.rules,))
    fresh.__dict__.pop("_ability_trials", None)
    you = fresh.state.dwarves[st.dwarves.index(gunner)]
    expected = trials.ability_gain(fresh, you, other, trials.Baseline(fresh))
    assert expected is not None
    assert trials.ability_gain(engine, gunner, other, trials.Baseline(engine)) == expected


def test_an_agent_picking_among_the_suggestion_is_offered_the_same_best_options(monkeypatch):
    """policy.choose leaves out what a suggestion-following agent (the sim's RandomAgent) could
    never pick: the walk, shots and strikes when an option ranked better is there. That is
    only the same game while the best-ranked options stay the same: checked at every action
    decision of two seeded 4-player games. An agent that may pick anything is offered all."""
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.engines.deep_rock_galactic import game as drg, policy
    from tomecraft.runtime.rng import Rng
    original, checked, asked = policy.options, 0, []

    def best(ranked):
        return [o for r, o in ranked if r == min(r for r, _ in ranked)] if ranked else []

    def compared(engine, d, webbed, every=True):
        nonlocal checked
        asked.append(every)
        lean = original(engine, d, webbed, every=False)
        assert best(lean) == best(original(engine, d, webbed, every=True))
        checked += 1
        return lean
    monkeypatch.setattr(policy, "options", compared)
    for seed in ("a", "b"):
        rng = Rng(seed)
        drg.play_game(GAME, 4, rng.fork("game"), [RandomAgent(rng.fork(f"p{i}")) for i in range(4)])
    assert checked > 100 and not any(asked)

    class Anything:                     # picks the first option offered, suggestion or not
        def choose(self, key, options, view=None):
            return options[0]
    asked.clear()
    rng = Rng("c")
    drg.play_game(GAME, 1, rng.fork("game"), [Anything()])
    assert asked and all(asked)


def test_throwables_with_no_area_are_thrown(monkeypatch):
    """A throwable with no area, one monster's (a pack's spear) or left where monsters walk (a
    pack's mine, with an `on monster_moved` trigger), is weighed by trying it on a copy of the
    game and thrown when it pays, like the area ones: the dwarves threw only area throwables,
    so four of the base game's nine (Impact Axe, Sticky, LURE, Proximity) and every such pack
    card were never used."""
    data = compiled_with("deep_rock_galactic", PACK.with_name("mine_pack"), monkeypatch)
    used = pack_usage(data, "mine_pack", games=40, seed=3, players=4)
    assert set(used) == {"throwable:spore_mine", "throwable:bone_spear"}, used
    assert all(e["uses"] > 0 for e in used.values()), used


def test_a_trial_whose_immediate_gain_is_strong_skips_the_monsters_activation(monkeypatch):
    """An ability or throw whose trial is already worth a strong option at once (an Impact
    Axe wounding a Mactera Spawn beside the team) is weighed by that, without the monsters' activation
    on two copies (the player's main cost): the estimate decides."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    from tomecraft.runtime.engines.deep_rock_galactic import setup, trials
    from tomecraft.runtime.engines.deep_rock_galactic.actions import perform
    from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    engine = setup(GAME, 4, Rng("axe").fork("g"), [FirstOption()] * 4, {})
    st = engine.state
    d = st.dwarves[0]
    d.actions, d.throwables = 3, ["impact_axe"]
    beside = [n for n in hx.sorted_neighbours(d.pos) if st.terrain(n) in OPEN
              and not st.monster_at(n) and not st.dwarf_at(n) and n not in st.pod]
    target = engine.spawn("mactera_spawn", beside[0])[0]
    engine.spawn("grunt", beside[1])
    assert trials._threats(engine, d)
    act = {"do": "throw", "card": "impact_axe", "at": target.pos}
    now = trials.Baseline(engine)
    copy, you = trials._trial(engine, d)
    perform(copy, you, act)
    at_once = trials.evaluate(copy) - now.score
    assert at_once >= trials.STRONG and trials._what_monsters_meet(copy) != now.met
    acted = []
    monkeypatch.setattr(trials, "_monsters_act", lambda trial, only: acted.append(only))
    assert trials.ability_gain(engine, d, act, now) == at_once and not acted


def test_a_delayed_throwable_is_tried_when_a_monster_may_come_at_one_space(monkeypatch):
    """A throwable left where monsters walk (LURE, Proximity, a pack's mine) is tried on a copy
    only when a monster may strike the dwarf next (else it waits: its trial weighed the card
    alone), and at one space per decision: checked at every trial of two seeded games."""
    from tomecraft.runtime.agents import RandomAgent
    from tomecraft.runtime.engines.deep_rock_galactic import game as drg, policy, trials
    from tomecraft.runtime.rng import Rng
    gain, throws, tried, decisions = policy.ability_gain, policy._single_throws, [], []

    def checked(engine, d, act, now):
        if act["do"] == "throw" and engine.data.get("throwable", act["card"]).delayed:
            assert trials.threatened(engine, d)
            tried.append((len(decisions), act["card"]))
        return gain(engine, d, act, now)

    def counted(engine, d, now):
        decisions.append(d.seat)
        return throws(engine, d, now)
    monkeypatch.setattr(policy, "ability_gain", checked)
    monkeypatch.setattr(policy, "_single_throws", counted)
    for seed in ("a", "b"):
        rng = Rng(seed)
        drg.play_game(GAME, 4, rng.fork("game"), [RandomAgent(rng.fork(f"p{i}")) for i in range(4)])
    assert tried and max(Counter(tried).values()) == 1
