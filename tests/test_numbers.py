"""How numbers are shown in tables and findings (simulator.summaries)."""

from __future__ import annotations

from simulator.summaries import pct


def test_a_rate_shows_one_decimal_and_its_interval() -> None:
    assert pct(0.5234, 0.51, 0.54) == "52.3% [51.0, 54.0]"
    assert pct(float("nan")) == "no data"


def test_a_rare_rate_keeps_two_digits_instead_of_reading_zero() -> None:
    assert pct(275 / 800_000, 0.0003, 0.00039) == "0.034% [0.030, 0.039]"
    assert pct(0.0009) == "0.090%"
    assert pct(0.0012, 0.001, 0.0014) == "0.1% [0.1, 0.1]"  # from 0.1% on, one decimal as usual
