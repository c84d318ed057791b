"""The batched Rounds core: one game (five stages, 25 tricks) per row, every step plays one card in
every unfinished game.

A game's randomness is drawn when the row is created (`new_games`): the deck order and the four
shuffles of stages 2..5. Dealing applies them exactly as the rules describe, so the scalar reference
engine, given the same deck and shuffles, must deal, play and score every game alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simulator import tricks
from simulator.batch import BatchState, Rows, take_rows
from simulator.rounds import cards as C
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, N_PLAYS, PLAY, RoundsView

SHUFFLE_SIZES = (34, 24, 14, 4)  # stock + the face-up card, before stages 2, 3, 4 and 5
STOCK_AFTER = (33, 23, 13, 3)  # stock left after the deal of stages 1..4
_SHUFFLE_AT = np.cumsum((0, *SHUFFLE_SIZES))


@dataclass
class GameState(BatchState):
    deal: np.ndarray  # int64 the game's number in its run
    first_dealer: np.ndarray  # int8 dealer of stage 1
    deck: np.ndarray  # (n, 52) int8 the deck as shuffled for stage 1, top first
    shuffles: np.ndarray  # (n, 76) int8 the permutations of stages 2..5 (34, 24, 14, 4 long) end to end
    stock: np.ndarray  # (n, 33) int8 the stock, top first; its length is STOCK_AFTER[stage]
    hands: np.ndarray  # (n, 2) uint64
    dealt: np.ndarray  # (n, 5, 2) uint64 each stage's hands right after its deal
    face_up: np.ndarray  # (n, 2) int8 the stage's face-up card(s), -1 for none
    faces: np.ndarray  # (n, 5, 2) int8 the face-up cards of every stage
    stage: np.ndarray  # int8 0..4 (5 when the game is over)
    trick: np.ndarray  # int8 trick of the stage 0..4
    dealer: np.ndarray  # int8 the stage's dealer
    ctx: np.ndarray  # int16 trump context of the current trick (cards.context)
    phase: np.ndarray  # int8 PLAY or DONE
    turn: np.ndarray  # int8 the player to play
    leader: np.ndarray  # int8
    led: np.ndarray  # int8 card led, -1 while leading
    plays: np.ndarray  # (n, 50) int8
    n_played: np.ndarray  # int8
    played: np.ndarray  # uint64
    trick_leaders: np.ndarray  # (n, 25) int8
    trick_winners: np.ndarray  # (n, 25) int8
    stage_tricks: np.ndarray  # (n, 2) int8 tricks taken in the current stage
    stage_points: np.ndarray  # (n, 2) int16 card points taken in the current stage
    first4: (
        np.ndarray
    )  # (n, 5) int16 card points of the player who took tricks 1-4 of a stage, -1 if none did
    fifth: np.ndarray  # (n, 5) int16 card points of each stage's fifth trick
    tricks: np.ndarray  # (n, 5, 2) int8 tricks taken per stage
    taken: np.ndarray  # (n, 5, 2) int16 card points taken per stage (before the sweep rule)
    stage_score: np.ndarray  # (n, 5, 2) int16 score per stage (after it)
    points: np.ndarray  # (n, 2) int16 score of the completed stages
    scores: np.ndarray  # (n, 2) int32 match totals before this game


@cache
def card_points(rules: RoundsRules) -> np.ndarray:
    """(52,) int16 the points of each card."""
    return rules.points_by_rank[C.RANK].astype(np.int16)


def draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The randomness of n games: deck orders (n, 52) and stage shuffles (n, 76), drawn as
    `rng.permuted(rows, axis=1)` draws them, row by row: every deck, then every shuffle of stage 2, and so on
    (compiled, `kernels.permute_rows`: the same draws from the same Generator)."""
    from simulator.rounds import kernels  # numba: loaded only where Rounds plays

    deck = np.empty((n, C.N_CARDS), np.int8)
    deck[:] = np.arange(C.N_CARDS, dtype=np.int8)
    kernels.permute_rows(rng, deck, 0, C.N_CARDS)
    shuffles = np.empty((n, _SHUFFLE_AT[-1]), np.int8)
    for k, size in enumerate(SHUFFLE_SIZES):
        shuffles[:, _SHUFFLE_AT[k] : _SHUFFLE_AT[k + 1]] = np.arange(size, dtype=np.int8)
    for k, size in enumerate(SHUFFLE_SIZES):
        kernels.permute_rows(rng, shuffles, int(_SHUFFLE_AT[k]), size)
    return deck, shuffles


