"""The scalar reference engine for Rounds: the Rounds rules, one card at a time.

This module is the oracle the fast batched core is tested against, move for move, so it is written from the
rules file alone and says each rule the way the file says it, in plain Python. From `cards` it takes only
the encoding (card id = suit * 13 + rank, suit 0..3 = C D H S, rank 0..12 = 2 .. A), the card names and
the bitmask helpers; following, trumps, rank trumps, the trick winner and the scores are all worked out here.

Conventions (shared with the batched core):
- players 0 and 1; the other player is 1 - p;
- a game's randomness is an input: `deck`, a permutation of the 52 card ids (top card first), and
  `shuffles`, four permutations of range(34), range(24), range(14), range(4) for the piles of stages 2..5
  (new_pile[i] = pile[shuffles[s - 2][i]]);
- stages are numbered 1..5 in this module's text and records' order, 0..4 in the view.

A strategy is any object with `decide(kind, view, legal, rng) -> np.ndarray of shape (1,)`, where kind is
PLAY (0), `view` a one-row `RoundsView` and `legal` a (1, 52) bool mask. The engine never repairs a choice:
a card outside the mask raises `IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.rounds.cards import N_CARDS, SUIT_NAMES, name
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import KIND_NAMES, N_ACTIONS, N_PLAYS, PLAY, RoundsView
from simulator.scalar import MatchRecord, MatchRules, Referee
from simulator.scalar import play_match as play_deals_to_target

N_STAGES = 5
TRICKS_PER_STAGE = 5
STAGE_1_HAND = 9  # cards dealt to each player in stage 1
REFILL = 5  # cards dealt to each player in stages 2, 3, 4
PILE_SIZES = (34, 24, 14, 4)  # the shuffled piles of stages 2..5 (stock + face-up card)

SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


# ---------------------------------------------------------------------------------------------------------
# Records


@dataclass
class Trick:
    """One completed trick."""

    leader: int  # the player who led it
    cards: list[int]  # the two cards, the leader's first
    winner: int  # the player who took it
    trump_card: int  # the face-up card that governed it (its suit is trump)


@dataclass
class Stage:
    """One stage: the deal and its five tricks."""

    dealer: int
    face_up: list[int]  # 1 card in stages 1..4; 2 in stage 5 (tricks 1-4, trick 5)
    hands_after_deal: list[list[int]]  # each player's hand once the stage is dealt, sorted
    tricks: list[Trick]
    taken: list[list[int]]  # cards each player took in this stage, in the order taken
    tricks_won: tuple[int, int]
    points: tuple[int, int]  # each player's score for the stage (the sweep rule applied)
    sweep: int | None  # the player who took all five tricks, if any


@dataclass
class GameRecord:
    """A game: five stages, scored at the end."""

    first_dealer: int
    stages: list[Stage]
    points: tuple[int, int]  # the game score: the stages' points added up
    moves: list[tuple[int, int, int]]  # (PLAY, player, card) in the order played

    def totals_added(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> tuple[int, ...]:
        """The game's points, then per stage each player's score and tricks."""
        return (*self.points, *[x for st in self.stages for x in (*st.points, *st.tricks_won)])

    def to_dict(self) -> dict[str, Any]:
        return game_to_dict(self)

    def text(self, rules: RoundsRules | None = None) -> str:
        return format_game(self, rules)


# ---------------------------------------------------------------------------------------------------------
# Cards


def suit_of(c: int) -> int:
    """The printed suit of card c: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return c // 13


def rank_of(c: int) -> int:
    """The rank of card c: 0 for the 2 up to 12 for the ace."""
    return c % 13


def card_points(c: int, rules: RoundsRules) -> int:
    """What card c is worth when taken (seed: 2 = 10, A = 4, K = 3, Q = 2, J = 1, every other card 0)."""
    return int(rules.points_by_rank[rank_of(c)])


def cards_points(cards: Sequence[int], rules: RoundsRules) -> int:
    """The card points of several cards added up."""
    return sum(card_points(c, rules) for c in cards)


# ---------------------------------------------------------------------------------------------------------
# Trumps, following and the trick winner


def is_rank_trump(c: int, trump_card: int, rules: RoundsRules) -> bool:
    """Whether c is a rank trump in a trick played under the face-up card `trump_card`.

    Only with `rank_trumps`: the three other cards of the face-up card's rank (same rank, another suit).
    """
    if not rules.rank_trumps:
        return False
    return rank_of(c) == rank_of(trump_card) and suit_of(c) != suit_of(trump_card)


