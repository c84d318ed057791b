"""Forty-two strategies: random, greedy and heuristic. Each reads only its seat's `FortyTwoView`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simulator import bitrows, tricks
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    BID_210,
    BID_VALUE,
    CALL,
    DOUBLES,
    N_ACTIONS,
    NELLO,
    NO_TRUMP,
    PLAY,
    PLUNGE,
    SPLASH,
    TRUMP,
    FortyTwoView,
)
from simulator.options import needs, option
from strategies.base import Random, Strategy, best_legal, best_of_bits, by_row

_PIPS = np.arange(7)
TRUMP_DOUBLE = np.array([D.domino_id(p, p) for p in range(7)], np.uint32)
# [t]: the count dominoes that are neither a double nor a trump when t is trump: they can be caught.
_EXPOSED_IF_TRUMP = (D.COUNT_BITS & ~D.DOUBLE_BITS) & ~D.PIP_BITS
# [c, j]: the j-th highest trump in play context c (pip t: the double, then t-6 down to t-0; doubles: 6-6
# down).
_TRUMP_ORDER = np.array(
    [np.argsort(-D.LEAD_KEY[c] * D.IS_TRUMP[c], kind="stable")[:7] for c in range(D.N_CONTEXTS)], np.intp
)
# [c, d]: the non-trumps that take a trick led with non-trump d once no trump is out (0 for trumps).
_BEATS_OFF = np.where(D.IS_TRUMP, 0, D.BEATS_LEAD & ~D.TRUMP_BITS[:, None]).astype(np.uint32)
_DEFAULT_RULES = FortyTwoRules()
# dominoes' tables flat, by ctx * 28 + domino: one domino per row
_LEAD_KEY_FLAT, _BEATS_LEAD_FLAT, _IS_TRUMP_FLAT = (
    D.LEAD_KEY.reshape(-1),
    D.BEATS_LEAD.reshape(-1),
    D.IS_TRUMP.reshape(-1),
)
_DOUBLE_66 = D.domino_id(6, 6)
_NON_DOUBLE_COUNT = D.COUNT_BITS & ~D.DOUBLE_BITS
# Dominoes a nello declarer would rather not hold: doubles above 1-1 and anything with a six or five end.
_NELLO_RISK = np.uint32(
    sum(1 << d for d in range(D.N_DOMINOES) if (D.IS_DOUBLE[d] and D.HIGH[d] > 1) or D.HIGH[d] >= 5)
)


class FortyTwoStrategy(Strategy):
    """Dispatches a decision to `call`, `trump` or `play`."""

    def decide(
        self, kind: int, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:
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


# Call actions from the lowest bid up: 1..42, then the bids above 42 (of which at most one is ever legal),
# then plunge and splash, which a bidder calls only where no plain bid is left.
_BIDS_UP = np.array([*range(1, PLUNGE), BID_210, PLUNGE, SPLASH], np.intp)


def lowest_bid(legal: np.ndarray) -> np.ndarray:
    """The lowest legal numeric bid of each row, the 210 included (a plunge or splash only where no plain
    bid is legal; 0 = pass where no bid is legal)."""
    bids = legal[:, _BIDS_UP]
    return np.where(bids.any(axis=1), _BIDS_UP[np.argmax(bids, axis=1)], 0)


def current_keys(view: FortyTwoView) -> np.ndarray:
    """(m, 28): each domino's strength in the current trick; as a lead when the seat leads."""
    t = view.ctx.astype(np.intp)
    return tricks.trick_keys(D.LEAD_KEY, D.KEY, t, np.maximum(view.led, 0), view.led < 0)


