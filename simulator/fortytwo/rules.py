"""Every rule option of Forty-two (`shared/rules/forty-two.md`); the defaults are the seed's rules."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.options import option


@dataclass(frozen=True)
class FortyTwoRules:
    count_values: str = option("seed", "points of the count dominoes: seed = 7 each, texas = 5-0 4-1 3-2 "
                               "score 5 and 5-5 6-4 score 10", choices=("seed", "texas"))
    auction: str = option("seed", "seed = each player bids at most once, ends after three passes in a row "
                          "following a bid; one-lap = each player calls exactly once",
                          choices=("seed", "one-lap"))
    jump_bids: bool = option(False, "false = 84 only over a 42; true = 84 over any bid (168 is only ever "
                             "bid over 84)")
    min_bid: int = option(30, "the lowest numeric bid", lo=1, hi=42)
    all_pass: str = option("redeal", "when the first three players pass: redeal = the dealer may pass too, and "
                           "four passes throw the hand in (the next dealer deals); dealer_forced = stuck "
                           "dealer: he may not pass and must bid (at least min_bid), so no hand is thrown in",
                           choices=("redeal", "dealer_forced"))
    target: int = option(250, "a game ends when a side's total reaches this", lo=1, hi=100_000)


PRESETS: dict[str, dict[str, object]] = {
    "seed": {},
    # The usual Texas 42 for points, so published Texas 42 figures can be checked against the engine.
    "texas": {"count_values": "texas", "auction": "one-lap", "jump_bids": True, "all_pass": "redeal"},
}
