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

from simulator import bitrows, tricks
from simulator.batch import BatchState, Rows
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    BID_84,
    BID_126,
    BID_168,
    BID_210,
    BID_VALUE,
    CALL,
    DONE,
    DOUBLES,
    MAX_CALLS,
    MOST,
    N_ACTIONS,
    NELLO,
    NO_TRUMP,
    PLAY,
    PLUNGE,
    SEVENS,
    SPLASH,
    TRUMP,
    FortyTwoView,
    bid_marks,
    special_value,
)


@dataclass
class HandState(BatchState):
    deal: np.ndarray  # int64 row's deal number within its run (for errors and traces)
    dealer: np.ndarray  # int8
    dealt: np.ndarray  # (n, 4) uint32 hands as dealt
    hands: np.ndarray  # (n, 4) uint32 dominoes still held
    phase: np.ndarray  # int8 CALL, TRUMP, PLAY or DONE: the kind of the pending decision
    turn: np.ndarray  # int8 seat to decide
    calls: np.ndarray  # (n, MAX_CALLS) int8 call actions, -1 after the last
    n_calls: np.ndarray  # int8
    passes: np.ndarray  # int8 passes in a row
    bidders: np.ndarray  # uint8 bit s set once seat s has bid
    high: np.ndarray  # int8 call action of the highest bid, 0 = none
    bid: np.ndarray  # int16 its value (a plunge's or splash's depends on what it overcalled), 0 = none
    high_bidder: np.ndarray  # int8, -1 = none
    trump: (
        np.ndarray
    )  # int8 what was named (a TRUMP action: pip, doubles, no-trump, nello, sevens), -1 = not yet
    ctx: np.ndarray  # int8 its play context (dominoes.context_of), -1 = not yet
    sitter: np.ndarray  # int8 the seat that sits the hand out (the nello declarer's partner), -1 = none
    per_trick: np.ndarray  # int8 dominoes in a trick: 4, or 3 under nello
    trick_start: np.ndarray  # int8 where the current trick starts in plays
    tricks_done: np.ndarray  # int8 tricks completed
    plays: np.ndarray  # (n, 28) int8 dominoes in play order, -1 after the last
    n_played: np.ndarray  # int8
    leader: np.ndarray  # int8 leader of the current trick (the declarer before trick 1)
    led: np.ndarray  # int8 suit led (7 = trumps), -1 while leading
    winner: np.ndarray  # int8 seat winning the current trick, -1 while leading
    winning: np.ndarray  # int8 domino winning the current trick, -1 while leading
    win_key: np.ndarray  # int8 its KEY, -1 while leading
    trick_points: np.ndarray  # int8 count in the current trick
    played: np.ndarray  # uint32 every domino played so far
    points: np.ndarray  # (n, 2) int16 points taken, N-S then E-W
    scores: np.ndarray  # (n, 2) int32 game totals before this hand


