"""The summary of a Forty-two run: what the hands and games came to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator import quality as shared_quality
from simulator.fortytwo import quality
from simulator.fortytwo.view import DECLARATION_NAMES
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate

if TYPE_CHECKING:
    import pandas as pd


def summarize(hands: pd.DataFrame) -> dict[str, Any]:
    played = hands[~hands["thrown_in"]]
    contracts = []
    for bid, group in played.groupby("bid", sort=True):
        contracts.append({"bid": int(bid), "made": rate(int(group["made"].sum()), len(group))})
    # every trump listed, named or not: a chunk's list then has every item a merged summary needs
    trumps = played["trump"].value_counts().reindex(range(len(DECLARATION_NAMES)), fill_value=0)
    out: dict[str, Any] = {
        "deals": len(hands),
        "thrown_in": rate(int(hands["thrown_in"].sum()), len(hands)),
        "contracts": contracts,
        "all_contracts": rate(int(played["made"].sum()), len(played)),
        "points": {"NS": mean(played["points_ns"]), "EW": mean(played["points_ew"])},
        "score": {"NS": mean(hands["score_ns"]), "EW": mean(hands["score_ew"])},
        "trumps": [{"trump": int(t), "named": rate(int(c), len(played))} for t, c in trumps.items()],
    }
    if "gave_away_ns" in hands:  # simulate --measure play-quality
        declarers_gave, defenders_gave = quality.by_role(played)
        out["play_quality"] = {
            **shared_quality.summarize(played, ("NS", "EW")),
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
    parts.append(
        table(
            "Per side (mean ± s.e.)",
            ["side", "points per hand played", "score per hand dealt"],
            [[side, fmt_mean(s["points"][side]), fmt_mean(s["score"][side])] for side in ("NS", "EW")],
        )
    )
    parts.append(
        table(
            "Trumps named",
            ["trump", "hands", "share"],
            [
                [DECLARATION_NAMES[t["trump"]], f"{t['named'].count:,}", fmt_rate(t["named"])]
                for t in s["trumps"]
                if t["trump"] < 7 or t["named"].count
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
