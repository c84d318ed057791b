"""Compiled steps of the batched Forty-two core (numba): each kernel loops over a group's rows once, where the
numpy form of the same step makes a dozen passes over the batch, each paying numpy's per-call cost.

The core (`core.py`) imports this module on its first step, so that numba loads only when Forty-two plays.
Every kernel writes exactly what the numpy step it replaces wrote: the same fields, the same values, in the
state's own dtypes (the outcomes and the strategies' draws stay the same). `rows` is an int64 array of row
numbers, or None for every row (a loop of its own, compiled apart: the row is then the loop's counter, which
the compiler can see through); the state's arrays are passed as they are (C-contiguous, the row first).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.np.random.random_methods import random_interval

from simulator.fortytwo import dominoes as D
from simulator.fortytwo.view import BID_VALUE, CALL, DONE, NELLO, PLAY, PLUNGE, SPLASH, TRUMP

# Integer constants as numba sees them (module globals are frozen into the compiled code).
_N = D.N_DOMINOES
_SEVENS = D.SEVENS_CTX
_CALL, _TRUMP, _PLAY, _DONE = CALL, TRUMP, PLAY, DONE
_NELLO, _PLUNGE, _SPLASH = NELLO, PLUNGE, SPLASH
# The rule tables, frozen into the compiled code as constants.
_DOUBLE_BITS = D.DOUBLE_BITS
_FOLLOW_FLAT, _SEVENS_DISTANCE = D.FOLLOW_FLAT, D.SEVENS_DISTANCE
_LEAD_SUIT, _KEY_FLAT = D.LEAD_SUIT, D.KEY_FLAT


@njit(cache=True, nogil=True)
def shuffled_hands(rng, n):
    """(n, 4) uint32: each row a uniform deal, drawn as numpy's `rng.permuted` draws a row of 0..27 (a
    Fisher-Yates shuffle from the last place down, each place's partner from `random_interval`, rows in
    order), so that the hands and the generator's state after them are the ones numpy's form gives; a row's
    places 7k..7k+6 are seat k's hand."""
    out = np.zeros((n, 4), np.uint32)
    order = np.empty(_N, np.int64)
    bitgen = rng.bit_generator
    for r in range(n):
        for k in range(_N):
            order[k] = k
        for i in range(_N - 1, 0, -1):
            j = np.intp(random_interval(bitgen, i))
            order[i], order[j] = order[j], order[i]
        for k in range(_N):
            out[r, k // 7] |= np.uint32(1) << np.uint32(order[k])
    return out


@njit(cache=True, nogil=True)
def call_words(rows, table, fields, plunge, splash, forced):
    """(m,) uint64: the legal calls of each row as one word (bit a = call action a), as `core._call_inputs`
    builds the mask: the ladder's row for the bid so far (`table`, packed), the special bids by the
    caller's doubles, no bid from a seat that has bid, and the stuck dealer's pass taken away."""
    bid, turn, bidders, n_calls, high, hands = fields
    double_bits = _DOUBLE_BITS
    m = len(bid) if rows is None else len(rows)
    out = np.empty(m, np.uint64)
    one = np.uint64(1)
    for j in range(m):
        i = j if rows is None else rows[j]
        seat = turn[i]
        w = table[bid[i]]
        doubles = 0
        if plunge or splash:
            h = hands[i, seat] & double_bits
            while h:
                h &= h - np.uint32(1)
                doubles += 1
        if not (plunge and doubles >= 4):
            w &= ~(one << np.uint64(_PLUNGE))
        if not (splash and doubles >= 3):
            w &= ~(one << np.uint64(_SPLASH))
        if (bidders[i] >> seat) & 1:
            w &= one
        if forced and n_calls[i] == 3 and high[i] == 0:
            w &= ~one
        out[j] = w
    return out


@njit(cache=True, nogil=True)
def apply_calls(rows, actions, fields, one_lap):
    """`core._apply_calls` row by row: record the call, raise the bid, and end the auction where the rules
    end it (thrown in, or to the declarer, or his partner after a plunge or splash, to name trumps)."""
    turn, calls, n_calls, passes, high, bid, high_bidder, bidders, leader, phase = fields
    for j in range(len(actions)):
        i = j if rows is None else rows[j]
        a = actions[j]
        seat = turn[i]
        calls[i, n_calls[i]] = a
        n_calls[i] += 1
        if a > 0:
            if a in (_PLUNGE, _SPLASH):
                v = bid[i]
                marks = 0 if v <= 0 else (1 if v <= 42 else v // 42)
                least = 4 if a == _PLUNGE else 2
                value = 42 * max(least, marks + 1)
            else:
                value = BID_VALUE[a]
            passes[i] = 0
            high[i] = a
            bid[i] = value
            high_bidder[i] = seat
            bidders[i] |= np.uint8(1 << seat)
        else:
            passes[i] += 1
        over = n_calls[i] == 4 if one_lap else (passes[i] == 3 and high[i] > 0) or passes[i] == 4
        if over:
            namer = high_bidder[i]
            if high[i] in (_PLUNGE, _SPLASH):
                namer = (namer + 2) & 3
            turn[i] = namer
            leader[i] = namer
            phase[i] = _DONE if high[i] == 0 else _TRUMP
        else:
            turn[i] = (seat + 1) & 3
            leader[i] = -1
            phase[i] = _CALL


@njit(cache=True, nogil=True)
def play_bits(rows, hands, turn, led, ctx):
    """(m,) uint64: the legal plays of each row as a bitmask, as `core._play_bits`: the dominoes that follow
    the led suit, or the whole hand when leading or void; under sevens the ones closest to seven pips."""
    follow_flat, sevens_distance = _FOLLOW_FLAT, _SEVENS_DISTANCE
    m = len(turn) if rows is None else len(rows)
    out = np.empty(m, np.uint64)
    for j in range(m):
        i = j if rows is None else rows[j]
        hand = hands[i, turn[i]]
        c = ctx[i]
        s = led[i]
        bits = hand
        if s >= 0:
            follow = hand & follow_flat[c * 8 + s]
            if follow:
                bits = follow
        if c == _SEVENS:
            best = 99
            for d in range(_N):
                if (bits >> d) & 1 and sevens_distance[d] < best:
                    best = sevens_distance[d]
            closest = np.uint32(0)
            for d in range(_N):
                if (bits >> d) & 1 and sevens_distance[d] == best:
                    closest |= np.uint32(1) << np.uint32(d)
            bits = closest
        out[j] = bits
    return out


@njit(cache=True, nogil=True)
def apply_plays(rows, dominoes, count, fields, decided, stop_when_decided):
    """`core._apply_plays` row by row: the domino leaves the hand, joins the trick and may take it; a full
    trick scores its points + 1 to its taker's side, who leads next; the hand ends after seven tricks, or
    (marks without play_out, `stop_when_decided`) once the contract is made or set (`decided`: the bid,
    declarer and what was named, read only then)."""
    hands, played, plays, n_played, turn, ctx, trick_start, per_trick, sitter = fields[:9]
    led, winner, winning, win_key, trick_points, points, leader, tricks_done, phase = fields[9:]
    bid, high_bidder, trump = decided
    lead_suit, key_flat = _LEAD_SUIT, _KEY_FLAT
    for j in range(len(dominoes)):
        i = j if rows is None else rows[j]
        d = dominoes[j]
        seat = turn[i]
        bit = np.uint32(1) << np.uint32(d)
        hands[i, seat] &= ~bit
        played[i] |= bit
        k = n_played[i]
        plays[i, k] = d
        c = ctx[i]
        s = lead_suit[c, d] if k == trick_start[i] else led[i]
        key = key_flat[(c * 8 + s) * _N + d]
        w, wd, wk = winner[i], winning[i], win_key[i]
        if key > wk:  # the lead has key >= 0 and the key is -1 between tricks
            w, wd, wk = seat, d, key
        tp = trick_points[i] + count[d]
        k += 1
        n_played[i] = k
        if k - trick_start[i] == per_trick[i]:
            side = w & 1
            points[i, side] += tp + 1
            leader[i] = w
            turn[i] = w
            trick_start[i] = k
            tricks_done[i] += 1
            over = tricks_done[i] == 7
            if stop_when_decided and not over:
                b = bid[i]
                decl = high_bidder[i]
                dside = decl & 1
                decl_pts, def_pts = points[i, dside], points[i, 1 - dside]
                nello = trump[i] == _NELLO
                if b < 42:
                    over = decl_pts >= b or def_pts > 42 - b
                elif not nello:
                    over = side != dside
                if nello and w == decl:
                    over = True
            if over:
                phase[i] = _DONE
            led[i] = -1
            winner[i] = -1
            winning[i] = -1
            win_key[i] = -1
            trick_points[i] = 0
        else:
            following = (seat + 1) & 3
            if following == sitter[i]:  # nello: the partner sits out
                following = (following + 1) & 3
            turn[i] = following
            led[i] = s
            winner[i] = w
            winning[i] = wd
            win_key[i] = wk
            trick_points[i] = tp
