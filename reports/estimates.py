"""Estimates over deals, alone or paired across two arms played on the same deals.

A `Measure` holds one number per deal (the run's unit: a hand, or a whole game): a plain mean of `num`,
or a ratio sum(num) / sum(den) when some deals count more than others (contract success: made contracts
over contracts, where a thrown-in hand has den 0 and a game has as many as it held). Standard errors of
ratios come from the linearisation z_i = (num_i - r den_i) / mean(den), which treats the deal as the
independent unit (hands of one game are not independent). Paired differences use the per-deal
difference of z between arms: on common deals most of the deal-to-deal noise cancels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reports.stats import Z95, wilson


@dataclass(frozen=True)
class Measure:
    name: str
    num: np.ndarray
    den: np.ndarray | None = None
    binary: bool = False  # num counts successes among den (or is 0/1 per deal): a rate

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


def estimate(m: Measure) -> dict[str, float]:
    """Value with its 95% interval: Wilson for a rate of independent trials, normal otherwise."""
    value, se = m.value(), _se(m.influence())
    if m.binary and (m.den is None or np.all((m.den == 0) | (m.den == 1))):
        trials = m.n if m.den is None else int(m.den.sum())
        lo, hi = wilson(m.num.sum(), trials)
    else:
        lo, hi = value - Z95 * se, value + Z95 * se
    return {"value": value, "lo": float(lo), "hi": float(hi), "se": se, "deals": m.n}


def paired(a: Measure, b: Measure) -> dict[str, float]:
    """a - b on the same deals: the difference, its paired 95% interval, and the standard error the same
    comparison would have had on independent deals (`narrowing` = independent / paired)."""
    if a.n != b.n:
        raise ValueError(f"{a.name}: arms cover {a.n} and {b.n} deals; pairing needs the same deals")
    za, zb = a.influence(), b.influence()
    diff = a.value() - b.value()
    se = _se(za - zb)
    se_ind = float(np.sqrt(za.var(ddof=1) / a.n + zb.var(ddof=1) / b.n)) if a.n > 1 else float("nan")
    return {"a": a.value(), "b": b.value(), "diff": diff, "lo": diff - Z95 * se, "hi": diff + Z95 * se,
            "se": se, "se_independent": se_ind,
            "narrowing": se_ind / se if se > 0 else float("inf") if se_ind > 0 else float("nan"),
            "deals": a.n}
