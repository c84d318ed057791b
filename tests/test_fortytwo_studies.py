"""Forty-two studies: dealing, analyze, paired comparisons, tuning sweeps and the bid-success report."""

from __future__ import annotations

import dataclasses
import json
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator import app, registry
from simulator.errors import DealsimError
from simulator.experiments import Comparison, Sweep, apply_setting, compare, parse_values, parse_vary, tune
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.analyze import parse_hand
from simulator.runner import Run, execute
from simulator.specs import Execution, Output, RunSpec
from simulator.stats import estimate
from tests.cli_helpers import assert_findings_quote_tables, findings_and_cells, run_cli

GAME = registry.get("forty-two")


def small_run(**changes) -> Run:
    base = Run(
        game=GAME, n=1200, seed=4, rules=GAME.rules(), seats=("heuristic",) * 4, unit="deal", chunk_size=400
    )
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


@pytest.mark.parametrize(
    "text,message",
    [
        ("6-6 6-5 5-5", "a hand is 7 dominoes; got 3"),
        ("6-6 6-5 5-5 4-4 6-4 3-2 6-6", "appears twice"),
        ("6-6 6-5 5-5 4-4 6-4 3-2 7-1", "not a domino"),
        ("6-6 6-5 5-5 4-4 6-4 3-2 x", "not a domino"),
    ],
)
def test_malformed_hands_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(DealsimError, match=message):
        parse_hand(text)
    code, _, err = run_cli("analyze", "forty-two", "--hand", text, "-n", "10")
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_analyze_plays_every_trump_and_bid_on_the_same_deals() -> None:
    code, out, err = run_cli(
        "analyze",
        "forty-two",
        "--hand",
        "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
        "--seat",
        "E",
        "-n",
        "300",
        "-j",
        "1",
        "--format",
        "json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["seat"], data["dealer"], data["deals"], data["seed"]) == (
        "E",
        "N",
        300,
        1,
    )  # dealer: E's right
    assert (
        data["command"] == "dealsim analyze forty-two -n 300 --seed 1 --hand '6-6 6-5 6-4 6-3 6-2 6-1 6-0' "
        "--seat E --dealer N"
    )
    rows = pd.DataFrame(data["rows"])
    assert len(rows) == 7 * 13 and set(rows["bid"]) == set(range(30, 43))
    assert (rows["deals"] == 300).all()
    sixes = rows[rows["trump"] == 6]
    assert (sixes["p_make"] == 1).all()  # all seven trumps: every trick is the declarer's
    assert data["best"]["trump"] == 6 and data["best"]["score_diff"] == 42  # every bid scores 42 : 0 here
    # a higher bid never makes more often on the same deals
    for _, t in rows.groupby("trump"):
        assert (np.diff(t.sort_values("bid")["p_make"].to_numpy()) <= 0).all()
    # the Python API gives the same rows
    a = app.analyze(
        RunSpec("forty-two", n=300), "6-6 6-5 6-4 6-3 6-2 6-1 6-0", seat="E", execution=Execution(jobs=1)
    )
    pd.testing.assert_frame_equal(a.frame.reset_index(drop=True), rows, check_dtype=False)
    assert a.best["trump"] == 6 and a.best["score_diff"] == 42 and a.rendered


def test_analyze_refuses_a_seat_that_is_not_one_seat() -> None:
    with pytest.raises(DealsimError, match="names one seat"):
        app.analyze(
            RunSpec("forty-two", n=10), "6-6 6-5 6-4 6-3 6-2 6-1 6-0", seat="NS", execution=Execution(jobs=1)
        )
    with pytest.raises(DealsimError, match="analyze is not available for rounds"):
        app.analyze(RunSpec("rounds", n=10), "x", execution=Execution(jobs=1))


