"""What dealsim knows, read from its registries: the games with their rules, units and measures, each game's
strategies, the named studies. The command line's listings and the lists in its help come from here, so a
game, strategy or study added to a registry shows up everywhere at once.

Reading the registries means importing every game, strategy and study (numpy, pandas, matplotlib), which
costs several times what a listing or a help is worth. So the catalog is also kept as a snapshot,
`catalog.json` beside this module, that the listings and helps read instead; `collect()` reads the
registries themselves, a test checks that the snapshot equals it, and

    python -m simulator.catalog

writes the snapshot again after a game, strategy, option or study changes."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("catalog.json")


def collect() -> dict[str, Any]:
    """The catalog from the registries (importing every game, strategy and study)."""
    from reports import studies
    from simulator import registry
    from simulator.options import describe

    def rows(cls: type) -> list[list[Any]]:
        return [
            [r["name"], _shown(r["default"]), r["allowed"] or r["type"], r["help"]] for r in describe(cls)
        ]

    games = []
    for g in registry.GAMES.values():
        rules = g.rules()
        games.append(
            {
                "name": g.name,
                "title": g.title,
                "seats": list(g.seat_names(rules)),
                "groups": list(g.seat_groups(rules)),
                "words": dict(g.words),
                "default_unit": g.default_unit,
                "presets": list(g.presets),
                "measures": list(g.extra_columns),
                "rules": rows(g.rules_cls),
                "default_strategy": g.default_strategy,
                "strategies": [
                    {"name": name, "summary": cls.summary, "params": rows(cls)}
                    for name, cls in registry.roster(g).known.items()
                ],
            }
        )
    named = [
        {"name": s.name, "game": s.game, "default_deals": s.default_deals} for s in studies.STUDIES.values()
    ]
    return {"games": games, "studies": named}


@functools.cache
def snapshot() -> dict[str, Any]:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def _games() -> list[dict[str, Any]]:
    return snapshot()["games"]


def game_names() -> str:
    return ", ".join(g["name"] for g in _games())


def study_game(name: str) -> str:
    """The game a named study plays."""
    from reports import studies

    return studies.get(name).game


def study_names() -> str:
    """Each study with its game: "bid-success (forty-two), ..."."""
    return ", ".join(f"{s['name']} ({s['game']})" for s in snapshot()["studies"])


def study_sizes() -> str:
    """Each study's default size: "1,000,000 for bid-success, ..."."""
    return ", ".join(f"{s['default_deals']:,} for {s['name']}" for s in snapshot()["studies"])


def unit_words() -> str:
    """The units in each game's words: "forty-two: deal = hand, match = game; ..."."""
    return "; ".join(
        f"{g['name']}: deal = {g['words']['deal']}, match = {g['words']['match']}" for g in _games()
    )


def measure_names() -> str:
    """The extra per-deal measures and the games that have them: "play-quality (forty-two, rounds)"."""
    by_name: dict[str, list[str]] = {}
    for g in _games():
        for name in g["measures"]:
            by_name.setdefault(name, []).append(g["name"])
    return ", ".join(f"{name} ({', '.join(games)})" for name, games in by_name.items()) or "none"


def games_listing() -> list[Any]:
    """Per game: its seats, groups, units and presets, then its rule options."""
    out: list[Any] = []
    for g in _games():
        out.append(f"[bold]{g['name']}[/bold]: {g['title']}")
        words = g["words"]
        out.append(
            f"  seats: {' '.join(g['seats'])}  groups: {' '.join(g['groups'])}  "
            f"units: deal = {words['deal']}, match = {words['match']} (default {g['default_unit']})  "
            f"presets: {', '.join(g['presets'])}"
        )
        out.append(
            _table(
                "  rule options (--rule key=value)", ["option", "default", "allowed", "meaning"], g["rules"]
            )
        )
    return out


def strategies_listing(game: str | None = None) -> list[Any]:
    """Per game (or only `game`): each strategy, what it does, and its parameters."""
    names = [g["name"] for g in _games()]
    if game is not None and game not in names:
        from simulator.errors import DealsimError

        raise DealsimError(f"unknown game {game!r}; known: {', '.join(names)}")
    out: list[Any] = []
    for g in _games():
        if game is not None and g["name"] != game:
            continue
        out.append(f"[bold]{g['name']}[/bold] (default: {g['default_strategy']})")
        for s in g["strategies"]:
            out.append(f"  [bold]{s['name']}[/bold]: {s['summary']}")
            if s["params"]:
                out.append(_table("", ["parameter", "default", "allowed", "meaning"], s["params"]))
    return out


def _table(title: str, columns: list[str], rows: list[list[Any]]) -> Any:
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for c in columns:
        t.add_column(c, justify="left")
    for row in rows:
        t.add_row(*[str(x) for x in row])
    return t


def _shown(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value


def write() -> Path:
    """The snapshot written again from the registries."""
    SNAPSHOT.write_text(json.dumps(collect(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return SNAPSHOT


if __name__ == "__main__":
    print(f"wrote {write()}")
