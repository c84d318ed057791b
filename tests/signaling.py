"""Signals sent as users send them, for the tests and `benchmarks/signals.py`.

`launch` starts `python -m simulator ...` in its own process group with SIGINT and SIGTERM at their default
dispositions: a child of a process that ignores SIGINT (a shell's background job, some test runners)
inherits the ignoring, and would then test nothing. `stop` sends a signal to the whole group, as a
terminal's Ctrl-C, `kill -TERM -PGID`, systemd or Slurm do (or to the main process alone, as `kill PID`), and
times the exit. `alive_in_group` and `leaked_shared_memory` say what a stopped run left behind.
"""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _default_dispositions() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


def launch(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.Popen[str]:
    """`dealsim ARGS` as a child in a new process group, stdout discarded, stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "simulator", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_dispositions,  # noqa: PLW1509 (no threads are started between fork and exec)
    )


@dataclass(frozen=True)
class Stopped:
    code: int
    err: str
    seconds: float  # from the signal to the main process's exit


def stop(p: subprocess.Popen[str], signum: int, group: bool = True, timeout: float = 60) -> Stopped:
    """Send `signum` to p's process group (or to p alone) and wait for p to end."""
    sent = time.monotonic()
    if group:
        os.killpg(p.pid, signum)
    else:
        os.kill(p.pid, signum)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return Stopped(-1, err + "\n(still running: killed)", timeout)
    return Stopped(p.returncode, err, time.monotonic() - sent)


def wait_until(condition: Callable[[], bool], timeout: float, every: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


def alive_in_group(pgid: int) -> list[int]:
    """The processes of group `pgid` still running (zombies waiting for init to reap them are not)."""
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(stat.split("/")[2]))
    return out


def workers_in_group(pgid: int) -> int:
    """How many worker processes (loky's or a local Dask cluster's, not the resource trackers) group `pgid`
    has."""
    count = 0
    for pid in alive_in_group(pgid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        count += b"popen_loky_posix" in command or b"spawn_main" in command
    return count


def leaked_shared_memory(pid: int) -> list[str]:
    """joblib's memory-mapping folders and loky's semaphores that process `pid` made and left."""
    return glob.glob(f"/dev/shm/joblib_memmapping_folder_{pid}_*") + glob.glob(f"/dev/shm/sem.loky-{pid}-*")


# --- the moments a run is stopped at, for the slow tests and benchmarks/signals.py -------------------------
HAND = "6-6 6-5 5-5 4-4 6-4 3-2 1-0"
# Each command is long enough to be still running at the latest moment; `{dir}` is a fresh output folder.
COMMANDS: dict[str, tuple[str, ...]] = {
    "simulate": ("simulate", "forty-two", "-n", "20000000", "-j", "2", "-o", "{dir}"),
    "simulate threading": ("simulate", "forty-two", "-n", "20000000", "-j", "2", "--backend", "threading"),
    "simulate dask": ("simulate", "forty-two", "-n", "20000000", "-j", "2", "--backend", "dask"),
    "simulate --resume": ("simulate", "--resume", "{dir}", "-j", "2"),
    "compare": (
        "compare",
        "forty-two",
        "--vs",
        "NS=heuristic:margin=2",
        "-n",
        "5000000",
        "-j",
        "2",
        "-o",
        "{dir}",
    ),
    "tune": ("tune", "rounds", "--vary", "seat.0.duck_margin=0,4", "-n", "2000000", "-j", "2", "-o", "{dir}"),
    "report": ("report", "bid-guide", "-n", "5000000", "-j", "2", "-o", "{dir}"),
    "analyze": ("analyze", "forty-two", "--hand", HAND, "--seat", "W", "-n", "10000000", "-j", "2"),
}
# Seconds from the launch: in the imports, as the workers start (for process workers: the moment the first
# appears), playing.
MOMENTS = {"start-up": 0.4, "workers starting": 1.6, "playing": 6.0}
# A run of many small parts, stopped while it writes its combined table.
WRITING = ("simulate", "forty-two", "-n", "400000", "--chunk-size", "100", "-j", "2", "-o", "{dir}")


def prepare(command: str, folder: Path) -> tuple[str, ...]:
    """The command's words for `folder` (a run to resume is started and stopped there first)."""
    if command == "simulate --resume":
        p = launch("simulate", "forty-two", "-n", "20000000", "-j", "2", "-o", str(folder), "--no-progress")
        wait_until(
            lambda: (folder / "parts").is_dir() and len(list((folder / "parts").rglob("*.parquet"))) > 2, 120
        )
        stop(p, signal.SIGINT)
    return tuple(w.replace("{dir}", str(folder)) for w in COMMANDS[command])


@dataclass(frozen=True)
class Outcome:
    command: str
    moment: str
    signal: str
    code: int
    seconds: float
    one_line: bool
    left_running: int  # processes of its group alive 5 s after the exit
    leaked: int  # shared-memory folders and semaphores left
    err: str


def stopped_at(command: str, moment: str, signum: int, folder: Path) -> Outcome:
    """Start `command`, send `signum` to its group at `moment`, and say how it ended."""
    if moment == "writing tables":
        words = tuple(w.replace("{dir}", str(folder)) for w in WRITING)
        p = launch(*words, "--no-progress")
        wait_until(lambda: any(folder.glob(".*.parquet.tmp")) or p.poll() is not None, 600, every=0.01)
    else:
        words = prepare(command, folder)
        p = launch(*words, "--no-progress")
        if moment == "workers starting" and "threading" not in command:  # as the first worker process appears
            wait_until(lambda: workers_in_group(p.pid) > 0 or p.poll() is not None, 60, every=0.01)
        else:
            wait_until(lambda: p.poll() is not None, MOMENTS[moment])
    s = stop(p, signum)
    wait_until(lambda: not alive_in_group(p.pid), 5)
    return Outcome(
        command,
        moment,
        signal.Signals(signum).name,
        s.code,
        round(s.seconds, 2),
        len(s.err.splitlines()) == 1 and s.err.startswith("interrupted"),
        len(alive_in_group(p.pid)),
        len(leaked_shared_memory(p.pid)),
        s.err.strip()[-300:],
    )