def effective_suit(c: int, trump_card: int, rules: RoundsRules) -> int:
    """The suit card c belongs to in a trick under `trump_card`: its printed suit, except that a rank trump
    belongs to the trump suit (and not to its printed suit)."""
    if is_rank_trump(c, trump_card, rules):
        return suit_of(trump_card)
    return suit_of(c)


def is_trump(c: int, trump_card: int, rules: RoundsRules) -> bool:
    """Whether c is a trump under `trump_card`: a card of the trump suit, or a rank trump."""
    return effective_suit(c, trump_card, rules) == suit_of(trump_card)


def legal_plays(hand: Sequence[int], led: int | None, trump_card: int, rules: RoundsRules) -> list[int]:
    """The cards of `hand` that may be played, sorted; `led` is the card led to the trick (None or -1 while
    leading).

    Any card may be led. The other player must follow the led suit if he can, otherwise he may play any
    card (trumping is never compulsory). With rank trumps, suits are the effective suits: a led rank trump
    leads trumps, and is answered by a card of the trump suit or a rank trump; a rank trump does not belong
    to its printed suit, so it neither follows that suit nor must be played to it.
    """
    if led is None or led < 0:
        return sorted(hand)
    suit = effective_suit(led, trump_card, rules)
    following = [c for c in hand if effective_suit(c, trump_card, rules) == suit]
    return sorted(following) if following else sorted(hand)


def trick_winner(leader: int, cards: Sequence[int], trump_card: int, rules: RoundsRules) -> int:
    """The player who takes a trick of two cards (the leader's first) under `trump_card`.

    A rank trump beats every other card; of two rank trumps the one played first (the leader's) wins.
    Otherwise the higher trump wins, a trump beats any other card, and with no trump in the trick the
    higher card of the led suit wins (a card of another suit never wins).
    """
    if len(cards) != 2:
        raise DealsimError(f"a trick is two cards, got {len(cards)}")
    lead, reply = cards
    follower = 1 - leader
    if is_rank_trump(lead, trump_card, rules):
        return leader
    if is_rank_trump(reply, trump_card, rules):
        return follower
    lead_trump = is_trump(lead, trump_card, rules)
    reply_trump = is_trump(reply, trump_card, rules)
    if lead_trump and reply_trump:
        return leader if rank_of(lead) > rank_of(reply) else follower
    if lead_trump:
        return leader
    if reply_trump:
        return follower
    if suit_of(reply) == suit_of(lead) and rank_of(reply) > rank_of(lead):
        return follower
    return leader


def governing_card(stage: int, trick: int, face_up: Sequence[int]) -> int:
    """The face-up card whose suit is trump (and whose rank gives the rank trumps) for a trick.

    stage 1..5, trick 1..5. Stages 1-4: the stage's one face-up card. Stage 5: the first face-up card for
    tricks 1-4, the second for trick 5.
    """
    if stage == N_STAGES and trick == TRICKS_PER_STAGE:
        return face_up[1]
    return face_up[0]


# ---------------------------------------------------------------------------------------------------------
# Scoring


def sweeper(tricks_won: Sequence[int]) -> int | None:
    """The player who took all five tricks of a stage, or None."""
    for player in (0, 1):
        if tricks_won[player] == TRICKS_PER_STAGE:
            return player
    return None


def stage_scores(
    taken: Sequence[Sequence[int]], tricks_won: Sequence[int], rules: RoundsRules
) -> tuple[int, int]:
    """Each player's score for one stage, from the cards and the number of tricks each took in it.

    A player who took all 5 tricks scores `sweep_bonus` and no card points (the other took nothing and
    scores 0); otherwise each scores the card points of the cards he took in the stage.
    """
    scores = [0, 0]
    for player in (0, 1):
        if tricks_won[player] == TRICKS_PER_STAGE:
            scores[player] = rules.sweep_bonus
        else:
            scores[player] = cards_points(taken[player], rules)
    return scores[0], scores[1]


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """The player who has won the match after a game, or None (play another game).

    A player with at least `target` wins; if both have reached it the higher total wins; equal totals
    (both at or above target) mean another game.
    """
    first, second = totals
    if first < target and second < target:
        return None
    if first >= target and second < target:
        return 0
    if second >= target and first < target:
        return 1
    if first == second:
        return None
    return 0 if first > second else 1


# ---------------------------------------------------------------------------------------------------------
# Dealers


def stage_dealer(first_dealer: int, stage: int, rules: RoundsRules) -> int:
    """The dealer of stage 1..5 of a game whose first dealer is `first_dealer`.

    dealer_rotation "stage": the deal passes every stage (stages 1, 3, 5: first_dealer; 2, 4: the other).
    "game": first_dealer deals all five stages.
    """
    if rules.dealer_rotation == "game":
        return first_dealer
    if rules.dealer_rotation == "stage":
        return first_dealer if stage % 2 == 1 else 1 - first_dealer
    raise DealsimError(f"unknown dealer_rotation {rules.dealer_rotation!r}")


