"""The `dealsim` command line: parses (the options are declared in simulator.flags), builds the use case's
specs, calls one function of `simulator.app`, prints the result's own rendering or its JSON."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from simulator import app, catalog, shell
from simulator import flags as f
from simulator.errors import DealsimError
from simulator.flags import Backend, Format
from simulator.shell import Settings, out
from simulator.specs import Execution, Output, RunSpec
from simulator.summaries import to_json
from simulator.version import __version__

cli = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Monte Carlo strategy simulator for Forty-two, Frank's Zoo and Rounds.",
)

# The options that define a run: given with --run or --resume, whose folder fixes them, they are refused.
RUN_OPTIONS = ("game", "seed", "deals", "preset", "rules", "rule", "seat", "unit", "chunk_size", "measure")
NONE: list[str] = []  # every list option's default: typer reads it, never changes it


def main() -> None:
    """The console script: every failure ends in one line on stderr (see simulator.shell)."""
    shell.run(cli)


def _show_version(value: bool) -> None:
    if value:
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
    shown = False if Settings.quiet else (sys.stderr.isatty() if progress is None else progress)
    return Execution(jobs, backend.value, scheduler if backend is Backend.dask else None, shown)


def _show(result: Any, fmt: Format = Format.table) -> None:
    """The result's JSON, or its rendering (rich tables and lines), on stdout."""
    if fmt is Format.json:
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
    recorded = app.recorded_command(resume)
    if len(recorded) < 2 or recorded[1].startswith("-"):  # a command without its subject would resume itself
        raise DealsimError(f"the command recorded in {resume} names no game or study: {' '.join(recorded)!r}")
    again = [*recorded, "-o", str(resume), "--resume", str(resume), "-j", str(jobs)]
    cli(again, standalone_mode=False, prog_name="dealsim")
    return None


@cli.command("games")
def games_cmd() -> None:
    """List the games with their units, rule options, defaults and presets."""
    for part in catalog.games_listing():
        out.print(part)


@cli.command("strategies")
def strategies_cmd(game: f.OnlyGame = None) -> None:
    """List the strategies of each game with their parameters."""
    for part in catalog.strategies_listing(game):
        out.print(part)


@cli.command()
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
    jobs: f.JobsOpt = 0,
    backend: f.BackendOpt = Backend.loky,
    scheduler: f.SchedulerOpt = None,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeRunOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Play many seeded deals and summarize them; with -o, every finished chunk is saved as it arrives.

    Example: dealsim simulate forty-two -n 200000 --seat NS=heuristic:margin=2 -o runs/margin2"""
    execution = _execution(jobs, progress, backend, scheduler)
    if resume is not None:
        fixed = [name for name in RUN_OPTIONS if name != "deals"]
        _refuse_given(
            ctx,
            f"--resume ({resume}/manifest.json fixes the run; -n may resize it)",
            *fixed,
            "output",
            "force",
        )
        sim = app.resume(resume, deals, execution)
    elif game is None:
        raise DealsimError("simulate needs a game (see `dealsim games`), or --resume DIR")
    else:
        spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size, measure)
        sim = app.simulate(spec, execution, Output(output, force))
    _show(sim, fmt)
    if not sim.result.complete:
        raise typer.Exit(130)  # main() says "interrupted", as for Ctrl-C in any command


@cli.command()
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
    -n matters for the deals of the last chunk).

    Example: dealsim trace rounds --deal 7 --seat 0=greedy"""
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


@cli.command()
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
    compiled yardstick and against random play, in the same run.

    Example: dealsim bench --all --repeat 3 --no-scaling"""
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


@cli.command()
def compare(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.OptionalGame = None,
    vs: f.VsOpt = NONE,
    vs_rule: f.VsRuleOpt = NONE,
    deals: f.ArmDealsOpt = 100_000,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.UnitOpt = None,
    chunk_size: f.ChunkOpt = None,
    measure: f.MeasureOpt = NONE,
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Two arms on the same deals: paired differences of each measure, with 95% intervals. Arm A is --seat
    and --rule; arm B changes it by --vs and --vs-rule.

    Example: dealsim compare forty-two --vs NS=heuristic:margin=2 -n 50000"""
    if (game := _subject(game, resume, output, jobs)) is None:
        return
    spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size, measure)
    where = Output(output, force, resume is not None)
    _show(app.compare(spec, vs, vs_rule, _execution(jobs, progress), where), fmt)


@cli.command()
def tune(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.OptionalGame = None,
    vary: f.VaryOpt = NONE,
    baseline: f.BaselineOpt = NONE,
    deals: f.PointDealsOpt = 20_000,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    unit: f.MatchUnitOpt = "match",
    chunk_size: f.ChunkOpt = None,
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    force: f.ForceOpt = False,
    resume: f.ResumeOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Sweep rule options or strategy parameters on common deals: one column per setting, with intervals.

    Example: dealsim tune forty-two --vary min_bid=30,31,32 -n 5000"""
    if (game := _subject(game, resume, output, jobs)) is None:
        return
    if not vary:
        raise DealsimError("tune needs at least one --vary KEY=VALUES")
    spec = RunSpec(game, deals, seed, seat, rule, preset, rules, unit, chunk_size)
    where = Output(output, force, resume is not None)
    _show(app.tune(spec, vary, baseline, _execution(jobs, progress), where), fmt)


@cli.command()
def report(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    ctx: typer.Context,
    study: f.StudyArg = None,
    deals: f.StudyDealsOpt = None,
    matches: f.MatchesOpt = None,
    seed: f.SeedOpt = 1,
    seat: f.SeatOpt = NONE,
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
    """Run a named study and write a self-contained HTML report with its tables (CSV) and plots (PNG).

    Example: dealsim report bid-success -n 200000"""
    if (study := _subject(study, resume, output, jobs)) is None:
        return
    if study == "run":
        if run_dir is None:
            raise DealsimError("report run needs --run DIR (a folder written by simulate -o)")
        _refuse_given(
            ctx, f"--run ({run_dir}/manifest.json fixes the run's options)", "matches", *RUN_OPTIONS
        )
        _show(app.report_run(run_dir, Output(output, force)))
        return
    spec = RunSpec(catalog.study_game(study), deals, seed, seat, rule, preset, rules, None, chunk_size)
    where = Output(output, force, resume is not None)
    _show(app.report(study, spec, matches, _execution(jobs, progress), where))


@cli.command()
def analyze(  # noqa: PLR0913, PLR0917 (typer takes each option as a parameter; they become specs at once)
    game: f.GameArg,
    hand: f.HandOpt,
    seat: f.HandSeatOpt = "N",
    dealer: f.DealerOpt = None,
    deals: f.HandDealsOpt = 20_000,
    seed: f.SeedOpt = 1,
    strategy: f.StrategyOpt = NONE,
    rule: f.RuleOpt = NONE,
    preset: f.PresetOpt = "seed",
    rules: f.RulesOpt = NONE,
    play: f.PlayOpt = "strategies",
    jobs: f.JobsOpt = 0,
    output: f.OutputOpt = None,
    fmt: f.FormatOpt = Format.table,
    progress: f.ProgressOpt = None,
) -> None:
    """Hold one hand fixed, deal the rest many times, play every trump and bid: P(make), expected score.

    Example: dealsim analyze forty-two --hand "6-6 6-5 5-5 4-4 6-4 3-2 1-0" -n 5000"""
    spec = RunSpec(game, deals, seed, strategy, rule, preset, rules)
    _show(app.analyze(spec, hand, seat, dealer, play, _execution(jobs, progress), Output(output)), fmt)
