"""Forty-two learned strategy: a bid estimate and a play policy fitted on solved and played-out hands.

The model is a small npz file shipped in the package (`MODEL_PATH`); `strategies.fortytwo_learned_fit` makes
it again from hands dealsim deals and the double-dummy solver values (`benchmarks/train_learned.py`).
A bid estimate and a play score are each a sum of table gathers (the play's compiled, numba).

Bidding. For each declaration the hand may name (pips, and doubles and no-trump where `declarations` allows
them), `bid_features` describes the hand with that declaration; a least-squares fit of the points the
declaring side took (the seat declaring and leading, the other three hands dealt at random, all four playing
this strategy's play policy) gives the points expected, `mu`, with the fit's residual spread `sigma`. The
chance to take at least b points is read as Normal((mu + 0.5 - b) / sigma); the worth the heuristic's ladder
bids on (`strategies.fortytwo.Heuristic`: min_bid, jump bids, marks, the auction form, the stuck dealer, the
partner and overcall margins, 42 with a hand sure of every trick) is the highest b whose chance is at least
`make_chance`. The count values are the rules' (the features count points held; the fit is on the seed's
count, whose total the Texas count shares). Plunge, splash and nello are bid as the heuristic bids them
(counting doubles, risky dominoes) when the rules switch them on; sevens is never named.

Naming. The declaration with the highest `mu` among the legal ones; after a plunge or splash, and for nello,
as the heuristic names.

Play. Every legal domino gets a score, the sum of one weight from each table of `PLAY_TABLES`, indexed by a
few small facts of the seat's view and the domino (where the seat sits in the trick, whether its side
declares, whether its partner is winning and safely, whether the partner still plays after it and can beat
the winning domino, whether the domino takes the trick now and whether an opponent still to play can hold
one that beats it, its count, whether it is a trump, its rank, trumps an opponent can still hold and
trumps held, whether an opponent and whether the partner can still hold a trump, the count an opponent can
still hold, count in the trick, the trick's number, the state of the contract, how many of the led suit an
opponent can still hold, whether the partner or an opponent has shown out of the led suit and can trump
it); what a seat can hold is what is unseen less the suits it showed out of. The highest score is played,
the lowest domino on ties. `play_rows` and `choose_plays` work the facts out and sum the weights in
compiled passes over the rows (`strategies.fortytwo_learned_kernels`); `play_index` is the same index in
numpy, for the training. The weights are a least-squares fit of each legal play's double-dummy value on
the actual deal (the points the mover's side ends with after that play, with perfect play by all four from
there; trained with `--aim score`, the hand's score difference under points scoring), centred within each
decision, so only the differences between one decision's plays are fitted. Nello and sevens are played as
the heuristic plays them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np

from simulator import bitrows
from simulator.errors import DealsimError
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    DOUBLES,
    N_ACTIONS,
    NELLO,
    NO_TRUMP,
    PLAY,
    SEVENS,
    FortyTwoView,
)
from simulator.options import needs, option
from strategies.fortytwo import _TRUMP_ORDER, FortyTwoStrategy, Heuristic, WithWorth, sure_every_trick

MODEL_PATH = Path(__file__).parent / "data" / "fortytwo_learned.npz"
_DEFAULT_RULES = FortyTwoRules()

# ----------------------------------------------------------------------------------------------- bidding

BID_FEATURES = (
    "pip declaration (1/0)",
    "doubles declaration (1/0)",
    "no-trump declaration (1/0)",
    "trumps held",
    "trumps held, squared",
    "unbroken run of top trumps held",
    "doubles held outside trumps",
    "off-suit sure tricks: non-trumps no other non-trump beats",
    "count points held in dominoes that are neither trumps nor sure tricks",
    "count points held in trumps",
    "count points held in off-suit sure tricks",
)
# [c, d]: the non-trumps that beat non-trump d led in context c (0 for trumps): with none outside the hand,
# d is a sure trick once the trumps are drawn
_BEATS_OFF_LEAD = np.where(D.IS_TRUMP, 0, D.BEATS_LEAD & ~D.TRUMP_BITS[:, None]).astype(np.uint32)
# the context of each declaration that bid features describe (no-trump: doubles high)
_DECLARATION_CTX = np.array([*range(7), D.DOUBLES_TRUMP, D.NO_TRUMP_HIGH], np.intp)


# The bid features are read from tables over suit patterns: the seven dominoes of each pip (row 7: the seven
# doubles) held, as 7 bits. Every feature of a declaration is a sum over such patterns: its trump suit's, and
# for the sure tricks each suit's (a non-trump belongs to the suit of its higher end, and what beats it in
# that suit carries that end: the suit's pattern decides whether it is a sure trick).
_SUITS = np.array(
    [sorted(d for d in range(D.N_DOMINOES) if p in (D.HIGH[d], D.LOW[d])) for p in range(7)]
    + [[d for d in range(D.N_DOMINOES) if D.IS_DOUBLE[d]]],
    np.intp,
)
_PATTERNS = np.arange(128)


def _chunk_table() -> np.ndarray:
    """[s, c, v]: the bits of suit s's pattern set by the dominoes 7c..7c+6 held as the 7-bit value v."""
    out = np.zeros((8, 4, 128), np.intp)
    for s_ in range(8):
        for j, d in enumerate(_SUITS[s_]):
            c, b = divmod(int(d), 7)
            out[s_, c] |= ((_PATTERNS >> b) & 1) << j
    return out