def shuffled_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 4) uint32: each row a uniform deal of the 28 dominoes, 7 to each seat."""
    # int64 rows: numpy swaps 8-byte items directly, faster than int8 ones (the same draws)
    order = rng.permuted(np.broadcast_to(np.arange(D.N_DOMINOES), (n, D.N_DOMINOES)), axis=1)
    return D.BIT[order].reshape(n, 4, 7).sum(axis=2, dtype=np.uint32)


def new_hands(
    deal: np.ndarray, dealer: np.ndarray, hands: np.ndarray, scores: np.ndarray | None = None
) -> HandState:
    """A batch of hands dealt as `hands` ((n, 4) uint32), waiting for the first call."""
    n = len(deal)

    def full(v, dt=np.int8):
        return np.full(n, v, dtype=dt)

    dealer = np.asarray(dealer, dtype=np.int8)
    return HandState(
        deal=np.asarray(deal, dtype=np.int64),
        dealer=dealer,
        dealt=hands.copy(),
        hands=hands.copy(),
        phase=full(CALL),
        turn=(dealer + 1) & 3,
        calls=np.full((n, MAX_CALLS), -1, np.int8),
        n_calls=full(0),
        passes=full(0),
        bidders=full(0, np.uint8),
        high=full(0),
        bid=full(0, np.int16),
        high_bidder=full(-1),
        trump=full(-1),
        ctx=full(-1),
        sitter=full(-1),
        per_trick=full(4),
        trick_start=full(0),
        tricks_done=full(0),
        plays=np.full((n, D.N_DOMINOES), -1, np.int8),
        n_played=full(0),
        leader=full(-1),
        led=full(-1),
        winner=full(-1),
        winning=full(-1),
        win_key=full(-1),
        trick_points=full(0),
        played=full(0, np.uint32),
        points=np.zeros((n, 2), np.int16),
        scores=np.zeros((n, 2), np.int32) if scores is None else np.asarray(scores, np.int32).copy(),
    )


def deal(rng: np.random.Generator, deal: np.ndarray) -> HandState:
    """Deal a batch of uniform hands. The deal passes round the table with the deal number (deal k is dealt
    by seat k % 4), so seats deal equally often and a deal's hands do not depend on the batch's length."""
    deal = np.asarray(deal)
    return new_hands(deal, (deal % 4).astype(np.int8), shuffled_hands(rng, len(deal)))


# ----------------------------------------------------------------------------------------------- calls


@cache
def _bid_table(min_bid: int, jump_bids: bool, marks: bool) -> np.ndarray:
    """(MOST + 1, N_ACTIONS[CALL]) bool: row = value of the highest bid so far (at most 210, five marks),
    column = call action; True if legal by the ladder. Pass is legal here; whether the seat may still bid at
    all, the special bids' hands and the stuck dealer's forced bid (`all_pass = dealer_forced`) are checked
    separately. The ladder: 84 over 42 (over any bid with jump bids); under marks 126 over 84, 168 over 126
    and 210 over 168, under points 168 over 84; a plunge or splash over anything below five marks (it is
    worth one mark more than the bid it overcalls, and no bid is worth more than five)."""
    table = np.zeros((MOST + 1, N_ACTIONS[CALL]), dtype=bool)
    table[:, 0] = True
    value = np.arange(MOST + 1)
    table[:, 1:43] = (np.arange(1, 43)[None, :] >= min_bid) & (np.arange(1, 43)[None, :] > value[:, None])
    table[:, BID_84] = value < 84 if jump_bids else value == 42
    if marks:
        table[:, BID_126] = value == 84
        table[:, BID_168] = value == 126
        table[:, BID_210] = value == 168
    else:
        table[:, BID_168] = value == 84
    table[:, PLUNGE] = table[:, SPLASH] = value < MOST
    return table


def _call_inputs(s: HandState, r: Rows, rules: FortyTwoRules) -> np.ndarray:
    legal = _bid_table(rules.min_bid, rules.jump_bids, rules.scoring == "marks")[s.bid[r]]
    seat = s.turn[r]
    if rules.plunge or rules.splash:  # the special bids hang on the doubles the caller holds
        doubles = np.bitwise_count(s.hands.reshape(-1)[_index(r, len(s)) * 4 + seat] & D.DOUBLE_BITS)
        legal[:, PLUNGE] &= rules.plunge & (doubles >= 4)
        legal[:, SPLASH] &= rules.splash & (doubles >= 3)
    else:
        legal[:, PLUNGE] = legal[:, SPLASH] = False
    already_bid = (s.bidders[r] >> seat.astype(np.uint8)) & 1 == 1
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
    special = (actions == PLUNGE) | (actions == SPLASH)
    value = np.where(special, special_value(actions, s.bid[ri]), BID_VALUE[actions]).astype(np.int16)
    s.passes[ri] = np.where(bid, 0, s.passes[ri] + 1)
    s.high[ri] = np.where(bid, actions, s.high[ri])
    s.bid[ri] = np.where(bid, value, s.bid[ri])
    s.high_bidder[ri] = np.where(bid, seat, s.high_bidder[ri])
    s.bidders[ri] |= np.where(bid, np.uint8(1) << seat.astype(np.uint8), np.uint8(0))
    if rules.auction == "one-lap":
        over = s.n_calls[ri] == 4
    else:
        over = (s.passes[ri] == 3) & (s.high[ri] > 0) | (s.passes[ri] == 4)
    thrown_in = over & (s.high[ri] == 0)
    # After a plunge or splash the declarer's partner names trumps and leads.
    partner_names = (s.high[ri] == PLUNGE) | (s.high[ri] == SPLASH)
    namer = np.where(partner_names, (s.high_bidder[ri] + 2) & 3, s.high_bidder[ri])
    s.turn[ri] = np.where(over, namer, (seat + 1) & 3)
    s.leader[ri] = np.where(over, namer, -1)
    s.phase[ri] = np.where(thrown_in, DONE, np.where(over, TRUMP, CALL))


def _trump_inputs(s: HandState, r: Rows, rules: FortyTwoRules) -> np.ndarray:
    """Pips always; doubles and no-trump when declared; nello and sevens with their rule on, a contract of
    42 or more and no plunge or splash."""
    m = len(s.turn[r])
    legal = np.zeros((m, N_ACTIONS[TRUMP]), dtype=bool)
    legal[:, :7] = True
    legal[:, DOUBLES] = rules.declares("doubles")
    legal[:, NO_TRUMP] = rules.declares("no-trump")
    plain_big = (s.bid[r] >= 42) & (s.high[r] != PLUNGE) & (s.high[r] != SPLASH)
    legal[:, NELLO] = rules.nello & plain_big
    legal[:, SEVENS] = rules.sevens & plain_big
    return legal


def _apply_trump(s: HandState, r: Rows, actions: np.ndarray, rules: FortyTwoRules) -> None:
    s.trump[r] = actions
    s.ctx[r] = _CONTEXT[int(rules.doubles_low), _NELLO_DOUBLES.index(rules.nello_doubles)][actions]
    nello = actions == NELLO
    s.sitter[r] = np.where(nello, (s.high_bidder[r] + 2) & 3, -1)
    s.per_trick[r] = np.where(nello, 3, 4)
    s.phase[r] = PLAY


_NELLO_DOUBLES = ("suit", "high", "low")
# [doubles_low, nello_doubles, TRUMP action]: the play context (dominoes.context_of as a gather).
_CONTEXT = np.array(
    [
        [
            [
                D.context_of(a, FortyTwoRules(doubles_low=bool(low), nello_doubles=nd))
                for a in range(N_ACTIONS[TRUMP])
            ]
            for nd in _NELLO_DOUBLES
        ]
        for low in (0, 1)
    ],
    np.int8,
)


# ----------------------------------------------------------------------------------------------- play


def _play_bits(s: HandState, r: Rows, hand: np.ndarray) -> np.ndarray:
    """(m,) uint32 the legal plays as a bitmask of dominoes."""
    led = s.led[r]
    ctx = s.ctx[r].astype(np.intp)
    follow_bits = D.FOLLOW_FLAT[ctx * 8 + np.maximum(led, 0)]
    bits = tricks.legal_bits(hand, follow_bits, led < 0)
    sevens = ctx == D.SEVENS_CTX
    if sevens.any():  # every player plays his domino closest to seven pips (any of equals)
        held = tricks.bits_to_mask(bits[sevens], D.N_DOMINOES)
        distance = np.where(held, D.SEVENS_DISTANCE, 99)
        closest = held & (distance == distance.min(axis=1, keepdims=True))
        bits[sevens] = (closest * D.BIT).sum(axis=1, dtype=np.uint32)
    return bits


def _play_inputs(s: HandState, r: Rows, hand: np.ndarray) -> np.ndarray:
    return tricks.bits_to_mask(_play_bits(s, r, hand), D.N_DOMINOES)


def _apply_plays(s: HandState, r: Rows, d: np.ndarray, count: np.ndarray, rules: FortyTwoRules) -> None:
    # One-axis fields are read and written through `r` (a slice when every row plays: no copies);
    # per-seat and per-play cells through flat indices.
    ri = _index(r, len(s))
    seat = s.turn[r]
    bit = D.BIT[d]
    s.hands.reshape(-1)[ri * 4 + seat] &= ~bit
    s.played[r] |= bit
    k = s.n_played[r]
    s.plays.reshape(-1)[ri * D.N_DOMINOES + k] = d
    ctx = s.ctx[r].astype(np.intp)
    leading = k == s.trick_start[r]
    led = np.where(leading, D.LEAD_SUIT[ctx, d], s.led[r])
    key = D.KEY_FLAT[(ctx * 8 + led) * D.N_DOMINOES + d]
    win_key = s.win_key[r]
    beats = key > win_key  # the lead has key >= 0 and the key is reset to -1 between tricks
    winner = np.where(beats, seat, s.winner[r])
    winning = np.where(beats, d, s.winning[r])
    win_key = np.maximum(key, win_key)
    trick_points = s.trick_points[r] + count[d]
    k += 1
    s.n_played[r] = k
    following = (seat + 1) & 3
    following = np.where(
        following == s.sitter[r], (following + 1) & 3, following
    )  # nello: the partner sits out
    end = k - s.trick_start[r] == s.per_trick[r]
    if end.any():
        e = ri[end]
        s.points.reshape(-1)[e * 2 + (winner[end] & 1)] += trick_points[end] + 1
        s.leader[e] = winner[end]
        s.turn[r] = np.where(end, winner, following)
        s.trick_start[e] = k[end]
        s.tricks_done[e] += 1
        over = s.tricks_done[e] == 7
        if rules.scoring == "marks" and not rules.play_out:
            over |= _decided(s, e, winner[end])
        s.phase[e[over]] = DONE
        led[end] = winner[end] = winning[end] = win_key[end] = -1
        trick_points[end] = 0
    else:
        s.turn[r] = following
    s.led[r], s.winner[r], s.winning[r], s.win_key[r], s.trick_points[r] = (
        led,
        winner,
        winning,
        win_key,
        trick_points,
    )


def _decided(s: HandState, e: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Rows `e`, just after a trick `winner` took: whether the contract is already made or set (marks with
    play_out = false stop there). A bid under 42 is made once the declarers hold it and set once the
    defenders hold more than 42 - bid; a bid of 42 or more is set by the defenders' first trick; nello by the
    declarer's first trick."""
    bid = s.bid[e].astype(np.int16)
    decl = s.high_bidder[e]
    side = decl & 1
    decl_pts, def_pts = s.points[e, side], s.points[e, 1 - side]
    nello = s.trump[e] == NELLO
    small = (bid < 42) & ((decl_pts >= bid) | (def_pts > 42 - bid))
    big = (bid >= 42) & ~nello & ((winner & 1) != side)
    return small | big | (nello & (winner == decl))


