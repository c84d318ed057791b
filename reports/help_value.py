"""The Frank's Zoo help-value study: what asking your partner for help is worth to a junior, what answering
is worth to a senior, how often help is asked, granted and wins the trick, which requests are granted,
and what the chameleon, the solo seat, leading first and the exchange are worth.

Every comparison is paired: arm A plays the strategies as given; arm B changes only seat 0 (it never asks,
or never answers), on the same deals (whole games; hand j of game k is the same in both arms). Seat 0 is a
junior in some team hands, a senior or solo in others: the junior measures count its junior hands.

Every interval takes the game as the unit: the hands of one game, and the help requests within it, are not
independent. A per-hand figure or a rate over requests is a ratio over the games (per game the sum and the
count, `stats.Measure` with a denominator), its interval normal on the games' totals."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import Report, TableFormat, num, pct, pm
from reports.study import Study
from simulator import options, registry, runner
from simulator.errors import DealsimError
from simulator.franks_zoo import cards as C
from simulator.franks_zoo.measures import team_points
from simulator.franks_zoo.requests import made
from simulator.provenance import seats_text
from simulator.runner import Run, execute
from simulator.stats import Measure, estimate, excludes_zero, paired, undefined

PLAYERS = (4, 5, 6, 7)
READINGS = ("captured", "missing")
COUNTS = ("help_asked", "help_given", "help_won")  # per row: requests made, granted, helped sets that won
# What each comparison is judged on, from seat 0's point of view. Roles follow the standings, which differ
# between arms from the third hand on; the second hand's roles come from the first hand, which has no help
# and plays the same in both arms: the "in hand 2" measures compare the same hands in both arms.
ASKING = (
    "team's points per hand",
    "points per hand",
    "game win rate",
    "team's points in hand 2 as junior",
    "place in hand 2 as junior",
)
ANSWERING = (
    "team's points per hand",
    "points per hand",
    "game win rate",
    "team's points in hand 2 as senior",
    "place in hand 2 as senior",
)


def _arm(base: Run, players: int, reading: str, **seat0: str) -> Run:
    """The base run for that player count and hedgehog rule; seat 0 plays its own strategy (with `seat0`
    parameters set), every other seat the strategy of seat 1."""
    rules = options.build(
        type(base.rules), "rule", {"players": players, "hedgehog_penalty": reading}, base=base.rules
    )
    first = _switched(base, seat0) if seat0 else base.seats[0]
    return dataclasses.replace(base, rules=rules, seats=(first, *[base.seats[1]] * (players - 1)))


def _switched(base: Run, seat0: dict[str, str]) -> str:
    """Seat 0's spec with `seat0` set, less the parameters the switch leaves unread (`count` or `ask_base`
    under `ask=false`): the arm plays seat 0's own strategy with asking (or answering) off."""
    roster = registry.roster(base.game)
    strategy = roster.make(base.seats[0])
    fields = options.fields_of(type(strategy))
    unknown = [name for name in seat0 if name not in fields]
    if unknown:  # a strategy without the switch: refused by name when the arm is made
        return roster.with_params(base.seats[0], seat0)
    switched = dataclasses.replace(
        strategy,
        **{k: options.coerce("strategy parameter", k, *fields[k], v) for k, v in seat0.items()},
    )
    unread = [
        name
        for name in roster.given(base.seats[0])
        if name not in seat0
        and (need := fields[name][0].metadata.get("read_if")) is not None
        and not need.holds(switched)
    ]
    return roster.without(roster.with_params(base.seats[0], seat0), unread)


def arms(base: Run) -> list[tuple[int, str, Run, Run, Run]]:
    """Every (players, hedgehog rule, arm A, never asking, never answering), checked before anything runs."""
    if len(set(base.seats[1:])) != 1:
        raise DealsimError(
            "help-value varies the player count: every seat but 0 must play the same strategy "
            f"(got {', '.join(base.seats[1:])})"
        )
    out = []
    for players in PLAYERS:
        for reading in READINGS:
            runs = [
                _arm(base, players, reading),
                _arm(base, players, reading, ask="false"),
                _arm(base, players, reading, answer="false"),
            ]
            for run in runs:
                run.strategies()  # an unknown parameter (a strategy without ask/answer) fails here
            out.append((players, reading, *runs))
    return out


