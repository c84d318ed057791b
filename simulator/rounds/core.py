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
from simulator.batch import BatchState, Rows
from simulator.rounds import cards as C
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, N_PLAYS, N_STAGES, PLAY, TRICKS_PER_STAGE, RoundsView

SHUFFLE_SIZES = (34, 24, 14, 4)   # stock + the face-up card, before stages 2, 3, 4 and 5
STOCK_AFTER = (33, 23, 13, 3)     # stock left after the deal of stages 1..4
_SHUFFLE_AT = np.cumsum((0, *SHUFFLE_SIZES))


@dataclass
class GameState(BatchState):
    deal: np.ndarray          # int64 the game's number in its run
    first_dealer: np.ndarray  # int8 dealer of stage 1
    deck: np.ndarray          # (n, 52) int8 the deck as shuffled for stage 1, top first
    shuffles: np.ndarray      # (n, 76) int8 the permutations of stages 2..5 (34, 24, 14, 4 long) end to end
    stock: np.ndarray         # (n, 33) int8 the stock, top first; its length is STOCK_AFTER[stage]
    hands: np.ndarray         # (n, 2) uint64
    dealt: np.ndarray         # (n, 5, 2) uint64 each stage's hands right after its deal
    face_up: np.ndarray       # (n, 2) int8 the stage's face-up card(s), -1 for none
    faces: np.ndarray         # (n, 5, 2) int8 the face-up cards of every stage
    stage: np.ndarray         # int8 0..4 (5 when the game is over)
    trick: np.ndarray         # int8 trick of the stage 0..4
    dealer: np.ndarray        # int8 the stage's dealer
    ctx: np.ndarray           # int16 trump context of the current trick (cards.context)
    phase: np.ndarray         # int8 PLAY or DONE
    turn: np.ndarray          # int8 the player to play
    leader: np.ndarray        # int8
    led: np.ndarray           # int8 card led, -1 while leading
    plays: np.ndarray         # (n, 50) int8
    n_played: np.ndarray      # int8
    played: np.ndarray        # uint64
    trick_leaders: np.ndarray  # (n, 25) int8
    trick_winners: np.ndarray  # (n, 25) int8
    stage_tricks: np.ndarray  # (n, 2) int8 tricks taken in the current stage
    stage_points: np.ndarray  # (n, 2) int16 card points taken in the current stage
    first4: np.ndarray        # (n, 5) int16 card points of the player who took tricks 1-4 of a stage, -1 if none did
    fifth: np.ndarray         # (n, 5) int16 card points of each stage's fifth trick
    tricks: np.ndarray        # (n, 5, 2) int8 tricks taken per stage
    taken: np.ndarray         # (n, 5, 2) int16 card points taken per stage (before the sweep rule)
    stage_score: np.ndarray   # (n, 5, 2) int16 score per stage (after it)
    points: np.ndarray        # (n, 2) int16 score of the completed stages
    scores: np.ndarray        # (n, 2) int32 match totals before this game


@cache
def card_points(rules: RoundsRules) -> np.ndarray:
    """(52,) int16 the points of each card."""
    return rules.points_by_rank[C.RANK].astype(np.int16)


def draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The randomness of n games: deck orders (n, 52) and stage shuffles (n, 76), drawn row by row."""
    deck = rng.permuted(np.broadcast_to(np.arange(C.N_CARDS, dtype=np.int8), (n, C.N_CARDS)), axis=1)
    shuffles = np.concatenate([rng.permuted(np.broadcast_to(np.arange(k, dtype=np.int8), (n, k)), axis=1)
                               for k in SHUFFLE_SIZES], axis=1)
    return deck, shuffles


def new_games(deal: np.ndarray, first_dealer: np.ndarray, deck: np.ndarray, shuffles: np.ndarray,
              rules: RoundsRules, scores: np.ndarray | None = None) -> GameState:
    """Games about to start: stage 1 dealt, the non-dealer to lead."""
    n = len(deal)
    z = lambda shape, dt, v=0: np.full(shape, v, dtype=dt)
    s = GameState(
        deal=np.asarray(deal, np.int64), first_dealer=np.asarray(first_dealer, np.int8), deck=deck,
        shuffles=shuffles, stock=z((n, 33), np.int8, -1), hands=z((n, 2), np.uint64), dealt=z((n, 5, 2), np.uint64),
        face_up=z((n, 2), np.int8, -1), faces=z((n, 5, 2), np.int8, -1), stage=z(n, np.int8), trick=z(n, np.int8),
        dealer=z(n, np.int8), ctx=z(n, np.int16), phase=z(n, np.int8, PLAY), turn=z(n, np.int8),
        leader=z(n, np.int8), led=z(n, np.int8, -1), plays=z((n, N_PLAYS), np.int8, -1), n_played=z(n, np.int8),
        played=z(n, np.uint64), trick_leaders=z((n, 25), np.int8, -1), trick_winners=z((n, 25), np.int8, -1),
        stage_tricks=z((n, 2), np.int8), stage_points=z((n, 2), np.int16), first4=z((n, 5), np.int16, -1), fifth=z((n, 5), np.int16),
        tricks=z((n, 5, 2), np.int8), taken=z((n, 5, 2), np.int16), stage_score=z((n, 5, 2), np.int16),
        points=z((n, 2), np.int16),
        scores=np.zeros((n, 2), np.int32) if scores is None else np.asarray(scores, np.int32).copy())
    _deal_stage(s, np.arange(n), 0, rules)
    return s


def _deal_stage(s: GameState, rows: np.ndarray, stage: int, rules: RoundsRules) -> None:
    """Deal `stage` (0-based) to `rows`, all at that stage: new hands, face-up card(s), the non-dealer leads."""
    if stage == 0:
        order = s.deck[rows]
        n_dealt, faces = 18, order[:, 18:19]
        s.stock[rows, :33] = order[:, 19:]
    else:
        # The stock with the face-up card at its end, shuffled: new pile[i] = pile[shuffle[i]].
        pile = np.concatenate([s.stock[rows, :STOCK_AFTER[stage - 1]], s.face_up[rows, :1]], axis=1)
        perm = s.shuffles[rows, _SHUFFLE_AT[stage - 1]:_SHUFFLE_AT[stage]].astype(np.intp)
        order = np.take_along_axis(pile, perm, axis=1)
        n_dealt = 10 if stage < 4 else 2
        faces = order[:, n_dealt:n_dealt + (1 if stage < 4 else 2)]
        s.stock[rows] = -1
        if stage < 4:
            s.stock[rows, :STOCK_AFTER[stage]] = order[:, 11:]
    dealer = s.first_dealer[rows] if rules.dealer_rotation == "game" else s.first_dealer[rows] ^ (stage & 1)
    non_dealer = 1 - dealer
    # Cards go one at a time, the non-dealer first: even positions to the non-dealer, odd to the dealer.
    to_non_dealer = C.BIT[order[:, 0:n_dealt:2]].sum(axis=1, dtype=np.uint64)
    to_dealer = C.BIT[order[:, 1:n_dealt:2]].sum(axis=1, dtype=np.uint64)
    ar = np.arange(len(rows))
    hands = s.hands[rows]
    hands[ar, non_dealer] |= to_non_dealer
    hands[ar, dealer] |= to_dealer
    s.hands[rows] = hands
    s.dealt[rows, stage] = hands
    s.face_up[rows] = -1
    s.face_up[rows, :faces.shape[1]] = faces
    s.faces[rows, stage, :faces.shape[1]] = faces
    s.dealer[rows] = dealer
    s.turn[rows] = s.leader[rows] = non_dealer
    s.ctx[rows] = C.context(faces[:, 0], rules.rank_trumps)


def _legal_bits(s: GameState, r: Rows, hand: np.ndarray) -> np.ndarray:
    """(m,) uint64 the legal plays as a bitmask of cards."""
    led = s.led[r]
    ctx = s.ctx[r].astype(np.intp)
    follow_bits = C.FOLLOW[ctx, C.EFFECTIVE[ctx, np.maximum(led, 0)]]
    return tricks.legal_bits(hand, follow_bits, led < 0)


def _view(s: GameState, r: Rows, rules: RoundsRules) -> tuple[RoundsView, np.ndarray]:
    ri = np.arange(len(s)) if isinstance(r, slice) else r
    seat = s.turn[r]
    hand = s.hands.reshape(-1)[ri * 2 + seat]
    fields = {"seat": lambda: seat, "hand": lambda: hand,
              "trump": lambda: (s.ctx[r] // 14).astype(np.int8),
              "trump_rank": lambda: np.where(s.ctx[r] % 14 == C.NO_RANK, -1, s.ctx[r] % 14).astype(np.int8),
              **{name: _window(s, name, r) for name in _SAME_NAME}}
    return RoundsView.lazy(lambda name: fields[name](), len(seat), rules), hand


def inputs(s: GameState, r: Rows, kind: int, rules: RoundsRules) -> tuple[RoundsView, np.ndarray]:
    """The view of the player to move and its legal mask (m, 52) for rows `r`."""
    view, hand = _view(s, r, rules)
    return view, tricks.bits_to_mask(_legal_bits(s, r, hand), C.N_CARDS)


def packed_inputs(s: GameState, r: Rows, kind: int, rules: RoundsRules) -> tuple[RoundsView, np.ndarray, int]:
    """`inputs` with the legal plays as bit rows (simulator.bitrows): the hand's bitmask as it is."""
    view, hand = _view(s, r, rules)
    return view, _legal_bits(s, r, hand)[:, None], C.N_CARDS