def test_comparing_a_strategy_with_itself_is_exactly_zero() -> None:
    a = small_run(seats=("heuristic:margin=1", "random", "heuristic", "random"))
    b = dataclasses.replace(a, seats=("heuristic", "random", "heuristic:margin=1", "random"))
    result = compare(a, b, jobs=1)
    assert isinstance(result, Comparison) and len(result.measures) == len(result.differences) == 5
    for name, d in zip(result.measures, result.differences):
        assert d.diff == 0 and d.lo == 0 and d.hi == 0 and d.deals == 1200, (name, d)
    frame = result.frame()
    assert frame["measure"].tolist() == result.measures and (frame["diff"] == 0).all()


def test_paired_comparison_narrows_the_interval() -> None:
    a = small_run(n=3000, seats=("heuristic:bidder=threshold,threshold=30", "heuristic") * 2)
    b = dataclasses.replace(a, seats=("heuristic:bidder=threshold,threshold=34", "heuristic") * 2)
    result = compare(a, b, jobs=1)
    assert result.side == "NS"
    margin = result.differences[result.measures.index("NS score margin per hand")]
    assert margin.narrowing > 1.2
    assert margin.se < margin.se_independent
    assert margin.lo < margin.diff < margin.hi and margin.diff == pytest.approx(margin.a - margin.b)
    # E-W's seats changed instead: the comparison takes E-W's side
    b_ew = dataclasses.replace(
        a, seats=("heuristic:bidder=threshold,threshold=30", "heuristic:bidder=threshold,threshold=34") * 2
    )
    assert compare(dataclasses.replace(a, n=400), dataclasses.replace(b_ew, n=400), jobs=1).side == "EW"


@pytest.mark.parametrize("unit", ["deal", "match"])
def test_a_sweep_of_one_value_equals_a_plain_simulation(unit: str) -> None:
    base = small_run(unit=unit, n=600 if unit == "deal" else 150, chunk_size=200 if unit == "deal" else 50)
    sweep = tune(base, [("min_bid", ["30"])], jobs=1)
    assert isinstance(sweep, Sweep) and sweep.points == [{"min_bid": 30}] and sweep.keys == ["min_bid"]
    swept = sweep.frame()
    plain = execute(base, jobs=1)
    measures = GAME.measures(plain.tables, unit)
    assert sweep.measures == [m.name for m in measures] and sweep.rates == {
        m.name for m in measures if m.binary
    }
    for m in measures:
        e = estimate(m)
        assert swept.loc[0, m.name] == e.value and swept.loc[0, f"{m.name} lo"] == e.lo, m.name
        assert swept.loc[0, f"{m.name} hi"] == e.hi, m.name
        assert sweep.long(m.name).loc[0, ["value", "lo", "hi"]].tolist() == [e.value, e.lo, e.hi]
    assert ("hands per game" in sweep.measures) == (unit == "match")


def test_sweep_values_and_settings() -> None:
    assert parse_values("30:33") == ["30", "31", "32", "33"]
    assert parse_values("0.5:1.5:0.5") == ["0.5", "1.0", "1.5"]
    assert parse_values("seed,texas") == ["seed", "texas"]
    assert parse_vary(["min_bid=28:29", "seat.NS=greedy,heuristic"]) == [
        ("min_bid", ["28", "29"]),
        ("seat.NS", ["greedy", "heuristic"]),
    ]
    run = apply_setting(small_run(), "seat.NS.margin", "3")
    assert run.seats == ("heuristic:margin=3", "heuristic", "heuristic:margin=3", "heuristic")
    assert apply_setting(small_run(), "rule.min_bid", "28").rules.min_bid == 28
    with pytest.raises(DealsimError, match="min_bid"):
        apply_setting(small_run(), "min_bid", "99")
    with pytest.raises(DealsimError, match="unknown heuristic parameter"):
        apply_setting(small_run(), "seat.EW.nope", "1")
    assert apply_setting(small_run(), "seat.EW", "greedy").seats == ("heuristic", "greedy") * 2
    with pytest.raises(DealsimError):
        parse_values("36:30")


