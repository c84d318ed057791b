"""Throughput measurements for `dealsim bench`: each strategy on one core in this process (`measure`), each
game's default run on one core and on all cores through the runner (`scaling`), and a compiled yardstick."""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator import registry
from simulator.contract import Game
from simulator.errors import DealsimError
from simulator.provenance import commit
from simulator.runner import Run, check, execute, in_order, resolve_jobs, run_chunk
from simulator.specs import whole
from simulator.summaries import table
from simulator.version import __version__

CHUNKS_PER_CORE = 4  # so that no worker idles long at the end of a run, and start-up spreads thin


def default_deals(game: Game, cores: int) -> int:
    """The default size of a measurement: CHUNKS_PER_CORE chunks per core of the game's default chunk (on
    two cores 200,000 Forty-two hands, 160,000 Rounds games, 40,000 Frank's Zoo games)."""
    return CHUNKS_PER_CORE * cores * game.default_chunk[game.default_unit]


def measure(game: Game, spec: str, deals: int, seed: int = 12345) -> tuple[float, float | None]:
    """Deals per second on one core, the whole chunk pipeline (deal, play, tables) in this process; and
    hands per second where a deal of the default unit holds several (Frank's Zoo games)."""
    rules = game.rules()
    unit = game.default_unit
    run = Run(
        game=game,
        n=deals,
        seed=seed,
        rules=rules,
        seats=(spec,) * len(game.seat_names(rules)),
        unit=unit,
        chunk_size=game.default_chunk[unit],
    )
    run_chunk(run, 0)  # warm up: imports, lookup tables, caches
    start = time.perf_counter()
    hands = 0
    for k in range(run.n_chunks):
        hands += len(run_chunk(run, k)["deals"]) // game.rows_per_deal(rules)
    seconds = time.perf_counter() - start
    return deals / seconds, (hands / seconds if unit == "match" else None)


@dataclass(frozen=True)
class Speeds:
    """Each strategy of a game on one core (`measure`) and the game's compiled yardstick, in the same run:
    with `repeat` > 1 the strategies and the yardstick take turns and each keeps its median."""

    game: str
    unit: str  # what a deal is, in the game's words
    deals: int  # deals per measurement (the yardstick plays YARDSTICK_FACTOR times more)
    repeat: int
    rates: dict[str, list[float]]  # strategy -> deals/s of each repeat
    hands: dict[str, list[float]] | None  # strategy -> hands/s where a deal holds several, else None
    yardstick: str | None  # the script's name
    yardstick_rates: list[float]  # its deals/s of each repeat, empty when it could not run
    load_seconds: float | None = None  # `first_run_extra` of the game's default strategy, None if not taken

    def rate(self, spec: str) -> float:
        return float(np.median(self.rates[spec]))

    def hand_rate(self, spec: str) -> float | None:
        return float(np.median(self.hands[spec])) if self.hands else None

    @property
    def yardstick_rate(self) -> float | None:
        return float(np.median(self.yardstick_rates)) if self.yardstick_rates else None

    def of_yardstick(self, spec: str) -> float | None:
        """The strategy's median rate as a share of the yardstick's (random play against random play)."""
        y = self.yardstick_rate
        return self.rate(spec) / y if y else None

    def of_random(self, spec: str) -> float | None:
        return self.rate(spec) / self.rate("random") if "random" in self.rates else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "unit": self.unit,
            "deals": self.deals,
            "repeat": self.repeat,
            "yardstick": self.yardstick,
            "yardstick_deals_per_second": self.yardstick_rate,
            "yardstick_repeats": self.yardstick_rates,
            "load_seconds": self.load_seconds,
            "rates": {
                spec: {
                    "deals_per_second": self.rate(spec),
                    "repeats": runs,
                    "hands_per_second": self.hand_rate(spec),
                    "of_yardstick": self.of_yardstick(spec),
                    "of_random": self.of_random(spec),
                }
                for spec, runs in self.rates.items()
            },
        }


# The yardstick plays this many times the deals of a strategy measurement: compiled, it is that much faster,
# and its own start-up (loading numba's cache) must not count.
YARDSTICK_FACTOR = 5


