"""A report of any finished run (`dealsim report run --run DIR`): the summary's figures as a table, its
rates and means as plots with their intervals, and findings from its headline figures."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import MIN_CASES, Report, TableFormat, num, pct, pm
from simulator.summaries import flatten


def _fmt(row: pd.Series) -> str:
    if pd.notna(row["lo"]):  # a rate
        return pct(row["value"], row["lo"], row["hi"])
    if pd.notna(row["se"]):
        return pm(row["value"], row["se"], digits=3)
    value = row["value"]
    return num(int(value) if isinstance(value, float) and value.is_integer() else value)


def human(metric: str) -> str:
    """A summary key in words: `contracts[bid=30].made` -> "contracts (bid 30), made",
    `stages[stage=1].sweeps` -> "stage 1, sweeps", `by_seat[seat=0].points` -> "seat 0, points"."""
    words = []
    for part in re.findall(r"[^.\[]+(?:\[[^\]]*\])?", metric):
        m = re.fullmatch(r"(.+)\[(.+)=(.+)\]", part)
        if m is None:
            words.append(f"player {part}" if part.isdigit() else part.replace("_", " "))
            continue
        name, key, value = m.groups()
        plain = name in (f"by_{key}", f"{key}s")  # the list is named after its key
        words.append(f"{key} {value}" if plain else f"{name.replace('_', ' ')} ({key} {value})")
    return ", ".join(words)


def build(summary: dict, manifest: dict, title: str) -> Report:
    """The report of a run from its summary (nested Rate/Mean) and its manifest."""
    context = {k: v for k, v in manifest.items() if k not in ("command", "parts")}  # parts: the checksums
    report = Report(title, context, manifest.get("command", ""))
    flat = flatten(summary)
    figures = flat[flat["se"].notna() | flat["lo"].notna()].copy()
    rates = figures[figures["lo"].notna() & (figures["of"].fillna(0) >= 30)]
    means = figures[figures["lo"].isna() & figures["se"].notna()]
    top = ~figures["metric"].str.contains(r"\[", regex=True)  # the run's own figures before per-group ones
    headline = pd.concat([rates[top[rates.index]].head(3), means[top[means.index]].head(2)])
    for _, row in headline.iterrows():
        report.finding(
            f"{human(row['metric'])}: {_fmt(row)}"
            + (f" (of {int(row['of']):,})" if pd.notna(row["of"]) else "")
            + "."
        )
    if not manifest.get("complete", True):
        report.finding(
            f"The run was interrupted: these figures cover its first {manifest.get('deals_done', 0):,} deals."
        )
    report.heading("Every figure of the summary")
    report.text(
        "Rates are percentages with Wilson 95% intervals (or, for several trials per deal, intervals with "
        f"the deal as the unit); means carry standard errors. Rates of fewer than {MIN_CASES} trials are "
        "greyed here and left out of the plots."
    )
    shown = pd.DataFrame(
        {
            "figure": flat["metric"].map(human),
            "value": [_fmt(r) for _, r in flat.iterrows()],
            "cases": flat["count"].astype("Int64"),
            "of": flat["of"].astype("Int64"),
        }
    )
    report.table(
        "summary",
        shown,
        "The run's summary, one figure per row (summary.csv keeps the summary's keys and full precision)",
        TableFormat(n="of"),
        csv=flat.astype({"count": "Int64", "of": "Int64"}),
    )
    for name, part, percent in (("rates", rates, True), ("means", means, False)):
        if not len(part):
            continue
        scale = 100 if percent else 1
        value = scale * part["value"].to_numpy(float)
        lo = scale * (part["lo"].to_numpy(float) if percent else part["value"] - 1.96 * part["se"])
        hi = scale * (part["hi"].to_numpy(float) if percent else part["value"] + 1.96 * part["se"])
        fig, ax = plt.subplots(figsize=(8, 0.6 + 0.3 * len(part)))
        y = np.arange(len(part))
        ax.errorbar(value, y, xerr=[value - lo, hi - value], fmt="o", capsize=3)
        ax.set_yticks(y, part["metric"].map(human), fontsize="small")
        ax.invert_yaxis()
        ax.set_xlabel(("rate (%)" if percent else "mean (the figure's own unit)") + ", 95% interval")
        ax.grid(alpha=0.3, axis="x")
        report.figure(f"summary_{name}", fig, f"The run's {name} with 95% intervals")
    return report
