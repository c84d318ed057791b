"""The Forty-two bid guide: how high to bid with a given hand, over the whole population of hands.

Every hand of every deal is played as declarer (each seat in turn, the contract imposed, no auction) with
the trump the heuristic would name, on the same deals; every seat plays by its strategy. The play does not
depend on the bid level (the strategies read the bid only in the auction), so one play per hand gives the
points the declaring side takes, and P(make) at every level of the ladder follows from them: a bid B of
30..41 makes with at least B points, 42 with every trick. A set contract costs the bid plus the defenders'
points, so each level has a break-even P(make) (L / (W + L), W and L the mean score differences of made
and set contracts at that level) and an expected score difference against a thrown-in hand (0).

The four hands of one deal are not independent: every interval takes the deal as the unit (a ratio over
the deals, per deal the sum over its hands and their count)."""

from __future__ import annotations

import matplotlib.patches
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import PlotLabels, Report, TableFormat, pct, rate_plot, units_rate_row
from reports.study import Study
from simulator import driver
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.advice import AGAINST, ceiling
from simulator.fortytwo.view import DECLARATION_NAMES
from simulator.provenance import seats_text
from simulator.runner import Run, chunk, map_chunks
from simulator.stats import Measure, estimate
from strategies.fortytwo import TRUMP_DOUBLE, Heuristic

LEVELS = list(range(30, 43))
# How the ladder and the guide are shown: P(make) in % with its interval, the expected score in points.
LADDER = TableFormat(
    percent={"p_make": ("lo", "hi"), "break_even": None},
    interval={"expected": ("expected_lo", "expected_hi")},
    signed=("expected",),
    n="hands",
    labels={
        "p_make": "P(make)",
        "break_even": "break-even P(make)",
        "expected": "expected gain over passing, 95% interval (points; marks under marks)",
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
        "bid up to": "sure up to (points)",
        "on the point estimate": "up to, on the point estimate",
    },
)
SHAPE = ["trumps", "trump double", "other doubles"]
LEAST = 200  # hands a shape needs for a line of the guide: fewer give intervals too wide to choose a bid by


def shape_label(trumps: int, double: int, others: int) -> str:
    """A hand shape in words: "4 trumps, trump double, 1 other double"."""
    return (
        f"{trumps} trump{'s' if trumps != 1 else ''}, "
        + ("trump double, " if double else "no trump double, ")
        + f"{others}{'+' if others >= 3 else ''} other double{'s' if others != 1 else ''}"
    )


def heatmap(table: pd.DataFrame, chart: pd.DataFrame) -> plt.Figure:
    """P(make) per hand shape (rows, strongest first) and bid (columns) of the shapes in `chart`, each cell
    coloured and written in %: the highest bid clearly better than passing outlined in black, the highest
    on the point estimate (where higher) in a grey dashed line; 'pass' at the right of a row where no bid is
    clearly better."""
    shapes = chart.sort_values(SHAPE, ascending=False)
    grid = (
        table.merge(shapes[SHAPE], on=SHAPE)
        .pivot_table(index=SHAPE, columns="bid", values="p_make")
        .reindex(pd.MultiIndex.from_frame(shapes[SHAPE]))
        .reindex(columns=LEVELS)
    )
    values = 100 * grid.to_numpy(float)
    rows = len(values)
    fig, ax = plt.subplots(figsize=(9.5, 1.3 + 0.3 * rows))
    image = ax.imshow(values, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for i in range(rows):
        for j in range(len(LEVELS)):
            v = values[i, j]
            ax.text(
                j,
                i,
                f"{v:.0f}",
                ha="center",
                va="center",
                fontsize=7.5,
                color="black" if 20 < v < 85 else "white",
            )
    for i, point in enumerate(shapes["on the point estimate"]):
        if point != "pass" and point != shapes["bid up to"].iloc[i]:
            ax.add_patch(
                matplotlib.patches.Rectangle(
                    (LEVELS.index(int(point)) - 0.5, i - 0.5),
                    1,
                    1,
                    fill=False,
                    edgecolor="0.45",
                    linestyle="--",
                    linewidth=1.6,
                )
            )
    for i, top in enumerate(shapes["bid up to"]):
        if top == "pass":
            ax.text(len(LEVELS) - 0.4, i, "pass", ha="left", va="center", fontsize=8, style="italic")
        else:
            ax.add_patch(
                matplotlib.patches.Rectangle(
                    (LEVELS.index(int(top)) - 0.5, i - 0.5),
                    1,
                    1,
                    fill=False,
                    edgecolor="black",
                    linewidth=2.2,
                )
            )
    ax.set_xticks(range(len(LEVELS)), [str(b) for b in LEVELS])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("bid (points)")
    ax.set_yticks(range(rows), [shape_label(*key) for key in grid.index])
    ax.tick_params(length=0)
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.09)
    bar.set_label("P(make) (%)")
    ax.set_title(
        "P(make) by hand shape and bid\noutlined: the highest bid clearly better than passing; "
        "dashed: the highest on the point estimate",
        pad=10,
        fontsize=10,
    )
    return fig


