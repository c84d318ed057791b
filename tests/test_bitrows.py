"""Bit rows (simulator.bitrows): packing round trips, moved bits, and uniform random play on bit rows that
draws exactly what `uniform_choice` draws on the mask (random play is the same whichever the driver uses)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator import bitcheck, bitrows, driver, registry
from simulator.errors import IllegalAction
from strategies.base import Random, uniform_choice

WIDTHS = [1, 7, 13, 28, 52, 63, 64, 65, 128, 201, 271]


def _masks(n: int, rng: np.random.Generator, m: int = 3000) -> np.ndarray:
    mask = rng.random((m, n)) < rng.random((m, 1))  # rows from nearly empty to nearly full
    mask[np.arange(m), rng.integers(0, n, m)] = True  # every row has a legal action
    return mask


@pytest.mark.parametrize("n", WIDTHS)
def test_pack_unpack_and_place(n: int) -> None:
    rng = np.random.default_rng(n)
    mask = _masks(n, rng)
    words = bitrows.pack(mask)
    assert words.shape == (len(mask), -(-n // 64)) and words.dtype == np.uint64
    assert np.array_equal(bitrows.unpack(words, n), mask)
    for offset in (1, 5, 63, 64, 70):
        moved = bitrows.unpack(bitrows.place(words, offset, n + offset), n + offset)
        assert not moved[:, :offset].any() and np.array_equal(moved[:, offset:], mask)
    index = rng.integers(0, n, len(mask))
    assert np.array_equal(bitrows.bit(words, index), mask[np.arange(len(mask)), index])


@pytest.mark.parametrize("n", WIDTHS)
def test_select_finds_the_kth_set_bit(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    mask = _masks(n, rng)
    k = (rng.random(len(mask)) * mask.sum(axis=1)).astype(np.int64)
    want = np.array([np.flatnonzero(row)[j] for row, j in zip(mask, k)])
    assert np.array_equal(bitrows.select(bitrows.pack(mask), k), want)


@pytest.mark.parametrize("n", WIDTHS)
def test_uniform_on_bit_rows_draws_the_kth_legal_action(n: int) -> None:
    """One uniform u per row, the floor(u * count)-th legal action: the draw random play has always made (so
    its outcomes stay the same), here row by row against the mask, for bit rows and for uniform_choice."""
    mask = _masks(n, np.random.default_rng(200 + n))
    u = np.random.default_rng(7).random(len(mask))
    want = np.array([np.flatnonzero(row)[int(x * row.sum())] for row, x in zip(mask, u)])
    assert np.array_equal(bitrows.uniform(bitrows.pack(mask), np.random.default_rng(7)), want)
    assert np.array_equal(uniform_choice(mask, np.random.default_rng(7)), want)


def test_a_random_subclass_that_decides_otherwise_gets_the_mask() -> None:
    @dataclasses.dataclass(frozen=True)
    class First(Random):
        def decide(self, kind, view, legal, rng):
            return np.argmax(legal, axis=1)

    assert callable(Random().decide_packed) and First().decide_packed is None


def test_a_heuristic_subclass_that_plays_otherwise_gets_the_mask() -> None:
    """The Forty-two heuristic plays on bit rows; a subclass that overrides its `play` (as the expert does)
    must be asked with the mask, or its play would never be called. Rounds' heuristic too, for `decide`."""
    from strategies.fortytwo import Heuristic as FortyTwoHeuristic
    from strategies.rounds import Heuristic as RoundsHeuristic

    @dataclasses.dataclass(frozen=True)
    class Lowest(FortyTwoHeuristic):
        def play(self, view, legal, rng):
            return np.argmax(legal, axis=1)

    @dataclasses.dataclass(frozen=True)
    class Keeps(FortyTwoHeuristic):  # changes a parameter only: still plays as the heuristic does
        pass

    @dataclasses.dataclass(frozen=True)
    class Other(RoundsHeuristic):
        def decide(self, kind, view, legal, rng):
            return np.argmax(legal, axis=1)

    assert callable(FortyTwoHeuristic().decide_packed) and callable(Keeps().decide_packed)
    assert Lowest().decide_packed is None and Other().decide_packed is None
    assert registry.roster("forty-two").known["expert"].decide_packed is None


