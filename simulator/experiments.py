"""Experiments built of several runs on common deals: paired comparisons of two arms and sweeps over rule
or strategy parameters. Every arm uses the same seed and chunking, so every arm plays the same deals."""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd

from simulator import registry
from simulator.errors import DealsimError, DealsimWarning, Interrupted
from simulator.options import build, parse_pairs
from simulator.precision import Outcome, Target, by_name, halfwidth, pilot_size, reached, spread, two_stage
from simulator.provenance import provenance, seats_text
from simulator.runner import Result, Run, check, execute
from simulator.stats import (
    Z90,
    Z95,
    Difference,
    Estimate,
    Measure,
    best_set,
    estimate,
    paired,
    paired_average,
    paired_gap,
    undefined,
)
from simulator.summaries import num, pct, pp, table


def parse_values(text: str) -> list[str]:
    """'28,30,32' -> the values; 'lo:hi' or 'lo:hi:step' -> lo, lo+step, ..., hi (inclusive)."""
    if ":" in text and "," not in text:
        parts = text.split(":")
        wrong = f"vary: expected lo:hi or lo:hi:step with lo <= hi and step > 0, got {text!r}"
        try:
            lo, hi, step = (Decimal(p) for p in (parts + ["1"])[:3])
        except InvalidOperation:
            raise DealsimError(wrong) from None
        if len(parts) > 3 or step <= 0 or hi < lo:
            raise DealsimError(wrong)
        count = int((hi - lo) / step) + 1
        if count > 1000:
            raise DealsimError(f"vary: {text!r} makes {count} values; at most 1000")
        return [str(lo + i * step) for i in range(count)]
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise DealsimError(f"vary: no values in {text!r}")
    return values


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    """`--vary` items -> (key, values) in order. A key varied twice or a value listed twice is an error; a
    key with one value is a warning (it is a setting of every point, not a sweep)."""
    out: dict[str, list[str]] = {}
    for item in items:
        for key, text in parse_pairs("vary", [item]).items():
            if key in out:
                raise DealsimError(f"vary: {key} is varied twice; list all its values at once ({key}=a,b,c)")
            values = parse_values(text)
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise DealsimError(f"vary: {key} lists {', '.join(twice)} more than once")
            if len(values) == 1:
                warnings.warn(
                    f"vary: {key} has one value ({values[0]}): every point plays it, nothing compares it",
                    DealsimWarning,
                    stacklevel=2,
                )
            out[key] = values
    return list(out.items())


def apply_setting(base: Run, key: str, value: str) -> Run:
    """The run with one setting changed: a rule option (`min_bid`, `rule.min_bid`), a strategy parameter
    (`seat.NS.threshold`) or a seat's whole strategy (`seat.EW`)."""
    game = base.game
    if key.startswith("seat."):
        _, _, rest = key.partition(".")
        seat_name, _, param = rest.partition(".")
        seats = list(base.seats)
        for s in game.seats_of(seat_name, base.rules):
            seats[s] = registry.roster(game).with_params(seats[s], {param: value}) if param else value
        run = dataclasses.replace(base, seats=tuple(seats))
        run.strategies()  # a bad parameter or value fails here, clearly
        return run
    name = key.removeprefix("rule.")
    rules = build(type(base.rules), "rule", {name: value}, base=base.rules)
    return dataclasses.replace(base, rules=rules, seats=game.fit_seats(base.seats, rules))


def arm_b(a: Run, seats: Sequence[str] = (), rules: Sequence[str] = ()) -> Run:
    """Arm B of a comparison: arm A with these `SEAT=STRATEGY` and `key=value` rule changes."""
    if not seats and not rules:
        raise DealsimError(
            "compare needs an arm B: seats (vs) and/or rule changes (vs_rules) that differ from arm A"
        )
    game = a.game
    b_rules = build(type(a.rules), "rule", parse_pairs("vs_rules", rules), base=a.rules)
    b = dataclasses.replace(
        a, rules=b_rules, seats=game.seat_specs(seats, b_rules, base=game.fit_seats(a.seats, b_rules))
    )
    check(b)
    if plays_alike(a, b):
        raise DealsimError(
            "arm B plays exactly as arm A (the same rules and the same strategies): nothing to compare; "
            "change a rule or a parameter the strategies read"
        )
    return b


def plays_alike(a: Run, b: Run) -> bool:
    """Whether two runs play the same deals the same way by construction: equal rules and equal strategies
    seat by seat (`margin=1` and `margin=1.0` are the same strategy), the rest of the run equal."""
    return (
        a.rules == b.rules and a.strategies() == b.strategies() and dataclasses.replace(b, seats=a.seats) == a
    )


def changed_sides(a: Run, b: Run) -> list[int]:
    """Every side with a seat whose strategy differs between the arms (the first side when none does)."""
    changed = {s for s, (x, y) in enumerate(zip(a.seats, b.seats)) if x != y}
    sides = [i for i, (_, seats) in enumerate(a.game.sides(a.rules)) if changed & set(seats)]
    return sides or [0]


def focus_side(a: Run, b: Run) -> int:
    """The side whose seats differ between the arms (the first side when both or neither do)."""
    changed = {s for s, (x, y) in enumerate(zip(a.seats, b.seats)) if x != y}
    for i, (_, seats) in enumerate(a.game.sides(a.rules)):
        if changed and changed <= set(seats):
            return i
    return 0


def turned(run: Run) -> Run:
    """The run with every seat's strategy moved one seat on: seat s's strategy plays at seat s + 1 (the last
    seat's at seat 0), on the same deals (the cards, dealers and chance events are the seed's, not the
    seats'). Forty-two's N-S strategies then sit at E-W and E-W's at N-S, Rounds' two players swap, and in
    Frank's Zoo the whole seating turns one seat on, neighbours kept."""
    return dataclasses.replace(run, seats=run.seats[-1:] + run.seats[:-1])


