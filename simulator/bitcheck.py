"""The driver's legality check on bit rows (simulator.bitrows), compiled: one pass over a step's actions with
no temporary arrays, where the numpy check took two reductions and a gather, a few microseconds each on every
step whatever its size."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def first_unset(words: np.ndarray, actions: np.ndarray, n_actions: int) -> int:
    """The first row j whose action lies outside 0..n_actions-1 or whose bit `actions[j]` is clear in
    `words[j]`; -1 when every action is legal."""
    for j in range(actions.shape[0]):
        a = np.int64(actions[j])
        if a < 0 or a >= n_actions or not (words[j, a >> 6] >> np.uint64(a & 63)) & np.uint64(1):
            return j
    return -1
