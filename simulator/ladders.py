"""A strategy ladder: several strategies played against each other on common deals, with the seats rotated so
that card luck cancels (duplicate style), rated by a Bradley-Terry model fitted to their pairwise wins.

Two formats, chosen by the game's sides (`Game.sides`), never by its name:

- *head to head*, where two sides score (Forty-two's N-S and E-W, Rounds' two players): every pair (A, B)
  plays twice on the same deals (the same seed and chunks), A on the first side and B on the second, then the
  other way round. A's result on a deal (or match) is the mean of its two orientations.
- *against a field*, where every seat scores for itself (Frank's Zoo): each entrant takes each seat in turn,
  the field's strategy (the game's default unless given) at every other seat, all on the same deals. An
  entrant's result on a deal is its mean over the seats; two entrants compare deal by deal (paired).

Measures, read from `Game.measures` for each side:
- the *score*: the first measure whose better direction is higher and that is not a rate (Forty-two's score
  margin per hand, Rounds' margin per game, Frank's Zoo's points per hand);
- the *win*: at unit match the match measure "<side> wins" (`simulator.series.match_measures`); at unit deal
  a deal is won by the side with the highest score on it, a tie shared.

Ratings: Bradley-Terry strengths fitted by minorisation-maximisation (Hunter 2004) to the pairwise wins
(head to head: the wins of A over B in both orientations; against a field: the deals on which A's score
beat B's, a tie half each), every pair given one virtual drawn game so that a strategy that won or lost
everything keeps a finite rating. Ratings are on the Elo scale, 400 log10 of the strength, mean 0; their 95%
intervals are bootstrap percentiles over deals (`BOOTSTRAP` resamples of the deals, the same deals for every
pair, from a Generator seeded by the run's seed on a stream no chunk uses).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator import registry
from simulator.errors import DealsimError
from simulator.provenance import provenance
from simulator.runner import Run, check, execute
from simulator.stats import Estimate, Measure, best_set, estimate, paired
from simulator.summaries import num, pct, pp, table

BOOTSTRAP = 400  # bootstrap resamples of the deals behind the ratings' intervals
LADDER_KEY = (0, 2**32 + 2)  # the bootstrap's spawn key: no chunk's (k,) or (k, c), nor the confirmation's
VIRTUAL = 0.5  # wins each side of a pair is credited with: one virtual drawn game per pair
ELO = 400 / math.log(10)  # Elo points per unit of log strength


def bradley_terry(wins: np.ndarray, virtual: float = VIRTUAL, iterations: int = 500) -> np.ndarray:
    """Log strengths (mean 0) of the Bradley-Terry model fitted to `wins` (..., k, k): wins[..., i, j] is how
    often i beat j. Each pair gets `virtual` wins each way. Minorisation-maximisation: p_i <- W_i /
    sum_j n_ij / (p_i + p_j), which climbs the likelihood at every step (Hunter 2004). Leading axes (bootstrap
    resamples) are fitted at once."""
    w = np.asarray(wins, float)
    k = w.shape[-1]
    off = ~np.eye(k, dtype=bool)
    w = w + virtual * off
    games = w + np.swapaxes(w, -1, -2)
    won = w.sum(-1)
    p = np.ones(w.shape[:-1])
    for _ in range(iterations):
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(-1)
        new = won / denom
        new /= np.exp(np.log(new).mean(-1, keepdims=True))
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    logp = np.log(p)
    return logp - logp.mean(-1, keepdims=True)


def bootstrap_seed(seed: int) -> np.random.Generator:
    """The bootstrap's Generator: from the run's seed, on a stream apart from every chunk's."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=LADDER_KEY))


def mean_measure(name: str, parts: Sequence[Measure], better: str | None = "higher") -> Measure:
    """The per-deal mean of several measures on the same deals (num and den averaged deal by deal): an
    entrant's result over its orientations or seats. Not a rate for `estimate`: the interval is normal on the
    per-deal means, whose values are not 0/1 trials."""
    nums = np.mean([p.num for p in parts], axis=0)
    given = [p.den for p in parts if p.den is not None]
    dens = np.mean(given, axis=0) if len(given) == len(parts) else None
    return Measure(name, nums, dens, False, better)