_CHUNKS = _chunk_table()


@cache
def _bid_tables(count_values: str) -> dict[str, np.ndarray]:
    """Per declaration k (9) and pattern (128): `trumps`, `run`, `count_trumps`, `off_doubles` (of its trump
    suit's pattern; the doubles' pattern for off_doubles), and per suit h (7): `sure`, `count_sure`
    (k, h, pattern) and `count_all` (h, pattern: the count of the held dominoes whose higher end is h)."""
    count = D.COUNT_POINTS[count_values].astype(np.float64)
    k_n = len(_DECLARATION_CTX)
    held = (_PATTERNS[:, None] >> np.arange(7)) & 1  # (128, 7)
    t = {name: np.zeros((k_n, 128)) for name in ("trumps", "run", "count_trumps", "off_doubles")}
    sure, count_sure = np.zeros((k_n, 7, 128)), np.zeros((k_n, 7, 128))
    count_all = np.zeros((7, 128))
    for h in range(7):
        mine = D.HIGH[_SUITS[h]] == h
        count_all[h] = (held * (count[_SUITS[h]] * mine)).sum(axis=1)
    for k, c in enumerate(_DECLARATION_CTX):
        doubles_trump = D.IS_TRUMP[c, _SUITS[7]]
        t["off_doubles"][k] = (held * ~doubles_trump).sum(axis=1)
        if c < 7 or c == D.DOUBLES_TRUMP:
            suit = _SUITS[c if c < 7 else 7]
            t["trumps"][k] = held.sum(axis=1)
            t["count_trumps"][k] = (held * count[suit]).sum(axis=1)
            rank = [list(suit).index(d) for d in _TRUMP_ORDER[c] if D.IS_TRUMP[c, d]]  # top first
            t["run"][k] = np.cumprod(held[:, rank], axis=1).sum(axis=1)
        for h in range(7):
            for j, d in enumerate(_SUITS[h]):
                if D.IS_TRUMP[c, d] or D.HIGH[d] != h:
                    continue
                beaters = int(_BEATS_OFF_LEAD[c, d])
                assert beaters & ~int(D.PIP_BITS[h]) == 0  # decided by the suit's pattern
                inside = [i for i, e in enumerate(_SUITS[h]) if beaters >> int(e) & 1]
                walks = held[:, j] * (held[:, inside].sum(axis=1) == len(inside))
                sure[k, h] += walks
                count_sure[k, h] += walks * count[d]
    return {**t, "sure": sure, "count_sure": count_sure, "count_all": count_all}


