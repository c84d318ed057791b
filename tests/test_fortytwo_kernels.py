"""The compiled steps give what the numpy forms give: the heuristic's compiled ladder bid and play against its
numpy form (a subclass that keeps it), move for move, under several rule sets and parameters; the compiled
deal against numpy's permuted is in test_fortytwo_core.py, and the core's steps against the reference engine
in test_fortytwo_equivalence.py."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from simulator import registry
from simulator.fortytwo.rules import FortyTwoRules
from strategies.fortytwo import Heuristic
from tests.helpers import play_deals


@dataclass(frozen=True)
class NumpyHeuristic(Heuristic):
    """The heuristic as its numpy form plays: a lead score of its own (the same one) keeps the compiled play
    off, and the compiled ladder is switched off."""

    @staticmethod
    def _lead_score(view):  # the same score, a function of its own
        return Heuristic._lead_score(view)

    def _compiled_ladder(self, rules: FortyTwoRules) -> bool:
        return False


FIELDS = ("calls", "n_calls", "bid", "high_bidder", "trump", "plays", "points")


@pytest.mark.parametrize(
    ("rules", "params"),
    [
        ({}, {}),
        ({}, {"margin": -3.0, "preempt": 0.8, "overcall_margin": 1.5, "partner_gain": 2.0}),
        ({"jump_bids": True, "min_bid": 28}, {}),
        ({"auction": "one-lap"}, {"preempt": 0.2}),
        ({"scoring": "marks"}, {}),
        ({"plunge": True, "splash": True, "nello": True}, {"nello_risk": 2}),
    ],
)
def test_the_compiled_heuristic_plays_as_its_numpy_form(rules: dict, params: dict) -> None:
    r = registry.get("forty-two").rules(overrides=rules)
    deals = np.arange(3000)
    out = []
    for cls in (Heuristic, NumpyHeuristic):
        s = play_deals(
            "forty-two",
            np.random.default_rng(5),
            [np.random.default_rng(6)] * 4,
            deals,
            r,
            [cls(**params)] * 4,
        )
        out.append(s)
    compiled, numpy_form = out
    for name in FIELDS:
        assert np.array_equal(getattr(compiled, name), getattr(numpy_form, name)), name
    assert (compiled.high > 0).mean() > 0.3  # hands were bid and played, not only thrown in
