"""For the secrecy test of the game contract: a position the deciding seat cannot tell from the real one."""

from __future__ import annotations

import dataclasses

import numpy as np

from simulator.franks_zoo.core import _SET_BITS, HandState, _held


def hidden_variant(s: HandState, rng: np.random.Generator) -> HandState:
    """A copy in which two other seats have traded one card each (of different kinds, where both hold
    cards): each keeps as many cards as before, so only what the deciding seat cannot see differs."""
    n, p, k = s.hands.shape
    hands = s.hands.copy()
    ar = np.arange(n)
    a = (s.turn + 1 + rng.integers(0, p - 1, n)) % p
    b = (a + 1 + rng.integers(0, p - 2, n)) % p
    b = np.where(b == s.turn, (b + 1) % p, b)
    b = np.where(b == a, (a + 1) % p, b)
    b = np.where(b == s.turn, (b + 1) % p, b)
    ka = np.argmax(hands[ar, a] > 0, axis=1)  # a's lowest kind held
    kb = k - 1 - np.argmax(hands[ar, b, ::-1] > 0, axis=1)  # b's highest kind held
    swap = (
        (hands[ar, a, ka] > 0)
        & (hands[ar, b, kb] > 0)
        & (ka != kb)
        & (a != s.turn)
        & (b != s.turn)
        & (a != b)
    )
    rows = ar[swap]
    hands[rows, a[swap], ka[swap]] -= 1
    hands[rows, b[swap], ka[swap]] += 1
    hands[rows, b[swap], kb[swap]] -= 1
    hands[rows, a[swap], kb[swap]] += 1
    sets = _held(_SET_BITS, hands.reshape(n * p, k)).reshape(n, p, -1)
    return dataclasses.replace(s, hands=hands, sets_held=sets)
