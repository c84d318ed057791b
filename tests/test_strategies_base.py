"""The shared strategy helpers: uniform choice among legal actions, best legal action, spec handling."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.errors import DealsimError
from strategies import make, with_params
from strategies.base import best_legal, select, uniform_choice


@pytest.mark.parametrize("width", [7, 28, 45, 52])
def test_uniform_choice_is_legal_and_uniform(width: int) -> None:
    rng = np.random.default_rng(width)
    legal = rng.random((50_000, width)) < 0.3
    legal[:, width // 2] = True
    picks = uniform_choice(legal, rng)
    assert legal[np.arange(len(legal)), picks].all()
    row = legal[0]
    counts = np.bincount(uniform_choice(np.tile(row, (120_000, 1)), rng), minlength=width)
    assert (counts[~row] == 0).all()
    expected = 120_000 / row.sum()
    chi2 = ((counts[row] - expected) ** 2 / expected).sum()
    assert chi2 < 3 * row.sum() + 30  # far above the chi-square's mean (k - 1) only if the choice is biased


def test_best_legal_ignores_illegal_actions_and_breaks_ties_first() -> None:
    score = np.array([[5, 9, 9, 1], [-30000, -5, 7, 7]], dtype=np.int16)
    legal = np.array([[True, False, True, True], [True, True, False, False]])
    assert best_legal(score, legal).tolist() == [2, 1]
    assert best_legal(score.astype(float), legal).tolist() == [2, 1]
    assert best_legal(score.astype(np.int64), legal).tolist() == [2, 1]


def test_select_matches_where() -> None:
    rng = np.random.default_rng(0)
    mask = rng.random((100, 52)) < 0.5
    a, b = rng.integers(-999, 999, (2, 100, 52)).astype(np.int16)
    assert np.array_equal(select(mask, a, b), np.where(mask, a, b))


def test_specs_and_parameters() -> None:
    h = make("forty-two", "heuristic:threshold=33,base=7.5")
    assert (h.threshold, h.base, h.spec) == (33, 7.5, "heuristic:threshold=33,base=7.5")
    assert with_params("heuristic:threshold=33", {"threshold": "30", "base": "1"}) == "heuristic:threshold=30,base=1"
    assert make("rounds", "heuristic:duck=false").duck is False
    with pytest.raises(DealsimError, match="unknown rounds strategy"):
        make("rounds", "bidder")
    with pytest.raises(DealsimError, match="expected key=value"):
        make("rounds", "heuristic:duck")
