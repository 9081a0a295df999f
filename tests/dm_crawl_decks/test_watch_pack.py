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
