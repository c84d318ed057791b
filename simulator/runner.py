"""Runs a simulation as fixed-size chunks, in parallel through joblib.

Chunk k covers deals [k * chunk_size, (k + 1) * chunk_size) and draws all its randomness from
`SeedSequence(seed, spawn_key=(k,))`: stream 0 deals, stream 1 + s feeds the strategy of seat s. The
chunk size belongs to the run's definition, so a run gives the same numbers for any --jobs and any
backend, and any deal can be played again alone (`dealsim trace`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from simulator import games
from strategies import make
from strategies.base import Strategy


@dataclass(frozen=True)
class Run:
    """Everything that defines a simulation's numbers (the worker count does not)."""

    game: str
    n: int
    seed: int
    rules: Any
    seats: tuple[str, ...]
    unit: str
    chunk_size: int

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def bounds(self, k: int) -> tuple[int, int]:
        return k * self.chunk_size, min(self.n, (k + 1) * self.chunk_size)

    def describe(self) -> dict[str, Any]:
        return {"game": self.game, "deals": self.n, "unit": self.unit, "seed": self.seed,
                "chunk_size": self.chunk_size, "rules": dataclasses.asdict(self.rules),
                "seats": dict(zip(games.get(self.game).seat_names, self.seats))}


def chunk_rngs(seed: int, k: int, streams: int) -> list[np.random.Generator]:
    children = np.random.SeedSequence(seed, spawn_key=(k,)).spawn(streams)
    return [np.random.Generator(np.random.PCG64(c)) for c in children]


def seat_strategies(game: str, specs: tuple[str, ...]) -> list[Strategy]:
    """One strategy per seat; seats with the same spec share one object, so the driver asks them together."""
    made: dict[str, Strategy] = {}
    return [made.setdefault(spec, make(game, spec)) for spec in specs]


def run_chunk(run: Run, k: int) -> dict[str, pd.DataFrame]:
    return games.get(run.game).run_chunk(run, k)


@dataclass
class Result:
    run: Run
    tables: dict[str, pd.DataFrame]
    elapsed: float
    chunks_done: int
    jobs: int

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.run.n_chunks

    @property
    def deals_done(self) -> int:
        return self.run.bounds(self.chunks_done - 1)[1] if self.chunks_done else 0


def _chunks(run: Run, jobs: int, backend: str) -> Iterator[dict[str, pd.DataFrame]]:
    if jobs == 1 or run.n_chunks == 1:
        for k in range(run.n_chunks):
            yield run_chunk(run, k)
        return
    parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator")
    yield from parallel(delayed(run_chunk)(run, k) for k in range(run.n_chunks))


def execute(run: Run, jobs: int = -1, backend: str = "loky", progress: bool = False) -> Result:
    """Run every chunk in order. On Ctrl-C the chunks finished so far are kept (`Result.complete` is
    False), so an interrupted run still yields a reproducible prefix of the deals."""
    # Fail on bad strategy specs here, with one clear error, rather than inside a worker.
    seat_strategies(run.game, run.seats)
    jobs = _resolve_jobs(jobs)
    start = time.perf_counter()
    parts: list[dict[str, pd.DataFrame]] = []
    bar = _progress(progress)
    with bar:
        task = bar.add_task(f"{run.game}: {run.n:,} {run.unit}s", total=run.n)
        try:
            for part in _chunks(run, jobs, backend):
                parts.append(part)
                bar.update(task, completed=run.bounds(len(parts) - 1)[1])
        except KeyboardInterrupt:
            pass
    tables = {name: pd.concat([p[name] for p in parts], ignore_index=True) for name in (parts[0] if parts else {})}
    return Result(run, tables, time.perf_counter() - start, len(parts), jobs)


def _resolve_jobs(jobs: int) -> int:
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores if jobs <= 0 else jobs


def _progress(enabled: bool):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=Console(stderr=True), disable=not enabled, transient=False)
