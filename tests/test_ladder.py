"""The strategy ladder: the seats really rotate on the same deals, Bradley-Terry recovers known strengths,
the errors, the command line's output and the report's files."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.ladders import ELO, bradley_terry, ladder, top_shares
from simulator.specs import RunSpec
from strategies.rounds import Heuristic
from tests.cli_helpers import run_cli


@dataclasses.dataclass(frozen=True)
class Twin(Heuristic):
    """Rounds' heuristic under another class: plays every deal exactly as the heuristic does."""


TWIN = "tests.test_ladder:Twin"


def test_twins_split_every_deal_evenly():
    """A strategy against its exact twin, in both orientations on the same deals: on every deal the mean of
    the two orientations is a margin of 0 and half a win, so the paired result is exactly 0 and 50%, and the
    ratings are equal. Were the seats not swapped (or the deals not the same), the margin would not cancel."""
    result = ladder(RunSpec("rounds", n=60).build(), ["heuristic", TWIN], jobs=1)
    p = result.pairs.set_index(["entrant", "opponent", "measure"])
    for a, b in (("heuristic", TWIN), (TWIN, "heuristic")):
        assert p.loc[(a, b, "score"), ["value", "lo", "hi"]].tolist() == [0.0, 0.0, 0.0]
        assert p.loc[(a, b, "win rate"), "value"] == 0.5
    assert result.ratings["rating"].abs().max() < 1e-9
    assert result.runs == 2


def test_orientations_swap_the_sides():
    """In the runs of a pair, each strategy sits once on each side: the balance table names both."""
    result = ladder(RunSpec("forty-two", n=40).build(), ["greedy", "heuristic"], jobs=1)
    orientations = set(result.balance["orientation"])
    assert {"greedy at NS, heuristic at EW", "heuristic at NS, greedy at EW", "all"} <= orientations
    p = result.pairs.set_index(["entrant", "opponent", "measure"])["value"]
    # one side's margin is the other's loss, deal by deal, so the pair's results mirror exactly
    assert p[("greedy", "heuristic", "score")] == pytest.approx(-p[("heuristic", "greedy", "score")])
    assert p[("greedy", "heuristic", "win rate")] == pytest.approx(1 - p[("heuristic", "greedy", "win rate")])


def test_bradley_terry_recovers_known_strengths():
    rng = np.random.default_rng(5)
    truth = np.array([0.0, 0.5, 1.0, 2.0])
    k, games = len(truth), 4000
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + np.exp(truth[j] - truth[i]))
            w = rng.binomial(games, p)
            wins[i, j], wins[j, i] = w, games - w
    fitted = bradley_terry(wins, virtual=0.0)
    assert fitted == pytest.approx(truth - truth.mean(), abs=0.08)
    # bootstrap resamples along a leading axis are fitted at once, each as alone
    both = bradley_terry(np.stack([wins, wins.T]), virtual=0.0)
    assert both[0] == pytest.approx(fitted) and both[1] == pytest.approx(-fitted)
    # one that won everything keeps a finite rating
    assert np.isfinite(bradley_terry(np.array([[0, 10], [0, 0]]))).all()
    assert ELO * np.log(10) == pytest.approx(400)


def test_top_shares_split_ties():
    shares = top_shares(np.array([[3.0, 1.0, 2.0], [1.0, 1.0, np.nan]]))
    assert shares.tolist() == [[1.0, 0.5, 1.0], [0.0, 0.5, 0.0]]


def test_field_each_entrant_in_each_seat():
    result = ladder(RunSpec("franks-zoo", n=3, rules={"players": 4}).build(), ["random", "greedy"], jobs=1)
    assert result.field == "heuristic" and not result.head_to_head
    assert result.seats is not None and len(result.seats) == 2 * 4
    # random in seat 0 against the field, ..., greedy in seat 3: eight seatings, each played once
    assert result.runs == 8
    p = result.pairs.set_index(["entrant", "opponent", "measure"])["value"]
    assert p[("greedy", "random", "score")] == pytest.approx(-p[("random", "greedy", "score")])


@pytest.mark.parametrize(
    ("strategies", "field", "message"),
    [
        (["heuristic"], None, "at least two strategies"),
        (["heuristic", "nonesuch"], None, "unknown rounds strategy 'nonesuch'"),
        (["greedy", "greedy"], None, "greedy given twice"),
        (["heuristic", "heuristic:trump_cost=3"], None, "play exactly alike"),
        (["greedy", "heuristic"], "greedy", "--field: rounds has two sides"),
    ],
)
def test_errors(strategies, field, message):
    spec = RunSpec("rounds", n=10)
    with pytest.raises(DealsimError, match=message):
        app.ladder(spec, strategies, field, app.Execution(1))


def test_cli_prints_findings_and_matrix():
    code, out, err = run_cli(
        "ladder", "rounds", "--strategy", "random", "--strategy", "greedy", "-n", "40", "-j", "1"
    )
    assert code == 0, err
    assert "is rated highest" in out
    assert "row's win rate against the column" in out
    assert "random" in out and "greedy" in out


def test_cli_refuses_one_strategy_and_report_options():
    code, _, err = run_cli("ladder", "rounds", "--strategy", "greedy", "-n", "10", "-j", "1")
    assert code == 2 and "at least two strategies" in err
    code, _, err = run_cli("report", "ladder", "-n", "10")
    assert code == 2 and "report ladder needs a game" in err
    code, _, err = run_cli("report", "bid-success", "--strategy", "greedy", "-n", "10")
    assert code == 2 and "--strategy cannot be given" in err


def test_report_ladder_writes_the_files(tmp_path):
    folder = tmp_path / "lad"
    code, out, err = run_cli(
        "report", "ladder", "rounds", "--strategy", "greedy", "--strategy", "heuristic",
        "-n", "30", "-j", "1", "-o", folder,
    )  # fmt: skip
    assert code == 0, err
    names = {p.name for p in folder.iterdir()}
    assert {"report.html", "ratings.csv", "ratings.png", "pairs.csv", "balance.csv"} <= names
    assert {"matrix_win_rate.png", "matrix_score.png", "provenance.json"} <= names
    prov = json.loads((folder / "provenance.json").read_text())
    assert prov["command"].startswith("dealsim report ladder rounds -n 30 --seed 1")
    assert prov["strategies"] == ["greedy", "heuristic"] and prov["seed"] == 1
    assert "rules" in prov and "dealsim" in prov
    assert "is rated highest" in (folder / "report.html").read_text()
    assert "wrote" in out


@pytest.mark.slow
def test_the_rating_intervals_keep_their_coverage() -> None:
    """Over 100 seeds of 300 Rounds games per orientation, each strategy's bootstrap 95% rating interval holds
    its rating from 100,000 games per orientation in at least 90% of seeds (95% allowing for sampling error
    and the bootstrap's own approximation)."""
    entrants = ["random", "greedy", "heuristic"]

    def ratings(n: int, seed: int) -> Any:
        base = RunSpec("rounds", n=n, seed=seed, unit="deal").build()
        return ladder(base, entrants, jobs=1).ratings.set_index("entrant")

    truth = ratings(100_000, 10_000)["rating"]
    held = []
    for seed in range(100):
        r = ratings(300, seed)
        held.append([r.at[e, "rating lo"] <= truth[e] <= r.at[e, "rating hi"] for e in entrants])
    coverage = np.mean(held, axis=0)
    assert (coverage >= 0.90).all(), dict(zip(entrants, coverage))
