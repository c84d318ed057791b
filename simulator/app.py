"""The application layer: what the command line does, as plain Python. Each use case takes a run spec, how
to execute it and where to write it, runs it and returns a result that renders (for a console) and
serialises itself (`as_dict`); the CLI only parses, calls one of these and prints. It is also the API for
notebooks:

    from simulator import Execution, RunSpec, compare, simulate
    sim = simulate(RunSpec("forty-two", n=20_000, seats={"NS": "heuristic"}, rules={"min_bid": 31}))
    sim.deals            # one row per hand (DataFrame); sim.matches with unit="match"
    sim.summary          # nested dicts of Rate / Mean
    sim.manifest         # provenance: version, seed, rules, strategies, the command that reproduces it
    cmp = compare(RunSpec("forty-two", n=20_000), vs={"NS": "heuristic:margin=2"}, execution=Execution(2))
    cmp.frame()          # per measure: a, b, diff, lo, hi (paired 95%), narrowing
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reports import run_report, studies
from reports.experiments import compare_report, tune_report
from reports.ladder import ladder_report
from simulator import experiments, ladders, registry, replay
from simulator.bench import Bench, bench
from simulator.errors import DealsimError, Interrupted
from simulator.files import write_whole
from simulator.options import parse_pairs
from simulator.outputs import recorded_command, saved
from simulator.parts import TABLES, PartStore
from simulator.provenance import command_line, provenance, seats_text
from simulator.results import HandAnalysis, Simulation, StudyReport, read_tables
from simulator.runner import Run, chunk, execute, map_chunks
from simulator.specs import (
    COMBINE_UP_TO,
    Assignments,
    Execution,
    Output,
    RuleValues,
    RunSpec,
    run_from_manifest,
    whole,
)
from simulator.summaries import flatten, json_safe, to_json

TIMINGS = "timings.json"  # how each attempt at a simulate run went: kept out of the manifest

__all__ = [
    "Bench",
    "Execution",
    "Output",
    "RunSpec",
    "analyze",
    "bench",
    "compare",
    "ladder",
    "recorded_command",
    "report",
    "report_run",
    "resume",
    "run_from_manifest",
    "simulate",
    "trace",
    "tune",
]


# --- simulate ---------------------------------------------------------------------------------------------
def simulate(
    spec: RunSpec,
    execution: Execution = Execution(),
    output: Output = Output(),
    precision: Sequence[str] = (),
) -> Simulation:
    """Play the spec's seeded deals (or matches) and summarize them; with an output folder, every finished
    chunk is streamed there as a part (see simulator.parts), then the summary and manifest (and, by default
    for runs of up to COMBINE_UP_TO deals, each table as one file; see Output). The folder is locked while
    the run writes it. With `precision` targets (["contract success=0.5pp"]: see simulator.precision), the
    spec's n is a cap: chunks are added, by a two-stage rule, until each measure's 95% half-width meets its
    target; `Simulation.precision` says the n taken and what each target reached."""
    if output.resume:
        raise DealsimError("simulate starts a run; go on with one in a folder by resume(folder)")
    run = spec.build()
    targets = precision_targets(run, precision)
    combine = output.combine if output.combine is not None else run.n <= COMBINE_UP_TO
    with output.claim() as folder:
        return _simulate(run, execution, folder, False, output.keep, combine and folder is not None, targets)


def precision_targets(run: Run, given: Sequence[str], sides: Sequence[int] | None = None) -> tuple[Any, ...]:
    """The `--precision` targets, checked against the measures the run has for `sides` (every side by
    default) before anything is played or written."""
    from simulator import precision

    targets = precision.parse(given)
    if targets:
        every = range(len(run.game.sides(run.rules))) if sides is None else sides
        precision.check(targets, precision.measures_of(run, every))
    return targets


def resume(
    folder: Path | str, n: int | None = None, execution: Execution = Execution(), combine: bool | None = None
) -> Simulation:
    """Go on with the run in `folder` (started by simulate with that output folder): its options from the
    manifest, its valid parts kept, missing or damaged ones played again; with `n`, the run extended (or
    cut) to n deals; with `combine`, its tables joined into one file each (or not) whatever the run said.
    A run that kept only its summary has no parts: it is played again from the start. Nothing in the folder
    changes when the resume is refused (another run writing it, or parts of a different run)."""
    folder = Path(folder)
    if not (folder / "manifest.json").exists():
        raise DealsimError(f"nothing to resume in {folder}: it has no manifest.json of a simulate run")
    with Output(folder, resume=True, combine=combine).claim() as claimed:
        run = run_from_manifest(folder)
        recorded = json.loads((folder / "manifest.json").read_text())
        targets: tuple[Any, ...] = ()
        if recorded.get("precision"):  # the targets and the cap are the run's, its deals only where it ended
            targets = precision_targets(run, recorded["precision"]["targets"])
            run = dataclasses.replace(run, n=int(recorded["precision"]["cap"]))
        if n is not None:
            run = dataclasses.replace(run, n=whole("n", n, 1))
        keep = recorded.get("keep", "tables")
        if combine is None:
            combine = recorded.get("combine", run.n <= COMBINE_UP_TO) and keep == "tables"
        elif combine and keep == "summary":
            raise DealsimError(
                f"{folder} keeps only its summary (--keep summary): there are no tables to combine"
            )
        return _simulate(run, execution, claimed, True, keep, bool(combine), targets)


def _simulate(  # noqa: PLR0913 (the run, how and where it runs, and its targets)
    run: Run,
    execution: Execution,
    folder: Path | None,
    resume: bool,
    keep: str,
    combine: bool,
    targets: Sequence[Any] = (),
) -> Simulation:
    from simulator import precision

    aimed = [w for t in targets for w in ("--precision", t.text)]
    cap = precision.Outcome(tuple(t.text for t in targets), run.n, precision.pilot_size(run))

    def definition(r: Run, outcome: precision.Outcome | None) -> dict[str, Any]:
        # a precision run's command names its cap, its deals are where it ended
        told = {"command": command_line("simulate", dataclasses.replace(r, n=run.n), *aimed), **provenance(r)}
        return {**told, "precision": outcome.as_dict()} if outcome is not None else told

    defined = definition(run, cap if targets else None)
    store = None
    if folder is not None:
        if keep == "tables":  # refuses the parts of a different run before anything is written
            store = PartStore(folder, run, reuse=resume)
        # the manifest comes next: a run killed before its end can be resumed from it
        write_whole(
            folder / "manifest.json",
            to_json({**defined, "keep": keep, "combine": combine, "complete": False}),
        )
        for name in TABLES:  # the combined tables of an earlier attempt no longer hold the run
            (folder / f"{name}.parquet").unlink(missing_ok=True)
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")

    def play(r: Run, earlier: Any = None, on_tables: Any = None) -> Any:
        return execute(
            r,
            jobs=execution.jobs,
            backend=execution.backend,
            progress=execution.progress,
            store=store,
            summarize=True,
            keep_tables=folder is None and keep == "tables",
            scheduler=execution.scheduler,
            earlier=earlier,
            on_tables=on_tables,
        )

    outcome = None
    if targets:
        result, outcome = _to_precision(run, targets, play, cap)
        defined = definition(result.run, outcome)
    else:
        result = play(run)
    if not result.chunks_done:
        raise Interrupted("interrupted before the first chunk finished; nothing to report")
    # what the run is and holds (the same bytes however it got there) apart from how this attempt went
    manifest = {
        **defined,
        "keep": keep,
        "combine": combine,
        "deals_done": result.deals_done,
        "complete": result.complete,
    }
    timing = {
        "started_at": started,
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "elapsed_seconds": round(result.elapsed, 3),
        "jobs": result.jobs,
        "backend": execution.backend,
        "resumed": resume,
        "chunks_played": result.chunks_done - result.reused,
        "chunks_reused": result.reused,
        "deals_done": result.deals_done,
    }
    sim = Simulation(result, result.summary or {}, manifest, folder, timing, outcome)
    if folder is not None:
        if store is not None:
            store.finish()
        if combine and store is not None and result.complete:  # an interrupted run is in its parts
            # the run's definition travels with the data: read_schema(path).metadata[b"dealsim"] (timings
            # stay out, so a resumed run's tables are byte for byte an uninterrupted run's)
            store.combine(folder, result.chunks_done, {b"dealsim": to_json(defined).encode()})
        flatten(sim.summary).to_csv(folder / "summary.csv", index=False)
        write_whole(folder / "summary.json", to_json(sim.summary))
        write_whole(folder / "manifest.json", to_json(manifest))
        _record_timing(folder, timing, resume)
    return sim


def _to_precision(run: Run, targets: Sequence[Any], play: Any, cap: Any) -> tuple[Any, Any]:
    """The run played to its precision targets (simulator.precision): each target's measure gathered chunk
    by chunk, the size decided from the pilot, and per target the estimate's half-width reached."""
    from simulator import precision
    from simulator.stats import estimate

    sides = range(len(run.game.sides(run.rules)))
    gathered = precision.Collector(run.game, run.unit, sides, [t.measure for t in targets])

    def spreads(pilots: list[Any]) -> dict[str, float]:
        ms = gathered.measures(pilots[0].chunks_done)
        return {name: precision.spread(m.influence()) for name, m in ms.items()}

    results, n, asked = precision.two_stage(
        [run], targets, lambda r, earlier: play(r, earlier, gathered.add), spreads
    )
    result = results[0]
    if n is None or not result.complete:
        return result, dataclasses.replace(cap, n=n)
    final = gathered.measures(result.chunks_done)
    reached = []
    for t in targets:
        e = estimate(final[t.measure])
        reached.append(precision.reached(t, precision.halfwidth(e.lo, e.hi), *asked[t.measure]))
    return result, dataclasses.replace(cap, n=n, reached=tuple(reached))


