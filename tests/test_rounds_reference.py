"""The scalar Rounds reference engine against the rules' checks, hand-built tricks and constructed deals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simulator.errors import IllegalAction
from simulator.rounds.cards import bits_to_ids, parse_card
from simulator.rounds.reference import (
    PILE_SIZES,
    GameRecord,
    card_points,
    effective_suit,
    format_game,
    game_to_dict,
    is_rank_trump,
    legal_plays,
    match_winner,
    play_game,
    play_match,
    stage_scores,
    trick_winner,
)
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import N_PLAYS, PLAY

SEED = RoundsRules()
RANKS = RoundsRules(rank_trumps=True)
ORIGINAL = RoundsRules(rank_trumps=True, dealer_rotation="game")
IDENTITY = [list(range(n)) for n in PILE_SIZES]


def C(text: str) -> int:
    return parse_card(text)


def Cs(text: str) -> list[int]:
    return [C(t) for t in text.split()]


def suit(c: int) -> int:
    return c // 13


def card_points_of(cards, rules=SEED) -> int:
    return sum(card_points(c, rules) for c in cards)


def random_randomness(rng: np.random.Generator) -> tuple[list[int], list[list[int]]]:
    deck = [int(c) for c in rng.permutation(52)]
    shuffles = [[int(i) for i in rng.permutation(n)] for n in PILE_SIZES]
    return deck, shuffles


def build_deck(first: list[int], second: list[int], positions: dict[int, int] | None = None) -> list[int]:
    """A deck whose stage-1 deal gives `first` to the non-dealer and `second` to the dealer (card by card,
    alternately), with `positions` {deck index: card} fixed and every other card in id order."""
    deck: list[int | None] = [None] * 52
    for i, (a, b) in enumerate(zip(first, second)):
        deck[2 * i], deck[2 * i + 1] = a, b
    for index, card in (positions or {}).items():
        assert deck[index] is None
        deck[index] = card
    rest = iter(sorted(set(range(52)) - {c for c in deck if c is not None}))
    deck = [next(rest) if c is None else c for c in deck]
    assert sorted(deck) == list(range(52))
    return deck


# ---------------------------------------------------------------------------------------------------------
# Test strategies


class Uniform:
    """Picks a legal card uniformly with the Generator it is handed; checks every view it sees."""

    spec = "uniform"

    def __init__(self, rules: RoundsRules):
        self.rules = rules
        self.views = []

    def decide(self, kind, view, legal, rng):
        assert kind == PLAY
        check_view(view, legal, self.rules)
        self.views.append(view)
        return np.array([rng.choice(np.flatnonzero(legal[0]))])


class Preference:
    """Plays the legal card with the smallest key(card) (deterministic)."""

    def __init__(self, key, spec="preference"):
        self.key = key
        self.spec = spec
        self.views = []

    def decide(self, kind, view, legal, rng):
        self.views.append(view)
        return np.array([min(np.flatnonzero(legal[0]), key=self.key)])


def lowest() -> Preference:
    return Preference(lambda c: c, "lowest")


def highest() -> Preference:
    return Preference(lambda c: -c, "highest")


def check_view(view, legal, rules) -> None:
    dtypes = {
        "seat": np.int8,
        "dealer": np.int8,
        "stage": np.int8,
        "trick": np.int8,
        "hand": np.uint64,
        "face_up": np.int8,
        "trump": np.int8,
        "trump_rank": np.int8,
        "leader": np.int8,
        "led": np.int8,
        "plays": np.int8,
        "n_played": np.int8,
        "played": np.uint64,
        "stage_tricks": np.int8,
        "stage_points": np.int16,
        "points": np.int16,
        "scores": np.int32,
    }
    for field, dtype in dtypes.items():
        array = getattr(view, field)
        assert array.dtype == dtype, field
        assert not array.flags.writeable, field
    shapes = {
        "face_up": (1, 2),
        "plays": (1, N_PLAYS),
        "stage_tricks": (1, 2),
        "stage_points": (1, 2),
        "points": (1, 2),
        "scores": (1, 2),
    }
    for field, array in view.arrays().items():
        assert array.shape == shapes.get(field, (1,)), field
    assert view.rules is rules
    assert legal.shape == (1, 52) and legal.dtype == bool
    hand = bits_to_ids(int(view.hand[0]))
    legal_cards = list(np.flatnonzero(legal[0]))
    assert legal_cards and set(legal_cards) <= set(hand)
    n = int(view.n_played[0])
    plays = [int(c) for c in view.plays[0]]
    assert all(c >= 0 for c in plays[:n]) and all(c == -1 for c in plays[n:])
    assert bits_to_ids(int(view.played[0])) == sorted(plays[:n])
    assert not set(hand) & set(plays[:n])
    assert n == 10 * int(view.stage[0]) + 2 * int(view.trick[0]) + (0 if view.led[0] == -1 else 1)
    if view.led[0] == -1:
        assert view.leader[0] == view.seat[0] and legal_cards == hand
    else:
        assert view.leader[0] == 1 - view.seat[0] and plays[n - 1] == view.led[0]
    stage = int(view.stage[0])
    assert (view.face_up[0, 1] == -1) == (stage < 4)
    governing = int(view.face_up[0, 1] if stage == 4 and view.trick[0] == 4 else view.face_up[0, 0])
    assert view.trump[0] == suit(governing)
    assert view.trump_rank[0] == (governing % 13 if rules.rank_trumps else -1)
    assert view.stage_tricks[0].sum() == view.trick[0]


# ---------------------------------------------------------------------------------------------------------
# Cards and points


def test_card_points_total_80_and_seed_values():
    assert sum(card_points(c, SEED) for c in range(52)) == 80
    assert [card_points(c, SEED) for c in Cs("2H AS KD QC JH 10S 3C 9D")] == [10, 4, 3, 2, 1, 0, 0, 0]
    custom = RoundsRules(card_points="A=11,10=10")
    assert card_points(C("AS"), custom) == 11 and card_points(C("10D"), custom) == 10
    assert card_points(C("2H"), custom) == 0


def test_stage_scores_sweep_and_card_points():
    # The rules file: 5 tricks holding a 2 and an ace score 10, not 14.
    taken = [Cs("2H AS 3C 4C 5C 6C 7C 8C 9C 10C"), []]
    assert card_points_of(taken[0]) == 14
    assert stage_scores(taken, (5, 0), SEED) == (10, 0)
    assert stage_scores(taken[::-1], (0, 5), SEED) == (0, 10)
    assert stage_scores(taken, (5, 0), RoundsRules(sweep_bonus=25)) == (25, 0)
    # No sweep: each scores his cards.
    assert stage_scores([Cs("2H AS 3C 4C"), Cs("KD QD JD 5H 6H 7H")], (2, 3), SEED) == (14, 6)
    assert stage_scores([Cs("2H 2S 3C 4C 5C 6C 7C 8C 9C 10C"), []], (5, 0), SEED) == (10, 0)


# ---------------------------------------------------------------------------------------------------------
# Following, trumps and the trick winner (seed rules: no rank trumps)


def test_follow_suit_seed():
    trump = C("5S")
    hand = Cs("2H KH AS 3D")
    assert legal_plays(hand, None, trump, SEED) == sorted(hand)
    assert legal_plays(hand, -1, trump, SEED) == sorted(hand)
    assert legal_plays(hand, C("QH"), trump, SEED) == Cs("2H KH")
    assert legal_plays(hand, C("9S"), trump, SEED) == Cs("AS")
    # Void in the led suit: any card, trumping not compulsory.
    assert legal_plays(hand, C("4C"), trump, SEED) == sorted(hand)
    # Without rank trumps a card of the face-up card's rank is an ordinary card of its suit.
    assert legal_plays(Cs("5H 5C 9D"), C("2C"), trump, SEED) == Cs("5C")
    assert not is_rank_trump(C("5H"), trump, SEED)
    assert effective_suit(C("5H"), trump, SEED) == 2


@pytest.mark.parametrize("leader", [0, 1])
def test_trick_winner_seed(leader):
    trump = C("5S")
    other = 1 - leader
    cases = [
        ("KH AH", other),  # higher card of the led suit
        ("AH KH", leader),
        ("KH 2S", other),  # a trump beats the led suit
        ("2S AH", leader),  # a trump lead beats a non-trump
        ("3S 2S", leader),  # two trumps: the higher
        ("2S 3S", other),
        ("KH AD", leader),  # a card of another suit never wins
        ("2C AD", leader),
    ]
    for text, expected in cases:
        assert trick_winner(leader, Cs(text), trump, SEED) == expected, text


# ---------------------------------------------------------------------------------------------------------
# Rank trumps (the English original)


def test_rank_trumps_membership():
    trump = C("7H")
    cards = Cs("7C 7D 7S 7H 8C")
    assert [is_rank_trump(c, trump, RANKS) for c in cards] == [True, True, True, False, False]
    assert [effective_suit(c, trump, RANKS) for c in cards] == [2, 2, 2, 2, 0]
    assert not is_rank_trump(C("7C"), trump, SEED)


def test_rank_trump_beats_the_ace_of_trumps():
    trump = C("7H")
    assert trick_winner(0, Cs("AH 7C"), trump, RANKS) == 1
    assert trick_winner(0, Cs("7C AH"), trump, RANKS) == 0
    assert trick_winner(1, Cs("KD 7S"), trump, RANKS) == 0  # a rank trump trumps a plain lead
    assert trick_winner(1, Cs("7S KS"), trump, RANKS) == 1  # a led rank trump is trumps: KS cannot beat it
    # Seed rules: 7C is a club.
    assert trick_winner(0, Cs("AH 7C"), trump, SEED) == 0
    assert trick_winner(1, Cs("KD 7S"), trump, SEED) == 1


def test_two_rank_trumps_first_played_wins():
    trump = C("7H")
    assert trick_winner(0, Cs("7C 7S"), trump, RANKS) == 0
    assert trick_winner(0, Cs("7S 7C"), trump, RANKS) == 0
    assert trick_winner(1, Cs("7D 7S"), trump, RANKS) == 1


def test_led_rank_trump_must_be_answered_with_trumps():
    trump = C("7H")
    assert legal_plays(Cs("2H 3C KC 7S"), C("7C"), trump, RANKS) == sorted(Cs("2H 7S"))
    assert legal_plays(Cs("3C KC 7S"), C("7C"), trump, RANKS) == Cs("7S")  # void in hearts: the rank trump
    assert legal_plays(Cs("3C KD"), C("7C"), trump, RANKS) == Cs("3C KD")  # no trump at all: anything
    assert legal_plays(Cs("3C KC 7S"), C("AH"), trump, RANKS) == Cs("7S")  # trump-suit lead, same rule
    # Seed rules: a led 7C is a club lead.
    assert legal_plays(Cs("2H 3C KC 7S"), C("7C"), trump, SEED) == Cs("3C KC")


def test_rank_trump_need_not_follow_its_printed_suit():
    trump = C("7H")
    assert legal_plays(Cs("7C 9D"), C("3C"), trump, RANKS) == Cs("7C 9D")  # 7C is no club: void, anything
    assert legal_plays(Cs("7C 4C 9D"), C("3C"), trump, RANKS) == Cs("4C")  # ... nor can it follow clubs
    assert trick_winner(0, Cs("3C 7C"), trump, RANKS) == 1  # and played to a club lead it wins
    assert legal_plays(Cs("7C 4C 9D"), C("3C"), trump, SEED) == Cs("4C 7C")


# ---------------------------------------------------------------------------------------------------------
# The deal


@pytest.mark.parametrize("second_trump_first", [False, True])
def test_stage_5_deal_and_the_trump_of_trick_5(second_trump_first):
    """Stage 5: 1 card each and two face-up cards; the second governs trick 5.

    Clubs and hearts (but 2C, AH, 5C, 5H) are all dealt in stages 1-2, three diamonds/spades to each player
    in stage 2 and diamonds/spades only after that; both players dump clubs and hearts first and keep 2C/AH
    to the end, so trick 5 of stage 5 is 2C against AH: the suit of the second face-up card decides it.
    With identity shuffles for stages 2-4 the stage-5 pile is deck[18], deck[29], deck[40], deck[51].
    """
    ch = [c for c in range(52) if suit(c) in (0, 2) and c not in Cs("2C AH 5C 5H")]
    ds = [c for c in range(52) if suit(c) in (1, 3)]
    assert len(ch) == 22 and len(ds) == 26
    deck = ch[:18] + [C("5C")] + ch[18:22] + ds[:6] + [C("5H")] + ds[6:16] + [C("AH")] + ds[16:26] + [C("2C")]
    assert sorted(deck) == list(range(52))
    # pile = [5C, 5H, AH, 2C] -> new_pile = [2C, AH, then the face-up cards].
    shuffles = IDENTITY[:3] + [[3, 2, 0, 1] if second_trump_first else [3, 2, 1, 0]]

    def key(c):
        kept = c in Cs("2C AH")
        return (kept, suit(c) in (1, 3), c)

    for rules in (SEED, RoundsRules(dealer_rotation="game")):
        for first_dealer in (0, 1):
            record = play_game(first_dealer, deck, shuffles, rules, [Preference(key), Preference(key)])
            stage = record.stages[4]
            dealer = stage.dealer
            assert dealer == first_dealer
            face_up = Cs("5C 5H") if second_trump_first else Cs("5H 5C")
            assert stage.face_up == face_up
            assert C("2C") in stage.hands_after_deal[1 - dealer] and C("AH") in stage.hands_after_deal[dealer]
            assert all(len(h) == 5 for h in stage.hands_after_deal)
            assert [t.trump_card for t in stage.tricks] == [face_up[0]] * 4 + [face_up[1]]
            last = stage.tricks[4]
            assert sorted(last.cards) == Cs("2C AH")
            # trick 5 is under the second face-up card: clubs -> 2C (the non-dealer's) wins; hearts -> AH.
            assert last.winner == (dealer if second_trump_first else 1 - dealer)
            # The first four tricks were under the first card: no club or heart was in them.
            assert all(suit(c) in (1, 3) for t in stage.tricks[:4] for c in t.cards)


def test_stage_5_views_show_both_face_up_cards_and_the_trick_5_trump():
    ch = [c for c in range(52) if suit(c) in (0, 2) and c not in Cs("2C AH 5C 5H")]
    ds = [c for c in range(52) if suit(c) in (1, 3)]
    deck = ch[:18] + [C("5C")] + ch[18:22] + ds[:6] + [C("5H")] + ds[6:16] + [C("AH")] + ds[16:26] + [C("2C")]
    shuffles = IDENTITY[:3] + [[3, 2, 1, 0]]
    players = [Preference(lambda c: (c in Cs("2C AH"), suit(c) in (1, 3), c)) for _ in range(2)]
    play_game(0, deck, shuffles, RANKS, players)
    views = [v for p in players for v in p.views if v.stage[0] == 4]
    assert len(views) == 10
    for v in views:
        assert list(v.face_up[0]) == Cs("5H 5C")
        if v.trick[0] == 4:
            assert (v.trump[0], v.trump_rank[0]) == (0, 3)  # clubs, rank 5
        else:
            assert (v.trump[0], v.trump_rank[0]) == (2, 3)  # hearts, rank 5
    earlier = [v for p in players for v in p.views if v.stage[0] < 4]
    assert len(earlier) == 40 and all(v.face_up[0, 1] == -1 for v in earlier)


def test_stage_1_deal_starts_with_the_non_dealer():
    rng = np.random.default_rng(5)
    deck, shuffles = random_randomness(rng)
    for first_dealer in (0, 1):
        record = play_game(first_dealer, deck, shuffles, SEED, [lowest(), lowest()])
        stage = record.stages[0]
        assert stage.hands_after_deal[1 - first_dealer] == sorted(deck[0:18:2])
        assert stage.hands_after_deal[first_dealer] == sorted(deck[1:18:2])
        assert stage.face_up == [deck[18]]
        assert stage.tricks[0].leader == 1 - first_dealer


def test_stages_2_to_4_deal_from_the_shuffled_stock_and_face_up_card():
    rng = np.random.default_rng(11)
    for _ in range(5):
        deck, shuffles = random_randomness(rng)
        for rules in (SEED, ORIGINAL):
            record = play_game(1, deck, shuffles, rules, [highest(), lowest()])
            stock, face_up = deck[19:], [deck[18]]
            for s in range(1, 5):
                stage, previous = record.stages[s], record.stages[s - 1]
                pile = stock + face_up
                new_pile = [pile[i] for i in shuffles[s - 1]]
                kept = [
                    set(previous.hands_after_deal[p]) - {c for t in previous.tricks for c in t.cards}
                    for p in (0, 1)
                ]
                new = [set(stage.hands_after_deal[p]) - kept[p] for p in (0, 1)]
                nd = 1 - stage.dealer
                if s < 4:
                    assert new[nd] == set(new_pile[0:10:2]) and new[stage.dealer] == set(new_pile[1:10:2])
                    assert stage.face_up == [new_pile[10]]
                    stock, face_up = new_pile[11:], [new_pile[10]]
                else:
                    assert new[nd] == {new_pile[0]} and new[stage.dealer] == {new_pile[1]}
                    assert stage.face_up == new_pile[2:4]
                assert [len(h) for h in stage.hands_after_deal] == [9, 9] if s < 4 else [5, 5]


@pytest.mark.parametrize("first_dealer", [0, 1])
def test_dealer_rotation_and_who_leads(first_dealer):
    deck, shuffles = random_randomness(np.random.default_rng(3))
    other = 1 - first_dealer
    stage_rot = play_game(first_dealer, deck, shuffles, SEED, [lowest(), highest()])
    assert [s.dealer for s in stage_rot.stages] == [first_dealer, other, first_dealer, other, first_dealer]
    game_rot = play_game(
        first_dealer, deck, shuffles, RoundsRules(dealer_rotation="game"), [lowest(), highest()]
    )
    assert [s.dealer for s in game_rot.stages] == [first_dealer] * 5
    for record in (stage_rot, game_rot):
        for stage in record.stages:
            assert stage.tricks[0].leader == 1 - stage.dealer
            for before, after in zip(stage.tricks, stage.tricks[1:]):
                assert after.leader == before.winner


# ---------------------------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize("rules", [SEED, RANKS, ORIGINAL, RoundsRules(dealer_rotation="game")])
def test_random_games_play_every_card_once(rules):
    rng = np.random.default_rng(2024)
    for game in range(100):
        deck, shuffles = random_randomness(rng)
        players = [Uniform(rules), Uniform(rules)]
        record = play_game(game % 2, deck, shuffles, rules, players, rng, scores=(game, 2 * game))
        played = [c for _, _, c in record.moves]
        assert len(played) == 50 and len(set(played)) == 50
        assert sorted(played + record.stages[4].face_up) == list(range(52))
        assert played == [c for s in record.stages for t in s.tricks for c in t.cards]
        assert [p for _, p, _ in record.moves] == [
            p for s in record.stages for t in s.tricks for p in (t.leader, 1 - t.leader)
        ]
        total = [0, 0]
        for stage in record.stages:
            assert len(stage.tricks) == 5 and sum(stage.tricks_won) == 5
            stage_cards = [c for t in stage.tricks for c in t.cards]
            for t in stage.tricks:
                for p, c in zip((t.leader, 1 - t.leader), t.cards):
                    assert c in stage.hands_after_deal[p]
            for p in (0, 1):
                assert sorted(stage.taken[p]) == sorted(
                    c for t in stage.tricks if t.winner == p for c in t.cards
                )
                assert stage.tricks_won[p] == sum(t.winner == p for t in stage.tricks)
            if stage.sweep is None:
                assert 5 not in stage.tricks_won
                assert sum(stage.points) == card_points_of(stage_cards, rules)
                assert stage.points == tuple(card_points_of(stage.taken[p], rules) for p in (0, 1))
            else:
                assert stage.tricks_won[stage.sweep] == 5
                assert stage.points[stage.sweep] == rules.sweep_bonus and stage.points[1 - stage.sweep] == 0
            for t in stage.tricks:
                assert t.winner == trick_winner(t.leader, t.cards, t.trump_card, rules)
            total = [total[0] + stage.points[0], total[1] + stage.points[1]]
        assert record.points == tuple(total)
        for player in players:
            assert all(list(v.scores[0]) == [game, 2 * game] for v in player.views)
        json.dumps(game_to_dict(record))


def test_views_track_stage_points_tricks_and_game_points():
    rules = RANKS
    rng = np.random.default_rng(8)
    deck, shuffles = random_randomness(rng)
    players = [Uniform(rules), Uniform(rules)]
    record = play_game(0, deck, shuffles, rules, players, rng)
    views = sorted((v for p in players for v in p.views), key=lambda v: int(v.n_played[0]))
    assert [int(v.n_played[0]) for v in views] == list(range(50))
    for v in views:
        s, t = int(v.stage[0]), int(v.trick[0])
        stage = record.stages[s]
        done = stage.tricks[:t]
        assert list(v.stage_tricks[0]) == [sum(x.winner == p for x in done) for p in (0, 1)]
        assert list(v.stage_points[0]) == [
            card_points_of([c for x in done if x.winner == p for c in x.cards], rules) for p in (0, 1)
        ]
        assert list(v.points[0]) == [sum(st.points[p] for st in record.stages[:s]) for p in (0, 1)]
        assert v.dealer[0] == stage.dealer and v.leader[0] == stage.tricks[t].leader
        hand = bits_to_ids(int(v.hand[0]))
        seat = int(v.seat[0])
        assert set(hand) <= set(stage.hands_after_deal[seat])
        trick = stage.tricks[t]
        expected_led = -1 if seat == trick.leader else trick.cards[0]
        assert v.led[0] == expected_led


def test_a_sweep_scores_the_bonus_not_the_cards():
    # Player 1 (the non-dealer) holds AS and eight low spades under a spade trump; player 0 holds 2H..10H.
    # Playing his highest card he takes AS 10S 9S 8S 7S and 2H 3H 4H 5H 6H: 14 card points, scored as 10.
    deck = build_deck(Cs("AS 10S 9S 8S 7S 6S 5S 4S 3S"), Cs("2H 3H 4H 5H 6H 7H 8H 9H 10H"), {18: C("2S")})
    p0, p1 = lowest(), highest()
    record = play_game(0, deck, IDENTITY, SEED, [p0, p1])
    stage = record.stages[0]
    assert [t.cards for t in stage.tricks] == [
        [C("AS"), C("2H")],
        [C("10S"), C("3H")],
        [C("9S"), C("4H")],
        [C("8S"), C("5H")],
        [C("7S"), C("6H")],
    ]
    assert sorted(stage.taken[1]) == sorted(Cs("AS 10S 9S 8S 7S 2H 3H 4H 5H 6H"))
    assert card_points_of(stage.taken[1]) == 14
    assert stage.tricks_won == (0, 5) and stage.sweep == 1 and stage.points == (0, 10)
    assert record.points == tuple(sum(s.points[p] for s in record.stages) for p in (0, 1))
    # Player 0's last view of stage 1 shows the 14 card points taken; stage 2's views show the 10.
    last = [v for v in p0.views if v.stage[0] == 0][-1]
    assert list(last.stage_tricks[0]) == [0, 4] and list(last.stage_points[0]) == [0, 14]
    assert list(last.points[0]) == [0, 0]
    first_of_stage_2 = [v for v in p0.views + p1.views if v.stage[0] == 1 and v.n_played[0] == 10]
    assert len(first_of_stage_2) == 1
    assert list(first_of_stage_2[0].points[0]) == [0, 10] and list(first_of_stage_2[0].stage_points[0]) == [
        0,
        0,
    ]
    # A bigger bonus.
    record = play_game(0, deck, IDENTITY, RoundsRules(sweep_bonus=30), [lowest(), highest()])
    assert record.stages[0].points == (0, 30)


def test_illegal_play_raises_naming_strategy_player_and_card():
    deck = build_deck(Cs("AS 10S 9S 8S 7S 6S 5S 4S 3S"), Cs("2H 3H 4H 5H 6H 7H 8H 9H 2S"), {18: C("KD")})

    class Revoke:
        spec = "revoker"

        def decide(self, kind, view, legal, rng):
            if view.led[0] >= 0:
                return np.array([C("2H")])  # holds 2S: must follow spades
            return np.array([int(np.flatnonzero(legal[0])[0])])

    with pytest.raises(IllegalAction, match=r"revoker.*player 0.*2H"):
        play_game(0, deck, IDENTITY, SEED, [Revoke(), highest()])

    class NotHeld:
        def decide(self, kind, view, legal, rng):
            return np.array([C("AC")])

    with pytest.raises(IllegalAction, match=r"NotHeld.*player 1.*AC"):
        play_game(0, deck, IDENTITY, SEED, [lowest(), NotHeld()])


def test_format_and_dict():
    deck = build_deck(Cs("AS 10S 9S 8S 7S 6S 5S 4S 3S"), Cs("2H 3H 4H 5H 6H 7H 8H 9H 10H"), {18: C("2S")})
    record = play_game(0, deck, IDENTITY, SEED, [lowest(), highest()])
    text = format_game(record)
    assert "Stage 1: player 0 deals" in text and "Stage 5" in text
    assert "player 1 leads AS, player 0 plays 2H -> player 1" in text
    assert "Player 1: 3S 4S 5S 6S 7S 8S 9S 10S AS" in text
    assert "sweep" in text and f"Game score: player 0 {record.points[0]}, player 1 {record.points[1]}" in text
    data = json.loads(json.dumps(game_to_dict(record)))
    assert data["stages"][0]["face_up"] == ["2S"]
    assert data["stages"][0]["points"] == [0, 10] and data["stages"][0]["sweep"] == 1
    assert data["stages"][0]["tricks"][0] == {
        "leader": 1,
        "cards": ["AS", "2H"],
        "winner": 1,
        "trump_card": "2S",
    }
    assert len(data["moves"]) == 50 and data["moves"][0] == [1, "AS"]
    assert len(data["stages"][4]["face_up"]) == 2


# ---------------------------------------------------------------------------------------------------------
# Match


def test_match_winner_rules():
    assert match_winner((199, 150), 200) is None
    assert match_winner((200, 150), 200) == 0
    assert match_winner((150, 230), 200) == 1
    assert match_winner((205, 210), 200) == 1  # both reached: the higher total
    assert match_winner((240, 210), 200) == 0
    assert match_winner((210, 210), 200) is None  # equal: another game
    assert match_winner((199, 199), 200) is None


@pytest.mark.parametrize("first_dealer", [0, 1])
def test_play_match(first_dealer):
    rules = RoundsRules(target=120)
    rng = np.random.default_rng(77)
    decks = {}

    def deal(game_no, dealer):
        decks[game_no] = random_randomness(np.random.default_rng(1000 + game_no))
        return decks[game_no]

    players = [Uniform(rules), Uniform(rules)]
    match = play_match(deal, first_dealer, rules, players, rng)
    assert match.first_dealer == first_dealer and match.winner is not None
    assert len(match.deals) >= 2
    totals = [0, 0]
    for g, game in enumerate(match.deals):
        assert isinstance(game, GameRecord)
        assert game.first_dealer == (first_dealer if g % 2 == 0 else 1 - first_dealer)
        assert game.stages[0].dealer == game.first_dealer
        assert game.stages[0].hands_after_deal[1 - game.first_dealer] == sorted(decks[g][0][0:18:2])
        seen = {tuple(int(x) for x in v.scores[0]) for p in players for v in p.views[25 * g : 25 * (g + 1)]}
        assert seen == {tuple(totals)}
        if g > 0:
            assert match_winner(totals, rules.target) is None
        totals = [totals[0] + game.points[0], totals[1] + game.points[1]]
    assert match.totals == tuple(totals)
    assert match.winner == match_winner(totals, rules.target)


def test_play_match_game_limit():
    rng = np.random.default_rng(4)
    match = play_match(
        lambda g, dealer: random_randomness(np.random.default_rng(g)),
        1,
        RoundsRules(target=100_000),
        [lowest(), highest()],
        rng,
        max_games=3,
    )
    assert match.winner is None and len(match.deals) == 3
    assert [g.first_dealer for g in match.deals] == [1, 0, 1]
    assert match.totals == tuple(sum(g.points[p] for g in match.deals) for p in (0, 1))
