"""What a Forty-two seat may see when it decides, and how its decisions are encoded.

Decision kinds and their actions:
- CALL: 0 = pass, 1..42 = bid that many points, 43 = bid 84, 44 = bid 168 (`BID_VALUE[action]`), 45 = bid
  126 and 48 = bid 210 (three and five marks: only with `scoring = marks`, whose ladder is 42, 84, 126, 168,
  210), 46 = PLUNGE, 47 = SPLASH. A plunge is worth 42 x max(4, marks of the current high bid + 1), a splash
  42 x max(2, marks + 1), where the marks of a bid are 1 for 30..42 and bid // 42 above (`bid_marks`); both
  are bids (a seat that has bid may not bid again in the seed auction), legal only with the rule on, at
  least four (plunge) or three (splash) doubles in the caller's hand and the current bid under five marks
  (210, `MOST`): no bid of any kind is worth more than five marks, so over a 210 only a pass remains.
- TRUMP: what the declarer names (the declarer's partner after a plunge or splash): the pip 0..6, DOUBLES (7),
  NO_TRUMP (8), NELLO (9) or SEVENS (10). Pips are always legal; doubles and no-trump when in
  `declarations`; nello and sevens when their rule is on, the contract is worth at least 42 and it is not a
  plunge or splash.
- PLAY: the domino id 0..27 (see `dominoes`).
Decisions where the rules file leaves room (the reference engine and the core both follow them): nello and
sevens are named in place of trumps after winning the auction with a bid of at least 42; the nello declarer's
partner plays no domino (tricks of three, the seat skipped); the declarer leads (the partner after a plunge
or splash); under marks with `play_out = false` a hand stops after the trick that decides it: a bid under 42
is made once the declarers hold the bid, set once the defenders hold more than 42 - bid; a bid of 42 or more
(plunge, splash and sevens included) is set by the defenders' first trick, nello by the declarer's first
trick; otherwise all seven tricks are played.
A view holds one row per pending decision; every array has that row as its first axis. It holds the
deciding seat's own hand and the public record of the hand, never another hand, the partner's included.
Its arrays are read-only: some are windows on the live game state.
"""

from __future__ import annotations

import numpy as np

from simulator.fortytwo.dominoes import KEY
from simulator.tricks import winning_key
from simulator.views import View

CALL, TRUMP, PLAY, DONE = 0, 1, 2, 3
KIND_NAMES = ("call", "trump", "play")
N_ACTIONS = (49, 11, 28)
MAX_CALLS = 16  # seed auction: at most 3 opening passes, 4 bids with 2 passes between, 3 closing passes

# Call actions to bid values; a plunge's or splash's value depends on the bid it overcalls (`special_value`).
BID_VALUE = np.array([0, *range(1, 43), 84, 168, 126, 168, 84, 210], dtype=np.int16)
BID_84, BID_168, BID_126, PLUNGE, SPLASH, BID_210 = 43, 44, 45, 46, 47, 48
MOST = 210  # five marks: no bid of any kind is worth more
DOUBLES, NO_TRUMP, NELLO, SEVENS = 7, 8, 9, 10
DECLARATION_NAMES = (
    "blanks",
    "aces",
    "deuces",
    "treys",
    "fours",
    "fives",
    "sixes",
    "doubles",
    "no-trump",
    "nello",
    "sevens",
)


def bid_marks(value):
    """Marks of a bid value: 1 for 30..42, value // 42 above (84 two, 126 three, 168 four, 210 five); 0 for
    no bid."""
    value = np.asarray(value)
    return np.where(value <= 0, 0, np.where(value <= 42, 1, value // 42))


def special_value(action: int | np.ndarray, high_value):
    """The value of a plunge (4 marks) or splash (2 marks) called over `high_value`: one mark more than the
    current bid when that is higher (42 points a mark in the points game too). Neither may be called over a
    bid of five marks (`MOST`), so the value is at most 210."""
    least = np.where(np.asarray(action) == PLUNGE, 4, 2)
    return 42 * np.maximum(least, bid_marks(high_value) + 1)


def call_action(value: int) -> int:
    """The call action for a bid value (0 = pass)."""
    return {84: BID_84, 126: BID_126, 168: BID_168, 210: BID_210}.get(value, value)


def call_name(action: int) -> str:
    return {0: "pass", PLUNGE: "plunge", SPLASH: "splash"}.get(int(action), str(int(BID_VALUE[action])))


class FortyTwoView(View):
    # seat          int8: the deciding seat, 0=N 1=E 2=S 3=W
    # dealer        int8
    # hand          uint32 bitmask of the seat's own dominoes still held
    # calls         (m, MAX_CALLS) int8 call actions in order from the dealer's left, -1 after the last
    # n_calls       int8
    # high_bid      int16 value of the highest bid so far (the contract once play starts), 0 = none
    # high_bidder   int8 seat of the highest bid (the declarer once play starts), -1 = none
    # trump         int8 what was named (TRUMP action: pip 0..6, DOUBLES, NO_TRUMP, NELLO, SEVENS), -1 before
    # ctx           int8 the play context its tables are indexed by (dominoes.CONTEXTS), -1 before
    # plays         (m, 28) int8 dominoes in the order played, -1 after the last
    # n_played      int8; the current trick is plays[trick_start : n_played]
    # trick_start   int8 where the current trick begins in plays (tricks hold 3 dominoes under nello, else 4)
    # leader        int8 seat that leads the current trick
    # led           int8 suit of the current trick, -1 while leading: a led domino's higher end, or 7 when it
    #               is a trump (pip contexts; a double with doubles trump) or a double under nello's doubles
    #               suit; under no-trump a double leads its pip; under sevens every lead is 0
    # winner        int8 seat now winning the current trick, -1 while leading
    # winning       int8 domino now winning the current trick, -1 while leading
    # played        uint32 bitmask of every domino played so far
    # points        (m, 2) int16 points taken so far this hand, N-S then E-W
    # scores        (m, 2) int32 game totals before this hand, N-S then E-W
    FIELDS = (
        "seat",
        "dealer",
        "hand",
        "calls",
        "n_calls",
        "high_bid",
        "high_bidder",
        "trump",
        "ctx",
        "plays",
        "n_played",
        "trick_start",
        "leader",
        "led",
        "winner",
        "winning",
        "played",
        "points",
        "scores",
    )

    def winning_key(self) -> np.ndarray:
        """int16 strength (dominoes.KEY) of the domino now winning the trick, -1 while leading."""
        return winning_key(
            KEY,
            np.maximum(self.ctx, 0),
            np.maximum(self.led, 0),
            np.maximum(self.winning, 0),
            self.winning < 0,
        ).astype(np.int16)
