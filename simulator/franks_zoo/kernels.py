"""Compiled (numba) kernels of the batched Frank's Zoo core: the deal, the legal action words of a step and
the application of its actions, each a loop over the step's rows in compiled code, and the help counts of
the per-hand table.

Each kernel does, row by row, what the array code of `core` did for the whole batch at once (a hand's rows
never interact, so the order of rows does not matter), and reads the same lookup tables, passed in as
arguments (`core.kernel_tables`). Imported only where Frank's Zoo plays (`core` imports it on first use): the
command line's listings and the other games never load numba for it. Compiled once per machine and cached
on disk (`cache=True`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.np.random.random_methods import random_interval  # numpy's own bounded draw, compiled

# the decision kinds and roles, as in simulator.franks_zoo.view (numba reads module globals as constants)
EXCHANGE, PLAY, ANSWER, DONE = 0, 1, 2, 3
SENIOR, JUNIOR, SOLO = 1, 2, 3
CHAMELEON, MOSQUITO = 12, 11
N_KINDS = 13
_GROUP_SIZE = 6**3 * 4  # rows of a group's block in the held-sets tables (core._group_bits)


# The functions below are called for every row of every step: they take whole arrays and row indices (a slice
# such as hands[r, seat] would be a new array view, reference-counted at each call). Inlining them by numba
# was some 5% faster but cost every cold compile 4 s (docs/performance.md).


@njit(cache=True)
def _group_rows(hands: np.ndarray, r: int, seat: int) -> tuple[int, int, int, int]:
    """The four rows of a `core._group_bits` table whose OR is the sets (or partials) hands[r, seat] holds:
    one per group of three kinds (their counts, at most 5 count), each with the chameleon and a mosquito."""
    extras = 2 * min(hands[r, seat, CHAMELEON], 1) + min(hands[r, seat, MOSQUITO], 1)
    c0 = min(hands[r, seat, 0], 5) * 36 + min(hands[r, seat, 1], 5) * 6 + min(hands[r, seat, 2], 5)
    c1 = min(hands[r, seat, 3], 5) * 36 + min(hands[r, seat, 4], 5) * 6 + min(hands[r, seat, 5], 5)
    c2 = min(hands[r, seat, 6], 5) * 36 + min(hands[r, seat, 7], 5) * 6 + min(hands[r, seat, 8], 5)
    c3 = min(hands[r, seat, 9], 5) * 36 + min(hands[r, seat, 10], 5) * 6 + min(hands[r, seat, 11], 5)
    return (
        4 * c0 + extras,
        _GROUP_SIZE + 4 * c1 + extras,
        2 * _GROUP_SIZE + 4 * c2 + extras,
        3 * _GROUP_SIZE + 4 * c3 + extras,
    )


@njit(cache=True)
def _held_into(bits: np.ndarray, hands: np.ndarray, r: int, seat: int, out: np.ndarray) -> None:
    """The sets (or partials, by `bits`) hands[r, seat] holds into out[r, seat] (hands (n, P, 13), out (n, P,
    words))."""
    g0, g1, g2, g3 = _group_rows(hands, r, seat)
    for w in range(out.shape[2]):
        out[r, seat, w] = bits[g0, w] | bits[g1, w] | bits[g2, w] | bits[g3, w]


@njit(cache=True)
def held_rows(bits: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """The sets (or partials, by `bits`) each of the (m, 13) hands holds: (m, words)."""
    m = hands.shape[0]
    one_seat = np.ascontiguousarray(hands).reshape((m, 1, hands.shape[1]))
    out = np.zeros((m, 1, bits.shape[1]), np.uint64)
    for i in range(m):
        _held_into(bits, one_seat, i, 0, out)
    return out.reshape((m, bits.shape[1]))


@njit(cache=True)
def _place(src: np.ndarray, offset: int, dst: np.ndarray, d: int) -> None:
    """OR `src`'s bits moved up by `offset` into row d of `dst` (bitrows.place, bits past the end dropped)."""
    q, r = offset // 64, offset % 64
    n = dst.shape[1]
    for i in range(src.shape[0]):
        if i + q < n:
            dst[d, i + q] |= src[i] << np.uint64(r)
        if r and i + q + 1 < n:
            dst[d, i + q + 1] |= src[i] >> np.uint64(64 - r)


