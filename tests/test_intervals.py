"""Honest intervals: an undefined interval is never a clear difference, and a paired 0/1 rate with few
deals that differ gets Newcombe's interval."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from simulator.experiments import Comparison
from simulator.stats import (
    FEW_DISCORDANT,
    Z95,
    Difference,
    Estimate,
    Measure,
    excludes_zero,
    paired,
    paired_rates_interval,
    undefined,
    wilson,
)

NAN = float("nan")


def _difference(diff: float, lo: float, hi: float) -> Difference:
    return Difference(NAN, NAN, diff, lo, hi, se=NAN, se_independent=NAN, narrowing=NAN, deals=9)


def test_an_undefined_interval_is_never_clear() -> None:
    for lo, hi in [(NAN, NAN), (NAN, 1.0), (-1.0, NAN), (float("inf"), float("inf"))]:
        assert undefined(lo, hi) and not excludes_zero(lo, hi)
        assert _difference(NAN, lo, hi).undefined and not _difference(NAN, lo, hi).clear
        assert Estimate(NAN, lo, hi, NAN, 0).undefined and not Estimate(NAN, lo, hi, NAN, 0).clear
    assert excludes_zero(0.1, 0.2) and excludes_zero(-0.2, -0.1) and not excludes_zero(-0.1, 0.1)
    assert not excludes_zero(0.0, 0.2) and not undefined(0.0, 0.2)


def _comparison(*differences: Difference) -> Comparison:
    arm = SimpleNamespace(game=SimpleNamespace(words={"deal": "hand", "match": "game"}), unit="deal")
    names = [f"m{i}" for i in range(len(differences))]
    return Comparison(arm, arm, "N-S", names, list(differences), 0.0, frozenset(names))  # type: ignore[arg-type]


def test_findings_call_an_interval_without_cases_undefined() -> None:
    (line,) = _comparison(_difference(NAN, NAN, NAN)).findings()
    assert line == "m0: no data in arm A, no data in arm B; A - B is undefined (no cases)."
    assert "clear" not in line


def test_findings_tell_clear_from_unclear_and_from_no_difference() -> None:
    clear, unclear, same = _comparison(
        _difference(-0.03, -0.05, -0.01), _difference(0.01, -0.01, 0.03), _difference(0.0, 0.0, 0.0)
    ).findings()
    assert clear.endswith("a clear difference.")
    assert unclear.endswith("cannot be told apart from no difference.")
    assert same.endswith("no hand differs.")


def _arms(up: int, down: int, both: int, n: int) -> tuple[Measure, Measure]:
    """0/1 outcomes on n deals: `up` 1 in A only, `down` 1 in B only, `both` 1 in both."""
    a, b = np.zeros(n), np.zeros(n)
    a[:up] = 1
    b[up : up + down] = 1
    a[up + down : up + down + both] = b[up + down : up + down + both] = 1
    return Measure("r", a, binary=True), Measure("r", b, np.ones(n), binary=True)


def test_four_discordant_deals_all_one_way_are_not_a_clear_difference() -> None:
    # 150 hands, 4 thrown in only in arm B, 6 in both: the normal interval excluded 0 though the exact sign
    # test gives p = 0.125; Newcombe's interval, worked by hand:
    # p1 = 6/150, p2 = 10/150, Wilson [l1, u1] of 6/150, [l2, u2] of 10/150,
    # ad - bc = 6 * 140 = 840 > n/2, so phi = (840 - 75) / sqrt(6 * 144 * 10 * 140)
    d = paired(*_arms(0, 4, 6, 150))
    assert d.diff == pytest.approx(-4 / 150)
    p1, p2 = 6 / 150, 10 / 150
    (l1, u1), (l2, u2) = wilson(6, 150), wilson(10, 150)
    phi = 765 / np.sqrt(6 * 144 * 10 * 140)
    lo = p1 - p2 - np.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    hi = p1 - p2 + np.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    assert (d.lo, d.hi) == pytest.approx((lo, hi), abs=1e-12)
    assert (d.lo, d.hi) == pytest.approx((-0.0665079, 0.0053273), abs=1e-7)
    assert not d.clear and d.lo < d.diff < 0 < d.hi
    assert d.diff - Z95 * d.se < d.diff + Z95 * d.se < 0  # what the normal interval said


def test_ten_discordant_deals_get_newcombes_interval() -> None:
    # 2 up, 8 down, 20 both, 70 neither of 100: ad - bc = 1400 - 16 = 1384 > n/2, phi = 1334 / sqrt(...)
    d = paired(*_arms(2, 8, 20, 100))
    assert (d.lo, d.hi) == pytest.approx(paired_rates_interval(20, 2, 8, 70))
    assert (d.lo, d.hi) == pytest.approx((-0.1261455, 0.0046424), abs=1e-7)
    # 36 both, 12 up, 2 down, 0 neither: ad - bc = -24 < 0 enters phi unshrunk
    assert paired_rates_interval(36, 12, 2, 0) == pytest.approx((0.0569296, 0.3404276), abs=1e-7)


def test_no_discordant_deal_is_exactly_no_difference() -> None:
    d = paired(*_arms(0, 0, 30, 100))
    assert d.diff == d.lo == d.hi == 0 and d.same and not d.clear


def test_many_discordant_deals_keep_the_normal_interval() -> None:
    d = paired(*_arms(FEW_DISCORDANT, 10, 5, 400))
    assert (d.lo, d.hi) == pytest.approx((d.diff - Z95 * d.se, d.diff + Z95 * d.se))


def test_the_bid_advice_never_calls_an_undefined_gap_clearly_ahead() -> None:
    from simulator.fortytwo.analyze import render

    row = {"trump": 6, "bid": 30, "p_make": 0.5, "lo": 0.4, "hi": 0.6, "score_diff": 1.0}
    row["score_diff_se"] = 0.5
    frame = pd.DataFrame([row])
    advice = {"best_trump": 6, "runner_up": 5, "bid": 30, "gap": NAN, "gap_lo": NAN, "gap_hi": NAN}
    advice |= {"best_set": [], "bid_up_to": {6: None}, "bid_up_to_point": {6: 30}}  # best set undefined
    line = render(frame, advice, "hand", "N", 10)[-1]
    assert "best trump undefined (no cases" in line and "clearly:" not in line


def test_study_verdicts_call_an_undefined_difference_undefined() -> None:
    from reports import help_value, sweep_value

    row = pd.Series({"diff": NAN, "difference": NAN, "lo": NAN, "hi": NAN})
    assert sweep_value._verdict(row) == "undefined (no cases)"
    assert help_value._verdict(row, "points").endswith("undefined (no cases)")


def test_a_margin_says_which_measures_are_shown_within_it() -> None:
    # se 0.1: the 90% interval is diff ± 0.1645
    near = Difference(1.0, 0.9, 0.1, 0.1 - Z95 * 0.1, 0.1 + Z95 * 0.1, 0.1, 0.2, 2.0, 400)
    far = Difference(1.0, 0.6, 0.4, 0.4 - Z95 * 0.1, 0.4 + Z95 * 0.1, 0.1, 0.2, 2.0, 400)
    comparison = _comparison(near, far, _difference(NAN, NAN, NAN), _difference(0.0, 0.0, 0.0))
    comparison = dataclasses.replace(comparison, rates=frozenset(), margin=0.5)
    inside, outside, nothing, same = comparison.findings()
    assert inside.endswith(
        "cannot be told apart from no difference; within ±0.5 points of each other "
        "(90% interval [-0.06, +0.26])."
    )
    assert outside.endswith(
        "a clear difference; not shown to be within ±0.5 points (90% interval [+0.24, +0.56])."
    )
    assert nothing.endswith("undefined (no cases).")
    assert same.endswith("no hand differs; within ±0.5 points of each other (90% interval [+0.00, +0.00]).")
    rate = dataclasses.replace(comparison, rates=frozenset({"m0"}), margin=0.5)
    assert rate.findings()[0].endswith(
        "not shown to be within ±0.5 percentage points (90% interval [-6.4, +26.4] pp)."
    )


def test_compare_takes_a_margin_and_records_it(tmp_path) -> None:
    from tests.cli_helpers import run_cli

    args = ["compare", "rounds", "--vs", "0=heuristic:duck=false", "-n", "200", "--chunk-size", "100"]
    code, out, err = run_cli(*args, "-j", "1", "--margin", "0.5", "-o", tmp_path / "c")
    assert code == 0, err
    findings = [line for line in out.splitlines() if line.startswith("player 0 margin per game:")]
    assert findings and (
        "within ±0.5 points of each other (90% interval" in findings[0] or "not shown" in findings[0]
    )
    assert "--margin 0.5" in (tmp_path / "c" / "report.html").read_text()


def test_a_margin_on_newcombes_interval_takes_the_95_interval() -> None:
    d = paired(*_arms(0, 4, 6, 150))  # [-6.7, +0.5] pp, se about 1.3 pp
    comparison = dataclasses.replace(_comparison(d), margin=8.0)
    assert comparison.findings()[0].endswith(
        "within ±8 percentage points of each other (95% interval [-6.7, +0.5] pp)."
    )