def guide_grid(chart: pd.DataFrame) -> pd.DataFrame:
    """The guide pivoted: one row per trumps held and trump double, one column per count of other doubles,
    each cell the highest bid clearly better than passing, with the point estimate's in brackets where it
    differs ('pass', or '-' for a shape with too few hands)."""
    rows = []
    for (t, d), part in chart.groupby(["trumps", "trump double"]):
        cells = {
            o: str(sure) if sure == point else f"{sure} ({point})"
            for o, sure, point in zip(part["other doubles"], part["bid up to"], part["on the point estimate"])
        }
        rows.append(
            {
                "hand": f"{t} trump{'s' if t != 1 else ''}, {'with' if d else 'without'} the trump double",
                **{
                    f"{o}{'+' if o == 3 else ''} other double{'s' if o != 1 else ''}": cells.get(o, "-")
                    for o in range(4)
                },
            }
        )
    return pd.DataFrame(rows[::-1])  # strongest hands first


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
    """Per group of hands and bid level: P(make), the break-even and the expected score difference of
    bidding (against 0 for a thrown-in hand), each with its 95% interval. The four hands of a deal are not
    independent (two of them may share a group): the deal is the unit, each figure a ratio over the deals
    of the group (per deal the sum and the hand count, `stats.estimate`: Wilson for P(make) when no deal
    puts two hands in the group, else normal on the deals' totals)."""
    rows = []
    for key, group in hands.groupby(by, observed=True):
        points = group["points"].to_numpy(np.int64)
        at = pd.factorize(group["deal"].to_numpy())[0]  # each hand's deal within the group
        count = np.bincount(at).astype(float)
        for bid in LEVELS:
            made = points >= bid
            diff = score_difference(points, bid, marks)
            p = estimate(Measure("made", np.bincount(at, weights=made), count, binary=True))
            gain = estimate(Measure("gain", np.bincount(at, weights=diff), count))
            win = diff[made].mean() if made.any() else np.nan
            loss = -diff[~made].mean() if (~made).any() else np.nan
            be = 0.0 if not (~made).any() else 1.0 if not made.any() else loss / (win + loss)
            rows.append(
                {
                    **dict(zip(by, key if isinstance(key, tuple) else (key,))),
                    "bid": bid,
                    "hands": len(points),
                    "p_make": p.value,
                    "lo": p.lo,
                    "hi": p.hi,
                    "break_even": be,
                    "expected": gain.value,
                    "expected_lo": gain.lo,
                    "expected_hi": gain.hi,
                }
            )
    return pd.DataFrame(rows)


def deal_share(label: str, hands: pd.DataFrame, chosen: np.ndarray) -> dict:
    """The share of all hands marked `chosen`, with its 95% interval over the deals (the four hands of a
    deal are not independent: normal on the deals' totals)."""
    at = pd.factorize(hands["deal"].to_numpy())[0]
    return units_rate_row(label, np.bincount(at, weights=chosen.astype(float)), np.bincount(at).astype(float))


