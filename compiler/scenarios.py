"""`tomecraft scenario run PATH...`: load scenario YAML with positions, run it, report.

A scenario names its game; the engine (runtime.engines.<engine>.run_scenario) returns
failures prefixed with the path of the failing entry ("expect[2]: ..."), mapped here to the
file and line of that entry.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loader, loadgen, packs as packs_mod
from tomecraft.compiler.console import UsageError

_PATH = re.compile(r"^(setup|steps|expect)(?:\[(\d+)\])?: ")
# a setup failure may name the entry inside setup ("setup.teams[0].backpack: ...", or
# "players[0].hand: ..." for a key of setup): its line
_SETUP_PATH = re.compile(r"\bsetup((?:\.\w+|\[\d+\])+)")
_SETUP_ENTRY = re.compile(r"(?<![\w.])([a-z_]\w*)(\[\d+\](?:\.[A-Za-z_]\w*|\[\d+\])*)")
_PATH_PART = re.compile(r"\.(\w+)|\[(\d+)\]")
_SETUP_LEAD = re.compile(r"([a-z_]\w*)(?: (\w+))?[: ]")


@dataclass
class Outcome:
    file: str
    name: str
    failures: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


MAX_DIR_DEPTH = 16      # the same input limits as a pack's (compiler/packs.py)
MAX_FILES = 2000


def scenario_files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(_yaml_below(path))
        else:
            found.append(path)
    return found


def _yaml_below(root: Path) -> list[Path]:
    """The YAML files below `root` (`loader.is_yaml_name`), sorted: an iterative walk that
    follows no link and stops at MAX_DIR_DEPTH levels and MAX_FILES files (a symlinked file is
    kept: the loader refuses it with a diagnostic)."""
    found: list[Path] = []
    stack = [(root, 0)]
    while stack and len(found) < MAX_FILES:
        here, depth = stack.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if depth < MAX_DIR_DEPTH:
                    stack.append((here / entry.name, depth + 1))
            elif loader.is_yaml_name(entry.name):
                found.append(here / entry.name)
    return sorted(found[:MAX_FILES])


def run_file(path: Path, extra_packs: list[Path] = ()) -> Outcome:
    """Run one scenario; `extra_packs` (`scenario run --pack`) load after the scenario's own."""
    reporter = dg.Reporter()
    shown = str(path)
    if not path.is_file() and not path.is_symlink():
        return Outcome(shown, path.stem, [(1, "no such file")])
    doc = loader.load(path, reporter, shown)
    if doc is None or reporter.errors or not isinstance(doc.data, dict):
        msgs = [(d.line, d.message + (f" ({d.hint})" if d.hint else ""))
                for d in reporter.diagnostics] if hasattr(reporter, "diagnostics") else []
        return Outcome(shown, path.stem, msgs or [(1, _not_a_mapping(doc))])
    data = doc.data
    name = str(data.get("name", path.stem))
    game = data.get("game")
    if not isinstance(game, str):
        return Outcome(shown, name, [(doc.mark(()).line, "the scenario needs `game: <id>`")])
    problem = _shape_problem(data)
    if problem is not None:
        where, message = problem
        return Outcome(shown, name, [(doc.mark(where).line, message)])
    # `packs: [path, ...]`: packs the scenario needs, relative to the scenario file, or the
    # ids of packs shipped with its game
    packs = data.get("packs") or []
    if not isinstance(packs, list) or not all(isinstance(p, str) for p in packs):
        return Outcome(shown, name, [(doc.mark(("packs",)).line,
                                      "`packs` must be a list of pack directories or shipped pack ids")])
    try:
        pack_dirs = [_scenario_pack(path.parent, p, game).resolve() for p in packs]
    except UsageError as err:
        return Outcome(shown, name, [(doc.mark(("packs",)).line, str(err))])
    pack_dirs += [p.resolve() for p in _of_game(extra_packs, game) if p.resolve() not in pack_dirs]
    missing = [p for p in pack_dirs if not (p / "pack.yaml").is_file()]
    if missing:
        return Outcome(shown, name, [(doc.mark(("packs",)).line, f"no pack at {missing[0]}")])
    game_data = loadgen.game_data(game, pack_dirs, reporter)
    if game_data is None:
        return Outcome(shown, name, _load_failures(doc, game, bool(packs), reporter))
    from tomecraft.runtime import effects, scenario as runner
    effects.new_game()  # each scenario has its own step budget
    try:
        failures = runner.run(game_data, data)
    except effects.EffectError as err:  # content the engine refused, or a runaway effect
        where = effects.error_origin(err)
        where = where and packs_mod.display_origin(where)
        failures = [f"{dg.STEP_BUDGET if isinstance(err, effects.RunawayEffect) else 'effect'}"
                    f" error: {err}" + (f" (in effect from {where})" if where else "")]
    except Exception as err:  # an engine bug must not hide the other scenarios
        failures = [f"internal error: {type(err).__name__}: {err}"]
    outcome = Outcome(shown, name)
    if not failures and _checks_nothing(data):
        outcome.failures.append((doc.mark(("expect",) if "expect" in data else ()).line,
                                 _checks_nothing(data)))
    for failure in failures:
        outcome.failures.append((doc.mark(_failure_path(failure, data.get("setup") or {})).line, failure))
    return outcome