def game_first_dealer(match_first_dealer: int, game_no: int) -> int:
    """The first dealer of game `game_no` (from 0) of a match: the players take turns."""
    return match_first_dealer if game_no % 2 == 0 else 1 - match_first_dealer


# ---------------------------------------------------------------------------------------------------------
# Views and decisions


def ids_to_bits(cards: Sequence[int]) -> int:
    """A set of card ids as a bitmask (bit c set for card c)."""
    bits = 0
    for c in cards:
        bits |= 1 << c
    return bits


def _one(value: int, dtype: Any) -> np.ndarray:
    """A one-row field of one value."""
    return np.array([value], dtype=dtype)


def _row(values: Sequence[int], dtype: Any) -> np.ndarray:
    """A one-row field of several values: shape (1, len(values))."""
    return np.array([list(values)], dtype=dtype)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@dataclass(frozen=True)
class TrickInPlay:
    """The trick being played: its stage 1..5 and number 1..5 in the stage, the stage's dealer and face-up
    card(s), the face-up card governing the trick, its leader and the card led to it (None while leading)."""

    stage: int
    number: int
    dealer: int
    face_up: Sequence[int]
    trump_card: int
    leader: int
    led: int | None


@dataclass(frozen=True)
class GameSoFar:
    """What the game has recorded so far: every card played this game in order, the cards and tricks each
    player has taken in this stage, the game score of the completed stages and the match totals before
    this game."""

    plays: Sequence[int]
    stage_taken: Sequence[Sequence[int]]
    stage_tricks: Sequence[int]
    points: Sequence[int]
    scores: Sequence[int]


def make_view(
    *,
    seat: int,
    hand: Sequence[int],
    trick: TrickInPlay,
    so_far: GameSoFar,
    rules: RoundsRules,
) -> RoundsView:
    """A one-row `RoundsView` of the game as `seat` sees it, `hand` the seat's cards still held (the stage
    and trick are shown 0..4 in the view)."""
    face_up, trump_card, plays = trick.face_up, trick.trump_card, so_far.plays
    face = list(face_up) + [-1] * (2 - len(face_up))
    padded_plays = list(plays) + [-1] * (N_PLAYS - len(plays))
    stage_points = [cards_points(taken, rules) for taken in so_far.stage_taken]
    arrays = {
        "seat": _one(seat, np.int8),
        "dealer": _one(trick.dealer, np.int8),
        "stage": _one(trick.stage - 1, np.int8),
        "trick": _one(trick.number - 1, np.int8),
        "hand": _one(ids_to_bits(hand), np.uint64),
        "face_up": _row(face, np.int8),
        "trump": _one(suit_of(trump_card), np.int8),
        "trump_rank": _one(rank_of(trump_card) if rules.rank_trumps else -1, np.int8),
        "leader": _one(trick.leader, np.int8),
        "led": _one(-1 if trick.led is None else trick.led, np.int8),
        "plays": _row(padded_plays, np.int8),
        "n_played": _one(len(plays), np.int8),
        "played": _one(ids_to_bits(plays), np.uint64),
        "stage_tricks": _row(so_far.stage_tricks, np.int8),
        "stage_points": _row(stage_points, np.int16),
        "points": _row(so_far.points, np.int16),
        "scores": _row(so_far.scores, np.int32),
    }
    return RoundsView(**{key: _read_only(value) for key, value in arrays.items()}, rules=rules)


def describe_move(kind: int, card: int) -> str:
    return f"play {name(card)}"


REFEREE = Referee(KIND_NAMES, N_ACTIONS, describe_move, lambda player: f"as player {player}")


def _check_randomness(
    deck: Sequence[int], shuffles: Sequence[Sequence[int]]
) -> tuple[list[int], list[list[int]]]:
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(N_CARDS)):
        raise DealsimError("a Rounds deck must be a permutation of the 52 card ids")
    if len(shuffles) != len(PILE_SIZES):
        raise DealsimError(
            f"a Rounds game needs {len(PILE_SIZES)} shuffles (stages 2..5), got {len(shuffles)}"
        )
    checked = []
    for stage, (given, size) in enumerate(zip(shuffles, PILE_SIZES), start=2):
        order = [int(i) for i in given]
        if sorted(order) != list(range(size)):
            raise DealsimError(f"the shuffle of stage {stage} must be a permutation of range({size})")
        checked.append(order)
    return deck, checked


