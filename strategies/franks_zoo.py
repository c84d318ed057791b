"""Frank's Zoo strategies: random, greedy and heuristic. Each reads only its player's `FranksZooView`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from simulator import bitrows
from simulator.franks_zoo import cards as C
from simulator.franks_zoo.requests import COMPLETIONS, completable, odds, odds_table
from simulator.franks_zoo.view import ASK, EXCHANGE, JUNIOR, N_ACTIONS, PLAY, SOLO, FranksZooView
from simulator.options import needs, option
from strategies.base import Random, Strategy, best_legal

# How many kinds a kind beats at equal size: a rough measure of its strength.
STRENGTH = np.append(C.PREDATOR.sum(axis=1), 0).astype(np.int16)  # the chameleon has none of its own


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    kind, real, cham, mosq = (C.SETS[:, i].astype(np.int16) for i in range(4))
    size = C.SET_SIZE.astype(np.int16)
    # lead the weakest kind, as many of it as held, keeping the chameleon and mosquitoes
    lead = np.full(1 + C.N_SETS + C.N_PARTIALS, -32000, np.int16)
    lead[1 : 1 + C.N_SETS] = -200 * STRENGTH[kind] + 10 * real - 500 * cham - 500 * mosq
    # follow with the cheapest set that beats the table; failing that ask for help with the fewest cards;
    # pass last
    follow = np.full_like(lead, -30000)
    follow[1 : 1 + C.N_SETS] = -(200 * size + 10 * STRENGTH[kind] + 100 * cham + 100 * mosq)
    follow[ASK:] = -20000 - 10 * C.PARTIALS[:, 1:].sum(axis=1) - 100 * C.PARTIALS[:, 2]
    # a senior answers with the cheapest completion (fewest cards added; the chameleon last)
    answer = np.full(1 + C.N_SETS, -30000, np.int16)
    answer[1:] = -(10 * size + 100 * cham)
    return lead, follow, answer


_LEAD, _FOLLOW, _ANSWER = _tables()
_SET_SCORES = np.stack([_FOLLOW[1:ASK], _LEAD[1:ASK]])  # the sets' scores following (0) and leading (1)


@dataclass(frozen=True)
class Greedy(Strategy):
    name = "greedy"
    examples = ("ask=false,answer=false",)
    summary = (
        "plays the cheapest set that beats the table, leads its weakest kind, never beats its partner's "
        "set, asks for help when it cannot beat alone, helps whenever it can; gives away its shortest kinds"
    )
    ask: bool = option(
        True,
        "ask the senior for help when it cannot beat alone; never ask for help when false",
        rules_need=needs(help=True),
        match_only=True,
    )
    answer: bool = option(
        True,
        "help the junior whenever it can; never answer a request (always decline) when false",
        rules_need=needs(help=True),
        match_only=True,
    )

    def decide(self, kind, view: FranksZooView, legal, rng):
        if kind == EXCHANGE:
            held = view.hand.astype(np.int16)
            # the kind with the fewest cards held (hard to play), the weakest first; never the chameleon
            score = -(held * 100 + STRENGTH) - 5000 * (np.arange(C.N_KINDS) == C.CHAMELEON)
            return best_legal(score.astype(np.int16), legal)
        if kind == PLAY:
            leading = view.table < 0
            ar = np.arange(len(view))
            partner = view.partner[ar, view.seat]
            partners_set = ~leading & (partner >= 0) & (view.table_player == partner)
            # sets outrank asks, asks outrank a pass: choose within the narrowest group that has a legal
            # action
            sets = legal[:, 1:ASK]
            has_set = sets.any(axis=1) & ~partners_set
            choice = np.zeros(len(view), np.intp)  # pass
            rows = np.flatnonzero(has_set)
            if len(rows):
                choice[rows] = 1 + best_legal(_SET_SCORES[leading[rows].astype(np.intp)], sets[rows])
            asks = np.flatnonzero(~has_set & ~partners_set & ~leading) if self.ask else np.zeros(0, np.intp)
            if len(asks):
                wants = legal[asks, ASK:]
                can = wants.any(axis=1)
                choice[asks[can]] = ASK + best_legal(
                    np.broadcast_to(_FOLLOW[ASK:], wants[can].shape), wants[can]
                )
            return choice
        if not self.answer:
            return np.zeros(len(view), np.intp)  # decline
        return best_legal(np.broadcast_to(_ANSWER, legal.shape), legal)

    def decide_packed(self, kind: int, view: FranksZooView, words: np.ndarray, rng) -> np.ndarray:
        """`decide` on the legal actions as bit rows, compiled: the same actions."""
        from simulator.franks_zoo import kernels

        if kind == EXCHANGE:  # a few decisions a hand: as `decide`
            return self.decide(kind, view, bitrows.unpack(words, C.N_KINDS), rng)
        if kind == PLAY:
            ar = np.arange(len(view))
            return kernels.greedy_play(
                words,
                view.table,
                view.partner[ar, view.seat],
                view.table_player,
                _SET_SCORES,
                _FOLLOW[ASK:],
                C.N_SETS,
                self.ask,
            )
        if not self.answer:
            return np.zeros(len(view), np.intp)  # decline
        return kernels.best_bits(words, _ANSWER)


# --- the heuristic's tables, built once -------------------------------------------------------------------
# What a kind is worth keeping: how many kinds it beats plus how few beat it (whale 8 ... mouse 0).
VALUE = (STRENGTH + 4 - np.append(C.PREDATOR.sum(axis=0), 4)).astype(np.int16)
VALUE[C.CHAMELEON] = 0
_K, _R, _CH, _MQ = (C.SETS[:, i].astype(np.intp) for i in range(4))
_SZ = C.SET_SIZE.astype(np.int16)
_PK, _PR, _PCH, _PMQ = (C.PARTIALS[:, i].astype(np.intp) for i in range(4))
_PSZ = C.PARTIALS[:, 1:].sum(axis=1).astype(np.int16)
# An answer adds these cards to the laid partial p to make set s: [p, s]
_ADD_REAL = np.maximum(C.SETS[None, :, 1] - C.PARTIALS[:, None, 1], 0).astype(np.int16)
_ADD_CH = np.maximum(C.SETS[None, :, 2] - C.PARTIALS[:, None, 2], 0).astype(np.int16)
_ADD_MQ = np.maximum(C.SETS[None, :, 3] - C.PARTIALS[:, None, 3], 0).astype(np.int16)
_ADD_SZ = _ADD_REAL + _ADD_CH + _ADD_MQ
_DECK = C.DECK.astype(np.int16)
# _PREDATORS[b]: the kinds that beat kind b, padded with 12 (a column of -1: none)
_PREDATORS = np.array(
    [list(np.flatnonzero(C.PREDATOR[:, b])) + [12] * (6 - C.PREDATOR[:, b].sum()) for b in range(12)],
    dtype=np.intp,
)
_OUT, _STRAND = 12000, 12000  # going out beats everything; being left with the lone chameleon is the worst
_CHAM, _MOSQ, _EL, _LION, _HEDGEHOG = C.CHAMELEON, C.MOSQUITO, C.ELEPHANT, C.LION, C.HEDGEHOG


def _need(hand: np.ndarray, played: np.ndarray) -> np.ndarray:
    """(m, 12): per kind, the fewest cards of it that nothing unseen (not in my hand, not played) can beat.
    Another player could lay `avail` cards of a kind (the chameleon and, for elephants, a mosquito included);
    n cards are safe when nobody can lay n + 1 of the kind nor n of a kind that beats it."""
    unseen = _DECK - played.astype(np.int16) - hand
    avail = unseen[:, :12] + unseen[:, _CHAM, None]
    avail[:, _EL] += np.minimum(unseen[:, _MOSQ], 1) * (unseen[:, _EL] > 0)
    padded = np.concatenate([avail, np.full((len(avail), 1), -1, np.int16)], axis=1)
    predmax = padded[:, _PREDATORS].max(axis=2)
    return np.minimum(np.maximum(avail, predmax + 1), 8).astype(np.int32)


@dataclass(frozen=True)
class Heuristic(Strategy):
    """A player who counts the cards and plans to go out.

    Exchange: gives away his short, weak kinds (singletons first), keeps the chameleon, the elephants and a
    mosquito that joins them, sheds a mosquito without elephants; a junior gives his senior weak singletons
    (`junior_gives`); playing solo he sets lions aside when they make `lion_min` (`solo_lions`) and, by
    `hedgehog_penalty`, never a hedgehog (captured) or one hedgehog (missing), since set-aside cards count as
    taken. Lead: his weakest kind, as a whole group; once at most `cash_groups` of his groups could still be
    beaten by the cards not seen (his hand and `played` counted), he cashes his sure winners first, keeping
    the lead, and goes out with the last group. Follow: beats an opponent when he can (`play_base`),
    preferring a set nothing unseen can beat (`sure`), whole groups over split ones (`whole`, `split`) and
    weak kinds over strong ones (`keep`); he keeps the chameleon for the end (`chameleon`) and never plays so
    that the chameleon, which cannot be played alone, is his last card; he does not beat his partner's set
    (`partner_cost`) unless that takes him out. Help: a junior asks when laying cards scores better than his
    best play or a pass (`ask_base`), laying whole groups; counting (`count`), only when cards he has not
    seen could complete them (no more than his senior holds), a request worth its score times the chance
    that the senior holds those cards against a play (a declined request is a pass); a senior answers
    (`answer_base`) unless the completion splits his groups, spends the chameleon or strong cards; he always
    answers when it takes either of them out. All weights are points of one score per action; a pass (or a
    decline) scores 0; going out scores above everything, stranding the chameleon below everything."""

    name = "heuristic"
    examples = ("junior_gives=strong,solo_lions=false,cash_groups=2", "ask=false,answer=false", "count=false")
    summary = (
        "counts the cards; leads its weakest whole group, cashes sure winners to go out, beats with whole "
        "groups and keeps strong cards, never beats its partner except to go out, never strands the "
        "chameleon; asks when unseen cards could complete the set and the odds pay, answers when it is "
        "cheap; keeps elephants and the chameleon in the exchange"
    )
    ask: bool = option(
        True,
        "ask the senior for help when that beats passing; never ask for help when false",
        rules_need=needs(help=True),
        match_only=True,
    )
    answer: bool = option(
        True,
        "answer the junior's request when it pays; never answer a request (always decline) when false",
        rules_need=needs(help=True),
        match_only=True,
    )
    count: bool = option(
        True,
        "ask only when cards not seen (neither in hand nor played) could complete the set, no more than "
        "the senior holds, a request worth its score times the chance he holds them; false asks by the laid "
        "cards alone, as before counting",
        read_if=needs(ask=True),
        rules_need=needs(help=True),
        match_only=True,
    )
    play_base: int = option(
        100,
        "the worth of beating the set on the table at all (a pass is 0): higher beats more often",
        lo=-1000,
        hi=1000,
    )
    keep: int = option(
        2,
        "cost per card of spending a strong kind on a follow or an answer, times its value "
        "(whale 8, elephant 7 ... mouse 0)",
        lo=0,
        hi=200,
    )
    whole: int = option(10, "bonus for playing (or completing with) a whole group of a kind", lo=0, hi=1000)
    split: int = option(10, "cost of splitting a group (leaving cards of the kind in hand)", lo=0, hi=1000)
    chameleon: int = option(50, "cost of spending the chameleon other than to go out", lo=0, hi=5000)
    sure: int = option(
        100, "bonus for a follow that nothing unseen can beat (it wins the lead)", lo=-1000, hi=1000
    )
    lead_weak: int = option(
        12, "on a lead, cost per point of the kind's value: lead weak kinds first", lo=0, hi=500
    )
    lead_long: int = option(10, "on a lead, bonus per card of the set: long groups first", lo=-500, hi=500)
    cash: int = option(
        400,
        "on a lead with at most one group left that could be beaten, bonus for a sure "
        "winner (cash it, keep the lead, go out with the last group)",
        lo=0,
        hi=5000,
    )
    ask_base: int = option(
        40,
        "the worth of asking for help (a pass is 0); laid cards score like a follow",
        lo=-1000,
        hi=1000,
        read_if=needs(ask=True),
        rules_need=needs(help=True),
        match_only=True,
    )
    answer_base: int = option(
        60,
        "the worth of answering a request (a decline is 0); the cards added score like a follow",
        lo=-1000,
        hi=1000,
        read_if=needs(answer=True),
        rules_need=needs(help=True),
        match_only=True,
    )
    partner_cost: int = option(
        1000, "cost of beating the partner's set (going out always pays)", lo=0, hi=5000
    )
    cash_groups: int = option(
        1, "cash sure winners on a lead when at most this many groups could be beaten", lo=0, hi=12
    )
    junior_gives: str = option(
        "weak",
        "what a junior gives his senior among his shortest kinds: weak or strong cards first",
        choices=("weak", "strong"),
        match_only=True,
    )
    solo_lions: bool = option(
        True, "playing solo, set lions aside when they make lion_min (they count as taken)", match_only=True
    )

    # --- exchange --------------------------------------------------------------------------------------
    def _exchange(self, view: FranksZooView, legal: np.ndarray) -> np.ndarray:
        rules = view.rules
        ar = np.arange(len(view))
        h = view.hand.astype(np.int16)
        role = view.role[ar, view.seat.astype(np.intp)]
        value = np.broadcast_to(VALUE, h.shape)
        junior_strong = (role == JUNIOR) & (self.junior_gives == "strong")
        score = -100 * h + np.where(junior_strong[:, None], value, -value) * 5
        score[:, _CHAM] -= 5000
        score[:, _EL] -= 3000
        # a mosquito joins an elephant set: keep one while holding elephants; without them it is dead weight
        has_el = h[:, _EL] > 0
        score[:, _MOSQ] += np.where(has_el & (h[:, _MOSQ] == 1), -2500, 150)
        solo = role == SOLO
        if solo.any():
            given = view.given.astype(np.int16)
            x = getattr(rules, "exchange_cards", 2)
            lion_min = getattr(rules, "lion_min", 2)
            if self.solo_lions:
                lions = h[:, _LION] + given[:, _LION]
                # set lions aside when those still to set aside can bring them to lion_min
                reach = (given[:, _LION] + np.minimum(h[:, _LION], x - given.sum(axis=1))) >= lion_min
                score[:, _LION] += np.where(solo & reach & (lions >= lion_min), 4000, 0)
            if getattr(rules, "hedgehog_penalty", "captured") == "captured":
                score[:, _HEDGEHOG] -= np.where(solo, 4000, 0).astype(np.int16)
            else:
                score[:, _HEDGEHOG] += np.where(solo & (given[:, _HEDGEHOG] == 0), 4000, 0).astype(np.int16)
        return best_legal(score.astype(np.int16), legal)

    # --- play ------------------------------------------------------------------------------------------
    def _play(self, view: FranksZooView, legal: np.ndarray) -> np.ndarray:
        m = len(view)
        ar = np.arange(m)
        seat = view.seat.astype(np.intp)
        h = view.hand.astype(np.int16)
        held = view.counts[ar, seat].astype(np.int16)
        leading = view.table < 0
        partner = view.partner[ar, seat]
        partners_set = ~leading & (partner >= 0) & (view.table_player == partner)
        need = _need(h, view.played)
        # the mode of each row: follow 0, lead 1, lead in the endgame 2 (at most one group could be beaten),
        # partner's set on the table 3
        kinds = h[:, :12]
        present = kinds > 0
        groups = present.sum(axis=1) - ((h[:, _EL] > 0) & (h[:, _MOSQ] == 1))
        endgame = groups - (present & (kinds >= need)).sum(axis=1) <= self.cash_groups
        mode = np.where(leading, 1 + endgame, 3 * partners_set).astype(np.int32)
        # per row and kind, the table's row: mode, cards held of the kind, the fewest that are sure; each
        # kind's sets take their scores from it in one gather
        code = (mode * 54)[:, None] + kinds.astype(np.intp) * 9 + need
        legal_sets = legal[:, 1:ASK]
        rows = np.flatnonzero(legal_sets.any(axis=1))  # a lead always has a set; many follows have none
        code, legal_sets = code[rows], legal_sets[rows]
        sets = np.empty((len(rows), C.N_SETS), np.int16)
        for k, (cols, block) in enumerate(zip(_KIND_COLS, _play_tables(self))):
            sets[:, cols] = block.take(code[:, k], axis=0)
        _finish(sets, h[rows], held[rows], _SZ, _CH)
        best = best_legal(sets, legal_sets)
        best_score = np.full(m, -32000, np.int16)
        best_score[rows] = sets[np.arange(len(rows)), best]
        choice = np.zeros(m, np.intp)
        choice[rows] = np.where(leading[rows] | (best_score[rows] > 0), 1 + best, 0)
        if self.ask:
            rows = np.flatnonzero(legal[:, ASK:].any(axis=1) & ~partners_set)
            if self.count and len(rows):
                return self._ask_counting(view, legal, rows, choice, best_score, h, held)
            if len(rows):
                ask = _ask_table(self).ravel()[_PART_BASE + h[rows][:, _PK]]
                _finish(ask, h[rows], held[rows], _PSZ, _PCH)
                ask_best = best_legal(ask, legal[rows, ASK:])
                better = ask[np.arange(len(rows)), ask_best] > np.maximum(best_score[rows], 0)
                choice[rows[better]] = ASK + ask_best[better]
        return choice

    def _ask_counting(
        self,
        view: FranksZooView,
        legal: np.ndarray,
        rows: np.ndarray,
        choice: np.ndarray,
        best_score: np.ndarray,
        h: np.ndarray,
        held: np.ndarray,
    ) -> np.ndarray:
        """`choice` with requests made by counting (`count`): only requests the cards not seen could complete
        (`requests.completable`, no more cards than the senior holds); each worth its score times the odds
        that the senior holds the cards (`requests.odds`, in thousandths, rounded down). The likeliest worth
        is laid when it beats the best set, or, with no set worth playing, when its score beats a pass: a
        declined request is a pass."""
        ar = np.arange(len(view))[rows]
        senior_held = view.counts[ar, np.maximum(view.partner[ar, view.seat[rows]], 0)]
        r = np.repeat(np.arange(len(rows)), C.N_PARTIALS)
        p = np.tile(np.arange(C.N_PARTIALS), len(rows))
        table = np.maximum(view.table[rows], 0)[r]  # a request is made only on a set
        hand, played, senior = view.hand[rows][r], view.played[rows][r], senior_held[r]
        asks = legal[rows, ASK:] & completable(hand, played, table, p, senior).reshape(len(rows), -1)
        chance = odds(hand, played, table, p, senior).reshape(len(rows), -1)
        keep = asks.any(axis=1)
        rows, asks, chance = rows[keep], asks[keep], chance[keep]
        if not len(rows):
            return choice
        ask = _ask_table(self).ravel()[_PART_BASE + h[rows][:, _PK]]
        _finish(ask, h[rows], held[rows], _PSZ, _PCH)
        worth = np.where(asks, ask.astype(np.int64) * chance // 1000, np.iinfo(np.int64).min)
        ask_best = worth.argmax(axis=1)  # the first of the best
        at = np.arange(len(rows))
        best = best_score[rows]
        better = np.where(best > 0, worth[at, ask_best] > best, ask[at, ask_best] > 0)
        choice[rows[better]] = ASK + ask_best[better]
        return choice

    def _answer(self, view: FranksZooView, legal: np.ndarray) -> np.ndarray:
        if not self.answer:
            return np.zeros(len(view), np.intp)
        m = len(view)
        ar = np.arange(m)
        seat = view.seat.astype(np.intp)
        h = view.hand.astype(np.int16)
        held = h.sum(axis=1, dtype=np.int16)
        p = view.asked.astype(np.intp)
        add_real, add_ch, add_mq = _ADD_REAL[p], _ADD_CH[p], _ADD_MQ[p]
        rem = h[:, _K] - add_real
        left = held[:, None] - _ADD_SZ[p]
        out = left == 0
        strand = (left > 0) & (left == h[:, _CHAM, None] - add_ch)
        junior = np.maximum(view.partner[ar, seat], 0)
        junior_out = (view.counts[ar, junior] == _PSZ[p])[:, None]
        score = np.zeros(legal.shape, np.int16)
        score[:, 1:] = (
            self.answer_base
            + self.whole * ((rem == 0) & (add_real > 0))
            - self.split * ((rem > 0) & (add_real > 0))
            - self.chameleon * (add_ch * ~out)
            + 20 * add_mq
            - self.keep * VALUE[_K] * add_real
            + _OUT * out
            - _STRAND * strand
            + (_OUT // 2) * junior_out
        )
        return best_legal(score, legal)

    def decide_packed(self, kind: int, view: FranksZooView, words: np.ndarray, rng) -> np.ndarray:
        """`decide` on the legal actions as bit rows: plays and answers compiled (`_play` and `_answer` row
        by row), the same actions."""
        if kind == EXCHANGE:  # a few decisions a hand: as `decide`
            return self.decide(kind, view, bitrows.unpack(words, N_ACTIONS[kind]), rng)
        from simulator.franks_zoo import kernels

        ar = np.arange(len(view))
        seat = view.seat.astype(np.intp)
        if kind != PLAY:
            if not self.answer:
                return np.zeros(len(view), np.intp)
            junior = np.maximum(view.partner[ar, seat], 0)
            return kernels.heuristic_answer(
                words,
                view.hand,
                view.asked,
                view.counts[ar, junior],
                _K,
                _ADD_REAL,
                _ADD_CH,
                _ADD_MQ,
                _PSZ,
                VALUE,
                np.array(
                    [self.answer_base, self.whole, self.split, self.chameleon, self.keep, _OUT, _STRAND]
                ),
            )
        return kernels.heuristic_play(
            words,
            view.hand,
            view.counts[ar, seat],
            view.played,
            view.table,
            view.partner[ar, seat],
            view.table_player,
            _DECK,
            _PREDATORS,
            _set_table(self),
            _K,
            _SZ,
            _CH,
            _ask_table(self),
            _PK,
            _PSZ,
            _PCH,
            self.cash_groups,
            self.ask,
            _OUT,
            _STRAND,
            self.ask and self.count,
            view.counts[ar, np.maximum(view.partner[ar, seat], 0)],
            COMPLETIONS,
            _ADD_REAL,
            _ADD_CH,
            _ADD_MQ,
            odds_table(),
        )

    def decide(self, kind, view: FranksZooView, legal, rng):
        if kind == EXCHANGE:
            return self._exchange(view, legal)
        if kind == PLAY:
            return self._play(view, legal)
        return self._answer(view, legal)


_KIND_COLS = [slice(int(np.flatnonzero(k == _K)[0]), int(np.flatnonzero(k == _K)[-1]) + 1) for k in range(12)]
_PART_BASE = (np.arange(C.N_PARTIALS) * 6)[None, :]


def _finish(score: np.ndarray, h: np.ndarray, held: np.ndarray, size: np.ndarray, cham: np.ndarray) -> None:
    """In place, on the few rows near their end: a set that empties the hand scores _OUT; one that leaves only
    the chameleon (which cannot be played alone) scores -_STRAND."""
    kinds = (h[:, :12] > 0).sum(axis=1) - ((h[:, _EL] > 0) & (h[:, _MOSQ] == 1))
    rows = np.flatnonzero((held <= 7) & ((kinds <= 1) | (h[:, _CHAM] > 0)))
    if len(rows):
        left = held[rows, None] - size
        strand = (left == 1) & (h[rows, _CHAM, None] - cham == 1)
        sub = score[rows]
        sub = np.where(left == 0, _OUT, np.where(strand, -_STRAND, sub))
        score[rows] = sub


@cache
def _play_tables(s: Heuristic) -> list[np.ndarray]:
    """Per kind, [mode, cards held of the kind (0..5), the fewest of the kind nothing unseen beats (0..8)] ->
    the scores of that kind's sets (its block of columns of cards.SETS); modes follow, lead, lead in the
    endgame, partner's set on the table."""
    k, r, c, q = (C.SETS[:, i].astype(np.int32) for i in range(4))
    size = C.SET_SIZE.astype(np.int32)
    hk = np.arange(6)[None, :, None]
    k, r, c, q, size = (a[:, None, None] for a in (k, r, c, q, size))
    sure = (size >= np.arange(9)[None, None, :]).astype(np.int32)
    v = VALUE[k].astype(np.int32)
    common = s.whole * (hk == r) - s.split * (hk > r) - s.chameleon * c + 20 * q + 0 * sure
    follow = common + s.play_base - s.keep * v * r + s.sure * sure
    lead = common - s.lead_weak * v + s.lead_long * size
    cash = lead + s.cash * (sure * (hk == r))
    partner = follow - s.partner_cost
    out = np.clip(np.stack([follow, lead, cash, partner]), -20000, 20000).astype(np.int16)  # (4, 128, 6, 9)
    return [
        np.ascontiguousarray(out[:, cols].transpose(0, 2, 3, 1).reshape(4 * 54, -1)) for cols in _KIND_COLS
    ]