def test_tune_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    code, stdout, err = run_cli(
        "tune",
        "forty-two",
        "--vary",
        "min_bid=28,30",
        "--vary",
        "seat.EW=learned,greedy",
        "-n",
        "60",
        "-j",
        "1",
        "-o",
        str(out),
    )
    assert code == 0, err
    assert "min_bid, seat.EW swept; 60 games per setting" in stdout
    frame = pd.read_csv(out / "tune.csv")  # one row per setting and measure
    assert len(frame[["min_bid", "seat.EW"]].drop_duplicates()) == 4
    assert {"thrown in", "hands per game", "EW wins"} <= set(frame["measure"])  # EW varies: its side
    assert {"value", "lo", "hi", "diff", "diff lo", "diff hi"} <= set(frame.columns)
    # the current values are the baseline: tune seats the study strategy (learned) where none is given
    baseline = frame[(frame["min_bid"] == 30) & (frame["seat.EW"] == "learned")]
    assert len(baseline) and (baseline["diff"] == 0).all()
    for name in [
        "report.html",
        "provenance.json",
        "tune_thrown_in.png",
        "tune_contract_success.png",
        "tune_score_swing_per_contract.png",
        "tune_hands_per_game.png",
        "tune_first_dealer_s_side_wins.png",
    ]:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 8 and "dealsim tune forty-two" in html
    assert "<p class='played'>Play: learned at every seat (seat.EW as swept)</p>" in html
    findings, _ = findings_and_cells(html)
    clear, tied = "is best, clearly, against every other setting", "no setting is clearly best"
    assert len(findings) == 3 and all(clear in f or tied in f for f in findings)
    # the best sets: marked in the table and circled on the plots, listed in the best table
    assert {"best set", "clearly best"} <= set(pd.read_csv(out / "best.csv").columns)
    directed = frame[frame["measure"] == "EW wins"]
    assert directed["in_best_set"].notna().all() and directed["in_best_set"].astype(bool).any()
    assert frame[frame["measure"] == "thrown in"]["in_best_set"].isna().all()  # no better direction
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["command"] == (
        "dealsim tune forty-two -n 60 --seed 1 --unit match --chunk-size 2500 "
        "--vary min_bid=28,30 --vary seat.EW=learned,greedy"
    )
    assert provenance["vary"] == {"min_bid": ["28", "30"], "seat.EW": ["learned", "greedy"]}


def test_bid_success_report_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "bid"
    code, stdout, err = run_cli(
        "report", "bid-success", "-n", "3000", "--games", "40", "-j", "1", "--seed", "3", "-o", str(out)
    )
    assert code == 0, err
    assert "bid-success: 3,000 deals and 40 matches" in stdout
    expected = [
        "report.html",
        "provenance.json",
        "success_by_bid.csv",
        "success_by_bid.png",
        "swing_by_bid.csv",
        "trumps.csv",
        "trumps.png",
        "hands_per_game.csv",
        "hands_per_game.png",
    ]
    for feature in [
        "declarer_trumps",
        "declarer_doubles",
        "declarer_exposed",
        "side_trumps",
        "side_doubles",
        "side_count",
    ]:
        expected.append(f"success_by_{feature}.csv")
    expected.append("success_by_feature.png")  # the six features in one figure, a panel each
    for name in expected:
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 4
    # the main picture under the findings; the per-feature and game-length tables in closed sections
    assert html.index("Findings") < html.index("success_by_bid.png") < html.index("At a glance")
    for table in ("success_by_declarer_trumps", "success_by_side_count", "hands_per_game"):
        start = html.index(f"<table id='{table}'>")
        assert html.rfind("<details>", 0, start) > html.rfind("</details>", 0, start), table
    assert "<tr><th>seed</th><td>3</td></tr>" in html  # the provenance table states the seed
    assert "dealsim report bid-success" in html
    levels = pd.read_csv(out / "success_by_bid.csv")
    hands = int(levels["contracts"].sum())
    assert 0 < hands <= 3000 and ((levels["lo"] <= levels["rate"]) & (levels["rate"] <= levels["hi"])).all()
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["seed"] == 3 and provenance["deals"] == 3000 and provenance["matches"] == 40
    assert (
        provenance["command"] == "dealsim report bid-success -n 3000 --seed 3 --chunk-size 25000 --matches 40"
    )
    lengths = pd.read_csv(out / "hands_per_game.csv")
    assert int(lengths["games"].sum()) == 40


