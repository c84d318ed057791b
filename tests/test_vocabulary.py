"""One vocabulary in every game (docs/vocabulary.md): the same concept has the same column, summary key and
JSON name, and a per-side figure is written with the side's name."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from simulator import registry
from simulator.runner import Run, execute
from simulator.testing import stable_seed

GAMES = list(registry.GAMES)
SCORES = ("score_points", "score_marks")
SIDED = re.compile(r"^(?P<name>[a-z0-9_]+?)_(?P<side>[a-z0-9]+)$")


@cache
def _run(game: str, unit: str, measures: tuple[str, ...] = ()) -> tuple[Any, dict, dict]:
    g = registry.get(game)
    rules = g.rules()
    n = {"deal": 40, "match": 6}[unit] if not measures else 12
    seats = ("heuristic",) * len(g.seat_names(rules))
    run = Run(g, n, stable_seed(game, unit), rules, seats, unit, n, measures)
    result = execute(run, jobs=1, summarize=True)
    assert result.summary is not None
    return run, result.tables, result.summary


def _sides(game: str) -> list[str]:
    g = registry.get(game)
    return [s.lower() for s in g.side_names(g.rules())]


def _per_side_columns(columns: list[str], sides: list[str]) -> dict[str, set[str]]:
    """name -> the sides it is written for, for every column `<name>_<side>`."""
    out: dict[str, set[str]] = {}
    for col in columns:
        m = SIDED.match(col)
        if m and m["side"] in sides:
            out.setdefault(m["name"], set()).add(m["side"])
    return out


@pytest.mark.parametrize("unit", ["deal", "match"])
@pytest.mark.parametrize("game", GAMES)
def test_tables_speak_the_vocabulary(game: str, unit: str) -> None:
    run, tables, _ = _run(game, unit)
    deals = tables["deals"]
    sides = _sides(game)
    assert list(deals.columns[:2]) == (["match", "number"] if unit == "match" else ["deal", deals.columns[1]])
    for table in tables.values():
        assert all(col == col.lower() and " " not in col for col in table.columns), list(table.columns)
        for name, written in _per_side_columns(list(table.columns), sides).items():
            assert written == set(sides), f"{game}: {name} is written for {sorted(written)}, not every side"
            # a score says its unit: score_points_<side> or score_marks_<side>
            assert name in SCORES or not name.startswith("score"), f"{game}: {name} does not say its unit"
    if unit == "match":
        matches = tables["matches"]
        assert list(matches.columns) == [
            "match",
            "first_dealer",
            "deals",
            "winner",
            *[f"final_{s}" for s in sides],
        ]
        assert list(matches["winner"].cat.categories) == list(registry.get(game).side_names(run.rules))
        assert list(matches["first_dealer"].cat.categories) == list(registry.get(game).seat_names(run.rules))
        if registry.get(game).rows_per_deal(run.rules) == 1:
            assert {f"total_{s}" for s in sides} <= set(deals.columns)


def _side_keyed(node: Any, sides: set[str], path: str = "") -> list[str]:
    """Every mapping in a summary whose keys are side names, checked to hold every side."""
    found = []
    if isinstance(node, dict):
        keys = set(map(str, node))
        if keys & sides and keys <= sides:
            assert keys == sides, f"{path}: {sorted(keys)} is not every side"
            found.append(path)
        for key, value in node.items():
            found += _side_keyed(value, sides, f"{path}.{key}")
    elif isinstance(node, list):
        for item in node:
            found += _side_keyed(item, sides, path)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_summaries_speak_the_vocabulary(game: str) -> None:
    run, _, summary = _run(game, "match")
    g = registry.get(game)
    sides = set(g.side_names(run.rules))
    assert summary["deals"] >= run.n
    assert set(summary["matches"]) == {
        "matches",
        "undecided",
        "deals_per_match",
        "wins",
        "first_dealer_wins",
        "final",
    }
    assert "score" not in summary  # a score says its unit (score_points, score_marks), as its columns do
    keyed = _side_keyed(summary, sides)
    assert {".matches.wins", ".matches.final"} <= set(keyed)
    assert any(path.startswith(".points") for path in keyed), keyed  # every game's points are per side


@pytest.mark.parametrize("game", [g for g in GAMES if "play-quality" in registry.get(g).extra_columns])
def test_play_quality_speaks_the_vocabulary(game: str) -> None:
    run, tables, summary = _run(game, "deal", ("play-quality",))
    sides = _sides(game)
    columns = set(tables["deals"].columns)
    for name in ("perfect_value", "gave_away", "costly_plays"):
        assert {f"{name}_{s}" for s in sides} <= columns, (game, name)
    q = summary["play_quality"]
    names = registry.get(game).side_names(run.rules)
    assert set(q["perfect_value"]) == set(q["gave_away"]) == set(names)
