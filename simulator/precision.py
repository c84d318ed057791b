"""Precision targets: play chunks until each named measure's 95% interval is as narrow as asked, or until
the run's -n (the cap), by a two-stage (Stein-type) rule that keeps the interval's coverage.

A target is MEASURE=HALFWIDTH: percentage points for a rate (`contract success=0.5pp`), the measure's own
points for a mean (`NS score margin per hand=0.3`). The measures are those compare and tune report
(`Game.measures`); which interval a target narrows depends on the command: simulate the measure's own
estimate, compare the paired difference A - B, tune every setting's paired difference against the
baseline (the widest of them).

The rule: a pilot of whole chunks, at least PILOT_UNITS deals (or matches) and at least one chunk, is played
first. Its sample standard deviation s0 of the per-unit values behind the interval (a rate's or ratio's
linearised values, or the per-unit differences between arms) fixes the total

    n = ceil((t_{n0 - 1, 0.975} * s0 / h)^2),

rounded up to whole chunks, never below the pilot and never above the cap; the largest n over the targets
is played. The run then grows from the pilot to n (the pilot's chunks kept, not played again) and the
interval is computed over all n units as it would be for a plain run of n. Because n depends on the pilot's
spread and not on its mean, the final interval keeps (approximately; exactly, for normal data, in Stein's
version) its nominal coverage, which stopping at the first chunk where the half-width is met would not.
The half-width reached is reported as it is: it may come out slightly above the target (the spread over
all n units can be larger than the pilot's), and is then reported as not met.

Chunk k still draws from SeedSequence(seed, spawn_key=(k,)), so a precision run that ends at n units is
the plain run of n units on the same seed, deal for deal.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.errors import DealsimError
from simulator.runner import Result, Run, chunk, play_chunk
from simulator.stats import Measure, t_quantile

if TYPE_CHECKING:
    import pandas as pd

    from simulator.contract import Game

# The pilot's least size in deals (or matches): enough for a spread to go on, small beside a run that
# needs a precision target; rounded up to whole chunks.
PILOT_UNITS = 500

OPTION = "--precision"


@dataclass(frozen=True)
class Target:
    """One precision target: the measure's name and the 95% half-width asked for, as given (percentage
    points when `pp`, else the measure's own points)."""

    measure: str
    value: float
    pp: bool

    @property
    def halfwidth(self) -> float:
        """The half-width in the measure's own scale (a rate's as a fraction)."""
        return self.value / 100 if self.pp else self.value

    @property
    def text(self) -> str:
        return f"{self.measure}={self.value:g}{'pp' if self.pp else ''}"


def parse(items: Sequence[str] | None) -> tuple[Target, ...]:
    """`MEASURE=HALFWIDTH` items (HALFWIDTH a number above 0, with `pp` for a rate) as targets."""
    out: dict[str, Target] = {}
    for item in items or ():
        name, sep, amount = str(item).rpartition("=")
        name, amount = name.strip(), amount.strip().lower()
        if not sep or not name or not amount:
            raise DealsimError(
                f"{OPTION}: expected MEASURE=HALFWIDTH, e.g. 'contract success=0.5pp' or "
                f"'NS score margin per hand=0.3', got {item!r}"
            )
        pp = amount.endswith("pp")
        try:
            value = float(amount.removesuffix("pp").strip())
        except ValueError:
            value = float("nan")
        if not (math.isfinite(value) and value > 0):
            raise DealsimError(
                f"{OPTION}: the half-width of {name} must be a number above 0 (with pp for a rate), "
                f"not {amount!r}"
            )
        if name in out:
            raise DealsimError(f"{OPTION}: {name} is given twice")
        out[name] = Target(name, value, pp)
    return tuple(out.values())


def check(targets: Sequence[Target], measures: Sequence[Measure]) -> None:
    """Each target names a measure of the run, in its unit (pp for a rate, points for a mean)."""
    known = {m.name: m for m in measures}
    for t in targets:
        m = known.get(t.measure)
        if m is None:
            raise DealsimError(
                f"{OPTION}: this run has no measure {t.measure!r}; its measures: {', '.join(known)}"
            )
        if m.binary and not t.pp:
            raise DealsimError(
                f"{OPTION}: {t.measure} is a rate: give its half-width in percentage points, "
                f"e.g. '{t.measure}={t.value:g}pp'"
            )
        if not m.binary and t.pp:
            raise DealsimError(
                f"{OPTION}: {t.measure} is a mean, not a rate: give its half-width in its own points, "
                f"e.g. '{t.measure}={t.value:g}'"
            )