# the pattern row each declaration's trumps are read from: its pip, the doubles, none (no-trump: row 8, 0)
_TRUMP_ROW = np.array([*range(7), 7, 8], np.intp)


def _bid_terms(hand: np.ndarray, count_values: str):
    """Yields (feature number, (9, m) values): the features of `BID_FEATURES` of each hand (m,) uint32 with
    each declaration of `_DECLARATION_CTX` (the pips, doubles trump, no-trump) under `count_values`."""
    t = _bid_tables(count_values)
    m = len(hand)
    h = hand.astype(np.intp)
    chunks = [(h >> (7 * c)) & 127 for c in range(4)]
    pattern = np.zeros((9, m), np.intp)  # row 8: nothing (no-trump's trumps)
    for s_ in range(8):
        pattern[s_] = _CHUNKS[s_, 0][chunks[0]] | _CHUNKS[s_, 1][chunks[1]]
        pattern[s_] |= _CHUNKS[s_, 2][chunks[2]] | _CHUNKS[s_, 3][chunks[3]]
    k = np.arange(len(_DECLARATION_CTX))[:, None]
    trump_pattern = pattern[_TRUMP_ROW]
    kind = np.zeros((3, len(_DECLARATION_CTX), 1))
    kind[0, :7], kind[1, 7], kind[2, 8] = 1, 1, 1
    for i in range(3):
        yield i, kind[i]
    trumps = t["trumps"][k, trump_pattern]
    yield 3, trumps
    yield 4, trumps**2
    yield 5, t["run"][k, trump_pattern]
    yield 6, t["off_doubles"][k, pattern[7][None, :]]
    sure, count_sure, count_all = np.zeros((9, m)), np.zeros((9, m)), np.zeros(m)
    for s_ in range(7):
        sure += t["sure"][:, s_, pattern[s_]]
        count_sure += t["count_sure"][:, s_, pattern[s_]]
        count_all += t["count_all"][s_, pattern[s_]]
    count_trumps = t["count_trumps"][k, trump_pattern]
    yield 7, sure
    yield 8, count_all[None, :] - count_trumps - count_sure
    yield 9, count_trumps
    yield 10, count_sure


def bid_features(hand: np.ndarray, count_values: str) -> np.ndarray:
    """(m, 9, len(BID_FEATURES)) float64: `BID_FEATURES` of each hand (m,) uint32 with each declaration of
    `_DECLARATION_CTX` (the pips, doubles trump, no-trump) under `count_values` (rules.count_values)."""
    out = np.zeros((len(_DECLARATION_CTX), len(hand), len(BID_FEATURES)))
    for k, values in _bid_terms(hand, count_values):
        out[..., k] += values
    return out.transpose(1, 0, 2)


def bid_points(hand: np.ndarray, count_values: str, weights: np.ndarray) -> np.ndarray:
    """(m, 9): bid_features(hand, count_values) @ weights, summed feature by feature."""
    out = np.zeros((len(_DECLARATION_CTX), len(hand)))
    for k, values in _bid_terms(hand, count_values):
        out += weights[k] * values
    return out.T


# ----------------------------------------------------------------------------------------------- play

