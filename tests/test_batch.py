"""The batch state's helpers (simulator.batch)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.batch import take_rows


@pytest.mark.parametrize("dtype", [np.int8, np.uint64, bool])
def test_take_rows_is_take_along_axis(dtype: type) -> None:
    rng = np.random.default_rng(1)
    array = rng.integers(0, 100, (500, 34)).astype(dtype)
    for index in (
        rng.integers(0, 34, (500, 34)).astype(np.int8),
        rng.integers(0, 34, (500, 5)),
        rng.permuted(np.broadcast_to(np.arange(34), (500, 34)), axis=1),
    ):
        assert np.array_equal(
            take_rows(array, index), np.take_along_axis(array, index.astype(np.intp), axis=1)
        )
    strided = array[:, ::2]  # a view: taken as its own rows
    index = rng.integers(0, 17, (500, 3))
    assert np.array_equal(take_rows(strided, index), np.take_along_axis(strided, index, axis=1))
