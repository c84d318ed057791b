"""Rounds strategies: random, greedy and heuristic. Each reads only its player's `RoundsView`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np

from simulator import bitrows, tricks
from simulator.options import needs, option
from simulator.rounds import cards as C
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import RoundsView
from strategies.base import Random, Strategy, best_legal, best_of_bits, by_row

_DEFAULT_RULES = RoundsRules()


def context(view: RoundsView) -> np.ndarray:
    """The trump context index (cards.context) of the current trick."""
    rank = np.where(view.trump_rank < 0, C.NO_RANK, view.trump_rank)
    return view.trump.astype(np.intp) * 14 + rank


def card_points(view: RoundsView) -> np.ndarray:
    """(52,) the points of each card under the game's rules."""
    rules = view.rules or _DEFAULT_RULES
    return rules.points_by_rank[C.RANK].astype(np.int16)


def keys_now(view: RoundsView, ctx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(m, 52) each card's strength in the current trick, and (m,) the strength to beat (-1 when leading)."""
    leading = view.led < 0
    led = np.maximum(view.led, 0)
    suit = C.EFFECTIVE[ctx, led]
    keys = tricks.trick_keys(C.LEAD_KEY, C.KEY, ctx, suit, leading)
    return keys.astype(np.int16), tricks.winning_key(C.KEY, ctx, suit, led, leading).astype(np.int16)


@dataclass(frozen=True)
class Greedy(Strategy):
    name = "greedy"
    summary = (
        "leads its strongest card; takes the trick with its strongest card when it can, else plays its lowest"
    )

    def decide(self, kind, view, legal, rng):
        return self.decide_packed(kind, view, bitrows.pack(legal), rng)

    def decide_packed(self, kind, view, words, rng):
        """`decide_numpy` compiled (`strategies.rounds_compiled`): the same cards, one pass over the rows."""
        from strategies import rounds_compiled  # numba: loaded only where greedy decides

        return rounds_compiled.greedy(
            np.ascontiguousarray(words[:, 0], np.uint64),
            np.asarray(view.trump, np.int8),
            np.asarray(view.trump_rank, np.int8),
            np.asarray(view.led, np.int8),
            C.KEY,
            C.LEAD_KEY,
            C.EFFECTIVE,
            -(card_points(view) * 16 + C.RANK).astype(np.int16),
            rounds_compiled._POSITION,
        )

    def decide_numpy(self, kind, view, legal, rng):
        """`decide` in numpy, on the legal mask: the statement of greedy play."""
        ctx = context(view)
        keys, to_beat = keys_now(view, ctx)
        can_win = tricks.can_take(keys, legal, to_beat)
        lowest = -(card_points(view) * 16 + C.RANK).astype(np.int16)
        return best_legal(np.where(can_win[:, None], keys, lowest), legal)


@dataclass(frozen=True)
class Heuristic(Strategy):
    name = "heuristic"
    examples: ClassVar[tuple[str, ...]] = ("duck=false",)
    summary = (
        "tracks the cards seen; cashes cards nothing unseen can beat, wins tricks cheaply, trumps only "
        "for points, keeps its point cards from the opponent; on a stage's fifth trick takes or ducks "
        "the sweep by comparing the sweep bonus with the card points at stake"
    )
    trump_cost: float = option(
        3.0, "points a trump is worth keeping: trump a trick only when more is at stake", lo=0, hi=100
    )
    duck: bool = option(True, "decide the fifth trick of a stage by the sweep bonus against the card points")
    duck_margin: float = option(
        0.0,
        "duck (or let the opponent sweep) only when the card points beat the sweep bonus by more than this",
        lo=-100,
        hi=100,
        read_if=needs(duck=True),
    )

    def decide(self, kind, view, legal, rng):
        return self.decide_packed(kind, view, bitrows.pack(legal), rng)

    def decide_packed(self, kind, view, words, rng):
        """`decide_numpy` compiled (`strategies.rounds_compiled`): the same cards, one pass over the rows."""
        from strategies import rounds_compiled  # numba: loaded only where the heuristic decides

        t = self._tables(view)
        rules = view.rules or _DEFAULT_RULES
        return rounds_compiled.decide(
            np.ascontiguousarray(words[:, 0], np.uint64),
            np.asarray(view.seat, np.int8),
            np.asarray(view.hand, np.uint64),
            np.asarray(view.played, np.uint64),
            np.asarray(view.face_up, np.int8),
            np.asarray(view.trump, np.int8),
            np.asarray(view.trump_rank, np.int8),
            np.asarray(view.led, np.int8),
            np.asarray(view.trick, np.int8),
            np.asarray(view.stage_points, np.int16),
            np.asarray(view.stage_tricks, np.int8),
            t.lead,
            t.follow.reshape(-1),
            t.points,
            t.lose,
            C.KEY,
            C.LEAD_KEY,
            C.EFFECTIVE,
            C.RANK_BITS,
            C.SUIT_BITS,
            _ABOVE,
            C.ALL,
            self.duck,
            rules.sweep_bonus + self.duck_margin,
            rounds_compiled._POSITION,
        )

    def decide_numpy(self, kind, view, words, rng):
        """`decide_packed` in numpy: the statement of the heuristic's play."""
        # The legal cards are a bitmask (a hand), so each row's few cards are scored one card at a time
        # (`best_of_bits`) from per-context tables. A game runs in lockstep, so a step is usually all leads
        # or all replies, and only trick 5 of a stage needs the sweep decision.
        legal = words[:, 0]
        t = self._tables(view)
        ctx = context(view)
        leading = view.led < 0
        lead = follow = None
        if (
            leading.any()
        ):  # cash a card nothing unseen can beat, otherwise lead low, away from points and trumps
            unseen = C.ALL & ~(view.hand | view.played | _face_up_bits(view))
            sure = _unbeatable_leads(view, unseen)
            lead_at = 2 * C.N_CARDS * ctx

            def lead(card: np.ndarray, bit: np.ndarray) -> np.ndarray:
                return t.lead[lead_at + 2 * card.astype(np.intp) + ((sure & bit) != 0)]

        if not leading.all():  # win the trick's points and my card's, or give both away (`_Tables.follow`)
            follow_at, follow_table = (
                (ctx * C.N_CARDS + np.maximum(view.led, 0)) * C.N_CARDS,
                t.follow.reshape(-1),
            )

            def follow(card: np.ndarray, bit: np.ndarray) -> np.ndarray:  # (bit: best_of_bits's signature)
                return follow_table[follow_at + card]

        action = best_of_bits(legal, by_row(leading, lead, follow))
        fifth = view.trick == 4
        if self.duck and fifth.any():
            rows = np.flatnonzero(fifth)
            lose, losing = self._fifth_trick(view if len(rows) == len(view) else view.take(rows))
            if len(lose):
                action[rows[lose]] = best_legal(losing, tricks.bits_to_mask(legal[rows[lose]], C.N_CARDS))
        return action

    def _tables(self, view: RoundsView) -> _Tables:
        return _tables(tuple((view.rules or _DEFAULT_RULES).points_by_rank.tolist()), self.trump_cost)

    def _fifth_trick(self, view: RoundsView) -> tuple[np.ndarray, np.ndarray]:
        """Trick 5 of a stage where one player took tricks 1-4: a sweep scores the bonus instead of the
        stage's card points. Lose the trick on purpose when that leaves the better difference: keep my
        card points rather than sweep, or let the opponent sweep rather than keep his. Returns the rows
        that lose on purpose and their (k, 52) scores, the cheapest losing card highest."""
        t = self._tables(view)
        me = view.seat.astype(np.intp)
        ar = np.arange(len(view))
        mine, theirs = view.stage_points[ar, me], view.stage_points[ar, 1 - me]
        my_tricks = view.stage_tricks[ar, me]
        at_stake = np.where(view.led < 0, 0, t.points[np.maximum(view.led, 0)])
        bonus = (view.rules or _DEFAULT_RULES).sweep_bonus
        lose = ((my_tricks == 4) & (mine - at_stake > bonus + self.duck_margin)) | (
            (my_tricks == 0) & (theirs - at_stake > bonus + self.duck_margin)
        )
        rows = np.flatnonzero(lose)
        if not len(rows):
            return rows, np.zeros((0, C.N_CARDS), np.int16)
        sub = view if len(rows) == len(view) else view.take(rows)
        ctx = context(sub)
        keys, to_beat = keys_now(sub, ctx)
        # To lose: following, any card that does not beat the lead; leading, the weakest card. Cheapest first.
        losing = np.where(sub.led[:, None] < 0, -16 * keys, np.where(keys > to_beat[:, None], -2000, 0))
        return rows, (losing + t.lose[ctx]).astype(np.int16)


_SCALE = 16  # scores are integers: points times _SCALE, less a little for a higher rank on ties


@dataclass(frozen=True)
class _Tables:
    """Heuristic scores per trump context (and per context and led suit for keys), built once per
    card-point scale and trump cost, so that a decision is a few gathers."""

    points: np.ndarray  # (52,) card points
    key: np.ndarray  # (56 * 4, 52) KEY by context * 4 + led suit
    lead: np.ndarray  # (56 * 52 * 2,) by (context * 52 + card) * 2 + sure: leading a card that can be beaten
    # (sure 0), or that nothing unseen beats (sure 1)
    win: np.ndarray  # (56, 52) following with a card that takes the trick (before the led card's points)
    lose: np.ndarray  # (56, 52) following with a card that does not
    follow: np.ndarray  # (56 * 52, 52) by context * 52 + led card: win + the led card's points where the card
    # takes the trick, lose - them where it does not (one gather per decision)


@cache
def _tables(points_by_rank: tuple[int, ...], trump_cost: float) -> _Tables:
    points = np.asarray(points_by_rank, dtype=np.int16)[C.RANK]
    trump = C.IS_TRUMP.astype(np.float64)
    pts = points[None, :].astype(np.float64)
    tie = C.RANK[None, :] / 4  # prefer the lower card when nothing else differs

    def scaled(x: np.ndarray) -> np.ndarray:
        return np.round(_SCALE * x - tie).astype(np.int16)

    win, lose = scaled(pts - trump_cost * trump), scaled(-pts + 0 * trump)
    led = np.arange(C.N_CARDS)
    suit = C.EFFECTIVE[:, led]  # (56, 52): each led card's suit per context
    ctx = np.arange(C.N_CONTEXTS)[:, None]
    wins = C.KEY[ctx, suit][:, :, :] > C.KEY[ctx, suit, led[None, :]][:, :, None]  # [ctx, led, card]
    at_stake = (_SCALE * points[led]).astype(np.int16)[None, :, None]
    follow = np.where(wins, win[:, None, :] + at_stake, lose[:, None, :] - at_stake).astype(np.int16)
    return _Tables(
        points=points,
        key=C.KEY.reshape(C.N_CONTEXTS * 4, C.N_CARDS).astype(np.int16),
        lead=np.stack(
            [scaled(-pts - trump_cost * trump), scaled(pts + 2 - 0.5 * trump_cost * trump)], axis=2
        ).reshape(-1),
        win=win,
        lose=lose,
        follow=follow.reshape(C.N_CONTEXTS * C.N_CARDS, C.N_CARDS),
    )


# _ABOVE[x]: the ranks above the highest set bit of a 13-bit suit pattern x (every rank for x = 0), as a
# 13-bit pattern: the cards of a suit that nothing in x beats.
_ABOVE = np.array([0x1FFF & ~((1 << x.bit_length()) - 1) for x in range(1 << 13)], dtype=np.uint64)


def _unbeatable_leads(view: RoundsView, unseen: np.ndarray) -> np.ndarray:
    """uint64 bitmask per row of the cards that no unseen card could beat if led now. Suit by suit on
    13-bit patterns (a table gives the cards above each suit's top unseen rank): a handful of operations per
    row."""
    trump = view.trump.astype(np.intp)
    rank_trumps = np.where(
        view.trump_rank >= 0, C.RANK_BITS[np.maximum(view.trump_rank, 0)] & ~C.SUIT_BITS[trump], np.uint64(0)
    )
    plain = unseen & ~rank_trumps
    above = np.zeros(len(view), np.uint64)
    for suit in range(4):
        shift = np.uint64(13 * suit)
        above |= _ABOVE[((plain >> shift) & np.uint64(0x1FFF)).astype(np.intp)] << shift
    trump_bits = C.SUIT_BITS[trump]
    trumps_out = (unseen & (trump_bits | rank_trumps)) != 0
    # plain suits: only while no trump is out
    sure = np.where(trumps_out, np.uint64(0), above & ~trump_bits) & ~rank_trumps
    # trumps: the suit's cards above every unseen one, unless a rank trump is unseen; a rank trump always
    # (another one ties it, and the lead wins a tie)
    trump_part = np.where((unseen & rank_trumps) != 0, np.uint64(0), above & trump_bits & ~rank_trumps)
    return sure | trump_part | rank_trumps


def _face_up_bits(view: RoundsView) -> np.ndarray:
    up = view.face_up.astype(np.intp)
    bits = np.where(up >= 0, C.BIT[np.maximum(up, 0)], np.uint64(0))
    return bits[:, 0] | bits[:, 1]


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (Random, Greedy, Heuristic)}
