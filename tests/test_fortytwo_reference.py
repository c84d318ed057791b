"""The scalar reference engine against the rules file's checks and the seed's examples."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simulator.errors import DealsimError, IllegalAction
from simulator.fortytwo.dominoes import bits_to_ids, domino_id
from simulator.fortytwo.reference import (
    HandRecord,
    auction_over,
    count_points,
    follows,
    format_hand,
    hand_score,
    hand_to_dict,
    is_trump,
    led_suit,
    legal_calls,
    legal_plays,
    match_winner,
    play_hand,
    play_match,
    trick_winner,
)
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_VALUE, CALL, MAX_CALLS, N_ACTIONS, PLAY, TRUMP

N, E, S, W = 0, 1, 2, 3
SEED = FortyTwoRules()
TEXAS = FortyTwoRules(count_values="texas", auction="one-lap", jump_bids=True)


def D(text: str) -> int:
    """'6-4' -> domino id."""
    a, b = text.split("-")
    return domino_id(int(a), int(b))


def Ds(text: str) -> list[int]:
    return [D(t) for t in text.split()]


def bid(value: int) -> int:
    """Call action of a bid value."""
    return {84: 43, 168: 44}.get(value, value)


class Scripted:
    """Plays pre-set actions in order and checks every one is in the legal mask it is given."""

    spec = "scripted"

    def __init__(self, calls=(), trump=None, plays=()):
        self.calls = list(calls)
        self.trump = trump
        self.plays = list(plays)
        self.seen = []  # (kind, view, legal)

    def decide(self, kind, view, legal, rng):
        assert legal.shape == (1, N_ACTIONS[kind]) and legal.dtype == bool
        assert len(view) == 1
        if kind == CALL:
            action = self.calls.pop(0)
        elif kind == TRUMP:
            action = self.trump
        else:
            action = self.plays.pop(0) if self.plays else int(np.flatnonzero(legal[0])[0])
        assert legal[0, action], f"scripted action {action} of kind {kind} is not legal"
        self.seen.append((kind, view, legal.copy()))
        return np.array([action])


class RandomLegal:
    """Uniform among the legal actions, with the engine's generator."""

    def decide(self, kind, view, legal, rng):
        return np.array([rng.choice(np.flatnonzero(legal[0]))])


class FirstLegal:
    """The lowest legal action: deterministic."""

    def decide(self, kind, view, legal, rng):
        return np.array([int(np.flatnonzero(legal[0])[0])])


def random_deal(rng: np.random.Generator) -> list[list[int]]:
    order = rng.permutation(28)
    return [sorted(int(d) for d in order[7 * i : 7 * i + 7]) for i in range(4)]


# --- counting -----------------------------------------------------------------------------------------------


def test_count_points_seed_and_texas():
    texas = FortyTwoRules(count_values="texas")
    seed_counts = {d: count_points(d, SEED) for d in range(28) if count_points(d, SEED)}
    assert seed_counts == {D("5-0"): 7, D("4-1"): 7, D("3-2"): 7, D("5-5"): 7, D("6-4"): 7}
    texas_counts = {d: count_points(d, texas) for d in range(28) if count_points(d, texas)}
    assert texas_counts == {D("5-0"): 5, D("4-1"): 5, D("3-2"): 5, D("5-5"): 10, D("6-4"): 10}
    assert count_points(D("0-0"), SEED) == 0
    assert sum(count_points(d, SEED) for d in range(28)) == 35
    assert sum(count_points(d, texas) for d in range(28)) == 35


# --- auction ------------------------------------------------------------------------------------------------


def test_seed_example_auction_ep_play_for_84():
    # W 30, N 42, E 84, S pass, W pass, N pass: W speaks first, so S deals.
    scripts = [
        Scripted(calls=[bid(42), 0], trump=0),
        Scripted(calls=[bid(84)], trump=6),
        Scripted(calls=[0]),
        Scripted(calls=[30, 0]),
    ]
    hands = [
        Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
        Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
        Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
        Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
    ]
    rec = play_hand(hands, S, SEED, scripts)
    assert rec.calls == [(W, 30), (N, 42), (E, 43), (S, 0), (W, 0), (N, 0)]
    assert rec.declarer == E and rec.bid == 84 and rec.trump == 6
    # E holds all seven sixes: E-W take every trick and score 42, N-S nothing.
    assert [t.winner for t in rec.tricks] == [E] * 7
    assert rec.points == (0, 42) and rec.score == (0, 42) and rec.made is True


