"""Every engine's layout (issue 10 item 7): its modules import one another one way only (no
cycle: the turn structure on top, state and geometry at the bottom), no import hides inside a function to dodge a cycle, and no module is much over 500
lines."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "runtime" / "engines"
PACKAGES = sorted(p.parent for p in ENGINES.glob("*/engine.py"))


def _imports(path: Path, prefix: str) -> tuple[set[str], list[int]]:
    """The package's modules `path` imports at the top, and the lines of imports elsewhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top, nested = set(), []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
        if isinstance(node, ast.ImportFrom) and node.module == prefix:
            names = [f"{prefix}.{a.name}" for a in node.names]
        ours = {n.removeprefix(prefix + ".") for n in names if n.startswith(prefix + ".")}
        if node in tree.body:
            top |= ours
        elif ours or node.col_offset:
            nested.append(node.lineno)
    return top, nested


def test_every_engine_is_checked():
    assert {p.name for p in PACKAGES} >= {"the_cave", "clank_catacombs", "dm_crawl_decks",
                                          "deep_rock_galactic", "dungeontology"}


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_modules_import_one_another_one_way(package):
    prefix = f"tomecraft.runtime.engines.{package.name}"
    graph = {p.stem: _imports(p, prefix)[0] for p in package.glob("*.py") if p.stem != "__init__"}
    done, path = set(), []

    def visit(module: str) -> None:
        assert module not in path, f"import cycle: {' -> '.join(path + [module])}"
        if module in done:
            return
        path.append(module)
        for other in sorted(graph.get(module, ())):
            visit(other)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_inside_a_function_and_no_file_much_over_500_lines(package):
    prefix = f"tomecraft.runtime.engines.{package.name}"
    for path in sorted(package.glob("*.py")):
        assert _imports(path, prefix)[1] == [], f"{path.name}: imports inside functions"
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 520, path.name
