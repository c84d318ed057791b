"""The compiled bit counts (simulator.bitops) against Python's own, for the integer types the kernels use; the
prefetch hint compiles to the processor's prefetch and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.bitops import low_bit, popcount, prefetch


@njit(cache=True)
def _both(xs):
    out = np.empty((len(xs), 2), np.int64)
    for i in range(len(xs)):
        out[i, 0] = popcount(xs[i])
        out[i, 1] = low_bit(xs[i]) if xs[i] != 0 else -1
    return out


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.uint32, np.int32])
def test_popcount_and_low_bit_agree_with_python(dtype) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    xs = rng.integers(info.min, info.max, 2000, dtype=dtype, endpoint=True)
    xs = np.r_[xs, np.array([0, 1, info.max, info.min], dtype)]
    got = _both(xs)
    width = 8 * np.dtype(dtype).itemsize
    for x, (count, low) in zip(xs.tolist(), got.tolist(), strict=True):
        bits = x % (1 << width)  # the two's-complement bits of a negative value
        assert count == bin(bits).count("1")
        assert low == ((bits & -bits).bit_length() - 1 if bits else -1)


def test_prefetch_compiles_to_the_processors_prefetch_and_changes_nothing() -> None:
    @njit
    def rows_summed(table, rows):
        total = 0
        for r in rows:
            prefetch(table, r)
            total += table[r, 0] + table[r, 3]
        return total

    table = np.arange(64, dtype=np.int64).reshape(16, 4)
    rows = np.array([3, 0, 15, 7], np.int64)
    assert rows_summed(table, rows) == sum(int(table[r, 0] + table[r, 3]) for r in rows)
    assembly = rows_summed.inspect_asm(rows_summed.signatures[0])
    assert "prefetch" in assembly
