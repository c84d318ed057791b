"""Rounds from the command line (in-process) and its matches against the reference engine."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator import experiments, registry, simulate
from simulator.rounds import reference
from simulator.rounds.game import deal_of, match_winner
from simulator.runner import Run
from simulator.specs import Execution, RunSpec
from simulator.stats import Mean, Rate
from tests import cli_helpers
from tests.cli_helpers import assert_findings_quote_tables, run_cli
from tests.helpers import play_matches, strategy

GAME = registry.get("rounds")


def run_json(*args: str) -> dict:
    return cli_helpers.run_json("rounds", *args)


def trace_of(*args: str) -> str:
    return cli_helpers.trace_of("rounds", *args)


@pytest.mark.parametrize("unit", ["game", "match"])
def test_same_seed_same_results_for_any_jobs(unit: str, tmp_path: Path) -> None:
    args = [
        "-n",
        "3000" if unit == "game" else "300",
        "--chunk-size",
        "500" if unit == "game" else "50",
        "--seed",
        "5",
        "--unit",
        unit,
        "--seat",
        "1=random",
    ]
    one = run_json(*args, "-j", "1", "-o", str(tmp_path / "a"))
    two = run_json(*args, "-j", "2", "-o", str(tmp_path / "b"))
    assert one["summary"] == two["summary"]
    assert one["manifest"]["unit"] == GAME.unit(unit) == ("deal" if unit == "game" else "match")
    assert one["timing"]["jobs"] == 1 and two["timing"]["jobs"] == 2
    written = {p.name for p in (tmp_path / "a").glob("*.parquet")}
    assert written == {"deals.parquet"} | ({"matches.parquet"} if unit == "match" else set())
    for name in written:
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "a" / name), pd.read_parquet(tmp_path / "b" / name)
        )


def test_summary_and_trace_of_a_run(tmp_path: Path) -> None:
    out = tmp_path / "r"
    data = run_json("-n", "2000", "--seed", "2", "-j", "1", "-o", str(out), "--rule", "rank_trumps=true")
    s = data["summary"]
    assert s["deals"] == 2000 and len(s["stages"]) == 5
    assert data["manifest"]["rules"]["rank_trumps"] is True and data["manifest"]["unit"] == "deal"
    games = pd.read_parquet(out / "deals.parquet")
    assert games.columns[0] == "deal" and games["deal"].tolist() == list(range(2000))
    games = games.set_index("deal")
    trace = json.loads(trace_of("--run", str(out), "--deal", "1234", "--json"))["trace"]
    assert trace["deal"] == 1234 and len(trace["moves"]) == 50
    assert trace["points"] == [games.loc[1234, "points_0"], games.loc[1234, "points_1"]]
    assert [st["points"] for st in trace["stages"]] == [
        [games.loc[1234, f"s{k}_points_0"], games.loc[1234, f"s{k}_points_1"]] for k in range(1, 6)
    ]
    text = trace_of("--run", str(out), "--deal", "5")
    assert text.startswith("game 5\n") and "Stage 5" in text
    assert f"Game score: player 0 {games.loc[5, 'points_0']}, player 1 {games.loc[5, 'points_1']}" in text


def test_trace_of_a_match(tmp_path: Path) -> None:
    out = tmp_path / "m"
    run_json("-n", "12", "--seed", "3", "-j", "1", "--unit", "match", "--rule", "target=150", "-o", str(out))
    matches = pd.read_parquet(out / "matches.parquet").set_index("match")
    games = pd.read_parquet(out / "deals.parquet")
    assert games.columns[:2].tolist() == ["match", "number"]
    m = matches.loc[4]
    mine = games[games["match"] == 4]
    assert mine["number"].tolist() == list(range(1, m["deals"] + 1))
    trace = json.loads(trace_of("--run", str(out), "--deal", "4", "--json"))["trace"]
    assert trace["match"] == 4 and trace["target"] == 150 and len(trace["deals"]) == m["deals"]
    assert trace["winner"] == str(m["winner"])
    assert [g["points"] for g in trace["deals"]] == mine[["points_0", "points_1"]].values.tolist()
    assert [g["totals"] for g in trace["deals"]] == [
        {"0": int(a), "1": int(b)} for a, b in zip(mine["total_0"], mine["total_1"])
    ]
    assert trace["deals"][-1]["totals"] == {"0": m["final_0"], "1": m["final_1"]}
    text = trace_of("--run", str(out), "--deal", "4")
    assert text.startswith("match 4 to 150 points\n")
    assert text.count("\n=== game ") == m["deals"] and f"=== game {m['deals']} ===" in text
    assert f"Totals: 0 {m['final_0']}, 1 {m['final_1']}" in text
    assert text.rstrip().endswith(f"Winner: {m['winner']}")


def test_matches_equal_the_reference_engine() -> None:
    rules = GAME.rules(overrides={"target": 120})
    strategies = [strategy("rounds", "heuristic"), strategy("rounds", "greedy")]
    dealt: dict[tuple[int, int], tuple] = {}

    def keep(matches: np.ndarray, state) -> None:
        for row, m in enumerate(matches):
            number = sum(1 for k in dealt if k[0] == m)
            dealt[int(m), number] = deal_of(state, row)

    rng = np.random.default_rng(6)
    games, matches = play_matches("rounds", rng, [rng] * 2, np.arange(60), rules, strategies, on_deals=keep)
    assert len(dealt) == len(games) == matches["deals"].sum()
    for m in matches.itertuples():
        ref = reference.play_match(
            lambda g, dealer, k=m.match: dealt[k, g], int(m.first_dealer), rules, strategies
        )
        assert int(m.first_dealer) == m.match % 2
        assert len(ref.deals) == m.deals
        assert ref.totals == (m.final_0, m.final_1)
        assert (None if ref.winner is None else str(ref.winner)) == (None if pd.isna(m.winner) else m.winner)
        mine = games[games["match"] == m.match]
        assert mine["number"].tolist() == list(range(1, m.deals + 1))
        assert [g.points for g in ref.deals] == list(zip(mine["points_0"], mine["points_1"]))
        assert [g.first_dealer for g in ref.deals] == mine["first_dealer"].tolist()
        running = np.cumsum([g.points for g in ref.deals], axis=0)
        assert mine[["total_0", "total_1"]].values.tolist() == running.tolist()


def test_match_winner_needs_a_strictly_higher_total() -> None:
    got = match_winner(np.array([[200, 150], [210, 220], [205, 205], [199, 0]]), 200)
    assert got.tolist() == [0, 1, -1, -1]


def test_sweep_value_report_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "sv"
    code, stdout, err = run_cli(
        "report", "sweep-value", "-n", "2000", "--matches", "30", "-j", "1", "-o", out
    )
    assert code == 0, err
    for name in [
        "report.html",
        "provenance.json",
        "fifth_trick.csv",
        "taking_pays.png",
        "value_of_ducking.csv",
        "value_of_ducking.png",
        "who_decided.csv",
        "who_decided.png",
        "sweeps.csv",
        "edge_by_stage.csv",
        "edge_by_stage.png",
        "matches_by_bonus.csv",
        "games_per_match.png",
        "sweeps_by_bonus.png",
    ]:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 6 and "dealsim report sweep-value" in html
    assert assert_findings_quote_tables(html) >= 5
    pooled = r"[\d.]+% \[[\d.]+, [\d.]+\] of stages 1-4 \(all stages but the last, pooled\) hang"
    assert re.search(pooled, html)
    assert "of match wins on the same 30 matches" in html
    value = pd.read_csv(out / "value_of_ducking.csv").set_index("measure")
    assert value.loc["player 0 margin per game", "deals"] == 2000
    fifth = pd.read_csv(out / "fifth_trick.csv")
    assert (
        list(fifth["stage"]) == ["1", "2", "3", "4", "5", "1-4"]
        and (fifth["share of stages"].between(0, 1)).all()
    )
    bonuses = pd.read_csv(out / "matches_by_bonus.csv")
    assert list(bonuses["sweep_bonus"]) == [0, 5, 10, 15, 20, 30]
    assert "sweep-value: 2,000 deals and 30 matches" in stdout


def test_sweep_value_takes_any_strategy_at_seat_0(tmp_path: Path) -> None:
    """A strategy without the heuristic's duck switch plays as it is: the report says who played and how
    trick 5 went for each holder, and measures no value of ducking."""
    out = tmp_path / "sv"
    code, _, err = run_cli(
        "report", "sweep-value", "-n", "600", "--matches", "0", "-j", "1", "--seat", "0=greedy", "-o", out
    )
    assert code == 0, err
    html = (out / "report.html").read_text()
    assert "greedy at 0; heuristic at 1" in html and "When player 0 (greedy) held tricks 1-4" in html
    assert not (out / "value_of_ducking.csv").exists()
    holders = pd.read_csv(out / "who_decided_by_holder.csv")
    assert set(holders["holder"]) == {"player 0", "player 1"} and holders["of"].sum() > 0


def test_ducking_off_never_ducks_and_a_heuristic_with_itself_is_zero() -> None:
    a = Run(
        game=GAME,
        n=1500,
        seed=3,
        rules=GAME.rules(),
        seats=("heuristic", "heuristic"),
        unit="deal",
        chunk_size=500,
    )
    same = experiments.compare(a, dataclasses.replace(a, seats=("heuristic:duck=true", "heuristic")), jobs=1)
    assert same.measures and all(d.diff == 0 and d.a == d.b for d in same.differences)
    off = experiments.compare(a, dataclasses.replace(a, seats=("heuristic:duck=false", "heuristic")), jobs=1)
    assert off.side == "0"
    margin = off.differences[off.measures.index("player 0 margin per game")]
    assert margin.diff != 0 and margin.narrowing > 2 and margin.deals == 1500
    assert off.frame()["measure"].tolist() == off.measures
    # a spec names only the parameters that differ from their defaults
    assert strategy("rounds", "heuristic:duck=true").spec == "heuristic"
    assert strategy("rounds", "heuristic:duck=false").spec == "heuristic:duck=false"
    assert (
        registry.roster(GAME).with_params("heuristic:trump_cost=2", {"duck": "false"})
        == "heuristic:trump_cost=2,duck=false"
    )


def test_the_python_api_gives_typed_summaries() -> None:
    sim = simulate(
        RunSpec("rounds", n=300, seed=4, seats={"1": "greedy"}, unit="game", chunk_size=100),
        execution=Execution(jobs=1),
    )
    assert sim.run.unit == "deal" and sim.run.seats == ("heuristic", "greedy") and sim.matches is None
    assert len(sim.deals) == 300 and sim.manifest["deals_done"] == 300 and sim.manifest["complete"]
    points = sim.summary["points"]["0"]
    assert isinstance(points, Mean) and points.mean == pytest.approx(sim.deals["points_0"].mean())
    sweeps = sim.summary["sweeps"]
    assert isinstance(sweeps, Rate) and sweeps.of == 5 * 300 and sweeps.lo <= sweeps.rate <= sweeps.hi
    assert sweeps.count == sum((sim.deals[f"s{k}_sweep"] >= 0).sum() for k in range(1, 6))
    command = sim.manifest["command"]
    assert command.startswith("dealsim simulate rounds -n 300 --seed 4 --unit deal --chunk-size 100")
    assert "--seat 1=greedy" in command


@pytest.mark.parametrize(
    "value,message", [("2=10,2=3", "given twice"), ("A=101", "out of range 0..100"), ("Z=3", "RANK=POINTS")]
)
def test_card_points_are_checked(value: str, message: str) -> None:
    code, out, err = run_cli("simulate", "rounds", "-n", "5", "--rule", f"card_points={value}")
    assert code == 2 and message in err, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err and not out


def test_sweep_value_pools_stages_1_to_4_with_the_game_as_the_unit() -> None:
    """Games whose stages 1-4 all hang on the fifth trick or none does: the pooled share's interval is the
    ratio estimate's over games (normal on the games' totals), twice as wide as Wilson's over stages."""
    from reports import sweep_value
    from simulator.rounds.fifth import CALL_NAMES
    from simulator.stats import Measure, estimate, wilson

    n = 60
    hangs = np.arange(n) % 4 == 0
    columns = {}
    for k in range(1, 6):
        columns[f"s{k}_first4"] = np.where(hangs, 12, -1)
        columns[f"s{k}_sweep"] = np.where(hangs, 0, -1)
        columns[f"s{k}_fifth_points"] = np.zeros(n, int)
        columns[f"s{k}_fifth_call"] = pd.Categorical.from_codes(
            np.zeros(n, int), categories=list(CALL_NAMES.values())
        )
    fifth, _ = sweep_value._fifth_trick(pd.DataFrame(columns), bonus=10)
    pooled = fifth[fifth["stage"] == "1-4"].iloc[0]
    e = estimate(Measure("share", 4.0 * hangs, np.full(n, 4.0), binary=True))
    assert (pooled["share of stages"], pooled["share lo"], pooled["share hi"]) == pytest.approx(
        (e.value, e.lo, e.hi)
    )
    naive = wilson(int(4 * hangs.sum()), 4 * n)
    assert pooled["share hi"] - pooled["share lo"] > 1.8 * (naive[1] - naive[0])
    one = fifth[fifth["stage"] == "1"].iloc[0]  # one stage of each game: Wilson over the games
    assert (one["share lo"], one["share hi"]) == pytest.approx(wilson(int(hangs.sum()), n))
