"""Reports of experiments: a paired comparison and a tuning sweep as self-contained HTML."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import pandas as pd

from reports.html import PlotLabels, Report, TableFormat, rate_plot
from simulator.experiments import Comparison, Sweep
from simulator.precision import sentence as in_one_sentence

# how the numbers of an experiment's table are shown: rates in %, their differences in pp
EXPERIMENT_TABLE = TableFormat(
    rate_rows="rate",
    interval={"diff": ("lo", "hi")},
    signed=("diff",),
    scaled=("a", "b", "diff", "se", "se_independent", "value"),
    labels={
        "a": "arm A",
        "b": "arm B",
        "diff": "A - B",
        "se": "paired se",
        "se_independent": "independent se",
        "narrowing": "narrowing (x)",
    },
)


def best_frame(sweep: Sweep) -> pd.DataFrame:
    """Per measure with a better direction: the settings that cannot be told apart from the best
    (simultaneous 95%, best point estimate first; "undefined (no cases)" when nothing can be compared),
    whether one setting alone is best, and the best point estimate against the runner-up, paired."""
    return pd.DataFrame(
        [
            {
                "measure": b.measure,
                "rate": b.measure in sweep.rates,
                "best set": "; ".join(sweep.label(i) for i in b.members) or "undefined (no cases)",
                "clearly best": sweep.label(b.best) if b.clear else "none",
                "best point estimate": sweep.label(b.best),
                "runner-up": sweep.label(b.runner_up),
                "diff": b.difference.diff,
                "lo": b.difference.lo,
                "hi": b.difference.hi,
            }
            for b in sweep.best
        ],
        columns=[
            "measure",
            "rate",
            "best set",
            "clearly best",
            "best point estimate",
            "runner-up",
            "diff",
            "lo",
            "hi",
        ],
    )


def tune_report(sweep: Sweep, provenance: dict, command: str) -> Report:
    """The sweep as a report: findings (per measure the one setting clearly best, or the settings that cannot
    be told apart), the best sets, the long table of values, paired differences against the baseline and
    best-set membership, and one plot of the differences per measure with the best set circled."""
    keys = sweep.keys
    report = Report(
        f"{provenance.get('game', '')} tuning sweep: {', '.join(keys)}",
        provenance,
        command,
        played=sweep.played(),
    )
    for sentence in sweep.findings():
        report.finding(sentence)
    report.text(
        f"Every setting plays the same deals (common random numbers); measures from {sweep.side}'s side. "
        f"Differences are against the baseline {sweep.label(sweep.baseline)}, paired deal by deal; "
        "intervals are 95%."
    )
    report.text(
        "The best set of a measure holds the settings that cannot be told apart from the best: multiple "
        "comparisons with the best on the paired per-deal values, simultaneous 95% (Bonferroni-adjusted "
        "one-sided bounds). A setting is clearly best only when it is the set's one member."
    )
    if sweep.precision is not None:
        base = sweep.base
        told = sweep.precision.lines(base.game.plural(base.unit), sorted(sweep.rates))
        report.text(in_one_sentence(told))
    report.table(
        "best",
        best_frame(sweep),
        "Per measure, the settings that cannot be told apart from the best (simultaneous 95%), and the best "
        "point estimate against the runner-up (paired 95%)",
        dataclasses.replace(EXPERIMENT_TABLE, labels={"diff": "best - runner-up"}),
    )
    if sweep.confirmation is not None:
        c = sweep.confirmation
        report.table(
            "confirm",
            sweep.confirm_table(),
            f"The best sets on {c.n:,} fresh deals (seed {c.seed}): the sweep's value, the fresh value, and "
            "on the fresh deals the paired difference against the set's first",
            TableFormat(
                rate_rows="rate",
                interval={
                    "sweep": ("sweep lo", "sweep hi"),
                    "fresh": ("fresh lo", "fresh hi"),
                    "diff": ("diff lo", "diff hi"),
                },
                signed=("diff",),
                scaled=("sweep", "fresh", "diff"),
                labels={"diff": "against the set's first"},
            ),
        )
    table = sweep.table()
    table.insert(len(keys) + 1, "rate", table["measure"].isin(sweep.rates))
    report.table(
        "tune",
        table,
        "Every setting and measure: value and the paired difference against the baseline",
        TableFormat(
            rate_rows="rate",
            interval={"value": ("lo", "hi"), "diff": ("diff lo", "diff hi")},
            signed=("diff",),
            scaled=("value", "diff"),
            labels={"diff": "against the baseline"},
        ),
    )
    for m in sweep.measures:
        part = (
            sweep.long(m)
            .drop(columns=["value", "lo", "hi"])
            .rename(columns={"diff": "value", "diff lo": "lo", "diff hi": "hi"})
        )
        fig = rate_plot(
            part,
            keys[0],
            PlotLabels(title=f"{m}: against the baseline", ylabel=f"{m}, difference"),
            group=keys[1] if len(keys) > 1 else None,
            percent=m in sweep.rates,
        )
        marked = mark_best_set(fig, part, keys[0], m in sweep.rates)
        note = "; circled: the settings that cannot be told apart from the best" if marked else ""
        report.figure(
            f"tune_{m}",
            fig,
            f"{m}, paired difference against {sweep.label(sweep.baseline)}, by {keys[0]}{note}",
        )
    return report


def mark_best_set(fig: plt.Figure, part: pd.DataFrame, x: str, percent: bool) -> bool:
    """Circle the points of the best set (`in_best_set` true) on the plot's axes; whether any was."""
    chosen = part[[v is not None and bool(v) for v in part["in_best_set"]]]
    if chosen.empty:
        return False
    ax = fig.axes[0]
    categorical = not pd.api.types.is_numeric_dtype(part[x])
    xs = chosen[x].astype(str) if categorical else chosen[x]
    ax.scatter(
        xs,
        chosen["value"].to_numpy(float) * (100 if percent else 1),
        s=220,
        facecolors="none",
        edgecolors="crimson",
        linewidths=1.5,
        zorder=5,
        label="best set",
    )
    ax.legend(fontsize="small")
    return True


