"""What a Forty-two seat may see when it decides, and how its decisions are encoded.

Decision kinds and their actions:
- CALL: 0 = pass, 1..42 = bid that many points, 43 = bid 84, 44 = bid 168 (`BID_VALUE[action]`).
- TRUMP: the pip 0..6 the declarer names.
- PLAY: the domino id 0..27 (see `dominoes`).
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
N_ACTIONS = (45, 7, 28)
MAX_CALLS = 16  # seed auction: at most 3 opening passes, 4 bids with 2 passes between, 3 closing passes

BID_VALUE = np.array([0, *range(1, 43), 84, 168], dtype=np.int16)
BID_84, BID_168 = 43, 44


def call_action(value: int) -> int:
    """The call action for a bid value (0 = pass)."""
    return {84: BID_84, 168: BID_168}.get(value, value)


def call_name(action: int) -> str:
    return "pass" if action == 0 else str(int(BID_VALUE[action]))


class FortyTwoView(View):
    # seat          int8: the deciding seat, 0=N 1=E 2=S 3=W
    # dealer        int8
    # hand          uint32 bitmask of the seat's own dominoes still held
    # calls         (m, MAX_CALLS) int8 call actions in order from the dealer's left, -1 after the last
    # n_calls       int8
    # high_bid      int16 value of the highest bid so far (the contract once play starts), 0 = none
    # high_bidder   int8 seat of the highest bid (the declarer once play starts), -1 = none
    # trump         int8 pip named trump, -1 before it is named
    # plays         (m, 28) int8 dominoes in the order played, -1 after the last
    # n_played      int8; the current trick is plays[4 * (n_played // 4) : n_played]
    # leader        int8 seat that leads the current trick
    # led           int8 suit of the current trick (0..6, 7 = trumps), -1 while leading
    # winner        int8 seat now winning the current trick, -1 while leading
    # winning       int8 domino now winning the current trick, -1 while leading
    # played        uint32 bitmask of every domino played so far
    # points        (m, 2) int16 points taken so far this hand, N-S then E-W
    # scores        (m, 2) int32 game totals before this hand, N-S then E-W
    FIELDS = ("seat", "dealer", "hand", "calls", "n_calls", "high_bid", "high_bidder", "trump", "plays",
              "n_played", "leader", "led", "winner", "winning", "played", "points", "scores")

    def winning_key(self) -> np.ndarray:
        """int16 strength (dominoes.KEY) of the domino now winning the trick, -1 while leading."""
        return winning_key(KEY, np.maximum(self.trump, 0), np.maximum(self.led, 0), np.maximum(self.winning, 0),
                           self.winning < 0).astype(np.int16)