def test_compare_cli_reports_paired_differences(tmp_path: Path) -> None:
    code, out, err = run_cli(
        "compare",
        "forty-two",
        "--seat",
        "NS=heuristic:bidder=threshold,threshold=31",
        "--vs",
        "NS=heuristic:bidder=threshold,threshold=34",
        "-n",
        "800",
        "-j",
        "1",
        "--unit",
        "match",
        "--format",
        "json",
        "-o",
        str(tmp_path / "c"),
    )
    assert code == 0, err
    data = json.loads(out)
    names = {r["measure"] for r in data["rows"]}
    assert {"NS score margin per hand", "contract success", "NS wins"} <= names
    assert data["side"] == "NS" and data["unit"] == "match" and data["deals"] == 800
    assert (
        data["seats"]["N"] == "heuristic:bidder=threshold,threshold=31"
        and data["arm_b"]["seats"]["N"] == "heuristic:bidder=threshold,threshold=34"
    )
    assert (tmp_path / "c" / "report.html").exists() and (tmp_path / "c" / "compare.csv").exists()
    played = "Play: heuristic:bidder=threshold,threshold=31 at N, S; heuristic at E, W in arm A"
    assert played in (tmp_path / "c" / "report.html").read_text()
    provenance = json.loads((tmp_path / "c" / "provenance.json").read_text())
    assert provenance["command"] == (
        "dealsim compare forty-two -n 800 --seed 1 --unit match --chunk-size 2500 "
        "--seat N=heuristic:bidder=threshold,threshold=31 --seat S=heuristic:bidder=threshold,threshold=31 "
        "--vs NS=heuristic:bidder=threshold,threshold=34"
    )
    code, out, err = run_cli("compare", "forty-two", "--vs", "NS=heuristic", "-n", "10")
    assert code == 2 and "arm B plays exactly as arm A" in err
    code, out, err = run_cli("compare", "forty-two", "-n", "10")
    assert code == 2 and "compare needs an arm B" in err


def test_tune_pairs_every_setting_with_the_baseline_and_names_the_best() -> None:
    from simulator import app as api

    sweep = api.tune(
        RunSpec("rounds", n=400, seed=2, unit="deal"), {"sweep_bonus": "5,20,30"}, execution=Execution(jobs=1)
    )
    assert sweep.baseline == 0  # the current value (10) is not in the grid: the first value
    i = sweep.measures.index("player 0 points per game")
    d = sweep.differences[2][i]
    assert d.lo > 0 and d.se < d.se_independent  # a known effect, measured tighter on common deals
    assert sweep.differences[0][i].diff == 0
    best = {b.measure: b for b in sweep.best}["player 0 points per game"]
    assert sweep.points[best.best]["sweep_bonus"] == 30 and sweep.points[best.runner_up]["sweep_bonus"] == 20
    assert best.members == (2,) and best.clear and best.lead > 0  # far ahead of both others
    assert any(
        s.startswith("player 0 points per game: sweep_bonus=30 is best, clearly, against every other setting")
        for s in sweep.findings()
    )
    chosen = api.tune(
        RunSpec("rounds", n=50, unit="deal"),
        {"sweep_bonus": "5,20"},
        baseline={"sweep_bonus": "20"},
        execution=Execution(jobs=1),
    )
    assert chosen.baseline == 1
    with pytest.raises(DealsimError, match="not a point of the grid"):
        api.tune(
            RunSpec("rounds", n=50, unit="deal"),
            {"sweep_bonus": "5,20"},
            baseline={"sweep_bonus": "7"},
            execution=Execution(jobs=1),
        )


