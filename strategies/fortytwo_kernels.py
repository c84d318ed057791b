"""The heuristic's ladder bid and its play as compiled row loops (numba): the same actions as the numpy forms
in `strategies.fortytwo` (`Heuristic._ladder_call`, `Heuristic.play_bits`), in one pass over the rows
instead of dozens of passes over the batch. The floating-point values are formed in the same order from the
same operands as there, so every comparison comes out the same.

Imported on the heuristic's first decision, so that numba loads only where Forty-two is played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.bitops import popcount
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.view import BID_210, BID_VALUE, PLUNGE, SPLASH

_N = D.N_DOMINOES
# the tables, frozen into the compiled code as constants
_PIP_BITS = D.PIP_BITS
_DOUBLE_BITS = D.DOUBLE_BITS
_TRUMP_BITS = D.TRUMP_BITS
_ALL = D.ALL
_BIDS_UP = np.array([*range(1, PLUNGE), BID_210, PLUNGE, SPLASH], np.int64)
_BID_VALUE = BID_VALUE
_LEAD_KEY = D.LEAD_KEY.astype(np.int64)
_BEATS_LEAD = D.BEATS_LEAD
_IS_TRUMP = D.IS_TRUMP
_BEATS = D.BEATS
_KEY = D.KEY.astype(np.int64)


# the lowest set bit's position by de Bruijn's multiplication: _DE_BRUIJN[((low * _MAGIC) mod 2**32) >> 27]
_MAGIC = 0x077CB531
_DE_BRUIJN = np.zeros(32, np.int64)
for _p in range(32):
    _DE_BRUIJN[(((1 << _p) * _MAGIC) & 0xFFFFFFFF) >> 27] = _p


@njit(cache=True, nogil=True)
def _lowest(bits):
    """The position of the lowest set bit of a nonzero uint32."""
    low = np.uint64(bits & (~bits + np.uint32(1)))
    return _DE_BRUIJN[((low * np.uint64(_MAGIC)) & np.uint64(0xFFFFFFFF)) >> np.uint64(27)]


@njit(cache=True, nogil=True)
def ladder_calls(view, legal, weights, bidding, tables, one_lap, min_bid):
    """(m,) the ladder bidder's call for each row (`Heuristic._ladder_call` with the seed's count and pip
    declarations only): `view` = (hand, seat, high_bidder, high_bid, calls, n_calls), `legal` the (m, 49)
    mask, `weights` = (base, trump, trump double, double, exposed), `bidding` = (margin, overcall_margin,
    partner_gain, preempt), `tables` = (trump double ids, exposed-if-trump bits, trump order, beats-off)."""
    hand, seat, high_bidder, high_bid, calls, n_calls = view
    base, w_trump, w_trump_double, w_double, w_exposed = weights
    margin, overcall_margin, partner_gain, preempt = bidding
    trump_double_id, exposed_if_trump, trump_order, beats_off = tables
    m = len(hand)
    out = np.empty(m, np.intp)
    for i in range(m):
        h = hand[i]
        doubles = np.int64(popcount(h & _DOUBLE_BITS))
        # hand_values and named_trump: the best pip, the higher on ties (argmax of value * 8 + pip)
        named, best, worth = 0, -np.inf, 0.0
        for p in range(7):
            trumps = np.int64(popcount(h & _PIP_BITS[p]))
            td = (h >> trump_double_id[p]) & np.uint32(1)
            exposed = np.int64(popcount(h & exposed_if_trump[p]))
            value = (
                base
                + w_trump * trumps
                + w_trump_double * td
                + w_double * (doubles - np.int64(td))
                - w_exposed * exposed
            )
            key = value * 8 + p
            if key > best:
                named, best, worth = p, key, value
        # sure_every_trick: the unbroken run of top trumps covers the trumps out, and no non-trump held can
        # be beaten by a domino out
        out_trumps = 7 - np.int64(popcount(h & _TRUMP_BITS[named]))
        run = 0
        for j in range(7):
            if (h >> np.uint32(trump_order[named, j])) & np.uint32(1):
                run += 1
            else:
                break
        sure = run >= out_trumps
        if sure:
            for d in range(_N):
                if (h >> np.uint32(d)) & np.uint32(1) and beats_off[named, d] & ~h:
                    sure = False
                    break
        # lowest_bid
        lowest = 0
        for a in _BIDS_UP:
            if legal[i, a]:
                lowest = a
                break
        lowest_value = _BID_VALUE[lowest]
        held = high_bidder[i] >= 0
        partner_holds = held and (high_bidder[i] & 1) == (seat[i] & 1)
        opponent_holds = held and not partner_holds
        if one_lap:
            last = n_calls[i] >= 3
        else:
            bids = 0
            for k in range(calls.shape[1]):
                if calls[i, k] > 0:
                    bids += 1
            last = bids >= 3
        limit = np.int16(np.floor(worth - margin - overcall_margin * (1.0 if opponent_holds else 0.0)))
        limit = min(limit, np.int16(41))
        step = 0.0 if last else preempt
        level = np.int16(np.ceil(lowest_value + step * max(np.int16(limit - lowest_value), np.int16(0))))
        level = max(level, np.int16(min_bid))
        ok = lowest > 0 and lowest_value <= limit
        ok = ok and (not partner_holds or limit >= high_bid[i] + partner_gain)
        slam_action = 42 if lowest_value <= 42 else lowest
        slam = sure and lowest > 0 and (not partner_holds or (not last and high_bid[i] < 42))
        ok = ok or not legal[i, 0]
        action = level if ok else 0
        out[i] = slam_action if slam else action
    return out


@njit(cache=True, nogil=True)
def plays(view, legal, lead_walker, lead_cheap, follow, n_winning_keys):
    """(m,) the heuristic's play for each row (`Heuristic.play_bits` without nello): each legal domino scored
    by the lead tables (drawing trumps, a walker, else the cheapest) or by the follow table's row for the
    trick, the best score taken, the lowest domino on ties. `view` = (hand, seat, high_bidder, ctx, led,
    winner, winning, played, n_played, trick_start); `legal` (m,) uint32 bitmasks."""
    hand, seat, high_bidder, ctx, led, winner, winning, played, n_played, trick_start = view
    m = len(hand)
    out = np.empty(m, np.intp)
    for i in range(m):
        t = np.int64(ctx[i])
        h = hand[i]
        unseen = _ALL & ~(h | played[i])
        bits = legal[i]
        best_d, best_score = -1, np.int64(0)
        if led[i] < 0:
            declaring = (high_bidder[i] & 1) == (seat[i] & 1)
            draw = declaring and (unseen & _TRUMP_BITS[t]) != 0 and (h & _TRUMP_BITS[t]) != 0
            while bits:
                d = _lowest(bits)
                bits &= bits - np.uint32(1)
                if draw:
                    score = _LEAD_KEY[t, d]
                elif (_BEATS_LEAD[t, d] & unseen) == 0 and not _IS_TRUMP[t, d]:
                    score = np.int64(lead_walker[t, d])
                else:
                    score = np.int64(lead_cheap[t, d])
                if best_d < 0 or score > best_score:
                    best_d, best_score = d, score
        else:
            s = np.int64(led[i])
            w = np.int64(winning[i])
            partner = (winner[i] & 1) == (seat[i] & 1)
            last = n_played[i] - trick_start[i] == 3
            safe = partner and (last or (_BEATS[t, s, w] & unseen) == 0)
            win_key = _KEY[t, s, w]
            row = ((t * 8 + s) * n_winning_keys + win_key + 1) * 2 + (1 if safe else 0)
            while bits:
                d = _lowest(bits)
                bits &= bits - np.uint32(1)
                score = np.int64(follow[row, d])
                if best_d < 0 or score > best_score:
                    best_d, best_score = d, score
        out[i] = best_d
    return out
