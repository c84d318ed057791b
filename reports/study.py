"""What a named study of `dealsim report` is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Study:
    name: str
    game: str
    summary: str  # one line, shown in listings and errors
    unit: str  # the unit of the study's main run ("deal" or "match")
    default_matches: Callable[[int], int]  # deals of the main run -> matches of its match part
    # build(base_run, matches, jobs, progress, command, provenance) -> (Report, headline), the headline
    # being (title, columns, rows)
    build: Callable[..., tuple[Any, tuple[str, list[str], list[list[Any]]]]]
    default_deals: int = 1_000_000  # size of the main run (of each arm) when -n is not given
