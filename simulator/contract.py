"""The game contract: what a game fills in once so that the machinery (driver, runner, match loop, trace,
compare, tune, the command line) runs it without ever naming it.

A game is a folder under `simulator/` whose `game.py` builds one `Game` and whose strategies live in
`strategies/`; `simulator/registry.py` lists it in one line.

Vocabulary, the same in every game (each game keeps its own words as aliases, `Game.words`):
- a *deal* is one dealt unit played to its end: a hand of Forty-two or Frank's Zoo, a game of Rounds;
- a *match* is deals played in a row until the rules' target is reached: a game of Forty-two to 250 or of
  Frank's Zoo, a match of Rounds games to 200.
A run's unit is one or the other; its tables are `deals` (one row per deal, or per player and deal) and,
for matches, `matches` (one row per match), whose first column is `match` and whose per-deal table holds
`match` and `number` (the deal's number within its match, from 1).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import pandas as pd

from simulator import tallies
from simulator.errors import DealsimError, DealsimWarning
from simulator.options import build, parse_pairs, read_toml

UNITS = ("deal", "match")


@dataclass(frozen=True)
class BatchCore:
    """A game's batched rules core. Its state is a `simulator.batch.BatchState` (arrays with the deal as
    first axis, with `deal`, `phase` (the pending decision kind, or `done`) and `turn` (the deciding seat));
    the functions work on whole batches of rows."""

    deal: Callable[[np.random.Generator, np.ndarray, Any], Any]  # (rng, deal numbers, rules) -> fresh states
    inputs: Callable[
        ..., tuple[Any, np.ndarray]
    ]  # (state, rows, kind, rules) -> (view, legal (m, n_actions))
    apply: Callable[..., None]  # (state, rows, kind, actions, rules): play the actions
    table: Callable[[Any, Any], pd.DataFrame]  # (finished state, rules) -> the per-deal outcome table
    done: int  # the phase value of a finished row
    kind_names: Sequence[str]
    action_name: Callable[[int, int], str]  # (kind, action) -> text for errors
    # True when every deal goes through the kinds in order (an auction, then trumps, then play): the driver
    # then advances only the earliest pending kind, so the long later phase runs on whole, aligned batches.
    # False when kinds interleave (a help request in the middle of play): every pending kind advances.
    phased: bool = True
    # Optional: (state, rows, kind, rules) -> (view, legal as bit rows (m, W) uint64, n_actions), the legal
    # actions in `simulator.bitrows` form. The driver uses it for strategies that decide on bit rows
    # (`decide_packed`, uniform random play), which then never pay for the (m, n_actions) bool mask.
    packed_inputs: Callable[..., tuple[Any, np.ndarray, int]] | None = None


class Series(Protocol):
    """A game's bookkeeping over matches, for the one match loop (`simulator.matches`). Built for a chunk's
    match numbers; every call covers the matches still going (`active`, indices into them)."""

    max_deals: int  # a guard: a match still undecided after this many deals is abandoned (no winner)

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> Any:
        """The next deal of each active match, as fresh states. It draws for *every* match of the chunk,
        finished or not, so that deal j of match k is the same whatever happened elsewhere: arms of a
        comparison share their deals. `played` counts the deals each match has played."""

    def record(self, active: np.ndarray, finished: Any, table: pd.DataFrame) -> np.ndarray:
        """Book the finished deals (adding the running totals to their table in place); True where the
        match is over."""

    def table(self, played: np.ndarray) -> pd.DataFrame:
        """One row per match: `match`, `first_dealer`, `deals` (= `played`), `winner` (missing or -1 when
        undecided), then the game's own columns."""


@dataclass(frozen=True)
class Reference:
    """How the scalar reference engine replays and tells a deal that the batched core played. Moves are
    (kind, seat, action) triples in the order played."""

    moves: Callable[[Any, int], list[tuple[int, int, int]]]  # recorded moves of row `row` of a finished state
    play: Callable[..., Any]  # (state, row, rules, players) -> the reference engine's record of that deal
    record_moves: Callable[[Any], list[tuple[int, int, int]]]
    score: Callable[[Any], tuple[int, ...]]  # what the deal added to each seat's or side's total
    batch_score: Callable[[Any, Any], np.ndarray]  # (finished state, rules) -> the same, (n, sides)
    # Every number the deal came to (points taken, scores by source, places, tricks per stage): what the
    # two engines must agree on beyond the moves.
    outcome: Callable[[Any], tuple[int, ...]]
    batch_outcome: Callable[[Any, Any], np.ndarray]  # (finished state, rules) -> the same, (n, k)
    text: Callable[[Any, Any], str]  # (record, rules) -> the deal told move by move
    to_dict: Callable[[Any], dict[str, Any]]  # record -> a JSON-able dict
    sides: Callable[[Any], Sequence[str]]  # rules -> names of the score columns


