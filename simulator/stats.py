"""Statistics as typed results: rates with Wilson intervals, means with standard errors, per-deal measures
and their estimates, alone or paired across two arms played on the same deals.

A `Measure` holds one number per deal (the run's unit: one dealt deal, or a whole match): a plain mean of
`num`, or a ratio sum(num) / sum(den) when some deals count more than others (contract success: made contracts
over contracts, where a thrown-in hand has den 0 and a game has as many as it held). Standard errors of ratios
come from the linearisation z_i = (num_i - r den_i) / mean(den), which treats the deal as the independent unit
(hands of one game are not independent): a ratio estimator over clusters. Paired differences use the per-deal
difference of z between arms: on common deals most of the deal-to-deal noise cancels. A rate that is 0 or 1
per deal in both arms, with fewer than `FEW_DISCORDANT` deals whose outcome differs between the arms, gets
Newcombe's hybrid score interval instead (`paired_rates_interval`): with so few the normal one is too narrow.

An interval is *clear* when it excludes zero and *undefined* when a bound is not finite (no cases, or too
few deals for a spread); an undefined interval is never clear (`excludes_zero`, `undefined`, and the
`clear` and `undefined` properties of estimates and differences).

Every result is a frozen dataclass; `as_dict` gives its fields for JSON and tables.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

Z95 = 1.959963984540054
Z90 = 1.6448536269514722  # two one-sided tests at 5% (equivalence) use the 90% interval
FEW_DISCORDANT = 30  # below this many discordant deals a paired 0/1 rate gets Newcombe's interval


def undefined(lo: float, hi: float) -> bool:
    """Whether an interval is undefined: a bound is not finite (no cases, or too few deals for a spread)."""
    return not (math.isfinite(lo) and math.isfinite(hi))


def excludes_zero(lo: float, hi: float) -> bool:
    """Whether an interval is defined and excludes zero: the one test of "a clear difference"."""
    return not undefined(lo, hi) and (lo > 0 or hi < 0)


def wilson(successes, trials, z: float = Z95) -> tuple[Any, Any]:
    """Wilson score interval for a binomial rate; (nan, nan) where there are no trials. Works elementwise."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact at the ends (rounding leaves 1e-17 there); undefined without trials
    lo = np.where((k == 0) & (n > 0), 0.0, np.clip(centre - half, 0, 1))
    hi = np.where((k == n) & (n > 0), 1.0, np.clip(centre + half, 0, 1))
    return (lo, hi) if lo.ndim else (float(lo), float(hi))


