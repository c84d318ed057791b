"""The `dealsim` command line: parses, calls one function of `simulator.app`, prints."""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import traceback
import typing
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from reports.experiments import compare_findings, tune_findings
from simulator import app as api
from simulator import registry
from simulator.errors import DealsimError, DealsimWarning, Interrupted
from simulator.options import describe
from simulator.runner import MAX_DEALS
from simulator.summaries import num, pct, pp, table, to_json
from simulator.version import __version__

cli = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Monte Carlo strategy simulator for Forty-two, Frank's Zoo and Rounds.",
)
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # no wrapping in pipes and files


class Format(str, Enum):
    table = "table"
    json = "json"


class Backend(str, Enum):
    loky = "loky"
    threading = "threading"
    dask = "dask"


GameArg = Annotated[str, typer.Argument(help="the game, e.g. forty-two (see `dealsim games`)")]
MeasureOpt = Annotated[
    list[str],
    typer.Option(
        "--measure",
        help=(
            "an extra per-deal measure (repeatable): forty-two and rounds have play-quality (the points each side "
            "gave away against perfect play with every hand seen; a few ms per Forty-two hand, under one per Rounds "
            "game)"
        ),
    ),
]
SeedOpt = Annotated[
    int, typer.Option("--seed", min=0, help="the run's seed: the same seed gives the same numbers")
]
JobsOpt = Annotated[int, typer.Option("-j", "--jobs", help="worker processes; 0 or less = all cores")]
FormatOpt = Annotated[Format, typer.Option("--format", help="results on stdout as a table or as JSON")]
OutputOpt = Annotated[
    Path | None, typer.Option("-o", "--output", help="write the results and their files here")
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="write into a non-empty -o folder, replacing the outputs there")
]
ResumeOpt = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help=(
            "go on with the command that wrote this folder (-o): the same options, the chunks it saved kept"
        ),
    ),
]
OptionalGame = Annotated[
    str | None, typer.Argument(help="the game, e.g. forty-two (see `dealsim games`); not with --resume")
]
ProgressOpt = Annotated[
    bool | None,
    typer.Option("--progress/--no-progress", help="progress bar on stderr (default: when it is a terminal)"),
]

# The options that define a run's rules and players, declared once and added to every command that takes them.
RULE_OPTIONS = [
    inspect.Parameter(
        "preset",
        inspect.Parameter.KEYWORD_ONLY,
        default="seed",
        annotation=Annotated[
            str, typer.Option("--preset", help="rule preset to start from (see `dealsim games`)")
        ],
    ),
    inspect.Parameter(
        "rules_files",
        inspect.Parameter.KEYWORD_ONLY,
        default=[],
        annotation=Annotated[
            list[str], typer.Option("--rules", help="TOML file of rule options (repeatable)")
        ],
    ),
    inspect.Parameter(
        "rule",
        inspect.Parameter.KEYWORD_ONLY,
        default=[],
        annotation=Annotated[
            list[str], typer.Option("--rule", help="one rule option as key=value (repeatable)")
        ],
    ),
]
SEAT_OPTION = inspect.Parameter(
    "seat",
    inspect.Parameter.KEYWORD_ONLY,
    default=[],
    annotation=Annotated[
        list[str],
        typer.Option(
            "--seat",
            help="SEAT=STRATEGY[:param=value,...], e.g. N=heuristic:threshold=32 or EW=random (repeatable)",
        ),
    ],
)
UNIT_OPTIONS = [
    inspect.Parameter(
        "unit",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            str | None,
            typer.Option(
                "--unit",
                help="deal (one hand, or one Rounds game) or match (played to the "
                "target); each game's own words work too",
            ),
        ],
    ),
    inspect.Parameter(
        "chunk_size",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            int | None,
            typer.Option(
                "--chunk-size",
                min=1,
                help="deals per chunk; part of the run's definition (default per game and unit)",
            ),
        ],
    ),
]


# The options of run_options that --run (a finished run's folder) fixes.
RUN_OPTION_NAMES = ("preset", "rules_files", "rule", "seat", "unit", "chunk_size")


