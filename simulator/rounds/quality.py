"""How far Rounds play was from perfect: for every played game, the perfect-information value of each stage
before each play (`RoundsSolver.values_along`) splits what each player gave away by his own plays.

The value is a stage's margin: the player's stage score less the other's, both playing perfectly from there
with both hands seen (solver.py says why the margin, and that a stage is valued on its own: the cards kept
for the next stage count for nothing). A player's own play can only keep or lower his margin value; what it
lowered it by is what that play gave away, and the other player's plays can only raise it.

The columns (`simulator.quality` has the vocabulary both games share; `<side>` is the player, `0` or `1`):
- `perfect_value_<side>`: the player's margin had both played every stage perfectly from its deal (the deals
  as they fell: the cards kept from a stage are the ones actually kept), summed over the five stages; the
  two players' are each other's negatives;
- `gave_away_<side>`: the margin points the player's own plays gave away, over the game;
- `costly_plays_<side>`: how many of his 25 plays gave something away;
- `stages_off_perfect`: the stages whose played margin differs from the perfect-play one;
- `s{k}_gave_away_<side>`: what the player gave away in stage k (1..5).
So, per game,

    points_0 - points_1 = perfect_value_0 - gave_away_0 + gave_away_1

Double-dummy play sees the other hand; a real player does not, so even good play gives some points away.
The solver is compiled code (about a millisecond a game): this is a measure for runs of thousands of games,
not millions."""

from __future__ import annotations

import numpy as np

from simulator import quality
from simulator.rounds.core import GameState
from simulator.rounds.view import N_STAGES, TRICKS_PER_STAGE

SIDES = ("0", "1")  # the players
COLUMNS = (
    *quality.columns(SIDES),
    "stages_off_perfect",
    *(f"s{k}_gave_away_{p}" for k in range(1, N_STAGES + 1) for p in SIDES),
)


def movers(s: GameState) -> np.ndarray:
    """(n, 5, 10) the player who made each play of each stage (the trick's leader, then the other)."""
    leaders = s.trick_leaders.reshape(len(s), N_STAGES, TRICKS_PER_STAGE)
    return np.repeat(leaders, 2, axis=2) ^ np.tile([0, 1], TRICKS_PER_STAGE).astype(np.int8)


def play_quality(s: GameState, rules) -> dict[str, np.ndarray]:
    """Per finished game: each player's margin with perfect play stage by stage; the margin points each
    player gave away by his own plays (in all and per stage) and how many of his 25 plays gave something
    away; the number of stages whose played margin differs from the perfect-play one."""
    from simulator.rounds.solver import RoundsSolver  # numba: only where the measure runs

    values = RoundsSolver(rules).values_along(s)[..., 0].astype(np.int64)  # (n, 5, 11) player 0's margin
    by_stage, costly = quality.split(values, movers(s), maximizer=0)  # (n, 5, 2) each
    perfect = values[:, :, 0].sum(axis=1)
    out = {
        "perfect_value_0": perfect.astype(np.int16),
        "perfect_value_1": (-perfect).astype(np.int16),
        "gave_away_0": by_stage[:, :, 0].sum(axis=1).astype(np.int16),
        "gave_away_1": by_stage[:, :, 1].sum(axis=1).astype(np.int16),
        "costly_plays_0": costly[:, :, 0].sum(axis=1).astype(np.int8),
        "costly_plays_1": costly[:, :, 1].sum(axis=1).astype(np.int8),
        "stages_off_perfect": (values[:, :, -1] != values[:, :, 0]).sum(axis=1).astype(np.int8),
    }
    for k in range(N_STAGES):
        for p in (0, 1):
            out[f"s{k + 1}_gave_away_{p}"] = by_stage[:, k, p].astype(np.int16)
    return {c: out[c] for c in COLUMNS}
