"""The Frank's Zoo expert's hash of a view, compiled: the splitmix64 chain of `franks_zoo_expert.view_seeds`
over one row's columns at a time (a view has about a hundred columns, each a few numpy calls otherwise).
Imported on the expert's first search, with numba."""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_TWO = np.uint64(2)


@njit(cache=True)
def hash_columns(cols: np.ndarray, start: np.uint64) -> np.ndarray:
    """(m,) uint64: per row of `cols` (m, n) int64, from `start`, for each column c in order
    h = mix(h ^ (c + 2) * golden), with splitmix64's finalizer as mix (wrapping arithmetic)."""
    m, n = cols.shape
    out = np.empty(m, np.uint64)
    for i in range(m):
        h = start
        for c in range(n):
            h = h ^ ((np.uint64(cols[i, c]) + _TWO) * _GOLDEN)
            h = (h ^ (h >> np.uint64(30))) * _MIX1
            h = (h ^ (h >> np.uint64(27))) * _MIX2
            h = h ^ (h >> np.uint64(31))
        out[i] = h
    return out
