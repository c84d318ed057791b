"""The help-value study: its arms play the same deals, a small run writes every file of the report, and its
frequencies take the game as the unit."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from reports import help_value
from simulator import app
from simulator.errors import DealsimError
from simulator.runner import execute
from simulator.specs import Execution, Output, RunSpec
from simulator.stats import Measure, estimate, wilson
from tests.cli_helpers import assert_findings_quote_tables, findings_and_cells


def test_the_arms_play_identical_deals() -> None:
    base = RunSpec("franks-zoo", n=30, seed=4, seats={"all": "greedy"}, unit="match", chunk_size=10).build()
    assert [a.rules.players for _, _, a, _, _ in help_value.arms(base)] == [4, 4, 5, 5, 6, 6, 7, 7]
    a = execute(help_value._arm(base, 5, "captured"), jobs=1).tables["deals"]
    b = execute(help_value._arm(base, 5, "captured", ask="false"), jobs=1).tables["deals"]
    first = [t[t["number"] == 1].reset_index(drop=True) for t in (a, b)]
    pd.testing.assert_frame_equal(*first)  # the first hand has no help: the same deal plays the same
    assert (b.loc[b["player"] == 0, "help_asked"] == 0).all() and a.loc[
        a["player"] == 0, "help_asked"
    ].sum() > 0
    assert not a.equals(b)  # later hands differ: seat 0's asking changed the play


def test_a_small_report_writes_every_file(tmp_path) -> None:
    r = app.report(
        "help-value",
        RunSpec("franks-zoo", n=12, seed=2, seats={"all": "greedy"}, chunk_size=12),
        execution=Execution(jobs=1),
        output=Output(folder=tmp_path),
    )
    names = {p.name for p in r.written}
    assert {
        "report.html",
        "provenance.json",
        "value_of_asking.csv",
        "value_of_asking.png",
        "value_of_answering.csv",
        "value_of_answering.png",
        "help_frequency.csv",
        "edges.csv",
        "exchange.csv",
        "requests_completable.csv",
    } <= names
    assert all(p.exists() for p in r.written)
    html = (tmp_path / "report.html").read_text()
    assert html.index("Findings") < html.index("The value of asking for help") < html.index("Provenance")
    assert "seat 0 asking for help as greedy (every other seat greedy)" in html
    assert "dealsim report help-value -n 12 --seed 2" in html
    assert "--matches" not in html
    assert assert_findings_quote_tables(html) >= 8
    # how often help is asked, granted and wins the trick: every figure with its interval
    (often,) = [f for f in findings_and_cells(html)[0] if f.startswith("A junior asks")]
    interval = r"[\d.]+% \[[\d.]+, [\d.]+\]"
    assert re.search(rf"asks [\d.]+ ± [\d.]+ times per hand; {interval} of [\d,]+ requests", often)
    assert re.search(rf" and {interval} of [\d,]+ helped sets take the trick", often)
    (completable,) = [f for f in findings_and_cells(html)[0] if "could be completed" in f]
    assert re.match(rf"{interval} of [\d,]+ requests \(the first chunk", completable)
    asking = pd.read_csv(tmp_path / "value_of_asking.csv")
    assert set(asking["players"]) == {4, 5, 6, 7} and set(asking["hedgehog"]) == {"captured", "missing"}
    assert (asking["lo"] <= asking["difference"]).all() and (asking["difference"] <= asking["hi"]).all()
    assert json.loads((tmp_path / "provenance.json").read_text())["study"] == "help-value"
    assert r.headline[0].startswith("The value of asking, 5 players")


def test_seat_0_may_differ_but_the_others_play_alike() -> None:
    mixed = RunSpec(
        "franks-zoo", n=10, seed=1, seats={"all": "heuristic", "0": "greedy"}, unit="match"
    ).build()
    assert all(
        run.seats[1:] == ("heuristic",) * (run.rules.players - 1) and run.seats[0] == "greedy"
        for _, _, run, _, _ in help_value.arms(mixed)
    )
    assert help_value.arms(mixed)[0][3].seats[0] == "greedy:ask=false"
    uneven = RunSpec(
        "franks-zoo", n=10, seed=1, seats={"all": "heuristic", "2": "random"}, unit="match"
    ).build()
    with pytest.raises(DealsimError, match="every seat but 0"):
        help_value.arms(uneven)
    # a parameter the switch leaves unread is dropped from that arm: the old heuristic never asking
    old = RunSpec("franks-zoo", n=10, seed=1, seats={"all": "heuristic:count=false"}, unit="match").build()
    _, _, a, no_ask, no_answer = help_value.arms(old)[0]
    assert a.seats[0] == "heuristic:count=false" and no_ask.seats[0] == "heuristic:ask=false"
    assert no_answer.seats[0] == "heuristic:count=false,answer=false"
    assert no_ask.seats[1:] == a.seats[1:]
    no_switch = RunSpec("franks-zoo", n=10, seed=1, seats={"0": "random"}, unit="match").build()
    with pytest.raises(DealsimError, match="ask"):
        help_value.arms(no_switch)


def test_help_frequencies_take_the_game_as_the_unit() -> None:
    """Games whose hands are copies of each other: the game-based interval of the share of requests granted
    is the ratio estimate's over the games, twice as wide as Wilson's over requests (four hands a game)."""
    games, hands = 30, 4
    granted_by_game = np.arange(games) % 3  # 0, 1 or 2 of a junior's 3 requests granted, each hand alike
    h = pd.DataFrame(
        {
            "match": np.repeat(np.arange(games), hands * 2),
            "role": np.tile(["junior", "senior"], games * hands),
            "help_asked": np.tile([3, 0], games * hands),
            "help_given": np.repeat(granted_by_game, hands * 2) * np.tile([1, 0], games * hands),
            "help_won": np.zeros(games * hands * 2),
        }
    )
    f = help_value._frequency(h)
    given = granted_by_game * hands
    e = estimate(Measure("granted", given, np.full(games, 3 * hands), binary=True))
    assert (f["granted"], f["granted lo"], f["granted hi"]) == pytest.approx((e.value, e.lo, e.hi))
    naive = wilson(int(given.sum()), 3 * hands * games)
    assert f["granted hi"] - f["granted lo"] > 1.8 * (naive[1] - naive[0])
    assert f["requests per junior hand"] == 3 and f["requests se"] == 0  # every junior asks three times


def test_requests_by_table_take_the_game_as_the_unit() -> None:
    requests = pd.DataFrame(
        {
            "table kind": ["mouse"] * 40,
            "cards laid": [1] * 40,
            "granted": np.repeat(np.arange(10) % 2 == 0, 4),
            "game": np.repeat(np.arange(10), 4),
        }
    )
    (row,) = help_value._granted_by_table(requests).to_dict(orient="records")
    per_game = np.where(np.arange(10) % 2 == 0, 4.0, 0.0)
    e = estimate(Measure("granted", per_game, np.full(10, 4.0), binary=True))
    assert row["requests"] == 40
    assert (row["granted"], row["lo"], row["hi"]) == pytest.approx((e.value, e.lo, e.hi))
    naive = wilson(20, 40)
    assert row["hi"] - row["lo"] > 1.8 * (naive[1] - naive[0])
