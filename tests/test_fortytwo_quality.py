"""The play-quality measure: what each side's plays gave away against double-dummy play."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.fortytwo import quality
from simulator.specs import Execution, RunSpec

# one worker compiles the solver (numba, some 10 s on a clean checkout) and runs every test that needs it
pytestmark = pytest.mark.xdist_group("fortytwo-solver")


@pytest.mark.parametrize("preset,seats", [("seed", "heuristic"), ("texas-house", "tests.helpers:Scrambled")])
def test_what_each_side_gave_away_accounts_for_the_points_taken(preset: str, seats: str) -> None:
    sim = app.simulate(
        RunSpec("forty-two", n=150, seats={"all": seats}, preset=preset, measures=["play-quality"]),
        execution=Execution(jobs=1),
    )
    d = sim.deals[~sim.deals["thrown_in"]]
    assert len(d) > 50
    decl_side = d["declarer"].isin(["E", "W"]).to_numpy().astype(int)
    taken = np.where(decl_side == 1, d["points_ew"], d["points_ns"])
    nello = (d["trump"] == "nello").to_numpy()
    perfect_points, _ = quality.by_role(d, "perfect_value")
    declarers_gave, defenders_gave = quality.by_role(d)
    # perfect play from the lead, less what the declarers gave, plus what the defenders gave: what was taken
    # (under nello the declaring side minimizes: the signs swap); hands stopped once decided (marks) are
    # checked in the values themselves, their rest never played
    sign = np.where(nello, -1, 1)
    whole = (d["points_ns"] + d["points_ew"] == 42).to_numpy()
    assert whole.sum() >= 5
    balance = perfect_points - sign * (declarers_gave - defenders_gave)
    assert (balance[whole] == taken[whole]).all()
    assert (declarers_gave >= 0).all() and (defenders_gave >= 0).all()
    for side in quality.SIDES:  # a side's plays that gave points away, and what they gave
        gave, costly = d[f"gave_away_{side}"], d[f"costly_plays_{side}"]
        assert ((costly > 0) == (gave > 0)).all() and (costly <= gave).all()
    out = sim.deals[sim.deals["thrown_in"]]  # no play, no values
    assert (out[["perfect_value_ns", "perfect_value_ew"]] == -1).all().all()
    assert (out[["gave_away_ns", "gave_away_ew", "costly_plays_ns", "costly_plays_ew"]] == 0).all().all()
    q = sim.summary["play_quality"]
    assert q["declarers_gave_away"].mean == pytest.approx(declarers_gave.mean())
    assert q["makeable_with_perfect_play"].of == len(d)


def test_each_sides_points_with_perfect_play_add_up_to_the_points_in_play() -> None:
    """Hands played out (a nello sitter's dominoes out of play): the two sides' perfect-play points share
    what was in play, as the points taken do."""
    sim = app.simulate(
        RunSpec(
            "forty-two",
            n=150,
            seats={"all": "random"},
            rules={"play_out": True, "sevens": True},
            preset="texas-house",
            measures=["play-quality"],
        ),
        execution=Execution(jobs=1),
    )
    d = sim.deals[~sim.deals["thrown_in"]]
    perfect = d["perfect_value_ns"] + d["perfect_value_ew"]
    assert (perfect == d["points_ns"] + d["points_ew"]).all()
    assert (perfect < 42).any()  # nello with count in the sitter's hand


def test_the_measure_is_asked_for_by_name_and_needs_single_deals() -> None:
    with pytest.raises(DealsimError, match="no measure 'speed'"):
        app.simulate(RunSpec("forty-two", n=10, measures=["speed"]), execution=Execution(jobs=1))
    with pytest.raises(DealsimError, match="needs the unit deal"):
        app.simulate(
            RunSpec("forty-two", n=10, unit="match", measures=["play-quality"]), execution=Execution(jobs=1)
        )
    assert (
        "--measure play-quality"
        in app.simulate(
            RunSpec("forty-two", n=20, measures=["play-quality"]), execution=Execution(jobs=1)
        ).manifest["command"]
    )


def test_compare_pairs_the_points_each_side_gave_away() -> None:
    """`compare --measure play-quality`: what the changed side gave away, paired on the same hands; a better
    player gives away less."""
    c = app.compare(
        RunSpec("forty-two", n=100, seats={"N": "random", "S": "random"}, measures=["play-quality"]),
        vs={"N": "heuristic", "S": "heuristic"},
        execution=Execution(jobs=1),
    )
    assert c.a.measures == c.b.measures == ("play-quality",)
    d = dict(zip(c.measures, c.differences))
    gave = d["NS points given away per played hand"]
    assert gave.lo > 0  # random play gives away more than the heuristic's, with an interval clear of zero
    # the side's own figure: as declarer what the declarers gave, as defender what the defenders gave; arm A
    # again on its own (the same run) gives the same hands
    a = app.simulate(
        RunSpec("forty-two", n=100, seats={"N": "random", "S": "random"}, measures=["play-quality"]),
        execution=Execution(jobs=1),
    ).deals
    played = a[~a["thrown_in"]]
    declarers_gave, defenders_gave = quality.by_role(played)
    mine = np.where(played["declarer"].isin(["N", "S"]), declarers_gave, defenders_gave)
    assert gave.a == pytest.approx(mine.mean())
    assert gave.a == pytest.approx(played["gave_away_ns"].mean())  # the side's own column says the same
    assert "contracts makeable with perfect play" in c.rates


def test_compare_takes_measure_on_the_command_line(tmp_path) -> None:
    from tests.cli_helpers import run_cli

    code, out, err = run_cli(
        "compare",
        "forty-two",
        "-n",
        "40",
        "-j",
        "1",
        "--seat",
        "N=random",
        "--vs",
        "N=heuristic",
        "--measure",
        "play-quality",
        "-o",
        tmp_path / "c",
    )
    assert code == 0, err
    assert "NS points given away per played hand" in out
    assert "--measure play-quality" in (tmp_path / "c" / "provenance.json").read_text()


def test_play_quality_report_states_each_strategy_with_its_intervals(tmp_path) -> None:
    import pandas as pd

    from tests.cli_helpers import assert_findings_quote_tables, run_cli

    out = tmp_path / "pq"
    code, _, err = run_cli("report", "play-quality", "-n", "60", "--matches", "3", "-j", "1", "-o", out)
    assert code == 0, err
    page = (out / "report.html").read_text()
    assert assert_findings_quote_tables(page) >= 6  # two figures per strategy at least
    table = pd.read_csv(out / "play_quality.csv").set_index("strategy")
    assert {"random", "greedy", "heuristic"} <= set(table.index)
    # the heuristic's row is what a plain run with the measure gives on the same deals
    sim = app.simulate(
        RunSpec("forty-two", n=60, seats={"all": "heuristic"}, measures=["play-quality"]),
        execution=Execution(jobs=1),
    ).deals
    played = sim[~sim["thrown_in"]]
    assert table.loc["heuristic", "contracts"] == len(played)
    assert table.loc["heuristic", "declarers gave"] == pytest.approx(quality.by_role(played)[0].mean())
    assert table.loc["random", "declarers gave"] > table.loc["heuristic", "declarers gave"]
    duel = pd.read_csv(out / "expert_against_heuristic.csv").set_index("measure")
    assert (
        "NS wins" in duel.index and 0 <= duel.loc["NS wins", "a"] <= 1
    )  # the expert's side over 3 whole games
    assert "expert minus heuristic" in page  # the paired play-quality finding (both bid alike)
    for name in ("points_given_away.png", "made_by_bid.csv", "provenance.json", "expert_minus_heuristic.csv"):
        assert (out / name).stat().st_size > 0
