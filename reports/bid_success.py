"""The Forty-two bid-success study: how often contracts make, what in a hand makes them, what they are
worth made and set, how often hands are thrown in, which trumps are named, and how games to the target go."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import MIN_CASES, PlotLabels, Report, TableFormat, pct, pm, rate_plot, rate_row
from reports.study import Study
from reports.trumps import trump_code, trump_name
from simulator.fortytwo.tables import score_column
from simulator.provenance import seats_text
from simulator.runner import Run, execute
from simulator.series import match_summary
from simulator.stats import mean_se, wilson

FEATURES = {
    "declarer_trumps": "trumps the declarer holds",
    "declarer_doubles": "doubles the declarer holds",
    "declarer_exposed": "count dominoes the declarer holds outside trumps, not doubles",
    "side_trumps": "trumps the declaring side holds",
    "side_doubles": "doubles the declaring side holds",
    "side_count": "count dominoes the declaring side holds",
}


def _band(bid: pd.Series) -> pd.Series:
    """Bids grouped so that each band holds enough contracts to read: <30, 30, 31, 32-33, 34-41, 42+."""
    b = bid.to_numpy(int)
    labels = np.select(
        [b < 30, b == 30, b == 31, b <= 33, b <= 41], ["<30", "30", "31", "32-33", "34-41"], "42+"
    )
    return pd.Series(labels, index=bid.index)


def _rates(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    g = frame.groupby(by, observed=True)["made"].agg(contracts="size", made="sum").reset_index()
    g["rate"] = g["made"] / g["contracts"]
    g["lo"], g["hi"] = wilson(g["made"], g["contracts"])
    return g


RATE = {"rate": ("lo", "hi")}


def build(
    hands_run: Run, matches: int, jobs: int, progress: bool, command: str, provenance: dict
) -> tuple[Report, tuple[str, list[str], list[list]]]:
    games_run = _games_run(hands_run, matches)
    result = execute(hands_run, jobs=jobs, progress=progress).whole()
    hands = result.tables["deals"]
    played = hands[~hands["thrown_in"]].copy()
    played["made"] = played["made"].astype(bool)
    played["bid"] = played["bid"].astype(int)
    decl_ns = played["declarer"].isin(["N", "S"])
    ns, ew = (played[score_column(played, side)] for side in ("ns", "ew"))
    played["swing"] = np.where(decl_ns, ns - ew, ew - ns)
    played["band"] = _band(played["bid"])

    who = seats_text(hands_run.game.seat_names(hands_run.rules), hands_run.seats)
    report = Report("Forty-two: how often does a bid make?", provenance, command, played=who)
    levels = _rates(played, ["bid"])
    thrown = int(hands["thrown_in"].sum())
    high = played[played["bid"].between(34, 41)]
    overview = [
        rate_row("hands thrown in (four passes)", thrown, len(hands)),
        rate_row("contracts made", int(played["made"].sum()), len(played)),
        rate_row("bids of 34-41 made", int(high["made"].sum()), len(high)),
    ]
    games = (
        execute(games_run, jobs=jobs, progress=progress).whole().tables["matches"]
        if games_run is not None
        else None
    )
    if games is not None:
        first = match_summary(games_run.game, games)["first_dealer_wins"]
        overview.append(rate_row("games won by the first dealer's side", first.count, first.of))

    t, c, h = overview[0], overview[1], overview[2]
    report.finding(
        f"{pct(t['rate'], t['lo'], t['hi'])} of {len(hands):,} hands are thrown in; "
        f"{pct(c['rate'], c['lo'], c['hi'])} of the {len(played):,} contracts are made."
    )
    common = levels.loc[levels["contracts"].idxmax()]
    report.finding(
        f"The most common contract is {int(common['bid'])} ({100 * common['contracts'] / len(played):.1f}% "
        f"of contracts), made {pct(common['rate'], common['lo'], common['hi'])}."
    )
    if h["of"] >= MIN_CASES:
        report.finding(
            f"Bids of 34 to 41 ({h['of']:,} contracts) are made {pct(h['rate'], h['lo'], h['hi'])}."
        )
    if games is not None:
        g = overview[3]
        m, se = mean_se(games["deals"])
        edge = (
            "cannot be told apart from an even game"
            if g["lo"] <= 0.5 <= g["hi"]
            else "differs from an even game"
        )
        report.finding(
            f"A game to {_target(games_run)} takes {pm(m, se)} hands; the first dealer's side "
            f"wins {pct(g['rate'], g['lo'], g['hi'])} of {g['of']:,} games, which {edge} "
            "(one of several comparisons in this report: read a single edge with care)."
        )
    report.heading("At a glance")
    report.table(
        "overview",
        pd.DataFrame(overview),
        "The study's pooled figures (Wilson 95% intervals)",
        TableFormat(labels={"": "", "count": "cases", "of": "of", "rate": "share"}, percent=RATE, n="of"),
    )

    report.heading("Contracts by bid")
    report.text("Success rates carry Wilson 95% intervals.")
    report.table(
        "success_by_bid",
        levels,
        "Contracts made by bid",
        TableFormat(
            labels={"contracts": "contracts", "made": "made", "rate": "made (%)"}, percent=RATE, n="contracts"
        ),
    )
    # bids above 42 (marks, plunges) are far apart: shown as categories
    shown = levels.assign(bid=levels["bid"].astype(str)) if (levels["bid"] > 42).any() else levels
    report.figure(
        "success_by_bid",
        rate_plot(
            shown,
            "bid",
            PlotLabels(title="Contracts made by bid", ylabel="contracts made"),
            value="rate",
            n="contracts",
        ),
        "Share of contracts made at each bid, 95% intervals (bids with at least 30 contracts)",
        main=True,
    )

    report.heading("What in the hand makes a contract")
    report.text("Features of the hands as dealt, with the trump the declarer named; bids grouped in bands.")
    tables = {
        feature: _rates(played.assign(**{feature: played[feature].astype(int)}), ["band", feature])
        for feature in FEATURES
    }
    report.figure(
        "success_by_feature",
        _feature_panels(tables),
        "Share of contracts made by each feature of the hands, one line per bid band, 95% intervals "
        f"(points with at least {MIN_CASES} contracts)",
    )
    for feature, label in FEATURES.items():
        report.table(
            f"success_by_{feature}",
            tables[feature],
            f"Contracts made by {label}, per bid band",
            TableFormat(
                labels={"band": "bid band", feature: label, "rate": "made (%)"}, percent=RATE, n="contracts"
            ),
            collapsed=f"Contracts made by {label}, per bid band",
        )

    report.heading("What a contract is worth, made and set")
    rows = []
    for bid, group in played.groupby("bid"):
        made = int(group["made"].sum())
        lo, hi = wilson(made, len(group))
        row = {
            "bid": int(bid),
            "contracts": len(group),
            "p_made": made / len(group),
            "lo": float(lo),
            "hi": float(hi),
        }
        for is_made, label in ((True, "made"), (False, "set")):
            row[f"{label} mean"], row[f"{label} se"] = mean_se(group.loc[group["made"] == is_made, "swing"])
        # P(made) x made mean + P(set) x set mean
        row["expected swing"], row["expected se"] = mean_se(group["swing"])
        rows.append(row)
    worth = pd.DataFrame(rows)
    report.text(
        "Swing = the declaring side's score minus the defenders' in that hand, in points (mean ± standard "
        "error)."
    )
    report.table(
        "swing_by_bid",
        worth,
        "Score swing of the declaring side, made against set, by bid",
        TableFormat(
            labels={
                "p_made": "made (%)",
                "made mean": "swing when made (points)",
                "set mean": "swing when set (points)",
                "expected swing": "expected swing (points)",
            },
            percent={"p_made": ("lo", "hi")},
            error={"made mean": "made se", "set mean": "set se", "expected swing": "expected se"},
            signed=("made mean", "set mean", "expected swing"),
            n="contracts",
        ),
    )

    codes = played["trump"].map(trump_code).astype(int)  # codes or names alike
    if played["contract"].ne("bid").any() or codes.ge(7).any():
        report.heading("Declarations and special contracts")
        by_kind = _rates(played.assign(trump=codes), ["contract", "trump"])
        by_kind.insert(1, "declared", [trump_name(t) for t in by_kind.pop("trump")])
        by_kind.insert(2, "share of contracts", by_kind["contracts"] / len(played))
        report.table(
            "contracts_by_kind",
            by_kind,
            "Contracts by kind and declaration: how often and how often made",
            TableFormat(
                labels={"rate": "made (%)"}, percent={"share of contracts": None, **RATE}, n="contracts"
            ),
        )
    report.heading("Trumps named")
    trumps = codes.value_counts().sort_index().rename_axis("trump").reset_index(name="contracts")
    trumps.insert(1, "named", [trump_name(t) for t in trumps["trump"]])
    trumps["share"] = trumps["contracts"] / len(played)
    trumps["lo"], trumps["hi"] = wilson(trumps["contracts"], len(played))
    report.table(
        "trumps",
        trumps,
        "Trump named by the declarer",
        TableFormat(labels={"share": "share of contracts (%)"}, percent={"share": ("lo", "hi")}),
    )
    fig, ax = plt.subplots(figsize=(6, 3.5))
    y = 100 * trumps["share"].to_numpy()
    ax.bar(
        trumps["named"],
        y,
        yerr=[y - 100 * trumps["lo"].to_numpy(), 100 * trumps["hi"].to_numpy() - y],
        capsize=3,
    )
    ax.set_xlabel("trump named"), ax.set_ylabel("share of contracts (%)"), ax.set_title("Trumps named")
    report.figure("trumps", fig, "Share of contracts with each trump, 95% intervals")

    if games is not None:
        report.heading(f"Games to {_target(games_run)}")
        m, se = mean_se(games["deals"])
        report.table(
            "game_length",
            pd.DataFrame(
                [{"": "hands per game (thrown-in hands count)", "mean": m, "se": se, "games": len(games)}]
            ),
            "How long a game is (mean ± standard error)",
            TableFormat(error={"mean": "se"}),
        )
        lengths = games["deals"].value_counts().sort_index().rename_axis("hands").reset_index(name="games")
        lengths["share"] = lengths["games"] / len(games)
        lengths["lo"], lengths["hi"] = wilson(lengths["games"], len(games))
        report.table(
            "hands_per_game",
            lengths,
            "How many hands a game takes",
            TableFormat(
                labels={"hands": "hands in the game", "share": "share of games (%)"},
                percent={"share": ("lo", "hi")},
            ),
            collapsed=f"How many hands a game takes, game by game length: {len(lengths)} lengths",
        )
        fig, ax = plt.subplots(figsize=(6, 3.5))
        y = 100 * lengths["share"].to_numpy()
        ax.bar(
            lengths["hands"],
            y,
            yerr=[y - 100 * lengths["lo"].to_numpy(), 100 * lengths["hi"].to_numpy() - y],
            capsize=2,
        )
        ax.set_xlabel("hands in the game"), ax.set_ylabel("share of games (%)")
        ax.set_title(f"Hands per game to {_target(games_run)}")
        report.figure("hands_per_game", fig, "Distribution of hands per game, 95% intervals")
    headline = [
        [int(r["bid"]), f"{int(r['contracts']):,}", pct(r["rate"], r["lo"], r["hi"])]
        for r in levels.to_dict(orient="records")
    ]
    return report, ("Contracts made by bid (Wilson 95%)", ["bid", "contracts", "made"], headline)


def _feature_panels(tables: dict[str, pd.DataFrame]) -> plt.Figure:
    """Contracts made against each feature of the hands, a panel per feature and a line per bid band in
    the same colour in every panel (points of fewer than MIN_CASES contracts left out)."""
    bands = sorted(
        {b for t in tables.values() for b in t["band"]},
        key=["<30", "30", "31", "32-33", "34-41", "42+"].index,
    )
    colours = dict(zip(bands, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    fig, axes = plt.subplots(2, 3, figsize=(10, 6), sharey=True)
    legend: dict[str, object] = {}
    for ax, (feature, table) in zip(axes.flat, tables.items()):
        shown = table[table["contracts"] >= MIN_CASES].sort_values(feature)
        for band, part in shown.groupby("band", sort=False):
            y = 100 * part["rate"].to_numpy(float)
            err = np.clip(
                [y - 100 * part["lo"].to_numpy(float), 100 * part["hi"].to_numpy(float) - y], 0, None
            )
            legend[str(band)] = ax.errorbar(
                part[feature], y, yerr=err, marker="o", capsize=2, markersize=3, color=colours[band]
            )
        ax.set_xlabel(FEATURES[feature].replace(" outside", "\noutside"), fontsize="small")
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("contracts made (%)")
    order = [b for b in bands if b in legend]
    fig.legend(
        [legend[b] for b in order],
        [f"bids {b}" for b in order],
        loc="upper center",
        ncol=6,
        fontsize="small",
        frameon=False,
        bbox_to_anchor=(0.5, 1.0),
    )
    fig.suptitle("Contracts made by what the hands hold", y=1.04)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig


def _target(run: Run) -> str:
    return f"{run.rules.target_marks} marks" if run.rules.scoring == "marks" else str(run.rules.target)


def _games_run(base: Run, games: int) -> Run | None:
    """The study's games to the target (when games > 0), on the same seed."""
    if games <= 0:
        return None
    return dataclasses.replace(base, n=games, unit="match", chunk_size=base.game.default_chunk["match"])


STUDY = Study(
    name="bid-success",
    game="forty-two",
    unit="deal",
    summary="contract success by bid and by hand, swings, throw-ins, trumps, game length",
    default_matches=lambda deals: deals // 10,
    build=build,
)
