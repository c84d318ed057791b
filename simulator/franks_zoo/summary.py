"""The summary of a Frank's Zoo run: placements and points by seat and role, help, lions, hedgehogs, games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate, units_of

if TYPE_CHECKING:
    import pandas as pd


def summarize(h: pd.DataFrame) -> dict[str, Any]:
    """The partial summary of a per-hand table (one row per player and hand). The player-hands of one hand
    are not independent, nor are the hands of one game: every figure takes the run's unit as the
    independent one (the hand in a run of hands, the game in a run of games: `tallies.units_of`), its
    interval the ratio estimate's over the units."""
    units = units_of(h)
    seat = h["player"].to_numpy()
    role = h["role"].to_numpy()
    team = role != "alone"  # every player has a team role from the second hand on
    junior = role == "junior"
    asked, given, won = (h[c].to_numpy(float) for c in ("help_asked", "help_given", "help_won"))
    out: dict[str, Any] = {
        "deals": len(h) // h["player"].nunique(),  # one row per player and hand
        # per seat, keyed by the seat's name as every per-side figure is
        "place": {str(p): mean(h["place"][seat == p], units[seat == p]) for p in np.unique(seat)},
        "points": {str(p): mean(h["points"][seat == p], units[seat == p]) for p in np.unique(seat)},
        "by_role": [
            {
                "role": str(r),
                "players": int((role == r).sum()),
                "place": mean(h["place"][role == r], units[role == r]),
                "points": mean(h["points"][role == r], units[role == r]),
            }
            for r in h["role"].cat.categories
            if (role == r).any()
        ],
        "help": {
            "asked_per_junior_hand": mean(asked[junior], units[junior]),
            "given": rate(given, asked, units),
            "won_the_trick": rate(won, given, units),
        },
        "lions": {
            "points": mean(h["points_lions"][team], units[team]),
            "last_player": mean(h["points_last_lions"][team], units[team]),
        },
        "hedgehogs": {"points": mean(h["points_hedgehog"][team], units[team])},
    }
    return out


def render(summary: dict[str, Any]) -> list:
    s = summary
    parts = [
        table(
            "By seat (mean ± s.e.)",
            ["seat", "place", "points per hand"],
            [[seat, fmt_mean(place), fmt_mean(s["points"][seat])] for seat, place in s["place"].items()],
        ),
        table(
            "By role",
            ["role", "player-hands", "place", "points per hand"],
            [
                [r["role"], f"{r['players']:,}", fmt_mean(r["place"]), fmt_mean(r["points"])]
                for r in s["by_role"]
            ],
        ),
        table(
            "Help, lions and hedgehogs (team hands)",
            ["", "value"],
            [
                ["hands", f"{s['deals']:,}"],
                ["help requests per junior and hand", fmt_mean(s["help"]["asked_per_junior_hand"])],
                ["requests granted", fmt_rate(s["help"]["given"])],
                ["helped sets that took the trick", fmt_rate(s["help"]["won_the_trick"])],
                ["lion points per player and hand", fmt_mean(s["lions"]["points"])],
                ["last player's lion penalty", fmt_mean(s["lions"]["last_player"])],
                ["hedgehog points per player and hand", fmt_mean(s["hedgehogs"]["points"])],
            ],
        ),
    ]
    return parts
