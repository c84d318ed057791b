"""What every strategy is: a frozen dataclass of typed parameters with one method, `decide`.

`decide(kind, view, legal, rng)` gets the pending decisions of one kind for a group of rows: the view
of each row's deciding seat, the legal mask (m, n_actions) and a Generator, and returns one integer
action per row. Strategies hold no state between calls; everything they know is in the view.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from simulator import bitrows


@dataclass(frozen=True)
class Strategy:
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    # A strategy that searches (thousands of times slower than the batched ones) is timed by `dealsim bench`
    # on at most this many deals; None = the benchmark's size.
    bench_deals: ClassVar[int | None] = None

    @property
    def spec(self) -> str:
        """The text that makes this strategy again: its name (or module:Class) and the parameters that
        differ from their defaults, e.g. 'heuristic:threshold=32'."""
        cls = type(self)
        # a game's own strategies (in this package) by name; any other class by where it is defined
        head = self.name if self.name and cls.__module__.startswith("strategies.") else f"{cls.__module__}:{cls.__qualname__}"
        changed = [f"{f.name}={_text(getattr(self, f.name))}" for f in dataclasses.fields(self)
                   if f.init and getattr(self, f.name) != f.default]
        return head + (":" + ",".join(changed) if changed else "")

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def decide(self, kind: int, view: Any, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Random(Strategy):
    """Every game's uniformly random player."""

    name = "random"
    summary = "uniform over the legal actions of every decision"

    def decide(self, kind: int, view: Any, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return uniform_choice(legal, rng)

    def decide_packed(self, kind: int, view: Any, words: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """`decide` on the legal actions as bit rows (simulator.bitrows): the same draw, the same actions."""
        return bitrows.uniform(words, rng)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "decide" in cls.__dict__ and "decide_packed" not in cls.__dict__:
            cls.decide_packed = None  # a subclass that decides otherwise is asked with the mask


# Set-bit counts and "position of the j-th set bit" for every byte, for choosing among legal actions.
_POPCOUNT = np.array([(b).bit_count() for b in range(256)], dtype=np.int16)
_SELECT = np.zeros((256, 8), dtype=np.int16)
for _b in range(256):
    for _j, _i in enumerate(i for i in range(8) if _b >> i & 1):
        _SELECT[_b, _j] = _i
_SELECT_FLAT = _SELECT.reshape(-1)
# Eight 0/1 bytes of a little-endian uint64 times this carry each byte's bit into the top byte, without
# overlaps, so the top byte is the eight flags packed (bit j = byte j): np.packbits at a third of the cost.
_GATHER_BITS = np.uint64(0x0102040810204080)


def pack_rows(mask: np.ndarray) -> np.ndarray:
    """(m, n) bool -> (ceil(n / 8), m) uint8: bit j of byte b is column 8b + j; bytes as rows."""
    m, n = mask.shape
    if n % 8:
        padded = np.zeros((m, -(-n // 8) * 8), dtype=np.uint8)
        padded[:, :n] = mask
    else:
        padded = np.ascontiguousarray(mask).view(np.uint8)
    words = padded.view(np.uint64)
    return ((words * _GATHER_BITS) >> np.uint64(56)).astype(np.uint8).T.copy()


def uniform_choice(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row, uniform over that row's legal actions (every row needs one).

    Draws k uniform in [0, count) and finds the row's k-th legal action byte by byte on the packed
    mask: one random number and a few passes over m * n_actions / 8 bytes."""
    packed = pack_rows(legal)
    m = packed.shape[1]
    per_byte = _POPCOUNT[packed]
    k = (rng.random(m) * per_byte.sum(axis=0)).astype(np.int16)
    byte = np.zeros(m, np.intp)
    searching = np.ones(m, bool)
    for count in per_byte[:-1]:  # walk k through the bytes: the chosen action is in the first it fits
        past = searching & (k >= count)
        byte += past
        k -= count * past
        searching = past
    return _SELECT_FLAT[packed[byte, np.arange(m)].astype(np.intp) * 8 + k] + 8 * byte


def best_legal(score: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Per row, the legal action with the highest score (the first on ties). Integer scores must lie
    above -32767.

    Illegal actions are set to the floor arithmetically (score * legal + (legal - 1) * 32767): np.where
    over an irregular boolean mask costs several times as much."""
    flag = legal.view(np.int8)
    if np.issubdtype(score.dtype, np.integer) and score.dtype.itemsize <= 2:
        masked = score.astype(np.int16, copy=False) * flag + (flag - 1) * np.int16(32767)
    elif np.issubdtype(score.dtype, np.integer):
        masked = score * flag + (flag - 1) * np.int64(2**62)
    else:
        masked = np.where(legal, score, -np.inf)
    return np.argmax(masked, axis=1)


def select(mask: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.where(mask, a, b) for small integer scores, as arithmetic (much faster on irregular masks).
    The difference a - b must fit the scores' dtype."""
    return b + (a - b) * mask.view(np.int8) if mask.dtype == bool and mask.flags.c_contiguous else \
        np.where(mask, a, b)
