"""Intervals and paired estimates."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.stats import (
    Difference,
    Estimate,
    Mean,
    Measure,
    Rate,
    estimate,
    mean,
    mean_se,
    paired,
    rate,
    wilson,
)


@pytest.mark.parametrize(
    "k,n,lo,hi",
    [
        (0, 10, 0.0, 0.27753),
        (5, 10, 0.23659, 0.76341),
        (10, 10, 0.72247, 1.0),
        (81, 263, 0.25529, 0.36621),
        (1, 1000, 0.00018, 0.00564),
    ],
)
def test_wilson_against_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=1e-5) and got[1] == pytest.approx(hi, abs=1e-5)


def test_wilson_is_exact_at_the_ends() -> None:
    lo, hi = wilson(np.array([0, 7]), np.array([7, 7]))
    assert lo[0] == 0 and hi[1] == 1 and lo[1] > 0 and hi[0] < 1


def test_wilson_without_trials_is_undefined() -> None:
    assert np.isnan(wilson(0, 0)).all()


def test_mean_se() -> None:
    assert mean_se([1, 2, 3, 4]) == pytest.approx((2.5, np.std([1, 2, 3, 4], ddof=1) / 2))


def test_rate_and_mean_are_typed_results() -> None:
    r = rate(81, 263)
    assert isinstance(r, Rate) and (r.count, r.of) == (81, 263)
    assert r.rate == r.value == pytest.approx(81 / 263)
    assert (r.lo, r.hi) == pytest.approx(wilson(81, 263))
    assert r.as_dict() == {"count": 81, "of": 263, "rate": r.rate, "lo": r.lo, "hi": r.hi}
    empty = rate(0, 0)
    assert (empty.count, empty.of) == (0, 0) and np.isnan(empty.rate) and np.isnan(empty.lo)
    m = mean([1, 2, 3, 4])
    assert isinstance(m, Mean) and (m.mean, m.se) == pytest.approx(mean_se([1, 2, 3, 4]))
    assert m.value == m.mean and m.lo < m.mean < m.hi


def test_a_rate_of_independent_trials_uses_wilson_and_a_ratio_the_normal_interval() -> None:
    r = estimate(Measure("r", np.array([1, 0, 1, 1, 0, 0, 0, 1, 1, 1.0]), binary=True))
    assert isinstance(r, Estimate) and r.deals == 10
    assert (r.lo, r.hi) == pytest.approx(tuple(wilson(6, 10)))
    num, den = np.array([2, 0, 3, 1.0]), np.array([3, 1, 4, 2.0])
    ratio = estimate(Measure("q", num, den, binary=True))
    assert ratio.value == pytest.approx(6 / 10)
    z = (num - 0.6 * den) / den.mean()
    assert ratio.se == pytest.approx(z.std(ddof=1) / 2)
    assert (ratio.lo, ratio.hi) == pytest.approx(
        (0.6 - 1.959963984540054 * ratio.se, 0.6 + 1.959963984540054 * ratio.se)
    )


def test_pairing_an_arm_with_itself_is_exactly_zero() -> None:
    rng = np.random.default_rng(0)
    m = Measure("m", rng.normal(size=500), rng.integers(1, 4, 500))
    p = paired(m, m)
    assert isinstance(p, Difference) and p.deals == 500 and p.a == p.b
    assert p.diff == 0 and p.se == 0 and p.lo == 0 and p.hi == 0


def test_pairing_narrows_the_interval_when_arms_share_noise() -> None:
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 10, 4000)
    a, b = Measure("a", noise + 1 + rng.normal(0, 1, 4000)), Measure("b", noise + rng.normal(0, 1, 4000))
    p = paired(a, b)
    assert p.lo < 1 < p.hi
    assert p.narrowing > 5
    assert p.narrowing == pytest.approx(p.se_independent / p.se)


def test_pairing_needs_the_same_deals() -> None:
    with pytest.raises(ValueError, match="same deals"):
        paired(Measure("m", np.ones(3)), Measure("m", np.ones(4)))


def test_results_read_as_text() -> None:
    from simulator.stats import Difference, Estimate, Mean, rate

    assert str(rate(1032, 1491)) == "69.2% [66.8%, 71.5%] (1,032 of 1,491)"
    assert str(rate(0, 0)) == "- [-, -] (0 of 0)"
    assert str(Mean(2.0, 0.5)) == "2.00 [1.02, 2.98]"
    assert str(Estimate(1.5, 1.0, 2.0, 0.25, 400)) == "1.50 [1.00, 2.00] over 400"
    d = Difference(a=1.0, b=0.5, diff=0.5, lo=0.1, hi=0.9, se=0.2, se_independent=0.3, narrowing=1.5, deals=9)
    assert str(d) == "+0.50 [+0.10, +0.90] (1.00 - 0.50)"


def test_student_t_quantiles_match_the_tables() -> None:
    from simulator.stats import t_quantile

    table = {1: 12.7062047, 2: 4.3026527, 5: 2.5705818, 10: 2.2281389, 30: 2.0422725, 120: 1.9799304}
    for df, value in table.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-6)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959966, abs=1e-6)
    assert t_quantile(0.975, 0) == float("inf")
