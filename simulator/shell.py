"""How the command line meets the shell: one line on stderr for every failure, an exit code that says which
kind (2 bad input, 1 a strategy that raised or a file the system refused, 130 interrupted by Ctrl-C, 143
by SIGTERM), warnings as lines, and the global options (--debug, --quiet)."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import traceback
import warnings
from collections.abc import Iterator
from typing import TextIO

import typer
from rich.console import Console

from simulator import signals
from simulator.errors import DealsimError, DealsimWarning, Interrupted, exception_text

DASK_LOGGING, QUIET_DASK = "DASK_LOGGING__DISTRIBUTED", "critical"
_DASK_FILES = re.compile(r"[/\\](distributed|dask|tornado)[/\\]")
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # no wrapping in pipes and files


class Settings:
    """The global options, set by the app callback for the command that follows."""

    debug = False
    quiet = False

    @classmethod
    def set(cls, debug: bool, quiet: bool) -> None:
        cls.debug, cls.quiet = debug, quiet
        out.quiet = quiet
        # Dask's own logging and warnings (a nanny's warnings, a worker's restarts, a closed connection while
        # it stops) only with --debug: dask reads this variable when it is first imported, and the worker
        # processes it starts inherit it; a user's own setting stands.
        if not debug:
            os.environ.setdefault(DASK_LOGGING, QUIET_DASK)
        elif os.environ.get(DASK_LOGGING) == QUIET_DASK:  # set by an earlier command of this process
            del os.environ[DASK_LOGGING]
        logging.getLogger("tornado.application").disabled = not debug


def run(cli: typer.Typer) -> None:
    """Run the command line. With --debug (or DEALSIM_DEBUG=1) the traceback replaces the one line."""
    Settings.set(False, False)  # a fresh start for each call in one process (the tests)
    signals.forget()
    try:
        with _warnings_as_lines():
            code = cli(standalone_mode=False, prog_name="dealsim")
    except Interrupted as exc:  # Ctrl-C before a comparison or sweep was whole: the reason, not an error
        fail(str(exc), signals.exit_code(exc.exit_code), exc, prefix="")
    except DealsimError as exc:
        fail(str(exc), exc.exit_code, exc)
    except OSError as exc:  # disk full, permission denied, a missing folder: the system's words suffice
        fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc), 1, exc)
    except KeyboardInterrupt as exc:  # while parsing; typer turns one inside a command into exit code 130
        fail("interrupted", signals.exit_code(), exc, prefix="")
    except SystemExit as exc:  # a defence: user code that exits where no narrower catch names it
        fail(f"user code called {exception_text(exc)}", 1, exc)
    except Exception as exc:
        # typer's usage errors (a missing option, -n 0, an unknown command) carry their message and exit code
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            if not exc.format_message():  # `dealsim` alone: the help was shown
                sys.exit(exc.exit_code)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
            fail(exc.format_message() + hint, exc.exit_code)
        raise  # anything else is a bug: its traceback is what a report needs
    if (
        code == 130
    ):  # Ctrl-C inside a command: typer has already swallowed the KeyboardInterrupt (and its trace)
        fail("interrupted", signals.exit_code(), prefix="")
    sys.exit(code if isinstance(code, int) else 0)


def fail(message: str, code: int = 2, exc: BaseException | None = None, prefix: str = "error: ") -> None:
    if Settings.debug and exc is not None:
        traceback.print_exception(exc)  # with a worker's exception, joblib chains the worker's traceback
    else:
        print(prefix + " ".join(message.split()), file=sys.stderr)
    sys.exit(code)


def print_json(text: str) -> None:
    if not Settings.quiet:
        print(text)


@contextlib.contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Each DealsimWarning as one line on stderr, once per command (every arm of a compare may warn alike)."""
    seen: set[str] = set()
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(  # noqa: PLR0913, PLR0917 (warnings.showwarning's own signature)
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if not issubclass(category, DealsimWarning):
                if Settings.debug or not _DASK_FILES.search(filename):  # Dask's own only with --debug
                    shown(message, category, filename, lineno, file, line)
                return None
            text = "warning: " + " ".join(str(message).split())
            if text not in seen:
                seen.add(text)
                print(text, file=sys.stderr)
            return None

        warnings.simplefilter("always", DealsimWarning)
        warnings.showwarning = show
        yield