# ------------------------------------------------------------------------------------------ interface


def _index(r: Rows, n: int) -> np.ndarray:
    return np.arange(n) if isinstance(r, slice) else r


def _view(s: HandState, r: Rows, rules: FortyTwoRules) -> tuple[FortyTwoView, np.ndarray]:
    ri = _index(r, len(s))
    seat = s.turn[r]
    hand = s.hands.reshape(-1)[ri * 4 + seat]
    fields = {
        "seat": lambda: seat,
        "hand": lambda: hand,
        "high_bid": lambda: s.bid[r],
        **{name: _window(s, name, r) for name in _SAME_NAME},
    }
    return FortyTwoView.lazy(lambda name: fields[name](), len(seat), rules), hand


def inputs(s: HandState, r: Rows, kind: int, rules: FortyTwoRules) -> tuple[FortyTwoView, np.ndarray]:
    """The view of the seat to decide and its legal mask (m, N_ACTIONS[kind]) for rows `r` of one kind."""
    view, hand = _view(s, r, rules)
    if kind == CALL:
        legal = _call_inputs(s, r, rules)
    elif kind == TRUMP:
        legal = _trump_inputs(s, r, rules)
    else:
        legal = _play_inputs(s, r, hand)
    return view, legal


def packed_inputs(
    s: HandState, r: Rows, kind: int, rules: FortyTwoRules
) -> tuple[FortyTwoView, np.ndarray, int]:
    """`inputs` with the legal actions as bit rows (simulator.bitrows): a play's are the hand's bitmask as
    it is."""
    if kind != PLAY:
        view, legal = inputs(s, r, kind, rules)
        return view, bitrows.pack(legal), legal.shape[1]
    view, hand = _view(s, r, rules)
    return view, _play_bits(s, r, hand).astype(np.uint64)[:, None], D.N_DOMINOES


