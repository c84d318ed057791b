"""How far play was from perfect: for every played hand, the double-dummy value before each play
(`FortyTwoSolver.values_along`) splits the points each side gave away by its own plays, and says whether the
contract was makeable from the opening lead with perfect play by all four.

A declaring-side play can only keep or lower the declaring side's perfect-play points; a defender's can only
keep or raise them (under nello, where the declarer wants no trick, the other way round). What a play moved
them by is what its side gave away. The solver is compiled code and slow next to the batched core (a few
milliseconds a hand): this is a measure for runs of thousands of hands, not millions."""

from __future__ import annotations

import numpy as np

from simulator.fortytwo import dominoes as D
from simulator.fortytwo.core import HandState
from simulator.fortytwo.view import NELLO

COLUMNS = ("perfect_points", "made_perfect", "declarers_gave", "defenders_gave")


def play_quality(s: HandState, rules) -> dict[str, np.ndarray]:
    """Per row (missing where the hand was thrown in): the declaring side's points with perfect play from the
    opening lead, whether that makes the contract, and the points the declaring side and the defenders gave
    away by their own plays."""
    from simulator.fortytwo.solver import FortyTwoSolver  # numba: only where the measure runs

    n = len(s)
    out = {
        "perfect_points": np.full(n, -1, np.int16),
        "made_perfect": np.zeros(n, bool),
        "declarers_gave": np.zeros(n, np.int16),
        "defenders_gave": np.zeros(n, np.int16),
    }
    played = np.flatnonzero(s.high > 0)
    if not len(played):
        return out
    p = s.take(played)
    solver = FortyTwoSolver(rules.count_values)
    values = solver.values_along(p).astype(np.int32)  # (m, 29)
    # A marks hand stopped once decided ends with tricks unplayed: its last column is then the perfect-play
    # value of what was left (not just the points taken), so the stop itself gives nothing away.
    stopped = np.flatnonzero(p.tricks_done < 7)
    if len(stopped):
        rest = solver.positions(p.take(stopped))
        side_now = (p.high_bidder[stopped] & 1).astype(np.intp)
        values[stopped, p.n_played[stopped].astype(np.intp)] = (
            solver.solve(rest) + rest.points[np.arange(len(stopped)), side_now]
        )
    first = values[:, 0]
    side = (p.high_bidder & 1).astype(np.int32)
    nello = p.trump == NELLO
    declarers_gave = np.zeros(len(p), np.int32)
    defenders_gave = np.zeros(len(p), np.int32)
    for k in range(D.N_DOMINOES):
        moved = k < p.n_played
        if not moved.any():
            break
        d = np.maximum(p.plays[:, k], 0).astype(np.uint32)
        seat = np.argmax((p.dealt >> d[:, None]) & 1, axis=1)  # who held the domino played
        change = values[:, k + 1] - values[:, k]  # declaring side's perfect-play points, after minus before
        by_declarers = (seat & 1) == side
        gave = np.where(by_declarers != nello, -change, change)  # the maximizer lowers, the minimizer raises
        declarers_gave += np.where(moved & by_declarers, gave, 0)
        defenders_gave += np.where(moved & ~by_declarers, gave, 0)
    bid = p.bid.astype(np.int32)
    made = np.where(nello, first == 0, np.where(bid >= 42, first == 42, first >= bid))
    out["perfect_points"][played] = first
    out["made_perfect"][played] = made
    out["declarers_gave"][played] = declarers_gave
    out["defenders_gave"][played] = defenders_gave
    return out
