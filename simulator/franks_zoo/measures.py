"""Per-deal measures of a Frank's Zoo run for sweeps and paired comparisons; a deal is a hand or a game."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.stats import Measure


def measures(tables: dict[str, pd.DataFrame], unit: str, side: int = 0) -> list[Measure]:
    """`side` is the seat whose point of view points and wins take."""
    h = tables["deals"]
    key = "match" if unit == "match" else "deal"
    deals = pd.Index(np.unique(h[key]))
    at = deals.get_indexer(h[key])
    mine = (h["player"] == side).to_numpy()

    def per_deal(values) -> np.ndarray:
        return np.bincount(at, weights=np.asarray(values, float), minlength=len(deals))

    hands = per_deal(mine)
    out = [
        Measure(f"seat {side} points per hand", per_deal(np.where(mine, h["points"], 0)), hands),
        Measure(f"seat {side} place", per_deal(np.where(mine, h["place"], 0)), hands),
        Measure("help requests granted", per_deal(h["help_given"]), per_deal(h["help_asked"]), binary=True),
        Measure("helped sets taking the trick", per_deal(h["help_won"]), per_deal(h["help_given"]), binary=True),
    ]
    if unit == "match":
        g = tables["matches"].set_index("match").loc[deals]
        decided = (g["winner"] >= 0).to_numpy(float)
        out += [Measure("hands per game", g["deals"].to_numpy(float)),
                Measure(f"seat {side} wins", (g["winner"] == side).to_numpy(float), decided, binary=True)]
    return out
