"""For the secrecy test of the game contract: a position the deciding seat cannot tell from the real one."""

from __future__ import annotations

import dataclasses

import numpy as np

from simulator.fortytwo.core import HandState


def hidden_variant(s: HandState, rng: np.random.Generator) -> HandState:
    """A copy in which two other seats (the partner may be one) have swapped their lowest held dominoes,
    where both hold one: every hand the deciding seat cannot see is hidden from it alike."""
    out = dataclasses.replace(s, hands=s.hands.copy())
    ar = np.arange(len(s))
    offsets = np.array([(1, 2), (1, 3), (2, 3)])[rng.integers(0, 3, len(s))]
    a, b = (s.turn + offsets[:, 0]) & 3, (s.turn + offsets[:, 1]) & 3
    ha, hb = s.hands[ar, a], s.hands[ar, b]
    swap = (ha != 0) & (hb != 0)
    la, lb = ha & (~ha + np.uint32(1)), hb & (~hb + np.uint32(1))  # lowest set bits
    out.hands[ar, a] = np.where(swap, ha ^ la ^ lb, ha)
    out.hands[ar, b] = np.where(swap, hb ^ lb ^ la, hb)
    return out
