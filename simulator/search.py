"""Perfect-information search: what the games' solvers share.

A game's solver (`simulator.fortytwo.solver`: Forty-two's play with every hand seen;
`simulator.rounds.solver`: one Rounds stage with both hands seen) is a `Solver` whose numba kernels search a
batch of `Positions`. The kernels and the rules of play stay with the game; this module holds what is the
same for both:

- `Positions`: a batch of positions, one row per position, each field an array whose first axis is the row
  (`len`, `take`, `concat`), the int64 arrays the kernels take (`kernel_rows`) and the check that every row
  is a position play can reach (`check`: a ValueError that says how many rows fail, the first of them and
  what can be wrong).
- `Solver`: made with the settings that hold for every position it is asked about (the rules, the count
  values, the objective), it owns its transposition table and counts the positions its searches enter
  (`nodes`). `solve(positions) -> values`, one per row; `values_along(finished) -> values`, the value before
  every play of games already played, and what each line of play came to.
- `Lines`: finished play laid out for `values_along`: the position before every play, line by line (a line
  is the plays of one hand or of one stage, in order), and where each value goes in the answer.

The table lives as long as its solver and is never cleared: an entry's key holds everything the value
depends on that a solver's positions can differ in, so it stays true for any later position. A solver that
is kept (the expert keeps one for its decisions) finds what its earlier searches learnt.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np


def i64(a: Any) -> np.ndarray:
    """`a` as a contiguous int64 array: the kernels do all their arithmetic in signed 64-bit integers, so
    that numba never mixes signed and unsigned types."""
    return np.ascontiguousarray(a, dtype=np.int64)


def rebuild_if_stale(
    compiled_tables: Callable[[], tuple[np.ndarray, ...]], tables: tuple[np.ndarray, ...], kernels: dict
) -> bool:
    """Compile a kernel module's kernels again (and cache that) if its cached compile holds other rule
    tables than `tables`, the ones the module builds now; True if it did. Run once at the module's import,
    before any of its kernels is loaded.

    numba compiles a module-level numpy table into a kernel as a constant, and its disk cache is keyed by
    the kernel's own file alone, not by the file the tables come from: without this, an edit there would
    meet the kernels cached before it. `compiled_tables` is a kernel of the module that returns its tables
    as compiled; `kernels` the module's globals (every numba kernel in it is compiled again)."""
    if all(np.array_equal(a, b) for a, b in zip(compiled_tables(), tables, strict=True)):
        return False
    from numba.core.dispatcher import Dispatcher  # (numba loads only where a solver runs)

    for f in [f for f in kernels.values() if isinstance(f, Dispatcher)]:
        f.recompile()  # its cache emptied: no stale compile is loaded again, by itself or by a caller
    return True


class Positions:
    """Base of a game's batch of positions (a dataclass of per-row arrays).

    A subclass sets `TRAILING`: each field's name with the shape of one row of it (() for one value a row), in
    the order the kernels take them; `WHAT`, what a row is ("positions of a hand"); `FAULTS`, what can make
    a row no such position; and `invalid`, the rows that are not."""

    TRAILING: ClassVar[dict[str, tuple[int, ...]]]
    WHAT: ClassVar[str]
    FAULTS: ClassVar[str]

    def __len__(self) -> int:
        return len(getattr(self, next(iter(self.TRAILING))))

    def take(self, rows: np.ndarray | slice) -> Self:
        """The positions of some rows, in the order given."""
        return type(self)(**{f: getattr(self, f)[rows] for f in self.TRAILING})

    @classmethod
    def concat(cls, parts: list[Self]) -> Self:
        """The rows of `parts` stacked in order."""
        return cls(**{f: np.concatenate([getattr(p, f) for p in parts]) for f in cls.TRAILING})

    def kernel_rows(self) -> tuple[np.ndarray, ...]:
        """The fields as contiguous int64 arrays, in `TRAILING` order: the one argument the kernels take for
        the positions (numba accepts a tuple of arrays; a kernel unpacks it by name)."""
        return tuple(i64(getattr(self, f)) for f in self.TRAILING)

    def check(self) -> None:
        """ValueError unless every field has one row per position, of its shape, and every row is a position
        play can reach (`invalid`)."""
        n = len(self)
        for f, trailing in self.TRAILING.items():
            a = getattr(self, f)
            shape = a.shape if isinstance(a, np.ndarray) else np.shape(a)
            if shape != (n, *trailing):
                raise ValueError(
                    f"{type(self).__name__}.{f} has shape {shape}, not {(n, *trailing)} "
                    "(one row per position)"
                )
        bad = self.invalid()
        if bad.any():
            raise ValueError(
                f"{int(bad.sum())} of {n} rows are not {self.WHAT} (row {int(np.flatnonzero(bad)[0])}: "
                f"{self.FAULTS})"
            )

    def invalid(self) -> np.ndarray:
        """(n,) bool: the rows that are not positions play can reach (the rules of play are not checked)."""
        raise NotImplementedError


