"""The batched Rounds core against the reference engine: the same decks and shuffles, the same
deterministic strategies, card for card and score for score."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.rounds import play, reference
from simulator.rounds.rules import RoundsRules
from simulator.rounds.trace import deal_of, recorded_moves
from strategies import make
from tests.helpers import FieldHash

RULES = {f"{rot}-{'rank' if rt else 'plain'}": RoundsRules(dealer_rotation=rot, rank_trumps=rt)
         for rot in ("stage", "game") for rt in (False, True)}

SEATINGS = {
    "greedy": lambda: [make("rounds", "greedy")] * 2,
    "heuristic": lambda: [make("rounds", "heuristic")] * 2,
    "fieldhash": lambda: [FieldHash()] * 2,
    "mixed": lambda: [make("rounds", "heuristic:duck_margin=-3,trump_cost=1"), FieldHash()],
}


def _compare(rules: RoundsRules, seats, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = play.play_games(rng, [np.random.default_rng(0)] * 2, np.arange(n), rules, seats)
    for row in range(n):
        deck, shuffles = deal_of(state, row)
        ref = reference.play_game(int(state.first_dealer[row]), deck, shuffles, rules, seats)
        assert ref.moves == recorded_moves(state, row), f"game {row}: moves differ"
        assert ref.points == tuple(int(p) for p in state.points[row]), f"game {row}: points differ"
        assert [st.points for st in ref.stages] == [tuple(int(x) for x in p) for p in state.stage_score[row]]
        assert [st.face_up for st in ref.stages] == [[int(c) for c in f if c >= 0] for f in state.faces[row]]


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference(rules: str, seating: str) -> None:
    _compare(RULES[rules], SEATINGS[seating](), n=300, seed=len(rules) * 7 + len(seating))


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference_many(rules: str, seating: str) -> None:
    _compare(RULES[rules], SEATINGS[seating](), n=3000, seed=11)