def _complete(run: Run, jobs: int, progress: bool) -> dict[str, pd.DataFrame]:
    return execute(run, jobs=jobs, progress=progress).whole().tables


def _seat0(tables: dict[str, pd.DataFrame], unit: str, game) -> dict[str, Measure]:
    """Seat 0's measures by the names of ASKING and ANSWERING."""
    by_name = {m.name: m for m in game.measures(tables, unit, 0)}
    h = tables["deals"]
    out = {
        "team's points per hand": by_name["seat 0 team's points per hand"],
        "points per hand": by_name["seat 0 points per hand"],
        "game win rate": by_name["seat 0 wins"],
    }
    team = team_points(h)
    mine = (h["player"] == 0).to_numpy() & (h["number"] == 2).to_numpy()
    for role in ("junior", "senior"):
        playing = (mine & (h["role"] == role).to_numpy()).astype(float)
        out[f"team's points in hand 2 as {role}"] = _per_game(h, team.astype(float), playing)
        out[f"place in hand 2 as {role}"] = _per_game(h, h["place"].to_numpy(float), playing)
    return out


def _paired_rows(ta: dict, tb: dict, unit: str, game, label: dict, shown: tuple[str, ...]) -> list[dict]:
    ma, mb = _seat0(ta, unit, game), _seat0(tb, unit, game)
    rows = []
    for name in shown:
        d = paired(ma[name], mb[name])
        rows.append(
            {
                **label,
                "measure": name,
                "with": d.a,
                "without": d.b,
                "difference": d.diff,
                "lo": d.lo,
                "hi": d.hi,
            }
        )
    return rows


def _per_game(h: pd.DataFrame, values: np.ndarray, weight: np.ndarray) -> Measure:
    """A per-hand figure as a ratio over each game's hands (the game is the independent unit)."""
    games = pd.Index(np.unique(h["match"]))
    at = games.get_indexer(h["match"])
    return Measure(
        "",
        np.bincount(at, weights=values * weight, minlength=len(games)),
        np.bincount(at, weights=weight, minlength=len(games)),
    )


def _frequency(h: pd.DataFrame) -> dict:
    """How often juniors ask, how often requests are granted and helped sets take the trick, with 95%
    intervals over the games: the requests of one game are not independent, so the game is the unit (a
    ratio over each game's requests, normal on the games' totals)."""
    junior = (h["role"] == "junior").to_numpy(float)
    every = np.ones(len(h))
    asked, given, won = (_per_game(h, h[c].to_numpy(float), every).num for c in COUNTS)
    per_junior = estimate(_per_game(h, h["help_asked"].to_numpy(float), junior))
    granted = estimate(Measure("requests granted", given, asked, binary=True))
    taking = estimate(Measure("helped sets taking the trick", won, given, binary=True))
    return {
        "junior hands": int(junior.sum()),
        "requests per junior hand": per_junior.value,
        "requests se": per_junior.se,
        "requests": int(asked.sum()),
        "granted": granted.value,
        "granted lo": granted.lo,
        "granted hi": granted.hi,
        "helps given": int(given.sum()),
        "helped sets taking the trick": taking.value,
        "taking lo": taking.lo,
        "taking hi": taking.hi,
    }


def _granted_by_table(requests: pd.DataFrame) -> pd.DataFrame:
    """Share of requests granted by the kind of the set on the table and the cards laid, with 95% intervals
    over the games (a ratio over each game's requests of the group, the game as the unit)."""
    keys = ["table kind", "cards laid"]
    per_game = requests.groupby([*keys, "game"], observed=True)["granted"].agg(["sum", "size"]).reset_index()
    rows = []
    for key, part in per_game.groupby(keys, observed=True):
        made, of = part["sum"].to_numpy(float), part["size"].to_numpy(float)
        e = estimate(Measure("granted", made, of, binary=True))
        rows.append(
            {**dict(zip(keys, key)), "requests": int(of.sum()), "granted": e.value, "lo": e.lo, "hi": e.hi}
        )
    return pd.DataFrame(rows)


