"""The 52-card deck and the lookup tables that turn the trick rules of Rounds into gathers.

Encoding: card id c = suit * 13 + rank, suit 0..3 (clubs, diamonds, hearts, spades), rank 0..12 for
2, 3, ..., 10, J, Q, K, A. A hand is a uint64 bitmask with bit c set for each card held. Players are 0 and 1.

A trick is played in a trump context: the trump suit and, with `rank_trumps`, the rank of the turned-up
card whose other three cards rank above the whole trump suit. Context index = trump * 14 + rank, where
rank 13 means "no rank trumps".
"""

from __future__ import annotations

import re

import numpy as np

from simulator import tricks
from simulator.errors import DealsimError
from simulator.rounds.rules import RANK_NAMES

N_CARDS = 52
SUIT_NAMES = ("C", "D", "H", "S")
SUIT = np.arange(N_CARDS) // 13
RANK = np.arange(N_CARDS) % 13
BIT = (np.uint64(1) << np.arange(N_CARDS, dtype=np.uint64)).astype(np.uint64)
ALL = np.uint64((1 << N_CARDS) - 1)
SUIT_BITS = np.array([sum(1 << c for c in range(N_CARDS) if SUIT[c] == s) for s in range(4)], dtype=np.uint64)
RANK_BITS = np.array(
    [sum(1 << c for c in range(N_CARDS) if RANK[c] == r) for r in range(13)], dtype=np.uint64
)
NO_RANK = 13
N_CONTEXTS = 4 * 14


def name(c: int) -> str:
    return RANK_NAMES[RANK[c]] + SUIT_NAMES[SUIT[c]]


def parse_card(text: str) -> int:
    m = re.fullmatch(r"\s*(10|[2-9JQKA])([CDHS])\s*", text.upper())
    if not m:
        raise DealsimError(f"not a card: {text!r} (write it like 10H or QS)")
    return SUIT_NAMES.index(m[2]) * 13 + RANK_NAMES.index(m[1])


def bits_to_ids(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def context(trump_card: np.ndarray, rank_trumps: bool) -> np.ndarray:
    """The trump context index of tricks played under the turned-up card(s) `trump_card`."""
    trump_card = np.asarray(trump_card, dtype=np.intp)
    rank = RANK[trump_card] if rank_trumps else NO_RANK
    return SUIT[trump_card] * 14 + rank


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # EFFECTIVE[ctx, c]: the suit a card belongs to in that context (a rank trump belongs to the trumps).
    # KEY[ctx, led_suit, c]: how strongly c stands in a trick whose lead belongs to led_suit; the highest
    # key takes the trick, and of equal keys (two rank trumps) the first played. Rank trumps 40, trumps
    # 20 + rank, the led suit its rank, anything else -1.
    # FOLLOW[ctx, suit]: the cards that belong to that suit in that context.
    effective = np.empty((N_CONTEXTS, N_CARDS), dtype=np.int8)
    key = np.full((N_CONTEXTS, 4, N_CARDS), -1, dtype=np.int8)
    follow = np.zeros((N_CONTEXTS, 4), dtype=np.uint64)
    for trump in range(4):
        for rank in range(14):
            ctx = trump * 14 + rank
            for c in range(N_CARDS):
                rank_trump = rank != NO_RANK and RANK[c] == rank and SUIT[c] != trump
                effective[ctx, c] = trump if rank_trump else SUIT[c]
                follow[ctx, effective[ctx, c]] |= np.uint64(1 << c)
                for led in range(4):
                    if rank_trump:
                        key[ctx, led, c] = 40
                    elif SUIT[c] == trump:
                        key[ctx, led, c] = 20 + RANK[c]
                    elif SUIT[c] == led:
                        key[ctx, led, c] = RANK[c]
    return effective, key, follow


EFFECTIVE, KEY, FOLLOW = _tables()

# For strategies: LEAD_KEY[ctx, c] is c's strength when it is led; BEATS_LEAD[ctx, c] the cards that would
# take a trick that c leads.
LEAD_KEY = tricks.as_lead(KEY, EFFECTIVE)
BEATS_LEAD = tricks.as_lead(tricks.beaten_by(KEY, BIT), EFFECTIVE)
IS_TRUMP = (np.arange(N_CONTEXTS) // 14)[:, None] == EFFECTIVE
# FOLLOW_CARD[ctx, c]: the cards that follow c when c is led (FOLLOW of c's suit in that context).
FOLLOW_CARD = np.take_along_axis(
    FOLLOW, EFFECTIVE.astype(np.intp), axis=1
)  # [ctx, c]: c is a trump (rank trumps too)
