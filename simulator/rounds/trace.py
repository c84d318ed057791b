"""What the reference engine needs to replay a game that the batched core played: its cards as recorded,
and the deck and stage shuffles it was dealt with."""

from __future__ import annotations

import numpy as np

from simulator.rounds import reference
from simulator.rounds.core import SHUFFLE_SIZES, GameState

_AT = np.cumsum((0, *SHUFFLE_SIZES))


def recorded_moves(s: GameState, row: int) -> list[tuple[int, int, int]]:
    """(kind 0, player, card) of row `row` in order: each trick's leader, then the other player."""
    moves = []
    for t in range(25):
        leader = int(s.trick_leaders[row, t])
        moves += [(0, leader, int(s.plays[row, 2 * t])), (0, 1 - leader, int(s.plays[row, 2 * t + 1]))]
    return moves


def deal_of(s: GameState, row: int) -> tuple[list[int], list[list[int]]]:
    """The deck and the four stage shuffles the row was dealt with."""
    shuffles = [s.shuffles[row, _AT[k] : _AT[k + 1]].tolist() for k in range(4)]
    return s.deck[row].tolist(), shuffles


def play_reference(s: GameState, row: int, rules, players) -> reference.GameRecord:
    """Row `row`'s game (the same deck, stage shuffles, first dealer and match totals) played by the
    reference engine."""
    deck, shuffles = deal_of(s, row)
    return reference.play_game(
        int(s.first_dealer[row]), deck, shuffles, rules, players, scores=tuple(int(x) for x in s.scores[row])
    )


def record_moves(record: reference.GameRecord) -> list[tuple[int, int, int]]:
    return [(0, player, card) for player, card in record.moves]


def outcome(record: reference.GameRecord) -> tuple[int, ...]:
    """The game's points, then per stage each player's score and tricks."""
    per_stage = [x for st in record.stages for x in (*st.points, *st.tricks_won)]
    return (*record.points, *per_stage)


def outcomes(s: GameState, rules) -> np.ndarray:
    """`outcome` for every row of a finished state, (n, 22)."""
    per_stage = np.concatenate([s.stage_score, s.tricks], axis=2).reshape(len(s), -1)
    return np.column_stack([s.points, per_stage]).astype(np.int64)
