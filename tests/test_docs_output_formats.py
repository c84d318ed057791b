"""docs/output-formats.md lists every column of every table: a tiny run of each game and unit has exactly the
columns the page lists for it, with the dtypes it gives (so a renamed, added, dropped or retyped column fails
here until the page follows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator import app
from simulator.specs import Execution, RunSpec

PAGE = Path(__file__).resolve().parents[1] / "docs" / "output-formats.md"
GAMES = {"Forty-two": "forty-two", "Rounds": "rounds", "Frank's Zoo": "franks-zoo"}
# what the page's placeholders stand for, at each game's default rules
PLACEHOLDERS = {"k": [str(k) for k in range(1, 6)], "p": ["0", "1"], "seat": [str(s) for s in range(5)]}


def documented() -> dict[tuple[str, str], list[tuple[str, str, str]]]:
    """(game, table) -> [(column, when, dtype)] from the page's tables; `when` is the page's **in** column,
    `dtype` the first word of its **dtype** column."""
    out: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    game = table = None
    for line in PAGE.read_text().splitlines():
        if line.startswith("## "):
            game, table = GAMES.get(line[3:].strip()), None
        elif line.startswith("### ") and game:
            table = line[4:].strip().strip("`")
        elif game and table and line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            for name in re.findall(r"`([^`]+)`", cells[0]):
                out.setdefault((game, table), []).append((name, cells[2], cells[1].split()[0]))
    return out


def expand(name: str) -> list[str]:
    names = [name]
    for key, values in PLACEHOLDERS.items():
        mark = "{" + key + "}"
        names = [n.replace(mark, v) for n in names for v in values] if mark in name else names
    return names


def expected(game: str, table: str, unit: str, quality: bool) -> set[str]:
    wanted = {"every run", f"unit {unit}"} | ({"play-quality"} if quality else set())
    return {
        n for name, when, _ in documented().get((game, table), []) if when in wanted for n in expand(name)
    }


def dtypes(game: str, table: str) -> dict[str, str]:
    return {n: dtype for name, _, dtype in documented().get((game, table), []) for n in expand(name)}


CASES = [
    ("forty-two", "deal", True),
    ("forty-two", "match", False),
    ("rounds", "deal", True),
    ("rounds", "match", False),
    ("franks-zoo", "deal", False),
    ("franks-zoo", "match", False),
]


def test_the_page_documents_every_game_and_table() -> None:
    tables = documented()
    assert {(g, t) for g in GAMES.values() for t in ("deals", "matches")} <= set(tables)
    whens = {when for rows in tables.values() for _, when, _ in rows}
    assert whens == {"every run", "unit deal", "unit match", "play-quality"}


@pytest.mark.parametrize(("game", "unit", "quality"), CASES)
def test_the_documented_columns_are_the_real_ones(game: str, unit: str, quality: bool) -> None:
    measures = ["play-quality"] if quality else []
    sim = app.simulate(RunSpec(game, n=12, unit=unit, measures=measures), Execution(jobs=1, progress=False))
    for name in ("deals", "matches"):
        real = set(sim.tables[name].columns) if name in sim.tables else set()
        assert expected(game, name, unit, quality) == real, f"{game} {name} (unit {unit})"
        if name in sim.tables:
            page = dtypes(game, name)
            wrong = {c: (page[c], str(t)) for c, t in sim.tables[name].dtypes.items() if page[c] != str(t)}
            assert not wrong, f"{game} {name} (unit {unit}): documented and real dtypes differ: {wrong}"
    if quality:  # the columns the measure adds are listed as such, not as every run's
        plain = app.simulate(RunSpec(game, n=12, unit=unit), Execution(jobs=1, progress=False))
        assert expected(game, "deals", unit, False) == set(plain.tables["deals"].columns)
