"""The batched Forty-two core on hand-built positions and on many random hands."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import registry
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.game import FortyTwo, Games
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_VALUE, CALL, DONE, N_ACTIONS, PLAY, TRUMP, call_action
from tests.helpers import play_deals, strategy

N, E, S, W = 0, 1, 2, 3
SEED = FortyTwoRules()


def ids(text: str) -> list[int]:
    return [D.parse_domino(t) for t in text.split()]


def one_hand(hands: dict[int, str], dealer: int = S, rest_to: int | None = None) -> core.HandState:
    """A one-row state with the given hands; unlisted dominoes go to the unlisted seats in order."""
    held = {seat: ids(text) for seat, text in hands.items()}
    free = [d for d in range(28) if all(d not in h for h in held.values())]
    for seat in range(4):
        if seat not in held:
            held[seat], free = free[:7], free[7:]
    bits = np.array([[sum(1 << d for d in held[s]) for s in range(4)]], dtype=np.uint32)
    return core.new_hands(np.array([0]), np.array([dealer]), bits)


def act(s: core.HandState, *actions: int) -> None:
    for a in actions:
        kind = int(s.phase[0])
        core.apply(s, slice(None), kind, np.array([a]), SEED)


def legal_plays(s: core.HandState) -> set[str]:
    _view, legal = core.inputs(s, slice(None), PLAY, SEED)
    return {D.name(d) for d in np.flatnonzero(legal[0])}


def auction(s: core.HandState, *values: int) -> None:
    act(s, *[call_action(v) for v in values])


def test_seed_auction_example_ends_after_three_passes_with_ew_playing_84() -> None:
    s = one_hand({}, dealer=S)  # W speaks first
    auction(s, 30, 42, 84, 0, 0, 0)
    assert s.phase[0] == TRUMP and s.high_bidder[0] == E and s.turn[0] == E
    assert BID_VALUE[s.high[0]] == 84


def test_four_passes_throw_the_hand_in() -> None:
    s = one_hand({})
    auction(s, 0, 0, 0, 0)
    assert s.phase[0] == DONE
    score, made = core.hand_scores(s, SEED)
    assert score.tolist() == [[0, 0]] and not made[0]


def test_a_seat_that_has_bid_may_only_pass_and_84_needs_a_42() -> None:
    s = one_hand({}, dealer=S)
    auction(s, 30, 0, 0)  # W 30, N pass, E pass; S may still bid
    _, legal = core.inputs(s, slice(None), CALL, SEED)
    assert legal[0, call_action(31)] and not legal[0, call_action(30)]
    assert not legal[0, call_action(84)] and not legal[0, call_action(168)]
    auction(s, 42)  # S 42; W has bid already
    _, legal = core.inputs(s, slice(None), CALL, SEED)
    assert legal[0].tolist() == [True] + [False] * (N_ACTIONS[CALL] - 1)
    jump = FortyTwoRules(jump_bids=True)
    t = one_hand({})
    _, legal = core.inputs(t, slice(None), CALL, jump)
    assert legal[0, call_action(84)] and not legal[0, call_action(168)]


def _to_play(hands: dict[int, str], trump: int, leader: int, *leads: str) -> core.HandState:
    """Auction won by `leader` at 30, `trump` named, then the given dominoes played in order."""
    s = one_hand(hands, dealer=(leader - 1) & 3)
    auction(s, 30, 0, 0, 0)
    act(s, trump, *ids(" ".join(leads)))
    return s


def test_fours_trump_4_2_is_not_a_deuce() -> None:
    s = _to_play({W: "2-1 6-6 5-5 3-3 1-1 0-0 6-5", N: "4-2 6-4 5-4 3-0 1-0 6-0 5-0"}, 4, W, "2-1")
    assert legal_plays(s) == {"4-2", "6-4", "5-4", "3-0", "1-0", "6-0", "5-0"}


def test_five_three_led_six_five_follows_three_six_does_not() -> None:
    s = _to_play({W: "5-3 6-6 4-4 2-2 1-1 0-0 2-0", N: "6-5 6-3 4-1 3-2 1-0 4-0 2-1"}, 0, W, "5-3")
    assert legal_plays(s) == {"6-5"}
    s = _to_play({W: "5-3 6-6 4-4 2-2 1-1 0-0 2-0", N: "6-4 6-3 4-1 3-2 1-0 4-0 2-1"}, 0, W, "5-3")
    assert legal_plays(s) == {"6-4", "6-3", "4-1", "3-2", "1-0", "4-0", "2-1"}  # no five: anything


def test_trump_lead_must_be_followed_with_a_trump() -> None:
    s = _to_play({W: "6-6 5-5 4-4 2-2 1-1 0-0 2-0", N: "6-5 6-3 4-1 3-2 1-0 4-0 2-1"}, 6, W, "6-6")
    assert legal_plays(s) == {"6-5", "6-3"}


HANDS = {
    W: "5-1 6-6 4-4 2-2 1-1 0-0 2-0",
    N: "5-6 6-3 4-1 3-2 1-0 4-0 2-1",
    E: "5-5 6-2 4-3 3-1 0-3 4-2 6-0",
    S: "5-4 5-3 5-2 6-4 5-0 3-3 6-1",
}


def test_the_double_tops_its_suit_and_a_trump_beats_the_suit() -> None:
    s = _to_play(HANDS, 0, W, "5-1", "5-6", "5-5")
    assert s.winner[0] == E
    act(s, *ids("5-4"))
    assert s.leader[0] == E and s.points[0].tolist() == [0, 8]  # 1 for the trick, 7 for 5-5
    s = _to_play(HANDS, 6, W, "5-1", "5-6")  # sixes trump: 5-6 is a trump, not a five, and takes the trick
    assert s.winner[0] == N
    s = _to_play(HANDS, 1, W, "5-1")
    # 5-1 is a trump when ones are trumps: N must answer with a one
    assert legal_plays(s) == {"4-1", "1-0", "2-1"}
    act(s, *ids("1-0 3-1"))
    assert s.winner[0] == W and s.winning[0] == D.parse_domino("5-1")
    act(s, *ids("6-1"))  # the highest trump takes it
    assert s.leader[0] == S and s.points[0].tolist() == [1, 0]


@pytest.mark.parametrize(
    "bid,decl_points,expected",
    [
        (30, 30, (12, 30)),
        (30, 29, (13 + 30, 0)),
        (41, 41, (1, 41)),
        (35, 34, (8 + 35, 0)),
        (42, 42, (0, 42)),
        (42, 41, (1 + 42, 0)),
        (84, 42, (0, 42)),
        (84, 36, (6 + 84, 0)),
        (168, 42, (0, 42)),
        (168, 0, (42 + 168, 0)),
    ],
)
def test_every_contract_kind_made_and_set(bid: int, decl_points: int, expected: tuple[int, int]) -> None:
    """E-W declare (W bid); the seed's example is the first case: 30 : 12."""
    s = one_hand({})
    s.high[:] = call_action(bid)
    s.bid[:] = bid
    s.high_bidder[:] = W
    s.points[:] = [[42 - decl_points, decl_points]]
    score, made = core.hand_scores(s, SEED)
    assert tuple(score[0]) == expected
    assert made[0] == (decl_points >= min(bid, 42))
    marks, _ = core.hand_scores(s, FortyTwoRules(scoring="marks"))  # the contract's marks to whoever won it
    m = 1 if bid <= 42 else bid // 42  # 84 two marks, 168 four
    won = (0, m) if made[0] else (m, 0)
    assert tuple(marks[0]) == won


