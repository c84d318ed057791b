"""The shared strategy helpers: uniform choice among legal actions, best legal action, spec handling."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import registry
from simulator.errors import DealsimError
from strategies import with_params
from strategies.base import Random, Strategy, best_legal, best_of_bits, by_row, uniform_choice
from tests.helpers import Scrambled, strategy


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


@pytest.mark.parametrize(("n", "dtype"), [(28, np.uint32), (52, np.uint64), (64, np.uint64)])
def test_best_of_bits_is_best_legal_on_a_bitmask(n: int, dtype: type) -> None:
    """The highest-scoring set bit, the lowest on ties (scores drawn from few values, so ties are common),
    whatever the number of bits per row: best_legal on the same mask."""
    rng = np.random.default_rng(n)
    m = 4000
    legal = rng.random((m, n)) < rng.random((m, 1))
    legal[np.arange(m), rng.integers(0, n, m)] = True
    bits = (legal.astype(dtype) << np.arange(n, dtype=dtype)).sum(axis=1, dtype=dtype)
    score = rng.integers(-3, 4, (m, n)).astype(np.int16)
    seen = []

    def score_of(position: np.ndarray, bit: np.ndarray) -> np.ndarray:
        seen.append(position.copy())
        return score[np.arange(m), position]

    assert np.array_equal(best_of_bits(bits, score_of), best_legal(score, legal))
    assert len(seen) == legal.sum(axis=1).max()  # one pass per bit of the fullest row


def test_by_row_scores_each_row_with_its_own_scorer() -> None:
    choose = np.array([True, False, True])

    def high(position, bit):
        return position.astype(np.int16) + 100

    def low(position, bit):
        return -position.astype(np.int16)

    position, bit = np.array([1, 2, 3]), np.array([2, 4, 8], np.uint64)
    assert by_row(choose, high, low)(position, bit).tolist() == [101, -2, 103]
    assert by_row(choose, high, None) is high and by_row(choose, None, low) is low


def test_specs_and_parameters() -> None:
    h = strategy("forty-two", "heuristic:margin=3.0,base=7.5")
    assert (h.margin, h.base, h.spec) == (3.0, 7.5, "heuristic:margin=3.0,base=7.5")
    # the spec is computed from the name and the parameters that differ from their defaults
    assert strategy("forty-two", "heuristic:base=7.5,margin=3").spec == "heuristic:margin=3.0,base=7.5"
    assert strategy("forty-two", "heuristic:margin=1").spec == "heuristic"  # 1.0 is the default
    assert strategy("forty-two", "greedy").spec == "greedy"
    assert strategy("rounds", "heuristic:duck=false").spec == "heuristic:duck=false"
    assert registry.roster("forty-two").make(h.spec) == h  # the spec makes the strategy again
    assert with_params("heuristic:margin=3", {"margin": "2", "base": "1"}) == "heuristic:margin=2,base=1"
    fortytwo = registry.roster("forty-two")
    assert fortytwo.with_params("heuristic", {"margin": "2"}) == "heuristic:margin=2"
    assert (
        fortytwo.with_params("tests.helpers:Scrambled:salt=1", {"salt": "2"})
        == "tests.helpers:Scrambled:salt=2"
    )
    assert with_params("tests.helpers:Scrambled", {"salt": "2"}) == "tests.helpers:Scrambled:salt=2"
    assert strategy("rounds", "heuristic:duck=false").duck is False
    with pytest.raises(DealsimError, match="unknown rounds strategy"):
        strategy("rounds", "bidder")
    with pytest.raises(DealsimError, match="expected key=value"):
        strategy("rounds", "heuristic:duck")
    with pytest.raises(DealsimError, match="unknown heuristic parameter 'thresh'"):
        strategy("forty-two", "heuristic:thresh=3")


def test_user_strategies_load_by_module_and_class() -> None:
    s = strategy("forty-two", "tests.helpers:Scrambled:salt=2")
    assert isinstance(s, Scrambled) and s.salt == 2
    with pytest.raises(DealsimError, match="is not a Strategy subclass"):
        strategy("forty-two", "json:JSONDecoder")
    with pytest.raises(DealsimError, match="does not implement decide"):
        strategy("forty-two", "strategies.base:Strategy")
    with pytest.raises(DealsimError, match="cannot load strategy no_such_module:X"):
        strategy("forty-two", "no_such_module:X")
    unnamed = strategy("forty-two", "tests.helpers:AlwaysBid168")
    assert (
        unnamed.spec == "tests.helpers:AlwaysBid168"
        and registry.roster("forty-two").make(unnamed.spec) == unnamed
    )


def test_a_user_strategy_spec_makes_it_again() -> None:
    # a user class that has a `name` of its own is still named by where it is defined
    s = strategy("forty-two", "tests.helpers:Scrambled:salt=2")
    assert s.spec == "tests.helpers:Scrambled:salt=2" and registry.roster("forty-two").make(s.spec) == s


def test_params_are_the_dataclass_fields_only() -> None:
    assert Random().params() == {}
    assert strategy("forty-two", "greedy:min_length=3").params() == {"min_length": 3}


def test_every_game_lists_its_strategies_and_the_default_is_one_of_them() -> None:
    for name, game in registry.GAMES.items():
        known = registry.roster(game).known
        assert game.default_strategy in known, name
        assert "random" in known, name
        for key, cls in known.items():
            assert issubclass(cls, Strategy) and cls.name == key, (name, key)
            assert registry.roster(game).make(key).spec == key  # defaults only: the bare name
    assert issubclass(registry.roster("franks-zoo").known["random"], Random)  # its draw compiled


def test_the_generic_random_strategy_plays_uniformly_among_legal_actions() -> None:
    r = Random()
    assert r.spec == "random"
    legal = np.zeros((60_000, 9), bool)
    legal[:, [1, 4, 8]] = True
    picks = r.decide(0, None, legal, np.random.default_rng(3))
    counts = np.bincount(picks, minlength=9)
    assert counts[[0, 2, 3, 5, 6, 7]].sum() == 0
    assert np.allclose(counts[[1, 4, 8]] / 60_000, 1 / 3, atol=0.01)
