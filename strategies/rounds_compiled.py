# The kernel takes the view's arrays and the tables one by one (numba takes no dataclass).
# ruff: noqa: PLR0913, PLR0917
"""The Rounds heuristic's and greedy player's decisions compiled (numba): one call per step loops over the
step's rows, scoring each row's legal cards one at a time (the heuristic from its tables,
`strategies.rounds._Tables`).

`Heuristic.decide_numpy` and `Greedy.decide_numpy` (strategies.rounds) are the same decisions in numpy, kept
as their statement (tests/test_rounds_strategies.py checks that both choose alike). Imported only where they
decide (numba is slow to import); compiled on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# A card's position from its bit (a power of two): a de Bruijn sequence times the bit has a distinct top six
# bits for each position.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_POSITION = np.zeros(64, np.int64)
for _p in range(64):
    _POSITION[((int(_DE_BRUIJN) << _p) & 0xFFFFFFFFFFFFFFFF) >> 58] = _p


@njit(cache=True)
def _lowest(bits, position):
    """The position of the lowest set bit of a non-zero uint64."""
    low = bits & (~bits + np.uint64(1))
    return position[np.intp((low * _DE_BRUIJN) >> np.uint64(58))]


@njit(cache=True)
def _unbeatable_leads(unseen, trump, trump_rank, rank_bits, suit_bits, above_table):
    """The cards that no unseen card could beat if led now (`strategies.rounds._unbeatable_leads`)."""
    rank_trumps = np.uint64(0)
    if trump_rank >= 0:
        rank_trumps = rank_bits[trump_rank] & ~suit_bits[trump]
    plain = unseen & ~rank_trumps
    above = np.uint64(0)
    for suit in range(4):
        shift = np.uint64(13 * suit)
        above |= above_table[np.intp((plain >> shift) & np.uint64(0x1FFF))] << shift
    trump_bits = suit_bits[trump]
    sure = np.uint64(0)
    if (unseen & (trump_bits | rank_trumps)) == 0:  # plain suits: only while no trump is out
        sure = above & ~trump_bits & ~rank_trumps
    trump_part = np.uint64(0)
    if (unseen & rank_trumps) == 0:
        trump_part = above & trump_bits & ~rank_trumps
    return sure | trump_part | rank_trumps


@njit(cache=True)
def decide(
    legal,
    seat,
    hand,
    played,
    face_up,
    trump,
    trump_rank,
    led,
    trick,
    stage_points,
    stage_tricks,
    lead_table,
    follow_table,
    points,
    lose_table,
    key,
    lead_key,
    effective,
    rank_bits,
    suit_bits,
    above_table,
    all_cards,
    duck,
    duck_threshold,
    position,
):
    """(m,) the heuristic's card for each row: the best-scored legal card (the lowest on ties), leading
    (cash a card nothing unseen beats, else lead low) or following (`_Tables.follow`); on a stage's fifth
    trick, with `duck`, the cheapest losing card where losing on purpose leaves the better difference (card
    points beyond `duck_threshold`, the sweep bonus plus the margin)."""
    m = len(legal)
    out = np.empty(m, np.intp)
    for i in range(m):
        bits = legal[i]
        rank = 13 if trump_rank[i] < 0 else trump_rank[i]
        ctx = np.intp(trump[i]) * 14 + rank
        first = np.intp(led[i])
        sure = np.uint64(0)
        if first < 0:
            seen = hand[i] | played[i]
            for j in range(2):
                if face_up[i, j] >= 0:
                    seen |= np.uint64(1) << np.uint64(face_up[i, j])
            sure = _unbeatable_leads(
                all_cards & ~seen, trump[i], trump_rank[i], rank_bits, suit_bits, above_table
            )
        best = -1
        best_score = 0
        rest = bits
        while rest != 0:
            c = _lowest(rest, position)
            rest &= rest - np.uint64(1)
            if first < 0:
                score = lead_table[(2 * 52) * ctx + 2 * c + np.intp((sure >> np.uint64(c)) & np.uint64(1))]
            else:
                score = follow_table[(ctx * 52 + first) * 52 + c]
            if best < 0 or score > best_score:
                best, best_score = c, score
        if duck and trick[i] == 4:
            me = seat[i]
            at_stake = 0 if first < 0 else points[first]
            my_tricks = stage_tricks[i, me]
            lose = (my_tricks == 4 and stage_points[i, me] - at_stake > duck_threshold) or (
                my_tricks == 0 and stage_points[i, 1 - me] - at_stake > duck_threshold
            )
            if lose:
                # To lose: following, any card that does not beat the lead; leading, the weakest card.
                suit = 0 if first < 0 else effective[ctx, first]
                to_beat = -1 if first < 0 else key[ctx, suit, first]
                best = -1
                best_score = 0
                rest = bits
                while rest != 0:
                    c = _lowest(rest, position)
                    rest &= rest - np.uint64(1)
                    if first < 0:
                        losing = -16 * np.int64(lead_key[ctx, c])
                    else:
                        losing = -2000 if key[ctx, suit, c] > to_beat else 0
                    score = np.int16(losing + lose_table[ctx, c])
                    if best < 0 or score > best_score:
                        best, best_score = c, score
        out[i] = best
    return out


@njit(cache=True)
def greedy(legal, trump, trump_rank, led, key, lead_key, effective, lowest, position):
    """(m,) the greedy card for each row: where a legal card takes the trick, the strongest one (its key in
    the trick); else the lowest (`lowest`: the fewest points, then the lowest rank). The first on ties."""
    m = len(legal)
    out = np.empty(m, np.intp)
    for i in range(m):
        bits = legal[i]
        rank = 13 if trump_rank[i] < 0 else trump_rank[i]
        ctx = np.intp(trump[i]) * 14 + rank
        first = np.intp(led[i])
        suit = 0 if first < 0 else effective[ctx, first]
        to_beat = -1 if first < 0 else key[ctx, suit, first]
        can_win = False
        rest = bits
        while rest != 0:
            c = _lowest(rest, position)
            rest &= rest - np.uint64(1)
            strength = lead_key[ctx, c] if first < 0 else key[ctx, suit, c]
            if strength > to_beat:
                can_win = True
        best = -1
        best_score = 0
        rest = bits
        while rest != 0:
            c = _lowest(rest, position)
            rest &= rest - np.uint64(1)
            if can_win:
                score = np.int64(lead_key[ctx, c] if first < 0 else key[ctx, suit, c])
            else:
                score = np.int64(lowest[c])
            if best < 0 or score > best_score:
                best, best_score = c, score
        out[i] = best
    return out
