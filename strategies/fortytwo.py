"""Forty-two strategies: random, greedy and heuristic. Each reads only its seat's `FortyTwoView`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simulator import tricks
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.view import CALL, TRUMP, FortyTwoView
from simulator.options import option
from strategies.base import Random, Strategy, best_legal, select

_PIPS = np.arange(7)
_TRUMP_DOUBLE = np.array([D.domino_id(p, p) for p in range(7)], np.uint32)
# [t]: the count dominoes that are neither a double nor a trump when t is trump: they can be caught.
_EXPOSED_IF_TRUMP = (D.COUNT_BITS & ~D.DOUBLE_BITS) & ~D.PIP_BITS


class FortyTwoStrategy(Strategy):
    """Dispatches a decision to `call`, `trump` or `play`."""

    def decide(self, kind: int, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if kind == CALL:
            return self.call(view, legal, rng)
        if kind == TRUMP:
            return self.trump(view, legal, rng)
        return self.play(view, legal, rng)

    def call(self, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def trump(self, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def play(self, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError


def suit_lengths(hand: np.ndarray) -> np.ndarray:
    """(m, 7): how many dominoes of the hand carry each pip."""
    return np.bitwise_count(hand[:, None] & D.PIP_BITS[None, :]).astype(np.int16)


def lowest_bid(legal: np.ndarray) -> np.ndarray:
    """The lowest legal numeric bid of each row (0 = pass where no bid is legal)."""
    bids = legal[:, 1:]
    return np.where(bids.any(axis=1), np.argmax(bids, axis=1) + 1, 0)


def current_keys(view: FortyTwoView) -> np.ndarray:
    """(m, 28): each domino's strength in the current trick; as a lead when the seat leads."""
    t = view.trump.astype(np.intp)
    return tricks.trick_keys(D.LEAD_KEY, D.KEY, t, np.maximum(view.led, 0), view.led < 0)


@dataclass(frozen=True)
class Greedy(FortyTwoStrategy):
    name = "greedy"
    summary = ("bids the minimum with a long suit, names its longest suit, takes the trick with its "
               "strongest domino when it can, else plays its weakest")
    min_length: int = option(4, "bid only holding at least this many of one suit", lo=1, hi=7)

    def call(self, view, legal, rng):
        longest = suit_lengths(view.hand).max(axis=1)
        return np.where(longest >= self.min_length, lowest_bid(legal), 0)

    def trump(self, view, legal, rng):
        lengths = suit_lengths(view.hand)
        return np.argmax(lengths * 8 + _PIPS, axis=1)  # longest suit, the higher pip on ties

    def play(self, view, legal, rng):
        keys = current_keys(view).astype(np.int16)
        count = count_points(view).astype(np.int16)
        can_win = tricks.can_take(keys, legal, view.winning_key())
        weakest = -(count * 16 + keys)
        return best_legal(np.where(can_win[:, None], keys, weakest), legal)


