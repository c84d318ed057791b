"""Texas 42 in the batched core, on hand-built positions: doubles and no-trump declarations, nello, plunge,
splash, sevens, and the marks game. (The reference engine is checked on the same points in its own tests,
and the two engines against each other in test_fortytwo_equivalence.)"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator import app
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import (
    BID_84,
    BID_126,
    BID_168,
    BID_210,
    CALL,
    DONE,
    DOUBLES,
    NELLO,
    NO_TRUMP,
    PLAY,
    PLUNGE,
    SEVENS,
    SPLASH,
    TRUMP,
    call_action,
)
from simulator.options import build
from simulator.specs import Execution, RunSpec
from tests.test_fortytwo_core import E, N, S, W, ids, one_hand

TEXAS = build(FortyTwoRules, "rule", PRESETS["texas"])
HOUSE = FortyTwoRules(declarations="pips,doubles,no-trump", nello=True, plunge=True, splash=True, sevens=True)


def act(s: core.HandState, rules: FortyTwoRules, *actions: int) -> None:
    for a in actions:
        core.apply(s, slice(None), int(s.phase[0]), np.array([a]), rules)


def legal(s: core.HandState, rules: FortyTwoRules) -> np.ndarray:
    return core.inputs(s, slice(None), int(s.phase[0]), rules)[1][0]


def legal_plays(s: core.HandState, rules: FortyTwoRules) -> set[str]:
    return {D.name(d) for d in np.flatnonzero(legal(s, rules))}


def declared(
    hands: dict[int, str], rules: FortyTwoRules, what: int, bid: int = 30, leader: int = W, *leads: str
) -> core.HandState:
    """`leader` wins the auction at `bid` (the others pass), names `what`, then `leads` are played."""
    s = one_hand(hands, dealer=(leader - 1) & 3)
    act(s, rules, call_action(bid), 0, 0, 0)
    act(s, rules, what, *ids(" ".join(leads)))
    return s


def test_doubles_trump_a_six_lead_and_the_6_6_is_a_trump() -> None:
    hands = {W: "6-4 5-5 4-4 3-1 2-1 1-0 2-0", N: "6-6 5-4 4-3 3-2 5-1 4-0 3-0"}
    s = declared(hands, TEXAS, DOUBLES, 30, W, "6-4")
    assert s.led[0] == 6  # 6-4 leads sixes
    assert legal_plays(s, TEXAS) == {
        "6-6",
        "5-4",
        "4-3",
        "3-2",
        "5-1",
        "4-0",
        "3-0",
    }  # N's only six is a trump
    act(s, TEXAS, D.parse_domino("6-6"))
    assert s.winner[0] == N  # the trump takes the six lead
    t = declared(
        {W: "4-4 6-5 3-1 2-1 1-0 2-0 5-0", N: "6-6 5-4 4-3 3-2 5-1 4-0 3-0"}, TEXAS, DOUBLES, 30, W, "4-4"
    )
    assert legal_plays(t, TEXAS) == {"6-6"}  # a double led is a trump lead: answered with a double


@pytest.mark.parametrize("low,winner", [(False, N), (True, W)])
def test_no_trump_6_6_wins_a_six_lead_unless_doubles_are_low(low: bool, winner: int) -> None:
    rules = FortyTwoRules(declarations="pips,no-trump", doubles_low=low)
    s = declared(
        {
            W: "6-2 5-5 4-4 3-1 2-1 1-0 2-0",
            N: "6-6 5-4 4-3 3-2 5-1 4-0 3-0",
            E: "5-0 4-2 4-1 3-3 2-2 1-1 0-0",
        },
        rules,
        NO_TRUMP,
        30,
        W,
        "6-2",
        "6-6",
        "5-0",
    )
    assert s.winner[0] == winner


def test_nello_the_partner_plays_no_domino_and_tricks_hold_three() -> None:
    s = declared({}, HOUSE, NELLO, 42, W)
    assert s.sitter[0] == E and s.per_trick[0] == 3
    seats = []
    while s.phase[0] != DONE:
        seats.append(int(s.turn[0]))
        act(s, HOUSE, int(np.flatnonzero(legal(s, HOUSE))[0]))
    assert E not in seats and len(seats) == 21 and s.n_played[0] == 21
    assert (
        s.hands[0, E] == s.dealt[0, E]
    )  # the partner's dominoes stay in his hand: their count is never taken
    unplayed_count = D.COUNT_POINTS["seed"][
        np.flatnonzero((s.dealt[0, E] >> np.arange(28, dtype=np.uint32)) & 1)
    ].sum()
    assert s.points[0].sum() == 42 - unplayed_count


def test_nello_needs_a_bid_of_42_and_the_rule() -> None:
    s = one_hand({}, dealer=S)
    act(s, HOUSE, call_action(30), 0, 0, 0)
    assert s.phase[0] == TRUMP and not legal(s, HOUSE)[NELLO] and legal(s, HOUSE)[DOUBLES]
    s = one_hand({}, dealer=S)
    act(s, HOUSE, call_action(42), 0, 0, 0)
    assert legal(s, HOUSE)[NELLO] and legal(s, HOUSE)[SEVENS]
    assert not legal(s, TEXAS)[NELLO]


def test_plunge_needs_four_doubles_and_the_partner_names_and_leads() -> None:
    three = one_hand({W: "6-6 5-5 4-4 3-1 2-1 1-0 2-0"}, dealer=S)
    assert legal(three, HOUSE)[SPLASH] and not legal(three, HOUSE)[PLUNGE]
    s = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0"}, dealer=S)
    assert legal(s, HOUSE)[PLUNGE]
    act(s, HOUSE, PLUNGE, 0, 0, 0)
    assert s.bid[0] == 168 and s.phase[0] == TRUMP and s.turn[0] == E  # W plunged: his partner E names
    assert not legal(s, HOUSE)[NELLO] and legal(s, HOUSE)[DOUBLES]
    act(s, HOUSE, DOUBLES)
    assert s.phase[0] == PLAY and s.turn[0] == E and s.leader[0] == E
    marks = dataclasses.replace(TEXAS, plunge=True)  # one lap, jump bids, the marks ladder
    over = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0"}, dealer=W)
    act(over, marks, call_action(84), call_action(126), 0, PLUNGE)  # N 84, E 126, S pass, W plunges: 4 marks
    assert over.bid[0] == 168 and over.high_bidder[0] == W and over.turn[0] == E
    above = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0"}, dealer=W)
    act(above, marks, call_action(84), call_action(126), call_action(168), PLUNGE)  # over 4 marks: five
    assert above.bid[0] == 210


def test_splash_is_two_marks_or_one_more() -> None:
    rules = FortyTwoRules(splash=True, scoring="marks", jump_bids=True)
    s = one_hand({W: "6-6 5-5 4-4 3-1 2-1 1-0 2-0"}, dealer=S)
    act(s, rules, SPLASH, 0, 0, 0)
    assert s.bid[0] == 84
    t = one_hand({N: "6-6 5-5 4-4 3-1 2-1 1-0 2-0"}, dealer=S)
    act(t, rules, call_action(84), SPLASH)  # W 84 (two marks), N splashes for three
    assert t.bid[0] == 126


def bids(s: core.HandState, rules: FortyTwoRules) -> set[int]:
    """The call actions open to the seat to call, pass included."""
    return set(np.flatnonzero(legal(s, rules)).tolist())


def test_marks_ladder_goes_to_210_and_stops_there() -> None:
    marks = dataclasses.replace(TEXAS, plunge=True, splash=True)  # one lap, jump bids, the marks ladder
    s = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0"}, dealer=W)
    act(s, marks, BID_84, BID_126, BID_168)  # N 84, E 126, S 168: W may bid five marks
    assert bids(s, marks) == {0, BID_210, PLUNGE, SPLASH}
    assert bids(s, TEXAS) == {0, BID_210}  # no special contracts: the 210 and a pass
    act(s, marks, BID_210)
    assert s.bid[0] == 210 and s.high[0] == BID_210 and s.high_bidder[0] == W and s.turn[0] == W
    assert s.phase[0] == TRUMP
    # seed auction: over a 210 only a pass remains, for a seat that could still bid and splash
    seed_marks = FortyTwoRules(scoring="marks", plunge=True, splash=True)
    t = one_hand({N: "6-6 5-5 4-4 3-3 2-1 1-0 2-0", S: "2-2 1-1 0-0 6-5 6-4 6-3 6-2"}, dealer=W)
    act(t, seed_marks, PLUNGE, 0)  # N plunges (four marks), E passes: S may splash or bid 210
    assert bids(t, seed_marks) == {0, SPLASH, BID_210}
    act(t, seed_marks, BID_210)
    assert t.bid[0] == 210 and t.phase[0] == CALL
    for _ in range(3):
        assert bids(t, seed_marks) == {0}
        act(t, seed_marks, 0)
    assert t.phase[0] == TRUMP and t.high_bidder[0] == S
    # the points game has no 210 to bid: 168 is its top plain bid
    points = FortyTwoRules(jump_bids=True, auction="one-lap")
    u = one_hand({}, dealer=W)
    act(u, points, BID_84, BID_168)
    assert bids(u, points) == {0}


@pytest.mark.parametrize("scoring", ["marks", "points"])
def test_a_plunge_or_splash_over_168_is_210_and_nothing_goes_over_210(scoring: str) -> None:
    rules = FortyTwoRules(plunge=True, splash=True, jump_bids=True, auction="one-lap", scoring=scoring)
    ladder = [BID_84, BID_126, BID_168] if scoring == "marks" else [BID_84, BID_168]
    for special in (PLUNGE, SPLASH):
        s = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0"}, dealer=(W - len(ladder) - 1) & 3)
        act(s, rules, *ladder, special, *[0] * (3 - len(ladder)))  # W calls after the ladder to 168
        assert s.bid[0] == 210 and s.high_bidder[0] == W and s.turn[0] == E  # the partner names
    # over a 210 neither a plunge nor a splash is left
    over = one_hand({S: "6-6 5-5 4-4 3-3 2-1 1-0 2-0", N: "2-2 1-1 0-0 6-5 6-4 6-3 6-2"}, dealer=W)
    if scoring == "marks":
        act(over, rules, PLUNGE, BID_210)  # N plunges (168), E bids 210: S holds four doubles
    else:
        act(over, rules, BID_84, BID_168, SPLASH)  # N 84, E 168, S splashes (210): W holds none
        over = one_hand({W: "6-6 5-5 4-4 3-3 2-1 1-0 2-0", S: "2-2 1-1 0-0 6-5 6-4 6-3 6-2"}, dealer=W)
        act(over, rules, BID_84, BID_168, SPLASH)  # W holds four doubles
    assert over.bid[0] == 210 and bids(over, rules) == {0}


def test_points_game_special_bids_are_42_points_a_mark() -> None:
    rules = FortyTwoRules(plunge=True, splash=True, jump_bids=True)
    s = one_hand({N: "6-6 5-5 4-4 3-1 2-1 1-0 2-0"}, dealer=S)
    act(s, rules, BID_84, SPLASH)  # W 84 (two marks), N splashes: 126
    assert s.bid[0] == 126 and s.high[0] == SPLASH
    assert BID_168 not in bids(s, rules) and BID_126 not in bids(s, rules)  # no plain bid over a 126
    for special, doubles in ((PLUNGE, "6-6 5-5 4-4 3-3"), (SPLASH, "6-6 5-5 4-4 3-2")):
        t = one_hand({E: f"{doubles} 2-1 1-0 2-0"}, dealer=E)
        act(t, rules, 42, BID_84, BID_168, special, 0, 0, 0)  # S 42, W 84, N 168, E one mark more: 210
        assert t.bid[0] == 210 and t.high_bidder[0] == E and t.turn[0] == W  # the partner names
        act(t, rules, 6)
        while t.phase[0] != DONE:
            act(t, rules, int(np.flatnonzero(legal(t, rules))[0]))
        score, made = core.hand_scores(t, rules)  # like a 168: made 42, set the defenders' points + 210
        assert score[0].tolist() == ([0, 42] if made[0] else [int(t.points[0, 0]) + 210, 0])


def test_210_made_scores_five_marks_set_gives_them_to_the_defenders() -> None:
    for sixes, made, score in ((S, True, [5, 0]), (E, False, [0, 5])):
        s = one_hand({sixes: "6-6 6-5 6-4 6-3 6-2 6-1 6-0"}, dealer=S)
        act(s, TEXAS, BID_84, BID_126, BID_168, BID_210, 6)  # W 84, N 126, E 168, S 210 names sixes
        assert s.bid[0] == 210 and s.high_bidder[0] == S
        while s.phase[0] != DONE:
            act(s, TEXAS, int(np.flatnonzero(legal(s, TEXAS))[-1]))
        got, was_made = core.hand_scores(s, TEXAS)
        assert was_made[0] == made and got[0].tolist() == score


def test_sevens_the_closest_to_seven_must_be_played_and_wins() -> None:
    s = declared(
        {
            W: "6-1 5-5 4-4 3-1 2-1 1-0 2-0",
            N: "5-2 6-6 4-3 3-2 5-1 4-0 3-0",
            E: "6-0 4-2 4-1 3-3 2-2 1-1 0-0",
        },
        HOUSE,
        SEVENS,
        42,
        W,
    )
    assert legal_plays(s, HOUSE) == {"6-1"}  # the only seven
    act(s, HOUSE, *ids("6-1"))
    assert legal_plays(s, HOUSE) == {"5-2", "4-3"}  # both seven: either
    act(s, HOUSE, *ids("5-2 6-0"))
    assert s.winner[0] == W  # of equals the first played


def test_marks_84_made_scores_two_marks_and_the_hand_stops_when_decided() -> None:
    rules = FortyTwoRules(scoring="marks", jump_bids=True)
    s = one_hand({W: "6-6 6-5 6-4 6-3 6-2 6-1 6-0"}, dealer=S)  # W holds every six: a sure 84
    act(s, rules, call_action(84), 0, 0, 0, 6)
    while s.phase[0] != DONE:
        act(s, rules, int(np.flatnonzero(legal(s, rules))[-1]))
    score, made = core.hand_scores(s, rules)
    assert made[0] and score[0].tolist() == [0, 2]
    t = one_hand({}, dealer=S)
    act(t, rules, call_action(30), 0, 0, 0, 0)
    while t.phase[0] != DONE:
        act(t, rules, int(np.flatnonzero(legal(t, rules))[0]))
    decl, defs = int(t.points[0, 1]), int(t.points[0, 0])
    assert (decl >= 30) or (defs > 12)  # decided: made or set ...
    assert (
        t.tricks_done[0] < 7 or decl + defs == 42
    )  # ... and stopped there, unless the last trick decided it


def test_the_marks_game_ends_at_seven_marks() -> None:
    sim = app.simulate(
        RunSpec("forty-two", n=40, preset="texas", unit="match", chunk_size=20), execution=Execution(jobs=1)
    )
    m = sim.matches
    assert (m[["final_ns", "final_ew"]].max(axis=1) == 7).all()
    assert (m[["final_ns", "final_ew"]].min(axis=1) < 7).all()
    assert sim.deals["score_marks_ns"].add(sim.deals["score_marks_ew"]).between(0, 4).all()
