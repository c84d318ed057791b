"""The application layer: what the command line does, as plain Python. Each function turns options into
runs, runs them and returns a typed result; the CLI only parses, calls one of these and prints. It is also
the API for notebooks:

    from simulator import simulate, compare
    sim = simulate("forty-two", n=100_000, seed=1, seats={"NS": "heuristic"}, rules={"min_bid": 31})
    sim.deals            # one row per hand (DataFrame); sim.matches with unit="match"
    sim.summary          # nested dicts of Rate / Mean
    sim.manifest         # provenance: version, seed, rules, strategies, the command that reproduces it
    cmp = compare("forty-two", seats={"NS": "heuristic:threshold=31"}, vs={"NS": "heuristic:threshold=34"})
    cmp.frame()          # per measure: a, b, diff, lo, hi (paired 95%), narrowing
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import platform
import shlex
import shutil
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy
import numpy as np
import pandas

from reports import run_report, studies
from reports.experiments import compare_report, tune_report
from simulator import bench as benchmarks
from simulator import experiments, registry, replay
from simulator.contract import Game
from simulator.errors import DealsimError, Interrupted
from simulator.options import build, parse_pairs
from simulator.parts import PartStore
from simulator.runner import (
    MAX_DEALS,
    Result,
    Run,
    check,
    chunk,
    execute,
    map_chunks,
    resolve_jobs,
    saving_parts,
)
from simulator.summaries import flatten, json_safe, to_json
from simulator.version import __version__

Assignments = Mapping[str, str] | Sequence[str] | None  # {"NS": "heuristic"} or ["NS=heuristic"]
RuleValues = Mapping[str, Any] | Sequence[str] | None  # {"min_bid": 31} or ["min_bid=31"]


def make_run(
    game: str | Game,
    n: int = 100_000,
    seed: int = 1,
    *,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    unit: str | None = None,
    chunk_size: int | None = None,
    measures: Sequence[str] = (),
) -> Run:
    """A checked run: rules from the preset, files and overrides; each seat's strategy over the game's
    default; the unit by its name or the game's word for it; the chunk size by default per game and unit;
    extra per-deal `measures` (e.g. "play-quality")."""
    g = registry.get(game)
    for name, value, least in (("n", n, 1), ("seed", seed, 0), ("chunk_size", chunk_size, 1)):
        if value is not None:
            _whole(name, value, least)
    if n > MAX_DEALS:
        raise DealsimError(f"n (the number of deals or matches) must be at most {MAX_DEALS:,}, not {n:,}")
    unit = g.unit(unit)
    ruleset = g.rules(preset, rules_files, rules or ())
    run = Run(
        game=g,
        n=n,
        seed=seed,
        rules=ruleset,
        seats=g.seat_specs(seats or (), ruleset),
        unit=unit,
        chunk_size=chunk_size or g.default_chunk[unit],
        measures=tuple(dict.fromkeys(measures)),
    )
    check(run)
    return run


def run_from_manifest(folder: Path | str, game: str | Game | None = None) -> Run:
    """The run recorded in `folder/manifest.json` (written by `simulate -o`)."""
    folder = Path(folder)
    try:
        m = json.loads((folder / "manifest.json").read_text())
        g = registry.get(m["game"])
        if game is not None and registry.get(game) is not g:
            raise DealsimError(f"{folder} holds a {m['game']} run, not {registry.get(game).name}")
        rules = build(g.rules_cls, "rule", m["rules"])
        run = Run(
            game=g,
            n=int(m["deals"]),
            seed=int(m["seed"]),
            rules=rules,
            seats=tuple(m["seats"][name] for name in g.seat_names(rules)),
            unit=g.unit(m["unit"]),
            chunk_size=int(m["chunk_size"]),
            measures=tuple(m.get("measures", ())),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DealsimError(f"cannot read the run in {folder}: {type(exc).__name__}: {exc}") from None
    check(run)
    return run


def provenance(run: Run, **extra: Any) -> dict[str, Any]:
    """What reproduces a figure: versions, then the run's definition (with every strategy's parameters
    spelled out), then whatever the command adds."""
    names = run.game.seat_names(run.rules)
    params = {name: {"strategy": s.name or s.spec, **s.params()} for name, s in zip(names, run.strategies())}
    return {
        "dealsim": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        **run.describe(),
        "strategy_parameters": params,
        **extra,
    }


def command_line(
    verb: str,
    run: Run,
    *extra: str,
    subject: str | None = None,
    unit: bool = True,
    chunking: bool = True,
    seat_flag: str = "--seat",
) -> str:
    """The `dealsim` command that reproduces `run`: every rule and seat that differs from the game's
    defaults, and the seed, size, unit and chunking always (where the command has those options)."""
    g = run.game
    words = ["dealsim", verb, subject or g.name, "-n", str(run.n), "--seed", str(run.seed)]
    words += ["--unit", run.unit] if unit else []
    words += ["--chunk-size", str(run.chunk_size)] if chunking else []
    default = g.rules_cls()
    for f in dataclasses.fields(run.rules):
        value = getattr(run.rules, f.name)
        if value != getattr(default, f.name):
            words += ["--rule", f"{f.name}={str(value).lower() if isinstance(value, bool) else value}"]
    for name, spec in zip(g.seat_names(run.rules), run.seats):
        if spec != g.default_strategy:
            words += [seat_flag, f"{name}={spec}"]
    for name in run.measures:
        words += ["--measure", name]
    return shlex.join([*words, *extra])


def _writable(folder: Path | str | None, force: bool = False, resume: bool = False) -> Path | None:
    """The output folder, checked before any work: not a file, creatable and writable, and empty unless
    `force` (its earlier outputs are removed) or `resume` (a run there goes on)."""
    if folder is None:
        return None
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise DealsimError(f"output {folder} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".dealsim-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DealsimError(f"cannot write to the output folder {folder}: {exc.strerror or exc}") from None
    if resume:
        return folder
    left = [p for p in folder.iterdir()]
    if left and not force:
        raise DealsimError(
            f"output folder {folder} is not empty: use --force to replace what is there, or "
            "--resume to go on with the run in it"
        )
    report_folder = (folder / "provenance.json").is_file()  # written by compare, tune or report
    for p in left if force else ():
        if p.is_symlink():
            continue  # never follow a link out of the folder
        if p.is_dir() and p.name in OUTPUT_FOLDERS and any(p.glob(OUTPUT_FOLDERS[p.name])):
            shutil.rmtree(p)
        elif p.is_file() and (p.name in OUTPUT_FILES or (report_folder and p.suffix in (".csv", ".png"))):
            p.unlink()
    return folder


# What dealsim writes into an output folder: with --force these go first, and nothing else of the user's (a
# folder only when it holds dealsim's mark; CSV and PNG files only in a report folder, beside its provenance).
OUTPUT_FILES = {
    "manifest.json",
    "summary.json",
    "summary.csv",
    "provenance.json",
    "report.html",
    "deals.parquet",
    "matches.parquet",
    "games.parquet",
    "hands.parquet",
    "analyze.csv",
}
OUTPUT_FOLDERS = {"parts": "index.json", "runs": "*/parts/index.json", "report": "report.html"}


# --- simulate ---------------------------------------------------------------------------------------------
@dataclass
class Simulation:
    """A finished (or interrupted) run: its tables, summary and manifest. With an output folder the tables
    live there (read on first use), not in memory."""

    result: Result
    summary: dict[str, Any]
    manifest: dict[str, Any]
    folder: Path | None = None

    @property
    def run(self) -> Run:
        return self.result.run

    @property
    def tables(self) -> dict[str, Any]:
        if not self.result.tables and self.folder is not None:
            self.result.tables = {
                name: pandas.read_parquet(self.folder / f"{name}.parquet")
                for name in ("deals", "matches")
                if (self.folder / f"{name}.parquet").exists()
            }
        return self.result.tables

    @property
    def deals(self):
        return self.tables["deals"]

    @property
    def matches(self):
        return self.tables.get("matches")

    def render(self) -> list[Any]:
        return self.run.game.render(self.summary)


def simulate(
    game: str | Game,
    n: int = 100_000,
    seed: int = 1,
    *,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    unit: str | None = None,
    chunk_size: int | None = None,
    jobs: int = 0,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = False,
    output: Path | str | None = None,
    force: bool = False,
    measures: Sequence[str] = (),
) -> Simulation:
    """Play `n` seeded deals (or matches) and summarize them; with `output`, stream every finished chunk
    there as a part (see simulator.parts) and end with the tables, summary and manifest."""
    run = make_run(
        game,
        n,
        seed,
        seats=seats,
        rules=rules,
        preset=preset,
        rules_files=rules_files,
        unit=unit,
        chunk_size=chunk_size,
        measures=measures,
    )
    return _simulate(run, jobs, backend, scheduler, progress, _writable(output, force=force), resume=False)


def resume(
    folder: Path | str,
    n: int | None = None,
    *,
    jobs: int = 0,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = False,
) -> Simulation:
    """Go on with the run in `folder` (started by simulate -o): its options from the manifest, its valid parts
    kept, missing or damaged ones played again; with `n`, the run extended (or cut) to n deals."""
    folder = Path(folder)
    if not (folder / "manifest.json").exists():
        raise DealsimError(f"nothing to resume in {folder}: it has no manifest.json of a simulate -o run")
    run = run_from_manifest(folder)
    if n is not None:
        run = dataclasses.replace(run, n=_whole("n", n, 1))
    return _simulate(run, jobs, backend, scheduler, progress, _writable(folder, resume=True), resume=True)


def _simulate(
    run: Run,
    jobs: int,
    backend: str,
    scheduler: str | None,
    progress: bool,
    output: Path | None,
    resume: bool,
) -> Simulation:
    defined = {"command": command_line("simulate", run), **provenance(run)}
    store = None
    if output is not None:
        # the manifest comes first: a run killed before its end can be resumed from it
        _write_atomically(output / "manifest.json", to_json({**defined, "complete": False}))
        store = PartStore(output, run, reuse=resume)
    result = execute(
        run,
        jobs=jobs,
        backend=backend,
        progress=progress,
        store=store,
        summarize=True,
        keep_tables=output is None,
        scheduler=scheduler,
    )
    if not result.chunks_done:
        raise Interrupted("interrupted before the first chunk finished; nothing to report")
    manifest = {
        **defined,
        "deals_done": result.deals_done,
        "complete": result.complete,
        "jobs": result.jobs,
        "backend": backend,
        "chunks_reused": result.reused,
        "elapsed_seconds": round(result.elapsed, 3),
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    sim = Simulation(result, result.summary, manifest, output)
    if output is not None:
        # the run's definition travels with the data: pyarrow.parquet.read_schema(path).metadata[b"dealsim"]
        # (timings stay out, so a resumed run's tables are byte for byte an uninterrupted run's)
        store.combine(output, result.chunks_done, {b"dealsim": to_json(defined).encode()})
        flatten(sim.summary).to_csv(output / "summary.csv", index=False)
        (output / "summary.json").write_text(to_json(sim.summary))
        _write_atomically(output / "manifest.json", to_json({**manifest, "parts": store.index["parts"]}))
    return sim


def _write_atomically(path: Path, text: str) -> None:
    """Write a small file whole or not at all (a run killed meanwhile leaves the old one): `--resume` reads it."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _whole(name: str, value: Any, least: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
        raise DealsimError(f"{name} must be a whole number >= {least}, not {value!r}")
    return int(value)


