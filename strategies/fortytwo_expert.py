"""Forty-two expert: perfect-information Monte Carlo (PIMC) over the double-dummy solver.

Play. At each play with more than one legal domino, the seat deals the hands it cannot see `samples` times,
each deal consistent with what it has seen: its own hand, the auction (a plunger held four doubles, a
splasher three), the dominoes played so far and the suits each seat has shown out of (under sevens: that
nothing closer to seven was held); uniformly over all such deals (`strategies.fortytwo_sampling`). The legal
plays are valued double-dummy on every deal (`simulator.fortytwo.solver`, on one solver per count kept for
the process, whose table later decisions reuse), and the seat plays the one with the best average for its
side. Only a play that may beat the heuristic's needs its exact values: the heuristic's play is solved on
every deal, and a null-window search per deal asks of each other play whether it ends strictly better
there; a play that does on no deal is no better on average and is not solved (the same choice for less
search). With
`aim = points` that is the declaring side's points (the declarers maximize them, the defenders minimize;
under nello the other way round); with `aim = score` it is the hand's score difference under the rules
(points: the points each side scores, a set costing the declarers the bid; marks: the marks), so a play
that makes the contract more often beats one that takes a point more on average. Equal averages go to the
heuristic's play. Of a run of trumps (or nello doubles) equivalent in every deal, one is solved.

Bidding and naming. The heuristic's ladder (`strategies.fortytwo.Heuristic`, whose parameters this class
inherits) with a worth for the hand: `bidding = heuristic` uses the heuristic's hand value (its fitted
weights); `bidding = sampled` deals the other three hands `bid_samples` times and solves the whole hand
double-dummy with the seat as declarer for each of its `declarations` best-looking declarations; the worth
is the best average (less `bid_shift`). `naming = sampled` names trumps from such deals (by `aim`, for the
contract actually bid); `naming = heuristic` as the heuristic does. A whole-hand solve costs milliseconds,
against microseconds for the heuristic's value, which makes sampled bidding and naming several times slower
(docs/performance.md), and neither did better than the heuristic's bidding and naming in a paired
comparison on 600 hands, so both are off by default.

Speed. Nearly all the time is the solver's, most of it in the first trick (the opening lead: seven plays
solved on nearly whole hands); the default of two samples is set by speed (docs/performance.md), and more
gain little (four: +0.6 [-1.3, +2.5] points a hand on 600 hands).

Randomness. With `stream = view` (default) each decision's deals come from a generator seeded by `seed`
and a hash of the seat's view (hand, auction, plays), so a decision is a function of what the seat has seen:
the batched core and the reference engine make the same moves, any grouping of rows gives the same
actions, and the run's random stream is not read (the game contract asks that of every strategy but
`random`). With `stream = run` the deals come from the generator handed to `decide` instead. `budget_ms`
caps the time of a decision group (samples are then drawn and solved one round at a time and stop once
rows x budget_ms has passed): the number of samples then depends on the machine's speed, so results are
reproducible only with the default `budget_ms = 0` (no cap).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np

from simulator.contract import Sizes
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    DOUBLES,
    MAX_CALLS,
    NELLO,
    NO_TRUMP,
    PLUNGE,
    SPLASH,
    FortyTwoView,
    bid_marks,
)
from simulator.options import needs, option
from strategies.fortytwo import Heuristic, WithWorth

_DEFAULT_RULES = FortyTwoRules()
_U64 = np.uint64


def _special_order() -> np.ndarray:
    """[c, r]: the domino of rank r (0 = lowest) in context c's special suit (its trumps; nello's doubles), -1
    where the context has none."""
    order = np.full((D.N_CONTEXTS, 7), -1, np.int16)
    for c in (*range(8), D.NELLO_SUIT):
        members = [d for d in range(D.N_DOMINOES) if D.LEAD_SUIT[c, d] == D.TRUMP_LED]
        for r, d in enumerate(sorted(members, key=lambda d: D.KEY[c, D.TRUMP_LED, d])):
            order[c, r] = d
    return order


_ORDER = _special_order()


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer over a uint64 array (wrapping arithmetic)."""
    h = (h ^ (h >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> _U64(27))) * _U64(0x94D049BB133111EB)
    return h ^ (h >> _U64(31))