def _record_timing(folder: Path, timing: dict[str, Any], resume: bool) -> None:
    """This attempt's timing appended to folder/timings.json (a fresh run starts the list)."""
    attempts: list[Any] = []
    if resume:
        try:
            attempts = json.loads((folder / TIMINGS).read_text())["attempts"]
        except (OSError, ValueError, KeyError, TypeError):
            attempts = []
    write_whole(folder / TIMINGS, to_json({"attempts": [*attempts, timing]}))


# --- trace ------------------------------------------------------------------------------------------------
def trace(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` move by move: text, or a JSON-able record with the run's provenance."""
    told = replay.trace(run, deal, as_json)
    return json_safe({**provenance(run), "trace": told}) if as_json else told


# --- compare and tune -------------------------------------------------------------------------------------
def compare(
    spec: RunSpec,
    vs: Assignments = None,
    vs_rules: RuleValues = None,
    execution: Execution = Execution(),
    output: Output = Output(),
    margin: float | None = None,
    rotate: bool = False,
    precision: Sequence[str] = (),
) -> experiments.Comparison:
    """Arm A (the spec) against arm B (A with the seats `vs` and the rule changes `vs_rules`) on the same
    deals. With an output folder, every arm's chunks are saved there as they finish and the report is
    written at the end; `output.resume` goes on from the saved chunks. With a `margin`, the findings say
    which measures are shown equivalent within it (`experiments.Comparison.equivalence`). With `rotate`,
    both arms are also played with the seating turned one seat on, and each measure gets the seat-rotated
    estimate beside the plain one (`experiments.Rotation`); a change of rules alone is refused. With
    `precision` targets (["NS contract success=1pp"]), the spec's n is a cap and both arms grow until each
    target's paired interval A - B is that narrow (simulator.precision); not with `rotate`."""
    execution.local("compare")
    if margin is not None and not margin > 0:  # also NaN
        raise DealsimError(f"--margin: expected a number above 0, got {margin:g}")
    a = spec.build()
    vs_list = _pairs(vs)
    vs_rule_list = _pairs(vs_rules)
    b = experiments.arm_b(a, vs_list, vs_rule_list)
    if rotate:
        experiments.rotation_sides(a, b)  # refused before the folder is touched
        if precision:
            raise DealsimError(
                "--rotate and --precision cannot be used together: a precision target sizes the plain "
                "paired difference, not the seat-rotated one; give -n instead"
            )
    output.simulate_only("compare")
    targets = precision_targets(a, precision, experiments.changed_sides(a, b))
    extra = [w for item in vs_list for w in ("--vs", item)]
    extra += [w for item in vs_rule_list for w in ("--vs-rule", item)]
    extra += ["--margin", f"{margin:g}"] if margin is not None else []
    extra += ["--rotate"] if rotate else []
    extra += [w for t in targets for w in ("--precision", t.text)]
    command = command_line("compare", a, *extra)
    with output.claim() as folder:
        with saved(folder, command, output.resume):
            comparison = experiments.compare(
                a,
                b,
                jobs=execution.jobs,
                progress=execution.progress,
                margin=margin,
                rotate=rotate,
                precision=targets,
            )
        if folder is not None:
            compare_report(comparison, comparison.provenance(), command).write(folder)
    return comparison


def tune(
    spec: RunSpec,
    vary: Mapping[str, str] | Sequence[str],
    baseline: Mapping[str, str] | Sequence[str] | None = None,
    execution: Execution = Execution(),
    output: Output = Output(),
    confirm: int = 0,
    precision: Sequence[str] = (),
) -> experiments.Sweep:
    """A sweep over rule options and strategy parameters (`{"min_bid": "28,30,32"}` or
    `["seat.NS.threshold=30:36"]`) on common deals (20,000 whole matches unless the spec says otherwise):
    one point per setting of the grid, each compared pair by pair with the baseline point (`baseline`, e.g.
    `{"min_bid": "30"}`; default: the current values). `confirm` > 0 plays every measure's best set again on
    that many fresh deals from an independent seed, reported beside the sweep's. With `precision` targets
    (["player 0 wins=2pp"]), n is a cap and every setting grows until, per target, the widest paired
    interval against the baseline is that narrow (simulator.precision)."""
    execution.local("tune")
    if confirm < 0:
        raise DealsimError(f"confirm: expected a number of deals >= 0, got {confirm}")
    base = spec.build(n=20_000, unit="match", study=True)
    items = _pairs(vary)
    if not items:
        raise DealsimError("tune needs at least one setting to vary, e.g. vary={'min_bid': '28,30,32'}")
    grid = experiments.parse_vary(items)
    chosen = dict(baseline) if isinstance(baseline, Mapping) else parse_pairs("baseline", baseline or ())
    # every setting and the baseline are checked before the folder is touched and the first run starts
    points = experiments.settings(base, grid)
    experiments.baseline_points(base, grid, points, chosen or None)
    side = max((experiments.focus_side(base, run) for _, run in points), default=0)
    targets = precision_targets(base, precision, [side])
    output.simulate_only("tune")
    extra = [w for item in items for w in ("--vary", item)]
    extra += [w for k, v in chosen.items() for w in ("--baseline", f"{k}={v}")]
    extra += ["--confirm", str(confirm)] if confirm else []
    extra += [w for t in targets for w in ("--precision", t.text)]
    command = command_line("tune", base, *extra, study=True)
    with output.claim() as folder:
        with saved(folder, command, output.resume):
            sweep = experiments.tune(
                base,
                grid,
                jobs=execution.jobs,
                progress=execution.progress,
                baseline=chosen or None,
                confirm=confirm,
                precision=targets,
            )
        if folder is not None:
            tune_report(sweep, sweep.provenance(), command).write(folder)
    return sweep


LADDER_SIZE = 10_000  # deals (or matches) per orientation or seat when the spec gives no size


def ladder(
    spec: RunSpec,
    strategies: Sequence[str],
    field: str | None = None,
    execution: Execution = Execution(),
    output: Output = Output(),
    report: bool = False,
) -> ladders.Ladder:
    """The ladder of `strategies` on the spec's deals (each orientation or seat plays the same
    `spec.n`, by default LADDER_SIZE, deals or matches; see `simulator.ladders`). With an output folder the
    runs' chunks are saved there as they finish and the report (HTML, CSV, PNG, provenance) is written at
    the end; `report` marks the command as `dealsim report ladder` (whose folder defaults to ./ladder)."""
    execution.local("ladder")
    spec.refuse("ladder", seats=None, measures=())
    base = spec.build(n=LADDER_SIZE)
    entrants = ladders.entrants_of(base, strategies)
    output.simulate_only("ladder")
    extra = [w for s in entrants for w in ("--strategy", s)]
    extra += ["--field", field] if field is not None else []
    command = command_line("ladder", base, *extra)
    if report:
        command = command.replace("dealsim ladder ", "dealsim report ladder ", 1)
    with output.claim() as given:
        folder = given or (Path("ladder") if report else None)
        with saved(given, command, output.resume):
            result = ladders.ladder(base, entrants, field, jobs=execution.jobs, progress=execution.progress)
        if folder is not None:
            written = ladder_report(result, result.provenance(), command).write(folder)
            result = dataclasses.replace(result, written=tuple(written), folder=folder)
    return result


def _pairs(given: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    """{"N": "greedy"} or ["N=greedy"] as ["N=greedy"]."""
    if isinstance(given, Mapping):
        return [f"{k}={v}" for k, v in given.items()]
    return list(given or ())


# --- analyze ----------------------------------------------------------------------------------------------
def analyze(
    spec: RunSpec,
    hand: str,
    seat: str = "N",
    dealer: str | None = None,
    play: str = "strategies",
    execution: Execution = Execution(),
    output: Output = Output(),
) -> HandAnalysis:
    """Hold `hand` at `seat` (the declarer), deal the rest (20,000 times unless the spec says otherwise), and
    play every choice on those deals, by the strategies (`play="strategies"`) or double dummy
    (`play="perfect"`: every hand seen, perfect play). The dealer defaults to the seat on the declarer's
    right."""
    execution.local("analyze")
    if play not in ("strategies", "perfect"):
        raise DealsimError(f"play is strategies or perfect, not {play!r}")
    if play == "perfect" and spec.seats:
        raise DealsimError(
            "--play perfect plays every choice double dummy and reads no strategy: leave out the strategies "
            f"of --seat ({', '.join(spec.seats)})"
        )
    g = registry.get(spec.game)
    if g.analysis is None:
        raise DealsimError(f"analyze is not available for {g.name}")
    spec.refuse("analyze", unit="deal", chunk_size=g.analysis.chunk_size, measures=())
    if output.force or output.resume:
        raise DealsimError("analyze writes a fresh folder: force and resume do not apply")
    output.simulate_only("analyze")
    a = g.analysis
    fixed = a.parse_hand(hand)
    run = dataclasses.replace(spec, unit="deal", chunk_size=a.chunk_size).build(n=20_000, study=True)
    names = list(g.seat_names(run.rules))

    def one_seat(option: str, name: str) -> int:
        seat_ids = g.seats_of(name, run.rules)
        if len(seat_ids) != 1:  # a side (NS) or `all` names more than one
            raise DealsimError(f"the {option} names one seat ({', '.join(names)}), not {name!r}")
        return seat_ids[0]

    seat_i = one_seat("seat", seat)
    dealer_i = (seat_i - 1) % len(names) if dealer is None else one_seat("dealer", dealer)
    folder = output.prepare()
    start = time.perf_counter()
    perfect = {"perfect": True} if play == "perfect" else {}

    def one(r: Run, k: int) -> Any:
        return a.play_chunk(fixed, seat_i, dealer_i, r.rules, chunk(r, k), **perfect)

    parts = map_chunks(one, run, execution.jobs, execution.progress, f"analyze: {run.n:,} deals")
    frame = a.frame(parts)
    elapsed = time.perf_counter() - start
    extra = ["--hand", hand, "--seat", names[seat_i], "--dealer", names[dealer_i]]
    extra += ["--play", play] if play != "strategies" else []
    command = command_line("analyze", run, *extra, unit=False, chunking=False, study=True)
    prov = provenance(
        run,
        hand=hand,
        seat=names[seat_i],
        dealer=names[dealer_i],
        play=play,
        elapsed_seconds=round(elapsed, 2),
        command=command,
    )
    if folder is not None:
        frame.to_csv(folder / "analyze.csv", index=False)
        write_whole(folder / "provenance.json", to_json(prov))
    advice = a.advise(parts, frame)
    played = "double dummy, every hand seen" if play == "perfect" else seats_text(names, run.seats)
    rendered = [*a.render(frame, advice, hand, names[seat_i], run.n), f"play: {played}"]
    return HandAnalysis(frame, a.best(frame), advice, prov, rendered)


# --- studies ----------------------------------------------------------------------------------------------
def report(
    study: str,
    spec: RunSpec | None = None,
    matches: int | None = None,
    execution: Execution = Execution(),
    output: Output = Output(),
) -> StudyReport:
    """Run a named study (see `reports.studies`) and write its report (HTML, CSV, PNG, provenance) to the
    output folder (default ./STUDY). The spec's game is the study's; its size defaults to the study's."""
    execution.local("report")
    s = studies.get(study)
    spec = spec or RunSpec(s.game)
    if registry.get(spec.game) is not registry.get(s.game):
        raise DealsimError(f"the study {study} plays {s.game}, not {registry.get(spec.game).name}")
    spec.refuse(study, unit=s.unit, measures=())
    base = dataclasses.replace(spec, unit=s.unit).build(n=s.default_deals, study=True)
    matches = s.default_matches(base.n) if matches is None else whole("matches", matches, 0)
    # an explicit output folder is checked like any; the default ./STUDY holds the study's last report
    output.simulate_only("report")
    with output.claim() as given:
        folder = given or Path(study)
        start = time.perf_counter()
        uses_matches = matches or s.default_matches(base.n)  # a study without a match part takes no --matches
        extra = ["--matches", str(matches)] if uses_matches else []
        command = command_line("report", base, *extra, subject=study, unit=False, study=True)
        prov = provenance(base, study=study, matches=matches)
        with saved(given, command, output.resume):
            rep, headline = s.build(base, matches, execution.jobs, execution.progress, command, prov)
        written = rep.write(folder)
    return StudyReport(study, folder, written, headline, base.n, matches, time.perf_counter() - start)


def report_run(run_folder: Path | str, output: Output = Output()) -> StudyReport:
    """The report of a finished run folder (written by simulate): its tables read back, summarized by its
    game, written to the output folder (default: RUN_FOLDER/report), without playing anything."""
    source = Path(run_folder)
    run = run_from_manifest(source)
    manifest = json.loads((source / "manifest.json").read_text())
    if manifest.get("keep") == "summary":
        raise DealsimError(f"{source} keeps only its summary (--keep summary): it has no tables to report on")
    tables = read_tables(source)
    if "deals" not in tables:
        raise DealsimError(f"{source} has no deals table (deals.parquet, or its parts in parts/deals)")
    start = time.perf_counter()
    summary = run.game.summary(tables, run.unit)
    done = manifest.get("deals_done", run.n)
    rep = run_report.build(
        summary, manifest, f"{run.game.title}: a run of {done:,} {run.game.plural(run.unit)}"
    )
    output.simulate_only("report run")
    with output.claim() as given:
        folder = given or source / "report"
        written = rep.write(folder)
    return StudyReport("run", folder, written, None, run.n, 0, time.perf_counter() - start)
