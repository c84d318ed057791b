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
    """(n, 4) uint32: each row a uniform deal of the 28 dominoes, 7 to each seat: the draws of
    `rng.permuted` over rows of 0..27, seat k taking places 7k..7k+6 (compiled, `kernels.shuffled_hands`)."""
    return _kernels().shuffled_hands(rng, n)


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


def _call_words(s: HandState, r: Rows, rules: FortyTwoRules) -> np.ndarray:
    """(m,) uint64 the legal calls as one word a row (bit a = call action a): the ladder's row for the bid so
    far (`_bid_table`); the special bids hang on the doubles the caller holds; a seat that has bid only
    passes; under `all_pass = dealer_forced` the stuck dealer, after three opening passes (his first call, so
    the bids the table allows over no bid stay open to him), may not pass."""
    fields = (s.bid, s.turn, s.bidders, s.n_calls, s.high, s.hands)
    table = _packed_bid_table(rules.min_bid, rules.jump_bids, rules.scoring == "marks")
    forced = rules.all_pass == "dealer_forced"
    return _kernels().call_words(_rows(r, len(s)), table, fields, rules.plunge, rules.splash, forced)


@cache
def _packed_bid_table(min_bid: int, jump_bids: bool, marks: bool) -> np.ndarray:
    """`_bid_table` with each row packed into one uint64 word (bit a = call action a)."""
    return bitrows.pack(_bid_table(min_bid, jump_bids, marks))[:, 0].copy()


def _call_inputs(s: HandState, r: Rows, rules: FortyTwoRules) -> np.ndarray:
    return bitrows.unpack(_call_words(s, r, rules)[:, None], N_ACTIONS[CALL])


def _apply_calls(s: HandState, r: Rows, actions: np.ndarray, rules: FortyTwoRules) -> None:
    """Record each row's call and raise the bid; the auction ends after three passes following a bid or four
    passes (one lap: after four calls). Four passes throw the hand in; otherwise the declarer (his partner
    after a plunge or splash) names trumps and leads. A plunge's or splash's value depends on the bid it
    overcalls (`special_value`)."""
    fields = (
        s.turn,
        s.calls,
        s.n_calls,
        s.passes,
        s.high,
        s.bid,
        s.high_bidder,
        s.bidders,
        s.leader,
        s.phase,
    )
    _kernels().apply_calls(
        _rows(r, len(s)), np.asarray(actions, np.int64), fields, rules.auction == "one-lap"
    )


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


def _play_bits(s: HandState, r: Rows) -> np.ndarray:
    """(m,) uint64 the legal plays as a bitmask of dominoes: those that follow the led suit, or the whole
    hand when leading or void; under sevens every player plays his domino closest to seven pips (any of
    equals)."""
    return _kernels().play_bits(_rows(r, len(s)), s.hands, s.turn, s.led, s.ctx)


def _play_inputs(s: HandState, r: Rows) -> np.ndarray:
    return tricks.bits_to_mask(_play_bits(s, r), D.N_DOMINOES)


def _apply_plays(s: HandState, r: Rows, d: np.ndarray, count: np.ndarray, rules: FortyTwoRules) -> None:
    """The domino leaves the hand and joins the trick, taking it with a higher key (the lead has key >= 0
    and the key is reset to -1 between tricks); a full trick (three under nello, the partner sitting out)
    scores its count + 1 to its taker's side, who leads next. The hand ends after seven tricks, or under
    marks with play_out = false once the contract is decided: a bid under 42 is made once the declarers
    hold it and set once the defenders hold more than 42 - bid; a bid of 42 or more is set by the
    defenders' first trick; nello by the declarer's first trick."""
    # the state's fields the kernel writes (and reads), in its order; then what only the marks stop reads
    fields = (
        *(s.hands, s.played, s.plays, s.n_played, s.turn, s.ctx, s.trick_start, s.per_trick, s.sitter),
        *(s.led, s.winner, s.winning, s.win_key, s.trick_points, s.points, s.leader, s.tricks_done, s.phase),
    )
    stop = rules.scoring == "marks" and not rules.play_out
    _kernels().apply_plays(_rows(r, len(s)), d, count, fields, (s.bid, s.high_bidder, s.trump), stop)


@cache
def _kernels():
    """The compiled steps (numba), loaded on the first step: a command that plays no Forty-two never loads
    numba."""
    from simulator.fortytwo import kernels

    return kernels


# ------------------------------------------------------------------------------------------ interface


def _rows(r: Rows, n: int) -> np.ndarray | None:
    """The kernels' rows: None for every row (their loop of its own), else the row numbers."""
    return None if isinstance(r, slice) and r == slice(None) else _index(r, n)


def _index(r: Rows, n: int) -> np.ndarray:
    return np.arange(n) if isinstance(r, slice) else r


def _view(s: HandState, r: Rows, rules: FortyTwoRules) -> FortyTwoView:
    """The deciding seats' view of rows `r`, each field read from the state when a strategy first reads it
    (uniform random play reads none)."""

    def fetch(name: str) -> np.ndarray:
        if name == "seat":
            return s.turn[r]
        if name == "hand":
            return _hand(s, r)
        if name == "high_bid":
            return s.bid[r]
        return getattr(s, name)[r]  # the view's other fields are the state's of the same name

    return FortyTwoView.lazy(fetch, len(s) if isinstance(r, slice) else len(r), rules)


def _hand(s: HandState, r: Rows) -> np.ndarray:
    """(m,) uint32 the dominoes the seat to decide holds."""
    return s.hands.reshape(-1)[_index(r, len(s)) * 4 + s.turn[r]]


def inputs(s: HandState, r: Rows, kind: int, rules: FortyTwoRules) -> tuple[FortyTwoView, np.ndarray]:
    """The view of the seat to decide and its legal mask (m, N_ACTIONS[kind]) for rows `r` of one kind."""
    view = _view(s, r, rules)
    if kind == CALL:
        legal = _call_inputs(s, r, rules)
    elif kind == TRUMP:
        legal = _trump_inputs(s, r, rules)
    else:
        legal = _play_inputs(s, r)
    return view, legal


def packed_inputs(
    s: HandState, r: Rows, kind: int, rules: FortyTwoRules
) -> tuple[FortyTwoView, np.ndarray, int]:
    """`inputs` with the legal actions as bit rows (simulator.bitrows): a play's are the hand's bitmask as
    it is."""
    view = _view(s, r, rules)
    if kind == CALL:
        return view, _call_words(s, r, rules)[:, None], N_ACTIONS[CALL]
    if kind == TRUMP:
        return view, bitrows.pack(_trump_inputs(s, r, rules)), N_ACTIONS[TRUMP]
    return view, _play_bits(s, r)[:, None], D.N_DOMINOES


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
