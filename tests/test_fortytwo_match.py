"""Games to the target: the batched match loop against the reference engine's, hand for hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simulator.fortytwo import dominoes as D
from simulator.fortytwo import reference
from simulator.fortytwo.game import Games, game_winner
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.tables import score_column
from simulator.options import build
from tests.helpers import Scrambled, play_matches, stable_hash, strategy

SEATINGS = {
    "heuristic-250": (lambda: [strategy("forty-two", "heuristic")] * 4, 250),
    "greedy-scrambled-120": (
        lambda: [strategy("forty-two", "greedy:min_length=3"), Scrambled(salt=1)] * 2,
        120,
    ),
    # the marks game to 7 under texas-house: nello, plunge, splash, hands stopped when decided
    "marks-scrambled": (lambda: [strategy("forty-two", "heuristic"), Scrambled(salt=2)] * 2, "texas-house"),
}


@pytest.mark.parametrize("seating", list(SEATINGS))
def test_games_equal_the_reference_engine(seating: str) -> None:
    _compare(*SEATINGS[seating], games=40, seed=stable_hash(seating))


@pytest.mark.slow
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_many_games_equal_the_reference_engine(seating: str) -> None:
    _compare(*SEATINGS[seating], games=400, seed=stable_hash(f"many {seating}"))


def _compare(seats, target: int | str, games: int, seed: int) -> None:
    rules = (
        FortyTwoRules(target=target)
        if isinstance(target, int)
        else build(FortyTwoRules, "rule", PRESETS[target])
    )
    strategies = seats()
    dealt: dict[tuple[int, int], list[list[int]]] = {}
    counter: dict[int, int] = {}

    def keep(games: np.ndarray, state) -> None:
        for row, game in enumerate(games):
            hand_no = counter.get(int(game), 0)
            dealt[int(game), hand_no] = [D.bits_to_ids(int(h)) for h in state.dealt[row]]
            counter[int(game)] = hand_no + 1

    rng = np.random.default_rng(seed)
    n = games
    hands, games = play_matches("forty-two", rng, [rng] * 4, np.arange(n), rules, strategies, on_deals=keep)
    assert list(games.columns) == [
        "match",
        "first_dealer",
        "deals",
        "winner",
        "final_ns",
        "final_ew",
    ]
    assert {"match", "number", "total_ns", "total_ew"} <= set(hands.columns)
    assert games["match"].tolist() == list(range(n)) and len(hands) == games["deals"].sum()
    assert games["first_dealer"].tolist() == [D.SEATS[k % 4] for k in range(n)]  # game k first dealt by k % 4
    assert sorted(counter.items()) == list(zip(games["match"], games["deals"]))  # on_deals saw every hand
    for game in games.itertuples():
        ref = reference.play_match(
            lambda hand_no, dealer, g=game.match: dealt[g, hand_no],
            D.SEATS.index(game.first_dealer),
            rules,
            strategies,
        )
        assert len(ref.deals) == game.deals
        assert ref.totals == (game.final_ns, game.final_ew)
        assert (None if ref.winner is None else D.SIDES[ref.winner]) == (
            None if pd.isna(game.winner) else game.winner
        )
        mine = hands[hands["match"] == game.match]
        assert mine["number"].tolist() == list(range(1, game.deals + 1))
        scores = zip(mine[score_column(mine, "ns")], mine[score_column(mine, "ew")])
        assert [h.score for h in ref.deals] == list(scores)
        assert [D.SEATS[h.dealer] for h in ref.deals] == list(mine["dealer"])
        running = np.cumsum([h.score for h in ref.deals], axis=0).tolist()
        assert running == mine[["total_ns", "total_ew"]].to_numpy().tolist()


def test_a_game_of_passes_is_abandoned_after_the_thrown_in_limit() -> None:
    rules = FortyTwoRules()
    never_bid = strategy(
        "forty-two", "heuristic:bidder=threshold,threshold=84"
    )  # no hand is worth 84: everybody passes
    hands, games = play_matches(
        "forty-two",
        np.random.default_rng(1),
        [np.random.default_rng(2)] * 4,
        np.arange(3),
        rules,
        [never_bid] * 4,
    )
    assert (games["deals"] == Games.max_idle_in_a_row).all() and games["winner"].isna().all()
    assert (games[["final_ns", "final_ew"]] == 0).all().all()
    assert hands["thrown_in"].all() and len(hands) == 3 * Games.max_idle_in_a_row


def test_game_winner_matches_the_reference_rule_including_ties() -> None:
    rng = np.random.default_rng(8)
    totals = rng.integers(200, 300, (5000, 2))
    totals[::7, 1] = totals[::7, 0]  # ties
    declarer = rng.integers(-1, 4, 5000)
    got = game_winner(totals, declarer, 250)
    for t, d, g in zip(totals, declarer, got):
        expected = reference.match_winner(tuple(t), None if d < 0 else d % 2, 250)
        assert (-1 if expected is None else expected) == g or (d < 0 and t[0] == t[1] and t[0] >= 250)
    tie = game_winner(np.array([[260, 260], [260, 260]]), np.array([1, 2]), 250)
    assert tie.tolist() == [1, 0]  # equal totals: the side that declared this hand