def t_two_sided(df: int) -> Callable[[float], float]:
    """P(|T| < t) for Student's t with `df` (>= 1, whole) degrees of freedom, as a function of t: the
    closed form for whole degrees of freedom (a finite series in cos^2 of atan(t / sqrt(df)))."""

    def inside(t: float) -> float:
        theta = math.atan(t / math.sqrt(df))
        c2 = math.cos(theta) ** 2
        term, total = 1.0, 1.0
        if df % 2:  # odd: (2 / pi) (theta + sin cos (1 + 2/3 c2 + 2*4/(3*5) c2^2 + ...))
            if df == 1:
                return 2 * theta / math.pi
            for k in range(1, (df - 1) // 2):
                term *= c2 * (2 * k) / (2 * k + 1)
                total += term
            return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
        for k in range(1, df // 2):  # even: sin (1 + 1/2 c2 + 1*3/(2*4) c2^2 + ...)
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return math.sin(theta) * total

    return inside


def t_quantile(p: float, df: int) -> float:
    """The p quantile (p > 1/2) of Student's t with `df` degrees of freedom (inf below one): bisection on the
    closed-form distribution for up to 1,000 degrees of freedom, the Cornish-Fisher expansion in 1 / df
    above (where it agrees with the exact value to better than 1e-9)."""
    if df < 1:
        return math.inf
    z = NormalDist().inv_cdf(p)
    if df > 1000:
        v = float(df)
        return (
            z
            + (z**3 + z) / (4 * v)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        )
    inside = t_two_sided(df)
    want = 2 * p - 1
    lo, hi = 0.0, 1.0
    while inside(hi) < want:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if inside(mid) < want:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2


def mean_se(values) -> tuple[float, float]:
    """Mean and its standard error (nan for fewer than two values)."""
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return float("nan"), float("nan")
    se = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
    return float(v.mean()), se


class Result:
    """Shared behaviour of the typed results: `as_dict()` for JSON, `str()` (and a notebook's display) for
    people, the dataclass repr for debugging."""

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython and Jupyter show the text form
        printer.text(str(self))


class Interval:
    """The verdicts of a result with a 95% interval `lo`, `hi`: `undefined` when a bound is not finite,
    `clear` when it is defined and excludes zero (never both)."""

    lo: float
    hi: float

    @property
    def undefined(self) -> bool:
        return undefined(self.lo, self.hi)

    @property
    def clear(self) -> bool:
        return excludes_zero(self.lo, self.hi)


def _num(x: float, sign: str = "") -> str:
    return "-" if not np.isfinite(x) else f"{x:{sign}.2f}"


def _pct(x: float) -> str:
    return "-" if not np.isfinite(x) else f"{100 * x:.1f}%"


@dataclass(frozen=True)
class Rate(Result):
    """`count` successes of `of` trials, with a 95% interval (Wilson, or from the deals' spread where a deal
    holds several trials: `tallies.RatioTally`)."""

    count: int
    of: int
    rate: float
    lo: float
    hi: float

    @property
    def value(self) -> float:
        return self.rate

    def __str__(self) -> str:
        return f"{_pct(self.rate)} [{_pct(self.lo)}, {_pct(self.hi)}] ({self.count:,} of {self.of:,})"


@dataclass(frozen=True)
class Mean(Result):
    """A mean with its standard error."""

    mean: float
    se: float

    @property
    def value(self) -> float:
        return self.mean

    @property
    def lo(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def hi(self) -> float:
        return self.mean + Z95 * self.se

    def __str__(self) -> str:
        return f"{_num(self.mean)} [{_num(self.lo)}, {_num(self.hi)}]"


@dataclass(frozen=True)
class Estimate(Result, Interval):
    """A measure's value over a run's deals with its 95% interval."""

    value: float
    lo: float
    hi: float
    se: float
    deals: int

    def __str__(self) -> str:
        return f"{_num(self.value)} [{_num(self.lo)}, {_num(self.hi)}] over {self.deals:,}"


@dataclass(frozen=True)
class Difference(Result, Interval):
    """a - b on the same deals, with its paired 95% interval; `se_independent` is the standard error the
    same comparison would have had on independent deals, `narrowing` = se_independent / se. Arms that agree
    on every deal have diff 0 and the interval [0, 0] (`same`)."""

    a: float
    b: float
    diff: float
    lo: float
    hi: float
    se: float
    se_independent: float
    narrowing: float
    deals: int

    @property
    def same(self) -> bool:
        """Whether the arms agree on every deal: nothing differs, so neither does the interval."""
        return self.diff == self.lo == self.hi == 0

    def __str__(self) -> str:
        interval = f"[{_num(self.lo, '+')}, {_num(self.hi, '+')}]"
        return f"{_num(self.diff, '+')} {interval} ({_num(self.a)} - {_num(self.b)})"


def rate(successes: int, trials: int) -> Rate:
    lo, hi = wilson(successes, trials)
    return Rate(
        int(successes),
        int(trials),
        float(successes / trials) if trials else float("nan"),
        float(lo),
        float(hi),
    )


def mean(values) -> Mean:
    return Mean(*mean_se(values))


@dataclass(frozen=True)
class Measure:
    name: str
    num: np.ndarray
    den: np.ndarray | None = None
    binary: bool = False  # num counts successes among den (or is 0/1 per deal): a rate
    better: str | None = None  # "higher" or "lower" when one direction is better for the side measured

    def __post_init__(self) -> None:
        object.__setattr__(self, "num", np.asarray(self.num, dtype=float))
        if self.den is not None:
            object.__setattr__(self, "den", np.asarray(self.den, dtype=float))

    @property
    def n(self) -> int:
        return len(self.num)

    def value(self) -> float:
        if self.den is None:
            return float(self.num.mean()) if self.n else float("nan")
        total = self.den.sum()
        return float(self.num.sum() / total) if total else float("nan")

    def influence(self) -> np.ndarray:
        """Per-deal contributions whose mean is 0 and whose spread gives the standard error."""
        r = self.value()
        if self.den is None:
            return self.num - r
        scale = self.den.mean()
        return (self.num - r * self.den) / scale if scale else np.zeros(self.n)


def _se(z: np.ndarray) -> float:
    return float(z.std(ddof=1) / np.sqrt(len(z))) if len(z) > 1 else float("nan")


def estimate(m: Measure) -> Estimate:
    """Value with its 95% interval: Wilson for a rate of independent trials (at most one per deal), normal
    otherwise, the deal as the independent unit (a rate over deals of several trials: normal on the deals'
    totals). A rate of several trials per deal that is 0 or 1 has no spread to go by: Wilson's interval over
    the deals holding a trial, each counted as one trial."""
    value, se = m.value(), _se(m.influence())
    if m.binary and (m.den is None or np.all((m.den == 0) | (m.den == 1))):
        trials = m.n if m.den is None else int(m.den.sum())
        lo, hi = wilson(m.num.sum(), trials)
    elif m.binary and m.den is not None and value in (0.0, 1.0):
        held = int(np.sum(m.den > 0))
        lo, hi = wilson(value * held, held)
    else:
        lo, hi = value - Z95 * se, value + Z95 * se
    return Estimate(value, float(lo), float(hi), se, m.n)


def paired_rates_interval(both: int, up: int, down: int, neither: int) -> tuple[float, float]:
    """Newcombe's hybrid score 95% interval for a difference of paired 0/1 rates (Newcombe 1998, method 10)
    over the deals of a paired 2 x 2 table: `both` 1 in both arms, `up` 1 in arm A only, `down` 1 in arm B
    only, `neither`. With p1, p2 the two arms' rates and [l1, u1], [l2, u2] their Wilson intervals,

        lo = (p1 - p2) - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)
        hi = (p1 - p2) + sqrt((p2 - l2)^2 - 2 phi (p2 - l2)(u1 - p1) + (u1 - p1)^2)

    where phi is the correlation of the pair, (both neither - up down) / sqrt of the product of the four
    margins, its numerator brought toward 0 by n / 2 when positive (0 when it is within n / 2, and 0 when
    a margin is empty), as in Altman et al., Statistics with Confidence (2000). It stays inside [-1, 1] and
    keeps its coverage with a handful of discordant deals, where the normal interval is too narrow. No
    discordant deal (up = down = 0): the arms agree on every deal and the interval is [0, 0]."""
    if up == down == 0:
        return 0.0, 0.0
    n = both + up + down + neither
    p1, p2 = (both + up) / n, (both + down) / n
    l1, u1 = wilson(both + up, n)
    l2, u2 = wilson(both + down, n)
    margins = (both + up) * (down + neither) * (both + down) * (up + neither)
    cross = both * neither - up * down
    shrunk = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = shrunk / math.sqrt(margins) if margins else 0.0
    below = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    above = math.sqrt(max((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
    return max(p1 - p2 - below, -1.0), min(p1 - p2 + above, 1.0)


def _zero_one(m: Measure) -> bool:
    """Whether the measure is a rate of one 0/1 outcome per deal."""
    return (
        m.binary and (m.den is None or bool(np.all(m.den == 1))) and bool(np.all((m.num == 0) | (m.num == 1)))
    )


def paired(a: Measure, b: Measure) -> Difference:
    """a - b on the same deals: the difference, its paired 95% interval, and the standard error the same
    comparison would have had on independent deals. The interval is normal on the per-deal differences,
    except for a rate of one 0/1 outcome per deal in both arms with fewer than `FEW_DISCORDANT` deals where
    the arms differ: then it is Newcombe's hybrid score interval (`paired_rates_interval`), and [0, 0]
    when no deal differs."""
    if a.n != b.n:
        raise ValueError(f"{a.name}: arms cover {a.n} and {b.n} deals; pairing needs the same deals")
    za, zb = a.influence(), b.influence()
    diff = a.value() - b.value()
    se = _se(za - zb)
    se_ind = float(np.sqrt(za.var(ddof=1) / a.n + zb.var(ddof=1) / b.n)) if a.n > 1 else float("nan")
    narrowing = se_ind / se if se > 0 else float("inf") if se_ind > 0 else float("nan")
    lo, hi = diff - Z95 * se, diff + Z95 * se
    if a.n and _zero_one(a) and _zero_one(b):
        up = int(np.sum((a.num == 1) & (b.num == 0)))
        down = int(np.sum((a.num == 0) & (b.num == 1)))
        if up + down < FEW_DISCORDANT:
            both = int(np.sum((a.num == 1) & (b.num == 1)))
            lo, hi = paired_rates_interval(both, up, down, a.n - both - up - down)
    return Difference(a.value(), b.value(), diff, float(lo), float(hi), se, se_ind, narrowing, a.n)


def paired_average(first: tuple[Measure, Measure], second: tuple[Measure, Measure]) -> Difference:
    """The mean of two paired differences on the same deals, (a1 - b1 + a2 - b2) / 2, deal by deal: the
    estimate of seat-rotated deals (`a2`, `b2` are the arms with the seats turned, measured for the seats the
    change moved to). `a` and `b` are the means of the two pairs' values. Its interval is normal on the
    per-deal means of the two differences of linearised values (averaged, a 0/1 rate is no longer 0/1, so
    Newcombe's interval does not apply); `se_independent` is what the same estimate would have had with all
    four arms on independent deals. Pairs that agree on every deal give 0 with the interval [0, 0]."""
    (a1, b1), (a2, b2) = first, second
    return _two_pairs(first, second, (0.5, 0.5), (a1.value() + a2.value()) / 2, (b1.value() + b2.value()) / 2)


def paired_gap(first: tuple[Measure, Measure], second: tuple[Measure, Measure]) -> Difference:
    """How far two paired differences on the same deals are apart, (a1 - b1) - (a2 - b2), deal by deal, with
    a normal interval: whether a change does the same at the seats it moved to (`a` is a1 - b1, `b` is
    a2 - b2)."""
    (a1, b1), (a2, b2) = first, second
    return _two_pairs(first, second, (1.0, -1.0), a1.value() - b1.value(), a2.value() - b2.value())


def _two_pairs(
    first: tuple[Measure, Measure],
    second: tuple[Measure, Measure],
    weights: tuple[float, float],
    a: float,
    b: float,
) -> Difference:
    """w1 (a1 - b1) + w2 (a2 - b2) with its normal interval from the per-deal linearised values; `a`, `b`
    are what the Difference shows as its two sides."""
    (a1, b1), (a2, b2) = first, second
    if len({m.n for m in (a1, b1, a2, b2)}) > 1:
        raise ValueError(f"{a1.name}: the arms cover different deals; pairing needs the same deals")
    w1, w2 = weights
    z = [m.influence() for m in (a1, b1, a2, b2)]
    diff = w1 * (a1.value() - b1.value()) + w2 * (a2.value() - b2.value())
    se = _se(w1 * (z[0] - z[1]) + w2 * (z[2] - z[3]))
    n = a1.n
    se_ind = float("nan")
    if n > 1:
        var = [v.var(ddof=1) for v in z]
        se_ind = float(np.sqrt((w1 * w1 * (var[0] + var[1]) + w2 * w2 * (var[2] + var[3])) / n))
    narrowing = se_ind / se if se > 0 else float("inf") if se_ind > 0 else float("nan")
    return Difference(a, b, diff, diff - Z95 * se, diff + Z95 * se, se, se_ind, narrowing, n)


@dataclass(frozen=True)
class BestSet(Result):
    """Multiple comparisons with the best, from paired per-deal values: `members` are the settings that
    cannot be told apart from the best with simultaneous 95% confidence, the best point estimate first;
    `lead[i]` is the simultaneous lower bound of mu_i - max_{j != i} mu_j in the better direction (> 0 only
    for a setting clearly ahead of every other); `z` the one-sided critical value. `members` is empty when
    the comparison is undefined (a setting with no cases, or fewer than two deals)."""

    members: tuple[int, ...]
    lead: tuple[float, ...]
    z: float

    @property
    def defined(self) -> bool:
        return bool(self.members)


def best_set(measures: Sequence[Measure], higher: bool = True, alpha: float = 0.05) -> BestSet:
    """The settings that cannot be told apart from the best, all measured on the same deals.

    Method: Bonferroni-adjusted one-sided paired comparisons with the best (a conservative form of Hsu's
    constrained MCB). With k settings and z = the normal quantile at 1 - alpha / max(k - 1, 2), setting i
    leaves the set when, for some other setting j, the one-sided lower bound of the paired difference
    mu_j - mu_i (taken in the better direction), d_ji - z se_ji, is above 0; se_ji is the standard error
    of the per-deal difference of the linearised values (as `paired`). The true best is wrongly excluded
    only if one of its k - 1 comparisons, each with a true difference <= 0, errs at level alpha / (k - 1):
    so the set holds the best with probability >= 1 - alpha, whatever the other means. `lead[i]` is
    min_j (d_ij - z se_ij), the lower bound of how far i is ahead of every other. With two settings z is
    the two-sided quantile rather than the one-sided one: a setting called clearly best then never sits
    beside a paired two-sided 95% interval against the other that holds zero (the set is only more
    cautious so)."""
    k = len(measures)
    sign = 1.0 if higher else -1.0
    values = [sign * m.value() for m in measures]
    if k < 2 or any(m.n < 2 for m in measures) or not np.all(np.isfinite(values)):
        return BestSet((), tuple(float("nan") for _ in measures), float("nan"))
    if len({m.n for m in measures}) > 1:
        raise ValueError("best_set: the settings cover different deals; pairing needs the same deals")
    z = NormalDist().inv_cdf(1 - alpha / max(k - 1, 2))
    infl = [sign * m.influence() for m in measures]
    # bound[i][j]: lower bound of mu_i - mu_j in the better direction
    bound = np.full((k, k), np.inf)
    for i in range(k):
        for j in range(k):
            if i != j:
                bound[i, j] = values[i] - values[j] - z * _se(infl[i] - infl[j])
    if np.isnan(bound).any():
        return BestSet((), tuple(float("nan") for _ in measures), float("nan"))
    lead = bound.min(axis=1)
    ahead = np.where(np.eye(k, dtype=bool), -np.inf, bound)
    # i leaves the set when some j is clearly ahead of it: bound[j, i] > 0
    behind = [bool((ahead[:, i] > 0).any()) for i in range(k)]
    order = sorted(range(k), key=lambda i: -values[i])
    return BestSet(tuple(i for i in order if not behind[i]), tuple(float(x) for x in lead), float(z))
