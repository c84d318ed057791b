"""The batched Forty-two core: one hand per row, every step advances the whole batch.

A `HandState` holds one dealt hand per row (first axis); `phase` and `turn` say which decision is pending
and whose. Pure functions over it: `deal` (or `new_hands` from given hands) makes a batch, `inputs` builds
the deciding seat's view and legal mask for a group of rows, `apply` plays the chosen actions, and
`hand_scores` scores finished rows (`play.hand_table` makes their table). Rule branches are table gathers
(see `dominoes`); loops run over seats or phases, never over deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simulator import tricks
from simulator.batch import BatchState, Rows
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    BID_84,
    BID_168,
    BID_VALUE,
    CALL,
    DONE,
    MAX_CALLS,
    N_ACTIONS,
    PLAY,
    TRUMP,
    FortyTwoView,
)


@dataclass
class HandState(BatchState):
    deal: np.ndarray         # int64 row's deal number within its run (for errors and traces)
    dealer: np.ndarray       # int8
    dealt: np.ndarray        # (n, 4) uint32 hands as dealt
    hands: np.ndarray        # (n, 4) uint32 dominoes still held
    phase: np.ndarray        # int8 CALL, TRUMP, PLAY or DONE: the kind of the pending decision
    turn: np.ndarray         # int8 seat to decide
    calls: np.ndarray        # (n, MAX_CALLS) int8 call actions, -1 after the last
    n_calls: np.ndarray      # int8
    passes: np.ndarray       # int8 passes in a row
    bidders: np.ndarray      # uint8 bit s set once seat s has bid
    high: np.ndarray         # int8 call action of the highest bid, 0 = none
    high_bidder: np.ndarray  # int8, -1 = none
    trump: np.ndarray        # int8, -1 = not named
    plays: np.ndarray        # (n, 28) int8 dominoes in play order, -1 after the last
    n_played: np.ndarray     # int8
    leader: np.ndarray       # int8 leader of the current trick (the declarer before trick 1)
    led: np.ndarray          # int8 suit led (7 = trumps), -1 while leading
    winner: np.ndarray       # int8 seat winning the current trick, -1 while leading
    winning: np.ndarray      # int8 domino winning the current trick, -1 while leading
    win_key: np.ndarray      # int8 its KEY, -1 while leading
    trick_points: np.ndarray  # int8 count in the current trick
    played: np.ndarray       # uint32 every domino played so far
    points: np.ndarray       # (n, 2) int16 points taken, N-S then E-W
    scores: np.ndarray       # (n, 2) int32 game totals before this hand


def shuffled_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 4) uint32: each row a uniform deal of the 28 dominoes, 7 to each seat."""
    order = rng.permuted(np.broadcast_to(np.arange(D.N_DOMINOES, dtype=np.int8), (n, D.N_DOMINOES)), axis=1)
    return D.BIT[order].reshape(n, 4, 7).sum(axis=2, dtype=np.uint32)


def new_hands(deal: np.ndarray, dealer: np.ndarray, hands: np.ndarray,
              scores: np.ndarray | None = None) -> HandState:
    """A batch of hands dealt as `hands` ((n, 4) uint32), waiting for the first call."""
    n = len(deal)
    full = lambda v, dt=np.int8: np.full(n, v, dtype=dt)
    dealer = np.asarray(dealer, dtype=np.int8)
    return HandState(
        deal=np.asarray(deal, dtype=np.int64), dealer=dealer, dealt=hands.copy(), hands=hands.copy(),
        phase=full(CALL), turn=(dealer + 1) & 3, calls=np.full((n, MAX_CALLS), -1, np.int8),
        n_calls=full(0), passes=full(0), bidders=full(0, np.uint8), high=full(0), high_bidder=full(-1),
        trump=full(-1), plays=np.full((n, D.N_DOMINOES), -1, np.int8), n_played=full(0),
        leader=full(-1), led=full(-1), winner=full(-1), winning=full(-1), win_key=full(-1),
        trick_points=full(0), played=full(0, np.uint32), points=np.zeros((n, 2), np.int16),
        scores=np.zeros((n, 2), np.int32) if scores is None else np.asarray(scores, np.int32).copy())


def deal(rng: np.random.Generator, deal: np.ndarray) -> HandState:
    """Deal a batch of uniform hands. The deal passes round the table with the deal number (deal k is dealt
    by seat k % 4), so seats deal equally often and a deal's hands do not depend on the batch's length."""
    deal = np.asarray(deal)
    return new_hands(deal, (deal % 4).astype(np.int8), shuffled_hands(rng, len(deal)))