# View fields that are the state's field of the same name, row for row.
_SAME_NAME = ("dealer", "stage", "trick", "face_up", "leader", "led", "plays", "n_played", "played", "stage_tricks",
              "stage_points", "points", "scores")


def _window(s: GameState, name: str, r: Rows):
    return lambda: getattr(s, name)[r]


def apply(s: GameState, r: Rows, kind: int, actions: np.ndarray, rules: RoundsRules) -> None:
    """Play one checked card for each row in `r`. Whole-batch steps (r a slice: the usual case, games run in
    lockstep) index the state's fields by the slice, without gathers."""
    ri = np.arange(len(s)) if isinstance(r, slice) else r
    card = actions.astype(np.int8)
    seat = s.turn[r]
    bit = C.BIT[card]
    s.hands.reshape(-1)[ri * 2 + seat] &= ~bit
    s.played[r] |= bit
    s.plays.reshape(-1)[ri * N_PLAYS + s.n_played[r]] = card
    s.n_played[r] += 1
    leading = s.led[r] < 0
    if leading.all():  # the game is in lockstep: a step is all leads or all replies
        s.led[r] = card
        s.turn[r] = 1 - seat
        return
    if leading.any():
        lead_rows = ri[leading]
        s.led[lead_rows] = card[leading]
        s.turn[lead_rows] = 1 - seat[leading]
        ri, card, seat = ri[~leading], card[~leading], seat[~leading]
        r = ri
    _finish_tricks(s, r, ri, card, seat, rules)


def _finish_tricks(s: GameState, r: Rows, ri: np.ndarray, card: np.ndarray, seat: np.ndarray,
                   rules: RoundsRules) -> None:
    """The second card of each trick in rows `r` (`ri` the same rows as indices) has been played."""
    ctx = s.ctx[r].astype(np.intp)
    led = s.led[r].astype(np.intp)
    suit = C.EFFECTIVE[ctx, led]
    reply_wins = tricks.beats(C.KEY, ctx, suit, card, led)  # equal keys (two rank trumps): the lead wins
    leader = s.leader[r]
    winner = np.where(reply_wins, seat, leader)
    points = card_points(rules)
    stage, trick = s.stage[r].copy(), s.trick[r]  # a copy: ending a stage moves s.stage
    if stage.min() == stage.max() and trick.min() == trick.max():  # lockstep: one trick slot for every row
        at = int(stage[0]) * TRICKS_PER_STAGE + int(trick[0])
        s.trick_leaders[r, at] = leader
        s.trick_winners[r, at] = winner
    else:
        at = stage.astype(np.intp) * TRICKS_PER_STAGE + trick
        s.trick_leaders[ri, at] = leader
        s.trick_winners[ri, at] = winner
    s.stage_tricks.reshape(-1)[ri * 2 + winner] += 1
    s.stage_points.reshape(-1)[ri * 2 + winner] += points[led] + points[card]
    s.trick[r] += 1
    s.led[r] = -1
    s.leader[r] = winner
    s.turn[r] = winner
    trick = s.trick[r]
    after_four = trick == 4
    if after_four.any():
        rows = ri[after_four]
        took4 = s.stage_tricks[rows].max(axis=1) == 4
        holder = np.argmax(s.stage_tricks[rows], axis=1)
        s.first4[rows[took4], stage[after_four][took4]] = s.stage_points[rows[took4], holder[took4]]
        last_stage = rows[stage[after_four] == 4]  # trick 5 of stage 5 has its own trump card
        s.ctx[last_stage] = C.context(s.face_up[last_stage, 1], rules.rank_trumps)
    ends = trick == TRICKS_PER_STAGE
    if ends.any():
        s.fifth[ri[ends], stage[ends]] = (points[led] + points[card])[ends]
    for k in np.unique(stage[ends]):  # in lockstep every game ends the same stage together
        _end_stage(s, ri[ends & (stage == k)], int(k), rules)


def _end_stage(s: GameState, rows: np.ndarray, stage: int, rules: RoundsRules) -> None:
    """Score the stage just completed in `rows`; deal the next one or end the game."""
    tricks, taken = s.stage_tricks[rows], s.stage_points[rows]
    score = np.where(tricks == TRICKS_PER_STAGE, rules.sweep_bonus, taken)  # the swept player took nothing
    s.tricks[rows, stage], s.taken[rows, stage], s.stage_score[rows, stage] = tricks, taken, score
    s.points[rows] += score.astype(np.int16)
    s.stage_tricks[rows] = 0
    s.stage_points[rows] = 0
    s.trick[rows] = 0
    s.stage[rows] = stage + 1
    if stage + 1 == N_STAGES:
        s.phase[rows] = DONE
    else:
        _deal_stage(s, rows, stage + 1, rules)
