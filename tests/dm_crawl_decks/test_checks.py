"""Crawl Decks compile-time rules (compiler/game_checks/dm_crawl_decks.py)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check(tmp_path: Path, edit) -> subprocess.CompletedProcess:
    game = tmp_path / "dm_crawl_decks"
    shutil.copytree(ROOT / "content" / "dm_crawl_decks", game)
    path, old, new = edit
    text = (game / path).read_text(encoding="utf-8")
    assert old in text
    (game / path).write_text(text.replace(old, new, 1), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "check", str(game)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_the_shipped_content_is_clean():
    out = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "check", "content/dm_crawl_decks"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "0 errors" in out.stdout


@pytest.mark.parametrize("edit,message", [
    (("relics.yaml", 'use: "pay ammo 1 ->', 'use: "pay gold 1 ->'), "labelled 'ammo' consumes ammo"),
    (("relics.yaml", "    identity: true\n", ""), "0 relics are marked identity"),
    (("relics.yaml", "    window: action\n    use: \"turn_sideways -> draw_main 1\"",
      "    window: action\n    use: \"draw_main 1\""), "turns sideways when used"),
    (("events.yaml", "resource: gold, count: 3", "resource: food, count: 3"), "no loot card turns into gold"),
])
def test_broken_content_is_reported(tmp_path, edit, message):
    out = check(tmp_path, edit)
    assert out.returncode == 1 and "TC-G" in out.stdout and message in out.stdout, out.stdout
