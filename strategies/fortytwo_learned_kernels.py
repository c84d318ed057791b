"""What the learned Forty-two strategy reads of a hand's play record that needs a walk through it: the
suits each seat has shown out of (compiled, numba; one pass over each row's plays).

Imported on the learned strategy's first play, so that numba loads only where Forty-two is played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.bitops import popcount
from simulator.fortytwo import dominoes as D

# the tables, frozen into the compiled code as constants
_LEAD_SUIT = D.LEAD_SUIT.astype(np.int64)
_KEY = D.KEY.astype(np.int64)
_FOLLOW = D.FOLLOW


@njit(cache=True, nogil=True)
def shown_out(plays, n_played, ctx, first_leader):
    """(m, 4) uint32 [row, seat]: the dominoes each seat cannot hold by what it showed, the suits it did not
    follow when led. `plays` (m, 28) int8 in play order, `n_played` (m,), `ctx` (m,) the play context, and
    `first_leader` (m,) the seat that led the first trick; four dominoes a trick (not nello nor sevens)."""
    m = len(n_played)
    out = np.zeros((m, 4), np.uint32)
    for i in range(m):
        c = np.int64(ctx[i])
        cur = np.int64(first_leader[i])
        pos, led, best, win = 0, 0, np.int64(-1), cur
        for k in range(n_played[i]):
            d = np.int64(plays[i, k])
            if pos == 0:
                led = _LEAD_SUIT[c, d]
                best = -1
            elif not (_FOLLOW[c, led] >> np.uint32(d)) & np.uint32(1):
                out[i, cur] |= _FOLLOW[c, led]
            key = _KEY[c, led, d]
            if key > best:
                best, win = key, cur
            pos += 1
            if pos == 4:
                pos, cur = 0, win
            else:
                cur = (cur + 1) & 3
    return out


_TRUMP_BITS = D.TRUMP_BITS
_BEATS = D.BEATS
_ALL = D.ALL


@njit(cache=True, nogil=True)
def play_rows(view, count, offsets):
    """The row facts of `strategies.fortytwo_learned.PlayRows` for each row: (base (n_tables, m) int64 the
    row's part of each play table's flat index, masks (4, m) uint32 = (opp_after, opp_may, partner_ruffs,
    opp_ruffs), led8 (m,) int64, wkey (m,) int64). `view` = (hand, played, plays, n_played, trick_start,
    ctx, seat, high_bidder, led, winner, winning, points, high_bid); `count` (28,) int64 the count values;
    `offsets` each table's first flat index. The encodings are `PLAY_TABLES`'."""
    hand, played, plays, n_played, trick_start, ctx, seat = view[:7]
    high_bidder, led, winner, winning, points, bid = view[7:]
    out = shown_out(plays, n_played, ctx, high_bidder)
    counters = np.flatnonzero(count)
    m = len(hand)
    o = offsets
    base = np.empty((len(o), m), np.int64)
    masks = np.zeros((4, m), np.uint32)
    led8 = np.empty(m, np.int64)
    wkey = np.empty(m, np.int64)
    for i in range(m):
        c = np.int64(ctx[i])
        me = np.int64(seat[i])
        unseen = _ALL & ~(hand[i] | played[i])
        start = np.int64(trick_start[i])
        pos = np.int64(n_played[i]) - start
        lead = led[i] < 0
        mine = 1 if (me & 1) == (high_bidder[i] & 1) else 0
        partner = 1 if not lead and (winner[i] & 1) == (me & 1) else 0
        in_trick = 0
        for k in range(pos):
            in_trick += count[plays[i, start + k]]
        next_out, partner_out, prev_out = out[i, (me + 1) & 3], out[i, (me + 2) & 3], out[i, (me + 3) & 3]
        next_may, prev_may = unseen & ~next_out, unseen & ~prev_out
        opp_may = next_may | prev_may
        opp_after = opp_may if pos == 0 else (next_may if pos < 3 else np.uint32(0))
        trump_bits = _TRUMP_BITS[c]
        opp_trumps_n = np.int64(popcount(opp_may & trump_bits))
        own_trumps = min(np.int64(popcount(hand[i] & trump_bits)), 5)
        opp_count = 0
        for d in counters:
            if (opp_may >> np.uint32(d)) & np.uint32(1):
                opp_count += count[d]
        opp_count = 3 if opp_count > 20 else (2 if opp_count > 10 else (1 if opp_count > 0 else 0))
        opp_trumps = 1 if opp_may & trump_bits else 0
        partner_trumps = 1 if unseen & ~partner_out & trump_bits else 0
        s_led = max(np.int64(led[i]), 0)
        w = max(np.int64(winning[i]), 0)
        led8[i] = (c * 8 + s_led) * 28
        wkey[i] = -1 if winning[i] < 0 else _KEY[c, s_led, w]
        beats_winner = _BEATS[c, s_led, w]
        trick_safe = 1 if partner == 1 and (beats_winner & opp_after) == 0 else 0
        partner_over = 1 if pos == 1 and (beats_winner & unseen & ~partner_out) != 0 else 0
        # what the declarers can still lose and make a bid under 42: their points + all left - the bid
        side = high_bidder[i] & 1
        declarers = np.int64(points[i, side])
        left = 42 - np.int64(points[i, 0]) - np.int64(points[i, 1])
        b = np.int64(bid[i])
        spare = declarers + left - b
        if b >= 42:
            contract = 0
        elif declarers >= b or spare < 0:
            contract = 1
        else:
            contract = 2 if spare <= 7 else (3 if spare <= 15 else 4)
        s = pos * 4 + mine * 2 + partner  # situation
        trick_count = 2 if in_trick >= 9 else (1 if in_trick >= 2 else 0)
        base[0, i] = o[0] + s * 32
        base[1, i] = o[1] + s * 34 + 1
        base[2, i] = o[2] + s * 16 + min(opp_trumps_n, 3) * 4
        base[3, i] = o[3] + s * 12 + trick_count * 4
        base[4, i] = o[4] + (mine * 32 if lead else 64)
        base[5, i] = o[5] + s * 8
        base[6, i] = o[6] + min(start // 4, 6) * 16 + mine * 8
        base[7, i] = o[7] + (mine * 120 + own_trumps * 20 + min(opp_trumps_n, 4) * 4 if lead else 240)
        base[8, i] = o[8] + s * 16 + trick_safe * 8
        base[9, i] = o[9] + s * 80 + contract * 16
        base[10, i] = o[10] + s * 64 + opp_trumps * 32 + partner_trumps * 16
        base[11, i] = o[11] + (mine * 32 if lead else 64)
        base[12, i] = o[12] + s * 64 + opp_count * 16
        base[13, i] = o[13] + s * 16 + partner_over * 8
        masks[0, i] = opp_after
        masks[1, i] = opp_may
        masks[2, i] = partner_out if partner_trumps else np.uint32(0)
        masks[3, i] = (next_out | prev_out) if opp_trumps else np.uint32(0)
    return base, masks, led8, wkey


_LEAD_KEY = D.LEAD_KEY.astype(np.int64)
_BEATS_LEAD = D.BEATS_LEAD
_IS_TRUMP = D.IS_TRUMP
_IS_DOUBLE = D.IS_DOUBLE


@njit(cache=True, nogil=True)
def choose_plays(rows, legal, weights, count_class):
    """(m,) the legal domino of each row with the highest sum of play table weights, the lowest on ties: the
    domino's part of each table's flat index as `strategies.fortytwo_learned.play_index` forms it, added to
    the row's (`rows` = (ctx, base, masks, led8, wkey) of `play_rows`), the weights summed table by table in
    the same order. `legal` (m,) uint32 bitmasks; `count_class` (28,) int64."""
    ctx, base, masks, led8, wkey = rows
    m = len(legal)
    out = np.empty(m, np.intp)
    for i in range(m):
        c = np.int64(ctx[i])
        lead = wkey[i] < 0
        opp_after, opp_may, partner_ruffs, opp_ruffs = masks[0, i], masks[1, i], masks[2, i], masks[3, i]
        bits = legal[i]
        best_d, best_score = -1, 0.0
        for d in range(28):
            if not (bits >> np.uint32(d)) & np.uint32(1):
                continue
            if lead:
                key = _LEAD_KEY[c, d]
                wins = 1
                beat = _BEATS_LEAD[c, d]
            else:
                s_led = led8[i] // 28 - c * 8
                key = _KEY[c, s_led, d]
                wins = 1 if key > wkey[i] else 0
                beat = _BEATS[c, s_led, d]
            safe = 1 if wins == 1 and (beat & opp_after) == 0 else 0
            cnt = count_class[d]
            trump = 1 if _IS_TRUMP[c, d] else 0
            follow = _FOLLOW[c, _LEAD_SUIT[c, d]]
            leading = 1 if lead else 0
            suit_out = min(np.int64(popcount(follow & opp_may)), 3)
            pr = 1 if partner_ruffs & follow else 0
            orf = 1 if opp_ruffs & follow else 0
            # in table order, as the numpy sum adds them
            score = 0.0
            score += weights[base[0, i] + wins * 16 + safe * 8 + cnt * 2 + trump]
            score += weights[base[1, i] + trump * 17 + key]
            score += weights[base[2, i] + trump * 2 + wins]
            score += weights[base[3, i] + wins * 2 + safe]
            score += weights[base[4, i] + leading * (suit_out * 8 + trump * 4 + cnt)]
            score += weights[base[5, i] + (4 if _IS_DOUBLE[d] else 0) + cnt]
            score += weights[base[6, i] + wins * 4 + cnt]
            score += weights[base[7, i] + leading * (trump * 2 + safe)]
            score += weights[base[8, i] + wins * 4 + cnt]
            score += weights[base[9, i] + wins * 8 + safe * 4 + cnt]
            score += weights[base[10, i] + trump * 8 + safe * 4 + cnt]
            score += weights[base[11, i] + leading * (pr * 16 + orf * 8 + trump * 4 + cnt)]
            score += weights[base[12, i] + wins * 8 + safe * 4 + cnt]
            score += weights[base[13, i] + wins * 4 + cnt]
            if best_d < 0 or score > best_score:
                best_d, best_score = d, score
        out[i] = best_d
    return out
