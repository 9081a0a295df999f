"""Issue 10's promise for content a pack adds: each game's YAML-only "any content" pack
(tests/<game>/any_content_pack) has, for every entity it defines, a scenario that loads the pack
and plays that entity (the per-game test_players.py proves each is used in a seeded sim; these
scenarios prove each does what its text says). This test keeps the two in step: a new pack
entity without a scenario fails here, naming it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
PACKS = sorted(ROOT.glob("tests/*/any_content_pack"))


def _entities(pack: Path) -> dict[str, set[str]]:
    """{`kind:id`: the words a scenario may name it by (its id, and its `term` if it has one:
    effects and scenarios name equipment by term)} for every entity the pack defines."""
    yaml = YAML(typ="safe")
    found = {}
    for path in sorted(pack.glob("*.yaml")):
        if path.name == "pack.yaml":
            continue
        data = yaml.load(path.read_text(encoding="utf-8")) or {}
        for kind, items in data.items():
            for item in items if isinstance(items, list) else ():
                if isinstance(item, dict) and "id" in item:
                    found[f"{kind}:{item['id']}"] = {item["id"], item.get("term") or item["id"]}
    return found


def _scenarios_loading(pack: Path, game: str) -> list[str]:
    """The texts of the game's scenarios whose `packs:` include this pack."""
    texts = []
    for path in sorted((ROOT / "tests" / "scenarios" / game).glob("*.yaml")):
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
        packs = [(path.parent / p).resolve() for p in data.get("packs") or []]
        if pack.resolve() in packs:
            texts.append(path.read_text(encoding="utf-8"))
    return texts


def test_there_are_packs_to_check():
    assert len(PACKS) >= 5, [p.parent.name for p in PACKS]


def _unplayed(pack: Path) -> list[str]:
    game = pack.parent.name
    entities = _entities(pack)
    assert entities, f"{pack} defines no entity"
    texts = _scenarios_loading(pack, game)
    return [e for e, words in entities.items()
            if not any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", t)
                       for w in words for t in texts)]


@pytest.mark.parametrize("pack", PACKS,
                         ids=lambda p: p.parent.name)
def test_every_entity_of_the_any_content_pack_is_played_in_a_scenario(pack):
    missing = _unplayed(pack)
    game = pack.parent.name
    assert not missing, (f"{game}: no scenario in tests/scenarios/{game}/ loads {pack.name} "
                         f"and names {missing}")