# The play tables: name, then the size of each index it is read by, in order (the flat index runs over them
# row-major). `situation` is 16 cells: where the seat sits in the trick (0 leads .. 3 plays last) x 4, plus
# 2 if its side declares, plus 1 if its partner is winning the trick. What an opponent "can hold": any
# unseen domino of a suit he has not shown out of. `safe`: the domino takes the trick now and no opponent
# still to play in the trick can hold one that beats it.
PLAY_TABLES = (
    ("situation x takes the trick now x safe x count class x trump", (16, 2, 2, 4, 2)),
    ("situation x trump x rank in the trick (key + 1)", (16, 2, 17)),
    ("situation x trumps an opponent can hold (0..3+) x trump x takes the trick now", (16, 4, 2, 2)),
    ("situation x count in the trick (0-1, 2-8, 9+) x takes it now x safe", (16, 3, 2, 2)),
    (
        "leading: side declares x dominoes of its suit an opponent can hold (0..3+) x trump x count class; "
        "following: one cell",
        (65,),
    ),
    ("situation x double x count class", (16, 2, 4)),
    ("trick number x side declares x takes the trick now x count class", (7, 2, 2, 4)),
    (
        "leading: side declares x own trumps (0..5+) x trumps an opponent can hold (0..4+) x trump x safe; "
        "following: one cell",
        (241,),
    ),
    ("situation x the partner's winning domino is safe x takes the trick now x count class", (16, 2, 2, 4)),
    (
        "situation x contract state (42 or more bid; decided; the declarers can spare 0-7, 8-15, 16+ "
        "points) x takes the trick now x safe x count class",
        (16, 5, 2, 2, 4),
    ),
    (
        "situation x an opponent can hold a trump x the partner can hold a trump x trump x safe x "
        "count class",
        (16, 2, 2, 2, 2, 4),
    ),
    (
        "leading: side declares x the partner has shown out of its suit and can hold a trump x an opponent "
        "has x trump x count class; following: one cell",
        (65,),
    ),
    (
        "situation x count an opponent can hold (0, 1-10, 11-20, 21+) x takes the trick now x safe x count "
        "class",
        (16, 4, 2, 2, 4),
    ),
    (
        "situation x the partner is still to play and can hold a domino that beats the winning one x takes "
        "the trick now x count class",
        (16, 2, 2, 4),
    ),
)
_SIZES = [int(np.prod(shape)) for _, shape in PLAY_TABLES]
_OFFSETS = np.cumsum([0, *_SIZES])[:-1].astype(np.int64)
N_PLAY_WEIGHTS = int(sum(_SIZES))
# count class of each domino's count value: 0 none, 1 five, 2 seven, 3 ten
_COUNT_CLASS = {k: np.searchsorted([0, 5, 7, 10], v).astype(np.int64) for k, v in D.COUNT_POINTS.items()}
_KEY_FLAT = D.KEY.reshape(-1).astype(np.int64)
_LEAD_KEY_FLAT = D.LEAD_KEY.reshape(-1).astype(np.int64)
_BEATS_FLAT = D.BEATS.reshape(-1)
_BEATS_LEAD_FLAT = D.BEATS_LEAD.reshape(-1)
_IS_TRUMP_FLAT = D.IS_TRUMP.reshape(-1).astype(np.int64)
_LEAD_SUIT_FLAT = D.LEAD_SUIT.reshape(-1).astype(np.int64)
_IS_DOUBLE = D.IS_DOUBLE.astype(np.int64)


@dataclass(frozen=True)
class PlayRows:
    """What a play's score needs of each row's view, worked out once per decision group: the facts a
    domino's table cells depend on, and each table's part of the flat index that depends on the row alone
    (`base`, with the table's offset)."""

    ctx: np.ndarray  # int64 play context
    # (4, m) uint32: the unseen dominoes an opponent still to play in the trick can hold; those an opponent
    # can hold; the suits the partner showed out of, if he can still hold a trump; the suits an opponent
    # showed out of while he can still hold a trump
    masks: np.ndarray
    leading: np.ndarray  # int64 1 while leading
    led8: np.ndarray  # int64 (ctx * 8 + led) * 28: where the led suit's keys start (0 while leading)
    wkey: np.ndarray  # int64 key of the winning domino, -1 while leading
    base: np.ndarray  # (len(PLAY_TABLES), m) int64
    count_class: np.ndarray  # (28,) int64


