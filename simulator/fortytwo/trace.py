"""What the reference engine needs to replay a hand that the batched core played: its moves as recorded,
and the hand's starting position."""

from __future__ import annotations

import numpy as np

from simulator.fortytwo import core, reference
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.core import HandState
from simulator.fortytwo.view import CALL, PLAY, PLUNGE, SPLASH, TRUMP


def recorded_moves(s: HandState, row: int) -> list[tuple[int, int, int]]:
    """(kind, seat, action) of row `row` in order, rebuilt from the state's records."""
    moves = []
    seat = (int(s.dealer[row]) + 1) & 3
    for k in range(int(s.n_calls[row])):
        moves.append((CALL, seat, int(s.calls[row, k])))
        seat = (seat + 1) & 3
    if s.high[row] > 0:
        declarer = int(s.high_bidder[row])
        namer = (
            (declarer + 2) & 3 if s.high[row] in (PLUNGE, SPLASH) else declarer
        )  # a plunge's partner names
        moves.append((TRUMP, namer, int(s.trump[row])))
        # Seats of plays follow from the trick winners, which the reference engine works out; here only
        # the order of dominoes is known, so the seat is read off the hand that held each domino.
        for k in range(int(s.n_played[row])):
            d = int(s.plays[row, k])
            holder = int(np.flatnonzero((s.dealt[row] >> np.uint32(d)) & 1)[0])
            moves.append((PLAY, holder, d))
    return moves


def play_reference(s: HandState, row: int, rules, players) -> reference.HandRecord:
    """Row `row`'s hand (the same dominoes, dealer and game totals) played by the reference engine."""
    hands = [D.bits_to_ids(int(h)) for h in s.dealt[row]]
    return reference.play_hand(hands, int(s.dealer[row]), rules, players, scores=tuple(s.scores[row]))


def outcomes(s: HandState, rules) -> np.ndarray:
    """(n, 5): points N-S, E-W, scores N-S, E-W, made (1/0, -1 thrown in), as the reference records them."""
    score, made = core.hand_scores(s, rules)
    made = np.where(s.high == 0, -1, made.astype(np.int64))
    return np.column_stack([s.points, score, made]).astype(np.int64)
