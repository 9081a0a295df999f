"""A pack that only removes base entities and so breaks a rulebook count (a Cave stack of 20, a
Clank! deck of 100, 22 depth tiles) is told so at its own `remove` entry: it was told at a base
tile's line in content/, and checking its own pack.yaml said nothing (sixteenth packs blind
round)."""

from __future__ import annotations

import json

import pytest

from tomecraft.compiler import cli

CASES = [
    ("the_cave", "tile", "s1_normal_ns", "stack 1 holds 18 tiles"),
    ("clank_catacombs", "tile", "depths_01", "21 depth tiles"),
    ("clank_catacombs", "card", "wishing_well", "the dungeon deck holds 97 cards"),
]


@pytest.mark.parametrize("game,kind,entity,said", CASES)
def test_a_count_broken_by_a_removal_is_said_at_the_removal(tmp_path, capsys, game, kind,
                                                            entity, said):
    folder = tmp_path / "fewer"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        f"id: fewer\ngame: {game}\nversion: '1.0'\nremove:\n  - {{kind: {kind}, id: {entity}}}\n",
        encoding="utf-8")
    for target in (folder, folder / "pack.yaml"):      # the pack, and its pack.yaml alone
        code = cli.main(["check", str(target), "--format", "json"])
        found = json.loads(capsys.readouterr().out)["diagnostics"]
        hits = [d for d in found if said in d["message"]]
        assert code == 1 and len(hits) == 1, found
        assert hits[0]["file"].endswith("fewer/pack.yaml") and hits[0]["line"] == 5
