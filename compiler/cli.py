"""The `tomecraft` command line: check, build, explain, report, sim, contract, balance, scenario,
sheets, cards, new, schema.

Exit codes: 0 clean, 1 content errors (or failed scenarios), 2 usage errors (on stderr).
This is the top layer: nothing else in tomecraft imports it (compiler/console.py holds what the
stages below share with it: UsageError and progress).
"""
from __future__ import annotations

import sys

if __name__ == "__main__" and sys.argv[1:] == ["build"]:
    # `python -m tomecraft.compiler.cli build` with nothing to do answers before the command
    # line's own imports (half of a no-op build's time after Python's start)
    from tomecraft.compiler import fingerprint as _fingerprint
    _root = _fingerprint.project_root()
    _packages = _fingerprint.no_op_packages(_root, _root / "content")
    if _packages is not None:
        print(f"generated/ is up to date ({_packages} packages)", file=sys.stderr, flush=True)
        sys.exit(0)

import argparse  # noqa: E402 (after the no-op shortcut)
import json  # noqa: E402
import os  # noqa: E402
from pathlib import Path  # noqa: E402

# Only light modules at the top: `--help`, `explain` and a single-file `check` must start
# fast, so each command imports the stages it needs (jsonschema, lark, jinja2) itself.
from tomecraft.compiler import diagnostics as dg  # noqa: E402
from tomecraft.compiler import pipeline  # noqa: E402
from tomecraft.compiler.console import (  # noqa: E402
    GuardedOutput, OutputError, PACK_HELP, UsageError, pack_folder, progress, silence, tell, whole_number)

FORMATS = ["text", "json", "github", "sarif"]


# --- resolving what to work on -------------------------------------------------------------

def game_root(game: str) -> Path:
    return pipeline.game_root(game)


def resolve_packs(args, games: list[Path]) -> list[Path]:
    """`args.pack` as pack folders: each a folder that exists, else the id of a pack shipped
    with one of `games` (a usage error when neither). `args.pack` is set to them too, for the
    stages that read it (sheets, cards, balance)."""
    packs = pipeline.resolve_packs(args.pack, games)
    args.pack = [str(p) for p in packs]
    return packs


def compile_all(targets: list[pipeline.Target], reporter: dg.Reporter, timings=None,
                quiet=False):
    from tomecraft.compiler.packs import check_shipped_ids
    games = []
    for base in dict.fromkeys(t.base for t in targets if not t.packs):
        check_shipped_ids(pipeline.in_repo_packs(base), reporter)  # two packs, one id
    for target in targets:
        if not quiet:
            progress(f"checking {target.label}")
        scratch = dg.Reporter() if target.only else reporter
        told = timings or pipeline.Timings(tell=None if quiet else progress)
        game = pipeline.compile_game(target.base, target.packs, scratch, told)
        if target.only:
            pipeline.only_file(reporter, scratch, target.only)
        if game is not None:
            games.append(game)
    return games


# --- commands ------------------------------------------------------------------------------

def cmd_check(args) -> int:
    reporter = dg.Reporter()
    packs = resolve_packs(args, pipeline.game_roots())   # an id: the game that ships it
    targets, files = pipeline.check_targets(args.paths, packs, reporter)
    games = compile_all(targets, reporter, quiet=args.format != "text")
    for path in files:  # a content file outside any pack, or a mission file
        from tomecraft.compiler import missions
        missions.check_file(path, reporter, packs)
    if len(files) > 1:
        from tomecraft.compiler import missions
        missions.check_shared_ids(files, reporter)
    if not games and not files and not reporter.errors:
        reporter.add(dg.NO_CONTENT, "nothing was checked: no game content found",
                     _display_path(pipeline.content_root()), 1, 1,
                     "run from a tomecraft checkout, or name a pack, a game folder or a mission file")
    return _finish(reporter, args.format)


def _display_path(path: Path) -> str:
    from tomecraft.compiler.packs import display_path   # packs imports jsonschema and lark
    return display_path(path)


def _finish(reporter: dg.Reporter, fmt: str) -> int:
    from tomecraft.compiler import annotations
    print(annotations.FORMATTERS[fmt](reporter))
    return 1 if reporter.errors else 0


