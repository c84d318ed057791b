"""Signals as users send them, to real processes: SIGINT (a terminal's Ctrl-C, to the whole process group) and
SIGTERM (`kill`, systemd, Slurm, Kubernetes) end a run within seconds in one line, exit 130 or 143, with its
whole parts kept and nothing left behind (no worker, no shared-memory folder); a main process killed outright
takes its workers with it. More moments, commands and backends under -m slow (`benchmarks/signals.py` times
them)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli
from tests.signaling import (
    COMMANDS,
    MOMENTS,
    alive_in_group,
    launch,
    leaked_shared_memory,
    stop,
    stopped_at,
    wait_until,
)

CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
needs_workers = pytest.mark.skipif(
    CORES < 2 or not hasattr(os, "killpg"), reason="needs two cores and process groups"
)
CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}
# From the signal to the exit: about 2 s at most on a quiet 2-core machine (benchmarks/signals.py); a loaded
# test machine gets room.
PROMPT = 15.0


def slow_run(tmp_path: Path, *extra: str):
    """A two-worker run at a crawl, started; returns it once a worker is playing."""
    marker = tmp_path / "playing"
    p = launch(
        "simulate",
        "forty-two",
        "-n",
        "100000",
        "-j",
        "2",
        "--chunk-size",
        "200",
        "--no-progress",
        "--seat",
        "all=tests.helpers:Slow",
        *extra,
        env={"DEALSIM_TEST_MARKER": str(marker)},
    )
    if not wait_until(lambda: marker.exists() or p.poll() is not None, 120):
        p.kill()
    assert marker.exists(), f"no worker started playing: {p.communicate()[1]}"
    return p, marker


@needs_workers
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_mid_run_ends_it_in_one_line_keeping_its_parts(tmp_path: Path, signum: int) -> None:
    """To the whole group, the workers included: they ignore it (a worker still importing would print a long
    traceback); the main process stops them, keeps the chunks finished and leaves the run resumable."""
    p, marker = slow_run(tmp_path, "-o", str(tmp_path / "run"))
    wait_until((tmp_path / "run" / "manifest.json").exists, 30)
    stopped = stop(p, signum)
    assert marker.read_text() == "ignored"
    assert stopped.code == CODES[signum], stopped.err
    assert stopped.err.startswith("interrupted") and len(stopped.err.splitlines()) == 1, stopped.err
    assert stopped.seconds < PROMPT
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["complete"] is False
    assert wait_until(lambda: not alive_in_group(p.pid), 10), "a worker outlived the run"
    assert not leaked_shared_memory(p.pid)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_starting_up_is_one_line(signum: int) -> None:
    """A third of a second in, the command line is still importing pandas and the rest."""
    p = launch("simulate", "forty-two", "-n", "1000", "--no-progress")
    wait_until(lambda: False, 0.3)
    stopped = stop(p, signum)
    assert (stopped.code, stopped.err) == (CODES[signum], "interrupted\n")


@needs_workers
def test_a_sigterm_to_the_main_process_alone_stops_its_workers_too(tmp_path: Path) -> None:
    """`kill PID` reaches the main process only: it stops its workers itself."""
    p, _ = slow_run(tmp_path)
    stopped = stop(p, signal.SIGTERM, group=False)
    assert (stopped.code, stopped.err.splitlines()[-1][:11]) == (143, "interrupted")
    assert wait_until(lambda: not alive_in_group(p.pid), 10), "a worker outlived the run"


@needs_workers
def test_workers_do_not_outlive_a_main_process_killed_outright(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the workers notice that their parent is gone and end themselves (before, they
    went on computing, re-parented to init)."""
    p, _ = slow_run(tmp_path)
    assert len(alive_in_group(p.pid)) >= 3  # the main process and two workers
    p.kill()
    p.communicate(timeout=60)
    assert wait_until(lambda: not alive_in_group(p.pid), 10), alive_in_group(p.pid)