def test_seed_example_84_set():
    # Same auction; now N holds all the sixes, E names sixes: N-S take every trick: 84 + 42 for them.
    scripts = [
        Scripted(calls=[bid(42), 0]),
        Scripted(calls=[bid(84)], trump=6),
        Scripted(calls=[0]),
        Scripted(calls=[30, 0]),
    ]
    hands = [
        Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
        Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
        Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
        Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
    ]
    rec = play_hand(hands, S, SEED, scripts)
    assert [t.winner for t in rec.tricks] == [N] * 7
    assert rec.points == (42, 0) and rec.score == (126, 0) and rec.made is False


def test_four_passes_throw_in_seed_and_one_lap():
    hands = [
        Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
        Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
        Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
        Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
    ]
    for rules in (SEED, TEXAS):
        assert auction_over([0, 0, 0], rules) is False
        assert auction_over([0, 0, 0, 0], rules) is True
        rec = play_hand(hands, W, rules, [Scripted(calls=[0]) for _ in range(4)])
        assert rec.thrown_in is True and rec.calls == [(N, 0), (E, 0), (S, 0), (W, 0)]
        assert rec.declarer is None and rec.bid == 0 and rec.trump is None and rec.tricks == []
        assert rec.score == (0, 0) and rec.points == (0, 0) and rec.made is None
        assert len(rec.moves) == 4
        assert "thrown in" in format_hand(rec)


def test_seed_auction_end_and_bid_once():
    # three passes after a bid end it; three opening passes do not
    assert auction_over([30, 0, 0], SEED) is False
    assert auction_over([30, 0, 0, 0], SEED) is True
    assert auction_over([0, 0, 0, 30, 0, 0], SEED) is False
    assert auction_over([0, 0, 0, 30, 0, 0, 0], SEED) is True
    assert auction_over([30, 0, 0, 31, 0, 0], SEED) is False
    # a seat that bid can only pass
    assert legal_calls([30, 0, 0, 31], SEED) == [0]
    assert legal_calls([30, 31, 32, 33], SEED) == [0]
    assert auction_over([30, 31, 32, 33, 0, 0, 0], SEED) is True
    # a pass does not bar a later bid
    assert legal_calls([0, 30, 0, 0], SEED) == [0, *range(31, 43)]
    # the longest seed auction fills MAX_CALLS
    longest = [0, 0, 0, 30, 0, 0, 31, 0, 0, 32, 0, 0, 33, 0, 0, 0]
    assert len(longest) == MAX_CALLS and auction_over(longest, SEED)
    assert all(not auction_over(longest[:k], SEED) for k in range(len(longest)))


def test_one_lap_each_calls_once():
    assert auction_over([30, 0, 0], TEXAS) is False
    assert auction_over([30, 0, 0, 0], TEXAS) is True
    assert auction_over([0, 30, 31, 32], TEXAS) is True
    assert legal_calls([0, 30, 31], TEXAS) == [0, *range(32, 43), 43]


def test_ladder_jump_bids_and_168():
    no_jump = FortyTwoRules(jump_bids=False)
    jump = FortyTwoRules(jump_bids=True)
    assert legal_calls([], no_jump) == [0, *range(30, 43)]
    assert legal_calls([], jump) == [0, *range(30, 43), 43]  # 84 may open with jump bids
    assert legal_calls([35], no_jump) == [0, *range(36, 43)]
    assert legal_calls([35], jump) == [0, *range(36, 43), 43]
    assert legal_calls([42], no_jump) == [0, 43]  # 84 only over a 42
    assert legal_calls([42], jump) == [0, 43]
    assert legal_calls([42, 43], no_jump) == [0, 44]  # 168 only over an 84
    assert legal_calls([43], jump) == [0, 44]
    assert legal_calls([42, 43, 44], no_jump) == [0]
    assert 44 not in legal_calls([42], jump) and 44 not in legal_calls([], jump)
    assert legal_calls([], FortyTwoRules(min_bid=40)) == [0, 40, 41, 42]
    assert [int(BID_VALUE[a]) for a in (0, 30, 42, 43, 44)] == [0, 30, 42, 84, 168]


