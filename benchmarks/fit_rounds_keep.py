"""Fit the Rounds expert's keep worth (`strategies.rounds_expert.KEEP_WORTH`): what a card carried into the
next stage is worth there, by rank.

Games of the heuristic against itself (seed 5); for stages 2 to 5, the players' stage margin (player 0's
stage score less player 1's) is fitted by least squares on, for each rank, how many more cards of it player
0 carried over from the stage before than player 1 did (the four cards each kept), with a term for who deals
the stage. Each player keeps four cards, so only the worths' differences are defined: the fit is the one
whose worths sum to zero (least squares' minimum norm). Prints the thirteen worths (2..A) with their
standard errors, ready to paste.

    python benchmarks/fit_rounds_keep.py                 # 200,000 games, about half a minute
    python benchmarks/fit_rounds_keep.py --games 5000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.rounds import cards as C  # noqa: E402 (the repository root goes on the path first)
from simulator.rounds.rules import RANK_NAMES, RoundsRules  # noqa: E402
from tests.helpers import play_deals, strategy  # noqa: E402


def carried_ranks(s, k: int, p: int) -> np.ndarray:
    """(n, 13) how many cards of each rank player p kept at the end of stage k (0-based) for the next."""
    ar = np.arange(len(s))
    gone = np.zeros(len(s), np.uint64)
    for j in range(10):
        gone |= C.BIT[s.plays[ar, 10 * k + j].astype(np.intp)]
    kept = s.dealt[:, k, p] & ~gone
    bits = ((kept[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)
    return bits.reshape(len(s), 4, 13).sum(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    args = parser.parse_args()
    rules = RoundsRules()
    strat = strategy("rounds", "heuristic")
    rngs = [np.random.default_rng(5 + s) for s in range(2)]
    s = play_deals("rounds", np.random.default_rng(5), rngs, np.arange(args.games), rules, [strat] * 2)
    xs, ys = [], []
    for k in range(4):
        x = carried_ranks(s, k, 0) - carried_ranks(s, k, 1)
        dealer = (s.first_dealer.astype(np.int64) ^ ((k + 1) & 1)) * 2 - 1  # +1: player 1 deals
        xs.append(np.column_stack([x, dealer, np.ones(len(s))]))
        ys.append(s.stage_score[:, k + 1, 0].astype(np.int64) - s.stage_score[:, k + 1, 1])
    x, y = np.concatenate(xs).astype(np.float64), np.concatenate(ys).astype(np.float64)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    cov = np.linalg.pinv(x.T @ x) * resid.var(ddof=x.shape[1])
    se = np.sqrt(np.diag(cov))
    print(f"{args.games} games, {len(y)} stages; worth of a card carried over, margin points:")
    for r in range(13):
        print(f"  {RANK_NAMES[r]:>2} {coef[r]:+.2f} ± {se[r]:.2f}")
    print(f"  dealer (player 1 deals) {coef[13]:+.2f} ± {se[13]:.2f}")
    print("KEEP_WORTH = np.array([" + ", ".join(f"{c:.2f}" for c in coef[:13]) + "])")


if __name__ == "__main__":
    main()
