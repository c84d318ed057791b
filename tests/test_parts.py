"""Runs that survive a stop: every finished chunk saved as a whole part, resume redoing only what is
missing or damaged, extension reusing chunks, and the output folder checked before any work."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.specs import Execution, Output, RunSpec
from tests.cli_helpers import run_cli

SMALL = {"n": 9_000, "chunk_size": 1_000}
ONE = Execution(jobs=1)


def _tables(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.parquet"))}


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """An uninterrupted run with -o: the tables every other way of getting there must equal."""
    out = tmp_path_factory.mktemp("whole") / "run"
    app.simulate(RunSpec("rounds", unit="match", n=300, chunk_size=30), ONE, Output(out))
    return out


def test_a_run_killed_part_way_and_resumed_equals_an_uninterrupted_one(tmp_path: Path, whole: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "simulator",
        "simulate",
        "rounds",
        "--unit",
        "match",
        "-n",
        "300",
        "--chunk-size",
        "30",
        "-j",
        "1",
        "-o",
        str(out),
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    index = out / "parts" / "index.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # kill it once some, not all, chunks are saved
        try:
            if len(json.loads(index.read_text())["parts"]) >= 2:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    saved = len(json.loads(index.read_text())["parts"])
    assert 2 <= saved < 10 and not (out / "deals.parquet").exists()
    sim = app.resume(out, execution=Execution(jobs=1))
    assert sim.result.complete and sim.result.reused >= 2
    assert _tables(out) == _tables(whole)
    assert json.loads((out / "summary.json").read_text()) == json.loads((whole / "summary.json").read_text())


def test_a_truncated_or_corrupt_part_is_found_and_played_again(tmp_path: Path, whole: Path) -> None:
    out = tmp_path / "run"
    app.simulate(RunSpec("rounds", unit="match", n=300, chunk_size=30), ONE, Output(out))
    cut = out / "parts" / "deals-000003.parquet"
    cut.write_bytes(cut.read_bytes()[:200])
    flipped = out / "parts" / "matches-000007.parquet"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    (out / "parts" / "deals-000005.parquet").unlink()
    sim = app.resume(out, execution=Execution(jobs=1))
    assert sim.result.reused == 10 - 3
    assert _tables(out) == _tables(whole)


def test_extending_a_finished_run_reuses_its_chunks(tmp_path: Path) -> None:
    out = tmp_path / "run"
    app.simulate(
        RunSpec("forty-two", **{**SMALL, "n": 2_500}), ONE, Output(out)
    )  # chunks 0, 1 and a short chunk 2
    sim = app.resume(out, n=SMALL["n"], execution=Execution(jobs=1))
    assert sim.result.reused == 2 and sim.run.n == SMALL["n"]  # the short chunk is played again, whole
    fresh = tmp_path / "fresh"
    app.simulate(RunSpec("forty-two", **SMALL), ONE, Output(fresh))
    assert _tables(out) == _tables(fresh)
    assert json.loads((out / "manifest.json").read_text())["deals"] == SMALL["n"]


def test_the_tables_on_disk_are_the_tables_in_memory(tmp_path: Path) -> None:
    on_disk = app.simulate(RunSpec("franks-zoo", n=60, chunk_size=20), ONE, Output(tmp_path / "run"))
    in_memory = app.simulate(RunSpec("franks-zoo", n=60, chunk_size=20), ONE)
    assert on_disk.result.tables == {}  # no chunk's tables outlived it: they are read from disk on first use
    for name in ("deals", "matches"):
        assert on_disk.tables[name].astype(str).equals(in_memory.tables[name].astype(str))
    assert json.dumps(on_disk.summary, default=str) == json.dumps(in_memory.summary, default=str)


def test_a_bad_output_fails_at_once_with_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for target, said in ((afile / "sub", "cannot write to the output folder"), (afile, "is not a folder")):
        start = time.monotonic()
        code, _, err = run_cli("simulate", "forty-two", "-n", "10000000", "-o", str(target))
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1
        assert time.monotonic() - start < 2
    used = tmp_path / "used"
    used.mkdir()
    (used / "games.parquet").write_text("stale")
    code, _, err = run_cli("simulate", "forty-two", "-n", "100", "-o", str(used))
    assert code == 2 and "is not empty" in err
    (used / "mydata.csv").write_text("the user's own")  # --force replaces dealsim's outputs, nothing else
    (used / "report").mkdir()
    (used / "report" / "notes.txt").write_text("the user's own too")
    code, _, err = run_cli("simulate", "forty-two", "-n", "100", "-j", "1", "-o", str(used), "--force")
    assert code == 0, err
    assert not (used / "games.parquet").exists() and (used / "deals.parquet").exists()
    assert (used / "mydata.csv").exists() and (used / "report" / "notes.txt").exists()


def test_resume_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    with pytest.raises(DealsimError, match="nothing to resume"):
        app.resume(tmp_path)
    out = tmp_path / "run"
    app.simulate(RunSpec("rounds", n=100, chunk_size=50), ONE, Output(out))
    code, _, err = run_cli("simulate", "rounds", "--resume", str(out))
    assert code == 2 and "game cannot be given with --resume" in err
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["seed"] = 99  # the parts are another run's
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DealsimError, match="different run"):
        app.resume(out)


@pytest.mark.parametrize(
    "command",
    [
        ["compare", "forty-two", "--vs", "N=greedy", "-n", "600", "--chunk-size", "200"],
        ["tune", "rounds", "--vary", "sweep_bonus=5,20", "-n", "40", "--chunk-size", "10"],
        ["report", "sweep-value", "-n", "300", "--matches", "10", "--chunk-size", "100"],
    ],
)
def test_compare_tune_and_report_resume_from_their_saved_chunks(tmp_path: Path, command: list[str]) -> None:
    out = tmp_path / "out"
    code, _, err = run_cli(*command, "-j", "1", "-o", str(out))
    assert code == 0, err
    files = {p.name: p.read_bytes() for p in out.glob("*.csv")}
    parts = sorted((out / "runs").glob("*/parts/deals-*.parquet"))
    assert len(parts) >= 3
    lost = parts[::2]
    for p in lost:  # as if the command had been stopped before these chunks finished
        p.unlink()
    kept = {p: p.stat().st_mtime_ns for p in parts[1::2]}
    code, _, err = run_cli(command[0], "--resume", str(out), "-j", "1")
    assert code == 0, err
    assert all(p.exists() for p in lost) and all(p.stat().st_mtime_ns == t for p, t in kept.items())
    assert {p.name: p.read_bytes() for p in out.glob("*.csv")} == files