def cmd_build(args) -> int:
    if pipeline.project_root() == pipeline.installed_root() and not (
            pipeline.installed_root() / "pyproject.toml").is_file():
        raise UsageError("build writes generated/ and schemas/ of a checkout, not of the installed "
                         "tomecraft: run it in a clone (sim, scenario and sheets compile packs and "
                         "changed content in memory, no build needed)")
    if not pipeline.game_roots():
        raise UsageError(f"no games to build in {pipeline.content_root()}")
    from tomecraft.compiler import build

    def compile_pairs(pairs, extra, reporter):
        return compile_all([pipeline.Target(base, list(packs) + list(extra))
                            for base, packs in pairs], reporter)
    from tomecraft.compiler import parallel
    workers = args.workers or parallel.available_cores()
    return build.run(args.check, dg.Reporter(), progress, compile_pairs, workers)


def _workers(text: str) -> int:
    from tomecraft.compiler.parallel import MAX_WORKERS
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers from 0 "
                                         f"(every core) to {MAX_WORKERS}")
    return int(text)


def cmd_explain(args) -> int:
    text = dg.explain(args.code)
    if text is None:
        raise UsageError(f"unknown code {args.code!r}; codes: " + ", ".join(sorted(dg.CODES)))
    print(text)
    return 0


def cmd_report(args) -> int:
    from tomecraft.compiler import report
    reporter = dg.Reporter()
    roots = [game_root(args.game)] if args.game else pipeline.game_roots()
    targets = [t for root in roots for t in pipeline.with_shipped_packs(root)]
    games = compile_all(targets, reporter, quiet=True)
    if reporter.errors:
        print(dg.format_text(reporter))
        return 1
    rows = report.gaps(games)
    print(report.format_json(rows) if args.format == "json" else report.format_text(rows))
    return 0


def cmd_sim(args) -> int:
    from tomecraft.compiler import loadgen
    from tomecraft.runtime import sim
    game_root(args.game)  # a usage error unless it names a game
    if args.players is not None and args.players < 1:
        raise UsageError("--players must be at least 1")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    reporter = dg.Reporter()
    packs = resolve_packs(args, [game_root(args.game)])  # an unknown game is a usage error
    data = loadgen.game_data(args.game, packs, reporter)
    if data is None:
        print(dg.format_text(reporter))
        return 1
    options = {}
    chosen = []
    supported = getattr(sim.engine_module(data), "SIM_OPTIONS", ())
    for flag, wanted in (("mission", args.mission), ("deep_dive", args.deep_dive), ("hazard", args.hazard)):
        if wanted and flag not in supported:
            raise UsageError(f"--{flag.replace('_', '-')} is not an option of {args.game}")
    for path in args.mission:  # fans' mission files: validated here, passed to the engine as data
        from tomecraft.compiler import missions
        chosen.append(missions.load_mission(Path(path), reporter, packs))
    if reporter.errors:
        print(dg.format_text(reporter))
        return 1
    if len(chosen) > 1 and not args.deep_dive:
        raise UsageError("several --mission files are played in order with --deep-dive")
    if args.deep_dive:
        options["deep_dive"] = chosen or True
    elif chosen:
        options["mission"] = chosen[0]
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    played = packs[-1] if packs else game_root(args.game)   # where a stop outside effects is
    if args.hazard:
        return _hazard_sweep(args, data, options, sim, played)
    _check_setup(sim, data, args.players, options)
    summary = _play(args, data, options, sim, played)
    if summary is None:
        return 1
    print(json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True)
          if args.json else sim.format_summary(summary))
    return 0


def _check_setup(sim, data, players, options: dict) -> None:
    """The engine's refusal of what was asked (a player count, a Hazard level the content has
    not) is a usage error, given before any game is played."""
    try:
        sim.check_setup(data, players, options)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _play(args, data, options: dict, sim, content: Path):
    """`sim.run`'s summary, or None once an effect that stopped is printed, located (at the
    `content` folder played when no effect was running). Any other exception (a ValueError
    too: the set-up was checked before) is a bug: exit 3."""
    from tomecraft.runtime import effects
    try:
        return sim.run(data, players=args.players, games=args.games, seed=args.seed,
                       options=options, progress=None if args.json else progress,
                       usage=args.usage)
    except Exception as err:  # noqa: BLE001 - an effect's is reported, any other raised again
        if not (isinstance(err, effects.EffectError) or effects.error_origin(err) is not None):
            raise
        reporter = dg.Reporter()
        from tomecraft.compiler.packs import effect_diagnostic
        effect_diagnostic(err, reporter, content)  # content the engine refused, or a runaway
        print(dg.format_text(reporter))
        return None


