"""The Rounds stage solver's speed: a stage's first lead, a stage 5 deal, and `values_along` a game.

A fixed set of games (seed 1, the seed rules) is played by the heuristic at both seats. Then, each with a
fresh solver (objective margin, no keep) so that no table helps:
- every stage 1-4's position before its first lead (9 cards each) is asked on its own (one `solve` call a
  position, the Python call included, CPU time by `time.process_time`);
- every stage 5's position before its first lead, the same way;
- `values_along` of all the games in one call, per game.
Printed: the mean and median in ms and the nodes (deterministic, unlike the times: the same nodes say the
same search).

    python benchmarks/rounds_solver_speed.py               # 1,000 games
    python benchmarks/rounds_solver_speed.py --games 200
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.rounds import solver  # noqa: E402 (the repository root goes on the path first)
from simulator.rounds.rules import RoundsRules  # noqa: E402
from simulator.rounds.view import N_STAGES  # noqa: E402
from tests.helpers import play_deals, strategy  # noqa: E402


def played_games(n: int, seed: int, rules: RoundsRules):
    """n games played by the heuristic at both seats."""
    strat = strategy("rounds", "heuristic")
    rngs = [np.random.default_rng(seed + s) for s in range(2)]
    return play_deals("rounds", np.random.default_rng(seed), rngs, np.arange(n), rules, [strat] * 2)


def time_leads(rules: RoundsRules, p: solver.Positions, rows: np.ndarray, name: str) -> dict:
    fresh = solver.RoundsSolver(rules)
    spent = np.empty(len(rows))
    for k, i in enumerate(rows):
        q = p.take(np.array([i]))
        start = time.process_time()
        fresh.solve(q)
        spent[k] = time.process_time() - start
    ms = 1000 * spent
    print(
        f"{name:22s} {len(rows)} positions: mean {ms.mean():.3f} ms, median {np.median(ms):.3f} ms, "
        f"{fresh.nodes / len(rows):,.1f} nodes a position"
    )
    return {"mean_ms": float(ms.mean()), "median_ms": float(np.median(ms)), "nodes": fresh.nodes}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="heuristic games to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games")
    args = parser.parse_args()
    rules = RoundsRules()
    s = played_games(args.games, args.seed, rules)
    p = solver.RoundsSolver(rules).positions_along(s)
    stage = np.arange(len(p)) // solver.PLAYS_PER_STAGE % N_STAGES
    first = np.arange(len(p)) % solver.PLAYS_PER_STAGE == 0
    solver.RoundsSolver(rules).values_along(s.take(np.arange(2)))  # compiled or loaded from the cache
    time_leads(rules, p, np.flatnonzero(first & (stage < N_STAGES - 1)), "a stage's first lead")
    time_leads(rules, p, np.flatnonzero(first & (stage == N_STAGES - 1)), "a stage 5 deal")
    fresh = solver.RoundsSolver(rules)
    start = time.process_time()
    fresh.values_along(s)
    spent = time.process_time() - start
    print(
        f"{'values_along':22s} {len(s)} games: {1000 * spent / len(s):.3f} ms a game, "
        f"{fresh.nodes / len(s):,.1f} nodes a game"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
