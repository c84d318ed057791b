"""The summary of a Forty-two run: what the hands and games came to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator import quality as shared_quality
from simulator.fortytwo import quality
from simulator.fortytwo.dominoes import SIDES
from simulator.fortytwo.tables import SCORE_UNITS, score_column
from simulator.fortytwo.view import DECLARATION_NAMES
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate

if TYPE_CHECKING:
    import pandas as pd


def summarize(hands: pd.DataFrame) -> dict[str, Any]:
    """The partial summary of a per-hand table. The hands' score is keyed by its unit, as its columns are:
    `score_points` or `score_marks`."""
    played = hands[~hands["thrown_in"]]
    contracts = []
    for bid, group in played.groupby("bid", sort=True):
        contracts.append({"bid": int(bid), "made": rate(int(group["made"].sum()), len(group))})
    # every trump listed, named or not: a chunk's list then has every item a merged summary needs
    trumps = played["trump"].value_counts().reindex(list(DECLARATION_NAMES), fill_value=0)
    score_key = score_column(hands, "ns").removesuffix("_ns")
    out: dict[str, Any] = {
        "deals": len(hands),
        "thrown_in": rate(int(hands["thrown_in"].sum()), len(hands)),
        "contracts": contracts,
        "all_contracts": rate(int(played["made"].sum()), len(played)),
        "points": {side: mean(played[f"points_{side.lower()}"]) for side in SIDES},
        score_key: {side: mean(hands[f"{score_key}_{side.lower()}"]) for side in SIDES},
        "trumps": [{"trump": str(t), "named": rate(int(c), len(played))} for t, c in trumps.items()],
    }
    if "gave_away_ns" in hands:  # simulate --measure play-quality
        declarers_gave, defenders_gave = quality.by_role(played)
        out["play_quality"] = {
            **shared_quality.summarize(played, SIDES),
            "declarers_gave_away": mean(declarers_gave),
            "defenders_gave_away": mean(defenders_gave),
            "made_in_play": rate(int(played["made"].sum()), len(played)),
            "makeable_with_perfect_play": rate(int(played["made_perfect"].sum()), len(played)),
            "by_bid": [
                {
                    "bid": int(bid),
                    "made": rate(int(g["made"].sum()), len(g)),
                    "makeable": rate(int(g["made_perfect"].sum()), len(g)),
                }
                for bid, g in played.groupby("bid", sort=True)
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
            "Contracts by bid (made, Wilson 95%)",
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