def _ratio(m: Measure) -> np.ndarray:
    """Per deal num / den (num where there is no den), NaN where den is 0."""
    if m.den is None:
        return m.num
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(m.den > 0, m.num / np.where(m.den > 0, m.den, 1), np.nan)


def top_shares(values: np.ndarray) -> np.ndarray:
    """(sides, n) per-deal scores -> each side's share of the win: 1 for the one highest, 1/t for t tied at
    the top, 0 else; NaN scores count as the lowest."""
    v = np.where(np.isnan(values), -np.inf, values)
    top = v == v.max(axis=0, keepdims=True)
    return top / top.sum(axis=0, keepdims=True)


@dataclass(frozen=True)
class SideMeasures:
    """A run's win and score of one side, per deal (or match)."""

    win: Measure
    score: Measure
    extra: dict[str, Measure]  # other measures the balance table reads (the first dealer's wins)


def side_measures(game: Any, tables: dict[str, pd.DataFrame], unit: str, rules: Any) -> list[SideMeasures]:
    """Every side's win and score in one run (see the module's docstring for which measures they are)."""
    sides = game.sides(rules)
    per_side = [game.measures(tables, unit, s) for s in range(len(sides))]
    scores = []
    for s, ms in enumerate(per_side):
        found = [m for m in ms if m.better == "higher" and not m.binary]
        if not found:
            raise DealsimError(f"{game.name} has no score measure for {sides[s][0]}: a ladder needs one")
        scores.append(found[0])
    if unit == "match":
        wins = []
        for (name, _), ms in zip(sides, per_side):
            want = f"{game.side_label(name)} wins"
            wins.append(next(m for m in ms if m.name == want))
    else:
        shares = top_shares(np.array([_ratio(m) for m in scores]))
        wins = [Measure("wins", shares[s], None, True, "higher") for s in range(len(sides))]
    first = f"{game.first_dealer_words()} wins"
    extra = {m.name: m for m in per_side[0] if m.name == first}
    return [SideMeasures(w, sc, extra) for w, sc in zip(wins, scores)]