def test_tune_takes_the_varied_side() -> None:
    from simulator import app as api

    sweep = api.tune(
        RunSpec("forty-two", n=200, seats={"all": "heuristic:bidder=threshold"}, unit="deal"),
        ["seat.EW.threshold=30,34"],
        execution=Execution(jobs=1),
    )
    assert sweep.side == "EW" and "EW score margin per hand" in sweep.measures


def test_compare_reports_every_changed_side() -> None:
    from simulator import app as api

    c = api.compare(RunSpec("forty-two", n=300), vs=["N=greedy", "E=greedy"], execution=Execution(jobs=1))
    assert c.side == "NS and EW"
    assert {
        "NS score margin per hand",
        "EW score margin per hand",
        "NS contract success",
        "EW contract success",
    } <= set(c.measures)
    assert c.measures.count("thrown in") == 1
    one = api.compare(RunSpec("forty-two", n=300), vs=["E=greedy"], execution=Execution(jobs=1))
    assert one.side == "EW" and not any(m.startswith("NS") for m in one.measures)


def test_report_findings_quote_their_own_tables(tmp_path: Path) -> None:
    import re

    from reports.html import pct

    out = tmp_path / "bid"
    code, _, err = run_cli(
        "report", "bid-success", "-n", "4000", "--games", "30", "-j", "1", "--seed", "5", "-o", str(out)
    )
    assert code == 0, err
    html = (out / "report.html").read_text()
    findings = re.findall(r"<li>(.*?)</li>", html)
    assert 3 <= len(findings) <= 6 and html.index("Findings") < html.index("Contracts by bid")
    levels = pd.read_csv(out / "success_by_bid.csv")
    common = levels.loc[levels["contracts"].idxmax()]
    quoted = f"The most common contract is {int(common['bid'])} "
    line = next(f for f in findings if f.startswith(quoted))
    assert pct(common["rate"], common["lo"], common["hi"]) in line
    assert assert_findings_quote_tables(html) >= 4


def test_compare_says_what_arm_b_changes_and_what_it_found(tmp_path: Path) -> None:
    from simulator import app as api

    c = api.compare(
        RunSpec("forty-two", n=300),
        vs=["N=greedy"],
        vs_rules=["min_bid=31"],
        execution=Execution(jobs=1),
        output=Output(folder=tmp_path),
    )
    assert c.arm_b_in_words() == "N plays greedy instead of heuristic; min_bid = 31 instead of 30"
    findings = c.findings()
    d = c.differences[c.measures.index("thrown in")]
    assert findings[0].startswith(
        f"thrown in: {100 * d.a:.1f}% in arm A, {100 * d.b:.1f}% in arm B; A - B = "
        f"{100 * d.diff:+.1f} [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}] pp"
    )
    assert all(("a clear difference" in f) != ("cannot be told apart" in f) for f in findings)
    html = (tmp_path / "report.html").read_text()
    assert assert_findings_quote_tables(html) == len(findings)
    assert html.index("Findings") < html.index("Arm B: N plays greedy") < html.index("Provenance")


def test_tune_varies_a_parameter_on_every_seat_at_once() -> None:
    """`seat.all.PARAM` is the symmetric sweep (what a house would adopt): every seat plays each setting."""
    from simulator.experiments import settings

    game = registry.get("forty-two")
    base = Run(
        game=game, n=10, seed=1, rules=game.rules(), seats=("heuristic",) * 4, unit="deal", chunk_size=10
    )
    grid = settings(base, [("seat.all.margin", ["0", "2"])])
    assert [run.seats for _, run in grid] == [("heuristic:margin=0",) * 4, ("heuristic:margin=2",) * 4]
