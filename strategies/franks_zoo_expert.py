"""Frank's Zoo expert: Monte Carlo over determinized deals, the heuristic playing each candidate out.

At a decision it searches (see below), the seat deals the cards it cannot see `samples` times, each deal
consistent with what it has seen, and for every candidate action plays the rest of the hand out with the
heuristic (`strategies.franks_zoo.Heuristic`, its defaults) at every seat, on the batched core: one driver
run for every row, sample and candidate of the decision group. Each candidate scores the seat's own points
for the hand (`core.hand_points`: its placement, its partner's placement, the solo bonus, lions and the
hedgehog), averaged over the samples; the best average is played and equal averages go to the heuristic's
choice. Every candidate is played out on the same deals, so their differences carry less noise than their
averages.

Which decisions are searched (elsewhere the heuristic decides; a decision with one legal action is never
searched): `exchange` every exchange decision; `help` every answer to a request and every play where the
seat may ask for help; `late` every play made holding at most that many cards. The candidates are every
legal action, except that of the requests only those laying a whole group of one kind (no chameleon) and
the heuristic's own choice are tried.

Determinization: what the view shows. The unseen cards are the deck less the seat's hand, the cards
played face up this hand and the seat's cards in the exchange that have not reached anyone yet (given,
while it is still giving) or that it set aside playing solo. Some holders are known and dealt first:
- a junior's senior holds, of each kind, at least what the junior gave less what he gave back, less the
  cards of the kind played since (the view counts plays per kind, not per seat: a lower bound);
- a senior's junior holds at least what the senior gave him, less the cards of the kind played since;
- a junior who asked for help still holds the cards he laid, until his senior answers.
The rest are dealt uniformly to the other seats with the counts the view shows; when another seat plays
solo, the cards left over are the ones it set aside (they count as taken by it). Dealing the known cards
first and the rest uniformly slightly favours deals where the known holder has no more of the kind.

What the view does not show is filled so that the rest of the hand plays by the rules:
- the cards taken so far and those of the current trick below the set on the table are not in the view: a
  playout starts with nothing taken and the set on the table as the trick's only cards, so the lions and
  hedgehogs of a playout count from the decision on;
- during the exchange, the other teams' exchanges count as done (their hands are dealt as they stand, and
  no team's exchange changes another's), the seat's own team and then the solo player finish theirs, and
  the player last in the standings leads: a junior, the one with the lowest total (on equal totals, the one
  whose senior has the lower total; then the lower seat).

Randomness: the deals of a decision come from a hash of the seat's view and `seed`, so a decision is a
function of what the seat has seen: the batched core and the reference engine make the same moves, any
grouping of rows gives the same actions, and the run's random stream is not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, cast

import numpy as np

from simulator.contract import Sizes
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core
from simulator.franks_zoo.core import HandState
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import (
    ANSWER,
    ASK,
    EXCHANGE,
    JUNIOR,
    PLAY,
    SENIOR,
    SOLO,
    FranksZooView,
)
from simulator.options import needs, option
from strategies.base import Strategy
from strategies.franks_zoo import Heuristic

_U64 = np.uint64
_DECK = C.DECK.astype(np.int64)
_SLOT_KIND = np.repeat(np.arange(C.N_KINDS), C.DECK)  # the 60 cards in kind order
_SLOT_RANK = np.concatenate([np.arange(n) for n in C.DECK])  # each card's index within its kind
_PART_REAL, _PART_CHAM, _PART_MOSQ = (C.PARTIALS[:, i].astype(np.int64) for i in (1, 2, 3))
_PART_KIND = C.PARTIALS[:, 0].astype(np.intp)


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer over a uint64 array (wrapping arithmetic)."""
    h = (h ^ (h >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> _U64(27))) * _U64(0x94D049BB133111EB)
    return h ^ (h >> _U64(31))


def view_seeds(view: FranksZooView, kind: int, salt: int) -> np.ndarray:
    """(m,) uint64: a hash of every field of each row's view with the decision kind and `salt`: equal views
    give equal seeds, in any engine and any grouping of rows."""
    from strategies.franks_zoo_seeds import hash_columns  # compiled: loaded on the first search

    m = len(view)
    start = _U64((salt * 0x9E3779B97F4A7C15 + kind * 0xD1B54A32D192ED03 + 1) & (2**64 - 1))
    cols = [np.asarray(getattr(view, name)).astype(np.int64).reshape(m, -1) for name in FranksZooView.FIELDS]
    return hash_columns(np.concatenate(cols, axis=1), start)