# A fresh process plays FIRST_RUN_DEALS deals twice: the first run pays the imports, the lookup tables and
# the compiled kernels (numba's on-disk cache loaded, or on a clean checkout compiled), the second none.
FIRST_RUN_DEALS = 10
_FIRST_RUN = """
import sys, time
import pandas
from simulator import registry
from simulator.runner import Run, run_chunk
game = registry.get(sys.argv[1])
rules = game.rules()
n = int(sys.argv[3])
seats = (sys.argv[2],) * len(game.seat_names(rules))
run = Run(game=game, n=n, seed=1, rules=rules, seats=seats, unit=game.default_unit, chunk_size=n)
times = []
for _ in range(2):
    start = time.perf_counter()
    run_chunk(run, 0)
    times.append(time.perf_counter() - start)
print(f"extra_seconds={times[0] - times[1]:.4f}")
"""


def first_run_extra(game: Game, spec: str) -> float | None:
    """Seconds a fresh process's first small run of `spec` takes beyond its second (what every worker
    process pays once: the game's imports and tables, its compiled kernels loaded or compiled); None when
    the subprocess fails."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _FIRST_RUN, game.name, spec, str(FIRST_RUN_DEALS)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"extra_seconds=(-?[\d.]+)", done.stdout)
    return float(m[1]) if m else None


def speeds(
    game: Game,
    deals: int,
    yardstick: Path | str | None = None,
    repeat: int = 1,
    specs: list[str] | None = None,
) -> Speeds:
    """Measure each strategy (default: every one of the game) and its yardstick `repeat` times in turn."""
    known = registry.roster(game).known
    specs = list(specs or known)
    script = yardstick or game.yardstick
    rates: dict[str, list[float]] = {spec: [] for spec in specs}
    hands: dict[str, list[float]] = {spec: [] for spec in specs}
    ys: list[float] = []
    cap = {spec: getattr(known[spec], "bench_deals", None) or deals for spec in specs}
    load = first_run_extra(game, game.default_strategy if game.default_strategy in specs else specs[0])
    for _ in range(repeat):
        for spec in specs:
            rate, per_hand = measure(game, spec, min(deals, cap[spec]))
            rates[spec].append(rate)
            if per_hand is not None:
                hands[spec].append(per_hand)
        y = run_yardstick(script, deals * YARDSTICK_FACTOR) if script else None
        if y is not None:
            ys.append(y)
    return Speeds(
        game.name,
        game.plural(game.default_unit),
        deals,
        repeat,
        rates,
        hands if any(hands.values()) else None,
        Path(script).name if script else None,
        ys,
        load,
    )


@dataclass(frozen=True)
class Scaling:
    """One run of a game's default strategy and unit, timed end to end by `runner.execute` on one core and
    on all cores: the same deals, so the two times compare like with like."""

    game: str
    strategy: str
    unit: str  # what a deal is, in the game's words: "hands", "games"
    deals: int
    hands: int | None  # hands in those deals where a deal holds several (Frank's Zoo games), else None
    chunk_size: int
    cores: int
    seconds_one: float  # wall time with jobs=1 (in this process)
    seconds_all: float  # wall time with jobs=cores (worker processes, started beforehand)

    @property
    def speedup(self) -> float:
        return self.seconds_one / self.seconds_all

    def rates(self, count: int) -> dict[str, float]:
        """`count` things (deals or hands) per second: on one core, on all cores, and per core there."""
        return {
            "one_core": count / self.seconds_one,
            "all_cores": count / self.seconds_all,
            "per_core_on_all_cores": count / self.seconds_all / self.cores,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            **dataclasses.asdict(self),
            "chunks": -(-self.deals // self.chunk_size),
            "deals_per_second": self.rates(self.deals),
            "hands_per_second": self.rates(self.hands) if self.hands is not None else None,
            "speedup": self.speedup,
        }


def scaling(game: Game, deals: int, cores: int, seed: int = 12345) -> Scaling:
    """Time the game's default run with jobs=1 and jobs=cores. The chunks are the game's default, or smaller
    when `deals` would give a worker fewer than CHUNKS_PER_CORE of them."""
    rules = game.rules()
    unit = game.default_unit
    chunk_size = max(1, min(game.default_chunk[unit], deals // (CHUNKS_PER_CORE * cores)))
    run = Run(
        game=game,
        n=deals,
        seed=seed,
        rules=rules,
        seats=(game.default_strategy,) * len(game.seat_names(rules)),
        unit=unit,
        chunk_size=chunk_size,
    )
    check(run)
    # a few small chunks: enough to import and build everything, cheap even for Frank's Zoo's whole games
    small = min(chunk_size, 20)
    warm = dataclasses.replace(run, n=min(deals, cores * small), chunk_size=small)
    run_chunk(warm, 0)  # this process: imports, lookup tables, caches
    one = execute(run, jobs=1)
    warm_pool(warm, cores)
    every = execute(run, jobs=cores)
    hands = len(one.tables["deals"]) // game.rows_per_deal(rules) if unit == "match" else None
    return Scaling(
        game.name,
        game.default_strategy,
        game.plural(unit),
        deals,
        hands,
        chunk_size,
        cores,
        one.elapsed,
        every.elapsed,
    )


def _pid_after(run: Run, k: int) -> int:
    run_chunk(run, k)
    return os.getpid()


def warm_pool(run: Run, jobs: int, tries: int = 5) -> None:
    """Start the worker pool and have every worker play a few chunks (imports, lookup tables) so that the
    timed run counts no process start-up: joblib's loky backend keeps the workers for the next call. Tiny
    chunks can all go to the first worker up, hence the check that each worker took one."""
    if jobs == 1:
        return
    seen: set[int] = set()
    for _ in range(tries):
        seen |= set(in_order(functools.partial(_pid_after, run), run.n_chunks, jobs))
        if len(seen) >= jobs:
            return


def run_yardstick(path: Path | str, deals: int) -> float | None:
    """The yardstick's deals per second, run in a subprocess now; None when it cannot run here. A bare file
    name is looked for in the repository's benchmarks/ folder."""
    path = Path(path)
    if not path.exists() and len(path.parts) == 1:
        path = Path(__file__).resolve().parents[1] / "benchmarks" / path
    if not path.exists():
        return None
    try:
        done = subprocess.run(
            [sys.executable, str(path), str(deals)], capture_output=True, text=True, timeout=600, check=False
        )
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"deals_per_s=([\d,]+)", done.stdout)
    return float(m[1].replace(",", "")) if m else None