# --- user code that ends its process ------------------------------------------------------------------------
@needs_workers
def test_a_worker_that_dies_is_one_line_naming_its_chunk_and_strategy() -> None:
    code, out, err = run_cli(
        "simulate", "forty-two", "-n", "400", "--chunk-size", "100", "-j", "2", "--no-progress",
        "--seat", "all=tests.helpers:Dies",
    )  # fmt: skip
    assert code == 1 and len(err.splitlines()) == 1, err
    assert err.startswith("error: a worker process died (EXIT(9)")
    assert "while playing chunk" in err and "user strategy at every seat: tests.helpers:Dies" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sys_exit_in_a_decision_is_one_line_naming_the_strategy(jobs: str) -> None:
    code, _, err = run_cli(
        "simulate", "forty-two", "-n", "200", "--chunk-size", "100", "-j", jobs, "--no-progress",
        "--seat", "E=tests.helpers:Exits",
    )  # fmt: skip
    assert code == 1 and len(err.splitlines()) == 1, err
    assert "'tests.helpers:Exits' at seat E in deal 0" in err and err.rstrip().endswith("sys.exit(3)")


def test_a_constructor_that_raises_is_one_line_before_any_work(tmp_path: Path) -> None:
    code, _, err = run_cli(
        "simulate", "rounds", "-n", "100", "--seat", "0=tests.helpers:BrokenConstructor",
        "-o", tmp_path / "run",
    )  # fmt: skip
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "'tests.helpers:BrokenConstructor' could not be made: RuntimeError: no table for this one" in err
    assert not (tmp_path / "run" / "manifest.json").exists()


def test_a_module_that_exits_on_import_is_one_line() -> None:
    code, _, err = run_cli("simulate", "franks-zoo", "-n", "10", "--seat", "all=tests.exits_on_import:X")
    assert (code, err) == (
        1,
        "error: cannot load strategy tests.exits_on_import:X: importing tests.exits_on_import called "
        "sys.exit(4)\n",
    )


# --- every command at more moments (benchmarks/signals.py times the same cases) ---------------------------
@pytest.mark.slow
@needs_workers
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(
    ("command", "moment"),
    [(c, m) for c in COMMANDS for m in MOMENTS] + [("simulate", "writing tables")],
)
def test_every_command_stops_cleanly_at_every_moment(
    tmp_path: Path, command: str, moment: str, signum: int
) -> None:
    o = stopped_at(command, moment, signum, tmp_path / "out")
    assert o.code == CODES[signum] and o.one_line, o
    assert o.seconds < 5 and not o.left_running and not o.leaked, o


@needs_workers
def test_a_chunk_that_kills_every_dask_worker_is_one_line() -> None:
    """A local cluster restarts a dead worker and the scheduler gives the chunk to another, up to its limit;
    then the run fails in one line naming the chunk (joblib's Dask backend waited for ever)."""
    pytest.importorskip("distributed")
    code, _, err = run_cli(
        "simulate", "rounds", "-n", "200", "--chunk-size", "100", "-j", "2", "--backend", "dask",
        "--no-progress", "--seat", "1=tests.helpers:Dies",
    )  # fmt: skip
    assert code == 1 and len(err.splitlines()) == 1, err
    assert err.startswith("error: every Dask worker given chunk 0 (games 0 to 99) with a user strategy at 1")


def test_a_pool_threads_error_is_hidden_only_once_a_stop_has_come(monkeypatch: pytest.MonkeyPatch) -> None:
    """loky's manager thread can lose a race with the abort a stop starts (a KeyError in its own code): that
    is not shown after SIGINT or SIGTERM; a thread's error in any other code, or before a stop, is."""
    import threading

    from simulator import signals

    def raised_in(filename: str) -> threading.ExceptHookArgs:
        try:
            exec(compile("raise KeyError(1)", filename, "exec"))
        except KeyError as exc:
            return threading.ExceptHookArgs([KeyError, exc, exc.__traceback__, None])
        raise AssertionError

    shown: list[str] = []
    monkeypatch.setattr(
        signals, "_shown", lambda args: shown.append(args.exc_traceback.tb_next.tb_frame.f_code.co_filename)
    )
    pool, mine = "/site-packages/joblib/externals/loky/process_executor.py", "/home/me/strategy.py"
    monkeypatch.setattr(signals, "received", None)
    signals._quiet_pools_once_stopped(raised_in(pool))
    monkeypatch.setattr(signals, "received", signal.SIGTERM)
    signals._quiet_pools_once_stopped(raised_in(pool))
    signals._quiet_pools_once_stopped(raised_in(mine))
    assert shown == [pool, mine]
