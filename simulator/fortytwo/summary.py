"""The summary of a Forty-two run: what the hands and games came to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from simulator import quality as shared_quality
from simulator.fortytwo import quality
from simulator.fortytwo.dominoes import SIDES
from simulator.fortytwo.tables import SCORE_UNITS, score_column
from simulator.fortytwo.view import DECLARATION_NAMES
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate, units_of

if TYPE_CHECKING:
    import pandas as pd


def summarize(hands: pd.DataFrame) -> dict[str, Any]:
    """The partial summary of a per-hand table. The hands' score is keyed by its unit, as its columns are:
    `score_points` or `score_marks`. Every figure takes the run's unit as the independent one: the hand in a
    run of hands (Wilson intervals, plain standard errors), the game in a run of games, whose hands are
    not independent (`tallies.units_of`)."""
    units = units_of(hands)
    on = ~hands["thrown_in"].to_numpy(bool)
    played = hands[on]
    at = units[on]
    made = played["made"].to_numpy(bool)
    ones = np.ones(len(played))
    bids = played["bid"].to_numpy()
    contracts = [
        {"bid": int(bid), "made": rate(made & (bids == bid), bids == bid, at)} for bid in np.unique(bids)
    ]
    trump = played["trump"].to_numpy()
    score_key = score_column(hands, "ns").removesuffix("_ns")
    out: dict[str, Any] = {
        "deals": len(hands),
        "thrown_in": rate(~on, np.ones(len(hands)), units),
        "contracts": contracts,
        "all_contracts": rate(made, ones, at),
        "points": {side: mean(played[f"points_{side.lower()}"], at) for side in SIDES},
        score_key: {side: mean(hands[f"{score_key}_{side.lower()}"], units) for side in SIDES},
        # every trump listed, named or not: a chunk's list then has every item a merged summary needs
        "trumps": [{"trump": str(t), "named": rate(trump == t, ones, at)} for t in DECLARATION_NAMES],
    }
    if "gave_away_ns" in hands:  # simulate --measure play-quality
        declarers_gave, defenders_gave = quality.by_role(played)
        perfect = played["made_perfect"].to_numpy(bool)
        out["play_quality"] = {
            **shared_quality.summarize(played, SIDES, at),
            "declarers_gave_away": mean(declarers_gave, at),
            "defenders_gave_away": mean(defenders_gave, at),
            "made_in_play": rate(made, ones, at),
            "makeable_with_perfect_play": rate(perfect, ones, at),
            "by_bid": [
                {
                    "bid": int(bid),
                    "made": rate(made & (bids == bid), bids == bid, at),
                    "makeable": rate(perfect & (bids == bid), bids == bid, at),
                }
                for bid in np.unique(bids)
            ],
        }
    return out


def render(summary: dict[str, Any]) -> list:
    s = summary
    parts = [
        table(
            "Hands",
            ["", "value"],
            [
                ["hands dealt", f"{s['deals']:,}"],
                ["thrown in", fmt_rate(s["thrown_in"])],
                ["contracts made", fmt_rate(s["all_contracts"])],
            ],
        )
    ]
    parts.append(
        table(
            "Contracts by bid (made, 95% intervals)",
            ["bid", "hands", "made", "success"],
            [
                [c["bid"], f"{c['made'].of:,}", f"{c['made'].count:,}", fmt_rate(c["made"])]
                for c in s["contracts"]
            ],
        )
    )
    score_key = next(f"score_{unit}" for unit in SCORE_UNITS if f"score_{unit}" in s)
    unit = score_key.removeprefix("score_")
    parts.append(
        table(
            "Per side (mean ± s.e.)",
            ["side", "points per hand played", f"score per hand dealt ({unit})"],
            [[side, fmt_mean(s["points"][side]), fmt_mean(s[score_key][side])] for side in SIDES],
        )
    )
    parts.append(
        table(
            "Trumps named",
            ["trump", "hands", "share"],
            [
                [t["trump"], f"{t['named'].count:,}", fmt_rate(t["named"])]
                for t in s["trumps"]
                # the pip suits always, the other declarations once named
                if DECLARATION_NAMES.index(t["trump"]) < 7 or t["named"].count
            ],
        )
    )
    if "play_quality" in s:
        q = s["play_quality"]
        parts.append(
            table(
                "Play quality (double dummy): points given away per hand by each side's own plays",
                ["", "value"],
                [
                    ["declaring side gave away", fmt_mean(q["declarers_gave_away"])],
                    ["defenders gave away", fmt_mean(q["defenders_gave_away"])],
                    ["contracts made in play", fmt_rate(q["made_in_play"])],
                    ["contracts makeable with perfect play", fmt_rate(q["makeable_with_perfect_play"])],
                ],
            )
        )
    return parts
