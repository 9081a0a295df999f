"""Code generation: deterministic, traceable to the YAML, safe against hostile text, atomic."""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tomecraft.compiler import cli, codegen, pipeline
from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import schemas

REPO = Path(__file__).resolve().parents[2]
GAME = "the_cave"


def copy_repo(dest: Path) -> Path:
    """content/the_cave (the other games are edited concurrently) in a fresh directory."""
    shutil.copytree(REPO / "content" / GAME, dest / "content" / GAME,
                    ignore=shutil.ignore_patterns("__pycache__", "packs"))
    return dest


def tree(root: Path) -> dict[str, bytes]:
    out = {}
    for sub in ("generated", "schemas"):
        for path in sorted((root / sub).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def build_in(root: Path, monkeypatch, capsys, *extra: str) -> int:
    monkeypatch.chdir(root)
    code = cli.main(["build", *extra])
    capsys.readouterr()
    return code


def compile_game(root: Path, packs=()) -> tuple:
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, list(packs), reporter)
    return game, reporter


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = copy_repo(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def generated(repo):
    game, reporter = compile_game(Path("content") / GAME)
    assert reporter.errors == 0, dg.format_text(reporter)
    return game, codegen.generate(game)


# --- determinism ---------------------------------------------------------------------------

def test_two_builds_are_byte_identical(tmp_path, monkeypatch, capsys):
    a, b = copy_repo(tmp_path / "a"), copy_repo(tmp_path / "b")
    assert build_in(a, monkeypatch, capsys) == 0
    assert build_in(b, monkeypatch, capsys) == 0
    first = tree(a)
    assert first == tree(b)
    assert f"generated/{GAME}/effects.py" in first
    assert build_in(a, monkeypatch, capsys) == 0  # a rebuild changes nothing
    assert tree(a) == first


def test_output_does_not_depend_on_hash_seed(tmp_path):
    trees = []
    for seed in ("0", "12345"):
        root = copy_repo(tmp_path / f"seed{seed}")
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO))  # this checkout
        proc = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", "build"], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        trees.append(tree(root))
    assert trees[0] == trees[1] and trees[0]


def test_header_has_input_hash_and_do_not_edit(generated):
    game, files = generated
    digest = codegen.input_hash(game)
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    for name, text in files.items():
        head = "\n".join(text.split("\n")[:3])
        assert "DO NOT EDIT" in head, name
        assert digest in head, name
    assert f"input_hash={digest!r}" in files["__init__.py"]


def test_input_hash_follows_the_content(repo):
    game, _ = compile_game(Path("content") / GAME)
    before = codegen.input_hash(game)
    path = repo / "content" / GAME / "tile_kinds.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    game, _ = compile_game(Path("content") / GAME)
    assert codegen.input_hash(game) != before


def test_every_definition_names_its_yaml_line(generated, repo):
    game, files = generated
    lines = files["definitions.py"].split("\n")
    definitions = [i for i, line in enumerate(lines) if re.match(r"[A-Z_0-9]+ = [A-Z]\w*\($", line)]
    assert len(definitions) == sum(len(t) for t in game.entities.values()) > 0
    for i in definitions:
        comment = re.fullmatch(r"# (content/[^:]+):(\d+)", lines[i - 1])
        assert comment, lines[i - 1:i + 1]
        source = (repo / comment[1]).read_text(encoding="utf-8").split("\n")
        entity_id = re.search(r"id='([^']+)'", lines[i + 1])[1]
        assert re.search(rf"\bid: {entity_id}\b", source[int(comment[2]) - 1]), (comment[0], entity_id)


def _effects_namespace(files: dict[str, str]) -> dict:
    namespace: dict = {}
    exec(compile(files["effects.py"], "effects.py", "exec"), namespace)  # noqa: S102 - our output
    return namespace


def _source_of(files: dict[str, str], name: str) -> str:
    text = files["effects.py"]
    start = text.index(f"def {name}(")
    end = text.find("\ndef ", start + 1)
    return text[start:end]


class _Boom:
    def __getattr__(self, name):
        raise RuntimeError(f"engine exploded in {name}")


