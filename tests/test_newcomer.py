"""What a tester writing scenarios from `tomecraft scenario format GAME` and the README alone
ran into: each test is one thing that passed silently or failed with a message that did not
say what was wrong."""
from __future__ import annotations

import pytest

from tomecraft.compiler import cli


def run(tmp_path, capsys, text: str) -> tuple[int, str]:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text, encoding="utf-8")
    code = cli.main(["scenario", "run", str(scenario)])
    return code, capsys.readouterr().out


CAVE_WATER = """\
game: the_cave
name: n
setup:
  tiles:
    - {at: [0, 0], kind: start, exits: NESW}
    - {at: [1, 0], kind: water, exits: NESW, tokens: [water]}
  teams:
    - {pos: [0, 0], ap: 5, backpack: {oxygen: 1, consumable: 2}}
steps:
  - {do: move, to: [1, 0], via: oxygen, choose: CHOOSE}
expect:
  - {team: 0, ap: 3}
"""

CLANK_SCRAMBLE = """\
game: clank_catacombs
name: n
setup:
  players:
    - {hand: [scramble]}
    - {}
steps:
  - {do: play, player: 0, card: scramble, choose: CHOOSE}
expect:
  - {player: 0, skill: 1, movement: 1}
"""


@pytest.mark.parametrize("text, line", [(CAVE_WATER, 10), (CLANK_SCRAMBLE, 8)],
                         ids=["the_cave", "clank_catacombs"])
def test_a_scripted_answer_no_decision_asked_for_fails_the_step(text, line, tmp_path, capsys):
    """`choose: [1, 2]` on a step that asks nothing used to pass (the answers were dropped),
    so a misplaced or misspelt answer went unnoticed; Crawl Decks and Deep Rock Galactic
    already refused it."""
    code, out = run(tmp_path, capsys, text.replace("CHOOSE", "[]"))
    assert code == 0, out
    code, out = run(tmp_path, capsys, text.replace("CHOOSE", "[1, 2]"))
    assert code == 1 and f"s.yaml:{line}: n: steps[0]: scripted choices left unused: [1, 2]" in out, out


def test_an_answer_dungeontology_never_asked_for_does_not_answer_the_next_step(tmp_path, capsys):
    """The answer scripted on step 0 (asked nothing) used to stay queued and sacrifice a
    student when step 1 asked whether to avoid its stun token."""
    code, out = run(tmp_path, capsys, """\
game: dungeontology
name: n
setup:
  players: 2
  regions: [{region: old_drain, at: [0, -1], slots: [wealth, null, null]}]   # else no block: the game ends
  scholars:
    - {scholar: rebecca, at: camp, students: 2, stun: 0}
    - {scholar: valerio, at: camp}
steps:
  - {do: notebook_changed, seat: 0, choose: [true]}
  - {do: gain_stun, seat: 0, n: 1}
expect:
  - {scholar: 0, stun: 1}
  - {scholar: 0, students: 2}
""")
    assert code == 0, out


def test_rolls_written_as_faces_not_lists_say_one_list_per_roll(tmp_path, capsys):
    """`rolls: [teeth]` (the format said only "dice faces") failed with "unknown die face 't'"."""
    code, out = run(tmp_path, capsys, """\
game: deep_rock_galactic
name: n
setup:
  dwarves:
    - {cls: scout, at: [4, 4], health: 4}
  monsters:
    - {id: g, kind: grunt, at: [4, 5]}
steps:
  - {do: activate_all, rolls: [teeth]}
expect:
  - {dwarf: 0, health: 3}
""")
    assert code == 1 and "s.yaml:9: n: steps[0]: steps[0].rolls[0]: one list of faces per roll " \
        "([[teeth], [1, blank]]), not 'teeth'" in out, out
    code, out = run(tmp_path, capsys, (tmp_path / "s.yaml").read_text().replace("[teeth]", "[[teeth]]"))
    assert code == 0, out


def test_a_setup_mistake_is_reported_at_its_entry_not_at_setup(tmp_path, capsys):
    """A misspelt team key was reported at `setup:` (line 3), seven lines above the typo."""
    code, out = run(tmp_path, capsys, CAVE_WATER.replace("CHOOSE", "[]").replace("backpack", "backpak"))
    assert code == 1 and "s.yaml:8: n: setup: setup.teams[0]: unknown key(s) ['backpak']" in out, out