def new_games(
    deal: np.ndarray,
    first_dealer: np.ndarray,
    deck: np.ndarray,
    shuffles: np.ndarray,
    rules: RoundsRules,
    scores: np.ndarray | None = None,
) -> GameState:
    """Games about to start: stage 1 dealt, the non-dealer to lead."""
    n = len(deal)

    def z(shape, dt, v=0):
        return np.full(shape, v, dtype=dt)

    s = GameState(
        deal=np.asarray(deal, np.int64),
        first_dealer=np.asarray(first_dealer, np.int8),
        deck=deck,
        shuffles=shuffles,
        stock=z((n, 33), np.int8, -1),
        hands=z((n, 2), np.uint64),
        dealt=z((n, 5, 2), np.uint64),
        face_up=z((n, 2), np.int8, -1),
        faces=z((n, 5, 2), np.int8, -1),
        stage=z(n, np.int8),
        trick=z(n, np.int8),
        dealer=z(n, np.int8),
        ctx=z(n, np.int16),
        phase=z(n, np.int8, PLAY),
        turn=z(n, np.int8),
        leader=z(n, np.int8),
        led=z(n, np.int8, -1),
        plays=z((n, N_PLAYS), np.int8, -1),
        n_played=z(n, np.int8),
        played=z(n, np.uint64),
        trick_leaders=z((n, 25), np.int8, -1),
        trick_winners=z((n, 25), np.int8, -1),
        stage_tricks=z((n, 2), np.int8),
        stage_points=z((n, 2), np.int16),
        first4=z((n, 5), np.int16, -1),
        fifth=z((n, 5), np.int16),
        tricks=z((n, 5, 2), np.int8),
        taken=z((n, 5, 2), np.int16),
        stage_score=z((n, 5, 2), np.int16),
        points=z((n, 2), np.int16),
        scores=np.zeros((n, 2), np.int32) if scores is None else np.asarray(scores, np.int32).copy(),
    )
    _deal_stage(s, slice(None), 0, rules)
    return s


def _deal_stage(s: GameState, rows: Rows, stage: int, rules: RoundsRules) -> None:
    """Deal `stage` (0-based) to `rows`, all at that stage: new hands, face-up card(s), the non-dealer
    leads."""
    if stage == 0:
        order = s.deck[rows]
        n_dealt, faces = 18, order[:, 18:19]
        s.stock[rows, :33] = order[:, 19:]
    else:
        # The stock with the face-up card at its end, shuffled: new pile[i] = pile[shuffle[i]].
        pile = np.concatenate([s.stock[rows, : STOCK_AFTER[stage - 1]], s.face_up[rows, :1]], axis=1)
        order = take_rows(pile, s.shuffles[rows, _SHUFFLE_AT[stage - 1] : _SHUFFLE_AT[stage]])
        n_dealt = 10 if stage < 4 else 2
        faces = order[:, n_dealt : n_dealt + (1 if stage < 4 else 2)]
        s.stock[rows] = -1
        if stage < 4:
            s.stock[rows, : STOCK_AFTER[stage]] = order[:, 11:]
    dealer = s.first_dealer[rows] if rules.dealer_rotation == "game" else s.first_dealer[rows] ^ (stage & 1)
    non_dealer = 1 - dealer
    # Cards go one at a time, the non-dealer first: even positions to the non-dealer, odd to the dealer.
    to_non_dealer = C.BIT[order[:, 0:n_dealt:2]].sum(axis=1, dtype=np.uint64)
    to_dealer = C.BIT[order[:, 1:n_dealt:2]].sum(axis=1, dtype=np.uint64)
    hands = s.hands[rows]
    dealer_1 = dealer.astype(bool)
    hands[:, 0] |= np.where(dealer_1, to_non_dealer, to_dealer)
    hands[:, 1] |= np.where(dealer_1, to_dealer, to_non_dealer)
    s.hands[rows] = hands
    s.dealt[rows, stage] = hands
    s.face_up[rows] = -1
    s.face_up[rows, : faces.shape[1]] = faces
    s.faces[rows, stage, : faces.shape[1]] = faces
    s.dealer[rows] = dealer
    s.turn[rows] = s.leader[rows] = non_dealer
    s.ctx[rows] = C.context(faces[:, 0], rules.rank_trumps)


_FOLLOW_CARD = C.FOLLOW_CARD.reshape(-1)  # by ctx * 52 + card led


