"""The play-quality vocabulary both games share (`simulator.quality`): the split of what each side gave away
along lines of play, and the columns each game's `--measure play-quality` writes."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import app, quality
from simulator.fortytwo import quality as fortytwo_quality
from simulator.rounds import quality as rounds_quality
from simulator.specs import Execution, RunSpec


def test_split_charges_each_play_to_the_side_that_made_it() -> None:
    # Line 0, side 0 playing the value up: side 0 keeps 10, drops it to 7 (gave 3), side 1 lifts it to 9
    # (gave 2) and keeps it, side 0 drops it to 4 (gave 5). Line 1, side 1 playing it up and two plays long:
    # side 0 lifts 5 to 8 (gave 3), side 1 drops it to 6 (gave 2); the columns after its last play are
    # padding, never read.
    values = np.array([[10, 10, 7, 9, 9, 4], [5, 8, 6, -1, -1, -1]])
    mover = np.array([[0, 0, 1, 1, 0], [0, 1, -1, -1, -1]])
    gave, costly = quality.split(values, mover, maximizer=np.array([0, 1]))
    assert gave.tolist() == [[8, 2], [3, 2]]
    assert costly.tolist() == [[2, 1], [1, 1]]
    # leading axes are kept (games x stages, as in Rounds); one maximizer for every line
    gave, costly = quality.split(values[None, :1].repeat(2, axis=1), mover[None, :1].repeat(2, axis=1))
    assert gave.shape == costly.shape == (1, 2, 2)
    assert gave[0].tolist() == [[8, 2], [8, 2]] and costly[0].tolist() == [[2, 1], [2, 1]]
    # perfect play gives nothing away
    assert quality.split(np.full((1, 4), 3), np.array([[0, 1, 0]]))[0].tolist() == [[0, 0]]
    with pytest.raises(ValueError, match="one more column than the plays"):
        quality.split(values, mover[:, :4])


def test_shared_columns_are_named_by_concept_then_side() -> None:
    assert quality.columns(("ns", "ew")) == (
        "perfect_value_ns",
        "perfect_value_ew",
        "gave_away_ns",
        "gave_away_ew",
        "costly_plays_ns",
        "costly_plays_ew",
    )
    assert (*quality.columns(("ns", "ew")), "made_perfect") == fortytwo_quality.COLUMNS
    assert rounds_quality.COLUMNS[:6] == quality.columns(("0", "1"))


@pytest.mark.xdist_group("fortytwo-solver")  # on the worker that compiles the Forty-two solver once
def test_both_games_write_the_shared_concepts_under_the_same_names() -> None:
    """Each game's measure writes every shared concept for both its sides, with the side suffixes its other
    per-side columns use (`points_<side>`), and its own extras; the names before this vocabulary are gone."""
    shared = {}
    for game, sides, extras in (
        ("forty-two", fortytwo_quality.SIDES, ("made_perfect",)),
        ("rounds", rounds_quality.SIDES, ("stages_off_perfect", "s1_gave_away_0", "s5_gave_away_1")),
    ):
        deals = app.simulate(
            RunSpec(game, n=30, measures=["play-quality"]), execution=Execution(jobs=1)
        ).deals
        for side in sides:
            assert f"points_{side}" in deals  # the game's own side suffixes
        written = set(deals.columns)
        assert set(quality.columns(sides)) | set(extras) <= written
        assert not written & {"perfect_points", "declarers_gave", "defenders_gave", "perfect_margin_0"}
        shared[game] = {c.rsplit("_", 1)[0] for c in written if c.endswith(tuple(f"_{s}" for s in sides))}
    for concept in quality.SHARED:
        assert concept in shared["forty-two"] and concept in shared["rounds"]
