"""`tomecraft sim deep_rock_galactic`: 1-4 dwarves (BOSCO solo), Mission 1 by default or a
mission file, every game played to success or failure, the same seed replays exactly."""
from __future__ import annotations

from pathlib import Path

import pytest

from tomecraft.generated.deep_rock_galactic import GAME
from tomecraft.runtime import sim
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import play_game, setup
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
FAN = ROOT / "tests/deep_rock_galactic/missions/valid"


def _game(players: int, g: int, options=None) -> dict:
    """Game g of the tests' seeded run: seeded by g alone, the same whatever else is played."""
    rng = Rng(f"t:{g}")
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
    return play_game(GAME, players, rng.fork("game"), agents, dict(options or {}))


def _games(players: int, n: int, options=None) -> list[dict]:
    return [_game(players, g, options) for g in range(n)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_game_ends_in_success_or_failure(players):
    results = _games(players, 8)
    assert all(r["result"] in ("success", "failure") and not r["capped"] for r in results)
    assert all(len(r["scores"]) == players for r in results)


def test_the_same_seed_gives_an_identical_summary_and_another_seed_differs():
    # 4 games, not 12: a game left different by a game before it (state carried over in the
    # process) shows from the second game on, and the summaries differ from the first game
    a = sim.run(GAME, players=4, games=4, seed=7)
    b = sim.run(GAME, players=4, games=4, seed=7)
    c = sim.run(GAME, players=4, games=4, seed=8)
    assert a == b and sim.format_summary(a) == sim.format_summary(b)
    assert a != c


def test_some_missions_succeed_and_some_fail():
    """About 3 games in 10 succeed: 30 games all failing (or all succeeding) by chance has a
    probability under 1 in 10,000, so a run of them says the outcome is stuck. Played game by
    game and stopped once both were seen: the 30 games' count of successes is then strictly
    between 0 and 30 whatever the later games."""
    seen: set[bool] = set()
    for g in range(30):
        seen.add(bool(_game(4, g)["success"]))
        if seen == {True, False}:
            break
    assert seen == {True, False}, f"{g + 1} games, only {seen}"


def test_mission_one_setup_follows_the_mission_book():
    rng = Rng("s")
    engine = setup(GAME, 4, rng, [RandomAgent(rng.fork("a"))] * 4, {})
    st = engine.state
    assert sorted(st.minerals.values()).count("morkite") == 5
    assert sorted(st.minerals.values()).count("gold") == 2 and sorted(st.minerals.values()).count("nitra") == 2
    on_map = [k for k, _ in st.pickups.values()] + [p for seg in st.hidden for p in seg["pickups"]]
    assert sorted(on_map) == ["apoca_bloom"] * 3 + ["loot_bug"] * 2
    ids = {c.id for c in st.event_deck}
    assert "p_p_p_praetorian" not in ids and "oh_oh_oppressor" not in ids
    assert all(d.pos in st.pod for d in st.dwarves) and [d.health for d in st.dwarves] == [5] * 4
    assert [d.ammo for d in st.dwarves] == [5] * 4 and [d.secondary_ammo for d in st.dwarves] == [3] * 4


def test_hazard_four_puts_a_grunt_on_every_tunnel_exit():
    rng = Rng("h")
    engine = setup(GAME, 2, rng, [RandomAgent(rng.fork("a"))] * 2, {"hazard": 4})
    grunts = sorted(m.pos for m in engine.state.monsters.values() if m.kind == "grunt")
    assert grunts == sorted(engine.active_exits()) and len(grunts) == 2


def test_solo_play_brings_bosco_next_to_the_drop_pod():
    rng = Rng("b")
    engine = setup(GAME, 1, rng, [RandomAgent(rng.fork("a"))], {})
    st = engine.state
    assert st.bosco_alive and any(st.bosco in __import__("tomecraft.runtime.engines.deep_rock_galactic.hexgrid", fromlist=["x"]).neighbours(p) for p in st.pod)


def _mission(path: Path):
    from tomecraft.compiler import diagnostics as dg, missions
    reporter = dg.Reporter()
    return missions.load_mission(path, reporter), reporter


@pytest.mark.parametrize("name", ["aquarq_run", "fossil_field", "praetorian_hunt"])
def test_a_fan_mission_file_plays_to_its_end(name):
    mission, reporter = _mission(FAN / f"{name}.yaml")
    assert mission is not None, reporter.diagnostics
    results = _games(4, 4, {"mission": mission})
    assert all(r["result"] in ("success", "failure") for r in results)


def test_the_cli_plays_a_mission_file_and_prints_the_summary(run_cli):
    code, out, err = run_cli("sim", "deep_rock_galactic", "--mission", FAN / "aquarq_run.yaml",
                             "--players", "4", "--games", "5", "--seed", "7")
    assert code == 0, err
    assert "deep_rock_galactic: 5 games, 4 players, seed 7" in out and "games/s" in err


def test_a_broken_mission_file_is_refused_with_its_diagnostics(run_cli):
    broken = ROOT / "tests/deep_rock_galactic/missions/broken/b01_one_tunnel_exit.yaml"
    mission, reporter = _mission(broken)
    assert mission is None and any("V-12" in d.message for d in reporter.diagnostics)
    code, out, _ = run_cli("sim", "deep_rock_galactic", "--mission", broken, "--games", "1")
    assert code == 1 and "V-12" in out


def test_the_engine_takes_missions_as_data_never_as_paths():
    with pytest.raises(ValueError, match="load_mission"):
        _games(2, 1, {"mission": "some/file.yaml"})


# --- Deep Dive (rulebook p.33, L1453-1473) ------------------------------------------------------

def test_deep_dive_carries_resources_and_replenishes_class_tokens():
    from tomecraft.runtime.engines.deep_rock_galactic.deep_dive import carry_over
    rng = Rng("dd")
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
    first = setup(GAME, 4, rng.fork("m1"), agents, {})
    seats = {d.cls: d for d in first.state.dwarves}          # the base game: all 4 classes play
    engineer, gunner = seats["engineer"], seats["gunner"]
    gunner.health, gunner.ammo, gunner.overclocked = 2, 1, True
    gunner.rock_and_stone = ["rs_medkit", "rs_ammo", "rs_quick_shot"]
    gunner.throwables, gunner.tokens["zipline"] = ["satchel_charge", "lure_grenade"], 0
    engineer.statuses.add("unconscious")
    engineer.health, engineer.tokens["platform"] = 0, 1
    second = setup(GAME, 4, rng.fork("m2"), agents, {})
    carry_over(first, second)
    e, g = second.state.dwarves[engineer.seat], second.state.dwarves[gunner.seat]
    assert (e.cls, g.cls) == ("engineer", "gunner")
    assert (g.health, g.ammo, g.overclocked) == (2, 1, True)
    assert g.rock_and_stone == ["rs_medkit", "rs_ammo", "rs_quick_shot"]
    cards = [c for d in second.state.dwarves for c in d.rock_and_stone] + second.state.rs_deck
    assert sorted(cards) == sorted(c.id for c in GAME.of("rock_and_stone_card") for _ in range(c.count))
    assert g.throwables == ["satchel_charge", "lure_grenade"]
    assert g.tokens["zipline"] == 3 and e.tokens["platform"] == 6     # the class's own tokens
    assert e.health == 1 and e.conscious                              # unconscious at a success


def test_deep_dive_takes_the_next_missions_pre_placed_tokens_from_the_replenished_set():
    """A later mission's `tokens` come out of the box as in a single mission: the class's
    replenished set is its full set less the pre-placed ones (the sentry gun not twice)."""
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.compiler.missions import load_mission
    from tomecraft.runtime.engines.deep_rock_galactic.deep_dive import carry_over
    seam = load_mission(FAN / "morkite_seam.yaml", dg.Reporter())      # tokens: {platform: 2}
    rng = Rng("dd-tokens")
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
    first = setup(GAME, 4, rng.fork("m1"), agents, {})
    second = setup(GAME, 4, rng.fork("m2"), agents, {"mission": seam})
    carry_over(first, second)
    engineer = next(d for d in second.state.dwarves if d.cls == "engineer")
    assert len(second.state.tokens["platform"]) == 2 and engineer.tokens["platform"] == 6 - 2


def test_deep_dive_plays_missions_in_order_until_the_first_failure():
    aquarq = FAN / "aquarq_run.yaml"
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.compiler.missions import load_mission
    mission = load_mission(aquarq, dg.Reporter())
    done = []
    for g in range(30):
        r = _game(4, g, {"deep_dive": [mission, mission]})
        done.append(r["stats"]["missions_completed"])
        assert done[-1] in {0, 1, 2}
        assert r["success"] == (done[-1] == 2)
        assert r["end"] == ("deep dive complete" if r["success"] else f"failed mission {done[-1] + 1}")
        # Stopped once a dive failed its first mission and one its second (3 games today):
        # each way a dive ends the 30 games show is then checked (none of them completes
        # the dive; a completed one is checked when it comes first).
        if {0, 1} <= set(done):
            break
    assert max(done) >= 1, done


def test_sim_cli_deep_dive_takes_several_mission_files(run_cli):
    missions = ["--mission", FAN / "aquarq_run.yaml", "--mission", FAN / "praetorian_hunt.yaml"]
    code, out, err = run_cli("sim", "deep_rock_galactic", "--players", "4", "--games", "3", "--seed", "7",
                             "--deep-dive", *missions)
    assert code == 0, err
    assert "missions completed:" in out
    code, _, err = run_cli("sim", "deep_rock_galactic", *missions)
    assert code == 2 and "--deep-dive" in err


def test_an_oppressor_in_play_stands_on_two_spaces_and_faces_the_dwarves():
    """In a full game (not only in scenarios) a size-2 monster keeps a second space next to its
    first one, blocking it, and faces the nearest dwarf when placed (rules rear_arc, two_space_body)."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    rng = Rng("opp")
    engine = setup(GAME, 4, rng.fork("g"), [RandomAgent(rng.fork(f"a{i}")) for i in range(4)], {})
    st = engine.state
    m = engine.spawn("oppressor", st.exits[1])[0]
    assert m.tail in hx.neighbours(m.pos) and st.monster_at(m.tail) is m
    nearest = min(hx.distance(m.pos, d.pos) for d in st.dwarves)
    assert hx.distance(m.facing, min((d.pos for d in st.dwarves), key=lambda p: hx.distance(m.pos, p))) < nearest
    for _ in range(3):
        engine.move_monster(m)
        assert m.tail in hx.neighbours(m.pos) and st.monster_at(m.tail) is m


def test_sim_refuses_mission_options_for_games_without_missions(run_cli):
    code, _, err = run_cli("sim", "the_cave", "--deep-dive")
    assert code == 2 and "--deep-dive is not an option of the_cave" in err


def test_the_fast_monster_searches_find_what_the_general_ones_find():
    """A monster's step depends only on the space entered and on crossing no fence (a
    shield's area, an IFG): the set-based searches (hexgrid.bfs_entering / bfs_leaving) give
    the same distances, in the same order, as the general search with the step function, on
    boards from a played game."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    from tomecraft.runtime.engines.deep_rock_galactic.turns import take_turn
    rng = Rng("fast-bfs")
    engine = setup(GAME, 4, rng.fork("g"), [RandomAgent(rng.fork(f"a{i}")) for i in range(4)], {})
    st, checked = engine.state, 0
    for _ in range(4):
        st.round += 1
        for d in st.dwarves:
            take_turn(engine, d)
        for m in list(st.monsters.values()):
            step = engine.monster_stepper(m)
            assert step.enterable == {b for b in st.cells if step(b, b)}
            assert engine.monster_stops(m, st.cells) == {h for h in st.cells if engine.monster_can_stop(m, h)}
            fast = hx.bfs_entering([m.pos], step.enterable, step.fences)
            assert list(fast.items()) == list(hx.bfs_from([m.pos], step).items())
            goals = sorted(fast)[:3]
            assert list(hx.bfs_leaving(goals, step.enterable, step.fences).items()) == \
                list(hx.bfs_from(goals, lambda a, b: step(b, a)).items())
            for goal in sorted(fast)[-3:]:
                assert hx.path_entering(m.pos, {goal}, step.enterable, step.fences) == hx.path_to(m.pos, {goal}, step)
            checked += 1
        if st.result:
            break
    assert checked > 0


def test_the_fenced_searches_find_what_the_general_ones_find():
    """Random boards and fences (a shield's area, an IFG), with spaces that ignore them (the
    spawn's other monsters, the dwarves a walking distance starts from): the set-based
    searches give the general search's distances in its order."""
    import random
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    rnd = random.Random(5)
    hexes = [(r, c) for r in range(8) for c in range(8)]
    for _ in range(500):
        enterable = {h for h in hexes if rnd.random() < 0.7}
        fences = tuple(f for f in ({h for h in hexes if rnd.random() < 0.3} for _ in range(rnd.randint(0, 2))) if f)
        side = lambda h: tuple(h in f for f in fences)                                  # noqa: E731
        step = lambda a, b: b in enterable and side(a) == side(b)                      # noqa: E731
        starts, free = rnd.sample(hexes, rnd.randint(1, 4)), set(rnd.sample(hexes, rnd.randint(0, 5)))
        for fast, general in [
                (hx.bfs_entering(starts, enterable, fences), hx.bfs_from(starts, step)),
                (hx.bfs_leaving(starts, enterable, fences), hx.bfs_from(starts, lambda a, b: step(b, a))),
                (hx.bfs_entering(starts, enterable | free, fences, unfenced=free),
                 hx.bfs_from(starts, lambda a, b: b in free or step(a, b))),
                (hx.bfs_leaving(starts, enterable | free, fences, unfenced=free),
                 hx.bfs_from(starts, lambda a, b: a in free or step(b, a)))]:
            assert list(fast.items()) == list(general.items())
        goals = set(rnd.sample(hexes, rnd.randint(1, 3)))
        assert hx.path_entering(starts[0], goals, enterable, fences) == hx.path_to(starts[0], goals, step)
        # a search told which hexes it wants may stop once it has them: theirs are the full
        # search's distances
        wanted = set(rnd.sample(hexes, rnd.randint(0, 6)))
        full = hx.bfs_leaving(starts, enterable, fences)
        part = hx.bfs_leaving(starts, enterable, fences, wanted=wanted)
        assert all(part.get(h) == full.get(h) for h in wanted) and part.items() <= full.items()
        # a search told to stop at the nearest of some hexes finds every hex as near as it
        full = hx.bfs_entering(starts, enterable)
        part = hx.bfs_entering(starts, enterable, until=wanted)
        nearest = min((full[h] for h in wanted if h in full), default=None)
        assert part.items() <= full.items()
        assert {h for h, n in full.items() if nearest is None or n <= nearest} <= part.keys()


def test_hex_distance_is_the_cube_distance():
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
    spots = [(r, c) for r in range(-2, 14) for c in range(-2, 16)]
    for a in spots[::7]:
        for b in spots:
            cube = max(abs(x - y) for x, y in zip(hx.to_cube(a), hx.to_cube(b)))
            assert hx.distance(a, b) == int(cube)


@pytest.mark.parametrize("radius", [0, 1, 3, 7, 10**9])
def test_the_spaces_within_a_monsters_range_are_found_for_any_range(radius):
    """A pack's creature may have any attack range: the spaces within it are the same as by
    distance, and a range of a billion answers at once (a disc of that radius does not)."""
    from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hexes
    among = {(r, c) for r in range(12) for c in range(14)}
    centre = (5, 6)
    assert hexes.within(centre, radius, among) == {h for h in among if hexes.distance(centre, h) <= radius}


def test_the_cooperative_summary_names_its_score_and_prints_no_seat_means():
    """Every dwarf has the team's 100 or 0: "scores" and four equal "seat means" told a
    designer nothing the success rate does not."""
    from tomecraft.generated.deep_rock_galactic import GAME
    from tomecraft.runtime import sim
    text = sim.format_summary(sim.run(GAME, games=2, seed=1))
    assert "mission score (100 a success, 0 a failure): min" in text
    assert "seat means" not in text and "\n  scores:" not in text


def test_fewer_pickups_than_flare_spaces_fill_spaces_drawn_at_random_the_same_per_seed():
    """Rulebook L217: the pickups go face down at random on the flare-stick (`?`) spaces; with
    3 pickups for 4 spaces (deep_shaft) the empty one is any of the 4, not always the last in
    order. The draw is the game's seeded one: the same seed fills the same spaces."""
    mission, reporter = _mission(FAN / "deep_shaft.yaml")
    assert mission is not None, reporter.diagnostics

    def filled(seed: str):
        rng = Rng(seed)
        engine = setup(GAME, 2, rng, [RandomAgent(rng.fork("a"))] * 2, {"mission": mission})
        return frozenset(engine.state.pickups)

    from tomecraft.runtime.engines.deep_rock_galactic.engine import parse_map
    flares = {h for h, c in parse_map(mission["map"]).items() if c == "?"}
    layouts = {filled(f"p{i}") for i in range(12)}
    assert all(len(f) == 3 and f < flares for f in layouts)
    assert len(layouts) > 1
    assert filled("p3") == filled("p3")