@dataclass(frozen=True)
class Ladder:
    """A ladder's outcome; the frames hold every figure, `render` and `findings` tell them."""

    base: Run
    entrants: list[str]
    head_to_head: bool  # two sides (each pair in both orientations), or each entrant against a field
    field: str | None
    score_name: str  # what the score measure is, without the side ("score margin per hand")
    win_name: str
    ratings: pd.DataFrame
    pairs: pd.DataFrame
    balance: pd.DataFrame
    seats: pd.DataFrame | None
    runs: int
    elapsed: float
    folder: Path | None = None  # where the report was written, if it was
    written: tuple[Path, ...] = ()

    @property
    def unit_word(self) -> str:
        return self.base.game.words[self.base.unit]

    @property
    def units(self) -> str:
        return self.base.game.plural(self.base.unit)

    def best(self, column: str) -> list[str]:
        return list(self.ratings.loc[self.ratings[f"best set: {column}"] == True, "entrant"])  # noqa: E712

    def findings(self) -> list[str]:
        r = self.ratings.sort_values("rating", ascending=False)
        top, rest = r.iloc[0], r.iloc[1:]
        out = [
            f"{top['entrant']} is rated highest: {top['rating']:+.0f} [{top['rating lo']:+.0f}, "
            f"{top['rating hi']:+.0f}] Elo points (Bradley-Terry on the pairwise wins, 95% bootstrap "
            "interval)"
            + (
                "; then "
                + ", ".join(
                    f"{x['entrant']} {x['rating']:+.0f} [{x['rating lo']:+.0f}, {x['rating hi']:+.0f}]"
                    for _, x in rest.iterrows()
                )
                + "."
                if len(rest)
                else "."
            )
        ]
        for column, word in (("win rate", "win rate"), ("score", self.score_word())):
            members = self.best(column)
            against = "against its opponents" if self.head_to_head else f"against the field ({self.field})"
            if not members:
                out.append(f"On the {word} {against} no best set is defined (too few {self.units}).")
            elif len(members) == 1:
                out.append(f"On the {word} {against}, {members[0]} alone is best (simultaneous 95%).")
            else:
                out.append(
                    f"On the {word} {against}, {_and(members)} cannot be told apart from the best "
                    "(simultaneous 95%)."
                )
        if len(r) >= 2:
            a, b = r.iloc[0]["entrant"], r.iloc[1]["entrant"]
            out.append(self.pair_sentence(a, b))
        out += list(self.balance_sentences())
        return out

    def score_word(self) -> str:
        return "score margin" if self.head_to_head else "points"

    def pair_sentence(self, a: str, b: str) -> str:
        p = self.pairs.set_index(["entrant", "opponent", "measure"])
        w, s = p.loc[(a, b, "win rate")], p.loc[(a, b, "score")]
        score = f"{self.score_name} {num(s['value'], s['lo'], s['hi'], signed=True)}"
        if self.head_to_head:
            won = pct(w["value"], w["lo"], w["hi"])
            return (
                f"{a} against {b}: wins {won} of the {self.units}, {score} (both orientations on the same "
                "deals)."
            )
        return (
            f"{a} minus {b} in the same seat against the same field: win rate "
            f"{pp(w['value'], w['lo'], w['hi'])}, {score} (paired)."
        )

    def balance_sentences(self) -> list[str]:
        out = []
        for row in self.balance[self.balance["orientation"] == "all"].to_dict(orient="records"):
            even = row["lo"] <= 0.5 <= row["hi"]
            verdict = "cannot be told apart from 50%" if even else "clearly not 50%"
            shown = pct(row["value"], row["lo"], row["hi"])
            out.append(f"Over all orientations, {row['measure']}: {shown} ({verdict}).")
        return out

    def matrix(self, measure: str) -> list[list[str]]:
        """Rows of the pairwise matrix for the console: the entrant, then its figure against each column."""
        p = self.pairs[self.pairs["measure"] == measure].set_index(["entrant", "opponent"])
        rows = []
        for a in self.entrants:
            cells = [a]
            for b in self.entrants:
                if a == b:
                    cells.append("-")
                    continue
                x = p.loc[(a, b)]
                if measure == "win rate":
                    shown = (
                        pct(x["value"], x["lo"], x["hi"])
                        if self.head_to_head
                        else pp(x["value"], x["lo"], x["hi"])
                    )
                else:
                    shown = num(x["value"], x["lo"], x["hi"], signed=True)
                cells.append(shown)
            rows.append(cells)
        return rows

    def matrix_title(self, measure: str) -> str:
        n = f"{self.base.n:,} {self.units}"
        what = "win rate" if measure == "win rate" else self.score_name
        if self.head_to_head:
            return f"row's {what} against the column, both orientations on the same {n} (95% interval)"
        return f"row minus column, {what}, in the same seat against the field on the same {n} (paired 95%)"

    def render(self) -> list[Any]:
        g = self.base.game
        rated = self.ratings.sort_values("rating", ascending=False)
        rows = [
            [
                x["entrant"],
                num(x["rating"], x["rating lo"], x["rating hi"], digits=0, signed=True),
                pct(x["win rate"], x["win rate lo"], x["win rate hi"]),
                num(x["score"], x["score lo"], x["score hi"], signed=True),
                ", ".join(c for c in ("win rate", "score") if x[f"best set: {c}"] is True) or "",
            ]
            for x in rated.to_dict(orient="records")
        ]
        against = "its opponents" if self.head_to_head else f"the field ({self.field})"
        title = (
            f"{g.name}: ladder of {len(self.entrants)} strategies, {self.base.n:,} {self.units} per "
            f"{'orientation' if self.head_to_head else 'seat'}, seed {self.base.seed}; rating: "
            f"Bradley-Terry (Elo scale, 95% bootstrap); win rate and {self.score_word()} against {against} "
            "(95%); best set: cannot be told apart from the best (simultaneous 95%)"
        )
        cols = ["strategy", "rating", "win rate", self.score_word(), "best set"]
        out: list[Any] = [table(title, cols, rows, text_columns=1)]
        for m in ("win rate", "score"):
            out.append(table(self.matrix_title(m), ["", *self.entrants], self.matrix(m), text_columns=1))
        if self.seats is not None:
            seat_rows = [
                [
                    x["entrant"],
                    x["seat"],
                    pct(x["win rate"], x["win rate lo"], x["win rate hi"]),
                    num(x["score"], x["score lo"], x["score hi"]),
                ]
                for x in self.seats.to_dict(orient="records")
            ]
            out.append(
                table(
                    f"each strategy in each seat against the field ({self.field}), 95%",
                    ["strategy", "seat", "win rate", "points"],
                    seat_rows,
                    text_columns=2,
                )
            )
        else:
            bal = [
                [x["orientation"], x["measure"], pct(x["value"], x["lo"], x["hi"])]
                for x in self.balance.to_dict(orient="records")
            ]
            out.append(
                table(
                    "seat balance: each orientation's result, 95%",
                    ["orientation", "measure", "value"],
                    bal,
                    text_columns=2,
                )
            )
        played = f"{self.runs} runs of {self.base.n:,} {self.units} in {self.elapsed:.1f} s of play" + (
            f"; wrote {len(self.written)} files to {self.folder}/ (open {self.folder / 'report.html'})"
            if self.folder is not None
            else ""
        )
        return [*out, *self.findings(), played]

    def provenance(self) -> dict[str, Any]:
        prov = provenance(
            self.base,
            strategies=self.entrants,
            format="head to head" if self.head_to_head else "against a field",
            field=self.field,
            bootstrap=BOOTSTRAP,
            runs=self.runs,
        )
        prov.pop("seats", None)
        prov.pop("strategy_parameters", None)
        roster = registry.roster(self.base.game)
        prov["strategy_parameters"] = {
            e: {"strategy": s.name or s.spec, **s.params()}
            for e, s in ((e, roster.make(e)) for e in self.entrants)
        }
        return prov

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.provenance(),
            "ratings": self.ratings.to_dict(orient="records"),
            "pairs": self.pairs.to_dict(orient="records"),
            "balance": self.balance.to_dict(orient="records"),
            "seat_results": None if self.seats is None else self.seats.to_dict(orient="records"),
            "findings": self.findings(),
            "elapsed": self.elapsed,
        }


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def entrants_of(base: Run, strategies: Sequence[str]) -> list[str]:
    """The entrants' specs, checked: at least two, each a strategy of the game, none twice (nor two that
    play exactly alike)."""
    specs = [s.strip() for s in strategies]
    if len(specs) < 2:
        raise DealsimError(
            "--strategy: a ladder needs at least two strategies (give --strategy twice or more)"
        )
    roster = registry.roster(base.game)
    made = [roster.make(s) for s in specs]
    for i in range(len(specs)):
        for j in range(i):
            if specs[i] == specs[j] or made[i] == made[j]:
                same = specs[i] if specs[i] == specs[j] else f"{specs[j]} and {specs[i]}"
                raise DealsimError(
                    f"--strategy: {same} given twice (they play exactly alike); give each once"
                )
    return specs