@dataclass
class Bench:
    """What `dealsim bench` measured on this machine: each game's default run on one core and on all cores
    (`scaling`); with one game named (or every game), also each of its strategies on one core and its
    compiled yardstick, in the same run (`speeds`)."""

    scaling: list[Scaling]
    cores: int
    speeds: list[Speeds] = field(default_factory=list)
    load: float | None = None  # the 1-minute load average before measuring: other work skews the speed-up

    def as_dict(self) -> dict[str, Any]:
        """Every figure, for JSON: per game the deals (and hands) per second on one core, on all cores in
        total and per core, and the speed-up; per strategy its rate and its ratios to the yardstick and to
        random play."""
        out: dict[str, Any] = {
            "dealsim": __version__,
            "commit": commit(),
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

    def render(self) -> list[Any]:
        """The ratio table of each game measured per strategy, then the scaling table, then the load."""
        parts: list[Any] = []
        for sp in self.speeds:
            parts += _speeds_table(sp)
        if self.scaling:
            parts.append(_scaling_table(self.scaling, self.cores))
        if self.load is not None:  # a benchmark on a busy machine reads low, its speed-up most
            parts.append(
                f"load average over the minute before measuring: {self.load:.2f} (other work on the cores "
                "lowers these figures)"
            )
        return parts


def _speeds_table(sp: Speeds) -> list[Any]:
    g = registry.get(sp.game)
    rows = []
    for spec in sp.rates:
        hands = f" ({sp.hand_rate(spec):,.0f} {g.plural('deal')}/s)" if sp.hands else ""
        ratio = sp.of_yardstick(spec)
        of_yardstick = f"{ratio:.2f}" if ratio is not None else "-"
        rows.append(
            [spec, f"{sp.rate(spec):,.0f} {sp.unit}/s{hands}", of_yardstick, f"{sp.of_random(spec):.2f}"]
        )
    if sp.yardstick and sp.yardstick_rate is None:
        note = f"{sp.yardstick}: not run (it needs numba and the script; see `dealsim bench --help`)"
    else:
        note = f"{sp.yardstick} (numba, one core): {sp.yardstick_rate:,.0f} {sp.unit}/s"
    if sp.load_seconds is not None:
        note += (
            f"; a fresh process's first run of {FIRST_RUN_DEALS} {g.plural(g.default_unit)} takes "
            f"{sp.load_seconds:.2f} s more than its second (imports, tables, compiled kernels loaded)"
        )
    spread = f", median of {sp.repeat}" if sp.repeat > 1 else ""
    title = f"{g.name}, one core ({sp.deals:,} {sp.unit} each{spread})"
    return [table(title, ["strategy", "rate", "of yardstick", "of random"], rows, text_columns=2), note]


def _scaling_table(scaled: list[Scaling], n: int) -> Any:
    rows = []
    for s in scaled:
        deals, hands = s.rates(s.deals), (s.rates(s.hands) if s.hands is not None else None)
        # hands first where a deal holds several (Frank's Zoo games): "hands (games) per second"
        rates = [
            f"{hands[key]:,.0f} hands ({deals[key]:,.0f} {s.unit})"
            if hands
            else f"{deals[key]:,.0f} {s.unit}"
            for key in ("one_core", "per_core_on_all_cores", "all_cores")
        ]
        played = f"{s.deals:,} {s.unit}, {-(-s.deals // s.chunk_size)} chunks"
        rows.append([f"{s.game} {s.strategy}", played, *rates, f"{s.speedup:.2f}x"])
    columns = ["game, strategy", "played", "1 core", f"per core on {n}", f"all {n} cores", f"speed-up on {n}"]
    title = f"Per second, the same run on 1 core and on all {n} cores (worker processes started beforehand)"
    return table(title, columns, rows, text_columns=2)


def bench(
    game: str | Game | None = None,
    n: int | None = None,
    yardstick: Path | str | None = None,
    *,
    every: bool = False,
    repeat: int = 1,
    scaling_runs: bool = True,
    scaling_seconds: float | None = None,
) -> Bench:
    """Measure every game's default run on one core and on all cores, or only the named game's; for a named
    game (or every game with `every`), also every strategy in this process, then its yardstick (a
    subprocess), `repeat` times in turn (the median counts). `n` deals per measurement (default:
    `default_deals`, a few chunks per core); `scaling_seconds` sizes each scaling run to last at least that
    long on one core instead (from the default strategy's measured rate)."""
    if n is not None:
        whole("n", n, 1)
    whole("repeat", repeat, 1)
    if game is not None and every:
        raise DealsimError("name a game or measure every game, not both")
    if yardstick is not None and game is None:
        raise DealsimError("a yardstick script belongs to one game: name the game")
    cores = resolve_jobs(0)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    games = [registry.get(game)] if game is not None else list(registry.GAMES.values())
    measured = (
        [speeds(g, n or default_deals(g, cores), yardstick, repeat) for g in games]
        if game is not None or every
        else []
    )
    rates = {sp.game: sp.rate(registry.get(sp.game).default_strategy) for sp in measured}

    def scaling_deals(g: Game) -> int:
        base = n or default_deals(g, cores)
        if scaling_seconds is None:
            return base
        rate = rates.get(g.name) or measure(g, g.default_strategy, default_deals(g, cores))[0]
        return max(base, math.ceil(rate * scaling_seconds))

    scaled = [scaling(g, scaling_deals(g), cores) for g in games] if scaling_runs else []
    return Bench(scaled, cores, measured, load)
