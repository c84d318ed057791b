"""Every rule option of Forty-two (`shared/rules/forty-two.md`); the defaults are the seed's rules."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.errors import DealsimError
from simulator.options import Needs, needs, option

# doubles_low orders the doubles of a no-trump hand: read only where no-trump may be named
_NO_TRUMP = Needs(
    "declarations including no-trump", lambda rules: rules.declares("no-trump"), ("declarations",)
)


@dataclass(frozen=True)
class FortyTwoRules:
    count_values: str = option(
        "seed",
        "points of the count dominoes: seed = 7 each, texas = 5-0 4-1 3-2 score 5 and 5-5 6-4 score 10",
        choices=("seed", "texas"),
    )
    auction: str = option(
        "seed",
        "seed = each player bids at most once, ends after three passes in a row "
        "following a bid; one-lap = each player calls exactly once",
        choices=("seed", "one-lap"),
    )
    jump_bids: bool = option(False, "false = 84 only over a 42; true = 84 over any lower bid, or to open")
    min_bid: int = option(30, "the lowest numeric bid", lo=1, hi=42)
    all_pass: str = option(
        "redeal",
        "when the first three players pass: redeal = the dealer may pass too, and "
        "four passes throw the hand in (the next dealer deals); dealer_forced = stuck "
        "dealer: he may not pass and must bid (at least min_bid), so no hand is thrown in",
        choices=("redeal", "dealer_forced"),
    )
    target: int = option(
        250,
        "a game ends when a side's total reaches this",
        lo=1,
        hi=100_000,
        read_if=needs(scoring="points"),
        match_only=True,
    )
    # Texas 42 as played (the rules file's last section); the seed's defaults keep every one off.
    declarations: str = option(
        "pips",
        "what the declarer may name, a comma list: pips (a pip suit; always), "
        "doubles (the doubles are trumps), no-trump (follow me)",
    )
    doubles_low: bool = option(
        False, "no-trump: a double ranks lowest in its suit instead of highest", read_if=_NO_TRUMP
    )
    nello: bool = option(
        False,
        "nello: with a bid of 42 or more the declarer may name nello and must lose "
        "every trick, his partner sitting out",
    )
    nello_doubles: str = option(
        "suit",
        "nello: doubles form their own suit (6-6 high), or rank high or low in their pip suit",
        choices=("suit", "high", "low"),
        read_if=needs(nello=True),
    )
    plunge: bool = option(
        False,
        "plunge: with four doubles, bid four marks (or one more than the bid, at most "
        "five); the partner names trumps and leads, the side must take every trick",
    )
    splash: bool = option(False, "splash: as plunge with three doubles, for two marks (or one more)")
    sevens: bool = option(
        False,
        "sevens: with a bid of 42 or more, name sevens: everyone plays the domino "
        "closest to seven pips, the closest wins; the side must take every trick",
    )
    scoring: str = option(
        "points",
        "points = each side scores its points (seed); marks = a made contract wins "
        "its marks (30-42 one, 84 two, 126 three, 168 four, 210 five; above 84 each bid "
        "is one mark more, and over a 210 only a pass), a set one gives them to the defenders",
        choices=("points", "marks"),
    )
    target_marks: int = option(
        7,
        "marks: a game ends when a side has this many marks",
        lo=1,
        hi=1_000,
        read_if=needs(scoring="marks"),
        match_only=True,
    )
    play_out: bool = option(
        False,
        "marks: true = play all seven tricks; false = a hand stops once made or set",
        read_if=needs(scoring="marks"),
    )

    def __post_init__(self) -> None:
        named = [d.strip() for d in self.declarations.split(",")]
        unknown = set(named) - {"pips", "doubles", "no-trump"}
        if unknown or "pips" not in named:
            raise DealsimError(
                f"rule declarations: a comma list of pips, doubles, no-trump with pips in it, not "
                f"{self.declarations!r}"
            )

    def declares(self, what: str) -> bool:
        """Whether the declarer may name `what` (doubles or no-trump)."""
        return what in [d.strip() for d in self.declarations.split(",")]


TEXAS = {
    "count_values": "texas",
    "auction": "one-lap",
    "jump_bids": True,
    "all_pass": "redeal",
    "declarations": "pips,doubles,no-trump",
    "scoring": "marks",
}
PRESETS: dict[str, dict[str, object]] = {
    "seed": {},
    # Tournament Texas 42: 5/10 count, one lap, jump bids, pips, doubles and no-trump, marks to 7.
    "texas": TEXAS,
    # Texas 42 at home: the tournament game with nello, plunge, splash and the stuck dealer.
    "texas-house": {**TEXAS, "nello": True, "plunge": True, "splash": True, "all_pass": "dealer_forced"},
    # The points game of the earlier `texas` preset (5/10 count, one lap, jump bids, pips only).
    "texas-points": {"count_values": "texas", "auction": "one-lap", "jump_bids": True, "all_pass": "redeal"},
}
