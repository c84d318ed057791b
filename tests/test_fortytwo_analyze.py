"""analyze advises: the trumps that cannot be told apart from the best on the same deals, and per trump the
highest bid clearly better than passing and the highest on the point estimate."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.fortytwo.analyze import break_even, gap_text
from simulator.provenance import seats_text
from simulator.specs import Execution, RunSpec


def test_break_even_balances_what_a_bid_gains_and_loses() -> None:
    made = np.array([True, True, False, False])
    diff = np.array([20.0, 10.0, -40.0, -50.0])  # made: +15 on average; set: -45
    assert break_even(made, diff) == pytest.approx(45 / 60)
    assert break_even(np.array([True, True]), np.array([5.0, 7.0])) == 0.0
    assert break_even(np.array([False]), np.array([-30.0])) == 1.0


def test_the_advice_names_the_highest_paying_bid_per_trump() -> None:
    a = app.analyze(
        RunSpec("forty-two", n=1500), "6-6 6-5 5-5 4-4 6-4 3-2 1-0", seat="W", execution=Execution(jobs=1)
    )
    advice, frame = a.advice, a.frame
    assert advice["best_trump"] == 6 and advice["runner_up"] != 6 and advice["bid"] == 30
    assert (
        advice["gap_lo"] <= advice["gap"] <= advice["gap_hi"] and advice["gap_lo"] > 0
    )  # sixes clearly best
    for trump, up_to in advice["bid_up_to"].items():
        rows = frame[frame["trump"] == trump].set_index("bid")
        point = advice["bid_up_to_point"][trump]
        if point is not None:  # the point estimate's highest bid has a positive expected gain over passing
            assert (
                rows.loc[point, "score_diff"] > 0
                and not (rows.loc[rows.index > point, "score_diff"] > 0).any()
            )
        if up_to is None:
            assert not (rows["score_diff_lo"] > 0).any()
            continue
        assert rows.loc[up_to, "score_diff_lo"] > 0  # clearly better than passing
        assert not (rows.loc[rows.index > up_to, "score_diff_lo"] > 0).any()
    # the example hand (three of the five count dominoes, four sixes with the 6-6) bids above the minimum
    assert advice["bid_up_to"][6] > 30
    assert advice["best_set"] == [6]
    assert any(str(line).startswith("advice: best trump sixes, clearly") for line in a.rendered)
    assert any("not over the opponents' contract" in str(line) for line in a.rendered)


def test_texas_rules_list_doubles_no_trump_and_nello_beside_the_pips() -> None:
    a = app.analyze(
        RunSpec("forty-two", n=300, preset="texas-house"),
        "6-6 5-5 4-4 3-3 2-2 1-0 2-0",
        seat="W",
        execution=Execution(jobs=1),
    )
    assert set(a.frame["trump"]) == {*range(7), 7, 8, 9}  # pips, doubles, no-trump, nello
    assert set(a.frame.loc[a.frame["trump"] == 9, "bid"]) == {42, 84}  # nello only for a mark or more
    doubles = a.frame[(a.frame["trump"] == 7) & (a.frame["bid"] == 30)].iloc[0]
    sixes = a.frame[(a.frame["trump"] == 6) & (a.frame["bid"] == 30)].iloc[0]
    assert doubles["p_make"] > sixes["p_make"]  # five doubles: the doubles are the better trumps


@pytest.mark.xdist_group("fortytwo-solver")  # on the worker that compiles the solver once (--dist loadgroup)
def test_perfect_play_analysis_is_double_dummy() -> None:
    """Every six held: double dummy, sixes make 42 on every deal; with blanks trump the same hand cannot."""
    a = app.analyze(
        RunSpec("forty-two", n=16),
        "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
        seat="N",
        play="perfect",
        execution=Execution(jobs=1),
    )
    f = a.frame.set_index(["trump", "bid"])
    assert f.loc[(6, 42), "p_make"] == 1.0 and f.loc[(6, 30), "p_make"] == 1.0
    assert f.loc[(0, 42), "p_make"] < 1.0
    assert a.provenance["play"] == "perfect" and "--play perfect" in a.provenance["command"]


def test_an_undefined_gap_is_said_in_words_never_nan() -> None:
    assert gap_text(float("nan"), float("nan"), float("nan")) == "undefined (no cases)"
    assert gap_text(18.0, float("nan"), float("nan")) == "+18.00 [undefined: too few deals]"
    assert gap_text(1.5, 0.25, 2.75) == "+1.50 [+0.25, +2.75]"
    one = app.analyze(
        RunSpec("forty-two", n=1), "6-6 6-5 5-5 4-4 6-4 3-2 1-0", seat="W", execution=Execution(jobs=1)
    )
    text = " ".join(str(line) for line in one.rendered if isinstance(line, str))
    assert "nan" not in text and "[undefined: too few deals]" in text and "s.e. undefined" in text


def test_the_output_says_who_played_and_what_several_best_trumps_allow_for() -> None:
    """With a few deals several trumps stay in the best set: the verdict says the set allows for the choice
    among all trumps and that the gap's interval is one comparison alone; the last line says who played."""
    a = app.analyze(
        RunSpec("forty-two", n=60, seed=1, seats=("NS=heuristic",)),
        "6-6 6-5 5-5 4-4 6-4 3-2 1-0",
        seat="W",
        execution=Execution(jobs=1),
    )
    assert len(a.advice["best_set"]) > 1
    text = [line for line in a.rendered if isinstance(line, str)]
    verdict = next(line for line in text if line.startswith("advice:"))
    trumps = len(a.advice["compared"])
    assert f"once the choice among {trumps} trumps is allowed for; compared alone" in verdict
    assert text[-1] == "play: heuristic at N, S; learned at E, W"  # learned: the studies' default
    assert seats_text(["N", "E", "S", "W"], ["heuristic"] * 4) == "heuristic at every seat"


def test_perfect_play_refuses_strategies_it_never_reads() -> None:
    with pytest.raises(DealsimError, match=r"--play perfect .* reads no strategy.*NS=learned"):
        app.analyze(
            RunSpec("forty-two", n=20, seats=("NS=learned",)),
            "6-6 6-5 5-5 4-4 6-4 3-2 1-0",
            seat="W",
            play="perfect",
            execution=Execution(jobs=1),
        )
