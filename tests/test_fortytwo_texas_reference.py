"""The scalar reference engine under Texas 42 as played: doubles trump, no-trump, nello, plunge, splash,
sevens, marks (the rules file's last section), on hand-built positions and random play."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simulator.errors import IllegalAction
from simulator.fortytwo.dominoes import (
    DOUBLES_TRUMP,
    NELLO_SUIT,
    NO_TRUMP_HIGH,
    NO_TRUMP_LOW,
    SEVENS_CTX,
    context_of,
)
from simulator.fortytwo.reference import (
    bid_value,
    call_text,
    call_value,
    follows,
    format_hand,
    hand_score,
    hand_to_dict,
    high_bid,
    is_trump,
    led_suit,
    legal_calls,
    legal_declarations,
    legal_plays,
    outcome_so_far,
    pips,
    play_hand,
    play_match,
    stops_early,
    trick_winner,
)
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import (
    BID_84,
    BID_126,
    BID_168,
    BID_210,
    CALL,
    DOUBLES,
    NELLO,
    NO_TRUMP,
    PLAY,
    PLUNGE,
    SEVENS,
    SPLASH,
    TRUMP,
)
from simulator.options import build
from simulator.testing import ViewHash
from tests.test_fortytwo_reference import D, Ds, FirstLegal, RandomLegal, Scripted, random_deal

N, E, S, W = 0, 1, 2, 3
PIPS = list(range(7))
ONE_LAP = {"auction": "one-lap", "jump_bids": True}
ALL_DECLARED = FortyTwoRules(declarations="pips,doubles,no-trump", **ONE_LAP)
TEXAS = build(FortyTwoRules, "rule", PRESETS["texas"])  # marks to 7, play_out = false
HOUSE = build(FortyTwoRules, "rule", PRESETS["texas-house"])  # + nello, plunge, splash, stuck dealer

# W's 6-4 6-5 6-3 against N, whose only six is the 6-6; E holds 6-2 6-1 6-0.
SIXES_DEAL = [
    Ds("6-6 1-0 2-0 3-0 4-0 5-0 1-1"),
    Ds("6-2 6-1 6-0 0-0 2-1 3-1 4-1"),
    Ds("3-2 4-2 4-3 5-1 5-2 5-3 5-4"),
    Ds("6-4 6-5 6-3 5-5 4-4 3-3 2-2"),
]
# W holds every blank; N and S hold a non-double of every other pip and doubles; E the rest.
BLANKS_DEAL = [
    Ds("1-1 2-1 3-1 4-1 5-1 6-1 2-2"),
    Ds("4-4 5-4 6-3 6-4 5-5 6-5 6-6"),
    Ds("3-2 4-2 5-2 6-2 3-3 4-3 5-3"),
    Ds("0-0 1-0 2-0 3-0 4-0 5-0 6-0"),
]
# E holds every six (the seed example's deal).
E_SIXES = [
    Ds("5-0 5-1 5-2 5-3 5-4 5-5 4-4"),
    Ds("6-0 6-1 6-2 6-3 6-4 6-5 6-6"),
    Ds("0-0 1-0 1-1 2-0 2-1 2-2 3-0"),
    Ds("3-1 3-2 3-3 4-0 4-1 4-2 4-3"),
]
N_SIXES = [E_SIXES[1], E_SIXES[0], E_SIXES[2], E_SIXES[3]]
# N holds four doubles, S none, E three (6-6 5-5 4-4 3-3 with N; 2-2 1-1 0-0 with E).
FOUR_DOUBLES = [
    Ds("6-6 5-5 4-4 3-3 6-5 6-4 6-3"),
    Ds("2-2 1-1 0-0 6-2 6-1 6-0 5-4"),
    Ds("5-3 5-2 5-1 5-0 4-3 4-2 4-1"),
    Ds("4-0 3-2 3-1 3-0 2-1 2-0 1-0"),
]


def seen(script: Scripted, kind: int) -> list:
    """(view, legal) of each decision of a kind the script made."""
    return [(view, legal) for k, view, legal in script.seen if k == kind]


def legal_list(legal) -> list[int]:
    return np.flatnonzero(legal[0]).tolist()


def held_at(rec, seat: int, n_tricks: int) -> list[int]:
    """The dominoes `seat` still held after `n_tricks` tricks."""
    played = {d for t in rec.tricks[:n_tricks] for s, d in t.plays if s == seat}
    return [d for d in rec.hands[seat] if d not in played]


# --- doubles trump ------------------------------------------------------------------------------------------


def test_doubles_trump_follow_and_rank():
    ctx = context_of(DOUBLES, ALL_DECLARED)
    assert ctx == DOUBLES_TRUMP
    assert all(is_trump(D(f"{p}-{p}"), ctx) for p in range(7)) and not is_trump(D("6-5"), ctx)
    # a non-double leads its higher end; the 6-6 is a trump, not a six, so a player whose only six it is
    # need not follow
    assert led_suit(D("6-4"), ctx) == 6 and not follows(D("6-6"), 6, ctx)
    assert legal_plays(Ds("6-6 1-0 2-1"), [D("6-4")], ctx) == Ds("1-0 2-1 6-6")
    assert legal_plays(Ds("6-6 6-2 2-1"), [D("6-4")], ctx) == [D("6-2")]
    # a led double is a trump lead: only a double follows it, no non-double ever does
    assert led_suit(D("2-2"), ctx) == 7 and led_suit(D("0-0"), ctx) == 7
    assert legal_plays(Ds("6-2 1-1 0-0"), [D("2-2")], ctx) == Ds("0-0 1-1")
    assert legal_plays(Ds("6-2 2-1"), [D("2-2")], ctx) == Ds("2-1 6-2")
    # doubles rank 6-6 down to 0-0; any double beats the led suit; else the highest of the led suit
    assert trick_winner([(W, D("6-4")), (N, D("0-0")), (E, D("6-5")), (S, D("5-4"))], ctx) == N
    assert trick_winner([(W, D("1-1")), (N, D("0-0")), (E, D("6-6")), (S, D("5-5"))], ctx) == E
    assert trick_winner([(W, D("6-4")), (N, D("4-3")), (E, D("6-5")), (S, D("5-4"))], ctx) == E
    assert trick_winner([(W, D("5-3")), (N, D("6-3")), (E, D("5-0")), (S, D("4-4"))], ctx) == S


def test_doubles_trump_hand_views_and_need_not_follow():
    # dealer S, so W calls first: W 42, the rest pass; W names doubles and leads 6-4.
    scripts = [
        Scripted(calls=[0], plays=Ds("1-0 6-6")),
        Scripted(calls=[0], plays=Ds("6-2 0-0")),
        Scripted(calls=[0], plays=Ds("3-2 4-2")),
        Scripted(calls=[42], trump=DOUBLES, plays=Ds("6-4 5-5")),
    ]
    rec = play_hand(SIXES_DEAL, S, ALL_DECLARED, scripts)
    assert rec.trump == DOUBLES and rec.named_by == W and rec.moves[4] == (TRUMP, W, DOUBLES)
    ((name_view, name_legal),) = seen(scripts[W], TRUMP)
    assert legal_list(name_legal) == [*PIPS, DOUBLES, NO_TRUMP]
    assert (name_view.trump[0], name_view.ctx[0], name_view.leader[0]) == (-1, -1, W)
    assert (name_view.trick_start[0], name_view.high_bid[0], name_view.high_bidder[0]) == (0, 42, W)
    # trick 1: N's only six is the 6-6, a trump: he may play anything; E must play a six, not his 0-0
    n_view, n_legal = seen(scripts[N], PLAY)[0]
    assert legal_list(n_legal) == sorted(SIXES_DEAL[N])
    assert (n_view.trump[0], n_view.ctx[0]) == (DOUBLES, DOUBLES_TRUMP)
    assert (n_view.led[0], n_view.trick_start[0], n_view.winner[0], n_view.winning[0]) == (6, 0, W, D("6-4"))
    assert legal_list(seen(scripts[E], PLAY)[0][1]) == Ds("6-0 6-1 6-2")
    assert rec.tricks[0].winner == W  # 6-4 over 6-2
    # trick 2: W leads the 5-5, a trump lead: N must play a double, E his 0-0, S (no double) anything
    n_view, n_legal = seen(scripts[N], PLAY)[1]
    assert (n_view.led[0], n_view.trick_start[0], n_view.n_played[0]) == (7, 4, 5)
    assert legal_list(n_legal) == Ds("1-1 6-6")
    assert legal_list(seen(scripts[E], PLAY)[1][1]) == [D("0-0")]
    assert len(legal_list(seen(scripts[S], PLAY)[1][1])) == 6
    assert rec.tricks[1].winner == N and rec.tricks[1].plays[1] == (N, D("6-6"))
    assert len(rec.tricks) == 7 and sum(rec.points) == 42
    assert "trumps: doubles (7)" in format_hand(rec) and hand_to_dict(rec)["declaration"] == "doubles"


# --- no-trump -----------------------------------------------------------------------------------------------


def test_no_trump_follow_and_rank():
    high, low = NO_TRUMP_HIGH, NO_TRUMP_LOW
    assert context_of(NO_TRUMP, ALL_DECLARED) == high
    assert context_of(NO_TRUMP, FortyTwoRules(doubles_low=True)) == low
    for ctx in (high, low):
        assert not any(is_trump(d, ctx) for d in range(28))
        assert led_suit(D("6-2"), ctx) == 6 and led_suit(D("6-6"), ctx) == 6 and led_suit(D("2-1"), ctx) == 2
        # the 6-6 is a six; on a deuce lead 6-2 is a deuce (it carries one and nothing takes it away)
        assert legal_plays(Ds("6-6 1-0"), [D("6-2")], ctx) == [D("6-6")]
        assert legal_plays(Ds("6-2 1-0"), [D("2-1")], ctx) == [D("6-2")]
        assert legal_plays(Ds("5-5 1-0"), [D("6-6")], ctx) == Ds("1-0 5-5")
    # 6-6 wins a lead of 6-2 unless doubles_low; an off-suit domino never wins
    trick = [(W, D("6-2")), (N, D("6-6")), (E, D("6-0")), (S, D("5-5"))]
    assert trick_winner(trick, high) == N
    assert trick_winner(trick, low) == W
    assert trick_winner([(W, D("2-2")), (N, D("2-0")), (E, D("6-6"))], low) == N


@pytest.mark.parametrize("doubles_low", [False, True])
def test_no_trump_hand_six_led(doubles_low):
    rules = FortyTwoRules(declarations="pips,no-trump", doubles_low=doubles_low, **ONE_LAP)
    scripts = [
        Scripted(calls=[0], plays=Ds("6-6")),
        Scripted(calls=[0], plays=Ds("6-0")),
        Scripted(calls=[0]),
        Scripted(calls=[30], trump=NO_TRUMP, plays=Ds("6-3")),
    ]
    rec = play_hand(SIXES_DEAL, S, rules, scripts)
    assert legal_list(seen(scripts[W], TRUMP)[0][1]) == [*PIPS, NO_TRUMP]
    n_view, n_legal = seen(scripts[N], PLAY)[0]
    assert legal_list(n_legal) == [D("6-6")]  # under no-trump the 6-6 is his six: he must play it
    assert n_view.ctx[0] == (NO_TRUMP_LOW if doubles_low else NO_TRUMP_HIGH) and n_view.trump[0] == NO_TRUMP
    assert n_view.led[0] == 6
    assert rec.tricks[0].winner == (W if doubles_low else N)
    assert "no-trump (8)" in format_hand(rec)


# --- nello --------------------------------------------------------------------------------------------------

NELLO_RULES = FortyTwoRules(nello=True, **ONE_LAP)


def test_nello_named_only_for_42_or_more_and_not_after_a_plunge():
    rules = FortyTwoRules(nello=True, sevens=True, plunge=True, declarations="pips,doubles")
    assert legal_declarations(41, 41, rules) == [*PIPS, DOUBLES]
    assert legal_declarations(42, 42, rules) == [*PIPS, DOUBLES, NELLO, SEVENS]
    assert legal_declarations(84, BID_84, rules) == [*PIPS, DOUBLES, NELLO, SEVENS]
    assert legal_declarations(168, PLUNGE, rules) == [*PIPS, DOUBLES]
    assert legal_declarations(84, SPLASH, rules) == [*PIPS, DOUBLES]
    assert legal_declarations(42, 42, FortyTwoRules()) == PIPS


@pytest.mark.parametrize("scoring", ["points", "marks"])
def test_nello_made_partner_sits_out_tricks_of_three(scoring):
    rules = FortyTwoRules(nello=True, scoring=scoring, **ONE_LAP)
    scripts = [FirstLegal(), Scripted(calls=[0]), FirstLegal(), Scripted(calls=[42], trump=NELLO)]
    rec = play_hand(BLANKS_DEAL, S, rules, scripts)
    assert rec.declarer == W and rec.trump == NELLO and rec.named_by == W
    # E, W's partner, plays no domino and is never asked: tricks hold three, clockwise from the leader
    assert len(rec.tricks) == 7 and all(len(t.plays) == 3 for t in rec.tricks)
    assert all(E not in [s for s, _ in t.plays] for t in rec.tricks)
    assert rec.tricks[0].leader == W and [s for s, _ in rec.tricks[0].plays] == [W, N, S]
    assert [k for k, _, _ in scripts[E].seen] == [CALL]
    assert all(kind != PLAY or seat != E for kind, seat, _ in rec.moves)
    assert len(rec.moves) == 4 + 1 + 21
    # W holds every blank: he can never take a trick, so the nello is made
    assert all(t.winner != W for t in rec.tricks) and rec.made is True
    assert sum(t.points for t in rec.tricks) == sum(rec.points) == 42 - 14  # E's 6-4 and 5-5 are never played
    assert rec.score == ((0, 42) if scoring == "points" else (0, 1))  # the bid itself, not the points
    text = format_hand(rec)
    assert "nello (E sits out)" in text


def test_nello_views_trick_start_and_doubles_led():
    scripts = [
        Scripted(calls=[0]),
        Scripted(calls=[0]),
        Scripted(calls=[0]),
        Scripted(calls=[42], trump=NELLO, plays=Ds("0-0")),
    ]
    rec = play_hand(BLANKS_DEAL, S, NELLO_RULES, scripts)
    # trick 1: W leads 0-0, a double: under nello's doubles suit N must play a double
    n_view, n_legal = seen(scripts[N], PLAY)[0]
    assert (n_view.trump[0], n_view.ctx[0], n_view.led[0]) == (NELLO, NELLO_SUIT, 7)
    assert legal_list(n_legal) == Ds("1-1 2-2")
    assert legal_list(seen(scripts[S], PLAY)[0][1]) == Ds("3-3")
    assert rec.tricks[0].winner == S  # 3-3 over 1-1 over 0-0
    # every play view: the current trick starts at a multiple of three
    for script in (scripts[N], scripts[S], scripts[W]):
        for view, _ in seen(script, PLAY):
            start, n = int(view.trick_start[0]), int(view.n_played[0])
            assert start % 3 == 0 and 0 <= n - start < 3
            assert view.plays[0, :n].tolist() == [d for t in rec.tricks for _, d in t.plays][:n]


@pytest.mark.parametrize("nello_doubles", ["suit", "high", "low"])
def test_nello_doubles_suit_high_low(nello_doubles):
    ctx = context_of(NELLO, FortyTwoRules(nello=True, nello_doubles=nello_doubles))
    assert ctx == {"suit": NELLO_SUIT, "high": NO_TRUMP_HIGH, "low": NO_TRUMP_LOW}[nello_doubles]
    trick = [(W, D("0-0")), (N, D("1-1")), (S, D("6-0"))]
    # suit: 0-0 leads the doubles and 1-1 takes it; high: 0-0 tops the blanks; low: 6-0 beats it
    assert trick_winner(trick, ctx) == {"suit": N, "high": W, "low": S}[nello_doubles]
    assert led_suit(D("0-0"), ctx) == (7 if nello_doubles == "suit" else 0)


@pytest.mark.parametrize("play_out", [False, True])
def test_nello_set_by_the_declarers_first_trick(play_out):
    # nello_doubles = high: W's 0-0 is the top blank and nobody else holds a blank: W takes trick 1
    rules = FortyTwoRules(nello=True, nello_doubles="high", scoring="marks", play_out=play_out, **ONE_LAP)
    scripts = [
        FirstLegal(),
        Scripted(calls=[0]),
        FirstLegal(),
        Scripted(calls=[42], trump=NELLO, plays=Ds("0-0")),
    ]
    rec = play_hand(BLANKS_DEAL, S, rules, scripts)
    assert rec.tricks[0].winner == W and rec.made is False and rec.score == (1, 0)
    assert len(rec.tricks) == (7 if play_out else 1)
    if not play_out:
        assert rec.points == (0, rec.tricks[0].points)
        assert "stops after trick 1: the contract is set" in format_hand(rec)
    points_rules = FortyTwoRules(nello=True, nello_doubles="high", **ONE_LAP)
    scripts = [
        FirstLegal(),
        Scripted(calls=[0]),
        FirstLegal(),
        Scripted(calls=[42], trump=NELLO, plays=Ds("0-0")),
    ]
    rec = play_hand(BLANKS_DEAL, S, points_rules, scripts)
    assert len(rec.tricks) == 7 and rec.made is False and rec.score == (42, 0)  # the bid itself to N-S


# --- plunge and splash --------------------------------------------------------------------------------------


def test_plunge_refused_with_three_doubles_splash_allowed():
    rules = FortyTwoRules(plunge=True, splash=True, **ONE_LAP)
    three = Ds("2-2 1-1 0-0 6-2 6-1 6-0 5-4")
    four = Ds("6-6 5-5 4-4 3-3 6-5 6-4 6-3")
    assert PLUNGE not in legal_calls([], rules, three) and SPLASH in legal_calls([], rules, three)
    assert {PLUNGE, SPLASH} <= set(legal_calls([], rules, four))
    assert PLUNGE not in legal_calls([], FortyTwoRules(splash=True), four)  # rule off
    assert SPLASH not in legal_calls([], rules, Ds("2-2 1-1 6-2 6-1 6-0 5-4 5-3"))
    # values: four marks / two marks, or one mark more than the current bid
    assert call_value(PLUNGE, 0) == 168 and call_value(PLUNGE, 42) == 168 and call_value(PLUNGE, 168) == 210
    assert call_value(SPLASH, 0) == 84 and call_value(SPLASH, 30) == 84 and call_value(SPLASH, 84) == 126
    assert high_bid([30, SPLASH, 0]) == (84, 1) and high_bid([BID_84, PLUNGE]) == (168, 1)
    assert high_bid([SPLASH, PLUNGE]) == (168, 1) and high_bid([PLUNGE, SPLASH]) == (210, 1)


def test_plunge_and_splash_are_bids():
    seed = FortyTwoRules(plunge=True, splash=True)
    four = Ds("6-6 5-5 4-4 3-3 6-5 6-4 6-3")
    # seed auction: a seat that has bid may not plunge later
    assert legal_calls([30, 0, 0, 31], seed, four) == [0]
    assert legal_calls([0, 30, 0, 0], seed, four) == [0, *range(31, 43), PLUNGE, SPLASH]
    # stuck dealer: a plunge is a bid he may make
    forced = FortyTwoRules(plunge=True, all_pass="dealer_forced")
    assert legal_calls([0, 0, 0], forced, four) == [*range(30, 43), PLUNGE]
    # the ladder goes on from a plunge's or splash's value: under marks 210 over a plunge worth 168, 126 over
    # a splash worth 84; in the points game no numeric bid over a 168, 168 over an 84
    marks = FortyTwoRules(plunge=True, splash=True, scoring="marks", **ONE_LAP)
    assert legal_calls([PLUNGE], marks) == [0, BID_210]
    assert legal_calls([SPLASH], marks) == [0, BID_126]
    assert legal_calls([PLUNGE], FortyTwoRules(plunge=True, **ONE_LAP)) == [0]
    assert legal_calls([SPLASH], FortyTwoRules(splash=True, **ONE_LAP)) == [0, BID_168]


@pytest.mark.parametrize("scoring", ["marks", "points"])
def test_no_bid_is_worth_more_than_five_marks(scoring):
    rules = FortyTwoRules(plunge=True, splash=True, scoring=scoring, **ONE_LAP)
    four, three = Ds("6-6 5-5 4-4 3-3 6-5 6-4 6-3"), Ds("2-2 1-1 0-0 6-2 6-1 6-0 5-4")
    to_168 = [BID_84, BID_126, BID_168] if scoring == "marks" else [BID_84, BID_168]
    # over a 168 a plunge or splash is 210 (one mark more), in both games
    assert call_value(PLUNGE, 168) == call_value(SPLASH, 168) == 210
    assert {PLUNGE, SPLASH} <= set(legal_calls(to_168, rules, four))
    assert high_bid([*to_168, PLUNGE]) == (210, len(to_168))
    assert high_bid([PLUNGE, SPLASH]) == (210, 1)
    # over a 210 (five marks) nothing is left: no plunge, no splash, no numeric bid
    if scoring == "marks":
        assert legal_calls([PLUNGE, BID_210], rules, three) == [0]
    else:
        assert legal_calls([BID_84, BID_168, SPLASH], rules, four) == [0]
    # in the points game a mark is 42 points: a splash over 84 is 126, and no numeric bid goes over a 126
    points = FortyTwoRules(plunge=True, splash=True, **ONE_LAP)
    assert call_value(SPLASH, 84) == 126 and high_bid([BID_84, SPLASH]) == (126, 1)
    assert legal_calls([BID_84, SPLASH], points, four) == [0, PLUNGE, SPLASH]
    assert high_bid([BID_84, SPLASH, PLUNGE]) == (168, 2)


def test_marks_ladder_to_five_marks():
    rules = TEXAS  # one lap, jump bids, marks
    # N 84, E 126, S 168: W may bid 210, one mark more
    assert legal_calls([BID_84, BID_126, BID_168], rules) == [0, BID_210]
    assert high_bid([BID_84, BID_126, BID_168, BID_210]) == (210, 3)
    # seed auction: 210 over a plunge worth 168, and over a 210 only a pass remains, even for a seat that has
    # not bid and could splash
    seed_marks = FortyTwoRules(scoring="marks", plunge=True, splash=True)
    four, three = Ds("6-6 5-5 4-4 3-3 6-5 6-4 6-3"), Ds("2-2 1-1 0-0 6-2 6-1 6-0 5-4")
    assert legal_calls([0, 42, BID_84, BID_126], seed_marks, four) == [0, BID_168, PLUNGE, SPLASH]
    assert legal_calls([PLUNGE, 0], seed_marks, three) == [0, SPLASH, BID_210]
    assert legal_calls([PLUNGE, 0, BID_210], seed_marks, three) == [0]
    # no 210 in the points game: 168 is its top plain bid
    assert legal_calls([BID_84, BID_168], FortyTwoRules(jump_bids=True)) == [0]
    assert call_text(BID_210) == "210" and bid_value(BID_210) == 210


def test_210_made_scores_five_marks_and_set_gives_them_to_the_defenders():
    def scripts():
        return [
            Scripted(calls=[BID_168]),
            Scripted(calls=[BID_210], trump=6),
            Scripted(calls=[BID_84]),
            Scripted(calls=[BID_126]),
        ]

    # dealer E: S 84, W 126, N 168, E 210 (one mark more) and names sixes holding every six
    rec = play_hand(E_SIXES, E, TEXAS, scripts())
    assert [c for _, c in rec.calls] == [BID_84, BID_126, BID_168, BID_210]
    assert rec.declarer == E and rec.bid == 210 and rec.made is True and rec.score == (0, 5)
    assert "Auction: S 84, W 126, N 168, E 210" in format_hand(rec)
    assert "Score: NS 0, EW 5 marks (contract 210, 5 marks, made)" in format_hand(rec)
    # N holds every six: N-S take trick 1 and win the five marks
    rec = play_hand(N_SIXES, E, TEXAS, scripts())
    assert rec.bid == 210 and rec.made is False and rec.score == (5, 0) and len(rec.tricks) == 1


@pytest.mark.parametrize(
    "rules",
    [HOUSE, FortyTwoRules(plunge=True, sevens=True, nello=True, **ONE_LAP)],
    ids=["texas-house", "points"],
)
def test_plunge_partner_names_and_leads(rules):
    # dealer W: N calls first and plunges; S, his partner, names sixes and leads
    scripts = [
        Scripted(calls=[PLUNGE]),
        Scripted(calls=[0]),
        Scripted(calls=[0], trump=6, plays=Ds("5-3")),
        Scripted(calls=[0]),
    ]
    rec = play_hand(FOUR_DOUBLES, W, rules, scripts)
    assert rec.declarer == N and rec.bid == 168 and rec.named_by == S
    assert rec.moves[4] == (TRUMP, S, 6) and rec.tricks[0].leader == S
    assert rec.tricks[0].plays[0] == (S, D("5-3"))
    assert not seen(scripts[N], TRUMP)
    view, legal = seen(scripts[S], TRUMP)[0]
    declared = [DOUBLES, NO_TRUMP] if rules.declares("doubles") else []
    assert legal_list(legal) == [*PIPS, *declared]  # no nello, no sevens after a plunge
    assert (view.seat[0], view.leader[0], view.high_bid[0], view.high_bidder[0]) == (S, S, 168, N)
    # E's view of the plunge: the high bid's value worked out
    e_view, e_legal = seen(scripts[E], CALL)[0]
    assert e_view.high_bid[0] == 168 and e_view.calls[0, 0] == PLUNGE
    assert SPLASH in legal_list(e_legal) if rules.splash else not e_legal[0, SPLASH]
    text = format_hand(rec)
    assert "N plunge" in text and "168 (plunge) by N (NS), S names trumps: sixes (6)" in text
    assert hand_to_dict(rec)["calls"][0] == ["N", "plunge"] and hand_to_dict(rec)["named_by"] == "S"


def test_splash_with_three_doubles():
    rules = FortyTwoRules(splash=True, declarations="pips,doubles", scoring="marks", **ONE_LAP)
    # dealer N: E calls first and splashes with 2-2 1-1 0-0; W, his partner, names doubles and leads
    scripts = [
        Scripted(calls=[0]),
        Scripted(calls=[SPLASH]),
        Scripted(calls=[0]),
        Scripted(calls=[0], trump=DOUBLES),
    ]
    assert legal_calls([], rules, FOUR_DOUBLES[E]) == [0, *range(30, 43), BID_84, SPLASH]
    rec = play_hand(FOUR_DOUBLES, N, rules, scripts)
    assert rec.declarer == E and rec.bid == 84 and rec.named_by == W and rec.moves[4] == (TRUMP, W, DOUBLES)
    assert rec.tricks[0].leader == W
    # S and N see the splash as an 84 and may bid 126 over it
    s_view, s_legal = seen(scripts[S], CALL)[0]
    assert s_view.high_bid[0] == 84 and legal_list(s_legal) == [0, BID_126]
    # W leads with doubles trump while N holds 6-6 5-5 4-4 3-3: E-W are set at once, two marks to N-S
    assert rec.made is False and rec.score == (2, 0)


# --- sevens -------------------------------------------------------------------------------------------------


def test_sevens_closest_must_be_played_and_wins():
    ctx = context_of(SEVENS, FortyTwoRules(sevens=True))
    assert ctx == SEVENS_CTX and not any(is_trump(d, ctx) for d in range(28))
    # leading or following, a player must play his domino closest to seven (of equals, his choice)
    assert legal_plays(Ds("6-1 5-2 4-4 0-0"), [], ctx) == Ds("5-2 6-1")
    assert legal_plays(Ds("6-1 5-2 4-4 0-0"), [D("6-6")], ctx) == Ds("5-2 6-1")
    assert legal_plays(Ds("6-6 4-4 2-1"), [D("3-0")], ctx) == Ds("4-4")
    assert legal_plays(Ds("6-3 5-0 2-0"), [D("3-0")], ctx) == Ds("5-0 6-3")  # 9 and 5 pips: two away
    assert led_suit(D("6-6"), ctx) == 0
    # the one closest to seven wins; of equals the first played
    assert trick_winner([(N, D("4-4")), (E, D("5-1")), (S, D("6-6")), (W, D("3-3"))], ctx) == N
    assert trick_winner([(N, D("6-6")), (E, D("5-1")), (S, D("4-3")), (W, D("5-2"))], ctx) == S
    assert trick_winner([(N, D("0-0")), (E, D("1-0")), (S, D("2-0")), (W, D("6-6"))], ctx) == S  # 2 and 12
    assert trick_winner([(N, D("0-0")), (E, D("1-0")), (S, D("2-0")), (W, D("6-5"))], ctx) == W


class SevensCaller(ViewHash):
    """W bids 42 and names sevens, the others pass; every play by ViewHash."""

    def decide(self, kind, view, legal, rng):
        if kind == CALL:
            return np.array([42 if view.seat[0] == W else 0])
        if kind == TRUMP:
            assert legal[0, SEVENS]
            return np.array([SEVENS])
        return super().decide(kind, view, legal, rng)


def test_sevens_hand():
    rules = FortyTwoRules(sevens=True, **ONE_LAP)
    rec = play_hand(SIXES_DEAL, S, rules, [SevensCaller()] * 4)
    assert rec.declarer == W and rec.trump == SEVENS and rec.tricks[0].leader == W
    for number, trick in enumerate(rec.tricks):
        for seat, d in trick.plays:
            assert abs(pips(d) - 7) == min(abs(pips(x) - 7) for x in held_at(rec, seat, number))
        closest = min(abs(pips(d) - 7) for _, d in trick.plays)
        assert trick.winner == next(s for s, d in trick.plays if abs(pips(d) - 7) == closest)
    made = all(t.winner % 2 == W % 2 for t in rec.tricks)
    assert rec.made is made and len(rec.tricks) == 7
    assert rec.score == ((0, 42) if made else (rec.points[0] + 42, 0))


# --- marks --------------------------------------------------------------------------------------------------


def test_marks_ladder():
    marks = FortyTwoRules(scoring="marks")
    jump = FortyTwoRules(scoring="marks", jump_bids=True)
    assert legal_calls([], marks) == [0, *range(30, 43)]
    assert legal_calls([], jump) == [0, *range(30, 43), BID_84]
    assert legal_calls([42], marks) == [0, BID_84]
    assert legal_calls([0, 42, BID_84], marks) == [0, BID_126]  # after 84, one mark more
    assert legal_calls([0, 42, BID_84, BID_126], marks) == [0, BID_168]
    assert legal_calls([BID_84, BID_126, BID_168], marks) == [0, BID_210]
    assert legal_calls([BID_84], jump) == [0, BID_126]
    # points game: 126 is no bid; 168 over an 84
    assert legal_calls([42, BID_84], FortyTwoRules()) == [0, BID_168]


def test_hand_score_marks_and_nello_points():
    marks = FortyTwoRules(scoring="marks")
    assert hand_score(84, 0, (42, 0), marks) == ((2, 0), True)
    assert hand_score(84, 0, (41, 1), marks) == ((0, 2), False)
    assert hand_score(30, 1, (12, 30), marks) == ((0, 1), True)
    assert hand_score(30, 1, (13, 29), marks) == ((1, 0), False)
    assert hand_score(126, 1, (0, 42), marks) == ((0, 3), True)
    assert hand_score(210, 1, (5, 37), marks) == ((5, 0), False)
    assert hand_score(42, 0, (0, 2), marks, made=False) == ((0, 1), False)  # a hand stopped early
    # points game: nello scores the bid itself; plunge and splash are all-tricks contracts
    assert hand_score(42, 0, (0, 28), nello=True, made=True) == ((42, 0), True)
    assert hand_score(84, 0, (5, 23), nello=True, made=False) == ((0, 84), False)
    assert hand_score(168, 0, (42, 0)) == ((42, 0), True)
    assert hand_score(210, 0, (40, 2)) == ((0, 212), False)


def test_84_made_scores_two_marks_and_set_gives_them_to_the_defenders():
    def scripts(trump=6):
        return [
            Scripted(calls=[0]),
            Scripted(calls=[BID_84], trump=trump),
            Scripted(calls=[0]),
            Scripted(calls=[0]),
        ]

    # dealer N: E calls first, bids 84 and names sixes holding every six
    rec = play_hand(E_SIXES, N, TEXAS, scripts())
    assert rec.bid == 84 and rec.made is True and rec.score == (0, 2) and len(rec.tricks) == 7
    assert rec.points == (0, 42)
    assert "Score: NS 0, EW 2 marks (contract 84, 2 marks, made)" in format_hand(rec)
    # N holds every six: N-S take trick 1 and the hand stops there (play_out = false)
    rec = play_hand(N_SIXES, N, TEXAS, scripts())
    assert rec.made is False and rec.score == (2, 0) and len(rec.tricks) == 1
    assert rec.points == (rec.tricks[0].points, 0)
    # play_out = true: all seven tricks, the same marks
    rec = play_hand(N_SIXES, N, FortyTwoRules(**{**PRESETS["texas"], "play_out": True}), scripts())
    assert rec.made is False and rec.score == (2, 0) and len(rec.tricks) == 7


def test_play_out_false_stops_a_30_once_made():
    scripts = [Scripted(calls=[0]), Scripted(calls=[30], trump=6), Scripted(calls=[0]), Scripted(calls=[0])]
    rec = play_hand(E_SIXES, N, TEXAS, scripts)
    assert rec.made is True and rec.score == (0, 1)
    assert rec.points[1] >= 30 and rec.points[1] - rec.tricks[-1].points < 30 and len(rec.tricks) < 7
    assert sum(t.points for t in rec.tricks) == sum(rec.points)
    assert f"stops after trick {len(rec.tricks)}: the contract is made" in format_hand(rec)


def test_marks_game_ends_at_target_marks():
    seen_scores = []

    class Player:
        def __init__(self, seat):
            self.seat = seat

        def decide(self, kind, view, legal, rng):
            if kind == CALL:
                seen_scores.append(tuple(view.scores[0].tolist()))
                return np.array([42 if self.seat == E else 0])
            if kind == TRUMP:
                return np.array([6])
            return np.array([int(np.flatnonzero(legal[0])[-1])])

    match = play_match(lambda hand_no, dealer: E_SIXES, 0, TEXAS, [Player(s) for s in range(4)])
    assert len(match.deals) == 7 and match.totals == (0, 7) and match.winner == 1
    assert all(h.score == (0, 1) and h.made for h in match.deals)
    assert sorted(set(seen_scores)) == [(0, k) for k in range(7)]
    # target_marks = 3 ends it after three hands
    three = FortyTwoRules(**{**PRESETS["texas"], "target_marks": 3})
    short = play_match(lambda hand_no, dealer: E_SIXES, 0, three, [Player(s) for s in range(4)])
    assert len(short.deals) == 3 and short.totals == (0, 3)


# --- random play under every new option ---------------------------------------------------------------------

VARIANTS = {
    "texas": TEXAS,
    "texas-house": HOUSE,
    "house-play-out": FortyTwoRules(**{**PRESETS["texas-house"], "play_out": True, "sevens": True}),
    "house-points": FortyTwoRules(
        **{
            **PRESETS["texas-house"],
            "scoring": "points",
            "sevens": True,
            "nello_doubles": "low",
            "doubles_low": True,
        }
    ),
    "seed-specials": FortyTwoRules(
        nello=True,
        plunge=True,
        splash=True,
        sevens=True,
        nello_doubles="high",
        declarations="pips,doubles,no-trump",
        scoring="marks",
    ),
}


class EagerBidder:
    """Uniform among the legal actions, but bids 42 or more (or a plunge or splash) four times in ten when it
    may, so that random deals reach every contract."""

    def decide(self, kind, view, legal, rng):
        actions = np.flatnonzero(legal[0])
        if kind == CALL:
            big = [a for a in actions if a >= 42]
            if big and rng.random() < 0.4:
                return np.array([rng.choice(big)])
        return np.array([rng.choice(actions)])


@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_hands_keep_the_rules(name):
    rules = VARIANTS[name]
    rng = np.random.default_rng(13)
    named = set()
    for hand_no in range(300):
        players = [EagerBidder() if (hand_no + s) % 3 else RandomLegal() for s in range(4)]
        rec = play_hand(random_deal(rng), hand_no % 4, rules, players, rng)
        if rec.thrown_in:
            continue
        named.add(rec.trump)
        call = [c for _, c in rec.calls if c][-1]
        special = call in (PLUNGE, SPLASH)
        assert rec.named_by == ((rec.declarer + 2) % 4 if special else rec.declarer)
        assert rec.moves[len(rec.calls)] == (TRUMP, rec.named_by, rec.trump)
        assert rec.trump in legal_declarations(rec.bid, call, rules)
        assert rec.tricks[0].leader == rec.named_by
        assert [t.leader for t in rec.tricks[1:]] == [t.winner for t in rec.tricks[:-1]]
        out = (rec.declarer + 2) % 4 if rec.trump == NELLO else None
        for t in rec.tricks:
            order = [(t.leader + i) % 4 for i in range(4) if (t.leader + i) % 4 != out]
            assert [s for s, _ in t.plays] == order
        assert sum(t.points for t in rec.tricks) == sum(rec.points)
        # the hand stops exactly when it is decided (marks, play_out = false), else after seven tricks
        prefixes = [
            outcome_so_far(rec.bid, rec.trump, rec.declarer, rec.tricks[:k], _points(rec.tricks[:k]))
            for k in range(1, len(rec.tricks) + 1)
        ]
        assert prefixes[-1] is rec.made
        if stops_early(rules):
            assert all(p is None for p in prefixes[:-1])
        else:
            assert len(rec.tricks) == 7
        if rec.trump != NELLO and len(rec.tricks) == 7:
            assert sum(rec.points) == 42
        assert (rec.score, rec.made) == hand_score(
            rec.bid, rec.declarer % 2, rec.points, rules, nello=rec.trump == NELLO, made=rec.made
        )
        assert len(rec.moves) == len(rec.calls) + 1 + sum(len(t.plays) for t in rec.tricks)
        assert json.loads(json.dumps(hand_to_dict(rec))) == hand_to_dict(rec) and format_hand(rec)
    assert len(named) >= 8


def _points(tricks) -> list[int]:
    points = [0, 0]
    for t in tricks:
        points[t.winner % 2] += t.points
    return points


def test_illegal_trump_and_special_call_rejected():
    class NamesNello(ViewHash):
        def decide(self, kind, view, legal, rng):
            if kind == CALL:
                return np.array([30 if view.seat[0] == W else 0])
            if kind == TRUMP:
                return np.array([NELLO])
            return super().decide(kind, view, legal, rng)

    with pytest.raises(IllegalAction, match=r"seat W.*trump 9 \(nello\)"):
        play_hand(SIXES_DEAL, S, NELLO_RULES, [NamesNello()] * 4)

    class Plunges:
        def decide(self, kind, view, legal, rng):
            return np.array([PLUNGE])

    with pytest.raises(IllegalAction, match=r"seat N.*call plunge"):
        play_hand(SIXES_DEAL, W, FortyTwoRules(plunge=True), [Plunges()] * 4)  # N holds two doubles
