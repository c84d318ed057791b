"""Runs a simulation as fixed-size chunks, in parallel through joblib (or on a Dask cluster).

Chunk k covers deals [k * chunk_size, (k + 1) * chunk_size) and draws all its randomness from
`SeedSequence(seed, spawn_key=(k,))`: child 0 deals, child 1 + s feeds the strategy of seat s. The chunk
size belongs to the run's definition, so a run gives the same numbers for any --jobs and any backend, and
any deal can be played again alone (`dealsim trace`). Any game that fills `contract.Game` runs here.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import dataclasses
import functools
import hashlib
import itertools
import json
import os
import re
import signal
import tempfile
import time
import warnings
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from simulator import driver, registry, signals, tallies
from simulator.contract import UNITS, Game
from simulator.errors import (
    DealsimError,
    DealsimWarning,
    Interrupted,
    StrategyError,
    WorkerLost,
    exception_text,
)
from simulator.inert import refuse_inert
from simulator.matches import play_matches
from simulator.parts import Encoded, PartStore, encode, run_key
from strategies.base import Strategy

if TYPE_CHECKING:
    import pandas as pd
    from rich.progress import Progress

T = TypeVar("T")

# The most deals (or matches) a run may have: far beyond any run that could finish, so more is a typo.
MAX_DEALS = 10**12


@dataclass(frozen=True)
class Run:
    """Everything that defines a simulation's numbers (the worker count does not)."""

    game: Game
    n: int
    seed: int
    rules: Any
    seats: tuple[str, ...]
    unit: str  # "deal" or "match" (see simulator.contract)
    chunk_size: int
    measures: tuple[str, ...] = ()  # extra per-deal measures (Game.extra_columns), e.g. "play-quality"

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def bounds(self, k: int) -> tuple[int, int]:
        return k * self.chunk_size, min(self.n, (k + 1) * self.chunk_size)

    def describe(self) -> dict[str, Any]:
        """The run's definition as plain data: what provenance records and `app.run_from_manifest` reads
        back."""
        out = {
            "game": self.game.name,
            "deals": self.n,
            "unit": self.unit,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "rules": dataclasses.asdict(self.rules),
            "seats": dict(zip(self.game.seat_names(self.rules), self.seats)),
        }
        return {**out, "measures": list(self.measures)} if self.measures else out

    def strategies(self) -> list[Strategy]:
        """One strategy per seat; seats with the same spec share one object, so the driver asks them together.
        Unknown strategies and bad parameters fail here with one clear error."""
        made: dict[str, Strategy] = {}
        roster = registry.roster(self.game)
        return [made.setdefault(spec, roster.make(spec)) for spec in self.seats]


@dataclass
class Chunk:
    """What one chunk of a run is played with."""

    run: Run
    index: int
    deals: np.ndarray  # the deal numbers it covers
    deal_rng: np.random.Generator  # dealing and every other chance event of the rules
    seat_rngs: list[np.random.Generator]
    strategies: list[Strategy]

    def fresh_seat_rngs(self) -> list[np.random.Generator]:
        """The seats' generators as they were when the chunk began (to replay a choice on the same draws)."""
        return streams(self.run.seed, self.index, len(self.seat_rngs))[1]


def streams(seed: int, k: int, n_seats: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """Chunk k's dealing generator and one generator per seat."""
    children = np.random.SeedSequence(seed, spawn_key=(k,)).spawn(1 + n_seats)
    # A strategy's generator is seeded from words drawn out of its stream, not from the stream itself, so
    # that it cannot walk back (through bit_generator.seed_seq) to the run's seed and redeal the hands.
    seat_rngs = [
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(c.generate_state(4))))
        for c in children[1:]
    ]
    return np.random.Generator(np.random.PCG64(children[0])), seat_rngs


def chunk(run: Run, k: int) -> Chunk:
    deal_rng, seat_rngs = streams(run.seed, k, len(run.seats))
    start, stop = run.bounds(k)
    return Chunk(run, k, np.arange(start, stop), deal_rng, seat_rngs, run.strategies())


