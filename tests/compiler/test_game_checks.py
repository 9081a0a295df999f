"""Game rules checked at compile time point at the offending entity field."""
import shutil
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[2]


def _cave_copy(tmp_path: Path) -> Path:
    target = tmp_path / "the_cave"
    shutil.copytree(ROOT / "content" / "the_cave", target,
                    ignore=shutil.ignore_patterns("packs", "missions", "scenarios"))
    return target


def test_a_stack_without_twenty_tiles_is_reported_at_a_count(tmp_path):
    cave = _cave_copy(tmp_path)
    tiles = cave / "tiles.yaml"
    lines = tiles.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("count:"))
    lines[index] = lines[index].replace("count:", "count: 1 #", 1) if "#" not in lines[index] \
        else lines[index]
    tiles.write_text("\n".join(lines), encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(cave, [], reporter)
    found = [d for d in reporter.diagnostics if d.code == dg.GAME_RULE]
    assert len(found) == 1
    assert "holds" in found[0].message and "the rulebook has 20 (L37)" in found[0].message
    assert found[0].file.endswith("tiles.yaml") and found[0].line >= 1


def test_the_shipped_cave_passes_its_game_checks():
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / "content" / "the_cave", [], reporter)
    assert not [d for d in reporter.diagnostics if d.code == dg.GAME_RULE]
