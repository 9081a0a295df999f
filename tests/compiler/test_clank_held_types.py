"""Clank!'s `has_token(T)` holds only while a player holds something of type T (a token of that
token_type, or the market item `crown`): a pack taking the last of them away leaves what asks
for it never true, and check says so at the pack's `remove` entry (sixteenth packs blind round:
removing the Crown checked clean and the Prince's 5 points were never scored)."""

from __future__ import annotations

import json

from tomecraft.compiler import cli


def _check(capsys, *argv) -> tuple[int, list[dict]]:
    code = cli.main(["check", *map(str, argv), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["diagnostics"]


def _pack(tmp_path, removals: str):
    folder = tmp_path / "no_crowns"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "id: no_crowns\ngame: clank_catacombs\nversion: '1.0'\nremove:\n" + removals,
        encoding="utf-8")
    return folder


def test_removing_the_crown_warns_at_the_removal_that_the_prince_never_scores(tmp_path, capsys):
    folder = _pack(tmp_path, "  - {kind: market_item, id: crown}\n")
    code, found = _check(capsys, folder)
    hits = [d for d in found if "has_token(crown)" in d["message"]]
    assert code == 0 and len(hits) == 1
    assert hits[0]["code"] == "TC-G002" and hits[0]["file"].endswith("pack.yaml") \
        and hits[0]["line"] == 5 and "prince" in hits[0]["message"]


def test_the_game_and_its_shipped_pack_hold_every_type_they_ask_for(capsys):
    for argv in (["content/clank_catacombs"], ["--pack", "tomb_party", "content/clank_catacombs"]):
        _, found = _check(capsys, *argv)
        assert not [d for d in found if "has_token(" in d["message"]]
