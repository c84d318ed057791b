"""The command line: results, files, reproducibility across --jobs, traces, and clear errors.

Every command runs in this process through `tests.cli_helpers.run_cli` (as the `dealsim` console script
would run it); only the test of a strategy module loading from the working directory starts a process."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.cli_helpers import run_cli


def summary_json(*args: str) -> dict:
    code, out, err = run_cli("simulate", "forty-two", "--format", "json", "--no-progress", *args)
    assert code == 0, err
    return json.loads(out)


def fails(*args: str) -> str:
    """Run a command that must fail with one clear line on stderr; that line."""
    code, out, err = run_cli(*args)
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
    return err


@pytest.mark.parametrize("unit", ["hand", "match"])
def test_same_seed_same_results_for_any_jobs_and_backend(unit: str, tmp_path: Path) -> None:
    args = [
        "-n",
        "6000" if unit == "hand" else "600",
        "--seed",
        "11",
        "--chunk-size",
        "1000" if unit == "hand" else "100",
        "--seat",
        "EW=random",
        "--unit",
        unit,
    ]
    tables = ["deals.parquet"] + (["matches.parquet"] if unit == "match" else [])
    runs = {}
    for jobs, backend in [("1", "loky"), ("2", "loky"), ("2", "threading")]:
        out = tmp_path / f"{jobs}-{backend}"
        runs[jobs, backend] = summary_json(*args, "-j", jobs, "--backend", backend, "-o", str(out))
        assert sorted(p.name for p in out.glob("*.parquet")) == sorted(tables)
        runs[jobs, backend]["tables"] = [pd.read_parquet(out / t) for t in tables]
        assert runs[jobs, backend]["timing"]["jobs"] == int(jobs)
    first = runs["1", "loky"]
    assert first["manifest"]["unit"] == ("deal" if unit == "hand" else "match")  # the game's word is an alias
    assert len(first["tables"][-1]) == (6000 if unit == "hand" else 600)
    for other in runs.values():
        assert other["summary"] == first["summary"]
        for x, y in zip(other["tables"], first["tables"], strict=True):
            pd.testing.assert_frame_equal(x, y)
    changed = summary_json(*[a if a != "11" else "12" for a in args], "-j", "1")
    assert changed["summary"] != first["summary"]


def test_simulate_writes_table_summary_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, stdout, err = run_cli(
        "simulate",
        "forty-two",
        "-n",
        "3000",
        "--seed",
        "3",
        "-j",
        "1",
        "--no-progress",
        "--rule",
        "count_values=texas",
        "--seat",
        "N=heuristic:bidder=threshold,threshold=30",
        "-o",
        str(out),
    )
    assert code == 0, err
    assert "Contracts by bid" in stdout and "forty-two, 3,000 hands, seed 3" in stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "deals.parquet",
        "manifest.json",
        "parts",
        "summary.csv",
        "summary.json",
        "timings.json",
    ]
    hands = pd.read_parquet(out / "deals.parquet")
    for column in [
        "deal",
        "dealer",
        "declarer",
        "bid",
        "trump",
        "points_ns",
        "points_ew",
        "score_points_ns",
        "score_points_ew",
        "made",
    ]:
        assert column in hands.columns
    assert len(hands) == 3000 and hands["deal"].tolist() == list(range(3000))
    assert hands.loc[hands["thrown_in"], "declarer"].isna().all()
    assert (hands.loc[~hands["thrown_in"], ["points_ns", "points_ew"]].sum(axis=1) == 42).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 3 and manifest["deals"] == 3000 and manifest["complete"]
    assert manifest["unit"] == "deal" and manifest["game"] == "forty-two" and manifest["deals_done"] == 3000
    assert manifest["rules"]["count_values"] == "texas"
    assert (
        manifest["seats"]["N"] == "heuristic:bidder=threshold,threshold=30"
        and manifest["seats"]["E"] == "heuristic"
    )
    for key in ["command", "dealsim", "numpy", "chunk_size"]:
        assert key in manifest
    timing = json.loads((out / "timings.json").read_text())["attempts"][-1]
    assert {"elapsed_seconds", "jobs", "backend", "chunks_reused"} <= set(timing)
    assert not {"elapsed_seconds", "jobs", "backend", "chunks_reused", "finished_at"} & set(manifest)
    assert manifest["command"] == (
        "dealsim simulate forty-two -n 3000 --seed 3 --unit deal --chunk-size 25000 "
        "--rule count_values=texas --seat N=heuristic:bidder=threshold,threshold=30"
    )
    summary = pd.read_csv(out / "summary.csv")
    assert {
        "thrown_in",
        "all_contracts",
        "points.NS",
        "contracts[bid=30].made",
        "trumps[trump=blanks].named",
    } <= set(summary["metric"])
    saved = json.loads((out / "summary.json").read_text())
    assert saved["deals"] == 3000 and set(saved["thrown_in"]) == {"count", "of", "rate", "lo", "hi"}
    # the manifest's command reproduces the run
    again = summary_json(*shlex.split(manifest["command"])[3:], "-j", "1")
    assert again["summary"] == saved


def test_trace_is_the_hand_the_run_played(tmp_path: Path) -> None:
    args = ["-n", "3000", "--seed", "5", "--chunk-size", "1000", "--seat", "NS=random"]
    out = tmp_path / "run"
    assert run_cli("simulate", "forty-two", *args, "-j", "1", "--no-progress", "-o", str(out))[0] == 0
    hands = pd.read_parquet(out / "deals.parquet").set_index("deal")
    for deal in (0, 1234, 2999):
        code, stdout, err = run_cli("trace", "forty-two", *args, "--deal", str(deal), "--json")
        assert code == 0, err
        told = json.loads(stdout)
        assert told["seed"] == 5 and told["deals"] == 3000 and told["chunk_size"] == 1000
        trace = told["trace"]
        row = hands.loc[deal]
        assert trace["deal"] == deal
        assert trace["dealer"] == row["dealer"]
        assert trace["points"] == [row["points_ns"], row["points_ew"]]
        assert trace["score"] == [row["score_points_ns"], row["score_points_ew"]]
        assert trace["thrown_in"] == row["thrown_in"]
        if not row["thrown_in"]:
            assert (trace["declarer"], trace["bid"], trace["declaration"]) == (
                row["declarer"],
                row["bid"],
                row["trump"],
            )
    # the same hand from the run's folder
    code, stdout, err = run_cli("trace", "forty-two", "--run", str(out), "--deal", "1234", "--json")
    assert code == 0, err
    assert json.loads(stdout)["trace"]["score"] == [
        hands.loc[1234, "score_points_ns"],
        hands.loc[1234, "score_points_ew"],
    ]
    code, text, err = run_cli("trace", "forty-two", *args, "--deal", "7")
    assert code == 0, err
    assert text.startswith("hand 7\n") and ("Trick 7" in text or "thrown in" in text)


def test_trace_reads_the_run_folder_and_follows_whole_games(tmp_path: Path) -> None:
    out = tmp_path / "games"
    args = ["-n", "30", "--seed", "9", "--unit", "match", "--seat", "EW=greedy", "--rule", "target=120"]
    assert run_cli("simulate", "forty-two", *args, "-j", "1", "--no-progress", "-o", str(out))[0] == 0
    games = pd.read_parquet(out / "matches.parquet").set_index("match")
    hands = pd.read_parquet(out / "deals.parquet")
    assert {"match", "number", "total_ns", "total_ew"} <= set(hands.columns)
    code, stdout, err = run_cli("trace", "forty-two", "--run", str(out), "--deal", "17", "--json")
    assert code == 0, err
    trace = json.loads(stdout)["trace"]
    assert trace["match"] == 17 and trace["target"] == 120
    assert len(trace["deals"]) == games.loc[17, "deals"]
    assert trace["deals"][-1]["totals"] == {"NS": games.loc[17, "final_ns"], "EW": games.loc[17, "final_ew"]}
    assert trace["winner"] == games.loc[17, "winner"]
    mine = hands[hands["match"] == 17]
    scores = mine[["score_points_ns", "score_points_ew"]].values.tolist()
    assert [h["score"] for h in trace["deals"]] == scores
    assert [[h["totals"]["NS"], h["totals"]["EW"]] for h in trace["deals"]] == mine[
        ["total_ns", "total_ew"]
    ].values.tolist()
    code, text, err = run_cli("trace", "forty-two", "--run", str(out), "--deal", "3")
    assert code == 0, err
    three = games.loc[3]
    assert text.startswith("game 3 to 120 points\n")
    assert [f"=== hand {i} ===" in text for i in range(1, three["deals"] + 2)] == [True] * three["deals"] + [
        False
    ]
    assert text.count("Totals: NS ") == three["deals"]
    assert f"Totals: NS {three['final_ns']}, EW {three['final_ew']}\n" in text
    assert text.rstrip().endswith(f"Winner: {three['winner']}")
    assert "cannot read the run" in fails(
        "trace", "forty-two", "--run", str(tmp_path / "nowhere"), "--deal", "1"
    )
    assert "holds a forty-two run, not rounds" in fails("trace", "rounds", "--run", str(out), "--deal", "1")
    assert "deal 30 is outside the run's 30 games" in fails(
        "trace", "forty-two", "--run", str(out), "--deal", "30"
    )


def test_match_unit_plays_games_to_the_target(tmp_path: Path) -> None:
    out = tmp_path / "m"
    code, stdout, err = run_cli(
        "simulate",
        "forty-two",
        "-n",
        "200",
        "--unit",
        "match",
        "--seed",
        "2",
        "-j",
        "1",
        "--no-progress",
        "-o",
        str(out),
        "--rule",
        "target=100",
    )
    assert code == 0, err
    assert "Games" in stdout and "forty-two, 200 games" in stdout
    games = pd.read_parquet(out / "matches.parquet")
    assert len(games) == 200 and games["match"].tolist() == list(range(200))
    assert list(games.columns) == [
        "match",
        "first_dealer",
        "deals",
        "winner",
        "final_ns",
        "final_ew",
    ]
    assert ((games[["final_ns", "final_ew"]].max(axis=1) >= 100) | games["winner"].isna()).all()
    hands = pd.read_parquet(out / "deals.parquet")
    assert hands.groupby("match")["number"].max().tolist() == games["deals"].tolist()
    assert hands.groupby("match")["number"].count().tolist() == games["deals"].tolist()
    last = hands.groupby("match").tail(1)
    assert last["total_ns"].tolist() == games["final_ns"].tolist()
    assert last["total_ew"].tolist() == games["final_ew"].tolist()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["unit"] == "match" and manifest["chunk_size"] == 2500
    assert manifest["command"].startswith(
        "dealsim simulate forty-two -n 200 --seed 2 --unit match --chunk-size 2500"
    )


def test_listings_name_every_rule_option_and_strategy() -> None:
    code, games, _ = run_cli("games")
    assert code == 0
    for option in ["count_values", "auction", "jump_bids", "min_bid", "target", "all_pass"]:
        assert option in games
    assert "units: deal = hand, match = game" in games
    code, strategies, _ = run_cli("strategies", "forty-two")
    assert code == 0
    for name in ["random", "greedy", "heuristic", "threshold"]:
        assert name in strategies
    assert "unknown game 'chess'" in fails("strategies", "chess")


@pytest.mark.parametrize(
    "args,message",
    [
        (["--rule", "colour=red"], "unknown rule 'colour'"),
        (["--rule", "min_bid=abc"], "min_bid: expected a whole number"),
        (["--rule", "min_bid=50"], "out of range"),
        (["--rule", "auction=fast"], "not one of seed, one-lap"),
        (["--rule", "jump_bids=maybe"], "expected true or false"),
        (["--rule", "min_bid"], "expected key=value"),
        (["--seat", "N=clever"], "unknown forty-two strategy 'clever'"),
        (["--seat", "N=heuristic:thresh=3"], "unknown heuristic parameter 'thresh'"),
        (["--seat", "Q=random"], "unknown forty-two seat 'Q'"),
        (["--seat", "N"], "expected SEAT=STRATEGY"),
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
        (["--no-such-option"], "No such option"),
    ],
)
def test_bad_input_is_one_clear_line_and_a_non_zero_exit(args: list[str], message: str) -> None:
    err = fails("simulate", "forty-two", "-n", "10", *args)
    assert message in err, err


def test_unknown_game_and_command_are_clear_errors() -> None:
    assert "unknown game 'chess'" in fails("simulate", "chess", "-n", "10")
    assert "No such command 'simulte'" in fails("simulte", "forty-two")


def test_rules_file_and_user_strategy(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "texas"\nmin_bid = 28\n')
    result = summary_json(
        "-n", "500", "-j", "1", "--rules", str(rules), "--seat", "all=tests.helpers:Scrambled:salt=2"
    )
    rules = result["manifest"]["rules"]
    assert {
        k: rules[k]
        for k in (
            "count_values",
            "auction",
            "jump_bids",
            "min_bid",
            "target",
            "all_pass",
            "declarations",
            "scoring",
        )
    } == {
        "count_values": "texas",
        "auction": "one-lap",
        "jump_bids": True,
        "min_bid": 28,
        "target": 250,
        "all_pass": "redeal",
        "declarations": "pips,doubles,no-trump",
        "scoring": "marks",
    }
    assert result["manifest"]["seats"]["W"] == "tests.helpers:Scrambled:salt=2"
    assert min(c["bid"] for c in result["summary"]["contracts"]) >= 28
    assert all(c["made"]["of"] > 0 for c in result["summary"]["contracts"])


def test_an_illegal_action_names_strategy_seat_deal_and_move() -> None:
    err = fails("simulate", "forty-two", "-n", "50", "-j", "1", "--seat", "E=tests.helpers:AlwaysBid168")
    assert "strategy 'tests.helpers:AlwaysBid168' at seat E in deal" in err
    assert "illegal call 168" in err


@pytest.mark.parametrize(
    "toml,message",
    [
        ('preset = ["texas"]', "unknown forty-two preset"),
        ("target = 1e400", "expected a whole number"),
        ("min_bid = 1.5", "expected a whole number"),
        ("min_bid = ", "rules file"),
    ],
)
def test_bad_rules_files_are_clear_errors(tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(toml)
    assert message in fails("simulate", "forty-two", "-n", "10", "--rules", str(path))


def test_output_that_is_a_file_is_refused_before_running(tmp_path: Path) -> None:
    path = tmp_path / "taken"
    path.write_text("x")
    assert "is not a folder" in fails("simulate", "forty-two", "-n", "10", "-o", str(path))
    assert path.read_text() == "x"


def test_user_strategy_loads_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mystrat.py").write_text(
        "import numpy as np\nfrom strategies.base import Strategy\nfrom dataclasses import dataclass\n"
        "@dataclass(frozen=True)\nclass First(Strategy):\n"
        "    def decide(self, kind, view, legal, rng):\n        return np.argmax(legal, axis=1)\n"
    )
    (tmp_path / "broken.py").write_text("raise RuntimeError('boom')\n")
    # A process of its own, started like the console script: -P keeps the working directory off sys.path,
    # so the strategy loads only because dealsim makes the working directory importable.
    done = subprocess.run(
        [
            sys.executable,
            "-P",
            "-m",
            "simulator",
            "simulate",
            "forty-two",
            "-n",
            "50",
            "-j",
            "1",
            "--seat",
            "all=mystrat:First",
            "--format",
            "json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["manifest"]["seats"]["N"] == "mystrat:First"
    monkeypatch.setattr(sys, "path", list(sys.path))  # whatever the loader adds is undone after the test
    code, _, err = run_cli("simulate", "forty-two", "-n", "5", "--seat", "N=broken:X", cwd=tmp_path)
    assert code == 2 and "RuntimeError: boom" in err and "Traceback" not in err
