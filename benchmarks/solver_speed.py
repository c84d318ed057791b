"""The Forty-two double-dummy solver's speed from the opening lead of heuristic contracts, and the expert's.

A fixed set of deals (seed 11) is bid and played by the heuristic; the thrown-in ones are left out, and each
remaining deal's position before its opening lead is asked of the solver on its own (one call a deal, CPU
time by `time.process_time`), with a fresh solver for each kind of question so that no table helps: `solve`
(the value) and `at_least(bid)` (whether the declarers make their bid, capped at 42). Printed: the deals,
the mean, median and 90th percentile in ms, and the nodes a deal (deterministic, unlike the times).
`--expert N` also plays N hands with all four seats expert (seed 1, one process) and prints hands a second
and the nodes its solver searched.

    python benchmarks/solver_speed.py                     # about 1,500 deals
    python benchmarks/solver_speed.py --deals 400 --expert 200
    python benchmarks/solver_speed.py --save              # also benchmarks/results/solver-COMMIT.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.fortytwo import solver  # noqa: E402 (the repository root goes on the path first)
from simulator.fortytwo.rules import FortyTwoRules  # noqa: E402
from simulator.provenance import commit as tree_commit  # noqa: E402
from strategies.fortytwo_expert import _solver as expert_solver  # noqa: E402
from tests.helpers import play_deals, strategy  # noqa: E402


def played_hands(n: int, seed: int, spec: str = "heuristic"):
    """n deals bid and played by `spec` at all four seats; the thrown-in ones left out."""
    strat = strategy("forty-two", spec)
    rngs = [np.random.default_rng(seed + s) for s in range(4)]
    s = play_deals("forty-two", np.random.default_rng(seed), rngs, np.arange(n), FortyTwoRules(), [strat] * 4)
    return s.take(np.flatnonzero(s.ctx >= 0))


def time_solver(deals: int, seed: int) -> dict:
    s = played_hands(deals, seed)
    p = solver.FortyTwoSolver().positions(s, before=0)
    bid = np.minimum(s.bid.astype(np.int64), 42)
    solver.FortyTwoSolver().solve(p.take(np.arange(1)))  # compiled or loaded from the cache
    asks = {"solve": lambda sv, q, i: sv.solve(q), "at_least(bid)": lambda sv, q, i: sv.at_least(q, bid[i])}
    out: dict = {"deals": len(p)}
    for name, ask in asks.items():
        fresh = solver.FortyTwoSolver()
        spent = np.empty(len(p))
        for i in range(len(p)):
            q = p.take(np.array([i]))
            start = time.process_time()
            ask(fresh, q, i)
            spent[i] = time.process_time() - start
        ms = 1000 * spent
        out[name] = {
            "mean_ms": round(float(ms.mean()), 3),
            "median_ms": round(float(np.median(ms)), 3),
            "p90_ms": round(float(np.percentile(ms, 90)), 3),
            "nodes_per_deal": round(fresh.nodes / len(p), 1),
        }
        print(
            f"{name:14s} {len(p)} deals: mean {ms.mean():.3f} ms, median {np.median(ms):.3f} ms, "
            f"p90 {np.percentile(ms, 90):.3f} ms, {fresh.nodes / len(p):,.0f} nodes a deal"
        )
    return out


def time_expert(hands: int) -> dict:
    """All four seats expert on `hands` deals (seed 1) in this process, after a warm-up deal."""
    expert = strategy("forty-two", "expert")
    rules = FortyTwoRules()

    def run(n: int, seed: int):
        rngs = [np.random.default_rng(seed + s) for s in range(4)]
        return play_deals("forty-two", np.random.default_rng(seed), rngs, np.arange(n), rules, [expert] * 4)

    run(2, 99)  # compiled or loaded from the cache
    searched = expert_solver(rules.count_values)  # the one solver the expert keeps for the process
    before = searched.nodes
    start, cpu = time.perf_counter(), time.process_time()
    s = run(hands, 1)
    wall, spent = time.perf_counter() - start, time.process_time() - cpu
    points = s.points.astype(np.int64)
    out = {
        "hands": hands,
        "hands_per_cpu_s": round(hands / spent, 2),
        "hands_per_wall_s": round(hands / wall, 2),
        "nodes": searched.nodes - before,
        # the same moves give the same digests (numbers that say nothing but equal or not)
        "points_digest": int(np.sum(points[:, 0] * np.arange(1, len(s) + 1)) % 1_000_000_007),
        "plays_digest": int(
            np.sum(s.plays.astype(np.int64).ravel() * np.arange(1, s.plays.size + 1)) % 1_000_000_007
        ),
    }
    print(
        f"expert x4     {hands} hands: {hands / spent:.1f} hands/s of CPU ({hands / wall:.1f} wall), "
        f"{out['nodes']:,} nodes; "
        f"digests: points {out['points_digest']}, plays {out['plays_digest']}"
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=2000, help="deals to bid and play (thrown-in ones left out)"
    )
    parser.add_argument("--seed", type=int, default=11, help="seed of the deals")
    parser.add_argument("--expert", type=int, default=0, metavar="N", help="also time N all-expert hands")
    parser.add_argument("--no-solver", action="store_true", help="skip the solver's timing")
    parser.add_argument("--save", action="store_true", help="write the figures to benchmarks/results/")
    args = parser.parse_args()
    result: dict = {"commit": tree_commit(), "seed": args.seed}
    if not args.no_solver:
        result["solver"] = time_solver(args.deals, args.seed)
    if args.expert:
        result["expert"] = time_expert(args.expert)
    if args.save:
        path = ROOT / "benchmarks" / "results" / f"solver-{result['commit']}.json"
        path.write_text(json.dumps(result, indent=1) + "\n")
        print(f"saved {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