@dataclass(frozen=True)
class Greedy(FortyTwoStrategy):
    name = "greedy"
    examples = ("min_length=3",)
    summary = (
        "bids the minimum with a long suit, names its longest suit, takes the trick with its "
        "strongest domino when it can, else plays its weakest"
    )
    min_length: int = option(4, "bid only holding at least this many of one suit", lo=1, hi=7)

    def call(self, view, legal, rng):
        longest = suit_lengths(view.hand).max(axis=1)
        forced = ~legal[:, 0]  # a stuck dealer (all_pass=dealer_forced) may not pass: he bids the minimum
        return np.where((longest >= self.min_length) | forced, lowest_bid(legal), 0)

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
    examples = ("bidder=threshold,threshold=28",)
    summary = (
        "values its hand for each trump (trumps held, the trump double, other doubles, count "
        "exposed in off suits); bids up the ladder to the points it expects to take less a risk "
        "margin (42 with a hand that takes every trick), overcalls opponents when it expects to "
        "make the higher bid, leaves its partner's bid alone unless it clearly gains; names its best "
        "suit, leads trumps to draw them, plays count on tricks its partner has won, keeps count "
        "away from the opponents"
    )
    bidder: str = option(
        "ladder",
        "ladder = bid up to the points expected less `margin`, 42 with a sure "
        "hand; threshold = open at the lowest bid once the hand is worth `threshold`",
        choices=("ladder", "threshold"),
    )
    threshold: int = option(
        31,
        "threshold bidder: bid only when the hand is worth at least this many points",
        lo=0,
        hi=84,
        read_if=needs(bidder="threshold"),
    )
    margin: float = option(
        1.0,
        "ladder bidder: bid up to the points it expects to take less this many "
        "(higher = safer, fewer and lower bids)",
        lo=-42,
        hi=42,
        read_if=needs(bidder="ladder"),
    )
    overcall_margin: float = option(
        -2.0,
        "ladder bidder: extra margin to overcall an opponent's bid "
        "(negative = overcall more readily: letting the opponents play cheaply "
        "costs more than a modest risk)",
        lo=-42,
        hi=42,
        read_if=needs(bidder="ladder"),
    )
    partner_gain: float = option(
        6.0,
        "ladder bidder: outbid its partner only when it expects this many "
        "points more than the partner's bid (or holds a sure 42 an opponent could "
        "still overcall)",
        lo=0,
        hi=84,
        read_if=needs(bidder="ladder"),
    )
    preempt: float = option(
        0.5,
        "ladder bidder: where it bids between the lowest legal bid (0) and its "
        "limit (1) while an opponent may still bid; with none left it bids the lowest",
        lo=0,
        hi=1,
        read_if=needs(bidder="ladder"),
    )
    # The value weights are a least-squares fit of the points a declaring side took against these
    # features of the declarer's hand, over 200,000 hands of heuristic play (seed rules).
    base: float = option(7.8, "hand value before counting anything", lo=-100, hi=100)
    trump_weight: float = option(5.0, "value of each trump held", lo=0, hi=42)
    trump_double_weight: float = option(3.4, "extra value of holding the trump double", lo=0, hi=42)
    double_weight: float = option(2.6, "value of each double outside trumps", lo=0, hi=42)
    exposed_weight: float = option(
        1.6,
        "cost of each count domino outside trumps that is not a double "
        "(the ladder bidder scales it by the domino's count value / 7)",
        lo=0,
        hi=42,
    )
    # Texas 42's special contracts (used only where the rules allow them)
    plunge_doubles: int = option(
        7,
        "bid a plunge holding at least this many doubles (measured: with 4-5 doubles "
        "this play makes fewer than 1 in 10, with 6 about half)",
        lo=4,
        hi=8,
        rules_need=needs(plunge=True),
    )
    splash_doubles: int = option(
        6,
        "bid a splash holding at least this many doubles (and fewer than plunge_doubles)",
        lo=3,
        hi=8,
        rules_need=needs(splash=True),
    )
    nello_risk: int = option(
        0,
        "bid 42 and name nello holding at most this many risky dominoes (doubles "
        "above 1-1, dominoes with a five or six end)",
        lo=0,
        hi=7,
        rules_need=needs(nello=True),
    )

    def hand_values(self, hand: np.ndarray) -> np.ndarray:
        """(m, 7): estimated points the seat's side takes with each pip as trump."""
        trumps = suit_lengths(hand)
        doubles = np.bitwise_count(hand & D.DOUBLE_BITS).astype(np.int16)[:, None]
        trump_double = (hand[:, None] >> TRUMP_DOUBLE) & 1
        exposed = np.bitwise_count(hand[:, None] & _EXPOSED_IF_TRUMP)
        return (
            self.base
            + self.trump_weight * trumps
            + self.trump_double_weight * trump_double
            + self.double_weight * (doubles - trump_double)
            - self.exposed_weight * exposed
        )

    def declaration_values(self, hand: np.ndarray, rules: FortyTwoRules) -> np.ndarray:
        """(m, 9): the points expected with each pip as trump (`hand_values`), then with the doubles as trumps
        and at no-trump where the rules allow them (-inf where not). Doubles trump counts the doubles as
        trumps and 6-6 as the top trump; no-trump values each double as the top of its suit. These are
        rough: the weights were fitted to pip trumps."""
        m = len(hand)
        out = np.full((m, 9), -np.inf)
        out[:, :7] = self.hand_values(hand)
        doubles = np.bitwise_count(hand & D.DOUBLE_BITS).astype(np.int16)
        exposed = np.bitwise_count(hand & _NON_DOUBLE_COUNT).astype(np.int16)
        if rules.declares("doubles"):
            out[:, DOUBLES] = (
                self.base
                + self.trump_weight * doubles
                + self.trump_double_weight * ((hand >> np.uint32(_DOUBLE_66)) & 1)
                - self.exposed_weight * exposed
            )
        if rules.declares("no-trump"):
            out[:, NO_TRUMP] = (
                self.base
                + (self.double_weight + self.trump_double_weight) * doubles
                - self.exposed_weight * exposed
            )
        return out

    def nello_hand(self, hand: np.ndarray) -> np.ndarray:
        """(m,) whether the hand would rather lose every trick: at most `nello_risk` risky dominoes (doubles
        above 1-1, dominoes with a five or six end)."""
        return np.bitwise_count(hand & _NELLO_RISK) <= self.nello_risk

    def call(self, view, legal, rng):
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        action = (
            self._threshold_call(view, legal)
            if self.bidder == "threshold"
            else self._ladder_call(view, legal)
        )
        if rules.plunge or rules.splash or rules.nello:
            action = self._special_call(view, legal, rules, action)
        return action

    def _special_call(self, view, legal, rules, action):
        """Plunge with `plunge_doubles` doubles, splash with `splash_doubles` (the partner names trumps, the
        doubles being the plunger's); bid 42 for a nello with a hand of low dominoes when nobody holds
        more."""
        doubles = np.bitwise_count(view.hand & D.DOUBLE_BITS)
        partner_holds = (view.high_bidder >= 0) & ((view.high_bidder & 1) == (view.seat & 1))
        action = np.where(
            legal[:, SPLASH] & (doubles >= self.splash_doubles) & ~partner_holds, SPLASH, action
        )
        action = np.where(
            legal[:, PLUNGE] & (doubles >= self.plunge_doubles) & ~partner_holds, PLUNGE, action
        )
        if rules.nello:
            nello = self.nello_hand(view.hand) & legal[:, 42] & ~partner_holds & (BID_VALUE[action] < 42)
            action = np.where(nello, 42, action)
        return action

    def _threshold_call(self, view, legal):
        worth = self.hand_values(view.hand).max(axis=1)
        bid = lowest_bid(legal)
        partner_leads = (view.high_bidder >= 0) & ((view.high_bidder & 1) == (view.seat & 1))
        # Open at the lowest bid once the hand reaches the threshold; overcall only up to its worth.
        opening = view.high_bidder < 0
        may_bid = (worth >= self.threshold) & (bid > 0) & ((bid <= worth) | opening) & ~partner_leads
        may_bid |= ~legal[:, 0]  # a stuck dealer may not pass: the lowest bid
        return np.where(may_bid & (bid <= 42), bid, 0)

    def expected_points(self, view: FortyTwoView) -> tuple[np.ndarray, np.ndarray]:
        """(m,) points the side expects to take as declarer with the trump this strategy would name, and
        (m,) whether that trump takes every trick for sure (see `sure_every_trick`)."""
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        values = self.hand_values(view.hand)
        named = self.named_trump(values)
        rows = np.arange(len(named))
        worth = values[rows, named]
        if rules.declares("doubles") or rules.declares("no-trump"):  # a better declaration raises the worth
            worth = np.maximum(worth, self.declaration_values(view.hand, rules)[:, 7:].max(axis=1))
        count = count_points(view)
        if count.max() != 7:  # exposed count weighed by its value under these rules (seed: 7 each)
            exposed = view.hand[:, None] & _EXPOSED_IF_TRUMP[named][:, None] & D.BIT[None, :]
            worth = worth + self.exposed_weight * (
                np.bitwise_count(view.hand & _EXPOSED_IF_TRUMP[named])
                - ((exposed != 0) * count[None, :]).sum(axis=1) / 7
            )
        return worth, sure_every_trick(view.hand, named)

    def _ladder_call(self, view, legal):
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        if self._compiled_ladder(rules):
            return _kernels().ladder_calls(
                (view.hand, view.seat, view.high_bidder, view.high_bid, view.calls, view.n_calls),
                legal,
                (self.base, self.trump_weight, self.trump_double_weight)
                + (self.double_weight, self.exposed_weight),
                (self.margin, self.overcall_margin, self.partner_gain, self.preempt),
                (TRUMP_DOUBLE, _EXPOSED_IF_TRUMP, _TRUMP_ORDER, _BEATS_OFF),
                rules.auction == "one-lap",
                rules.min_bid,
            )
        worth, sure = self.expected_points(view)
        lowest = lowest_bid(legal)  # action; 0 when no bid is legal
        lowest_value = BID_VALUE[lowest]
        held = view.high_bidder >= 0
        partner_holds = held & ((view.high_bidder & 1) == (view.seat & 1))
        opponent_holds = held & ~partner_holds
        bids_so_far = (view.calls > 0).sum(axis=1)
        # Whether anyone may still bid after this call: one lap gives each seat one call; in the seed
        # auction a seat that has passed may still bid, and each seat bids once.
        last = (view.n_calls >= 3) if rules.auction == "one-lap" else (bids_so_far >= 3)
        limit = np.floor(worth - self.margin - self.overcall_margin * opponent_holds).astype(np.int16)
        limit = np.minimum(limit, 41)
        step = np.where(last, 0.0, self.preempt)
        level = np.ceil(lowest_value + step * np.maximum(limit - lowest_value, 0)).astype(np.int16)
        level = np.maximum(level, rules.min_bid)
        ok = (lowest > 0) & (lowest_value <= limit)
        ok &= ~partner_holds | (limit >= view.high_bid + self.partner_gain)
        # A sure 42: bid 42, or over a 42 (or with jump bids over anything 42 cannot beat) the lowest jump
        # (under marks one mark more than the bid, up to 210 over a 168).
        slam_action = np.where(lowest_value <= 42, 42, lowest)
        slam = sure & (lowest > 0) & (~partner_holds | (~last & (view.high_bid < 42)))
        ok |= ~legal[
            :, 0
        ]  # a stuck dealer (all_pass=dealer_forced) may not pass: he bids within his limit or the lowest
        action = np.where(ok, level, 0)
        action = np.where(slam, slam_action, action)
        return action.astype(np.intp)

    def _compiled_ladder(self, rules: FortyTwoRules) -> bool:
        """Whether the compiled ladder (`fortytwo_kernels.ladder_calls`) gives this bidder's calls: the seed's
        count, pip declarations only, and this class's own hand values (a subclass may value otherwise)."""
        cls = type(self)
        own = cls.expected_points is Heuristic.expected_points and cls.hand_values is Heuristic.hand_values
        own &= cls.named_trump is Heuristic.named_trump
        return own and rules.count_values == "seed" and rules.declarations.replace(" ", "") == "pips"

    def trump(self, view, legal, rng):
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        if legal.shape[1] <= 7 or not legal[:, 7:].any():
            return self.named_trump(self.hand_values(view.hand))
        values = self.declaration_values(view.hand, rules)
        named = np.argmax(np.where(legal[:, :9], values, -np.inf) * 8 + np.arange(9), axis=1)
        # after a plunge or splash (the partner names) the plunger's doubles make the doubles trump
        names_for_partner = view.seat != view.high_bidder
        named = np.where(names_for_partner & legal[:, DOUBLES], DOUBLES, named)
        if legal.shape[1] > NELLO:
            named = np.where(legal[:, NELLO] & self.nello_hand(view.hand) & ~names_for_partner, NELLO, named)
        return named

    @staticmethod
    def named_trump(values: np.ndarray) -> np.ndarray:
        """(m,) the pip a hand names trump: its best value (`hand_values`), the higher pip on ties."""
        return np.argmax(values * 8 + _PIPS, axis=1)

    packed_follows = ("decide", "play")  # a subclass that plays otherwise is asked with the mask

    def decide_packed(self, kind, view, words, rng):
        """Plays are decided on the hand's bits (`play_bits`); calls and trumps on the mask."""
        if kind != PLAY:
            return self.decide(kind, view, bitrows.unpack(words, N_ACTIONS[kind]), rng)
        return self.play_bits(view, words[:, 0].astype(np.uint32))

    def play(self, view, legal, rng):
        return self.play_bits(view, bitrows.pack(legal)[:, 0].astype(np.uint32))

    def play_bits(self, view: FortyTwoView, legal: np.ndarray) -> np.ndarray:
        """(m,) the domino to play, the legal ones a bitmask (m,) uint32: each row's few legal dominoes are
        scored one at a time (`best_of_bits`) from the lead and follow tables."""
        if (view.trump == NELLO).any():
            nello = view.trump == NELLO
            out = np.empty(len(nello), np.intp)
            out[nello] = self._nello_play(view.take(nello), tricks.bits_to_mask(legal[nello], D.N_DOMINOES))
            if (~nello).any():
                out[~nello] = self.play_bits(view.take(~nello), legal[~nello])
            return out
        cls = type(self)
        if cls._lead_score is Heuristic._lead_score and cls._follow_score is Heuristic._follow_score:
            tables = _tables(view)
            return _kernels().plays(
                (view.hand, view.seat, view.high_bidder, view.ctx, view.led, view.winner, view.winning)
                + (view.played, view.n_played, view.trick_start),
                legal,
                tables.lead_walker,
                tables.lead_cheap,
                tables.follow,
                _N_WINNING_KEYS,
            )
        leading = view.led < 0
        lead = self._lead_score(view) if leading.any() else None
        follow = self._follow_score(view) if not leading.all() else None
        return best_of_bits(legal, by_row(leading, lead, follow))

    @staticmethod
    def _lead_score(view: FortyTwoView):
        """The declaring side draws trumps while an opponent may hold one; otherwise it leads a domino
        that nothing unseen can beat (count first), else its cheapest domino. Returns the score of
        domino d (one per row)."""
        t = view.ctx.astype(np.intp)
        unseen = D.ALL & ~(view.hand | view.played)
        declaring = (view.high_bidder & 1) == (view.seat & 1)
        draw = declaring & ((unseen & D.TRUMP_BITS[t]) != 0) & ((view.hand & D.TRUMP_BITS[t]) != 0)
        tables = _tables(view)
        at, lead_walker, lead_cheap = (
            t * D.N_DOMINOES,
            tables.lead_walker.reshape(-1),
            tables.lead_cheap.reshape(-1),
        )

        def score(d: np.ndarray, bit: np.ndarray) -> np.ndarray:
            i = at + d
            walker = ((_BEATS_LEAD_FLAT[i] & unseen) == 0) & ~_IS_TRUMP_FLAT[i]
            return np.where(draw, _LEAD_KEY_FLAT[i], np.where(walker, lead_walker[i], lead_cheap[i]))

        return score

    @staticmethod
    def _follow_score(view: FortyTwoView):
        """Count onto a trick the partner holds safely (nothing unseen can beat it, or we play last);
        otherwise take the trick with the cheapest domino that does, or throw the cheapest. One row of
        `_PlayTables.follow` by (trump, led suit, winning key, safe); returns the score of domino d."""
        t = view.ctx.astype(np.intp)
        unseen = D.ALL & ~(view.hand | view.played)
        partner = (view.winner & 1) == (view.seat & 1)
        beaters = D.BEATS[t, view.led, view.winning]
        last = view.n_played - view.trick_start == 3
        safe = partner & (last | ((beaters & unseen) == 0))
        row = ((t * 8 + view.led) * _N_WINNING_KEYS + view.winning_key() + 1) * 2 + safe
        follow, at = _tables(view).follow.reshape(-1), row * D.N_DOMINOES
        return lambda d, bit: follow[at + d]

    @staticmethod
    def _nello_play(view: FortyTwoView, legal: np.ndarray) -> np.ndarray:
        """Nello: the declarer sheds his highest domino that cannot take the trick (leading, his lowest);
        the defenders play their lowest, leaving the declarer on top."""
        keys = current_keys(view).astype(np.int16)
        declarer = view.seat == view.high_bidder
        under = keys <= view.winning_key()[:, None]  # cannot take the trick from the domino winning it
        shed = np.where(under, 100 + keys, -keys)
        return best_legal(np.where(declarer[:, None] & (view.led >= 0)[:, None], shed, -keys), legal)


