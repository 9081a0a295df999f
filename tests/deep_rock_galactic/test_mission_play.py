"""A valid mission file is played exactly as written: one map reader for checker, engine and
briefing; the mission event, tokens, drones and fixed minerals each change play; pack
creatures with `--pack`; `sim --hazard` and its sweep."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tomecraft.compiler import diagnostics as dg, missions
from tomecraft.generated.deep_rock_galactic import GAME
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import game as drg, hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.mission_map import read_map
from tomecraft.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent / "missions"
VALID = HERE / "valid"
PACK = ROOT / "content/deep_rock_galactic/packs/goo_from_above"


def _mission(tmp_path: Path, name: str = "aquarq_run.yaml", edit=None, packs=()) -> dict:
    """A valid example, edited as data, written back and loaded through the checker."""
    data = yaml.safe_load((VALID / name).read_text())
    if edit:
        edit(data["mission"])
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    reporter = dg.Reporter()
    mission = missions.load_mission(path, reporter, list(packs))
    assert mission is not None, dg.format_text(reporter)
    return mission


def _setup(mission: dict, seed: str = "m", data=GAME, hazard=None):
    rng = Rng(seed)
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(4)]
    options = {"mission": mission} if hazard is None else {"mission": mission, "hazard": hazard}
    return drg.setup(data, 4, rng.fork("game"), agents, options, log=True)


# --- one map reader -----------------------------------------------------------------------

def test_checker_engine_and_briefing_read_a_map_the_same_way():
    from tomecraft.compiler import pipeline
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_context
    from tomecraft.runtime.engines.deep_rock_galactic.engine import parse_map
    mission = yaml.safe_load((VALID / "drone_salvage.yaml").read_text())["mission"]
    cells = read_map(mission["map"]).cells
    assert parse_map(mission["map"]) == cells
    game = pipeline.compile_game(ROOT / "content/deep_rock_galactic", [], dg.Reporter())
    grid = next(s["hexmap"] for s in briefing_context(game, mission, "en")["sections"] if "hexmap" in s)
    drawn = {tuple(map(int, h["title"].split(","))) for row in grid for h in row}
    assert drawn == set(cells)


@pytest.mark.parametrize("text, rule, line, column", [
    ("# # . #\n # . #\n", "M-05", 2, 7),            # ragged: 3 hexes, the others 4
    ("## # h h\n # . . #\n", "M-02", 1, 2),          # two characters with no space
    ("# #  . #\n # . . #\n", "M-03", 1, 5),          # two spaces: the caret on the extra one
    ("# # . #\n# . . #\n", "M-04", 2, 1),            # odd row not indented
    (" # # . #\n # . . #\n", "M-04", 1, 2),          # even row indented
    ("# # . #\n # . \uff03 #\n", "M-01", 2, 6),      # fullwidth number sign
    ("# # . #\n\n # . . #\n", "M-06", 2, 1),          # blank line
    ("# #\t. #\n # . . #\n", "M-02", 1, 4),          # a tab
])
def test_each_malformed_row_is_located(text, rule, line, column):
    problems = read_map(text).problems
    assert [(p.rule, p.line, p.column) for p in problems] == [(rule, line, column)]
    assert all(p.hint for p in problems)


@pytest.mark.parametrize("letter, meant", [
    ("о", "o"),          # Cyrillic o
    ("ο", "o"),          # Greek omicron (its Unicode name says OMICRON, not O)
    ("0", "o"),          # the digit zero
    ("һ", "h"),          # Cyrillic shha
    ("х", "x"),          # Cyrillic ha
])
def test_a_look_alike_letter_gets_a_hint_naming_the_intended_character(letter, meant):
    (problem,) = read_map(f"# {letter} #\n # . #\n").problems
    assert problem.rule == "M-01" and f"looks like `{meant}`" in problem.hint   # not the legend


def test_a_broken_map_is_refused_before_the_engine_sees_it(tmp_path):
    text = (VALID / "aquarq_run.yaml").read_text().replace("    # # . ? . o", "    ## . ? . o")
    path = tmp_path / "m.yaml"
    path.write_text(text)
    reporter = dg.Reporter()
    assert missions.load_mission(path, reporter) is None
    assert any(d.message.startswith("M-02") for d in reporter.diagnostics)


# --- every field of the mission file changes play --------------------------------------------

def test_the_mission_event_is_played_from_the_file(tmp_path):
    spit = _mission(tmp_path, edit=lambda m: m.update(mission_event="spawn_at_exits web_spitter 1"))
    threat = _mission(tmp_path, edit=lambda m: m.update(mission_event="advance_threat 2"))
    e1, e2 = _setup(spit), _setup(threat)
    before = (len(e1.state.monsters), e2.state.threat)
    e1.run(e1.mission_event, you=e1.state.dwarves[0])
    e2.run(e2.mission_event, you=e2.state.dwarves[0])
    assert sum(m.kind == "web_spitter" for m in e1.state.monsters.values()) == 2   # one per exit
    assert len(e2.state.monsters) == before[0] and e2.state.threat == before[1] + 2


def test_three_mission_events_give_three_different_games(tmp_path):
    """Each event's 4 seeded games, compared game by game: once the three events' first games
    differ pairwise, so do their 4 games (the later games need not be played)."""
    missions = [_mission(tmp_path, edit=lambda m: m.update(mission_event=event))
                for event in ("spawn_at_exits grunt 1", "spawn_at_exits slasher 1", "advance_threat 1")]
    played: list[list[str]] = [[] for _ in missions]
    for g in range(4):
        for mission, results in zip(missions, played):
            result = drg.play_game(GAME, 4, Rng(f"e:{g}"), [RandomAgent(Rng(f"a:{g}:{i}")) for i in range(4)],
                                   {"mission": mission})
            results.append(json.dumps(result, sort_keys=True, default=str))
        if len({tuple(results) for results in played}) == 3:
            break
    assert len({tuple(results) for results in played}) == 3


def test_tokens_are_taken_from_the_box_and_placed_where_they_work(tmp_path):
    plain = _setup(_mission(tmp_path, "morkite_seam.yaml", edit=lambda m: m.pop("tokens")))
    bridged = _setup(_mission(tmp_path, "morkite_seam.yaml"))
    assert not plain.state.tokens.get("platform")
    placed = bridged.state.tokens["platform"]
    assert len(placed) == 2 and all(bridged.state.cells[h] == "o" for h in placed)
    engineer = next(d for d in bridged.state.dwarves if d.cls == "engineer")
    assert engineer.tokens["platform"] == 6 - 2
    gunner = next(d for d in bridged.state.dwarves if d.cls == "gunner")
    pit = next(iter(placed))
    side = next(n for n in hx.neighbours(pit) if bridged.state.cells.get(n) == ".")
    assert bridged.dwarf_step(gunner, side, pit) and not plain.dwarf_step(gunner, side, pit)


def test_a_drone_must_be_recovered_before_the_pod_returns(tmp_path):
    engine = _setup(_mission(tmp_path, "drone_salvage.yaml"))
    st = engine.state
    assert st.drones == {(2, 8), (7, 10)}
    st.shared["apoca_bloom"] = 1
    assert not drg.objectives_done(engine)
    from tomecraft.runtime.engines.deep_rock_galactic.actions import enter
    d = st.dwarves[0]
    for h in sorted(st.drones):
        d.pos = h
        enter(engine, d, h)
    assert not st.drones and drg.objectives_done(engine)
    without = _setup(_mission(tmp_path, "drone_salvage.yaml", edit=lambda m: m.pop("drones")))
    without.state.shared["apoca_bloom"] = 1
    assert drg.objectives_done(without)


def test_an_eliminate_target_is_placed_where_the_dwarves_can_reach_it(tmp_path):
    """A cave pocket cut off by `x` is legal (nothing lies there), but the target placed in it,
    farthest from the pod, could never be killed: the set-up places it within reach."""
    def cut_off_pocket(m):
        m.pop("hidden_monsters")
        rows = m["map"].rstrip("\n").split("\n")
        m["map"] = "\n".join(row + (" x . x" if r == 1 else " x x x") for r, row in enumerate(rows)) + "\n"
    engine = _setup(_mission(tmp_path, "praetorian_hunt.yaml", edit=cut_off_pocket))
    (target,) = [m for m in engine.state.monsters.values() if m.kind == "praetorian"]
    reach = hx.bfs_from(engine.state.pod, lambda _, n: engine.state.cells.get(n, "x") != "x")
    assert engine.state.cells[(1, 12)] == "." and target.pos != (1, 12) and target.pos in reach


def test_an_oppressor_target_starts_where_its_rear_fits(tmp_path):
    """The Oppressor covers 2 spaces (L1197): the farthest free space, a one-space pocket in
    the rock, left it with no rear (an Oppressor on one space). It starts where its rear fits,
    and the briefing marks that space."""
    def oppressor_in_pocket(m):
        m.pop("hidden_monsters")
        m["objective"]["creature"] = "oppressor"
        rows = m["map"].rstrip("\n").split("\n")
        m["map"] = "\n".join(row + (" # . #" if r == 1 else " # # #") for r, row in enumerate(rows)) + "\n"
    mission = _mission(tmp_path, "praetorian_hunt.yaml", edit=oppressor_in_pocket)
    engine = _setup(mission)
    (target,) = [m for m in engine.state.monsters.values() if m.kind == "oppressor"]
    assert engine.state.cells[(1, 12)] == "." and target.pos != (1, 12)
    assert target.tail is not None and hx.distance(target.pos, target.tail) == 1
    from tomecraft.runtime.engines.deep_rock_galactic import mission_play
    assert mission_play.target_start(engine.state.cells, mission, 2) == target.pos


def test_fixed_minerals_lie_where_the_file_says_for_every_seed(tmp_path):
    fixed = _mission(tmp_path, "deep_shaft.yaml")
    loose = _mission(tmp_path, "deep_shaft.yaml", edit=lambda m: m.pop("mineral_spaces"))
    seen_loose = set()
    for seed in range(6):
        st = _setup(fixed, f"s{seed}").state
        assert st.minerals[(2, 6)] == "morkite" and st.minerals[(14, 6)] == "gold"
        assert sorted(st.minerals.values()).count("morkite") == 3
        seen_loose.add(_setup(loose, f"s{seed}").state.minerals.get((2, 6)))
    assert seen_loose != {"morkite"}


def test_hidden_monsters_and_the_hazard_are_played(tmp_path):
    mission = _mission(tmp_path, "drone_salvage.yaml")
    low, high = _setup(mission, hazard=1), _setup(mission, hazard=5)
    assert high.state.threat > low.state.threat
    assert sum(m.kind == "grunt" for m in high.state.monsters.values()) == 2   # one per exit (L173)
    from tomecraft.runtime.engines.deep_rock_galactic.actions import dig
    dig(low, (4, 8))                                   # the chamber's only door
    assert low.state.hidden[0]["revealed"]
    assert any(m.kind == "grunt" for m in low.state.monsters.values())


def test_a_million_hidden_monsters_fill_the_map_in_one_search(tmp_path):
    """The reveal places a segment's monsters with one spawn call, which stops when no space
    is left (a count of a million searched the board a million times: the sim hung)."""
    engine = _setup(_mission(tmp_path, "drone_salvage.yaml"), hazard=1)
    engine.mission = {**engine.mission, "hidden_monsters": [{"creature": "grunt", "count": 10 ** 6}]}
    from tomecraft.runtime.engines.deep_rock_galactic.actions import dig
    dig(engine, (4, 8))
    grunts = sum(m.kind == "grunt" for m in engine.state.monsters.values())
    assert 10 < grunts < 200


def test_the_dwarves_call_no_supply_pod_with_the_nitra_the_objective_counts(tmp_path):
    """A Nitra mission's dwarves spent every 3 Nitra they mined on supply pods (Nitra first,
    actions.call_supply) and (almost) never succeeded; other missions still call them."""
    from tomecraft.runtime.engines.deep_rock_galactic.policy import supply_pod_spares_objective
    nitra = _setup(_mission(tmp_path, "aquarq_run.yaml", edit=lambda m: m.update(
        objective={"type": "collect", "targets": {"nitra": 2}})))
    aquarq = _setup(_mission(tmp_path, "aquarq_run.yaml"))
    for engine in (nitra, aquarq):
        engine.state.shared.update(nitra=3, gold=0)
    assert supply_pod_spares_objective(aquarq) and not supply_pod_spares_objective(nitra)
    nitra.state.shared.update(nitra=5)
    assert supply_pod_spares_objective(nitra)          # 3 spent, the 2 wanted stay


def test_bosco_starts_on_an_empty_space_next_to_the_pod_not_on_a_stalagmite(tmp_path):
    """L1425: BOSCO on the empty space beside the drop pod; he stood on the first space
    around it (sorted), stalagmite or not."""
    def stalagmite_first(m):
        rows = m["map"].split("\n")
        cols = [i for i, ch in enumerate(rows[1]) if ch != " "]
        rows[1] = rows[1][:cols[1]] + "^" + rows[1][cols[1] + 1:]     # [1, 1], first around the pod
        m["map"] = "\n".join(rows)
        m["stalagmites"].append([1, 1])
    mission = _mission(tmp_path, "aquarq_run.yaml", edit=stalagmite_first)
    rng = Rng("b")
    engine = drg.setup(GAME, 1, rng.fork("game"), [RandomAgent(rng.fork("a"))], {"mission": mission})
    assert engine.state.bosco is not None and engine.state.bosco not in engine.state.stalagmites


# --- packs, hazard sweep, the sim's success rates -----------------------------------------------

def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)


def test_a_pack_creature_needs_the_pack_for_check_and_sim(run_cli):
    mission = HERE / "pack" / "goo_hunt.yaml"
    code, out, err = run_cli("check", mission, "--format", "json")
    assert code == 1 and "Traceback" not in err
    rules = {d["message"].split(":")[0] for d in json.loads(out)["diagnostics"]}
    assert rules == {"V-02", "V-21", "V-23"}
    assert run_cli("check", mission, "--pack", PACK)[0] == 0
    code, out, err = run_cli("sim", "deep_rock_galactic", "--mission", mission, "--games", 2)
    assert code == 1 and "V-02" in out and "Traceback" not in err
    code, out, err = run_cli("sim", "deep_rock_galactic", "--mission", mission, "--pack", PACK, "--games", 2, "--json")
    assert code == 0, err
    assert json.loads(out)["completed"] == 2


def test_sim_hazard_sweep_reports_a_success_rate_per_level_and_is_deterministic(run_cli):
    """Played in a second process (another hash seed) and in this one: the same bytes. One
    game a level, not 3: an order following the hash seed changes the dwarves' choices from
    the first turns (a trial's stream seeded with a hash still fails it)."""
    args = ("sim", "deep_rock_galactic", "--mission", VALID / "drone_salvage.yaml", "--games", 1, "--hazard", "1-5")
    a, (code, b, _) = _cli(*args), run_cli(*args)
    assert a.returncode == code == 0 and a.stdout == b
    assert [line.split(":")[0].strip() for line in b.splitlines()[1:]] == [f"hazard {n}" for n in range(1, 6)]
    assert run_cli("sim", "deep_rock_galactic", "--hazard", "9", "--games", 1)[0] == 2
    assert run_cli("sim", "the_cave", "--hazard", "2", "--games", 1)[0] == 2


EXAMPLES = sorted(VALID.glob("*.yaml")) + [HERE / "pack" / "goo_hunt.yaml"]
GAMES = 40          # at most, per example and hazard (80 for the pack's example)
POOLED = 16         # games per example and hazard pooled for the hazard comparison: 256 games
                    # give 1.12 activations at Hazard 5 per 1 at Hazard 1 (384 games: 1.13). At 8
                    # (128 games) seed noise alone moved it from 1.14 to 1.08 when the dwarves
                    # began throwing their single-target throwables (384 games: 1.14 before);
                    # monsters walking toward the nearest dwarf (round 13) gave 1.08 at 72 games,
                    # 1.10 at 144 and 1.12 at 216; with both, these 256 games give 1.09: the
                    # assertion below asks for 5% more
SEED = 1
_PLAYED: dict = {}  # (path, hazard) -> the results of games 0, 1, 2... of the seeded run
_LOADED: dict = {}  # path -> (game data, mission)


def _games(path: Path, hazard: int, count: int) -> list[dict]:
    """The first `count` games of the seeded 4-player run of a valid example (game i is the
    same game whatever else is played: `sim.play_one`), played once per worker."""
    from tomecraft.compiler import loadgen
    from tomecraft.runtime import sim
    played = _PLAYED.setdefault((path, hazard), [])
    if len(played) < count:
        if path not in _LOADED:
            packs = [PACK] if path.parent.name == "pack" else []
            reporter = dg.Reporter()
            _LOADED[path] = (loadgen.game_data("deep_rock_galactic", packs, reporter),
                             missions.load_mission(path, reporter, packs))
        data, mission = _LOADED[path]
        options = {"mission": mission, "hazard": hazard}
        played.extend(sim.play_one(data, 4, SEED, i, options) for i in range(len(played), count))
    return played[:count]


# The games are played once per worker (_PLAYED): these tests share one worker under `-n`.
SHARE_GAMES = pytest.mark.xdist_group("deep_rock_galactic_mission_rates")


@SHARE_GAMES
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_valid_example_is_neither_always_won_nor_always_lost(path):
    """Over the seeded run's first GAMES games at Hazard 1 and at Hazard 5, each example is won
    and lost. Played game by game and stopped once both were seen (the run's success rate is
    then strictly between 0 and 1 whatever its later games)."""
    limit = GAMES * 2 if path.parent.name == "pack" else GAMES
    for hazard in (1, 5):
        seen: set[bool] = set()
        for count in range(1, limit + 1):
            seen.add(bool(_games(path, hazard, count)[-1]["success"]))
            if seen == {True, False}:
                break
        assert seen == {True, False}, (hazard, f"{count} games, only {seen}")


@SHARE_GAMES
def test_the_monsters_press_harder_at_hazard_5():
    """Over the examples' first POOLED games each, monsters act more often per round at Hazard
    5 than at Hazard 1 (more of them at the start, a higher threat). Win rates differ by
    less than the seed noise of the games a test can afford (pooled over 640 games: 167 wins
    at Hazard 1, 142 at Hazard 5), so the pressure the hazard adds is what is compared."""
    def per_round(hazard: int) -> float:
        games = [g for path in EXAMPLES for g in _games(path, hazard, POOLED)]
        return sum(sum(g["activated"].values()) for g in games) / sum(g["rounds"] for g in games)
    low, high = per_round(1), per_round(5)
    assert high > low * 1.05, (low, high)


# --- the briefing ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game_model():
    from tomecraft.compiler import pipeline
    return pipeline.compile_game(ROOT / "content/deep_rock_galactic", [], dg.Reporter())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_briefing_draws_fixed_minerals(game_model, lang):
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_map, labels
    mission = yaml.safe_load((VALID / "deep_shaft.yaml").read_text())["mission"]
    grid, legend, _ = briefing_map(game_model, mission, lang, labels(lang, "deep_rock_galactic"))
    fixed = {(r, c): cell["text"] for r, row in enumerate(grid) for c, cell in enumerate(row) if cell["cls"] == "fixed"}
    assert fixed == ({(2, 6): "墨", (14, 6): "黄"} if lang == "zh" else {(2, 6): "M", (14, 6): "G"})
    assert any("Morkite" in line or "墨菱石" in line for line in legend)


@pytest.mark.parametrize("lang, recover", [("zh", "回收全部无人机（2架）"), ("en", "Recover every drone (2)")])
def test_the_briefing_objective_names_the_drones_to_recover(game_model, lang, recover):
    """The pod returns only once every drone is recovered: the objective says so, not only
    the map's legend."""
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_context
    mission = yaml.safe_load((VALID / "drone_salvage.yaml").read_text())["mission"]
    objective = briefing_context(game_model, mission, lang)["sections"][0]["items"][0]
    assert recover in objective


def test_a_fixed_mineral_never_shares_its_mark_with_the_mine_head(game_model):
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_map, labels
    mission = yaml.safe_load((VALID / "aquarq_run.yaml").read_text())["mission"]
    mission["mineral_spaces"].append({"mineral": "morkite", "at": [3, 1]})
    grid, legend, _ = briefing_map(game_model, mission, "en", labels("en", "deep_rock_galactic"))
    text = {(r, c): cell["text"] for r, row in enumerate(grid) for c, cell in enumerate(row)}
    assert text[tuple(mission["mine_head"])] == "M" and text[(3, 1)] == "Mo"
    assert any(line.startswith("Mo = Morkite") for line in legend)


def test_a_taller_map_gets_smaller_hexes_that_stay_on_one_page(game_model):
    from tomecraft.compiler.sheets.deep_rock_galactic import MAP_HEIGHT_PT, MAX_HEX_PT, briefing_map, labels
    lab = labels("en", "deep_rock_galactic")
    mission = yaml.safe_load((VALID / "deep_shaft.yaml").read_text())["mission"]
    rows = mission["map"].rstrip("\n").split("\n")
    tall = dict(mission, map="\n".join(rows[:-1] + rows[1:-1] * 2 + rows[-1:]) + "\n")
    assert len(read_map(tall["map"]).problems) == 0
    short_pt = briefing_map(game_model, yaml.safe_load((VALID / "aquarq_run.yaml").read_text())["mission"], "en", lab)[2]
    grid, _, tall_pt = briefing_map(game_model, tall, "en", lab)
    assert short_pt == MAX_HEX_PT and tall_pt < short_pt and len(grid) * tall_pt <= MAP_HEIGHT_PT


def test_a_pack_creature_mission_gets_its_briefing_with_the_pack(tmp_path, run_cli):
    """`sheets --mission` takes `--pack` as check and sim do (it checked without the pack and
    refused the mission)."""
    mission = HERE / "pack" / "goo_hunt.yaml"
    code, _, err = run_cli("sheets", "--mission", mission, "--pack", PACK, "--lang", "en", "--format", "html",
                           "--out", tmp_path)
    assert code == 0, err
    assert "Eliminate the Goo Bomber" in (tmp_path / "deep_rock_galactic/briefing_goo_hunt.en.html").read_text()


def test_the_briefing_prints_no_empty_table_and_fits_one_page(tmp_path, run_cli):
    code, _, err = run_cli("sheets", "--mission", VALID / "deep_shaft.yaml", "--lang", "en", "--format", "html",
                           "--out", tmp_path)
    assert code == 0, err
    html = (tmp_path / "deep_rock_galactic/briefing_deep_shaft.en.html").read_text()
    assert "<table" not in html or "<tbody>\n    </tbody>" not in html
    assert "Sources" not in html
    weasyprint = pytest.importorskip("weasyprint", reason="weasyprint renders the PDF")
    from tomecraft.compiler.sheets import TEMPLATES
    pages = weasyprint.HTML(string=html, base_url=str(TEMPLATES)).render().pages
    assert len(pages) == 1


def test_the_simulated_dwarves_open_a_chamber_whose_only_door_is_deep_in_the_rock(tmp_path):
    """drone_salvage's chamber touches no cave space: its one door, the wall at [4, 8], is
    reached from [4, 7]. The dwarves open it (a drone waits inside) and recover that drone."""
    mission = _mission(tmp_path, "drone_salvage.yaml")
    opened = inside = 0
    for g in range(12):             # of 12 games; stopped once both counts are reached
        rng = Rng(f"c:{g}")
        engine = drg.setup(GAME, 4, rng.fork("game"), [RandomAgent(rng.fork(f"a{i}")) for i in range(4)],
                           {"mission": mission})
        drg.play_mission(engine)
        opened += engine.state.hidden[0]["revealed"]
        inside += (2, 8) not in engine.state.drones
        if opened >= 6 and inside >= 3:
            break
    assert opened >= 6 and inside >= 3, (opened, inside)


@pytest.mark.parametrize("verb, resource", [("gain", "nitra"), ("gain", "ammo"), ("deposit", "gold"),
                                            ("pay", "gold"), ("pay", "ammo")])
def test_an_amount_read_below_1_in_play_gains_or_pays_nothing(tmp_path, verb, resource):
    """An amount read from the game, `gain nitra (hazard_level() - 5)` at Hazard 1, is -4: the
    Shared Supply went to -6 Nitra and a dwarf to -4 ammo (minerals are tokens in the supply,
    rulebook L515; ammo tokens on the board's spaces, L236: never fewer than none), and paying
    -4 gave 4. Now nothing is gained or paid. The checker refuses such an event in a mission
    file (b123); a pack's card reads the game alike."""
    from tomecraft.runtime.engines.deep_rock_galactic.state import Ctx
    engine = _setup(_mission(tmp_path), hazard=1)
    dwarf = engine.state.dwarves[0]
    before = (dict(engine.state.shared), dwarf.ammo)
    ctx = Ctx(engine, you=dwarf, self=None, target=None, info={"play": engine.new_play()})
    getattr(engine.verbs, verb)(ctx, resource, engine.queries.hazard_level(ctx) - 5)
    assert (dict(engine.state.shared), dwarf.ammo) == before


@pytest.mark.parametrize("lang, legend_line", [("en", "Pr = the Praetorian starts here"),   # P is the pod
                                               ("zh", "T = 禁卫异虫的起始位置")])
def test_the_briefing_marks_where_an_eliminate_target_starts_as_the_engine_places_it(
        tmp_path, game_model, lang, legend_line):
    """An eliminate target not waiting on a hidden segment is placed at setup (mission_setup.
    place_target); the briefing said only "Eliminate the Warden", so players printing it did
    not know where to put it. It marks the space the engine uses; none for a hidden target."""
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_map, labels
    mission = _mission(tmp_path, "praetorian_hunt.yaml",
                       edit=lambda m: m.update(hidden_monsters=[{"creature": "grunt", "count": 1}]))
    engine = _setup(mission)
    placed = [m.pos for m in engine.state.monsters.values() if m.kind == "praetorian"]
    grid, legend, _ = briefing_map(game_model, mission, lang, labels(lang, "deep_rock_galactic"))
    marked = [(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row) if cell["cls"] == "target"]
    assert marked == placed and len(placed) == 1
    assert legend_line in legend, legend
    hidden = yaml.safe_load((VALID / "praetorian_hunt.yaml").read_text())["mission"]
    grid, _, _ = briefing_map(game_model, hidden, lang, labels(lang, "deep_rock_galactic"))
    assert not any(cell["cls"] == "target" for row in grid for cell in row)


def test_the_briefing_lists_no_component_counted_0(game_model):
    """`tokens: {platform: 0}` (a count the schema allows) printed "Pre-placed class tokens:
    platform × 0", and `minerals: {gold: 0}` "Gold × 0": the set-up takes none of them."""
    from tomecraft.compiler.sheets.deep_rock_galactic import briefing_context
    mission = yaml.safe_load((VALID / "aquarq_run.yaml").read_text())["mission"]
    mission.update(tokens={"platform": 0}, minerals={**mission["minerals"], "morkite": 0},
                   pickups={**mission["pickups"], "apoca_bloom": 0})
    items = briefing_context(game_model, mission, "en")["sections"][0]["items"]
    assert not any("× 0" in item for item in items), items
    assert not any(item.startswith("Pre-placed class tokens") for item in items), items
    assert any(item.startswith("Minerals: Aquarq × 2") for item in items), items