def play_chunk(
    c: Chunk, on_deals: Callable[[np.ndarray, Any], None] | None = None
) -> dict[str, pd.DataFrame]:
    """A chunk's tables: `deals`, and for matches `matches`. `on_deals(deal or match numbers, finished
    states)` sees every batch of finished deals (one batch for single deals, one per round for matches)."""
    run, game = c.run, c.run.game
    if run.unit == "match":
        deals, matches = play_matches(
            game, c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_deals
        )
        return {"deals": deals, "matches": matches}
    state = game.deal(c.deal_rng, c.deals, run.rules)
    out = driver.play(game, state, run.rules, c.strategies, c.seat_rngs)
    if on_deals is not None:
        on_deals(c.deals, out)
    table = game.table(out, run.rules)
    for name in run.measures:
        table = table.assign(**game.extra_columns[name](out, run.rules))
    return {"deals": table}


def run_chunk(run: Run, k: int) -> dict[str, pd.DataFrame]:
    return play_chunk(chunk(run, k))


def run_chunk_summarized(run: Run, k: int) -> tuple[dict[str, pd.DataFrame], dict[str, Any]]:
    """Chunk k's tables and their partial summary (computed in the worker, where the tables are)."""
    tables = play_chunk(chunk(run, k))
    return tables, run.game.summarize(tables, run.unit)


def run_chunk_encoded(run: Run, summarize: bool, k: int) -> tuple[dict[str, Encoded], dict[str, Any] | None]:
    """Chunk k's tables encoded as its part files (`simulator.parts.encode`) and, with `summarize`, their
    partial summary: what a run that keeps no tables needs back from the worker."""
    tables = play_chunk(chunk(run, k))
    return encode(k, tables), (run.game.summarize(tables, run.unit) if summarize else None)


@dataclass
class Result:
    run: Run
    tables: dict[str, pd.DataFrame]  # empty when the tables were only streamed to parts (keep_tables=False)
    elapsed: float
    chunks_done: int
    jobs: int
    partial_summary: dict[str, Any] | None = None  # merged over the chunks done, when asked for
    reused: int = 0  # chunks read back from valid parts instead of played
    store: PartStore | None = dataclasses.field(default=None, repr=False)  # where its chunks were saved

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.run.n_chunks

    @property
    def deals_done(self) -> int:
        return self.run.bounds(self.chunks_done - 1)[1] if self.chunks_done else 0

    @property
    def summary(self) -> dict[str, Any] | None:
        return None if self.partial_summary is None else tallies.finish(self.partial_summary)

    def whole(self) -> Result:
        """This result, or Interrupted when Ctrl-C cut it short: for work that needs every deal (a study's
        arms)."""
        if not self.complete:
            raise Interrupted(
                f"interrupted after {self.deals_done:,} of {self.run.n:,} "
                f"{self.run.game.plural(self.run.unit)}"
            )
        return self


def _numbered(ks: Sequence[int]) -> str:
    """'chunk 3', 'chunks 3 and 4', 'chunks 1, 3 and 4'."""
    return f"chunk {ks[0]}" if len(ks) == 1 else f"chunks {', '.join(map(str, ks[:-1]))} and {ks[-1]}"


