"""The summary of a Rounds run: points, sweeps, who takes the tricks, and matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from simulator import quality as shared_quality
from simulator.rounds.view import N_STAGES
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate, ratio

if TYPE_CHECKING:
    import pandas as pd

PLAYERS = ("0", "1")


def summarize(g: pd.DataFrame) -> dict[str, Any]:
    n = len(g)
    stages = []
    for k in range(1, N_STAGES + 1):
        sweep = g[f"s{k}_sweep"].to_numpy()
        swept = sweep >= 0
        short = g[f"s{k}_short_sweep"].to_numpy()
        stages.append(
            {
                "stage": k,
                "points": {"0": mean(g[f"s{k}_points_0"]), "1": mean(g[f"s{k}_points_1"])},
                "sweeps": rate(int(swept.sum()), n),
                "sweeps_scoring_less_than_cards": rate(int(short.sum()), int(swept.sum())),
                "dealer_tricks": ratio(g[f"s{k}_dealer_tricks"], np.full(n, 5)),
                "leader_tricks": ratio(g[f"s{k}_leader_tricks"], np.full(n, 5)),
            }
        )
    leader = sum(g[f"s{k}_leader_tricks"].to_numpy(int) for k in range(1, N_STAGES + 1))
    dealer = sum(g[f"s{k}_dealer_tricks"].to_numpy(int) for k in range(1, N_STAGES + 1))
    sweeps = sum((g[f"s{k}_sweep"] >= 0).to_numpy(int) for k in range(1, N_STAGES + 1))
    short = sum(int(g[f"s{k}_short_sweep"].sum()) for k in range(1, N_STAGES + 1))
    out: dict[str, Any] = {
        "deals": n,
        "points": {"0": mean(g["points_0"]), "1": mean(g["points_1"])},
        "points_by_first_dealer": mean(np.where(g["first_dealer"] == 0, g["points_0"], g["points_1"])),
        "stages": stages,
        "sweeps": ratio(sweeps, np.full(n, N_STAGES)),
        "sweeps_scoring_less_than_cards": rate(short, int(sweeps.sum())),
        "leader_tricks": ratio(leader, np.full(n, 25)),
        "dealer_tricks": ratio(dealer, np.full(n, 25)),
    }
    if "gave_away_0" in g:  # simulate --measure play-quality
        gave = g[["gave_away_0", "gave_away_1"]].to_numpy(float)
        margin = (g["points_0"] - g["points_1"]).to_numpy(float)
        out["play_quality"] = {
            **shared_quality.summarize(g, PLAYERS),
            "gave_away_per_player": mean(gave.mean(axis=1)),
            "costly_plays": {p: ratio(g[f"costly_plays_{p}"], np.full(n, 25)) for p in PLAYERS},
            "stages_off_perfect": ratio(g["stages_off_perfect"], np.full(n, N_STAGES)),
            "margin": {"0": mean(margin), "1": mean(-margin)},
            "by_stage": [
                {"stage": k, "gave_away": {p: mean(g[f"s{k}_gave_away_{p}"]) for p in PLAYERS}}
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
