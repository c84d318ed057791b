"""Compiled helpers of the Rounds expert (`strategies.rounds_expert`): which of a seat's legal cards play
alike in every deal it may imagine.

Imported only where the expert decides: numba is slow to import; compiled on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.rounds import cards as C

# The tables the kernel takes, as one tuple: EFFECTIVE [ctx, c] a card's suit in a context, OWN [ctx, c] its
# strength in its own suit (KEY where that suit is led).
TABLES = (
    C.EFFECTIVE.astype(np.int64),
    np.take_along_axis(C.KEY, C.EFFECTIVE[:, None, :].astype(np.intp), axis=1)[:, 0].astype(np.int64),
)


@njit(cache=True)
def representatives(legal, rivals, ctx_now, ctx_later, points, keep, tables):
    """(m, 52) int64: for each legal card of each row the card searched in its place (itself, or the
    highest legal card it plays alike with for the rest of the stage), -1 where illegal.

    Two cards of the seat play alike, whatever the opponent holds, when they are worth the same points
    and the same `keep` (what holding one at the stage's end is worth), belong to the same suit in every
    context still to come (`ctx_now`, and `ctx_later` where trick 5 of stage 5 has another, else -1) and no
    card the opponent may hold (`rivals`: the unseen cards, and the card
    led) ranks between them there: the solver's own rule (`simulator.rounds.solver`) with every unseen card
    as a possible rival. `legal` and `rivals` are (m,) int64 bitmasks; `points` and `keep` (52,)."""
    eff, own = tables
    m = len(legal)
    out = np.full((m, 52), -1, np.int64)
    rk = np.zeros((2, 4), np.int64)
    cards = np.empty(52, np.int64)
    for i in range(m):
        n = 0
        x = legal[i]
        for c in range(52):
            if (x >> c) & 1:
                cards[n] = c
                n += 1
        for q in range(2):
            cx = ctx_now[i] if q == 0 else ctx_later[i]
            rk[q, 0] = rk[q, 1] = rk[q, 2] = rk[q, 3] = 0
            if cx < 0:
                continue
            z = rivals[i]
            for o in range(52):
                if (z >> o) & 1:
                    rk[q, eff[cx, o]] |= 1 << own[cx, o]
        for a in range(n):
            c = cards[a]
            best = c
            for b in range(n):
                d = cards[b]
                if d == c or points[d] != points[c] or keep[d] != keep[c]:
                    continue
                alike = True
                for q in range(2):
                    cx = ctx_now[i] if q == 0 else ctx_later[i]
                    if cx < 0:
                        break
                    s = eff[cx, c]
                    kc, kd = own[cx, c], own[cx, d]
                    if (
                        eff[cx, d] != s
                        or kd < kc
                        or (kd == kc and d < c)
                        or (kd > kc and rk[q, s] & ((2 << kd) - (2 << kc)) != 0)
                    ):
                        alike = False
                        break
                if alike:
                    # the highest of the cards alike with c (alike is transitive along a suit's ranks)
                    kb, kx = own[ctx_now[i], d], own[ctx_now[i], best]
                    if kb > kx or (kb == kx and d > best):
                        best = d
            out[i, c] = best
    return out
