"""Rounds expert: perfect-information Monte Carlo (PIMC) over the stage solver.

Play. At each play with a real choice, the seat deals the cards it cannot see (the opponent's hand and the
stock) `samples` times, each deal consistent with what it has seen: its hand, the cards played this game,
the face-up card(s) of the stage, and the suits the opponent has shown out of in this stage (a reply off the
suit led: he held none of it then, and holds none now, since nothing is dealt within a stage). Uniformly
over all such deals: the opponent's hand is a uniform draw of as many cards as he holds from the unseen cards
of the suits he may still hold, and the stock is the rest. Voids shown in earlier stages are not used: five
new cards have come in since, and which of his cards are the old ones the seat cannot tell.

Each legal card is valued on every deal by the stage solver (`simulator.rounds.solver`, objective margin:
the seat's stage score less the opponent's, with perfect play by both for the rest of the stage) with one
addition in stages 1 to 4: the four cards each player still holds at the stage's end go into the next stage,
and each is worth `keep_weight` times `KEEP_WORTH` of its rank (3 to J at their mean) to its holder (the
seat's kept cards count for it, the opponent's against it, and both play knowing it). A stage's value alone
counts nothing for them, so a player valuing only the stage spends an ace as readily as a nine. The solver
works in quarter points (`SCALE`), so the worths are rounded to quarters. The seat plays the card with the
best average; the heuristic's card (with this strategy's heuristic parameters) wins ties. Cards that play
alike on every deal (the same suit, points and worth, nothing the opponent may hold between them) are
solved once.

Randomness. With `stream = view` (default) each decision's deals come from a hash of the seat's view (seat,
dealer, stage, hand, face-up cards, the plays in order) and `seed`, so a decision is a function of what the
seat has seen: the batched core and the reference engine make the same moves, and any grouping of rows
gives the same actions. With `stream = run` the deals come from the generator handed to `decide`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np

from simulator import bitrows
from simulator.contract import Sizes
from simulator.options import needs, option
from simulator.rounds import cards as C
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import N_STAGES, TRICKS_PER_STAGE, RoundsView
from strategies.rounds import Heuristic

_DEFAULT_RULES = RoundsRules()
_U64 = np.uint64
_GOLDEN = _U64(0x9E3779B97F4A7C15)

# What a card carried into the next stage is worth there, by rank 2..A, in margin points (the seat's stage
# score less the opponent's): fitted by benchmarks/fit_rounds_keep.py. Each player keeps four cards, so only
# differences between worths count; these sum to zero. A kept 2 (ten points, and the lowest rank) is a
# liability, a kept ace an asset.
# The ranks 3 to J, whose fitted worths differ little, count at their mean: cards of them then play alike
# when nothing the opponent may hold lies between them, as they do for the stage alone, and the search stays
# small.
POOLED = slice(1, 10)
KEEP_WORTH = np.array(
    [-1.55, -0.04, -0.06, -0.22, -0.24, -0.28, -0.28, -0.27, -0.25, -0.03, 0.39, 1.06, 1.76]
)


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer over a uint64 array (wrapping arithmetic)."""
    h = (h ^ (h >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> _U64(27))) * _U64(0x94D049BB133111EB)
    return h ^ (h >> _U64(31))


def view_seeds(view: RoundsView, salt: int) -> np.ndarray:
    """(m,) uint64: a hash of what each row's seat has seen (seat, dealer, stage, hand, face-up cards, the
    plays in order) with `salt`: equal views give equal seeds, in any engine."""
    m = len(view)
    h = np.full(m, _U64((salt * 0x9E3779B97F4A7C15 + 1) & (2**64 - 1)))
    n_played = view.n_played.astype(np.int64)
    plays = np.where(np.arange(view.plays.shape[1]) < n_played[:, None], view.plays.astype(np.int64), -1)
    face_up = view.face_up.astype(np.int64)
    columns = [view.seat, view.dealer, view.stage, view.hand, *face_up.T, n_played, *plays.T]
    with np.errstate(over="ignore"):
        for col in columns:
            h = _mix(h ^ (np.asarray(col).astype(np.int64) + 2).astype(_U64) * _GOLDEN)
    return h


SCALE = 4  # the solver's values in quarter points, so that the keep worths need not be whole points


