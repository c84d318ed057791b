"""Summaries from per-chunk partial aggregates, so that a run's memory stays flat as it grows.

A game's `summarize(tables, unit)` returns a *partial* summary of the tables it is given (one chunk's): the
same nested dicts and lists as the finished summary, with tallies in place of results. A tally holds the
sums its figure needs (successes and trials; n, sum and sum of squares; the cross sums of a ratio), tallies
of the same figure add up across chunks (`merge`), and `finish` turns every tally into its `Rate` or `Mean`.
The finished numbers equal those computed from the whole table at once (up to float rounding).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.stats import Z95, Mean, Rate
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
    """A rate over several trials per deal (x successes of y trials in each deal, e.g. tricks in a game): the
    deal is the independent unit, so the interval is the ratio estimate's (delta method), the one
    `stats.estimate` gives a `Measure` with a denominator."""

    n: int
    x: float
    y: float
    xx: float
    yy: float
    xy: float

    def __add__(self, other: RatioTally) -> RatioTally:
        return RatioTally(*(a + b for a, b in zip(self._sums(), other._sums())))

    def _sums(self) -> tuple:
        return self.n, self.x, self.y, self.xx, self.yy, self.xy

    def result(self) -> Rate:
        if self.y == 0:
            return Rate(int(self.x), int(self.y), float("nan"), float("nan"), float("nan"))
        r = self.x / self.y
        if self.n < 2:
            return Rate(int(self.x), int(self.y), r, float("nan"), float("nan"))
        ybar = self.y / self.n
        # influence z_i = (x_i - r y_i) / ybar has mean 0; its variance from the sums
        var = max(self.xx - 2 * r * self.xy + r * r * self.yy, 0.0) / (ybar * ybar * (self.n - 1))
        se = math.sqrt(var / self.n)
        return Rate(round(self.x), round(self.y), r, max(0.0, r - Z95 * se), min(1.0, r + Z95 * se))


def rate(successes: int, trials: int) -> RateTally:
    return RateTally(int(successes), int(trials))


def mean(values: Any) -> MeanTally:
    v = np.asarray(values, dtype=float)
    return MeanTally(len(v), float(v.sum()), float((v * v).sum()))


def ratio(successes: Any, trials: Any) -> RatioTally:
    x, y = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    return RatioTally(
        len(x),
        float(x.sum()),
        float(y.sum()),
        float((x * x).sum()),
        float((y * y).sum()),
        float((x * y).sum()),
    )


def merge(a: Any, b: Any) -> Any:
    """Two partial summaries of the same shape as one: tallies and counts add; dicts merge key by key; lists
    of items merge by each item's key (its first plain entry, e.g. `bid` or `stage`), numeric keys in
    order."""
    if isinstance(a, (RateTally, MeanTally, RatioTally)):
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
        name = next(
            k for k, v in item.items() if not isinstance(v, (RateTally, MeanTally, RatioTally, dict, list))
        )
        out.append(((name, item[name]), {k: v for k, v in item.items() if k != name}))
    return out


def finish(partial: Any) -> Any:
    """Every tally of a (merged) partial summary as its result."""
    if isinstance(partial, (RateTally, MeanTally, RatioTally)):
        return partial.result()
    if isinstance(partial, dict):
        return {k: finish(v) for k, v in partial.items()}
    if isinstance(partial, list):
        return [finish(v) for v in partial]
    return partial