def run_options(*extra: inspect.Parameter):
    """Add the shared rule options (and `extra`) to a command; it receives them as one `run` dict of
    keyword arguments for `simulator.app` (preset, rules_files, rules, seats, unit, chunk_size)."""

    def decorate(fn):
        hints = typing.get_type_hints(fn, include_extras=True)  # the typer annotations, not their text
        own = [
            p.replace(annotation=hints[p.name])
            for p in inspect.signature(fn).parameters.values()
            if p.name != "run"
        ]
        names = [p.name for p in (*RULE_OPTIONS, *extra)]

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            given = {name: kwargs.pop(name) for name in names}
            given["rules"] = given.pop("rule")
            for name in (
                "seat",
                "strategy",
            ):  # analyze calls its seats' strategies --strategy (--seat is its hand's)
                if name in given:
                    given["seats"] = given.pop(name)
            return fn(*args, run=given, **kwargs)

        wrapper.__signature__ = inspect.Signature([*own, *RULE_OPTIONS, *extra])
        wrapper.__annotations__ = {
            **fn.__annotations__,
            **{p.name: p.annotation for p in (*RULE_OPTIONS, *extra)},
        }
        return wrapper

    return decorate


@dataclass
class Settings:
    """The global options, set by the app callback for the command that follows."""

    debug: bool = False
    quiet: bool = False


settings = Settings()


def _show_version(value: bool) -> None:
    if value:
        print(f"dealsim {__version__}")
        raise typer.Exit()


@cli.callback()
def global_options(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_show_version, help="print the version and exit"),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            envvar="DEALSIM_DEBUG",
            help=("on an error, the full traceback instead of one line (also DEALSIM_DEBUG=1)"),
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "-q",
            "--quiet",
            help=(
                "no progress bar and no results on stdout; files are still written, warnings and errors still go to "
                "stderr"
            ),
        ),
    ] = False,
) -> None:
    """Global options, given before the command: dealsim --quiet simulate ..."""
    settings.debug, settings.quiet = debug, quiet
    out.quiet = quiet


def main() -> None:
    """Run the command line. Every failure ends in one line on stderr: exit code 2 for bad input (typer's usage
    errors and DealsimError), 1 for a strategy that raises or a file the system refuses (OSError), 130 for
    Ctrl-C. With --debug (or DEALSIM_DEBUG=1) the traceback replaces the line."""
    settings.debug = settings.quiet = out.quiet = (
        False  # a fresh start for each call in one process (the tests)
    )
    try:
        with _warnings_as_lines():
            code = cli(standalone_mode=False, prog_name="dealsim")
    except Interrupted as exc:  # Ctrl-C before a comparison or sweep was whole: the reason, not an error
        _fail(str(exc), exc.exit_code, exc, prefix="")
    except DealsimError as exc:
        _fail(str(exc), exc.exit_code, exc)
    except OSError as exc:  # disk full, permission denied, a missing folder: the system's words suffice
        _fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc), 1, exc)
    except KeyboardInterrupt as exc:  # while parsing; typer turns one inside a command into exit code 130
        _fail("interrupted", 130, exc, prefix="")
    except Exception as exc:
        # typer's usage errors (a missing option, -n 0, an unknown command) carry their own message and exit code
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            if not exc.format_message():  # `dealsim` alone: the help was shown
                sys.exit(exc.exit_code)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
            _fail(exc.format_message() + hint, exc.exit_code)
        raise  # anything else is a bug: its traceback is what a report needs
    if (
        code == 130
    ):  # Ctrl-C inside a command: typer has already swallowed the KeyboardInterrupt (and its trace)
        _fail("interrupted", 130, prefix="")
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int = 2, exc: BaseException | None = None, prefix: str = "error: ") -> None:
    if settings.debug and exc is not None:
        traceback.print_exception(exc)  # with a worker's exception, joblib chains the worker's traceback
    else:
        print(prefix + " ".join(message.split()), file=sys.stderr)
    sys.exit(code)