def test_longest_auction_through_play_hand_and_views():
    # N deals: E, S, W pass, N 30, E, S pass, W 31, N pass, E pass, S 32, W, N pass, E 33, S, W, N pass
    scripts = [
        Scripted(calls=[30, 0, 0, 0]),
        Scripted(calls=[0, 0, 0, 33], trump=3),
        Scripted(calls=[0, 0, 32, 0]),
        Scripted(calls=[0, 31, 0, 0]),
    ]
    hands = [
        Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
        Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
        Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
        Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
    ]
    rec = play_hand(hands, N, SEED, scripts)
    assert len(rec.calls) == 16 and rec.declarer == E and rec.bid == 33
    last_call_view = [v for k, v, _ in scripts[N].seen if k == CALL][-1]
    assert last_call_view.calls.shape == (1, MAX_CALLS) and last_call_view.n_calls[0] == 15
    assert last_call_view.calls[0].tolist() == [0, 0, 0, 30, 0, 0, 31, 0, 0, 32, 0, 0, 33, 0, 0, -1]
    assert last_call_view.high_bid[0] == 33 and last_call_view.high_bidder[0] == E


# --- following, trumps, the trick winner --------------------------------------------------------------------


def test_fours_trump_2_1_lead_4_2_need_not_follow():
    assert is_trump(D("4-2"), 4) and led_suit(D("2-1"), 4) == 2
    assert not follows(D("4-2"), 2, 4)
    assert legal_plays(Ds("4-2 3-3 6-0"), [D("2-1")], 4) == [D("3-3"), D("4-2"), D("6-0")]
    # with a real deuce he must play it
    assert legal_plays(Ds("4-2 2-0 6-0"), [D("2-1")], 4) == [D("2-0")]


def test_5_3_lead_5_6_follows_3_6_does_not():
    assert led_suit(D("5-3"), 0) == 5
    assert follows(D("6-5"), 5, 0) and not follows(D("6-3"), 5, 0)
    assert legal_plays(Ds("6-5 6-3 1-0"), [D("5-3")], 0) == [D("6-5")]
    assert legal_plays(Ds("6-3 1-1"), [D("5-3")], 0) == [D("1-1"), D("6-3")]
    # sixes trump: 6-5 is a trump, not a five; the led 6-5 leads trumps
    assert not follows(D("6-5"), 5, 6) and led_suit(D("6-5"), 6) == 7
    assert legal_plays(Ds("6-5 4-0"), [D("5-3")], 6) == [D("4-0"), D("6-5")]


def test_trump_lead_must_be_followed_by_a_trump():
    assert led_suit(D("4-4"), 4) == 7
    assert legal_plays(Ds("4-1 6-6 5-5"), [D("4-4")], 4) == [D("4-1")]
    assert legal_plays(Ds("6-6 5-5"), [D("4-4")], 4) == [D("5-5"), D("6-6")]
    assert legal_plays(Ds("6-6 5-5"), [], 4) == [D("5-5"), D("6-6")]


def test_double_tops_its_suit():
    plays = [(N, D("5-4")), (E, D("5-5")), (S, D("6-5")), (W, D("5-0"))]
    assert trick_winner(plays, 1) == E
    assert trick_winner([(N, D("5-4")), (E, D("6-5")), (S, D("5-0")), (W, D("3-3"))], 1) == E
    assert trick_winner([(N, D("5-4")), (E, D("6-5")), (S, D("5-0")), (W, D("1-1"))], 1) == W  # 1-1 trumps
    # in trumps: the double, then by the non-trump end
    assert trick_winner([(N, D("6-4")), (E, D("4-4")), (S, D("4-0")), (W, D("5-4"))], 4) == E
    assert trick_winner([(N, D("4-0")), (E, D("4-1")), (S, D("6-4")), (W, D("5-4"))], 4) == S


