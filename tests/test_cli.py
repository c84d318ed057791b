"""The command line: results, files, reproducibility across --jobs, traces, and clear errors."""

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


def dealsim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True, timeout=300, check=False)


def summary_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "forty-two", "--format", "json", "--no-progress", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_same_seed_same_summary_for_any_jobs() -> None:
    args = ["-n", "6000", "--seed", "11", "--chunk-size", "1000", "--seat", "EW=random"]
    one, two = summary_json(*args, "-j", "1"), summary_json(*args, "-j", "2")
    assert one["summary"] == two["summary"]
    other = summary_json("-n", "6000", "--seed", "12", "--chunk-size", "1000", "--seat", "EW=random", "-j", "1")
    assert other["summary"] != one["summary"]


def test_simulate_writes_table_summary_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "forty-two", "-n", "3000", "--seed", "3", "-j", "1", "--no-progress",
                                 "--rule", "count_values=texas", "--seat", "N=heuristic:threshold=30", "-o", str(out)])
    assert result.exit_code == 0, result.output
    hands = pd.read_parquet(out / "hands.parquet")
    for column in ["dealer", "declarer", "bid", "trump", "points_ns", "points_ew", "score_ns", "score_ew", "made"]:
        assert column in hands.columns
    assert len(hands) == 3000
    assert hands.loc[hands["thrown_in"], "declarer"].isna().all()
    assert (hands.loc[~hands["thrown_in"], ["points_ns", "points_ew"]].sum(axis=1) == 42).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 3 and manifest["deals"] == 3000 and manifest["complete"]
    assert manifest["rules"]["count_values"] == "texas"
    assert manifest["seats"]["N"] == "heuristic:threshold=30" and manifest["seats"]["E"] == "heuristic"
    for key in ["command", "dealsim", "numpy", "chunk_size", "elapsed_seconds", "jobs"]:
        assert key in manifest
    summary = pd.read_csv(out / "summary.csv")
    assert "thrown_in" in set(summary["metric"])


def test_trace_is_the_hand_the_run_played(tmp_path: Path) -> None:
    args = ["-n", "3000", "--seed", "5", "--chunk-size", "1000", "--seat", "NS=random"]
    out = tmp_path / "run"
    assert runner.invoke(app, ["simulate", "forty-two", *args, "-j", "1", "--no-progress", "-o", str(out)]).exit_code == 0
    hands = pd.read_parquet(out / "hands.parquet").set_index("deal")
    for deal in (0, 1234, 2999):
        result = runner.invoke(app, ["trace", "forty-two", *args, "--deal", str(deal), "--json"])
        assert result.exit_code == 0, result.output
        trace = json.loads(result.stdout)["trace"]
        row = hands.loc[deal]
        assert trace["dealer"] == row["dealer"]
        assert trace["points"] == [row["points_ns"], row["points_ew"]]
        assert trace["score"] == [row["score_ns"], row["score_ew"]]
        assert trace["thrown_in"] == row["thrown_in"]
        if not row["thrown_in"]:
            assert (trace["declarer"], trace["bid"], trace["trump"]) == (row["declarer"], row["bid"], row["trump"])
    text = runner.invoke(app, ["trace", "forty-two", *args, "--deal", "7"])
    assert text.exit_code == 0 and ("Trick 7" in text.stdout or "thrown in" in text.stdout)


def test_match_unit_plays_games_to_the_target(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = runner.invoke(app, ["simulate", "forty-two", "-n", "200", "--unit", "match", "--seed", "2", "-j", "1",
                                 "--no-progress", "-o", str(out), "--rule", "target=100"])
    assert result.exit_code == 0, result.output
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 200
    assert ((games[["final_ns", "final_ew"]].max(axis=1) >= 100) | games["winner"].isna()).all()
    hands = pd.read_parquet(out / "hands.parquet")
    assert hands.groupby("game")["hand"].max().tolist() == games["hands"].tolist()


def test_listings_name_every_rule_option_and_strategy() -> None:
    games = runner.invoke(app, ["games"])
    for option in ["count_values", "auction", "jump_bids", "min_bid", "target"]:
        assert option in games.stdout
    strategies = runner.invoke(app, ["strategies", "forty-two"])
    for name in ["random", "greedy", "heuristic", "threshold"]:
        assert name in strategies.stdout


@pytest.mark.parametrize("args,message", [
    (["--rule", "colour=red"], "unknown rule 'colour'"),
    (["--rule", "min_bid=abc"], "min_bid: expected a whole number"),
    (["--rule", "min_bid=50"], "out of range"),
    (["--rule", "auction=fast"], "not one of seed, one-lap"),
    (["--rule", "jump_bids=maybe"], "expected true or false"),
    (["--seat", "N=clever"], "unknown forty-two strategy 'clever'"),
    (["--seat", "N=heuristic:thresh=3"], "unknown heuristic parameter 'thresh'"),
    (["--seat", "Q=random"], "unknown forty-two seat 'Q'"),
    (["--rules", "/no/such/file.toml"], "rules file not found"),
    (["--preset", "french"], "unknown forty-two preset"),
    (["--unit", "week"], "has no unit 'week'"),
])
def test_bad_input_is_one_clear_line_and_a_non_zero_exit(args: list[str], message: str) -> None:
    done = dealsim("simulate", "forty-two", "-n", "10", *args)
    assert done.returncode == 2
    assert message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_unknown_game_is_a_clear_error() -> None:
    done = dealsim("simulate", "chess", "-n", "10")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr


def test_rules_file_and_user_strategy(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "texas"\nmin_bid = 28\n')
    result = summary_json("-n", "500", "-j", "1", "--rules", str(rules), "--seat", "all=tests.helpers:Scrambled:salt=2")
    assert result["manifest"]["rules"] == {"count_values": "texas", "auction": "one-lap", "jump_bids": True,
                                           "min_bid": 28, "target": 250}
    assert result["manifest"]["seats"]["W"] == "tests.helpers:Scrambled:salt=2"
    assert min(c["bid"] for c in result["summary"]["contracts"]) >= 28


def test_an_illegal_action_names_strategy_seat_deal_and_move() -> None:
    done = dealsim("simulate", "forty-two", "-n", "50", "-j", "1", "--seat", "E=tests.helpers:AlwaysBid168")
    assert done.returncode == 2
    assert "strategy 'tests.helpers:AlwaysBid168' at seat E in deal" in done.stderr
    assert "illegal call 168" in done.stderr
