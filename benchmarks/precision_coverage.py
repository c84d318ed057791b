"""How often the final 95% interval of a run with a precision target (`simulate --precision`, two-stage
rule: simulator.precision) holds the true value, seed by seed, against a truth from one large run.

    python benchmarks/precision_coverage.py       # -> benchmarks/results/precision-coverage-DATE-COMMIT.json
    python benchmarks/precision_coverage.py --seeds 400 --truth-n 2000000 -o out.json

By default: Rounds with random play at both seats, --unit deal, --chunk-size 50 (pilot 500 deals), a cap of
20,000; per target `player 0 margin per game=1` (a mean) and `stages swept=1pp` (a ratio rate), each on
its own runs for seeds 1..S, so that each target alone decides its run's size. The truth is each measure's
value over --truth-n deals from seed 10**6. Per target it reports the coverage (with a Wilson interval over
the seeds), how often the half-width met the target, and the sizes taken; and, as a control, the coverage of
plain runs of one fixed size (the median size taken) on the same seeds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from simulator import app  # noqa: E402
from simulator.precision import by_name  # noqa: E402
from simulator.provenance import measured_on  # noqa: E402
from simulator.specs import Execution, RunSpec  # noqa: E402
from simulator.stats import estimate, wilson  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
TARGETS = ["player 0 margin per game=1", "stages swept=1pp"]


def spec(seed: int, n: int, chunk_size: int | None) -> RunSpec:
    return RunSpec("rounds", n=n, seed=seed, seats={"all": "random"}, unit="deal", chunk_size=chunk_size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="seeds 1..S per target")
    parser.add_argument("--cap", type=int, default=20_000, help="-n of each run (the cap)")
    parser.add_argument("--chunk-size", type=int, default=50)
    parser.add_argument("--truth-n", type=int, default=1_000_000, help="deals of the truth run")
    parser.add_argument("--target", action="append", help=f"MEASURE=HALFWIDTH (default: {TARGETS})")
    parser.add_argument(
        "-o", "--output", type=Path, help="default: benchmarks/results/precision-coverage-..."
    )
    args = parser.parse_args(argv)
    targets = args.target or TARGETS
    names = [t.rpartition("=")[0].strip() for t in targets]
    t0 = time.perf_counter()
    long = app.simulate(spec(10**6, args.truth_n, None), Execution(jobs=1))
    found = by_name(long.run.game, long.tables, "deal", [0, 1])
    truth = {name: estimate(found[name]).value for name in names}
    truth_seconds = time.perf_counter() - t0
    out: dict[str, object] = {}
    per_seed: dict[str, list[list[object]]] = {}
    for target, name in zip(targets, names):
        rows = []
        for seed in range(1, args.seeds + 1):
            sim = app.simulate(spec(seed, args.cap, args.chunk_size), Execution(jobs=1), precision=[target])
            p = sim.precision
            assert p is not None and p.n is not None
            e = estimate(by_name(sim.run.game, sim.tables, "deal", [0, 1])[name])
            rows.append(
                [seed, p.n, p.reached[0].halfwidth, p.reached[0].met, bool(e.lo <= truth[name] <= e.hi)]
            )
        covered = sum(r[4] for r in rows)
        lo, hi = wilson(covered, len(rows))
        sizes = np.array([r[1] for r in rows])
        # the control: plain runs of one fixed size (the median size taken) on the same seeds, so that a
        # shortfall of the interval itself at that size is told apart from one of the stopping rule
        fixed = int(np.median(sizes)) // args.chunk_size * args.chunk_size
        fixed_covered = 0
        for seed in range(1, args.seeds + 1):
            sim = app.simulate(spec(seed, fixed, args.chunk_size), Execution(jobs=1))
            e = estimate(by_name(sim.run.game, sim.tables, "deal", [0, 1])[name])
            fixed_covered += bool(e.lo <= truth[name] <= e.hi)
        out[target] = {
            "truth": truth[name],
            "coverage": covered / len(rows),
            "coverage_95": [lo, hi],
            "met": sum(r[3] for r in rows) / len(rows),
            "n_mean": float(sizes.mean()),
            "n_min": int(sizes.min()),
            "n_max": int(sizes.max()),
            "capped": int(np.sum(sizes >= args.cap)),
            "halfwidth_max": max(r[2] for r in rows),
            "fixed_n": fixed,
            "fixed_n_coverage": fixed_covered / len(rows),
            "fixed_n_coverage_95": list(wilson(fixed_covered, len(rows))),
        }
        per_seed[target] = rows
    seconds = time.perf_counter() - t0
    print(json.dumps(out, indent=1))
    d = {
        **measured_on(
            "python benchmarks/precision_coverage.py " + " ".join(argv if argv is not None else sys.argv[1:])
        ),
        "runs": (
            f"dealsim simulate rounds --seat all=random --unit deal --chunk-size {args.chunk_size} "
            f"-n {args.cap} -j 1 --precision TARGET --seed 1..{args.seeds}"
        ),
        "truth_run": (
            f"dealsim simulate rounds --seat all=random --unit deal -n {args.truth_n} --seed 1000000"
        ),
        "truth_seconds": truth_seconds,
        "seconds": seconds,
        "summary": out,
        "per_seed_columns": ["seed", "n", "half-width reached", "met", "covered"],
        "per_seed": per_seed,
    }
    path = args.output or RESULTS / f"precision-coverage-{d['date'][:10]}-{d['commit']}.json"
    rows_text = {
        t: "[\n" + ",\n".join("   " + json.dumps(r) for r in rs) + "\n  ]" for t, rs in per_seed.items()
    }
    d["per_seed"] = {t: f"@{t}@" for t in per_seed}
    text = json.dumps(d, indent=1)
    for t, rows_json in rows_text.items():  # one line per seed
        text = text.replace(json.dumps(f"@{t}@"), rows_json)
    path.write_text(text + "\n")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