def play_rows(view: FortyTwoView) -> PlayRows:
    """The per-row facts of `PlayRows` from the seat's view (pip, doubles and no-trump contexts), worked out
    in one compiled pass over the rows (`fortytwo_learned_kernels.play_rows`)."""
    rules = view.rules if view.rules is not None else _DEFAULT_RULES
    count = D.COUNT_POINTS[rules.count_values].astype(np.int64)
    fields = (
        *(view.hand, view.played, view.plays, view.n_played, view.trick_start, view.ctx, view.seat),
        *(view.high_bidder, view.led, view.winner, view.winning, view.points, view.high_bid),
    )
    base, masks, led8, wkey = _kernels().play_rows(fields, count, _OFFSETS)
    return PlayRows(
        ctx=view.ctx.astype(np.int64),
        masks=masks,
        leading=(view.led < 0).astype(np.int64),
        led8=led8,
        wkey=wkey,
        base=base,
        count_class=_COUNT_CLASS[rules.count_values],
    )


def play_index(p: PlayRows, d: np.ndarray, rows: np.ndarray | None = None) -> list[np.ndarray]:
    """The flat weight index of each play table for domino d (one per row; `rows` picks the rows of `p` they
    belong to, None = all in order): the row's part (`PlayRows.base`) plus the domino's, the cells of
    `PLAY_TABLES` read in row-major order."""

    def at(a: np.ndarray) -> np.ndarray:
        return a if rows is None else a[..., rows]

    d = d.astype(np.int64)
    ctx, leading, base = at(p.ctx), at(p.leading), at(p.base)
    lead = leading.astype(bool)
    i = ctx * D.N_DOMINOES + d
    follow_at = at(p.led8) + d
    key = np.where(lead, _LEAD_KEY_FLAT[i], _KEY_FLAT[follow_at])
    wins = lead | (key > at(p.wkey))
    beat = np.where(lead, _BEATS_LEAD_FLAT[i], _BEATS_FLAT[follow_at])
    opp_after, opp_may, partner_ruffs, opp_ruffs = at(p.masks)
    safe = (wins & ((beat & opp_after) == 0)).astype(np.int64)
    wins = wins.astype(np.int64)
    cnt = p.count_class[d]
    trump = _IS_TRUMP_FLAT[i]
    follow = D.FOLLOW_FLAT[ctx * 8 + _LEAD_SUIT_FLAT[i]]
    suit_out = np.minimum(np.bitwise_count(follow & opp_may), 3).astype(np.int64)
    partner_ruffs = ((partner_ruffs & follow) != 0).astype(np.int64)
    opp_ruffs = ((opp_ruffs & follow) != 0).astype(np.int64)
    trump4_cnt = trump * 4 + cnt
    return [
        base[0] + wins * 16 + safe * 8 + cnt * 2 + trump,
        base[1] + trump * 17 + key,
        base[2] + trump * 2 + wins,
        base[3] + wins * 2 + safe,
        base[4] + leading * (suit_out * 8 + trump4_cnt),
        base[5] + _IS_DOUBLE[d] * 4 + cnt,
        base[6] + wins * 4 + cnt,
        base[7] + leading * (trump * 2 + safe),
        base[8] + wins * 4 + cnt,
        base[9] + wins * 8 + safe * 4 + cnt,
        base[10] + trump * 8 + safe * 4 + cnt,
        base[11] + leading * (partner_ruffs * 16 + opp_ruffs * 8 + trump4_cnt),
        base[12] + wins * 8 + safe * 4 + cnt,
        base[13] + wins * 4 + cnt,
    ]


@cache
def _kernels():
    """The compiled walk through the play record, loaded on the first play (numba loads only where
    Forty-two is played)."""
    from strategies import fortytwo_learned_kernels

    return fortytwo_learned_kernels


