"""What the learned Forty-two strategy reads of a hand's play record that needs a walk through it: the
suits each seat has shown out of (compiled, numba; one pass over each row's plays).

Imported on the learned strategy's first play, so that numba loads only where Forty-two is played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
