"""The command line's options, declared once with their help and shared by the commands that take them.

The lists in the help (games, studies, units, measures) come from the registries (simulator.catalog), read
only when a help is shown: a help text names them by tokens ({games}, {studies}, ...) that `Command` writes
out, so that starting `dealsim` for a listing or its version imports no game, study or report."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup


class Format(StrEnum):
    table = "table"
    json = "json"


class Keep(StrEnum):
    tables = "tables"
    summary = "summary"


class Backend(StrEnum):
    loky = "loky"
    threading = "threading"
    dask = "dask"


# The most deals (or matches) of a run, as simulator.runner.MAX_DEALS says (a test holds them equal): the
# runner itself is not imported for it, since it brings every game with it.
MAX_DEALS = 10**12

# token in a help text -> the function of simulator.catalog that writes it out
LISTS = {
    "{games}": "game_names",
    "{units}": "unit_words",
    "{measures}": "measure_names",
    "{studies}": "study_names",
    "{study_sizes}": "study_sizes",
}


def filled(text: str | None) -> str | None:
    """The help text with each list it names written out from the registries."""
    if not text or "{" not in text:
        return text
    from simulator import catalog

    for token, name in LISTS.items():
        if token in text:
            text = text.replace(token, getattr(catalog, name)())
    return text


def _prepare(command: Any, params: Iterable[Any]) -> None:
    """Before a help is shown: its lists written out, and no value type after a flag (typer shows <bool>
    after every bool option, `--force <bool>`, though a flag takes no value)."""
    command.help, command.epilog = filled(command.help), filled(command.epilog)
    for param in params:
        if getattr(param, "help", None):
            param.help = filled(param.help)
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


def _plain_values_as_given(params: Iterable[Any]) -> None:
    """typer (0.29 on) checks every value with a pydantic validator built on its first use, and importing
    pydantic to build one takes longer than a whole listing; even `--help` not given is checked (its value is
    None). A text option given as text, or a flag as True or False, passes those validators unchanged: such
    values are taken as they are here, and any other value (a number, a path, a flag from an environment
    variable) goes to typer's own validator. A typer without this machinery is left alone."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:
        return

    class AsGiven(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if type(value) is self.annotation:
                return value
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)

    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", 1) is not None:
            continue
        kind, info = descriptor.annotation, descriptor.parameter_info
        if kind in (str, bool) and info.parser is None and not param.multiple:
            param._runtime_param = AsGiven(parameter_info=info, annotation=kind)