def choose_plays(view: FortyTwoView, legal: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(m,) the legal domino (legal: (m,) uint32 bitmasks) with the highest sum of play table weights, the
    lowest on ties (pip, doubles and no-trump contexts): the weights of `play_index`'s cells summed in one
    compiled pass over the rows (`fortytwo_learned_kernels.choose_plays`)."""
    p = play_rows(view)
    rows = (p.ctx, p.base, p.masks, p.led8, p.wkey)
    return _kernels().choose_plays(rows, legal.astype(np.uint32), weights, p.count_class)


# ----------------------------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Model:
    bid_weights: np.ndarray  # (len(BID_FEATURES),) float64
    bid_sigma: float
    play_weights: np.ndarray  # (N_PLAY_WEIGHTS,) float64
    metadata: dict[str, Any]


def save_model(path: Path, model: Model) -> None:
    """The model as an npz: the weights and the metadata as JSON text."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(
            f,
            bid_weights=model.bid_weights,
            bid_sigma=np.array(model.bid_sigma),
            play_weights=model.play_weights.astype(np.float32),
            metadata=np.array(json.dumps(model.metadata, sort_keys=True)),
        )


def load_model(path: Path | str = MODEL_PATH) -> Model:
    """The model of an npz written by `save_model`; its features must be this module's."""
    with np.load(path) as z:
        meta = json.loads(str(z["metadata"]))
        model = Model(
            bid_weights=z["bid_weights"].astype(np.float64),
            bid_sigma=float(z["bid_sigma"]),
            play_weights=z["play_weights"].astype(np.float64),
            metadata=meta,
        )
    if tuple(meta.get("bid_features", ())) != BID_FEATURES or len(model.play_weights) != N_PLAY_WEIGHTS:
        raise ValueError(f"{path}: the model's features are not this version's; retrain it")
    return model


@cache
def _model(path: str) -> Model:
    """The model of that npz ("" = the shipped one), loaded once per process."""
    try:
        return load_model(Path(path) if path else MODEL_PATH)
    except (OSError, ValueError, KeyError) as exc:
        raise DealsimError(f"learned parameter model: cannot load {path or MODEL_PATH}: {exc}") from exc


def _normal_quantile(p: float) -> float:
    """The standard normal quantile."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


# ----------------------------------------------------------------------------------------------- strategy


@dataclass(frozen=True)
class _Ladder(Heuristic):
    """The heuristic's ladder reading the worth `Learned.call` worked out (a `WithWorth` view)."""

    def expected_points(self, view):
        return view.worth, view.sure


