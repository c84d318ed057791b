"""What the reference engine needs to replay a hand that the batched core played: its decisions as
recorded, and the hand's starting position."""

from __future__ import annotations

import numpy as np

from simulator.franks_zoo import core, reference
from simulator.franks_zoo.core import HandState
from simulator.franks_zoo.play import SOURCES


def recorded_moves(s: HandState, row: int) -> list[tuple[int, int, int]]:
    n = int(s.n_moves[row])
    return list(
        zip(s.move_kind[row, :n].tolist(), s.move_seat[row, :n].tolist(), s.move_action[row, :n].tolist())
    )


def play_reference(s: HandState, row: int, rules, players) -> reference.HandRecord:
    """Row `row`'s hand (the same cards, hand number, dealer, standings and totals) played by the reference
    engine."""
    return reference.play_hand(
        [h.tolist() for h in s.dealt[row]],
        int(s.hand_no[row]),
        int(s.dealer[row]),
        s.order[row].tolist(),
        s.scores[row].tolist(),
        rules,
        players,
    )


def record_moves(record: reference.HandRecord) -> list[tuple[int, int, int]]:
    return [tuple(m) for m in record.moves]


def outcome(record: reference.HandRecord) -> tuple[int, ...]:
    """Each seat's place, then its points by source (placement, team, solo bonus, lions, hedgehog, last
    player's lions, total)."""
    return (*record.places, *[x for source in record.points.values() for x in source])


def outcomes(s: HandState, rules) -> np.ndarray:
    """`outcome` for every row of a finished state, (n, 8 P)."""
    points = core.hand_points(s, rules)
    return np.column_stack([s.place, *[points[k] for k in (*SOURCES, "total")]]).astype(np.int64)
