"""The solvers' shared scaffold (simulator.search): the guard that compiles a kernel module again when the
rule tables compiled into its kernels are no longer the ones the module builds."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from numba import njit

from simulator import search

TABLE = np.array([1, 2, 3], np.int64)


@njit
def _lookup(i):
    return TABLE[i]


@njit
def _compiled():
    return (TABLE,)


def test_kernels_are_compiled_again_when_their_tables_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = {"_lookup": _lookup, "_compiled": _compiled}
    assert _lookup(2) == 3
    assert not search.rebuild_if_stale(_compiled, (TABLE,), kernels)
    changed = np.array([1, 2, 30], np.int64)
    monkeypatch.setattr(sys.modules[__name__], "TABLE", changed)
    assert _lookup(2) == 3  # numba compiled the old table in as a constant
    assert search.rebuild_if_stale(_compiled, (changed,), kernels)
    assert _lookup(2) == 30
    assert not search.rebuild_if_stale(_compiled, (changed,), kernels)