def _edge(h: pd.DataFrame, who: np.ndarray, hands: np.ndarray) -> dict:
    """Points per hand of the players marked `who` minus the mean of the other players of the same hand,
    over the hands marked `hands` (per row of the per-hand table)."""
    p = int(h["player"].max()) + 1
    points = h["points"].to_numpy(float).reshape(-1, p)
    mark = who.reshape(-1, p)
    keep = hands.reshape(-1, p)[:, 0] & (mark.sum(axis=1) == 1)
    mine = (points * mark).sum(axis=1)
    others = (points.sum(axis=1) - mine) / (p - 1)
    first = h.iloc[::p]
    e = estimate(_per_game(first, mine - others, keep.astype(float)))
    return {"edge": e.value, "lo": e.lo, "hi": e.hi, "hands": int(keep.sum())}


def _requests(run: Run) -> pd.DataFrame:
    """Every help request of the run's first chunk: the kind on the table, the cards laid, granted or not,
    whether cards the junior had not seen could complete them (`franks_zoo.requests`), and the game it was
    made in."""
    rows = []

    def collect(games: np.ndarray, s) -> None:
        q = made(s)
        partial = C.PARTIALS[q.partial]
        rows.append(
            pd.DataFrame(
                {
                    "table kind": np.asarray(C.KINDS)[C.SETS[q.table, 0]],
                    "table size": C.SET_SIZE[q.table],
                    "cards laid": partial[:, 1:].sum(axis=1),
                    "granted": q.granted,
                    "completable": q.completable,
                    "game": games[q.row],
                }
            )
        )

    runner.play_chunk(runner.chunk(run, 0), on_deals=collect)
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def _completable_share(requests: pd.DataFrame) -> dict:
    """The share of requests that cards the junior had not seen could complete, 95% interval with the game
    as the unit (a ratio over each game's requests)."""
    per_game = requests.groupby("game")["completable"].agg(["sum", "size"])
    e = estimate(
        Measure("completable", per_game["sum"].to_numpy(float), per_game["size"].to_numpy(float), binary=True)
    )
    return {"share": e.value, "lo": e.lo, "hi": e.hi, "requests": len(requests)}


