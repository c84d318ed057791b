"""Interval estimates for rates and means."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial rate; (nan, nan) where there are no trials."""
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


def mean_se(values) -> tuple[float, float]:
    """Mean and its standard error (nan for fewer than two values)."""
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return float("nan"), float("nan")
    se = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
    return float(v.mean()), se