def test_trump_beats_the_led_suit_and_off_suit_never_wins():
    assert trick_winner([(N, D("6-6")), (E, D("1-0")), (S, D("6-5")), (W, D("6-2"))], 1) == E
    assert trick_winner([(W, D("2-1")), (N, D("6-6")), (E, D("2-0")), (S, D("5-5"))], 3) == W
    assert trick_winner([(W, D("2-1")), (N, D("6-6")), (E, D("2-2")), (S, D("5-5"))], 3) == E
    # 5-3 led, 6-3 played (not a five), 5-4 wins
    assert trick_winner([(S, D("5-3")), (W, D("6-3")), (N, D("5-4")), (E, D("0-0"))], 1) == N


# --- scoring ------------------------------------------------------------------------------------------------


def test_hand_score_every_contract():
    # seed example: W bids 30, E-W take 30, N-S 12 -> 30 : 12 (here N-S first)
    assert hand_score(30, 1, (12, 30)) == ((12, 30), True)
    assert hand_score(30, 1, (13, 29)) == ((43, 0), False)
    assert hand_score(41, 0, (41, 1)) == ((41, 1), True)
    assert hand_score(41, 0, (40, 2)) == ((0, 43), False)
    assert hand_score(31, 0, (42, 0)) == ((42, 0), True)
    # 42 / 84 / 168: made only with all 42 points (all seven tricks): 42 for declarers only
    for contract in (42, 84, 168):
        assert hand_score(contract, 0, (42, 0)) == ((42, 0), True)
        assert hand_score(contract, 1, (0, 42)) == ((0, 42), True)
        assert hand_score(contract, 1, (1, 41)) == ((1 + contract, 0), False)
        assert hand_score(contract, 0, (35, 7)) == ((0, 7 + contract), False)
    assert hand_score(84, 1, (12, 30)) == ((96, 0), False)  # seed: N-S get 84 + their points
    assert hand_score(42, 0, (30, 12)) == ((0, 54), False)


def test_match_winner():
    assert match_winner((249, 249), 0, 250) is None
    assert match_winner((250, 10), 1, 250) == 0
    assert match_winner((10, 300), 0, 250) == 1
    assert match_winner((260, 255), 1, 250) == 0
    assert match_winner((255, 290), 0, 250) == 1
    assert match_winner((255, 255), 1, 250) == 1
    assert match_winner((255, 255), 0, 250) == 0


# --- a full hand built by hand: seed example 30 : 12 --------------------------------------------------------

HANDS_30_12 = [
    Ds("5-0 5-1 5-2 5-3 5-4 6-5 6-3"),
    Ds("6-4 6-6 4-2 3-0 3-1 3-3 4-0"),
    Ds("4-1 3-2 4-3 4-4 6-0 6-1 6-2"),
    Ds("5-5 0-0 1-0 1-1 2-0 2-1 2-2"),
]


def scripts_30_12():
    return [
        Scripted(calls=[0], plays=Ds("5-0 6-3 5-4 5-3 5-2 5-1 6-5")),
        Scripted(calls=[0], plays=Ds("6-4 6-6 4-2 3-0 3-1 3-3 4-0")),
        Scripted(calls=[0], plays=Ds("4-1 6-0 4-4 3-2 4-3 6-1 6-2")),
        Scripted(calls=[30], trump=6, plays=Ds("5-5 0-0 1-0 1-1 2-0 2-1 2-2")),
    ]