@contextlib.contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Print each DealsimWarning as one line on stderr, once per command (every arm of a compare may warn alike)."""
    seen: set[str] = set()
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):  # warnings' own signature
            if not issubclass(category, DealsimWarning):
                return shown(message, category, filename, lineno, file, line)
            text = "warning: " + " ".join(str(message).split())
            if text not in seen:
                seen.add(text)
                print(text, file=sys.stderr)

        warnings.simplefilter("always", DealsimWarning)
        warnings.showwarning = show
        yield


def _progress(progress: bool | None) -> bool:
    if settings.quiet:
        return False
    return sys.stderr.isatty() if progress is None else progress


def _json(obj: Any) -> None:
    if not settings.quiet:
        print(to_json(obj))


def _refuse_with_run(ctx: typer.Context, folder: Path, *names: str) -> None:
    """One clear error when any of the options `names` is given with --run, whose manifest fixes them all
    (silently ignoring them would show another run than the user asked for)."""
    params = {p.name: p for p in ctx.command.params}
    sources = {n: ctx.get_parameter_source(n) for n in names if n in params}
    given = [
        max(params[n].opts, key=len)
        for n, source in sources.items()
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
    ]
    if given:
        raise DealsimError(
            f"{', '.join(given)} cannot be given with --run ({folder / 'manifest.json'} fixes the "
            f"run's options)"
        )


@cli.command("games")
def games_cmd() -> None:
    """List the games with their units, rule options, defaults and presets."""
    for g in registry.GAMES.values():
        rules = g.rules()
        out.print(f"[bold]{g.name}[/bold]: {g.title}")
        out.print(
            f"  seats: {' '.join(g.seat_names(rules))}  groups: {' '.join(g.seat_groups(rules))}  "
            f"units: deal = {g.words['deal']}, match = {g.words['match']} (default {g.default_unit})  "
            f"presets: {', '.join(g.presets)}"
        )
        out.print(
            table(
                "  rule options (--rule key=value)",
                ["option", "default", "allowed", "meaning"],
                [
                    [
                        r["name"],
                        str(r["default"]).lower() if isinstance(r["default"], bool) else r["default"],
                        r["allowed"] or r["type"],
                        r["help"],
                    ]
                    for r in describe(g.rules_cls)
                ],
                text_columns=4,
            )
        )


@cli.command("strategies")
def strategies_cmd(game: Annotated[str | None, typer.Argument(help="only this game")] = None) -> None:
    """List the strategies of each game with their parameters."""
    for g in [registry.get(game)] if game else registry.GAMES.values():
        out.print(f"[bold]{g.name}[/bold] (default: {g.default_strategy})")
        for s in registry.roster(g).listing():
            rows = [[p["name"], p["default"], p["allowed"] or p["type"], p["help"]] for p in s["params"]]
            out.print(f"  [bold]{s['name']}[/bold]: {s['summary']}")
            if rows:
                out.print(table("", ["parameter", "default", "allowed", "meaning"], rows, text_columns=4))


@cli.command()
@run_options(SEAT_OPTION, *UNIT_OPTIONS)
def simulate(
    game: Annotated[
        str | None, typer.Argument(help="the game, e.g. forty-two (see `dealsim games`); not with --resume")
    ] = None,
    run: dict = None,  # noqa: RUF013 (filled by run_options)
    deals: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--deals",
            min=1,
            help=("how many deals (or matches); default 100,000; with --resume, extends (or cuts) the run"),
        ),
    ] = None,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
    backend: Annotated[
        Backend,
        typer.Option(
            "--backend",
            help=(
                "where the chunks run: loky (local processes), threading, or dask (a Dask cluster: --scheduler, "
                "or a local one)"
            ),
        ),
    ] = Backend.loky,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            envvar="DASK_SCHEDULER_ADDRESS",
            help=(
                "with --backend dask: the scheduler, e.g. tcp://host:8786 (default: start a local cluster)"
            ),
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="write into a non-empty -o folder, replacing the outputs there")
    ] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=(
                "go on with the run in this folder (simulate -o): its options from its manifest, its whole "
                "parts kept, the rest played"
            ),
        ),
    ] = None,
    measure: MeasureOpt = [],  # noqa: B006
) -> None:
    """Play many seeded deals and summarize them; with -o, every finished chunk is saved as it arrives."""
    common = {"jobs": jobs, "backend": backend.value, "scheduler": scheduler, "progress": _progress(progress)}
    if resume is not None:
        given = [k for k, v in run.items() if v not in (None, [], "seed")] + (["game"] if game else [])
        given += ["-o"] if output else []
        if given:
            raise DealsimError(f"--resume takes the run's options from its manifest; drop {', '.join(given)}")
        sim = api.resume(resume, deals, **common)
        output = resume
    else:
        if game is None:
            raise DealsimError("simulate needs a game (see `dealsim games`), or --resume DIR")
        sim = api.simulate(
            game,
            100_000 if deals is None else deals,
            seed,
            **run,
            **common,
            output=output,
            force=force,
            measures=measure,
        )
    if fmt is Format.json:
        _json({"manifest": sim.manifest, "summary": sim.summary})
    else:
        for part in sim.render():
            out.print(part)
        r = sim.result
        done = "" if r.complete else f" (interrupted: {r.deals_done:,} of {sim.run.n:,})"
        reused = f", {r.reused} chunk(s) kept from before" if r.reused else ""
        out.print(
            f"{sim.run.game.name}, {r.deals_done:,} {sim.run.game.plural(sim.run.unit)}, seed {sim.run.seed}, "
            f"{r.elapsed:.1f} s with {r.jobs} job(s){reused}{done}"
            + (f"; written to {output}" if output else "")
        )
    if not sim.result.complete:
        raise typer.Exit(130)  # main() says "interrupted", as for Ctrl-C in any command


@cli.command()
@run_options(SEAT_OPTION, *UNIT_OPTIONS)
def trace(
    ctx: typer.Context,
    game: GameArg,
    run: dict,
    deal: Annotated[
        int, typer.Option("--deal", min=0, help="the deal's (or match's) number in the run, from 0")
    ],
    run_dir: Annotated[
        Path | None,
        typer.Option(
            "--run", help="a folder written by simulate -o: take the run's options from its manifest.json"
        ),
    ] = None,
    deals: Annotated[int, typer.Option("-n", "--deals", min=1, help="the run's size")] = 100_000,
    seed: SeedOpt = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON record")] = False,
) -> None:
    """Show one deal of a run move by move: give --run DIR, or the run's own options (with random strategies
    -n matters for the deals of the last chunk)."""
    if run_dir is not None:
        _refuse_with_run(ctx, run_dir, "seed", "deals", *RUN_OPTION_NAMES)
    r = (
        api.run_from_manifest(run_dir, game)
        if run_dir is not None
        else api.make_run(game, deals, seed, **run)
    )
    told = api.trace(r, deal, as_json)
    _json(told) if as_json else out.print(told, markup=False)


@cli.command()
def bench(
    game: Annotated[
        str | None, typer.Argument(help="only this game, with each of its strategies (default: every game)")
    ] = None,
    every: Annotated[
        bool,
        typer.Option(
            "--all",
            help="every game with each of its strategies and its "
            "yardstick (the ratio table), then the scaling runs",
        ),
    ] = False,
    deals: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--deals",
            min=1000,
            max=MAX_DEALS,
            help=(
                "deals (Frank's Zoo: games) per measurement (default: four chunks per core of the game's "
                "default chunk size)"
            ),
        ),
    ] = None,
    repeat: Annotated[
        int,
        typer.Option(
            min=1,
            max=100,
            help="measure each strategy and the yardstick this many times in turn; the median counts",
        ),
    ] = 1,
    scaling: Annotated[
        bool, typer.Option(help="also time each game's default run on 1 core and on all cores")
    ] = True,
    scaling_seconds: Annotated[
        float | None,
        typer.Option(
            min=1,
            help=(
                "size each scaling run to last at least this long on one core (default: -n, or four chunks "
                "per core)"
            ),
        ),
    ] = None,
    yardstick: Annotated[
        Path | None,
        typer.Option(
            help="the game's yardstick script (default: the game's own, from benchmarks/ or ../shared/bench)"
        ),
    ] = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Hands (games) per second on one core and on all cores, and the speed-up, for every game (its default
    strategy and unit); with a game named (or --all), also each strategy on one core against the game's
    compiled yardstick and against random play, in the same run."""
    b = api.bench(
        game, deals, yardstick, every=every, repeat=repeat, scaling=scaling, scaling_seconds=scaling_seconds
    )
    if fmt is Format.json:
        _json(b.as_dict())
        return
    for sp in b.speeds:
        g = registry.get(sp.game)
        rows = []
        for spec in sp.rates:
            hands = f" ({sp.hand_rate(spec):,.0f} {g.plural('deal')}/s)" if sp.hands else ""
            ratio = sp.of_yardstick(spec)
            rows.append(
                [
                    spec,
                    f"{sp.rate(spec):,.0f} {sp.unit}/s{hands}",
                    f"{ratio:.2f}" if ratio is not None else "-",
                    f"{sp.of_random(spec):.2f}",
                ]
            )
        if sp.yardstick and sp.yardstick_rate is None:
            note = f"{sp.yardstick}: not run (needs the script and numba: pip install -e '.[bench]')"
        else:
            note = f"{sp.yardstick} (numba, one core): {sp.yardstick_rate:,.0f} {sp.unit}/s"
        spread = f", median of {sp.repeat}" if sp.repeat > 1 else ""
        out.print(
            table(
                f"{g.name}, one core ({sp.deals:,} {sp.unit} each{spread})",
                ["strategy", "rate", "of yardstick", "of random"],
                rows,
                text_columns=2,
            )
        )
        out.print(note)
    n = b.cores
    rows = []
    for s in b.scaling:
        deals, hands = s.rates(s.deals), (s.rates(s.hands) if s.hands is not None else None)

        def rate(
            key: str,
            deals: dict[str, float] = deals,
            hands: dict[str, float] | None = hands,
            unit: str = s.unit,
        ) -> str:
            # hands first where a deal holds several (Frank's Zoo games): "hands (games) per second"
            return (
                f"{hands[key]:,.0f} hands ({deals[key]:,.0f} {unit})"
                if hands
                else f"{deals[key]:,.0f} {unit}"
            )

        rows.append(
            [
                f"{s.game} {s.strategy}",
                f"{s.deals:,} {s.unit}, {-(-s.deals // s.chunk_size)} chunks",
                rate("one_core"),
                rate("per_core_on_all_cores"),
                rate("all_cores"),
                f"{s.speedup:.2f}x",
            ]
        )
    if rows:
        out.print(
            table(
                f"Per second, the same run on 1 core and on all {n} cores (runner.execute; worker "
                "processes started beforehand)",
                [
                    "game, strategy",
                    "played",
                    "1 core",
                    f"per core on {n}",
                    f"all {n} cores",
                    f"speed-up on {n}",
                ],
                rows,
                text_columns=2,
            )
        )
    if b.load is not None:  # a benchmark on a busy machine reads low, its speed-up most
        out.print(
            f"load average over the minute before measuring: {b.load:.2f} (other work on the cores "
            "lowers these figures)"
        )


