"""The named studies of `dealsim report`: each runs its simulations and writes one report."""

from __future__ import annotations

from reports import bid_guide, bid_success, help_value, play_quality, sweep_value
from reports.study import Study
from simulator.errors import DealsimError

STUDIES: dict[str, Study] = {
    s.name: s
    for s in (bid_success.STUDY, bid_guide.STUDY, sweep_value.STUDY, help_value.STUDY, play_quality.STUDY)
}


def get(name: str) -> Study:
    if name not in STUDIES:
        known = "; ".join(f"{s.name} ({s.game}: {s.summary})" for s in STUDIES.values())
        raise DealsimError(f"unknown study {name!r}; known: {known}")
    return STUDIES[name]