def view_seeds(view: FortyTwoView, kind: int, salt: int) -> np.ndarray:
    """(m,) uint64: a hash of what each row's seat has seen (seat, dealer, hand, auction, what was named,
    the plays in order) with the decision kind and `salt`: equal views give equal seeds, in any engine."""
    m = len(view)
    h = np.full(m, _U64((salt * 0x9E3779B97F4A7C15 + kind * 0xD1B54A32D192ED03 + 1) & (2**64 - 1)))
    n_calls, n_played = view.n_calls.astype(np.int64), view.n_played.astype(np.int64)
    calls = np.where(np.arange(MAX_CALLS) < n_calls[:, None], view.calls.astype(np.int64), -1)
    plays = np.where(np.arange(D.N_DOMINOES) < n_played[:, None], view.plays.astype(np.int64), -1)
    columns = [view.seat, view.dealer, view.hand, view.trump, n_calls, n_played, *calls.T, *plays.T]
    for col in columns:
        h = _mix(h ^ (np.asarray(col).astype(np.int64) + 2).astype(_U64) * _U64(0x9E3779B97F4A7C15))
    return h


@cache
def _kernels():
    """The compiled sampler and the solver, imported on first use (numba is slow to import)."""
    from simulator.fortytwo import solver
    from strategies import fortytwo_sampling

    return fortytwo_sampling, solver


@cache
def _solver(count_values: str):
    """The double-dummy solver for a count, one kept for the process: its table's entries stay true, and a
    hand's later decisions find what its earlier ones searched."""
    _, solver = _kernels()
    return solver.FortyTwoSolver(count_values)