@dataclass(frozen=True)
class Analysis:
    """One hand held fixed at one seat, the other hands dealt many times, and every contract the seat could
    choose played out on the same deals (`dealsim analyze`)."""

    parse_hand: Callable[[str], Any]  # text -> the hand
    # (hand, seat, dealer, rules, chunk) -> the chunk's per-choice outcomes; chunk is a runner.Chunk
    play_chunk: Callable[..., Any]
    frame: Callable[[list], pd.DataFrame]  # every chunk's outcomes -> one row per choice
    best: Callable[[pd.DataFrame], dict]  # the best choice's row
    advise: Callable[[list, pd.DataFrame], dict]  # (chunks' outcomes, frame) -> advice (paired, break-even)
    render: Callable[..., list]  # (frame, advice, hand text, seat name, deals) -> rich renderables
    chunk_size: int = 5_000


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    module: str  # where this object is defined (a worker process finds it there again)
    rules_cls: type
    presets: Mapping[str, Mapping[str, Any]]
    # The seats and named groups of seats (e.g. NS -> (0, 2)) under given rules: a game's player count
    # may be a rule.
    seat_names: Callable[[Any], Sequence[str]]
    seat_groups: Callable[[Any], Mapping[str, Sequence[int]]]
    words: Mapping[str, str]  # this game's word for each unit, e.g. {"deal": "hand", "match": "game"}
    default_unit: str
    core: BatchCore
    series: Callable[[np.ndarray, Any], Series]  # (match numbers, rules) -> the bookkeeping of those matches
    reference: Reference
    default_strategy: str
    # summarize(tables, unit) -> the partial summary of those tables (nested dicts of simulator.tallies, which
    # merge across chunks); render(summary) -> rich renderables of a finished one (nested Rate/Mean)
    summarize: Callable[[dict[str, pd.DataFrame], str], dict[str, Any]]
    render: Callable[[dict[str, Any]], list[Any]]
    # measures(tables, unit, side) -> [stats.Measure]: one figure per deal, for tune and compare
    measures: Callable[..., list[Any]]
    default_chunk: Mapping[str, int]
    rows_per_deal: Callable[[Any], int] = field(default=lambda rules: 1)  # rows of the deals table per deal
    # a compiled per-deal loop doing random play's work: a script in benchmarks/ (or ../shared/bench)
    yardstick: str | None = None
    analysis: Analysis | None = None  # optional: one fixed hand against many deals (`dealsim analyze`)
    # optional measures a run may ask for (`simulate --measure NAME`): (finished state, rules) -> extra
    # columns of the deals table, one value per row
    extra_columns: Mapping[str, Callable[[Any, Any], dict[str, np.ndarray]]] = field(default_factory=dict)
    # (state, rng) -> a copy that differs only in what the deciding seat of each row cannot see (other
    # seats' hidden cards, the stock): the contract test checks that every view is the same in both.
    hidden_variant: Callable[[Any, np.random.Generator], Any] | None = None

    def summary(self, tables: dict[str, pd.DataFrame], unit: str) -> dict[str, Any]:
        """The finished summary of whole tables (nested Rate/Mean)."""
        return tallies.finish(self.summarize(tables, unit))

    def __reduce_ex__(self, protocol):
        # Workers find a registered game where it is defined instead of receiving its functions; a game
        # changed in a session (dataclasses.replace) travels whole.
        try:
            registered = _game_in(self.module) is self
        except (ImportError, AttributeError):
            registered = False
        return (_game_in, (self.module,)) if registered else super().__reduce_ex__(protocol)

    # --- units -------------------------------------------------------------------------------------------
    def unit(self, name: str | None) -> str:
        """The canonical unit ('deal' or 'match') of a unit name or of this game's word for it."""
        if name is None:
            return self.default_unit
        key = name.strip().lower()
        for unit in UNITS:
            if key in (unit, self.words[unit]):
                return unit
        raise DealsimError(
            f"{self.name} has no unit {name!r}; use deal ({self.words['deal']}) or "
            f"match ({self.words['match']})"
        )

    def plural(self, unit: str) -> str:
        word = self.words[unit]
        return word + ("es" if word.endswith("ch") else "s")

    # --- rules -------------------------------------------------------------------------------------------
    def rules(
        self,
        preset: str = "seed",
        files: Sequence[str] = (),
        overrides: Sequence[str] | Mapping[str, Any] = (),
    ) -> Any:
        """Rules from a preset, then each TOML file, then `key=value` overrides (or a mapping)."""
        sources: list[Mapping[str, Any]] = [self._preset(preset)]
        for path in files:
            table = read_toml(path)
            if "preset" in table:
                sources = [self._preset(table.pop("preset")), *sources[1:]]
            sources.append(table)
        sources.append(
            dict(overrides) if isinstance(overrides, Mapping) else parse_pairs("--rule", overrides)
        )
        return build(self.rules_cls, "rule", *sources)

    def _preset(self, name: Any) -> Mapping[str, Any]:
        if not isinstance(name, str) or name not in self.presets:
            raise DealsimError(f"unknown {self.name} preset {name!r}; known: {', '.join(self.presets)}")
        return self.presets[name]

    # --- seats -------------------------------------------------------------------------------------------
    def seats_of(self, name: str, rules: Any) -> list[int]:
        """Seat indices named by a seat name, a group name, a number, or 'all'."""
        key = str(name).strip()
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
        raise DealsimError(
            f"unknown {self.name} seat {name!r}; use one of {', '.join([*names, *groups, 'all'])}"
        )

    def sides(self, rules: Any) -> list[tuple[str, list[int]]]:
        """The sides a comparison can take the view of: the named seat groups, or else each seat."""
        groups = self.seat_groups(rules)
        if groups:
            return [(name, list(seats)) for name, seats in groups.items()]
        return [(name, [i]) for i, name in enumerate(self.seat_names(rules))]

    def fit_seats(self, specs: Sequence[str], rules: Any) -> tuple[str, ...]:
        """The seat specs for a player count the rules may have changed: unchanged when they fit; one spec
        on every seat carries over to any count; otherwise an error (which seat plays what is unclear)."""
        n = len(self.seat_names(rules))
        if len(specs) == n:
            return tuple(specs)
        if len(set(specs)) == 1:
            return (specs[0],) * n
        raise DealsimError(
            f"{self.name} with {n} players: the seats' strategies differ, so give each seat's "
            f"strategy for {n} players (not a sweep over the player count)"
        )

    def seat_specs(
        self, assignments: Sequence[str] | Mapping[str, str], rules: Any, base: Sequence[str] | None = None
    ) -> tuple[str, ...]:
        """The strategy spec of each seat from `SEAT=SPEC` assignments (or a {seat: spec} mapping) over
        `base` (default: the game's default strategy everywhere); later assignments win, with a DealsimWarning
        for each that sets a seat again (`NS=greedy` then `N=random`: N's first strategy is silently lost).
        `all` is the exception: it sets a default that later assignments refine without a warning (`all=greedy`
        then `0=random` is the way to say "everyone but seat 0" where seats have no sides)."""
        names = self.seat_names(rules)
        specs = list(base) if base is not None else [self.default_strategy] * len(names)
        pairs = (
            list(assignments.items())
            if isinstance(assignments, Mapping)
            else [_seat_pair(a) for a in assignments]
        )
        set_by: dict[int, str] = {}
        for seat, spec in pairs:
            if not isinstance(spec, str) or not spec.strip():
                raise DealsimError(
                    f"seat {seat}: a strategy is given as text, e.g. 'heuristic', not {spec!r}"
                )
            given = f"{str(seat).strip()}={spec.strip()}"
            seats = self.seats_of(seat, rules)
            again = [s for s in seats if s in set_by]
            if again:
                earlier = ", ".join(dict.fromkeys(set_by[s] for s in again))
                warnings.warn(
                    f"seat {' '.join(names[s] for s in again)} given twice ({earlier}, then {given}); "
                    "the last one wins",
                    DealsimWarning,
                    stacklevel=2,
                )
            for s in seats:
                specs[s] = spec.strip()
                if len(seats) < len(names):  # an assignment to every seat (`all`) is a default: see above
                    set_by[s] = given
        return tuple(specs)


def _seat_pair(item: str) -> tuple[str, str]:
    seat, sep, spec = item.partition("=")
    if not sep or not spec.strip():
        raise DealsimError(f"--seat: expected SEAT=STRATEGY, got {item!r}")
    return seat, spec


def _game_in(module: str) -> Game:
    """The `GAME` defined in a module (how a pickled Game is found again in a worker)."""
    return importlib.import_module(module).GAME
