"""The Rounds sweep-value study: when does taking the fifth trick of a stage pay, what is ducking it worth,
what edge do the dealer and the leader have in each stage, and how long are matches, for several sweep
bonuses.

The unit of every interval is the game (a match for the figures of matches): the five stages of a game,
and its sweeps, are not independent. A figure pooled over stages 1-4 is a ratio over the games (per game
the sum and the count), its interval normal on the games' totals; a figure of one stage per game keeps
Wilson's. Figures of stages 1-4 (the fifth-trick rows, the sweeps table) say so in their labels; those of
all five stages (stages swept per match) say that."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import (
    MIN_CASES,
    PlotLabels,
    Report,
    TableFormat,
    num,
    pct,
    pm,
    pp,
    rate_plot,
    rate_row,
    units_rate_row,
)
from reports.study import Study
from simulator import registry
from simulator.provenance import seats_text
from simulator.rounds.fifth import CALL_NAMES, LET_THROUGH, NO_CHOICE, OPPONENT_TOOK, TOOK
from simulator.runner import Run, execute
from simulator.stats import Measure, estimate, excludes_zero, mean_se, paired, undefined

BONUSES = (0, 5, 10, 15, 20, 30)
STAGES = range(1, 6)


PCT = {"rate": ("lo", "hi")}


def _stage_row(
    stage: str, n: int, at: np.ndarray, pays: np.ndarray, took: np.ndarray, games: np.ndarray
) -> dict:
    """A row of the fifth-trick table from per-stage flags and each stage's game: the share of the row's
    stages decided at trick 5, and of those how often taking pays and was taken, with 95% intervals over
    the games (`units_rate_row`: Wilson for a row of one stage per game, normal on the games' totals for
    pooled stages)."""

    def per_game(flags: np.ndarray) -> np.ndarray:
        return np.bincount(games, weights=flags.astype(float), minlength=n)

    share = units_rate_row("share", per_game(at), per_game(np.ones(len(at))))
    paying = units_rate_row("pays", per_game(at & pays), per_game(at))
    taken = units_rate_row("taken", per_game(took), per_game(at))
    n_at = int(at.sum())
    return {
        "stage": stage,
        "stages played": len(at),
        "stages decided at trick 5": n_at,
        "share of stages": share["rate"],
        "share lo": share["lo"],
        "share hi": share["hi"],
        "taking pays": paying["rate"],
        "pays lo": paying["lo"],
        "pays hi": paying["hi"],
        "fifth trick taken": taken["rate"],
        "taken lo": taken["lo"],
        "taken hi": taken["hi"],
    }


def _fifth_trick(g: pd.DataFrame, bonus: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per stage (and stages 1-4 pooled): how often the stage hangs on trick 5, how often taking it pays
    and is taken; and, pooled over stages 1-4, who decided trick 5 when ducking paid and when taking paid.
    The game is the unit of every interval: a pooled row holds four stages of each game."""
    rows, calls = [], []
    n = len(g)
    at_all, pays_all, call_all = [], [], []
    for k in STAGES:
        first4 = g[f"s{k}_first4"].to_numpy()
        at = first4 >= 0
        took = at & (g[f"s{k}_sweep"].to_numpy() >= 0)
        # taking pays when the bonus beats the cards of tricks 1-4 less those of the fifth trick as played
        pays = bonus > first4 - g[f"s{k}_fifth_points"].to_numpy()
        rows.append(_stage_row(str(k), n, at, pays, took, np.arange(n)))
        if k < 5:  # in stage 5 each player holds one card at trick 5: nothing to decide
            at_all.append(at), pays_all.append(pays)
            call_all.append(g[f"s{k}_fifth_call"].cat.codes.to_numpy())
    at, pays, call = (np.concatenate(x) for x in (at_all, pays_all, call_all))
    games = np.tile(np.arange(n), len(at_all))
    took = at & np.isin(call, [LET_THROUGH, TOOK, NO_CHOICE])
    rows.append(_stage_row("1-4", n, at, pays, took, games))
    for situation, where in (("ducking paid", at & ~pays), ("taking paid", at & pays)):
        of = np.bincount(games, weights=where.astype(float), minlength=n)
        for code, name in CALL_NAMES.items():
            count = np.bincount(games, weights=(where & (call == code)).astype(float), minlength=n)
            calls.append(units_rate_row(name, count, of, situation=situation))
    return pd.DataFrame(rows), pd.DataFrame(calls)


