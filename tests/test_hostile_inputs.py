"""Inputs a careless or hostile user gives: each is refused before any work, in one line on stderr naming what
is wrong, with exit 2, and no traceback. The hand-written cases below, then the generated sweep
(`tests/hostile_cases.py`: every rule option and strategy parameter of every game, seats, sizes, folders,
hands, rules files; refusals cost milliseconds, so all of it runs here; `benchmarks/hostile.py` counts it)."""

from __future__ import annotations

import pytest

from tests.cli_helpers import run_cli
from tests.hostile_cases import Case, generated, run

CASES = [
    # numbers as a person types them, nothing Python alone would read
    (
        ["simulate", "forty-two", "--rule", "min_bid=３１"],
        "rule min_bid: expected a whole number, got '３１'",
    ),
    (
        ["simulate", "forty-two", "--unit", "match", "--rule", "target=1_00"],
        "expected a whole number, got '1_00'",
    ),
    (["simulate", "forty-two", "--seat", "all=heuristic:margin=1_0"], "expected a number, got '1_0'"),
    (["simulate", "forty-two", "--seat", "all=heuristic:margin=inf"], "expected a finite number, got 'inf'"),
    # tune is checked whole before its first run
    (
        ["tune", "forty-two", "--vary", "min_bid=30,31", "--baseline", "min_bid=abc"],
        "not a point of the grid",
    ),
    (["tune", "forty-two", "--vary", "min_bid=30,31", "--baseline", "target=100"], "does not vary"),
    (["tune", "forty-two", "--vary", "min_bid=30,31", "--vary", "min_bid=32,33"], "min_bid is varied twice"),
    (["tune", "forty-two", "--vary", "min_bid=30,31,30"], "min_bid lists 30 more than once"),
    (["tune", "forty-two", "--vary", "seat.NS.margin=1,1.0"], "play exactly alike"),
    # options that would be ignored
    (["report", "bid-guide", "--run", "somewhere"], "--run is for report run"),
    (["strategies", ""], "unknown game ''"),
    (["compare", "forty-two", "--vs", "NS=heuristic"], "arm B plays exactly as arm A"),
    (["simulate", "forty-two", "--rule", "target=150"], "acts only in whole games"),
]


@pytest.mark.parametrize(("args", "says"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_refused_in_one_line_before_any_work(args: list[str], says: str, tmp_path) -> None:
    folder = tmp_path / "out"
    extra = ["-o", str(folder)] if args[0] in ("simulate", "tune", "compare") else []
    code, out, err = (
        run_cli(*args, "-n", "20", "-j", "1", *extra) if args[0] != "strategies" else run_cli(*args)
    )
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], err
    assert "Traceback" not in err and out == ""
    assert not folder.exists() or not any(folder.iterdir())  # nothing written


def test_a_one_value_sweep_warns() -> None:
    code, _, err = run_cli(
        "tune", "rounds", "--vary", "sweep_bonus=5,10", "--vary", "target=150", "-n", "4", "-j", "1"
    )
    assert code == 0 and "warning: vary: target has one value (150)" in err


SWEEP = generated()


@pytest.mark.parametrize("case", SWEEP, ids=lambda c: c.name)
def test_the_sweep_is_refused_cleanly(case: Case, tmp_path) -> None:
    clean, why = run(case, tmp_path)
    assert clean, why
