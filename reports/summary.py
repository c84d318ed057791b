"""Building blocks of run summaries: rates with Wilson intervals, means with standard errors, and
their rendering as rich tables. Summaries are plain dicts so that they serialise to JSON as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from rich.table import Table

from reports.stats import mean_se, wilson


def rate(successes: int, trials: int) -> dict[str, Any]:
    lo, hi = wilson(successes, trials)
    return {"count": int(successes), "of": int(trials),
            "rate": float(successes / trials) if trials else float("nan"), "lo": float(lo), "hi": float(hi)}


def clustered_rate(successes, trials) -> dict[str, Any]:
    """A rate over several trials per deal (tricks in a game): the deal, not the trial, is the independent
    unit, so the interval comes from the deals' spread (normal, ratio estimate) instead of Wilson."""
    from reports.estimates import Measure, estimate

    e = estimate(Measure("rate", np.asarray(successes, float), np.asarray(trials, float)))
    return {"count": int(np.sum(successes)), "of": int(np.sum(trials)), "rate": e["value"],
            "lo": max(0.0, e["lo"]), "hi": min(1.0, e["hi"])}


def mean(values) -> dict[str, float]:
    m, se = mean_se(values)
    return {"mean": m, "se": se}


def fmt_rate(r: dict[str, Any]) -> str:
    if not r["of"]:
        return "-"
    return f"{100 * r['rate']:.2f}% [{100 * r['lo']:.2f}, {100 * r['hi']:.2f}]"


def fmt_mean(m: dict[str, float]) -> str:
    return "-" if np.isnan(m["mean"]) else f"{m['mean']:.3f} ± {m['se']:.3f}"


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], text_columns: int = 1) -> Table:
    """A rich table; the first `text_columns` columns are left-aligned, numbers to the right."""
    t = Table(title=title, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i < text_columns else "right")
    for row in rows:
        t.add_row(*[str(x) for x in row])
    return t


def json_safe(obj: Any) -> Any:
    """NaN becomes None and numpy scalars plain Python, so that json.dumps writes valid JSON."""
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return None if np.isnan(obj) else float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def flatten(summary: dict[str, Any]):
    """The summary as a long table: one row per figure, with its interval where it has one."""
    import pandas as pd

    rows: list[dict[str, Any]] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict) and "rate" in node:
            rows.append({"metric": prefix, "value": node["rate"], "lo": node["lo"], "hi": node["hi"],
                         "se": None, "count": node["count"], "of": node["of"]})
        elif isinstance(node, dict) and "mean" in node:
            rows.append({"metric": prefix, "value": node["mean"], "se": node["se"]})
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(node, list):
            for item in node:
                label = next((f"{k}={item[k]}" for k in item if k not in ("count", "of", "rate", "lo", "hi")), "")
                walk(f"{prefix}[{label}]", {k: v for k, v in item.items() if not label.startswith(f"{k}=")})
        else:
            rows.append({"metric": prefix, "value": node})

    walk("", summary)
    return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi", "se", "count", "of"])
