"""The Cave's engine layout (issue 10 item 7): modules import one another one way only, no
import hides inside a function to dodge a cycle, and no module is much over 500 lines."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "runtime" / "engines" / "the_cave"
PREFIX = "tomecraft.runtime.engines.the_cave"


def _imports(path: Path) -> tuple[set[str], list[int]]:
    """The package's modules `path` imports at the top, and the lines of imports elsewhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top, nested = set(), []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
        if isinstance(node, ast.ImportFrom) and node.module == PREFIX:
            names = [f"{PREFIX}.{a.name}" for a in node.names]
        ours = {n.removeprefix(PREFIX + ".") for n in names if n.startswith(PREFIX + ".")}
        if node in tree.body:
            top |= ours
        elif ours or node.col_offset:
            nested.append(node.lineno)
    return top, nested


def test_the_modules_import_one_another_one_way():
    graph = {p.stem: _imports(p)[0] for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
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
    assert "engine" not in graph["handlers"] | graph["policy"] | graph["rules"]


def test_no_import_inside_a_function_and_no_file_much_over_500_lines():
    for path in sorted(PACKAGE.glob("*.py")):
        assert _imports(path)[1] == [], f"{path.name}: imports inside functions"
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 520, path.name
