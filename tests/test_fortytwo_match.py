"""Games to the target: the batched match loop against the reference engine's, hand for hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simulator.fortytwo import dominoes as D
from simulator.fortytwo import play, reference
from simulator.fortytwo.rules import FortyTwoRules
from strategies import make
from tests.helpers import Scrambled


@pytest.mark.parametrize("seats,target", [
    (lambda: [make("forty-two", "heuristic")] * 4, 250),
    (lambda: [make("forty-two", "greedy:min_length=3"), Scrambled(salt=1)] * 2, 120),
])
def test_games_equal_the_reference_engine(seats, target: int) -> None:
    rules = FortyTwoRules(target=target)
    strategies = seats()
    dealt: dict[tuple[int, int], list[list[int]]] = {}
    counter: dict[int, int] = {}

    def keep(games: np.ndarray, state) -> None:
        for row, game in enumerate(games):
            hand_no = counter.get(int(game), 0)
            dealt[int(game), hand_no] = [D.bits_to_ids(int(h)) for h in state.dealt[row]]
            counter[int(game)] = hand_no + 1

    rng = np.random.default_rng(3)
    hands, games = play.play_games(rng, [rng] * 4, np.arange(150), rules, strategies, on_hands=keep)
    for game in games.itertuples():
        ref = reference.play_match(lambda hand_no, dealer, g=game.game: dealt[g, hand_no],
                                   D.SEATS.index(game.first_dealer), rules, strategies)
        assert len(ref.hands) == game.hands
        assert ref.totals == (game.final_ns, game.final_ew)
        assert (None if ref.winner is None else D.SIDES[ref.winner]) == (None if pd.isna(game.winner)
                                                                          else game.winner)
        mine = hands[hands["game"] == game.game]
        assert [h.score for h in ref.hands] == list(zip(mine["score_ns"], mine["score_ew"]))
        assert [D.SEATS[h.dealer] for h in ref.hands] == list(mine["dealer"])


def test_game_winner_matches_the_reference_rule_including_ties() -> None:
    rng = np.random.default_rng(8)
    totals = rng.integers(200, 300, (5000, 2))
    totals[::7, 1] = totals[::7, 0]  # ties
    declarer = rng.integers(-1, 4, 5000)
    got = play.game_winner(totals, declarer, 250)
    for t, d, g in zip(totals, declarer, got):
        expected = reference.match_winner(tuple(t), None if d < 0 else d % 2, 250)
        assert (-1 if expected is None else expected) == g or (d < 0 and t[0] == t[1] and t[0] >= 250)
    tie = play.game_winner(np.array([[260, 260], [260, 260]]), np.array([1, 2]), 250)
    assert tie.tolist() == [1, 0]  # equal totals: the side that declared this hand