def test_exception_in_effect_names_the_yaml_line(generated, repo):
    game, files = generated
    namespace = _effects_namespace(files)
    functions = {k: v for k, v in namespace.items()
                 if k.startswith(("fx_", "kw_")) and callable(v)}
    assert functions
    sources = namespace["SOURCES"]  # the table the notes come from: one origin per function
    assert set(sources) == set(functions)
    tile_effects = 0
    for name, fn in sorted(functions.items()):
        origin = sources[name]
        path, line = origin.rsplit(":", 1)
        ctx = SimpleNamespace(verbs=_Boom(), queries=_Boom(), you=None, self=None)
        extra = fn.__code__.co_argcount - 1  # keyword parameters
        with pytest.raises(Exception) as info:
            fn(ctx, *[None] * extra)
        notes = getattr(info.value, "__notes__", [])
        # one note per level, innermost first: the keyword it called, then the effect itself
        keywords = {f"in effect from {sources[k]}" for k in functions
                    if k.startswith("kw_") and f"kw_{k[3:]}(" in _source_of(files, name)}
        assert notes and notes[-1] == f"in effect from {origin}", name
        assert set(notes[:-1]) <= keywords, name
        source_line = (repo / path).read_text(encoding="utf-8").split("\n")[int(line) - 1]
        field = "effect" if name.startswith("kw_") else name.rsplit("__", 1)[1]
        assert f"{field}:" in source_line, (name, source_line)
        tile_effects += path == f"content/{GAME}/tile_kinds.yaml"
    assert tile_effects > 0
    water = functions.get("fx_tile_kind__water__enter__0__effect")
    if water is not None:
        text = (repo / "content" / GAME / "tile_kinds.yaml").read_text(encoding="utf-8").split("\n")
        start = next(i for i, t in enumerate(text) if re.search(r"id: water\b", t))
        line = next(i for i in range(start, len(text)) if "effect:" in text[i]) + 1
        with pytest.raises(Exception) as info:  # `pay` is inlined: ctx.you.ap fails first
            water(SimpleNamespace(verbs=_Boom(), queries=_Boom()))
        assert info.value.__notes__ == [f"in effect from content/{GAME}/tile_kinds.yaml:{line}"]


# --- hostile content -----------------------------------------------------------------------

HOSTILE = [
    'a"""b', "it's", "two\nlines", "\nimport os\nos.system('echo pwned')\n", "{{ 7*7 }}",
    '"""\nimport os\n"""', "\\", "'''; import sys; '''", "{% raw %}x{% endraw %}", "\r\nimport os",
    "\u2028import os", "# comment\nimport os",
]


def _hostile_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "hostile"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: hostile\ngame: {GAME}\nversion: '1'\n", encoding="utf-8")
    entities = []
    for i, text in enumerate(HOSTILE):
        entities.append({
            "id": f"hostile_{i}", "name": {"zh": text, "en": text}, "source": "approximation",
            "note": text, "approximations": {"enter": text},
            "enter": [{"id": "walk", "name": {"zh": text, "en": text}, "effect": "pay ap 1"}],
            "discover_from": True})
    import json
    # JSON is YAML: every string is written escaped, so the file itself is well formed
    (pack / "hostile.yaml").write_text(json.dumps({"tile_kinds": entities}, ensure_ascii=False),
                                       encoding="utf-8")
    return pack


def _shape(files: dict[str, str]) -> tuple[set, set, set]:
    imports, calls, names = set(), set(), set()
    for name, text in files.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imports.add(ast.dump(node))
            elif isinstance(node, ast.Call):
                calls.add(ast.unparse(node.func))
            elif isinstance(node, ast.Name):
                names.add(node.id)
    return imports, calls, names


def test_hostile_strings_only_become_literals(repo, tmp_path, generated):
    _, plain = generated
    pack = _hostile_pack(tmp_path)
    game, reporter = compile_game(Path("content") / GAME, [pack])
    assert reporter.errors == 0, dg.format_text(reporter)
    files = codegen.generate(game)
    for text in files.values():
        compile(text, "generated.py", "exec")
    imports, calls, names = _shape(files)
    base_imports, base_calls, base_names = _shape(plain)
    assert imports == base_imports
    assert calls <= base_calls | {"TileKind"}
    hostile = {f"TILE_KIND__HOSTILE_{i}" for i in range(len(HOSTILE))}
    # each effect function is also named once more in `fx.can = can_fx` (ids are validated)
    hostile |= {f"{prefix}fx_tile_kind__hostile_{i}__enter__0__effect"
                for i in range(len(HOSTILE)) for prefix in ("", "can_")}
    assert names <= base_names | {"TileKind"} | hostile
    assert "os" not in names and "sys" not in names
    constants = set()
    for text in files.values():
        constants.update(n.value for n in ast.walk(ast.parse(text))
                         if isinstance(n, ast.Constant) and isinstance(n.value, str))
    for text in HOSTILE:
        assert text in constants, text


def test_hostile_game_name_stays_out_of_code(repo):
    path = repo / "content" / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    evil = '"Cave\\"\\"\\"\\nimport os\\nos.system(1)\\n\\"\\"\\"\\\\"'
    text = re.sub(r"^name: .*$", lambda m: f"name: {{zh: {evil}, en: {evil}}}", text, count=1,
                  flags=re.M)
    path.write_text(text, encoding="utf-8")
    game, reporter = compile_game(Path("content") / GAME)
    assert reporter.errors == 0, dg.format_text(reporter)
    _, calls, names = _shape(codegen.generate(game))
    assert "os" not in names and "os.system" not in calls


def test_non_finite_numbers_are_literals():
    assert eval(codegen._literal(float("inf"), {}, ())) == float("inf")  # noqa: S307
    assert eval(codegen._literal(float("-inf"), {}, ())) == float("-inf")  # noqa: S307
    nan = eval(codegen._literal(float("nan"), {}, ()))  # noqa: S307
    assert nan != nan
    assert codegen._literal({"class": 1, "a b": '"""'}, {}, ()) == \
        "Record(**{'class': 1, 'a b': '\"\"\"'})"


