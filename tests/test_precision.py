"""Precision targets: parsing and its errors, the two-stage size (pilot, Stein's total, the cap), that the
run it ends with is the plain run of that size, compare and tune with a target, resume; and (slow) the
final interval's coverage over many seeds."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator import app, precision, runner
from simulator.errors import DealsimError
from simulator.specs import Execution, Output, RunSpec
from simulator.stats import estimate, paired
from tests.cli_helpers import run_cli

ONE = Execution(jobs=1)
MARGIN = "player 0 margin per game"
SWEPT = "stages swept"


def _spec(n: int = 3000, **kw: object) -> RunSpec:
    kw.setdefault("seats", {"all": "random"})
    return RunSpec("rounds", n=n, unit="deal", chunk_size=100, **kw)  # type: ignore[arg-type]


def _files(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "timings.json"
    }


@pytest.mark.parametrize(
    ("given", "wrong"),
    [
        ("stages swept", "expected MEASURE=HALFWIDTH"),
        ("=1pp", "expected MEASURE=HALFWIDTH"),
        ("stages swept=0pp", "above 0"),
        ("stages swept=-1pp", "above 0"),
        ("stages swept=nan", "above 0"),
        ("stages swept=wide", "above 0"),
    ],
)
def test_a_target_that_does_not_parse_is_one_clear_error(given: str, wrong: str) -> None:
    with pytest.raises(DealsimError, match=wrong):
        precision.parse([given])


def test_targets_parse_in_their_units() -> None:
    rate, mean = precision.parse(["stages swept = 0.5pp", "player 0 margin per game=0.3"])
    assert (rate.measure, rate.halfwidth, rate.text) == (SWEPT, 0.005, "stages swept=0.5pp")
    assert (mean.measure, mean.halfwidth, mean.text) == (MARGIN, 0.3, "player 0 margin per game=0.3")
    with pytest.raises(DealsimError, match="given twice"):
        precision.parse(["stages swept=1pp", "stages swept=2pp"])


@pytest.mark.parametrize(
    ("given", "wrong"),
    [
        ("stages=1pp", "no measure 'stages'; its measures: player 0 margin per game, "),
        ("stages swept=1", "stages swept is a rate: give its half-width in percentage points"),
        ("player 0 margin per game=1pp", "is a mean, not a rate"),
    ],
)
def test_a_target_the_run_cannot_have_is_refused_before_anything_is_written(
    tmp_path: Path, given: str, wrong: str
) -> None:
    with pytest.raises(DealsimError, match=wrong):
        app.simulate(_spec(), ONE, Output(tmp_path / "run"), precision=[given])
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").iterdir())


def test_a_target_the_pilot_meets_stops_at_the_pilot() -> None:
    sim = app.simulate(_spec(), ONE, precision=[f"{MARGIN}=5"])
    p = sim.precision
    assert p is not None and p.pilot == 500 and p.n == 500 and sim.run.n == 500 and len(sim.deals) == 500
    assert p.met and not p.capped and p.reached[0].halfwidth <= 5
    assert "the pilot of 500 games was enough" in "\n".join(p.lines("games"))


def test_a_tight_target_stops_at_the_cap_and_says_so() -> None:
    sim = app.simulate(_spec(n=1234), ONE, precision=[f"{SWEPT}=0.1pp"])
    p = sim.precision
    assert p is not None and p.n == 1234 == sim.run.n and p.capped and not p.met
    told = "\n".join(str(x) for x in sim.render())
    assert "stopped at the cap, -n 1,234" in told and "NOT met" in told
    assert sim.manifest["precision"]["capped"] is True and sim.manifest["deals"] == 1234


def test_the_size_follows_steins_rule_and_the_run_is_the_plain_run_of_that_size() -> None:
    h = 1.0
    sim = app.simulate(_spec(), ONE, precision=[f"{MARGIN}={h}"])
    pilot = app.simulate(_spec(n=500), ONE)
    g = pilot.run.game
    s0 = float(g.measures(pilot.tables, "deal", 0)[0].influence().std(ddof=1))
    want = math.ceil((1.964729 * s0 / h) ** 2)  # t(499 degrees of freedom) at 97.5%, from tables
    n = min(3000, max(500, math.ceil(want / 100) * 100))
    assert sim.precision is not None and sim.precision.n == n and 500 < n < 3000
    assert sim.precision.reached[0].pilot_spread == pytest.approx(s0)
    plain = app.simulate(_spec(n=n), ONE)
    pd.testing.assert_frame_equal(sim.deals, plain.deals)
    assert sim.summary == plain.summary
    e = estimate(g.measures(plain.tables, "deal", 0)[0])
    assert sim.precision.reached[0].halfwidth == pytest.approx((e.hi - e.lo) / 2)


def test_the_pilot_chunks_are_not_played_again(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    real = runner.run_chunk_summarized

    def counted(run: runner.Run, k: int):  # type: ignore[no-untyped-def]
        played.append(k)
        return real(run, k)

    monkeypatch.setattr(runner, "run_chunk_summarized", counted)
    sim = app.simulate(_spec(), ONE, precision=[f"{MARGIN}=1"])
    assert played == list(range(sim.run.n_chunks))


def test_compare_with_a_target_narrows_the_paired_difference() -> None:
    cmp = app.compare(_spec(n=4000), vs={"0": "greedy"}, execution=ONE, precision=[f"{SWEPT}=2pp"])
    p = cmp.precision
    assert p is not None and p.n == cmp.a.n == cmp.b.n and 500 <= p.n < 4000
    d = cmp.differences[cmp.measures.index(SWEPT)]
    assert p.reached[0].halfwidth == pytest.approx((d.hi - d.lo) / 2) and p.interval.startswith("paired")
    plain = app.compare(_spec(n=p.n), vs={"0": "greedy"}, execution=ONE)
    assert cmp.differences == plain.differences
    assert cmp.as_dict()["precision"]["n"] == p.n


def test_tune_with_a_target_narrows_the_widest_difference_against_the_baseline() -> None:
    sweep = app.tune(
        _spec(n=3000), {"seat.0": "random,greedy,heuristic"}, execution=ONE, precision=[f"{MARGIN}=3"]
    )
    p = sweep.precision
    assert p is not None and p.n == sweep.base.n
    j = sweep.measures.index(MARGIN)
    widest = max((d[j].hi - d[j].lo) / 2 for i, d in enumerate(sweep.differences) if i != sweep.baseline)
    assert p.reached[0].halfwidth == pytest.approx(widest)
    assert sweep.provenance()["precision"]["targets"] == [f"{MARGIN}=3"]


def test_a_resumed_precision_run_ends_at_the_same_size_with_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets = [f"{MARGIN}=1.5", f"{SWEPT}=2pp"]
    whole = tmp_path / "whole"
    first = app.simulate(_spec(n=2000), ONE, Output(whole), precision=targets)
    assert first.precision is not None and 500 < first.run.n < 2000
    real = runner.run_chunk_summarized
    for stop in (2, 7):  # in the pilot, then after it
        out = tmp_path / f"cut{stop}"

        def cut(run: runner.Run, k: int, stop: int = stop):  # type: ignore[no-untyped-def]
            if k == stop:
                raise KeyboardInterrupt
            return real(run, k)

        monkeypatch.setattr(runner, "run_chunk_summarized", cut)
        stopped = app.simulate(_spec(n=2000), ONE, Output(out), precision=targets)
        assert not stopped.result.complete and stopped.precision is not None
        assert "interrupted" in stopped.precision.lines("games")[0]
        assert json.loads((out / "manifest.json").read_text())["precision"]["cap"] == 2000
        monkeypatch.setattr(runner, "run_chunk_summarized", real)
        again = app.resume(out, execution=ONE)
        assert again.result.complete and again.run.n == first.run.n and again.result.reused == stop
        assert _files(out) == _files(whole)


def test_the_command_line_shows_the_size_taken(tmp_path: Path) -> None:
    code, out, err = run_cli(
        "simulate", "rounds", "--unit", "deal", "-n", "900", "--chunk-size", "100", "-j", "1",
        "--precision", f"{SWEPT}=0.1pp", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    told = json.loads(out)["manifest"]
    assert told["deals"] == 900 and told["precision"]["capped"] and "--precision" in told["command"]
    code, _, err = run_cli("simulate", "rounds", "-n", "900", "--precision", "nothing=1")
    assert code != 0 and "--precision: this run has no measure 'nothing'" in err


@pytest.mark.slow
def test_the_final_interval_keeps_its_coverage() -> None:
    """Over 200 seeds, the 95% interval of a precision run covers the truth (from a large run) at least 93%
    of the time."""
    truth_run = app.simulate(RunSpec("rounds", n=400_000, seed=10**6, seats={"all": "random"}, unit="deal"))
    truth = estimate(truth_run.run.game.measures(truth_run.tables, "deal", 0)[0]).value
    covered = []
    for seed in range(200):
        spec = RunSpec("rounds", n=20_000, seed=seed, seats={"all": "random"}, unit="deal", chunk_size=50)
        sim = app.simulate(spec, ONE, precision=[f"{MARGIN}=1.0"])
        e = estimate(sim.run.game.measures(sim.tables, "deal", 0)[0])
        covered.append(e.lo <= truth <= e.hi)
    assert np.mean(covered) >= 0.93


def test_paired_is_what_compare_narrows() -> None:
    """The compare target's interval is `stats.paired` of the arms' measure: the same object compare
    reports."""
    cmp = app.compare(_spec(n=600), vs={"0": "greedy"}, execution=ONE, precision=[f"{MARGIN}=100"])
    a = app.simulate(_spec(n=cmp.a.n), ONE)
    b = app.simulate(_spec(n=cmp.a.n, seats={"0": "greedy", "1": "random"}), ONE)
    g = a.run.game
    d = paired(g.measures(a.tables, "deal", 0)[0], g.measures(b.tables, "deal", 0)[0])
    assert cmp.differences[0] == d and cmp.precision is not None and cmp.precision.n == 500
