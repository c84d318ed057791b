"""Forty-two studies: dealing, analyze, paired comparisons, tuning sweeps and the bid-success report."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from reports.estimates import estimate
from reports.experiments import apply_setting, compare, parse_values, tune
from simulator import games
from simulator.cli import app
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.analyze import parse_hand
from simulator.runner import Run, execute

runner = CliRunner()
GAME = games.get("forty-two")


def small_run(**changes) -> Run:
    base = Run(game="forty-two", n=1200, seed=4, rules=GAME.rules(), seats=("heuristic",) * 4, unit="hand",
               chunk_size=400)
    return dataclasses.replace(base, **changes)


def test_doubles_per_hand_follow_the_hypergeometric_law() -> None:
    """Shares of hands with 0..4 doubles: 9.82 / 32.08 / 36.09 / 17.69 / 3.93 %."""
    exact = np.array([comb(7, k) * comb(21, 7 - k) / comb(28, 7) for k in range(8)])
    assert np.round(100 * exact[:5], 2).tolist() == [9.82, 32.08, 36.09, 17.69, 3.93]
    hands = core.shuffled_hands(np.random.default_rng(2024), 50_000).reshape(-1)  # 200,000 hands
    counts = np.bincount(np.bitwise_count(hands & D.DOUBLE_BITS), minlength=8)
    # Pearson chi-square over 0, 1, 2, 3, 4 and 5+ doubles; 5 degrees of freedom, 0.1% critical value 20.5.
    observed = np.append(counts[:5], counts[5:].sum())
    expected = len(hands) * np.append(exact[:5], exact[5:].sum())
    assert ((observed - expected) ** 2 / expected).sum() < 20.5
    seat_share = np.bincount(np.flatnonzero(hands & np.uint32(1)) % 4, minlength=4) / (len(hands) / 4)
    assert np.allclose(seat_share, 0.25, atol=0.01)  # the 0-0 goes to each seat alike


def test_analyze_never_deals_a_fixed_domino_to_another_seat() -> None:
    fixed = parse_hand("6-6 6-5 5-5 4-4 6-4 3-2 1-0")
    for seat in range(4):
        hands = core.deal_around(np.random.default_rng(seat), 20_000, seat, fixed)
        assert (hands[:, seat] == fixed).all()
        others = np.delete(hands, seat, axis=1)
        assert ((others & np.uint32(fixed)) == 0).all()
        assert (np.bitwise_count(others) == 7).all()
        assert (np.bitwise_or.reduce(hands, axis=1) == D.ALL).all()
    rest = np.delete(core.deal_around(np.random.default_rng(9), 20_000, 0, fixed), 0, axis=1)
    share = ((rest[:, 0:1] >> np.arange(28, dtype=np.uint32)) & 1).mean(axis=0)
    free = [d for d in range(28) if not fixed >> d & 1]
    assert np.allclose(share[free], 1 / 3, atol=0.02)  # each free domino goes to each other seat alike


@pytest.mark.parametrize("text,message", [
    ("6-6 6-5 5-5", "a hand is 7 dominoes; got 3"),
    ("6-6 6-5 5-5 4-4 6-4 3-2 6-6", "appears twice"),
    ("6-6 6-5 5-5 4-4 6-4 3-2 7-1", "not a domino"),
    ("6-6 6-5 5-5 4-4 6-4 3-2 x", "not a domino"),
])
def test_malformed_hands_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(DealsimError, match=message):
        parse_hand(text)
    done = subprocess.run([sys.executable, "-m", "simulator", "analyze", "forty-two", "--hand", text, "-n", "10"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_analyze_plays_every_trump_and_bid_on_the_same_deals() -> None:
    result = runner.invoke(app, ["analyze", "forty-two", "--hand", "6-6 6-5 6-4 6-3 6-2 6-1 6-0", "--seat", "E",
                                 "-n", "300", "-j", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = pd.DataFrame(data["rows"])
    assert len(rows) == 7 * 13 and set(rows["bid"]) == set(range(30, 43))
    assert (rows["deals"] == 300).all()
    sixes = rows[rows["trump"] == 6]
    assert (sixes["p_make"] == 1).all()  # all seven trumps: every trick is the declarer's
    assert data["best"]["trump"] == 6 and data["best"]["score_diff"] == 42  # every bid scores 42 : 0 here
    # a higher bid never makes more often on the same deals
    for _, t in rows.groupby("trump"):
        assert (np.diff(t.sort_values("bid")["p_make"].to_numpy()) <= 0).all()


def test_comparing_a_strategy_with_itself_is_exactly_zero() -> None:
    a = small_run(seats=("heuristic:threshold=31", "random", "heuristic", "random"))
    b = dataclasses.replace(a, seats=("heuristic", "random", "heuristic:threshold=31", "random"))
    result = compare(a, b, jobs=1)
    for row in result["rows"]:
        assert row["diff"] == 0 and row["lo"] == 0 and row["hi"] == 0, row


def test_paired_comparison_narrows_the_interval() -> None:
    a = small_run(n=3000, seats=("heuristic:threshold=30", "heuristic") * 2)
    b = dataclasses.replace(a, seats=("heuristic:threshold=34", "heuristic") * 2)
    result = compare(a, b, jobs=1)
    assert result["side"] == "NS"
    margin = next(r for r in result["rows"] if r["measure"] == "NS score margin per hand")
    assert margin["narrowing"] > 1.2
    assert margin["se"] < margin["se_independent"]


@pytest.mark.parametrize("unit", ["hand", "match"])
def test_a_sweep_of_one_value_equals_a_plain_simulation(unit: str) -> None:
    base = small_run(unit=unit, n=600 if unit == "hand" else 150, chunk_size=200 if unit == "hand" else 50)
    swept = tune(base, [("min_bid", ["30"])], jobs=1)
    plain = execute(base, jobs=1)
    for m in GAME.measures(plain.tables, unit):
        e = estimate(m)
        assert swept.loc[0, m.name] == e["value"] and swept.loc[0, f"{m.name} lo"] == e["lo"], m.name


def test_sweep_values_and_settings() -> None:
    assert parse_values("30:33") == ["30", "31", "32", "33"]
    assert parse_values("0.5:1.5:0.5") == ["0.5", "1.0", "1.5"]
    assert parse_values("seed,texas") == ["seed", "texas"]
    run = apply_setting(small_run(), "seat.NS.threshold", "33")
    assert run.seats == ("heuristic:threshold=33", "heuristic", "heuristic:threshold=33", "heuristic")
    assert apply_setting(small_run(), "rule.min_bid", "28").rules.min_bid == 28
    with pytest.raises(DealsimError, match="min_bid"):
        apply_setting(small_run(), "min_bid", "99")
    with pytest.raises(DealsimError, match="unknown heuristic parameter"):
        apply_setting(small_run(), "seat.EW.nope", "1")
    with pytest.raises(DealsimError):
        parse_values("36:30")


def test_tune_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    result = runner.invoke(app, ["tune", "forty-two", "--vary", "min_bid=28,30", "--vary", "seat.EW=heuristic,greedy",
                                 "-n", "60", "-j", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out / "tune.csv")
    assert len(frame) == 4 and {"min_bid", "seat.EW", "thrown in", "hands per game", "NS wins"} <= set(frame.columns)
    for name in ["report.html", "provenance.json", "tune_thrown_in.png", "tune_contract_success.png",
                 "tune_score_swing_per_contract.png", "tune_hands_per_game.png", "tune_first_dealer_s_side_wins.png"]:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 8 and "dealsim tune forty-two" in html


def test_bid_success_report_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "bid"
    result = runner.invoke(app, ["report", "bid-success", "-n", "3000", "--games", "40", "-j", "1", "--seed", "3",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected = ["report.html", "provenance.json", "success_by_bid.csv", "success_by_bid.png", "swing_by_bid.csv",
                "trumps.csv", "trumps.png", "hands_per_game.csv", "hands_per_game.png"]
    for feature in ["declarer_trumps", "declarer_doubles", "declarer_exposed", "side_trumps", "side_doubles",
                    "side_count"]:
        expected += [f"success_by_{feature}.csv", f"success_by_{feature}.png"]
    for name in expected:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 9
    assert "<tr><th>seed</th><td>3</td></tr>" in html  # the provenance table states the seed
    assert "dealsim report bid-success" in html
    levels = pd.read_csv(out / "success_by_bid.csv")
    hands = int(levels["contracts"].sum())
    assert 0 < hands <= 3000 and ((levels["lo"] <= levels["rate"]) & (levels["rate"] <= levels["hi"])).all()
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["seed"] == 3 and provenance["deals"] == 3000 and provenance["matches"] == 40


def test_compare_cli_reports_paired_differences(tmp_path: Path) -> None:
    result = runner.invoke(app, ["compare", "forty-two", "--seat", "NS=heuristic:threshold=31", "--vs",
                                 "NS=heuristic:threshold=34", "-n", "800", "-j", "1", "--unit", "match",
                                 "--format", "json", "-o", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = {r["measure"] for r in data["rows"]}
    assert {"NS score margin per hand", "contract success", "NS wins"} <= names
    assert (tmp_path / "c" / "report.html").exists() and (tmp_path / "c" / "compare.csv").exists()
    same = runner.invoke(app, ["compare", "forty-two", "--vs", "NS=heuristic", "-n", "10"])
    assert same.exit_code != 0
