"""What a Rounds player may see when it plays a card, and how a play is encoded.

There is one decision kind, PLAY; the action is the card id (see `cards`). A view holds one row per
pending decision. It holds the player's own hand and the public record: the face-up card(s) of the stage,
every card played this game, tricks and card points taken so far. Never the other hand, nor the stock, nor
where an earlier stage's trump card went when it was shuffled back. Its arrays are read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.rounds.rules import RoundsRules

PLAY, DONE = 0, 1
KIND_NAMES = ("play",)
N_ACTIONS = (52,)
N_STAGES, TRICKS_PER_STAGE = 5, 5
N_PLAYS = 2 * N_STAGES * TRICKS_PER_STAGE  # 50 cards are played in a game


@dataclass(frozen=True)
class RoundsView:
    seat: np.ndarray          # int8: the deciding player, 0 or 1
    dealer: np.ndarray        # int8: this stage's dealer
    stage: np.ndarray         # int8: 0..4
    trick: np.ndarray         # int8: trick of the stage, 0..4
    hand: np.ndarray          # uint64 bitmask of the player's cards
    face_up: np.ndarray       # (m, 2) int8: the stage's face-up card(s); in stages 0..3 the second is -1.
    trump: np.ndarray         # int8: trump suit of the current trick
    trump_rank: np.ndarray    # int8: rank of the rank trumps of the current trick, -1 without rank_trumps
    leader: np.ndarray        # int8: the player who leads the current trick
    led: np.ndarray           # int8: the card led to the current trick, -1 while leading
    plays: np.ndarray         # (m, 50) int8: cards in the order played this game, -1 after the last
    n_played: np.ndarray      # int8
    played: np.ndarray        # uint64 bitmask of the cards played this game
    stage_tricks: np.ndarray  # (m, 2) int8: tricks each player has taken in this stage
    stage_points: np.ndarray  # (m, 2) int16: card points each player has taken in this stage
    points: np.ndarray        # (m, 2) int16: each player's score from the completed stages of this game
    scores: np.ndarray        # (m, 2) int32: match totals before this game
    rules: RoundsRules | None = None

    def __len__(self) -> int:
        return len(self.seat)

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "rules"}

    def take(self, rows: np.ndarray) -> RoundsView:
        return RoundsView(**{k: v[rows] for k, v in self.arrays().items()}, rules=self.rules)