def in_order(  # noqa: PLR0913 (the work, its size, and where it runs)
    fn: Callable[[int], T],
    indices: Sequence[int] | int,
    jobs: int,
    backend: str = "loky",
    scheduler: str | None = None,
    what: Callable[[Sequence[int]], str] = _numbered,
) -> Generator[T, None, None]:
    """fn(k) for each k of `indices` (or of range(indices)), computed by `jobs` workers and yielded in that
    order as they finish. A DealsimError (a strategy that raises) is raised in chunk order too, so every -j
    names the same deal; a worker that dies is one WorkerLost naming `what(chunks)` it was playing. backend
    "dask" submits them to a Dask cluster, in order, a few ahead: the one at `scheduler` (or
    $DASK_SCHEDULER_ADDRESS), else a LocalCluster of `jobs` single-threaded worker processes."""
    ks = list(range(indices)) if isinstance(indices, int) else list(indices)
    if backend != "dask" and (jobs == 1 or len(ks) <= 1):
        yield from (fn(k) for k in ks)
        return
    parts: Any = None  # joblib's or Dask's generator of results
    with contextlib.ExitStack() as stack:
        # where each worker process notes the chunk it plays, to name it if the process dies
        playing = None if backend != "loky" else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        task = functools.partial(_in_worker, fn, os.getpid(), playing)
        try:
            _start_trackers()  # before held: starting one unblocks the stopping signals in this thread
            with signals.held():  # the workers start here
                if backend == "dask":
                    parts = _on_dask(stack, task, ks, jobs, scheduler, what)
                else:
                    from joblib import Parallel, delayed

                    # max_nbytes=None: a chunk's arguments are small, nothing is memory-mapped (joblib still
                    # makes its temporary folders in /dev/shm; closing the pool, on any stop, removes them)
                    parts = Parallel(n_jobs=jobs, backend=backend, return_as="generator", max_nbytes=None)(
                        delayed(task)(k) for k in ks
                    )
            for part in parts:
                if isinstance(part, DealsimError):
                    raise part
                yield part
        except Exception as exc:
            if not _lost_worker(exc):
                raise
            if signals.received is not None:  # the signal reached the workers before this process
                raise (signals.Terminated if signals.received == signal.SIGTERM else signals.CtrlC) from None
            raise WorkerLost(_death_message(exc, playing, what)) from None
        finally:
            # joblib's note on the chunks an error or Ctrl-C left unused: expected
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", r"\d+ tasks", UserWarning)
                if parts is not None:
                    parts.close()


def _start_trackers() -> None:
    """The resource trackers of multiprocessing and loky, started now if not yet running: each unblocks
    SIGINT and SIGTERM in the thread that starts it, which inside `signals.held` would let the workers start
    with them unblocked (and print a traceback each on a Ctrl-C while they import)."""
    from multiprocessing import resource_tracker

    from joblib.externals.loky.backend import resource_tracker as loky_tracker

    resource_tracker.ensure_running()
    loky_tracker.ensure_running()


def _in_worker(fn: Callable[[int], T], parent: int, playing: Path | None, k: int) -> T | DealsimError:
    """fn(k) in a worker. A DealsimError is returned, not raised: joblib raises the first error to
    *happen*, which depends on the workers' timing; returned, it waits its turn. User code that calls
    sys.exit is an error of the run, not the end of the worker."""
    signals.in_worker(parent)
    note = playing / str(os.getpid()) if playing is not None else None
    if note is not None:
        note.write_text(str(k))
    try:
        return fn(k)
    except DealsimError as exc:
        return exc
    except SystemExit as exc:  # a defence: the driver and the strategy loader already catch the known places
        return StrategyError(f"user code called {exception_text(exc)} while playing chunk {k}")
    finally:
        if note is not None:
            note.unlink(missing_ok=True)


