"""The bid guide: scores by the rules, a small report with every file, and P(make) by hand shape that agrees
with `analyze` on hands of that shape, with the deal as the unit of its intervals."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from reports import bid_guide
from simulator import app
from simulator.fortytwo import dominoes as D
from simulator.specs import Execution, Output, RunSpec
from simulator.stats import Measure, estimate, wilson
from tests.cli_helpers import assert_findings_quote_tables, findings_and_cells


def test_score_differences_follow_the_rules() -> None:
    points = np.array([35, 29, 42, 20])
    assert bid_guide.score_difference(points, 30).tolist() == [28, -(13 + 30), 42, -(22 + 30)]
    assert bid_guide.score_difference(points, 42).tolist() == [-(7 + 42), -(13 + 42), 42, -(22 + 42)]


def test_a_small_guide_writes_every_file(tmp_path) -> None:
    r = app.report(
        "bid-guide",
        RunSpec("forty-two", n=2000, seed=3),
        execution=Execution(jobs=1),
        output=Output(folder=tmp_path),
    )
    names = {p.name for p in r.written}
    assert {
        "report.html",
        "guide.csv",
        "guide_grid.csv",
        "guide_heatmap.png",
        "ladder_all.csv",
        "ladder_by_shape.csv",
        "p_make_by_bid.png",
        "provenance.json",
    } <= names
    html = (tmp_path / "report.html").read_text()
    assert html.index("Findings") < html.index("The guide") < html.index("Provenance")
    # the first screen: findings, then the heatmap; the long tables in closed sections
    assert html.index("Findings") < html.index("guide_heatmap.png") < html.index("<h2>The guide")
    for table in ("guide", "ladder_by_shape", "ladder_by_count"):
        start = html.index(f"<table id='{table}'>")
        assert html.rfind("<details>", 0, start) > html.rfind("</details>", 0, start), table
    assert html.count("<details>") == html.count("</details>")
    assert assert_findings_quote_tables(html) >= 2
    findings = findings_and_cells(html)[0]
    assert any(re.search(r"\), [\d.]+% \[[\d.]+, [\d.]+\] have a shape for which", f) for f in findings)
    assert any(re.search(r"hands, [\d.]+% \[[\d.]+, [\d.]+\] of all\) are too few", f) for f in findings)
    guide = pd.read_csv(tmp_path / "guide.csv")
    assert (guide["hands"] >= bid_guide.LEAST).all()
    ladder = pd.read_csv(tmp_path / "ladder_all.csv")
    assert ladder["bid"].tolist() == list(range(30, 43))
    assert (np.diff(ladder["p_make"]) <= 0).all()  # a higher bid never makes more often
    assert ladder["hands"].iloc[0] == 8000  # every seat's hand of every deal


def test_the_heatmap_outlines_the_highest_paying_bid_of_each_shape() -> None:
    import matplotlib.patches
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    hands = pd.DataFrame(
        {
            "deal": np.arange(6000),  # a hand per deal
            "trumps": rng.integers(2, 6, 6000),
            "trump double": rng.integers(0, 2, 6000),
            "other doubles": rng.integers(0, 3, 6000),
        }
    )
    hands["points"] = np.clip(
        6 * hands["trumps"] + 4 * hands["trump double"] + rng.integers(0, 20, 6000), 0, 42
    )
    table = bid_guide.ladder(hands, bid_guide.SHAPE)
    chart = bid_guide.guide(table, bid_guide.SHAPE, least=200)
    fig = bid_guide.heatmap(table, chart)
    ax = fig.axes[0]
    rects = [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]
    boxes = [p for p in rects if p.get_linestyle() == "solid"]  # the sure level
    dashed = [p for p in rects if p.get_linestyle() != "solid"]  # the point estimate's, where it is higher
    pays = chart[chart["bid up to"] != "pass"].sort_values(bid_guide.SHAPE, ascending=False)
    assert len(pays) and len(boxes) == len(pays)
    assert len(dashed) == (chart["on the point estimate"] != chart["bid up to"]).sum()
    # each outline sits at its shape's row and highest paying bid; the rows read as words
    labels = [t.get_text() for t in ax.get_yticklabels()]
    for box, row in zip(boxes, pays.to_dict(orient="records")):
        x, y = box.get_xy()
        assert bid_guide.LEVELS[round(x + 0.5)] == row["bid up to"]
        # the sure level is clearly above passing: its interval's lower bound is above 0
        at = table.set_index([*bid_guide.SHAPE, "bid"]).loc[
            (row["trumps"], row["trump double"], row["other doubles"], row["bid up to"])
        ]
        assert at["expected_lo"] > 0
        assert labels[round(y + 0.5)] == bid_guide.shape_label(
            row["trumps"], row["trump double"], row["other doubles"]
        )
    assert [t.get_text() for t in ax.texts].count("pass") == (chart["bid up to"] == "pass").sum()
    assert len(fig.axes) == 2  # the colour bar
    plt.close(fig)


@pytest.mark.slow  # twelve analyses of 300 deals x 7 trumps x 13 bids: about 10 s
def test_the_guide_agrees_with_analyze_on_hands_of_a_shape() -> None:
    run = RunSpec("forty-two", n=4000, seed=5, chunk_size=4000).build()
    hands = bid_guide._play(run, 0)
    shape = (hands["trumps"] == 4) & (hands["trump double"] == 1) & (hands["other doubles"] == 1)
    guide = bid_guide.ladder(hands[shape].assign(all=1), ["all"])
    p_guide = guide.loc[guide["bid"] == 30, "p_make"].iloc[0]
    picked = hands[shape].iloc[:12]
    p_analyze = []
    for row in picked.to_dict(orient="records"):
        text = " ".join(D.name(d) for d in D.bits_to_ids(int(row["hand"])))
        a = app.analyze(
            RunSpec("forty-two", n=300, seed=int(row["deal"])),
            text,
            seat=D.SEATS[row["seat"]],
            execution=Execution(jobs=1),
        )
        f = a.frame
        p_analyze.append(f.loc[(f["trump"] == row["trump"]) & (f["bid"] == 30), "p_make"].iloc[0])
    p = np.array(p_analyze)
    # hands of one shape differ: the tolerance is the spread of these hands' P(make) (and a little for the
    # guide's own sampling), three standard errors wide
    tolerance = 3 * np.sqrt(p.var(ddof=1) / len(p) + p_guide * (1 - p_guide) / shape.sum()) + 0.02
    assert abs(p.mean() - p_guide) < tolerance < 0.25, (p.mean(), p_guide, tolerance)


def test_too_few_deals_for_any_line_of_the_guide_is_one_clear_error(tmp_path) -> None:
    from tests.cli_helpers import run_cli

    code, out, err = run_cli("report", "bid-guide", "-n", "60", "-j", "1", "-o", tmp_path / "g")
    assert code == 2 and err.strip().splitlines() == [
        "error: bid-guide: no hand shape of 240 hands has the 200 a line of the guide needs; "
        "deal more (1,000 deals or more)"
    ]


def test_a_guide_line_gives_the_sure_level_and_the_point_estimate_apart() -> None:
    """A shape whose gain over passing is clearly positive up to 33 and positive on the point estimate only
    up to 35 reads 'up to 33 for sure, 35 on the point estimate'; one with no clear bid reads 'no bid is
    clearly better than passing'."""

    def rows(shape, gains, half):
        return [
            {
                "trumps": shape,
                "trump double": 1,
                "other doubles": 1,
                "bid": b,
                "hands": 500,
                "p_make": 0.6,
                "lo": 0.55,
                "hi": 0.65,
                "break_even": 0.5,
                "expected": g,
                "expected_lo": g - half,
                "expected_hi": g + half,
            }
            for b, g in zip(bid_guide.LEVELS, gains)
        ]

    gains = [6, 6, 5, 4, 2, 1, -1, -3, -5, -7, -9, -11, -20]  # 30..42
    table = pd.DataFrame(rows(4, gains, 3.5) + rows(3, [1.0] + [-5.0] * 12, 3.0))
    chart = bid_guide.guide(table, bid_guide.SHAPE).set_index("trumps")
    assert chart.loc[4, "bid up to"] == 33 and chart.loc[4, "on the point estimate"] == 35
    assert chart.loc[4, "advice"] == "up to 33 for sure, 35 on the point estimate"
    assert chart.loc[3, "bid up to"] == "pass" and chart.loc[3, "on the point estimate"] == 30
    assert chart.loc[3, "advice"].startswith("no bid is clearly better than passing")