@dataclass
class Played:
    """What a format's runs come to: the pairwise rows, each entrant's per-deal win and score against its
    opponents (or the field), the pairwise wins per deal behind the ratings, the balance rows and, against a
    field, each entrant's result in each seat."""

    pairs: list[dict[str, Any]]
    win: dict[str, Measure]
    score: dict[str, Measure]
    wins: dict[tuple[str, str], np.ndarray]
    balance: list[dict[str, Any]]
    seats: list[dict[str, Any]] | None
    score_name: str


class Seatings:
    """The runs of a ladder, each played once (a seating met twice, as every entrant but the field's own
    against the field, is played once) and read as every side's measures."""

    def __init__(self, base: Run, jobs: int, progress: bool):
        self.base, self.jobs, self.progress = base, jobs, progress
        self.sides = base.game.sides(base.rules)
        self.n_seats = len(base.game.seat_names(base.rules))
        self.results: dict[tuple[str, ...], list[SideMeasures]] = {}
        self.elapsed = 0.0

    def seating(self, placed: dict[int, str], rest: str) -> tuple[str, ...]:
        """Seat specs: each side's seats from `placed` (side index -> spec), the others `rest`."""
        out = [rest] * self.n_seats
        for side, spec in placed.items():
            for s in self.sides[side][1]:
                out[s] = spec
        return tuple(out)

    def play(self, placed: dict[int, str], rest: str) -> list[SideMeasures]:
        seats = self.seating(placed, rest)
        if seats not in self.results:
            run = dataclasses.replace(self.base, seats=seats)
            check(run)
            r = execute(run, jobs=self.jobs, progress=self.progress).whole()
            self.elapsed += r.elapsed
            self.results[seats] = side_measures(run.game, r.tables, run.unit, run.rules)
        return self.results[seats]


