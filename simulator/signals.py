"""How a run meets the signals that stop it, in the main process and in its workers.

The main process turns SIGINT (Ctrl-C) into `CtrlC` and SIGTERM (`kill PID`, systemd, Slurm, Kubernetes) into
`Terminated`, both KeyboardInterrupts: one path stops both, keeping the
chunks finished so far, stopping the workers and removing their temporary files. `received` remembers which
signal it was, so that the command line exits 130 after SIGINT and 143 after SIGTERM (128 + the signal's
number, as a shell reports a process the signal killed).

Workers ignore both signals (a terminal's Ctrl-C reaches the whole process group; the main process stops the
workers itself, with SIGKILL): they start with them blocked (see `held`) and ignore them from their first
task on (a local Dask cluster's from its preload, `dask_setup`). They also watch their parent: a worker whose
main process has gone (SIGKILL, a crash) exits within a second or two instead of computing on for nobody.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

STOPPING = (signal.SIGINT, signal.SIGTERM)
_POOL_FILES = re.compile(r"[/\\](joblib|distributed|tornado)[/\\]")
# How often a worker looks for its parent, in seconds.
WATCH_EVERY = 0.5

received: int | None = None  # the last stopping signal this process was sent, if any
_watching = False
_deferring = False  # within `held`: a stopping signal is noted in _deferred, and raised when it ends
_deferred: list[int] = []


class Stop(KeyboardInterrupt):
    """A stopping signal, raised in the main thread where it arrived. A subclass, not KeyboardInterrupt
    itself: CPython 3.11 ends a process by SIGINT, whatever exit it took, once a bare KeyboardInterrupt has
    passed through code run by exec() of a string (dataclasses and namedtuples are made so, all through the
    imports), so a Ctrl-C at start-up would end with no exit code."""


class CtrlC(Stop):
    """SIGINT."""


class Terminated(Stop):
    """SIGTERM, to stop the run as Ctrl-C does."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _deferring:
        _deferred.append(signum)
    else:
        _raise(signum)


def _raise(signum: int) -> None:
    global received  # noqa: PLW0603 (the one fact a signal handler leaves behind)
    received = signum
    raise Terminated if signum == signal.SIGTERM else CtrlC


def stop_within(exc: BaseException) -> Stop | None:
    """The stop hidden in another error, if any: a signal that arrives while compiled code (a numba kernel)
    runs raises as the call returns, and the caller then reports its own error (numba's `SystemError: ...
    returned a result with an exception set`) with the stop as its context. Such an error is the stop, not
    a failure of the code that was running."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        if isinstance(at, Stop):
            return at
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return None


def install() -> None:
    """SIGINT and SIGTERM stop the command as KeyboardInterrupt; first thing at start-up, in the main
    thread. A signal this process was started with ignored (a background job's SIGINT) stays ignored."""
    forget()
    for signum in STOPPING:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_signal)
    threading.excepthook = _quiet_pools_once_stopped


_shown = threading.excepthook


def _quiet_pools_once_stopped(args: threading.ExceptHookArgs) -> None:
    """Once a stopping signal has come, an error in a worker pool's own thread as the pool is torn down
    (loky's manager thread losing a race with the abort: "KeyError" in add_call_item_to_queue) is not shown;
    every other thread's error is."""
    if received is None or not any(_POOL_FILES.search(f.f_code.co_filename) for f, _ in _frames(args)):
        _shown(args)


def _frames(args: threading.ExceptHookArgs) -> Iterator[tuple[FrameType, int]]:
    import traceback

    return traceback.walk_tb(args.exc_traceback)


def forget() -> None:
    """No stopping signal received yet (a fresh command in a process that runs several, such as the tests)."""
    global received  # noqa: PLW0603
    received = None


def exit_code(default: int = 130) -> int:
    """128 + the stopping signal received, or `default` (a KeyboardInterrupt raised by code, not a
    signal)."""
    return 128 + received if received is not None else default


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Meanwhile (while workers start), SIGINT and SIGTERM are blocked in this thread, so the processes and
    threads started meanwhile begin with them blocked (a mask survives fork and exec; a worker then ignores
    them for good, see `in_worker`), and a stopping signal that arrives is held back: it stops the run when
    the block ends, not halfway through starting a pool. Nothing is ignored meanwhile: a signal the kernel
    hands to another thread of this process (a numpy or Dask thread that does not block it) would be lost.
    Start the resource trackers before (`runner._start_trackers`): starting one unblocks the signals."""
    global _deferring  # noqa: PLW0603
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    _deferring, _deferred[:] = True, []
    try:
        yield
    finally:
        _deferring = False
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one pending for this thread is handled now
        if _deferred:
            _raise(_deferred[0])


def in_worker(parent: int) -> None:
    """In a worker process of `parent` (once per process; a no-op in the main process itself and in a
    worker that is not the main process's own child, such as a Dask cluster's): signals ignored, and a
    thread that ends the process when its parent is gone."""
    global _watching  # noqa: PLW0603
    if _watching or os.getpid() == parent or os.getppid() != parent:
        return
    _watching = True
    if threading.current_thread() is threading.main_thread():
        for signum in STOPPING:
            signal.signal(signum, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(parent,), name="dealsim-parent-watch", daemon=True).start()


def dask_setup(worker: object) -> None:
    """Dask's preload hook (`distributed.worker.preload`), for the workers of the local cluster that the dask
    backend starts: they ignore SIGINT and SIGTERM as loky's workers do, from the moment they load it. When
    Dask's logging is quieted (the command line does so unless --debug), so are the errors its objects raise
    while a worker stopped mid-start is torn down ("Exception ignored in: Client.__del__ ... IOLoop is
    closed")."""
    import dask

    if threading.current_thread() is threading.main_thread():
        for signum in STOPPING:
            signal.signal(signum, signal.SIG_IGN)
    if dask.config.get("logging.distributed", None) == "critical":
        sys.unraisablehook = lambda unraisable: None


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)  # the main process is gone: no one will read what this worker computes