def cmd_contract(args) -> int:
    from tomecraft.compiler import contract, vocabulary, loader
    root = game_root(args.game)
    reporter = dg.Reporter()
    vocab = vocabulary.build(loader.load(root / "game.yaml", reporter), reporter, "game.yaml")
    if vocab is None:    # was described as 'no contract yet', exit 0
        print(dg.format_text(reporter))
        return 1
    found = contract.load(vocab.engine)
    if found is None:
        print(f"{args.game}: its engine declares no contract yet; content is checked against "
              "the vocabulary only")
        draft = contract.load_draft(vocab.engine)
        if draft is not None:
            print("Its draft, not enforced (see the engine's contract.py for why):\n")
            print(contract.describe(draft))
        return 0
    print(contract.describe(found))
    return 0


def cmd_balance(args) -> int:
    from tomecraft.compiler.balance import command
    resolve_packs(args, [game_root(args.game)])
    return command.run(args, UsageError)


def _hazards(text: str) -> list[int]:
    """`3`, `1,3,5` or `1-5`: the Hazard levels to play."""
    levels: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            if not all(n.isascii() and n.isdigit() for n in (low, high or low)):
                raise ValueError(part)     # int() took ' 3', '3_0' and '３' (full-width) as 3
            first, last = int(low), int(high or low)
            if not (1 <= first <= last <= 5):  # before the range is built: 1-99999999999
                raise UsageError(f"Hazard levels go from 1 to 5, not {text!r}")
            levels += range(first, last + 1)
    except ValueError:
        raise UsageError(f"--hazard takes a level 1-5, a list (1,3,5) or a range (1-5), not {text!r}") from None
    return list(dict.fromkeys(levels))