def _lost_worker(exc: BaseException) -> bool:
    """Whether `exc` says a worker process died (loky's TerminatedWorkerError, a broken pool, Dask's
    KilledWorker)."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"TerminatedWorkerError", "BrokenProcessPool", "KilledWorker"})


def _death_message(exc: Exception, playing: Path | None, what: Callable[[Sequence[int]], str]) -> str:
    """One line for a worker that died: its exit code (as loky gives it) and the chunks that were being
    played when the pool broke (loky then kills the other workers, so every chunk left noted is named)."""
    codes = re.search(r"exit codes? of the workers (?:are|is) \{(.*?)\}", str(exc))
    how = f" ({codes.group(1)})" if codes else ""
    noted = []
    for note in playing.iterdir() if playing is not None else ():
        with contextlib.suppress(OSError, ValueError):
            noted.append(int(note.read_text()))
    if not noted:
        return f"a worker process died{how}: {' '.join(str(exc).split())[:200]}"
    return f"a worker process died{how} while playing {what(sorted(noted))}"


_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
TRIM_THRESHOLD = 1 << 30


def _on_dask(  # noqa: PLR0913 (the work, its size, and where it runs)
    stack: contextlib.ExitStack,
    fn: Callable[[int], T],
    ks: list[int],
    jobs: int,
    scheduler: str | None,
    what: Callable[[Sequence[int]], str],
) -> Iterator[T]:
    """fn(k) for each k on Dask, its client (and local cluster) entered into `stack`: started here, at once,
    so that its worker processes start while the caller holds the stopping signals back."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DealsimError("the dask backend needs Dask: pip install -e '.[dask]'") from None
    address = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        try:
            timeout = os.environ.get("DEALSIM_DASK_TIMEOUT", "10s")
            client = stack.enter_context(Client(address, timeout=timeout))
        except OSError as exc:
            raise DealsimError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    else:
        # Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in its workers, so glibc hands freed memory back
        # at once; the cores allocate many short-lived arrays per step, which then ran 2-2.5x slower.
        import dask

        # its workers ignore the stopping signals as loky's do (simulator.signals.dask_setup)
        stack.enter_context(
            dask.config.set({_TRIM: TRIM_THRESHOLD, "distributed.worker.preload": [signals.__name__]})
        )
        cluster = stack.enter_context(
            LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0")
        )
        client = stack.enter_context(Client(cluster))
    workers = max(1, len(client.scheduler_info().get("workers", {}))) if address else jobs
    return _submitted_in_order(client, fn, ks, 2 * workers, what)


def _submitted_in_order(
    client: Any, fn: Callable[[int], T], ks: list[int], ahead: int, what: Callable[[Sequence[int]], str]
) -> Generator[T, None, None]:
    """fn(k) on the cluster, `ahead` chunks submitted beyond the one awaited (so that finished tables wait in
    the workers' memory only that far ahead of the writing), yielded in order. The scheduler plays a lost
    worker's chunks again elsewhere; a chunk that every worker it was given died on is one WorkerLost."""
    pending: collections.deque[tuple[int, Any]] = collections.deque()
    todo = iter(ks)
    try:
        for k in itertools.islice(todo, ahead + 1):
            pending.append((k, client.submit(fn, k, pure=False)))
        while pending:
            k, future = pending[0]
            try:
                out = future.result()
            except Exception as exc:
                if _lost_worker(exc):
                    raise WorkerLost(f"every Dask worker given {what([k])} died while playing it") from None
                raise
            pending.popleft()
            yield out
            pending.extend((k, client.submit(fn, k, pure=False)) for k in itertools.islice(todo, 1))
    finally:
        client.cancel([future for _, future in pending])


# Where every run executed in this context saves its parts (set by `saving_parts`): commands made of several
# runs (compare, tune, report) keep each run's chunks in ROOT/<the run's key digest>/parts, so that they too
# can be resumed after a stop.
_PARTS: contextvars.ContextVar[tuple[Path, bool] | None] = contextvars.ContextVar(
    "dealsim_parts", default=None
)


@contextlib.contextmanager
def saving_parts(root: Path, reuse: bool) -> Iterator[None]:
    """Within: every `execute` saves its chunks under `root` (reusing valid ones when `reuse`)."""
    token = _PARTS.set((Path(root), reuse))
    try:
        yield
    finally:
        _PARTS.reset(token)


def _ambient_store(run: Run) -> PartStore | None:
    where = _PARTS.get()
    if where is None:
        return None
    root, reuse = where
    digest = hashlib.sha256(json.dumps(run_key(run), sort_keys=True).encode()).hexdigest()[:16]
    return PartStore(root / digest, run, reuse)