@cache
def _solver(rules: RoundsRules, keep: tuple[int, ...]):
    """The stage solver (objective margin, values in 1/SCALE points, `keep` the worth of each card held at
    the stage's end) for a rule set, one kept for the process: its table's entries stay true, and later
    decisions find what earlier ones searched."""
    from simulator.rounds.solver import RoundsSolver  # numba: loaded only where the expert decides

    return RoundsSolver(rules, "margin", keep=np.array(keep, np.int64), scale=SCALE)


def _bits(cards: np.ndarray) -> np.ndarray:
    """uint64 bitmasks of card ids, -1 for none."""
    return np.where(cards >= 0, C.BIT[np.maximum(cards, 0)], _U64(0))


def stage_contexts(view: RoundsView, rules: RoundsRules) -> tuple[np.ndarray, np.ndarray]:
    """(m,) the trump context of tricks 1-4 of the stage and (m,) that of trick 5 (the same but in stage
    5)."""
    face_up = view.face_up.astype(np.intp)
    first = C.context(np.maximum(face_up[:, 0], 0), rules.rank_trumps)
    last = np.where(
        view.stage == N_STAGES - 1, C.context(np.maximum(face_up[:, 1], 0), rules.rank_trumps), first
    )
    return first.astype(np.int64), last.astype(np.int64)


def opponent_voids(view: RoundsView, rules: RoundsRules) -> np.ndarray:
    """(m,) uint64: the cards the opponent cannot hold because he has replied off the suit led in a trick
    of this stage (every card of that suit, in the trick's context)."""
    m = len(view)
    ar = np.arange(m)
    first, last = stage_contexts(view, rules)
    seat = view.seat.astype(np.int64)
    start = view.stage.astype(np.int64) * 2 * TRICKS_PER_STAGE
    n_played = view.n_played.astype(np.int64)
    plays = view.plays.astype(np.intp)
    leader = 1 - view.dealer.astype(np.int64)  # the non-dealer leads the stage's first trick
    out = np.zeros(m, _U64)
    for t in range(TRICKS_PER_STAGE):
        done = start + 2 * t + 2 <= n_played
        if not done.any():
            break
        ctx = first if t < TRICKS_PER_STAGE - 1 else last
        lead = plays[ar, np.minimum(start + 2 * t, plays.shape[1] - 1)]
        reply = plays[ar, np.minimum(start + 2 * t + 1, plays.shape[1] - 1)]
        lead, reply = np.maximum(lead, 0), np.maximum(reply, 0)
        suit = C.EFFECTIVE[ctx, lead]
        off = done & (leader == seat) & (C.EFFECTIVE[ctx, reply] != suit)
        out |= np.where(off, C.FOLLOW[ctx, suit], _U64(0))
        wins = C.KEY[ctx, suit, reply] > C.KEY[ctx, suit, lead]
        leader = np.where(done, np.where(wins, 1 - leader, leader), leader)
    return out


def deal_opponent(view: RoundsView, seeds: np.ndarray, samples: int, rules: RoundsRules) -> np.ndarray:
    """(m, samples) uint64: the opponent's hand as each row's seat may imagine it, uniform over the hands
    consistent with what it has seen (module docstring). Sample j of a row depends only on its seed and j."""
    m = len(view)
    hand = view.hand.astype(_U64)
    unseen = C.ALL & ~(hand | view.played.astype(_U64) | _face_up_bits(view))
    allowed = unseen & ~opponent_voids(view, rules)
    # he holds as many as the seat, one fewer once he has led to this trick
    size = np.bitwise_count(hand).astype(np.int64) - (view.led >= 0)
    # a random key per (row, sample, card): the `size` allowed cards with the smallest keys are his
    with np.errstate(over="ignore"):
        base = _mix(seeds[:, None] ^ (np.arange(1, samples + 1, dtype=_U64) * _GOLDEN)[None, :])
        keys = _mix(
            base[:, :, None] ^ (np.arange(C.N_CARDS, dtype=_U64) * _U64(0xD1B54A32D192ED03) + _U64(1))
        )
    cards = np.arange(C.N_CARDS, dtype=_U64)[None, :]
    may = ((allowed[:, None] >> cards) & _U64(1)) != 0
    out_there = ((unseen[:, None] >> cards) & _U64(1)) != 0
    # the cards he may hold first (by key), then the other unseen ones (so that a view no deal fits still
    # gets a hand of his size), never a card the seat has seen
    prio = np.where(may, 0, np.where(out_there, 1, 2)).astype(_U64) << _U64(62)
    keys = prio[:, None, :] | (keys >> _U64(2))
    chosen = np.argsort(np.argsort(keys, axis=2), axis=2) < size[:, None, None]
    return (chosen * C.BIT[None, None, :]).sum(axis=2, dtype=_U64).reshape(m, samples)


