"""The batched Frank's Zoo core: one hand per row, every step takes one decision in every unfinished hand.

A hand is a count per kind for each seat (n, P, 13). A set is an index into cards.SETS; legality is hand
counts against each set's cards plus the precomputed BEATS table. The legal actions of a step and the
application of its actions are compiled kernels (`kernels`) that loop over the step's rows, one call a step,
reading the lookup tables built here. Rows record every decision (kind, seat, action) so that the reference
engine can replay them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Self

import numpy as np

from simulator import bitrows
from simulator.batch import BatchState, Rows
from simulator.franks_zoo import cards as C
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import (
    ALONE,
    ASK,
    EXCHANGE,
    JUNIOR,
    MAX_PLAYERS,
    N_ACTIONS,
    PLAY,
    SENIOR,
    SOLO,
    FranksZooView,
)


def max_moves(rules: FranksZooRules) -> int:
    """Decisions a hand can take at most: the exchange, then at most 60 sets, each followed by at most
    P - 1 passes, and every pass or set can be an ask followed by an answer."""
    return rules.exchange_cards * rules.players + 2 * C.N_CARDS * rules.players


# The width a hand's move log starts with (HandState.moves).
LOG_START = 128


def _widen(moves: np.ndarray, width: int) -> np.ndarray:
    """The move log `moves` padded with -1 to `width` columns (itself when as wide)."""
    if moves.shape[1] >= width:
        return moves
    out = np.full((moves.shape[0], width), -1, np.int32)
    out[:, : moves.shape[1]] = moves
    return out


# Per set: the kind and how many real cards, chameleons and mosquitoes it takes from a hand.
_SET_KIND, _SET_REAL, _SET_CHAM, _SET_MOSQ = (C.SETS[:, i].astype(np.intp) for i in range(4))
_PART_KIND, _PART_REAL, _PART_CHAM, _PART_MOSQ = (C.PARTIALS[:, i].astype(np.intp) for i in range(4))
# ASKABLE[t, p]: some set completes partial p and beats set t.
ASKABLE = (C.COMPLETES[None, :, :] & C.BEATS[:, None, :]).any(axis=2)
# For an answer: the senior must add, per (partial, set), this many real cards / chameleons / mosquitoes.
_ADD_REAL = np.maximum(_SET_REAL[None, :] - _PART_REAL[:, None], 0)
_ADD_CHAM = np.maximum(_SET_CHAM[None, :] - _PART_CHAM[:, None], 0)
_ADD_MOSQ = np.maximum(_SET_MOSQ[None, :] - _PART_MOSQ[:, None], 0)


@dataclass
class HandState(BatchState):
    deal: np.ndarray  # int64 the row's deal (game) number
    hand_no: np.ndarray  # int16 0 for a game's first hand
    dealer: np.ndarray  # int8
    dealt: np.ndarray  # (n, P, 13) int8 hands as dealt
    hands: np.ndarray  # (n, P, 13) int8
    held: np.ndarray  # (n, P) int8 cards each seat holds (kept with `hands`)
    sets_held: np.ndarray  # (n, P, 2) uint64 bitmask of the sets each seat could lay (kept with `hands`)
    order: np.ndarray  # (n, P) int8 standings before this hand, best first
    role: np.ndarray  # (n, P) int8 ALONE, SENIOR, JUNIOR or SOLO
    partner: np.ndarray  # (n, P) int8, -1 for none
    scores: np.ndarray  # (n, P) int32 totals before this hand
    schedule: np.ndarray  # (n, X * P) int8 the seats of the exchange decisions in order
    ex_step: np.ndarray  # int16 next exchange decision
    given: np.ndarray  # (n, P, 13) int8 cards given or set aside in the exchange
    received: np.ndarray  # (n, P, 13) int8
    phase: np.ndarray  # int8 EXCHANGE, PLAY, ANSWER or DONE
    turn: np.ndarray  # int8 seat to decide
    first_leader: np.ndarray  # int8
    leader: np.ndarray  # int8 who led the current trick, -1 during the exchange
    table: np.ndarray  # int16 set on the table, -1 none
    table_player: np.ndarray  # int8
    passes: np.ndarray  # int8 passes in a row since the set on the table
    asked: np.ndarray  # int16 partial laid by a junior awaiting his senior, -1 none
    asker: np.ndarray  # int8 that junior
    helped: np.ndarray  # bool the set on the table was made with the senior's help
    help_won: np.ndarray  # (n, P) int8 tricks a junior took with a helped set
    trick_cards: np.ndarray  # (n, 13) int8 cards played in the current trick
    played: np.ndarray  # (n, 13) int8 cards played this hand
    taken: np.ndarray  # (n, P, 13) int8 cards taken (tricks, the solo's set-aside cards)
    place: np.ndarray  # (n, P) int8 0 while holding cards
    n_out: np.ndarray  # int8
    moves: np.ndarray  # (n, width) int32 each decision as kind | seat << 8 | action << 16, -1 past n_moves
    n_moves: np.ndarray  # int16

    # The move log is one packed word per decision (a step writes one place in memory, not three) and starts
    # narrow (LOG_START), widened by `apply` when a row fills it, up to max_moves: a hand takes far fewer
    # decisions than it could, and every copy of the state copies the log.

    @classmethod
    def concat(cls, states: Sequence[Self]) -> Self:
        width = max(s.moves.shape[1] for s in states)
        return super().concat([dataclasses.replace(s, moves=_widen(s.moves, width)) for s in states])

    # The recorded moves one field at a time, (n, width), -1 past n_moves.
    @property
    def move_kind(self) -> np.ndarray:
        return (self.moves & 0xFF).astype(np.int8)  # -1 (all bits set) stays -1

    @property
    def move_seat(self) -> np.ndarray:
        return ((self.moves >> 8) & 0xFF).astype(np.int8)

    @property
    def move_action(self) -> np.ndarray:
        return (self.moves >> 16).astype(np.int16)


# ----------------------------------------------------------------------------------------------- setup


def shuffled_hands(
    rng: np.random.Generator, dealer: np.ndarray, players: int, rows: np.ndarray | None = None
) -> np.ndarray:
    """(n, P, 13) uniform deals: the shuffled deck is dealt in blocks from the dealer's left. Every row of
    `dealer` is drawn, in order, with the draws of `rng.permuted` over rows of the deck (compiled,
    `kernels.deal_hands`); with `rows`, only those rows' hands are returned."""
    slot = np.arange(len(dealer))
    if rows is not None:
        slot = np.full(len(dealer), -1, np.int64)
        slot[rows] = np.arange(len(rows))
    out = np.zeros((len(dealer) if rows is None else len(rows), players, C.N_KINDS), np.int8)
    _kernels().deal_hands(rng, _DECK, np.asarray(dealer, np.int64), players, slot, out)
    return out


