"""The Forty-two bid guide: how high to bid with a given hand, over the whole population of hands.

Every hand of every deal is played as declarer (each seat in turn, the contract imposed, no auction) with
the trump the heuristic would name, on the same deals; every seat plays by its strategy. The play does not
depend on the bid level (the strategies read the bid only in the auction), so one play per hand gives the
points the declaring side takes, and P(make) at every level of the ladder follows from them: a bid B of
30..41 makes with at least B points, 42 with every trick. A set contract costs the bid plus the defenders'
points, so each level has a break-even P(make) (L / (W + L), W and L the mean score differences of made
and set contracts at that level) and an expected score difference against a thrown-in hand (0)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.html import PlotLabels, Report, TableFormat, pct, rate_plot
from reports.study import Study
from simulator import driver
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.view import DECLARATION_NAMES
from simulator.runner import Run, chunk, map_chunks
from simulator.stats import wilson
from strategies.fortytwo import TRUMP_DOUBLE, Heuristic

LEVELS = list(range(30, 43))
# How the ladder and the guide are shown: P(make) in % with its interval, the expected score in points.
LADDER = TableFormat(
    percent={"p_make": ("lo", "hi"), "break_even": None},
    signed=("expected",),
    n="hands",
    labels={
        "p_make": "P(make)",
        "break_even": "break-even P(make)",
        "expected": "expected score difference (points; marks under marks)",
        "count held": "count dominoes held",
        "trumps": "trumps held",
    },
)
GUIDE = TableFormat(
    percent={"P(make) there": ("lo", "hi")},
    n="hands",
    labels={
        "trumps": "trumps held",
        "trump double": "holds the trump double",
        "other doubles": "other doubles (3 = 3+)",
    },
)


def _play(run: Run, k: int) -> pd.DataFrame:
    """One row per hand of chunk k's deals: seat, named trump, features, and the points its side took as
    declarer."""
    c = chunk(run, k)
    n, rules = len(c.deals), run.rules
    dealt = core.shuffled_hands(c.deal_rng, n)
    dealer = (c.deals % 4).astype(np.int8)
    values = Heuristic()  # what a bidder would name: the best of its values per pip (and doubles, no-trump)
    parts = []
    for seat in range(4):
        hand = dealt[:, seat]
        named = np.argmax(values.declaration_values(hand, rules) * 8 + np.arange(9), axis=1).astype(np.int8)
        trump = np.where(named < 7, named, 0).astype(np.int8)  # the pip the shape columns read
        state = core.with_contract(
            core.new_hands(c.deals, dealer, dealt.copy()), seat, rules.min_bid, named, rules
        )
        done = driver.play(c.run.game, state, rules, c.strategies, c.fresh_seat_rngs())
        trump_bits = np.where(named < 7, D.PIP_BITS[trump], D.TRUMP_BITS[np.where(named == 7, 7, 8)])
        trump_double = np.where(
            named < 7, (hand >> TRUMP_DOUBLE[trump]) & 1, (hand >> np.uint32(D.domino_id(6, 6))) & 1
        ).astype(np.int8)
        parts.append(
            pd.DataFrame(
                {
                    "deal": c.deals,
                    "seat": seat,
                    "hand": hand,
                    "trump": trump,
                    "declared": np.asarray(DECLARATION_NAMES, dtype=object)[named],
                    "trumps": np.bitwise_count(hand & trump_bits).astype(np.int8),
                    "trump double": trump_double,
                    "other doubles": np.where(
                        named < 7, np.bitwise_count(hand & D.DOUBLE_BITS) - trump_double, 0
                    ).astype(np.int8),
                    "count held": np.bitwise_count(hand & D.COUNT_BITS).astype(np.int8),
                    "points": done.points[:, seat & 1].astype(np.int16),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def score_difference(points: np.ndarray, bid: int, marks: bool = False) -> np.ndarray:
    """Declarers minus defenders for a contract of `bid` (30..42) where the declarers took `points`: in
    points, or under marks scoring the contract's one mark won or lost."""
    made = points >= bid
    if marks:
        return np.where(made, 1, -1)
    if bid == 42:
        return np.where(made, 42, -(42 - points + bid))
    return np.where(made, 2 * points - 42, -(42 - points + bid))


def ladder(hands: pd.DataFrame, by: list[str], marks: bool = False) -> pd.DataFrame:
    """Per group of hands and bid level: P(make) with its Wilson interval, the break-even and the expected
    score difference of bidding (against 0 for a thrown-in hand)."""
    rows = []
    for key, group in hands.groupby(by, observed=True):
        points = group["points"].to_numpy(np.int64)
        for bid in LEVELS:
            made = points >= bid
            diff = score_difference(points, bid, marks)
            lo, hi = wilson(made.sum(), len(made))
            win = diff[made].mean() if made.any() else np.nan
            loss = -diff[~made].mean() if (~made).any() else np.nan
            be = 0.0 if not (~made).any() else 1.0 if not made.any() else loss / (win + loss)
            rows.append(
                {
                    **dict(zip(by, key if isinstance(key, tuple) else (key,))),
                    "bid": bid,
                    "hands": len(points),
                    "p_make": made.mean(),
                    "lo": float(lo),
                    "hi": float(hi),
                    "break_even": be,
                    "expected": diff.mean(),
                }
            )
    return pd.DataFrame(rows)


