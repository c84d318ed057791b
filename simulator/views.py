"""The base of every game's view: named per-row arrays, read-only, built eagerly or on first access.

A game's view class lists its FIELDS (and documents them). The reference engines build views eagerly
from keyword arrays; the batched cores build them lazily from a fetch function, so a strategy pays only
for the fields it reads (uniform random play reads none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np


class View:
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: Any = None, **arrays: np.ndarray):
        unknown = set(arrays) - set(self.FIELDS)
        missing = set(self.FIELDS) - set(arrays)
        if unknown or missing:
            raise TypeError(
                f"{type(self).__name__}: unknown fields {sorted(unknown)}, missing {sorted(missing)}"
            )
        self.rules = rules
        self._fetch: Callable[[str], np.ndarray] | None = None
        for name, array in arrays.items():
            self._keep(name, array)
        self._length = len(arrays[self.FIELDS[0]])

    @classmethod
    def lazy(cls, fetch: Callable[[str], np.ndarray], length: int, rules: Any = None) -> View:
        """A view whose field `name` is `fetch(name)`, computed when first read."""
        view = cls.__new__(cls)
        view.rules, view._fetch, view._length = rules, fetch, length
        return view

    def _keep(self, name: str, array: np.ndarray) -> np.ndarray:
        array = np.asarray(array)
        array.flags.writeable = False  # some arrays are windows on the live game state
        self.__dict__[name] = array
        return array

    def __getattr__(self, name: str) -> np.ndarray:
        fetch = self.__dict__.get("_fetch")
        if fetch is None or name not in type(self).FIELDS:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return self._keep(name, fetch(name))

    def __len__(self) -> int:
        return self._length

    def arrays(self) -> dict[str, np.ndarray]:
        """Every per-row field by name."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def take(self, rows: np.ndarray) -> View:
        """The view of some of its rows."""
        return type(self)(rules=self.rules, **{k: v[rows] for k, v in self.arrays().items()})