# ---------------------------------------------------------------------------------------------------------
# A game and a match


def _deal_alternately(cards: Sequence[int], hands: list[list[int]], dealer: int) -> None:
    """Deal `cards` one at a time alternately, starting with the non-dealer."""
    for i, c in enumerate(cards):
        player = 1 - dealer if i % 2 == 0 else dealer
        hands[player].append(c)


def play_game(
    first_dealer: int,
    deck: Sequence[int],
    shuffles: Sequence[Sequence[int]],
    rules: RoundsRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
    scores: tuple[int, int] = (0, 0),
) -> GameRecord:
    """Play one game: five stages of five tricks, scored at the end.

    first_dealer: the dealer of stage 1; deck: the 52 card ids, top first; shuffles: the permutations of
    the piles of stages 2..5; strategies: indexed by player; rng is handed to every `decide` call unchanged;
    scores: the match totals before this game (shown in the views).
    """
    deck, shuffles = _check_randomness(deck, shuffles)
    hands: list[list[int]] = [[], []]
    plays: list[int] = []
    moves: list[tuple[int, int, int]] = []
    stages: list[Stage] = []
    points = [0, 0]  # the game score of the completed stages
    stock: list[int] = []
    face_up: list[int] = []

    for stage in range(1, N_STAGES + 1):
        dealer = stage_dealer(first_dealer, stage, rules)

        # The deal.
        if stage == 1:
            _deal_alternately(deck[: 2 * STAGE_1_HAND], hands, dealer)
            face_up = [deck[2 * STAGE_1_HAND]]
            stock = deck[2 * STAGE_1_HAND + 1 :]
        else:
            pile = stock + face_up  # the stock and the face-up card under it
            order = shuffles[stage - 2]
            new_pile = [pile[order[i]] for i in range(len(pile))]
            if stage < N_STAGES:
                _deal_alternately(new_pile[: 2 * REFILL], hands, dealer)
                face_up = [new_pile[2 * REFILL]]
                stock = new_pile[2 * REFILL + 1 :]
            else:
                hands[1 - dealer].append(new_pile[0])
                hands[dealer].append(new_pile[1])
                face_up = [new_pile[2], new_pile[3]]
                stock = []
        hands_after_deal = [sorted(hands[0]), sorted(hands[1])]

        # Five tricks: the non-dealer leads the first, the winner of each leads the next.
        tricks: list[Trick] = []
        taken: list[list[int]] = [[], []]
        tricks_won = [0, 0]
        leader = 1 - dealer
        for trick_no in range(1, TRICKS_PER_STAGE + 1):
            trump_card = governing_card(stage, trick_no, face_up)
            cards: list[int] = []
            for player in (leader, 1 - leader):
                led = cards[0] if cards else None
                legal = legal_plays(hands[player], led, trump_card, rules)
                trick = TrickInPlay(
                    stage=stage,
                    number=trick_no,
                    dealer=dealer,
                    face_up=face_up,
                    trump_card=trump_card,
                    leader=leader,
                    led=led,
                )
                so_far = GameSoFar(
                    plays=plays, stage_taken=taken, stage_tricks=tricks_won, points=points, scores=scores
                )
                view = make_view(seat=player, hand=hands[player], trick=trick, so_far=so_far, rules=rules)
                card = REFEREE.decide(strategies[player], PLAY, player, view, legal, rng)
                hands[player].remove(card)
                cards.append(card)
                plays.append(card)
                moves.append((PLAY, player, card))
            winner = trick_winner(leader, cards, trump_card, rules)
            taken[winner].extend(cards)
            tricks_won[winner] += 1
            tricks.append(Trick(leader=leader, cards=cards, winner=winner, trump_card=trump_card))
            leader = winner

        stage_points = stage_scores(taken, tricks_won, rules)
        points[0] += stage_points[0]
        points[1] += stage_points[1]
        stages.append(
            Stage(
                dealer=dealer,
                face_up=list(face_up),
                hands_after_deal=hands_after_deal,
                tricks=tricks,
                taken=taken,
                tricks_won=(tricks_won[0], tricks_won[1]),
                points=stage_points,
                sweep=sweeper(tricks_won),
            )
        )

    # Every card was dealt exactly once: 50 played and the 2 face-up cards of stage 5.
    if (
        hands[0]
        or hands[1]
        or stock
        or len(plays) != N_PLAYS
        or sorted(plays + face_up) != list(range(N_CARDS))
    ):
        raise DealsimError("internal error: a Rounds game must play 50 cards and leave 2 face up, each once")
    return GameRecord(first_dealer=first_dealer, stages=stages, points=(points[0], points[1]), moves=moves)


