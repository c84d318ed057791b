"""The shared trick-taking functions and the batch state base, on small hand-built inputs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from simulator import tricks
from simulator.batch import BatchState
from simulator.rounds import cards as C

BIT4 = np.array([1, 2, 4, 8], dtype=np.uint32)


def test_bits_to_mask_puts_bit_i_in_column_i() -> None:
    bits = np.array([0b1011, 0, 0b10000], dtype=np.uint32)
    assert tricks.bits_to_mask(bits, 5).tolist() == [
        [True, True, False, True, False],
        [False] * 5,
        [False, False, False, False, True],
    ]
    wide = np.array([1 << 51 | 1 << 8, 1 << 63], dtype=np.uint64)
    mask = tricks.bits_to_mask(wide, 52)
    assert mask.shape == (2, 52) and mask.dtype == bool
    assert np.flatnonzero(mask[0]).tolist() == [8, 51] and not mask[1].any()  # bit 63 lies past n


def test_bits_to_mask_takes_strided_and_big_endian_arrays() -> None:
    bits = np.array([0b1, 0b111, 0b10, 0b1000], dtype=np.uint32)
    assert tricks.bits_to_mask(bits[::2], 4).tolist() == [
        [True, False, False, False],
        [False, True, False, False],
    ]
    assert tricks.bits_to_mask(bits.astype(">u4"), 4)[1].tolist() == [True, True, True, False]


def test_legal_bits_follow_when_able_else_anything() -> None:
    hand = np.array([0b0111, 0b0001, 0b0111], dtype=np.uint32)
    follow = np.array([0b0110, 0b0110, 0b0110], dtype=np.uint32)
    leading = np.array([False, False, True])
    assert tricks.legal_bits(hand, follow, leading).tolist() == [0b0110, 0b0001, 0b0111]
    assert tricks.legal_mask(hand, follow, leading, 4).tolist() == [
        [False, True, True, False],
        [True, False, False, False],
        [True, True, True, False],
    ]


def test_legal_mask_with_the_rounds_tables() -> None:
    # Clubs trump, no rank trumps; the hand holds 2H, 3S and 5C.
    ctx = C.context(np.array([C.parse_card("AC")] * 3), rank_trumps=False).astype(np.intp)
    hand = np.full(3, C.BIT[C.parse_card("2H")] | C.BIT[C.parse_card("3S")] | C.BIT[C.parse_card("5C")])
    led = np.array([C.parse_card("KH"), C.parse_card("KD"), -1])
    follow = C.FOLLOW[ctx, C.EFFECTIVE[ctx, np.maximum(led, 0)]]
    legal = tricks.legal_mask(hand, follow, led < 0, C.N_CARDS)
    names = [sorted(C.name(c) for c in np.flatnonzero(row)) for row in legal]
    assert names == [["2H"], ["2H", "3S", "5C"], ["2H", "3S", "5C"]]


# One context, two led suits, four items: under suit 0 items 1 and 2 tie; item 3 never takes a suit-0 trick.
KEY = np.array([[[0, 2, 2, -1], [-1, 5, 0, 1]]], dtype=np.int8)
LEAD_SUIT = np.array([[0, 1, 0, 1]], dtype=np.int8)


def test_beats_needs_a_strictly_higher_key_in_the_led_suit() -> None:
    zero = np.zeros(4, np.intp)
    suit = np.array([0, 0, 0, 1])
    item = np.array([1, 2, 3, 3])
    best = np.array([0, 1, 0, 2])
    assert tricks.beats(KEY, zero, suit, item, best).tolist() == [True, False, False, True]


def test_trick_keys_lead_keys_or_the_led_suit_row() -> None:
    lead_key = tricks.as_lead(KEY, LEAD_SUIT)
    assert lead_key.tolist() == [[0, 5, 2, 1]]
    ctx = np.zeros(2, np.intp)
    keys = tricks.trick_keys(lead_key, KEY, ctx, np.array([1, 0]), np.array([False, True]))
    assert keys.tolist() == [[-1, 5, 0, 1], [0, 5, 2, 1]]


def test_winning_key_and_can_take() -> None:
    ctx = np.zeros(3, np.intp)
    to_beat = tricks.winning_key(
        KEY, ctx, np.array([0, 1, 0]), np.array([1, 3, 0]), np.array([False, False, True])
    )
    assert to_beat.tolist() == [2, 1, -1]
    keys = np.array([[0, 2, 2, 3], [0, 1, 0, 5], [-1, -1, -1, -1]], dtype=np.int16)
    legal = np.array([[True, True, True, False], [True, True, False, True], [False, True, False, False]])
    # Row 0: only the illegal item beats 2; row 1: item 3 beats 1; row 2 leads, but no legal key is >= 0.
    assert tricks.can_take(keys, legal, to_beat).tolist() == [False, True, False]


def test_beaten_by_lists_the_strictly_higher_items() -> None:
    table = tricks.beaten_by(KEY, BIT4)
    assert table.dtype == np.uint32 and table.shape == (1, 2, 4)
    assert table[0, 0].tolist() == [0b0110, 0, 0, 0b0111]
    assert table[0, 1].tolist() == [0b1110, 0, 0b1010, 0b0010]
    wide = tricks.beaten_by(np.array([3, 9], np.int8), np.array([1, 1 << 51], np.uint64))
    assert wide.dtype == np.uint64 and wide.tolist() == [1 << 51, 0]


@dataclass
class _State(BatchState):
    deal: np.ndarray
    hands: np.ndarray


def _state(deals: list[int]) -> _State:
    deal = np.array(deals, np.int64)
    return _State(deal=deal, hands=np.stack([deal * 10, deal * 10 + 1], axis=1))


def test_batch_state_len_take_and_concat() -> None:
    s = _state([4, 5, 6])
    assert len(s) == 3
    part = s.take(np.array([2, 0]))
    assert (
        isinstance(part, _State)
        and part.deal.tolist() == [6, 4]
        and part.hands.tolist() == [[60, 61], [40, 41]]
    )
    assert s.take(np.array([False, True, False])).deal.tolist() == [5]
    both = _State.concat([s, _state([7])])
    assert isinstance(both, _State) and both.deal.tolist() == [4, 5, 6, 7]
    assert both.hands[3].tolist() == [70, 71]
    assert _State.concat([s]) is s
    with pytest.raises(ValueError):
        _State.concat([])