P = TypeVar("P", bound=Positions)


@dataclass
class Lines(Generic[P]):
    """Played lines laid out for `Solver.values_along`. A line is one run of plays (a hand, a stage); its
    rows are the positions before each of its plays, in play order, and the lines follow one another."""

    positions: P  # one row per play made
    starts: np.ndarray  # (lines + 1,) int64: the first row of each line, then the number of rows
    played: np.ndarray  # (rows,) int64: the play made from each row
    end: np.ndarray  # (lines,) int64: what each line came to (its value after its last play)
    offset: np.ndarray  # (rows,) int64: added to a row's searched value to give its value in the answer
    shape: tuple[int, ...]  # of the answer
    at: tuple[np.ndarray, ...]  # the index in the answer of each row's value
    end_at: tuple[np.ndarray, ...]  # the index in the answer of each line's end

    def __post_init__(self) -> None:
        rows = len(self.positions)
        if self.starts[-1] != rows or len(self.played) != rows or len(self.offset) != rows:
            raise ValueError(f"lines of {self.starts[-1]} rows laid over {rows} positions")
        if len(self.end) != len(self.starts) - 1:
            raise ValueError(f"{len(self.end)} line ends for {len(self.starts) - 1} lines")


class Solver(ABC, Generic[P]):
    """A perfect-information solver of one game, with the settings that hold for all its positions.

    A subclass sets `TABLE_SHAPE` (the transposition table's rows and int64 columns a row; its layout is the
    game's) and fills in `_kernel` (one call of the game's compiled search) and `lines` (finished play laid
    out for `values_along`); `_line_ask` says what else the kernel needs to search along lines."""

    TABLE_SHAPE: ClassVar[tuple[int, int]]

    def __init__(self) -> None:
        self._table: np.ndarray | None = None
        self.nodes = (
            0  # positions the searches have entered, over the solver's life (for measuring the search)
        )

    @property
    def table(self) -> np.ndarray:
        """The transposition table (-1: an empty slot), made on first use and kept for the solver's life."""
        if self._table is None:
            self._table = np.full(self.TABLE_SHAPE, -1, np.int64)
        return self._table

    def solve(self, positions: P) -> np.ndarray:
        """(n,) int16: the value of each position with perfect play from there (the game's solver says
        what a value is)."""
        return self._run(positions, self._solve_ask(positions)).astype(np.int16)

    def values_along(self, finished: Any) -> np.ndarray:
        """For play already made (the game's finished state): the value with perfect play from before every
        play on, laid out as the game's `lines` says (the game's solver says the shape), with what each line
        of play came to after its last play. The change a play made is what it gave away, or nothing."""
        lines = self.lines(finished)
        out = np.full(lines.shape, -1, np.int16)
        out[lines.at] = self._run(lines.positions, self._line_ask(lines)) + lines.offset
        out[lines.end_at] = lines.end
        return out

    def _run(self, positions: P, ask: tuple[np.ndarray, ...]) -> np.ndarray:
        """Check the positions, search them (`ask`: what the kernel needs beside them) and count the nodes."""
        positions.check()
        values, nodes = self._kernel(positions.kernel_rows(), ask)
        self.nodes += int(nodes)
        return values

    def _solve_ask(self, positions: P) -> tuple[np.ndarray, ...]:
        """What the kernel needs beside the positions for their values (nothing unless the game says)."""
        return ()

    @abstractmethod
    def _kernel(self, rows: tuple[np.ndarray, ...], ask: tuple[np.ndarray, ...]) -> tuple[np.ndarray, int]:
        """One call of the compiled search: (the values of the rows as int64, the nodes it entered)."""

    @abstractmethod
    def lines(self, finished: Any) -> Lines[P]:
        """Finished play laid out line by line for `values_along`."""

    @abstractmethod
    def _line_ask(self, lines: Lines[P]) -> tuple[np.ndarray, ...]:
        """What the kernel needs beside the positions to search along `lines`."""


def line_starts(lengths: np.ndarray) -> np.ndarray:
    """(lines + 1,) int64: where each line of the given lengths starts when they follow one another, and the
    total."""
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
