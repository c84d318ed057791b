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
def test_views_do_not_change_when_other_hands_change(steps: int) -> None:
    rng = np.random.default_rng(steps)
    s = core.deal(rng, np.arange(3000))
    advance(s, steps, rng)
    live = np.flatnonzero(s.phase < 3)
    s = s.take(live)
    # Swap the lowest unplayed domino of the two seats after the one to decide (one of them is the
    # partner): the deciding seat cannot tell the difference, so its view must not change.
    other = dataclasses.replace(s, hands=s.hands.copy())
    ar = np.arange(len(s))
    a, b = (s.turn + 1) & 3, (s.turn + 2) & 3
    ha, hb = s.hands[ar, a], s.hands[ar, b]
    swap = (ha != 0) & (hb != 0)
    la, lb = ha & (~ha + np.uint32(1)), hb & (~hb + np.uint32(1))  # lowest set bits
    other.hands[ar, a] = np.where(swap, ha ^ la ^ lb, ha)
    other.hands[ar, b] = np.where(swap, hb ^ lb ^ la, hb)
    assert swap.sum() > len(s) // 2
    assert (other.hands != s.hands).any()
    for kind in range(3):
        rows = np.flatnonzero(s.phase == kind)
        if not len(rows):
            continue
        v1, _ = core.inputs(s, rows, kind, RULES)
        v2, _ = core.inputs(other, rows, kind, RULES)
        for field in dataclasses.fields(v1):
            assert np.array_equal(getattr(v1, field.name), getattr(v2, field.name)), field.name


def test_the_view_shows_the_own_hand() -> None:
    rng = np.random.default_rng(1)
    s = core.deal(rng, np.arange(100))
    view, _ = core.inputs(s, slice(None), 0, RULES)
    assert np.array_equal(view.hand, s.hands[np.arange(100), s.turn])
