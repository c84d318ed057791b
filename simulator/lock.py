"""One writer per output folder: FOLDER/.dealsim.lock, held for the whole of a run that writes the folder.

The lock is an exclusive `flock` on that file, taken without waiting and held on the open file for the run's
life; the file says who holds it, as one JSON line: `{"pid": 1234, "host": "box", "since":
"2026-12-04T19:30:00Z"}`. The kernel releases a flock when its process dies however it
dies (SIGKILL included), so the file a killed run leaves behind holds no lock: the next run takes it over
(no pid to test, so no mistake when the pid has since been reused). A run that ends (normally, on an error,
on Ctrl-C) removes the file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from simulator.errors import DealsimError

LOCK = ".dealsim.lock"


def holder(path: Path) -> str:
    """Who the lock file at `path` says holds it, in words."""
    try:
        told = json.loads(path.read_text())
        return f"pid {told['pid']} on host {told['host']} since {told['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another dealsim run"


def _take(path: Path) -> int | None:
    """The open, flocked lock file at `path`, or None when another process holds it."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        try:  # the file locked may have been removed by its holder meanwhile: then lock the new one
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Within: `folder` is this process's to write; another run writing it is refused in one line."""
    path = Path(folder) / LOCK
    try:
        fd = _take(path)
    except OSError as exc:
        raise DealsimError(f"cannot write to the output folder {folder}: {exc.strerror or exc}") from None
    if fd is None:
        raise DealsimError(
            f"output folder {folder} is being written by {holder(path)}; wait for it or stop it"
        )
    try:
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        told = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(told) + "\n").encode(), 0)
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # while still held: a run waiting on this file sees it gone and makes its own
        os.close(fd)
