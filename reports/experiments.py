"""Reports of experiments: a paired comparison and a tuning sweep as self-contained HTML."""

from __future__ import annotations

import matplotlib.pyplot as plt

from reports.html import Report, rate_plot
from simulator.experiments import Comparison, Sweep


def tune_report(sweep: Sweep, provenance: dict, command: str) -> Report:
    """The sweep as a report: the table, then one plot per measure against the first setting."""
    keys = sweep.keys
    report = Report(f"{provenance.get('game', '')} tuning sweep: {', '.join(keys)}", provenance, command)
    report.text("Every row plays the same deals (common random numbers); intervals are 95%.")
    report.table("tune", sweep.frame(), "One row per setting")
    for m in sweep.measures:
        fig = rate_plot(sweep.long(m), keys[0], group=keys[1] if len(keys) > 1 else None, title=m, ylabel=m,
                        percent=m in sweep.rates)
        report.figure(f"tune_{m}", fig, f"{m} against {keys[0]}")
    return report


def compare_report(comparison: Comparison, provenance: dict, command: str) -> Report:
    """The comparison as a report: the table of paired differences and their plot."""
    frame = comparison.frame()
    report = Report(f"{provenance.get('game', '')} paired comparison", provenance, command)
    report.text(f"Arm A against arm B on the same deals, from {comparison.side}'s side. 'narrowing' is how many "
                "times wider the 95% interval would be on independent deals.")
    report.table("compare", frame, "Paired differences a - b")
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(frame)))
    y = range(len(frame))
    ax.errorbar(frame["diff"], list(y), xerr=[frame["diff"] - frame["lo"], frame["hi"] - frame["diff"]],
                fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(list(y), frame["measure"])
    ax.set_xlabel("a - b (95% paired interval)")
    report.figure("compare", fig, "Paired differences with 95% intervals")
    return report