def _checks_nothing(data: dict) -> str | None:
    """Why a scenario that played cleanly would pass whatever the game did, else None: it has
    no expectation and no step that must be refused (`expect: []`, or no `expect:` at all,
    printed `ok`). Checked after the run, so a setup the runner refuses still fails first."""
    refusal = any(step.get("illegal") is True or step.get("fails") is True
                  for step in data.get("steps") or [])
    if data.get("expect") or refusal:
        return None
    return ("the scenario checks nothing: give `expect: [...]` (what the position must be "
            "after the steps) or a step that must be refused (`illegal: true` / `fails: true`)")


def _not_a_mapping(doc) -> str:
    """Why a file that loaded is no scenario: empty, or a list or a text where the mapping of
    FRAME_KEYS is wanted."""
    data = None if doc is None else doc.data
    found = "the file is empty" if data is None else f"the file holds a {type(data).__name__}"
    found = found.replace("a str", "a text")
    return (f"{found}: a scenario is a YAML mapping of {', '.join(FRAME_KEYS)} "
            "(`tomecraft scenario format GAME` prints them)")


def _scenario_pack(folder: Path, given: str, game: str) -> Path:
    """A `packs:` entry: a folder relative to the scenario file's, else the id of a pack shipped
    with the scenario's game (pipeline.resolve_pack; a UsageError when neither)."""
    from tomecraft.compiler import pipeline
    try:
        games = [pipeline.game_root(game)]
    except UsageError:   # an unknown game: said at `game:` when the game is loaded
        games = []
    return pipeline.resolve_pack(given, games, relative_to=folder)


def _played_games(files: list[Path]) -> list[Path]:
    """content/<game>/ of each known game the scenario files play (the games a `--pack` id is
    looked up in)."""
    from tomecraft.compiler import pipeline
    known = {root.name: root for root in pipeline.game_roots()}
    played = []
    for path in files:
        doc = loader.load(path, dg.Reporter(), str(path))   # memoized: run_file reads it free
        game = doc.data.get("game") if doc is not None and isinstance(doc.data, dict) else None
        if isinstance(game, str) and game in known and known[game] not in played:
            played.append(known[game])
    return played


def _check_packs_are_played(extra_packs: list[Path], files: list[Path]) -> None:
    """A `--pack` for a game none of the scenarios plays joins none of them: a usage error,
    as `check --pack` refuses a pack for a game none of its paths checks (a run that passed
    without the pack would say nothing of it)."""
    from tomecraft.compiler.console import UsageError
    played = set()
    for path in files:
        doc = loader.load(path, dg.Reporter(), str(path))   # memoized: run_file reads it free
        if doc is not None and isinstance(doc.data, dict):
            played.add(doc.data.get("game"))
    for pack in extra_packs:
        game = _pack_game(pack)
        if game is not None and game not in played:
            raise UsageError(f"pack {pack.name!r} is for {game!r}, which none of the "
                             f"scenarios plays (they play {', '.join(sorted(map(str, played)))})")


def _of_game(extra_packs, game: str) -> list[Path]:
    """The `--pack` packs for `game`: as for `check --pack`, a pack joins its own game's
    scenarios only, so one run over several games' scenarios may name each game's packs. A
    pack whose pack.yaml cannot be read is kept: loading it says what is wrong."""
    return [pack for pack in extra_packs if _pack_game(pack) in (None, game)]


def _pack_game(pack: Path) -> str | None:
    """The game a pack's pack.yaml names, None when it cannot be read (the load says why)."""
    from tomecraft.compiler.packs import read_manifest
    manifest = read_manifest(pack, dg.Reporter()) if (pack / "pack.yaml").is_file() else None
    return None if manifest is None else manifest[1]


