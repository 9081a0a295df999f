"""The `tomecraft balance` command: options, checks of what the user asked, output."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.console import PACK_HELP, pack_folder, progress, tell, whole_number, write_atomic


MAX_GAMES = 1_000_000  # per player count: 10**12 ended in a MemoryError (an internal error)


def add_arguments(b) -> None:
    b.add_argument("game", help="the game id, e.g. clank_catacombs")
    b.add_argument("--pack", action="append", default=[], metavar="PACK", type=pack_folder,
                   help="a pack to compare against the base game (repeatable)" + PACK_HELP)
    b.add_argument("--games", type=whole_number, default=200,
                   help="paired games per player count (default 200)")
    b.add_argument("--players", action="append", type=whole_number, default=[], metavar="N",
                   help="a player count (repeatable; default: the game's default)")
    b.add_argument("--seed", type=whole_number, default=1, help="the run's seed (default 1)")
    b.add_argument("--workers", type=whole_number, default=0,
                   help="processes to play on (default: every core; 1: this process)")
    b.add_argument("--dask", metavar="ADDRESS",
                   help="play on a Dask distributed cluster: a scheduler address "
                        "(tcp://host:8786), or 'local' for a local cluster of --workers "
                        "processes (needs the `distributed` extra)")
    b.add_argument("--until-significant", action="store_true",
                   help="double the games until every difference is settled "
                        "(significant, or within ±2 points / ±2%%) or --max-games is reached")
    b.add_argument("--max-games", type=whole_number, default=0,
                   help="the cap for --until-significant (default 8 x --games, at most "
                        f"{MAX_GAMES:,})")
    b.add_argument("--json", action="store_true", help="print the report (with every game's "
                   "record) as JSON")
    b.add_argument("--html", metavar="FILE", help="also write the report as an HTML page with plots")
    b.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args, usage_error) -> int:
    from tomecraft.compiler import balance, loadgen, parallel, pipeline
    from tomecraft.compiler.balance import report as report_mod
    from tomecraft.runtime import sim
    pipeline.game_root(args.game)   # an unknown game is a usage error (exit 2), as for `sim`
    if args.games < 1:
        raise usage_error("--games must be at least 1")
    if not 0 <= args.workers <= parallel.MAX_WORKERS:   # 1000 forked 1000 processes at once
        raise usage_error(f"--workers goes from 0 (every core) to {parallel.MAX_WORKERS}, "
                          f"not {args.workers}")
    for option, games in (("--games", args.games), ("--max-games", args.max_games)):
        if games > MAX_GAMES or games < 0:   # every game's index and record is kept in memory
            raise usage_error(f"{option} goes up to {MAX_GAMES:,} paired games, not {games}")
    if args.max_games and not args.until_significant:   # was silently ignored
        raise usage_error("--max-games caps --until-significant: give both, or neither")
    if args.html is not None:
        _check_html_target(args.html, usage_error)
    reporter = dg.Reporter()
    packs = list(dict.fromkeys(str(Path(p).resolve()) for p in args.pack))  # P twice: once
    data = loadgen.game_data(args.game, [Path(p) for p in packs], reporter)
    if data is None:
        tell(dg.format_text(reporter))
        return 1
    if not packs:
        raise usage_error("balance compares the base game with packs: give --pack PACK (a folder, or a shipped pack's id)")
    # --players 2 --players 2 played every game twice: duplicated samples, false significance
    players = tuple(dict.fromkeys(args.players)) or (data.players["default"],)
    sweep = getattr(sim.engine_module(data), "BALANCE_SWEEP", ())
    base = loadgen.game_data(args.game, [], dg.Reporter())   # loaded if the packs' game is
    sweep = _playable_sweep(sweep, (data, base), players)
    for arm, said in ((data, ""), (base, "in the base game (balance plays it too)")):
        _check_setup(arm, players, sweep, said, usage_error)   # 5 players: not in the base game
    catalog = balance.catalog(data)
    plan = balance.Plan(args.game, tuple(packs), players, args.games, args.seed,
                        sweep=sweep,
                        until_significant=args.until_significant,
                        max_games=args.max_games or min(8 * args.games, MAX_GAMES),
                        catalog=catalog)
    workers = args.workers or parallel.available_cores()
    client, cluster = _dask(args.dask, workers, usage_error) if args.dask is not None \
        else (None, None)
    try:   # an exception while playing is a bug (exit 3): the set-up was checked above
        result = balance.run(plan, workers=workers, client=client,
                             quiet=args.quiet or args.json)
    except Exception as err:  # noqa: BLE001 - an effect's is reported, as by `sim`
        from tomecraft.compiler.packs import effect_diagnostic
        from tomecraft.runtime import effects
        if not (isinstance(err, effects.EffectError) or effects.error_origin(err) is not None):
            raise
        reporter = dg.Reporter()     # a runaway chain of keywords was 'internal error' (3)
        effect_diagnostic(err, reporter, Path(packs[-1]))
        print(dg.format_text(reporter))
        return 1
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    seconds = result.pop("seconds")
    result["game_name"] = data.name.en
    games = sum(len(rs) for rs in result["records"].values())
    tell(f"{games} games in {seconds:.1f}s: {games / seconds if seconds else 0:.1f} games/s "
         f"on {'dask' if client else f'{workers} worker(s)'}")
    if args.html is not None:
        try:
            write_atomic(Path(args.html), report_mod.to_html(result).encode("utf-8"))
        except OSError as err:
            raise usage_error(f"cannot write --html {args.html}: {err.strerror}") from None
        progress(f"writing {args.html}")
    print(report_mod.to_json(result) if args.json else report_mod.to_text(result))
    return 0


def _playable_sweep(sweep: tuple, arms: tuple, players: tuple[int, ...]) -> tuple:
    """The engine's sweep (Deep Rock Galactic's Hazard levels 1-5) less the values the content
    has not: a pack keeping Hazard levels 1-4 (the contract needs one) checked clean and
    `balance` stopped on "no hazard level 5". The values left out are said on stderr."""
    from tomecraft.runtime import sim
    if not sweep:
        return sweep
    option, values = sweep

    def sets_up(value) -> bool:
        try:
            for arm in arms:
                for n in players:
                    sim.check_setup(arm, n, {option: value})
        except ValueError:
            return False
        return True
    playable = tuple(v for v in values if sets_up(v))
    if playable and playable != tuple(values):
        left = ", ".join(str(v) for v in values if v not in playable)
        progress(f"note: {option} {left} is not in the content played; the sweep plays "
                 + ", ".join(map(str, playable)))
    return (option, playable) if playable else sweep     # none: the check below says why


def _check_setup(data, players: tuple[int, ...], sweep: tuple, said: str, usage_error) -> None:
    """Every player count, and every option value the engine's sweep plays, checked before the
    games: the engine's refusal is a usage error (a ValueError while playing is not)."""
    from tomecraft.runtime import sim
    option, values = sweep if sweep else (None, (None,))
    for n in players:
        for value in values:
            try:
                sim.check_setup(data, n, {} if option is None else {option: value})
            except ValueError as err:
                raise usage_error(f"{n} players {said}: {err}" if said else str(err)) from None


def _check_html_target(html: str, usage_error) -> None:
    """Before the games are played: where the page goes must be able to take it (the write
    failed only after the whole run, as an internal error)."""
    target = Path(html)
    if not html or target.is_dir():
        raise usage_error(f"--html names a folder, not a file: {html!r}")
    if target.exists() and not target.is_file():   # /dev/full, a FIFO: never replaced
        raise usage_error(f"--html {html}: not a regular file")
    if not target.parent.is_dir():
        raise usage_error(f"--html {html}: there is no folder {target.parent}")


def _dask(address: str, workers: int, usage_error):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise usage_error("--dask needs the distributed extra: pip install 'tomecraft[distributed]'") from None
    if not address:
        raise usage_error("--dask needs a scheduler address (tcp://host:8786) or 'local'")
    if address == "local":
        import logging      # a Ctrl-C's cancelled batches were logged as warnings, with no use
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        return Client(cluster), cluster
    try:
        return Client(address), None
    except (OSError, ValueError, TypeError) as err:  # a malformed address, no scheduler there
        raise usage_error(f"--dask {address}: no Dask scheduler reached there: {err}") from None
