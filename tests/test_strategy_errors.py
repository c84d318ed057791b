"""A strategy that raises: one line naming the strategy, the seat, the first deal it fails on and the
exception, exit code 1, whatever the number of workers; --debug shows the traceback instead."""

from __future__ import annotations

import os
import pickle
import re

import numpy as np
import pytest

from simulator import app, driver, registry
from simulator.errors import DealsimError, StrategyError
from simulator.runner import chunk
from simulator.specs import Execution, RunSpec
from tests.cli_helpers import run_cli

FRAGILE = "tests.helpers:Fragile"
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
ONE_LINE = re.compile(
    r"error: strategy '(?P<spec>[^']+)' at seat (?P<seat>\w+) in deal (?P<deal>\d+) failed on a "
    r"(?P<kind>\w+) decision: ValueError: cannot read position \d+ \(a two-line message\)\n"
)


def failure(*args: str) -> re.Match:
    """Run `dealsim simulate ...`, which must fail with one line of a strategy error; that line, parsed."""
    code, out, err = run_cli("simulate", *args, "--no-progress")
    assert code == 1 and out == "", (code, out, err)
    line = ONE_LINE.fullmatch(err)
    assert line is not None, err
    return line


@pytest.mark.parametrize("game,seat", [("forty-two", "all"), ("rounds", "1"), ("franks-zoo", "all")])
def test_a_raising_strategy_is_one_line_naming_strategy_seat_deal_and_exception(game: str, seat: str) -> None:
    args = [game, "-n", "2000", "--chunk-size", "500", "--seed", "3", "--seat", f"{seat}={FRAGILE}"]
    line = failure(*args, "-j", "1")
    assert line["spec"] == FRAGILE
    assert line["seat"] in registry.get(game).seat_names(registry.get(game).rules())
    # the deal it names fails when it is played alone, with the same words
    g = registry.get(game)
    run = RunSpec(game, n=2000, seed=3, seats=[f"{seat}={FRAGILE}"], chunk_size=500).build()
    deal = int(line["deal"])
    c = chunk(run, deal // 500)
    state = g.deal(c.deal_rng, c.deals, run.rules).take(np.array([deal % 500]))
    with pytest.raises(StrategyError) as alone:
        driver.play(g, state, run.rules, c.strategies, c.seat_rngs)
    assert "error: " + " ".join(str(alone.value).split()) + "\n" == line.group(0)


@pytest.mark.skipif(CORES < 2, reason="-j 2 needs two cores (more jobs than cores are capped)")
@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_workers_give_the_same_line_as_one_process(backend: str) -> None:
    """The error crosses the process boundary with its type and message (pickled), and a later chunk's error
    that happens first in time waits its turn, so every -j names the same deal."""
    args = ["forty-two", "-n", "2000", "--chunk-size", "250", "--seat", f"all={FRAGILE}"]
    one = failure(*args, "-j", "1")
    assert failure(*args, "-j", "2", "--backend", backend).group(0) == one.group(0)


def test_the_error_pickles_with_its_type_and_message() -> None:
    err = StrategyError("strategy 'x' at seat N in deal 3 failed on a play decision: ValueError: boom")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is StrategyError and str(back) == str(err) and isinstance(back, DealsimError)


def test_a_failure_no_single_deal_shows_names_the_group(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(
        StrategyError,
        match=r"strategy 'tests.helpers:Crowded' at seat N failed on a call "
        r"decision for 500 deals at once \(deals 3 to 1999; none of the first "
        r"500 fails alone\): RuntimeError: too many rows",
    ):
        app.simulate(
            RunSpec("forty-two", n=2000, seed=1, seats=["N=tests.helpers:Crowded"]),
            execution=Execution(jobs=1),
        )
    monkeypatch.setattr(driver, "_RETRY_ROWS", 10)  # the search for the deal is bounded
    with pytest.raises(StrategyError, match=r"none of the first 10 fails alone"):
        app.simulate(
            RunSpec("forty-two", n=2000, seed=1, seats=["N=tests.helpers:Crowded"]),
            execution=Execution(jobs=1),
        )


def test_trace_and_matches_report_it_the_same_way() -> None:
    line = failure(
        "forty-two", "-n", "2000", "--chunk-size", "500", "-j", "1", "--seat", f"E={FRAGILE}:every=500"
    )
    code, out, err = run_cli(
        "trace",
        "forty-two",
        "-n",
        "2000",
        "--chunk-size",
        "500",
        "--deal",
        line["deal"],
        "--seat",
        f"E={FRAGILE}:every=500",
    )
    assert (code, out, err) == (1, "", line.group(0))
    code, out, err = run_cli(
        "simulate",
        "forty-two",
        "--unit",
        "match",
        "-n",
        "50",
        "-j",
        "1",
        "--no-progress",
        "--seat",
        f"E={FRAGILE}:every=500",
    )
    assert (
        code == 1
        and len(err.splitlines()) == 1
        and err.startswith(f"error: strategy '{FRAGILE}:every=500' at seat E in deal ")
    ), err


@pytest.mark.parametrize("how", ["--debug", "DEALSIM_DEBUG"])
def test_debug_shows_the_traceback_instead(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    args = [
        "simulate",
        "forty-two",
        "-n",
        "500",
        "-j",
        "1",
        "--no-progress",
        "--seat",
        f"all={FRAGILE}:every=50",
    ]
    if how == "DEALSIM_DEBUG":
        monkeypatch.setenv("DEALSIM_DEBUG", "1")
    code, _, err = run_cli(*(["--debug"] if how == "--debug" else []), *args)
    assert code == 1
    assert err.startswith("Traceback (most recent call last):")
    assert (
        "in decide" in err and "ValueError: cannot read position" in err
    )  # the strategy's own frame and error
    assert err.rstrip().splitlines()[-2].startswith("simulator.errors.StrategyError: strategy ")