@cli.command()
@run_options(SEAT_OPTION, *UNIT_OPTIONS)
def compare(
    game: OptionalGame = None,
    run: dict = None,  # noqa: RUF013 (run_options fills run)
    vs: Annotated[
        list[str],
        typer.Option(
            "--vs",
            help="arm B's seats, SEAT=STRATEGY (repeatable; the "
            "whole spec: parameters of arm A's spec do not carry "
            "over); arm A is --seat",
        ),
    ] = [],  # noqa: B006
    vs_rule: Annotated[
        list[str], typer.Option("--vs-rule", help="arm B's rule changes, key=value (repeatable)")
    ] = [],  # noqa: B006
    deals: Annotated[int, typer.Option("-n", "--deals", min=1, help="deals (or matches) per arm")] = 100_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
    force: ForceOpt = False,
    resume: ResumeOpt = None,
    measure: MeasureOpt = [],
) -> None:  # noqa: B006
    """Two arms on the same deals: paired differences of each measure, with 95% intervals."""
    if _resuming(game, resume, output, jobs):
        return
    c = api.compare(
        game,
        vs=vs,
        vs_rules=vs_rule,
        n=deals,
        seed=seed,
        **run,
        jobs=jobs,
        progress=_progress(progress),
        output=output,
        force=force,
        resume=resume is not None,
        measures=measure,
    )
    if fmt is Format.json:
        _json(
            {
                **api.comparison_provenance(c),
                "side": c.side,
                "arm_b_changes": c.arm_b_in_words(),
                "rows": c.frame().to_dict(orient="records"),
                "findings": compare_findings(c),
                "elapsed": c.elapsed,
            }
        )
        return
    rows = [
        [m, pct(d.a), pct(d.b), pp(d.diff, d.lo, d.hi), f"{d.narrowing:.2f}x"]
        if m in c.rates
        else [m, num(d.a), num(d.b), num(d.diff, d.lo, d.hi, signed=True), f"{d.narrowing:.2f}x"]
        for m, d in zip(c.measures, c.differences)
    ]
    out.print(
        table(
            f"A - B on the same {c.a.n:,} {c.a.game.plural(c.a.unit)}, measured for {c.side} "
            "(95% paired intervals)",
            ["measure", "A", "B", "A - B", "narrowing"],
            rows,
        )
    )
    out.print("narrowing: how many times wider the interval would be on independent deals")
    out.print(f"arm B: {c.arm_b_in_words()}")
    for sentence in compare_findings(c):
        out.print(sentence)


