"""How high to bid: one rule for analyze and the bid guide, on synthetic gains over passing."""

from __future__ import annotations

import math

import numpy as np

from simulator.fortytwo import analyze
from simulator.fortytwo.advice import Ceiling, ceiling

NAN = math.nan


def test_the_sure_level_needs_a_lower_bound_above_zero_and_the_point_level_a_positive_mean() -> None:
    levels = [(30, 8.0, 3.0, 13.0), (31, 4.0, 0.5, 7.5), (32, 2.0, -1.0, 5.0), (33, 1.0, -2.0, 4.0)]
    levels += [(34, -1.0, -4.0, 2.0)]
    c = ceiling(levels)
    assert c == Ceiling(sure=31, point=33)
    assert c.text() == "up to 31 for sure, 33 on the point estimate"


def test_the_same_level_both_ways_says_it_once() -> None:
    assert ceiling([(30, 5.0, 1.0, 9.0), (31, -2.0, -6.0, 2.0)]).text() == "up to 30 for sure"


def test_an_unclear_positive_gain_is_not_sure() -> None:
    c = ceiling([(30, 1.0, -2.0, 4.0), (31, -1.0, -4.0, 2.0)])
    assert c == Ceiling(None, 30)
    assert c.text() == "no bid is clearly better than passing (up to 30 on the point estimate)"


def test_an_undefined_interval_is_never_clear() -> None:
    # one deal: no spread, the interval is undefined even where the mean is far above 0
    assert ceiling([(30, 20.0, NAN, NAN), (31, 18.0, NAN, math.inf)]) == Ceiling(None, 31)
    assert ceiling([(30, NAN, NAN, NAN)]) == Ceiling(None, None)


def test_no_bid_above_passing() -> None:
    c = ceiling([(30, -3.0, -6.0, -0.5), (31, -4.0, -7.0, -1.0)])
    assert c == Ceiling(None, None) and c.text() == "no bid is clearly better than passing"


def _parts(diffs: dict[int, np.ndarray]) -> list[dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]]:
    """One chunk: trumps at the bid of 30 (its action is 30), their per-deal score differences."""
    return [{(t, 30): (d > 0, d.astype(np.int16)) for t, d in diffs.items()}]


def _advice(diffs: dict[int, np.ndarray]) -> tuple[dict, list]:
    parts = _parts(diffs)
    frame = analyze.frame(parts)
    advice = analyze.advise(parts, frame)
    return advice, analyze.render(frame, advice, "hand", "W", len(next(iter(diffs.values()))))


def test_analyze_names_one_best_trump_only_when_it_is_clearly_ahead() -> None:
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 10, 400)
    advice, lines = _advice({6: noise + 20, 5: noise - 10, 4: noise - 12})
    assert advice["best_set"] == [6]
    line = str(lines[-1])
    assert line.startswith("advice: best trump sixes, clearly: ")
    assert (
        "sixes: up to 30 for sure" in line
        and "fours and fives: no bid is clearly better than passing" in line
    )
    assert line.count("passing the hand (a thrown-in hand), not over the opponents' contract") == 1


def test_analyze_says_when_trumps_cannot_be_told_apart() -> None:
    rng = np.random.default_rng(2)
    a, b, c = (rng.normal(1, 30, 60) for _ in range(3))
    advice, lines = _advice({6: a + 1, 5: b, 4: c})
    assert len(advice["best_set"]) == 3
    line = str(lines[-1])
    names = analyze._names(advice["best_set"])
    assert f"advice: best trump: {names} cannot be told apart at 30" in line
    assert "clearly:" not in line
