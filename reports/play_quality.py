"""Forty-two: how far from perfect. Every strategy of the game plays all four seats on the same deals, and
the double-dummy solver (`simulate --measure play-quality`) says, hand by hand, how many points each side
gave away by its own plays against perfect play by all four, and whether the contract could have been made.
Where the game has a searching `expert`, it also meets the heuristic over whole games (paired, on the same
deals)."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import PlotLabels, Report, TableFormat, num, pct, pm, pp, rate_plot, rate_row
from reports.study import Study
from simulator import experiments, registry
from simulator.fortytwo import quality as fortytwo_quality
from simulator.runner import Run, execute
from simulator.stats import mean_se

QUALITY = ("play-quality",)
LADDER = [*range(30, 43), 84, 126, 168, 210]  # bid values (84 to 210: two to five marks)


# what each side's own plays gave away, by role: columns added to the played hands from the per-side ones
ROLES = ("declaring side gave", "defenders gave")


def _quality(run: Run, jobs: int, progress: bool) -> pd.DataFrame:
    """The played (not thrown-in) hands of `run` with the play-quality columns, and the points the
    declaring side and the defenders gave away (`ROLES`)."""
    deals = (
        execute(dataclasses.replace(run, measures=QUALITY), jobs=jobs, progress=progress)
        .whole()
        .tables["deals"]
    )
    played = deals[~deals["thrown_in"].to_numpy(bool)]
    return played.assign(**dict(zip(ROLES, fortytwo_quality.by_role(played))))


def _row(spec: str, hands: pd.DataFrame) -> dict:
    decl, decl_se = mean_se(hands["declaring side gave"])
    dfn, dfn_se = mean_se(hands["defenders gave"])
    made = rate_row("", int(hands["made"].fillna(False).sum()), len(hands))
    perfect = rate_row("", int(hands["made_perfect"].fillna(False).sum()), len(hands))
    return {
        "strategy": spec,
        "contracts": len(hands),
        "declarers gave": decl,
        "declarers se": decl_se,
        "defenders gave": dfn,
        "defenders se": dfn_se,
        "made": made["rate"],
        "made lo": made["lo"],
        "made hi": made["hi"],
        "makeable": perfect["rate"],
        "makeable lo": perfect["lo"],
        "makeable hi": perfect["hi"],
    }


def _by_bid(spec: str, hands: pd.DataFrame) -> list[dict]:
    """Per bid: contracts, the share made in play and the share makeable with perfect play, with intervals."""
    rows = []
    for bid, part in hands.groupby("bid", sort=True):
        made = rate_row("", int(part["made"].fillna(False).sum()), len(part))
        perfect = rate_row("", int(part["made_perfect"].fillna(False).sum()), len(part))
        rows.append(
            {
                "strategy": spec,
                "bid": int(bid),
                "contracts": len(part),
                "made": made["rate"],
                "made lo": made["lo"],
                "made hi": made["hi"],
                "makeable": perfect["rate"],
                "makeable lo": perfect["lo"],
                "makeable hi": perfect["hi"],
            }
        )
    return rows


def build(
    base: Run, matches: int, jobs: int, progress: bool, command: str, provenance: dict
) -> tuple[Report, tuple[str, list[str], list[list]]]:
    game = base.game
    specs = list(registry.roster(game).known)
    report = Report("Forty-two: how far from perfect play", provenance, command)
    played = {spec: _quality(dataclasses.replace(base, seats=(spec,) * 4), jobs, progress) for spec in specs}
    quality = pd.DataFrame([_row(spec, hands) for spec, hands in played.items()])
    by_bid = pd.DataFrame([r for spec, hands in played.items() for r in _by_bid(spec, hands)])

    for r in quality.to_dict(orient="records"):
        report.finding(
            f"Playing all four seats, {r['strategy']} gives away "
            f"{pm(r['declarers gave'], r['declarers se'])} points per contract as the declaring side and "
            f"{pm(r['defenders gave'], r['defenders se'])} as the defenders, "
            f"against double-dummy play by all four ({r['contracts']:,} contracts); it makes "
            f"{pct(r['made'], r['made lo'], r['made hi'])} of its contracts, "
            f"{pct(r['makeable'], r['makeable lo'], r['makeable hi'])} could be made with perfect play."
        )
    headline = [
        [
            r["strategy"],
            pm(r["declarers gave"], r["declarers se"]),
            pm(r["defenders gave"], r["defenders se"]),
            pct(r["made"], r["made lo"], r["made hi"]),
            pct(r["makeable"], r["makeable lo"], r["makeable hi"]),
        ]
        for r in quality.to_dict(orient="records")
    ]

    pairs = (
        _paired_quality(played["expert"], played["heuristic"])
        if {"expert", "heuristic"} <= set(played)
        else None
    )
    quality_pairs = None
    if pairs is not None:
        d, n_same = pairs
        fewer = all(v["hi"] < 0 for v in d.values())
        report.finding(
            f"On the {n_same:,} deals where both bid the same contract, points given away per contract, "
            f"expert minus heuristic (paired 95% intervals): {_signed(d['declarers gave'])} by the declaring "
            f"side, {_signed(d['defenders gave'])} by the defenders"
            + (
                "; the expert gives away fewer on both sides."
                if fewer
                else "; the two cannot be told apart on at least one side."
            )
        )
        quality_pairs = pd.DataFrame([{"measure": k, **v} for k, v in d.items()])
    provenance["played"] = f"each of {', '.join(specs)} on all four seats, {base.n:,} deals" + (
        "; the duel: N-S expert, E-W heuristic" if "expert" in specs and matches > 0 else ""
    )

    duel = None
    if "expert" in specs and matches > 0:
        # the expert's side against the heuristic's on the same games: N-S change, E-W play the heuristic
        # in both
        a = dataclasses.replace(
            base,
            n=matches,
            unit="match",
            chunk_size=min(base.chunk_size, 50),
            seats=("expert", "heuristic", "expert", "heuristic"),
        )
        b = dataclasses.replace(a, seats=("heuristic",) * 4)
        duel = experiments.compare(a, b, jobs=jobs, progress=progress)
        d = dict(zip(duel.measures, duel.differences))
        wins = d["NS wins"]
        verdict = (
            "undefined (no cases)"
            if wins.undefined
            else "cannot be told apart from the heuristic's"
            if not wins.clear
            else "clearly better than the heuristic's"
            if wins.diff > 0
            else "clearly worse than the heuristic's"
        )
        report.finding(
            f"Over {matches:,} games to {base.rules.target} on the same deals, the expert's side wins "
            f"{pct(wins.a)} of them where the heuristic in its place wins {pct(wins.b)}: "
            f"{pp(wins.diff, wins.lo, wins.hi)}, {verdict}."
        )

    report.heading("Points given away against perfect play")
    report.text(
        "Each strategy plays all four seats on the same deals (the auction included, so the contracts "
        "differ between strategies). Before every play the solver values the hand for the declaring "
        "side with perfect play by all four from there on; what a side's own play moved that value by "
        "(down for the declaring side, up for the defenders) is what it gave away. Means per contract "
        "with their standard errors; hands thrown in are left out."
    )
    report.table(
        "play_quality",
        quality,
        "Points given away per contract, and contracts made in play and with perfect play (95% intervals)",
        TableFormat(
            labels={
                "contracts": "contracts",
                "declarers gave": "declaring side gave (points)",
                "defenders gave": "defenders gave (points)",
                "made": "made in play",
                "makeable": "makeable with perfect play",
            },
            error={"declarers gave": "declarers se", "defenders gave": "defenders se"},
            percent={"made": ("made lo", "made hi"), "makeable": ("makeable lo", "makeable hi")},
            n="contracts",
        ),
    )
    if quality_pairs is not None:
        report.table(
            "expert_minus_heuristic",
            quality_pairs,
            "Expert minus heuristic on the same contracts "
            "(paired, 95% intervals): points given away per contract",
            TableFormat(
                labels={"diff": "expert - heuristic (points)", "n": "contracts"},
                interval={"diff": ("lo", "hi")},
                signed=("diff",),
            ),
        )
    report.figure(
        "points_given_away",
        _bars(quality),
        "Points given away per contract by each side, with 95% intervals (1.96 standard errors)",
        main=True,
    )

    report.heading("Made in play against makeable, by bid")
    report.text(
        "Per bid: the share of contracts made in play and the share that perfect play from the opening "
        "lead would make; the gap is what the play, by either side, changed."
    )
    report.table(
        "made_by_bid",
        by_bid,
        "Contracts made in play and with perfect play, by strategy and bid (95% "
        "intervals; 84, 126, 168 and 210 are the two- to five-mark bids)",
        TableFormat(
            labels={"made": "made in play", "makeable": "makeable with perfect play"},
            percent={"made": ("made lo", "made hi"), "makeable": ("makeable lo", "makeable hi")},
            n="contracts",
        ),
        collapsed="Every strategy at every bid",
    )
    for spec in specs:
        part = by_bid[(by_bid["strategy"] == spec) & (by_bid["bid"] <= 42)]
        if (part["contracts"] >= 30).any():
            long = pd.concat(
                [
                    part[["bid", "contracts", c, f"{c} lo", f"{c} hi"]]
                    .set_axis(["bid", "contracts", "value", "lo", "hi"], axis=1)
                    .assign(what=what)
                    for c, what in (("made", "in play"), ("makeable", "with perfect play"))
                ],
                ignore_index=True,
            )
            report.figure(
                f"made_by_bid_{spec}",
                rate_plot(
                    long,
                    "bid",
                    PlotLabels(
                        title=f"{spec}: contracts made, by bid",
                        ylabel="contracts made",
                        xlabel="bid (points)",
                        legend="made",
                    ),
                    group="what",
                    n="contracts",
                ),
                f"{spec}: contracts made in play and with perfect play by bid (30 to 42), 95% intervals "
                f"(bids of fewer than 30 contracts left out)",
                collapsed=f"{spec}: contracts made in play and with perfect play, by bid, as a plot",
            )

    if duel is not None:
        report.heading("The expert against the heuristic, over whole games (paired)")
        report.text(
            f"North and South play the expert in arm A and the heuristic in arm B, East and West the "
            f"heuristic in both, on the same {matches:,} games; differences A - B with paired 95% intervals."
        )
        frame = duel.frame()
        frame["rate"] = frame["measure"].isin(duel.rates)
        report.table(
            "expert_against_heuristic",
            frame[["measure", "a", "b", "diff", "lo", "hi", "rate"]],
            "Expert (A) against heuristic (B) for North-South, same games",
            TableFormat(
                labels={"a": "expert", "b": "heuristic", "diff": "A - B"},
                interval={"diff": ("lo", "hi")},
                signed=("diff",),
                rate_rows="rate",
                scaled=("a", "b", "diff"),
            ),
        )
    return report, (
        "Points given away against perfect play, per contract",
        ["strategy", "declaring side", "defenders", "made", "makeable"],
        headline,
    )


def _signed(d: dict) -> str:
    return num(d["diff"], d["lo"], d["hi"], signed=True)


def _paired_quality(expert: pd.DataFrame, heuristic: pd.DataFrame) -> tuple[dict, int] | None:
    """Expert minus heuristic per contract on the deals both played with the same declarer, bid and trump
    (the expert bids as the heuristic does, so that is nearly every deal): the paired difference of what each
    side gave away."""
    keys = ["deal", "declarer", "bid", "trump"]
    both = expert.merge(heuristic, on=keys, suffixes=(" e", " h"))
    if len(both) < 2:
        return None
    out = {}
    for col, label in zip(ROLES, ("declarers gave", "defenders gave")):
        diff = both[f"{col} e"].to_numpy(float) - both[f"{col} h"].to_numpy(float)
        m, se = mean_se(diff)
        out[label] = {"diff": m, "lo": m - 1.96 * se, "hi": m + 1.96 * se, "n": len(diff)}
    return out, len(both)


def _bars(quality: pd.DataFrame) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(quality))
    for offset, col, label in ((-0.2, "declarers", "declaring side"), (0.2, "defenders", "defenders")):
        ax.bar(
            x + offset,
            quality[f"{col} gave"],
            width=0.4,
            yerr=1.96 * quality[f"{col} se"],
            capsize=3,
            label=label,
        )
    ax.set_xticks(x, quality["strategy"])
    ax.set_ylabel("points given away per contract")
    ax.set_xlabel("strategy (all four seats)")
    ax.legend(), ax.grid(alpha=0.3, axis="y")
    return fig


STUDY = Study(
    name="play-quality",
    game="forty-two",
    unit="deal",
    summary="points each strategy gives away against double-dummy play, and the expert against the heuristic",
    default_matches=lambda deals: 200,
    build=build,
    default_deals=400,
)