@cache
def _heuristic() -> Heuristic:
    return Heuristic()


@dataclass(frozen=True)
class Expert(Strategy):
    name = "expert"
    summary = (
        "Monte Carlo over determinized deals: at the exchange, help requests and answers and every play "
        "(by default) deals the unseen cards consistently with what the seat saw, plays every candidate out "
        "with the heuristic on each deal and takes the best average of its hand points"
    )
    bench_deals: ClassVar[int] = 20  # `dealsim bench` times it on this many deals (see simulator.bench)
    examples: ClassVar[tuple[str, ...]] = ()
    check_sizes: ClassVar[Sizes | None] = Sizes(deals=2, matches=1)  # a search per decision: few deals
    samples: int = option(
        16,
        "deals of the unseen cards per searched decision (every candidate is played out on each)",
        lo=1,
        hi=1000,
    )
    exchange: bool = option(
        True,
        "search every exchange decision (false: the heuristic's exchange)",
        match_only=True,
    )
    help: bool = option(
        True,
        "search every answer to a request and every play where the seat may ask for help",
        rules_need=needs(help=True),
        match_only=True,
    )
    late: int = option(
        15,
        "search every play made holding at most this many cards (15: every play; 0: none but the help "
        "decisions; lower is faster)",
        lo=0,
        hi=15,
    )
    seed: int = option(
        0,
        "a salt for the hash of the view that seeds the deals (another seed, other deals)",
        lo=0,
        hi=2**31 - 1,
    )

    def decide(
        self, kind: int, view: FranksZooView, legal: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:
        out = np.asarray(_heuristic().decide(kind, view, legal, rng), np.intp)
        search = legal.sum(axis=1) > 1
        if kind == EXCHANGE:
            search &= self.exchange
        elif kind == ANSWER:
            search &= self.help
        else:
            ar = np.arange(len(view))
            held = view.counts[ar, view.seat.astype(np.intp)]
            chosen = held <= self.late
            if self.help:
                chosen |= legal[:, ASK:].any(axis=1)
            search &= chosen
        rows = np.flatnonzero(search)
        if len(rows):
            v = cast(FranksZooView, view.take(rows)) if len(rows) < len(view) else view
            rules = view.rules if view.rules is not None else FranksZooRules()
            out[rows] = self.search(kind, v, legal[rows], out[rows], rules)
        return out

    # ------------------------------------------------------------------------------------------ search

    def candidates(
        self, kind: int, view: FranksZooView, legal: np.ndarray, fallback: np.ndarray
    ) -> np.ndarray:
        """(m, n_actions) the actions played out: the legal ones, of the requests only those laying a whole
        group of one kind without the chameleon, and the heuristic's choice `fallback` always."""
        cand = legal.copy()
        if kind == PLAY:
            hand = view.hand.astype(np.int64)
            whole = (
                (_PART_REAL[None, :] == hand[:, _PART_KIND])
                & (_PART_REAL[None, :] > 0)
                & (_PART_CHAM[None, :] == 0)
                & (_PART_MOSQ[None, :] == 0)
            )
            cand[:, ASK:] &= whole
        cand[np.arange(len(view)), fallback] = True
        return cand

    def search(
        self, kind: int, view: FranksZooView, legal: np.ndarray, fallback: np.ndarray, rules: FranksZooRules
    ) -> np.ndarray:
        """Each row's best candidate by its average hand points over `samples` playouts (ties: `fallback`)."""
        m, S = len(view), self.samples
        cand = self.candidates(kind, view, legal, fallback)
        pair_row, pair_action = np.nonzero(cand)  # by row, then action
        hands, surplus_to = self.deal(view, kind, view_seeds(view, kind, self.seed), rules)  # (m, S, P, 13)
        rr = np.repeat(pair_row, S)
        ss = np.tile(np.arange(S), len(pair_row))
        state = start_states(view, kind, rr, hands[rr, ss], surplus_to[rr, ss], rules)
        core.apply(state, slice(None), kind, np.repeat(pair_action, S), rules)
        from strategies.franks_zoo_playouts import play_out  # compiled: loaded on the first search

        play_out(state, rules)
        seat = view.seat.astype(np.intp)
        points = core.hand_points(state, rules)["total"][np.arange(len(rr)), seat[rr]].astype(np.float64)
        value = points.reshape(len(pair_row), S).mean(axis=1)
        best = np.full(m, -np.inf)
        np.maximum.at(best, pair_row, value)
        fallback_value = value[np.searchsorted(pair_row * 1000 + pair_action, np.arange(m) * 1000 + fallback)]
        top = value >= best[pair_row] - 1e-9
        first_top = np.full(m, 1 << 30, np.int64)
        np.minimum.at(first_top, pair_row[top], pair_action[top])  # the lowest action of each row's best
        return np.where(fallback_value >= best - 1e-9, fallback, first_top).astype(np.intp)

    # ------------------------------------------------------------------------------------------ dealing

    def deal(
        self, view: FranksZooView, kind: int, seeds: np.ndarray, rules: FranksZooRules
    ) -> tuple[np.ndarray, np.ndarray]:
        """(m, S, P, 13) the hands as each row's seat may imagine them, `samples` of them per row (its own as
        it is), and (m, S, 13) the cards left over: set aside by another solo player. Tests replace this to
        impose deals."""
        m, S, P = len(view), self.samples, rules.players
        ar = np.arange(m)
        seat = view.seat.astype(np.intp)
        hand = view.hand.astype(np.int64)
        given = view.given.astype(np.int64)
        received = view.received.astype(np.int64)
        played = view.played.astype(np.int64)
        counts = view.counts[:, :P].astype(np.int64)
        role = view.role[ar, seat]
        partner = view.partner[ar, seat].astype(np.intp)
        exchanging = kind == EXCHANGE
        # the seat's own cards out of every hand: in its hand, in the exchange on their way (while giving),
        # set aside (solo)
        limbo = given if exchanging else np.where((role == SOLO)[:, None], given, 0)
        pool = _DECK[None, :] - hand - played - limbo
        # known cards of the partner (played ones may have been his: subtract them)
        known = np.zeros((m, C.N_KINDS), np.int64)
        if not exchanging:
            known = np.where(
                (role == JUNIOR)[:, None],
                np.maximum(given - received - played, 0),
                np.where((role == SENIOR)[:, None], np.maximum(given - played, 0), 0),
            )
            if kind == ANSWER:
                asked = view.asked.astype(np.intp)
                known = np.maximum(known, C.PARTIAL_CARDS[np.maximum(asked, 0)].astype(np.int64))
        known = np.minimum(known, pool)
        has_partner = partner >= 0
        known[~has_partner] = 0
        pool = pool - known
        need = counts.copy()
        need[ar, seat] = 0
        need[ar[has_partner], partner[has_partner]] -= known[has_partner].sum(axis=1)
        short = (need < 0).any(axis=1)  # a bound past the partner's count (no real hand meets): not used
        if short.any():
            pool[short] += known[short]
            need[short] = np.where(np.arange(P)[None, :] == seat[short, None], 0, counts[short])
            known[short] = 0
        # a random order of each row's pool cards per sample: the 60 slots keyed by a hash, pool slots first
        in_pool = _SLOT_RANK[None, :] < pool[:, _SLOT_KIND]  # (m, 60)
        salt = (np.arange(S, dtype=np.uint64)[:, None] << _U64(8)) + np.arange(C.N_CARDS, dtype=np.uint64)
        keys = _mix(seeds[:, None, None] ^ _mix(salt[None] + _U64(0x632BE59BD9B4E019)))
        keys = np.where(in_pool[:, None, :], keys >> _U64(1), ~_U64(0))  # (m, S, 60); non-pool last
        order = np.argsort(keys, axis=2, kind="stable")
        kinds = _SLOT_KIND[order]  # (m, S, 60)
        # the t-th card of the order goes to the seat whose block of `need` covers t; past them: left over
        bounds = np.cumsum(need, axis=1)  # (m, P)
        t = np.arange(C.N_CARDS)
        owner = (t[None, :, None] >= bounds[:, None, :]).sum(axis=2)  # (m, 60): P = left over
        valid = t[None, :] < pool.sum(axis=1)[:, None]
        owner = np.where(valid, owner, P + 1)  # P + 1: not a card
        flat = (
            (ar[:, None, None] * S + np.arange(S)[None, :, None]) * (P + 2) + owner[:, None, :]
        ) * 13 + kinds
        dealt = np.bincount(flat.ravel(), minlength=m * S * (P + 2) * 13).reshape(m, S, P + 2, 13)
        hands = dealt[:, :, :P].copy()
        hands[ar, :, seat] = hand[:, None, :]
        hands[ar[has_partner], :, partner[has_partner]] += known[has_partner][:, None, :]
        return hands.astype(np.int8), dealt[:, :, P].astype(np.int8)


def start_states(
    view: FranksZooView,
    kind: int,
    r: np.ndarray,
    hands: np.ndarray,
    left_over: np.ndarray,
    rules: FranksZooRules,
) -> HandState:
    """A batch of hands standing where row r[i] of `view` stands, with the hands `hands[i]` (n, P, 13): the
    public record from the view, the rest as the module's docstring says."""
    n, P = len(r), rules.players
    X = rules.exchange_cards
    seat = view.seat.astype(np.intp)[r]
    ar = np.arange(n)

    def per_seat(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(a[r, :P])

    role, partner, scores = per_seat(view.role), per_seat(view.partner), per_seat(view.scores)
    place = per_seat(view.place)
    given = np.zeros((n, P, 13), np.int8)
    received = np.zeros((n, P, 13), np.int8)
    given[ar, seat] = view.given[r]
    received[ar, seat] = view.received[r]
    taken = np.zeros((n, P, 13), np.int8)
    solo = np.where(role == SOLO, np.arange(P)[None, :], -1).max(axis=1)  # -1: nobody plays solo
    others_solo = (solo >= 0) & (solo != seat)
    taken[ar[others_solo], solo[others_solo]] = left_over[others_solo]
    table = view.table[r].astype(np.int16)
    trick = np.where((table >= 0)[:, None], C.SET_CARDS[np.maximum(table, 0)], 0).astype(np.int8)
    phase = np.full(n, kind, np.int8)
    my_role = role[ar, seat]
    my_partner = partner[ar, seat].astype(np.intp)
    # the exchange still to come (see the module's docstring): width 3X, the seat's own block ending where
    # its team's (then the solo's) steps end, so that every giver's block starts at a multiple of X
    schedule = np.zeros((n, 3 * X), np.int8)
    ex_step = np.zeros(n, np.int16)
    first_leader = view.leader[r].astype(np.int8)
    if kind == EXCHANGE:
        has_solo = solo >= 0
        junior, senior = my_role == JUNIOR, my_role == SENIOR
        me, mate, alone = seat, np.maximum(my_partner, 0), np.maximum(solo, 0)
        # the givers' blocks: (me, partner, solo), (-, me, partner), (-, me, solo) or (-, -, me)
        blocks = [
            me,
            np.where(junior & has_solo, mate, me),
            np.where(junior, np.where(has_solo, alone, mate), np.where(senior & has_solo, alone, me)),
        ]
        my_block = np.where(junior & has_solo, 0, np.where(junior | (senior & has_solo), 1, 2))
        for b, who in enumerate(blocks):
            schedule[:, b * X : (b + 1) * X] = who[:, None]
        ex_step = (my_block * X + view.given[r].sum(axis=1)).astype(np.int16)
        # the last in the standings leads: the junior with the lowest total, then the lowest senior's
        senior_score = np.take_along_axis(scores, np.maximum(partner, 0).astype(np.intp), axis=1)
        key = np.where(
            role == JUNIOR, scores.astype(np.int64) * 10**6 + senior_score * 10 + np.arange(P), 2**62
        )
        first_leader = np.argmin(key, axis=1).astype(np.int8)
    asker = np.where(phase == ANSWER, my_partner, -1).astype(np.int8)
    s = HandState(
        deal=np.zeros(n, np.int64),
        hand_no=view.hand_no[r].astype(np.int16),
        dealer=np.zeros(n, np.int8),
        dealt=hands.copy(),
        hands=np.ascontiguousarray(hands),
        held=hands.sum(axis=2, dtype=np.int8),
        sets_held=core.held_sets(hands.reshape(n * P, -1)).reshape(n, P, -1),
        order=np.tile(np.arange(P, dtype=np.int8), (n, 1)),
        role=role.astype(np.int8),
        partner=partner.astype(np.int8),
        scores=scores.astype(np.int32),
        schedule=schedule,
        ex_step=ex_step,
        given=given,
        received=received,
        phase=phase,
        turn=seat.astype(np.int8),
        first_leader=first_leader,
        leader=view.leader[r].astype(np.int8),
        table=table,
        table_player=view.table_player[r].astype(np.int8),
        passes=view.passes[r].astype(np.int8),
        asked=view.asked[r].astype(np.int16),
        asker=asker,
        helped=np.zeros(n, bool),
        help_won=np.zeros((n, P), np.int8),
        trick_cards=trick,
        played=np.ascontiguousarray(view.played[r]).astype(np.int8),
        taken=taken,
        place=place.astype(np.int8),
        n_out=(place > 0).sum(axis=1).astype(np.int8),
        moves=np.full((n, min(core.LOG_START, core.max_moves(rules))), -1, np.int32),
        n_moves=np.zeros(n, np.int16),
    )
    return s
