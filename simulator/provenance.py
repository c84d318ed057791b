"""What reproduces a figure: the versions that made it, the run's definition with every strategy's
parameters spelled out, and the `dealsim` command that plays it again."""

from __future__ import annotations

import dataclasses
import platform
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy
import pandas

from simulator.runner import Run
from simulator.version import __version__


def provenance(run: Run, **extra: Any) -> dict[str, Any]:
    """Versions, then the run's definition (with every strategy's parameters), then what the use case adds."""
    names = run.game.seat_names(run.rules)
    params = {name: {"strategy": s.name or s.spec, **s.params()} for name, s in zip(names, run.strategies())}
    return {
        **versions(),
        **run.describe(),
        "strategy_parameters": params,
        **extra,
    }


def seats_text(names: Sequence[str], seats: Sequence[str]) -> str:
    """Who played where, in words: 'heuristic at every seat', 'learned at N, S; heuristic at E, W'."""
    where: dict[str, list[str]] = {}
    for name, spec in zip(names, seats, strict=True):
        where.setdefault(spec, []).append(name)
    if len(where) == 1:
        return f"{seats[0]} at every seat"
    return "; ".join(f"{spec} at {', '.join(at)}" for spec, at in where.items())


def versions() -> dict[str, str]:
    return {
        "dealsim": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
    }


def command_line(
    verb: str,
    run: Run,
    *extra: str,
    subject: str | None = None,
    unit: bool = True,
    chunking: bool = True,
    seat_flag: str = "--seat",
    study: bool = False,
) -> str:
    """The `dealsim` command that reproduces `run`: every rule and seat that differs from the game's
    defaults (with `study`, seats against the game's study strategy, which studies seat by default), and
    the seed, size, unit and chunking always (where the command has those options)."""
    g = run.game
    words = ["dealsim", verb, subject or g.name, "-n", str(run.n), "--seed", str(run.seed)]
    words += ["--unit", run.unit] if unit else []
    words += ["--chunk-size", str(run.chunk_size)] if chunking else []
    default = g.rules_cls()
    for f in dataclasses.fields(run.rules):
        value = getattr(run.rules, f.name)
        if value != getattr(default, f.name):
            words += ["--rule", f"{f.name}={str(value).lower() if isinstance(value, bool) else value}"]
    seated = g.seated(study)
    for name, spec in zip(g.seat_names(run.rules), run.seats):
        if spec != seated:
            words += [seat_flag, f"{name}={spec}"]
    for name in run.measures:
        words += ["--measure", name]
    return shlex.join([*words, *extra])


def commit() -> str | None:
    """The checkout's commit (with "+" when it has uncommitted changes), None outside a git checkout."""
    root = Path(__file__).resolve().parents[1]

    def git(*words: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *words], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+" if dirty else "")


def measured_on(command: str) -> dict[str, Any]:
    """Where and when a measurement was taken, for a results file of benchmarks/: the tree's commit, the
    time, Python, the machine, the load average over the minute before, and the command that measured."""
    import datetime as dt
    import os
    import platform

    return {
        "commit": commit() or "unknown",
        "date": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_average": os.getloadavg()[0],
        "command": command,
    }
