"""The report of a strategy ladder: findings, the ratings with their intervals (the main picture), the
ratings table, the pairwise matrices as a heatmap and as tables, and the seat balance."""

from __future__ import annotations

import textwrap
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import Report, TableFormat
from simulator.ladders import BOOTSTRAP, Ladder


def ratings_plot(ladder: Ladder) -> plt.Figure:
    """Each strategy's rating with its 95% bootstrap interval, best at the top."""
    r = ladder.ratings.sort_values("rating")
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(r)))
    y = np.arange(len(r))
    ax.errorbar(
        r["rating"],
        y,
        xerr=[r["rating"] - r["rating lo"], r["rating hi"] - r["rating"]],
        fmt="o",
        capsize=4,
    )
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, r["entrant"])
    ax.set_xlabel("rating (Elo points, mean 0), 95% bootstrap interval")
    ax.set_title(f"{ladder.base.game.name}: strategy ratings")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def heatmap(ladder: Ladder, measure: str) -> plt.Figure:
    """The pairwise matrix of one measure: row against column, the value written in each cell."""
    names = ladder.entrants
    p = ladder.pairs[ladder.pairs["measure"] == measure].set_index(["entrant", "opponent"])["value"]
    rate = measure == "win rate"
    scale = 100 if rate else 1
    grid = np.full((len(names), len(names)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b:
                grid[i, j] = scale * p[(a, b)]
    centre = 50 if rate and ladder.head_to_head else 0
    span = np.nanmax(np.abs(grid - centre)) if np.isfinite(grid).any() else 1
    fig, ax = plt.subplots(figsize=(1.6 + 1.1 * len(names), 1.2 + 0.9 * len(names)))
    im = ax.imshow(grid, cmap="RdBu", vmin=centre - span, vmax=centre + span)
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isfinite(grid[i, j]):
                strong = abs(grid[i, j] - centre) > 0.6 * span  # white on the darkest cells
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:.1f}" if rate and ladder.head_to_head else f"{grid[i, j]:+.1f}",
                    ha="center",
                    va="center",
                    fontsize="small",
                    color="white" if strong else "black",
                )
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("column: opponent" if ladder.head_to_head else "column: compared with")
    label = ladder.matrix_title(measure)
    fig.colorbar(im, ax=ax, label=("%" if rate and ladder.head_to_head else "pp" if rate else "points"))
    ax.set_title(textwrap.fill(label, 45), fontsize="small")
    fig.tight_layout()
    return fig


def matrix_frame(ladder: Ladder, measure: str) -> pd.DataFrame:
    """The pairwise matrix as a table of text cells (row, then one column per opponent)."""
    rows = ladder.matrix(measure)
    return pd.DataFrame(rows, columns=["strategy", *ladder.entrants])


def ladder_report(ladder: Ladder, provenance: dict[str, Any], command: str) -> Report:
    g = ladder.base.game
    report = Report(f"{g.name}: strategy ladder", provenance, command)
    for sentence in ladder.findings():
        report.finding(sentence)
    report.figure(
        "ratings",
        ratings_plot(ladder),
        "Bradley-Terry ratings on the Elo scale with 95% bootstrap intervals over deals",
        main=True,
    )
    units = ladder.units
    ties = "a tie half" if ladder.base.unit == "deal" else "undecided matches left out"
    if ladder.head_to_head:
        how = (
            f"Every pair played twice on the same {ladder.base.n:,} {units} (the same seed and chunks): once "
            "with the row's strategy on the first side, once on the second; a result on a "
            f"{ladder.unit_word} is the mean of the two orientations, so the cards' luck cancels. The win "
            f"rate counts {units} won ({ties}); "
            f"the score is {ladder.score_name}, from the strategy's side."
        )
    else:
        how = (
            f"Each strategy took each seat in turn on the same {ladder.base.n:,} {units}, the field "
            f"({ladder.field}) at every other seat; its result on a {ladder.unit_word} is its mean over the "
            "seats, and two strategies compare deal by deal (the same seat, field and deals: paired). The "
            f"field's own strategy wins exactly one {ladder.unit_word} in {len(g.sides(ladder.base.rules))} "
            f"on average over the seats. The score is {ladder.score_name}."
        )
    report.text(how)
    report.text(
        "Ratings: Bradley-Terry strengths fitted to the pairwise wins "
        + ("(both orientations) " if ladder.head_to_head else "(a deal won by the one with more points) ")
        + "with one virtual drawn game per pair, shown as 400 log10 of the strength (Elo points), mean 0; "
        f"95% intervals are percentiles of {BOOTSTRAP} bootstrap resamples of the deals (the same deals for "
        "every pair), seeded from the run's seed. The best set holds the strategies that cannot be told "
        "apart from the best on the per-deal result against the opponents (simultaneous 95%, paired)."
    )
    shown = TableFormat(
        labels={
            "entrant": "strategy",
            "rating": "rating (Elo)",
            "win rate": "win rate (%)",
            "score": ladder.score_word(),
            "best set: win rate": "best set: win rate",
            "best set: score": f"best set: {ladder.score_word()}",
        },
        interval={
            "rating": ("rating lo", "rating hi"),
            "win rate": ("win rate lo", "win rate hi"),
            "score": ("score lo", "score hi"),
        },
        signed=("rating",),
        digits=1,
    )
    rated = ladder.ratings.sort_values("rating", ascending=False).copy()
    for c in ("win rate", "win rate lo", "win rate hi"):
        rated[c] = 100 * rated[c]
    report.table(
        "ratings",
        rated,
        "Ratings, and each strategy's results against its opponents (95%)",
        shown,
        csv=ladder.ratings,
    )
    for measure in ("win rate", "score"):
        report.figure(
            f"matrix_{measure.replace(' ', '_')}", heatmap(ladder, measure), ladder.matrix_title(measure)
        )
        report.table(
            f"matrix_{measure.replace(' ', '_')}",
            matrix_frame(ladder, measure),
            ladder.matrix_title(measure),
            csv=ladder.pairs[ladder.pairs["measure"] == measure],
        )
    report.table(
        "pairs",
        ladder.pairs.assign(rate=ladder.pairs["measure"] == "win rate"),
        "Every ordered pair: the row's value against the opponent with its 95% interval",
        TableFormat(rate_rows="rate", interval={"value": ("lo", "hi")}, scaled=("value",), n="deals"),
        collapsed="every pair in long form",
    )
    if ladder.seats is not None:
        seats = ladder.seats.copy()
        for c in ("win rate", "win rate lo", "win rate hi"):
            seats[c] = 100 * seats[c]
        report.table(
            "seats",
            seats,
            f"Each strategy in each seat against the field ({ladder.field}), 95%",
            TableFormat(
                labels={"entrant": "strategy", "win rate": "win rate (%)", "score": ladder.score_word()},
                interval={"win rate": ("win rate lo", "win rate hi"), "score": ("score lo", "score hi")},
            ),
            csv=ladder.seats,
        )
    balance = ladder.balance.copy()
    for c in ("value", "lo", "hi"):
        balance[c] = 100 * balance[c]
    report.table(
        "balance",
        balance,
        "Seat balance: how each orientation (or seat) fared, in %, 95%",
        TableFormat(interval={"value": ("lo", "hi")}, digits=1),
        csv=ladder.balance,
    )
    return report
