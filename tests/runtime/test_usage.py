"""`sim --usage`: how often each entity's effects ran, per seat, with never-used ones flagged."""
from __future__ import annotations

import json

from tomecraft.generated.clank_catacombs__tomb_party import GAME as PARTY
from tomecraft.generated.the_cave import GAME as CAVE
from tomecraft.runtime import sim, usage


def test_usage_is_an_addition_that_changes_no_figure_of_the_summary():
    plain = sim.run(CAVE, games=4, seed=2)
    counted = sim.run(CAVE, games=4, seed=2, usage=True)
    assert {k: v for k, v in counted.items() if k != "usage"} == plain
    assert counted == sim.run(CAVE, games=4, seed=2, usage=True)        # deterministic


def test_usage_counts_every_run_of_an_effect_and_flags_the_unused():
    summary = sim.run(PARTY, players=5, games=6, seed=3, usage=True)["usage"]
    entities = summary["entities"]
    assert entities["card:burgle"]["uses"] > 0 and entities["card:burgle"]["games"] == 6
    assert entities["market_item:cloak_of_invisibility"]["pack"] == "tomb_party"
    assert set(summary["never_used"]) == {k for k, e in entities.items()
                                          if e["tracked"] and e["uses"] == 0}
    assert "component:dragon_cubes" in summary["untracked"]          # no effect to count


def test_the_wrappers_exist_only_while_counting():
    card = CAVE.get("action", "discover")
    before = card.effect
    with usage.track(CAVE) as tracker:
        assert card.effect is not before and card.effect.can is before.can
        assert "action:discover" in tracker.tracked
    assert card.effect is before


def test_sim_usage_on_the_command_line_in_text_and_json(run_cli):
    args = ["sim", "the_cave", "--games", "3", "--usage"]
    code, out, _ = run_cli(*args)
    assert code == 0 and "usage (entities with an effect" in out
    assert "warning: never used" in out or "never used" not in out
    data = json.loads(run_cli(*args, "--json")[1])
    assert data["usage"]["entities"]["action:discover"]["uses"] > 0


def test_a_passive_ability_is_used_only_when_its_trigger_runs(tmp_path):
    """Deep Rock Galactic holds a passive ability by running its effect at setup: that run
    only registers its triggers. `sim --usage` counted it as a use, so a passive whose
    trigger never ran was reported used in every game (sixteenth packs blind round)."""
    import yaml

    from tomecraft.compiler.api import load_game
    from tomecraft.compiler.pipeline import content_root

    classes = yaml.safe_load((content_root() / "deep_rock_galactic" / "dwarves.yaml")
                             .read_text(encoding="utf-8"))["dwarves"]
    gunner = {k: v for k, v in next(c for c in classes if c["id"] == "gunner").items()
              if k != "ref"}
    gunner.update(replace=True, source="approximation", note="a fan's omen")
    pack = tmp_path / "omens"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: omens\ngame: deep_rock_galactic\nversion: '1.0'\n",
                                    encoding="utf-8")
    for name, when in (("never", "hazard_level() >= 6"), ("always", "hazard_level() >= 1")):
        gunner["abilities"] = [*gunner["abilities"][:2], {
            "id": "omen", "name": {"zh": "预兆", "en": "Omen"}, "passive": True,
            "effect": f"on turn_start where {when}: gain nitra 1"}]
        (pack / "dwarves.yaml").write_text(yaml.safe_dump({"dwarves": [gunner]}, allow_unicode=True),
                                           encoding="utf-8")
        found = sim.run(load_game("deep_rock_galactic", [pack]), players=4, games=2, seed=1,
                        usage=True)["usage"]["entities"]["dwarf:gunner"]
        assert (found["uses"] == 0) == (name == "never"), (name, found)


def test_a_region_is_used_only_when_its_trigger_runs(tmp_path):
    """Dungeontology collects a region's triggers by running its effects (at every step, for
    every region around): `sim --usage` counted each collection as a use, so a region whose
    trigger never ran was reported used (sixteenth packs blind round)."""
    from tomecraft.compiler.api import load_game

    for name, when in (("never", "students_owned() >= 99"), ("always", "students_owned() >= 0")):
        pack = _arena_pack(tmp_path, f"on enter_region where {when}: gain_students 1")
        found = sim.run(load_game("dungeontology", [pack]), games=20, seed=1,
                        usage=True)["usage"]["entities"]["region:arena_of_dancing_blades"]
        assert (found["uses"] == 0) == (name == "never"), (name, found)


def test_a_region_entry_trigger_counts_once_per_entry(tmp_path):
    """Listing a scholar's moves dry-runs each reachable region's entry triggers (can a
    scholar enter it?): `sim --usage` counted those trials, about three times the entries,
    and a region only ever looked at was reported used (sixteenth packs blind round)."""
    from tomecraft.compiler.api import load_game
    from tomecraft.runtime.usage import track

    data = load_game("dungeontology", [_arena_pack(tmp_path, "on enter_region: gain_students 1")])
    uses = entries = 0
    with track(data) as tracker:
        for index in range(12):
            result = sim.play_one(data, 4, 1, index, usage=tracker)
            uses += sum(result["usage"].get("region:arena_of_dancing_blades", {}).values())
            entries += result["stats"].get("entered:arena_of_dancing_blades", 0)
    assert entries > 0 and uses == entries


def _arena_pack(tmp_path, effect: str):
    """A Dungeontology pack replacing the Arena of Dancing Blades with one `effect`."""
    pack = tmp_path / "arena"
    pack.mkdir(exist_ok=True)
    (pack / "pack.yaml").write_text("id: arena\ngame: dungeontology\nversion: '1.0'\n",
                                    encoding="utf-8")
    (pack / "regions.yaml").write_text(
        "regions:\n  - id: arena_of_dancing_blades\n    replace: true\n"
        "    name: {zh: 舞刃竞技场, en: Arena of Dancing Blades}\n"
        "    source: approximation\n    note: a fan's arena\n"
        "    number: I-6\n    level: 1\n    alert: 2\n"
        "    slots: [military, military, civilization]\n    passages: NES\n"
        f"    effects: [\"{effect}\"]\n", encoding="utf-8")
    return pack