@pytest.mark.parametrize("bad_id", ["Bad", "1abc", "a-b", "a b", "__import__('os')", "ä", ""])
def test_identifier_like_ids_are_refused_by_the_schema(repo, tmp_path, bad_id):
    pack = tmp_path / "badid"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: badid\ngame: {GAME}\nversion: '1'\n", encoding="utf-8")
    import json
    entity = {"id": bad_id, "name": {"zh": "x", "en": "x"}, "source": "rulebook", "ref": "L1",
              "enter": [{"id": "walk", "effect": "pay ap 1"}], "discover_from": True}
    (pack / "bad.yaml").write_text(json.dumps({"tile_kinds": [entity]}), encoding="utf-8")
    game, reporter = compile_game(Path("content") / GAME, [pack])
    assert [(d.code, d.line) for d in reporter.diagnostics] == [(dg.SCHEMA, 1)]
    assert all(e.id != bad_id for e in game.entities.get("tile_kind", {}).values())
    assert re.match(schemas.ID_PATTERN, "ok_id") and not re.match(schemas.ID_PATTERN, bad_id)


def test_ident_refuses_python_keywords():
    for bad in ("class", "None", "import", "x-y", "X"):
        with pytest.raises(ValueError):
            codegen.ident(bad)


# --- build --check -------------------------------------------------------------------------

def test_build_check_detects_staleness(repo, monkeypatch, capsys):
    assert build_in(repo, monkeypatch, capsys) == 0
    assert build_in(repo, monkeypatch, capsys, "--check") == 0
    effects = repo / "generated" / GAME / "effects.py"
    effects.write_text(effects.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert build_in(repo, monkeypatch, capsys, "--check") == 1
    assert build_in(repo, monkeypatch, capsys) == 0
    assert build_in(repo, monkeypatch, capsys, "--check") == 0
    (repo / "generated" / GAME / "extra.py").write_text("x = 1\n", encoding="utf-8")
    assert build_in(repo, monkeypatch, capsys, "--check") == 1
    assert build_in(repo, monkeypatch, capsys) == 0
    assert not (repo / "generated" / GAME / "extra.py").exists()
    assert build_in(repo, monkeypatch, capsys, "--check") == 0
    (repo / "generated" / "stray.py").write_text("x = 1\n", encoding="utf-8")
    assert build_in(repo, monkeypatch, capsys, "--check") == 1
    assert build_in(repo, monkeypatch, capsys) == 0
    assert build_in(repo, monkeypatch, capsys, "--check") == 0
    content = repo / "content" / GAME / "tile_kinds.yaml"
    content.write_text(content.read_text(encoding="utf-8").replace('"pay ap 2"', '"pay ap 3"'),
                       encoding="utf-8")
    assert build_in(repo, monkeypatch, capsys, "--check") == 1
    assert build_in(repo, monkeypatch, capsys) == 0
    assert build_in(repo, monkeypatch, capsys, "--check") == 0


def test_build_check_reports_stale_files(repo, monkeypatch, capsys):
    assert build_in(repo, monkeypatch, capsys) == 0
    (repo / "generated" / GAME / "definitions.py").unlink()
    monkeypatch.chdir(repo)
    assert cli.main(["build", "--check"]) == 1
    out = capsys.readouterr().out
    assert f"generated/{GAME}/definitions.py" in out and dg.STALE in out


# --- atomicity -----------------------------------------------------------------------------

def _change_content(repo: Path) -> None:
    path = repo / "content" / GAME / "tile_kinds.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")


def test_failure_in_codegen_leaves_generated_intact(repo, monkeypatch, capsys):
    assert build_in(repo, monkeypatch, capsys) == 0
    before = tree(repo)
    _change_content(repo)

    def explode(game):
        raise RuntimeError("codegen blew up")
    monkeypatch.setattr(codegen, "generate", explode)
    assert build_in(repo, monkeypatch, capsys) == 3
    assert tree(repo) == before
    assert not [p for p in (repo / "generated").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("fail_after", [0, 1, 3, 5])
def test_failure_while_writing_leaves_generated_intact(repo, monkeypatch, capsys, fail_after):
    assert build_in(repo, monkeypatch, capsys) == 0
    before = tree(repo)
    _change_content(repo)
    real = Path.write_bytes
    calls = {"n": 0}

    def flaky(self, data):
        calls["n"] += 1
        if calls["n"] > fail_after:
            raise OSError(28, "No space left on device")
        return real(self, data)
    monkeypatch.setattr(Path, "write_bytes", flaky)
    assert build_in(repo, monkeypatch, capsys) == 3
    monkeypatch.setattr(Path, "write_bytes", real)
    generated_before = {k: v for k, v in before.items() if k.startswith("generated/")}
    generated_after = {k: v for k, v in tree(repo).items() if k.startswith("generated/")}
    assert generated_after == generated_before
    leftovers = [p for d in ("generated", "schemas") for p in (repo / d).iterdir()
                 if p.name.startswith(".")]
    assert leftovers == []
    assert build_in(repo, monkeypatch, capsys) == 0
    assert build_in(repo, monkeypatch, capsys, "--check") == 0