def _hazard_sweep(args, data, options: dict, sim, content: Path) -> int:
    """`sim --hazard N` (one level) or a sweep (several): the summary per level, and the
    success rate of each level on one line."""
    summaries = {}
    levels = _hazards(args.hazard)
    if args.usage and len(levels) > 1 and not args.json:   # the sweep prints one line a level
        raise UsageError("--usage with --hazard takes one level (or --json for a sweep)")
    for level in levels:
        _check_setup(sim, data, args.players, {**options, "hazard": level})
    for level in levels:
        summaries[level] = _play(args, data, {**options, "hazard": level}, sim, content)
        if summaries[level] is None:
            return 1
    if args.json:
        print(json.dumps({"hazard": {str(k): v for k, v in summaries.items()}},
                         ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    if len(summaries) == 1:
        (level, summary), = summaries.items()
        print(f"hazard {level}\n" + sim.format_summary(summary))
        return 0
    first = next(iter(summaries.values()))
    print(f"{first['game']}: {args.games} games per Hazard level, {first['players']} players, seed {args.seed}")
    for level, summary in summaries.items():
        rate = summary.get("stats", {}).get("success_rate", 0.0)
        print(f"  hazard {level}: success {rate * 100:5.1f}%  mean rounds {summary['mean_rounds']}")
    return 0


def cmd_scenario(args) -> int:
    from tomecraft.compiler import scenarios
    if args.action == "format":
        if len(args.paths) != 1:
            raise UsageError("scenario format takes one game id, e.g. `tomecraft scenario format the_cave`")
        if args.pack or args.format != "text":   # silently ignored, a --pack that is not there passed
            raise UsageError("scenario format prints a game's scenario format as text: --pack and "
                             "--format are for `scenario run`")
        print(scenarios.format_text(args.paths[0], _engine_of(args.paths[0])))
        return 0
    return scenarios.run_cli(args.paths, args.format, args.pack)   # ids: by the scenarios' games


def _engine_of(game: str) -> str:
    """The engine a known game's game.yaml names (a usage error for an unknown game)."""
    from tomecraft.compiler import vocabulary, loader
    reporter = dg.Reporter()
    vocab = vocabulary.build(loader.load(game_root(game) / "game.yaml", reporter), reporter, "game.yaml")
    if vocab is None:
        raise UsageError(f"{game}: its game.yaml does not load; run `tomecraft check {game}`")
    return vocab.engine


def _write_into(out: str, write, what: str = "--out"):
    """Runs `write()`, which writes into the folder `out`: a file where the folder or one of
    its parents should be, or a folder that cannot be written (permissions, a full disk), is
    a usage error, not an internal one. `sheets`, `cards`, `schema --out` and `new` share it."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir() or any(p.exists() and not p.is_dir()
                                                     for p in folder.parents):
        raise UsageError(f"{what} {out}: a file is there, not a directory")
    try:
        return write()
    except OSError as err:
        where = f" ({err.filename})" if err.filename and str(err.filename) != str(out) else ""
        raise UsageError(f"cannot write to {what} {out}: {err.strerror}{where}") from None


BUILD_FOLDERS = ("generated", "schemas")     # `tomecraft build` writes (and replaces) them
CODE_FOLDERS = ("compiler", "dsl", "runtime", "tests", "tomecraft", "bench", "scripts")


def _printed_outside_content(args) -> None:
    """`sheets`/`cards --out`: not '' (the current folder, silently) and not inside the content
    or a --pack folder, where the printouts would land among the files they are made from, nor
    inside the project's build folders (generated/, schemas/) or tomecraft's own code."""
    if not args.out:
        raise UsageError("--out needs a folder to write into")
    packs = [p for p in args.pack if (Path(p) / "pack.yaml").is_file()]  # others: refused later
    _refuse_out_inside(args.out, [pipeline.content_root(), *packs, *_tomecraft_folders()],
                       "printouts elsewhere (the default is sheets/ or cards/)")


def _refuse_out_inside(out: str, folders: list, elsewhere: str, what: str = "--out") -> None:
    """A usage error if the folder `out` is one of `folders` or inside one."""
    resolved = Path(out).resolve()
    for folder in folders:
        root = Path(folder).resolve()
        if resolved == root or root in resolved.parents:
            raise UsageError(f"{what} {out} is inside {_display_path(Path(folder))}: write "
                             + elsewhere)


def _tomecraft_folders() -> list[Path]:
    """The folders tomecraft owns: the build's outputs of the project worked on and of
    tomecraft itself, and tomecraft's code."""
    roots = dict.fromkeys([pipeline.project_root(), pipeline.installed_root()])
    return ([root / name for root in roots for name in BUILD_FOLDERS]
            + [pipeline.installed_root() / name for name in CODE_FOLDERS])


def cmd_sheets(args) -> int:
    from tomecraft.compiler import sheets
    # an id: a pack shipped with --game; with --all or --mission, with the game that ships it
    resolve_packs(args, [game_root(args.game)] if args.game and not args.mission
                  else pipeline.game_roots())
    _printed_outside_content(args)
    return _write_into(args.out, lambda: sheets.run_cli(args))


def cmd_new(args) -> int:
    from tomecraft.compiler import scaffold
    root = game_root(args.game)
    if args.id == "":   # taken for no --id: the folder's name, silently
        raise UsageError("--id needs a pack id (or leave it out: the folder's name)")
    # `tomecraft build` replaces generated/ and schemas/: a pack started there would be lost
    _refuse_out_inside(args.dir, _tomecraft_folders(), "the pack elsewhere (a folder of your "
                       "own, or content/GAME/packs/ for a pack shipped with the game)", what="DIR")
    for path in _write_into(args.dir, lambda: scaffold.new_pack(root, Path(args.dir), args.id),
                            what="DIR"):
        progress(f"wrote {path}")
    return 0


def cmd_schema(args) -> int:
    from tomecraft.compiler import editor_schemas
    files = editor_schemas.files(game_root(args.game) if args.game else None)
    if args.out is None:
        name = args.name or "pack.schema.json"
        if name not in files:
            from tomecraft.compiler.checks import did_you_mean
            close = did_you_mean(str(name), sorted(files))
            raise UsageError(f"unknown schema {name!r}; " + (close + " " if close else "")
                             + "schemas: " + ", ".join(sorted(files)))
        print(files[name], end="")
        return 0
    if args.name is not None:   # NAME was silently ignored: every schema is written
        raise UsageError(f"schema --out writes every schema; {args.name!r} is for printing one")
    if not args.out:   # '' wrote every schema into the current folder
        raise UsageError("--out needs a folder to write into")
    # a fan's pack folder is a fine place (its files point at the copy); the build's own are not
    _refuse_out_inside(args.out, _tomecraft_folders(), "the schemas elsewhere (`tomecraft "
                       "build` writes schemas/)")
    for path in _write_into(args.out, lambda: editor_schemas.write(files, Path(args.out))):
        progress(f"wrote {path}")
    return 0


SIM_MAX_GAMES = 1_000_000   # as balance's MAX_GAMES per player count


def _count(minimum: int, maximum: int | None = None):
    """An argparse type: an integer from `minimum` to `maximum` (a usage error otherwise)."""
    def parse(text: str) -> int:
        value = whole_number(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"goes up to {maximum:,}, not {value}")
        return value
    return parse


def version() -> str:
    from importlib import metadata
    try:
        return metadata.version("tomecraft")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def cmd_cards(args) -> int:
    from tomecraft.compiler.sheets import cards
    resolve_packs(args, [game_root(args.game)])
    _printed_outside_content(args)
    return _write_into(args.out, lambda: cards.run_cli(args))


class _Version(argparse.Action):
    """--version, read from the installed metadata only when asked for (importlib.metadata
    alone costs every command 10-15 ms)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"tomecraft {version()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse whose mistakes are usage errors like ours: `error[TC-X001]`, exit 2."""

    def error(self, message: str):
        if self.prog == "tomecraft":  # the top parser: the message already starts `tomecraft:`
            if message.startswith("unrecognized arguments"):
                message += (" (an option takes one value: repeat it for more, "
                            "`--players 2 --players 3`; see `tomecraft COMMAND --help`)")
            raise UsageError(message)
        raise UsageError(f"{self.prog}: {message}")


def _print_options(command, out: str) -> None:
    """--lang, --format and --out, shared by `sheets` and `cards`."""
    command.add_argument("--lang", choices=["zh", "en"], action="append",
                         help="zh or en (repeatable; default both)")
    command.add_argument("--format", choices=["html", "pdf"], action="append",
                         help="html or pdf (repeatable; default both)")
    command.add_argument("--out", default=out, metavar="DIR",
                         help=f"the folder to write into (default {out}/)")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tomecraft", description=__doc__.split("\n\n")[0])
    p.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser("check", help="validate content, packs or a mission file")
    c.add_argument("paths", nargs="*", metavar="PATH",
                   help="content/ (default), content/<game>/, a pack folder, a file inside a "
                        "game or a pack, or a mission file")
    c.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                   help="load this pack on top of its game (repeatable); alone, checks only "
                        "the pack's game" + PACK_HELP)
    c.add_argument("--format", choices=FORMATS, default="text",
                   help="text (default), json, github (workflow annotations) or sarif")
    c.set_defaults(run=cmd_check)

    b = sub.add_parser("build", help="write generated/ and schemas/")
    b.add_argument("--check", action="store_true", help="exit 1 if generated/ is stale")
    b.add_argument("--workers", type=_workers, default=0, metavar="N",
                   help="processes to compile the base games on, side by side (default: "
                        "every core; 1: this process; Linux only; the output is the same)")
    b.set_defaults(run=cmd_build)

    e = sub.add_parser("explain", help="explain a diagnostic code")
    e.add_argument("code", metavar="CODE", help="a diagnostic code such as TC-E001")
    e.set_defaults(run=cmd_explain)

    r = sub.add_parser("report", help="reports over the content")
    r.add_argument("what", choices=["gaps"],
                   help="gaps: every fact not from the rulebook, with its note")
    r.add_argument("--game", metavar="GAME", help="only this game (default: every game)")
    r.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default) or json")
    r.set_defaults(run=cmd_report)

    s = sub.add_parser("sim", help="play many seeded games and summarise them")
    s.add_argument("game", metavar="GAME", help="the game's id, e.g. the_cave")
    s.add_argument("--players", type=_count(1), metavar="N",
                   help="players per game (default: the game's default)")
    # no upper bound played --games 1000000000 for years, the run never ending (balance's cap)
    s.add_argument("--games", type=_count(1, SIM_MAX_GAMES), default=100, metavar="N",
                   help=f"games to play (default 100, at most {SIM_MAX_GAMES:,})")
    s.add_argument("--seed", type=whole_number, default=1, metavar="S",
                   help="the seed of the first game (default 1); same seed, same games")
    s.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                   help="play with this pack (repeatable, in order)" + PACK_HELP)
    s.add_argument("--mission", action="append", default=[], metavar="FILE",
                   help="a mission file (Deep Rock Galactic); repeat it with --deep-dive")
    s.add_argument("--deep-dive", action="store_true",
                   help="Deep Rock Galactic: play the missions in order, resources carried over")
    s.add_argument("--usage", action="store_true",
                   help="count how often each entity's effects ran (played, triggered, "
                        "bought, entered, used); never-used ones are flagged")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--hazard", metavar="N", help="Deep Rock Galactic: the Hazard level (1-5), or a sweep "
                   "(1-5, 1,3,5): the success rate per level")
    s.set_defaults(run=cmd_sim)

    ct = sub.add_parser("contract", help="what a game's engine does with content: events, "
                        "fields, constructs and needs")
    ct.add_argument("game", help="the game id, e.g. the_cave")
    ct.set_defaults(run=cmd_contract)
    b = sub.add_parser("balance", help="compare the base game with packs over paired seeded games")
    from tomecraft.compiler.balance.command import add_arguments as balance_arguments
    balance_arguments(b)
    b.set_defaults(run=cmd_balance)

    sc = sub.add_parser("scenario", help="run scenario files, or print a game's scenario format")
    sc.add_argument("action", choices=["run", "format"],
                    help="run: play the scenarios and compare; format: print the keys a game's "
                         "scenario files may use")
    sc.add_argument("paths", nargs="+", metavar="PATH",
                    help="scenario files or folders of them (run), or one game id (format)")
    sc.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                    help="load this pack too, after the scenario's own `packs:` (repeatable)"
                         + PACK_HELP)
    sc.add_argument("--format", choices=["text", "json"], default="text",
                    help="text (default) or json")
    sc.set_defaults(run=cmd_scenario)

    sh = sub.add_parser("sheets", help="write printable reference sheets")
    sh.add_argument("--game", metavar="GAME", help="the game whose sheets to write")
    sh.add_argument("--mission", metavar="FILE", help="a mission file: write its briefing")
    _print_options(sh, "sheets")
    sh.add_argument("--all", action="store_true",
                    help="every game and shipped pack, both languages and formats")
    sh.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                    help="add a pack (repeatable)" + PACK_HELP)
    sh.add_argument("--edition", choices=["player", "designer"], default="player",
                    help="player (default): rules and references; designer adds the sources "
                         "table and developer notes")
    sh.set_defaults(run=cmd_sheets)

    cd = sub.add_parser("cards", help="print-and-play cards, tokens and monsters at real size")
    cd.add_argument("--game", required=True, metavar="GAME", help="the game whose cards to lay out")
    cd.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                    help="add a pack (repeatable)" + PACK_HELP)
    _print_options(cd, "cards")
    cd.set_defaults(run=cmd_cards)

    n = sub.add_parser("new", help="start a pack: pack.yaml and one example entity per kind")
    n.add_argument("what", choices=["pack"], help="pack: a new pack folder")
    n.add_argument("game", metavar="GAME", help="the game the pack is for, e.g. the_cave")
    n.add_argument("dir", metavar="DIR", help="the pack's folder (created; must be empty)")
    n.add_argument("--id", help="the pack's id (default: the folder's name)")
    n.set_defaults(run=cmd_new)

    sm = sub.add_parser("schema", help="print or write the JSON Schemas editors validate with")
    sm.add_argument("name", nargs="?", metavar="NAME",
                    help="the schema to print (default pack.schema.json; see --out for all)")
    sm.add_argument("--game", metavar="GAME", help="only this game's schemas (default: all)")
    sm.add_argument("--out", metavar="DIR", help="write every schema into DIR instead")
    sm.set_defaults(run=cmd_schema)
    return p