def execute(  # noqa: PLR0913 (the run, how it runs, and what it keeps)
    run: Run,
    jobs: int = -1,
    backend: str = "loky",
    progress: bool = False,
    *,
    store: PartStore | None = None,
    summarize: bool = False,
    keep_tables: bool = True,
    scheduler: str | None = None,
    earlier: Result | None = None,
    on_tables: Callable[[int, dict[str, pd.DataFrame]], None] | None = None,
) -> Result:
    """Run every chunk in order. With `store`, valid parts already there are read back instead of played and
    every chunk played is written as a part as it arrives. With `summarize`, the partial summaries of the
    chunks are merged as they arrive; without `keep_tables`, no chunk's tables outlive it (memory stays flat:
    the tables are in the parts). On Ctrl-C the chunks finished so far are kept (`Result.complete` is False),
    so an interrupted run still yields a reproducible prefix of the deals.

    `earlier`, a complete result of the same run cut to whole chunks of this one (a precision target's
    pilot: simulator.precision), is taken as this run's first chunks: its tables, summary and parts are
    carried on, not played again. `on_tables(k, tables)` sees each chunk's tables as it comes in."""
    import pandas as pd

    check(run)
    jobs = resolve_jobs(jobs)
    start = time.perf_counter()
    first = _carried(run, earlier)
    if store is None and earlier is not None:
        store = earlier.store
    store = store or _ambient_store(run)
    if store is not None:
        store.resize(run)
    todo = [k for k in range(first, run.n_chunks) if store is None or not store.valid(k)]
    # a run that keeps no tables gets each chunk's parts encoded by its worker, not in this process
    encoded = store is not None and not keep_tables and on_tables is None
    fn: Callable[[int], Any] = (
        functools.partial(run_chunk_encoded, run, summarize)
        if encoded
        else functools.partial(run_chunk_summarized if summarize else run_chunk, run)
    )
    played = in_order(fn, todo, jobs, backend, scheduler, functools.partial(chunk_words, run))
    kept: dict[str, list[pd.DataFrame]] = {}
    merged: dict[str, Any] | None = None
    done = 0
    if earlier is not None and first:
        merged, done = earlier.partial_summary, first
        if keep_tables:
            kept = {name: [frame] for name, frame in earlier.tables.items()}
    carried = 1 if kept else 0  # the earlier result's tables, one frame per table
    todo_set = set(todo)
    with progress_bar(progress) as bar:
        task = bar.add_task(
            f"{run.game.name}: {run.n:,} {run.game.plural(run.unit)}",
            total=run.n,
            completed=run.bounds(first - 1)[1] if first else 0,
        )
        try:
            for k in range(first, run.n_chunks):
                if k in todo_set:
                    out = next(played)
                    if encoded:
                        files, partial = out
                        assert store is not None  # for the type checker: `encoded` needs a store
                        store.save(k, files)
                        tables = {}
                    else:
                        tables, partial = out if summarize else (out, None)
                        if store is not None:
                            store.write(k, tables)
                elif store is not None:  # a valid part: read back, not played again
                    tables = store.read(k)
                    partial = run.game.summarize(tables, run.unit) if summarize else None
                grown = (partial if merged is None else tallies.merge(merged, partial)) if summarize else None
                if on_tables is not None:
                    on_tables(k, tables)
                if keep_tables:
                    for name, frame in tables.items():
                        kept.setdefault(name, []).append(frame)
                # the chunk counts once its summary and tables are both in (in one assignment: a Ctrl-C
                # between them would leave the summary one chunk ahead of the tables)
                merged, done = grown, done + 1
                bar.update(task, completed=run.bounds(k)[1])
        except KeyboardInterrupt:
            for frames in kept.values():
                del frames[carried + done - first :]  # a chunk kept but not yet counted
        finally:
            played.close()  # on any stop (Ctrl-C, a full disk): no worker goes on computing
    tables = {name: pd.concat(frames, ignore_index=True) for name, frames in kept.items()}
    reused = run.n_chunks - first - len(todo_set)
    elapsed = time.perf_counter() - start
    if earlier is not None and first:
        reused, elapsed = reused + earlier.reused, elapsed + earlier.elapsed
    return Result(run, tables, elapsed, done, jobs, merged, reused, store)