def _calls_by_holder(g: pd.DataFrame, bonus: int, by_game: bool) -> pd.DataFrame:
    """Pooled over stages 1-4, for each player as the holder of tricks 1-4: how trick 5 went when ducking
    paid and when taking paid (the game as the unit). The holder is the stage's dealer when the dealer took
    four tricks or five, else the other player; `by_game`: one dealer for the whole game
    (`dealer_rotation = game`), else the deal passes every stage."""
    n = len(g)
    first = g["first_dealer"].to_numpy().astype(np.int64)
    out = []
    for holder in (0, 1):
        parts = []
        for k in STAGES:
            if k == 5:
                continue
            first4 = g[f"s{k}_first4"].to_numpy()
            dealer = first if by_game else first ^ ((k - 1) & 1)
            held_by = np.where(g[f"s{k}_dealer_tricks"].to_numpy() >= 4, dealer, 1 - dealer)
            at = (first4 >= 0) & (held_by == holder)
            pays = bonus > first4 - g[f"s{k}_fifth_points"].to_numpy()
            parts.append((at, pays, g[f"s{k}_fifth_call"].cat.codes.to_numpy()))
        at, pays, call = (np.concatenate([p[i] for p in parts]) for i in range(3))
        games = np.tile(np.arange(n), len(parts))
        for situation, where in (("ducking paid", at & ~pays), ("taking paid", at & pays)):
            of = np.bincount(games, weights=where.astype(float), minlength=n)
            for code, name in CALL_NAMES.items():
                count = np.bincount(games, weights=(where & (call == code)).astype(float), minlength=n)
                out.append(units_rate_row(name, count, of, holder=f"player {holder}", situation=situation))
    return pd.DataFrame(out)


def _value_of_ducking(
    game, base: Run, duck_off: Run, main, matches: int, jobs: int, progress: bool
) -> pd.DataFrame:
    """Seat 0 with ducking on (`base`, played: `main`) less off (`duck_off`), paired: per game on the
    study's games, and in match wins and games per match on `matches` matches."""
    ma = game.measures(main.tables, base.unit, 0)
    mb = game.measures(execute(duck_off, jobs=jobs, progress=progress).whole().tables, base.unit, 0)
    value = [
        {"unit": "games", "measure": a.name, "rate": a.binary, **paired(a, b).as_dict()}
        for a, b in zip(ma, mb)
    ]
    if matches > 0:
        in_matches = {"n": matches, "unit": "match", "chunk_size": game.default_chunk["match"]}
        ta = execute(dataclasses.replace(base, **in_matches), jobs=jobs, progress=progress).whole().tables
        tb = execute(dataclasses.replace(duck_off, **in_matches), jobs=jobs, progress=progress).whole().tables
        for a, b in zip(game.measures(ta, "match", 0), game.measures(tb, "match", 0)):
            if a.name in ("player 0 wins", "games per match"):
                value.append(
                    {"unit": "matches", "measure": a.name, "rate": a.binary, **paired(a, b).as_dict()}
                )
    return pd.DataFrame(value)


