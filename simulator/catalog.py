"""What dealsim knows, read from its registries: the games with their rules, units and measures, each game's
strategies, the named studies. The command line's listings and the lists in its help come from here, so a
game, strategy or study added to a registry shows up everywhere at once. The studies are read where they are
named: their modules bring pandas and matplotlib, which the listings of games and strategies do not need."""

from __future__ import annotations

from typing import Any

from simulator import registry
from simulator.options import describe
from simulator.summaries import table


def game_names() -> str:
    return ", ".join(registry.GAMES)


def study_game(name: str) -> str:
    """The game a named study plays."""
    from reports import studies

    return studies.get(name).game


def study_names() -> str:
    """Each study with its game: "bid-success (forty-two), ..."."""
    from reports import studies

    return ", ".join(f"{s.name} ({s.game})" for s in studies.STUDIES.values())


def study_sizes() -> str:
    """Each study's default size: "1,000,000 for bid-success, ..."."""
    from reports import studies

    return ", ".join(f"{s.default_deals:,} for {s.name}" for s in studies.STUDIES.values())


def unit_words() -> str:
    """The units in each game's words: "forty-two: deal = hand, match = game; ..."."""
    return "; ".join(
        f"{g.name}: deal = {g.words['deal']}, match = {g.words['match']}" for g in registry.GAMES.values()
    )


def measure_names() -> str:
    """The extra per-deal measures and the games that have them: "play-quality (forty-two, rounds)"."""
    by_name: dict[str, list[str]] = {}
    for g in registry.GAMES.values():
        for name in g.extra_columns:
            by_name.setdefault(name, []).append(g.name)
    return ", ".join(f"{name} ({', '.join(games)})" for name, games in by_name.items()) or "none"


def games_listing() -> list[Any]:
    """Per game: its seats, groups, units and presets, then its rule options."""
    out: list[Any] = []
    for g in registry.GAMES.values():
        rules = g.rules()
        out.append(f"[bold]{g.name}[/bold]: {g.title}")
        out.append(
            f"  seats: {' '.join(g.seat_names(rules))}  groups: {' '.join(g.seat_groups(rules))}  "
            f"units: deal = {g.words['deal']}, match = {g.words['match']} (default {g.default_unit})  "
            f"presets: {', '.join(g.presets)}"
        )
        rows = [
            [r["name"], _shown(r["default"]), r["allowed"] or r["type"], r["help"]]
            for r in describe(g.rules_cls)
        ]
        columns = ["option", "default", "allowed", "meaning"]
        out.append(table("  rule options (--rule key=value)", columns, rows, text_columns=4))
    return out


def strategies_listing(game: str | None = None) -> list[Any]:
    """Per game (or only `game`): each strategy, what it does, and its parameters."""
    out: list[Any] = []
    for g in [registry.get(game)] if game else registry.GAMES.values():
        out.append(f"[bold]{g.name}[/bold] (default: {g.default_strategy})")
        for s in registry.roster(g).listing():
            out.append(f"  [bold]{s['name']}[/bold]: {s['summary']}")
            rows = [
                [p["name"], _shown(p["default"]), p["allowed"] or p["type"], p["help"]] for p in s["params"]
            ]
            if rows:
                out.append(table("", ["parameter", "default", "allowed", "meaning"], rows, text_columns=4))
    return out


def _shown(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value
