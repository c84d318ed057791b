"""The Forty-two bid-success study: how often contracts make, what in a hand makes them, what they are
worth made and set, how often hands are thrown in, which trumps are named, and how games to the target go."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import Report, rate_plot
from reports.study import Study
from simulator.runner import Run, execute
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
    labels = np.select([b < 30, b == 30, b == 31, b <= 33, b <= 41], ["<30", "30", "31", "32-33", "34-41"], "42+")
    return pd.Series(labels, index=bid.index)


def _rates(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    g = frame.groupby(by, observed=True)["made"].agg(contracts="size", made="sum").reset_index()
    g["rate"] = g["made"] / g["contracts"]
    g["lo"], g["hi"] = wilson(g["made"], g["contracts"])
    return g


def build(hands_run: Run, matches: int, jobs: int, progress: bool, command: str,
          provenance: dict) -> tuple[Report, tuple[str, list[str], list[list]]]:
    games_run = _games_run(hands_run, matches)
    result = execute(hands_run, jobs=jobs, progress=progress)
    hands = result.tables["deals"]
    played = hands[~hands["thrown_in"]].copy()
    played["made"] = played["made"].astype(bool)
    played["bid"] = played["bid"].astype(int)
    decl_ns = played["declarer"].isin(["N", "S"])
    played["swing"] = np.where(decl_ns, played["score_ns"] - played["score_ew"], played["score_ew"] - played["score_ns"])
    played["band"] = _band(played["bid"])

    report = Report("Forty-two: how often does a bid make?", provenance, command)

    report.heading("Contracts by bid")
    levels = _rates(played, ["bid"])
    thrown = int(hands["thrown_in"].sum())
    lo, hi = wilson(thrown, len(hands))
    made_all = int(played["made"].sum())
    alo, ahi = wilson(made_all, len(played))
    report.finding(f"{_pct(thrown / len(hands), lo, hi)} of {len(hands):,} hands are thrown in; "
                   f"{_pct(made_all / len(played), alo, ahi)} of the {len(played):,} contracts are made.")
    common = levels.loc[levels["contracts"].idxmax()]
    report.finding(f"The most common contract is {int(common['bid'])} ({100 * common['contracts'] / len(played):.1f}% "
                   f"of contracts), made {_pct(common['rate'], common['lo'], common['hi'])}.")
    high = played[played["bid"].between(34, 41)]
    if len(high) >= 30:
        hlo, hhi = wilson(int(high["made"].sum()), len(high))
        report.finding(f"Bids of 34 to 41 ({len(high):,} contracts) are made {_pct(high['made'].mean(), hlo, hhi)}.")
    report.text(f"{len(hands):,} hands dealt; {thrown:,} thrown in (four passes): {100 * thrown / len(hands):.2f}% "
                f"[{100 * lo:.2f}, {100 * hi:.2f}]. Success rates carry Wilson 95% intervals.")
    report.table("success_by_bid", levels, "Contracts made by bid")
    report.figure("success_by_bid", rate_plot(levels, "bid", value="rate", title="Contracts made by bid", ylabel="made"),
                  "Share of contracts made at each bid, 95% intervals")

    report.heading("What in the hand makes a contract")
    report.text("Features of the hands as dealt, with the trump the declarer named; bids grouped in bands.")
    for feature, label in FEATURES.items():
        table = _rates(played.assign(**{feature: played[feature].astype(int)}), ["band", feature])
        report.table(f"success_by_{feature}", table, f"Contracts made by {label}, per bid band")
        keep = table[table["contracts"] >= 30]
        report.figure(f"success_by_{feature}", rate_plot(keep, feature, value="rate", group="band", title=f"Made by {label}",
                                                         ylabel="made"),
                      f"Share of contracts made by {label} (bands with at least 30 contracts per point)")

    report.heading("What a contract is worth, made and set")
    rows = []
    for bid, group in played.groupby("bid"):
        row = {"bid": int(bid), "contracts": len(group), "p_made": group["made"].mean()}
        for made, label in ((True, "made"), (False, "set")):
            m, se = mean_se(group.loc[group["made"] == made, "swing"])
            row[f"{label} mean"], row[f"{label} se"] = m, se
        row["expected swing"] = group["swing"].mean()  # P(made) x made mean + P(set) x set mean
        rows.append(row)
    worth = pd.DataFrame(rows, columns=["bid", "contracts", "p_made", "made mean", "made se", "set mean", "set se",
                                        "expected swing"])
    report.text("Swing = the declaring side's score minus the defenders' in that hand (mean ± standard error).")
    report.table("swing_by_bid", worth, "Score swing of the declaring side, made against set, by bid")

    report.heading("Trumps named")
    trumps = played["trump"].astype(int).value_counts().sort_index().rename_axis("trump").reset_index(name="hands")
    trumps["share"] = trumps["hands"] / len(played)
    trumps["lo"], trumps["hi"] = wilson(trumps["hands"], len(played))
    report.table("trumps", trumps, "Trump named by the declarer")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(trumps["trump"].astype(str), 100 * trumps["share"])
    ax.set_xlabel("trump (pip)"), ax.set_ylabel("share of contracts (%)"), ax.set_title("Trumps named")
    report.figure("trumps", fig, "Share of contracts with each trump")

    if games_run is not None:
        games = execute(games_run, jobs=jobs, progress=progress).tables["matches"]
        report.heading(f"Games to {games_run.rules.target}")
        decided = games[games["winner"].notna()]
        first = int(decided["first_dealer_side_won"].sum())
        flo, fhi = wilson(first, len(decided))
        m, se = mean_se(games["deals"])
        edge = "cannot be told apart from an even game" if flo <= 0.5 <= fhi else "differs from an even game"
        report.finding(f"A game to {games_run.rules.target} takes {m:.2f} ± {se:.2f} hands; the first dealer's side "
                       f"wins {_pct(first / max(len(decided), 1), flo, fhi)} of {len(decided):,} games, which {edge} "
                       "(one of several comparisons in this report: read a single edge with care).")
        report.text(f"{len(games):,} games: {m:.2f} ± {se:.2f} hands per game (hands thrown in count). "
                    f"The first dealer's side won {100 * first / max(len(decided), 1):.2f}% "
                    f"[{100 * flo:.2f}, {100 * fhi:.2f}].")
        lengths = games["deals"].value_counts().sort_index().rename_axis("hands").reset_index(name="games")
        lengths["share"] = lengths["games"] / len(games)
        report.table("hands_per_game", lengths, "How many hands a game takes")
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.bar(lengths["hands"], 100 * lengths["share"])
        ax.set_xlabel("hands in the game"), ax.set_ylabel("share of games (%)")
        ax.set_title(f"Hands per game to {games_run.rules.target}")
        report.figure("hands_per_game", fig, "Distribution of hands per game")
    headline = [[int(r["bid"]), f"{int(r['contracts']):,}", _pct(r["rate"], r["lo"], r["hi"])]
                for r in levels.to_dict(orient="records")]
    return report, ("Contracts made by bid (Wilson 95%)", ["bid", "contracts", "made"], headline)


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def _games_run(base: Run, games: int) -> Run | None:
    """The study's games to the target (when games > 0), on the same seed."""
    if games <= 0:
        return None
    return dataclasses.replace(base, n=games, unit="match", chunk_size=base.game.default_chunk["match"])


STUDY = Study(name="bid-success", game="forty-two", unit="deal",
              summary="contract success by bid and by hand, swings, throw-ins, trumps, game length",
              default_matches=lambda deals: deals // 10, build=build)