def _legal_bits(s: GameState, r: Rows) -> np.ndarray:
    """(m,) uint64 the legal plays as a bitmask of cards: those that follow the lead, else the whole hand."""
    from simulator.rounds import kernels  # numba: loaded only where Rounds plays

    return kernels.legal_bits(_row_numbers(s, r), s.turn, s.hands, s.led, s.ctx, _FOLLOW_CARD)


def _row_numbers(s: GameState, r: Rows) -> np.ndarray:
    return np.arange(len(s))[r] if isinstance(r, slice) else np.asarray(r, np.intp)


def _view(s: GameState, r: Rows, rules: RoundsRules) -> RoundsView:
    seat = s.turn[r]
    fields = {
        "seat": lambda: seat,
        "hand": lambda: np.where(seat.astype(bool), s.hands[r, 1], s.hands[r, 0]),
        "trump": lambda: (s.ctx[r] // 14).astype(np.int8),
        "trump_rank": lambda: np.where(s.ctx[r] % 14 == C.NO_RANK, -1, s.ctx[r] % 14).astype(np.int8),
        **{name: _window(s, name, r) for name in _SAME_NAME},
    }
    return RoundsView.lazy(lambda name: fields[name](), len(seat), rules)


def inputs(s: GameState, r: Rows, kind: int, rules: RoundsRules) -> tuple[RoundsView, np.ndarray]:
    """The view of the player to move and its legal mask (m, 52) for rows `r`."""
    return _view(s, r, rules), tricks.bits_to_mask(_legal_bits(s, r), C.N_CARDS)


def packed_inputs(s: GameState, r: Rows, kind: int, rules: RoundsRules) -> tuple[RoundsView, np.ndarray, int]:
    """`inputs` with the legal plays as bit rows (simulator.bitrows): the hand's bitmask as it is."""
    return _view(s, r, rules), _legal_bits(s, r)[:, None], C.N_CARDS


# View fields that are the state's field of the same name, row for row.
_SAME_NAME = (
    "dealer",
    "stage",
    "trick",
    "face_up",
    "leader",
    "led",
    "plays",
    "n_played",
    "played",
    "stage_tricks",
    "stage_points",
    "points",
    "scores",
)


def _window(s: GameState, name: str, r: Rows):
    return lambda: getattr(s, name)[r]


def apply(s: GameState, r: Rows, kind: int, actions: np.ndarray, rules: RoundsRules) -> None:
    """Play one checked card for each row in `r`: the card leaves its hand; a reply settles the trick (the
    higher key takes it, on equal keys the lead); a stage's fifth trick scores the stage (the sweep rule) and
    deals the next one, or ends the game. Compiled, one pass over the rows (`kernels.apply`)."""
    from simulator.rounds import kernels  # numba: loaded only where Rounds plays

    kernels.apply(
        _row_numbers(s, r),
        np.asarray(actions, np.intp),
        s.hands,
        s.played,
        s.plays,
        s.n_played,
        s.led,
        s.turn,
        s.leader,
        s.ctx,
        s.stage,
        s.trick,
        s.trick_leaders,
        s.trick_winners,
        s.stage_tricks,
        s.stage_points,
        s.first4,
        s.fifth,
        s.tricks,
        s.taken,
        s.stage_score,
        s.points,
        s.phase,
        s.stock,
        s.face_up,
        s.faces,
        s.dealt,
        s.dealer,
        s.first_dealer,
        s.shuffles,
        _REPLY_WINS,
        _trick_points(rules),
        _context_of(rules.rank_trumps),
        rules.sweep_bonus,
        rules.dealer_rotation == "game",
        DONE,
    )


# REPLY_WINS[ctx, led card, reply card]: the reply takes the trick (equal keys, two rank trumps: the lead
# keeps it)
_REPLY_WINS = np.stack(
    [
        tricks.beats(
            C.KEY,
            np.full((C.N_CARDS, C.N_CARDS), ctx),
            C.EFFECTIVE[ctx][:, None],
            np.arange(C.N_CARDS)[None, :],
            np.arange(C.N_CARDS)[:, None],
        )
        for ctx in range(C.N_CONTEXTS)
    ]
).reshape(-1)


@cache
def _trick_points(rules: RoundsRules) -> np.ndarray:
    """(52 * 52,) int16 the card points of a trick, by led card * 52 + reply card."""
    points = card_points(rules)
    return (points[:, None] + points[None, :]).reshape(-1)


@cache
def _context_of(rank_trumps: bool) -> np.ndarray:
    """(52,) int16 the trump context (cards.context) of tricks played under each turned-up card."""
    return C.context(np.arange(C.N_CARDS), rank_trumps).astype(np.int16)
