"""The `dealsim` console script (and `python -m simulator`): `simulator.cli.main`, imported inside a guard,
so that Ctrl-C or SIGTERM during the second of start-up (pandas, pyarrow, rich, typer) ends with one line as
during a command, not with a traceback of the imports. This module itself imports nothing heavy."""

from __future__ import annotations

import sys


def main() -> None:
    from simulator import signals

    signals.install()  # first: SIGTERM during start-up ends as Ctrl-C does
    try:
        from simulator.cli import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(signals.exit_code())
    run()