@dataclasses.dataclass(frozen=True)
class _PackedCheat(Random):
    """Decides on bit rows and plays the first illegal action (out of range when all are legal)."""

    def decide_packed(self, kind, view, words, rng):
        n = bitrows.n_words(1) * 64 * words.shape[1]
        free = ~words
        first = np.array(
            [
                next((i for i in range(n) if free[r, i // 64] >> np.uint64(i % 64) & np.uint64(1)), n)
                for r in range(len(words))
            ]
        )
        return first


def test_an_illegal_action_on_bit_rows_is_refused_by_name() -> None:
    g = registry.get("rounds")
    rules = g.rules()
    state = g.deal(np.random.default_rng(1), np.arange(20), rules)
    with pytest.raises(IllegalAction, match=r"strategy .* at seat \w+ in deal \d+: illegal play"):
        driver.play(g, state, rules, [_PackedCheat()] * 2, [np.random.default_rng(2)] * 2)


# each row's action from its lowest legal card
_OUT_OF_RANGE = {
    "-1": lambda legal: legal * 0 - 1,
    "52": lambda legal: legal * 0 + 52,
    "63": lambda legal: legal * 0 + 63,
    "64 + legal": lambda legal: legal + 64,
    "128 + legal": lambda legal: legal + 128,
}


@pytest.mark.parametrize("action", list(_OUT_OF_RANGE))
def test_an_action_out_of_range_on_one_word_is_refused(action: str) -> None:
    """On one-word bit rows the check is a single shift: an action below 0, past the 52 cards within the word,
    or beyond the word (64 + a legal card must not pass as that card) is still refused, naming the move."""

    @dataclasses.dataclass(frozen=True)
    class Fixed(Random):
        def decide_packed(self, kind, view, words, rng):
            lowest = np.bitwise_count((words[:, 0] & (~words[:, 0] + np.uint64(1))) - np.uint64(1)).astype(
                int
            )
            return _OUT_OF_RANGE[action](lowest)

    g = registry.get("rounds")
    rules = g.rules()
    state = g.deal(np.random.default_rng(1), np.arange(20), rules)
    with pytest.raises(IllegalAction, match=r"strategy .* in deal \d+: illegal play action -?\d+"):
        driver.play(g, state, rules, [Fixed()] * 2, [np.random.default_rng(2)] * 2)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.uint8, np.uint64])
def test_the_compiled_check_finds_the_first_illegal_action(dtype: type) -> None:
    """`bitcheck.first_unset` against the unpacked mask, on three-word rows: a clear bit, an action below 0
    (wrapping high in an unsigned type), at n_actions or inside the last word's padding."""
    rng = np.random.default_rng(7)
    n = 150
    legal = rng.random((400, n)) < 0.3
    legal[:, 5] = True
    words = bitrows.pack(legal)
    actions = rng.integers(0, n, 400)
    ok = legal[np.arange(400), actions]
    expected = int(np.flatnonzero(~ok)[0])
    assert bitcheck.first_unset(words, actions.astype(dtype), n) == expected
    fine = np.full(400, 5)
    assert bitcheck.first_unset(words, fine.astype(dtype), n) == -1
    for bad in (-1, n, 191, 192, 255):
        wrong = fine.copy()
        wrong[123] = bad
        if bad > np.iinfo(dtype).max:
            continue
        assert bitcheck.first_unset(words, wrong.astype(dtype), n) == 123, bad


@pytest.mark.parametrize("bad", [-1, 271, 300, 320, 1000])
def test_an_action_out_of_range_on_several_words_is_refused(bad: int) -> None:
    """Frank's Zoo's plays take five words (271 actions): the check refuses an action past the last one even
    where its bit still falls inside the words."""

    @dataclasses.dataclass(frozen=True)
    class Fixed(Random):
        def decide_packed(self, kind, view, words, rng):
            actions = bitrows.uniform(words, rng)
            if words.shape[1] > 1:
                actions[len(actions) // 2] = bad
            return actions

    g = registry.get("franks-zoo")
    rules = g.rules()
    state = g.deal(np.random.default_rng(1), np.arange(20), rules)
    with pytest.raises(IllegalAction, match=rf"in deal \d+: illegal play action {bad}$"):
        driver.play(g, state, rules, [Fixed()] * 5, [np.random.default_rng(2)] * 5)


def test_rows_that_finish_early_stay_in_place() -> None:
    """Frank's Zoo hands end after different numbers of decisions; the driver plays the pending rows only
    and hands back the very batch it was given (no copies of the unfinished rows), every row finished."""
    g = registry.get("franks-zoo")
    rules = g.rules()
    state = g.deal(np.random.default_rng(3), np.arange(60), rules)
    out = driver.play(g, state, rules, [Random()] * 5, [np.random.default_rng(4)] * 5)
    assert out is state
    assert (out.phase == g.done).all() and np.array_equal(out.deal, np.arange(60))
    assert len(set(out.n_moves.tolist())) > 10  # the hands did end at different steps