@njit(cache=True)
def legal_words(
    kind: int,
    ri: np.ndarray,
    n_words: int,
    help_rule: bool,
    ask_offset: int,
    hands: np.ndarray,
    held: np.ndarray,
    sets_held: np.ndarray,
    turn: np.ndarray,
    table: np.ndarray,
    role: np.ndarray,
    partner: np.ndarray,
    asked: np.ndarray,
    layable: np.ndarray,
    askable: np.ndarray,
    part_bits: np.ndarray,
    answer_ok: np.ndarray,
    set_kind: np.ndarray,
    add_real: np.ndarray,
    add_cham: np.ndarray,
    add_mosq: np.ndarray,
) -> np.ndarray:
    """`core._legal_words` for the rows `ri`: (m, n_words) uint64. `answer_ok[p, t, s]`: set s completes
    partial p and beats set t."""
    m = ri.shape[0]
    out = np.zeros((m, n_words), np.uint64)
    one = np.uint64(1)
    sets = np.empty(sets_held.shape[2], np.uint64)
    parts = np.empty(part_bits.shape[1], np.uint64)
    for i in range(m):
        r = ri[i]
        seat = turn[r]
        if kind == EXCHANGE:
            kinds = np.uint64(0)
            for k in range(N_KINDS):
                if hands[r, seat, k] > 0:
                    kinds |= one << np.uint64(k)
            out[i, 0] = kinds
        elif kind == ANSWER:
            p = asked[r]
            t = table[r]
            for s in range(set_kind.shape[0]):
                if (
                    answer_ok[p, t, s]
                    and hands[r, seat, set_kind[s]] >= add_real[p, s]
                    and hands[r, seat, CHAMELEON] >= add_cham[p, s]
                    and hands[r, seat, MOSQUITO] >= add_mosq[p, s]
                ):
                    out[i, (s + 1) >> 6] |= one << np.uint64((s + 1) & 63)
            out[i, 0] |= one  # decline
        else:
            t = table[r]
            for j in range(sets.shape[0]):
                sets[j] = sets_held[r, seat, j] & layable[t + 1, j]
            _place(sets, 1, out, i)
            if t >= 0:
                out[i, 0] |= one  # pass
                # a junior may ask while his senior holds cards (a first hand has no juniors)
                if help_rule and role[r, seat] == JUNIOR and held[r, partner[r, seat]] > 0:
                    g0, g1, g2, g3 = _group_rows(hands, r, seat)
                    for j in range(parts.shape[0]):
                        held_j = part_bits[g0, j] | part_bits[g1, j] | part_bits[g2, j] | part_bits[g3, j]
                        parts[j] = held_j & askable[t, j]
                    _place(parts, ask_offset, out, i)
    return out


# ------------------------------------------------------------------------------------------------- deal


@njit(cache=True)
def deal_hands(rng, deck, dealer, players, slot, out):
    """`core.shuffled_hands`: for every row (in order) the deck shuffled with the draws of
    `rng.permuted(rows, axis=1)` (for i from the last card down to 1, swap i with a j uniform in 0..i), then
    dealt in blocks from the dealer's left, the first 60 % P blocks one card larger. The counts go to
    `out[slot[row]]` (zeros on entry); a row with slot -1 is drawn (the Generator moves on), not counted."""
    bitgen = rng.bit_generator
    n_cards = deck.shape[0]
    base, extra = n_cards // players, n_cards % players
    cards = np.empty(n_cards, np.int8)
    for r in range(dealer.shape[0]):
        cards[:] = deck
        for i in range(n_cards - 1, 0, -1):
            j = np.intp(random_interval(bitgen, i))
            held = cards[j]
            cards[j] = cards[i]
            cards[i] = held
        o = slot[r]
        if o < 0:
            continue
        pos = 0
        for b in range(players):  # block b goes to the b-th seat after the dealer
            seat = (dealer[r] + 1 + b) % players
            for _ in range(base + (1 if b < extra else 0)):
                out[o, seat, cards[pos]] += 1
                pos += 1


# ------------------------------------------------------------------------------------------------ apply


@njit(cache=True)
def _holders(held: np.ndarray, r: int) -> int:
    """Bit p set where seat p holds cards."""
    h = 0
    for p in range(held.shape[1]):
        if held[r, p] > 0:
            h |= 1 << p
    return h


