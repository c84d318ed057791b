"""How much the unit of an interval matters: 95% half-widths computed as if every hand (or request) were
independent, against the run's unit as the independent one (the game, or the deal), on the same tables.

    python benchmarks/unit_intervals.py                      # the sizes below, seed 1
    python benchmarks/unit_intervals.py --games 500 --deals 5000

- help-value: the share of help requests granted and the requests per junior hand, arm A of the default
  setting (5 players, captured hedgehogs, heuristic on every seat), `--games` games;
- bid-guide: the expected gain over passing at 30 over all hands and at 33 for 4 trumps with the trump
  double and one other double, `--deals` deals x 4 hands;
- the run summaries: Frank's Zoo seat 0's points per hand and Forty-two's contract success in match runs of
  `--games` games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reports import bid_guide, help_value  # noqa: E402
from simulator import tallies  # noqa: E402
from simulator.runner import execute, map_chunks  # noqa: E402
from simulator.specs import RunSpec  # noqa: E402
from simulator.stats import Z95, mean_se, wilson  # noqa: E402


def half(lo: float, hi: float) -> float:
    return (hi - lo) / 2


def show(name: str, value: float, before: float, after: float, scale: float = 1.0, unit: str = "") -> None:
    print(
        f"{name}: {scale * value:.3f}{unit}; half-width independent {scale * before:.4f}, "
        f"by unit {scale * after:.4f} (x{after / before:.2f})"
    )


def help_value_figures(games: int, seed: int) -> None:
    base = RunSpec("franks-zoo", n=games, seed=seed, seats={"all": "heuristic"}, unit="match").build()
    h = execute(help_value._arm(base, 5, "captured"), jobs=1).whole().tables["deals"]
    f = help_value._frequency(h)
    lo, hi = wilson(f["helps given"], f["requests"])
    show(
        "help-value: requests granted",
        f["granted"],
        half(lo, hi),
        half(f["granted lo"], f["granted hi"]),
        100,
        "%",
    )
    juniors = h.loc[h["role"] == "junior", "help_asked"]
    show(
        "help-value: requests per junior hand",
        f["requests per junior hand"],
        Z95 * mean_se(juniors)[1],
        Z95 * f["requests se"],
    )


def bid_guide_figures(deals: int, seed: int) -> None:
    run = RunSpec("forty-two", n=deals, seed=seed, unit="deal").build()
    hands = pd.concat(map_chunks(bid_guide._play, run, 1, False, "bid-guide"), ignore_index=True)
    hands["other doubles"] = hands["other doubles"].clip(upper=3)
    shape = (hands["trumps"] == 4) & (hands["trump double"] == 1) & (hands["other doubles"] == 1)
    for label, part, bid in (
        ("all hands", hands, 30),
        ("4 trumps, trump double, 1 other double", hands[shape], 33),
    ):
        row = bid_guide.ladder(part.assign(all=1), ["all"])
        row = row[row["bid"] == bid].iloc[0]
        diff = bid_guide.score_difference(part["points"].to_numpy(np.int64), bid)
        show(
            f"bid-guide: gain over passing at {bid}, {label} ({len(part):,} hands)",
            row["expected"],
            Z95 * mean_se(diff)[1],
            half(row["expected_lo"], row["expected_hi"]),
        )


def summary_figures(games: int, seed: int) -> None:
    zoo = RunSpec("franks-zoo", n=games, seed=seed, unit="match").build()
    h = execute(zoo, jobs=1).whole().tables["deals"]
    seat0 = (h["player"] == 0).to_numpy()
    by_game = tallies.finish(tallies.mean(h["points"][seat0], tallies.units_of(h)[seat0]))
    show(
        f"Frank's Zoo summary: seat 0 points per hand ({games:,} games)",
        by_game.mean,
        Z95 * mean_se(h["points"][seat0])[1],
        Z95 * by_game.se,
    )
    ft = RunSpec("forty-two", n=games, seed=seed, unit="match").build()
    d = execute(ft, jobs=1).whole().tables["deals"]
    on = ~d["thrown_in"].to_numpy(bool)
    made = d["made"][on].to_numpy(bool)
    r = tallies.finish(tallies.rate(made, np.ones(len(made)), tallies.units_of(d)[on]))
    show(
        f"Forty-two summary: contract success ({games:,} games)",
        r.rate,
        half(*wilson(int(made.sum()), len(made))),
        half(r.lo, r.hi),
        100,
        "%",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per match run (default 2,000)")
    parser.add_argument("--deals", type=int, default=50_000, help="bid-guide deals (default 50,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    args = parser.parse_args()
    help_value_figures(args.games, args.seed)
    bid_guide_figures(args.deals, args.seed)
    summary_figures(args.games, args.seed)


if __name__ == "__main__":
    main()
