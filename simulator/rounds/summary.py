"""The summary of a Rounds run: points, sweeps, who takes the tricks, and matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from simulator import quality as shared_quality
from simulator.rounds.view import N_STAGES
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate, units_of

if TYPE_CHECKING:
    import pandas as pd

PLAYERS = ("0", "1")


def summarize(g: pd.DataFrame) -> dict[str, Any]:
    """The partial summary of a per-game table. Every figure takes the run's unit as the independent one:
    the game in a run of games (its stages and tricks are not independent), the match in a run of matches
    (`tallies.units_of`)."""
    n = len(g)
    u = units_of(g)
    ones = np.ones(n)
    stages = []
    for k in range(1, N_STAGES + 1):
        sweep = g[f"s{k}_sweep"].to_numpy()
        swept = sweep >= 0
        short = g[f"s{k}_short_sweep"].to_numpy()
        stages.append(
            {
                "stage": k,
                "points": {"0": mean(g[f"s{k}_points_0"], u), "1": mean(g[f"s{k}_points_1"], u)},
                "sweeps": rate(swept, ones, u),
                "sweeps_scoring_less_than_cards": rate(short, swept, u),
                "dealer_tricks": rate(g[f"s{k}_dealer_tricks"], np.full(n, 5), u),
                "leader_tricks": rate(g[f"s{k}_leader_tricks"], np.full(n, 5), u),
            }
        )
    leader = sum(g[f"s{k}_leader_tricks"].to_numpy(int) for k in range(1, N_STAGES + 1))
    dealer = sum(g[f"s{k}_dealer_tricks"].to_numpy(int) for k in range(1, N_STAGES + 1))
    sweeps = sum((g[f"s{k}_sweep"] >= 0).to_numpy(int) for k in range(1, N_STAGES + 1))
    short = sum(g[f"s{k}_short_sweep"].to_numpy(int) for k in range(1, N_STAGES + 1))
    out: dict[str, Any] = {
        "deals": n,
        "points": {"0": mean(g["points_0"], u), "1": mean(g["points_1"], u)},
        "points_by_first_dealer": mean(np.where(g["first_dealer"] == 0, g["points_0"], g["points_1"]), u),
        "stages": stages,
        "sweeps": rate(sweeps, np.full(n, N_STAGES), u),
        "sweeps_scoring_less_than_cards": rate(short, sweeps, u),
        "leader_tricks": rate(leader, np.full(n, 25), u),
        "dealer_tricks": rate(dealer, np.full(n, 25), u),
    }
    if "gave_away_0" in g:  # simulate --measure play-quality
        gave = g[["gave_away_0", "gave_away_1"]].to_numpy(float)
        margin = (g["points_0"] - g["points_1"]).to_numpy(float)
        out["play_quality"] = {
            **shared_quality.summarize(g, PLAYERS, u),
            "gave_away_per_player": mean(gave.mean(axis=1), u),
            "costly_plays": {p: rate(g[f"costly_plays_{p}"], np.full(n, 25), u) for p in PLAYERS},
            "stages_off_perfect": rate(g["stages_off_perfect"], np.full(n, N_STAGES), u),
            "margin": {"0": mean(margin, u), "1": mean(-margin, u)},
            "by_stage": [
                {"stage": k, "gave_away": {p: mean(g[f"s{k}_gave_away_{p}"], u) for p in PLAYERS}}
                for k in range(1, N_STAGES + 1)
            ],
        }
    return out


def render(summary: dict[str, Any]) -> list:
    s = summary
    parts = [
        table(
            "Games",
            ["", "value"],
            [
                ["games", f"{s['deals']:,}"],
                ["points, player 0", fmt_mean(s["points"]["0"])],
                ["points, player 1", fmt_mean(s["points"]["1"])],
                ["points, the game's first dealer", fmt_mean(s["points_by_first_dealer"])],
                ["stages swept", fmt_rate(s["sweeps"])],
                ["sweeps scoring less than their cards", fmt_rate(s["sweeps_scoring_less_than_cards"])],
                ["tricks taken by the leader", fmt_rate(s["leader_tricks"])],
                ["tricks taken by the stage's dealer", fmt_rate(s["dealer_tricks"])],
            ],
        )
    ]
    parts.append(
        table(
            "By stage (means ± s.e.; rates with 95% intervals, games as the unit for tricks)",
            ["stage", "points 0", "points 1", "swept", "sweep < cards", "dealer's tricks", "leader's tricks"],
            [
                [
                    st["stage"],
                    fmt_mean(st["points"]["0"]),
                    fmt_mean(st["points"]["1"]),
                    fmt_rate(st["sweeps"]),
                    fmt_rate(st["sweeps_scoring_less_than_cards"]),
                    fmt_rate(st["dealer_tricks"]),
                    fmt_rate(st["leader_tricks"]),
                ]
                for st in s["stages"]
            ],
        )
    )
    if "play_quality" in s:
        q = s["play_quality"]
        parts.append(
            table(
                "Play quality (both hands seen, stage by stage): margin points given away per game by "
                "each player's own plays",
                ["", "value"],
                [
                    ["player 0 gave away", fmt_mean(q["gave_away"]["0"])],
                    ["player 1 gave away", fmt_mean(q["gave_away"]["1"])],
                    ["per player", fmt_mean(q["gave_away_per_player"])],
                    ["player 0's plays that gave points away", fmt_rate(q["costly_plays"]["0"])],
                    ["player 1's plays that gave points away", fmt_rate(q["costly_plays"]["1"])],
                    ["stages ending off their perfect-play margin", fmt_rate(q["stages_off_perfect"])],
                    ["player 0's margin, perfect play", fmt_mean(q["perfect_value"]["0"])],
                    ["player 0's margin, as played", fmt_mean(q["margin"]["0"])],
                ],
            )
        )
        parts.append(
            table(
                "Play quality by stage: margin points given away (mean ± s.e.)",
                ["stage", "player 0", "player 1"],
                [
                    [st["stage"], fmt_mean(st["gave_away"]["0"]), fmt_mean(st["gave_away"]["1"])]
                    for st in q["by_stage"]
                ],
            )
        )
    return parts