@dataclass(frozen=True)
class Expert(Heuristic):
    name = "expert"
    summary = (
        "perfect-information Monte Carlo: at each play deals the unseen hands consistently with what "
        "the seat has seen (voids, plays, the auction), solves every legal play double-dummy on each "
        "deal and plays the best on average; bids along the heuristic's ladder (with bidding=sampled "
        "on a double-dummy worth of sampled deals, several times slower)"
    )
    bench_deals: ClassVar[int] = 30  # `dealsim bench` times it on this many deals (see simulator.bench)
    examples: ClassVar[tuple[str, ...]] = ()
    check_sizes: ClassVar[Sizes | None] = Sizes(deals=16, matches=1)  # a search per play: few deals
    samples: int = option(
        2,
        "play: deals of the unseen hands per decision (each legal play is valued on "
        "each; more are slower and only slightly stronger)",
        lo=1,
        hi=1000,
    )
    budget_ms: float = option(
        0.0,
        "play: stop dealing more samples once a decision group has used rows x "
        "this many milliseconds (0 = no cap: the default, and the only setting whose "
        "results do not depend on the machine's speed)",
        lo=0,
        hi=1e6,
    )
    aim: str = option(
        "score",
        "play: what the average is of: points = the declaring side's points (taken by "
        "the declarers, given up by the defenders; nello reversed); score = the hand's score "
        "difference under the rules (making the contract first, then points)",
        choices=("points", "score"),
    )
    bidding: str = option(
        "heuristic",
        "ladder worth: heuristic = the heuristic's hand value; sampled = "
        "the best average double-dummy points over bid_samples deals of the other hands",
        choices=("heuristic", "sampled"),
        read_if=needs(bidder="ladder"),
    )
    naming: str = option(
        "heuristic",
        "naming trumps: heuristic = as the heuristic; sampled = the best "
        "average (by aim) over bid_samples deals of the other hands",
        choices=("heuristic", "sampled"),
    )
    bid_samples: int = option(
        8,
        "bidding=sampled, naming=sampled: deals of the other hands",
        lo=1,
        hi=1000,
        read_if=needs(bidding="sampled", naming="sampled"),
    )
    declarations: int = option(
        2,
        "bidding=sampled, naming=sampled: solve this many declarations, the heuristic's best-valued first",
        lo=1,
        hi=9,
        read_if=needs(bidding="sampled", naming="sampled"),
    )
    bid_shift: float = option(
        0.0,
        "bidding=sampled: subtract this from the double-dummy worth before the ladder's margins",
        lo=-42,
        hi=42,
        read_if=needs(bidding="sampled"),
    )
    bid_reach: float = option(
        6.0,
        "bidding=sampled: solve only hands whose heuristic value is at least the "
        "lowest bid open less this (the others keep the heuristic value)",
        lo=0,
        hi=84,
        read_if=needs(bidding="sampled"),
    )
    stream: str = option(
        "view",
        "where the deals' randomness comes from: view = a hash of the seat's view "
        "and `seed` (a decision depends only on what the seat saw); run = the generator the "
        "run hands to the strategy",
        choices=("view", "run"),
    )
    seed: int = option(
        0,
        "stream=view: a salt for the hash (another seed, other deals)",
        lo=0,
        hi=2**31 - 1,
        read_if=needs(stream="view"),
    )

    def heuristic(self) -> Heuristic:
        """The heuristic with this expert's heuristic parameters (its play breaks ties)."""
        return Heuristic(**{f.name: getattr(self, f.name) for f in dataclasses.fields(Heuristic) if f.init})

    # ------------------------------------------------------------------------------------------ sampling

    def _seeds(self, view: FortyTwoView, kind: int, rng: np.random.Generator) -> np.ndarray:
        if self.stream == "run":
            return rng.integers(0, 2**63, len(view), dtype=np.int64).astype(_U64)
        return view_seeds(view, kind, self.seed)

    @staticmethod
    def auction_facts(view: FortyTwoView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(m, 4) the doubles each seat held as dealt at least (a plunge 4, a splash 3), (m,) the seat that
        led the first trick (the declarer; his partner after a plunge or splash) and (m,) the nello sitter
        (-1 = none)."""
        m = len(view)
        n_calls = view.n_calls.astype(np.int64)
        calls = np.where(np.arange(MAX_CALLS) < n_calls[:, None], view.calls.astype(np.int64), 0)
        caller = (view.dealer.astype(np.int64)[:, None] + 1 + np.arange(MAX_CALLS)) & 3
        need = np.where(calls == PLUNGE, 4, np.where(calls == SPLASH, 3, 0))
        min_doubles = np.zeros((m, 4), np.int64)
        np.maximum.at(min_doubles, (np.repeat(np.arange(m), MAX_CALLS), caller.reshape(-1)), need.reshape(-1))
        last_bid = np.where(calls > 0, np.arange(MAX_CALLS), -1).max(axis=1)
        high = calls[np.arange(m), np.maximum(last_bid, 0)] * (last_bid >= 0)
        bidder = view.high_bidder.astype(np.int64)
        first = np.where((high == PLUNGE) | (high == SPLASH), (bidder + 2) & 3, bidder)
        sitter = np.where(view.trump == NELLO, (bidder + 2) & 3, -1)
        return min_doubles, first, sitter

    def _deal(self, view: FortyTwoView, seeds: np.ndarray, first: int, last: int) -> np.ndarray:
        """(m, last - first, 4) uint32: samples first..last-1 of the four hands as each row's seat may
        imagine them (its own hand as it is). Tests replace this to impose deals."""
        sampling, _ = _kernels()
        min_doubles, leader, sitter = self.auction_facts(view)

        def i64(a):
            return np.ascontiguousarray(a, dtype=np.int64)

        rows = (
            i64(view.seat),
            i64(view.hand),
            i64(view.plays),
            i64(view.n_played),
            i64(view.ctx),
            i64(leader),
            i64(sitter),
            i64(min_doubles),
        )
        return sampling.deal_hidden(
            rows, np.ascontiguousarray(seeds, dtype=_U64), (first, last), sampling.TABLES
        )

    # ------------------------------------------------------------------------------------------ play

    def play(self, view, legal, rng):
        out = np.asarray(self.heuristic().play(view, legal, rng), np.intp)  # the heuristic's play breaks ties
        rows = np.flatnonzero(legal.sum(axis=1) > 1)
        if not len(rows):
            return out
        v = view.take(rows) if len(rows) < len(view) else view
        rep = self.representatives(v, legal[rows])  # (m, 28) the domino solved for each legal one
        choice = ((rep == np.arange(D.N_DOMINOES)) & legal[rows]).sum(axis=1) > 1  # else all alike
        if choice.any():
            rows, v = rows[choice], v.take(np.flatnonzero(choice)) if not choice.all() else v
            out[rows] = self._pimc(v, legal[rows], rep[choice], out[rows], self._seeds(v, 2, rng))
        return out

    def _pimc(
        self, view: FortyTwoView, legal: np.ndarray, rep: np.ndarray, fallback: np.ndarray, seeds: np.ndarray
    ) -> np.ndarray:
        if self.budget_ms <= 0:
            return self._pimc_against_fallback(view, legal, rep, fallback, seeds)
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        solver = _solver(rules.count_values)
        m = len(view)
        cand = (rep == np.arange(D.N_DOMINOES)) & legal
        n_cand = cand.sum(axis=1)
        order = np.argsort(~cand, axis=1, kind="stable")[:, :7]  # each row's candidates first, by id
        _, _, sitter = self.auction_facts(view)
        total = np.zeros((m, D.N_DOMINOES))
        done = 0
        step = self.samples if self.budget_ms <= 0 else 1
        start = time.perf_counter()
        while done < self.samples:
            k = min(step, self.samples - done)
            hands = self._deal(view, seeds, done, done + k)  # (m, k, 4)
            per_row = k * n_cand
            r = np.repeat(np.arange(m), per_row)
            t = np.arange(len(r)) - np.repeat(np.cumsum(per_row) - per_row, per_row)
            s, c = t // n_cand[r], t % n_cand[r]
            d = order[r, c]
            p, taken = self._after(view, r, hands[r, s], d, sitter, rules)
            # the declaring side's points at the end; a row's plays and deals are searched one after the
            # other, each from the last one's points as a guess (about a tenth less search)
            p = dataclasses.replace(p, follow_on=np.r_[False, r[1:] == r[:-1]])
            x = taken + solver.solve(p).astype(np.int64)
            u = self.utility(view, r, x, rules)
            np.add.at(total, (r, d), u)
            done += k
            if self.budget_ms > 0 and (time.perf_counter() - start) * 1000 >= self.budget_ms * m:
                break
        mean = total[np.arange(m)[:, None], np.maximum(rep, 0)] / done
        mean = np.where(legal, mean, -np.inf)
        best = mean.max(axis=1)
        tied = mean >= best[:, None] - 1e-9
        keep = tied[np.arange(m), fallback]
        return np.where(keep, fallback, np.argmax(tied, axis=1))

    def _pimc_against_fallback(
        self, view: FortyTwoView, legal: np.ndarray, rep: np.ndarray, fallback: np.ndarray, seeds: np.ndarray
    ) -> np.ndarray:
        """`_pimc` with every sample dealt at once, the same choice with less search. The fallback (the
        heuristic's play, which keeps ties) is solved on every sample; another play can only be chosen if
        its average beats the fallback's, so where the utility is monotone in the declaring side's points,
        a null-window search per sample first asks whether it does strictly better than the fallback there:
        a play that does on no sample is no better on average, and is not solved. The others are."""
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        solver = _solver(rules.count_values)
        m, k = len(view), self.samples
        ar = np.arange(m)
        _, _, sitter = self.auction_facts(view)
        hands = self._deal(view, seeds, 0, k)  # (m, k, 4)
        # each row's utility for every final score 0..42: +1 where it never falls as the score rises, -1
        # where it never rises, 0 (solve every play) otherwise
        grid = np.repeat(ar, 43)
        u_of = self.utility(view, grid, np.tile(np.arange(43), m), rules).reshape(m, 43)
        step = np.diff(u_of, axis=1)
        direction = np.where((step >= 0).all(axis=1), 1, np.where((step <= 0).all(axis=1), -1, 0))

        def positions(r: np.ndarray, s: np.ndarray, d: np.ndarray):
            p, taken = self._after(view, r, hands[r, s], d, sitter, rules)
            return dataclasses.replace(p, follow_on=np.r_[False, r[1:] == r[:-1]]), taken

        total = np.full((m, D.N_DOMINOES), -np.inf)
        fb = rep[ar, fallback]
        r = np.repeat(ar, k)
        s = np.tile(np.arange(k), m)
        p, taken = positions(r, s, fb[r])
        x_fb = taken + solver.solve(p).astype(np.int64)
        total[ar, fb] = 0.0
        np.add.at(total, (r, fb[r]), self.utility(view, r, x_fb, rules))
        x_fb = x_fb.reshape(m, k)
        others = (rep == np.arange(D.N_DOMINOES)) & legal
        others[ar, fb] = False
        rr, dd = np.nonzero(others)  # row by row, by domino
        if len(rr):
            # can the play end strictly better for the seat than the fallback on a sample? (asked sample by
            # sample of the plays not yet shown to)
            better = direction[rr] == 0
            pending = np.flatnonzero(~better)
            for s_i in range(k):
                if not len(pending):
                    break
                r2, d2 = rr[pending], dd[pending]
                p, taken = positions(r2, np.full(len(pending), s_i), d2)
                up = direction[r2] > 0
                # up: x > x_fb, a value >= x_fb + 1 - taken; down: x < x_fb, not a value >= x_fb - taken
                hit = solver.at_least(p, x_fb[r2, s_i] - taken + up) == up
                better[pending[hit]] = True
                pending = pending[~hit]
            rr, dd = rr[better], dd[better]
        if len(rr):
            r3, d3 = np.repeat(rr, k), np.repeat(dd, k)
            s3 = np.tile(np.arange(k), len(rr))
            p, taken = positions(r3, s3, d3)
            # each searched first at one point better for the seat than the fallback's on its deal (it did
            # better on some deal)
            guess = np.clip(x_fb[r3, s3] + direction[r3], 0, 42).astype(np.int16)
            p = dataclasses.replace(p, guess=guess)
            x = taken + solver.solve(p).astype(np.int64)
            total[rr, dd] = 0.0
            np.add.at(total, (r3, d3), self.utility(view, r3, x, rules))
        mean = total[ar[:, None], np.maximum(rep, 0)] / k
        mean = np.where(legal, mean, -np.inf)
        best = mean.max(axis=1)
        tied = mean >= best[:, None] - 1e-9
        keep = tied[ar, fallback]
        return np.where(keep, fallback, np.argmax(tied, axis=1))

    @staticmethod
    def representatives(view: FortyTwoView, legal: np.ndarray) -> np.ndarray:
        """(m, 28): for each legal domino the one solved in its place (itself, or the next higher trump it is
        equivalent to in every deal: no domino still out ranks between them, neither is count unless both
        carry the same count, and the trick's winning domino does not rank between them); -1 where
        illegal. Trumps and nello's doubles only."""
        rep = np.where(legal, np.arange(D.N_DOMINOES), -1).astype(np.int64)
        ctx = np.maximum(view.ctx.astype(np.intp), 0)
        special = (ctx <= D.DOUBLES_TRUMP) | (ctx == D.NELLO_SUIT)
        count = D.COUNT_POINTS[(view.rules if view.rules is not None else _DEFAULT_RULES).count_values]
        out_there = (D.ALL & ~view.played).astype(np.int64)  # not yet played (this seat's hand included)
        wkey = view.winning_key().astype(np.int64)
        leading = view.led < 0
        led = np.maximum(view.led, 0).astype(np.intp)
        for i in np.flatnonzero(special & (legal.sum(axis=1) > 1)):
            c = ctx[i]
            above = -1  # the last legal special domino held above, walking down the ranks
            for rnk in range(6, -1, -1):
                d = int(_ORDER[c, rnk])
                if d < 0:
                    continue
                if legal[i, d]:
                    if (
                        above >= 0
                        and count[d] == count[above]
                        and (leading[i] or not D.KEY[c, led[i], d] <= wkey[i] < D.KEY[c, led[i], above])
                    ):
                        rep[i, d] = rep[i, above]
                    above = d
                elif out_there[i] >> d & 1:
                    above = -1  # a domino still out (another hand, or ours but not legal) between them
        return rep

    @staticmethod
    def _after(
        view: FortyTwoView,
        r: np.ndarray,
        hands: np.ndarray,
        d: np.ndarray,
        sitter: np.ndarray,
        rules: FortyTwoRules,
    ):
        """Solver positions after row r[i]'s seat plays d[i] with the hands `hands[i]`, and the declaring
        side's points taken by then."""
        _, solver = _kernels()
        n = len(r)
        ar = np.arange(n)
        seat = view.seat.astype(np.int64)[r]
        hands = hands.copy()
        hands[ar, seat] &= ~D.BIT[d]
        sit = sitter[r]
        start, played = view.trick_start.astype(np.int64)[r], view.n_played.astype(np.int64)[r]
        n_in = played - start
        plays = view.plays.astype(np.int64)[r]
        trick = np.full((n, 4), -1, np.int64)
        for i in range(3):
            inside = i < n_in
            trick[inside, i] = plays[ar[inside], start[inside] + i]
        trick[ar, n_in] = d
        leader = view.leader.astype(np.int64)[r]
        ctx = view.ctx.astype(np.int64)[r]
        points = view.points.astype(np.int64)[r].copy()
        per = np.where(sit >= 0, 3, 4)
        complete = n_in + 1 == per
        turn = (seat + 1) & 3
        turn = np.where(turn == sit, (turn + 1) & 3, turn)
        if complete.any():
            ci = np.flatnonzero(complete)
            tr, cc = trick[ci], ctx[ci]
            led = D.LEAD_SUIT[cc, tr[:, 0]]
            keys = np.where(tr >= 0, D.KEY[cc[:, None], led[:, None], np.maximum(tr, 0)], -2)
            who = np.empty((len(ci), 4), np.int64)
            who[:, 0] = leader[ci]
            for i in range(1, 4):
                nxt = (who[:, i - 1] + 1) & 3
                who[:, i] = np.where(nxt == sit[ci], (nxt + 1) & 3, nxt)
            winner = who[np.arange(len(ci)), np.argmax(keys, axis=1)]  # of equal keys the earlier play
            count = D.COUNT_POINTS[rules.count_values].astype(np.int64)
            worth = 1 + np.where(tr >= 0, count[np.maximum(tr, 0)], 0).sum(axis=1)
            points[ci, winner & 1] += worth
            leader[ci] = turn[ci] = winner
            trick[ci] = -1
        side = view.high_bidder.astype(np.int64)[r] & 1
        p = solver.Positions(
            hands=hands.astype(np.uint32),
            ctx=ctx.astype(np.int8),
            turn=turn.astype(np.int8),
            leader=leader.astype(np.int8),
            trick=trick.astype(np.int8),
            points=points.astype(np.int16),
            side=side.astype(np.int8),
            sitter=sit.astype(np.int8),
        )
        return p, points[ar, side]

    def utility(self, view: FortyTwoView, r: np.ndarray, x: np.ndarray, rules: FortyTwoRules) -> np.ndarray:
        """What row r[i]'s seat wants more of when the declaring side ends the hand with x[i] points."""
        mine = (view.seat[r] & 1) == (view.high_bidder[r] & 1)
        nello = view.trump[r] == NELLO
        if self.aim == "points":
            return np.where(mine != nello, x, -x).astype(np.float64)
        diff = score_difference(x, view.high_bid[r].astype(np.int64), nello, rules)
        return np.where(mine, diff, -diff)

    # ------------------------------------------------------------------------------------------ bidding

    def _whole_hands(
        self,
        view: FortyTwoView,
        declarations: np.ndarray,
        seeds: np.ndarray,
        rules: FortyTwoRules,
        leader: np.ndarray,
    ) -> np.ndarray:
        """(m, k, bid_samples) the declaring side's double-dummy points with each of the rows' k
        declarations (TRUMP actions, -1 = none: nan) on bid_samples deals of the other hands, `leader`
        leading the first trick for the side of view.seat."""
        _, solver = _kernels()
        m, k = declarations.shape
        S = self.bid_samples
        hands = self._deal(view, seeds, 0, S)  # (m, S, 4)
        rr, kk, ss = np.nonzero(np.broadcast_to((declarations >= 0)[:, :, None], (m, k, S)))
        ctx = np.array([D.context_of(a, rules) for a in range(9)], np.int8)[declarations[rr, kk]]
        n = len(rr)
        p = solver.Positions(
            hands=hands[rr, ss],
            ctx=ctx,
            turn=leader[rr].astype(np.int8),
            leader=leader[rr].astype(np.int8),
            trick=np.full((n, 4), -1, np.int8),
            points=np.zeros((n, 2), np.int16),
            side=(view.seat[rr] & 1).astype(np.int8),
            sitter=np.full(n, -1, np.int8),
            follow_on=np.r_[False, rr[1:] == rr[:-1]],  # a row's declarations and deals one after another
        )
        out = np.full((m, k, S), np.nan)
        if n:
            out[rr, kk, ss] = _solver(rules.count_values).solve(p)
        return out

    def _candidates(self, view: FortyTwoView, rules: FortyTwoRules, allowed: np.ndarray) -> np.ndarray:
        """(m, declarations) TRUMP actions (pips, doubles, no-trump) to solve, the heuristic's best valued
        first; -1 = none."""
        values = np.where(allowed[:, :9], self.declaration_values(view.hand, rules), -np.inf)
        order = np.argsort(-(values * 16 + np.arange(9)), axis=1, kind="stable")[:, : self.declarations]
        return np.where(np.isfinite(np.take_along_axis(values, order, axis=1)), order, -1)

    def expected_points(self, view: FortyTwoView) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(view, WithWorth):  # bidding=sampled: the worth `call` worked out
            return view.worth, view.sure
        return super().expected_points(view)

    def sampled_worth(self, view: FortyTwoView, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(m,) the ladder's worth with bidding=sampled and (m,) whether the hand is sure of every trick:
        the best average double-dummy points of the seat's side as declarer, over bid_samples deals of the
        other hands, for rows that may still bid and whose heuristic value is within bid_reach of the
        lowest bid open; the heuristic's value elsewhere."""
        worth, sure = super().expected_points(view)
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        lowest = np.maximum(view.high_bid.astype(np.int64) + 1, rules.min_bid)
        n_calls = view.n_calls.astype(np.int64)
        caller = (view.dealer.astype(np.int64)[:, None] + 1 + np.arange(MAX_CALLS)) & 3
        has_bid = (
            (caller == view.seat[:, None]) & (np.arange(MAX_CALLS) < n_calls[:, None]) & (view.calls > 0)
        ).any(axis=1)
        may_bid = (lowest <= 42) & ~(has_bid & (rules.auction == "seed")) & ~sure
        ask = np.flatnonzero(may_bid & (worth >= lowest - self.bid_reach))
        if not len(ask):
            return worth, sure
        v = view.take(ask) if len(ask) < len(view) else view
        allowed = np.zeros((len(ask), 9), bool)
        allowed[:, :7] = True
        allowed[:, DOUBLES], allowed[:, NO_TRUMP] = rules.declares("doubles"), rules.declares("no-trump")
        decl = self._candidates(v, rules, allowed)
        dd = self._whole_hands(v, decl, self._seeds(v, 0, rng), rules, v.seat.astype(np.int64))
        worth = np.asarray(worth, np.float64).copy()
        worth[ask] = np.nanmax(dd.mean(axis=2), axis=1) - self.bid_shift
        return worth, sure

    def call(self, view, legal, rng):
        if self.bidding == "sampled" and self.bidder == "ladder":
            view = WithWorth(view, *self.sampled_worth(view, rng))
        return super().call(view, legal, rng)

    def trump(self, view, legal, rng):
        named = np.asarray(super().trump(view, legal, rng), np.intp)
        if self.naming != "sampled":
            return named
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        rows = np.flatnonzero(named < NELLO)  # nello and sevens stay the heuristic's
        if not len(rows):
            return named
        v = view.take(rows) if len(rows) < len(view) else view
        decl = self._candidates(v, rules, legal[rows, :9])
        dd = self._whole_hands(v, decl, self._seeds(v, 1, rng), rules, v.seat.astype(np.int64))
        m, k, S = dd.shape
        r = np.repeat(np.arange(m), k * S)
        flat = dd.reshape(-1)
        u = self.utility(v, r, np.nan_to_num(flat).astype(np.int64), rules)  # trump not named: no nello
        u = np.where(np.isnan(flat), -np.inf, u).reshape(m, k, S).mean(axis=2)
        best = np.take_along_axis(decl, np.argmax(u, axis=1)[:, None], axis=1)[:, 0]
        named[rows] = np.where(best >= 0, best, named[rows])
        return named


def score_difference(x: np.ndarray, bid: np.ndarray, nello: np.ndarray, rules: FortyTwoRules) -> np.ndarray:
    """The declaring side's hand score less the defenders' when it ends with x points (hand_scores' rules);
    under marks, a thousandth of a point per point taken (given up under nello) breaks ties."""
    x = np.asarray(x, np.int64)
    big = bid >= 42
    made = np.where(nello, x == 0, np.where(big, x == 42, x >= bid))
    if rules.scoring == "marks":
        marks = bid_marks(bid).astype(np.float64)
        return np.where(made, marks, -marks) + 0.001 * np.where(nello, -x, x)
    decl = np.where(made, np.where(nello, bid, np.where(big, 42, x)), 0)
    defs = np.where(made, np.where(big, 0, 42 - x), np.where(nello, bid, 42 - x + bid))
    return (decl - defs).astype(np.float64)
