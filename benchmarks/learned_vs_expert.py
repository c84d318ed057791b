"""The learned Forty-two strategy's play against the expert's, on the same deals and the same contracts.

The heuristic bids and names trumps for all four seats, so both arms play identical contracts; then the
hands are played out twice, all four seats by the learned strategy (`strategies.fortytwo_learned`) and all
four by the expert (`strategies.fortytwo_expert`, its defaults). The double-dummy solver values every
position along each played hand (`simulator.fortytwo.quality`, what `--measure play-quality` writes): the
points the declaring side's own plays gave away against perfect play, and the defenders'. Printed: each
arm's mean per played hand and the paired difference learned - expert with its 95% interval
(`simulator.stats.paired`), for declarers and defenders.

The expert plays some tens of hands a second; 1,000 deals take under a minute with the solving.

Run: python benchmarks/learned_vs_expert.py [--deals N] [--seed S] [--preset seed|texas] [--model NPZ]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulator.fortytwo import core
from simulator.fortytwo import quality as play_quality
from simulator.fortytwo.core import HandState
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import CALL, DONE, PLAY, TRUMP
from simulator.stats import Measure, paired
from strategies.fortytwo import FortyTwoStrategy, Heuristic
from strategies.fortytwo_expert import Expert
from strategies.fortytwo_learned import Learned


def contracts(rng: np.random.Generator, n: int, rules: FortyTwoRules) -> HandState:
    """`n` deals bid and named by the heuristic in every seat, stopped at the opening lead (a hand thrown in
    is finished)."""
    s = core.deal(rng, np.arange(n))
    bidder = Heuristic()
    while np.isin(s.phase, (CALL, TRUMP)).any():
        for kind in (CALL, TRUMP):
            rows = np.flatnonzero(s.phase == kind)
            if len(rows):
                view, legal = core.inputs(s, rows, kind, rules)
                core.apply(s, rows, kind, bidder.decide(kind, view, legal, rng), rules)
    return s


def play_out(
    s: HandState, player: FortyTwoStrategy, rng: np.random.Generator, rules: FortyTwoRules
) -> HandState:
    """A copy of `s` played to the end by `player` in all four seats."""
    s = s.take(np.arange(len(s)))
    while (s.phase == PLAY).any():
        rows = np.flatnonzero(s.phase == PLAY)
        view, legal = core.inputs(s, rows, PLAY, rules)
        core.apply(s, rows, PLAY, np.asarray(player.decide(PLAY, view, legal, rng), np.intp), rules)
    assert (s.phase == DONE).all()
    return s


def given_away(s: HandState, rules: FortyTwoRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal: the points the declaring side gave away, the defenders', and whether the hand was played."""
    q = play_quality.play_quality(s, rules)
    side = (s.high_bidder & 1).astype(np.int64)
    ns, ew = q["gave_away_ns"].astype(float), q["gave_away_ew"].astype(float)
    declarers = np.where(side == 1, ew, ns)
    defenders = np.where(side == 1, ns, ew)
    played = s.high > 0
    return np.where(played, declarers, 0.0), np.where(played, defenders, 0.0), played.astype(float)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals played by both arms")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="seed", help="the rules' preset")
    parser.add_argument(
        "--model", default="", help="the learned strategy's npz model (default: the shipped one)"
    )
    args = parser.parse_args(argv)
    rules = FortyTwoRules(**PRESETS[args.preset])  # type: ignore[arg-type]
    rng = np.random.default_rng(args.seed)
    start = contracts(rng, args.deals, rules)
    arms: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for name, player in (("learned", Learned(model=args.model)), ("expert", Expert())):
        t0 = time.perf_counter()
        done = play_out(start, player, np.random.default_rng(args.seed + 1), rules)
        t1 = time.perf_counter()
        arms[name] = given_away(done, rules)
        print(f"{name}: played in {t1 - t0:.1f}s, solved in {time.perf_counter() - t1:.1f}s")
    played = arms["learned"][2]
    print(f"preset {args.preset}, seed {args.seed}: {int(played.sum()):,} of {args.deals:,} deals played")
    print("points given away per played hand against perfect play, learned - expert, paired [95%]:")
    for i, role in enumerate(("declarers", "defenders")):
        a = Measure(f"learned {role}", arms["learned"][i], played)
        b = Measure(f"expert {role}", arms["expert"][i], played)
        print(f"  {role}: {paired(a, b)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