def by_name(
    game: Game, tables: dict[str, pd.DataFrame], unit: str, sides: Sequence[int]
) -> dict[str, Measure]:
    """The measures of `sides`, each name once: a name that does not name a side (`contract success`) is
    taken for the first of them, as compare does."""
    out: dict[str, Measure] = {}
    for side in sides:
        for m in game.measures(tables, unit, side):
            out.setdefault(m.name, m)
    return out


def measures_of(run: Run, sides: Sequence[int]) -> list[Measure]:
    """The measures the run has for `sides` (their names and kinds), from its first two units played
    alone, apart from the run and any folder."""
    tiny = dataclasses.replace(run, n=min(2, run.n))
    return list(by_name(run.game, play_chunk(chunk(tiny, 0)), run.unit, sides).values())


def pilot_size(run: Run) -> int:
    """The pilot's units: whole chunks, at least PILOT_UNITS and one chunk (the whole run when that is
    more than the cap)."""
    chunks = max(1, math.ceil(PILOT_UNITS / run.chunk_size))
    return min(run.n, chunks * run.chunk_size)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (inf below one)."""
    return t_quantile(0.975, df)


def needed(spread: float, n0: int, halfwidth: float) -> float:
    """Stein's total: (t_{n0-1, 0.975} s0 / h)^2 units (inf when the pilot gives no spread)."""
    if not math.isfinite(spread):
        return math.inf
    return (t975(n0 - 1) * spread / halfwidth) ** 2


def decide(cap: int, chunk_size: int, n0: int, want: float) -> int:
    """The run's size for `want` units: whole chunks, at least the pilot, at most the cap."""
    if not math.isfinite(want):
        return cap
    n = math.ceil(math.ceil(want - 1e-9) / chunk_size) * chunk_size
    return min(cap, max(n0, n))


def spread(values: np.ndarray) -> float:
    """The sample standard deviation (nan for fewer than two values or non-finite ones)."""
    v = np.asarray(values, dtype=float)
    if len(v) < 2 or not np.all(np.isfinite(v)):
        return float("nan")
    return float(v.std(ddof=1))


@dataclass(frozen=True)
class Reached:
    """One target: the half-width asked for and reached (both in the measure's scale; a rate's as a
    fraction), whether it was met, the pilot's spread and the units it asked for."""

    measure: str
    target: str
    halfwidth_target: float
    halfwidth: float
    met: bool
    pilot_spread: float
    units_needed: float

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Outcome:
    """How a precision run went: its targets, the cap (-n), the pilot's size, the size decided (`n`, None
    when the pilot was interrupted), per target what was reached; `capped` when a target asked for more
    than the cap."""

    targets: tuple[str, ...]
    cap: int
    pilot: int
    n: int | None = None
    reached: tuple[Reached, ...] = ()
    interval: str = "estimate"  # which interval the targets narrow: estimate, paired A - B, or vs baseline

    @property
    def capped(self) -> bool:
        return self.n is not None and any(r.units_needed > self.cap for r in self.reached)

    @property
    def met(self) -> bool:
        return bool(self.reached) and all(r.met for r in self.reached)

    def as_dict(self) -> dict[str, Any]:
        return {
            "targets": list(self.targets),
            "cap": self.cap,
            "pilot": self.pilot,
            "n": self.n,
            "capped": self.capped,
            "met": self.met,
            "interval": self.interval,
            "reached": [r.as_dict() for r in self.reached],
        }

    def lines(self, units: str, rates: Sequence[str] = ()) -> list[str]:
        """In words: the size taken and why, then one line per target."""
        if self.n is None:
            return [f"precision: interrupted in the pilot ({self.pilot:,} {units}); no size decided yet"]
        if not self.reached:
            return [
                f"precision: {self.n:,} {units} decided from the pilot of {self.pilot:,}; interrupted before "
                "the end (resume to finish)"
            ]
        if self.capped:
            head = (
                f"precision: stopped at the cap, -n {self.cap:,} {units}: the pilot of {self.pilot:,} asked "
                "for more than that"
            )
        elif self.n == self.pilot:
            head = f"precision: the pilot of {self.pilot:,} {units} was enough"
        else:
            head = f"precision: {self.n:,} {units}, as the pilot of {self.pilot:,} asked (cap {self.cap:,})"
        out = [f"{head}; 95% half-width of the {self.interval} per target:"]
        for r in self.reached:
            rate = r.measure in rates
            shown = (lambda x: f"{100 * x:.2f}pp") if rate else (lambda x: f"{x:.3g}")
            over = r.halfwidth / r.halfwidth_target - 1
            verdict = (
                "met" if r.met else f"NOT met ({over:.0%} above it)" if math.isfinite(over) else "NOT met"
            )
            want = (
                "" if math.isinf(r.units_needed) else f", the pilot asked for {math.ceil(r.units_needed):,}"
            )
            out.append(
                f"  {r.measure}: {shown(r.halfwidth)} reached for a target of {shown(r.halfwidth_target)}, "
                f"{verdict}{want}"
            )
        return out