def test_seed_example_30_12_played():
    rec = play_hand(HANDS_30_12, S, SEED, scripts_30_12(), scores=(5, 7))
    assert rec.calls == [(W, 30), (N, 0), (E, 0), (S, 0)]
    assert rec.declarer == W and rec.bid == 30 and rec.trump == 6
    assert [t.leader for t in rec.tricks] == [W, E, E, S, N, N, S]
    assert [t.winner for t in rec.tricks] == [E, E, S, N, N, S, N]
    assert [t.points for t in rec.tricks] == [29, 1, 1, 8, 1, 1, 1]
    assert rec.tricks[0].plays == [(W, D("5-5")), (N, D("5-0")), (E, D("6-4")), (S, D("4-1"))]
    assert rec.points == (12, 30) and rec.score == (12, 30) and rec.made is True
    assert rec.moves[:5] == [(CALL, W, 30), (CALL, N, 0), (CALL, E, 0), (CALL, S, 0), (TRUMP, W, 6)]
    assert rec.moves[5] == (PLAY, W, D("5-5")) and len(rec.moves) == 4 + 1 + 28
    assert rec.hands == [sorted(h) for h in HANDS_30_12]


def test_views_in_the_30_12_hand():
    scripts = scripts_30_12()
    play_hand(HANDS_30_12, S, SEED, scripts, scores=(5, 7))
    first_call = scripts[W].seen[0][1]
    assert first_call.seat[0] == W and first_call.dealer[0] == S
    assert sorted(bits_to_ids(int(first_call.hand[0]))) == sorted(HANDS_30_12[W])
    assert first_call.calls[0].tolist() == [-1] * MAX_CALLS and first_call.n_calls[0] == 0
    assert (first_call.high_bid[0], first_call.high_bidder[0], first_call.trump[0]) == (0, -1, -1)
    assert (first_call.leader[0], first_call.led[0], first_call.winner[0], first_call.winning[0]) == (-1,) * 4
    assert first_call.plays[0].tolist() == [-1] * 28 and first_call.n_played[0] == 0
    assert first_call.played[0] == 0 and first_call.points[0].tolist() == [0, 0]
    assert first_call.scores[0].tolist() == [5, 7]
    dtypes = {f: a.dtype for f, a in first_call.arrays().items()}
    assert dtypes == {
        "seat": np.int8,
        "dealer": np.int8,
        "hand": np.uint32,
        "calls": np.int8,
        "n_calls": np.int8,
        "high_bid": np.int16,
        "high_bidder": np.int8,
        "trump": np.int8,
        "ctx": np.int8,
        "plays": np.int8,
        "n_played": np.int8,
        "trick_start": np.int8,
        "leader": np.int8,
        "led": np.int8,
        "winner": np.int8,
        "winning": np.int8,
        "played": np.uint32,
        "points": np.int16,
        "scores": np.int32,
    }
    assert first_call.points.shape == (1, 2) and first_call.plays.shape == (1, 28)

    last_call = scripts[S].seen[0][1]
    assert last_call.calls[0, :4].tolist() == [30, 0, 0, -1] and last_call.n_calls[0] == 3
    assert last_call.high_bid[0] == 30 and last_call.high_bidder[0] == W and last_call.leader[0] == -1

    kind, trump_view, legal = scripts[W].seen[1]
    assert kind == TRUMP and legal[0].tolist() == [True] * 7 + [False] * 4  # the seed names pips only
    assert (trump_view.leader[0], trump_view.trump[0], trump_view.n_calls[0]) == (W, -1, 4)

    kind, lead_view, legal = scripts[W].seen[2]
    assert kind == PLAY and lead_view.leader[0] == W and lead_view.trump[0] == 6
    assert (lead_view.led[0], lead_view.winner[0], lead_view.winning[0]) == (-1, -1, -1)
    assert sorted(np.flatnonzero(legal[0]).tolist()) == sorted(HANDS_30_12[W])

    # trick 3: E led 4-2, S 4-4, W 1-0; now N (holding 5-4) must follow fours
    kind, view, legal = next(s for s in scripts[N].seen if s[0] == PLAY and s[1].n_played[0] == 11)
    assert (view.leader[0], view.led[0], view.winner[0], view.winning[0]) == (E, 4, S, D("4-4"))
    assert view.points[0].tolist() == [0, 30] and view.scores[0].tolist() == [5, 7]
    assert np.flatnonzero(legal[0]).tolist() == [D("5-4")]
    assert sorted(bits_to_ids(int(view.hand[0]))) == sorted(Ds("5-1 5-2 5-3 5-4 6-5"))
    expected_plays = Ds("5-5 5-0 6-4 4-1 6-6 6-0 0-0 6-3 4-2 4-4 1-0")
    assert view.plays[0, :11].tolist() == expected_plays and (view.plays[0, 11:] == -1).all()
    assert sorted(bits_to_ids(int(view.played[0]))) == sorted(expected_plays)

    # trick 2 lead: E leads after winning trick 1, trick empty
    kind, view, _ = next(s for s in scripts[E].seen if s[0] == PLAY and s[1].n_played[0] == 4)
    assert (view.leader[0], view.led[0], view.winner[0], view.winning[0]) == (E, -1, -1, -1)
    assert view.points[0].tolist() == [0, 29]
    # trick 2: S follows a trump lead
    kind, view, legal = next(s for s in scripts[S].seen if s[0] == PLAY and s[1].n_played[0] == 5)
    assert (view.led[0], view.winner[0], view.winning[0]) == (7, E, D("6-6"))
    assert np.flatnonzero(legal[0]).tolist() == Ds("6-0 6-1 6-2")