def ladder(
    base: Run,
    strategies: Sequence[str],
    field: str | None = None,
    jobs: int = 0,
    progress: bool = False,
) -> Ladder:
    """Play the ladder of `strategies` on `base`'s deals (its seats are replaced): head to head where the
    game has two sides, else each entrant in each seat against `field` (default: the game's default
    strategy)."""
    game = base.game
    entrants = entrants_of(base, strategies)
    head_to_head = len(game.sides(base.rules)) == 2
    if head_to_head and field is not None:
        raise DealsimError(
            f"--field: {game.name} has two sides, so strategies meet head to head; a field is for games "
            "where every seat scores for itself"
        )
    if not head_to_head:
        field = (field or game.default_strategy).strip()
        registry.roster(game).make(field)
    t = Seatings(base, jobs, progress)
    played = _head_to_head(t, entrants) if head_to_head else _against_field(t, entrants, field or "")
    side = game.side_label(game.sides(base.rules)[0][0])
    return Ladder(
        base,
        entrants,
        head_to_head,
        None if head_to_head else field,
        played.score_name.removeprefix(f"{side} "),
        "wins",
        _ratings(entrants, played, base.seed),
        pd.DataFrame(played.pairs),
        pd.DataFrame(played.balance, columns=["orientation", "measure", "value", "lo", "hi"]),
        None if played.seats is None else pd.DataFrame(played.seats),
        len(t.results),
        t.elapsed,
    )


def _rate(e: Estimate) -> Estimate:
    """A rate's estimate with its normal interval kept inside [0, 1]."""
    return dataclasses.replace(e, lo=max(e.lo, 0.0), hi=min(e.hi, 1.0))


def _row(
    entrant: str, opponent: str, measure: str, value: float, lo: float, hi: float, n: int
) -> dict[str, Any]:
    return {
        "entrant": entrant,
        "opponent": opponent,
        "measure": measure,
        "value": value,
        "lo": lo,
        "hi": hi,
        "deals": n,
    }


def _balance(orientation: str, m: Measure) -> dict[str, Any]:
    e = _rate(estimate(m))
    return {"orientation": orientation, "measure": m.name, "value": e.value, "lo": e.lo, "hi": e.hi}


def _head_to_head(t: Seatings, entrants: list[str]) -> Played:
    """Every ordered pair (A, B): A on the first side and B on the second, on the same deals; A's result
    against B is its mean over that run and the swapped one."""
    game, sides = t.base.game, t.sides
    pairs, balance = [], []
    win: dict[tuple[str, str], Measure] = {}
    score: dict[tuple[str, str], Measure] = {}
    wins: dict[tuple[str, str], np.ndarray] = {}
    first_side: dict[str, list[Measure]] = {}
    first = f"{game.side_label(sides[0][0])} wins"
    score_name = ""
    for a in entrants:
        for b in entrants:
            if a == b:
                continue
            ab, ba = t.play({0: a, 1: b}, a), t.play({0: b, 1: a}, a)
            score_name = score_name or ab[0].score.name
            win[a, b] = mean_measure("win rate", [ab[0].win, ba[1].win])
            score[a, b] = mean_measure("score", [ab[0].score, ba[1].score])
            # a's wins over b on each deal, both orientations counted
            wins[a, b] = ab[0].win.num + ba[1].win.num
            for name, m in (("win rate", win[a, b]), ("score", score[a, b])):
                e = _rate(estimate(m)) if name == "win rate" else estimate(m)
                pairs.append(_row(a, b, name, e.value, e.lo, e.hi, m.n))
            label = f"{a} at {sides[0][0]}, {b} at {sides[1][0]}"
            for m in [dataclasses.replace(ab[0].win, name=first), *ab[0].extra.values()]:
                balance.append(_balance(label, m))
                first_side.setdefault(m.name, []).append(m)
    for name, parts in first_side.items():
        balance.append(_balance("all", mean_measure(name, parts, None)))
    return Played(
        pairs,
        {a: mean_measure("win rate", [win[a, b] for b in entrants if b != a]) for a in entrants},
        {a: mean_measure("score", [score[a, b] for b in entrants if b != a]) for a in entrants},
        wins,
        balance,
        None,
        score_name,
    )


