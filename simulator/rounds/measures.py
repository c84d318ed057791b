"""Per-deal measures of a Rounds run for sweeps and paired comparisons; a deal is a game or a match."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.rounds.view import N_STAGES
from simulator.stats import Measure


def measures(tables: dict[str, pd.DataFrame], unit: str, side: int = 0) -> list[Measure]:
    """`side` is the player whose point of view margins and wins take."""
    g = tables["deals"]
    me, them = f"points_{side}", f"points_{1 - side}"
    sweeps = sum((g[f"s{k}_sweep"] >= 0).to_numpy(float) for k in range(1, N_STAGES + 1))
    short = sum(g[f"s{k}_short_sweep"].to_numpy(float) for k in range(1, N_STAGES + 1))
    per_game = {
        "games": np.ones(len(g)),
        "margin": (g[me] - g[them]).to_numpy(float),
        "points": g[me].to_numpy(float),
        "sweeps": sweeps,
        "short": short,
        "stages": np.full(len(g), float(N_STAGES)),
        "leader": sum(g[f"s{k}_leader_tricks"].to_numpy(float) for k in range(1, N_STAGES + 1)),
        "dealer": sum(g[f"s{k}_dealer_tricks"].to_numpy(float) for k in range(1, N_STAGES + 1)),
        "tricks": np.full(len(g), 25.0),
    }
    quality = (
        f"gave_away_{side}" in g
    )  # `--measure play-quality`: points given away against perfect stage play
    if quality:
        per_game |= {
            "gave": g[f"gave_away_{side}"].to_numpy(float),
            "other_gave": g[f"gave_away_{1 - side}"].to_numpy(float),
            "costly": g[f"costly_plays_{side}"].to_numpy(float),
            "plays": np.full(len(g), 25.0),
            "off": g["stages_off_perfect"].to_numpy(float),
        }
    if unit == "match":
        m = tables["matches"]
        at = pd.Index(m["match"].to_numpy()).get_indexer(g["match"].to_numpy())
        per = {k: np.bincount(at, weights=v, minlength=len(m)) for k, v in per_game.items()}
    else:
        per = per_game
    out = [
        Measure(f"player {side} margin per game", per["margin"], per["games"], better="higher"),
        Measure(f"player {side} points per game", per["points"], per["games"], better="higher"),
        Measure("stages swept", per["sweeps"], per["stages"], binary=True),
        Measure("sweeps scoring less than their cards", per["short"], per["sweeps"], binary=True),
        Measure("tricks taken by the leader", per["leader"], per["tricks"], binary=True),
        Measure("tricks taken by the stage's dealer", per["dealer"], per["tricks"], binary=True),
    ]
    if quality:
        out += [
            Measure(f"player {side} points given away per game", per["gave"], per["games"], better="lower"),
            Measure(f"player {1 - side} points given away per game", per["other_gave"], per["games"]),
            Measure(
                f"player {side}'s plays that gave points away",
                per["costly"],
                per["plays"],
                binary=True,
                better="lower",
            ),
            Measure("stages ending off their perfect-play margin", per["off"], per["stages"], binary=True),
        ]
    if unit == "match":
        m = tables["matches"]
        decided = (m["winner"] >= 0).to_numpy(float)
        out += [
            Measure("games per match", m["deals"].to_numpy(float)),
            Measure(
                f"player {side} wins",
                (m["winner"] == side).to_numpy(float),
                decided,
                binary=True,
                better="higher",
            ),
            Measure(
                "first dealer wins", (m["winner"] == m["first_dealer"]).to_numpy(float), decided, binary=True
            ),
        ]
    return out
