"""The game contract: what a game fills in once so that the machinery (driver, runner, match loop, trace,
compare, tune, the command line) runs it without ever naming it.

A game is a folder under `simulator/` whose `game.py` defines one subclass of `Game`: a header of facts
(class attributes: its name, rules, unit words, decision kinds, default sizes) and the hooks that are its
own (dealing, the legal actions and views, applying actions, the per-deal table, the reference engine's
play and the outcome of a deal, the secrecy variant, its matches' dealing and winner rule, the summary and
measures of its per-deal table). The base class does everything shared once: units, seats and sides, rules
from presets and files, seat specs, the match series' bookkeeping, match measures and the match summary.
`simulator/registry.py` lists the game and its strategies in one line.

Vocabulary, the same in every game (each game keeps its own words as aliases, `Game.words`):
- a *deal* is one dealt unit played to its end: a hand of Forty-two or Frank's Zoo, a game of Rounds;
- a *match* is deals played in a row until the rules' target is reached: a game of Forty-two to 250 or of
  Frank's Zoo, a match of Rounds games to 200.
A run's unit is one or the other; its tables are `deals` (one row per deal, or per player and deal) and,
for matches, `matches` (one row per match; `simulator.series` gives its columns), and the per-deal table of
a match run holds `match` and `number` (the deal's number within its match, from 1) in front.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import numpy as np

from simulator import bitrows, tallies
from simulator.batch import BatchState, Rows
from simulator.errors import DealsimError, DealsimWarning
from simulator.options import build, parse_pairs, read_toml
from simulator.series import TargetSeries, match_measures, match_summary, render_matches
from simulator.stats import Measure
from simulator.views import View

if TYPE_CHECKING:
    import pandas as pd

UNITS = ("deal", "match")

Move = tuple[int, int, int]  # (decision kind, seat, action), in the order played

RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=BatchState)
ViewT = TypeVar("ViewT", bound=View)
RecordT = TypeVar("RecordT", bound="Record")


class Record(Protocol):
    """The reference engine's record of one deal, telling of itself."""

    @property
    def moves(self) -> Sequence[Move]:
        """(kind, seat, action) of every decision, in order."""
        ...

    def totals_added(self) -> tuple[int, ...]:
        """What the deal added to each side's match total."""
        ...

    def outcome(self) -> tuple[int, ...]:
        """Every number the deal came to (points taken, scores by source, places, tricks per stage): what
        the two engines must agree on beyond the moves."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The deal as JSON-able data."""
        ...

    def text(self, rules: Any) -> str:
        """The deal told move by move."""
        ...


@dataclass(frozen=True)
class Sizes:
    """How many deals and matches the contract checks play per strategy (the reference engines are plain
    Python; a searching strategy says how many it can afford in `Strategy.check_sizes`)."""

    deals: int
    matches: int

    def of(self, unit: str) -> int:
        return self.deals if unit == "deal" else self.matches


class Analysis(Protocol):
    """One hand held fixed at one seat, the other hands dealt many times, and every contract the seat could
    choose played out on the same deals (`dealsim analyze`)."""

    chunk_size: int

    def parse_hand(self, text: str) -> Any: ...

    def play_chunk(
        self, fixed: Any, seat: int, dealer: int, rules: Any, chunk: Any, *, perfect: bool = False
    ) -> Any:
        """A chunk's per-choice outcomes; `chunk` is a `runner.Chunk` of the analysis's run."""
        ...

    def frame(self, parts: list[Any]) -> pd.DataFrame:
        """Every chunk's outcomes as one row per choice."""
        ...

    def best(self, frame: pd.DataFrame) -> dict[str, Any]: ...

    def advise(self, parts: list[Any], frame: pd.DataFrame) -> dict[str, Any]: ...

    def render(
        self, frame: pd.DataFrame, advice: dict[str, Any], hand: str, seat: str, deals: int
    ) -> list[Any]: ...