def sure_every_trick(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """(m,) whether the hand takes all seven tricks with `trump` as trump, leading first, whatever the
    others hold: its unbroken run of top trumps is at least the number of trumps out (each lead of a top
    trump draws at least one), and every non-trump it holds is then the highest of its suit left out.
    The non-trumps are looked at only for the few hands whose trumps pass (a bidding hot path)."""
    trump_bits = D.TRUMP_BITS[trump]
    out = 7 - np.bitwise_count(hand & trump_bits).astype(np.int16)
    top = (hand[:, None] >> _TRUMP_ORDER[trump].astype(np.uint32)) & 1
    run = np.cumprod(top, axis=1).sum(axis=1)
    sure = run >= out
    rows = np.flatnonzero(sure)
    if len(rows):
        h = hand[rows]
        beats_off = _BEATS_OFF[trump[rows]]  # (k, 28)
        held = (h[:, None] >> np.arange(D.N_DOMINOES, dtype=np.uint32)) & 1
        sure[rows] = ~(((beats_off & ~h[:, None]) != 0) & (held != 0)).any(axis=1)
    return sure


def count_points(view: FortyTwoView) -> np.ndarray:
    """(28,) the count value of each domino under the game's rules (the seed's when the view has none)."""
    return D.COUNT_POINTS[view.rules.count_values if view.rules is not None else "seed"]


# Winning keys run from -1 (nothing played yet) to 15 (dominoes.KEY): the follow table has a block for each.
_N_WINNING_KEYS = int(D.KEY.max()) + 2


@dataclass(frozen=True)
class _PlayTables:
    """Heuristic play scores, built once per count scale so that a decision is a few gathers. Higher is
    better; only legal dominoes count. Leads: every (trump, domino). Following: every (trump, led suit,
    winning key, safe) row of 28 domino scores: giving count to a partner's safe trick, else taking the
    trick with the cheapest domino that beats the winning key, else throwing the cheapest."""

    lead_walker: np.ndarray
    lead_cheap: np.ndarray
    follow: np.ndarray  # (N_CONTEXTS * 8 * _N_WINNING_KEYS * 2, 28) int16


@cache
def _play_tables(count_values: str) -> _PlayTables:
    count = (D.COUNT_POINTS[count_values] * 7 // D.COUNT_POINTS[count_values].max()).astype(np.int16)  # 0..7
    trumpy = D.IS_TRUMP.astype(np.int16)
    key = D.KEY.reshape(D.N_CONTEXTS * 8, D.N_DOMINOES).astype(np.int16)
    trumpy_8 = np.repeat(trumpy, 8, axis=0)
    take = 300 - key
    cheap = 100 - 4 * count - key - 50 * trumpy_8
    give = 8 * count - 40 * trumpy_8 - key
    winning = np.arange(-1, _N_WINNING_KEYS - 1, dtype=np.int16)
    contest = np.where(key[:, None, :] > winning[None, :, None], take[:, None, :], cheap[:, None, :])
    follow = np.stack(
        [contest, np.broadcast_to(give[:, None, :], contest.shape)], axis=2
    )  # [situation, key, safe]
    return _PlayTables(
        lead_walker=(200 + 4 * count + D.LEAD_KEY).astype(np.int16),
        lead_cheap=(100 - 4 * count - D.LEAD_KEY - 50 * trumpy).astype(np.int16),
        follow=np.ascontiguousarray(follow.reshape(-1, D.N_DOMINOES).astype(np.int16)),
    )


def _tables(view: FortyTwoView) -> _PlayTables:
    return _play_tables(view.rules.count_values if view.rules is not None else "seed")


@cache
def _kernels():
    """The heuristic's compiled bid and play, loaded on its first decision (numba loads only where Forty-two
    is played)."""
    from strategies import fortytwo_kernels

    return fortytwo_kernels


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (Random, Greedy, Heuristic)}


class WithWorth:
    """A view carrying a worth worked out elsewhere (the expert's sampled deals, the learned estimate), for
    the heuristic's ladder to read back through `expected_points`; every other field is the view's."""

    def __init__(self, view: FortyTwoView, worth: np.ndarray, sure: np.ndarray):
        self._view, self.worth, self.sure = view, worth, sure

    def __getattr__(self, name: str):
        return getattr(self._view, name)

    def __len__(self) -> int:
        return len(self._view)