def test_the_ladder_takes_the_deal_as_the_unit() -> None:
    """Deals whose four hands are alike and share a shape: the ladder's intervals are the ratio estimate's
    over deals, twice as wide as those that count every hand as independent."""
    deals = 200
    points = np.repeat(np.random.default_rng(5).integers(20, 43, deals), 4)
    hands = pd.DataFrame({"deal": np.repeat(np.arange(deals), 4), "points": points, "shape": 1})
    table = bid_guide.ladder(hands, ["shape"])
    row = table[table["bid"] == 31].iloc[0]
    made = (points[::4] >= 31) * 4.0
    p = estimate(Measure("made", made, np.full(deals, 4.0), binary=True))
    assert (row["p_make"], row["lo"], row["hi"]) == pytest.approx((p.value, p.lo, p.hi))
    naive = wilson(int(made.sum()), 4 * deals)
    assert row["hi"] - row["lo"] > 1.8 * (naive[1] - naive[0])
    diff = bid_guide.score_difference(points, 31)
    gain = estimate(Measure("gain", diff[::4] * 4.0, np.full(deals, 4.0)))
    assert (row["expected_lo"], row["expected_hi"]) == pytest.approx((gain.lo, gain.hi))
    assert gain.se == pytest.approx(2 * diff.std(ddof=1) / np.sqrt(len(diff)), rel=0.01)
    share = bid_guide.deal_share("some", hands, points >= 31)
    assert (share["lo"], share["hi"]) == pytest.approx((p.lo, p.hi))


def test_the_report_says_who_played(tmp_path) -> None:
    """Under the title, before the findings: the strategies at the seats, in words."""
    app.report(
        "bid-guide",
        RunSpec("forty-two", n=500, seed=3, seats=("NS=heuristic",)),
        execution=Execution(jobs=1),
        output=Output(folder=tmp_path),
    )
    html = (tmp_path / "report.html").read_text()
    played = "<p class='played'>Play: heuristic at N, S; learned at E, W</p>"  # learned: the default
    assert played in html and html.index(played) < html.index("Findings")