def _load_failures(doc, game: str, has_packs: bool, reporter: dg.Reporter) -> list[tuple[int, str]]:
    """Why the game (with the scenario's packs) did not load: an unknown game at the `game:`
    line, with the games there are; a pack's problem at the `packs:` line, naming its own file,
    line and column (its line is not the scenario's)."""
    errors = [d for d in reporter.diagnostics if d.severity == dg.ERROR]
    if errors and errors[0].code == dg.USAGE:
        return [(doc.mark(("game",)).line, f"{errors[0].message} ({errors[0].hint})")]
    line = doc.mark(("packs",) if has_packs else ("game",)).line
    return [(line, f"{d.file}:{d.line}:{d.column}: {d.code}: {d.message}"
             + (f" ({d.hint})" if d.hint else "")) for d in errors] \
        or [(line, f"cannot load game {game!r}")]


def _failure_path(failure: str, setup: dict) -> tuple:
    """The document path a runner's failure names: "expect[2]: ..." is expect entry 2; a setup
    failure that names an entry inside setup ("setup: setup.teams[0]: unknown key", or
    "players[0].hand: no card" for a key the setup has) is that entry, else setup itself (a
    path the file lacks resolves to its nearest ancestor)."""
    match = _PATH.match(failure)
    if not match:
        return ()
    key = (match.group(1),) + ((int(match.group(2)),) if match.group(2) else ())
    if key != ("setup",):
        # "steps[2]: steps[2].to: a position ...": the key inside the entry, at its line
        inner = re.compile(re.escape(f"{key[0]}[{key[1]}]") + r"((?:\.[A-Za-z_]\w*|\[\d+\])+)")
        found = inner.search(failure, match.end()) if len(key) == 2 else None
        return key + (_parts(found.group(1)) if found else ())
    inner = _SETUP_PATH.search(failure, match.end())
    if inner:
        return key + _as_written(_parts(inner.group(1)), setup)
    entry = next((m for m in _SETUP_ENTRY.finditer(failure, match.end()) if m.group(1) in setup), None)
    if entry:
        return key + (entry.group(1),) + _parts(entry.group(2))
    # "setup: exits 4: ..." names an entry of a mapping of setup by its own key, no brackets
    lead = _SETUP_LEAD.match(failure, match.end())
    inner = setup.get(lead.group(1)) if lead else None
    sub = [k for k in inner if str(k) == lead.group(2)] if isinstance(inner, dict) else []
    if sub:
        return key + (lead.group(1), sub[0])
    # "setup: threat 99: ..." or "setup: supply_pod: [0, 4] ...": that key's own line
    return key + ((lead.group(1),) if lead and lead.group(1) in setup else ())


def _as_written(path: tuple, data) -> tuple:
    """`path` with each name that stands for a mapping's number key as the key is written
    (`setup.stacks.2[0]`: the level-2 stack, key 2 in the YAML, not "2"), as far as `data`
    has it; the rest as it is."""
    out = []
    for step in path:
        if isinstance(data, dict):
            step = next((k for k in data if str(k) == str(step)), step)
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            data = None
        out.append(step)
    return tuple(out)


def _parts(path: str) -> tuple:
    """(".teams", "[0]", ".backpack") of a written path as ("teams", 0, "backpack")."""
    return tuple(name or int(index) for name, index in _PATH_PART.findall(path))


# A scenario sets up a position by hand: the shipped ones count to 125. A count of 10**8 in a
# backpack made the engine build that many items (a hang); a seed may be any integer.
MAX_SCENARIO_INT = 10_000


