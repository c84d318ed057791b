"""The results of the application layer's use cases: each renders itself for a console (`render`: rich
tables and lines) and serialises itself for JSON (`as_dict`). Comparisons, sweeps and benchmarks do the same
in simulator.experiments and simulator.bench."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas

from simulator.errors import DealsimError
from simulator.precision import Outcome
from simulator.runner import Result, Run
from simulator.summaries import table


@dataclass
class Simulation:
    """A finished (or interrupted) run: its tables, summary, manifest (what the run is and holds) and
    timing (how this attempt went: jobs, backend, chunks reused, seconds). With an output folder the tables
    live there (read on first use), not in memory."""

    result: Result
    summary: dict[str, Any]
    manifest: dict[str, Any]
    folder: Path | None = None
    timing: dict[str, Any] = field(default_factory=dict)
    precision: Outcome | None = None  # how a run with precision targets went (simulator.precision)

    @property
    def run(self) -> Run:
        return self.result.run

    @property
    def tables(self) -> dict[str, pandas.DataFrame]:
        if not self.result.tables and self.folder is not None:
            self.result.tables = read_tables(self.folder)
        return self.result.tables

    @property
    def deals(self) -> pandas.DataFrame:
        return self.tables["deals"]

    @property
    def matches(self) -> pandas.DataFrame | None:
        return self.tables.get("matches")

    def as_dict(self) -> dict[str, Any]:
        return {"manifest": self.manifest, "timing": self.timing, "summary": self.summary}

    def render(self) -> list[Any]:
        """The game's summary tables, then one line: what was played, how long it took, where it went."""
        r, g = self.result, self.run.game
        done = "" if r.complete else f" (interrupted: {r.deals_done:,} of {self.run.n:,})"
        reused = f", {r.reused} chunk(s) kept from before" if r.reused else ""
        where = f"; written to {self.folder}" if self.folder else ""
        line = (
            f"{g.name}, {r.deals_done:,} {g.plural(self.run.unit)}, seed {self.run.seed}, "
            f"{r.elapsed:.1f} s with {r.jobs} job(s){reused}{done}{where}"
        )
        if self.precision is None:
            return [*g.render(self.summary), line]
        rates = [r.measure for r in self.precision.reached if r.target.endswith("pp")]
        return [*g.render(self.summary), line, *self.precision.lines(g.plural(self.run.unit), rates)]


@dataclass
class HandAnalysis:
    """Every contract the seat could choose, played on the same deals of the other hands."""

    frame: pandas.DataFrame  # one row per choice
    best: dict[str, Any]
    advice: dict[
        str, Any
    ]  # the best trump against the runner-up (paired); per trump the highest bid that pays
    provenance: dict[str, Any]
    rendered: list[Any]

    def as_dict(self) -> dict[str, Any]:
        rows = self.frame.to_dict(orient="records")
        return {**self.provenance, "best": self.best, "advice": self.advice, "rows": rows}

    def render(self) -> list[Any]:
        return [*self.rendered, f"({self.provenance['elapsed_seconds']:.1f} s)"]


@dataclass
class StudyReport:
    study: str
    folder: Path
    written: list[Path]
    headline: tuple[str, list[str], list[list[Any]]] | None
    deals: int
    matches: int
    elapsed: float

    def render(self) -> list[Any]:
        wrote = f"wrote {len(self.written)} files to {self.folder}/ (open {self.folder / 'report.html'})"
        if self.headline is None:
            return [wrote]
        played = f"{self.study}: {self.deals:,} deals" + (
            f" and {self.matches:,} matches" if self.matches else ""
        )
        return [table(*self.headline), f"{played} in {self.elapsed:.1f} s; {wrote}"]


def read_tables(folder: Path) -> dict[str, pandas.DataFrame]:
    """The tables of the simulate run in `folder`: its combined files (deals.parquet, ...) where it has
    them, otherwise its parts (parts/deals/..., up to the deals done); none for a run that kept only its
    summary."""
    import json
    import math

    from simulator.parts import INDEX, TABLES, read_index, read_parts

    folder = Path(folder)
    try:
        combined = {
            name: folder / f"{name}.parquet" for name in TABLES if (folder / f"{name}.parquet").exists()
        }
        if combined:
            return {name: pandas.read_parquet(path) for name, path in combined.items()}
        if not (folder / "parts").is_dir():
            return {}
        manifest = json.loads((folder / "manifest.json").read_text())
        if "deals_done" in manifest:
            chunks = math.ceil(int(manifest["deals_done"]) / int(manifest["chunk_size"]))
        else:  # a run killed before its end: the parts it finished from the first on
            found = read_index(folder / "parts" / INDEX)
            chunks = 0
            while found is not None and chunks in found[1]:
                chunks += 1
        return read_parts(folder, chunks)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DealsimError(f"cannot read the tables in {folder}: {exc}") from None
