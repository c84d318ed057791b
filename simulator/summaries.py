"""Building blocks of run summaries: rich tables for the terminal, and the conversions of a summary (nested
dicts and lists holding `Rate` and `Mean` results) to JSON and to a long table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.table import Table

from simulator.stats import Mean, Rate, Result

if TYPE_CHECKING:
    import pandas as pd


# One way to show numbers everywhere (terminal tables, findings, report tables): percentages with one
# decimal, differences of rates in percentage points, intervals in brackets after the value.
def pct(rate: float, lo: float | None = None, hi: float | None = None) -> str:
    """A rate as a percentage with one decimal, and its interval: "52.3% [50.1, 54.5]"; "no data" for NaN.
    Below 0.1% (a rare case of a large run) as many decimals as show two digits of the larger of the rate and
    its upper bound, so that a rate that is not zero does not read "0.0% [0.0, 0.0]"."""
    import math

    import pandas as pd

    if rate is None or pd.isna(rate):
        return "no data"
    top = 100 * max(rate, hi if hi is not None and not pd.isna(hi) else rate)
    digits = 1 if not 0 < top < 0.1 else 1 - math.floor(math.log10(top))
    if lo is None or hi is None or pd.isna(lo):
        return f"{num(100 * rate, digits=digits)}%"
    return (
        f"{num(100 * rate, digits=digits)}% [{num(100 * lo, digits=digits)}, {num(100 * hi, digits=digits)}]"
    )


def pp(diff: float, lo: float, hi: float) -> str:
    """A difference of rates in percentage points with its interval: "+1.8 [+1.1, +2.5] pp"."""
    return f"{num(100 * diff, 100 * lo, 100 * hi, digits=1, signed=True)} pp"


def num(
    value: Any, lo: float | None = None, hi: float | None = None, digits: int = 2, signed: bool = False
) -> str:
    """A number as shown in tables and findings: integers with thousands separators, floats with `digits`
    decimals (signed differences with their sign), and the interval when given; "-" for a missing value."""
    import pandas as pd

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and lo is None:
        return f"{int(value):{'+' if signed else ''},}"
    spec = f"{'+' if signed else ''},.{digits}f"

    def f(x: float) -> str:
        text = format(x, spec)
        return text.replace("-", "+" if signed else "", 1) if _is_zero(text) else text  # no "-0.0"

    return f(value) + ("" if lo is None or hi is None or pd.isna(lo) else f" [{f(lo)}, {f(hi)}]")


def _is_zero(text: str) -> bool:
    return text.lstrip("+-").replace("0", "").replace(".", "").replace(",", "") == ""


def pm(value: float, se: float, digits: int = 2) -> str:
    """A mean with its standard error: "12.31 ± 0.42"."""
    import pandas as pd

    if pd.isna(value):
        return "no data"
    return f"{value:,.{digits}f} ± {se:,.{digits}f}"


def fmt_rate(r: Rate) -> str:
    return pct(r.rate, r.lo, r.hi) if r.of else "-"


def fmt_mean(m: Mean) -> str:
    return "-" if np.isnan(m.mean) else pm(m.mean, m.se, digits=3)


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], text_columns: int = 1) -> Table:
    """A rich table; the first `text_columns` columns are left-aligned, numbers to the right."""
    t = Table(title=title, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i < text_columns else "right")
    for row in rows:
        t.add_row(*[str(x) for x in row])
    return t


def json_safe(obj: Any) -> Any:
    """Typed results become dicts, NaN None and numpy scalars plain Python, so that json.dumps writes
    valid JSON."""
    if isinstance(obj, Result):
        return json_safe(obj.as_dict())
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if np.isfinite(obj) else None  # NaN and infinities are not JSON
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def flatten(summary: dict[str, Any]) -> pd.DataFrame:
    """The summary as a long table: one row per figure, with its interval where it has one. An item of a
    list is labelled by its first plain (not typed) entry, e.g. `contracts[bid=30].made`."""
    import pandas as pd

    rows: list[dict[str, Any]] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, Rate):
            rows.append(
                {
                    "metric": prefix,
                    "value": node.rate,
                    "lo": node.lo,
                    "hi": node.hi,
                    "se": None,
                    "count": node.count,
                    "of": node.of,
                }
            )
        elif isinstance(node, Mean):
            rows.append({"metric": prefix, "value": node.mean, "se": node.se})
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(node, list):
            for item in node:
                key = next((k for k, v in item.items() if not isinstance(v, (Result, dict, list))), None)
                label = f"{key}={item[key]}" if key is not None else ""
                walk(f"{prefix}[{label}]", {k: v for k, v in item.items() if k != key})
        else:
            rows.append({"metric": prefix, "value": node})

    walk("", summary)
    return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi", "se", "count", "of"])


def to_json(obj: Any) -> str:
    """Strict JSON text (never NaN or Infinity) of a summary, manifest or result."""
    return json.dumps(json_safe(obj), indent=2, allow_nan=False)