def build(
    base: Run, matches: int, jobs: int, progress: bool, command: str, provenance: dict
) -> tuple[Report, tuple[str, list[str], list[list]]]:
    game, unit = base.game, base.unit
    reading0 = base.rules.hedgehog_penalty
    who = seats_text(base.game.seat_names(base.rules), base.seats)
    report = Report("Frank's Zoo: what is asking for help worth?", provenance, command, played=who)
    ask_rows, answer_rows, freq_rows, main = [], [], [], {}
    for players, reading, a, no_ask, no_answer in arms(base):
        ta, tb, tc = (_complete(run, jobs, progress) for run in (a, no_ask, no_answer))
        label = {"players": players, "hedgehog": reading}
        ask_rows += _paired_rows(ta, tb, unit, game, label, ASKING)
        answer_rows += _paired_rows(ta, tc, unit, game, label, ANSWERING)
        freq_rows.append({**label, **_frequency(ta["deals"])})
        if players == base.rules.players and reading == reading0:
            main = {"run": a, "tables": ta}
    asking, answering, freq = pd.DataFrame(ask_rows), pd.DataFrame(answer_rows), pd.DataFrame(freq_rows)

    h = main["tables"]["deals"]
    team = (h["role"] != "alone").to_numpy()
    every = np.ones(len(h), bool)
    chameleon = _edge(h, h["dealt_chameleon"].to_numpy(), every)
    solo = _edge(h, (h["role"] == "solo").to_numpy(), team) if (h["role"] == "solo").any() else None
    # the first hand's leader is the dealer's left, fixed by the deal; in team hands the last-ranked player
    leading = _edge(h, h["led_first"].to_numpy(), (h["number"] == 1).to_numpy())
    no_exchange = _complete(
        dataclasses.replace(main["run"], rules=dataclasses.replace(main["run"].rules, exchange_cards=0)),
        jobs,
        progress,
    )["deals"]
    exchange_rows = []
    for role in ("senior", "junior", "solo"):
        ra, rb = ((t["role"] == role).to_numpy() for t in (h, no_exchange))
        if not ra.any():
            continue
        d = paired(
            _per_game(h, h["points"].to_numpy(float), ra.astype(float)),
            _per_game(no_exchange, no_exchange["points"].to_numpy(float), rb.astype(float)),
        )
        exchange_rows.append(
            {
                "role": role,
                f"with {main['run'].rules.exchange_cards} cards": d.a,
                "without exchange": d.b,
                "difference": d.diff,
                "lo": d.lo,
                "hi": d.hi,
            }
        )
    exchange = pd.DataFrame(exchange_rows)
    requests = _requests(main["run"])
    completable = _completable_share(requests) if len(requests) else None

    p0, r0 = base.rules.players, reading0
    measured = Measured(asking, answering, freq, chameleon, solo, leading, exchange, completable)
    _findings(report, measured, p0, r0, base)

    report.heading("The value of asking for help")
    report.text(
        f"Seat 0 plays {base.seats[0]} and asks for help by its policy (arm A) or never asks (arm B); every "
        f"other seat plays {base.seats[1]} in both arms, on the same {base.n:,} games per setting. "
        "Differences are A - B with paired 95% intervals, the game as the unit. A team's points are both "
        "partners' (the player's own when he has no partner). 'In hand 2 as junior' counts the games in "
        "which seat 0 is a junior in the second hand: those roles come from the first hand, which plays the "
        "same in both arms."
    )
    report.table(
        "value_of_asking_grid",
        _differences(asking),
        "What asking is worth to seat 0, by player count and hedgehog rule: A - B with paired 95% "
        "intervals (points per hand or place; the win rate in percentage points)",
        TableFormat(labels={"setting": "players, hedgehog rule"}),
    )
    report.table(
        "value_of_asking",
        _rated(asking),
        "What asking is worth to seat 0, by player count and hedgehog rule",
        PAIRED,
        collapsed="Both arms' figures and their differences, setting by setting",
    )
    report.figure(
        "value_of_asking",
        _forest(
            asking, "team's points per hand", "Seat 0's team's points per hand, asking minus never asking"
        ),
        "The value of asking: seat 0's team's points per hand, with 95% paired intervals",
        main=True,
    )

    report.heading("The value of answering")
    report.text("Arm B: seat 0 never answers a request (when it is the senior); all else the same.")
    report.table(
        "value_of_answering_grid",
        _differences(answering),
        "What answering is worth to seat 0, by player count and hedgehog rule: A - B with paired 95% "
        "intervals (points per hand or place; the win rate in percentage points)",
        TableFormat(labels={"setting": "players, hedgehog rule"}),
    )
    report.table(
        "value_of_answering",
        _rated(answering),
        "What answering is worth to seat 0, by player count and hedgehog rule",
        PAIRED,
        collapsed="Both arms' figures and their differences, setting by setting",
    )
    report.figure(
        "value_of_answering",
        _forest(
            answering,
            "team's points per hand",
            "Seat 0's team's points per hand, answering minus never answering",
        ),
        "The value of answering: seat 0's team's points per hand, with 95% paired intervals",
    )

    report.heading("How often help is asked, granted and wins the trick")
    report.table(
        "help_frequency",
        freq,
        "Help requests in arm A (every seat by its strategy), 95% intervals with the game as the unit "
        "(requests of one game are not independent)",
        TableFormat(
            error={"requests per junior hand": "requests se"},
            percent={
                "granted": ("granted lo", "granted hi"),
                "helped sets taking the trick": ("taking lo", "taking hi"),
            },
            labels={
                "granted": "requests granted",
                "helped sets taking the trick": "helped sets taking the trick",
            },
        ),
    )
    if len(requests):
        by = _granted_by_table(requests)
        report.text(
            f"Requests of the first chunk of the {p0}-player arm A ({len(requests):,} requests), by the kind "
            "of the set on the table and the number of cards the junior laid. A request could be completed "
            "when some set that completes the laid cards and beats the table adds only cards the junior "
            "had not seen (neither in his hand nor played): the senior might hold them."
        )
        report.table(
            "requests_completable",
            pd.DataFrame([measured.completable]),
            "Requests that cards the junior had not seen could complete, 95% interval with the game as the "
            "unit",
            TableFormat(
                percent={"share": ("lo", "hi")}, n="requests", labels={"share": "could be completed"}
            ),
        )
        report.table(
            "requests_by_table",
            by,
            "Share of requests granted, 95% intervals with the game as the unit",
            TableFormat(percent={"granted": ("lo", "hi")}, n="requests"),
        )

    report.heading("The chameleon, the solo seat, leading first and the exchange")
    edges = [
        {"who": "dealt the chameleon", **chameleon},
        {"who": "led the first trick of the first hand", **leading},
    ]
    if solo:
        edges.append({"who": "solo (team hands)", **solo})
    report.table(
        "edges",
        pd.DataFrame(edges),
        f"Points per hand above the other players of the same hand "
        f"({p0} players, {r0}); 95% intervals, the game as the unit",
        TableFormat(
            interval={"edge": ("lo", "hi")}, signed=("edge",), labels={"edge": "edge (points per hand)"}
        ),
    )
    if len(exchange):
        report.table(
            "exchange",
            exchange,
            f"Points per hand by role with and without the exchange, on the same "
            f"deals ({p0} players); paired 95% intervals",
            TableFormat(interval={"difference": ("lo", "hi")}, signed=("difference",)),
        )
    five = asking[(asking["players"] == p0) & (asking["hedgehog"] == r0)]
    headline = [
        [
            r["measure"],
            f"{r['with']:.3f}",
            f"{r['without']:.3f}",
            f"{r['difference']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]",
        ]
        for r in five.to_dict(orient="records")
    ]
    return report, (
        f"The value of asking, {p0} players, {r0} hedgehogs (seat 0, paired 95%)",
        ["measure", "asking", "never asking", "difference"],
        headline,
    )