def _usage_error(err: UsageError) -> None:
    """One line on stderr: a newline in a path the user gave (--pack 'x\nerror[...]') is
    shown escaped, never as a forged line of its own."""
    tell(dg.one_line(f"tomecraft: error[{dg.USAGE}]: {err}"))


def main(argv: list[str] | None = None) -> int:
    if (sys.argv[1:] if argv is None else argv) == ["build"]:
        from tomecraft.compiler import build  # nothing changed since the last build: stop here
        if build.up_to_date(progress):
            return 0
    _unencodable_escaped()
    stdout = sys.stdout
    sys.stdout = GuardedOutput(stdout)
    try:
        code = _main(argv)
        sys.stdout.flush()
        if code == 130 and argv is None:
            _end_interrupted_process()
        return code
    except OutputError as err:
        silence(stdout)
        tell(f"tomecraft: error[{dg.USAGE}]: cannot write the output: {err}")
        return 2
    finally:
        sys.stdout = stdout


def _unencodable_escaped() -> None:
    """Text the terminal's encoding cannot show (a pack's Chinese names on an ASCII or cp1252
    console, PYTHONIOENCODING=ascii) is written escaped, \\u7532, as stderr does by default:
    it was a UnicodeEncodeError, an internal error, in `check`, `report gaps`..."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8":
                stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):   # not a text stream we may change
            pass


def _end_interrupted_process() -> None:
    """Ctrl-C ended a command run as a process: leave now, skipping the interpreter's exit.
    Its exit joins the threads a process pool leaves behind, and CPython 3.11's pool can
    leave one stuck for good after its workers were ended mid-message (the run then hangs
    after printing "interrupted"), or race it while it closes its pipes (a stray OSError
    traceback after the message). Everything this process wrote is flushed first; callers
    of main() with an argv (tests, the Python API) get the 130 back instead."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)


