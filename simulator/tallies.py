"""Summaries from per-chunk partial aggregates, so that a run's memory stays flat as it grows.

A game's `summarize(tables, unit)` returns a *partial* summary of the tables it is given (one chunk's): the
same nested dicts and lists as the finished summary, with tallies in place of results. A tally holds the
sums its figure needs (successes and trials; n, sum and sum of squares; the cross sums of a ratio), tallies
of the same figure add up across chunks (`merge`), and `finish` turns every tally into its `Rate` or `Mean`.
The finished numbers equal those computed from the whole table at once (up to float rounding).

Rows of a per-deal table are not always independent: the hands of one match, the player-hands of one
Frank's Zoo hand. `rate` and `mean` given each row's unit (`units_of`: the match in a match run, else the
deal) sum per unit and take the unit as the independent one (a ratio estimate over units, as
`stats.estimate`); a unit of a match run is a whole match, so chunks (whole matches) hold whole units.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.stats import Z95, Mean, Rate, wilson
from simulator.stats import rate as wilson_rate


@dataclass(frozen=True)
class RateTally:
    """Successes of independent trials: a Wilson interval at the end."""

    count: int
    of: int

    def __add__(self, other: RateTally) -> RateTally:
        return RateTally(self.count + other.count, self.of + other.of)

    def result(self) -> Rate:
        return wilson_rate(self.count, self.of)


@dataclass(frozen=True)
class MeanTally:
    """A mean with its standard error, from n, the sum and the sum of squares."""

    n: int
    total: float
    squares: float

    def __add__(self, other: MeanTally) -> MeanTally:
        return MeanTally(self.n + other.n, self.total + other.total, self.squares + other.squares)

    def result(self) -> Mean:
        if self.n == 0:
            return Mean(float("nan"), float("nan"))
        m = self.total / self.n
        if self.n == 1:
            return Mean(m, float("nan"))
        var = max(self.squares - self.n * m * m, 0.0) / (self.n - 1)
        return Mean(m, math.sqrt(var / self.n))


@dataclass(frozen=True)
class RatioTally:
    """A rate over several trials per unit (x successes of y trials in each unit: tricks in a game, hands in
    a match, help requests in a game of Frank's Zoo): the unit is the independent one, so the interval is
    the ratio estimate's (delta method), the one `stats.estimate` gives a `Measure` with a denominator:
    normal on the units' totals. As there, a rate whose every unit holds at most one trial (`single`) is a
    rate of independent trials and gets Wilson's interval. A rate of 0 or 1 has no spread to go by: it gets
    Wilson's interval over the units that hold a trial (`held`), each counted as one trial."""

    n: int
    x: float
    y: float
    xx: float
    yy: float
    xy: float
    held: int = 0
    single: bool = False

    def __add__(self, other: RatioTally) -> RatioTally:
        n, x, y, xx, yy, xy, held = (a + b for a, b in zip(self._sums(), other._sums()))
        return type(self)(n, x, y, xx, yy, xy, held, self.single and other.single)

    def _sums(self) -> tuple:
        return self.n, self.x, self.y, self.xx, self.yy, self.xy, self.held

    def _ratio_se(self) -> tuple[float, float]:
        """The ratio sum(x) / sum(y) and its standard error over the units (nan without two units)."""
        r = self.x / self.y
        if self.n < 2:
            return r, float("nan")
        ybar = self.y / self.n
        # influence z_i = (x_i - r y_i) / ybar has mean 0; its variance from the sums
        var = max(self.xx - 2 * r * self.xy + r * r * self.yy, 0.0) / (ybar * ybar * (self.n - 1))
        return r, math.sqrt(var / self.n)

    def result(self) -> Rate:
        if self.y == 0:
            return Rate(int(self.x), int(self.y), float("nan"), float("nan"), float("nan"))
        if self.single:
            return wilson_rate(round(self.x), round(self.y))
        r, se = self._ratio_se()
        if r in (0.0, 1.0):
            lo, hi = wilson(r * self.held, self.held)
            return Rate(round(self.x), round(self.y), r, lo, hi)
        if not math.isfinite(se):
            return Rate(round(self.x), round(self.y), r, float("nan"), float("nan"))
        return Rate(round(self.x), round(self.y), r, max(0.0, r - Z95 * se), min(1.0, r + Z95 * se))


@dataclass(frozen=True)
class UnitMeanTally(RatioTally):
    """A mean over values grouped in units (x the sum of a unit's values, y how many it holds: player-hands
    of one hand or one game, hands of one match): the unit is the independent one, so the standard error is
    the ratio estimate's over the units, as for `RatioTally`. When every unit holds at most one value
    (`single`), it is the plain mean's (`MeanTally`): then xx is the sum of the values' squares."""

    def result(self) -> Mean:  # type: ignore[override]
        if self.y == 0:
            return Mean(float("nan"), float("nan"))
        if self.single:
            return MeanTally(round(self.y), self.x, self.xx).result()
        return Mean(*self._ratio_se())


TALLIES = (RateTally, MeanTally, RatioTally)


def units_of(table: Any) -> np.ndarray:
    """The independent unit of each row of a per-deal table, as codes 0..k-1: its match in a match run (the
    table then holds `match`), else its deal (several rows share a deal where the table has one row per
    player and deal)."""
    import pandas as pd

    key = "match" if "match" in table.columns else "deal"
    return pd.factorize(np.asarray(table[key]))[0]


def _per_unit(units: Any, *columns: Any) -> tuple[np.ndarray, ...]:
    """Each column summed per unit (`units`: codes 0..k-1, one per row), over the units that occur."""
    at = np.asarray(units, dtype=np.intp)
    held = np.bincount(at) > 0
    sums = (np.bincount(at, weights=np.asarray(c, dtype=float), minlength=len(held)) for c in columns)
    return tuple(s[held] for s in sums)


def rate(successes: Any, trials: Any, units: Any = None) -> RateTally | RatioTally:
    """A rate: with `units` (the unit of each row, `units_of`), `successes` and `trials` are per row and
    the tally is over units (`RatioTally`); without, they are the totals of independent trials."""
    if units is None:
        return RateTally(int(successes), int(trials))
    x, y = _per_unit(units, successes, trials)
    tally = ratio(x, y)
    return dataclasses.replace(tally, single=bool(np.all(y <= 1)))


def mean(values: Any, units: Any = None) -> MeanTally | UnitMeanTally:
    """A mean of `values`; with `units` (the unit of each value), with the units as the independent ones
    (`UnitMeanTally`)."""
    v = np.asarray(values, dtype=float)
    if units is None:
        return MeanTally(len(v), float(v.sum()), float((v * v).sum()))
    x, y = _per_unit(units, v, np.ones(len(v)))
    t = ratio(x, y)
    return UnitMeanTally(t.n, t.x, t.y, t.xx, t.yy, t.xy, t.held, single=bool(np.all(y <= 1)))


def ratio(successes: Any, trials: Any) -> RatioTally:
    """A rate of x successes of y trials per unit, one entry per unit."""
    x, y = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    return RatioTally(
        len(x),
        float(x.sum()),
        float(y.sum()),
        float((x * x).sum()),
        float((y * y).sum()),
        float((x * y).sum()),
        int((y > 0).sum()),
    )


def merge(a: Any, b: Any) -> Any:
    """Two partial summaries of the same shape as one: tallies and counts add; dicts merge key by key; lists
    of items merge by each item's key (its first plain entry, e.g. `bid` or `stage`), numeric keys in
    order."""
    if isinstance(a, TALLIES):
        return a + b
    if isinstance(a, dict):
        return {k: merge(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in {**a, **b}}
    if isinstance(a, list):
        keyed_a, keyed_b = dict(_keyed(a)), dict(_keyed(b))
        keys = list(dict.fromkeys([*keyed_a, *keyed_b]))
        if all(isinstance(k[1], (int, float)) for k in keys):
            keys.sort(key=lambda k: k[1])
        out = []
        for key in keys:
            if key in keyed_a and key in keyed_b:
                out.append({key[0]: key[1], **merge(keyed_a[key], keyed_b[key])})
            else:
                out.append({key[0]: key[1], **(keyed_a.get(key) or keyed_b[key])})
        return out
    if isinstance(a, (int, float, np.integer, np.floating)) and not isinstance(a, bool):
        return a + b  # plain numbers in a summary are counts
    raise TypeError(f"cannot merge {type(a).__name__} in a summary")


def _keyed(items: list[dict]) -> list[tuple[tuple[str, Any], dict]]:
    """Each item as ((key name, key value), the rest)."""
    out = []
    for item in items:
        name = next(k for k, v in item.items() if not isinstance(v, (*TALLIES, dict, list)))
        out.append(((name, item[name]), {k: v for k, v in item.items() if k != name}))
    return out


def finish(partial: Any) -> Any:
    """Every tally of a (merged) partial summary as its result."""
    if isinstance(partial, TALLIES):
        return partial.result()
    if isinstance(partial, dict):
        return {k: finish(v) for k, v in partial.items()}
    if isinstance(partial, list):
        return [finish(v) for v in partial]
    return partial
