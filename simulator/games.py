"""What the runner and the command line need to know of a game, and the registry of games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simulator.errors import DealsimError
from simulator.options import build, parse_pairs, read_toml


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    rules_cls: type
    presets: Mapping[str, Mapping[str, Any]]
    # The seats and named groups of seats (e.g. NS -> (0, 2)) under given rules: a game's player count
    # may be a rule.
    seat_names: Callable[[Any], Sequence[str]]
    seat_groups: Callable[[Any], Mapping[str, Sequence[int]]]
    units: Sequence[str]                       # what one simulated deal is; the first is the default
    default_strategy: str
    # play_chunk(run, runner.Chunk) -> {table name: DataFrame}; the first table is the per-deal one.
    play_chunk: Callable[..., dict[str, Any]]
    # summarize(tables, unit) -> a JSON-able summary; render(summary) -> rich renderables
    summarize: Callable[..., dict[str, Any]]
    render: Callable[..., list[Any]]
    trace: Callable[..., Any]
    # measures(tables, unit, side) -> [reports.estimates.Measure]: per-deal figures for tune and compare
    measures: Callable[..., list[Any]]
    default_chunk: Mapping[str, int] = field(default_factory=dict)
    yardstick: str | None = None  # a compiled per-deal loop in shared/bench doing random play's work
    hands_in: Callable[[dict[str, Any]], int] | None = None  # hands in a chunk's tables, where a deal holds several

    def rules(self, preset: str = "seed", files: Sequence[str] = (), overrides: Sequence[str] = ()) -> Any:
        """Rules from a preset, then each TOML file, then `key=value` overrides."""
        if preset not in self.presets:
            raise DealsimError(f"unknown {self.name} preset {preset!r}; known: {', '.join(self.presets)}")
        sources: list[Mapping[str, Any]] = [self.presets[preset]]
        for path in files:
            table = read_toml(path)
            if "preset" in table:
                sources = [self._preset(table.pop("preset")), *sources[1:]]
            sources.append(table)
        sources.append(parse_pairs("--rule", overrides))
        return build(self.rules_cls, "rule", *sources)

    def _preset(self, name: Any) -> Mapping[str, Any]:
        if not isinstance(name, str) or name not in self.presets:
            raise DealsimError(f"unknown {self.name} preset {name!r}; known: {', '.join(self.presets)}")
        return self.presets[name]

    def seats_of(self, name: str, rules: Any) -> list[int]:
        """Seat indices named by a seat name, a group name, a number, or 'all'."""
        key = name.strip()
        names, groups = self.seat_names(rules), self.seat_groups(rules)
        upper = {s.upper(): i for i, s in enumerate(names)}
        if key.upper() in upper:
            return [upper[key.upper()]]
        by_group = {g.upper(): list(v) for g, v in groups.items()}
        if key.upper() in by_group:
            return by_group[key.upper()]
        if key.lower() in ("all", "*"):
            return list(range(len(names)))
        if key.isdecimal() and key.isascii() and int(key) < len(names):
            return [int(key)]
        raise DealsimError(f"unknown {self.name} seat {name!r}; use one of {', '.join([*names, *groups, 'all'])}")

    def fit_seats(self, specs: Sequence[str], rules: Any) -> tuple[str, ...]:
        """The seat specs for a player count the rules may have changed: unchanged when they fit; one spec
        on every seat carries over to any count; otherwise an error (which seat plays what is unclear)."""
        n = len(self.seat_names(rules))
        if len(specs) == n:
            return tuple(specs)
        if len(set(specs)) == 1:
            return (specs[0],) * n
        raise DealsimError(f"{self.name} with {n} players: the seats' strategies differ, so give each seat's "
                           f"strategy for {n} players (not a sweep over the player count)")

    def seat_specs(self, assignments: Sequence[str], rules: Any, base: Sequence[str] | None = None) -> tuple[str, ...]:
        """The strategy spec of each seat from `SEAT=SPEC` assignments over `base` (default: the game's
        default strategy everywhere); later assignments win."""
        specs = list(base) if base is not None else [self.default_strategy] * len(self.seat_names(rules))
        for item in assignments:
            seat, sep, spec = item.partition("=")
            if not sep or not spec.strip():
                raise DealsimError(f"--seat: expected SEAT=STRATEGY, got {item!r}")
            for s in self.seats_of(seat, rules):
                specs[s] = spec.strip()
        return tuple(specs)


def registry() -> dict[str, Game]:
    from simulator.fortytwo.game import GAME as FORTY_TWO
    from simulator.franks_zoo.game import GAME as FRANKS_ZOO
    from simulator.rounds.game import GAME as ROUNDS

    return {g.name: g for g in (FORTY_TWO, ROUNDS, FRANKS_ZOO)}


def get(name: str) -> Game:
    games = registry()
    if name not in games:
        raise DealsimError(f"unknown game {name!r}; known: {', '.join(games)}")
    return games[name]
