"""Experiments built of several runs on common deals: paired comparisons of two arms and sweeps over rule
or strategy parameters. Every arm uses the same seed and chunking, so every arm plays the same deals."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import pandas as pd

from reports.estimates import estimate, paired
from simulator import games
from simulator.errors import DealsimError
from simulator.options import build, parse_pairs
from simulator.runner import Run, execute, seat_strategies
from strategies import with_params


def parse_values(text: str) -> list[str]:
    """'28,30,32' -> the values; 'lo:hi' or 'lo:hi:step' -> lo, lo+step, ..., hi (inclusive)."""
    if ":" in text and "," not in text:
        parts = text.split(":")
        try:
            lo, hi, step = (Decimal(p) for p in (parts + ["1"])[:3]) if len(parts) in (2, 3) else (None,) * 3
        except InvalidOperation:
            lo = None
        if lo is None or step <= 0 or hi < lo:
            raise DealsimError(f"--vary: expected lo:hi or lo:hi:step with lo <= hi and step > 0, got {text!r}")
        count = int((hi - lo) / step) + 1
        if count > 1000:
            raise DealsimError(f"--vary: {text!r} makes {count} values; at most 1000")
        return [str(lo + i * step) for i in range(count)]
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise DealsimError(f"--vary: no values in {text!r}")
    return values


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    out = []
    for key, values in parse_pairs("--vary", items).items():
        out.append((key, parse_values(values)))
    return out


def apply_setting(base: Run, key: str, value: str) -> Run:
    """The run with one setting changed: a rule option (`min_bid`, `rule.min_bid`), a strategy parameter
    (`seat.NS.threshold`) or a seat's whole strategy (`seat.EW`)."""
    game = games.get(base.game)
    if key.startswith("seat."):
        _, _, rest = key.partition(".")
        seat_name, _, param = rest.partition(".")
        seats = list(base.seats)
        for s in game.seats_of(seat_name, base.rules):
            seats[s] = with_params(seats[s], {param: value}) if param else value
        run = dataclasses.replace(base, seats=tuple(seats))
        seat_strategies(run.game, run.seats)  # a bad parameter or value fails here, clearly
        return run
    name = key.removeprefix("rule.")
    rules = build(type(base.rules), "rule", {name: value}, base=base.rules)
    return dataclasses.replace(base, rules=rules, seats=game.fit_seats(base.seats, rules))


def sides(game, rules) -> list[tuple[str, list[int]]]:
    """The sides a comparison can take the view of: the named seat groups, or else each seat."""
    groups = game.seat_groups(rules)
    if groups:
        return [(name, list(seats)) for name, seats in groups.items()]
    return [(name, [i]) for i, name in enumerate(game.seat_names(rules))]


def focus_side(game, a: Run, b: Run) -> int:
    """The side whose seats differ between the arms (the first side when both or neither do)."""
    changed = {s for s, (x, y) in enumerate(zip(a.seats, b.seats)) if x != y}
    for i, (_, seats) in enumerate(sides(game, a.rules)):
        if changed and changed <= set(seats):
            return i
    return 0


def compare(a: Run, b: Run, jobs: int = 0, progress: bool = False) -> dict[str, Any]:
    """Both arms on the same deals; per measure the value in each arm and the paired difference a - b."""
    game = games.get(a.game)
    side = focus_side(game, a, b)
    results = [execute(run, jobs=jobs, progress=progress) for run in (a, b)]
    if not all(r.complete for r in results):
        raise DealsimError("interrupted: a comparison needs both arms complete")
    ma, mb = (game.measures(r.tables, r.run.unit, side) for r in results)
    rows = [{"measure": x.name, **paired(x, y)} for x, y in zip(ma, mb)]
    return {"side": sides(game, a.rules)[side][0], "rows": rows, "elapsed": sum(r.elapsed for r in results)}


def tune(base: Run, vary: list[tuple[str, list[str]]], jobs: int = 0, progress: bool = False) -> pd.DataFrame:
    """One row per point of the grid: the setting values, then each measure's value and 95% interval."""
    game = games.get(base.game)
    rows = []
    for point in itertools.product(*[[(key, v) for v in values] for key, values in vary]):
        run = base
        for key, value in point:
            run = apply_setting(run, key, value)
        result = execute(run, jobs=jobs, progress=progress)
        if not result.complete:
            raise DealsimError("interrupted: the sweep is incomplete")
        row: dict[str, Any] = {key: _number(value) for key, value in point}
        measures = game.measures(result.tables, run.unit, 0)
        rates = [m.name for m in measures if m.binary]
        for m in measures:
            e = estimate(m)
            row[m.name], row[f"{m.name} lo"], row[f"{m.name} hi"] = e["value"], e["lo"], e["hi"]
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.attrs["rates"] = rates  # the measures that are rates (shown as percentages)
    return frame


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def tune_report(frame: pd.DataFrame, vary: list[tuple[str, list[str]]], measures: Sequence[str], provenance: dict,
                command: str):
    """The sweep as a report: the table, then one plot per measure against the first setting."""
    from reports.html import Report, rate_plot

    keys = [k for k, _ in vary]
    report = Report(f"{provenance.get('game', '')} tuning sweep: {', '.join(keys)}", provenance, command)
    report.text("Every row plays the same deals (common random numbers); intervals are 95%.")
    report.table("tune", frame, "One row per setting")
    for m in measures:
        part = frame[[*keys, m, f"{m} lo", f"{m} hi"]].rename(columns={m: "value", f"{m} lo": "lo", f"{m} hi": "hi"})
        fig = rate_plot(part, keys[0], group=keys[1] if len(keys) > 1 else None, title=m, ylabel=m,
                        percent=m in frame.attrs.get("rates", ()))
        report.figure(f"tune_{m}", fig, f"{m} against {keys[0]}")
    return report


def compare_report(result: dict[str, Any], provenance: dict, command: str):
    from reports.html import Report

    frame = pd.DataFrame(result["rows"])
    report = Report(f"{provenance.get('game', '')} paired comparison", provenance, command)
    report.text(f"Arm A against arm B on the same deals, from {result['side']}'s side. 'narrowing' is how many "
                "times wider the 95% interval would be on independent deals.")
    report.table("compare", frame, "Paired differences a - b")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(frame)))
    y = range(len(frame))
    ax.errorbar(frame["diff"], list(y), xerr=[frame["diff"] - frame["lo"], frame["hi"] - frame["diff"]],
                fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(list(y), frame["measure"])
    ax.set_xlabel("a - b (95% paired interval)")
    report.figure("compare", fig, "Paired differences with 95% intervals")
    return report
