"""Rows of bits: a legal mask (or any (m, n) bool mask) packed into (m, W) uint64 words, and the few
operations the driver and random play need on them without unpacking.

Encoding: bit i of a row is bit i % 64 of word i // 64 (W = ceil(n / 64)). A core that already holds its legal
actions as bitmasks (a hand of dominoes or cards, Frank's Zoo's sets) hands them over in this form, so that
uniform random play and the legality check never build the (m, n) bool mask: for Frank's Zoo that mask is
271 bytes a row, built, unpacked and packed again on every step.
"""

from __future__ import annotations

import functools

import numpy as np

_ONE = np.uint64(1)
_ALL = ~np.uint64(0)


def n_words(n: int) -> int:
    return -(-n // 64)


def pack(mask: np.ndarray) -> np.ndarray:
    """(m, n) bool -> (m, W) uint64."""
    m, n = mask.shape
    padded = np.zeros((m, n_words(n) * 64), bool)
    padded[:, :n] = mask
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64, copy=False)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """(m, W) uint64 -> (m, n) bool: the first n bits of each row."""
    little = np.ascontiguousarray(words, dtype="<u8")
    return np.unpackbits(little.view(np.uint8), axis=1, bitorder="little")[:, :n].view(bool)


def place(words: np.ndarray, offset: int, total: int) -> np.ndarray:
    """(m, W) -> (m, n_words(total)): the rows' bits moved up by `offset` (bit i to bit i + offset); bits that
    would land at or beyond bit `total` must be zero."""
    m, w = words.shape
    out = np.zeros((m, n_words(total)), np.uint64)
    q, r = divmod(offset, 64)
    for i in range(w):
        if i + q < out.shape[1]:
            out[:, i + q] |= words[:, i] << np.uint64(r)
        if r and i + q + 1 < out.shape[1]:
            out[:, i + q + 1] |= words[:, i] >> np.uint64(64 - r)
    return out


def bit(words: np.ndarray, index: np.ndarray) -> np.ndarray:
    """(m,) bool: bit `index[j]` of row j (every index in range)."""
    index = np.asarray(index, np.intp)
    m, w = words.shape
    # one gather on the flat array: several times faster than the pair of index arrays words[rows, index >> 6]
    word = (
        words[:, 0]
        if w == 1
        else np.ascontiguousarray(words).reshape(-1)[np.arange(0, m * w, w) + (index >> 6)]
    )
    return ((word >> (index & 63).astype(np.uint64)) & _ONE).astype(bool)


@functools.cache  # built on the first select(), not on import: the command line's listings never need it
def _select_table() -> np.ndarray:
    """[16-bit value * 16 + j]: the position of the j-th set bit of the value (0 where it has fewer than
    j + 1): 1 MiB, so that a word needs two halvings (32, 16 bits) before the gather."""
    values = np.arange(1 << 16, dtype=np.uint32)
    bits = (values[:, None] >> np.arange(16, dtype=np.uint32)) & 1
    rank = np.cumsum(bits, axis=1) - 1  # rank of each set bit among its value's set bits
    table = np.zeros((1 << 16, 16), np.int8)
    value, position = np.nonzero(bits)
    table[value, rank[value, position]] = position
    return table.reshape(-1)


def select(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(m,) the position of the k-th set bit (from 0, in index order) of each row; every row must have more
    than k[j] bits set. A walk over the words, then halving the chosen word down to 16 bits (32, 16) and a
    table for those: about a dozen passes over m whatever the width."""
    m, w = words.shape
    k = np.asarray(k, np.int16)  # small dtypes: a row holds at most a few hundred bits
    word = words[:, 0]
    base = np.zeros(m, np.int16)
    if w > 1:
        counts = np.bitwise_count(words).astype(np.int16)
        searching = np.ones(m, bool)
        for i in range(w - 1):
            past = searching & (k >= counts[:, i])
            k = k - counts[:, i] * past
            base += np.int16(64) * past
            word = np.where(past, words[:, i + 1], word)
            searching = past
    # the word's two 32-bit halves (little-endian: the low one first), then the chosen half's two 16-bit ones
    halves = np.ascontiguousarray(word, dtype="<u8").view("<u4").reshape(m, 2)
    c = np.bitwise_count(halves[:, 0])
    high = k >= c
    k = k - c * high
    half = np.where(high, halves[:, 1], halves[:, 0])
    c = np.bitwise_count(half & np.uint32(0xFFFF))
    upper = k >= c
    k = k - c * upper
    quarter = (half >> (upper.astype(np.uint32) << np.uint32(4))) & np.uint32(0xFFFF)
    select16 = _select_table()
    return base + np.int16(32) * high + np.int16(16) * upper + select16[quarter.astype(np.intp) * 16 + k]


def uniform(words: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One set bit per row, uniformly: the same draw as `strategies.base.uniform_choice` on the unpacked mask
    (one uniform number u per row, the k = floor(u * count)-th legal action), so both give the same actions
    from the same generator."""
    counts = np.bitwise_count(words)
    total = counts[:, 0] if words.shape[1] == 1 else counts.sum(axis=1, dtype=np.int64)
    k = (rng.random(len(words)) * total).astype(np.int16)
    return select(words, k)