def rotation_sides(a: Run, b: Run) -> tuple[int, int]:
    """For seat-rotated deals (`compare(rotate=True)`): the side whose strategies arm B changes and the side
    its seats move to when the seating turns one seat on (`turned`). Refused, with the reason, when there is
    nothing to move (only rules change, and they play at every seat alike), when arm B changes the
    strategies of more than one side, or when turning the seats does not carry each side onto a side."""
    game = a.game
    if len(a.seats) != len(b.seats):
        raise DealsimError("--rotate: the arms seat different numbers of players; nothing to turn alike")
    changed = {s for s, (x, y) in enumerate(zip(a.seats, b.seats)) if x != y}
    if not changed:
        raise DealsimError(
            "--rotate moves a change of strategies to the other side's seats; arm B changes only rules, "
            "which play at every seat alike: nothing to rotate (drop --rotate)"
        )
    sides = game.sides(a.rules)
    touched = [i for i, (_, seats) in enumerate(sides) if changed & set(seats)]
    if len(touched) > 1:
        names = ", ".join(sides[i][0] for i in touched)
        raise DealsimError(
            f"--rotate: arm B changes the strategies of several sides ({names}); rotation moves the change "
            "of one side to the other side's seats"
        )
    n = len(a.seats)
    onto = {frozenset(seats): i for i, (_, seats) in enumerate(sides)}
    images = [onto.get(frozenset((s + 1) % n for s in seats)) for _, seats in sides]
    side = touched[0]
    moved = images[side]
    if any(i is None for i in images) or moved is None or moved == side:
        raise DealsimError(
            f"--rotate: turning the {game.name} seats one seat on does not carry each side onto another "
            "side, so there is no clean rotation here"
        )
    return side, moved


@dataclass(frozen=True)
class Rotation:
    """Seat-rotated deals: the arms again with the seating turned one seat on (A', B': `turned`), on the same
    deals, measured for the side the change moved to; per measure A' - B' alone (`moved`) and the rotated
    estimate (`differences`): the per-deal mean of the plain A - B and A' - B' (`stats.paired_average`), the
    change's effect averaged over its side's seats and the other side's."""

    a: Run
    b: Run
    side: str  # the side the change moved to, whose point of view A' - B' takes
    moved: list[Difference]  # A' - B', per measure
    differences: list[Difference]  # the rotated estimate, per measure
    gaps: list[Difference]  # (A - B) - (A' - B'), per measure: whether the change does the same there
    runs: int  # the distinct runs played in all (3 where arm A turned plays as arm A)

    @staticmethod
    def narrowing(plain: Difference, rotated: Difference) -> float:
        """How many times narrower the rotated interval is than the plain one on the same deals (NaN where
        either is undefined or both are [0, 0])."""
        if plain.undefined or rotated.undefined:
            return float("nan")
        wide, narrow = plain.hi - plain.lo, rotated.hi - rotated.lo
        return wide / narrow if narrow > 0 else float("inf") if wide > 0 else float("nan")


@dataclass(frozen=True)
class Comparison:
    """Two arms on the same deals: per measure the paired difference a - b, from `side`'s point of view."""

    a: Run
    b: Run
    side: str
    measures: list[str]
    differences: list[Difference]
    elapsed: float
    rates: frozenset[str] = frozenset()  # the measures that are rates
    margin: float | None = None  # an equivalence margin: points for means, percentage points for rates
    rotation: Rotation | None = None  # seat-rotated deals (`compare(rotate=True)`)
    precision: Outcome | None = None  # how precision targets set the arms' size (simulator.precision)

    def played(self) -> str:
        """Who played in arm A, in words (arm B differs as `arm_b_in_words` says)."""
        return seats_text(self.a.game.seat_names(self.a.rules), self.a.seats)

    def arm_b_in_words(self) -> str:
        """What arm B changes: the seats and rules that differ from arm A."""
        names = self.a.game.seat_names(self.a.rules)
        seats = [
            f"{n} plays {y} instead of {x}" for n, x, y in zip(names, self.a.seats, self.b.seats) if x != y
        ]
        rules = [
            f"{k} = {getattr(self.b.rules, k)} instead of {v}"
            for k, v in dataclasses.asdict(self.a.rules).items()
            if getattr(self.b.rules, k) != v
        ]
        return "; ".join(seats + rules) or "nothing"

    def frame(self) -> pd.DataFrame:
        """One row per measure: the plain paired difference (a, b, diff, lo, hi, se, se_independent,
        narrowing, deals); with seat rotation also A' - B' alone (`moved`, `moved lo`, `moved hi`), the
        rotated estimate (`rotated`, `rotated lo`, `rotated hi`, `rotated se`), `rotation narrowing`: the
        plain interval's width over the rotated one's, and `position gap` (`lo`, `hi`): (A - B) - (A' - B'),
        paired, how far the change's effect at its own seats is from its effect at the other side's."""
        rows = []
        for i, (m, d) in enumerate(zip(self.measures, self.differences)):
            row = {"measure": m, **d.as_dict()}
            if self.rotation is not None:
                moved, r = self.rotation.moved[i], self.rotation.differences[i]
                gap = self.rotation.gaps[i]
                row |= {
                    "moved": moved.diff,
                    "moved lo": moved.lo,
                    "moved hi": moved.hi,
                    "rotated": r.diff,
                    "rotated lo": r.lo,
                    "rotated hi": r.hi,
                    "rotated se": r.se,
                    "rotation narrowing": Rotation.narrowing(d, r),
                    "position gap": gap.diff,
                    "position gap lo": gap.lo,
                    "position gap hi": gap.hi,
                }
            rows.append(row)
        return pd.DataFrame(rows)

    def findings(self, most: int = 6) -> list[str]:
        """One sentence per measure (the first `most`): both arms' values and the paired difference, and
        whether it can be told apart from zero."""
        out = []
        unit = self.a.game.words[self.a.unit]
        for name, d in list(zip(self.measures, self.differences))[:most]:
            a, b = (pct(v) if name in self.rates else num(v) for v in (d.a, d.b))
            if d.undefined:
                out.append(f"{name}: {a} in arm A, {b} in arm B; A - B is undefined (no cases).")
                continue
            if d.same:
                verdict = f"no {unit} differs"
            elif d.clear:
                verdict = "a clear difference"
            else:
                verdict = "cannot be told apart from no difference"
            sentence = (
                f"{name}: {a} in arm A, {b} in arm B; A - B = {quoted(d, name in self.rates)}, {verdict}"
            )
            if self.margin is not None:
                sentence += f"; {self.equivalence(name, d)}"
            out.append(sentence + self.rotated_words(name) + ".")
        if self.rotation is not None:
            out.append(self.rotation_summary())
        return out

    def rotated_words(self, name: str) -> str:
        """With seat rotation, what it gives on a measure: the rotated A - B and how much narrower its
        interval is than the plain one; '' without rotation."""
        if self.rotation is None:
            return ""
        i = self.measures.index(name)
        d, r = self.differences[i], self.rotation.differences[i]
        if r.undefined:
            return "; with the seats rotated, A - B is undefined"
        unit = self.a.game.words[self.a.unit]
        verdict = (
            f"no {unit} differs"
            if r.same
            else "a clear difference"
            if r.clear
            else "cannot be told apart from no difference"
        )
        times = Rotation.narrowing(d, r)
        narrower = f", the interval {times:.2f} times narrower" if math.isfinite(times) else ""
        return f"; with the seats rotated, A - B = {quoted(r, name in self.rates)} ({verdict}{narrower})"

    def rotation_summary(self) -> str:
        """One sentence on what seat rotation bought: its narrowing over the measures, against its cost."""
        rot = self.rotation
        assert rot is not None
        times = [Rotation.narrowing(d, r) for d, r in zip(self.differences, rot.differences)]
        finite = sorted(t for t in times if math.isfinite(t))
        cost = f"playing the deals {rot.runs} times instead of 2"
        if not finite:
            return f"Seat rotation ({cost}) narrows no interval that can be compared."
        spread = (
            f"{finite[0]:.2f} times"
            if len(finite) == 1
            else f"{finite[0]:.2f} to {finite[-1]:.2f} times (median {float(np.median(finite)):.2f})"
        )
        more = rot.runs / 2  # the same play spent on more plain deals narrows by its square root
        apart = [
            f"{name} ({quoted(g, name in self.rates)})" for name, g in zip(self.measures, rot.gaps) if g.clear
        ]
        gaps = (
            f"A - B and A' - B' are apart at 95% on {'; '.join(apart)}; with the dealers balanced over the "
            "seats the two estimate the same, and one measure in twenty is apart by chance"
            if apart
            else "A - B and A' - B' cannot be told apart on any measure"
        )
        return (
            f"Seat rotation narrows the intervals by {spread}, {cost}; the plain arms on {more:g} times as "
            f"many deals would narrow them by about {math.sqrt(more):.2f} times. {gaps}."
        )

    def equivalence(self, name: str, d: Difference) -> str:
        """Whether the arms are shown within ±margin of each other on a measure (two one-sided tests at 5%:
        the 90% paired interval lies inside (-margin, margin)), in words. Where the difference's interval is
        not the normal one (a rate with few discordant deals: Newcombe's), its 95% interval must lie inside,
        which is stricter."""
        rate = name in self.rates
        margin = (self.margin or 0.0) / 100 if rate else self.margin or 0.0
        unit = "percentage points" if rate else "points"
        lo, hi = d.diff - Z90 * d.se, d.diff + Z90 * d.se
        normal = d.same or math.isclose(d.hi - d.lo, 2 * Z95 * d.se, rel_tol=1e-9, abs_tol=1e-12)
        level = "90%" if normal else "95%"
        if d.same:
            lo = hi = 0.0
        elif not normal:
            lo, hi = d.lo, d.hi
        shown = not undefined(lo, hi) and -margin < lo and hi < margin
        inside = "" if undefined(lo, hi) else f" ({level} interval {quoted_bounds(lo, hi, rate)})"
        return (
            f"within ±{self.margin:g} {unit} of each other{inside}"
            if shown
            else f"not shown to be within ±{self.margin:g} {unit}{inside}"
        )

    def provenance(self) -> dict[str, Any]:
        """Arm A's provenance with arm B's rules and seats beside it."""
        b = self.b
        names = b.game.seat_names(b.rules)
        extra: dict[str, Any] = {}
        if self.rotation is not None:
            rot = self.rotation
            extra["rotate"] = {
                "side": rot.side,
                "arm_a_seats": dict(zip(names, rot.a.seats)),
                "arm_b_seats": dict(zip(names, rot.b.seats)),
            }
        if self.precision is not None:
            extra["precision"] = self.precision.as_dict()
        seats = dict(zip(names, b.seats))
        return provenance(self.a, arm_b={"rules": dataclasses.asdict(b.rules), "seats": seats}, **extra)

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.provenance(),
            "side": self.side,
            "arm_b_changes": self.arm_b_in_words(),
            "rows": self.frame().to_dict(orient="records"),
            "findings": self.findings(),
            "elapsed": self.elapsed,
        }

    def render(self) -> list[Any]:
        """The table of paired differences, what narrowing means, arm B in words, the findings."""
        rows = []
        rot = self.rotation
        for i, (m, d) in enumerate(zip(self.measures, self.differences)):
            show = pct if m in self.rates else num
            row = [m, show(d.a), show(d.b), quoted(d, m in self.rates), _times(d.narrowing)]
            if rot is not None:
                r = rot.differences[i]
                row += [quoted(r, m in self.rates), _times(Rotation.narrowing(d, r))]
            rows.append(row)
        a = self.a
        title = (
            f"A - B on the same {a.n:,} {a.game.plural(a.unit)}, measured for {self.side} "
            "(95% paired intervals)"
        )
        columns = ["measure", "A", "B", "A - B", "narrowing"]
        notes = ["narrowing: how many times wider the interval would be on independent deals"]
        if rot is not None:
            columns += ["A - B rotated", "rotation narrows"]
            notes.append(self.rotation_in_words())
        return [
            table(title, columns, rows),
            *notes,
            f"play: {self.played()} (arm A)",
            f"arm B: {self.arm_b_in_words()}",
            *self.findings(),
            *self.precision_lines(),
        ]

    def rotation_in_words(self) -> str:
        """What the rotated columns are and what they estimate."""
        rot = self.rotation
        assert rot is not None
        a = self.a
        seats, word = len(a.seats), a.game.words[a.unit]
        mine, theirs = a.game.side_label(self.side), a.game.side_label(rot.side)
        left = a.n % seats
        first = "first " if a.unit == "match" else ""
        balance = (
            f"{a.n:,} is a multiple of {seats}"
            if left == 0
            else f"the last {left} {word}{'' if left == 1 else 's'} tilt it slightly"
        )
        return (
            f"A - B rotated: every {word} played again with each strategy moved one seat on (arms A' and B': "
            f"the change now made at {theirs}, measured for {theirs}), and per {word} the mean of A - B and "
            f"A' - B'. It is the change's effect averaged over its two positions, {mine} and {theirs}, which "
            f"is what A - B estimates when the dealers are balanced over the seats ({word} k is {first}dealt "
            f"by seat k mod {seats}; {balance}). rotation narrows: the plain interval's width over the "
            "rotated one's."
        )

    def precision_lines(self) -> list[str]:
        if self.precision is None:
            return []
        return self.precision.lines(self.a.game.plural(self.a.unit), sorted(self.rates))


def compare(  # noqa: PLR0913 (the arms, how they run, and what the findings judge)
    a: Run,
    b: Run,
    jobs: int = 0,
    progress: bool = False,
    margin: float | None = None,
    rotate: bool = False,
    precision: Sequence[Target] = (),
) -> Comparison:
    """Both arms on the same deals; per measure the value in each arm and the paired difference a - b.
    With `precision` targets, a's n is the cap and both arms grow from a pilot until each target's paired
    interval is narrow enough (simulator.precision). With `rotate`, both arms also with the seating turned
    one seat on (`turned`), on the same deals, and per measure the rotated estimate beside the plain one
    (`Rotation`); a run the turn leaves as it was (arm A with the same strategy everywhere) is played once.
    The two do not go together: the targets size the plain difference."""
    game = a.game
    if rotate and precision:
        raise DealsimError(
            "--rotate and --precision cannot be used together: a precision target sizes the plain paired "
            "difference, not the seat-rotated one; give -n instead"
        )
    sides = [rotation_sides(a, b)[0]] if rotate else changed_sides(a, b)
    cap = a.n

    def play(run: Run, earlier: Result | None) -> Result:
        return execute(run, jobs=jobs, progress=progress, earlier=earlier)

    arms = [a, b, turned(a), turned(b)] if rotate else [a, b]
    distinct: list[Run] = []
    for run in arms:
        if run not in distinct:
            distinct.append(run)
    if precision:

        def spreads(pilots: list[Result]) -> dict[str, float]:
            ma, mb = (by_name(game, r.tables, r.run.unit, sides) for r in pilots)
            return {
                t.measure: spread(ma[t.measure].influence() - mb[t.measure].influence()) for t in precision
            }

        grown, n, asked = two_stage([a, b], precision, play, spreads)
        played = [r.whole() for r in grown]  # the last one played, when cut short, says so
        if len(played) < 2:
            raise Interrupted("interrupted before arm B was played")
        a, b = played[0].run, played[1].run
        results = played
    else:
        played = [play(run, None).whole() for run in distinct]  # Ctrl-C skips the rest
        results = [played[distinct.index(run)] for run in arms]
    names, diffs, rates = [], [], set()
    for side in sides:  # every changed side's measures; measures of the whole table once
        ma, mb = (game.measures(r.tables, r.run.unit, side) for r in results[:2])
        for x, y in zip(ma, mb):
            if x.name not in names:
                names.append(x.name)
                diffs.append(paired(x, y))
                if x.binary:
                    rates.add(x.name)
    label = " and ".join(game.sides(a.rules)[i][0] for i in sides)
    elapsed = sum(r.elapsed for r in played)
    rotation = None
    if rotate:
        side, moved = rotation_sides(a, b)
        ma, mb = (game.measures(r.tables, r.run.unit, side) for r in results[:2])
        # measures come in the same order from every side's point of view: the moved side's k-th measure is
        # the changed side's k-th seen from the seats the change moved to
        ma2, mb2 = (game.measures(r.tables, r.run.unit, moved) for r in results[2:])
        rotation = Rotation(
            arms[2],
            arms[3],
            game.sides(a.rules)[moved][0],
            [paired(x, y) for x, y in zip(ma2, mb2)],
            [paired_average((x, y), (x2, y2)) for x, y, x2, y2 in zip(ma, mb, ma2, mb2)],
            [paired_gap((x, y), (x2, y2)) for x, y, x2, y2 in zip(ma, mb, ma2, mb2)],
            len(distinct),
        )
    outcome = None
    if precision:
        outcome = Outcome(
            tuple(t.text for t in precision),
            cap,
            pilot_size(dataclasses.replace(a, n=cap)),
            n,
            tuple(
                reached(t, halfwidth(d.lo, d.hi), *asked[t.measure])
                for t in precision
                for d in [diffs[names.index(t.measure)]]
            ),
            "paired difference A - B",
        )
    return Comparison(a, b, label, names, diffs, elapsed, frozenset(rates), margin, rotation, outcome)


@dataclass(frozen=True)
class Best:
    """For one measure, the settings that cannot be told apart from the best (multiple comparisons with the
    best on the same deals, simultaneous 95%: see `simulator.stats.best_set`), the best point estimate first;
    the best point estimate against the runner-up beside it."""

    measure: str
    best: int  # index of the best point estimate
    runner_up: int
    difference: Difference  # best - runner-up, paired (95%, for itself: not what decides)
    members: tuple[int, ...] = ()  # the indistinguishable set, best point estimate first; () when undefined
    lead: float = float("nan")  # simultaneous lower bound of how far the best is ahead of every other

    @property
    def defined(self) -> bool:
        """Whether the comparison has cases to go on (no setting without cases, no undefined interval)."""
        return bool(self.members)

    @property
    def clear(self) -> bool:
        """Whether one setting alone is best: the set is that one setting, with a defined comparison."""
        return len(self.members) == 1


CONFIRM_KEY = (0, 2**32 + 1)  # a spawn key no chunk uses (a chunk's is (k,), its children's (k, c))


def confirm_seed(seed: int) -> int:
    """The seed of a confirmation: drawn from SeedSequence(seed, spawn_key=CONFIRM_KEY), a stream apart from
    every chunk of the sweep, so the fresh deals are independent of the sweep's."""
    state = np.random.SeedSequence(seed, spawn_key=CONFIRM_KEY).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 31 | int(state[1]) >> 1


@dataclass(frozen=True)
class Confirmation:
    """The best sets' settings replayed on `n` fresh deals (seed `seed`, independent of the sweep's): per
    point (the indices `points`) and measure the estimate, and per measure with a defined best set the
    paired difference of each member against the set's first (the sweep's best point estimate)."""

    n: int
    seed: int
    points: list[int]
    estimates: dict[int, list[Estimate]]  # point -> [measure]
    differences: dict[str, dict[int, Difference]]  # measure -> member -> member - first, fresh deals


@dataclass(frozen=True)
class Sweep:
    """A grid of settings on common deals: per point the settings, one estimate per measure, and the paired
    difference of each point against the baseline point; per measure with a better direction, the settings
    that cannot be told apart from the best (simultaneous 95%), and the best point against the runner-up."""

    base: Run
    keys: list[str]
    points: list[dict[str, Any]]  # the settings of each point, by key
    measures: list[str]
    rates: set[str]  # the measures that are rates (shown as percentages)
    estimates: list[list[Estimate]]  # [point][measure]
    baseline: int  # index of the point the others are compared with
    differences: list[list[Difference]]  # [point][measure]: point - baseline, paired
    best: list[Best]
    side: str  # whose point of view the measures take
    confirmation: Confirmation | None = None  # the best sets replayed on fresh deals (--confirm)
    precision: Outcome | None = None  # how precision targets set the size per setting (simulator.precision)

    def label(self, i: int) -> str:
        return ", ".join(f"{k}={self.points[i][k]}" for k in self.keys)

    def grid(self) -> dict[str, list[str]]:
        """Each key's values, in the grid's order."""
        return {k: list(dict.fromkeys(str(p[k]) for p in self.points)) for k in self.keys}

    def findings(self) -> list[str]:
        """Per measure with a better direction: the one setting that is best, clearly, against every other
        (multiple comparisons with the best, simultaneous 95%, on the same deals); or, when there is none,
        the settings that cannot be told apart, the best point estimate first; "undefined (no cases)" when a
        setting has no cases to measure. A best is never named among ties."""
        out = []
        for b in self.best:
            rate = b.measure in self.rates
            i = self.measures.index(b.measure)
            if not b.defined:
                out.append(f"{b.measure}: undefined (no cases): the settings cannot be compared.")
            elif b.clear:
                lead = f"{num(100 * b.lead, digits=1)} pp" if rate else num(b.lead)
                out.append(
                    f"{b.measure}: {self.label(b.best)} is best, clearly, against every other setting: "
                    f"{self.value(b.best, i)}, ahead of each by at least {lead} (simultaneous 95%, on the "
                    f"same deals); {quoted(b.difference, rate)} against the closest, "
                    f"{self.label(b.runner_up)}."
                )
            else:
                names = [f"{self.label(m)} ({self.value(m, i)})" for m in b.members]
                listed = ", ".join(names[:-1]) + " and " + names[-1]
                out.append(
                    f"{b.measure}: no setting is clearly best: {listed} cannot be told apart "
                    "(multiple comparisons with the best, simultaneous 95%, on the same deals)."
                )
            out.extend(self.confirmed(b))
        return out

    def confirmed(self, b: Best) -> list[str]:
        """The measure's best set on the confirmation's fresh deals: each member's value there, and against
        the set's first on those deals."""
        c = self.confirmation
        if c is None or not b.defined:
            return []
        i, rate = self.measures.index(b.measure), b.measure in self.rates
        first = b.members[0]
        e = c.estimates[first][i]
        parts = [f"{self.label(first)} {pct(e.value) if rate else num(e.value)}"]
        for m in b.members[1:]:
            parts.append(f"{self.label(m)} {quoted(c.differences[b.measure][m], rate)} against it")
        return [
            f"{b.measure}, on {c.n:,} fresh {self.base.game.plural(self.base.unit)} (seed {c.seed}): "
            + "; ".join(parts)
            + "."
        ]

    def value(self, point: int, measure: int) -> str:
        """A point's value of a measure (its point estimate), as findings quote it."""
        e = self.estimates[point][measure]
        return pct(e.value) if self.measures[measure] in self.rates else num(e.value)

    def in_best_set(self, point: int, measure: str) -> bool | None:
        """Whether the point is among the settings that cannot be told apart from the best for the measure
        (None for a measure without a better direction or an undefined comparison)."""
        b = {x.measure: x for x in self.best}.get(measure)
        return None if b is None or not b.defined else point in b.members

    def provenance(self) -> dict[str, Any]:
        """The base run's provenance with each varied rule shown as varied, and the grid and baseline."""
        grid = self.grid()
        extra: dict[str, Any] = {}
        if self.confirmation is not None:
            extra["confirm"] = {"n": self.confirmation.n, "seed": self.confirmation.seed}
        if self.precision is not None:
            extra["precision"] = self.precision.as_dict()
        prov = provenance(self.base, vary=grid, baseline=self.label(self.baseline), side=self.side, **extra)
        for key, values in grid.items():
            name = key.removeprefix("rule.")
            if not key.startswith("seat.") and name in prov["rules"]:
                prov["rules"][name] = f"varied: {', '.join(values)}"
        return prov

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.provenance(),
            "rows": self.table().to_dict(orient="records"),
            "best_sets": {
                b.measure: [self.label(i) for i in b.members] if b.defined else None for b in self.best
            },
            "confirm": None if self.confirmation is None else self.confirm_table().to_dict(orient="records"),
            "findings": self.findings(),
        }

    def confirm_table(self) -> pd.DataFrame:
        """Per measure with a defined best set, each member (`first`: the set's first): its value in the sweep
        and on the fresh deals, and on the fresh deals the paired difference against the set's first (`diff`,
        `diff lo`, `diff hi`)."""
        c = self.confirmation
        values = ("sweep", "fresh", "diff")  # each with its interval's bounds
        columns = [
            *self.keys,
            "measure",
            "rate",
            "first",
            *(f"{v}{b}" for v in values for b in ("", " lo", " hi")),
        ]
        if c is None:
            return pd.DataFrame(columns=columns)
        rows = []
        for b in self.best:
            i = self.measures.index(b.measure)
            for m in b.members:
                e, fresh, d = self.estimates[m][i], c.estimates[m][i], c.differences[b.measure][m]
                rows.append(
                    {
                        **self.points[m],
                        "measure": b.measure,
                        "rate": b.measure in self.rates,
                        "first": m == b.members[0],
                        "sweep": e.value,
                        "sweep lo": e.lo,
                        "sweep hi": e.hi,
                        "fresh": fresh.value,
                        "fresh lo": fresh.lo,
                        "fresh hi": fresh.hi,
                        "diff": d.diff,
                        "diff lo": d.lo,
                        "diff hi": d.hi,
                    }
                )
        return pd.DataFrame(rows, columns=columns)

    def played(self) -> str:
        """Who played, in words: the base run's seats, and whether the grid changes them."""
        b = self.base
        who = seats_text(b.game.seat_names(b.rules), b.seats)
        varied = [k for k in self.keys if k.startswith("seat.")]
        return who + (f" ({', '.join(varied)} as swept)" if varied else "")

    def render(self) -> list[Any]:
        """Long form, so that it fits a terminal however many settings the grid has: one row per measure and
        setting (the measure named on its first row), with the value and its 95% interval and the paired
        difference against the baseline with its interval. The report (-o) has the same table as CSV."""
        b = self.base
        title = (
            f"{b.game.name}: {', '.join(self.keys)} swept; {b.n:,} {b.game.plural(b.unit)} per setting, seed "
            f"{b.seed}; {self.side}'s side; play: {self.played()}; each value with its 95% interval, and "
            f"against the baseline ({self.label(self.baseline)}) the paired difference with its interval; "
            "best set: 'in' for the settings that cannot be told apart from the best (simultaneous 95%), '-' "
            "where no direction is better or nothing is defined"
        )
        columns = ["measure", ", ".join(self.keys), "value [95%]", "against the baseline", "best set"]
        out = table(title, columns, [], text_columns=2)
        last = len(self.points) - 1
        for i, m in enumerate(self.measures):
            rate = m in self.rates
            for j, (point, e, d) in enumerate(zip(self.points, self.estimates, self.differences)):
                value = pct(e[i].value, e[i].lo, e[i].hi) if rate else num(e[i].value, e[i].lo, e[i].hi)
                out.add_row(
                    m if j == 0 else "",
                    ", ".join(str(point[k]) for k in self.keys),
                    value,
                    "baseline" if j == self.baseline else quoted(d[i], rate),
                    {True: "in", False: "", None: "-"}[self.in_best_set(j, m)],
                    end_section=j == last,
                )
        told = (
            [] if self.precision is None else self.precision.lines(b.game.plural(b.unit), sorted(self.rates))
        )
        return [out, *self.confirm_render(), *self.findings(), *told]

    def confirm_render(self) -> list[Any]:
        """The confirmation's table: each best set's members in the sweep and on the fresh deals."""
        c = self.confirmation
        if c is None:
            return []
        title = (
            f"the best sets on {c.n:,} fresh {self.base.game.plural(self.base.unit)} (seed {c.seed}): each "
            "value in the sweep and on the fresh deals, and there the paired difference against the set's "
            "first"
        )
        rows = []
        for r in self.confirm_table().to_dict(orient="records"):
            show = pct if r["rate"] else num
            rows.append(
                [
                    r["measure"],
                    ", ".join(str(r[k]) for k in self.keys),
                    show(r["sweep"], r["sweep lo"], r["sweep hi"]),
                    show(r["fresh"], r["fresh lo"], r["fresh hi"]),
                    "first"
                    if r["first"]
                    else quoted_values(r["diff"], r["diff lo"], r["diff hi"], r["rate"]),
                ]
            )
        columns = ["measure", ", ".join(self.keys), "sweep [95%]", "fresh [95%]", "against the first"]
        return [table(title, columns, rows, text_columns=2)]

    def frame(self) -> pd.DataFrame:
        """One row per point: the settings, then each measure's value, lo and hi as `name`, `name lo`,
        `name hi`."""
        rows = []
        for point, ests in zip(self.points, self.estimates):
            row = dict(point)
            for m, e in zip(self.measures, ests):
                row[m], row[f"{m} lo"], row[f"{m} hi"] = e.value, e.lo, e.hi
            rows.append(row)
        return pd.DataFrame(rows)

    def long(self, measure: str) -> pd.DataFrame:
        """One measure across the points: the settings, value, lo, hi, the paired difference against the
        baseline (`diff`, `diff lo`, `diff hi`), and `in_best_set`: whether the point cannot be told apart
        from the best (None for a measure without a better direction or with an undefined comparison)."""
        i = self.measures.index(measure)
        return pd.DataFrame(
            [
                {
                    **p,
                    "value": e[i].value,
                    "lo": e[i].lo,
                    "hi": e[i].hi,
                    "diff": d[i].diff,
                    "diff lo": d[i].lo,
                    "diff hi": d[i].hi,
                    "in_best_set": self.in_best_set(j, measure),
                }
                for j, (p, e, d) in enumerate(zip(self.points, self.estimates, self.differences))
            ]
        )

    def table(self) -> pd.DataFrame:
        """Every point and measure in one long table: value with its interval, the paired difference against
        the baseline with its interval, and whether the point is in the measure's best set."""
        return pd.concat([self.long(m).assign(measure=m) for m in self.measures], ignore_index=True)[
            [*self.keys, "measure", "value", "lo", "hi", "diff", "diff lo", "diff hi", "in_best_set"]
        ]


def settings(base: Run, vary: list[tuple[str, list[str]]]) -> list[tuple[dict[str, Any], Run]]:
    """Every point of the grid with its run; every setting is checked before anything runs."""
    out: list[tuple[dict[str, Any], Run]] = []
    for point in itertools.product(*[[(key, v) for v in values] for key, values in vary]):
        run = base
        for key, value in point:
            run = apply_setting(run, key, value)
        point_values = {key: _number(value) for key, value in point}
        for earlier, other in out:
            if plays_alike(other, run):
                raise DealsimError(
                    f"the settings {_setting(earlier)} and {_setting(point_values)} play exactly alike "
                    "(the same rules and the same strategies): drop one, or vary something the run reads"
                )
        out.append((point_values, run))
    return out


def _setting(point: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


def baseline_points(
    base: Run,
    vary: list[tuple[str, list[str]]],
    grid: list[tuple[dict[str, Any], Run]],
    baseline: Mapping[str, str] | None,
) -> list[int]:
    """The grid points that are the baseline (`baseline` names its settings; by default each key's current
    value in `base`, none where the grid lacks it); a baseline that names a key not varied or a point not
    in the grid is an error."""
    stray = [key for key in baseline or {} if key not in dict(vary)]
    if stray:
        raise DealsimError(f"the baseline sets {', '.join(stray)}, which the sweep does not vary")
    want = {
        key: _number(str(baseline[key])) if baseline and key in baseline else current_value(base, key)
        for key, _ in vary
    }
    at = [i for i, (point, _) in enumerate(grid) if all(_same(point[k], want[k]) for k in point)]
    if baseline and not at:
        grid_values = "; ".join(f"{key}: {', '.join(values)}" for key, values in vary)
        given = ", ".join(f"{k}={v}" for k, v in baseline.items())
        raise DealsimError(f"the baseline {given} is not a point of the grid ({grid_values})")
    return at


def current_value(base: Run, key: str) -> Any:
    """A setting's value in the base run (a rule option's, or a seat's strategy parameter or spec)."""
    if key.startswith("seat."):
        seat_name, _, param = key.removeprefix("seat.").partition(".")
        seat = base.game.seats_of(seat_name, base.rules)[0]
        if not param:
            return base.seats[seat]
        return getattr(base.strategies()[seat], param, None)
    return getattr(base.rules, key.removeprefix("rule."), None)


def tune(
    base: Run,
    vary: list[tuple[str, list[str]]],
    jobs: int = 0,
    progress: bool = False,
    baseline: dict[str, str] | None = None,
    confirm: int = 0,
    precision: Sequence[Target] = (),
) -> Sweep:
    """One point per setting of the grid, each on the same deals, compared pair by pair with the baseline
    point: `baseline` names its settings; by default each key's current value in `base` where the grid has
    it, else the key's first value. With `confirm` > 0, the settings of every measure's best set are played
    again on that many fresh deals from an independent seed (`confirm_seed`). With `precision` targets,
    base's n is the cap and every setting grows from a pilot until, per target, the widest paired interval
    against the baseline is narrow enough (simulator.precision)."""
    grid = settings(base, vary)
    at = baseline_points(base, vary, grid, baseline)
    side = max((focus_side(base, run) for _, run in grid), default=0)
    b = at[0] if at else 0
    cap, pilot = base.n, pilot_size(base)

    def play(run: Run, earlier: Result | None) -> Result:
        return execute(run, jobs=jobs, progress=progress, earlier=earlier)

    runs = [run for _, run in grid]
    n: int | None = None
    asked: dict[str, tuple[float, float]] = {}
    if precision:

        def spreads(pilots: list[Result]) -> dict[str, float]:
            ms = [by_name(base.game, r.tables, r.run.unit, [side]) for r in pilots]
            out = {}
            for t in precision:
                base_z = ms[b][t.measure].influence()
                others = [spread(m[t.measure].influence() - base_z) for i, m in enumerate(ms) if i != b]
                # the widest comparison decides; a sweep of one setting has only its estimate
                out[t.measure] = max(others) if others else spread(base_z)
            return out

        played, n, asked = two_stage(runs, precision, play, spreads)
        results = [r.whole() for r in played]  # the last one played, when cut short, says so
        if len(results) < len(runs):
            raise Interrupted("interrupted before every setting was played")
        base = dataclasses.replace(base, n=results[0].run.n)
    else:
        results = []
    points, estimates, per_point, names, rates, directions = [], [], [], [], set(), {}
    for i, (point, planned) in enumerate(grid):
        result = results[i] if precision else play(planned, None).whole()
        run = result.run
        measures = base.game.measures(result.tables, run.unit, side)
        names = [m.name for m in measures]
        rates = {m.name for m in measures if m.binary}
        directions = {m.name: m.better for m in measures if m.better}
        points.append(point)
        per_point.append(measures)
        estimates.append([estimate(m) for m in measures])
    differences = [[paired(m, per_point[b][j]) for j, m in enumerate(ms)] for ms in per_point]
    best = [
        best_of(name, [ms[j] for ms in per_point], directions[name] == "higher")
        for j, name in enumerate(names)
        if name in directions and len(points) >= 2
    ]
    confirmation = None
    chosen = sorted({i for b in best for i in b.members})
    if confirm > 0 and chosen:
        seed = confirm_seed(base.seed)
        fresh: dict[int, list[Measure]] = {}
        for i in chosen:
            run = dataclasses.replace(grid[i][1], n=confirm, seed=seed)
            result = execute(run, jobs=jobs, progress=progress).whole()
            fresh[i] = base.game.measures(result.tables, run.unit, side)
        confirmation = Confirmation(
            confirm,
            seed,
            chosen,
            {i: [estimate(m) for m in ms] for i, ms in fresh.items()},
            {
                b.measure: {m: paired(fresh[m][j], fresh[b.members[0]][j]) for m in b.members}
                for j, name in enumerate(names)
                for b in best
                if b.measure == name and b.defined
            },
        )
    return Sweep(
        base,
        [k for k, _ in vary],
        points,
        names,
        rates,
        estimates,
        b,
        differences,
        best,
        base.game.sides(base.rules)[side][0],
        confirmation,
        None
        if not precision
        else _swept_precision(precision, (cap, pilot, n), asked, names, estimates, differences, b),
    )


def _swept_precision(  # noqa: PLR0913 (what the sweep found, per target)
    targets: Sequence[Target],
    sizes: tuple[int, int, int | None],
    asked: dict[str, tuple[float, float]],
    names: list[str],
    estimates: list[list[Estimate]],
    differences: list[list[Difference]],
    b: int,
) -> Outcome:
    """Per target the widest half-width of the settings' paired differences against the baseline (the
    baseline's own estimate in a sweep of one setting)."""
    out = []
    for t in targets:
        j = names.index(t.measure)
        widths = [halfwidth(d[j].lo, d[j].hi) for i, d in enumerate(differences) if i != b]
        if not widths:
            widths = [halfwidth(estimates[b][j].lo, estimates[b][j].hi)]
        out.append(reached(t, max(widths), *asked[t.measure]))
    cap, pilot, n = sizes
    against = "paired difference against the baseline (the widest)"
    return Outcome(tuple(t.text for t in targets), cap, pilot, n, tuple(out), against)


def best_of(name: str, arms: Sequence[Measure], higher: bool) -> Best:
    """One measure's best set over the settings (`arms`, one per-deal measure per setting, all on the same
    deals; see `simulator.stats.best_set`), with the best point estimate against the runner-up beside it."""
    chosen = best_set(arms, higher=higher)
    sign = 1 if higher else -1
    values = [sign * a.value() for a in arms]
    # best point estimate first; a setting with no cases (NaN) last
    order = sorted(range(len(arms)), key=lambda i: float("inf") if math.isnan(values[i]) else -values[i])
    first, second = order[0], order[1]
    return Best(
        name,
        first,
        second,
        paired(arms[first], arms[second]),
        chosen.members,
        chosen.lead[first] if chosen.defined else float("nan"),
    )


def quoted_values(diff: float, lo: float, hi: float, rate: bool) -> str:
    """A difference with its interval, as `quoted` shows a `Difference`."""
    return pp(diff, lo, hi) if rate else num(diff, lo, hi, signed=True)


def _times(narrowing: float) -> str:
    """How many times narrower the paired interval is, '-' where either is undefined."""
    return f"{narrowing:.2f}x" if math.isfinite(narrowing) else "-"


def quoted(d: Difference, rate: bool) -> str:
    """A paired difference as findings quote it: in pp for rates, else in the measure's units."""
    return quoted_values(d.diff, d.lo, d.hi, rate)


def quoted_bounds(lo: float, hi: float, rate: bool) -> str:
    """An interval's bounds as findings quote them: "[-0.2, +0.3]", in pp for rates."""
    if rate:
        return f"[{100 * lo:+.1f}, {100 * hi:+.1f}] pp"
    return f"[{lo:+.2f}, {hi:+.2f}]"


def _same(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a).strip().lower() == str(b).strip().lower()


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