def _carried(run: Run, earlier: Result | None) -> int:
    """How many first chunks of `run` an earlier result holds: all of its chunks, which must be whole chunks
    of `run` with the same definition (anything else is a mistake of the caller, not of the user)."""
    if earlier is None:
        return 0
    if (
        not earlier.complete
        or dataclasses.replace(earlier.run, n=run.n) != run
        or earlier.run.n > run.n
        or (earlier.run.n % run.chunk_size and earlier.run.n != run.n)
    ):
        raise ValueError("earlier: a complete run of the same definition, cut to whole chunks, is needed")
    return earlier.chunks_done


def chunk_words(run: Run, ks: Sequence[int]) -> str:
    """Chunks of the run in words, with the seats that play a user strategy (the likeliest cause of a
    failure in them): 'chunk 3 (hands 1,500 to 1,999) with a user strategy at N: mymod:Mine'."""
    head = _numbered(ks)
    if len(ks) == 1:
        start, stop = run.bounds(ks[0])
        head += f" ({run.game.plural(run.unit)} {start:,} to {stop - 1:,})"
    names = run.game.seat_names(run.rules)
    made = run.strategies()
    users = {
        s: spec
        for s, spec, m in zip(names, run.seats, made)
        if not type(m).__module__.startswith("strategies.")
    }
    if not users:
        return head
    if len(users) == len(names) and len(set(users.values())) == 1:
        return f"{head} with a user strategy at every seat: {run.seats[0]}"
    if len(users) == 1:
        return f"{head} with a user strategy at {', '.join(f'{s}: {spec}' for s, spec in users.items())}"
    return f"{head} with user strategies at {', '.join(f'{s}={spec}' for s, spec in users.items())}"


def check(run: Run) -> None:
    """Fail on a run that cannot be played, with one clear error, before any work (not inside a worker)."""
    n_seats = len(run.game.seat_names(run.rules))
    if len(run.seats) != n_seats:
        raise DealsimError(f"{len(run.seats)} strategies for {n_seats} seats")
    if run.unit not in UNITS:
        raise DealsimError(f"unknown unit {run.unit!r}; use one of {', '.join(UNITS)}")
    for name in run.measures:
        if name not in run.game.extra_columns:
            known = ", ".join(run.game.extra_columns) or "none"
            raise DealsimError(f"{run.game.name} has no measure {name!r} (it has: {known})")
        if run.unit != "deal":
            raise DealsimError(f"the measure {name} is taken per deal: it needs the unit deal")
    run.strategies()
    refuse_inert(run.game, run.rules, run.unit, run.seats)


def map_chunks(
    fn: Callable[[Run, int], T],
    run: Run,
    jobs: int,
    progress: bool,
    label: str,
    backend: str = "loky",
    keep_partial: bool = False,
) -> list[T]:
    """fn(run, k) for every chunk k of the run, in order, on `jobs` workers, with a progress bar over the
    deals. Ctrl-C: with keep_partial, the chunks finished so far; otherwise KeyboardInterrupt goes on."""
    parts: list[T] = []
    with progress_bar(progress) as bar:
        task = bar.add_task(label, total=run.n)
        try:
            for part in in_order(functools.partial(fn, run), run.n_chunks, resolve_jobs(jobs), backend):
                parts.append(part)
                bar.update(task, completed=run.bounds(len(parts) - 1)[1])
        except KeyboardInterrupt:
            if not keep_partial:
                raise
    return parts


def resolve_jobs(jobs: int) -> int:
    """The worker count: `jobs`, or every core this process may use when jobs <= 0. More workers than cores
    only add start-up and memory to a CPU-bound run (the numbers are the same for any count), so `jobs` is
    capped to the cores, with a DealsimWarning."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if jobs > cores:
        warnings.warn(
            f"jobs {jobs} is more than the {cores} cores here; running {cores} jobs",
            DealsimWarning,
            stacklevel=2,
        )
    return cores if jobs <= 0 else min(jobs, cores)


def progress_bar(enabled: bool) -> Progress:
    """A rich progress bar on stderr (a no-op when disabled)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )
