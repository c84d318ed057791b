"""Frank's Zoo from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from simulator.cli import app

runner = CliRunner()


def run_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "franks-zoo", "--format", "json", "--no-progress", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("unit", ["match", "hand"])
def test_same_seed_same_results_for_any_jobs(unit: str, tmp_path: Path) -> None:
    args = ["-n", "400", "--chunk-size", "100", "--seed", "4", "--unit", unit, "--seat", "2=random"]
    one = run_json(*args, "-j", "1", "-o", str(tmp_path / "a"))
    two = run_json(*args, "-j", "2", "-o", str(tmp_path / "b"))
    assert one["summary"] == two["summary"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / "hands.parquet"),
                                  pd.read_parquet(tmp_path / "b" / "hands.parquet"))


def test_games_table_trace_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "z"
    data = run_json("-n", "120", "--seed", "2", "-j", "1", "--rule", "players=6", "-o", str(out))
    assert len(data["summary"]["by_seat"]) == 6 and data["summary"]["games"]["games"] == 120
    hands = pd.read_parquet(out / "hands.parquet")
    games = pd.read_parquet(out / "games.parquet").set_index("game")
    for source in ["placement", "team", "solo_bonus", "lions", "hedgehog", "last_lions"]:
        assert f"points_{source}" in hands.columns
    sums = hands[[c for c in hands.columns if c.startswith("points_")]].sum(axis=1)
    assert (sums == hands["points"]).all()
    # a game ends when two players reach 19; the winner leads the final standings
    finals = games[[f"total_{i}" for i in range(6)]]
    assert ((finals >= 19).sum(axis=1) >= 2).all()
    result = runner.invoke(app, ["trace", "franks-zoo", "--run", str(out), "--deal", "7", "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)["trace"]
    assert len(trace["hands"]) == games.loc[7, "hands"]
    text = runner.invoke(app, ["trace", "franks-zoo", "--run", str(out), "--deal", "7"])
    assert text.exit_code == 0 and "=== hand 2 ===" in text.stdout


@pytest.mark.parametrize("args,message", [
    (["--rule", "players=8"], "out of range 4..7"),
    (["--rule", "end_players=6"], "end_players (6) cannot exceed players (5)"),
    (["--rule", "hedgehog_penalty=sometimes"], "not one of captured, missing"),
    (["--seat", "5=greedy"], "unknown franks-zoo seat '5'"),
    (["--rule", "target=600"], "out of range 1..500"),
])
def test_bad_input_is_one_clear_line(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "simulator", "simulate", "franks-zoo", "-n", "5", *args],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_sweeping_the_player_count_needs_one_strategy_everywhere() -> None:
    same = runner.invoke(app, ["tune", "franks-zoo", "-n", "20", "-j", "1", "--vary", "players=4,6", "--format", "json"])
    assert same.exit_code == 0, same.output
    assert [r["players"] for r in json.loads(same.stdout)["rows"]] == [4, 6]
    mixed = subprocess.run([sys.executable, "-m", "simulator", "tune", "franks-zoo", "-n", "20", "--vary",
                            "players=5,6", "--seat", "0=random"], capture_output=True, text=True, check=False)
    assert mixed.returncode == 2 and "the seats' strategies differ" in mixed.stderr
