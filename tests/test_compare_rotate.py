"""compare --rotate: both arms played again with the seating turned one seat on, on the same deals, and per
measure the per-deal mean of the plain and the turned paired differences."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.experiments import compare, rotation_sides, turned
from simulator.runner import execute
from simulator.specs import Execution, Output, RunSpec
from simulator.stats import Z95
from tests.cli_helpers import run_cli

ONE = Execution(jobs=1)


def rounds_run(n: int = 300, seats: tuple[str, str] = ("heuristic", "heuristic")):
    return dataclasses.replace(RunSpec("rounds", n=n, chunk_size=100).build(), seats=seats)


def test_arms_that_play_alike_give_exactly_zero_with_rotation() -> None:
    a = rounds_run(seats=("heuristic", "greedy"))
    b = dataclasses.replace(a, seats=("heuristic:duck=true", "greedy"))  # the default, spelled out
    c = compare(a, b, jobs=1, rotate=True)
    assert c.rotation is not None and c.rotation.runs == 4
    for name, r in zip(c.measures, c.rotation.differences):
        assert r.diff == 0 and r.lo == 0 and r.hi == 0 and r.same, (name, r)
    assert all("no game differs" in s for s in c.findings()[:-1])


def test_the_rotated_arms_move_the_strategies_one_seat_on() -> None:
    a = RunSpec("forty-two", n=50).build()
    b = dataclasses.replace(a, seats=("random", "heuristic", "random", "heuristic"))  # N-S change
    assert turned(b).seats == ("heuristic", "random", "heuristic", "random")  # N-S's strategy now at E-W
    assert rotation_sides(a, b) == (0, 1)  # NS changed, moved to EW
    c = compare(a, b, jobs=1, rotate=True)
    assert c.rotation is not None and c.rotation.side == "EW" and c.side == "NS"
    assert c.rotation.b.seats == turned(b).seats and c.rotation.a == a  # arm A turned plays as arm A
    assert c.rotation.runs == 3
    assert c.provenance()["rotate"]["arm_b_seats"] == dict(zip("NESW", turned(b).seats))
    # Rounds swaps the two players; Frank's Zoo turns the whole seating, neighbours kept
    assert turned(rounds_run(seats=("greedy", "heuristic"))).seats == ("heuristic", "greedy")
    zoo = RunSpec("franks-zoo", n=10, seats={"2": "greedy"}).build()
    assert turned(zoo).seats.index("greedy") == 3


def test_the_rotated_estimate_is_the_mean_of_the_two_per_deal_differences() -> None:
    a = rounds_run()
    b = dataclasses.replace(a, seats=("greedy", "heuristic"))
    c = compare(a, b, jobs=1, rotate=True)
    assert c.rotation is not None
    tables = [execute(run, jobs=1).whole().tables["deals"] for run in (a, b, turned(a), turned(b))]
    margin = [t["points_0"].to_numpy(float) - t["points_1"].to_numpy(float) for t in tables]
    plain = margin[0] - margin[1]  # player 0's margin, where the change is
    moved = -(margin[2] - margin[3])  # player 1's margin, where the turned change is
    per_deal = (plain + moved) / 2
    i = c.measures.index("player 0 margin per game")
    r = c.rotation.differences[i]
    assert r.diff == pytest.approx(per_deal.mean())
    assert r.se == pytest.approx(per_deal.std(ddof=1) / np.sqrt(len(per_deal)))
    assert r.lo == pytest.approx(per_deal.mean() - Z95 * r.se)
    assert c.rotation.moved[i].diff == pytest.approx(moved.mean())
    assert c.differences[i].diff == pytest.approx(plain.mean())
    gap = c.rotation.gaps[i]  # (A - B) - (A' - B'), deal by deal
    assert gap.diff == pytest.approx((plain - moved).mean())
    assert gap.se == pytest.approx((plain - moved).std(ddof=1) / np.sqrt(len(plain)))
    row = c.frame().iloc[i]
    assert row["rotated"] == pytest.approx(r.diff)
    d = c.differences[i]
    assert row["rotation narrowing"] == pytest.approx((d.hi - d.lo) / (r.hi - r.lo))


def test_rotation_is_refused_where_there_is_nothing_clean_to_rotate(tmp_path) -> None:
    with pytest.raises(DealsimError, match="only rules.*nothing to rotate"):
        app.compare(RunSpec("rounds", n=10), vs_rules={"sweep_bonus": "0"}, rotate=True, execution=ONE)
    with pytest.raises(DealsimError, match="several sides"):
        app.compare(RunSpec("forty-two", n=10), vs=["N=random", "E=random"], rotate=True, execution=ONE)
    folder = tmp_path / "out"
    with pytest.raises(DealsimError, match="nothing to rotate"):  # refused before the folder is touched
        app.compare(RunSpec("rounds", n=10), vs_rules=["sweep_bonus=0"], rotate=True, output=Output(folder))
    assert not folder.exists() or not any(folder.iterdir())
    with pytest.raises(DealsimError, match="--rotate and --precision"):  # targets size the plain one
        app.compare(
            RunSpec("rounds", n=1000, chunk_size=100),
            vs=["0=greedy"],
            rotate=True,
            precision=["player 0 margin per game=1"],
            output=Output(folder),
        )
    assert not folder.exists() or not any(folder.iterdir())


def test_the_command_line_reports_the_narrowing(tmp_path) -> None:
    args = ("compare", "rounds", "--vs", "0=greedy", "--rotate", "-n", "200", "-j", "1", "--no-progress")
    code, out, err = run_cli(*args, "-o", tmp_path / "c")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "rotation narrows" in flat and "Seat rotation narrows the intervals by" in flat
    assert "twice the deals" in " ".join(run_cli("compare", "--help")[1].split())
    report = tmp_path / "c"
    assert "rotation narrowing" in (report / "compare.csv").read_text().splitlines()[0]
    assert "--rotate" in json.loads((report / "provenance.json").read_text())["command"]
    assert len(list((report / "runs").iterdir())) == 3  # arm A turned is arm A: played once
    code, again, err = run_cli("compare", "--resume", report, "-j", "1")
    assert code == 0, err
    assert "Seat rotation narrows the intervals by" in " ".join(again.split())
    code, out, err = run_cli(*args, "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert {"rotated", "rotated lo", "rotated hi", "rotation narrowing", "moved"} <= set(rows[0])


@pytest.mark.slow
def test_the_rotated_interval_keeps_its_coverage() -> None:
    """Over 150 seeds of 400 Rounds games, the rotated 95% interval of greedy's effect at player 0 holds the
    effect measured on 200,000 games in at least 92% of seeds (95% allowing for sampling error)."""
    name = "player 0 margin per game"

    def rotated(n: int, seed: int) -> tuple[float, float, float]:
        a = dataclasses.replace(
            RunSpec("rounds", n=n, seed=seed, unit="deal").build(), seats=("heuristic",) * 2
        )
        b = dataclasses.replace(a, seats=("greedy", "heuristic"))
        c = compare(a, b, jobs=1, rotate=True)
        assert c.rotation is not None
        d = c.rotation.differences[c.measures.index(name)]
        return d.diff, d.lo, d.hi

    truth = rotated(200_000, 10_000)[0]
    held = [lo <= truth <= hi for _, lo, hi in (rotated(400, seed) for seed in range(150))]
    assert np.mean(held) >= 0.92, np.mean(held)