@cli.command()
@run_options(
    SEAT_OPTION,
    UNIT_OPTIONS[1],
    inspect.Parameter(
        "unit",
        inspect.Parameter.KEYWORD_ONLY,
        default="match",
        annotation=Annotated[str, typer.Option("--unit", help="deal, or match (default: whole matches)")],
    ),
)
def tune(
    game: OptionalGame = None,
    run: dict = None,  # noqa: RUF013 (run_options fills run)
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help="KEY=v1,v2,... or KEY=lo:hi[:step]; KEY is a rule "
            "option, seat.SEATS.param or seat.SEATS (repeatable: "
            "a grid; required)",
        ),
    ] = [],  # noqa: B006
    baseline: Annotated[
        list[str],
        typer.Option(
            "--baseline",
            help="KEY=VALUE: the setting the others are compared with (default: the current values)",
        ),
    ] = [],  # noqa: B006
    deals: Annotated[
        int, typer.Option("-n", "--deals", min=1, help="deals (or matches) per setting")
    ] = 20_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
    force: ForceOpt = False,
    resume: ResumeOpt = None,
) -> None:
    """Sweep rule options or strategy parameters on common deals: one column per setting, with intervals."""
    if _resuming(game, resume, output, jobs):
        return
    if not vary:
        raise DealsimError("tune needs at least one --vary KEY=VALUES")
    sweep = api.tune(
        game,
        vary,
        n=deals,
        seed=seed,
        **run,
        jobs=jobs,
        progress=_progress(progress),
        output=output,
        baseline=baseline,
        force=force,
        resume=resume is not None,
    )
    if fmt is Format.json:
        _json(
            {
                **api.tune_provenance(sweep, [(k, []) for k in sweep.keys]),
                "rows": sweep.table().to_dict(orient="records"),
                "findings": tune_findings(sweep),
            }
        )
        return
    header = [", ".join(str(p[k]) for k in sweep.keys) for p in sweep.points]
    rows = [
        [
            m,
            *[
                _compact(e[i], d[i], m in sweep.rates, j == sweep.baseline)
                for j, (e, d) in enumerate(zip(sweep.estimates, sweep.differences))
            ],
        ]
        for i, m in enumerate(sweep.measures)
    ]
    b = sweep.base
    out.print(
        table(
            f"{b.game.name}: one column per {', '.join(sweep.keys)}; {b.n:,} {b.game.plural(b.unit)} each, "
            f"seed {seed}; {sweep.side}'s side; value, and the paired difference against the baseline "
            f"({sweep.label(sweep.baseline)}) with its 95% interval",
            ["measure", *header],
            rows,
        )
    )
    for sentence in tune_findings(sweep):
        out.print(sentence)


