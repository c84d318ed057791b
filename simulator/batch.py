"""The base of the batched cores' states: one deal per row, every field an array with the row first."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

import numpy as np

Rows = slice | np.ndarray  # all rows (slice(None)) or an index array


def take_rows(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """`np.take_along_axis(array, index, axis=1)` for a 2-D array: out[i, j] = array[i, index[i, j]], as one
    gather on the flat array (several times faster than take_along_axis's broadcast index pair). Every index
    must lie in 0..width-1: unlike take_along_axis, a negative or too large one reads a neighbouring row."""
    rows, width = array.shape
    return np.ascontiguousarray(array).reshape(-1)[index + (np.arange(rows) * width)[:, None]]


@dataclass
class BatchState:
    """A dataclass whose fields are all per-row arrays (first axis = row); subclasses declare the fields,
    `deal` (the row's deal number) among them."""

    if TYPE_CHECKING:  # declared by every subclass; not a field here, so subclasses order their own
        deal: np.ndarray

    def __len__(self) -> int:
        return len(self.deal)

    def take(self, rows: Rows) -> Self:
        """The state of some rows (copies for an index array, views for a slice)."""
        return type(self)(**{f.name: getattr(self, f.name)[rows] for f in dataclasses.fields(self)})

    @classmethod
    def concat(cls, states: Sequence[Self]) -> Self:
        """One state with the rows of `states` stacked in order; a single state is returned as it is."""
        if not states:
            raise ValueError(f"{cls.__name__}.concat needs at least one state")
        if len(states) == 1:
            return states[0]
        return cls(
            **{f.name: np.concatenate([getattr(s, f.name) for s in states]) for f in dataclasses.fields(cls)}
        )
