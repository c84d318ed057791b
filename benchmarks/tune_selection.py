"""How often tune's decision picks the true best setting: the best set (multiple comparisons with the best,
simultaneous 95%) against the old rule (the best point estimate, "clearly" when its 95% interval against the
runner-up excludes 0), seed by seed on the same sweep.

    python benchmarks/tune_selection.py          # -> benchmarks/results/tune-selection-DATE-COMMIT.json
    python benchmarks/tune_selection.py --seeds 200 -o out.json

The sweep, by default: `dealsim tune forty-two --vary seat.NS.margin=-1,0,1,2,3 --unit deal -n 400`, seeds
1..S, one worker; the measure "NS score margin per hand". Its true values (from far longer runs) are
-2.08, -0.32, +0.04, -0.10, -0.32: the best is margin=1, with margin=2 close behind (a flat optimum).
`--truth-n N` measures the true values afresh on N deals per setting from a seed outside 1..S.

Per seed it records the best set and the old rule's pick. It reports how often the set holds the true best,
how often one setting alone is named best (and how often that is the true best), the set's mean size, and
for the old rule how often its best point estimate is the true best and how often it said "clearly" (and
was right).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator import app  # noqa: E402
from simulator.provenance import measured_on  # noqa: E402
from simulator.specs import Execution, RunSpec  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
TRUE = [-2.08, -0.32, 0.04, -0.10, -0.32]  # NS score margin per hand at margin -1, 0, 1, 2, 3


def sweep(seed: int, n: int, vary: str, measure: str):
    s = app.tune(RunSpec("forty-two", n=n, seed=seed, unit="deal"), [vary], execution=Execution(jobs=1))
    return s, {b.measure: b for b in s.best}[measure]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds 1..S")
    parser.add_argument("-n", type=int, default=400, help="deals per setting")
    parser.add_argument("--vary", default="seat.NS.margin=-1,0,1,2,3")
    parser.add_argument("--measure", default="NS score margin per hand")
    parser.add_argument(
        "--truth-n", type=int, default=0, help="measure the true values on N deals (0: given)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="default: benchmarks/results/tune-selection-DATE-COMMIT.json"
    )
    args = parser.parse_args(argv)
    truth = TRUE
    if args.truth_n:
        long, _ = sweep(10**9 + 7, args.truth_n, args.vary, args.measure)
        i = long.measures.index(args.measure)
        truth = [e[i].value for e in long.estimates]
    best = max(range(len(truth)), key=lambda i: truth[i])
    t0 = time.perf_counter()
    rows = []
    for seed in range(1, args.seeds + 1):
        s, b = sweep(seed, args.n, args.vary, args.measure)
        old_clear = not b.difference.lo <= 0 <= b.difference.hi
        rows.append(
            {
                "seed": seed,
                "set": [s.label(i) for i in b.members],
                "in_set": best in b.members,
                "single": b.clear,
                "single_right": b.clear and b.members[0] == best,
                "old_best": s.label(b.best),
                "old_right": b.best == best,
                "old_clear": old_clear,
                "old_clear_right": old_clear and b.best == best,
                "size": len(b.members),
                "set_at": list(b.members),
                "old_at": b.best,
            }
        )
    seconds = time.perf_counter() - t0
    k = len(rows)

    def share(key: str) -> float:
        return sum(bool(r[key]) for r in rows) / k

    summary = {
        "seeds": k,
        "true_best": s.label(best),
        "set_holds_true_best": share("in_set"),
        "single_best_named": share("single"),
        "single_best_right": share("single_right"),
        "single_best_wrong": share("single") - share("single_right"),
        "mean_set_size": sum(r["size"] for r in rows) / k,
        "old_best_is_true_best": share("old_right"),
        "old_said_clearly": share("old_clear"),
        "old_said_clearly_and_right": share("old_clear_right"),
        "old_said_clearly_and_wrong": share("old_clear") - share("old_clear_right"),
    }
    print(json.dumps(summary, indent=1))
    d = {
        **measured_on(
            "python benchmarks/tune_selection.py " + " ".join(argv if argv is not None else sys.argv[1:])
        ),
        "sweep": f"dealsim tune forty-two --vary {args.vary} --unit deal -n {args.n} -j 1 --seed 1..{k}",
        "measure": args.measure,
        "true_values": truth,
        "seconds": seconds,
        "summary": summary,
        # per seed: the best set and the old rule's pick, as labels' positions in the grid
        "per_seed_columns": ["seed", "best set", "old best", "old said clearly"],
        "per_seed": [[r["seed"], r["set_at"], r["old_at"], r["old_clear"]] for r in rows],
    }
    path = args.output or RESULTS / f"tune-selection-{d['date'][:10]}-{d['commit']}.json"
    per_seed = d.pop("per_seed")
    text = json.dumps(d, indent=1)[:-2] + ',\n "per_seed": [\n'
    text += ",\n".join("  " + json.dumps(r) for r in per_seed) + "\n ]\n}\n"
    path.write_text(text)
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
