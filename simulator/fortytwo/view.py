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

from dataclasses import dataclass

import numpy as np

from simulator.fortytwo.dominoes import KEY
from simulator.fortytwo.rules import FortyTwoRules

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


@dataclass(frozen=True)
class FortyTwoView:
    seat: np.ndarray         # int8: the deciding seat, 0=N 1=E 2=S 3=W
    dealer: np.ndarray       # int8
    hand: np.ndarray         # uint32 bitmask of the seat's own dominoes still held
    calls: np.ndarray        # (m, MAX_CALLS) int8 call actions in order from the dealer's left, -1 after the last
    n_calls: np.ndarray      # int8
    high_bid: np.ndarray     # int16 value of the highest bid so far (the contract once play starts), 0 = none
    high_bidder: np.ndarray  # int8 seat of the highest bid (the declarer once play starts), -1 = none
    trump: np.ndarray        # int8 pip named trump, -1 before it is named
    plays: np.ndarray        # (m, 28) int8 dominoes in the order played, -1 after the last
    n_played: np.ndarray     # int8; the current trick is plays[4 * (n_played // 4) : n_played]
    leader: np.ndarray       # int8 seat that leads the current trick
    led: np.ndarray          # int8 suit of the current trick (0..6, 7 = trumps), -1 while leading
    winner: np.ndarray       # int8 seat now winning the current trick, -1 while leading
    winning: np.ndarray      # int8 domino now winning the current trick, -1 while leading
    played: np.ndarray       # uint32 bitmask of every domino played so far
    points: np.ndarray       # (m, 2) int16 points taken so far this hand, N-S then E-W
    scores: np.ndarray       # (m, 2) int32 game totals before this hand, N-S then E-W
    rules: FortyTwoRules | None = None  # the rules of the game (public, the same for every row)

    def __len__(self) -> int:
        return len(self.seat)

    def arrays(self) -> dict[str, np.ndarray]:
        """The per-row fields by name."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "rules"}

    def take(self, rows: np.ndarray) -> FortyTwoView:
        """The view of some of its rows."""
        return FortyTwoView(**{k: v[rows] for k, v in self.arrays().items()}, rules=self.rules)

    def winning_key(self) -> np.ndarray:
        """int16 strength (dominoes.KEY) of the domino now winning the trick, -1 while leading."""
        lead = self.winning >= 0
        key = KEY[np.maximum(self.trump, 0), np.maximum(self.led, 0), np.maximum(self.winning, 0)]
        return np.where(lead, key, -1).astype(np.int16)