# --- trace ------------------------------------------------------------------------------------------------
def trace(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` move by move: text, or a JSON-able record with the run's provenance."""
    told = replay.trace(run, deal, as_json)
    return json_safe({**provenance(run), "trace": told}) if as_json else told


# --- compare and tune -------------------------------------------------------------------------------------
def compare(
    game: str | Game,
    *,
    vs: Assignments = None,
    vs_rules: RuleValues = None,
    n: int = 100_000,
    seed: int = 1,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    unit: str | None = None,
    chunk_size: int | None = None,
    jobs: int = 0,
    progress: bool = False,
    output: Path | str | None = None,
    force: bool = False,
    resume: bool = False,
    measures: Sequence[str] = (),
) -> experiments.Comparison:
    """Arm A (`seats`, `rules`) against arm B (A changed by `vs` and `vs_rules`) on the same deals, with the
    extra per-deal `measures` in both. With `output`, both arms' chunks are saved there as they finish;
    `resume` goes on from them."""
    a = make_run(
        game,
        n,
        seed,
        seats=seats,
        rules=rules,
        preset=preset,
        rules_files=rules_files,
        unit=unit,
        chunk_size=chunk_size,
        measures=measures,
    )
    vs_list = [f"{k}={v}" for k, v in vs.items()] if isinstance(vs, Mapping) else list(vs or ())
    vs_rule_list = (
        [f"{k}={v}" for k, v in vs_rules.items()] if isinstance(vs_rules, Mapping) else list(vs_rules or ())
    )
    b = experiments.arm_b(a, vs_list, vs_rule_list)
    output = _writable(output, force=force, resume=resume)
    extra = [w for item in vs_list for w in ("--vs", item)] + [
        w for item in vs_rule_list for w in ("--vs-rule", item)
    ]
    command = command_line("compare", a, *extra)
    with _saved(output, command, resume):
        comparison = experiments.compare(a, b, jobs=jobs, progress=progress)
    if output is not None:
        compare_report(comparison, comparison_provenance(comparison), command).write(output)
    return comparison


@contextlib.contextmanager
def _saved(output: Path | None, command: str, resume: bool) -> Iterator[None]:
    """With an output folder: the command recorded first (so `--resume` can repeat it) and every run's chunks
    saved under output/runs as they finish."""
    if output is None:
        yield
        return
    if not resume:
        (output / "provenance.json").write_text(to_json({"command": command, "complete": False}))
    with saving_parts(output / "runs", reuse=resume):
        yield


def recorded_command(folder: Path | str) -> list[str]:
    """The words of the command that wrote `folder` (its provenance.json), without `dealsim`."""
    try:
        command = json.loads((Path(folder) / "provenance.json").read_text())["command"]
    except (OSError, ValueError, KeyError):
        raise DealsimError(
            f"nothing to resume in {folder}: it has no provenance.json of a compare, tune or report -o run"
        ) from None
    return shlex.split(command)[1:]


def comparison_provenance(c: experiments.Comparison) -> dict[str, Any]:
    return provenance(
        c.a,
        arm_b={
            "rules": dataclasses.asdict(c.b.rules),
            "seats": dict(zip(c.b.game.seat_names(c.b.rules), c.b.seats)),
        },
    )


def tune(
    game: str | Game,
    vary: Mapping[str, str] | Sequence[str],
    *,
    n: int = 20_000,
    seed: int = 1,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    unit: str | None = "match",
    chunk_size: int | None = None,
    jobs: int = 0,
    progress: bool = False,
    output: Path | str | None = None,
    baseline: Mapping[str, str] | Sequence[str] | None = None,
    force: bool = False,
    resume: bool = False,
) -> experiments.Sweep:
    """A sweep over rule options and strategy parameters (`{"min_bid": "28,30,32"}` or
    `["seat.NS.threshold=30:36"]`) on common deals: one point per setting of the grid, each compared with
    the baseline point (`baseline`, e.g. `{"min_bid": "30"}`; default: the current values) pair by pair."""
    base = make_run(
        game,
        n,
        seed,
        seats=seats,
        rules=rules,
        preset=preset,
        rules_files=rules_files,
        unit=unit,
        chunk_size=chunk_size,
    )
    items = [f"{k}={v}" for k, v in vary.items()] if isinstance(vary, Mapping) else list(vary)
    grid = experiments.parse_vary(items)
    experiments.settings(base, grid)  # every setting is checked before the first run
    chosen = dict(baseline) if isinstance(baseline, Mapping) else parse_pairs("--baseline", baseline or ())
    output = _writable(output, force=force, resume=resume)
    extra = [w for item in items for w in ("--vary", item)]
    extra += [w for k, v in chosen.items() for w in ("--baseline", f"{k}={v}")]
    command = command_line("tune", base, *extra)
    with _saved(output, command, resume):
        sweep = experiments.tune(base, grid, jobs=jobs, progress=progress, baseline=chosen or None)
    if output is not None:
        tune_report(sweep, tune_provenance(sweep, grid), command).write(output)
    return sweep


def tune_provenance(sweep: experiments.Sweep, grid: list[tuple[str, list[str]]]) -> dict[str, Any]:
    """The base run's provenance with each varied rule shown as varied, and the sweep's grid and baseline."""
    prov = provenance(sweep.base, vary=dict(grid), baseline=sweep.label(sweep.baseline), side=sweep.side)
    for key, values in grid:
        name = key.removeprefix("rule.")
        if not key.startswith("seat.") and name in prov["rules"]:
            prov["rules"][name] = f"varied: {', '.join(values)}"
    return prov


# --- analyze ----------------------------------------------------------------------------------------------
@dataclass
class HandAnalysis:
    """Every contract the seat could choose, played on the same deals of the other hands."""

    frame: Any  # one row per choice
    best: dict[str, Any]
    advice: dict[
        str, Any
    ]  # the best trump against the runner-up (paired), and per trump the highest bid that pays
    provenance: dict[str, Any]
    rendered: list[Any]


def analyze(
    game: str | Game,
    hand: str,
    *,
    seat: str = "N",
    dealer: str | None = None,
    n: int = 20_000,
    seed: int = 1,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    jobs: int = 0,
    progress: bool = False,
    output: Path | str | None = None,
    play: str = "strategies",
) -> HandAnalysis:
    """Hold `hand` at `seat` (the declarer), deal the rest `n` times, and play every choice on those deals,
    by the strategies (`play="strategies"`) or double dummy (`play="perfect"`: every hand seen, perfect play).
    The dealer defaults to the seat on the declarer's right."""
    if play not in ("strategies", "perfect"):
        raise DealsimError(f"--play is strategies or perfect, not {play!r}")
    g = registry.get(game)
    if g.analysis is None:
        raise DealsimError(f"analyze is not available for {g.name}")
    a = g.analysis
    fixed = a.parse_hand(hand)
    run = make_run(
        g,
        n,
        seed,
        seats=seats,
        rules=rules,
        preset=preset,
        rules_files=rules_files,
        unit="deal",
        chunk_size=a.chunk_size,
    )
    names = list(g.seat_names(run.rules))

    def one_seat(option: str, name: str) -> int:
        seat_ids = g.seats_of(name, run.rules)
        if len(seat_ids) != 1:  # a side (NS) or `all` names more than one
            raise DealsimError(f"{option} names one seat ({', '.join(names)}), not {name!r}")
        return seat_ids[0]

    seat_i = one_seat("--seat", seat)
    dealer_i = (seat_i - 1) % len(names) if dealer is None else one_seat("--dealer", dealer)
    output = _writable(output)
    start = time.perf_counter()

    def one(r: Run, k: int) -> Any:
        return a.play_chunk(
            fixed, seat_i, dealer_i, r.rules, chunk(r, k), **({"perfect": True} if play == "perfect" else {})
        )

    parts = map_chunks(one, run, jobs, progress, f"analyze: {n:,} deals")
    frame = a.frame(parts)
    elapsed = time.perf_counter() - start
    extra = ["--hand", hand, "--seat", names[seat_i], "--dealer", names[dealer_i]]
    extra += ["--play", play] if play != "strategies" else []
    prov = provenance(
        run,
        hand=hand,
        seat=names[seat_i],
        dealer=names[dealer_i],
        play=play,
        elapsed_seconds=round(elapsed, 2),
        command=command_line("analyze", run, *extra, unit=False, chunking=False, seat_flag="--strategy"),
    )
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
        frame.to_csv(output / "analyze.csv", index=False)
        (output / "provenance.json").write_text(to_json(prov))
    advice = a.advise(parts, frame)
    return HandAnalysis(frame, a.best(frame), advice, prov, a.render(frame, advice, hand, names[seat_i], n))


# --- bench ------------------------------------------------------------------------------------------------
@dataclass
class Bench:
    """What `dealsim bench` measured on this machine: each game's default run on one core and on all cores
    (`scaling`); with one game named (or `--all`), also each of its strategies on one core and its compiled
    yardstick, in the same run (`speeds`)."""

    scaling: list[benchmarks.Scaling]
    cores: int
    speeds: list[benchmarks.Speeds] = field(default_factory=list)
    load: float | None = None  # the 1-minute load average before measuring: other work skews the speed-up

    def as_dict(self) -> dict[str, Any]:
        """Every figure, for JSON: per game the deals (and hands) per second on one core, on all cores in
        total and per core, and the speed-up; per strategy its rate and its ratios to the yardstick and to
        random play."""
        out: dict[str, Any] = {
            "dealsim": __version__,
            "commit": _commit(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "machine": platform.machine(),
            "cores": self.cores,
            "load_average": self.load,
            "games": [s.as_dict() for s in self.scaling],
        }
        if self.speeds:
            out["strategies"] = [s.as_dict() for s in self.speeds]
        return out


def _commit() -> str | None:
    """The checkout's commit (with "+" when it has uncommitted changes), None outside a git checkout."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+" if dirty else "")


def bench(
    game: str | Game | None = None,
    n: int | None = None,
    yardstick: Path | str | None = None,
    *,
    every: bool = False,
    repeat: int = 1,
    scaling: bool = True,
    scaling_seconds: float | None = None,
) -> Bench:
    """Measure every game's default run on one core and on all cores, or only the named game's; for a named
    game (or every game with `every`), also every strategy in this process, then its yardstick (a
    subprocess), `repeat` times in turn (the median counts). `n` deals per measurement (default:
    `bench.default_deals`, a few chunks per core); `scaling_seconds` sizes each scaling run to last at least
    that long on one core instead (from the default strategy's measured rate)."""
    if n is not None:
        _whole("n", n, 1)
    _whole("repeat", repeat, 1)
    if game is not None and every:
        raise DealsimError("name a game or give --all, not both")
    if yardstick is not None and game is None:
        raise DealsimError("--yardstick needs a game")
    cores = resolve_jobs(0)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    games = [registry.get(game)] if game is not None else list(registry.GAMES.values())
    speeds = (
        [benchmarks.speeds(g, n or benchmarks.default_deals(g, cores), yardstick, repeat) for g in games]
        if game is not None or every
        else []
    )
    rates = {sp.game: sp.rate(registry.get(sp.game).default_strategy) for sp in speeds}

    def scaling_deals(g: Game) -> int:
        base = n or benchmarks.default_deals(g, cores)
        if scaling_seconds is None:
            return base
        rate = (
            rates.get(g.name)
            or benchmarks.measure(g, g.default_strategy, benchmarks.default_deals(g, cores))[0]
        )
        return max(base, math.ceil(rate * scaling_seconds))

    scaled = [benchmarks.scaling(g, scaling_deals(g), cores) for g in games] if scaling else []
    return Bench(scaled, cores, speeds, load)


# --- studies ----------------------------------------------------------------------------------------------
@dataclass
class StudyReport:
    folder: Path
    written: list[Path]
    headline: tuple[str, list[str], list[list[Any]]]
    deals: int
    matches: int
    elapsed: float


def report(
    study: str,
    n: int | None = None,
    *,
    matches: int | None = None,
    seed: int = 1,
    seats: Assignments = None,
    rules: RuleValues = None,
    preset: str = "seed",
    rules_files: Sequence[str] = (),
    chunk_size: int | None = None,
    jobs: int = 0,
    progress: bool = False,
    output: Path | str | None = None,
    run_dir: Path | str | None = None,
    force: bool = False,
    resume: bool = False,
) -> StudyReport:
    """Run a named study and write its report (HTML, CSV, PNG, provenance) to `output` (default ./STUDY); the
    study `run` reports a finished `simulate -o` folder (`run_dir`) instead, without playing anything."""
    if study == "run":
        return _run_report(run_dir, output)
    s = studies.get(study)
    n = s.default_deals if n is None else n
    base = make_run(
        s.game,
        n,
        seed,
        seats=seats,
        rules=rules,
        preset=preset,
        rules_files=rules_files,
        unit=s.unit,
        chunk_size=chunk_size,
    )
    matches = s.default_matches(n) if matches is None else matches
    # an explicit -o is checked like every output; the default ./STUDY holds the study's last report
    folder = _writable(output, force=force, resume=resume) or Path(study)
    start = time.perf_counter()
    uses_matches = matches or s.default_matches(n)  # a study without a match part takes no --matches
    command = command_line(
        "report", base, *(["--matches", str(matches)] if uses_matches else []), subject=study, unit=False
    )
    with _saved(folder if output is not None else None, command, resume):
        rep, headline = s.build(
            base, matches, jobs, progress, command, provenance(base, study=study, matches=matches)
        )
    written = rep.write(folder)
    return StudyReport(folder, written, headline, n, matches, time.perf_counter() - start)


def _run_report(run_dir: Path | str | None, output: Path | str | None) -> StudyReport:
    """The report of a finished run folder: its tables read back, summarized by its game, then written."""
    if run_dir is None:
        raise DealsimError("report run needs --run DIR (a folder written by simulate -o)")
    folder_in = Path(run_dir)
    run = run_from_manifest(folder_in)
    manifest = json.loads((folder_in / "manifest.json").read_text())
    try:
        tables = {
            name: pandas.read_parquet(folder_in / f"{name}.parquet")
            for name in ("deals", "matches")
            if (folder_in / f"{name}.parquet").exists()
        }
    except (OSError, ValueError) as exc:
        raise DealsimError(f"cannot read the tables in {folder_in}: {exc}") from None
    if "deals" not in tables:
        raise DealsimError(f"{folder_in} has no deals.parquet")
    start = time.perf_counter()
    summary = run.game.summary(tables, run.unit)
    rep = run_report.build(
        summary,
        manifest,
        f"{run.game.title}: a run of {manifest.get('deals_done', run.n):,} {run.game.plural(run.unit)}",
    )
    folder = _writable(output) or folder_in / "report"
    written = rep.write(folder)
    return StudyReport(folder, written, ("", [], []), run.n, 0, time.perf_counter() - start)