def _resuming(subject: str | None, resume: Path | None, output: Path | None, jobs: int) -> bool:
    """`--resume DIR` alone: repeat the command recorded in DIR (its options, output DIR, resuming) and say
    True. With the recorded options given (that repeat), the command goes on, resuming, and this says False."""
    if resume is None:
        if subject is None:
            raise DealsimError("say what to run (see --help), or --resume DIR")
        return False
    if subject is not None:
        if output is None or Path(output).resolve() != Path(resume).resolve():
            raise DealsimError("--resume DIR takes its options from DIR; give it alone (with -j at most)")
        return False
    recorded = api.recorded_command(resume)
    if len(recorded) < 2 or recorded[1].startswith("-"):  # a command without its subject would resume itself
        raise DealsimError(f"the command recorded in {resume} names no game or study: {' '.join(recorded)!r}")
    cli(
        [*recorded, "-o", str(resume), "--resume", str(resume), "-j", str(jobs)],
        standalone_mode=False,
        prog_name="dealsim",
    )
    return True


def _compact(e, d, percent: bool, is_baseline: bool) -> str:
    value = pct(e.value) if percent else num(e.value)
    if is_baseline:
        return f"{value} (baseline)"
    return f"{value} {pp(d.diff, d.lo, d.hi) if percent else num(d.diff, d.lo, d.hi, signed=True)}"


