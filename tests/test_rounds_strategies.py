"""The compiled decisions of the Rounds heuristic and greedy players (`strategies.rounds_compiled`) choose
the cards their numpy statements (`decide_numpy`) choose: at every step of whole games, under the rule
variants and with the parameters that change their play, on lockstep steps and on views that mix leads and
replies."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.rounds import core
from simulator.rounds.game import GAME
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, RoundsView
from strategies.rounds import Greedy, Heuristic

VARIANTS = [
    (RoundsRules(), Heuristic()),
    (RoundsRules(rank_trumps=True, dealer_rotation="game"), Heuristic(duck_margin=-15)),
    (RoundsRules(rank_trumps=True), Heuristic(trump_cost=0, duck_margin=-40)),
    (RoundsRules(), Heuristic(duck=False)),
]


@pytest.mark.parametrize(("rules", "heuristic"), VARIANTS)
def test_compiled_heuristic_chooses_as_numpy(rules: RoundsRules, heuristic: Heuristic) -> None:
    rng = np.random.default_rng(7)
    s = GAME.deal(rng, np.arange(400), rules)
    previous = None
    while not (s.phase == DONE).all():
        view, words, _ = core.packed_inputs(s, slice(None), 0, rules)
        compiled = heuristic.decide_packed(0, view, words, rng)
        np.testing.assert_array_equal(compiled, heuristic.decide_numpy(0, view, words, rng))
        arrays = view.arrays()
        if previous is not None:  # half the rows of this step and half of the last: leads and replies mixed
            mixed = RoundsView(
                rules=rules, **{k: np.concatenate([v[:200], previous[0][k][200:]]) for k, v in arrays.items()}
            )
            mixed_words = np.concatenate([words[:200], previous[1][200:]])
            np.testing.assert_array_equal(
                heuristic.decide_packed(0, mixed, mixed_words, rng),
                heuristic.decide_numpy(0, mixed, mixed_words, rng),
            )
        previous = arrays, words
        core.apply(s, slice(None), 0, compiled, rules)


@pytest.mark.parametrize("rules", [RoundsRules(), RoundsRules(rank_trumps=True)])
def test_compiled_greedy_chooses_as_numpy(rules: RoundsRules) -> None:
    rng = np.random.default_rng(8)
    s = GAME.deal(rng, np.arange(400), rules)
    greedy = Greedy()
    while not (s.phase == DONE).all():
        view, legal = core.inputs(s, slice(None), 0, rules)
        compiled = greedy.decide(0, view, legal, rng)
        np.testing.assert_array_equal(compiled, greedy.decide_numpy(0, view, legal, rng))
        core.apply(s, slice(None), 0, compiled, rules)