def sentence(lines: Sequence[str]) -> str:
    """`Outcome.lines` as one sentence, for a report's text."""
    head, *rest = [line.strip() for line in lines]
    head = head[:1].upper() + head[1:]
    return f"{head} {'; '.join(rest)}." if rest else f"{head}."


def reached(target: Target, halfwidth: float, pilot_spread: float, units: float) -> Reached:
    met = math.isfinite(halfwidth) and halfwidth <= target.halfwidth * (1 + 1e-12)
    return Reached(target.measure, target.text, target.halfwidth, halfwidth, met, pilot_spread, units)


def halfwidth(lo: float, hi: float) -> float:
    return (hi - lo) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.inf


def two_stage(
    runs: Sequence[Run],
    targets: Sequence[Target],
    play: Callable[[Run, Result | None], Result],
    spreads: Callable[[list[Result]], dict[str, float]],
) -> tuple[list[Result], int | None, dict[str, tuple[float, float]]]:
    """The runs (arms or settings of one size, the cap) played to the targets: each run's pilot by
    `play(pilot run, None)`, then `spreads(pilot results)` (per target's measure the pilot's spread of the
    per-unit values behind its interval), then each run grown to the decided size by `play(run, pilot
    result)`. Returns the results, the decided size (None when a pilot was interrupted) and per measure
    (pilot spread, units needed)."""
    cap = runs[0].n
    n0 = pilot_size(runs[0])
    pilots = []
    for run in runs:
        result = play(dataclasses.replace(run, n=n0), None)
        pilots.append(result)
        if not result.complete:
            return pilots, None, {}
    s0 = spreads(pilots)
    asked = {t.measure: (s0[t.measure], needed(s0[t.measure], n0, t.halfwidth)) for t in targets}
    n = decide(cap, runs[0].chunk_size, n0, max(units for _, units in asked.values()))
    if n == n0:
        return pilots, n, asked
    finals = []
    for run, pilot in zip(runs, pilots):
        result = play(dataclasses.replace(run, n=n), pilot)
        finals.append(result)
        if not result.complete:
            break
    return finals, n, asked


class Collector:
    """The targets' per-unit measures, gathered chunk by chunk as a run's chunks come in (so that a run
    whose tables are not kept in memory still has them)."""

    def __init__(self, game: Game, unit: str, sides: Sequence[int], names: Sequence[str]) -> None:
        self.game, self.unit, self.sides, self.names = game, unit, list(sides), list(names)
        self.chunks: dict[int, dict[str, Measure]] = {}

    def add(self, k: int, tables: dict[str, pd.DataFrame]) -> None:
        found = by_name(self.game, tables, self.unit, self.sides)
        self.chunks[k] = {name: found[name] for name in self.names}

    def measures(self, chunks: int) -> dict[str, Measure]:
        """Each measure over chunks 0..chunks-1."""
        out = {}
        for name in self.names:
            parts = [self.chunks[k][name] for k in range(chunks)]
            first = parts[0]
            den = None if first.den is None else np.concatenate([p.den for p in parts])
            out[name] = Measure(name, np.concatenate([p.num for p in parts]), den, first.binary, first.better)
        return out
