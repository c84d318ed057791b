"""The summary of a Frank's Zoo run: placements and points by seat and role, help, lions, hedgehogs, games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate

if TYPE_CHECKING:
    import pandas as pd


def summarize(h: pd.DataFrame) -> dict[str, Any]:
    team_hands = h[h["role"] != "alone"]  # every player has a team role from the second hand on
    asked, given, won = int(h["help_asked"].sum()), int(h["help_given"].sum()), int(h["help_won"].sum())
    juniors = team_hands[team_hands["role"] == "junior"]
    out: dict[str, Any] = {
        "deals": len(h) // h["player"].nunique(),  # one row per player and hand
        # per seat, keyed by the seat's name as every per-side figure is
        "place": {str(seat): mean(g["place"]) for seat, g in h.groupby("player")},
        "points": {str(seat): mean(g["points"]) for seat, g in h.groupby("player")},
        "by_role": [
            {"role": str(role), "players": len(g), "place": mean(g["place"]), "points": mean(g["points"])}
            for role, g in h.groupby("role", observed=True)
        ],
        "help": {
            "asked_per_junior_hand": mean(juniors["help_asked"]) if len(juniors) else mean([]),
            "given": rate(given, asked),
            "won_the_trick": rate(won, given),
        },
        "lions": {
            "points": mean(team_hands["points_lions"]),
            "last_player": mean(team_hands["points_last_lions"]),
        },
        "hedgehogs": {"points": mean(team_hands["points_hedgehog"])},
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