_DECK = np.repeat(np.arange(C.N_KINDS), C.DECK).astype(np.int8)  # the 60 cards in kind order


def standings(totals: np.ndarray, before: np.ndarray) -> np.ndarray:
    """(n, P) seats best first: by total; equal totals: the one who stood worse before ranks higher."""
    n, p = totals.shape
    position = np.empty_like(before)
    np.put_along_axis(
        position, before.astype(np.intp), np.arange(p, dtype=before.dtype)[None, :].repeat(n, 0), 1
    )
    key = -totals.astype(np.int64) * (p + 1) - position  # higher total first, then the worse position first
    return np.argsort(key, axis=1, kind="stable").astype(np.int8)


def teams(order: np.ndarray, rules: FranksZooRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Roles (n, P), partners (n, P) and the exchange schedule (n, X * P) from the standings."""
    n, p = order.shape
    k = -(-p // 2)
    role = np.full((n, p), SOLO, np.int8)
    partner = np.full((n, p), -1, np.int8)
    ar = np.arange(n)
    schedule = []
    x = rules.exchange_cards
    for i in range(p - k):
        senior, junior = order[:, i], order[:, i + k]
        role[ar, senior], role[ar, junior] = SENIOR, JUNIOR
        partner[ar, senior], partner[ar, junior] = junior, senior
        schedule += [junior] * x + [senior] * x
    if p % 2:
        schedule += [order[:, k - 1]] * x
    sched = np.stack(schedule, axis=1).astype(np.int8) if schedule else np.zeros((n, 0), np.int8)
    return role, partner, sched


def new_hands(
    deal: np.ndarray,
    hand_no: np.ndarray,
    dealer: np.ndarray,
    hands: np.ndarray,
    order: np.ndarray,
    scores: np.ndarray,
    rules: FranksZooRules,
) -> HandState:
    """Hands just dealt. A first hand (hand_no 0) starts with the dealer's left leading, everyone alone;
    later hands form teams from the standings `order`, exchange, and the last in the standings leads."""
    n, p = len(deal), rules.players

    def z(shape, dt, v=0):
        return np.full(shape, v, dtype=dt)

    first = np.asarray(hand_no) == 0
    role, partner, schedule = teams(order, rules)
    role[first], partner[first] = ALONE, -1
    leader = np.where(first, (dealer + 1) % p, order[:, -1]).astype(np.int8)
    exchanging = ~first & (schedule.shape[1] > 0)
    s = HandState(
        deal=np.asarray(deal, np.int64),
        hand_no=np.asarray(hand_no, np.int16),
        dealer=np.asarray(dealer, np.int8),
        dealt=hands.copy(),
        hands=hands.copy(),
        held=hands.sum(axis=2, dtype=np.int8),
        sets_held=held_sets(hands.reshape(n * p, -1)).reshape(n, p, -1),
        order=order.astype(np.int8),
        role=role,
        partner=partner,
        scores=np.asarray(scores, np.int32).copy(),
        schedule=schedule,
        ex_step=z(n, np.int16),
        given=z((n, p, 13), np.int8),
        received=z((n, p, 13), np.int8),
        phase=np.where(exchanging, EXCHANGE, PLAY).astype(np.int8),
        turn=np.where(exchanging, schedule[:, 0] if schedule.shape[1] else 0, leader).astype(np.int8),
        first_leader=leader,
        leader=np.where(exchanging, -1, leader).astype(np.int8),
        table=z(n, np.int16, -1),
        table_player=z(n, np.int8, -1),
        passes=z(n, np.int8),
        asked=z(n, np.int16, -1),
        asker=z(n, np.int8, -1),
        helped=z(n, bool),
        help_won=z((n, p), np.int8),
        trick_cards=z((n, 13), np.int8),
        played=z((n, 13), np.int8),
        taken=z((n, p, 13), np.int8),
        place=z((n, p), np.int8),
        n_out=z(n, np.int8),
        moves=z((n, min(LOG_START, max_moves(rules))), np.int32, -1),
        n_moves=z(n, np.int16),
    )
    playing = np.flatnonzero(~exchanging)
    _kernels().start_tricks(
        playing, leader[playing], s.hands, s.held, s.turn, s.leader, s.table, s.table_player, s.passes
    )
    return s


# ------------------------------------------------------------------------------------------ decisions


def _block_bits(table: np.ndarray) -> np.ndarray:
    """[kind, count 0..5, chameleon 0..1, mosquito 0..1] -> bitmask words of the rows of `table` (sets or
    partials) of that kind that a hand with those counts can lay."""
    n_words = -(-len(table) // 64)
    bits = np.zeros((12, 6, 2, 2, n_words), np.uint64)
    for i, (kind, real, cham, mosq) in enumerate(table):
        for count in range(real, 6):
            for c in range(cham, 2):
                for q in range(mosq, 2):
                    bits[kind, count, c, q, i // 64] |= np.uint64(1) << np.uint64(i % 64)
    return bits


# Kinds 0..11 are looked up three at a time: a hand's sets are the OR of four gathers, one per group of three
# kinds, from a table by (the group's three counts 0..5, chameleon 0..1, mosquito 0..1).
_GROUP = 3
_N_GROUPS = 12 // _GROUP


def _group_bits(bits: np.ndarray) -> np.ndarray:
    """(groups * 6**3 * 4, words): `_block_bits` OR-ed over each group's kinds for every combination of their
    counts; row (group * 6**3 + combined counts) * 4 + 2 * chameleon + mosquito."""
    out = np.zeros((_N_GROUPS, 6**_GROUP, 2, 2, bits.shape[-1]), np.uint64)
    for combo in range(6**_GROUP):
        counts = [combo // 6 ** (_GROUP - 1 - j) % 6 for j in range(_GROUP)]
        for group in range(_N_GROUPS):
            for j, count in enumerate(counts):
                out[group, combo] |= bits[group * _GROUP + j, count]
    return out.reshape(-1, bits.shape[-1])


_SET_BITS, _PART_BITS = _group_bits(_block_bits(C.SETS)), _group_bits(_block_bits(C.PARTIALS))
_ASKABLE_WORDS = bitrows.pack(ASKABLE)
# [table set + 1]: the sets that may be laid on it; row 0 (no set on the table, a lead) every set
_LAYABLE_WORDS = np.concatenate(
    [np.full((1, bitrows.n_words(C.BEATS.shape[1])), ~np.uint64(0)), bitrows.pack(C.BEATS)]
)


def held_sets(hands: np.ndarray) -> np.ndarray:
    """(m, words) the sets each of the hands (m, 13) could lay, as bitmask words (`kernels.held_rows`)."""
    return _kernels().held_rows(_SET_BITS, hands)


@cache
def _kernels():
    """The compiled kernels, imported on first use: only a Frank's Zoo run loads numba for them."""
    from simulator.franks_zoo import kernels

    return kernels


# ANSWER_OK[p, t, s]: set s completes partial p and beats set t
_ANSWER_OK = C.COMPLETES[:, None, :] & C.BEATS[None, :, :]


def _legal_words(s: HandState, ri: np.ndarray, kind: int, rules: FranksZooRules) -> np.ndarray:
    """(m, W) uint64 the legal actions as bit rows (simulator.bitrows). A play: pass (action 0) when not
    leading, the sets held that beat the table (actions 1..N_SETS, from `sets_held`), and, for a junior who
    may ask (his senior still holds cards), the partial sets that some set completing them beats the table
    with (actions ASK..). An answer: decline (0) and the sets that complete the laid partial from the
    senior's hand and beat the table. An exchange: the kinds held."""
    return _kernels().legal_words(
        kind,
        ri,
        bitrows.n_words(N_ACTIONS[kind]),
        rules.help,
        ASK,
        s.hands,
        s.held,
        s.sets_held,
        s.turn,
        s.table,
        s.role,
        s.partner,
        s.asked,
        _LAYABLE_WORDS,
        _ASKABLE_WORDS,
        _PART_BITS,
        _ANSWER_OK,
        _SET_KIND,
        _ADD_REAL,
        _ADD_CHAM,
        _ADD_MOSQ,
    )


def _rows(s: HandState, r: Rows) -> np.ndarray:
    return np.arange(len(s)) if isinstance(r, slice) else r


def inputs(s: HandState, r: Rows, kind: int, rules: FranksZooRules) -> tuple[FranksZooView, np.ndarray]:
    ri = _rows(s, r)
    legal = bitrows.unpack(_legal_words(s, ri, kind, rules), N_ACTIONS[kind])
    return _view(s, ri, rules), legal


def packed_inputs(
    s: HandState, r: Rows, kind: int, rules: FranksZooRules
) -> tuple[FranksZooView, np.ndarray, int]:
    """`inputs` with the legal actions as bit rows (simulator.bitrows), never unpacked."""
    ri = _rows(s, r)
    return _view(s, ri, rules), _legal_words(s, ri, kind, rules), N_ACTIONS[kind]


def _pad(a: np.ndarray, ri: np.ndarray, fill: int = 0) -> np.ndarray:
    """Rows `ri` of the per-seat array `a` (n, P), padded to MAX_PLAYERS columns with `fill`."""
    out = np.full((len(ri), MAX_PLAYERS), fill, dtype=a.dtype)
    out[:, : a.shape[1]] = a.take(ri, axis=0)
    return out


def _seat_rows(a: np.ndarray, ri: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """a[ri, seat] for a per-seat array (n, P, k): one row gather on its (n * P, k) view."""
    n, p, k = a.shape
    return a.reshape(n * p, k).take(ri * p + seat, axis=0)


def _view(s: HandState, ri: np.ndarray, rules: FranksZooRules) -> FranksZooView:
    """The view, each field built when a strategy first reads it (random play reads none)."""
    seat: list[np.ndarray] = []  # the deciding seats, once read

    def fetch(name: str) -> np.ndarray:
        if not seat:
            seat.append(s.turn.take(ri).astype(np.intp))
        return _FIELDS[name](s, ri, seat[0], rules.players)

    return FranksZooView.lazy(fetch, len(ri), rules)


# view field -> its rows' values from (state, rows, deciding seats, players). Rows are gathered with `take`:
# on rows this narrow it is several times faster than fancy indexing.
_FIELDS: dict[str, Callable[[HandState, np.ndarray, np.ndarray, int], np.ndarray]] = {
    "seat": lambda s, ri, seat, p: seat.astype(np.int8),
    "players": lambda s, ri, seat, p: np.full(len(ri), p, np.int8),
    "hand_no": lambda s, ri, seat, p: s.hand_no.take(ri),
    "hand": lambda s, ri, seat, p: _seat_rows(s.hands, ri, seat),
    "counts": lambda s, ri, seat, p: _pad(s.held, ri),
    "table": lambda s, ri, seat, p: s.table.take(ri),
    "table_player": lambda s, ri, seat, p: s.table_player.take(ri),
    "leader": lambda s, ri, seat, p: s.leader.take(ri),
    "passes": lambda s, ri, seat, p: s.passes.take(ri),
    "asked": lambda s, ri, seat, p: s.asked.take(ri),
    "place": lambda s, ri, seat, p: _pad(s.place, ri),
    "role": lambda s, ri, seat, p: _pad(s.role, ri),
    "partner": lambda s, ri, seat, p: _pad(s.partner, ri, -1),
    "scores": lambda s, ri, seat, p: _pad(s.scores, ri),
    "played": lambda s, ri, seat, p: s.played.take(ri, axis=0),
    "given": lambda s, ri, seat, p: _seat_rows(s.given, ri, seat),
    "received": lambda s, ri, seat, p: _seat_rows(s.received, ri, seat),
}


# ----------------------------------------------------------------------------------------------- apply


def apply(s: HandState, r: Rows, kind: int, actions: np.ndarray, rules: FranksZooRules) -> None:
    """Record each row's action and apply it: the exchange (a giver's cards reach his partner, or are set
    aside, when he has given all of them), a play (a set, a pass, a request for help) or an answer (help or
    decline); then the turn moves on, a trick is won or the hand ends."""
    most = _kernels().apply_rows(
        kind,
        _rows(s, r),
        actions,
        rules.exchange_cards,
        ASK,
        C.SET_CARDS,
        C.SET_SIZE,
        C.PARTIAL_CARDS,
        _SET_BITS,
        s.hands,
        s.held,
        s.sets_held,
        s.role,
        s.partner,
        s.schedule,
        s.ex_step,
        s.given,
        s.received,
        s.phase,
        s.turn,
        s.first_leader,
        s.leader,
        s.table,
        s.table_player,
        s.passes,
        s.asked,
        s.asker,
        s.helped,
        s.help_won,
        s.trick_cards,
        s.played,
        s.taken,
        s.place,
        s.n_out,
        s.moves,
        s.n_moves,
    )
    if most == s.moves.shape[1] < max_moves(rules):  # a row's log is full: room for the next step's move
        s.moves = _widen(s.moves, min(2 * most, max_moves(rules)))


def help_counts(s: HandState, rules: FranksZooRules) -> np.ndarray:
    """(n, P, 3) int16 per seat from the recorded moves: help requests made, requests granted and requests
    declined (the last two counted for the answering senior)."""
    return _kernels().help_counts(s.moves, s.n_moves, rules.players, ASK)


@cache
def _points_table(players: int) -> np.ndarray:
    from simulator.franks_zoo.view import placement_points

    return np.concatenate([[0], placement_points(np.arange(1, players + 1), players)]).astype(np.int16)


def hand_points(s: HandState, rules: FranksZooRules) -> dict[str, np.ndarray]:
    """Each player's points by source for finished hands: (n, P) arrays."""
    p = rules.players
    placement = _points_table(p)[s.place]
    first = (s.hand_no == 0)[:, None]
    has_partner = s.partner >= 0
    partner_place = np.take_along_axis(placement, np.maximum(s.partner, 0).astype(np.intp), axis=1)
    team = np.where(first | ~has_partner, 0, partner_place)
    solo = np.where(~first & (s.role == SOLO), rules.solo_bonus, 0)
    lions_taken = s.taken[:, :, C.LION]
    lions = np.where(~first & (lions_taken >= rules.lion_min), lions_taken, 0)
    hedgehogs = s.taken[:, :, C.HEDGEHOG]
    penalised = hedgehogs > 0 if rules.hedgehog_penalty == "captured" else hedgehogs == 0
    hedgehog = np.where(~first & penalised, -1, 0)
    last_lions = np.where(~first & (s.place == p), -s.hands[:, :, C.LION], 0)
    out = {
        "placement": placement,
        "team": team,
        "solo_bonus": solo,
        "lions": lions,
        "hedgehog": hedgehog,
        "last_lions": last_lions,
    }
    out = {k: np.asarray(v, np.int16) for k, v in out.items()}
    out["total"] = sum(out.values()).astype(np.int16)
    return out
