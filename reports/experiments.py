"""Reports of experiments: a paired comparison and a tuning sweep as self-contained HTML."""

from __future__ import annotations

import matplotlib.pyplot as plt

from reports.html import Report, rate_plot
from simulator.experiments import Comparison, Sweep


def tune_findings(sweep: Sweep) -> list[str]:
    """Sentences: per measure with a better direction, the best setting against the runner-up, paired."""
    out = []
    for b in sweep.best:
        d = b.difference
        verdict = "clearly" if b.clear else "not clearly (the interval holds 0)"
        scale, unit = (100, " percentage points") if b.measure in sweep.rates else (1, "")
        out.append(f"{b.measure}: {sweep.label(b.best)} is best, {verdict}: {scale * d.diff:+.3g}{unit} "
                   f"[{scale * d.lo:+.3g}, {scale * d.hi:+.3g}] against {sweep.label(b.runner_up)} on the same deals.")
    return out


def tune_report(sweep: Sweep, provenance: dict, command: str) -> Report:
    """The sweep as a report: findings (the best setting per measure against the runner-up), the long table
    of values and paired differences against the baseline, and one plot of the differences per measure."""
    keys = sweep.keys
    report = Report(f"{provenance.get('game', '')} tuning sweep: {', '.join(keys)}", provenance, command)
    for sentence in tune_findings(sweep):
        report.finding(sentence)
    report.text(f"Every setting plays the same deals (common random numbers); measures from {sweep.side}'s side. "
                f"Differences are against the baseline {sweep.label(sweep.baseline)}, paired deal by deal; "
                "intervals are 95%.")
    report.table("tune", sweep.table(), "Every setting and measure: value and the paired difference against the baseline")
    for m in sweep.measures:
        part = sweep.long(m).drop(columns=["value", "lo", "hi"]).rename(
            columns={"diff": "value", "diff lo": "lo", "diff hi": "hi"})
        fig = rate_plot(part, keys[0], group=keys[1] if len(keys) > 1 else None, title=f"{m}: against the baseline",
                        ylabel=f"{m}, difference", percent=m in sweep.rates)
        report.figure(f"tune_{m}", fig, f"{m}, paired difference against {sweep.label(sweep.baseline)}, by {keys[0]}")
    return report


def compare_report(comparison: Comparison, provenance: dict, command: str) -> Report:
    """The comparison as a report: the table of paired differences and their plot."""
    frame = comparison.frame()
    report = Report(f"{provenance.get('game', '')} paired comparison", provenance, command)
    report.text(f"Arm A against arm B on the same deals, measured for {comparison.side}. 'narrowing' is how many "
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