def test_crawl_tokens_written_as_sides_say_they_are_counts(tmp_path, capsys):
    """The format said `tokens {strength: [up, down] or up}`; `[down]` then failed with
    "ValueError: not enough values to unpack (expected 2, got 1)" at the `setup:` line."""
    code, out = run(tmp_path, capsys, """\
game: dm_crawl_decks
name: n
setup:
  events_off: true
  tokens: {strength: [down]}
  main_deck: 10
""")
    assert code == 1 and "s.yaml:5: n: setup: setup.tokens.strength: " \
        "an attribute's tokens are [face-up count, face-down count] ([2, 1]) or a face-up count (3), " \
        "not ['down']" in out, out


def test_a_misspelt_clank_player_field_is_named_with_the_known_ones(tmp_path, capsys):
    """`{player: 0, helth: 3}` failed with "bad expectation: AttributeError: 'Player' object
    has no attribute 'helth'"; a field the format does not list (an engine attribute) was read."""
    text = CLANK_SCRAMBLE.replace("CHOOSE", "[]") + "  - {player: 0, helth: 3}\n"
    code, out = run(tmp_path, capsys, text)
    assert code == 1 and "s.yaml:11: n: expect[1]: unknown player field(s) ['helth']; known: ['clank', " in out, out


@pytest.mark.parametrize("game, warned", [("deep_rock_galactic", "minerals.yaml"),
                                           ("dungeontology", "intern_cards.yaml")])
def test_a_new_pack_checks_with_no_warning_either(game, warned, tmp_path):
    """The README says "The new pack checks clean"; DRG's checked with 2 warnings (its example
    mineral and pickup lie in no mission) and Dungeontology's with 1 (no scheme card brings
    its example intern). Those examples are now written commented out, with the reason."""
    from pathlib import Path

    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.scaffold import new_pack
    root = Path(__file__).resolve().parents[1] / "content" / game
    new_pack(root, tmp_path / "fan")
    reporter = dg.Reporter()
    pipeline.compile_game(root, [tmp_path / "fan"], reporter)
    assert [(d.code, d.message) for d in reporter.diagnostics] == []
    text = (tmp_path / "fan" / warned).read_text(encoding="utf-8")
    assert "# Commented out: check warns about it as an addition (TC-G002: " in text


MISSION = """\
game: deep_rock_galactic
mission:
  id: crystal_run
  name: {zh: 水晶奔袭, en: Crystal Run}
  source: approximation
  note: "A fan mission."
  objective: {type: collect, targets: {morkite: 3}}
  hazard: 2
  minerals: {morkite: 4, nitra: 1}
  pickups: {apoca_bloom: 2}
  mission_event: "spawn_at_exits cave_leech 2; activate_monsters"
  drop_pod: [[4, 3], [4, 4], [5, 3], [5, 4]]
  tunnel_exits: [{exit: 1, at: [1, 2]}, {exit: 2, at: [7, 6]}]
  map: |
    # # # # # # # # # #
     # * . . . * # # # #
    # . . ? . . # # # #
     # . . . . ^ . # # #
    # * . . . . . ? . #
     # . . . . . . . * #
    # # . ? . . . . . #
     # # * . . . . . . #
    # # # # # # # # # #
"""


def test_a_pack_creature_in_a_mission_event_hints_at_pack(tmp_path, capsys):
    """V-02 (the objective's creature) hinted at `--pack DIR`; the same creature in the
    mission event got no hint at all."""
    mission = tmp_path / "crystal_run.yaml"
    mission.write_text(MISSION, encoding="utf-8")
    assert cli.main(["check", str(mission)]) == 1
    out = capsys.readouterr().out
    assert "crystal_run.yaml:11:34: error[TC-N001]: V-21: unknown name 'cave_leech'" in out, out
    assert "hint: a pack's creature or keyword is known with `--pack DIR` (check and sim)" in out, out


def test_the_top_help_names_every_command(capsys):
    """`tomecraft --help` summed the commands up as nine of the twelve (no contract, balance
    or cards)."""
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    summary, listing = out.split("positional arguments")
    names = [line.split()[0] for line in listing.split("options:")[0].splitlines()
             if line.startswith("    ") and line[4] != " "]
    assert len(names) == 12 and all(name in summary for name in names), (names, summary)


