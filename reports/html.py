"""Self-contained HTML reports: text, tables and plots in one file (plots embedded as PNG), with each
table also written as CSV and each plot as PNG beside it."""

from __future__ import annotations

import base64
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # reports are files; never open a window
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

from simulator.summaries import to_json

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
"""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass
class Report:
    title: str
    provenance: dict[str, Any]
    command: str
    _body: list[str] = field(default_factory=list)
    _tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    _figures: dict[str, bytes] = field(default_factory=dict)
    _findings: list[str] = field(default_factory=list)

    def finding(self, sentence: str) -> None:
        """A finding in a sentence (with its numbers and intervals): findings open the report."""
        self._findings.append(sentence)

    def heading(self, text: str) -> None:
        self._body.append(f"<h2>{html.escape(text)}</h2>")

    def text(self, text: str) -> None:
        self._body.append(f"<p>{html.escape(text)}</p>")

    def table(self, name: str, frame: pd.DataFrame, caption: str, float_format: str = "{:.4g}") -> None:
        """A table in the page and as NAME.csv."""
        name = _slug(name)
        self._tables[name] = frame
        shown = frame.to_html(index=False, na_rep="-", float_format=float_format.format, border=0)
        shown = shown.replace("<table", f"<table id='{name}'", 1).replace(
            ">", f"><caption>{html.escape(caption)} <small>({name}.csv)</small></caption>", 1)
        self._body.append(shown)

    def figure(self, name: str, fig: plt.Figure, caption: str) -> None:
        """A plot in the page (embedded) and as NAME.png."""
        name = _slug(name)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        self._figures[name] = buf.getvalue()
        data = base64.b64encode(self._figures[name]).decode("ascii")
        self._body.append(f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'>"
                          f"<figcaption>{html.escape(caption)} ({name}.png)</figcaption></figure>")

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
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(_show(v))}</td></tr>"
                       for k, v in self.provenance.items())
        findings = "".join(f"<li>{html.escape(f)}</li>" for f in self._findings)
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>"
                f"<style>{_STYLE}</style></head><body><h1>{html.escape(self.title)}</h1>"
                + (f"<h2>Findings</h2><ul class='findings'>{findings}</ul>" if findings else "")
                + "\n".join(self._body)
                + f"<h2>Provenance</h2><table class='provenance'>{rows}</table>"
                f"<p>Reproduce with:</p><pre>{html.escape(self.command)}</pre></body></html>")


def _show(value: Any) -> str:
    """A provenance value in words: mappings as `key=value` lists, nested ones as `key: (...)`."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: ({_show(v)})" if isinstance(v, dict) else f"{k}={v}" for k, v in value.items())
    return str(value)


def rate_plot(frame: pd.DataFrame, x: str, value: str = "value", lo: str = "lo", hi: str = "hi",
              group: str | None = None, title: str = "", ylabel: str = "", percent: bool = True) -> plt.Figure:
    """Points with 95% interval bars against x, one series per value of `group`."""
    fig, ax = plt.subplots(figsize=(7, 4))
    scale = 100 if percent else 1
    series = [(None, frame)] if group is None else list(frame.groupby(group, sort=True))
    for label, part in series:
        part = part.sort_values(x)
        y = part[value].to_numpy(float) * scale
        err = np.clip([y - part[lo].to_numpy(float) * scale, part[hi].to_numpy(float) * scale - y], 0, None)
        ax.errorbar(part[x].astype(str) if part[x].dtype == object else part[x], y, yerr=err, marker="o",
                    capsize=3, label=None if label is None else f"{group} {label}")
    if pd.api.types.is_integer_dtype(frame[x]):
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if group is not None:
        ax.legend(fontsize="small")
    return fig