# View fields that are the state's field of the same name, row for row.
_SAME_NAME = (
    "dealer",
    "calls",
    "n_calls",
    "high_bidder",
    "trump",
    "ctx",
    "plays",
    "n_played",
    "trick_start",
    "leader",
    "led",
    "winner",
    "winning",
    "played",
    "points",
    "scores",
)


def _window(s: HandState, name: str, r: Rows):
    return lambda: getattr(s, name)[r]


def apply(s: HandState, r: Rows, kind: int, actions: np.ndarray, rules: FortyTwoRules) -> None:
    """Play one checked action for each row in `r`, all of kind `kind`."""
    if kind == CALL:
        _apply_calls(s, r, actions, rules)
    elif kind == TRUMP:
        _apply_trump(s, r, actions, rules)
    else:
        _apply_plays(s, r, actions.astype(np.int8, copy=False), D.COUNT_POINTS[rules.count_values], rules)


def hand_scores(s: HandState, rules: FortyTwoRules) -> tuple[np.ndarray, np.ndarray]:
    """Each side's score for finished hands ((n, 2) int32) and whether the contract was made.

    Points (seed): a made bid under 42 scores each side its points; a made bid of 42 or more scores the
    declarers 42; a set one scores the defenders their points + the bid. Nello: the side that wins scores the
    bid itself. Marks: the side that wins the contract (declarers made, defenders set) scores its marks."""
    bid = s.bid.astype(np.int32)
    decl = s.high_bidder & 1
    ar = np.arange(len(s))
    taken = s.points.astype(np.int32)
    decl_pts, def_pts = taken[ar, decl], taken[ar, 1 - decl]
    nello = s.trump == NELLO
    big = bid >= 42
    # all-tricks contracts are made only with every trick (all 42 points); nello with none
    made = np.where(nello, decl_pts == 0, np.where(big, decl_pts == 42, decl_pts >= bid))
    if rules.scoring == "marks":
        marks = bid_marks(bid).astype(np.int32)
        decl_score, def_score = np.where(made, marks, 0), np.where(made, 0, marks)
    else:
        decl_score = np.where(made, np.where(nello, bid, np.where(big, 42, decl_pts)), 0)
        def_score = np.where(made, np.where(big, 0, def_pts), np.where(nello, bid, def_pts + bid))
    score = np.zeros((len(s), 2), np.int32)
    score[ar, decl] = decl_score
    score[ar, 1 - decl] = def_score
    thrown_in = s.high == 0
    score[thrown_in] = 0
    return score, made & ~thrown_in