def test_a_new_drg_pack_writes_its_example_map_as_rows(tmp_path):
    """The example mission's map came out as one quoted string of "\\n"s, unlike the block of
    rows missions/README.md teaches; the rows are what a newcomer edits."""
    from pathlib import Path

    from tomecraft.compiler.scaffold import new_pack
    new_pack(Path(__file__).resolve().parents[1] / "content" / "deep_rock_galactic", tmp_path / "fan")
    text = (tmp_path / "fan" / "missions.yaml").read_text(encoding="utf-8")
    assert "    map: |\n      # # # # # # # # # # # # # #\n       # * . . ." in text, text


def test_an_entry_that_fizzles_part_way_stops_sim_at_its_effects_line(tmp_path, capsys):
    """A fan's mud tile entered with "pay ap 1; pay ap 1" checks clean; the engine offers the
    entry on its first `pay` alone, so a team with 1 AP left stops the game. `sim` reported
    that as "?:1:1: error[TC-G001]: P1 cannot move to (-1, 1) via wade", nowhere in the pack."""
    pack = tmp_path / "mud"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: mud\ngame: the_cave\nversion: '0.1'\n", encoding="utf-8")
    (pack / "tile_kinds.yaml").write_text("""\
tile_kinds:
  - id: mud
    name: {zh: 泥濘版塊, en: Mud}
    source: approximation
    note: "A fan's tile kind."
    enter:
      - id: wade
        effect: "pay ap 1; pay ap 1"
    discover_from: true
    rope_edges: false
""", encoding="utf-8")
    (pack / "tiles.yaml").write_text("""\
tiles:
  - id: s1_normal_ns
    replace: true
    name: {zh: 泥濘 NS, en: Mud NS}
    source: approximation
    note: "A fan's tile."
    stack: 1
    tile_kind: mud
    exits: NS
    count: 2
""", encoding="utf-8")
    code = cli.main(["sim", "the_cave", "--pack", str(pack), "--games", "3"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "tile_kinds.yaml:8:1: error[TC-G001]: " in out and "via wade: the effect fizzled after " \
        "its leading requires and costs held (a later `pay` or `require` failed: costs go before `->`)" in out, out


def explore_pack(tmp_path, play: str):
    """A fan's Clank! pack replacing Explore with a card that plays `play` (on line 10 of its
    cards.yaml)."""
    pack = tmp_path / "coin"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: coin\ngame: clank_catacombs\nversion: '0.1'\n", encoding="utf-8")
    (pack / "cards.yaml").write_text(f"""\
cards:
  - id: explore
    replace: true
    name: {{zh: 勘探, en: Explore}}
    source: approximation
    note: "A fan's Explore."
    card_type: reserve
    count: 15
    cost: 3
    play: "{play}"
""", encoding="utf-8")
    return pack


def test_an_attribute_that_is_a_resource_says_what_attributes_read(tmp_path, capsys):
    """`require you.gold >= 1` on a Clank! card: "unknown attribute 'gold'" with no hint."""
    pack = explore_pack(tmp_path, "require you.gold >= 1; gain skill 2")
    assert cli.main(["check", str(pack)]) == 1
    out = capsys.readouterr().out
    assert "cards.yaml:10:20: error[TC-N006]: unknown attribute 'gold'" in out, out
    assert "hint: `gold` is a resource, not a stat; an attribute reads a stat (damage_taken, health, " \
        "points, signposts, treasure_limit), an event's field or a field of an entity kind" in out, out


def test_a_scenarios_broken_pack_is_reported_at_its_own_file_and_line(tmp_path, capsys):
    """A scenario whose pack does not check printed the pack's problem at the pack file's
    line number but under the scenario's name ("s.yaml:10: unknown attribute ..."), after a
    bare "cannot load game"; an unknown game did not say which games there are."""
    pack = explore_pack(tmp_path, "require you.helth >= 1; gain skill 2")
    scenario = CLANK_SCRAMBLE.replace("CHOOSE", "[]").replace("name: n\n", "name: n\npacks: [coin]\n")
    code, out = run(tmp_path, capsys, scenario)
    assert code == 1 and out.splitlines()[0] == (
        f"FAIL  {tmp_path / 's.yaml'}:3: n: {pack / 'cards.yaml'}:10:20: TC-N006: unknown attribute "
        "'helth' (did you mean `health`?)"), out
    code, out = run(tmp_path, capsys, CLANK_SCRAMBLE.replace("game: clank_catacombs", "game: clank"))
    assert code == 1 and out.splitlines()[0].endswith(
        "s.yaml:1: n: unknown game 'clank' (games: clank_catacombs, deep_rock_galactic, dm_crawl_decks, "
        "dungeontology, the_cave)"), out


@pytest.mark.parametrize("text, typo, said", ids=["the_cave", "dungeontology"], argvalues=[
    (CAVE_WATER.replace("CHOOSE", "[]"), ("do: move", "do: mvoe"), "did you mean `move`? steps: act, end, "),
    ("game: dungeontology\nname: n\nsetup:\n  players: 2\n  scholars: [{scholar: rebecca, at: camp}, "
     "{scholar: valerio, at: camp}]\nsteps:\n  - {do: rets}\n", None,
     "did you mean `rest`? steps: action, aux, draw_students, "),
])
def test_an_unknown_step_names_the_closest_and_every_step(text, typo, said, tmp_path, capsys):
    """`{do: mvoe}` failed with "unknown step 'mvoe'" and nothing about the steps there are."""
    code, out = run(tmp_path, capsys, text.replace(*typo) if typo else text)
    assert code == 1 and said in out, out


def test_a_name_of_several_types_given_for_a_number_is_refused(tmp_path, capsys):
    """`pay ap photo` (photo: a token and a category) checked clean, then `sim` stopped with
    "internal error: TypeError: can only concatenate str (not "int") to str"."""
    pack = tmp_path / "mud"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: mud\ngame: the_cave\nversion: '0.1'\n", encoding="utf-8")
    (pack / "actions.yaml").write_text("""\
actions:
  - id: wallow
    name: {zh: 打滾, en: Wallow}
    source: approximation
    note: "A fan's action."
    order: 9
    effect: "pay ap photo"
""", encoding="utf-8")
    assert cli.main(["check", str(pack)]) == 1
    out = capsys.readouterr().out
    assert "actions.yaml:7:21: error[TC-N003]: expected a number, got category or token" in out, out


def test_cards_refusing_a_broken_pack_says_cards(tmp_path, capsys):
    """`tomecraft cards` with a broken pack ended "sheets for ... not written"."""
    pack = tmp_path / "mud"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: mud\ngame: the_cave\nversion: '0.1'\nremove: [{kind: tile, id: nope}]\n",
                                    encoding="utf-8")
    assert cli.main(["cards", "--game", "the_cave", "--pack", str(pack), "--out", str(tmp_path / "out")]) == 1
    assert "cards for the_cave + mud not written: fix the errors above" in capsys.readouterr().err


def test_a_misspelt_dungeontology_scholar_is_named_with_the_closest_id(tmp_path, capsys):
    """`scholar: rebeca` failed with "setup: KeyError('rebeca')"."""
    code, out = run(tmp_path, capsys, """\
game: dungeontology
name: n
setup:
  players: 2
  scholars: [{scholar: rebeca, at: camp}, {scholar: valerio, at: camp}]
""")
    assert code == 1 and ("n: setup: setup.scholars[0].scholar: no 'rebeca' in the content; "
                          "did you mean `rebecca` (scholar)?") in out, out


def test_a_setup_entry_named_relative_to_setup_is_reported_at_its_line(tmp_path, capsys):
    """Clank!'s "players[0].hand: no card 'scrmble'" (and DRG's "dwarves[0]: ...") were
    reported at the `setup:` line."""
    code, out = run(tmp_path, capsys, CLANK_SCRAMBLE.replace("CHOOSE", "[]").replace("[scramble]", "[scrmble]"))
    assert code == 1 and "s.yaml:5: n: setup: players[0].hand[0]: no " \
        "card 'scrmble' in the content; did you mean `scramble`?" in out, out


def test_the_mission_readmes_example_checks_clean(tmp_path, capsys):
    """The example a newcomer copies from content/deep_rock_galactic/missions/README.md gave
    14 errors: its drop pod, exits and Mine Head lay off its three-row map, its fixed Aquarq
    was not among its minerals, and its map had no room for its pickups or hidden monsters."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "content/deep_rock_galactic/missions/README.md").read_text(
        encoding="utf-8")
    start = text.index("```yaml\n") + len("```yaml\n")
    mission = tmp_path / "salt_pits.yaml"
    mission.write_text(text[start:text.index("```", start)], encoding="utf-8")
    assert cli.main(["check", str(mission)]) == 0
    assert capsys.readouterr().out.strip().endswith("0 errors, 0 warnings")


def test_a_packs_keyword_is_on_the_crawl_keyword_sheet(tmp_path, capsys):
    """The README says the keywords sheet holds "Every keyword and timing, its meaning and the
    cards that use it"; a fan's keyword (and the base game's own `loot_of`) was not on it."""
    pack = tmp_path / "fan"
    pack.mkdir()
    (pack / "pack.yaml").write_text("""\
id: fan
game: dm_crawl_decks
version: "0.1"
vocabulary:
  keywords:
    bolster:
      params: [{name: amount, type: int}]
      effect: "on pre_battle: self.points += amount"
      text: {zh: "强化{amount}", en: "Bolster {amount}"}
""", encoding="utf-8")
    (pack / "cards.yaml").write_text("""\
cards:
  - id: kobold_chief
    name: {zh: 狗头人首领, en: Kobold chief}
    source: approximation
    note: "A fan monster."
    card_type: monster
    points: 2
    power: 1
    count: 2
    effect: "bolster 1"
""", encoding="utf-8")
    out = tmp_path / "sheets"
    assert cli.main(["sheets", "--game", "dm_crawl_decks", "--pack", str(pack), "--lang", "en",
                     "--format", "html", "--out", str(out)]) == 0
    html = (out / "dm_crawl_decks__fan" / "keywords.en.html").read_text(encoding="utf-8")
    assert "<strong>Bolster N</strong></td><td>Pre-battle: add N to its points.</td>" in html
    assert "Kobold chief" in html.split("Bolster N")[1].split("</tr>")[0]
    assert "<strong>Loot clean-up</strong>" in html     # the base's loot_of, in the sheet's own words


def test_a_misspelt_drg_dwarf_field_is_named_with_the_known_ones(tmp_path, capsys):
    """`{dwarf: 0, helth: 3}` failed with "bad expectation: AttributeError: 'Dwarf' object has
    no attribute 'helth'"."""
    code, out = run(tmp_path, capsys, """\
game: deep_rock_galactic
name: n
setup:
  dwarves:
    - {cls: scout, at: [4, 4], health: 4}
expect:
  - {dwarf: 0, helth: 4}
""")
    assert code == 1 and "s.yaml:7: n: expect[0]: unknown key(s) ['helth'] for a 'dwarf' expectation; " \
        "known: ['actions', 'ammo', 'carried', 'dwarf', 'health', " in out, out


@pytest.mark.parametrize("game", ["the_cave", "clank_catacombs"])
def test_the_format_says_which_way_north_is(game, capsys):
    """A tile's exits (N, E, S, W) meet its neighbours' only if a tester knows which way the
    axes run; the format gave positions as [x, y] and nothing more."""
    assert cli.main(["scenario", "format", game]) == 0
    assert "a position is [x, y]: E is x + 1, N is y + 1" in capsys.readouterr().out


def test_scenario_run_pack_joins_its_own_games_scenarios_only():
    """`scenario run scen/ --pack dark_halls` over a folder holding a Clank! scenario too failed
    that one with "pack is for 'dungeontology', not 'clank_catacombs'"; `check --pack` adds a
    pack to its own game only, and so does `scenario run --pack` now."""
    from pathlib import Path

    from tomecraft.compiler.scenarios import run_file
    repo = Path(__file__).resolve().parents[1]
    clank = sorted((repo / "tests" / "scenarios" / "clank_catacombs").glob("*.yaml"))[0]
    outcome = run_file(clank, [repo / "tests" / "dungeontology" / "any_content_pack"])
    assert not outcome.failures, outcome.failures


def test_a_scenario_files_yaml_mistake_keeps_its_hint(tmp_path, capsys):
    """A newcomer's over-indented `bonfire:` in a scenario got "mapping values are not allowed
    in this context" and none of the hint `check` gives for the same mistake."""
    code, out = run(tmp_path, capsys, "game: dungeontology\nsetup:\n  players: 2\n   bonfire: 3\n")
    assert code == 1 and "s.yaml:4: s: mapping values are not allowed in this context (check the " \
        "indentation: line 4 starts at column 4, line 3 above it at column 3" in out, out
