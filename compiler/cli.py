"""The `tomecraft` command line: check, build, sim, scenario, sheets, report, explain.

Exit codes: 0 clean, 1 content errors (or failed scenarios), 2 usage errors.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from compiler import build as build_mod
from compiler import diagnostics as dg
from compiler import pipeline


UsageError = dg.UsageError  # one class, also when this module runs as __main__


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    print(dg.escape_controls(message), file=sys.stderr, flush=True)  # names can be hostile


# --- resolving what to work on -------------------------------------------------------------

def game_root(game: str) -> Path:
    """The content folder of a game named by its id (never a path: `../x`, `/etc`)."""
    from compiler import names
    if not names.is_identifier(game):
        known = ", ".join(p.name for p in pipeline.game_roots()) or "none"
        raise UsageError(f"{game!r} is not a game id (games: {known})")
    root = pipeline.content_root() / game
    if not (root / "game.yaml").is_file():
        known = ", ".join(p.name for p in pipeline.game_roots()) or "none"
        raise UsageError(f"unknown game {game!r} (games: {known})")
    return root


def _targets(paths: list[str]) -> list[tuple[Path, list[Path]]]:
    """(base pack, extra packs) for each path given to `check`."""
    if not paths:
        paths = [str(pipeline.content_root())]
    targets = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"no such file or directory: {raw}")
        if (path / "game.yaml").is_file():
            targets.append((path, []))
            targets.extend((path, [pack]) for pack in pipeline.in_repo_packs(path))
        elif path.is_dir() and list(path.glob("*/game.yaml")):
            for root in pipeline.game_roots(path):
                targets.append((root, []))
                targets.extend((root, [pack]) for pack in pipeline.in_repo_packs(root))
        elif (path / "pack.yaml").is_file():
            targets.append(("pack", [path]))
        else:
            targets.append(("file", [path]))
    return targets


def _pack_base(pack: Path, reporter: dg.Reporter) -> Path | None:
    from compiler import loader
    doc = loader.load(pack / "pack.yaml", reporter)
    if doc is None or not isinstance(doc.data, dict) or "game" not in doc.data:
        return None
    root = pipeline.content_root() / str(doc.data["game"])
    return root if (root / "game.yaml").is_file() else None


def compile_all(targets, extra: list[Path], reporter: dg.Reporter, timings=None, quiet=False):
    from compiler.packs import check_shipped_ids
    games = []
    cache: dict = {}
    for base in dict.fromkeys(b for b, _ in targets if isinstance(b, Path)):
        check_shipped_ids(pipeline.in_repo_packs(base), reporter)
    for base, packs in targets:
        if base == "pack":
            base = _pack_base(packs[0], reporter)
            if base is None:
                continue
        elif base == "file":
            from compiler import missions  # a single content or mission file
            missions.check_file(packs[0], reporter)
            continue
        name = base.name + "".join(f" + {p.name}" for p in packs + extra)
        if not quiet:
            progress(f"checking {name}")
        game = pipeline.compile_game(base, packs + extra, reporter, timings, cache)
        if game is not None:
            games.append(game)
    return games


# --- commands ------------------------------------------------------------------------------

def cmd_check(args) -> int:
    reporter = dg.Reporter()
    compile_all(_targets(args.paths), [Path(p) for p in args.pack], reporter,
                quiet=args.format == "json")
    return _finish(reporter, args.format)


def _finish(reporter: dg.Reporter, fmt: str) -> int:
    if fmt == "json":
        print(dg.format_json(reporter))
    else:
        print(dg.format_text(reporter))
    return 1 if reporter.errors else 0


def cmd_build(args) -> int:
    reporter = dg.Reporter()
    start = time.perf_counter()
    targets = [(root, packs) for root in pipeline.game_roots()
               for packs in [[]] + [[p] for p in pipeline.in_repo_packs(root)]]
    games = compile_all(targets, [], reporter)
    if reporter.errors:
        print(dg.format_text(reporter))
        progress("build stopped: fix the errors above; generated/ was left as it was")
        return 1
    expected = build_mod.outputs(games)
    if args.check:
        problems = build_mod.stale(expected)
        for name in problems:
            reporter.add(dg.STALE, f"{name} is stale", name, 1, 1, "run `tomecraft build`")
        if problems:
            print(dg.format_text(reporter))
            return 1
        progress(f"generated/ is fresh ({len(games)} packages)")
        return 0
    build_mod.write(expected)
    count = sum(len(files) for files in expected.values())
    progress(f"wrote {count} files for {len(games)} packages in {time.perf_counter() - start:.2f}s")
    if reporter.warnings:
        print(dg.format_text(reporter))
    return 0


def cmd_explain(args) -> int:
    text = dg.explain(args.code)
    if text is None:
        raise UsageError(f"unknown code {args.code!r}; codes: " + ", ".join(sorted(dg.CODES)))
    print(text)
    return 0


def cmd_report(args) -> int:
    from compiler import report
    reporter = dg.Reporter()
    roots = [game_root(args.game)] if args.game else pipeline.game_roots()
    targets = [(root, packs) for root in roots
               for packs in [[]] + [[p] for p in pipeline.in_repo_packs(root)]]
    games = compile_all(targets, [], reporter, quiet=True)
    if reporter.errors:
        print(dg.format_text(reporter))
        return 1
    rows = report.gaps(games)
    print(report.format_json(rows) if args.format == "json" else report.format_text(rows))
    return 0


def cmd_sim(args) -> int:
    from compiler import loadgen
    from runtime import effects, sim
    game_root(args.game)  # a usage error unless it names a game
    if args.players is not None and args.players < 1:
        raise UsageError("--players must be at least 1")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    reporter = dg.Reporter()
    data = loadgen.game_data(args.game, [Path(p) for p in args.pack], reporter)
    if data is None:
        print(dg.format_text(reporter))
        return 1
    options = {}
    chosen = []
    supported = getattr(sim.engine_module(data), "SIM_OPTIONS", ())
    for flag, wanted in (("mission", args.mission), ("deep_dive", args.deep_dive)):
        if wanted and flag not in supported:
            raise UsageError(f"--{flag.replace('_', '-')} is not an option of {args.game}")
    for path in args.mission:  # fans' mission files: validated here, passed to the engine as data
        from compiler import missions
        chosen.append(missions.load_mission(Path(path), reporter))
    if reporter.errors:
        print(dg.format_text(reporter))
        return 1
    if len(chosen) > 1 and not args.deep_dive:
        raise UsageError("several --mission files are played in order with --deep-dive")
    if args.deep_dive:
        options["deep_dive"] = chosen or True
    elif chosen:
        options["mission"] = chosen[0]
    try:
        summary = sim.run(data, players=args.players, games=args.games, seed=args.seed,
                          options=options, progress=None if args.json else progress)
    except Exception as err:  # noqa: BLE001 - sorted below
        if isinstance(err, effects.EffectError) or effects.error_origin(err) is not None:
            _effect_diagnostic(err, reporter)  # content the engine refused, or a runaway
            print(dg.format_text(reporter))
            return 1
        if isinstance(err, ValueError):  # the engine refuses the set-up (players, options)
            raise UsageError(str(err)) from None
        raise  # not from an effect: a bug in tomecraft (exit 3)
    print(json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True)
          if args.json else sim.format_summary(summary))
    return 0


def _effect_diagnostic(err, reporter: dg.Reporter) -> None:
    """An effect stopped at run time, reported at the effect's YAML file and line."""
    from runtime import effects
    origin = effects.error_origin(err) or "?:1"
    file, _, line = origin.rpartition(":")
    runaway = isinstance(err, effects.RunawayEffect)
    message = str(err) if isinstance(err, effects.EffectError) else \
        f"the engine could not play this effect: {type(err).__name__}: {err}"
    reporter.add(dg.STEP_BUDGET if runaway else dg.GAME_RULE, message, file or "?",
                 int(line) if line.isdigit() else 1, 1,
                 "bound the loop or the triggers it sets off" if runaway
                 else "the engine cannot play this effect as written")


