"""Compiled dealing of the hands a Forty-two seat cannot see, for the expert (`strategies.fortytwo_expert`).

Imported only where the expert decides: numba is slow to import.

`deal_hidden` replays a seat's public record of the hand (the plays in order, from the first leader), finds
what each other seat has shown (the dominoes it played; the suits it showed out of: a seat that did not
follow the led suit held none of it then, hence holds none now; under sevens, a seat held nothing closer
to seven pips than what it played), and deals the dominoes still unseen to the three other seats, each
as many as it still holds (the nello sitter: his whole hand), uniformly over every deal consistent with
all that:

- each unseen domino gets the set of seats that may hold it (a class: one of the seven non-empty subsets of
  the three seats);
- a dynamic programme over the classes counts the consistent deals for every way of filling the seats, so
  the split of each class among its seats is drawn with the right weight (multinomial x completions),
  then the class's dominoes are shuffled into that split: every consistent deal is equally likely, and
  there are no dead ends and no retries;
- a seat that bid a plunge (splash) held at least four (three) doubles as dealt: a deal that breaks that
  is drawn again (at most 200 times; the last one is kept).

Randomness: each (row, sample) has its own splitmix64 stream seeded from the row's seed and the sample's
index, so sample j of a row is the same whether the samples are drawn together or one at a time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.fortytwo import dominoes as D

_SEVENS = D.SEVENS_CTX
# [d]: the dominoes strictly closer to seven pips than d (under sevens a player must play his closest).
CLOSER = np.array(
    [
        sum(1 << e for e in range(D.N_DOMINOES) if D.SEVENS_DISTANCE[e] < D.SEVENS_DISTANCE[d])
        for d in range(D.N_DOMINOES)
    ],
    np.int64,
)
_FACTORIAL = np.array([float(np.prod(np.arange(1, k + 1, dtype=np.float64))) for k in range(29)])
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# The tables the kernels take, as one tuple: FOLLOW [ctx, led] and LEAD_SUIT [ctx, d] and KEY [ctx, led, d]
# (dominoes.py), CLOSER [d], the doubles' bitmask, k! for k = 0..28.
TABLES = (
    D.FOLLOW.astype(np.int64),
    D.LEAD_SUIT.astype(np.int64),
    D.KEY.astype(np.int64),
    CLOSER,
    np.int64(D.DOUBLE_BITS),
    _FACTORIAL,
)
_MAX_TRIES = 200


@njit(cache=True)
def _next(state):
    """splitmix64: (new state, a uniform float in [0, 1))."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def shown(plays, n_played, contract, tables):
    """Replay the plays of one hand (`plays` in order, the first `n_played` of them) under `contract` =
    (ctx, first leader, nello sitter or -1): (played (4,) the dominoes each seat played, forbid (4,) the
    dominoes each seat cannot hold now by what it showed). `tables` is TABLES."""
    ctx, first_leader, sitter = contract
    follow, lead_suit, key, closer = tables[0], tables[1], tables[2], tables[3]
    played = np.zeros(4, np.int64)
    forbid = np.zeros(4, np.int64)
    per = 3 if sitter >= 0 else 4
    cur = first_leader
    pos = 0
    led = 0
    best = -1
    win = cur
    for k in range(n_played):
        d = plays[k]
        bit = np.int64(1) << d
        played[cur] |= bit
        if pos == 0:
            led = lead_suit[ctx, d]
            best = -1
        if ctx == 11:  # sevens: nothing closer to seven was held (leads included)
            forbid[cur] |= closer[d]
        elif pos > 0 and not (follow[ctx, led] >> d) & 1:
            forbid[cur] |= follow[ctx, led]  # showed out of the led suit
        kk = key[ctx, led, d]
        if kk > best:
            best = kk
            win = cur
        pos += 1
        if pos == per:
            pos = 0
            cur = win
        else:
            cur = (cur + 1) & 3
            if cur == sitter:
                cur = (cur + 1) & 3
    return played, forbid


@njit(cache=True)
def _completions(counts, allowed, caps, fact):
    """W[j, x0, x1, x2]: how many ways classes j.. fill seats holding exactly x0, x1, x2 more dominoes."""
    J = counts.shape[0]
    W = np.zeros((J + 1, 8, 8, 8))
    W[J, 0, 0, 0] = 1.0
    for j in range(J - 1, -1, -1):
        c = counts[j]
        a = allowed[j]
        for x0 in range(caps[0] + 1):
            for x1 in range(caps[1] + 1):
                for x2 in range(caps[2] + 1):
                    total = 0.0
                    for a0 in range(min(c, x0) + 1 if a & 1 else 1):
                        for a1 in range(min(c - a0, x1) + 1 if a & 2 else 1):
                            a2 = c - a0 - a1
                            if a2 > x2 or (a2 > 0 and not a & 4):
                                continue
                            w = W[j + 1, x0 - a0, x1 - a1, x2 - a2]
                            if w > 0.0:
                                total += fact[c] / (fact[a0] * fact[a1] * fact[a2]) * w
                    W[j, x0, x1, x2] = total
    return W