@njit(cache=True)
def _popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _next_holder(holders: int, start: int, include_start: bool, players: int) -> int:
    """The first seat clockwise from `start` (itself first if include_start) that holds cards; with nobody
    holding, the first seat looked at."""
    first = 0 if include_start else 1
    for k in range(first, players + first):
        q = (start + k) % players
        if holders >> q & 1:
            return q
    return (start + first) % players


@njit(cache=True)
def _start_trick(r, leader, hands, held, turn, lead, table, table_player, passes):
    players = held.shape[1]
    for _ in range(players):
        if held[r, leader] > hands[r, leader, CHAMELEON]:  # anything but the chameleon makes a set
            break
        leader = _next_holder(_holders(held, r), leader, False, players)
    lead[r] = leader
    turn[r] = leader
    table[r] = -1
    table_player[r] = -1
    passes[r] = 0


@njit(cache=True)
def start_tricks(ri, leaders, hands, held, turn, lead, table, table_player, passes):
    """A new trick in each row of `ri`, led by `leaders` or, where he can lay no set (only the chameleon),
    the next who can."""
    for i in range(ri.shape[0]):
        _start_trick(ri[i], np.intp(leaders[i]), hands, held, turn, lead, table, table_player, passes)


@njit(cache=True)
def _go_out(r, seat, held, place, n_out):
    if held[r, seat] == 0 and place[r, seat] == 0:
        n_out[r] += 1
        place[r, seat] = n_out[r]


@njit(cache=True)
def _lay(r, st, player, with_help, set_cards, trick_cards, played, table, table_player, passes, helped):
    """Set `st` goes on the table of row r as `player`'s (made with the senior's help or not)."""
    for k in range(set_cards.shape[1]):
        trick_cards[r, k] += set_cards[st, k]
        played[r, k] += set_cards[st, k]
    table[r] = st
    table_player[r] = player
    passes[r] = 0
    helped[r] = with_help


