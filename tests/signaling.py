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


def leaked_shared_memory(pid: int) -> list[str]:
    """joblib's memory-mapping folders and loky's semaphores that process `pid` made and left."""
    return glob.glob(f"/dev/shm/joblib_memmapping_folder_{pid}_*") + glob.glob(f"/dev/shm/sem.loky-{pid}-*")
