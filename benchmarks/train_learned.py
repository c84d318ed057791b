"""Train the learned Forty-two strategy's model from scratch (strategies/fortytwo_learned.py) and write it.

The training data is made by dealsim itself (strategies/fortytwo_learned_fit.py): hands played by the
heuristic with every legal play valued by the double-dummy solver for the play policy, then contracts
played out by that policy for the bid estimate.

Run: python benchmarks/train_learned.py [--seed S] [--bid-deals N] [--play-hands N] [--explore P] [--jobs J]
     [--out PATH]
The defaults make the shipped model (strategies/data/fortytwo_learned.npz).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from strategies.fortytwo_learned import MODEL_PATH, load_model, save_model
from strategies.fortytwo_learned_fit import PlayOptions, train

DEFAULTS = {"seed": 42, "bid_deals": 100_000, "play_hands": 16_000, "explore": 0.1}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="the training run's seed")
    parser.add_argument("--bid-deals", type=int, default=DEFAULTS["bid_deals"], help="deals for the bid fit")
    parser.add_argument(
        "--play-hands", type=int, default=DEFAULTS["play_hands"], help="hands for the play fit"
    )
    parser.add_argument("--explore", type=float, default=DEFAULTS["explore"], help="chance of a uniform play")
    parser.add_argument(
        "--aim",
        choices=("points", "score"),
        default="points",
        help="play labels: the mover's side's final points, or the hand's score difference (points scoring)",
    )
    parser.add_argument(
        "--policy",
        default="",
        help="an npz model whose learned strategy bids and plays the training hands (default: the heuristic)",
    )
    parser.add_argument("--jobs", "-j", type=int, default=2, help="processes making the play data")
    parser.add_argument("--out", type=Path, default=MODEL_PATH, help="where the model's npz goes")
    args = parser.parse_args(argv)
    command = "python benchmarks/train_learned.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    model, figures = train(
        args.seed,
        args.bid_deals,
        args.play_hands,
        PlayOptions(args.explore, args.aim, args.policy),
        command.strip(),
        print,
        args.jobs,
    )
    save_model(args.out, model)
    load_model(args.out)  # it loads
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) in {time.perf_counter() - start:.0f}s")
    for name, value in figures.items():
        print(f"{name}={value:.4g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