def guide(table: pd.DataFrame, by: list[str], least: int = LEAST) -> pd.DataFrame:
    """Per hand shape (with at least `least` hands), by the shared rule (`advice.ceiling`): the highest bid
    whose expected gain over passing is clearly positive ('bid up to', 'pass' when none is) and the highest
    whose point estimate is ('on the point estimate', 'pass' when none is)."""
    rows = []
    for key, part in table.groupby(by, observed=True):
        if part["hands"].iloc[0] < least:
            continue
        c = ceiling(zip(part["bid"], part["expected"], part["expected_lo"], part["expected_hi"]))
        top = part[part["bid"] == c.sure].iloc[0] if c.sure is not None else None
        rows.append(
            {
                **dict(zip(by, key)),
                "hands": int(part["hands"].iloc[0]),
                "bid up to": c.sure if c.sure is not None else "pass",
                "on the point estimate": c.point if c.point is not None else "pass",
                "advice": c.text(),
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
    shape = SHAPE
    hands["other doubles"] = hands["other doubles"].clip(upper=3)  # 3 = three or more
    marks = base.rules.scoring == "marks"  # the score is a mark won or lost: break-even 50% at every level
    by_shape = ladder(hands, shape, marks)
    chart = guide(by_shape, shape)
    if chart.empty:
        raise DealsimError(
            f"bid-guide: no hand shape of {len(hands):,} hands has the {LEAST} a line of the guide needs; "
            "deal more (1,000 deals or more)"
        )
    overall = ladder(hands.assign(all="all"), ["all"], marks).drop(columns="all")
    who = seats_text(base.game.seat_names(base.rules), base.seats)
    report = Report("Forty-two: how high should this hand bid?", provenance, command, played=who)
    pays = chart[chart["bid up to"] != "pass"]
    shapes = by_shape.drop_duplicates(shape)
    few = shapes[shapes["hands"] < LEAST]
    keyed = pd.MultiIndex.from_frame(hands[shape])
    share = deal_share(
        "hands of a shape for which some bid is clearly better than passing",
        hands,
        keyed.isin(pd.MultiIndex.from_frame(pays[shape])),
    )
    rare = deal_share(
        "hands of shapes too rare for the guide", hands, keyed.isin(pd.MultiIndex.from_frame(few[shape]))
    )
    report.finding(
        f"Of {len(hands):,} hands ({base.n:,} deals x 4 seats, each played as declarer with its best "
        f"trump), {pct(share['rate'], share['lo'], share['hi'])} have a shape for which some bid is clearly "
        "better than passing (95% intervals over the deals: the four hands of a deal count as one unit). "
        f"The advice below weighs each bid by the {AGAINST}: 'sure up to' is the "
        "highest bid whose gain's 95% interval is above 0, 'on the point estimate' the highest whose mean "
        "gain is."
    )
    for t, d, o in ((4, 1, 1), (3, 1, 2), (5, 1, 0)):
        row = chart[(chart["trumps"] == t) & (chart["trump double"] == d) & (chart["other doubles"] == o)]
        if len(row):
            r = row.iloc[0]
            there = (
                f"P(make) at {r['bid up to']} {pct(r['P(make) there'], r['lo'], r['hi'])}"
                if r["bid up to"] != "pass"
                else f"P(make) at 30 {pct(r['P(make) there'], r['lo'], r['hi'])}"
            )
            doubles = f"{o} other double{'s' if o != 1 else ''}"
            report.finding(
                f"{t} trumps with the trump double and {doubles}: {r['advice']} "
                f"({there}, {int(r['hands']):,} hands)."
            )
    be30 = overall[overall["bid"] == 30].iloc[0]
    report.finding(
        f"Bidding 30 pays when the contract makes at least {pct(be30['break_even'])} of the time; "
        f"over all hands it makes {pct(be30['p_make'], be30['lo'], be30['hi'])}."
    )
    report.finding(
        f"The guide reads {len(chart)} hand shapes of at least {LEAST} hands each; {len(few)} rarer shapes "
        f"({rare['count']:,} hands, {pct(rare['rate'], rare['lo'], rare['hi'])} of all) are too few to "
        "choose a bid by and are left out of it (their rows stay in ladder_by_shape.csv)."
    )
    report.figure(
        "guide_heatmap",
        heatmap(by_shape, chart),
        f"P(make) in % for every hand shape of at least {LEAST} hands (rows: trumps held with the trump the "
        "hand would name, the trump double, other doubles) and every bid; the cell outlined in black is the "
        "highest bid whose expected gain over passing is clearly positive (95% interval above 0), the dashed "
        "grey one the highest on the point estimate where that is higher; 'pass' where no bid is clearly "
        "better than passing",
        main=True,
    )
    report.heading("The guide")
    report.text(
        "Per hand shape (trumps held with the trump the hand would name, whether it holds the trump double, "
        "other doubles, 3 = three or more): the highest bid whose expected gain over passing is clearly "
        "positive (its 95% interval above 0), and in brackets, where it differs, the highest on the point "
        f"estimate (shapes with at least {LEAST} hands; '-': fewer); 'pass' when no bid is clearly better. "
        "Passing counts as 0 (a thrown-in hand); the comparison is not against the opponents' contract, and "
        "the opponents' bids are not modelled."
    )
    report.table(
        "guide_grid",
        guide_grid(chart),
        "How high to bid (points), by trumps held and the trump double (rows) and other doubles (columns)",
        TableFormat(labels={"hand": "trumps held"}),
    )
    report.table(
        "guide",
        chart,
        "How high to bid, by hand shape, with P(make) there (at 30 for 'pass') and its 95% interval (the "
        "deal as the unit)",
        GUIDE,
        collapsed=f"The guide shape by shape, with P(make) and its interval: {len(chart)} shapes",
    )
    report.table(
        "hands",
        pd.DataFrame([share, rare]),
        "Shares of all hands, with 95% intervals over the deals (the four hands of a deal are not "
        "independent: the deal is the unit)",
        TableFormat(labels={"": "hands", "rate": "share"}, percent={"rate": ("lo", "hi")}, n="of"),
    )
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
            PlotLabels(
                title="P(make) by bid: trump double and one other double",
                ylabel="contracts made",
                xlabel="bid (points)",
                legend="trumps held:",
            ),
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
        collapsed=f"Every shape at every bid: {by_shape['hands'].gt(0).sum() // len(LEVELS)} shapes x "
        f"{len(LEVELS)} bids",
    )
    if hands["declared"].isin(DECLARATION_NAMES[7:]).any():
        by_declared = ladder(hands, ["declared"], marks)
        report.table(
            "ladder_by_declaration",
            by_declared,
            "P(make), break-even and expected score difference by declaration: a pip suit (any), the "
            "doubles or no-trump",
            LADDER,
            collapsed="By what the hand would name (pips, doubles, no-trump), at every bid",
        )
    by_count = ladder(hands, ["trumps", "count held"], marks)
    report.table(
        "ladder_by_count",
        by_count,
        "P(make), break-even and expected score difference by trumps and count dominoes held (the count a "
        "hand brings is points it keeps from the defenders)",
        LADDER,
        collapsed="By trumps and count dominoes held, at every bid",
    )
    headline = [
        [
            r["trumps"],
            r["trump double"],
            r["other doubles"],
            r["bid up to"],
            r["on the point estimate"],
            f"{int(r['hands']):,}",
        ]
        for r in chart.to_dict(orient="records")
    ]
    return report, (
        "How high to bid (expected gain over passing: sure up to, and on the point estimate)",
        ["trumps", "trump double", "other doubles", "bid up to", "on the point estimate", "hands"],
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
