"""Same seed, same outcomes: small runs of every game, unit and strategy give the tables they gave before
the game contract was introduced (digests in tests/data, taken with the code of that time).

A digest is per column (sha256 of the column's values as text). Columns renamed since (one vocabulary in
every game, units in names) are mapped below, and so are columns written in words since (their values are
digested as they were written then); a column dropped on purpose is listed with its reason. Any other
difference in a deal, move, point or score changes a digest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator import registry
from simulator.runner import Run, execute

BASELINE = json.loads((Path(__file__).parent / "data" / "digests_baseline.json").read_text())
UNIT = {"hand": "deal", "game": "deal", "match": "match"}
SIZES = {
    ("forty-two", "hand"): (600, 200),
    ("forty-two", "match"): (30, 10),
    ("rounds", "game"): (300, 100),
    ("rounds", "match"): (20, 8),
    ("franks-zoo", "hand"): (200, 70),
    ("franks-zoo", "match"): (12, 5),
}
SMALL = {("franks-zoo", "match", "players=6"): (8, 4), ("forty-two", "match", "target=100"): (12, 5)}
# baseline column -> today's, per (game, table): the per-deal table is 0, the per-match table 1
RENAMED = {
    ("forty-two", 0): {
        "game": "match",
        "hand": "number",
        "score_ns": "score_points_ns",
        "score_ew": "score_points_ew",
    },
    ("forty-two", 1): {"game": "match", "hands": "deals"},
    ("rounds", 0): {"game": "deal"},
    ("rounds", 1): {"games": "deals"},
    ("franks-zoo", 0): {"game": "match"},
    ("franks-zoo", 1): {"game": "match", "hands": "deals", **{f"total_{i}": f"final_{i}" for i in range(7)}},
}
# Strategies changed on purpose since, by the spec that plays as the baseline's did: Forty-two's heuristic
# bids along the ladder by default; its threshold bidder is `bidder=threshold`.
SPEC_THEN = {("forty-two", "heuristic"): "heuristic:bidder=threshold"}
# Frank's Zoo's per-hand table had `hand` (0-based number within the game); `number` (from 1, added by the one
# match loop for every game) replaces it.
# Forty-two's per-game table had `first_dealer_side_won`, which the first dealer and the winner tell (every
# game's match summary and measures now read them).
DROPPED = {("franks-zoo", 0): {"hand"}, ("forty-two", 1): {"first_dealer_side_won"}}


def _codes(values: pd.Series) -> pd.Series:
    """A category as the integer codes it was written as before (missing stays missing)."""
    codes = values.cat.codes.to_numpy()
    return pd.Series(pd.array(np.where(codes < 0, None, codes), dtype="Int8"), index=values.index)


# today's column -> its values as they were written then, per (game, table)
WRITTEN = {("forty-two", 0): {"trump": _codes}}  # the TRUMP action 0..10, a category of its names now


def digest(frame: pd.DataFrame, written: dict | None = None) -> dict[str, str]:
    written = written or {}
    return {
        col: hashlib.sha256(
            "\x1f".join(map(str, written.get(col, lambda v: v)(frame[col]).tolist())).encode()
        ).hexdigest()[:16]
        for col in frame.columns
    }


@pytest.mark.parametrize("case", list(BASELINE))
def test_outcomes_are_unchanged(case: str) -> None:
    name, unit, rules_text, seats = case.split("|")
    game = registry.get(name)
    overrides = [r for r in rules_text.split(",") if r]
    rules = game.rules(overrides=overrides)
    n, chunk = SMALL.get((name, unit, rules_text)) or SIZES[name, unit]
    specs = tuple(SPEC_THEN.get((name, spec), spec) for spec in seats.split(","))
    run = Run(game=game, n=n, seed=7, rules=rules, seats=specs, unit=UNIT[unit], chunk_size=chunk)
    tables = list(execute(run, jobs=1).tables.values())
    assert len(tables) == len(BASELINE[case])
    for i, (frame, before) in enumerate(zip(tables, BASELINE[case])):
        now = digest(frame, WRITTEN.get((name, i)))
        renamed = RENAMED.get((name, i), {})
        for col, value in before.items():
            if col in DROPPED.get((name, i), set()):
                continue
            assert now[renamed.get(col, col)] == value, f"{case}: table {i} column {col} changed"