@njit(cache=True)
def apply_rows(
    kind,
    ri,
    actions,
    exchange_cards,
    ask_offset,
    set_cards,
    set_size,
    partial_cards,
    set_bits,
    hands,
    held,
    sets_held,
    role,
    partner,
    schedule,
    ex_step,
    given,
    received,
    phase,
    turn,
    first_leader,
    lead,
    table,
    table_player,
    passes,
    asked,
    asker,
    helped,
    help_won,
    trick_cards,
    played,
    taken,
    place,
    n_out,
    moves,
    n_moves,
):
    """`core.apply` for the rows `ri`: record each action (`moves`: kind | seat << 8 | action << 16) and apply
    it (exchange, play, answer). Returns the most moves a row of `ri` now holds."""
    players = held.shape[1]
    most = 0
    n_kinds = hands.shape[2]
    n_steps = schedule.shape[1]
    for i in range(ri.shape[0]):
        r = ri[i]
        seat = np.intp(turn[r])
        a = np.intp(actions[i])
        at = n_moves[r]
        moves[r, at] = kind | seat << 8 | a << 16
        n_moves[r] = at + 1
        most = max(most, at + 1)
        pass_seat = -1  # the seat that passes (a play's pass, a declined request's junior)
        set_player = -1  # the seat that laid a set
        if kind == EXCHANGE:
            hands[r, seat, a] -= 1
            held[r, seat] -= 1
            _held_into(set_bits, hands, r, seat, sets_held)
            given[r, seat, a] += 1
            step = np.intp(ex_step[r]) + 1
            ex_step[r] = step
            if step % exchange_cards == 0:  # a giver's cards are consecutive steps: all of it goes now
                q = np.intp(partner[r, seat])
                if q >= 0:
                    total = 0
                    for k in range(n_kinds):
                        hands[r, q, k] += given[r, seat, k]
                        received[r, q, k] += given[r, seat, k]
                        total += given[r, seat, k]
                    held[r, q] += total
                    _held_into(set_bits, hands, r, q, sets_held)
                else:
                    for k in range(n_kinds):
                        taken[r, seat, k] += given[r, seat, k]
            if step < n_steps:
                turn[r] = schedule[r, step]
            else:
                phase[r] = PLAY
                # a solo player who set his whole hand aside (7 players, 8 cards) is out at once
                for q in range(players):
                    if role[r, q] == SOLO:
                        if held[r, q] == 0:
                            _go_out(r, q, held, place, n_out)
                        break
                leader = np.intp(first_leader[r])
                _start_trick(r, leader, hands, held, turn, lead, table, table_player, passes)
        elif kind == PLAY:
            if a == 0:
                pass_seat = seat
            elif a < ask_offset:
                st = a - 1
                for k in range(n_kinds):
                    hands[r, seat, k] -= set_cards[st, k]
                held[r, seat] -= set_size[st]
                _held_into(set_bits, hands, r, seat, sets_held)
                _lay(r, st, seat, False, set_cards, trick_cards, played, table, table_player, passes, helped)
                _go_out(r, seat, held, place, n_out)
                set_player = seat
            else:
                asked[r] = a - ask_offset
                asker[r] = seat
                phase[r] = ANSWER
                turn[r] = partner[r, seat]
        else:
            junior = np.intp(asker[r])
            phase[r] = PLAY
            if a > 0:
                st = a - 1
                p = asked[r]
                laid = 0
                for k in range(n_kinds):
                    hands[r, junior, k] -= partial_cards[p, k]
                    hands[r, seat, k] -= set_cards[st, k] - partial_cards[p, k]
                    laid += partial_cards[p, k]
                held[r, junior] -= laid
                held[r, seat] -= set_size[st] - laid
                _held_into(set_bits, hands, r, junior, sets_held)
                _held_into(set_bits, hands, r, seat, sets_held)
                _lay(r, st, junior, True, set_cards, trick_cards, played, table, table_player, passes, helped)
                _go_out(r, junior, held, place, n_out)  # the junior goes out first
                _go_out(r, seat, held, place, n_out)
                set_player = junior
            else:
                pass_seat = junior
            asked[r] = -1
            asker[r] = -1
        if set_player >= 0:
            holders = _holders(held, r)
            if _popcount(holders) <= 1:  # the hand is over
                if holders != 0:  # both partners may go out on one helped set: nobody is left
                    last = _popcount(holders - 1)  # the seat of the one bit left
                    place[r, last] = players
                w = np.intp(table_player[r])
                for k in range(n_kinds):
                    taken[r, w, k] += trick_cards[r, k]
                    trick_cards[r, k] = 0
                help_won[r, w] += helped[r]
                phase[r] = DONE
            else:
                turn[r] = _next_holder(holders, set_player, False, players)
        elif pass_seat >= 0:
            passes[r] += 1
            holders = _holders(held, r)
            w = np.intp(table_player[r])
            others = _popcount(holders) - ((holders >> w) & 1)
            if passes[r] >= others:  # the trick is won
                for k in range(n_kinds):
                    taken[r, w, k] += trick_cards[r, k]
                    trick_cards[r, k] = 0
                help_won[r, w] += helped[r]
                leader = _next_holder(holders, w, True, players)
                _start_trick(r, leader, hands, held, turn, lead, table, table_player, passes)
            else:
                turn[r] = _next_holder(holders, pass_seat, False, players)
    return most


@njit(cache=True)
def help_counts(moves, n_moves, players, ask_offset):
    """(n, P, 3) int16 per seat: help requests made (plays of a partial), requests granted and declined
    (answers, counted for the answering senior), from each row's recorded moves."""
    n = moves.shape[0]
    out = np.zeros((n, players, 3), np.int16)
    for r in range(n):
        for j in range(n_moves[r]):
            m = moves[r, j]
            kind, seat, a = m & 0xFF, (m >> 8) & 0xFF, m >> 16
            if kind == PLAY:
                if a >= ask_offset:
                    out[r, seat, 0] += 1
            elif kind == ANSWER:
                out[r, seat, 1 if a > 0 else 2] += 1
    return out


# ------------------------------------------------------------------------------------------ random play

_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_H01, _ONE = np.uint64(0x0101010101010101), np.uint64(1)


