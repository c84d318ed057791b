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


@pytest.mark.parametrize("unit", ["hand", "match"])
def test_same_seed_same_results_for_any_jobs_and_backend(unit: str, tmp_path: Path) -> None:
    args = ["-n", "6000" if unit == "hand" else "600", "--seed", "11", "--chunk-size", "1000" if unit == "hand"
            else "100", "--seat", "EW=random", "--unit", unit]
    runs = {}
    for jobs, backend in [("1", "loky"), ("2", "loky"), ("2", "threading")]:
        out = tmp_path / f"{jobs}-{backend}"
        runs[jobs, backend] = summary_json(*args, "-j", jobs, "--backend", backend, "-o", str(out))
        tables = sorted(out.glob("*.parquet"))
        runs[jobs, backend]["tables"] = [pd.read_parquet(t) for t in tables]
    first = runs["1", "loky"]
    for other in runs.values():
        assert other["summary"] == first["summary"]
        for x, y in zip(other["tables"], first["tables"], strict=True):
            pd.testing.assert_frame_equal(x, y)
    changed = summary_json(*[a if a != "11" else "12" for a in args], "-j", "1")
    assert changed["summary"] != first["summary"]


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


def test_trace_reads_the_run_folder_and_follows_whole_games(tmp_path: Path) -> None:
    out = tmp_path / "games"
    args = ["-n", "30", "--seed", "9", "--unit", "match", "--seat", "EW=greedy", "--rule", "target=120"]
    assert runner.invoke(app, ["simulate", "forty-two", *args, "-j", "1", "--no-progress", "-o", str(out)]).exit_code == 0
    games = pd.read_parquet(out / "games.parquet").set_index("game")
    hands = pd.read_parquet(out / "hands.parquet")
    result = runner.invoke(app, ["trace", "forty-two", "--run", str(out), "--deal", "17", "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)["trace"]
    assert len(trace["hands"]) == games.loc[17, "hands"]
    assert trace["hands"][-1]["totals"] == [games.loc[17, "final_ns"], games.loc[17, "final_ew"]]
    assert trace["winner"] == games.loc[17, "winner"]
    mine = hands[hands["game"] == 17]
    assert [h["score"] for h in trace["hands"]] == mine[["score_ns", "score_ew"]].values.tolist()
    text = runner.invoke(app, ["trace", "forty-two", "--run", str(out), "--deal", "3"])
    assert text.exit_code == 0 and "--- hand 1 ---" in text.stdout and "Winner:" in text.stdout
    missing = dealsim("trace", "forty-two", "--run", str(tmp_path / "nowhere"), "--deal", "1")
    assert missing.returncode == 2 and "cannot read the run" in missing.stderr


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
    (["-n", "0"], "Invalid value for '-n'"),
    (["--chunk-size", "0"], "Invalid value for '--chunk-size'"),
    (["--seat", "N=heuristic:base=nan"], "expected a finite number"),
    (["--seat", "²=random"], "unknown forty-two seat"),
    (["--seat", "N=strategies.base:Strategy"], "does not implement decide()"),
    (["--seat", "N=json:JSONDecoder"], "is not a Strategy subclass"),
    (["--backend", "multiprocessing"], "Invalid value for '--backend'"),
    (["--rules", "/"], "rules file /"),
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


@pytest.mark.parametrize("toml,message", [
    ('preset = ["texas"]', "unknown forty-two preset"),
    ("target = 1e400", "expected a whole number"),
    ("min_bid = 1.5", "expected a whole number"),
])
def test_bad_rules_files_are_clear_errors(tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(toml)
    done = dealsim("simulate", "forty-two", "-n", "10", "--rules", str(path))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_output_that_is_a_file_is_refused_before_running(tmp_path: Path) -> None:
    path = tmp_path / "taken"
    path.write_text("x")
    done = dealsim("simulate", "forty-two", "-n", "10", "-o", str(path))
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_user_strategy_loads_from_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "mystrat.py").write_text(
        "import numpy as np\nfrom strategies.base import Strategy\nfrom dataclasses import dataclass\n"
        "@dataclass(frozen=True)\nclass First(Strategy):\n"
        "    def decide(self, kind, view, legal, rng):\n        return np.argmax(legal, axis=1)\n")
    (tmp_path / "broken.py").write_text("raise RuntimeError('boom')\n")
    import shutil

    exe = shutil.which("dealsim")
    done = subprocess.run([exe, "simulate", "forty-two", "-n", "50", "--seat", "all=mystrat:First"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    broken = subprocess.run([exe, "simulate", "forty-two", "-n", "5", "--seat", "N=broken:X"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert broken.returncode == 2 and "RuntimeError: boom" in broken.stderr