def _shape_problem(data: dict) -> tuple[tuple, str] | None:
    """(path, why) if the scenario's frame is not what every runner reads: `setup` a mapping,
    `steps` and `expect` lists of mappings, numbers of a size a board could hold. Engines
    read their own keys inside; a step that is a number used to end in an internal error."""
    unknown = [key for key in data if key not in FRAME_KEYS]
    if unknown:
        from tomecraft.compiler.checks import did_you_mean
        key = unknown[0]
        hint = did_you_mean(str(key), FRAME_KEYS)
        return (key,), (f"unknown key {key!r}{': ' + hint if hint else ''} (a scenario file holds "
                         + ", ".join(FRAME_KEYS) + ")")
    if not isinstance(data.get("setup", {}), dict):
        return ("setup",), "`setup` must be a mapping"
    for key in ("steps", "expect"):
        entries = data.get(key)
        if entries is None:                  # `steps:` with no value: none
            continue
        if not isinstance(entries, list):    # `steps: 0` passed as none, then crashed a runner
            return (key,), f"`{key}` must be a list of mappings"
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                return (key, i), f"{key}[{i}] must be a mapping, not {entry!r:.40}"
            # every runner reads these as true or false: `illegal: "no"` expected a refusal
            for flag in ("illegal", "fails"):
                if key == "steps" and flag in entry and not isinstance(entry[flag], bool):
                    return (key, i, flag), f"{key}[{i}] {flag}: true or false, not {entry[flag]!r:.40}"
    for path, number in _numbers(data, ()):
        if abs(number) > MAX_SCENARIO_INT and path[-1:] != ("seed",):
            return path, f"{number:,} is beyond a scenario's limit of {MAX_SCENARIO_INT:,}"
    return None


def _numbers(value, path: tuple):
    """(path, integer) of every integer in a loaded YAML document (the loader bounds its
    depth), booleans aside."""
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            yield path, value
        elif isinstance(value, dict):
            stack.extend((v, path + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(value))


FRAME_KEYS = ("game", "name", "source", "packs", "setup", "steps", "expect")
FRAME = """\
Every scenario file is a YAML mapping:
  game: GAME
  name: "what the scenario shows"   (shown by `scenario run`; default: the file name)
  source: "rulebook L120-124"        (where the rule is written; not read by play)
  packs: [../my_pack]                (optional: pack folders, relative to the file)
  setup: {...}                       (a mapping: the position before the steps)
  steps: [{do: ...}, ...]            (a list of mappings, played in order)
  expect: [{...}, ...]               (a list of mappings, each checked after the steps)
A scenario with no expectation and no step that must be refused checks nothing: it fails.
Integers stay within LIMIT (seeds aside). A key the game does not know, a step it cannot
play or an expectation it cannot read is a failure with its line, never a pass; so are an
expectation that checks nothing ({team: 0} alone, an empty `stats: {}`), a name the game does
not have (`tokens: {photoo: 0}`) and a step after the game has ended. (In The Cave, Clank!
and Dungeontology an empty mapping of what a team, a player or the bag holds, `tokens: {}`,
says it holds none.)
"""


def format_text(game: str, engine: str) -> str:
    """`tomecraft scenario format GAME`: the frame every file shares, then the keys the game's
    scenario runner reads (its module docstring, the one place they are written)."""
    import importlib
    from tomecraft.runtime import scenario as runners, scenario_shapes
    runner = importlib.import_module(f"tomecraft.runtime.engines.{engine}.scenario")
    return (FRAME.replace("GAME", game).replace("LIMIT", f"{MAX_SCENARIO_INT:,}")
            + "\n" + (runner.__doc__ or "").strip() + "\n\n"
            + scenario_shapes.described(runners.shapes_of(runner)) + "\n")


def run_cli(paths: list[str], fmt: str = "text", packs: list[str] = ()) -> int:
    from tomecraft.compiler.console import UsageError
    missing = [raw for raw in paths if not Path(raw).exists()]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    files = scenario_files(paths)
    if not files:
        raise UsageError("no scenario files (*.yaml, *.yml) in " + ", ".join(paths))
    from tomecraft.compiler import pipeline
    packs = pipeline.resolve_packs(packs, _played_games(files))   # an id: shipped with a game played
    _check_packs_are_played(packs, files)
    outcomes = [run_file(p, packs) for p in files]
    if fmt == "json":
        print(dg.json_controls(json.dumps(
            [{"file": o.file, "name": o.name, "ok": o.ok,
              "failures": [{"line": l, "message": m} for l, m in o.failures]}
             for o in outcomes], ensure_ascii=False, indent=2)))
    else:
        for o in outcomes:  # names and messages may quote content: never raw escapes, and
            if o.ok:        # one line each (a name holding "\nok    ..." forged a verdict)
                print(dg.one_line(f"ok    {o.file}: {o.name}"))
            for line, message in o.failures:
                print(dg.one_line(f"FAIL  {o.file}:{line}: {o.name}: {message}"))
        failed = sum(not o.ok for o in outcomes)
        print(f"{len(outcomes) - failed} passed, {failed} failed")
    return 0 if all(o.ok for o in outcomes) else 1