@dataclass(frozen=True)
class Learned(FortyTwoStrategy):
    name = "learned"
    summary = (
        "bids on a fitted estimate of the points its hand takes with each declaration (up to the "
        "level it makes with chance make_chance, along the heuristic's ladder), names the declaration "
        "with the most, and plays the domino a fitted table model scores highest (trained on each "
        "legal play's double-dummy value)"
    )
    examples = ("make_chance=0.7,preempt=0.5",)
    # The ladder's defaults (make_chance, overcall_margin, preempt) were chosen by games to 250 against
    # the heuristic (seed rules; `dealsim compare --unit match --rotate`).
    make_chance: float = option(
        0.45,
        "bid up to the highest level the fitted estimate makes with at least this chance "
        "(higher = safer, lower bids)",
        lo=0.01,
        hi=0.99,
    )
    margin: float = option(
        0.0, "ladder: subtract this many points from the worth before bidding", lo=-42, hi=42
    )
    overcall_margin: float = option(
        0.0, "ladder: extra margin to overcall an opponent's bid (as the heuristic's)", lo=-42, hi=42
    )
    partner_gain: float = option(
        6.0,
        "ladder: outbid its partner only when the worth is this many points above the partner's bid",
        lo=0,
        hi=84,
    )
    preempt: float = option(
        0.0,
        "ladder: where it bids between the lowest legal bid (0) and its limit (1) while an opponent may "
        "still bid",
        lo=0,
        hi=1,
    )
    plunge_doubles: int = option(
        7,
        "bid a plunge holding at least this many doubles (as the heuristic)",
        lo=4,
        hi=8,
        rules_need=needs(plunge=True),
    )
    splash_doubles: int = option(
        6,
        "bid a splash holding at least this many doubles (as the heuristic)",
        lo=3,
        hi=8,
        rules_need=needs(splash=True),
    )
    nello_risk: int = option(
        0,
        "bid 42 and name nello holding at most this many risky dominoes (as the heuristic)",
        lo=0,
        hi=7,
        rules_need=needs(nello=True),
    )

    model: str = option(
        "",
        "the model: an npz written by benchmarks/train_learned.py (empty = the one shipped in the package)",
    )

    def __post_init__(self) -> None:
        if self.model:
            _model(self.model)  # a model that does not load is refused when the strategy is made

    def _heuristic(self) -> _Ladder:
        return _Ladder(
            margin=self.margin,
            overcall_margin=self.overcall_margin,
            partner_gain=self.partner_gain,
            preempt=self.preempt,
            plunge_doubles=self.plunge_doubles,
            splash_doubles=self.splash_doubles,
            nello_risk=self.nello_risk,
        )

    # bidding and naming

    def declaration_points(self, hand: np.ndarray, rules: FortyTwoRules) -> np.ndarray:
        """(m, 9) the fitted double-dummy points of the declaring side with each declaration (pips, doubles,
        no-trump), -inf where the rules do not allow it."""
        mu = bid_points(hand, rules.count_values, _model(self.model).bid_weights)
        if not rules.declares("doubles"):
            mu[:, DOUBLES] = -np.inf
        if not rules.declares("no-trump"):
            mu[:, NO_TRUMP] = -np.inf
        return mu

    def call(self, view, legal, rng):
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        # only rows with a bid open are valued: the others pass whatever their worth
        ask = np.flatnonzero(legal[:, 1:].any(axis=1))
        worth, sure = np.full(len(legal), -100.0), np.zeros(len(legal), bool)
        if len(ask):
            hand = view.hand[ask]
            mu = self.declaration_points(hand, rules)
            shift = 0.5 + _model(self.model).bid_sigma * _normal_quantile(1 - self.make_chance)
            worth[ask] = mu.max(axis=1) + shift
            sure[ask] = sure_every_trick(hand, np.argmax(mu[:, :7], axis=1))
        return self._heuristic().call(WithWorth(view, worth, sure), legal, rng)

    def trump(self, view, legal, rng):
        rules = view.rules if view.rules is not None else _DEFAULT_RULES
        mu = np.where(legal[:, :9], self.declaration_points(view.hand, rules), -np.inf)
        named = np.argmax(mu * 8 + np.arange(9), axis=1)
        if legal.shape[1] <= 7 or not legal[:, 7:].any():
            return named
        # after a plunge or splash, and for nello, as the heuristic names
        theirs = np.asarray(self._heuristic().trump(view, legal, rng), np.intp)
        special = (view.seat != view.high_bidder) | (theirs == NELLO)
        return np.where(special, theirs, named)

    # play

    packed_follows = ("decide", "play")

    def decide_packed(self, kind, view, words, rng):
        """Plays are decided on the hand's bits; calls and trumps on the mask."""
        if kind != PLAY:
            return self.decide(kind, view, bitrows.unpack(words, N_ACTIONS[kind]), rng)
        return self.play_bits(view, words[:, 0].astype(np.uint32), rng)

    def play(self, view, legal, rng):
        return self.play_bits(view, bitrows.pack(legal)[:, 0].astype(np.uint32), rng)

    def play_bits(self, view: FortyTwoView, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """(m,) the domino to play, the legal ones a bitmask (m,) uint32."""
        other = (view.trump == NELLO) | (view.trump == SEVENS)
        if other.any():
            out = np.empty(len(other), np.intp)
            out[other] = self._heuristic().play_bits(cast(FortyTwoView, view.take(other)), legal[other])
            if (~other).any():
                out[~other] = self.play_bits(cast(FortyTwoView, view.take(~other)), legal[~other], rng)
            return out
        return choose_plays(view, legal, _model(self.model).play_weights)


STRATEGIES = {Learned.name: Learned}
