"""Honest intervals: an undefined interval is never a clear difference."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from simulator.experiments import Comparison
from simulator.stats import (
    Difference,
    Estimate,
    excludes_zero,
    undefined,
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


def test_the_bid_advice_never_calls_an_undefined_gap_clearly_ahead() -> None:
    from simulator.fortytwo.analyze import render

    row = {"trump": 6, "bid": 30, "p_make": 0.5, "lo": 0.4, "hi": 0.6, "score_diff": 1.0}
    row["score_diff_se"] = 0.5
    frame = pd.DataFrame([row])
    advice = {"best_trump": 6, "runner_up": 5, "bid": 30, "gap": NAN, "gap_lo": NAN, "gap_hi": NAN}
    advice["bid_up_to"] = {6: 30}
    line = render(frame, advice, "hand", "N", 10)[-1]
    assert "undefined (no cases)" in line and "clearly ahead" not in line


def test_study_verdicts_call_an_undefined_difference_undefined() -> None:
    from reports import help_value, sweep_value

    row = pd.Series({"diff": NAN, "difference": NAN, "lo": NAN, "hi": NAN})
    assert sweep_value._verdict(row) == "undefined (no cases)"
    assert help_value._verdict(row, "points").endswith("undefined (no cases)")
