"""A real cluster as docs/dask.md sets one up (`dask scheduler`, `dask worker` processes on 127.0.0.1): a run
sent to it gives the tables of a local run, also when one worker is killed (SIGKILL) part way: the scheduler
plays the lost chunks again on the worker left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is part of the test extra; install it with .[test]")

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """(scheduler address, the two worker processes)."""
    info = tmp_path / "scheduler.json"
    procs = [_start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--scheduler-file", str(info), "--no-dashboard")]  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        workers = [
            _start("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard")
            for _ in range(2)
        ]
        procs += workers
        yield address, workers
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)


def _simulate(folder: Path, *extra: str) -> subprocess.Popen:
    args = [
        "simulator",
        "-q",
        "simulate",
        "rounds",
        "-n",
        "160000",
        "--chunk-size",
        "4000",
        "-o",
        str(folder),
    ]
    return subprocess.Popen(
        [sys.executable, "-m", *args, *extra], cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.slow
def test_a_cluster_that_loses_a_worker_still_gives_the_tables_of_loky(cluster, tmp_path: Path) -> None:
    address, workers = cluster
    run = _simulate(tmp_path / "dask", "--backend", "dask", "--scheduler", address)
    parts = tmp_path / "dask" / "parts"
    deadline = time.monotonic() + 120
    while len(list(parts.glob("*/*.parquet")) if parts.exists() else []) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert run.poll() is None, "the run ended before a worker could be killed: make it longer"
    os.kill(workers[0].pid, signal.SIGKILL)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    local = _simulate(tmp_path / "loky", "-j", "2")
    _, err = local.communicate(timeout=300)
    assert local.returncode == 0, err
    for name in ("deals", "matches"):
        on_loky = tmp_path / "loky" / f"{name}.parquet"
        if on_loky.exists():
            assert (tmp_path / "dask" / f"{name}.parquet").read_bytes() == on_loky.read_bytes()
    assert workers[0].poll() is not None  # the kill landed, mid-run
