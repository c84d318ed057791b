# The kernels take the state's arrays one by one (numba takes no dataclass): many arguments by necessity.
# ruff: noqa: PLR0913, PLR0917
"""Compiled (numba) steps of the batched Rounds core: one call per step loops over the step's rows.

The same rule work as the numpy formulation in `core` (which the reference engine checks), row by row:
a call costs one dispatch instead of some sixty numpy calls, which dominate a step on a chunk of games.
Imported only where Rounds plays (numba is slow to import); compiled on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.np.random.random_methods import random_interval  # numpy's own bounded draw, compiled

# index of stage k's shuffle in GameState.shuffles (k = 1..4), and stock left after stage k's deal (k = 0..3)
_SHUFFLE_AT = np.array([0, 34, 58, 72, 76], np.int64)
_STOCK_AFTER = np.array([33, 23, 13, 3], np.int64)


@njit(cache=True)
def _deal_stage(
    i,
    k,
    stock,
    face_up,
    faces,
    hands,
    dealt,
    dealer,
    leader,
    turn,
    ctx,
    first_dealer,
    shuffles,
    ctx_of,
    by_game,
    pile,
    order,
):
    """Deal stage k (1..4) to row i: the stock with the face-up card at its end, shuffled (new pile[j] =
    pile[shuffle[j]]), cards one at a time from the non-dealer, then the face-up card(s).
    `pile` and `order` are (34,) scratch space."""
    n_pile = _STOCK_AFTER[k - 1] + 1
    for j in range(n_pile - 1):
        pile[j] = stock[i, j]
    pile[n_pile - 1] = face_up[i, 0]
    at = _SHUFFLE_AT[k - 1]
    for j in range(n_pile):
        order[j] = pile[shuffles[i, at + j]]
    n_dealt = 10 if k < 4 else 2
    n_faces = 1 if k < 4 else 2
    for j in range(stock.shape[1]):
        stock[i, j] = -1
    if k < 4:
        for j in range(_STOCK_AFTER[k]):
            stock[i, j] = order[11 + j]
    d = first_dealer[i] if by_game else first_dealer[i] ^ (k & 1)
    to_non_dealer = np.uint64(0)
    to_dealer = np.uint64(0)
    for j in range(n_dealt):
        bit = np.uint64(1) << np.uint64(order[j])
        if j % 2 == 0:
            to_non_dealer |= bit
        else:
            to_dealer |= bit
    if d == 1:
        hands[i, 0] |= to_non_dealer
        hands[i, 1] |= to_dealer
    else:
        hands[i, 0] |= to_dealer
        hands[i, 1] |= to_non_dealer
    dealt[i, k, 0] = hands[i, 0]
    dealt[i, k, 1] = hands[i, 1]
    face_up[i, 0] = -1
    face_up[i, 1] = -1
    for j in range(n_faces):
        face_up[i, j] = order[n_dealt + j]
        faces[i, k, j] = order[n_dealt + j]
    dealer[i] = d
    turn[i] = 1 - d
    leader[i] = 1 - d
    ctx[i] = ctx_of[order[n_dealt]]


@njit(cache=True)
def apply(
    rows,
    cards,
    hands,
    played,
    plays,
    n_played,
    led,
    turn,
    leader,
    ctx,
    stage,
    trick,
    trick_leaders,
    trick_winners,
    stage_tricks,
    stage_points,
    first4,
    fifth,
    tricks,
    taken,
    stage_score,
    points,
    phase,
    stock,
    face_up,
    faces,
    dealt,
    dealer,
    first_dealer,
    shuffles,
    reply_wins,
    trick_points,
    ctx_of,
    sweep_bonus,
    by_game,
    done,
):
    """`core.apply` for rows `rows` playing `cards`: the card leaves its hand; a lead waits for the reply; a
    reply settles the trick, and a stage's fifth trick scores the stage and deals the next (or ends the
    game)."""
    pile = np.empty(34, np.int64)
    order = np.empty(34, np.int64)
    for j in range(len(rows)):
        i = rows[j]
        card = cards[j]
        seat = turn[i]
        bit = np.uint64(1) << np.uint64(card)
        hands[i, seat] ^= bit
        played[i] |= bit
        plays[i, n_played[i]] = card
        n_played[i] += 1
        first = led[i]
        if first < 0:
            led[i] = card
            turn[i] = 1 - seat
            continue
        first_player = leader[i]
        pair = first * 52 + card
        winner = seat if reply_wins[ctx[i] * 2704 + pair] else first_player
        won = trick_points[pair]
        k = stage[i]
        t = trick[i]
        at = k * 5 + t
        trick_leaders[i, at] = first_player
        trick_winners[i, at] = winner
        stage_tricks[i, winner] += 1
        stage_points[i, winner] += won
        trick[i] = t + 1
        led[i] = -1
        leader[i] = winner
        turn[i] = winner
        if t + 1 == 4:
            if stage_tricks[i, 1] == 4:
                first4[i, k] = stage_points[i, 1]
            elif stage_tricks[i, 0] == 4:
                first4[i, k] = stage_points[i, 0]
            else:
                first4[i, k] = -1
            if k == 4:  # trick 5 of stage 5 has its own trump card
                ctx[i] = ctx_of[face_up[i, 1]]
        elif t + 1 == 5:
            fifth[i, k] = won
            for p in range(2):
                score = sweep_bonus if stage_tricks[i, p] == 5 else stage_points[i, p]
                tricks[i, k, p] = stage_tricks[i, p]
                taken[i, k, p] = stage_points[i, p]
                stage_score[i, k, p] = score
                points[i, p] += score
                stage_tricks[i, p] = 0
                stage_points[i, p] = 0
            trick[i] = 0
            stage[i] = k + 1
            if k + 1 == 5:
                phase[i] = done
            else:
                _deal_stage(
                    i,
                    k + 1,
                    stock,
                    face_up,
                    faces,
                    hands,
                    dealt,
                    dealer,
                    leader,
                    turn,
                    ctx,
                    first_dealer,
                    shuffles,
                    ctx_of,
                    by_game,
                    pile,
                    order,
                )


@njit(cache=True)
def legal_bits(rows, turn, hands, led, ctx, follow_card):
    """(m,) uint64 the legal plays of the player to move in each of `rows`: the cards of his hand that follow
    the card led (`follow_card[ctx * 52 + led]`), else his whole hand."""
    out = np.empty(len(rows), np.uint64)
    for j in range(len(rows)):
        i = rows[j]
        hand = hands[i, turn[i]]
        first = led[i]
        if first >= 0:
            follow = hand & follow_card[ctx[i] * 52 + first]
            if follow != 0:
                hand = follow
        out[j] = hand
    return out


@njit(cache=True)
def permute_rows(rng, out, start, size):
    """Permute columns start..start+size of each row of `out` in place, rows in order, with the draws of
    `rng.permuted(rows, axis=1)` (numpy's shuffle: for i from the last down to 1, swap i with a j uniform in
    0..i), so the same Generator gives the same permutations and is left in the same state."""
    bitgen = rng.bit_generator
    for r in range(out.shape[0]):
        for i in range(size - 1, 0, -1):
            j = np.intp(random_interval(bitgen, i))
            held = out[r, start + j]
            out[r, start + j] = out[r, start + i]
            out[r, start + i] = held


@njit(cache=True)
def fifth_trick_calls(dealt, plays, winners, faces, ctx_of, follow_card, beats_lead, codes):
    """`fifth.fifth_trick_calls_numpy` row by row: (n, 5) int8 how each stage's fifth trick was decided.
    `codes` holds NOT_AT_STAKE, OPPONENT_TOOK, LET_THROUGH, TOOK and NO_CHOICE in that order."""
    n = plays.shape[0]
    out = np.empty((n, 5), np.int8)
    for i in range(n):
        for k in range(5):
            holder = winners[i, 5 * k]
            if not (winners[i, 5 * k + 1] == holder and winners[i, 5 * k + 2] == holder):
                out[i, k] = codes[0]
                continue
            if winners[i, 5 * k + 3] != holder:
                out[i, k] = codes[0]
                continue
            # the hands at trick 5: as dealt, less the eight cards of tricks 1-4
            gone = np.uint64(0)
            for j in range(8):
                gone |= np.uint64(1) << np.uint64(plays[i, 10 * k + j])
            mine = dealt[i, k, holder] & ~gone
            theirs = dealt[i, k, 1 - holder] & ~gone
            ctx = np.intp(ctx_of[faces[i, k, 1] if k == 4 else faces[i, k, 0]])
            beatable = np.uint64(0)
            for c in range(52):
                bit = np.uint64(1) << np.uint64(c)
                if mine & bit == 0:
                    continue
                legal = theirs & follow_card[ctx * 52 + c]
                if legal == 0:
                    legal = theirs
                if legal & beats_lead[ctx * 52 + c] != 0:
                    beatable |= bit
            led_bit = np.uint64(1) << np.uint64(plays[i, 10 * k + 8])
            if winners[i, 5 * k + 4] != holder:
                out[i, k] = codes[1]
            elif beatable & led_bit != 0:
                out[i, k] = codes[2]
            elif beatable != 0:
                out[i, k] = codes[3]
            else:
                out[i, k] = codes[4]
    return out