def _face_up_bits(view: RoundsView) -> np.ndarray:
    bits = _bits(view.face_up.astype(np.int64))
    return bits[:, 0] | bits[:, 1]


@dataclass(frozen=True)
class Expert(Heuristic):
    name = "expert"
    summary = (
        "perfect-information Monte Carlo: at each play deals the unseen cards consistently with what the "
        "seat has seen (plays, face-up cards, the opponent's voids this stage), values every legal card "
        "with the stage solver on each deal, counting the worth of the cards each player keeps for the "
        "next stage, and plays the best on average"
    )
    bench_deals: ClassVar[int] = 40  # `dealsim bench` times it on this many games (see simulator.bench)
    examples: ClassVar[tuple[str, ...]] = ()
    check_sizes: ClassVar[Sizes | None] = Sizes(deals=8, matches=1)  # a search per play: few games
    samples: int = option(
        8,
        "deals of the unseen cards per decision (each legal card is valued on each; more are slower)",
        lo=1,
        hi=1000,
    )
    keep_weight: float = option(
        2.0,
        "stages 1-4: weight of the fitted worth of the cards each player holds at the stage's end (carried "
        "into the next stage), added to the stage's margin (0 = value the stage alone)",
        lo=0,
        hi=10,
    )
    stream: str = option(
        "view",
        "where the deals' randomness comes from: view = a hash of the seat's view and `seed` (a decision "
        "depends only on what the seat saw); run = the generator the run hands to the strategy",
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

    def decide(self, kind, view, legal, rng):
        return self.decide_packed(kind, view, bitrows.pack(legal), rng)

    def decide_packed(self, kind, view, words, rng):
        out = np.asarray(self.heuristic().decide_packed(kind, view, words, rng), np.intp)
        legal = np.ascontiguousarray(words[:, 0], _U64)
        rows = np.flatnonzero(np.bitwise_count(legal) > 1)
        if not len(rows):
            return out
        v = view.take(rows) if len(rows) < len(view) else view
        seeds = (
            rng.integers(0, 2**63, len(v), dtype=np.int64).astype(_U64)
            if self.stream == "run"
            else view_seeds(v, self.seed)
        )
        out[rows] = self.choose(v, legal[rows], out[rows], seeds)
        return out

    def keep(self) -> np.ndarray:
        """(52,) int64: what a card still held at a stage's end is worth, in 1/SCALE points
        (`keep_weight` times `KEEP_WORTH` of its rank, the POOLED ranks at their mean, rounded)."""
        worth = KEEP_WORTH.copy()
        worth[POOLED] = worth[POOLED].mean()
        return np.round(SCALE * self.keep_weight * worth[C.RANK]).astype(np.int64)

    def values(self, view: RoundsView, legal: np.ndarray, seeds: np.ndarray) -> np.ndarray:
        """(m, 52) float: each legal card's average over the sampled deals of the seat's stage margin with
        perfect play after it, plus the worth of the cards it then keeps less the opponent's, in points
        (-inf where illegal)."""
        from strategies import rounds_search  # numba: loaded only where the expert decides

        rules = view.rules or _DEFAULT_RULES
        m = len(view)
        ar = np.arange(m)
        pts = rules.points_by_rank[C.RANK].astype(np.int64)
        keep = self.keep()
        first, last = stage_contexts(view, rules)
        ctx_now = np.where(view.trick == TRICKS_PER_STAGE - 1, last, first)
        ctx_later = np.where((view.trick < TRICKS_PER_STAGE - 1) & (last != first), last, -1)
        hand = view.hand.astype(_U64)
        unseen = C.ALL & ~(hand | view.played.astype(_U64) | _face_up_bits(view))
        rivals = unseen | _bits(view.led.astype(np.int64))
        rep = rounds_search.representatives(
            legal.astype(np.int64),
            rivals.astype(np.int64),
            ctx_now,
            ctx_later,
            pts,
            keep,
            rounds_search.TABLES,
        )
        solve = (rep == np.arange(C.N_CARDS)) & (rep >= 0)  # the cards searched
        S = self.samples
        opp = deal_opponent(view, seeds, S, rules)  # (m, S)
        r, c = np.nonzero(solve)
        # rows ordered (row, card, sample): a row's positions follow each other in the solver
        r, c, s = np.repeat(r, S), np.repeat(c, S), np.tile(np.arange(S), len(r))
        value = self._after_play(view, (rules, keep, pts), (first, last, ctx_now), r, c, opp[r, s])
        total = np.zeros((m, C.N_CARDS))
        np.add.at(total, (r, c), value)
        mean = total[ar[:, None], np.maximum(rep, 0)] / (S * SCALE)
        return np.where(rep >= 0, mean, -np.inf)

    def choose(
        self, view: RoundsView, legal: np.ndarray, fallback: np.ndarray, seeds: np.ndarray
    ) -> np.ndarray:
        """(m,) the card with the best value (`values`), the heuristic's card `fallback` on ties."""
        mean = self.values(view, legal, seeds)
        ar = np.arange(len(view))
        best = mean.max(axis=1)
        tied = mean >= best[:, None] - 1e-9
        return np.where(tied[ar, fallback], fallback, np.argmax(tied, axis=1))

    @staticmethod
    def _after_play(view, scoring, contexts, r, c, opp) -> np.ndarray:
        """(n,) the seat's value in 1/SCALE points after row r[i]'s seat plays c[i] with the opponent holding
        opp[i]: its stage margin with perfect play by both, plus the keep of its cards at the stage's end
        less the opponent's. `scoring` = (rules, keep, card points), `contexts` = the rows' contexts of
        tricks 1-4, of trick 5 and of the trick now (`stage_contexts`)."""
        from simulator.rounds.solver import Positions

        rules, keep, pts = scoring
        first, last, ctx_now = contexts

        n = len(r)
        ar = np.arange(n)
        seat = view.seat.astype(np.int64)[r]
        mine = view.hand.astype(_U64)[r] & ~C.BIT[c]
        hands = np.empty((n, 2), _U64)
        hands[ar, seat] = mine
        hands[ar, 1 - seat] = opp
        tricks = view.stage_tricks.astype(np.int64)[r].copy()
        taken = view.stage_points.astype(np.int64)[r].copy()
        trick = view.trick.astype(np.int64)[r]
        led = view.led.astype(np.int64)[r]
        leading = led < 0
        # a reply settles the trick: the higher key takes it (the lead on equal keys)
        ctx = ctx_now[r]
        lead_card = np.maximum(led, 0)
        suit = C.EFFECTIVE[ctx, lead_card]
        winner = np.where(C.KEY[ctx, suit, c] > C.KEY[ctx, suit, lead_card], seat, 1 - seat)
        at = np.flatnonzero(~leading)
        tricks[at, winner[at]] += 1
        taken[at, winner[at]] += pts[c[at]] + pts[lead_card[at]]
        trick_after = np.where(leading, trick, trick + 1)
        ended = trick_after == TRICKS_PER_STAGE
        value = np.zeros(n)
        if ended.any():  # the seat's reply ended the stage: its result, and what each keeps
            e = np.flatnonzero(ended)
            me = seat[e]

            def score(p):
                return np.where(tricks[e, p] == TRICKS_PER_STAGE, rules.sweep_bonus, taken[e, p])

            def worth(bits):
                held = ((bits[:, None] >> np.arange(C.N_CARDS, dtype=_U64)) & _U64(1)).astype(np.int64)
                return held @ keep

            value[e] = SCALE * (score(me) - score(1 - me)) + worth(mine[e]) - worth(opp[e])
        go = np.flatnonzero(~ended)
        if len(go):
            p = Positions(
                hands=hands[go],
                ctx=np.stack([first[r[go]], last[r[go]]], axis=1).astype(np.int16),
                turn=np.where(leading, 1 - seat, winner)[go].astype(np.int8),
                leader=np.where(leading, seat, winner)[go].astype(np.int8),
                led=np.where(leading, c, -1)[go].astype(np.int8),
                trick=trick_after[go].astype(np.int8),
                tricks=tricks[go].astype(np.int8),
                taken=(SCALE * taken[go]).astype(np.int16),  # in the solver's unit
                player=seat[go].astype(np.int8),
            )
            value[go] = _solver(rules, tuple(keep.tolist())).solve(p)
        return value


STRATEGIES = {Expert.name: Expert}