def build(
    base: Run, matches: int, jobs: int, progress: bool, command: str, provenance: dict
) -> tuple[Report, tuple[str, list[str], list[list]]]:
    game = base.game
    bonus = base.rules.sweep_bonus
    who = seats_text(base.game.seat_names(base.rules), base.seats)
    report = Report(f"Rounds: what is a sweep worth? (sweep bonus {bonus})", provenance, command, played=who)
    # The heuristic's ducking has a switch (`duck`), so its value can be measured on the same deals; any
    # other strategy at seat 0 (the expert, whose fifth trick is part of its search) is measured as it plays.
    switch = registry.roster(game).make(base.seats[0]).name == "heuristic"
    duck_off = None
    if switch:
        base = dataclasses.replace(
            base, seats=(registry.roster(game).with_params(base.seats[0], {"duck": "true"}), *base.seats[1:])
        )
        duck_off = dataclasses.replace(
            base, seats=(registry.roster(game).with_params(base.seats[0], {"duck": "false"}), *base.seats[1:])
        )
    main = execute(base, jobs=jobs, progress=progress).whole()
    g = main.tables["deals"]
    fifth, calls = _fifth_trick(g, bonus)

    # The value of ducking, paired: per game on the study's games, in match wins on its matches.
    value = pd.DataFrame()
    if duck_off is not None:
        value = _value_of_ducking(game, base, duck_off, main, matches, jobs, progress)
    by_holder = _calls_by_holder(g, bonus, base.rules.dealer_rotation == "game")

    # The findings: what a sweep is worth, when taking pays, who decides, what ducking is worth.
    # sweeps of stages 1-4, per game: how many, their card points, how many scored less than their cards
    stages14 = [k for k in STAGES if k < 5]
    swept = sum((g[f"s{k}_sweep"] >= 0).to_numpy(float) for k in stages14)
    cards = sum(np.where(g[f"s{k}_sweep"] >= 0, g[f"s{k}_swept_cards"], 0.0) for k in stages14)
    short = sum((g[f"s{k}_short_sweep"] & (g[f"s{k}_sweep"] >= 0)).to_numpy(float) for k in stages14)
    held = estimate(Measure("card points a sweep holds", cards, swept))  # the game as the unit
    sweeps = pd.DataFrame(
        [
            {
                "": "card points a sweep of stages 1-4 holds",
                "mean": held.value,
                "se": held.se,
                "sweeps": int(swept.sum()),
            }
        ]
    )
    short_row = units_rate_row("sweeps of stages 1-4 scoring less than their cards", short, swept)
    report.finding(
        f"A sweep scores the bonus of {bonus} in place of its cards, which hold {pm(held.value, held.se)} "
        f"card points on average over {int(swept.sum()):,} sweeps of stages 1-4; "
        f"{pct(short_row['rate'], short_row['lo'], short_row['hi'])} of them score less than their cards "
        "(95% intervals over the games)."
    )
    pooled = fifth.iloc[-1]
    report.finding(
        f"{pct(pooled['share of stages'], pooled['share lo'], pooled['share hi'])} of stages 1-4 (all "
        "stages but the last, pooled) hang on the fifth trick; in "
        f"{pct(pooled['taking pays'], pooled['pays lo'], pooled['pays hi'])} of them taking it pays "
        f"(the bonus beats the cards of tricks 1-4 less the fifth trick's); in stage 5 the fifth trick is "
        "forced."
    )
    paid = calls[calls["situation"] == "ducking paid"].set_index("")
    if paid["of"].iloc[0] >= MIN_CASES:
        d, lt, tk, nd = (paid.loc[CALL_NAMES[c]] for c in (OPPONENT_TOOK, LET_THROUGH, TOOK, NO_CHOICE))
        report.finding(
            f"When ducking paid ({int(d['of']):,} stages), the holder led a card the opponent could beat "
            f"and the opponent took the trick in {pct(d['rate'], d['lo'], d['hi'])}, or let the sweep "
            f"through in {pct(lt['rate'], lt['lo'], lt['hi'])}; the holder took the trick though he held "
            f"a card the opponent could beat in {pct(tk['rate'], tk['lo'], tk['hi'])}, and held none in "
            f"{pct(nd['rate'], nd['lo'], nd['hi'])}."
        )
    for holder, spec in enumerate(base.seats):
        mine = by_holder[
            (by_holder["holder"] == f"player {holder}") & (by_holder[""] == CALL_NAMES[OPPONENT_TOOK])
        ]
        duck, take = (mine[mine["situation"] == s].iloc[0] for s in ("ducking paid", "taking paid"))
        report.finding(
            f"When player {holder} ({spec}) held tricks 1-4, the opponent took the fifth trick in "
            f"{pct(duck['rate'], duck['lo'], duck['hi'])} of the {int(duck['of']):,} stages where ducking "
            f"paid and in {pct(take['rate'], take['lo'], take['hi'])} of the {int(take['of']):,} where "
            "taking paid."
        )
    if len(value):
        margin = value[value["measure"] == "player 0 margin per game"].iloc[0]
        sentence = (
            "Ducking the fifth trick when it pays is worth "
            f"{num(margin['diff'], margin['lo'], margin['hi'], signed=True)} "
            f"points of margin per game to player 0 on the same {base.n:,} games ({_verdict(margin)})"
        )
        wins = value[value["measure"] == "player 0 wins"]
        if len(wins):
            w = wins.iloc[0]
            sentence += (
                f", and {pp(w['diff'], w['lo'], w['hi'])} of match wins on the same {matches:,} matches "
                f"({_verdict(w)})"
            )
        report.finding(sentence + ".")

    report.heading("What a sweep is worth")
    report.table(
        "sweeps",
        pd.concat([sweeps.rename(columns={"sweeps": "of"}), pd.DataFrame([short_row])]).astype(
            {"count": "Int64"}
        ),
        "Sweeps of stages 1-4 (95% intervals, the game as the unit)",
        TableFormat(labels={"mean": "mean", "of": "of", "rate": "share"}, error={"mean": "se"}, percent=PCT),
    )

    report.heading("Taking the fifth trick")
    report.text(
        "A stage in which one player took tricks 1-4 hangs on trick 5: taking it sweeps (the bonus "
        "replaces the stage's card points), losing it keeps the card points of tricks 1-4 and gives "
        "away the fifth trick's. Taking pays when the bonus beats the card points of tricks 1-4 less "
        "those of the fifth trick (as it was played). In stage 5 each player holds one card at trick 5: "
        "there the fifth trick is not a choice. 95% intervals with the game as the unit: Wilson for one "
        "stage of each game, normal on the games' totals for stages 1-4 pooled."
    )
    report.table(
        "fifth_trick",
        fifth,
        "Stages decided at the fifth trick, by stage (each stage's row: that stage of every game; row 1-4: "
        "stages 1-4 pooled)",
        TableFormat(
            labels={
                "share of stages": "share of the row's stages decided at trick 5",
                "taking pays": "taking pays (of those decided at trick 5)",
                "fifth trick taken": "fifth trick taken (of those)",
            },
            percent={
                "share of stages": ("share lo", "share hi"),
                "taking pays": ("pays lo", "pays hi"),
                "fifth trick taken": ("taken lo", "taken hi"),
            },
            n="stages decided at trick 5",
        ),
    )
    pays_rows = pd.DataFrame(
        [
            rate_row(
                r["stage"],
                round(np.nan_to_num(r["taking pays"]) * r["stages decided at trick 5"]),
                r["stages decided at trick 5"],
                stage=int(r["stage"]),
            )
            for r in fifth.to_dict(orient="records")
            if r["stage"] != "1-4"
        ]
    )
    report.figure(
        "taking_pays",
        rate_plot(
            pays_rows,
            "stage",
            PlotLabels(title="Taking the fifth trick pays", ylabel="stages where taking pays"),
            value="rate",
            n="of",
        ),
        "Share of stages decided at trick 5 in which the sweep bonus beats the cards of tricks 1-4, 95% "
        "intervals",
        main=True,
    )

    report.heading("Who decided the fifth trick")
    report.text(
        "The holder of tricks 1-4 leads trick 5. He can lose it only by leading a card the opponent can "
        "beat; the opponent then takes it or lets it through and hands him the sweep. Judged on both actual "
        "hands at trick 5 (neither player sees the other's), stages 1-4 pooled."
    )
    report.table(
        "who_decided",
        calls,
        "How trick 5 went, when ducking paid and when taking paid",
        TableFormat(
            labels={"": "trick 5", "count": "stages", "of": "of", "rate": "share"}, percent=PCT, n="of"
        ),
    )
    report.figure(
        "who_decided",
        rate_plot(
            calls,
            "",
            PlotLabels(title="Who decided the fifth trick", ylabel="stages", xlabel="", legend="when"),
            value="rate",
            group="situation",
            n="of",
        ),
        "Share of stages 1-4 at stake by how trick 5 went, 95% intervals (the game as the unit)",
    )

    report.table(
        "who_decided_by_holder",
        by_holder,
        "How trick 5 went, by the player who held tricks 1-4, when ducking paid and when taking paid (stages "
        "1-4 pooled)",
        TableFormat(
            labels={"": "trick 5", "count": "stages", "of": "of", "rate": "share"}, percent=PCT, n="of"
        ),
    )

    report.heading("The value of ducking (paired)")
    if duck_off is None:
        report.text(
            f"Player 0 plays {base.seats[0]}, whose fifth trick is part of its play with no switch to turn "
            "ducking off: the paired value of ducking is measured when player 0 plays the heuristic "
            "(its duck parameter)."
        )
    else:
        report.text(
            f"Player 0 plays {base.seats[0]} (ducking when it pays) against {duck_off.seats[0]} on the "
            f"same deals; player 1 plays {base.seats[1]} in both. Differences are with ducking minus "
            "without, with paired 95% intervals; rates in percentage points."
        )
        shown = value.copy()  # rates as percentages, their differences in percentage points
        for col in ("a", "b", "diff", "lo", "hi", "se", "se_independent"):
            shown[col] = np.where(shown["rate"], 100 * shown[col], shown[col])
        shown["measure"] = [
            f"{m} (%; difference in pp)" if r else m for m, r in zip(shown["measure"], shown["rate"])
        ]
        labels = {
            "a": "ducking",
            "b": "never ducking",
            "diff": "difference",
            "se": "paired se",
            "se_independent": "independent se",
            "deals": "games or matches",
        }
        report.table(
            "value_of_ducking",
            shown[~shown["rate"]].drop(columns="rate"),
            "What ducking the fifth trick is worth to player 0, in points",
            TableFormat(labels=labels, interval={"diff": ("lo", "hi")}, signed=("diff",)),
        )
        report.table(
            "value_of_ducking_rates",
            shown[shown["rate"]].drop(columns="rate"),
            "What ducking the fifth trick is worth to player 0 in rates: percentages, differences in "
            "percentage points",
            TableFormat(labels=labels, interval={"diff": ("lo", "hi")}, signed=("diff",), digits=1),
        )
        report.figure(
            "value_of_ducking",
            _forest(shown),
            "The value of ducking: paired differences with 95% intervals (rates in percentage points)",
        )

    report.heading("The dealer's and the leader's edge, by stage")
    edge = []
    for k in STAGES:
        dealer_pts = g[f"s{k}_dealer_points"].to_numpy(float)
        other_pts = (g[f"s{k}_points_0"] + g[f"s{k}_points_1"]).to_numpy(float) - dealer_pts
        m, se = mean_se(dealer_pts - other_pts)
        # tricks of one game are not independent: the game is the unit of the interval
        d = estimate(Measure("dealer", g[f"s{k}_dealer_tricks"].to_numpy(float), np.full(len(g), 5.0)))
        lead = estimate(Measure("leader", g[f"s{k}_leader_tricks"].to_numpy(float), np.full(len(g), 5.0)))
        edge.append(
            {
                "stage": k,
                "dealer's tricks": d.value,
                "dealer lo": d.lo,
                "dealer hi": d.hi,
                "leader's tricks": lead.value,
                "leader lo": lead.lo,
                "leader hi": lead.hi,
                "dealer's points minus the other's": m,
                "se": se,
            }
        )
    edge = pd.DataFrame(edge)
    report.table(
        "edge_by_stage",
        edge,
        "Share of tricks taken by the stage's dealer and by the trick's leader",
        TableFormat(
            percent={
                "dealer's tricks": ("dealer lo", "dealer hi"),
                "leader's tricks": ("leader lo", "leader hi"),
            },
            error={"dealer's points minus the other's": "se"},
            signed=("dealer's points minus the other's",),
        ),
    )
    fig, ax = plt.subplots(figsize=(7, 4))
    for col, lo, hi, label in (
        ("dealer's tricks", "dealer lo", "dealer hi", "dealer"),
        ("leader's tricks", "leader lo", "leader hi", "leader"),
    ):
        y = 100 * edge[col]
        ax.errorbar(
            edge["stage"],
            y,
            yerr=[y - 100 * edge[lo], 100 * edge[hi] - y],
            marker="o",
            capsize=3,
            label=label,
        )
    ax.axhline(50, color="grey", lw=1)
    ax.set_xlabel("stage"), ax.set_ylabel("tricks taken (%)"), ax.legend(), ax.grid(alpha=0.3)
    report.figure("edge_by_stage", fig, "Tricks taken by the stage's dealer and by the leader, 95% intervals")

    headline = [
        [
            r["stage"],
            pct(r["share of stages"], r["share lo"], r["share hi"]),
            pct(r["taking pays"], r["pays lo"], r["pays hi"]),
            pct(r["fifth trick taken"], r["taken lo"], r["taken hi"]),
        ]
        for r in fifth.to_dict(orient="records")
    ]
    if matches > 0:
        report.heading(f"Matches to {base.rules.target}, by sweep bonus")
        length = []
        for b in sorted({*BONUSES, bonus}):
            run = dataclasses.replace(
                base,
                n=matches,
                unit="match",
                chunk_size=game.default_chunk["match"],
                rules=dataclasses.replace(base.rules, sweep_bonus=b),
            )
            result = execute(run, jobs=jobs, progress=progress).whole()
            row = {"sweep_bonus": b}
            for measure in game.measures(result.tables, "match", 0):
                e = estimate(measure)
                row[measure.name], row[f"{measure.name} lo"], row[f"{measure.name} hi"] = e.value, e.lo, e.hi
            length.append(row)
        length = pd.DataFrame(length)
        shown = [
            "games per match",
            "stages swept",
            "sweeps scoring less than their cards",
            "first dealer wins",
        ]
        report.table(
            "matches_by_bonus",
            length[["sweep_bonus", *[f"{m}{x}" for m in shown for x in ("", " lo", " hi")]]],
            f"{matches:,} matches per sweep bonus, on common deals (95% intervals, the match as the unit; "
            "stages and sweeps of all five stages)",
            TableFormat(
                labels={
                    "sweep_bonus": "sweep bonus (points)",
                    "stages swept": "stages swept (all five stages)",
                    "sweeps scoring less than their cards": (
                        "sweeps scoring less than their cards (all five stages)"
                    ),
                },
                interval={"games per match": ("games per match lo", "games per match hi")},
                percent={m: (f"{m} lo", f"{m} hi") for m in shown[1:]},
            ),
        )
        part = length[
            ["sweep_bonus", "games per match", "games per match lo", "games per match hi"]
        ].set_axis(["sweep_bonus", "value", "lo", "hi"], axis=1)
        report.figure(
            "games_per_match",
            rate_plot(
                part,
                "sweep_bonus",
                PlotLabels(title="Games per match", ylabel="games", xlabel="sweep bonus (points)"),
                percent=False,
            ),
            f"Games in a match to {base.rules.target} against the sweep bonus, 95% intervals",
        )
        part = length[["sweep_bonus", "stages swept", "stages swept lo", "stages swept hi"]].set_axis(
            ["sweep_bonus", "value", "lo", "hi"], axis=1
        )
        report.figure(
            "sweeps_by_bonus",
            rate_plot(
                part,
                "sweep_bonus",
                PlotLabels(title="Stages swept", ylabel="stages swept", xlabel="sweep bonus (points)"),
            ),
            "Share of stages swept (all five stages) against the sweep bonus, 95% intervals",
        )
    return report, (
        "Stages decided at the fifth trick",
        ["stage (1-4: pooled)", "share of the row's stages", "taking pays (of those)", "taken (of those)"],
        headline,
    )


