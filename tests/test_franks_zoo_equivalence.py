"""The batched Frank's Zoo core against the reference engine: the same deals, the same deterministic
strategies, decision for decision and point for point, for 4 to 7 players."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.franks_zoo import core, play, reference
from simulator.franks_zoo.play import SOURCES
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.trace import recorded_moves
from strategies import make
from tests.helpers import FieldHash


def _hands_of_games(rules: FranksZooRules, strategies, n: int, seed: int) -> list[core.HandState]:
    """Every round of hands of n games (first hands and team hands)."""
    kept = []
    rng = np.random.default_rng(seed)
    play.play_games(rng, [np.random.default_rng(0)] * rules.players, np.arange(n), rules, strategies,
                    on_hands=lambda games, state: kept.append(state))
    return kept


def _compare(rules: FranksZooRules, strategies, n: int, seed: int) -> int:
    checked = 0
    for state in _hands_of_games(rules, strategies, n, seed):
        points = core.hand_points(state, rules)
        for row in range(len(state)):
            ref = reference.play_hand([h.tolist() for h in state.dealt[row]], int(state.hand_no[row]),
                                      int(state.dealer[row]), state.order[row].tolist(), state.scores[row].tolist(),
                                      rules, strategies)
            assert [tuple(m) for m in ref.moves] == recorded_moves(state, row), f"deal {state.deal[row]}: moves"
            assert list(ref.places) == state.place[row].tolist(), f"deal {state.deal[row]}: places"
            for source in (*SOURCES, "total"):
                mine = points[source][row].tolist()
                assert list(ref.points[source]) == mine, f"deal {state.deal[row]}: {source}"
            checked += 1
    return checked


SEATINGS = {
    "greedy": lambda p: [make("franks-zoo", "greedy")] * p,
    "fieldhash": lambda p: [FieldHash()] * p,
    "mixed": lambda p: [make("franks-zoo", "greedy"), FieldHash()] * (p // 2) + [FieldHash()] * (p % 2),
}
GAMES = {"greedy": 60, "fieldhash": 25, "mixed": 25}


@pytest.mark.parametrize("players", [4, 5, 6, 7])
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference(players: int, seating: str) -> None:
    rules = FranksZooRules(players=players)
    assert _compare(rules, SEATINGS[seating](players), n=GAMES[seating], seed=players) > 2 * GAMES[seating]


@pytest.mark.parametrize("options", [{"hedgehog_penalty": "missing", "exchange_cards": 3, "lion_min": 1},
                                     {"help": False, "exchange_cards": 0, "solo_bonus": 0},
                                     # a solo player dealt 8 cards sets them all aside and is out at once
                                     {"players": 7, "exchange_cards": 8}])
def test_rule_options_agree(options: dict) -> None:
    rules = FranksZooRules(**{"players": 5, **options})
    _compare(rules, [FieldHash()] * rules.players, n=25, seed=9)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6, 7])
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference_many(players: int, seating: str) -> None:
    _compare(FranksZooRules(players=players), SEATINGS[seating](players), n=600, seed=100 + players)
