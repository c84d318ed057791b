"""What every strategy is: a frozen dataclass of typed parameters with one method, `decide`.

`decide(kind, view, legal, rng)` gets the pending decisions of one kind for a group of rows: the view
of each row's deciding seat, the legal mask (m, n_actions) and a Generator, and returns one integer
action per row. Strategies hold no state between calls; everything they know is in the view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from simulator import bitrows
from simulator.contract import Sizes


@dataclass(frozen=True)
class Strategy:
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    # A strategy that searches (thousands of times slower than the batched ones) is timed by `dealsim bench`
    # on at most this many deals; None = the benchmark's size.
    bench_deals: ClassVar[int | None] = None
    # Parameter settings that change this strategy's play, e.g. ("duck=false",): the contract checks
    # (`simulator.testing`) play each of them too.
    examples: ClassVar[tuple[str, ...]] = ()
    # How many deals and matches the contract checks play with it (None: the game's `check_sizes`); a
    # searching strategy asks for fewer.
    check_sizes: ClassVar[Sizes | None] = None

    @property
    def spec(self) -> str:
        """The text that makes this strategy again: its name (or module:Class) and the parameters that
        differ from their defaults, e.g. 'heuristic:threshold=32'."""
        cls = type(self)
        # a game's own strategies (in this package) by name; any other class by where it is defined
        head = (
            self.name
            if self.name and cls.__module__.startswith("strategies.")
            else f"{cls.__module__}:{cls.__qualname__}"
        )
        changed = [
            f"{f.name}={_text(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if f.init and getattr(self, f.name) != f.default
        ]
        return head + (":" + ",".join(changed) if changed else "")

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def decide(self, kind: int, view: Any, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    # A strategy may also decide on legal actions given as bit rows (simulator.bitrows), where the core gives
    # them: `decide_packed(kind, view, words, rng)`, the same actions as `decide` on the mask. A subclass that
    # overrides one of `packed_follows` without its own decide_packed decides otherwise, so it is asked with
    # the mask (decide_packed = None).
    packed_follows: ClassVar[tuple[str, ...]] = ("decide",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "decide_packed" not in cls.__dict__ and any(name in cls.__dict__ for name in cls.packed_follows):
            cls.decide_packed = None  # type: ignore[attr-defined]  # a class without its own packed form


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


def uniform_choice(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row, uniform over that row's legal actions (every row needs one): one uniform number u
    per row, the k = floor(u * count)-th legal action, found on the mask packed into bit rows
    (`simulator.bitrows.uniform`, which random play uses directly where a core gives bit rows)."""
    return bitrows.uniform(bitrows.pack(legal), rng)


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


Scorer = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (position, bit) -> (m,) scores, for best_of_bits


def by_row(choose: np.ndarray, if_true: Scorer | None, if_false: Scorer | None) -> Scorer:
    """The scorer that is `if_true` on the rows where `choose`, else `if_false`; one may be None where no row
    needs it (a trick-taking step is usually all leads or all replies)."""
    if if_true is None or if_false is None:
        either = if_true or if_false
        if either is None:
            raise ValueError("by_row needs at least one scorer")
        return either
    yes, no = if_true, if_false

    def scores(position: np.ndarray, bit: np.ndarray) -> np.ndarray:
        return np.where(choose, yes(position, bit), no(position, bit))

    return scores


def best_of_bits(bits: np.ndarray, score_of: Scorer) -> np.ndarray:
    """Per row, the position of the set bit of `bits` ((m,) uint32/uint64 bitmasks, none empty) whose score
    `score_of(position, bit)` ((m,) each, for one bit of every row) is highest, the lowest position on ties:
    `best_legal` for a hand held as a bitmask. One pass per bit of the fullest row, lowest bits first, each
    scoring one card of every row: a hand of a few cards costs a few gathers, not a pass over every item."""
    one = bits.dtype.type(1)
    width = 8 * bits.dtype.itemsize - 1  # an empty row's count, the bit width, masked to position 0
    low = bits & (~bits + one)  # each row's lowest bit (every row has one)
    best = np.bitwise_count(low - one) & np.uint8(width)  # uint8 positions
    best_score = score_of(best, low)
    rest = bits ^ low
    for _ in range(int(np.bitwise_count(bits).max()) - 1):
        low = rest & (~rest + one)  # each row's lowest bit left (0 once a row has none)
        position = np.bitwise_count(low - one) & np.uint8(width)  # an empty row reads position 0
        score = score_of(position, low)
        better = (score > best_score) & (low != 0)
        best, best_score = np.where(better, position, best), np.where(better, score, best_score)
        rest ^= low
    return best.astype(np.intp)