def _against_field(t: Seatings, entrants: list[str], field: str) -> Played:
    """Each entrant in each seat, the field elsewhere; its result is the mean over the seats, and two
    entrants compare deal by deal (the same seat, the same field, the same deals)."""
    game = t.base.game
    seats: list[dict[str, Any]] = []
    win: dict[str, Measure] = {}
    score: dict[str, Measure] = {}
    by_seat: dict[str, list[Measure]] = {}
    for a in entrants:
        wins, scores = [], []
        for s, (name, _) in enumerate(t.sides):
            m = t.play({s: a}, field)[s]
            wins.append(m.win)
            scores.append(m.score)
            by_seat.setdefault(game.side_label(name), []).append(m.win)
            w, sc = estimate(m.win), estimate(m.score)
            seats.append(
                {
                    "entrant": a,
                    "seat": game.side_label(name),
                    "win rate": w.value,
                    "win rate lo": w.lo,
                    "win rate hi": w.hi,
                    "score": sc.value,
                    "score lo": sc.lo,
                    "score hi": sc.hi,
                }
            )
        win[a] = mean_measure("win rate", wins)
        score[a] = mean_measure("score", scores)
    pairs = []
    head: dict[tuple[str, str], np.ndarray] = {}
    for a in entrants:
        for b in entrants:
            if a == b:
                continue
            for name, ms in (("win rate", win), ("score", score)):
                d = paired(ms[a], ms[b])
                pairs.append(_row(a, b, name, d.diff, d.lo, d.hi, d.deals))
            # head to head: the deals on which a's points beat b's, a tie half each
            x = np.nan_to_num(_ratio(score[a]), nan=-np.inf)
            y = np.nan_to_num(_ratio(score[b]), nan=-np.inf)
            head[a, b] = (x > y) + 0.5 * (x == y)
    balance = [
        _balance(seat, mean_measure(f"the entrants' mean win rate in {seat}", parts, None))
        for seat, parts in by_seat.items()
    ]
    name = t.results[t.seating({0: entrants[0]}, field)][0].score.name
    return Played(pairs, win, score, head, balance, seats, name)


def _ratings(entrants: list[str], played: Played, seed: int) -> pd.DataFrame:
    """Bradley-Terry ratings with bootstrap intervals over deals, and each entrant's win rate and score
    against its opponents (or the field) with their intervals and best-set membership."""
    k = len(entrants)
    n = len(next(iter(played.wins.values())))
    at = {e: i for i, e in enumerate(entrants)}
    units = np.zeros((n, k, k))
    for (a, b), w in played.wins.items():
        units[:, at[a], at[b]] = w
    rating = ELO * bradley_terry(units.sum(0))
    rng = bootstrap_seed(seed)
    flat = units.reshape(n, k * k)
    # each resample as the count of times it draws each deal: memory of one resample at a time
    resampled = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) @ flat for _ in range(BOOTSTRAP)])
    boot = ELO * bradley_terry(resampled.reshape(BOOTSTRAP, k, k))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    rows: list[dict[str, Any]] = [
        {"entrant": e, "rating": rating[i], "rating lo": lo[i], "rating hi": hi[i]}
        for i, e in enumerate(entrants)
    ]
    for column, per in (("win rate", played.win), ("score", played.score)):
        ms = [per[e] for e in entrants]
        chosen = best_set(ms, higher=True)
        for i, m in enumerate(ms):
            e = _rate(estimate(m)) if column == "win rate" else estimate(m)
            rows[i][column], rows[i][f"{column} lo"], rows[i][f"{column} hi"] = e.value, e.lo, e.hi
            rows[i][f"best set: {column}"] = (i in chosen.members) if chosen.defined else None
    frame = pd.DataFrame(rows)
    best = [c for c in frame.columns if c.startswith("best set")]
    return frame[[c for c in frame.columns if c not in best] + best]