def _verdict(d: pd.Series) -> str:
    if undefined(d["lo"], d["hi"]):
        return "undefined (no cases)"
    if not excludes_zero(d["lo"], d["hi"]):
        return "cannot be told apart from nothing"
    return "a clear gain" if d["diff"] > 0 else "a clear loss"


def _forest(shown: pd.DataFrame) -> plt.Figure:
    """Paired differences, points per game and rates (pp) on separate panels."""
    panels = [(False, "points, with ducking minus without"), (True, "percentage points, with minus without")]
    panels = [(r, label) for r, label in panels if (shown["rate"] == r).any()]
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 1.2 + 0.45 * len(shown)), squeeze=False)
    for ax, (is_rate, label) in zip(axes[:, 0], panels):
        part = shown[shown["rate"] == is_rate]
        y = np.arange(len(part))
        ax.errorbar(
            part["diff"], y, xerr=[part["diff"] - part["lo"], part["hi"] - part["diff"]], fmt="o", capsize=3
        )
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(
            y,
            [
                f"{m.split(' (')[0]} (per {u[:-1] if u != 'matches' else 'match'})"
                for m, u in zip(part["measure"], part["unit"])
            ],
        )
        ax.set_xlabel(label + ", 95% paired interval")
        ax.grid(alpha=0.3, axis="x")
    fig.tight_layout()
    return fig


STUDY = Study(
    name="sweep-value",
    game="rounds",
    unit="deal",
    summary="when taking the fifth trick pays, the value of ducking, dealer and leader edges, match length",
    default_matches=lambda deals: deals // 50,
    build=build,
)