@njit(cache=True)
def _deal_row(members, counts, allowed, caps, W, fact, state, out):
    """One consistent deal into out (3,): draws a split of each class (weighted by its completions), then
    shuffles the class into it. Returns the generator state."""
    J = counts.shape[0]
    x0, x1, x2 = caps[0], caps[1], caps[2]
    out[:] = 0
    buf = np.empty(28, np.int64)
    for j in range(J):
        c = counts[j]
        a = allowed[j]
        state, u = _next(state)
        u *= W[j, x0, x1, x2]
        c0, c1, c2 = -1, -1, -1
        chosen = False
        for a0 in range(min(c, x0) + 1 if a & 1 else 1):
            for a1 in range(min(c - a0, x1) + 1 if a & 2 else 1):
                a2 = c - a0 - a1
                if chosen or a2 > x2 or (a2 > 0 and not a & 4):
                    continue
                w = W[j + 1, x0 - a0, x1 - a1, x2 - a2]
                if w <= 0.0:
                    continue
                w *= fact[c] / (fact[a0] * fact[a1] * fact[a2])
                c0, c1, c2 = a0, a1, a2  # the last feasible split, should rounding run past the end
                if u < w:
                    chosen = True
                else:
                    u -= w
        for i in range(c):
            buf[i] = members[j, i]
        for i in range(c - 1):  # Fisher-Yates
            state, u = _next(state)
            k = i + int(u * (c - i))
            buf[i], buf[k] = buf[k], buf[i]
        for i in range(c):
            s = 0 if i < c0 else (1 if i < c0 + c1 else 2)
            out[s] |= np.int64(1) << buf[i]
        x0 -= c0
        x1 -= c1
        x2 -= c2
    return state


@njit(cache=True)
def deal_hidden(rows, seeds, samples, tables):
    """Samples first..last-1 (`samples` = (first, last)) of every row: (m, last - first, 4) uint32 hands,
    the row's own seat holding `hand`, the three others dealt the unseen dominoes consistently with what they
    showed (module docstring). `rows` = (seat, hand, plays, n_played, ctx, first_leader, sitter,
    min_doubles), int64 arrays of m rows each, `min_doubles` (m, 4) the doubles each seat held as dealt at
    least (plunge 4, splash 3, else 0); `seeds` (m,) uint64; `tables` is TABLES. A row whose record admits no
    deal (it cannot arise in play) is dealt without the voids."""
    seat, hand, plays, n_played, ctx, first_leader, sitter, min_doubles = rows
    first, last = samples
    double_bits, fact = tables[4], tables[5]
    m = seat.shape[0]
    S = last - first
    out = np.zeros((m, S, 4), np.uint32)
    members = np.zeros((7, 28), np.int64)
    one = np.zeros(3, np.int64)
    for r in range(m):
        me = seat[r]
        c = max(ctx[r], 0)
        played, forbid = shown(plays[r], n_played[r], (c, first_leader[r], sitter[r]), tables)
        seen = np.int64(hand[r])
        for s in range(4):
            seen |= played[s]
        pool = ((np.int64(1) << 28) - 1) & ~seen
        caps = np.zeros(3, np.int64)
        need = np.zeros(3, np.int64)
        others = np.zeros(3, np.int64)
        for i in range(3):
            o = (me + 1 + i) & 3
            others[i] = o
            caps[i] = 7 - _popcount(played[o])
            need[i] = min_doubles[r, o] - _popcount(played[o] & double_bits)
        for attempt in range(2):
            # classes: the seats that may hold each unseen domino
            cls_count = np.zeros(8, np.int64)
            cls_members = np.zeros((8, 28), np.int64)
            p = pool
            while p:
                d = 0
                while not (p >> d) & 1:
                    d += 1
                p &= p - 1
                a = 0
                for i in range(3):
                    if attempt == 1 or not (forbid[others[i]] >> d) & 1:
                        a |= 1 << i
                if a == 0:
                    a = 7
                cls_members[a, cls_count[a]] = d
                cls_count[a] += 1
            J = 0
            for a in range(1, 8):
                if cls_count[a]:
                    J += 1
            counts = np.zeros(J, np.int64)
            allowed = np.zeros(J, np.int64)
            j = 0
            for a in range(1, 8):
                if cls_count[a]:
                    counts[j] = cls_count[a]
                    allowed[j] = a
                    members[j, :] = cls_members[a, :]
                    j += 1
            W = _completions(counts, allowed, caps, fact)
            if W[0, caps[0], caps[1], caps[2]] > 0.0:
                break
        for k in range(S):
            z = seeds[r] ^ (np.uint64(first + k + 1) * np.uint64(0x9E3779B97F4A7C15))
            state, _ = _next(z)
            for _t in range(_MAX_TRIES):
                state = _deal_row(members, counts, allowed, caps, W, fact, state, one)
                ok = True
                for i in range(3):
                    if need[i] > 0 and _popcount(one[i] & double_bits) < need[i]:
                        ok = False
                if ok:
                    break
            out[r, k, me] = hand[r]
            for i in range(3):
                out[r, k, others[i]] = one[i]
    return out