def test_format_and_dict():
    rec = play_hand(HANDS_30_12, S, SEED, scripts_30_12())
    text = format_hand(rec)
    assert "S (dealer)" in text and "W 30, N pass, E pass, S pass" in text
    assert "W 5-5, N 5-0, E 6-4, S 4-1 -> E wins 29 points" in text
    assert "NS 12, EW 30" in text and "made" in text
    data = hand_to_dict(rec)
    assert json.loads(json.dumps(data)) == data
    assert data["dealer"] == "S" and data["declarer"] == "W" and data["bid"] == 30 and data["trump"] == 6
    assert data["calls"] == [["W", "30"], ["N", "pass"], ["E", "pass"], ["S", "pass"]]
    assert data["tricks"][0]["plays"] == [["W", "5-5"], ["N", "5-0"], ["E", "6-4"], ["S", "4-1"]]
    assert data["tricks"][0]["winner"] == "E" and data["score"] == [12, 30] and data["made"] is True
    assert data["hands"]["E"] == ["3-0", "3-1", "3-3", "4-0", "4-2", "6-4", "6-6"]
    assert data["moves"][4] == ["trump", "W", "6"]


# --- illegal actions ----------------------------------------------------------------------------------------


class Always84:
    spec = "always-84"

    def decide(self, kind, view, legal, rng):
        return np.array([43])


def test_illegal_action_names_strategy_seat_and_move():
    hands = HANDS_30_12
    with pytest.raises(IllegalAction, match=r"always-84.*seat W.*call 84"):
        play_hand(hands, S, SEED, [FirstLegal(), FirstLegal(), FirstLegal(), Always84()])

    class LeadsWrong:
        def decide(self, kind, view, legal, rng):
            return np.array([30 if kind == CALL else (6 if kind == TRUMP else D("6-6"))])

    with pytest.raises(IllegalAction, match=r"LeadsWrong.*seat W.*play 6-6"):
        play_hand(hands, S, SEED, [FirstLegal(), FirstLegal(), FirstLegal(), LeadsWrong()])


def test_bad_deal_rejected():
    with pytest.raises(DealsimError):
        play_hand([list(range(7))] * 4, 0, SEED, [FirstLegal()] * 4)


# --- random play --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [SEED, TEXAS, FortyTwoRules(count_values="texas"), FortyTwoRules(auction="one-lap", jump_bids=True)],
)
def test_random_hands_points_add_to_42(rules):
    rng = np.random.default_rng(42)
    strategies = [RandomLegal()] * 4
    played = 0
    impossible = {6, 7, 14, 21, 28, 35, 36}
    for hand_no in range(200):
        rec = play_hand(random_deal(rng), hand_no % 4, rules, strategies, rng)
        if rec.thrown_in:
            assert rec.score == (0, 0)
            continue
        played += 1
        assert sum(rec.points) == 42 and len(rec.tricks) == 7
        assert sorted(d for t in rec.tricks for _, d in t.plays) == list(range(28))
        assert sum(t.points for t in rec.tricks) == 42
        for t in rec.tricks:
            assert [s for s, _ in t.plays] == [(t.leader + i) % 4 for i in range(4)]
        assert [t.leader for t in rec.tricks[1:]] == [t.winner for t in rec.tricks[:-1]]
        assert rec.tricks[0].leader == rec.declarer
        if rules.count_values == "seed":
            assert rec.points[0] not in impossible and rec.points[1] not in impossible
        assert (rec.score, rec.made) == hand_score(rec.bid, rec.declarer % 2, rec.points)
        assert len(rec.moves) == len(rec.calls) + 1 + 28
    assert played > 150


