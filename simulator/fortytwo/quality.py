"""How far Forty-two play was from perfect: for every played hand, the double-dummy value before each play
(`FortyTwoSolver.values_along`) splits what each side gave away by its own plays, and says whether the
contract was makeable from the opening lead with perfect play by all four.

The columns (`simulator.quality` has the vocabulary both games share; `<side>` is `ns` or `ew`):
- `perfect_value_<side>`: the points the side takes with perfect play by all four from the opening lead;
  the two sides' add up to the points in play (42, less any count a nello sitter holds);
- `gave_away_<side>`: the points the side's own plays gave away against perfect play. A declaring-side play
  can only keep or lower the declaring side's perfect-play points, a defender's only keep or raise them;
  under nello, where the declarer wants no trick, the other way round. What a play moved them by is what its
  side gave away;
- `costly_plays_<side>`: how many of the side's plays gave points away;
- `made_perfect`: whether perfect play makes the contract.
A hand thrown in has no play: its values are -1, the rest 0 (or False). With the `declarer` column of the
same table, `by_role` turns a per-side column into the declaring side's and the defenders'.

The solver is compiled code and slow next to the batched core (a few milliseconds a hand): this is a
measure for runs of thousands of hands, not millions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator import quality
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.core import HandState
from simulator.fortytwo.view import NELLO

if TYPE_CHECKING:
    import pandas as pd

SIDES = ("ns", "ew")  # the side suffixes, N-S (side 0) then E-W (side 1)
COLUMNS = (*quality.columns(SIDES), "made_perfect")


def play_quality(s: HandState, rules) -> dict[str, np.ndarray]:
    """Per row (-1 for the values where the hand was thrown in): each side's points with perfect play from
    the opening lead, the points each side gave away by its own plays and how many of its plays did,
    whether perfect play makes the contract."""
    from simulator.fortytwo.solver import FortyTwoSolver  # numba: only where the measure runs

    n = len(s)
    out: dict[str, np.ndarray] = {}
    for name in SIDES:
        out[f"perfect_value_{name}"] = np.full(n, -1, np.int16)
        out[f"gave_away_{name}"] = np.zeros(n, np.int16)
        out[f"costly_plays_{name}"] = np.zeros(n, np.int8)
    out["made_perfect"] = np.zeros(n, bool)
    played = np.flatnonzero(s.high > 0)
    if not len(played):
        return {c: out[c] for c in COLUMNS}
    p = s.take(played)
    solver = FortyTwoSolver(rules.count_values)
    values = solver.values_along(p).astype(np.int64)  # (m, 29) the declaring side's final points
    # A marks hand stopped once decided ends with tricks unplayed: its last column is then the perfect-play
    # value of what was left (not just the points taken), so the stop itself gives nothing away.
    stopped = np.flatnonzero(p.tricks_done < 7)
    if len(stopped):
        rest = solver.positions(p.take(stopped))
        side_now = (p.high_bidder[stopped] & 1).astype(np.intp)
        values[stopped, p.n_played[stopped].astype(np.intp)] = (
            solver.solve(rest) + rest.points[np.arange(len(stopped)), side_now]
        )
    side = (p.high_bidder & 1).astype(np.int64)
    nello = p.trump == NELLO
    k = np.arange(D.N_DOMINOES)
    made = k[None, :] < p.n_played[:, None]
    d = np.maximum(p.plays[:, : D.N_DOMINOES], 0).astype(np.uint32)
    seat = np.argmax(
        (p.dealt[:, None, :] >> d[:, :, None]) & 1, axis=2
    )  # (m, 28) who held each domino played
    mover = np.where(made, seat & 1, -1)
    # the declaring side plays for many points, the defenders for few; under nello the other way round
    gave, costly = quality.split(values, mover, maximizer=np.where(nello, 1 - side, side))
    first = values[:, 0]
    # the points in play: a trick each, and the count of every domino a seat plays (not a nello sitter's)
    count = D.COUNT_POINTS[rules.count_values].astype(np.int64)
    held = (p.dealt[:, :, None] >> np.arange(D.N_DOMINOES, dtype=np.uint32)) & 1  # (m, 4, 28)
    plays = held * (np.arange(4)[None, :, None] != p.sitter[:, None, None])
    in_play = 7 + (plays.sum(axis=1) * count).sum(axis=1)
    for i, name in enumerate(SIDES):
        out[f"perfect_value_{name}"][played] = np.where(side == i, first, in_play - first)
        out[f"gave_away_{name}"][played] = gave[:, i]
        out[f"costly_plays_{name}"][played] = costly[:, i]
    bid = p.bid.astype(np.int64)
    out["made_perfect"][played] = np.where(nello, first == 0, np.where(bid >= 42, first == 42, first >= bid))
    return {c: out[c] for c in COLUMNS}


def by_role(deals: pd.DataFrame, name: str = "gave_away") -> tuple[np.ndarray, np.ndarray]:
    """The declaring side's and the defenders' values of the per-side column pair `<name>_ns`, `<name>_ew`,
    row by row, from the `declarer` column (N or S: ns; E or W: ew; a hand thrown in reads as N-S)."""
    ew = deals["declarer"].isin(["E", "W"]).to_numpy()
    ns_value, ew_value = deals[f"{name}_ns"].to_numpy(), deals[f"{name}_ew"].to_numpy()
    return np.where(ew, ew_value, ns_value), np.where(ew, ns_value, ew_value)
