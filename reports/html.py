"""Self-contained HTML reports: text, tables and plots in one file (plots embedded as PNG), with each
table also written as CSV and each plot as PNG beside it."""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # reports are files; never open a window
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from simulator.stats import Measure, estimate, wilson
from simulator.summaries import num, pct, pm, pp, to_json  # noqa: F401 (the reports' formats)

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: 0.3em; }
figure { margin: 1em 0 2em; } figcaption { font-size: 0.9em; color: #555; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
.provenance td, .provenance th { text-align: left; }
.findings li { margin: 0.3em 0; }
tr.thin td { color: #aaa; }
td.text, th.text { text-align: left; } td.text:first-child { white-space: nowrap; }
details { margin: 0.5em 0 1.5em; } details > summary { cursor: pointer; color: #245; margin-bottom: 0.4em; }
figure.main { margin-top: 0.5em; }
"""

# Rates of fewer cases than this are greyed in tables and left out of plots: too few to read.
MIN_CASES = 30


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass(frozen=True)
class TableFormat:
    """How a table's cells are shown in the page (the CSV keeps the frame as it is).

    `labels` gives columns their headers in words; a `percent` column is shown as a percentage, with its
    interval when it names its (lo, hi) columns; an `interval` column as "value [lo, hi]"; an `error` column
    as "value ± se" (the se column named); `signed` columns carry their sign. Interval and se columns are
    folded into their value's cell. Rows whose `n` column counts fewer than MIN_CASES cases are greyed. Where
    a table mixes rates with other measures, the bool column `rate_rows` marks the rows that are rates: their
    `scaled` columns are shown x 100 with one decimal (percentages, differences in percentage points) and
    their label says "(%)"."""

    labels: Mapping[str, str] | None = None
    percent: Mapping[str, tuple[str, str] | None] | None = None
    interval: Mapping[str, tuple[str, str]] | None = None
    error: Mapping[str, str] | None = None
    signed: Iterable[str] = ()
    n: str | None = None
    digits: int = 2
    rate_rows: str | None = None
    scaled: Iterable[str] = ()


AS_IS = TableFormat()  # numbers with two decimals, headers from the column names


@dataclass
class Report:
    title: str
    provenance: dict[str, Any]
    command: str
    _body: list[str] = field(default_factory=list)
    _tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    _figures: dict[str, bytes] = field(default_factory=dict)
    _findings: list[str] = field(default_factory=list)
    _main: list[str] = field(default_factory=list)  # the report's main picture, shown under its findings
    played: str = ""  # who played, in words (provenance.seats_text), shown under the title when given

    def finding(self, sentence: str) -> None:
        """A finding in a sentence (with its numbers and intervals): findings open the report."""
        self._findings.append(sentence)

    def heading(self, text: str) -> None:
        self._body.append(f"<h2>{html.escape(text)}</h2>")

    def text(self, text: str) -> None:
        self._body.append(f"<p>{html.escape(text)}</p>")

    def table(
        self,
        name: str,
        frame: pd.DataFrame,
        caption: str,
        shown: TableFormat = AS_IS,
        *,
        csv: pd.DataFrame | None = None,
        collapsed: str | None = None,
    ) -> None:
        """A table in the page and as NAME.csv (the CSV keeps the frame's columns at full precision).

        `shown` says how the page shows the cells (see TableFormat). `csv`, when given, is written in place
        of the frame shown (a display frame of prepared text). `collapsed`, when given, is the one-line
        summary of a closed section holding the table (long tables: the page shows the line, a click the
        rows)."""
        name = _slug(name)
        self._tables[name] = frame if csv is None else csv
        labels, percent = shown.labels or {}, shown.percent or {}
        interval, error = shown.interval or {}, shown.error or {}
        signed, scaled = set(shown.signed), set(shown.scaled)
        n, digits, rate_rows = shown.n, shown.digits, shown.rate_rows
        folded = {c for pair in [*percent.values(), *interval.values()] if pair for c in pair} | set(
            error.values()
        )

        def cell(row: Mapping[str, Any], col: str, first: bool) -> str:
            v = row[col]
            if rate_rows is not None and row[rate_rows]:
                if first:
                    return f"{v} (%)"
                if col in scaled:
                    x = [100 * row[c] for c in (col, *interval.get(col, ()))]
                    return (
                        pm(x[0], 100 * row[error[col]], digits=1)
                        if col in error
                        else num(*x, digits=1, signed=col in signed)
                    )
            if col in percent:
                pair = percent[col]
                return pct(v, *(row[c] for c in pair)) if pair else pct(v)
            if col in interval:
                return num(v, *(row[c] for c in interval[col]), digits=digits, signed=col in signed)
            if col in error:
                return pm(v, row[error[col]], digits=digits)
            return num(v, digits=digits, signed=col in signed)

        columns = [c for c in frame.columns if c not in folded and c != rate_rows]
        label_col = (
            "measure"
            if "measure" in columns
            else next((c for c in columns if pd.api.types.is_string_dtype(frame[c])), None)
        )
        head = "".join(f"<th>{html.escape(labels.get(c, str(c).replace('_', ' ')))}</th>" for c in columns)
        rows = []
        for row in frame.to_dict(orient="records"):
            thin = n is not None and pd.notna(row[n]) and row[n] < MIN_CASES
            tds = "".join(
                f"<td{' class=text' if isinstance(row[c], str) else ''}>"
                f"{html.escape(cell(row, c, c == label_col))}</td>"
                for c in columns
            )
            rows.append(f"<tr{' class=thin' if thin else ''}>{tds}</tr>")
        note = f"; grey rows: fewer than {MIN_CASES} cases, too few to read" if n is not None else ""
        note += "; rows marked (%): rates in %, their differences in percentage points" if rate_rows else ""
        self._body.append(
            _collapse(
                f"<table id='{name}'><caption>{html.escape(caption)} <small>({name}.csv{note})</small>"
                f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>",
                collapsed,
                f"{len(frame):,} rows; also {name}.csv",
            )
        )

    def figure(
        self, name: str, fig: plt.Figure, caption: str, *, main: bool = False, collapsed: str | None = None
    ) -> None:
        """A plot in the page (embedded) and as NAME.png. The `main` plot (one per report) is shown right
        under the findings, wherever it is added; a `collapsed` one in a closed section of that summary."""
        name = _slug(name)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        self._figures[name] = buf.getvalue()
        data = base64.b64encode(self._figures[name]).decode("ascii")
        tag = (
            f"<figure{' class=main' if main else ''}><img alt='{html.escape(caption)}' "
            f"src='data:image/png;base64,{data}'>"
            f"<figcaption>{html.escape(caption)} ({name}.png)</figcaption></figure>"
        )
        if main:
            if self._main:
                raise ValueError(f"a report has one main picture: {name} after another")
            self._main.append(tag)
        else:
            self._body.append(_collapse(tag, collapsed, f"{name}.png"))

    def write(self, folder: Path) -> list[Path]:
        """report.html, the tables as CSV, the plots as PNG and provenance.json; the paths written."""
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, frame in self._tables.items():
            frame.to_csv(folder / f"{name}.csv", index=False)
            written.append(folder / f"{name}.csv")
        for name, png in self._figures.items():
            (folder / f"{name}.png").write_bytes(png)
            written.append(folder / f"{name}.png")
        (folder / "provenance.json").write_text(to_json({"command": self.command, **self.provenance}))
        (folder / "report.html").write_text(self.html())
        return [folder / "report.html", *written, folder / "provenance.json"]

    def html(self) -> str:
        rows = "".join(
            f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(_show(v))}</td></tr>"
            for k, v in self.provenance.items()
        )
        findings = "".join(f"<li>{html.escape(f)}</li>" for f in self._findings)
        return (
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{html.escape(self.title)}</h1>"
            + (f"<p class='played'>Play: {html.escape(self.played)}</p>" if self.played else "")
            + (f"<h2>Findings</h2><ul class='findings'>{findings}</ul>" if findings else "")
            + "".join(self._main)
            + "\n".join(self._body)
            + f"<h2>Provenance</h2><table class='provenance'>{rows}</table>"
            f"<p>Reproduce with:</p><pre>{html.escape(self.command)}</pre></body></html>"
        )


def _collapse(body: str, summary: str | None, what: str) -> str:
    """`body` as it is, or inside a closed <details> section whose line reads `summary (what)`."""
    if summary is None:
        return body
    return f"<details><summary>{html.escape(summary)} ({html.escape(what)})</summary>{body}</details>"


def _show(value: Any) -> str:
    """A provenance value in words: mappings as `key=value` lists, nested ones as `key: (...)`."""
    if isinstance(value, dict):
        return ", ".join(
            f"{k}: ({_show(v)})" if isinstance(v, dict) else f"{k}={v}" for k, v in value.items()
        )
    return str(value)


def rate_row(label: object, count: int, of: int, **extra: object) -> dict:
    """One row of a rates table: `extra` columns, the label, count of `of`, the rate, its Wilson interval."""
    lo, hi = wilson(count, of)
    return {
        **extra,
        "": label,
        "count": int(count),
        "of": int(of),
        "rate": count / of if of else float("nan"),
        "lo": float(lo),
        "hi": float(hi),
    }


def units_rate_row(label: object, count: np.ndarray, of: np.ndarray, **extra: object) -> dict:
    """One row of a rates table as `rate_row`, from the successes `count` and trials `of` of each unit (a
    game, a deal): the unit is the independent one, so the interval is `stats.estimate`'s (Wilson when every
    unit holds at most one trial, else normal on the units' totals)."""
    e = estimate(Measure(str(label), count, of, binary=True))
    return {
        **extra,
        "": label,
        "count": int(np.sum(count)),
        "of": int(np.sum(of)),
        "rate": e.value,
        "lo": e.lo,
        "hi": e.hi,
    }


@dataclass(frozen=True)
class PlotLabels:
    """The words on a rate plot: its title, the y axis (" (%)" is added to it for percentages), the x axis
    (None: the x column's name) and the word before each series' value in the legend (None: the group
    column's name)."""

    title: str = ""
    ylabel: str = ""
    xlabel: str | None = None
    legend: str | None = None


def rate_plot(
    frame: pd.DataFrame,
    x: str,
    labels: PlotLabels,
    value: str = "value",
    interval: tuple[str, str] = ("lo", "hi"),
    group: str | None = None,
    percent: bool = True,
    n: str | None = None,
) -> plt.Figure:
    """Points of column `value` with 95% interval bars (the `interval` columns) against x, one series per
    value of `group` (its legend entries "`labels.legend` value"); points with fewer than MIN_CASES cases
    in column `n` are left out."""
    lo, hi = interval
    title, ylabel, xlabel, legend = labels.title, labels.ylabel, labels.xlabel, labels.legend
    fig, ax = plt.subplots(figsize=(7, 4))
    scale = 100 if percent else 1
    if n is not None:
        frame = frame[frame[n] >= MIN_CASES]
    series = [(None, frame)] if group is None else list(frame.groupby(group, sort=True))
    categorical = not pd.api.types.is_numeric_dtype(
        frame[x]
    )  # categories are not joined by lines, and their labels slant
    for label, unsorted in series:
        part = unsorted if categorical else unsorted.sort_values(x)
        y = part[value].to_numpy(float) * scale
        err = np.clip([y - part[lo].to_numpy(float) * scale, part[hi].to_numpy(float) * scale - y], 0, None)
        ax.errorbar(
            part[x].astype(str) if categorical else part[x],
            y,
            yerr=err,
            marker="o",
            linestyle="none" if categorical else "-",
            capsize=3,
            label=None if label is None else f"{legend or group.replace('_', ' ')} {label}",
        )
    if pd.api.types.is_integer_dtype(frame[x]):
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(xlabel if xlabel is not None else x.replace("_", " "))
    if categorical:
        plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if group is not None:
        ax.legend(fontsize="small")
    return fig
