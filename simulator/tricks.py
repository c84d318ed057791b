"""Trick-taking pieces shared by the Forty-two and Rounds cores and strategies.

Pure numpy over a batch of rows; each game passes its own tables. The common encoding:
- Items (dominoes, cards) have ids 0..n-1; a hand is an unsigned bitmask (uint32 or uint64) with bit i
  set for item i held. Bitmask tables take the dtype of the game's hands.
- A trick is played in a context (Forty-two: the trump; Rounds: trump suit and rank trumps) and a led
  suit. KEY[ctx, suit, item] is the item's strength there: the highest key takes the trick, and of equal
  keys the earlier play keeps it; -1 marks an item that can never take it.
- LEAD_SUIT[ctx, item] is the suit an item belongs to when led, so LEAD_KEY[ctx, item] is its key as a lead.
- FOLLOW[ctx, suit] is the bitmask of the items that follow that suit.
"""

from __future__ import annotations

import numpy as np


def bits_to_mask(bits: np.ndarray, n: int) -> np.ndarray:
    """(m, n) bool: column i is bit i of each row's bitmask in `bits` ((m,) uint32 or uint64)."""
    width = bits.dtype.itemsize
    # Little-endian bytes unpacked least significant bit first put bit i in column i; no copy when the
    # array is already native little-endian and contiguous (the usual case).
    little = np.ascontiguousarray(bits, dtype=bits.dtype.newbyteorder("<"))
    unpacked = np.unpackbits(little.view(np.uint8).reshape(-1, width), axis=1, bitorder="little")
    return unpacked[:, :n].view(bool)


def legal_bits(hand: np.ndarray, follow_bits: np.ndarray, leading: np.ndarray | bool) -> np.ndarray:
    """Bitmask of the legal plays: the hand's items that follow the led suit (`follow_bits`, the FOLLOW
    entry of each row's context and led suit), or the whole hand when leading or void in that suit."""
    follow = hand & follow_bits
    return np.where(leading | (follow == 0), hand, follow)


def legal_mask(hand: np.ndarray, follow_bits: np.ndarray, leading: np.ndarray, n: int) -> np.ndarray:
    """(m, n) bool: `legal_bits` as a legal mask over the n items."""
    return bits_to_mask(legal_bits(hand, follow_bits, leading), n)


def beats(
    key: np.ndarray, ctx: np.ndarray, suit: np.ndarray, item: np.ndarray, best: np.ndarray
) -> np.ndarray:
    """True where `item` takes the trick from `best` (played earlier) in context `ctx` with `suit` led:
    a strictly higher key; on equal keys the earlier play keeps the trick."""
    return key[ctx, suit, item] > key[ctx, suit, best]


def trick_keys(
    lead_key: np.ndarray, key: np.ndarray, ctx: np.ndarray, suit: np.ndarray, leading: np.ndarray
) -> np.ndarray:
    """(m, n) each item's key in the current trick: as a lead (`lead_key[ctx]`) where the row leads,
    else under the led suit (`key[ctx, suit]`; `suit` must be a valid index on leading rows too)."""
    return np.where(leading[:, None], lead_key[ctx], key[ctx, suit])


def winning_key(
    key: np.ndarray, ctx: np.ndarray, suit: np.ndarray, winning: np.ndarray, leading: np.ndarray
) -> np.ndarray:
    """(m,) the key of the item now winning the trick (`winning`, any valid id on leading rows), -1 where
    the row leads: every item's key beats it, since keys of led items are >= 0."""
    return np.where(leading, -1, key[ctx, suit, winning])


def can_take(keys: np.ndarray, legal: np.ndarray, to_beat: np.ndarray) -> np.ndarray:
    """(m,) True where some legal item's key (`keys`, (m, n)) beats `to_beat` ((m,) a `winning_key`)."""
    return np.asarray((np.where(legal, keys, -1) > to_beat[:, None]).any(axis=1))


def as_lead(table: np.ndarray, lead_suit: np.ndarray) -> np.ndarray:
    """(c, n) from a (c, suits, n) table such as KEY: each item's entry in context c under the suit it
    belongs to when led (`lead_suit[c, item]`); as_lead(KEY, LEAD_SUIT) is the LEAD_KEY table."""
    n_ctx, n = lead_suit.shape
    return table[np.arange(n_ctx)[:, None], lead_suit, np.arange(n)[None, :]]


def beaten_by(key: np.ndarray, bit: np.ndarray) -> np.ndarray:
    """(..., n) bitmask table of the items with a strictly higher key than each item, per context and
    led suit of `key` (..., n); `bit` is the game's (n,) table of item bits and sets the dtype."""
    higher = key[..., None, :] > key[..., :, None]  # [..., item, other]
    # Distinct bits never carry, so their sum is their union.
    return np.where(higher, bit, bit.dtype.type(0)).sum(axis=-1, dtype=bit.dtype)