ROTATED_TABLE = dataclasses.replace(
    EXPERIMENT_TABLE,
    interval={
        "diff": ("lo", "hi"),
        "moved": ("moved lo", "moved hi"),
        "rotated": ("rotated lo", "rotated hi"),
        "position gap": ("position gap lo", "position gap hi"),
    },
    signed=("diff", "moved", "rotated", "position gap"),
    scaled=(*EXPERIMENT_TABLE.scaled, "moved", "rotated", "rotated se", "position gap"),
    labels={
        **(EXPERIMENT_TABLE.labels or {}),
        "moved": "A' - B' (seats turned)",
        "rotated": "A - B rotated",
        "rotated se": "rotated se",
        "rotation narrowing": "rotation narrows (x)",
        "position gap": "(A - B) - (A' - B')",
    },
)


def compare_report(comparison: Comparison, provenance: dict, command: str) -> Report:
    """The comparison as a report: findings, the plots of the paired differences, one panel for rates (in
    percentage points) and one for the other measures (in their own units), and their table; with seat
    rotation, the rotated estimate beside the plain one in both."""
    frame = comparison.frame()
    rotated = comparison.rotation is not None
    report = Report(
        f"{provenance.get('game', '')} paired comparison",
        provenance,
        command,
        played=f"{comparison.played()} in arm A",
    )
    for sentence in comparison.findings():
        report.finding(sentence)
    report.text(
        f"Arm B: {comparison.arm_b_in_words()}; all else as arm A, on the same deals. Measured for "
        f"{comparison.side}. 'narrowing' is how many times wider the 95% interval would be on independent "
        "deals."
    )
    if rotated:
        report.text(comparison.rotation_in_words())
    if comparison.precision is not None:
        report.text(in_one_sentence(comparison.precision_lines()))
    frame.insert(1, "rate", frame["measure"].isin(comparison.rates))
    # with rotation the page leaves the standard errors to the CSV, so that the table fits the page
    shown = frame.drop(columns=["se", "se_independent", "rotated se"]) if rotated else frame
    report.table(
        "compare",
        shown,
        "Paired differences A - B" + (", plain and with the seats rotated" if rotated else ""),
        ROTATED_TABLE if rotated else EXPERIMENT_TABLE,
        csv=frame,
    )
    panels = [(True, "rates: a - b (percentage points)"), (False, "other measures: a - b (their units)")]
    panels = [(r, label) for r, label in panels if (frame["measure"].isin(comparison.rates) == r).any()]
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 1 + 0.45 * len(frame)), squeeze=False)
    series = [("diff", "lo", "hi", "plain")] + (
        [("rotated", "rotated lo", "rotated hi", "seats rotated")] * rotated
    )
    for ax, (is_rate, label) in zip(axes[:, 0], panels):
        part = frame[frame["measure"].isin(comparison.rates) == is_rate]
        scale = 100 if is_rate else 1
        for k, (value, lo, hi, name) in enumerate(series):
            y = [i + (0.15 - 0.3 * k if rotated else 0.0) for i in range(len(part))]
            ax.errorbar(
                scale * part[value],
                y,
                xerr=[scale * (part[value] - part[lo]), scale * (part[hi] - part[value])],
                fmt="o",
                capsize=3,
                label=name,
            )
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(list(range(len(part))), part["measure"])
        ax.invert_yaxis()
        ax.set_xlabel(label + ", 95% paired interval")
        if rotated:
            ax.legend(fontsize="small")
    fig.tight_layout()
    report.figure(
        "compare",
        fig,
        "Paired differences with 95% intervals" + (": plain, and with the seats rotated" if rotated else ""),
        main=True,
    )
    return report