# optional per-deal measures a run may ask for (`simulate --measure NAME`): (finished state, rules) -> extra
# columns of the deals table, one value per row
ExtraColumns = Callable[[Any, Any], dict[str, np.ndarray]]


class Game(ABC, Generic[RulesT, StateT, ViewT, RecordT]):
    """A game as the machinery sees it. Subclasses set the header and fill the abstract hooks."""

    # --- the header -------------------------------------------------------------------------------------
    name: ClassVar[str]
    title: ClassVar[str]
    rules_cls: ClassVar[type]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]]
    words: ClassVar[
        Mapping[str, str]
    ]  # this game's word for each unit, e.g. {"deal": "hand", "match": "game"}
    default_unit: ClassVar[str]
    kind_names: ClassVar[Sequence[str]]  # the decision kinds, by number; `done` (= their count) ends a deal
    n_actions: ClassVar[Sequence[int]]  # the actions of each kind
    # True when every deal goes through the kinds in order (an auction, then trumps, then play): the driver
    # then advances only the earliest pending kind, so the long later phase runs on whole, aligned batches.
    # False when kinds interleave (a help request in the middle of play): every pending kind advances.
    phased: ClassVar[bool] = True
    default_strategy: ClassVar[str] = "heuristic"
    # what the studies (`report`, `analyze`, `tune`) seat where no strategy is given: the strongest player
    # fast enough for their sizes (simulate, compare and ladder keep `default_strategy`)
    study_strategy: ClassVar[str | None] = None
    default_chunk: ClassVar[Mapping[str, int]]  # deals (or matches) per chunk, by unit
    check_sizes: ClassVar[Sizes]  # what the contract checks play
    # named rule sets (option -> value, over the defaults) on which the contract checks compare the engines
    check_rules: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    # named groups of seats that score together (Forty-two's NS and EW): the sides; none: each seat is a side
    groups: ClassVar[Mapping[str, tuple[int, ...]]] = {}
    # how a side is named in labels: "player" (player 0 wins), or None where sides have names (NS wins)
    side_word: ClassVar[str | None] = None
    # a compiled per-deal loop doing random play's work, in benchmarks/: what `dealsim bench` measures against
    yardstick: ClassVar[str | None] = None
    analysis: ClassVar[Analysis | None] = None  # one fixed hand against many deals (`dealsim analyze`)
    extra_columns: ClassVar[Mapping[str, ExtraColumns]] = {}

    @property
    def done(self) -> int:
        """The phase value of a finished row."""
        return len(self.kind_names)

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    # --- hooks: the batched core ------------------------------------------------------------------------
    @abstractmethod
    def deal(self, rng: np.random.Generator, deals: np.ndarray, rules: RulesT) -> StateT:
        """Fresh states, one per deal number, ready for their first decision (a run of single deals)."""

    @abstractmethod
    def inputs(self, state: StateT, rows: Rows, kind: int, rules: RulesT) -> tuple[ViewT, np.ndarray]:
        """The deciding seats' views of `rows` (all pending a `kind` decision) and the legal actions,
        a bool mask (m, n_actions[kind])."""

    def packed_inputs(
        self, state: StateT, rows: Rows, kind: int, rules: RulesT
    ) -> tuple[ViewT, np.ndarray, int]:
        """`inputs` with the legal actions as bit rows (`simulator.bitrows`): (view, words, n_actions). The
        driver gives these to strategies that decide on bit rows, which then never pay for the mask. A
        game whose core keeps legal actions as bits overrides this; by default the mask is packed."""
        view, legal = self.inputs(state, rows, kind, rules)
        return view, bitrows.pack(legal), legal.shape[1]

    @abstractmethod
    def apply(self, state: StateT, rows: Rows, kind: int, actions: np.ndarray, rules: RulesT) -> None:
        """Play the (checked) actions of `rows` in place."""

    @abstractmethod
    def table(self, state: StateT, rules: RulesT) -> pd.DataFrame:
        """The per-deal outcome table of finished states: `deal` first, one row per deal (or per player
        and deal: `rows_per_deal`)."""

    @abstractmethod
    def action_name(self, kind: int, action: int) -> str:
        """An action in words, for errors and traces."""

    @abstractmethod
    def scores(self, state: StateT, rules: RulesT) -> np.ndarray:
        """(n, sides): what each finished deal adds to each side's match total."""

    # --- hooks: seats --------------------------------------------------------------------------------------
    @abstractmethod
    def seat_names(self, rules: RulesT) -> Sequence[str]:
        """The seats under these rules (a game's player count may be a rule)."""

    def seat_groups(self, rules: RulesT) -> Mapping[str, Sequence[int]]:
        """Named groups of seats that score together (the header's `groups`)."""
        return self.groups

    def rows_per_deal(self, rules: RulesT) -> int:
        """Rows of the deals table per deal."""
        return 1

    # --- hooks: matches ------------------------------------------------------------------------------------
    @abstractmethod
    def series(self, matches: np.ndarray, rules: RulesT) -> TargetSeries[StateT]:
        """The bookkeeping of these matches (the game's `TargetSeries`)."""

    # --- hooks: the reference engine ----------------------------------------------------------------------
    @abstractmethod
    def moves(self, state: StateT, row: int) -> list[Move]:
        """The recorded moves of row `row` of a finished state, in order."""

    @abstractmethod
    def play_reference(self, state: StateT, row: int, rules: RulesT, players: Sequence[Any]) -> RecordT:
        """Row `row`'s deal (the same cards, dealer and match totals) played by the reference engine with
        these players (strategies, one per seat)."""

    @abstractmethod
    def outcomes(self, state: StateT, rules: RulesT) -> np.ndarray:
        """(n, k): `Record.outcome` for every row of a finished state."""

    @abstractmethod
    def hidden_variant(self, state: StateT, rng: np.random.Generator) -> StateT:
        """A copy that differs only in what the deciding seat of each row cannot see (other seats' hidden
        cards, the stock): the contract checks that every view is the same in both."""

    # --- hooks: what the per-deal table comes to -----------------------------------------------------------
    @abstractmethod
    def summarize_deals(self, deals: pd.DataFrame) -> dict[str, Any]:
        """The partial summary of a per-deal table: nested dicts of `simulator.tallies`, which merge across
        chunks; the count of deals under `deals`."""

    @abstractmethod
    def render_deals(self, summary: dict[str, Any]) -> list[Any]:
        """Rich renderables of the per-deal part of a finished summary (nested Rate/Mean)."""

    @abstractmethod
    def deal_measures(self, deals: pd.DataFrame, side: int) -> list[Measure]:
        """One measure per figure of the per-deal table, from `side`'s point of view, with num and den given
        per *row*: the base sums them per deal or per match, the unit that pairs across arms."""

    # --- shared: units -------------------------------------------------------------------------------------
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

    # --- shared: rules -------------------------------------------------------------------------------------
    def rules(
        self,
        preset: str = "seed",
        files: Sequence[str] = (),
        overrides: Sequence[str] | Mapping[str, Any] = (),
    ) -> RulesT:
        """Rules from a preset, then each TOML file, then `key=value` overrides (or a mapping)."""
        sources: list[Mapping[str, Any]] = [self._preset(preset)]
        for path in files:
            table = read_toml(path)
            if "preset" in table:
                sources = [self._preset(table.pop("preset")), *sources[1:]]
            sources.append(table)
        sources.append(dict(overrides) if isinstance(overrides, Mapping) else parse_pairs("rules", overrides))
        return build(self.rules_cls, "rule", *sources, trusted=1)

    def _preset(self, name: Any) -> Mapping[str, Any]:
        if not isinstance(name, str) or name not in self.presets:
            raise DealsimError(f"unknown {self.name} preset {name!r}; known: {', '.join(self.presets)}")
        return self.presets[name]

    # --- shared: seats and sides ---------------------------------------------------------------------------
    def seats_of(self, name: str, rules: RulesT) -> list[int]:
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

    def sides(self, rules: RulesT) -> list[tuple[str, list[int]]]:
        """The sides that score (and that a comparison can take the view of): the named seat groups, or else
        each seat."""
        groups = self.seat_groups(rules)
        if groups:
            return [(name, list(seats)) for name, seats in groups.items()]
        return [(name, [i]) for i, name in enumerate(self.seat_names(rules))]

    def side_names(self, rules: RulesT) -> tuple[str, ...]:
        return tuple(name for name, _ in self.sides(rules))

    def side_label(self, name: str) -> str:
        """A side in labels: 'player 0', 'seat 3', or the side's own name ('NS')."""
        return f"{self.side_word} {name}" if self.side_word else name

    def first_dealer_words(self) -> str:
        return "first dealer's side" if self.groups else "first dealer"

    def fit_seats(self, specs: Sequence[str], rules: RulesT) -> tuple[str, ...]:
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

    def seated(self, study: bool = False) -> str:
        """The strategy a seat plays where none is given: the study strategy in a study (where the game has
        one), else the default strategy."""
        return self.study_strategy if study and self.study_strategy else self.default_strategy

    def seat_specs(
        self,
        assignments: Sequence[str] | Mapping[str, str],
        rules: RulesT,
        base: Sequence[str] | None = None,
        study: bool = False,
    ) -> tuple[str, ...]:
        """The strategy spec of each seat from `SEAT=SPEC` assignments (or a {seat: spec} mapping) over
        `base` (default: `seated(study)` everywhere); later assignments win, with a DealsimWarning
        for each that sets a seat again (`NS=greedy` then `N=random`: N's first strategy is silently lost).
        `all` is the exception: it sets a default that later assignments refine without a warning
        (`all=greedy` then `0=random` is the way to say "everyone but seat 0" where seats have no sides)."""
        names = self.seat_names(rules)
        specs = list(base) if base is not None else [self.seated(study)] * len(names)
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

    # --- shared: what a run's tables come to ---------------------------------------------------------------
    def summarize(self, tables: dict[str, pd.DataFrame], unit: str) -> dict[str, Any]:
        """The partial summary of a run's tables (of one chunk, say): the deals' and, for matches, the
        matches' (under `matches`)."""
        out = self.summarize_deals(tables["deals"])
        if unit == "match":
            out["matches"] = match_summary(self, tables["matches"])
        return out

    def summary(self, tables: dict[str, pd.DataFrame], unit: str) -> dict[str, Any]:
        """The finished summary of whole tables (nested Rate/Mean)."""
        return tallies.finish(self.summarize(tables, unit))

    def render(self, summary: dict[str, Any]) -> list[Any]:
        """Rich renderables of a finished summary."""
        parts = self.render_deals(summary)
        if "matches" in summary:
            parts.append(render_matches(self, summary["matches"]))
        return parts

    def measures(self, tables: dict[str, pd.DataFrame], unit: str, side: int = 0) -> list[Measure]:
        """One figure per deal of the run's unit (a deal, or a whole match), for tune and compare: the
        per-deal table's measures summed per unit, then, for matches, the match measures."""
        import pandas as pd

        deals = tables["deals"]
        key = "match" if unit == "match" else "deal"
        units = tables["matches"]["match"].to_numpy() if unit == "match" else np.unique(deals["deal"])
        at = pd.Index(units).get_indexer(deals[key].to_numpy())

        def per_unit(values: np.ndarray) -> np.ndarray:
            return np.bincount(at, weights=np.asarray(values, float), minlength=len(units))

        out = [
            Measure(m.name, per_unit(m.num), None if m.den is None else per_unit(m.den), m.binary, m.better)
            for m in self.deal_measures(deals, side)
        ]
        if unit == "match":
            out += match_measures(self, tables["matches"], side)
        return out


def _seat_pair(item: str) -> tuple[str, str]:
    seat, sep, spec = item.partition("=")
    if not sep or not spec.strip():
        raise DealsimError(f"seats: expected SEAT=STRATEGY, got {item!r}")
    return seat, spec
