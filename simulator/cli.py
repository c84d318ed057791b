"""The `dealsim` command line: parses (the options are declared in simulator.flags), builds the use case's
specs, calls one function of `simulator.app`, prints the result's own rendering or its JSON.

The application layer, the specs and the JSON writer are imported inside the commands that use them: the
listings, the version and the helps start without pandas, matplotlib, joblib or the reports (a test holds
this; benchmarks/cli_speed.py times it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from simulator import flags as f
from simulator import shell
from simulator.errors import DealsimError
from simulator.flags import Backend, Format
from simulator.shell import Settings, out

if TYPE_CHECKING:
    from simulator.specs import Execution

HAND = '"6-6 6-5 5-5 4-4 6-4 3-2 1-0"'


def examples(*commands: str) -> str:
    """A help's closing examples, one command a line (plain text: the help is rich markup)."""
    return "Examples:\n" + "\n".join(commands)


cli = typer.Typer(
    cls=f.Group,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Monte Carlo strategy simulator for Forty-two, Frank's Zoo and Rounds.",
    epilog=examples(
        "dealsim games",
        "dealsim simulate forty-two -n 100000",
        "dealsim compare forty-two --vs NS=heuristic:margin=2 -n 50000",
    ),
)

# The options that define a run: given with --run or --resume, whose folder fixes them, they are refused.
RUN_OPTIONS = (
    "game",
    "seed",
    "deals",
    "preset",
    "rules",
    "rule",
    "seat",
    "unit",
    "chunk_size",
    "measure",
    "precision",
)
NONE: list[str] = []  # every list option's default: typer reads it, never changes it


def main() -> None:
    """The console script: every failure ends in one line on stderr (see simulator.shell)."""
    shell.run(cli)


def _show_version(value: bool) -> None:
    if value:
        from simulator.version import __version__

        print(f"dealsim {__version__}")
        raise typer.Exit()


@cli.callback()
def global_options(
    version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_show_version, help="the version")
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", envvar="DEALSIM_DEBUG", help="a traceback, not one line")
    ] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="nothing on stdout, no progress bar")] = False,
) -> None:
    """Global options, given before the command: dealsim --quiet simulate ..."""
    Settings.set(debug, quiet)


def _execution(
    jobs: int, progress: bool | None, backend: Backend = Backend.loky, scheduler: str | None = None
) -> Execution:
    from simulator.specs import Execution

    shown = False if Settings.quiet else (sys.stderr.isatty() if progress is None else progress)
    return Execution(jobs, backend.value, scheduler if backend is Backend.dask else None, shown)


def _show(result: Any, fmt: Format = Format.table) -> None:
    """The result's JSON, or its rendering (rich tables and lines), on stdout."""
    if fmt is Format.json:
        from simulator.summaries import to_json

        shell.print_json(to_json(result.as_dict()))
        return
    for part in result.render():
        out.print(part)


def _refuse_given(ctx: typer.Context, why: str, *names: str) -> None:
    """One clear error when any of the options `names` is given where `why` fixes it (silently ignoring it
    would show another run than the user asked for)."""
    params = {p.name: p for p in ctx.command.params}
    sources = {n: ctx.get_parameter_source(n) for n in names if n in params}
    given = [
        max(params[n].opts, key=len)
        for n, source in sources.items()
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
    ]
    if given:
        raise DealsimError(f"{', '.join(given)} cannot be given with {why}")


def _subject(subject: str | None, resume: Path | None, output: Path | None, jobs: int) -> str | None:
    """The game or study to run; or, with `--resume DIR` alone, None once the command recorded in DIR has
    been repeated (its options, output DIR, resuming). That repeat gives the options, and goes on here."""
    if resume is None:
        if subject is None:
            raise DealsimError("say what to run (see --help), or --resume DIR")
        return subject
    if subject is not None:
        if output is None or Path(output).resolve() != Path(resume).resolve():
            raise DealsimError("--resume DIR takes its options from DIR; give it alone (with -j at most)")
        return subject
    from simulator import app

    recorded = app.recorded_command(resume)
    if len(recorded) < 2 or recorded[1].startswith("-"):  # a command without its subject would resume itself
        raise DealsimError(f"the command recorded in {resume} names no game or study: {' '.join(recorded)!r}")
    again = [*recorded, "-o", str(resume), "--resume", str(resume), "-j", str(jobs)]
    cli(again, standalone_mode=False, prog_name="dealsim")
    return None


