"""Which unit a run summary's intervals take: the hands of one game (and the player-hands of one hand) are
not independent, so the summary's figures take the run's unit, a match in a match run, as the independent
one. Tables where the rows of a unit are exact copies of each other show the difference: the unit-based
standard error is sqrt(rows per unit) times the one that counts every row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simulator import tallies
from simulator.fortytwo import summary as fortytwo_summary
from simulator.franks_zoo import summary as zoo_summary
from simulator.franks_zoo.tables import ROLE_NAMES
from simulator.stats import Measure, estimate, mean_se, wilson

GAMES, HANDS = 40, 4  # each game of the tables below holds four identical hands


def _units() -> np.ndarray:
    return np.repeat(np.arange(GAMES), HANDS)


def test_a_mean_over_units_takes_the_spread_of_the_units() -> None:
    rng = np.random.default_rng(1)
    per_game = rng.normal(size=GAMES)
    values = np.repeat(per_game, HANDS)
    m = tallies.finish(tallies.mean(values, _units()))
    e = estimate(Measure("m", per_game * HANDS, np.full(GAMES, HANDS)))
    assert m.mean == pytest.approx(e.value) and m.se == pytest.approx(e.se)
    assert m.se == pytest.approx(mean_se(per_game)[1])
    assert m.se == pytest.approx(2 * mean_se(values)[1], rel=0.05)  # not the rows' sd / sqrt(rows)


def test_a_rate_over_units_of_several_trials_is_normal_on_the_units_totals() -> None:
    made = np.repeat(np.arange(GAMES) % 3 == 0, HANDS)
    r = tallies.finish(tallies.rate(made, np.ones(len(made)), _units()))
    e = estimate(Measure("r", np.bincount(_units(), made), np.full(GAMES, HANDS), binary=True))
    assert (r.rate, r.lo, r.hi) == pytest.approx((e.value, e.lo, e.hi))
    naive = wilson(int(made.sum()), len(made))
    assert r.hi - r.lo > 1.7 * (naive[1] - naive[0])


def test_a_rate_of_one_trial_per_unit_keeps_wilson_and_a_certain_one_is_not_exact() -> None:
    one = tallies.finish(tallies.rate(np.arange(50) % 4 == 0, np.ones(50), np.arange(50)))
    assert (one.lo, one.hi) == pytest.approx(wilson(13, 50))
    sure = tallies.finish(tallies.rate(np.ones(GAMES * HANDS), np.ones(GAMES * HANDS), _units()))
    assert sure.rate == 1 and (sure.lo, sure.hi) == pytest.approx(wilson(GAMES, GAMES)) and sure.lo < 1
    e = estimate(Measure("r", np.full(GAMES, HANDS), np.full(GAMES, HANDS), binary=True))
    assert (e.lo, e.hi) == pytest.approx(wilson(GAMES, GAMES))


def test_unit_tallies_of_chunks_add_up_to_the_whole() -> None:
    rng = np.random.default_rng(2)
    values, units = rng.normal(size=GAMES * HANDS), _units()
    half = GAMES * HANDS // 2
    whole = tallies.finish(tallies.mean(values, units))
    first, second = (tallies.mean(values[s], units[s]) for s in (slice(0, half), slice(half, None)))
    parts = tallies.merge(first, second)
    assert tallies.finish(parts).se == pytest.approx(whole.se)


def _fortytwo_hands(match: bool) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = GAMES * HANDS
    game = np.repeat(rng.integers(0, 2, GAMES).astype(bool), HANDS)  # a game's hands all alike
    points = np.repeat(rng.integers(10, 40, GAMES), HANDS)
    hands = pd.DataFrame(
        {
            "deal": np.arange(n),
            "thrown_in": np.zeros(n, bool),
            "made": game,
            "bid": np.full(n, 30),
            "declarer": np.full(n, "N"),
            "trump": np.where(game, "sixes", "fives"),
            "points_ns": points,
            "points_ew": 42 - points,
            "score_points_ns": np.where(game, points, 0),
            "score_points_ew": np.where(game, 42 - points, 42),
        }
    )
    if match:
        hands.insert(0, "match", _units())
    return hands


def test_fortytwo_hand_rates_of_a_match_run_take_the_match_as_the_unit() -> None:
    by_game = tallies.finish(fortytwo_summary.summarize(_fortytwo_hands(match=True)))
    by_hand = tallies.finish(fortytwo_summary.summarize(_fortytwo_hands(match=False)))
    made = _fortytwo_hands(match=True)["made"].to_numpy()
    assert by_hand["all_contracts"].lo == pytest.approx(wilson(int(made.sum()), len(made))[0])
    e = estimate(Measure("c", np.bincount(_units(), made), np.full(GAMES, HANDS), binary=True))
    got = by_game["all_contracts"]
    assert (got.rate, got.lo, got.hi) == pytest.approx((e.value, e.lo, e.hi))
    assert by_game["contracts"][0]["made"].lo == pytest.approx(e.lo)
    wide, narrow = by_game["points"]["NS"].se, by_hand["points"]["NS"].se
    assert wide == pytest.approx(2 * narrow, rel=0.05)


def _zoo_hands(match: bool) -> pd.DataFrame:
    """Five players, every hand of a game a copy of the game's first."""
    rng = np.random.default_rng(4)
    p, n = 5, GAMES * HANDS
    place = np.tile(np.arange(1, p + 1), n)
    points = np.repeat(rng.integers(0, 9, (GAMES, 1, p)), HANDS, axis=1).ravel()
    asked = np.repeat(rng.integers(0, 5, (GAMES, 1, p)), HANDS, axis=1).ravel()
    role = np.tile([1, 2, 1, 2, 3], n)  # senior, junior, senior, junior, solo
    h = pd.DataFrame(
        {
            "deal": np.repeat(np.arange(n), p),
            "player": np.tile(np.arange(p), n),
            "place": place,
            "role": pd.Categorical.from_codes(role, categories=list(ROLE_NAMES)),
            "points": points,
            "help_asked": np.where(role == 2, asked, 0),
            "help_given": np.where(role == 2, asked // 2, 0),
            "help_won": np.where(role == 2, asked // 3, 0),
            "points_lions": points % 3,
            "points_last_lions": np.zeros(n * p),
            "points_hedgehog": -(points % 2),
        }
    )
    if match:
        h.insert(0, "match", np.repeat(_units(), p))
    return h


def test_frank_s_zoo_per_seat_means_of_a_match_run_take_the_game_as_the_unit() -> None:
    h = _zoo_hands(match=True)
    s = tallies.finish(zoo_summary.summarize(h))
    seat0 = h["player"].to_numpy() == 0
    per_game = np.bincount(np.repeat(_units(), 5)[seat0], h["points"].to_numpy()[seat0])
    e = estimate(Measure("seat 0 points", per_game, np.full(GAMES, HANDS)))
    assert s["points"]["0"].se == pytest.approx(e.se)
    assert s["points"]["0"].se == pytest.approx(2 * mean_se(h["points"][seat0])[1], rel=0.05)
    junior = (h["role"] == "junior").to_numpy()
    asked = np.bincount(np.repeat(_units(), 5), np.where(junior, h["help_asked"], 0))
    e = estimate(Measure("asked", asked, np.full(GAMES, 2 * HANDS)))
    assert s["help"]["asked_per_junior_hand"].se == pytest.approx(e.se)
    given = np.bincount(np.repeat(_units(), 5), h["help_given"])
    e = estimate(Measure("granted", given, asked, binary=True))
    assert (s["help"]["given"].lo, s["help"]["given"].hi) == pytest.approx((e.lo, e.hi))


def test_frank_s_zoo_player_hands_of_one_hand_are_one_unit_in_a_run_of_hands() -> None:
    h = _zoo_hands(match=False)
    s = tallies.finish(zoo_summary.summarize(h))
    deal = h["deal"].to_numpy()
    junior = (h["role"] == "junior").to_numpy()
    per_hand = np.bincount(deal, np.where(junior, h["points"], 0))
    e = estimate(Measure("junior points", per_hand, np.full(GAMES * HANDS, 2)))
    by_role = {r["role"]: r for r in s["by_role"]}
    assert by_role["junior"]["points"].se == pytest.approx(e.se)
