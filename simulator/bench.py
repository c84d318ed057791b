"""Throughput measurements for `dealsim bench`: each strategy on one core in this process (`measure`), each
game's default run on one core and on all cores through the runner (`scaling`), and a compiled yardstick."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.contract import Game
from simulator.runner import Run, check, execute, in_order, run_chunk

CHUNKS_PER_CORE = 4  # so that no worker idles long at the end of a run, and start-up spreads thin


def default_deals(game: Game, cores: int) -> int:
    """The default size of a measurement: CHUNKS_PER_CORE chunks per core of the game's default chunk (on
    two cores 200,000 Forty-two hands, 160,000 Rounds games, 40,000 Frank's Zoo games: about a minute for all)."""
    return CHUNKS_PER_CORE * cores * game.default_chunk[game.default_unit]


def measure(game: Game, spec: str, deals: int, seed: int = 12345) -> tuple[float, float | None]:
    """Deals per second on one core, the whole chunk pipeline (deal, play, tables) in this process; and
    hands per second where a deal of the default unit holds several (Frank's Zoo games)."""
    rules = game.rules()
    unit = game.default_unit
    run = Run(game=game, n=deals, seed=seed, rules=rules, seats=(spec,) * len(game.seat_names(rules)),
              unit=unit, chunk_size=game.default_chunk[unit])
    run_chunk(run, 0)  # warm up: imports, lookup tables, caches
    start = time.perf_counter()
    hands = 0
    for k in range(run.n_chunks):
        hands += len(run_chunk(run, k)["deals"]) // game.rows_per_deal(rules)
    seconds = time.perf_counter() - start
    return deals / seconds, (hands / seconds if unit == "match" else None)


@dataclass(frozen=True)
class Scaling:
    """One run of a game's default strategy and unit, timed end to end by `runner.execute` on one core and
    on all cores: the same deals, so the two times compare like with like."""

    game: str
    strategy: str
    unit: str                # what a deal is, in the game's words: "hands", "games"
    deals: int
    hands: int | None        # hands in those deals where a deal holds several (Frank's Zoo games), else None
    chunk_size: int
    cores: int
    seconds_one: float       # wall time with jobs=1 (in this process)
    seconds_all: float       # wall time with jobs=cores (worker processes, started beforehand)

    @property
    def speedup(self) -> float:
        return self.seconds_one / self.seconds_all

    def rates(self, count: int) -> dict[str, float]:
        """`count` things (deals or hands) per second: on one core, in total on all cores, and per core there."""
        return {"one_core": count / self.seconds_one, "all_cores": count / self.seconds_all,
                "per_core_on_all_cores": count / self.seconds_all / self.cores}

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "chunks": -(-self.deals // self.chunk_size),
                "deals_per_second": self.rates(self.deals),
                "hands_per_second": self.rates(self.hands) if self.hands is not None else None,
                "speedup": self.speedup}


def scaling(game: Game, deals: int, cores: int, seed: int = 12345) -> Scaling:
    """Time the game's default run with jobs=1 and jobs=cores. The chunks are the game's default, or smaller
    when `deals` would give a worker fewer than CHUNKS_PER_CORE of them."""
    rules = game.rules()
    unit = game.default_unit
    chunk_size = max(1, min(game.default_chunk[unit], deals // (CHUNKS_PER_CORE * cores)))
    run = Run(game=game, n=deals, seed=seed, rules=rules, seats=(game.default_strategy,) * len(game.seat_names(rules)),
              unit=unit, chunk_size=chunk_size)
    check(run)
    # a few small chunks: enough to import and build everything, cheap even for Frank's Zoo's whole games
    small = min(chunk_size, 20)
    warm = dataclasses.replace(run, n=min(deals, cores * small), chunk_size=small)
    run_chunk(warm, 0)  # this process: imports, lookup tables, caches
    one = execute(run, jobs=1)
    warm_pool(warm, cores)
    every = execute(run, jobs=cores)
    hands = len(one.tables["deals"]) // game.rows_per_deal(rules) if unit == "match" else None
    return Scaling(game.name, game.default_strategy, game.plural(unit), deals, hands, chunk_size, cores,
                   one.elapsed, every.elapsed)


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
    name is looked for in the repository's benchmarks/ folder, then in ../shared/bench beside the checkout."""
    path = Path(path)
    if not path.exists() and len(path.parts) == 1:
        repo = Path(__file__).resolve().parents[1]
        found = [p for p in (repo / "benchmarks" / path, repo.parent / "shared" / "bench" / path) if p.exists()]
        path = found[0] if found else path
    if not path.exists():
        return None
    try:
        done = subprocess.run([sys.executable, str(path), str(deals)], capture_output=True, text=True, timeout=600,
                              check=False)
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"deals_per_s=([\d,]+)", done.stdout)
    return float(m[1].replace(",", "")) if m else None