@njit(cache=True)
def _bit_count(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@njit(cache=True)
def uniform_bits(words: np.ndarray, u: np.ndarray) -> np.ndarray:
    """`simulator.bitrows.uniform` given its uniform numbers `u`: per row the k = floor(u * count)-th set bit
    (from 0, in index order)."""
    m, n_words = words.shape
    out = np.empty(m, np.int16)
    counts = np.empty(n_words, np.int64)
    for i in range(m):
        total = 0
        for j in range(n_words):
            counts[j] = _bit_count(words[i, j])
            total += counts[j]
        k = int(u[i] * total)
        for j in range(n_words):
            c = counts[j]
            if k < c:
                w = words[i, j]
                for _ in range(k):
                    w &= w - _ONE
                out[i] = 64 * j + _bit_count((w & (~w + _ONE)) - _ONE)
                break
            k -= c
    return out


# ------------------------------------------------------------------------------------------ greedy play


@njit(cache=True)
def _best_bit(words: np.ndarray, i: int, lo: int, hi: int, score: np.ndarray) -> int:
    """Among the set bits lo..hi-1 of row i, the one with the highest score[bit - lo] (the first on ties);
    -1 when none is set. strategies.base.best_legal's choice when every score lies above -32767."""
    best, best_score = -1, 0
    for j in range(lo >> 6, min(words.shape[1], ((hi - 1) >> 6) + 1)):
        w = words[i, j]
        while w:
            low = w & (~w + _ONE)
            w ^= low
            b = 64 * j + _bit_count(low - _ONE)
            if lo <= b < hi:
                sc = score[b - lo]
                if best < 0 or sc > best_score:
                    best, best_score = b, sc
    return best


@njit(cache=True)
def greedy_play(
    words: np.ndarray,
    table: np.ndarray,
    partner: np.ndarray,
    table_player: np.ndarray,
    set_scores: np.ndarray,
    ask_scores: np.ndarray,
    n_sets: int,
    ask: bool,
) -> np.ndarray:
    """strategies.franks_zoo.Greedy's plays on bit rows: the best set (scored `set_scores[leading]`) unless
    the partner's set is on the table; failing a set, when following, the best request (`ask_scores`); else
    a pass. `partner`: the deciding seat's partner."""
    m = words.shape[0]
    n_actions = words.shape[1] * 64
    out = np.zeros(m, np.intp)
    for i in range(m):
        leading = table[i] < 0
        partners_set = not leading and partner[i] >= 0 and table_player[i] == partner[i]
        if partners_set:
            continue
        b = _best_bit(words, i, 1, 1 + n_sets, set_scores[1 if leading else 0])
        if b >= 0:
            out[i] = b
        elif ask and not leading:
            b = _best_bit(words, i, 1 + n_sets, min(n_actions, 1 + n_sets + ask_scores.shape[0]), ask_scores)
            if b >= 0:
                out[i] = b
    return out


@njit(cache=True)
def best_bits(words: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Per row the set bit with the highest score (one score row for all rows; the first on ties)."""
    out = np.zeros(words.shape[0], np.intp)
    for i in range(words.shape[0]):
        out[i] = _best_bit(words, i, 0, score.shape[0], score)
    return out


# --------------------------------------------------------------------------------------- heuristic play


@njit(cache=True)
def _finish_score(score, held, size, cham_used, cham_held, out_score, strand_score):
    """strategies.franks_zoo._finish for one action: emptying the hand scores `out_score`, leaving only the
    chameleon scores -`strand_score` (the caller checks that the row is near its end)."""
    left = held - size
    if left == 0:
        return out_score
    if left == 1 and cham_held - cham_used == 1:
        return -strand_score
    return score


@njit(cache=True)
def _completable(completions, add_real, add_cham, add_mosq, p, t, unseen, kind, senior_held) -> bool:
    """strategies.franks_zoo.completable for one request: partial p laid on set t."""
    for j in range(completions.shape[2]):
        s = completions[p, t, j]
        if s < 0:
            return False
        real, cham, mosq = add_real[p, s], add_cham[p, s], add_mosq[p, s]
        if (
            real <= unseen[kind]
            and cham <= unseen[CHAMELEON]
            and mosq <= unseen[MOSQUITO]
            and real + cham + mosq <= senior_held
        ):
            return True
    return False


@njit(cache=True)
def _odds(odds, completions, add_real, add_cham, add_mosq, p, t, unseen, kind, senior_held, n_unseen) -> int:
    """strategies.franks_zoo.requests.odds for one request: partial p laid on set t, in thousandths."""
    c, n = min(max(senior_held, 0), 16), min(max(n_unseen, 0), 60)
    out = 0
    for j in range(completions.shape[2]):
        s = completions[p, t, j]
        if s < 0:
            break
        chance = int(odds[min(add_real[p, s], 5), unseen[kind], c, n])
        if add_cham[p, s] > 0:
            chance = chance * int(odds[1, unseen[CHAMELEON], c, n]) // 1000
        if add_mosq[p, s] > 0:
            chance = chance * int(odds[1, unseen[MOSQUITO], c, n]) // 1000
        out = max(out, chance)
    return out


@njit(cache=True)
def heuristic_play(
    words: np.ndarray,
    hand: np.ndarray,
    held: np.ndarray,
    played: np.ndarray,
    table: np.ndarray,
    partner: np.ndarray,
    table_player: np.ndarray,
    deck: np.ndarray,
    predators: np.ndarray,
    set_tab: np.ndarray,
    set_kind: np.ndarray,
    set_size: np.ndarray,
    set_cham: np.ndarray,
    ask_tab: np.ndarray,
    part_kind: np.ndarray,
    part_size: np.ndarray,
    part_cham: np.ndarray,
    cash_groups: int,
    ask: bool,
    out_score: int,
    strand_score: int,
    count: bool,
    senior_held: np.ndarray,
    completions: np.ndarray,
    add_real: np.ndarray,
    add_cham: np.ndarray,
    add_mosq: np.ndarray,
    odds: np.ndarray,
) -> np.ndarray:
    """strategies.franks_zoo.Heuristic's plays on bit rows (its `_play`, row by row). `set_tab[code, s]`: the
    score of set s for its kind's code (mode * 54 + cards held of the kind * 9 + the fewest nothing unseen
    beats); `ask_tab[p, cards held of p's kind]`: the score of asking with partial p; `predators[b]`: the
    kinds that beat kind b, padded with 12. With `count`, a request is made only when
    `strategies.franks_zoo.completable` (`completions[p, t]`: the sets completing p that beat t, padded with
    -1; `add_*[p, s]`: the cards each adds; `senior_held`: the cards the senior holds), worth its score times
    `_odds` (its `_ask_counting`; `odds`: `requests.odds_table`)."""
    m = words.shape[0]
    n_sets = set_kind.shape[0]
    n_asks = min(words.shape[1] * 64 - 1 - n_sets, part_kind.shape[0])
    out = np.zeros(m, np.intp)
    avail = np.empty(13, np.int64)
    need = np.empty(12, np.int64)
    unseen = np.empty(13, np.int64)
    one = np.uint64(1)
    h = np.empty(13, np.int64)  # row i's hand, copied (a row view would be reference-counted)
    for i in range(m):
        for k in range(13):
            h[k] = hand[i, k]
        hc = h[CHAMELEON]
        n_unseen = 0
        for k in range(13):
            unseen[k] = deck[k] - played[i, k] - h[k]
            n_unseen += unseen[k]
        leading = table[i] < 0
        partners_set = not leading and partner[i] >= 0 and table_player[i] == partner[i]
        for k in range(12):
            avail[k] = deck[k] - played[i, k] - h[k] + deck[CHAMELEON] - played[i, CHAMELEON] - h[CHAMELEON]
        unseen_el = deck[1] - played[i, 1] - h[1]
        if unseen_el > 0:
            avail[1] += min(deck[MOSQUITO] - played[i, MOSQUITO] - h[MOSQUITO], 1)
        avail[12] = -1
        groups = 0
        sure = 0
        for b in range(12):
            predmax = -1
            for j in range(predators.shape[1]):
                q = predators[b, j]
                if q == 12:  # the padding, last in each row: avail[12] is -1, which predmax starts at
                    break
                predmax = max(predmax, avail[q])
            need[b] = min(max(avail[b], predmax + 1), 8)
            if h[b] > 0:
                groups += 1
                if h[b] >= need[b]:
                    sure += 1
        if h[1] > 0 and h[MOSQUITO] == 1:
            groups -= 1
        endgame = groups - sure <= cash_groups
        mode = (2 if endgame else 1) if leading else (3 if partners_set else 0)
        near_end = held[i] <= 7 and (groups <= 1 or h[CHAMELEON] > 0)
        # one walk over the legal actions in index order: the best set and the best request (first on ties)
        best, best_score, ask_best, ask_score, ask_worth = -1, 0, -1, 0, 0
        for j in range(words.shape[1]):
            w = words[i, j]
            while w:
                low = w & (~w + one)
                w ^= low
                b = 64 * j + _bit_count(low - one)
                if b == 0:
                    continue  # pass
                if b <= n_sets:
                    s = b - 1
                    k = set_kind[s]
                    sc = int(set_tab[mode * 54 + h[k] * 9 + need[k], s])
                    if near_end:
                        cham = set_cham[s]
                        sc = _finish_score(
                            sc, held[i], set_size[s], cham, h[CHAMELEON], out_score, strand_score
                        )
                    if best < 0 or sc > best_score:
                        best, best_score = s, sc
                elif ask and not partners_set and b <= n_sets + n_asks:
                    p = b - 1 - n_sets
                    if count and not _completable(
                        completions,
                        add_real,
                        add_cham,
                        add_mosq,
                        p,
                        table[i],
                        unseen,
                        part_kind[p],
                        senior_held[i],
                    ):
                        continue
                    sc = int(ask_tab[p, h[part_kind[p]]])
                    if near_end:
                        size, cham = part_size[p], part_cham[p]
                        sc = _finish_score(sc, held[i], size, cham, hc, out_score, strand_score)
                    if count:
                        worth = (
                            sc
                            * _odds(
                                odds,
                                completions,
                                add_real,
                                add_cham,
                                add_mosq,
                                p,
                                table[i],
                                unseen,
                                part_kind[p],
                                senior_held[i],
                                n_unseen,
                            )
                            // 1000
                        )
                        if ask_best < 0 or worth > ask_worth:
                            ask_best, ask_score, ask_worth = p, sc, worth
                    elif ask_best < 0 or sc > ask_score:
                        ask_best, ask_score = p, sc
        if best < 0:
            best_score = -32000
        elif leading or best_score > 0:
            out[i] = 1 + best
        if ask_best < 0:
            continue
        if count:
            if (ask_worth > best_score) if best_score > 0 else (ask_score > 0):
                out[i] = 1 + n_sets + ask_best
        elif ask_score > max(best_score, 0):
            out[i] = 1 + n_sets + ask_best
    return out


@njit(cache=True)
def heuristic_answer(
    words: np.ndarray,
    hand: np.ndarray,
    asked: np.ndarray,
    junior_held: np.ndarray,
    set_kind: np.ndarray,
    add_real: np.ndarray,
    add_cham: np.ndarray,
    add_mosq: np.ndarray,
    part_size: np.ndarray,
    value: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """strategies.franks_zoo.Heuristic's answers on bit rows (its `_answer`, row by row): a decline scores 0,
    completing with set s the score of its terms. `weights`: answer_base, whole, split, chameleon, keep and
    the scores of going out and of stranding the chameleon."""
    base, whole, split, chameleon, keep, out_score, strand_score = (
        weights[0],
        weights[1],
        weights[2],
        weights[3],
        weights[4],
        weights[5],
        weights[6],
    )
    out = np.zeros(words.shape[0], np.intp)
    h = np.empty(hand.shape[1], np.int64)  # row i's hand, copied (a row view would be reference-counted)
    for i in range(words.shape[0]):
        held = 0
        for k in range(h.shape[0]):
            h[k] = hand[i, k]
            held += h[k]
        p = asked[i]
        junior_out = junior_held[i] == part_size[p]
        best, best_score = 0, 0  # decline
        for j in range(words.shape[1]):
            w = words[i, j]
            while w:
                low = w & (~w + _ONE)
                w ^= low
                b = 64 * j + _bit_count(low - _ONE)
                if b == 0:
                    continue
                s = b - 1
                real, cham, mosq = add_real[p, s], add_cham[p, s], add_mosq[p, s]
                rem = h[set_kind[s]] - real
                left = held - (real + cham + mosq)
                goes_out = left == 0
                sc = base + 20 * mosq - keep * value[set_kind[s]] * real
                if real > 0:
                    sc += whole if rem == 0 else 0
                    sc -= split if rem > 0 else 0
                if not goes_out:
                    sc -= chameleon * cham
                else:
                    sc += out_score
                if left > 0 and left == h[CHAMELEON] - cham:
                    sc -= strand_score
                if junior_out:
                    sc += out_score // 2
                if sc > best_score:
                    best, best_score = b, sc
        out[i] = best
    return out
