"""The batched core against the reference engine: the same deals, the same deterministic strategies,
move for move and score for score."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simulator.fortytwo import core, play, reference
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.trace import recorded_moves
from simulator.options import build
from strategies import make
from tests.helpers import FieldHash, Scrambled

RULES = {
    "seed": build(FortyTwoRules, "rule", PRESETS["seed"]),
    "texas": build(FortyTwoRules, "rule", PRESETS["texas"]),
    "seed-jump-28": FortyTwoRules(jump_bids=True, min_bid=28),
}
# Every combination of the options that change play, for the field-by-field view check.
ALL_OPTIONS = [FortyTwoRules(count_values=c, auction=a, jump_bids=j, min_bid=m)
               for c in ("seed", "texas") for a in ("seed", "one-lap") for j in (False, True) for m in (1, 30, 42)]

SEATINGS = {
    "greedy": lambda: [make("forty-two", "greedy")] * 4,
    "heuristic": lambda: [make("forty-two", "heuristic")] * 4,
    "scrambled": lambda: [Scrambled()] * 4,
    # different strategies per side exercise the driver's grouping of rows by strategy
    "mixed": lambda: [make("forty-two", "heuristic:threshold=30"), Scrambled(salt=3),
                      make("forty-two", "heuristic:threshold=30"), make("forty-two", "greedy:min_length=3")],
}


def _compare(rules: FortyTwoRules, seats, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = play.play_hands(rng, [np.random.default_rng(0)] * 4, np.arange(n), rules, seats)
    scores, made = core.hand_scores(state)
    for row in range(n):
        hands = [D.bits_to_ids(int(h)) for h in state.dealt[row]]
        ref = reference.play_hand(hands, int(state.dealer[row]), rules, seats)
        assert ref.moves == recorded_moves(state, row), f"deal {row}: moves differ"
        assert ref.points == tuple(state.points[row]), f"deal {row}: points differ"
        assert ref.score == tuple(scores[row]), f"deal {row}: scores differ"
        assert ref.thrown_in == (state.high[row] == 0)
        if not ref.thrown_in:
            assert ref.made == bool(made[row])
            assert ref.declarer == state.high_bidder[row] and ref.trump == state.trump[row]


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference(rules: str, seating: str) -> None:
    _compare(RULES[rules], SEATINGS[seating](), n=1500, seed=zlib.crc32(f"{rules}{seating}".encode()))


@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=lambda r: f"{r.count_values}-{r.auction}-{r.jump_bids}-{r.min_bid}")
def test_every_rule_combination_shows_the_same_views(rules: FortyTwoRules) -> None:
    _compare(rules, [FieldHash()] * 4, n=100, seed=rules.min_bid)


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference_many(rules: str, seating: str) -> None:
    _compare(RULES[rules], SEATINGS[seating](), n=5000, seed=7)
