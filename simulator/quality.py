"""Play quality against perfect play: the columns both games' `--measure play-quality` write, and the
arithmetic they share.

A game's perfect-information solver values the deal before every play (`Solver.values_along`). The value is
zero-sum between the two sides: one side plays to make it high, the other low. A play can only keep it where
it was (a perfect play) or move it against the side that made it; what it moved it by is what that play
gave away. `split` sums that per side.

The columns, one row per deal, `<side>` the game's own side suffix as its other columns use it (Forty-two
`ns` and `ew`, as in `points_ns`; Rounds `0` and `1`, as in `points_0`):

- `perfect_value_<side>`: the side's value with perfect play by everyone from the deal on. Forty-two: the
  points the side takes (the two sides' add up to the points in play, 42 unless a nello sitter holds count);
  Rounds: the player's margin (his stage score less the other's), stage by stage from each stage's deal,
  summed over the five stages (the two players' are each other's negatives).
- `gave_away_<side>`: what the side's own plays gave away against perfect play, in that same value.
- `costly_plays_<side>`: how many of the side's plays gave something away.

A concept only one game has keeps a column of its own: Forty-two `made_perfect` (the contract makeable with
perfect play from the opening lead); Rounds `stages_off_perfect` (stages whose result differs from the
perfect-play one) and `s{k}_gave_away_<side>` (what the side gave away in stage k). Each game's `quality`
module says what its values are in detail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simulator.tallies import mean

SHARED = ("perfect_value", "gave_away", "costly_plays")


def columns(sides: tuple[str, str]) -> tuple[str, ...]:
    """The shared columns with a game's side suffixes, in order: each concept for both sides."""
    return tuple(f"{name}_{side}" for name in SHARED for side in sides)


def split(
    values: np.ndarray, mover: np.ndarray, maximizer: np.ndarray | int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """What each of two sides gave away along lines of play, and how many of its plays gave something away.

    `values` (..., k + 1): a line's value before each of its k plays, then after the last; side `maximizer`
    (0 or 1; one for all lines or one per line, shape values.shape[:-1]) plays to make it high, the other side
    low. `mover` (..., k): the side (0 or 1) that made each play, -1 where no play was made (the line was
    shorter: the values there are not read).

    Returns (gave, costly), each (..., 2) int64 [line, side]: the sum over the side's plays of how far each
    moved the value against it (down for the maximizer's plays, up for the other's), and the number of its
    plays that moved it at all."""
    values = np.asarray(values, np.int64)
    mover = np.asarray(mover)
    if values.shape[:-1] != mover.shape[:-1] or values.shape[-1] != mover.shape[-1] + 1:
        raise ValueError(f"values {values.shape} must have one more column than the plays {mover.shape}")
    change = np.diff(values, axis=-1)  # after a play less before it
    maxi = np.asarray(maximizer)[..., None]
    against = np.where(mover == maxi, -change, change)  # a maximizer's play lowers it, the other's raises it
    gave = np.stack([np.where(mover == side, against, 0) for side in (0, 1)], axis=-1)  # (..., k, 2)
    return gave.sum(axis=-2), (gave > 0).sum(axis=-2)


def summarize(deals: Any, sides: Sequence[str], units: Any = None) -> dict[str, Any]:
    """The shared part of a run's play-quality summary (tallies): per side, the mean perfect-play value and
    the mean given away per deal of `deals` (the deals the measure covers), over `units` (each deal's unit,
    `tallies.units_of`) when given."""
    return {
        name: {side: mean(deals[f"{name}_{side.lower()}"], units) for side in sides}
        for name in ("perfect_value", "gave_away")
    }
