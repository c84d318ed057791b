"""`dealsim bench`: every strategy measured, the yardstick's absence said plainly."""

from __future__ import annotations

from simulator import app
from tests.cli_helpers import run_cli


def test_bench_measures_every_strategy(tmp_path) -> None:
    b = app.bench("franks-zoo", n=300, yardstick=tmp_path / "missing.py")  # the yardstick: test_yardsticks.py
    assert set(b.rates) == set(b.game.strategies) and b.yardstick is None
    for rate, hands in b.rates.values():
        assert rate > 0 and hands > rate  # whole games of several hands each


def test_bench_says_when_the_yardstick_cannot_run(tmp_path) -> None:
    code, out, err = run_cli("bench", "forty-two", "-n", "1000", "--yardstick", str(tmp_path / "missing.py"))
    assert code == 0 and not err
    assert "forty-two     random:" in out and "forty-two  heuristic:" in out
    assert "yardstick42.py: not run" in out