def test_match_random_and_dealer_rotation():
    rng = np.random.default_rng(7)
    rules = FortyTwoRules(target=100)
    match = play_match(lambda hand_no, dealer: random_deal(rng), 2, rules, [RandomLegal()] * 4, rng)
    assert match.first_dealer == 2 and match.winner in (0, 1)
    assert [h.dealer for h in match.deals] == [(2 + i) % 4 for i in range(len(match.deals))]
    totals = (sum(h.score[0] for h in match.deals), sum(h.score[1] for h in match.deals))
    assert match.totals == totals and max(totals) >= 100
    last = match.deals[-1]
    assert match.winner == match_winner(totals, last.declarer % 2, 100)
    before = (totals[0] - last.score[0], totals[1] - last.score[1])
    assert max(before) < 100

    class AlwaysPass:
        def decide(self, kind, view, legal, rng):
            return np.array([0])

    capped = play_match(
        lambda hand_no, dealer: random_deal(rng), 0, FortyTwoRules(), [AlwaysPass()] * 4, rng, max_thrown_in=3
    )
    assert capped.winner is None and len(capped.deals) == 3 and [h.dealer for h in capped.deals] == [0, 1, 2]


def test_match_thrown_in_hand_rotates_dealer_and_scores_pass_on():
    # hand 0 (dealer N): four passes; hands 1 and 2: E holds all the sixes, bids 42 and takes every trick.
    sixes_e = [
        Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
        Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
        Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
        Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
    ]
    seen_scores = []

    class Player:
        def __init__(self, seat):
            self.seat = seat

        def decide(self, kind, view, legal, rng):
            if kind == CALL:
                seen_scores.append(tuple(view.scores[0].tolist()))
                hand_no = int(view.dealer[0])  # dealer 0 is hand 0, dealer 1 hand 1, ...
                want = 42 if (self.seat == E and hand_no >= 1) else 0
                assert legal[0, want]
                return np.array([want])
            if kind == TRUMP:
                return np.array([6])
            return np.array([int(np.flatnonzero(legal[0])[-1])])

    match = play_match(
        lambda hand_no, dealer: sixes_e, 0, FortyTwoRules(target=84), [Player(s) for s in range(4)]
    )
    assert [h.thrown_in for h in match.deals] == [True, False, False]
    assert [h.dealer for h in match.deals] == [0, 1, 2]
    assert [h.score for h in match.deals] == [(0, 0), (0, 42), (0, 42)]
    assert match.totals == (0, 84) and match.winner == 1
    assert seen_scores[:4] == [(0, 0)] * 4 and seen_scores[-1] == (0, 42)


def test_match_both_reach_target_in_one_hand():
    # the 30 : 12 hand with target 12: both sides reach it, E-W have more
    match = play_match(lambda hand_no, dealer: HANDS_30_12, 2, FortyTwoRules(target=12), scripts_30_12())
    assert len(match.deals) == 1 and match.totals == (12, 30) and match.winner == 1
    # target 13: only E-W reach it
    match = play_match(lambda hand_no, dealer: HANDS_30_12, 2, FortyTwoRules(target=13), scripts_30_12())
    assert match.winner == 1 and isinstance(match.deals[0], HandRecord)


def test_same_generator_same_hand():
    deal = random_deal(np.random.default_rng(3))
    a = play_hand(deal, 1, SEED, [RandomLegal()] * 4, np.random.default_rng(9))
    b = play_hand(deal, 1, SEED, [RandomLegal()] * 4, np.random.default_rng(9))
    assert a == b