class Command(TyperCommand):
    """A command whose help names the registries' lists and shows flags as flags, and that starts without
    pydantic where its values need no conversion."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_values_as_given(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        _plain_values_as_given([option] if option is not None else [])
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _prepare(self, self.get_params(ctx))
        super().format_help(ctx, formatter)


class Group(TyperGroup):
    """The command line itself, with the global options' flags shown as flags (and Command's start)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_values_as_given(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        _plain_values_as_given([option] if option is not None else [])
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _prepare(self, self.get_params(ctx))
        super().format_help(ctx, formatter)


Option = typer.Option
GAMES = "{games}"

# what a run is
GameArg = Annotated[str, typer.Argument(help=f"the game: {GAMES} (see `dealsim games`)")]
OptionalGame = Annotated[str | None, typer.Argument(help=f"the game: {GAMES}; not with --resume")]
ONLY_GAME = f"only this game ({GAMES}), with each of its strategies"
OnlyGame = Annotated[str | None, typer.Argument(help=ONLY_GAME)]
SeedOpt = Annotated[int, Option("--seed", min=0, help="the run's seed: the same seed gives the same numbers")]
SEAT = "SEAT=STRATEGY[:param=value,...], e.g. N=heuristic:margin=2 or EW=random (repeatable)"
SeatOpt = Annotated[list[str], Option("--seat", help=SEAT)]
STUDY_SEAT = (
    "SEAT=STRATEGY[:param=value,...], e.g. N=heuristic:margin=2 or EW=random (repeatable; default: learned "
    "for forty-two, heuristic elsewhere)"
)
StudySeatOpt = Annotated[list[str], Option("--seat", help=STUDY_SEAT)]
RuleOpt = Annotated[list[str], Option("--rule", help="one rule option as key=value (repeatable)")]
PresetOpt = Annotated[str, Option("--preset", help="rule preset to start from (see `dealsim games`)")]
RulesOpt = Annotated[list[str], Option("--rules", help="a TOML file of rule options (repeatable)")]
UNIT_WORDS = "the games' own words work too: {units}"
UNIT = f"deal or match (played to the target); default: each game's own (see `dealsim games`); {UNIT_WORDS}"
UnitOpt = Annotated[str | None, Option("--unit", help=UNIT)]
# tune's default is a whole match: a setting is judged by who wins the match, and some settings (the target,
# the Texas marks) act only over a match, where a single deal would show no difference
MATCH_UNIT = (
    "deal or match; default: match, since a sweep judges a setting by whole matches (the wins, and options "
    f"such as the target that act only over a match); {UNIT_WORDS}"
)
MatchUnitOpt = Annotated[str, Option("--unit", help=MATCH_UNIT)]
CHUNK = "deals per chunk; part of the run's definition (default per game and unit)"
ChunkOpt = Annotated[int | None, Option("--chunk-size", min=1, help=CHUNK)]
MEASURE = "an extra per-deal measure (repeatable): {measures}"
MeasureOpt = Annotated[list[str], Option("--measure", help=MEASURE)]

# how many
DEALS = "deals (or matches); default 100,000; with --resume, the run's new size; with --precision, the cap"
DealsOpt = Annotated[int | None, Option("-n", "--deals", min=1, help=DEALS)]
TraceDealsOpt = Annotated[int, Option("-n", "--deals", min=1, help="the run's size")]
ARM_DEALS = "deals (or matches) per arm; with --precision, the cap"
ArmDealsOpt = Annotated[int, Option("-n", "--deals", min=1, help=ARM_DEALS)]
POINT_DEALS = "deals (or matches) per setting; with --precision, the cap"
PointDealsOpt = Annotated[int, Option("-n", "--deals", min=1, help=POINT_DEALS)]
STUDY_DEALS = "deals of the main run, or games per arm (default: {study_sizes})"
StudyDealsOpt = Annotated[int | None, Option("-n", "--deals", min=1, help=STUDY_DEALS)]
HAND_DEALS = "deals of the other hands (the same deals for every choice)"
HandDealsOpt = Annotated[int, Option("-n", "--deals", min=1, help=HAND_DEALS)]
BENCH_DEALS = "deals (Frank's Zoo: games) per measurement (default: four chunks per core)"
BenchDealsOpt = Annotated[int | None, Option("-n", "--deals", min=1000, max=MAX_DEALS, help=BENCH_DEALS)]
MATCHES = "matches for the study's match-length part, where it has one (0 = none)"
MatchesOpt = Annotated[int | None, Option("--matches", "--games", min=0, max=MAX_DEALS, help=MATCHES)]

# how it runs
JobsOpt = Annotated[int, Option("-j", "--jobs", help="worker processes; 0 or less = all cores")]
BACKEND = "where chunks run: loky (processes), threading, or dask (--scheduler, or a local cluster)"
BackendOpt = Annotated[Backend, Option("--backend", help=BACKEND)]
SCHEDULER = "with --backend dask: the scheduler, e.g. tcp://host:8786 (also DASK_SCHEDULER_ADDRESS)"
SchedulerOpt = Annotated[str | None, Option("--scheduler", help=SCHEDULER)]
PROGRESS = "progress bar on stderr (default: when it is a terminal)"
ProgressOpt = Annotated[bool | None, Option("--progress/--no-progress", help=PROGRESS)]

# where it goes
FormatOpt = Annotated[Format, Option("--format", help="results on stdout as a table or as JSON")]
OutputOpt = Annotated[Path | None, Option("-o", "--output", help="write the results and their files here")]
REPORT_OUTPUT = "folder for report.html, CSV and PNG (default: ./STUDY)"
ReportOutputOpt = Annotated[Path | None, Option("-o", "--output", help=REPORT_OUTPUT)]
ForceOpt = Annotated[
    bool, Option("--force", help="write into a non-empty -o folder, replacing dealsim's outputs")
]
RESUME = "go on with the command that wrote this folder (-o): the same options, the chunks it saved kept"
ResumeOpt = Annotated[Path | None, Option("--resume", help=RESUME)]
RESUME_RUN = "go on with the run in this folder (simulate -o): its manifest's options, its whole parts kept"
ResumeRunOpt = Annotated[Path | None, Option("--resume", help=RESUME_RUN)]
# The size up to which simulate -o also joins each table into one file, as simulator.specs.COMBINE_UP_TO says
# (a test holds them equal; the specs are not imported for it).
COMBINE_UP_TO = 2_000_000
COMBINE = (
    "also join each table's parts into one file, DIR/deals.parquet (default: for runs of up to 2,000,000 "
    "deals or matches, so that a bigger one does not take its disk twice; DIR/parts/deals/ holds the table "
    "either way; --resume keeps the run's choice), e.g. --no-combine"
)
CombineOpt = Annotated[bool | None, Option("--combine/--no-combine", help=COMBINE)]
KEEP = (
    "tables, or summary: only summary.json, summary.csv and the manifest, for a run too big to store (it has "
    "no parts: --resume plays it again), e.g. --keep summary"
)
KeepOpt = Annotated[Keep, Option("--keep", help=KEEP)]
RUN_DIR = "a folder written by simulate -o: the run's options from its manifest"
RunDirOpt = Annotated[Path | None, Option("--run", help=RUN_DIR)]

# what a command varies or holds
VS = "arm B's seats, SEAT=STRATEGY (repeatable; the whole spec: arm A's parameters do not carry over)"
VsOpt = Annotated[list[str], Option("--vs", help=VS)]
VsRuleOpt = Annotated[list[str], Option("--vs-rule", help="arm B's rule changes, key=value (repeatable)")]
MARGIN = (
    "an equivalence margin: say which measures are shown within ±MARGIN of each other (90% paired interval "
    "inside; points for means, percentage points for rates)"
)
MarginOpt = Annotated[float | None, Option("--margin", help=MARGIN)]
ROTATE = (
    "also play every deal with each strategy moved one seat on (the changed side's strategies at the other "
    "side's seats) and report, per measure, the mean of the two paired differences deal by deal beside the "
    "plain one, with how much it narrows the interval; costs twice the deals played (1.5 times where the "
    "turn leaves arm A as it was); a change of one side's strategies only"
)
RotateOpt = Annotated[bool, Option("--rotate", help=ROTATE)]
VARY = "KEY=v1,v2,... or KEY=lo:hi[:step]; KEY is a rule option, seat.SEATS.param or seat.SEATS (repeatable)"
VaryOpt = Annotated[list[str], Option("--vary", help=VARY)]
BASELINE = "KEY=VALUE: the setting the others are compared with (default: the current values)"
BaselineOpt = Annotated[list[str], Option("--baseline", help=BASELINE)]
CONFIRM = "play every measure's best set again on N fresh deals (or matches) from an independent seed"
ConfirmOpt = Annotated[int, Option("--confirm", min=0, help=CONFIRM)]
PRECISION = (
    "MEASURE=HALFWIDTH: play until this measure's 95% interval is at most ±HALFWIDTH (pp for a rate, points "
    "for a mean), -n being the cap; a pilot of whole chunks decides the size, so give a --chunk-size of a "
    "few hundred (repeatable), e.g. --precision 'contract success=0.5pp'"
)
PrecisionOpt = Annotated[list[str], Option("--precision", help=PRECISION)]
STUDY = (
    "the study: {studies}, or run (the report of a simulate -o folder: --run DIR), or ladder GAME (a "
    "strategy ladder: --strategy, twice or more)"
)
StudyArg = Annotated[str | None, typer.Argument(help=STUDY)]
STUDY_GAME = f"with ladder: the game ({GAMES})"
StudyGameArg = Annotated[str | None, typer.Argument(help=STUDY_GAME, show_default=False)]
STRATEGY = (
    "a strategy of the ladder, NAME[:param=value,...] or module:Class (repeatable, at least twice), e.g. "
    "--strategy greedy --strategy heuristic:margin=2"
)
StrategyOpt = Annotated[list[str], Option("--strategy", help=STRATEGY)]
FIELD = (
    "where every seat scores for itself (Frank's Zoo): the strategy at the seats the entrant does not take "
    "(default: the game's default strategy)"
)
FieldOpt = Annotated[str | None, Option("--field", help=FIELD)]
LADDER_DEALS = "deals (or matches) per orientation (per seat against a field); default 10,000"
LadderDealsOpt = Annotated[int | None, Option("-n", "--deals", min=1, help=LADDER_DEALS)]
HandOpt = Annotated[str, Option("--hand", help='the fixed hand, e.g. "6-6 6-5 5-5 4-4 6-4 3-2 1-0"')]
HAND_SEAT = (
    "SEAT=STRATEGY[:param=value,...] for the play, as in every command (repeatable; default: learned; "
    "--strategy is its old name); or a seat alone, e.g. W: the seat holding the hand, "
    "which declares (default N)"
)
HandSeatOpt = Annotated[list[str], Option("--seat", "--strategy", help=HAND_SEAT)]
DealerOpt = Annotated[str | None, Option("--dealer", help="the dealer (default: the seat on its right)")]
PLAY = "strategies (the seats' strategies play each contract) or perfect (double dummy: every hand seen)"
PlayOpt = Annotated[str, Option("--play", help=PLAY)]
DealOpt = Annotated[int, Option("--deal", min=0, help="the deal's (or match's) number in the run, from 0")]
JsonOpt = Annotated[bool, Option("--json", help="print one JSON record")]

# bench
AllOpt = Annotated[
    bool, Option("--all", help="every game with each strategy and its yardstick (the ratio table)")
]
REPEAT = "measure each strategy and the yardstick this many times in turn; the median counts"
RepeatOpt = Annotated[int, Option(min=1, max=100, help=REPEAT)]
ScalingOpt = Annotated[bool, Option(help="also time each game's default run on 1 core and on all cores")]
SECONDS = "size each scaling run to last at least this long on one core"
ScalingSecondsOpt = Annotated[float | None, Option(min=1, help=SECONDS)]
YARDSTICK = "the game's yardstick script (default: the game's own, in benchmarks/)"
YardstickOpt = Annotated[Path | None, Option(help=YARDSTICK)]
