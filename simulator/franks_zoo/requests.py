"""Help requests and what the junior could know when he made them: whether any cards he has not seen could
complete his laid cards into a set that beats the table.

A junior sees his own hand and the cards played face up, so the cards he has not seen are the deck less
those. A request *could be completed* when some completing set's added cards are all among them; with the
senior's card count (also in the junior's view), when they are also no more cards than the senior holds.
The rules let a junior ask whenever some set could complete his cards, counted or not (`view`); counting is
a strategy's part (`completable`), and `made` finds every request of finished hands and what the junior saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from simulator.franks_zoo import cards as C
from simulator.franks_zoo.view import ANSWER, ASK, PLAY

# The cards an answer adds to the laid partial p to make set s: [p, s], of p's kind, the chameleon, a mosquito
ADD_REAL = np.maximum(C.SETS[None, :, 1] - C.PARTIALS[:, None, 1], 0).astype(np.int16)
ADD_CH = np.maximum(C.SETS[None, :, 2] - C.PARTIALS[:, None, 2], 0).astype(np.int16)
ADD_MQ = np.maximum(C.SETS[None, :, 3] - C.PARTIALS[:, None, 3], 0).astype(np.int16)
ADD_SZ = ADD_REAL + ADD_CH + ADD_MQ


def _completions() -> np.ndarray:
    # All sets completing p and beating t are of p's kind and of one size (one more than t's of t's kind, or
    # t's size of a kind that beats it), so there are few: they differ only in the cards the senior adds.
    out = np.full((C.N_PARTIALS, C.N_SETS, 4), -1, np.intp)
    filled = np.zeros((C.N_PARTIALS, C.N_SETS), np.intp)
    for p, t, s in zip(*np.nonzero(C.COMPLETES[:, None, :] & C.BEATS[None, :, :])):
        out[p, t, filled[p, t]] = s
        filled[p, t] += 1
    return out


# COMPLETIONS[p, t]: the sets that complete partial p and beat set t, padded with -1
COMPLETIONS = _completions()
_DECK = C.DECK.astype(np.int16)
_PK = C.PARTIALS[:, 0].astype(np.intp)


def completable(
    hand: np.ndarray,
    played: np.ndarray,
    table: np.ndarray,
    partial: np.ndarray,
    senior_held: np.ndarray | None = None,
) -> np.ndarray:
    """(m,) bool, one row per request: could the senior complete the laid `partial` (PARTIALS index) into a
    set that beats `table` (SETS index) with cards the junior has not seen (not in his `hand`, not
    `played`, both (m, 13))? With `senior_held` (m,), also with no more cards than the senior holds."""
    unseen = _DECK - played.astype(np.int16) - hand.astype(np.int16)
    p, t = np.asarray(partial, np.intp), np.asarray(table, np.intp)
    ar = np.arange(len(p))
    ok = np.zeros(len(p), bool)
    for j in range(COMPLETIONS.shape[2]):
        s = COMPLETIONS[p, t, j]
        fits = (
            (s >= 0)
            & (ADD_REAL[p, s] <= unseen[ar, _PK[p]])
            & (ADD_CH[p, s] <= unseen[:, C.CHAMELEON])
            & (ADD_MQ[p, s] <= unseen[:, C.MOSQUITO])
        )
        if senior_held is not None:
            fits &= ADD_SZ[p, s] <= senior_held
        ok |= fits
    return ok


@cache
def odds_table() -> np.ndarray:
    """[a, u, c, n] -> in thousandths, rounded: the chance that a hand of c cards dealt from n unseen cards
    holds at least a of u given ones (hypergeometric); a, u 0..5, c 0..16, n 0..60; 0 where c or u exceeds
    n."""
    out = np.zeros((6, 6, 17, 61), np.int32)
    for n in range(61):
        for c in range(min(n, 16) + 1):
            for u in range(min(n, 5) + 1):
                at = [comb(u, x) * comb(n - u, c - x) for x in range(min(u, c) + 1)]
                whole = comb(n, c)
                for a in range(6):
                    out[a, u, c, n] = round(1000 * sum(at[a:]) / whole)
    return out


def odds(
    hand: np.ndarray, played: np.ndarray, table: np.ndarray, partial: np.ndarray, senior_held: np.ndarray
) -> np.ndarray:
    """(m,) int32, thousandths: how likely the senior holds the cards of the likeliest completion of
    `partial` on `table` (rows as `completable`), if his `senior_held` cards are any of the cards the junior
    has not seen: per completion the product of the chances of each kind of card it adds (the kind's cards,
    the chameleon, a mosquito), each rounded down to thousandths."""
    tab = odds_table()
    unseen = np.clip(_DECK - played.astype(np.int16) - hand.astype(np.int16), 0, 5)
    n = np.clip(_DECK.sum() - played.sum(axis=1, dtype=np.int32) - hand.sum(axis=1, dtype=np.int32), 0, 60)
    c = np.clip(np.asarray(senior_held, np.intp), 0, 16)
    p, t = np.asarray(partial, np.intp), np.asarray(table, np.intp)
    ar = np.arange(len(p))
    one_ch = tab[1, unseen[:, C.CHAMELEON], c, n]
    one_mq = tab[1, unseen[:, C.MOSQUITO], c, n]
    out = np.zeros(len(p), np.int32)
    for j in range(COMPLETIONS.shape[2]):
        s = COMPLETIONS[p, t, j]
        s0 = np.maximum(s, 0)
        chance = tab[np.minimum(ADD_REAL[p, s0], 5), unseen[ar, _PK[p]], c, n]
        chance = np.where(ADD_CH[p, s0] > 0, chance * one_ch // 1000, chance)
        chance = np.where(ADD_MQ[p, s0] > 0, chance * one_mq // 1000, chance)
        out = np.maximum(out, np.where(s >= 0, chance, 0))
    return out


@dataclass(frozen=True)
class Requests:
    """Every help request of a batch of finished hands, one entry per request, in the order of the rows."""

    row: np.ndarray  # the hand's row in the state
    junior: np.ndarray  # the asking seat
    table: np.ndarray  # the set on the table (SETS index)
    partial: np.ndarray  # the cards laid (PARTIALS index)
    granted: np.ndarray  # bool: the senior completed them
    completable: np.ndarray  # bool: cards the junior had not seen could complete them
    within_senior: np.ndarray  # bool: ... with no more cards than the senior held


def made(state) -> Requests:
    """The help requests of finished hands (`core.HandState`) from their move logs: the junior's hand and the
    cards played when he asked are the hand after the exchange less what was played before."""
    kind, action = state.move_kind, state.move_action
    # only the hands with a request (none in a game's first hand)
    rows = np.flatnonzero(((kind == PLAY) & (action >= ASK)).any(axis=1))
    kind, seat, action = (a[rows].astype(np.int64) for a in (kind, state.move_seat, action))
    n, width = kind.shape
    players = state.dealt.shape[1]
    sets = ((kind == PLAY) & (action >= 1) & (action < ASK)) | ((kind == ANSWER) & (action > 0))
    asks = (kind == PLAY) & (action >= ASK)
    # the cards each move puts face up (a helped set in full, on the answer) and those it takes from its
    # mover's hand: a set played; a granted request's laid cards; an answer's added cards
    shown = np.where(sets[..., None], C.SET_CARDS[np.where(sets, action - 1, 0)], 0).astype(np.int16)
    laid = np.where(asks[..., None], C.PARTIAL_CARDS[np.where(asks, action - ASK, 0)], 0).astype(np.int16)
    next_action = np.concatenate([action[:, 1:], np.zeros((n, 1), np.int64)], axis=1)
    granted = asks & (next_action > 0)  # a request is answered at once: the next move
    answers = (kind == ANSWER) & sets
    lost = np.where(((kind == PLAY) & sets)[..., None], shown, np.where(granted[..., None], laid, 0))
    lost[:, 1:] += np.where(answers[:, 1:, None], shown[:, 1:] - laid[:, :-1], 0).astype(np.int16)
    r, j = np.nonzero(asks)  # a request always follows a set, so j >= 1
    junior = seat[r, j]
    senior = state.partner[rows[r], junior].astype(np.int64)
    after_exchange = (state.dealt[rows] - state.given[rows] + state.received[rows]).astype(np.int16)
    hand = after_exchange[r, junior]
    senior_held = after_exchange[r, senior].sum(axis=1)
    # the cards gone from each seat's hand before the request, one seat at a time (a running sum over the
    # moves of that seat's cards: one (n, width, 13) array at a time)
    for who in range(players):
        gone = np.cumsum(np.where((seat == who)[..., None], lost, 0), axis=1, dtype=np.int16)
        mine, theirs = junior == who, senior == who
        hand[mine] -= gone[r[mine], j[mine] - 1]
        senior_held[theirs] -= gone[r[theirs], j[theirs] - 1].sum(axis=1)
    played = np.cumsum(shown, axis=1, dtype=np.int16)[r, j - 1]
    last_set = np.maximum.accumulate(np.where(sets, np.arange(width), -1), axis=1)
    table = action[r, last_set[r, j - 1]] - 1
    partial = action[r, j] - ASK
    return Requests(
        row=rows[r],
        junior=junior,
        table=table,
        partial=partial,
        granted=granted[r, j],
        completable=completable(hand, played, table, partial),
        within_senior=completable(hand, played, table, partial, senior_held),
    )
