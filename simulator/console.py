"""The `dealsim` console script (and `python -m simulator`): `simulator.cli.main`, imported inside a guard,
so that Ctrl-C during the second of start-up (pandas, pyarrow, rich, typer) ends with one line as Ctrl-C
during a command does, not with a traceback of the imports. This module itself imports nothing heavy."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from simulator.cli import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    run()
