"""Collect scenario files (tests/scenarios/**/*.yaml) as pytest items, one per file."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

# Python processes the tests start (the CLI in another process, xdist's workers) share one
# bytecode cache, as an installed package has its .pyc files: where the environment turns
# bytecode off (PYTHONDONTWRITEBYTECODE), each of them would compile tomecraft's source and
# the generated modules again (0.2-0.3 s a process). Python checks each .pyc against its
# source, so the cache is never stale.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    os.environ.setdefault("PYTHONPYCACHEPREFIX",
                          os.path.join(tempfile.gettempdir(), f"tomecraft-tests-pycache-{os.getuid()}"))
    # and this process too (a run without xdist): pytest writes its rewritten test modules
    # only where bytecode is written, and rewrote all of them on every run (4.3 s, 1.5 s after)
    sys.dont_write_bytecode = False
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


# --- garbage collection --------------------------------------------------------------------------

def pytest_collection_finish(session):
    """The collected tests (some 4,900 items with their modules and parameters) are frozen out
    of the cyclic collector, and its first generation waits for 10,000 new objects, not 700:
    the suite's objects are short-lived and mostly freed by reference counting, and the
    collector's passes over the long-lived ones were 6-7 % of a worker's CPU (measured with
    gc.callbacks over the DRG, removal and hostile tests: 3.1 s of 47, 0.95 s after). Only
    this process (a worker, or the whole run without xdist); the processes tests start keep
    Python's defaults."""
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)



@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """Once the tests are done, what they left (compiled games, sims, caches) is frozen and the
    collector turned off: a worker's last collections over it, slower on a busy machine, held
    it past the time execnet gives a worker to end, which then interrupts it (every run ended
    with two KeyboardInterrupt warnings raised in Hypothesis' gc callback). A process exits
    here: nothing of it needs collecting."""
    import gc
    gc.disable()
    gc.freeze()

# --- pytest-xdist: the tests that share a module's fixture run on one worker --------------------

def pytest_configure(config):
    """`-n N` alone distributes with xdist's `load`, which splits a module's tests between
    the workers: each worker then computes the module's fixtures (a sim the module's tests
    share would be played once per worker). `loadgroup` keeps the tests marked below on one
    worker and spreads the others; an explicit `--dist` still wins. Set here rather than in
    addopts so that pytest runs without pytest-xdist installed."""
    if hasattr(config, "workerinput"):               # a worker: xdist set it from its own args
        config.option.loadgroup = config.workerinput.get("tomecraft_loadgroup", False)
        return
    args = config.invocation_params.args
    explicit = any(a in ("--dist", "-d") or a.startswith("--dist=") for a in args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each worker that the controller groups (workers parse the command line again)."""
    node.workerinput["tomecraft_loadgroup"] = node.config.option.dist == "loadgroup"


@pytest.hookimpl(tryfirst=True)   # before xdist reads the marks (it renames the grouped items)
def pytest_collection_modifyitems(config, items):
    """The tests of a module that use a fixture shared by the module go to one xdist worker
    (an xdist_group mark, which `loadgroup` honours). A session-scoped fixture defined in the
    test module itself counts (test_from_outside's wheel); conftest's session fixtures do not
    (shared_cli shares across workers itself)."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        module = item.nodeid.split("::")[0]
        if any(_shared_by_module(defs[-1], module) for defs in info.name2fixturedefs.values() if defs):
            item.add_marker(pytest.mark.xdist_group(module))


def _shared_by_module(fixture, module: str) -> bool:
    return fixture.scope in ("module", "class", "package") or (
        fixture.scope == "session" and fixture.baseid == module)


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    pass


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from tomecraft.compiler import scenarios
        outcome = scenarios.run_file(self.path)
        if not outcome.ok:
            raise ScenarioFailed("\n".join(f"{outcome.file}:{line}: {message}"
                                           for line, message in outcome.failures))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return f"scenario failed:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"


# --- the command line -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run `tomecraft ARGS` in this process, from the repository root, as `main(argv)`.

    A new Python process costs 0.3-0.5 s before the command starts; use a subprocess only
    where the test needs one (another hash seed, another working directory, the console
    script). Returns run(*args) -> (returncode, stdout, stderr).
    """
    from tomecraft.compiler import cli
    monkeypatch.chdir(ROOT)

    def run(*args) -> tuple[int, str, str]:
        code = cli.main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err
    return run


# --- expensive commands, run once per test session -------------------------------------------


@pytest.fixture(scope="session")
def shared_cli(tmp_path_factory):
    """Run `python -m tomecraft.compiler.cli ARGS` once per session, across pytest-xdist workers.

    Several tests check the same long command (a 200-game sim is both a README example and
    a determinism test): the first test to ask runs it, the others read its recorded result.
    Workers share the session's base temporary folder, and a file lock makes the others wait.
    Returns run(*args) -> (returncode, stdout, stderr); run(*args, merged=True) gives stderr
    merged into stdout, unbuffered (the interleaving a terminal shows), and "" for stderr.
    """
    import fcntl
    import hashlib
    import json
    import os
    import subprocess
    import sys

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the folder every worker's own temporary folder is in
    folder = base / "shared-cli"
    folder.mkdir(exist_ok=True)

    def run(*args: str, merged: bool = False) -> tuple[int, str, str]:
        key = hashlib.sha256("\0".join(("merged",) * merged + args).encode()).hexdigest()[:16]
        record = folder / f"{key}.json"
        with open(folder / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not record.exists():
                streams = (dict(stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"))
                           if merged else dict(capture_output=True))
                proc = subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *args], cwd=ROOT,
                                      text=True, timeout=600, **streams)
                record.write_text(json.dumps([proc.returncode, proc.stdout, proc.stderr or ""]))
            return tuple(json.loads(record.read_text()))
    return run