@pytest.mark.parametrize("count_values", ["seed", "texas"])
def test_random_hands_add_to_42_and_seed_count_never_gives_impossible_totals(count_values: str) -> None:
    rules = FortyTwoRules(count_values=count_values)
    rng = np.random.default_rng(5)
    s = play_deals(
        "forty-two", rng, [rng] * 4, np.arange(20_000), rules, [strategy("forty-two", "random")] * 4
    )
    assert (s.phase == DONE).all() and s.deal.tolist() == list(range(20_000))
    played = s.high > 0
    assert (s.points[played].sum(axis=1) == 42).all()
    assert (np.sort(s.plays[played], axis=1) == np.arange(28)).all()  # every domino played once
    if count_values == "seed":
        assert not np.isin(s.points[played], [6, 7, 14, 21, 28, 35, 36]).any()
        # while the totals around them do occur (5, 13, 29 and 37 are possible but need four count
        # dominoes in one trick, too rare to expect here)
        common = set(range(43)) - {6, 7, 14, 21, 28, 35, 36} - {5, 13, 29, 37}
        assert common <= set(np.unique(s.points[played]).tolist())


def test_deals_are_partitions_of_the_set() -> None:
    hands = core.shuffled_hands(np.random.default_rng(2), 5000)
    assert (np.bitwise_count(hands) == 7).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == D.ALL).all()
    assert (hands.sum(axis=1, dtype=np.uint64) == int(D.ALL)).all()


@pytest.mark.parametrize("n", [1, 7, 2500])
def test_the_compiled_deal_draws_as_numpy_permuted(n: int) -> None:
    # the hands and the generator's state after them: numpy's rng.permuted over rows of 0..27, seat k
    # taking places 7k..7k+6, is the form the stored digests were taken with
    ours, theirs = np.random.default_rng(n), np.random.default_rng(n)
    order = theirs.permuted(np.broadcast_to(np.arange(D.N_DOMINOES), (n, D.N_DOMINOES)), axis=1)
    expected = D.BIT[order].reshape(n, 4, 7).sum(axis=2, dtype=np.uint32)
    assert np.array_equal(core.shuffled_hands(ours, n), expected)
    assert ours.random(5).tolist() == theirs.random(5).tolist()


def test_the_registered_game_plays_this_core_and_names_its_units() -> None:
    game = registry.get("forty-two")
    assert isinstance(game, FortyTwo) and isinstance(game.series(np.arange(3), game.rules()), Games)
    assert (
        game.unit("hand") == game.unit("deal") == "deal"
        and game.unit("Game") == game.unit("match") == "match"
    )
    assert game.unit(None) == "deal" and (game.plural("deal"), game.plural("match")) == ("hands", "games")
    rules = game.rules()
    s = play_deals(
        "forty-two",
        np.random.default_rng(1),
        [np.random.default_rng(2)] * 4,
        np.arange(10, 60),
        rules,
        [strategy("forty-two", "heuristic")] * 4,
    )
    table = game.table(s, rules)
    assert table["deal"].tolist() == list(range(10, 60))
    assert table["dealer"].tolist() == [
        D.SEATS[k % 4] for k in range(10, 60)
    ]  # deal k is dealt by seat k % 4