@cli.command(
    "games",
    cls=f.Command,
    epilog=examples(
        "dealsim games",
        "dealsim simulate forty-two --preset texas --rule min_bid=31 -n 20000",
        "dealsim simulate rounds --rule target=300 --unit match -n 5000",
    ),
)
def games_cmd() -> None:
    """List the games with their units, rule options, defaults and presets."""
    from simulator import catalog

    for part in catalog.games_listing():
        out.print(part)


@cli.command(
    "strategies",
    cls=f.Command,
    epilog=examples(
        "dealsim strategies",
        "dealsim strategies franks-zoo",
        "dealsim simulate franks-zoo --seat 0=greedy:ask=false -n 2000",
    ),
)
def strategies_cmd(game: f.OnlyGame = None) -> None:
    """List the strategies of each game with their parameters."""
    from simulator import catalog

    for part in catalog.strategies_listing(game):
        out.print(part)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim simulate forty-two -n 200000 --seat NS=heuristic:margin=2 -o runs/margin2",
        "dealsim simulate rounds -n 200000 --chunk-size 1000 --precision 'stages swept=0.2pp' -o runs/p",
        "dealsim simulate --resume runs/margin2 -n 400000",
    ),
)
def simulate(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    ctx: typer.Context,
    game: f.OptionalGame = None,
    deals: f.DealsOpt = None,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.UnitOpt = None,
    chunk_size: f.ChunkOpt = None,
    measure: f.MeasureOpt = NONE,
    precision: f.PrecisionOpt = NONE,
    jobs: f.JobsOpt = 0,
    backend: f.BackendOpt = Backend.loky,
    scheduler: f.SchedulerOpt = None,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeRunOpt = None,
    combine: f.CombineOpt = None,
    keep: f.KeepOpt = f.Keep.tables,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Play many seeded deals and summarize them; with -o, every finished chunk is saved as it arrives."""
    from simulator import app
    from simulator.specs import Output, RunSpec

    execution = _execution(jobs, progress, backend, scheduler)
    if resume is not None:
        fixed = [name for name in RUN_OPTIONS if name != "deals"]
        _refuse_given(
            ctx,
            f"--resume ({resume}/manifest.json fixes the run; -n may resize it)",
            *fixed,
            "output",
            "force",
            "keep",
        )
        sim = app.resume(resume, deals, execution, combine)
    elif game is None:
        raise DealsimError("simulate needs a game (see `dealsim games`), or --resume DIR")
    else:
        spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size, measure)
        sim = app.simulate(
            spec, execution, Output(output, force, combine=combine, keep=keep.value), precision
        )
    _show(sim, fmt)
    if not sim.result.complete:
        raise typer.Exit(130)  # main() says "interrupted", as for Ctrl-C in any command


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim trace rounds --deal 7 --seat 0=greedy",
        "dealsim trace forty-two --deal 0 --json",
        "dealsim trace forty-two --run runs/margin2 --deal 12",
    ),
)
def trace(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    ctx: typer.Context,
    game: f.GameArg,
    deal: f.DealOpt,
    run_dir: f.RunDirOpt = None,
    deals: f.TraceDealsOpt = 100_000,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.UnitOpt = None,
    chunk_size: f.ChunkOpt = None,
    as_json: f.JsonOpt = False,
) -> None:
    """Show one deal of a run move by move: give --run DIR, or the run's own options (with random strategies
    -n matters for the deals of the last chunk)."""
    from simulator import app
    from simulator.specs import RunSpec
    from simulator.summaries import to_json

    if run_dir is not None:
        _refuse_given(ctx, f"--run ({run_dir}/manifest.json fixes the run's options)", *RUN_OPTIONS[1:])
        run = app.run_from_manifest(run_dir, game)
    else:
        run = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size).build()
    told = app.trace(run, deal, as_json)
    if as_json:
        shell.print_json(to_json(told))
    else:
        out.print(told, markup=False)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim bench",
        "dealsim bench rounds --repeat 3",
        "dealsim bench --all --repeat 3 --no-scaling",
    ),
)
def bench(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter)
    game: f.OnlyGame = None,
    every: f.AllOpt = False,
    deals: f.BenchDealsOpt = None,
    repeat: f.RepeatOpt = 1,
    scaling: f.ScalingOpt = True,
    scaling_seconds: f.ScalingSecondsOpt = None,
    yardstick: f.YardstickOpt = None,
    fmt: f.FormatOpt = Format.table,
) -> None:
    """Hands (games) per second on one core and on all cores, and the speed-up, for every game (its default
    strategy and unit); with a game named (or --all), also each strategy on one core against the game's
    compiled yardstick and against random play, in the same run."""
    from simulator import app

    measured = app.bench(
        game,
        deals,
        yardstick,
        every=every,
        repeat=repeat,
        scaling_runs=scaling,
        scaling_seconds=scaling_seconds,
    )
    _show(measured, fmt)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim compare forty-two --vs NS=heuristic:margin=2 --chunk-size 500 --precision 'thrown in=1pp'",
        "dealsim compare rounds --vs-rule sweep_bonus=0 --unit match -n 5000",
        "dealsim compare franks-zoo --vs 0=greedy --rotate -n 2000 -o cmp/greedy",
    ),
)
def compare(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.OptionalGame = None,
    vs: f.VsOpt = NONE,
    vs_rule: f.VsRuleOpt = NONE,
    margin: f.MarginOpt = None,
    rotate: f.RotateOpt = False,
    deals: f.ArmDealsOpt = 100_000,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.UnitOpt = None,
    chunk_size: f.ChunkOpt = None,
    measure: f.MeasureOpt = NONE,
    precision: f.PrecisionOpt = NONE,
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Two arms on the same deals: paired differences of each measure, with 95% intervals. Arm A is --seat
    and --rule; arm B changes it by --vs and --vs-rule. --rotate also plays both arms with the seats turned
    one seat on, on the same deals (twice the deals played), and reports the seat-rotated estimate."""
    if (game := _subject(game, resume, output, jobs)) is None:
        return
    from simulator import app
    from simulator.specs import Output, RunSpec

    spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size, measure)
    where = Output(output, force, resume is not None)
    comparison = app.compare(spec, vs, vs_rule, _execution(jobs, progress), where, margin, rotate, precision)
    _show(comparison, fmt)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim tune forty-two --vary min_bid=30,31,32 -n 5000",
        "dealsim tune forty-two --vary seat.NS.margin=0:3 --baseline seat.NS.margin=1 --unit deal -n 20000",
        "dealsim tune rounds --vary seat.0.duck=true,false --chunk-size 200 --precision 'player 0 wins=2pp'",
    ),
)
def tune(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.OptionalGame = None,
    vary: f.VaryOpt = NONE,
    baseline: f.BaselineOpt = NONE,
    confirm: f.ConfirmOpt = 0,
    deals: f.PointDealsOpt = 20_000,
    seed: f.SeedOpt = 1,
    seat: f.StudySeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.MatchUnitOpt = "match",
    chunk_size: f.ChunkOpt = None,
    precision: f.PrecisionOpt = NONE,
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Sweep rule options or strategy parameters on common deals: every setting's measures, with intervals,
    and the paired difference against the baseline; per measure with a better direction, the settings that
    cannot be told apart from the best (simultaneous 95%); with -o, the report and its CSV tables."""
    if (game := _subject(game, resume, output, jobs)) is None:
        return
    if not vary:
        raise DealsimError("tune needs at least one --vary KEY=VALUES")
    from simulator import app
    from simulator.specs import Output, RunSpec

    spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size)
    where = Output(output, force, resume is not None)
    _show(app.tune(spec, vary, baseline, _execution(jobs, progress), where, confirm, precision), fmt)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim ladder forty-two --strategy random --strategy greedy --strategy heuristic -n 2000",
        "dealsim ladder rounds --strategy greedy --strategy heuristic --unit match -n 500",
        "dealsim ladder franks-zoo --strategy greedy --strategy heuristic --field greedy -n 100 -o lad/zoo",
    ),
)
def ladder(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.OptionalGame = None,
    strategy: f.StrategyOpt = NONE,
    field: f.FieldOpt = None,
    deals: f.LadderDealsOpt = None,
    seed: f.SeedOpt = 1,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.UnitOpt = None,
    chunk_size: f.ChunkOpt = None,
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """A round robin of strategies on common deals, seats rotated so that card luck cancels: the pairwise
    win rates and score margins with 95% intervals, Bradley-Terry ratings, the best set, the seat balance;
    with -o, the report (HTML, CSV, PNG)."""
    if (game := _subject(game, resume, output, jobs)) is None:
        return
    from simulator import app
    from simulator.specs import Output, RunSpec

    spec = RunSpec(game, deals, seed, None, rule, preset, rules, unit, chunk_size)
    where = Output(output, force, resume is not None)
    _show(app.ladder(spec, strategy, field, _execution(jobs, progress), where), fmt)


@cli.command(
    cls=f.Command,
    epilog=examples(
        "dealsim report bid-success -n 200000",
        "dealsim report ladder rounds --strategy greedy --strategy heuristic -n 2000 -o reports/ladder",
        "dealsim report run --run runs/margin2",
    ),
)
def report(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    ctx: typer.Context,
    study: f.StudyArg = None,
    ladder_game: f.StudyGameArg = None,
    strategy: f.StrategyOpt = NONE,
    field: f.FieldOpt = None,
    unit: f.UnitOpt = None,
    deals: f.StudyDealsOpt = None,
    matches: f.MatchesOpt = None,
    seed: f.SeedOpt = 1,
    seat: f.StudySeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    chunk_size: f.ChunkOpt = None,
    jobs: f.JobsOpt = 0,
    output: f.ReportOutputOpt = None,
    run_dir: f.RunDirOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    progress: f.ProgressOpt = None,
) -> None:
    """Run a named study and write a self-contained HTML report with its tables (CSV) and plots (PNG)."""
    if (study := _subject(study, resume, output, jobs)) is None:
        return
    from simulator import app, catalog
    from simulator.specs import Output, RunSpec

    if study == "ladder":
        if ladder_game is None:
            raise DealsimError(
                "report ladder needs a game: dealsim report ladder GAME --strategy A --strategy B"
            )
        _refuse_given(ctx, "report ladder (a ladder plays its own seats)", "seat", "matches", "run_dir")
        spec = RunSpec(ladder_game, deals, seed, None, rule, preset, rules, unit, chunk_size)
        where = Output(output, force, resume is not None)
        _show(app.ladder(spec, strategy, field, _execution(jobs, progress), where, report=True))
        return
    _refuse_given(ctx, f"report {study} (they are report ladder's)", "strategy", "field", "unit")
    if ladder_game is not None:
        raise DealsimError(f"report {study} takes no game ({ladder_game!r}): the study plays its own")
    if study == "run":
        if run_dir is None:
            raise DealsimError("report run needs --run DIR (a folder written by simulate -o)")
        _refuse_given(
            ctx, f"--run ({run_dir}/manifest.json fixes the run's options)", "matches", *RUN_OPTIONS
        )
        _show(app.report_run(run_dir, Output(output, force)))
        return
    if run_dir is not None:
        raise DealsimError(f"--run is for report run (a simulate -o folder); {study} plays its own deals")
    spec = RunSpec(catalog.study_game(study), deals, seed, seat, rule, preset, rules, None, chunk_size)
    where = Output(output, force, resume is not None)
    _show(app.report(study, spec, matches, _execution(jobs, progress), where))


@cli.command(
    cls=f.Command,
    epilog=examples(
        f"dealsim analyze forty-two --hand {HAND} -n 5000",
        f"dealsim analyze forty-two --hand {HAND} --seat W --seat EW=greedy -n 5000",
        f"dealsim analyze forty-two --hand {HAND} --play perfect -n 600",
    ),
)
def analyze(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.GameArg,
    hand: f.HandOpt,
    seat: f.HandSeatOpt = NONE,
    dealer: f.DealerOpt = None,
    deals: f.HandDealsOpt = 20_000,
    seed: f.SeedOpt = 1,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    play: f.PlayOpt = "strategies",
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Hold one hand fixed, deal the rest many times, play every trump and bid: P(make), expected score."""
    from simulator import app
    from simulator.specs import Output, RunSpec

    holder, strategies = _hand_seat(seat)
    spec = RunSpec(game, deals, seed, strategies, rule, preset, rules)
    _show(app.analyze(spec, hand, holder, dealer, play, _execution(jobs, progress), Output(output)), fmt)


def _hand_seat(given: list[str]) -> tuple[str, list[str]]:
    """analyze's --seat values as (the seat holding the hand, the SEAT=STRATEGY assignments): a value with
    "=" gives a seat its strategy, as in every command; one without names the hand's seat (default N)."""
    holders = [g for g in given if "=" not in g]
    if len(holders) > 1:
        raise DealsimError(
            f"--seat names the hand's seat once, not {' and '.join(holders)}; a strategy is SEAT=STRATEGY"
        )
    return (holders[0] if holders else "N"), [g for g in given if "=" in g]
