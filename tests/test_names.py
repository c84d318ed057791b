"""Names, not codes: what a player reads in a table, a summary or a trace is written in words. Forty-two's
`trump` is a category of the rules' words in the order of the TRUMP actions, the hand's score says its unit
in its name, and a side is written one way (NS, EW) in tables, summaries and traces alike. (Frank's Zoo's
traces, with every card named in full, are checked in test_franks_zoo_reference.)"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pandas as pd
import pytest

from simulator import registry, replay
from simulator.runner import Run, execute
from simulator.summaries import flatten

# the words of docs/games/forty-two.md, in the order of the TRUMP actions 0..10
TRUMPS = [
    "blanks",
    "aces",
    "deuces",
    "treys",
    "fours",
    "fives",
    "sixes",
    "doubles",
    "no-trump",
    "nello",
    "sevens",
]
HOUSE = ["sevens=true"]  # with the texas-house preset: every declaration may be named


@cache
def _run(preset: str, unit: str = "deal", overrides: tuple[str, ...] = ()) -> tuple[Run, dict, dict]:
    game = registry.get("forty-two")
    rules = game.rules(preset, overrides=list(overrides))
    n = {"deal": 300, "match": 6}[unit]
    run = Run(game, n, 5, rules, ("heuristic",) * 4, unit, n)
    result = execute(run, jobs=1, summarize=True)
    assert result.summary is not None
    return run, result.tables, result.summary


def test_trump_is_a_category_of_its_names_in_action_order() -> None:
    run, tables, _ = _run("texas-house", overrides=tuple(HOUSE))
    deals = tables["deals"]
    trump = deals["trump"]
    assert isinstance(trump.dtype, pd.CategoricalDtype) and list(trump.cat.categories) == TRUMPS
    assert trump.isna().equals(deals["thrown_in"])
    assert trump[deals["contract"] == "nello"].eq("nello").all()
    assert set(trump.dropna()) - set(TRUMPS[:7]), "the run names no declaration beyond the pips"
    # the category's code is what the seat named: the reference engine's retelling agrees, deal by deal
    for deal in deals.index[~deals["thrown_in"]][:8]:
        told = replay.trace(run, int(deal), as_json=True)
        assert told["trump"] == trump.cat.codes[deal] and told["declaration"] == trump[deal]


@pytest.mark.parametrize(("preset", "unit"), [("seed", "points"), ("texas", "marks")])
def test_the_score_says_its_unit(preset: str, unit: str) -> None:
    run, tables, summary = _run(preset)
    columns = set(tables["deals"].columns)
    other = "marks" if unit == "points" else "points"
    assert {f"score_{unit}_ns", f"score_{unit}_ew"} <= columns
    assert not any(c.startswith(("score_ns", "score_ew", f"score_{other}")) for c in columns)
    assert set(summary[f"score_{unit}"]) == {"NS", "EW"} and "score" not in summary
    assert f"score_{unit}.NS" in set(flatten(summary)["metric"])
    rendered = run.game.render(summary)
    headers = [c.header for t in rendered if hasattr(t, "columns") for c in t.columns]
    assert f"score per hand dealt ({unit})" in headers
    if unit == "marks":
        assert tables["deals"][["score_marks_ns", "score_marks_ew"]].sum(axis=1).between(0, 4).all()
    # a traced game says what it is played to, in its unit
    games, _, _ = _run(preset, "match")
    target = 7 if unit == "marks" else 250
    assert replay.trace(games, 0).startswith(f"game 0 to {target} {unit}\n")
    told = replay.trace(games, 0, as_json=True)
    assert (told["target"], told["target_unit"]) == (target, unit)


def _strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [*map(str, node), *(s for v in node.values() for s in _strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [node] if isinstance(node, str) else []


def test_sides_are_written_one_way() -> None:
    """NS and EW, as `--seat NS=...` writes them: in the per-deal and per-match tables, the summary, and a
    traced hand and game (text and JSON); never N-S or E-W."""
    run, tables, summary = _run("seed", "match")
    assert list(tables["matches"]["winner"].cat.categories) == ["NS", "EW"]
    for table in tables.values():
        sided = {c.rsplit("_", 1)[1] for c in table.columns if c.endswith(("_ns", "_ew"))}
        assert sided == {"ns", "ew"}
    assert {".points", ".matches.wins", ".matches.final"} <= set(_side_paths(summary))
    deals = tables["deals"]
    played = int(deals.loc[~deals["thrown_in"], "match"].iloc[0])
    text = replay.trace(run, played)
    told = replay.trace(run, played, as_json=True)
    assert re.search(r"Contract: \d+ by [NESW] \((NS|EW)\)", text) and "Points taken: NS " in text
    assert set(told["deals"][0]["totals"]) == {"NS", "EW"}
    for words in (text, *_strings(summary), *_strings(told)):
        assert "N-S" not in words and "E-W" not in words, words


def _side_paths(node: Any, path: str = "") -> list[str]:
    """Where the summary keys a figure by side name."""
    out = []
    if isinstance(node, dict):
        if set(map(str, node)) == {"NS", "EW"}:
            out.append(path)
        for key, value in node.items():
            out += _side_paths(value, f"{path}.{key}")
    return out