# ----------------------------------------------------------------------------------------------- calls

@cache
def _bid_table(min_bid: int, jump_bids: bool) -> np.ndarray:
    """(45, 45) bool: row = action of the highest bid so far, column = call action; True if legal.
    Pass is legal here; whether the seat may still bid at all, and the stuck dealer's forced bid
    (`all_pass = dealer_forced`), are checked separately."""
    table = np.zeros((N_ACTIONS[CALL], N_ACTIONS[CALL]), dtype=bool)
    table[:, 0] = True
    for high in range(N_ACTIONS[CALL]):
        value = BID_VALUE[high]
        table[high, 1:43] = (np.arange(1, 43) >= min_bid) & (np.arange(1, 43) > value)
        table[high, BID_84] = value < 84 if jump_bids else value == 42
        table[high, BID_168] = value == 84
    return table


def _call_inputs(s: HandState, r: Rows, rules: FortyTwoRules) -> np.ndarray:
    legal = _bid_table(rules.min_bid, rules.jump_bids)[s.high[r]]
    already_bid = (s.bidders[r] >> s.turn[r].astype(np.uint8)) & 1 == 1
    legal[already_bid, 1:] = False
    if rules.all_pass == "dealer_forced":
        # Stuck dealer: after three opening passes the dealer (the fourth to call) may not pass. It is his
        # first call, so the bids the table allows over no bid (min_bid and up) stay open to him.
        legal[:, 0] &= ~((s.n_calls[r] == 3) & (s.high[r] == 0))
    return legal


def _apply_calls(s: HandState, r: Rows, actions: np.ndarray, rules: FortyTwoRules) -> None:
    ri = _index(r, len(s))
    seat = s.turn[ri]
    s.calls[ri, s.n_calls[ri]] = actions
    s.n_calls[ri] += 1
    bid = actions > 0
    s.passes[ri] = np.where(bid, 0, s.passes[ri] + 1)
    s.high[ri] = np.where(bid, actions, s.high[ri])
    s.high_bidder[ri] = np.where(bid, seat, s.high_bidder[ri])
    s.bidders[ri] |= np.where(bid, np.uint8(1) << seat.astype(np.uint8), np.uint8(0))
    if rules.auction == "one-lap":
        over = s.n_calls[ri] == 4
    else:
        over = (s.passes[ri] == 3) & (s.high[ri] > 0) | (s.passes[ri] == 4)
    thrown_in = over & (s.high[ri] == 0)
    s.turn[ri] = np.where(over, s.high_bidder[ri], (seat + 1) & 3)
    s.leader[ri] = np.where(over, s.high_bidder[ri], -1)
    s.phase[ri] = np.where(thrown_in, DONE, np.where(over, TRUMP, CALL))


def _apply_trump(s: HandState, r: Rows, actions: np.ndarray) -> None:
    s.trump[r] = actions
    s.phase[r] = PLAY


# ----------------------------------------------------------------------------------------------- play

def _play_inputs(s: HandState, r: Rows, hand: np.ndarray) -> np.ndarray:
    led = s.led[r]
    follow_bits = D.FOLLOW_FLAT[s.trump[r].astype(np.intp) * 8 + np.maximum(led, 0)]
    return tricks.legal_mask(hand, follow_bits, led < 0, D.N_DOMINOES)


def _apply_plays(s: HandState, r: Rows, d: np.ndarray, count: np.ndarray) -> None:
    # One-axis fields are read and written through `r` (a slice when every row plays: no copies);
    # per-seat and per-play cells through flat indices.
    ri = _index(r, len(s))
    seat = s.turn[r]
    bit = D.BIT[d]
    s.hands.reshape(-1)[ri * 4 + seat] &= ~bit
    s.played[r] |= bit
    k = s.n_played[r]
    s.plays.reshape(-1)[ri * D.N_DOMINOES + k] = d
    trump = s.trump[r].astype(np.intp)
    led = np.where(k & 3 == 0, D.LEAD_SUIT[trump, d], s.led[r])
    key = D.KEY_FLAT[(trump * 8 + led) * D.N_DOMINOES + d]
    win_key = s.win_key[r]
    beats = key > win_key  # the lead has key >= 0 and the key is reset to -1 between tricks
    winner = np.where(beats, seat, s.winner[r])
    winning = np.where(beats, d, s.winning[r])
    win_key = np.maximum(key, win_key)
    trick_points = s.trick_points[r] + count[d]
    k += 1
    s.n_played[r] = k
    end = (k & 3) == 0
    if end.any():
        e = ri[end]
        s.points.reshape(-1)[e * 2 + (winner[end] & 1)] += trick_points[end] + 1
        s.leader[e] = winner[end]
        s.turn[r] = np.where(end, winner, (seat + 1) & 3)
        led[end] = winner[end] = winning[end] = win_key[end] = -1
        trick_points[end] = 0
        s.phase[e[k[end] == D.N_DOMINOES]] = DONE
    else:
        s.turn[r] = (seat + 1) & 3
    s.led[r], s.winner[r], s.winning[r], s.win_key[r], s.trick_points[r] = (
        led, winner, winning, win_key, trick_points)


