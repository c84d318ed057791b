"""For the secrecy test of the game contract: a position the player to move cannot tell from the real one."""

from __future__ import annotations

import dataclasses

import numpy as np

from simulator.rounds.core import GameState


def hidden_variant(s: GameState, rng: np.random.Generator) -> GameState:
    """A copy in which the opponent's lowest card and the top card of the stock (both unseen by the player
    to move) have changed places, where the stock holds a card."""
    out = dataclasses.replace(s, hands=s.hands.copy(), stock=s.stock.copy())
    ar = np.arange(len(s))
    other = 1 - s.turn
    hand = s.hands[ar, other]
    top = s.stock[:, 0]
    swap = (hand != 0) & (top >= 0)
    low = hand & (~hand + np.uint64(1))
    low_card = np.where(swap, np.log2(np.maximum(low, 1).astype(np.float64)).astype(np.int8), -1)
    top_bit = np.left_shift(np.uint64(1), np.maximum(top, 0).astype(np.uint64))
    already = (hand & top_bit) != 0
    swap &= ~already
    out.hands[ar, other] = np.where(swap, hand ^ low ^ top_bit, hand)
    out.stock[:, 0] = np.where(swap, low_card, top)
    return out
