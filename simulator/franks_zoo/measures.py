"""The measures of Frank's Zoo's per-hand table (one row per player and hand) for sweeps and paired
comparisons: one numerator and denominator per row, which the game contract sums per unit (a hand, or a whole
game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd


def team_points(h: pd.DataFrame) -> np.ndarray:
    """Per row of the per-hand table: the player's points plus his partner's (a team's points; the player's
    own when he has no partner). The table holds each hand's players in seat order, one row each."""
    p = int(h["player"].max()) + 1
    points = h["points"].to_numpy(np.int64).reshape(-1, p)
    partner = h["partner"].to_numpy(np.int64).reshape(-1, p)
    theirs = np.take_along_axis(points, np.maximum(partner, 0), axis=1)
    return (points + np.where(partner >= 0, theirs, 0)).ravel()


def measures(h: pd.DataFrame, side: int = 0) -> list[Measure]:
    """`side` is the seat whose point of view points, places and wins take. Measures "as junior" count the
    hands in which that seat was a junior partner (the one who may ask for help)."""
    mine = (h["player"] == side).to_numpy()
    team = team_points(h)
    out = [
        Measure(f"seat {side} points per hand", np.where(mine, h["points"], 0), mine, better="higher"),
        Measure(f"seat {side} place", np.where(mine, h["place"], 0), mine, better="lower"),
        Measure(f"seat {side} team's points per hand", np.where(mine, team, 0), mine, better="higher"),
    ]
    for role in ("junior", "senior"):
        playing = mine & (h["role"] == role).to_numpy()
        out += [
            Measure(f"seat {side} place as {role}", np.where(playing, h["place"], 0), playing),
            Measure(f"seat {side} team's points per hand as {role}", np.where(playing, team, 0), playing),
        ]
    junior = mine & (h["role"] == "junior").to_numpy()
    solo = (h["role"] == "solo").to_numpy()  # any seat: how strong the solo seat is (odd player counts)
    out += [
        Measure(
            f"seat {side} help requests per hand as junior", np.where(junior, h["help_asked"], 0), junior
        ),
        Measure("help requests granted", h["help_given"], h["help_asked"], binary=True),
        Measure("solo player's points per hand", np.where(solo, h["points"], 0), solo),
        Measure("helped sets taking the trick", h["help_won"], h["help_given"], binary=True),
    ]
    return out
