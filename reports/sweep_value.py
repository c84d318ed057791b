"""The Rounds sweep-value study: when does taking the fifth trick of a stage pay, what is ducking it worth,
what edge do the dealer and the leader have in each stage, and how long are matches, for several sweep
bonuses."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import Report, rate_plot
from reports.study import Study
from simulator.errors import DealsimError
from simulator.runner import Run, execute
from simulator.stats import Measure, estimate, mean_se, paired, wilson
from strategies import with_params

BONUSES = (0, 5, 10, 15, 20, 30)
STAGES = range(1, 6)


def _rate_row(label: object, k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"": label, "count": k, "of": n, "rate": k / n if n else float("nan"), "lo": float(lo), "hi": float(hi)}


def build(base: Run, matches: int, jobs: int, progress: bool, command: str,
          provenance: dict) -> tuple[Report, tuple[str, list[str], list[list]]]:
    game = base.game
    bonus = base.rules.sweep_bonus
    report = Report(f"Rounds: what is a sweep worth? (sweep bonus {bonus})", provenance, command)
    if not base.seats[0].startswith("heuristic"):
        raise DealsimError("sweep-value weighs seat 0's ducking: seat 0 must play the heuristic "
                           f"(--seat 0=heuristic[:...]), not {base.seats[0]!r}")
    base = dataclasses.replace(base, seats=(with_params(base.seats[0], {"duck": "true"}, game), *base.seats[1:]))
    main = execute(base, jobs=jobs, progress=progress)
    g = main.tables["deals"]

    report.heading("Taking the fifth trick")
    report.text("A stage in which one player took tricks 1-4 hangs on trick 5: taking it sweeps (the bonus "
                "replaces the stage's card points), losing it keeps the card points of tricks 1-4 and gives "
                "away the fifth trick's. Taking pays when the bonus beats the card points of tricks 1-4 less "
                "those of the fifth trick (as it was played). In stage 5 each player holds one card at trick 5: "
                "there the fifth trick is not a choice.")
    rows = []
    for k in STAGES:
        first4 = g[f"s{k}_first4"].to_numpy()
        at_stake = first4 >= 0
        took = at_stake & (g[f"s{k}_sweep"].to_numpy() >= 0)
        pays = at_stake & (bonus > first4 - g[f"s{k}_fifth_points"].to_numpy())
        n_at, n_took, n_swept = int(at_stake.sum()), int(took.sum()), int((g[f"s{k}_sweep"] >= 0).sum())
        pays_lo, pays_hi = wilson(int(pays.sum()), n_at)
        took_lo, took_hi = wilson(n_took, n_at)
        rows.append({"stage": k, "stages decided at trick 5": n_at,
                     "share of stages": at_stake.mean(),
                     # a share of no stages is missing ("no data"), not 0
                     "taking pays": pays.sum() / n_at if n_at else np.nan, "taking pays lo": pays_lo,
                     "taking pays hi": pays_hi,
                     "fifth trick taken": n_took / n_at if n_at else np.nan, "taken lo": took_lo, "taken hi": took_hi,
                     "taken though ducking paid": (took & ~pays).sum() / n_took if n_took else np.nan,
                     "sweeps scoring less than cards": (g[f"s{k}_short_sweep"].sum() / n_swept if n_swept
                                                        else np.nan)})
    fifth = pd.DataFrame(rows)
    choice = rows[:4]  # in stage 5 the fifth trick is forced
    decided = sum(r["stages decided at trick 5"] for r in choice)
    pays = sum(round(np.nan_to_num(r["taking pays"]) * r["stages decided at trick 5"]) for r in choice)
    plo, phi = wilson(pays, max(decided, 1))
    report.finding(f"{100 * decided / (4 * len(g)):.1f}% of stages 1-4 hang on the fifth trick; in "
                   f"{100 * pays / max(decided, 1):.1f}% [{100 * plo:.1f}, {100 * phi:.1f}] of them taking it pays "
                   f"(the bonus of {bonus} beats the cards of tricks 1-4 less the fifth trick's); in stage 5 the "
                   "fifth trick is forced.")
    report.table("fifth_trick", fifth, "Stages decided at the fifth trick, by stage")
    pays_rows = pd.DataFrame([{**_rate_row(r["stage"],
                                           round(np.nan_to_num(r["taking pays"]) * r["stages decided at trick 5"]),
                                           r["stages decided at trick 5"]), "stage": r["stage"]} for r in rows])
    report.figure("taking_pays", rate_plot(pays_rows, "stage", value="rate", title="Taking the fifth trick pays",
                                           ylabel="stages where it pays"),
                  "Share of stages decided at trick 5 in which the sweep bonus beats the cards of tricks 1-4")

    report.heading("The value of ducking (paired)")
    duck_off = dataclasses.replace(base, seats=(with_params(base.seats[0], {"duck": "false"}, game), *base.seats[1:]))
    off = execute(duck_off, jobs=jobs, progress=progress)
    ma, mb = game.measures(main.tables, base.unit, 0), game.measures(off.tables, base.unit, 0)
    value = pd.DataFrame([{"measure": a.name, **paired(a, b).as_dict()} for a, b in zip(ma, mb)])
    margin = value[value["measure"] == "player 0 margin per game"].iloc[0]
    clear = "cannot be told apart from nothing" if margin["lo"] <= 0 <= margin["hi"] else "a clear gain" \
        if margin["diff"] > 0 else "a clear loss"
    report.finding(f"Ducking the fifth trick when it pays is worth {margin['diff']:+.3f} points of margin per game "
                   f"[{margin['lo']:+.3f}, {margin['hi']:+.3f}] to player 0 on the same {base.n:,} games: {clear}.")
    report.text(f"Player 0 plays {base.seats[0]} (ducking when it pays) against {duck_off.seats[0]} on the same "
                f"{base.n:,} deals; player 1 plays {base.seats[1]} in both. Differences are with ducking minus "
                "without, with paired 95% intervals.")
    report.table("value_of_ducking", value, "What ducking the fifth trick is worth to player 0")

    report.heading("The dealer's and the leader's edge, by stage")
    edge = []
    for k in STAGES:
        dealer_pts = g[f"s{k}_dealer_points"].to_numpy(float)
        other_pts = (g[f"s{k}_points_0"] + g[f"s{k}_points_1"]).to_numpy(float) - dealer_pts
        m, se = mean_se(dealer_pts - other_pts)
        # tricks of one game are not independent: the game is the unit of the interval
        d = estimate(Measure("dealer", g[f"s{k}_dealer_tricks"].to_numpy(float), np.full(len(g), 5.0)))
        lead = estimate(Measure("leader", g[f"s{k}_leader_tricks"].to_numpy(float), np.full(len(g), 5.0)))
        edge.append({"stage": k, "dealer's tricks": d.value, "dealer lo": d.lo, "dealer hi": d.hi,
                     "leader's tricks": lead.value, "leader lo": lead.lo, "leader hi": lead.hi,
                     "dealer's points minus the other's": m, "se": se})
    edge = pd.DataFrame(edge)
    report.table("edge_by_stage", edge, "Share of tricks taken by the stage's dealer and by the trick's leader")
    fig, ax = plt.subplots(figsize=(7, 4))
    for col, lo, hi, label in (("dealer's tricks", "dealer lo", "dealer hi", "dealer"),
                               ("leader's tricks", "leader lo", "leader hi", "leader")):
        y = 100 * edge[col]
        ax.errorbar(edge["stage"], y, yerr=[y - 100 * edge[lo], 100 * edge[hi] - y], marker="o", capsize=3, label=label)
    ax.axhline(50, color="grey", lw=1)
    ax.set_xlabel("stage"), ax.set_ylabel("tricks taken (%)"), ax.legend(), ax.grid(alpha=0.3)
    report.figure("edge_by_stage", fig, "Tricks taken by the stage's dealer and by the leader, 95% intervals")

    def pct(value: float, lo: float, hi: float) -> str:
        return "no data" if np.isnan(value) else f"{value:.1%} [{100 * lo:.1f}, {100 * hi:.1f}]"

    headline = [[int(r["stage"]), f"{r['share of stages']:.1%}", pct(r["taking pays"], r["taking pays lo"],
                                                                      r["taking pays hi"]),
                 pct(r["fifth trick taken"], r["taken lo"], r["taken hi"])] for r in rows]
    if matches > 0:
        report.heading(f"Matches to {base.rules.target}, by sweep bonus")
        length = []
        for b in sorted({*BONUSES, bonus}):
            run = dataclasses.replace(base, n=matches, unit="match", chunk_size=game.default_chunk["match"],
                                      rules=dataclasses.replace(base.rules, sweep_bonus=b))
            result = execute(run, jobs=jobs, progress=progress)
            row = {"sweep_bonus": b}
            for measure in game.measures(result.tables, "match", 0):
                e = estimate(measure)
                row[measure.name], row[f"{measure.name} lo"], row[f"{measure.name} hi"] = e.value, e.lo, e.hi
            length.append(row)
        length = pd.DataFrame(length)
        shown = ["games per match", "stages swept", "sweeps scoring less than their cards", "first dealer wins"]
        report.table("matches_by_bonus", length[["sweep_bonus", *[f"{m}{x}" for m in shown for x in ("", " lo", " hi")]]],
                     f"{matches:,} matches per sweep bonus, on common deals")
        part = length[["sweep_bonus", "games per match", "games per match lo", "games per match hi"]].set_axis(
            ["sweep_bonus", "value", "lo", "hi"], axis=1)
        report.figure("games_per_match", rate_plot(part, "sweep_bonus", title="Games per match", ylabel="games",
                                                   percent=False),
                      f"Games in a match to {base.rules.target} against the sweep bonus, 95% intervals")
        part = length[["sweep_bonus", "stages swept", "stages swept lo", "stages swept hi"]].set_axis(
            ["sweep_bonus", "value", "lo", "hi"], axis=1)
        report.figure("sweeps_by_bonus", rate_plot(part, "sweep_bonus", title="Stages swept", ylabel="stages swept"),
                      "Share of stages swept against the sweep bonus")
    return report, ("Stages decided at the fifth trick", ["stage", "share of stages", "taking pays", "taken"],
                    headline)


STUDY = Study(name="sweep-value", game="rounds", unit="deal",
              summary="when taking the fifth trick pays, the value of ducking, dealer and leader edges, match length",
              default_matches=lambda deals: deals // 50, build=build)
