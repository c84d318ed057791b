"""A seat's view holds its own hand and the public record, nothing of the other hands."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator.fortytwo import core
from simulator.fortytwo.rules import FortyTwoRules
from strategies.base import uniform_choice

RULES = FortyTwoRules()


def advance(s: core.HandState, steps: int, rng: np.random.Generator) -> None:
    """Random legal decisions for every unfinished row, `steps` times."""
    for _ in range(steps):
        for kind in range(3):
            rows = np.flatnonzero(s.phase == kind)
            if len(rows):
                _, legal = core.inputs(s, rows, kind, RULES)
                core.apply(s, rows, kind, uniform_choice(legal, rng), RULES)


@pytest.mark.parametrize("steps", [2, 9, 20, 30])
@pytest.mark.parametrize("offsets", [(1, 2), (1, 3), (2, 3)])
def test_views_do_not_change_when_other_hands_change(steps: int, offsets: tuple[int, int]) -> None:
    rng = np.random.default_rng(steps)
    s = core.deal(rng, np.arange(3000))
    advance(s, steps, rng)
    s = s.take(np.flatnonzero(s.phase < 3))
    # Swap the lowest unheld-by-the-decider domino between two other seats (every pair of the three other
    # seats, the partner among them): the deciding seat cannot tell the difference, so its view must not.
    other = dataclasses.replace(s, hands=s.hands.copy())
    ar = np.arange(len(s))
    a, b = (s.turn + offsets[0]) & 3, (s.turn + offsets[1]) & 3
    ha, hb = s.hands[ar, a], s.hands[ar, b]
    swap = (ha != 0) & (hb != 0)
    la, lb = ha & (~ha + np.uint32(1)), hb & (~hb + np.uint32(1))  # lowest set bits
    other.hands[ar, a] = np.where(swap, ha ^ la ^ lb, ha)
    other.hands[ar, b] = np.where(swap, hb ^ lb ^ la, hb)
    assert swap.sum() > len(s) // 2
    for kind in range(3):
        rows = np.flatnonzero(s.phase == kind)
        if not len(rows):
            continue
        v1, _ = core.inputs(s, rows, kind, RULES)
        v2, _ = core.inputs(other, rows, kind, RULES)
        for name, array in v1.arrays().items():
            assert np.array_equal(array, getattr(v2, name)), name


def test_view_arrays_cannot_be_written() -> None:
    s = core.deal(np.random.default_rng(3), np.arange(50))
    view, _ = core.inputs(s, slice(None), 0, RULES)
    for array in view.arrays().values():
        with pytest.raises(ValueError):
            array[...] = 0
    assert (s.turn == (s.dealer + 1) & 3).all()


def test_the_view_shows_the_own_hand() -> None:
    rng = np.random.default_rng(1)
    s = core.deal(rng, np.arange(100))
    view, _ = core.inputs(s, slice(None), 0, RULES)
    assert np.array_equal(view.hand, s.hands[np.arange(100), s.turn])