def play_match(
    deal: Callable[[int, int], tuple[Sequence[int], Sequence[Sequence[int]]]],
    first_dealer: int,
    rules: RoundsRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
    max_games: int = 1000,
) -> MatchRecord[GameRecord]:
    """Play games until a player wins the match, or stop with winner None after `max_games` games.

    deal(game_no, dealer) gives the game's (deck, shuffles) (game_no counts from 0; dealer deals its first
    stage). The first dealer of game g is `first_dealer` if g is even, else the other. Totals add game by
    game; each game's views show the totals before it.
    """

    def play_next(game_no: int, totals: list[int]) -> GameRecord:
        dealer = game_first_dealer(first_dealer, game_no)
        deck, shuffles = deal(game_no, dealer)
        return play_game(dealer, deck, shuffles, rules, strategies, rng, scores=(totals[0], totals[1]))

    match = MatchRules(
        play_next,
        GameRecord.totals_added,
        lambda totals, record: match_winner(totals, rules.target),
        max_deals=max_games,
    )
    return play_deals_to_target(match, first_dealer, n_sides=2)


# ---------------------------------------------------------------------------------------------------------
# Reading a game


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(name(c) for c in sorted(cards)) or "-"


def _trump_text(trump_card: int, rules: RoundsRules | None) -> str:
    text = f"{SUIT_WORDS[suit_of(trump_card)]} ({SUIT_NAMES[suit_of(trump_card)]})"
    if rules is not None and rules.rank_trumps:
        others = [c for c in range(N_CARDS) if is_rank_trump(c, trump_card, rules)]
        text += f", rank trumps {' '.join(name(c) for c in others)}"
    return text


def format_game(record: GameRecord, rules: RoundsRules | None = None) -> str:
    """A readable trace of a game: per stage the dealer, face-up card(s) and trump, both hands after the
    deal, each trick, the stage's tricks and points; then the game score. Pass `rules` to list rank trumps."""
    lines = [f"Game: player {record.first_dealer} deals first"]
    for number, stage in enumerate(record.stages, 1):
        lines.append(f"Stage {number}: player {stage.dealer} deals")
        if len(stage.face_up) == 1:
            lines.append(f"  Face up: {name(stage.face_up[0])}, trump {_trump_text(stage.face_up[0], rules)}")
        else:
            first, second = stage.face_up
            lines.append(
                f"  Face up: {name(first)} {name(second)}; trump for tricks 1-4 "
                f"{_trump_text(first, rules)}; for trick 5 {_trump_text(second, rules)}"
            )
        for player in (0, 1):
            mark = " (dealer)" if player == stage.dealer else ""
            lines.append(f"  Player {player}{mark}: {_cards_text(stage.hands_after_deal[player])}")
        for trick_no, trick in enumerate(stage.tricks, 1):
            lead, reply = trick.cards
            lines.append(
                f"  Trick {trick_no} (under {name(trick.trump_card)}): "
                f"player {trick.leader} leads {name(lead)}, player {1 - trick.leader} plays "
                f"{name(reply)} -> player {trick.winner}"
            )
        results = []
        for player in (0, 1):
            won = stage.tricks_won[player]
            text = f"player {player} {won} trick{'s' if won != 1 else ''}, {stage.points[player]} points"
            if stage.sweep == player:
                text += " (sweep: the bonus, no card points)"
            results.append(text)
        lines.append(f"  Stage {number}: {'; '.join(results)}")
    lines.append(f"Game score: player 0 {record.points[0]}, player 1 {record.points[1]}")
    return "\n".join(lines)


def game_to_dict(record: GameRecord) -> dict:
    """The game as plain JSON-ready data, cards written like '10H'."""
    return {
        "first_dealer": record.first_dealer,
        "stages": [
            {
                "dealer": stage.dealer,
                "face_up": [name(c) for c in stage.face_up],
                "trumps": [SUIT_NAMES[suit_of(c)] for c in stage.face_up],
                "hands_after_deal": [[name(c) for c in hand] for hand in stage.hands_after_deal],
                "tricks": [
                    {
                        "leader": t.leader,
                        "cards": [name(c) for c in t.cards],
                        "winner": t.winner,
                        "trump_card": name(t.trump_card),
                    }
                    for t in stage.tricks
                ],
                "taken": [[name(c) for c in cards] for cards in stage.taken],
                "tricks_won": list(stage.tricks_won),
                "points": list(stage.points),
                "sweep": stage.sweep,
            }
            for stage in record.stages
        ],
        "points": list(record.points),
        "moves": [[player, name(card)] for _, player, card in record.moves],
    }
