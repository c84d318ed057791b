"""Per-deal measures of a Frank's Zoo run for sweeps and paired comparisons; a deal is a hand or a game."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.stats import Measure


def team_points(h: pd.DataFrame) -> np.ndarray:
    """Per row of the per-hand table: the player's points plus his partner's (a team's points; the player's
    own when he has no partner). The table holds each hand's players in seat order, one row each."""
    p = int(h["player"].max()) + 1
    points = h["points"].to_numpy(np.int64).reshape(-1, p)
    partner = h["partner"].to_numpy(np.int64).reshape(-1, p)
    theirs = np.take_along_axis(points, np.maximum(partner, 0), axis=1)
    return (points + np.where(partner >= 0, theirs, 0)).ravel()


def measures(tables: dict[str, pd.DataFrame], unit: str, side: int = 0) -> list[Measure]:
    """`side` is the seat whose point of view points, places and wins take. Measures "as junior" count the
    hands in which that seat was a junior partner (the one who may ask for help)."""
    h = tables["deals"]
    key = "match" if unit == "match" else "deal"
    deals = pd.Index(np.unique(h[key]))
    at = deals.get_indexer(h[key])
    mine = (h["player"] == side).to_numpy()

    def per_deal(values) -> np.ndarray:
        return np.bincount(at, weights=np.asarray(values, float), minlength=len(deals))

    hands = per_deal(mine)
    team = team_points(h)
    out = [
        Measure(
            f"seat {side} points per hand", per_deal(np.where(mine, h["points"], 0)), hands, better="higher"
        ),
        Measure(f"seat {side} place", per_deal(np.where(mine, h["place"], 0)), hands, better="lower"),
        Measure(
            f"seat {side} team's points per hand", per_deal(np.where(mine, team, 0)), hands, better="higher"
        ),
    ]
    for role in ("junior", "senior"):
        playing = mine & (h["role"] == role).to_numpy()
        out += [
            Measure(
                f"seat {side} place as {role}", per_deal(np.where(playing, h["place"], 0)), per_deal(playing)
            ),
            Measure(
                f"seat {side} team's points per hand as {role}",
                per_deal(np.where(playing, team, 0)),
                per_deal(playing),
            ),
        ]
    junior = mine & (h["role"] == "junior").to_numpy()
    solo = (h["role"] == "solo").to_numpy()  # any seat: how strong the solo seat is (odd player counts)
    out += [
        Measure(
            f"seat {side} help requests per hand as junior",
            per_deal(np.where(junior, h["help_asked"], 0)),
            per_deal(junior),
        ),
        Measure("help requests granted", per_deal(h["help_given"]), per_deal(h["help_asked"]), binary=True),
        Measure("solo player's points per hand", per_deal(np.where(solo, h["points"], 0)), per_deal(solo)),
        Measure(
            "helped sets taking the trick", per_deal(h["help_won"]), per_deal(h["help_given"]), binary=True
        ),
    ]
    if unit == "match":
        g = tables["matches"].set_index("match").loc[deals]
        decided = (g["winner"] >= 0).to_numpy(float)
        out += [
            Measure("hands per game", g["deals"].to_numpy(float)),
            Measure(
                f"seat {side} wins",
                (g["winner"] == side).to_numpy(float),
                decided,
                binary=True,
                better="higher",
            ),
        ]
    return out