def guide(table: pd.DataFrame, by: list[str], least: int = 200) -> pd.DataFrame:
    """Per hand shape (with at least `least` hands): the highest bid whose expected score beats passing."""
    rows = []
    for key, part in table.groupby(by, observed=True):
        if part["hands"].iloc[0] < least:
            continue
        pays = part[part["expected"] > 0]
        top = pays.loc[pays["bid"].idxmax()] if len(pays) else None
        rows.append(
            {
                **dict(zip(by, key)),
                "hands": int(part["hands"].iloc[0]),
                "bid up to": int(top["bid"]) if top is not None else "pass",
                "P(make) there": top["p_make"] if top is not None else part["p_make"].iloc[0],
                "lo": top["lo"] if top is not None else part["lo"].iloc[0],
                "hi": top["hi"] if top is not None else part["hi"].iloc[0],
            }
        )
    return pd.DataFrame(rows)


def build(
    base: Run, matches: int, jobs: int, progress: bool, command: str, provenance: dict
) -> tuple[Report, tuple[str, list[str], list[list]]]:
    hands = pd.concat(
        map_chunks(_play, base, jobs, progress, f"bid-guide: {base.n:,} deals x 4 hands"), ignore_index=True
    )
    shape = ["trumps", "trump double", "other doubles"]
    hands["other doubles"] = hands["other doubles"].clip(upper=3)  # 3 = three or more
    marks = base.rules.scoring == "marks"  # the score is a mark won or lost: break-even 50% at every level
    by_shape = ladder(hands, shape, marks)
    chart = guide(by_shape, shape)
    overall = ladder(hands.assign(all="all"), ["all"], marks).drop(columns="all")
    report = Report("Forty-two: how high should this hand bid?", provenance, command)
    pays = chart[chart["bid up to"] != "pass"]
    share = hands.merge(pays[shape], on=shape).shape[0] / len(hands)
    report.finding(
        f"Of {len(hands):,} hands ({base.n:,} deals x 4 seats, each played as declarer with its best "
        f"trump), {100 * share:.1f}% have a shape for which some bid beats passing on average."
    )
    for t, d, o in ((4, 1, 1), (3, 1, 2), (5, 1, 0)):
        row = chart[(chart["trumps"] == t) & (chart["trump double"] == d) & (chart["other doubles"] == o)]
        if len(row):
            r = row.iloc[0]
            what = "pass" if r["bid up to"] == "pass" else f"bid up to {r['bid up to']}"
            report.finding(
                f"{t} trumps with the trump double and {o} other double{'s' if o != 1 else ''}: {what} "
                f"(P(make) there {pct(r['P(make) there'], r['lo'], r['hi'])}, {int(r['hands']):,} hands)."
            )
    be30 = overall[overall["bid"] == 30].iloc[0]
    report.finding(
        f"Bidding 30 pays when the contract makes at least {pct(be30['break_even'])} of the time; "
        f"over all hands it makes {pct(be30['p_make'], be30['lo'], be30['hi'])}."
    )
    report.heading("The guide")
    report.text(
        "Per hand shape (trumps held with the trump the hand would name, whether it holds the trump double, "
        "other doubles, 3 = three or more): the highest bid whose expected score difference beats passing "
        "(shapes with at least 200 hands); 'pass' when no bid does, with P(make) at 30 beside it. P(make) "
        "carries a Wilson 95% interval. Passing counts as 0 (a thrown-in hand); the opponents' bids are not "
        "modelled."
    )
    report.table("guide", chart, "How high to bid, by hand shape", GUIDE)
    report.heading("P(make) and break-even by bid level")
    report.table(
        "ladder_all", overall, "Every hand: P(make), break-even and expected score difference per bid", LADDER
    )
    fig_part = by_shape[
        (by_shape["trump double"] == 1)
        & (by_shape["trumps"].between(3, 5))
        & (by_shape["other doubles"] == 1)
    ]
    report.figure(
        "p_make_by_bid",
        rate_plot(
            fig_part,
            "bid",
            PlotLabels(title="P(make) by bid: trump double and one other double", ylabel="contracts made"),
            value="p_make",
            group="trumps",
        ),
        "P(make) against the bid for 3, 4 and 5 trumps with the trump double and one other double, 95% "
        "intervals",
    )
    report.table(
        "ladder_by_shape",
        by_shape,
        "P(make), break-even and expected score difference per shape and bid",
        LADDER,
    )
    if hands["declared"].isin(DECLARATION_NAMES[7:]).any():
        report.heading("By declaration")
        by_declared = ladder(hands, ["declared"], marks)
        report.text(
            "Hands grouped by what they would name: a pip suit (any), the doubles or no-trump. Rows per "
            "declaration and bid level."
        )
        report.table(
            "ladder_by_declaration",
            by_declared,
            "P(make), break-even and expected score difference by declaration",
            LADDER,
        )
    by_count = ladder(hands, ["trumps", "count held"], marks)
    report.heading("Count held")
    report.text(
        "The same ladder by trumps held and count dominoes held (the count a hand brings is points it "
        "keeps from the defenders)."
    )
    report.table(
        "ladder_by_count",
        by_count,
        "P(make), break-even and expected score difference by trumps and count held",
        LADDER,
    )
    headline = [
        [r["trumps"], r["trump double"], r["other doubles"], r["bid up to"], f"{int(r['hands']):,}"]
        for r in chart.to_dict(orient="records")
    ]
    return report, (
        "How high to bid (expected score above passing)",
        ["trumps", "trump double", "other doubles", "bid up to", "hands"],
        headline,
    )


STUDY = Study(
    name="bid-guide",
    game="forty-two",
    unit="deal",
    summary="how high to bid by hand shape: P(make), break-even and expected score at every bid level",
    default_matches=lambda deals: 0,
    build=build,
    default_deals=200_000,
)