# The paired tables: seat 0's measures with and without, the difference with its interval; the win rate in
# % and its difference in percentage points.
PAIRED = TableFormat(
    rate_rows="rate",
    scaled=("with", "without", "difference"),
    interval={"difference": ("lo", "hi")},
    signed=("difference",),
)


def _rated(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.insert(list(out.columns).index("measure") + 1, "rate", out["measure"] == "game win rate")
    return out


def _differences(frame: pd.DataFrame) -> pd.DataFrame:
    """The paired differences pivoted: one row per player count and hedgehog rule, one column per measure,
    each cell "A - B [lo, hi]" (the win rate's in percentage points)."""
    rows: dict[tuple, dict[str, str]] = {}
    for r in frame.to_dict(orient="records"):
        x = 100 if r["measure"] == "game win rate" else 1
        head = f"{r['measure']} (pp)" if x == 100 else r["measure"]
        row = rows.setdefault((r["players"], r["hedgehog"]), {"setting": f"{r['players']}, {r['hedgehog']}"})
        row[head] = num(
            x * r["difference"], x * r["lo"], x * r["hi"], digits=1 if x == 100 else 2, signed=True
        )
    return pd.DataFrame(list(rows.values()))


def _verdict(row: pd.Series, unit: str, digits: int = 2) -> str:
    text = f"{num(row['difference'], row['lo'], row['hi'], digits=digits, signed=True)} {unit}"
    if undefined(row["lo"], row["hi"]):
        return text + ", undefined (no cases)"
    if not excludes_zero(row["lo"], row["hi"]):
        return text + ", which cannot be told apart from nothing at this size"
    return text


@dataclass(frozen=True)
class Measured:
    """What the findings quote: the paired tables of asking and of answering (every player count and
    hedgehog rule), how often help is asked and granted, the edges of the chameleon, the solo seat (None
    without solo hands) and the first leader, the exchange's effect by role, and the share of requests that
    cards the junior had not seen could complete."""

    asking: pd.DataFrame
    answering: pd.DataFrame
    freq: pd.DataFrame
    chameleon: dict
    solo: dict | None
    leading: dict
    exchange: pd.DataFrame
    completable: dict | None  # the share of requests unseen cards could complete (None without requests)


def _findings(report: Report, measured: Measured, p0: int, r0: str, base: Run) -> None:
    asking, answering, freq = measured.asking, measured.answering, measured.freq
    chameleon, solo, leading = measured.chameleon, measured.solo, measured.leading
    exchange = measured.exchange

    def pick(frame: pd.DataFrame, measure: str) -> pd.Series:
        return frame[
            (frame["players"] == p0) & (frame["hedgehog"] == r0) & (frame["measure"] == measure)
        ].iloc[0]

    team, points = pick(asking, "team's points per hand"), pick(asking, "points per hand")
    junior = pick(asking, "team's points in hand 2 as junior")
    wins = pick(asking, "game win rate").copy()
    wins[["difference", "lo", "hi"]] *= 100  # as percentage points
    report.finding(
        f"With {p0} players ({r0} hedgehogs), seat 0 asking for help as {base.seats[0]} (every other seat "
        f"{base.seats[1]}), against the same seat never asking on the same deals, gains its team "
        f"{_verdict(team, 'points per hand')}; itself {_verdict(points, 'points per hand')}; "
        f"{_verdict(wins, 'percentage points of game win rate', 1)}; in the hands it plays as junior "
        f"(second hands) its team gains {_verdict(junior, 'points')}."
    )
    best = asking[asking["measure"] == "team's points per hand"].sort_values("difference")
    top, low = best.iloc[-1], best.iloc[0]
    report.finding(
        f"Across 4-7 players and both hedgehog rules the value of asking runs from {_verdict(low, 'points')} "
        f"({low['players']} players, {low['hedgehog']}) to {_verdict(top, 'points')} ({top['players']} "
        f"players, {top['hedgehog']})."
    )
    ans, ans2 = (
        pick(answering, "team's points per hand"),
        pick(answering, "team's points in hand 2 as senior"),
    )
    report.finding(
        f"Answering requests is worth to the answering seat's team {_verdict(ans, 'points per hand')}; "
        f"in the second hands it plays as senior, {_verdict(ans2, 'points')}."
    )
    f = freq[(freq["players"] == p0) & (freq["hedgehog"] == r0)].iloc[0]
    report.finding(
        f"A junior asks {pm(f['requests per junior hand'], f['requests se'])} times per hand; "
        f"{pct(f['granted'], f['granted lo'], f['granted hi'])} of {f['requests']:,} requests are granted "
        "and "
        f"{pct(f['helped sets taking the trick'], f['taking lo'], f['taking hi'])} of {f['helps given']:,} "
        "helped sets take the trick (95% intervals over the games)."
    )
    if measured.completable:
        c = measured.completable
        never = round(c["requests"] * (1 - c["share"]))
        report.finding(
            f"{pct(c['share'], c['lo'], c['hi'])} of {c['requests']:,} requests (the first chunk of the "
            f"{p0}-player games) could be completed by cards the junior had not seen (neither in his hand "
            "nor played)" + (f"; the other {never:,} were sure to be declined." if never else ".")
        )

    def edge(e: dict) -> str:
        return num(e["edge"], e["lo"], e["hi"], signed=True)

    parts = [
        (
            f"the player dealt the chameleon scores {edge(chameleon)} points per hand above the others of "
            "the same hand"
        ),
        f"the player who leads the first trick of a game {edge(leading)}",
    ]
    if solo:
        parts.append(f"the solo player {edge(solo)} in team hands")
    report.finding("With " + f"{p0} players, " + "; ".join(parts) + ".")
    if len(exchange):
        moved = "; ".join(
            f"{r['role']}s {num(r['difference'], r['lo'], r['hi'], signed=True)}"
            for r in exchange.to_dict(orient="records")
        )
        report.finding(
            f"The exchange of {base.rules.exchange_cards} cards moves points per hand by role: {moved} "
            "(against no exchange, same deals)."
        )


def _forest(frame: pd.DataFrame, measure: str, title: str) -> plt.Figure:
    part = frame[frame["measure"] == measure].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.4 * len(part)))
    y = np.arange(len(part))
    ax.errorbar(
        part["difference"],
        y,
        xerr=[part["difference"] - part["lo"], part["hi"] - part["difference"]],
        fmt="o",
        capsize=3,
    )
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, [f"{p} players, {h}" for p, h in zip(part["players"], part["hedgehog"])])
    ax.set_xlabel(f"{measure}: A - B (95% paired interval)")
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="x")
    return fig


STUDY = Study(
    name="help-value",
    game="franks-zoo",
    unit="match",
    summary="what asking for help and answering are worth, by player count and hedgehog rule; the "
    "chameleon, the solo seat, leading first and the exchange",
    default_matches=lambda deals: 0,
    build=build,
    default_deals=30_000,
)
