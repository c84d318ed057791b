"""The named studies of `dealsim report`: each runs its simulations and writes one report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator.errors import DealsimError


@dataclass(frozen=True)
class Study:
    name: str
    game: str
    summary: str
    unit: str                      # the unit of the study's main run
    matches_help: str              # what its --matches count is
    # build(base_run, matches, jobs, progress, command, provenance) -> (Report, headline table (title, columns, rows))
    build: Callable[..., tuple[Any, tuple[str, list[str], list[list[Any]]]]]


def registry() -> dict[str, Study]:
    from reports import bid_success, sweep_value

    return {s.name: s for s in (bid_success.STUDY, sweep_value.STUDY)}


def get(name: str) -> Study:
    studies = registry()
    if name not in studies:
        raise DealsimError(f"unknown study {name!r}; known: {', '.join(studies)}")
    return studies[name]
