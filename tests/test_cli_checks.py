"""Checks before any work: the worker count, the run's size, options that contradict each other, a seat given
twice, a side where one seat is meant."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

from simulator.errors import DealsimError, DealsimWarning
from simulator.runner import MAX_DEALS, resolve_jobs
from simulator.specs import RunSpec
from tests.cli_helpers import run_cli

CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def fails(*args: object) -> str:
    """A command that must fail with one clear line on stderr and exit code 2: that line."""
    code, out, err = run_cli(*args)
    assert (code, out) == (2, ""), (code, out, err)
    assert "Traceback" not in err and len(err.splitlines()) == 1 and err.startswith("error: "), err
    return err


def test_more_jobs_than_cores_are_capped_with_one_warning() -> None:
    code, out, err = run_cli(
        "simulate", "forty-two", "-n", "200", "-j", CORES + 5, "--format", "json", "--no-progress"
    )
    assert code == 0
    assert err == f"warning: jobs {CORES + 5} is more than the {CORES} cores here; running {CORES} jobs\n"
    assert json.loads(out)["timing"]["jobs"] == CORES
    # a comparison runs two arms, each asking for the workers: still one line
    code, _, err = run_cli("-q", "compare", "forty-two", "-n", "100", "-j", CORES + 1, "--vs", "N=random")
    assert code == 0 and len(err.splitlines()) == 1 and err.startswith("warning: jobs")
    with pytest.warns(DealsimWarning, match="more than the"):
        assert resolve_jobs(CORES + 1) == CORES
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert resolve_jobs(0) == resolve_jobs(-1) == CORES and resolve_jobs(1) == 1


def test_the_run_size_is_in_range() -> None:
    assert "-n" in fails("simulate", "forty-two", "-n", "0")
    assert f"at most {MAX_DEALS:,}" in fails("simulate", "forty-two", "-n", MAX_DEALS + 1)
    assert f"at most {MAX_DEALS:,}" in fails("compare", "forty-two", "-n", MAX_DEALS * 10, "--vs", "N=random")
    assert "less than or equal to" in fails("bench", "forty-two", "-n", MAX_DEALS + 1)
    with pytest.raises(DealsimError, match="at most"):
        RunSpec("rounds", n=MAX_DEALS + 1).build()
    assert (
        RunSpec("rounds", n=MAX_DEALS).build().n_chunks > 0
    )  # the largest is allowed (and nothing is played)


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "run"
    assert run_cli("-q", "simulate", "forty-two", "-n", "100", "--seed", "4", "-j", "1", "-o", out)[0] == 0
    return out


@pytest.mark.parametrize(
    "extra,named",
    [
        (["--seed", "4"], "--seed"),  # even the run's own seed: the folder decides
        (["--rule", "min_bid=31"], "--rule"),
        (["--seat", "N=random", "-n", "100"], "--deals, --seat"),
        (["--preset", "texas", "--chunk-size", "10", "--unit", "match"], "--preset, --unit, --chunk-size"),
    ],
)
def test_trace_refuses_run_options_beside_run(run_folder: Path, extra: list[str], named: str) -> None:
    err = fails("trace", "forty-two", "--run", run_folder, "--deal", "3", *extra)
    assert err.startswith(f"error: {named} cannot be given with --run ({run_folder / 'manifest.json'} fixes")
    assert run_cli("trace", "forty-two", "--run", run_folder, "--deal", "3")[0] == 0


def test_report_run_refuses_run_options_beside_run(run_folder: Path) -> None:
    assert fails("report", "run", "--run", run_folder, "--seed", "2").startswith(
        "error: --seed cannot be given"
    )


@pytest.mark.parametrize(
    "seats,twice,seen",
    [
        (
            ["N=greedy", "N=random"],
            "seat N given twice (N=greedy, then N=random)",
            {"N": "random", "S": "heuristic"},
        ),
        (
            ["NS=greedy", "N=random"],
            "seat N given twice (NS=greedy, then N=random)",
            {"N": "random", "S": "greedy"},
        ),
        (
            ["NS=random", "EW=greedy", "all=greedy"],
            "seat N E S W given twice (NS=random, EW=greedy, then all=greedy)",
            {"N": "greedy"},
        ),
    ],
)
def test_a_seat_given_twice_warns_and_the_last_wins(
    seats: list[str], twice: str, seen: dict[str, str]
) -> None:
    code, out, err = run_cli(
        "simulate",
        "forty-two",
        "-n",
        "50",
        "-j",
        "1",
        "--format",
        "json",
        "--no-progress",
        *[w for s in seats for w in ("--seat", s)],
    )
    assert code == 0 and err == f"warning: {twice}; the last one wins\n"
    assert seen.items() <= json.loads(out)["manifest"]["seats"].items()
    with pytest.warns(DealsimWarning, match="given twice"):
        RunSpec("forty-two", n=50, seats=seats).build()


def test_seats_given_once_each_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = RunSpec("forty-two", n=50, seats=["NS=greedy", "EW=random"]).build()
        assert run.seats == ("greedy", "random", "greedy", "random")
        RunSpec("forty-two", n=50, seats={"N": "greedy", "E": "random"}).build()
        # `all` sets a default for the assignments after it: "everyone but seat 0"
        assert RunSpec("franks-zoo", n=50, seats=["all=greedy", "0=random"]).build().seats[:2] == (
            "random",
            "greedy",
        )


@pytest.mark.parametrize("option,value", [("--dealer", "NS"), ("--dealer", "all"), ("--seat", "EW")])
def test_analyze_takes_one_seat_not_a_side(option: str, value: str) -> None:
    err = fails("analyze", "forty-two", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2 1-0", "-n", "10", option, value)
    assert err == f"error: the {option.lstrip('-')} names one seat (N, E, S, W), not {value!r}\n"