@cache
def _set_table(s: Heuristic) -> np.ndarray:
    """[code, set] -> the set's score, code as in `_play_tables` (mode, cards held of the set's kind, the
    fewest of it nothing unseen beats): the kinds' blocks side by side."""
    out = np.empty((4 * 54, C.N_SETS), np.int16)
    for cols, block in zip(_KIND_COLS, _play_tables(s)):
        out[:, cols] = block
    return out


@cache
def _ask_table(s: Heuristic) -> np.ndarray:
    """[partial, cards held of its kind (0..5)] -> the score of laying it to ask for help."""
    k, r, c, q = (C.PARTIALS[:, i].astype(np.int32)[:, None] for i in range(4))
    hk = np.arange(6)[None, :]
    out = s.ask_base + s.whole * (hk == r) - s.split * (hk > r) * (r > 0) - s.chameleon * c + 20 * q + 0 * k
    return np.clip(out, -20000, 20000).astype(np.int16)


class ZooRandom(Random):
    """Random play with the uniform draw compiled (the same numbers from the generator, the same actions)."""

    def decide_packed(self, kind: int, view: Any, words: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        from simulator.franks_zoo import kernels

        return kernels.uniform_bits(words, rng.random(len(words)))


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (ZooRandom, Greedy, Heuristic)}
