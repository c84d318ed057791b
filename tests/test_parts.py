"""Runs that survive a stop: every finished chunk saved as a whole part, resume redoing only what is
missing or damaged, extension reusing chunks, and the output folder checked before any work."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.lock import LOCK
from simulator.parts import INDEX, PartStore, part_name
from simulator.results import read_tables
from simulator.specs import Execution, Output, RunSpec
from tests.cli_helpers import run_cli

SMALL = {"n": 9_000, "chunk_size": 1_000}
ONE = Execution(jobs=1)


def _tables(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.parquet"))}


def _files(folder: Path, but: tuple[str, ...] = ("timings.json",)) -> dict[str, str]:
    """Every file under `folder` (parts included) by its path there, as its SHA-256."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in but
    }


def _parts_indexed(folder: Path) -> int:
    try:
        return len((folder / "parts" / INDEX).read_bytes().splitlines()) - 1
    except OSError:
        return 0


def _slow_run(out: Path, *options: str) -> subprocess.Popen[bytes]:
    """`dealsim simulate rounds ... -o out` in a process of its own."""
    cmd = [sys.executable, "-m", "simulator", "simulate", "rounds", "--unit", "match", *options, "-j", "1"]
    return subprocess.Popen(
        [*cmd, "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )


def _wait_for_parts(out: Path, least: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _parts_indexed(out) < least:
        time.sleep(0.02)


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """An uninterrupted run with -o: the tables every other way of getting there must equal."""
    out = tmp_path_factory.mktemp("whole") / "run"
    app.simulate(RunSpec("rounds", unit="match", n=300, chunk_size=30), ONE, Output(out))
    return out


def test_a_run_killed_part_way_and_resumed_equals_an_uninterrupted_one(tmp_path: Path, whole: Path) -> None:
    out = tmp_path / "run"
    proc = _slow_run(out, "-n", "300", "--chunk-size", "30")
    _wait_for_parts(out, 2)  # kill it once some, not all, chunks are saved
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    saved = _parts_indexed(out)
    assert 2 <= saved < 10 and not (out / "deals.parquet").exists()
    assert (out / LOCK).exists()  # left by the killed run, held by no one: taken over
    assert len(read_tables(out)["matches"]) == 30 * saved  # what it finished can be read already
    sim = app.resume(out, execution=Execution(jobs=1))
    assert sim.result.complete and sim.result.reused >= 2
    # every file, the manifest and the parts included, is the uninterrupted run's; only the timings differ
    assert _files(out) == _files(whole)
    attempts = json.loads((out / "timings.json").read_text())["attempts"]
    assert [a["resumed"] for a in attempts] == [True] and attempts[0]["chunks_reused"] == sim.result.reused


def test_a_truncated_or_corrupt_part_is_found_and_played_again(tmp_path: Path, whole: Path) -> None:
    out = tmp_path / "run"
    app.simulate(RunSpec("rounds", unit="match", n=300, chunk_size=30), ONE, Output(out))
    cut = out / "parts" / "deals" / "part-00000003.parquet"
    cut.write_bytes(cut.read_bytes()[:200])
    flipped = out / "parts" / "matches" / "part-00000007.parquet"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    (out / "parts" / "deals" / "part-00000005.parquet").unlink()
    with open(out / "parts" / INDEX, "ab") as index:  # the line a kill tore mid-write
        index.write(b'{"bounds":[0,30],"chunk":0,"tab')
    sim = app.resume(out, execution=Execution(jobs=1))
    assert sim.result.reused == 10 - 3
    assert _files(out) == _files(whole)


def test_extending_a_finished_run_reuses_its_chunks(tmp_path: Path) -> None:
    out = tmp_path / "run"
    app.simulate(
        RunSpec("forty-two", **{**SMALL, "n": 2_500}), ONE, Output(out)
    )  # chunks 0, 1 and a short chunk 2
    sim = app.resume(out, n=SMALL["n"], execution=Execution(jobs=1))
    assert sim.result.reused == 2 and sim.run.n == SMALL["n"]  # the short chunk is played again, whole
    fresh = tmp_path / "fresh"
    app.simulate(RunSpec("forty-two", **SMALL), ONE, Output(fresh))
    assert _files(out) == _files(fresh)
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
    original = (out / "manifest.json").read_text()
    # each edit makes the parts another run's
    for edit in ({"seed": 99}, {"chunk_size": 25}, {"rules": {"sweep_bonus": 20}}):
        manifest = json.loads(original)
        manifest.update({k: {**manifest[k], **v} if isinstance(v, dict) else v for k, v in edit.items()})
        (out / "manifest.json").write_text(json.dumps(manifest))
        before = _files(out, but=())
        with pytest.raises(DealsimError, match="different run"):
            app.resume(out)
        assert _files(out, but=()) == before, edit  # refused before anything was written, the manifest too
        code, _, err = run_cli("simulate", "--resume", str(out))
        assert code == 2 and "different run" in err and _files(out, but=()) == before


def test_one_run_at_a_time_writes_a_folder(tmp_path: Path) -> None:
    """A second run, --force or --resume on a folder another process is writing is refused naming that
    process, and leaves the folder as it was; once that process is killed, its lock is taken over."""
    out = tmp_path / "run"
    proc = _slow_run(out, "-n", "3000", "--chunk-size", "30")
    try:
        _wait_for_parts(out, 2)
        assert proc.poll() is None
        held = json.loads((out / LOCK).read_text())
        assert held["pid"] == proc.pid and held["host"] == socket.gethostname()
        attempts = [
            ("simulate", "--resume", str(out)),
            ("simulate", "rounds", "-n", "10", "-o", str(out), "--force"),
            ("simulate", "rounds", "-n", "10", "-o", str(out)),
        ]
        for args in attempts:
            code, _, err = run_cli(*args)
            assert code == 2 and len(err.strip().splitlines()) == 1, err
            assert f"is being written by pid {proc.pid} on host {held['host']} since {held['since']}" in err
        with pytest.raises(DealsimError, match=f"pid {proc.pid}"):
            app.compare(RunSpec("rounds", n=10), {"0": "greedy"}, output=Output(out, force=True))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert json.loads((out / LOCK).read_text())["pid"] == proc.pid  # stale: its holder is gone
    before = _files(out, but=(LOCK,))
    code, _, err = run_cli("simulate", "--resume", str(out), "-n", "60", "-j", "1")  # cut to two chunks
    assert code == 0, err
    assert not (out / LOCK).exists()
    assert sorted(p.name for p in (out / "parts" / "deals").iterdir()) == [part_name(0), part_name(1)]
    for k in (0, 1):  # the killed run's parts were kept
        name = str(Path("parts") / "deals" / part_name(k))
        assert _files(out)[name] == before[name]


def test_the_lock_is_let_go_whatever_ends_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    app.simulate(RunSpec("rounds", n=40, chunk_size=20), ONE, Output(out))
    assert not (out / LOCK).exists()

    def stopped(*args: object, **kwargs: object) -> None:
        assert json.loads((out / LOCK).read_text())["pid"] == os.getpid()  # held while the run goes on
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "execute", stopped)
    with pytest.raises(KeyboardInterrupt):
        app.simulate(RunSpec("rounds", n=40, chunk_size=20), ONE, Output(out, force=True))
    assert not (out / LOCK).exists()


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
    parts = sorted((out / "runs").glob("*/parts/deals/part-*.parquet"))
    assert len(parts) >= 3
    lost = parts[::2]
    for p in lost:  # as if the command had been stopped before these chunks finished
        p.unlink()
    kept = {p: p.stat().st_mtime_ns for p in parts[1::2]}
    code, _, err = run_cli(command[0], "--resume", str(out), "-j", "1")
    assert code == 0, err
    assert all(p.exists() for p in lost) and all(p.stat().st_mtime_ns == t for p, t in kept.items())
    assert {p.name: p.read_bytes() for p in out.glob("*.csv")} == files


def test_the_parts_are_the_tables_as_a_dataset(tmp_path: Path) -> None:
    """Without the combined files (--no-combine) the parts folder holds the tables: read as a Parquet dataset
    they are the combined files' frames, dtypes and categories included, and report run reads them."""
    spec = RunSpec("forty-two", unit="match", n=60, chunk_size=20)
    combined = app.simulate(spec, ONE, Output(tmp_path / "combined"))
    parted = app.simulate(spec, ONE, Output(tmp_path / "parted", combine=False))
    assert _tables(tmp_path / "parted") == {} and set(_tables(tmp_path / "combined")) == {
        "deals.parquet",
        "matches.parquet",
    }
    for name in ("deals", "matches"):
        whole_file = pd.read_parquet(tmp_path / "combined" / f"{name}.parquet")
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parted" / "parts" / name), whole_file)
        pd.testing.assert_frame_equal(read_tables(tmp_path / "parted")[name], whole_file)
        pd.testing.assert_frame_equal(parted.tables[name], combined.tables[name])
    assert json.loads((tmp_path / "parted" / "manifest.json").read_text())["combine"] is False
    code, _, err = run_cli("report", "run", "--run", tmp_path / "parted", "-o", tmp_path / "report")
    assert code == 0, err
    # combining later: the resume of the finished run only joins its parts
    sim = app.resume(tmp_path / "parted", execution=ONE, combine=True)
    assert sim.result.reused == 3 and _tables(tmp_path / "parted") == _tables(tmp_path / "combined")
    app.resume(tmp_path / "parted", execution=ONE, combine=False)
    assert _tables(tmp_path / "parted") == {}


def test_a_summary_only_run_keeps_no_tables(tmp_path: Path, whole: Path) -> None:
    out = tmp_path / "run"
    code, _, err = run_cli(
        "simulate", "rounds", "--unit", "match", "-n", "300", "--chunk-size", "30", "-j", "1", "-o", out,
        "--keep", "summary",
    )  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [
        "manifest.json",
        "summary.csv",
        "summary.json",
        "timings.json",
    ]
    for name in ("summary.json", "summary.csv"):
        assert (out / name).read_bytes() == (whole / name).read_bytes()
    sim = app.resume(out, execution=ONE)  # no parts: played again from the start
    assert sim.result.complete and sim.result.reused == 0
    assert (out / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()
    refused = [
        (
            ("simulate", "rounds", "-n", "10", "--keep", "summary", "--combine", "-o", tmp_path / "x"),
            "keeps no tables",
        ),
        (("simulate", "rounds", "-n", "10", "--combine"), "give -o"),
        (("simulate", "--resume", out, "--keep", "tables"), "--keep cannot be given with --resume"),
        (("simulate", "--resume", out, "--combine"), "no tables to combine"),
    ]
    for args, said in refused:
        code, _, err = run_cli(*args)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()
    code, _, err = run_cli("report", "run", "--run", out)
    assert code == 2 and "keeps only its summary" in err


def test_the_index_grows_by_one_line_a_part(tmp_path: Path) -> None:
    run = RunSpec("rounds", n=200, chunk_size=10).build()
    store = PartStore(tmp_path, run, reuse=False)
    frame = pd.DataFrame({"x": [1, 2]})
    index = tmp_path / "parts" / INDEX
    for k in range(5):
        before = index.read_bytes()
        store.write(k, {"deals": frame})
        after = index.read_bytes()
        # appended, not rewritten
        assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    store.write(2, {"deals": frame})  # a chunk written again: its last line counts
    again = PartStore(tmp_path, run, reuse=True)
    assert sorted(again.parts) == list(range(5)) and all(again.valid(k) for k in range(5))


def test_workers_hand_over_encoded_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that keeps no tables has each chunk's parts encoded where the chunk was played: the writing
    process never encodes (PartStore.write, which does, is not called), and the bytes are the ones it would
    have written from the tables."""
    from simulator import runner

    spec = RunSpec("forty-two", n=2_000, chunk_size=1_000)
    with monkeypatch.context() as m:
        m.setattr(PartStore, "write", lambda *a: pytest.fail("a chunk's tables encoded by the writer"))
        sim = app.simulate(spec, Execution(jobs=2), Output(tmp_path / "run"))
    assert sim.result.complete
    run = sim.run
    store = PartStore(tmp_path / "again", run, reuse=False)
    store.write(1, runner.run_chunk(run, 1))
    again = (tmp_path / "again" / "parts" / "deals" / part_name(1)).read_bytes()
    assert again == (tmp_path / "run" / "parts" / "deals" / part_name(1)).read_bytes()
