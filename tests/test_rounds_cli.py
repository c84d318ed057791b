"""Rounds from the command line and its matches against the reference engine."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.rounds import play, reference
from simulator.rounds.rules import RoundsRules
from simulator.rounds.trace import deal_of
from strategies import make

runner = CliRunner()


def run_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "rounds", "--format", "json", "--no-progress", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("unit", ["game", "match"])
def test_same_seed_same_results_for_any_jobs(unit: str, tmp_path: Path) -> None:
    args = ["-n", "3000" if unit == "game" else "300", "--chunk-size", "500" if unit == "game" else "50",
            "--seed", "5", "--unit", unit, "--seat", "1=random"]
    one = run_json(*args, "-j", "1", "-o", str(tmp_path / "a"))
    two = run_json(*args, "-j", "2", "-o", str(tmp_path / "b"))
    assert one["summary"] == two["summary"]
    for name in ["games.parquet"] + (["matches.parquet"] if unit == "match" else []):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / name), pd.read_parquet(tmp_path / "b" / name))


def test_summary_and_trace_of_a_run(tmp_path: Path) -> None:
    out = tmp_path / "r"
    data = run_json("-n", "2000", "--seed", "2", "-j", "1", "-o", str(out), "--rule", "rank_trumps=true")
    s = data["summary"]
    assert s["games"] == 2000 and len(s["stages"]) == 5
    games = pd.read_parquet(out / "games.parquet").set_index("game")
    result = runner.invoke(app, ["trace", "rounds", "--run", str(out), "--deal", "1234", "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)["trace"]["games"][0]
    assert trace["points"] == [games.loc[1234, "points_0"], games.loc[1234, "points_1"]]
    text = runner.invoke(app, ["trace", "rounds", "--run", str(out), "--deal", "5"])
    assert text.exit_code == 0 and "Stage 5" in text.stdout


def test_matches_equal_the_reference_engine() -> None:
    rules = RoundsRules(target=120)
    strategies = [make("rounds", "heuristic"), make("rounds", "greedy")]
    dealt: dict[tuple[int, int], tuple] = {}

    def keep(matches: np.ndarray, state) -> None:
        for row, m in enumerate(matches):
            number = sum(1 for k in dealt if k[0] == m)
            dealt[int(m), number] = deal_of(state, row)

    rng = np.random.default_rng(6)
    games, matches = play.play_matches(rng, [rng] * 2, np.arange(60), rules, strategies, on_games=keep)
    for m in matches.itertuples():
        ref = reference.play_match(lambda g, k=m.match: dealt[k, g], int(m.first_dealer), rules, strategies)
        assert len(ref.games) == m.games
        assert ref.totals == (m.final_0, m.final_1)
        assert (-1 if ref.winner is None else ref.winner) == m.winner
        mine = games[games["match"] == m.match]
        assert [g.points for g in ref.games] == list(zip(mine["points_0"], mine["points_1"]))


def test_match_winner_needs_a_strictly_higher_total() -> None:
    got = play.match_winner(np.array([[200, 150], [210, 220], [205, 205], [199, 0]]), 200)
    assert got.tolist() == [0, 1, -1, -1]


def test_sweep_value_report_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "sv"
    result = runner.invoke(app, ["report", "sweep-value", "-n", "2000", "--matches", "30", "-j", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    for name in ["report.html", "provenance.json", "fifth_trick.csv", "taking_pays.png", "value_of_ducking.csv",
                 "edge_by_stage.csv", "edge_by_stage.png", "matches_by_bonus.csv", "games_per_match.png",
                 "sweeps_by_bonus.png"]:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 4 and "dealsim report sweep-value" in html
    value = pd.read_csv(out / "value_of_ducking.csv").set_index("measure")
    assert value.loc["player 0 margin per game", "deals"] == 2000
    fifth = pd.read_csv(out / "fifth_trick.csv")
    assert list(fifth["stage"]) == [1, 2, 3, 4, 5] and (fifth["share of stages"].between(0, 1)).all()
    bonuses = pd.read_csv(out / "matches_by_bonus.csv")
    assert list(bonuses["sweep_bonus"]) == [0, 5, 10, 15, 20, 30]


def test_ducking_off_never_ducks_and_a_heuristic_with_itself_is_zero() -> None:
    import dataclasses

    from reports.experiments import compare
    from simulator import games
    from simulator.runner import Run

    g = games.get("rounds")
    a = Run(game="rounds", n=1500, seed=3, rules=g.rules(), seats=("heuristic", "heuristic"), unit="game",
            chunk_size=500)
    same = compare(a, dataclasses.replace(a, seats=("heuristic:duck=true", "heuristic")), jobs=1)
    assert all(r["diff"] == 0 for r in same["rows"])
    off = compare(a, dataclasses.replace(a, seats=("heuristic:duck=false", "heuristic")), jobs=1)
    assert off["side"] == "0"
    margin = next(r for r in off["rows"] if r["measure"] == "player 0 margin per game")
    assert margin["diff"] != 0 and margin["narrowing"] > 2


def test_card_points_are_checked() -> None:
    import subprocess
    import sys

    for value, message in [("2=10,2=3", "given twice"), ("A=101", "out of range 0..100"), ("Z=3", "RANK=POINTS")]:
        done = subprocess.run([sys.executable, "-m", "simulator", "simulate", "rounds", "-n", "5", "--rule",
                               f"card_points={value}"], capture_output=True, text=True, check=False)
        assert done.returncode == 2 and message in done.stderr, done.stderr
