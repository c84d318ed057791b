"""Errors a user can cause. The command line prints them as one line and exits with their `exit_code`.

Every error here carries only its message (no extra constructor arguments), so it pickles as it is and
comes back from a joblib worker with its type and message intact."""


class DealsimError(Exception):
    """Bad input: an unknown rule, a bad value, an unknown strategy, a malformed hand."""

    exit_code = 2  # a usage error, like typer's own


class IllegalAction(DealsimError):
    """A strategy chose an action outside the legal mask. The engine never repairs it."""


class StrategyError(DealsimError):
    """A strategy raised an exception while deciding; the message names strategy, seat, deal and exception."""

    exit_code = 1  # the input was valid; the strategy's code failed


class WorkerLost(DealsimError):
    """A worker process died while playing (killed, out of memory, or user code that ended its process)."""

    exit_code = 1


class Interrupted(DealsimError):
    """Ctrl-C before a result that needs every part of the work (a comparison, a sweep) was complete."""

    exit_code = 130  # as a shell reports a process ended by SIGINT


class DealsimWarning(UserWarning):
    """Input that works but probably is not what was meant (the command line prints it as one line)."""


def exception_text(exc: BaseException) -> str:
    """An exception in one line: 'ValueError: bad', or 'sys.exit(3)' for user code that exits."""
    if isinstance(exc, SystemExit):
        return f"sys.exit({'' if exc.code is None else repr(exc.code)})"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
