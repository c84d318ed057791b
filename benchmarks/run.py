"""The speed benchmark across commits, written as JSON and as README's ratio table.

Every game and strategy against its compiled yardstick, and each game on 1 core against all cores.

    python benchmarks/run.py                        # -> benchmarks/results/DATE-COMMIT.json, table on stdout
    python benchmarks/run.py --repeat 5 -o out.json
    python benchmarks/run.py --compare benchmarks/results/OLD.json   # and each rate against an older run

Needs the `bench` extra (numba) for the yardsticks: pip install -e '.[bench]'. Run it on a quiet machine: the
ratios are taken within one run (strategies and yardstick in turn), but a busy core still moves them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from simulator import app

RESULTS = Path(__file__).resolve().parent / "results"
# The speed targets: (game, strategy) -> (against what, at least)
TARGETS = {
    ("forty-two", "random"): ("yardstick", 0.7),
    ("rounds", "random"): ("yardstick", 0.7),
    ("franks-zoo", "random"): ("yardstick", 0.7),
    ("forty-two", "heuristic"): ("random", 0.5),
    ("rounds", "heuristic"): ("random", 0.5),
    ("franks-zoo", "greedy"): ("random", 0.5),
    ("franks-zoo", "heuristic"): ("random", 0.5),
}


def ratio_table(d: dict) -> str:
    """README's table (Markdown) from a benchmark's JSON."""
    lines = [
        "| game | strategy | rate, one core | of its yardstick | of random play | target |",
        "|---|---|---|---|---|---|",
    ]
    for g in d["strategies"]:
        y = g["yardstick_deals_per_second"]
        for spec, r in g["rates"].items():
            hands = f" ({r['hands_per_second']:,.0f} hands/s)" if r["hands_per_second"] else ""
            against, least = TARGETS.get((g["game"], spec), (None, None))
            met = {"yardstick": r["of_yardstick"], "random": r["of_random"]}.get(against)
            target = (
                ""
                if against is None
                else f"≥ {least} of {against}: {'met' if met is not None and met >= least else 'not met'}"
            )
            of_y = f"{r['of_yardstick']:.2f}" if r["of_yardstick"] is not None else "-"
            lines.append(
                f"| {g['game']} | {spec} | {r['deals_per_second']:,.0f} {g['unit']}/s{hands} | {of_y} | "
                f"{r['of_random']:.2f} | {target} |"
            )
        lines.append(
            f"| {g['game']} | **{g['yardstick']}** (numba) | "
            + (f"{y:,.0f} {g['unit']}/s" if y else "not run")
            + " | 1 | | |"
        )
    return "\n".join(lines)


def compare(new: dict, old: dict) -> str:
    """Each strategy's rate and yardstick ratio now against an older run."""
    before = {(g["game"], s): r for g in old.get("strategies", []) for s, r in g["rates"].items()}
    lines = [
        f"against {old.get('commit')} ({old.get('date', '?')}):",
        "| game | strategy | then | now | change | of yardstick then -> now |",
        "|---|---|---|---|---|---|",
    ]
    for g in new["strategies"]:
        for spec, r in g["rates"].items():
            o = before.get((g["game"], spec))
            if o is None:
                continue
            change = r["deals_per_second"] / o["deals_per_second"] - 1
            ratios = (
                f"{o['of_yardstick']:.2f} -> {r['of_yardstick']:.2f}"
                if o.get("of_yardstick") and r.get("of_yardstick")
                else "-"
            )
            lines.append(
                f"| {g['game']} | {spec} | {o['deals_per_second']:,.0f} | {r['deals_per_second']:,.0f} | "
                f"{change:+.0%} | {ratios} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-o", "--output", type=Path, help="the JSON file (default: benchmarks/results/DATE-COMMIT.json)"
    )
    parser.add_argument("-n", "--deals", type=int, help="deals per measurement (default: `dealsim bench`'s)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="measurements of each, the median counts (default 3)"
    )
    parser.add_argument("--no-scaling", action="store_true", help="skip the 1-core against all-cores runs")
    parser.add_argument(
        "--scaling-seconds",
        type=float,
        default=60.0,
        help="each game's 1-core run lasts at least this long (default 60)",
    )
    parser.add_argument("--compare", type=Path, help="an older run's JSON to compare the rates with")
    args = parser.parse_args(argv)
    started = dt.datetime.now(dt.UTC)
    b = app.bench(
        None,
        args.deals,
        every=True,
        repeat=args.repeat,
        scaling_runs=not args.no_scaling,
        scaling_seconds=args.scaling_seconds,
    )
    d = {
        **b.as_dict(),
        "date": started.isoformat(timespec="seconds"),
        "seconds": round((dt.datetime.now(dt.UTC) - started).total_seconds(), 1),
        "command": "python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    path = args.output or RESULTS / f"{started:%Y-%m-%d}-{d['commit'] or 'unknown'}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(d, indent=1, allow_nan=False) + "\n")
    print(ratio_table(d))
    for s in d["games"]:
        print(
            f"{s['game']} {s['strategy']}: speed-up on {s['cores']} cores {s['speedup']:.2f}x "
            f"({s['deals']:,} {s['unit']}, {s['seconds_one']:.1f} s on one core)"
        )
    print(f"load average before: {d['load_average']:.2f}; {d['seconds']} s; written to {path}")
    if args.compare:
        print(compare(d, json.loads(args.compare.read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