@cli.command()
@run_options(SEAT_OPTION, UNIT_OPTIONS[1])
def report(
    ctx: typer.Context,
    study: Annotated[
        str | None,
        typer.Argument(
            help=(
                "the study: bid-success or bid-guide (forty-two), sweep-value (rounds), help-value (franks-zoo), or "
                "run (with --run DIR: the report of a simulate -o folder); not with --resume"
            )
        ),
    ] = None,
    run: dict = None,  # noqa: RUF013 (run_options fills run)
    deals: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--deals",
            min=1,
            help=(
                "deals of the main run, or games per arm (default: 1,000,000 for bid-success and sweep-value, "
                "200,000 for bid-guide, 30,000 for help-value)"
            ),
        ),
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option(
            "--matches",
            "--games",
            min=0,
            max=MAX_DEALS,
            help=(
                "matches for the match-length part (default: deals / 10 for bid-success, deals / 50 per sweep "
                "bonus for sweep-value; 0 = none)"
            ),
        ),
    ] = None,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="folder for report.html, CSV and PNG (default: ./STUDY)"),
    ] = None,
    progress: ProgressOpt = None,
    run_dir: Annotated[
        Path | None, typer.Option("--run", help="with the study `run`: a folder written by simulate -o")
    ] = None,
    force: ForceOpt = False,
    resume: ResumeOpt = None,
) -> None:
    """Run a named study and write a self-contained HTML report with its tables (CSV) and plots (PNG)."""
    if _resuming(study, resume, output, jobs):
        return
    if study == "run" and run_dir is not None:
        _refuse_with_run(ctx, run_dir, "seed", "deals", "matches", *RUN_OPTION_NAMES)
    r = api.report(
        study,
        deals,
        matches=matches,
        seed=seed,
        **run,
        jobs=jobs,
        progress=_progress(progress),
        output=output,
        run_dir=run_dir,
        force=force,
        resume=resume is not None,
    )
    if study == "run":
        out.print(f"wrote {len(r.written)} files to {r.folder}/ (open {r.folder / 'report.html'})")
        return
    out.print(table(*r.headline))
    out.print(
        f"{study}: {r.deals:,} deals"
        + (f" and {r.matches:,} matches" if r.matches else "")
        + f" in {r.elapsed:.1f} s; wrote {len(r.written)} files to {r.folder}/ (open {r.folder / 'report.html'})"
    )


@cli.command()
@run_options(
    inspect.Parameter(
        "strategy",
        inspect.Parameter.KEYWORD_ONLY,
        default=[],
        annotation=Annotated[
            list[str],
            typer.Option(
                "--strategy",
                help="SEAT=STRATEGY for the play (repeatable; default: the game's "
                "default strategy everywhere)",
            ),
        ],
    )
)
def analyze(
    game: GameArg,
    run: dict,
    hand: Annotated[str, typer.Option("--hand", help='the fixed hand, e.g. "6-6 6-5 5-5 4-4 6-4 3-2 1-0"')],
    seat: Annotated[str, typer.Option("--seat", help="the seat holding it (declares)")] = "N",
    dealer: Annotated[
        str | None, typer.Option("--dealer", help="the dealer (default: the seat on its right)")
    ] = None,
    deals: Annotated[
        int,
        typer.Option(
            "-n", "--deals", min=1, help="deals of the other hands (the same deals for every choice)"
        ),
    ] = 20_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
    play: Annotated[
        str,
        typer.Option(
            "--play",
            help=(
                "strategies (the seats' strategies play each contract) or perfect (double dummy: every hand "
                "seen, perfect play by both sides; a few ms a deal per trump, so use a smaller -n)"
            ),
        ),
    ] = "strategies",
) -> None:
    """Hold one hand fixed, deal the rest many times, and play every trump and bid: P(make) and expected score."""
    a = api.analyze(
        game,
        hand,
        seat=seat,
        dealer=dealer,
        n=deals,
        seed=seed,
        **run,
        jobs=jobs,
        progress=_progress(progress),
        output=output,
        play=play,
    )
    if fmt is Format.json:
        _json({**a.provenance, "best": a.best, "advice": a.advice, "rows": a.frame.to_dict(orient="records")})
        return
    for part in a.rendered:
        out.print(part)
    out.print(f"({a.provenance['elapsed_seconds']:.1f} s)")
