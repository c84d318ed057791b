"""How far play was from perfect in Rounds: for every played game, the perfect-information value of each
stage before each play (`RoundsSolver.values_along`) splits what each player gave away by his own plays.

The value is a stage's margin: the player's stage score less the other's, both playing perfectly from there
with both hands seen (solver.py says why the margin, and that a stage is valued on its own: the cards kept
for the next stage count for nothing). A player's own play can only keep or lower his margin value; what it
lowered it by is what that play gave away, and the other player's plays can only raise it. So, per game,

    points_0 - points_1 = perfect_margin_0 - gave_away_0 + gave_away_1

where perfect_margin_0 is player 0's margin had both played every stage perfectly from its deal (the deals
as they fell: the cards kept from a stage are the ones actually kept). Double-dummy play sees the other hand;
a real player does not, so even good play gives some points away. The solver is compiled code (about a
millisecond a game): this is a measure for runs of thousands of games, not millions."""

from __future__ import annotations

import numpy as np

from simulator.rounds.core import GameState
from simulator.rounds.view import N_STAGES, TRICKS_PER_STAGE

COLUMNS = (
    "perfect_margin_0",
    "gave_away_0",
    "gave_away_1",
    "costly_plays_0",
    "costly_plays_1",
    "stages_off_perfect",
    *(f"s{k}_gave_away_{p}" for k in range(1, N_STAGES + 1) for p in (0, 1)),
)


def movers(s: GameState) -> np.ndarray:
    """(n, 5, 10) the player who made each play of each stage (the trick's leader, then the other)."""
    leaders = s.trick_leaders.reshape(len(s), N_STAGES, TRICKS_PER_STAGE)
    return np.repeat(leaders, 2, axis=2) ^ np.tile([0, 1], TRICKS_PER_STAGE).astype(np.int8)


def play_quality(s: GameState, rules) -> dict[str, np.ndarray]:
    """Per finished game: player 0's margin with perfect play stage by stage; the margin points each player
    gave away by his own plays (in all and per stage) and how many of his 25 plays gave something away; the
    number of stages whose played margin differs from the perfect-play one."""
    from simulator.rounds.solver import RoundsSolver  # numba: only where the measure runs

    values = RoundsSolver(rules).values_along(s)[..., 0].astype(np.int32)  # (n, 5, 11) player 0's margin
    change = np.diff(values, axis=2)  # (n, 5, 10) after a play less before it
    mover = movers(s)
    gave = np.stack(
        [np.where(mover == 0, -change, 0), np.where(mover == 1, change, 0)], axis=3
    )  # (n, 5, 10, 2)
    by_stage = gave.sum(axis=2)  # (n, 5, 2)
    out = {
        "perfect_margin_0": values[:, :, 0].sum(axis=1).astype(np.int16),
        "gave_away_0": by_stage[:, :, 0].sum(axis=1).astype(np.int16),
        "gave_away_1": by_stage[:, :, 1].sum(axis=1).astype(np.int16),
        "costly_plays_0": (gave[..., 0] > 0).sum(axis=(1, 2)).astype(np.int8),
        "costly_plays_1": (gave[..., 1] > 0).sum(axis=(1, 2)).astype(np.int8),
        "stages_off_perfect": (values[:, :, -1] != values[:, :, 0]).sum(axis=1).astype(np.int8),
    }
    for k in range(N_STAGES):
        for p in (0, 1):
            out[f"s{k + 1}_gave_away_{p}"] = by_stage[:, k, p].astype(np.int16)
    return out
