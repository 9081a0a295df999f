"""A watch (`when C: ...`) on a main-deck card: every copy registers its effect when it is
made, wherever it lies, but it works only while the card is on the field (L274), and once.
Found by the packs blind test: a Bone Pit on the field ("as soon as the graveyard holds 3
cards, gain 2 potions") paid 6 potions, once per copy in the deck or the dungeon."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import scenarios

PACK = Path(__file__).with_name("watch_pack")

SCENARIO = """\
game: dm_crawl_decks
name: "Bone Pit on the field: 2 potions once, not once per copy"
source: "tests/dm_crawl_decks/watch_pack; rulebook L274"
packs: ["{pack}"]
setup:
  columns: [["bone_pit#B"], [goblin], []]
  graveyard: [goblin, goblin, troll]
  main_deck: ["bone_pit#B2", goblin, goblin, goblin]
  hand: []
  events_off: true
steps:
  - {{do: turn, choose: [{{do: short_rest}}]}}
  - {{do: turn, choose: [{{do: short_rest}}]}}
expect:
  - {{resources: {{potion: 2}}}}
"""


def test_a_watch_fires_once_and_only_for_the_card_on_the_field(tmp_path):
    path = tmp_path / "bone_pit.yaml"
    path.write_text(SCENARIO.format(pack=PACK), encoding="utf-8")
    outcome = scenarios.run_file(path)
    assert outcome.ok, outcome


FULL = """\
game: dm_crawl_decks
name: "Healthy Sprite: its watch holds from the start, but pays only once the card is on the field"
source: "tests/dm_crawl_decks/full_health_pack; rulebook L274"
packs: ["{pack}"]
setup:
  columns: [["healthy_sprite#S"], [goblin], []]
  main_deck: [healthy_sprite, healthy_sprite, goblin]
  hand: []
  events_off: true
steps:
  - {{do: settle}}
expect:
  - {{resources: {{potion: 1}}}}
"""


def test_a_watch_already_true_waits_for_the_card_to_be_on_the_field(tmp_path):
    """A watch whose condition holds when the card is made (every copy is made at setup,
    wherever it lies) ran at once: a new game with three Healthy Sprites (`when you.hp >= 5:
    gain potion 1`) in the deck began with 3 potions, and the one later on the field never
    paid. Like a watch that comes true later, it fires once, from the card on the field."""
    from tomecraft.compiler import diagnostics as dg
    from tomecraft.compiler.loadgen import compile_and_import
    from tomecraft.runtime.engines.dm_crawl_decks.engine import new_engine
    from tomecraft.runtime.lookahead import FirstOption
    from tomecraft.runtime.rng import Rng
    root = Path(__file__).resolve().parents[2]
    reporter = dg.Reporter()
    data = compile_and_import(root / "content/dm_crawl_decks", [PACK.with_name("full_health_pack")], reporter)
    assert not reporter.errors
    engine = new_engine(data, Rng("full"), FirstOption(), log_enabled=False)
    assert engine.state.resources["potion"] == 0
    path = tmp_path / "sprite.yaml"
    path.write_text(FULL.format(pack=PACK.with_name("full_health_pack")), encoding="utf-8")
    outcome = scenarios.run_file(path)
    assert outcome.ok, outcome
