"""The measures of Rounds' per-game table for sweeps and paired comparisons: one numerator and denominator
per game, which the game contract sums per unit (a game, or a whole match)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.rounds.view import N_STAGES
from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd


def measures(g: pd.DataFrame, side: int = 0) -> list[Measure]:
    """`side` is the player whose point of view margins and points take."""
    me, them = f"points_{side}", f"points_{1 - side}"
    stages = range(1, N_STAGES + 1)
    sweeps = sum((g[f"s{k}_sweep"] >= 0).to_numpy(float) for k in stages)
    games = np.ones(len(g))
    all_stages, tricks = np.full(len(g), float(N_STAGES)), np.full(len(g), 25.0)
    out = [
        Measure(f"player {side} margin per game", (g[me] - g[them]).to_numpy(float), games, better="higher"),
        Measure(f"player {side} points per game", g[me].to_numpy(float), games, better="higher"),
        Measure("stages swept", sweeps, all_stages, binary=True),
        Measure(
            "sweeps scoring less than their cards",
            sum(g[f"s{k}_short_sweep"].to_numpy(float) for k in stages),
            sweeps,
            binary=True,
        ),
        Measure(
            "tricks taken by the leader",
            sum(g[f"s{k}_leader_tricks"].to_numpy(float) for k in stages),
            tricks,
            binary=True,
        ),
        Measure(
            "tricks taken by the stage's dealer",
            sum(g[f"s{k}_dealer_tricks"].to_numpy(float) for k in stages),
            tricks,
            binary=True,
        ),
    ]
    if f"gave_away_{side}" in g:  # `--measure play-quality`: points given away against perfect stage play
        out += [
            Measure(
                f"player {side} points given away per game",
                g[f"gave_away_{side}"].to_numpy(float),
                games,
                better="lower",
            ),
            Measure(
                f"player {1 - side} points given away per game",
                g[f"gave_away_{1 - side}"].to_numpy(float),
                games,
            ),
            Measure(
                f"player {side}'s plays that gave points away",
                g[f"costly_plays_{side}"].to_numpy(float),
                tricks,
                binary=True,
                better="lower",
            ),
            Measure(
                "stages ending off their perfect-play margin",
                g["stages_off_perfect"].to_numpy(float),
                all_stages,
                binary=True,
            ),
        ]
    return out