@dataclass(frozen=True)
class Heuristic(FortyTwoStrategy):
    name = "heuristic"
    summary = ("values its hand for each trump (trumps held, the trump double, other doubles, count "
               "exposed in off suits), bids up to that value when it reaches the threshold, names its "
               "best suit, leads trumps to draw them, plays count on tricks its partner has won, keeps "
               "count away from the opponents")
    threshold: int = option(31, "bid only when the hand is worth at least this many points", lo=0, hi=84)
    # The value weights are a least-squares fit of the points a declaring side took against these
    # features of the declarer's hand, over 200,000 hands of heuristic play (seed rules).
    base: float = option(7.8, "hand value before counting anything", lo=-100, hi=100)
    trump_weight: float = option(5.0, "value of each trump held", lo=0, hi=42)
    trump_double_weight: float = option(3.4, "extra value of holding the trump double", lo=0, hi=42)
    double_weight: float = option(2.6, "value of each double outside trumps", lo=0, hi=42)
    exposed_weight: float = option(1.6, "cost of each count domino outside trumps that is not a double",
                                   lo=0, hi=42)

    def hand_values(self, hand: np.ndarray) -> np.ndarray:
        """(m, 7): estimated points the seat's side takes with each pip as trump."""
        trumps = suit_lengths(hand)
        doubles = np.bitwise_count(hand & D.DOUBLE_BITS).astype(np.int16)[:, None]
        trump_double = (hand[:, None] >> _TRUMP_DOUBLE) & 1
        exposed = np.bitwise_count(hand[:, None] & _EXPOSED_IF_TRUMP)
        return (self.base + self.trump_weight * trumps + self.trump_double_weight * trump_double
                + self.double_weight * (doubles - trump_double) - self.exposed_weight * exposed)

    def call(self, view, legal, rng):
        worth = self.hand_values(view.hand).max(axis=1)
        bid = lowest_bid(legal)
        partner_leads = (view.high_bidder >= 0) & ((view.high_bidder & 1) == (view.seat & 1))
        # Open at the lowest bid once the hand reaches the threshold; overcall only up to its worth.
        opening = view.high_bidder < 0
        may_bid = (worth >= self.threshold) & (bid > 0) & ((bid <= worth) | opening) & ~partner_leads
        return np.where(may_bid & (bid <= 42), bid, 0)

    def trump(self, view, legal, rng):
        return np.argmax(self.hand_values(view.hand) * 8 + _PIPS, axis=1)

    def play(self, view, legal, rng):
        leading = view.led < 0
        if leading.all():
            score = self._lead_scores(view)
        elif not leading.any():
            score = self._follow_scores(view)
        else:
            score = np.empty(legal.shape, np.int16)
            score[leading] = self._lead_scores(view.take(leading))
            score[~leading] = self._follow_scores(view.take(~leading))
        return best_legal(score, legal)

    @staticmethod
    def _lead_scores(view: FortyTwoView) -> np.ndarray:
        """The declaring side draws trumps while an opponent may hold one; otherwise it leads a domino
        that nothing unseen can beat (count first), else its cheapest domino."""
        t = view.trump.astype(np.intp)
        unseen = D.ALL & ~(view.hand | view.played)
        declaring = (view.high_bidder & 1) == (view.seat & 1)
        draw = declaring & ((unseen & D.PIP_BITS[t]) != 0) & ((view.hand & D.PIP_BITS[t]) != 0)
        walker = ((D.BEATS_LEAD[t] & unseen[:, None]) == 0) & ~D.IS_TRUMP[t]
        tables = _tables(view)
        return np.where(draw[:, None], D.LEAD_KEY[t], select(walker, tables.lead_walker[t], tables.lead_cheap[t]))

    @staticmethod
    def _follow_scores(view: FortyTwoView) -> np.ndarray:
        """Count onto a trick the partner holds safely (nothing unseen can beat it, or we play last);
        otherwise take the trick with the cheapest domino that does, or throw the cheapest."""
        t = view.trump.astype(np.intp)
        situation = t * 8 + view.led
        unseen = D.ALL & ~(view.hand | view.played)
        partner = (view.winner & 1) == (view.seat & 1)
        beaters = D.BEATS[t, view.led, view.winning]
        last = (view.n_played & 3) == 3
        safe = partner & (last | ((beaters & unseen) == 0))
        tables = _tables(view)
        takes = tables.follow_key[situation] > view.winning_key()[:, None]
        contest = select(takes, tables.follow_take[situation], tables.follow_cheap[situation])
        return np.where(safe[:, None], tables.follow_give[situation], contest)


def count_points(view: FortyTwoView) -> np.ndarray:
    """(28,) the count value of each domino under the game's rules (the seed's when the view has none)."""
    return D.COUNT_POINTS[view.rules.count_values if view.rules is not None else "seed"]


@dataclass(frozen=True)
class _PlayTables:
    """Heuristic play scores for every (trump, domino) as a lead and every (trump * 8 + led suit, domino)
    when following, built once per count scale so that a decision is a few gathers. Higher is better;
    only legal dominoes count."""

    lead_walker: np.ndarray
    lead_cheap: np.ndarray
    follow_key: np.ndarray
    follow_take: np.ndarray
    follow_cheap: np.ndarray
    follow_give: np.ndarray


@cache
def _play_tables(count_values: str) -> _PlayTables:
    count = (D.COUNT_POINTS[count_values] * 7 // D.COUNT_POINTS[count_values].max()).astype(np.int16)  # 0..7
    trumpy = D.IS_TRUMP.astype(np.int16)
    key = D.KEY.reshape(56, D.N_DOMINOES).astype(np.int16)
    trumpy_8 = np.repeat(trumpy, 8, axis=0)
    return _PlayTables(
        lead_walker=(200 + 4 * count + D.LEAD_KEY).astype(np.int16),
        lead_cheap=(100 - 4 * count - D.LEAD_KEY - 50 * trumpy).astype(np.int16),
        follow_key=key,
        follow_take=(300 - key).astype(np.int16),
        follow_cheap=(100 - 4 * count - key - 50 * trumpy_8).astype(np.int16),
        follow_give=(8 * count - 40 * trumpy_8 - key).astype(np.int16),
    )


def _tables(view: FortyTwoView) -> _PlayTables:
    return _play_tables(view.rules.count_values if view.rules is not None else "seed")


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (Random, Greedy, Heuristic)}