def _main(argv: list[str] | None) -> int:
    try:
        args = parser().parse_args(argv)
    except UsageError as err:
        _usage_error(err)
        return 2
    except OSError as err:   # an option's type looked the path up (--pack): the same answer
        if not _bad_path(err):
            raise
        _usage_error(UsageError(f"{err.filename}: {err.strerror}"))
        return 2
    try:
        return args.run(args)
    except (UsageError, KeyboardInterrupt, BrokenPipeError, OutputError) as err:
        return _expected(err)
    except Exception as err:  # a bug in tomecraft, never the user's content
        if _bad_path(err):   # a path argument the system refuses to look up: the user's
            _usage_error(UsageError(f"{err.filename}: {err.strerror}"))
            return 2
        if os.environ.get("TOMECRAFT_DEBUG"):
            raise
        tell(dg.escape_controls(f"tomecraft: internal error: {type(err).__name__}: {err}") + "\n"
             "  this is a bug in tomecraft; rerun with TOMECRAFT_DEBUG=1 for details")
        return 3


def _bad_path(err: BaseException) -> bool:
    """Whether `err` is the system refusing a path as named (`check a/a/.../a` past PATH_MAX:
    Path.exists() raises ENAMETOOLONG; a symlink loop: ELOOP), wherever a command meets it."""
    import errno
    return isinstance(err, OSError) and err.errno in (errno.ENAMETOOLONG, errno.ELOOP) \
        and err.filename is not None


def _expected(err: BaseException) -> int:
    """The exit code (and stderr line) of an ending that is not a bug."""
    if isinstance(err, OutputError):
        raise err                       # main() answers it, once stdout is set aside
    if isinstance(err, UsageError):
        _usage_error(err)
        return 2
    if isinstance(err, KeyboardInterrupt):
        tell("tomecraft: interrupted")
        return 130
    return 0                            # BrokenPipeError: the reader has stopped


if __name__ == "__main__":
    # run the imported module, not __main__: modules that raise compiler.cli.UsageError
    # must meet the class main() catches
    from tomecraft.compiler import cli as _cli
    sys.exit(_cli.main())