# ------------------------------------------------------------------------------------------ interface

def _index(r: Rows, n: int) -> np.ndarray:
    return np.arange(n) if isinstance(r, slice) else r


def inputs(s: HandState, r: Rows, kind: int, rules: FortyTwoRules) -> tuple[FortyTwoView, np.ndarray]:
    """The view of the seat to decide and its legal mask (m, N_ACTIONS[kind]) for rows `r` of one kind."""
    ri = _index(r, len(s))
    seat = s.turn[r]
    hand = s.hands.reshape(-1)[ri * 4 + seat]
    fields = {"seat": lambda: seat, "hand": lambda: hand, "high_bid": lambda: BID_VALUE[s.high[r]],
              **{name: _window(s, name, r) for name in _SAME_NAME}}
    view = FortyTwoView.lazy(lambda name: fields[name](), len(seat), rules)
    if kind == CALL:
        legal = _call_inputs(s, r, rules)
    elif kind == TRUMP:
        legal = np.ones((len(seat), N_ACTIONS[TRUMP]), dtype=bool)
    else:
        legal = _play_inputs(s, r, hand)
    return view, legal


# View fields that are the state's field of the same name, row for row.
_SAME_NAME = ("dealer", "calls", "n_calls", "high_bidder", "trump", "plays", "n_played", "leader", "led", "winner",
              "winning", "played", "points", "scores")


def _window(s: HandState, name: str, r: Rows):
    return lambda: getattr(s, name)[r]


def apply(s: HandState, r: Rows, kind: int, actions: np.ndarray, rules: FortyTwoRules) -> None:
    """Play one checked action for each row in `r`, all of kind `kind`."""
    if kind == CALL:
        _apply_calls(s, r, actions, rules)
    elif kind == TRUMP:
        _apply_trump(s, r, actions)
    else:
        _apply_plays(s, r, actions.astype(np.int8, copy=False), D.COUNT_POINTS[rules.count_values])


def hand_scores(s: HandState) -> tuple[np.ndarray, np.ndarray]:
    """Each side's score for finished hands ((n, 2) int32) and whether the contract was made."""
    bid = BID_VALUE[s.high].astype(np.int32)
    decl = s.high_bidder & 1
    ar = np.arange(len(s))
    taken = s.points.astype(np.int32)
    decl_pts, def_pts = taken[ar, decl], taken[ar, 1 - decl]
    made = decl_pts >= np.minimum(bid, 42)
    big = bid >= 42
    decl_score = np.where(made, np.where(big, 42, decl_pts), 0)
    def_score = np.where(made, np.where(big, 0, def_pts), def_pts + bid)
    score = np.zeros((len(s), 2), np.int32)
    score[ar, decl] = decl_score
    score[ar, 1 - decl] = def_score
    thrown_in = s.high == 0
    score[thrown_in] = 0
    return score, made & ~thrown_in


def deal_around(rng: np.random.Generator, n: int, seat: int, fixed: int) -> np.ndarray:
    """(n, 4) uint32: `seat` holds the dominoes of bitmask `fixed` (seven of them); the other 21 are dealt
    uniformly to the other three seats, seven each."""
    rest = np.array([d for d in range(D.N_DOMINOES) if not fixed >> d & 1], dtype=np.int8)
    order = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
    others = D.BIT[order].reshape(n, 3, 7).sum(axis=2, dtype=np.uint32)
    return np.insert(others, seat, np.uint32(fixed), axis=1)


def with_contract(s: HandState, declarer: int, bid_action: int, trump: int) -> HandState:
    """The hands of `s` at the start of play with this contract imposed (no auction is recorded)."""
    s.high[:] = bid_action
    s.high_bidder[:] = declarer
    s.trump[:] = trump
    s.turn[:] = s.leader[:] = declarer
    s.phase[:] = PLAY
    return s
