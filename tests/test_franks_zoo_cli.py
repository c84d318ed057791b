"""Frank's Zoo from the command line (in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from simulator import simulate
from simulator.franks_zoo import reference
from simulator.franks_zoo.tables import SOURCES
from simulator.specs import Execution, RunSpec
from simulator.stats import Mean, Rate
from tests import cli_helpers
from tests.cli_helpers import run_cli


def run_json(*args: str) -> dict:
    return cli_helpers.run_json("franks-zoo", *args)


def trace_of(*args: str) -> str:
    return cli_helpers.trace_of("franks-zoo", *args)


@pytest.mark.parametrize("unit", ["match", "hand"])
def test_same_seed_same_results_for_any_jobs(unit: str, tmp_path: Path) -> None:
    args = ["-n", "200", "--chunk-size", "50", "--seed", "4", "--unit", unit, "--seat", "2=random"]
    one = run_json(*args, "-j", "1", "-o", str(tmp_path / "a"))
    two = run_json(*args, "-j", "2", "-o", str(tmp_path / "b"))
    assert one["summary"] == two["summary"]
    assert one["manifest"]["unit"] == ("match" if unit == "match" else "deal")
    assert one["manifest"]["seats"]["2"] == "random" and one["manifest"]["seats"]["0"] == "heuristic"
    written = {p.name for p in (tmp_path / "a").glob("*.parquet")}
    assert written == {"deals.parquet"} | ({"matches.parquet"} if unit == "match" else set())
    for name in written:
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "a" / name), pd.read_parquet(tmp_path / "b" / name)
        )


def test_games_table_trace_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "z"
    data = run_json("-n", "120", "--seed", "2", "-j", "1", "--rule", "players=6", "-o", str(out))
    summary = data["summary"]
    assert list(summary["points"]) == [str(i) for i in range(6)] and summary["matches"]["matches"] == 120
    assert list(summary["matches"]["wins"]) == [str(i) for i in range(6)]
    assert sum(w["count"] for w in summary["matches"]["wins"].values()) == 120
    hands = pd.read_parquet(out / "deals.parquet")
    games = pd.read_parquet(out / "matches.parquet").set_index("match")
    assert hands.columns[:3].tolist() == ["match", "number", "player"] and "hand" not in hands.columns
    for source in SOURCES:
        assert f"points_{source}" in hands.columns
    sums = hands[[c for c in hands.columns if c.startswith("points_")]].sum(axis=1)
    assert (sums == hands["points"]).all()
    # one row per player and hand; hands numbered from 1 within each game; teams from the second hand on
    assert len(hands) == 6 * games["deals"].sum() == 6 * summary["deals"]
    assert (hands.groupby("match")["number"].max() == games["deals"]).all()
    assert ((hands["number"] == 1) == (hands["role"] == "alone")).all()
    # a game ends when two players reach 19; the winner leads the final standings
    finals = games[[f"final_{i}" for i in range(6)]]
    assert ((finals >= 19).sum(axis=1) >= 2).all()
    # the totals after each hand add up to the final ones; the winner is first in the standings after the last
    # hand (ties broken for the player who stood worse before it)
    for game, rows in hands.groupby("match"):
        order = list(range(6))
        for _, hand in rows.groupby("number"):
            order = reference.standings(hand["total_after"].tolist(), order)
        assert hand["total_after"].tolist() == finals.loc[game].tolist()
        assert int(games.loc[game, "winner"]) == order[0]
    trace = json.loads(trace_of("--run", str(out), "--deal", "7", "--json"))["trace"]
    assert trace["match"] == 7 and len(trace["deals"]) == games.loc[7, "deals"]
    assert trace["winner"] == str(games.loc[7, "winner"])
    assert trace["deals"][-1]["totals"] == {str(i): int(games.loc[7, f"final_{i}"]) for i in range(6)}
    text = trace_of("--run", str(out), "--deal", "7")
    assert text.startswith("game 7 to 19 points\n") and "=== hand 2 ===" in text
    assert text.count("\n=== hand ") == games.loc[7, "deals"]
    assert "Totals: " + ", ".join(f"{i} {games.loc[7, f'final_{i}']}" for i in range(6)) in text
    assert text.rstrip().endswith(f"Winner: {games.loc[7, 'winner']}")


def test_trace_of_a_first_hand(tmp_path: Path) -> None:
    out = tmp_path / "h"
    run_json("-n", "50", "--seed", "6", "-j", "1", "--unit", "hand", "-o", str(out))
    hands = pd.read_parquet(out / "deals.parquet")
    assert hands.columns[0] == "deal" and "number" not in hands.columns and (hands["role"] == "alone").all()
    mine = hands[hands["deal"] == 17].sort_values("player")
    trace = json.loads(trace_of("--run", str(out), "--deal", "17", "--json"))["trace"]
    assert trace["deal"] == 17 and trace["dealer"] == 17 % 5
    assert trace["points"]["total"] == mine["points"].tolist()
    assert trace["places"] == mine["place"].tolist()
    assert trace_of("--run", str(out), "--deal", "17").startswith("hand 17\n")


def test_the_python_api_gives_typed_summaries() -> None:
    sim = simulate(
        RunSpec("franks-zoo", n=30, seed=3, rules={"players": 4}, chunk_size=10), execution=Execution(jobs=1)
    )
    assert sim.run.unit == "match" and sim.run.rules.players == 4 and sim.run.seats == ("heuristic",) * 4
    assert len(sim.matches) == 30 and len(sim.deals) == 4 * sim.matches["deals"].sum()
    games = sim.summary["matches"]
    assert games["matches"] == 30 and isinstance(games["deals_per_match"], Mean)
    wins = games["wins"]
    assert list(wins) == ["0", "1", "2", "3"] and all(isinstance(w, Rate) for w in wins.values())
    assert [w.count for w in wins.values()] == [int((sim.matches["winner"] == s).sum()) for s in wins]
    assert all(w.of == int(sim.matches["winner"].notna().sum()) for w in wins.values())
    assert isinstance(sim.summary["help"]["given"], Rate)
    assert sim.summary["help"]["given"].of == sim.deals["help_asked"].sum()


@pytest.mark.parametrize(
    "args,message",
    [
        (["--rule", "players=8"], "out of range 4..7"),
        (["--rule", "end_players=6"], "end_players (6) cannot exceed players (5)"),
        (["--rule", "hedgehog_penalty=sometimes"], "not one of captured, missing"),
        (["--seat", "5=greedy"], "unknown franks-zoo seat '5'"),
        (["--rule", "target=600"], "out of range 1..500"),
        (["--unit", "round"], "franks-zoo has no unit 'round'"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], message: str) -> None:
    code, out, err = run_cli("simulate", "franks-zoo", "-n", "5", *args)
    assert code == 2 and message in err, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err and not out


def test_sweeping_the_player_count_needs_one_strategy_everywhere() -> None:
    code, out, err = run_cli(
        "tune", "franks-zoo", "-n", "20", "-j", "1", "--vary", "players=4,6", "--format", "json"
    )
    assert code == 0, err
    rows = [r for r in json.loads(out)["rows"] if r["measure"] == "seat 0 wins"]
    assert [r["players"] for r in rows] == [4, 6]
    assert all(0 <= r["value"] <= 1 for r in rows)
    code, out, err = run_cli("tune", "franks-zoo", "-n", "20", "--vary", "players=5,6", "--seat", "0=random")
    assert code == 2 and "the seats' strategies differ" in err and err.count("\n") == 1, err