def deal_around(rng: np.random.Generator, n: int, seat: int, fixed: int) -> np.ndarray:
    """(n, 4) uint32: `seat` holds the dominoes of bitmask `fixed` (seven of them); the other 21 are dealt
    uniformly to the other three seats, seven each."""
    rest = np.array([d for d in range(D.N_DOMINOES) if not fixed >> d & 1], dtype=np.int64)
    order = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
    others = D.BIT[order].reshape(n, 3, 7).sum(axis=2, dtype=np.uint32)
    return np.insert(others, seat, np.uint32(fixed), axis=1)


def with_contract(
    s: HandState, declarer: int, bid_action: int, trump: int | np.ndarray, rules: FortyTwoRules | None = None
) -> HandState:
    """The hands of `s` at the start of play with this contract imposed (no auction is recorded): `trump` is
    a TRUMP action (a pip, doubles, no-trump or nello, read under `rules`), one for all rows or one per
    row."""
    s.high[:] = bid_action
    s.bid[:] = BID_VALUE[bid_action]
    s.high_bidder[:] = declarer
    _apply_trump(
        s, slice(None), np.broadcast_to(np.asarray(trump, np.int8), len(s)).copy(), rules or FortyTwoRules()
    )
    s.turn[:] = s.leader[:] = declarer
    s.phase[:] = PLAY
    return s