def cmd_scenario(args) -> int:
    from compiler import scenarios
    return scenarios.run_cli(args.paths, args.format)


def cmd_sheets(args) -> int:
    from compiler import sheets
    out = Path(args.out)
    if out.exists() and not out.is_dir() or any(p.exists() and not p.is_dir()
                                                  for p in out.parents):
        raise UsageError(f"--out {args.out}: not a directory")
    try:
        return sheets.run_cli(args)
    except OSError as err:  # --out cannot be written (permissions, a full disk)
        raise UsageError(f"cannot write to --out {args.out}: {err.strerror}") from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tomecraft", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="validate content, packs or a mission file")
    c.add_argument("paths", nargs="*", help="content/, content/<game>/, a pack or a file")
    c.add_argument("--pack", action="append", default=[], help="add a pack directory")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.set_defaults(run=cmd_check)

    b = sub.add_parser("build", help="write generated/ and schemas/")
    b.add_argument("--check", action="store_true", help="exit 1 if generated/ is stale")
    b.set_defaults(run=cmd_build)

    e = sub.add_parser("explain", help="explain a diagnostic code")
    e.add_argument("code")
    e.set_defaults(run=cmd_explain)

    r = sub.add_parser("report", help="reports over the content")
    r.add_argument("what", choices=["gaps"])
    r.add_argument("--game")
    r.add_argument("--format", choices=["text", "json"], default="text")
    r.set_defaults(run=cmd_report)

    s = sub.add_parser("sim", help="play many seeded games and summarise them")
    s.add_argument("game")
    s.add_argument("--players", type=int)
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--pack", action="append", default=[])
    s.add_argument("--mission", action="append", default=[],
                   help="a mission file (Deep Rock Galactic); repeat it with --deep-dive")
    s.add_argument("--deep-dive", action="store_true",
                   help="Deep Rock Galactic: play the missions in order, resources carried over")
    s.add_argument("--json", action="store_true")
    s.set_defaults(run=cmd_sim)

    sc = sub.add_parser("scenario", help="run scenario files")
    sc.add_argument("action", choices=["run"])
    sc.add_argument("paths", nargs="+")
    sc.add_argument("--format", choices=["text", "json"], default="text")
    sc.set_defaults(run=cmd_scenario)

    sh = sub.add_parser("sheets", help="write printable reference sheets")
    sh.add_argument("--game")
    sh.add_argument("--mission", help="a mission file: write its briefing")
    sh.add_argument("--lang", choices=["zh", "en"], action="append")
    sh.add_argument("--format", choices=["html", "pdf"], action="append")
    sh.add_argument("--out", default="sheets")
    sh.add_argument("--all", action="store_true", help="every game, both languages and formats")
    sh.set_defaults(run=cmd_sheets)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except UsageError as err:
        print(dg.escape_controls(f"tomecraft: error[{dg.USAGE}]: {err}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tomecraft: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # a bug in tomecraft, never the user's content
        if os.environ.get("TOMECRAFT_DEBUG"):
            raise
        print(dg.escape_controls(f"tomecraft: internal error: {type(err).__name__}: {err}") + "\n"
              "  this is a bug in tomecraft; rerun with TOMECRAFT_DEBUG=1 for details",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
