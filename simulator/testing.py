"""The game contract checked: small named checks that any game, and any strategy of it, must pass, the same
ones the project's own test suite runs on its three games. Run them on your own game or strategy:

    from simulator import registry, testing
    testing.check_game(registry.get("rounds"))                           # every check, every strategy
    testing.check_strategy(registry.get("rounds"), "mymodule:MyPlayer")  # one strategy of yours

Each check raises `ContractError` (an AssertionError, so pytest shows it as a failure) with a message that
names the game, the check and the deal; `check_game` returns the names of the checks it ran.

What is checked:
- the header: kinds, actions, units, chunk sizes, presets and the check rules make sense;
- tables: both units play, with tables of the agreed shape, summaries, renderings and measures;
- agreement: on the same deals the batched core and the scalar reference engine make the same moves (for a
  strategy that depends on the view alone) and come to the same outcome and scores; every recorded move of
  any strategy, random ones included, replays legally in the reference engine with the same outcome;
- views: `ViewHash`, which picks by a hash of every field of the view, plays alike in both engines under each
  of the game's `check_rules`, so both engines show a seat the same view, field for field;
- secrecy: a view does not change when only what its seat cannot see changes;
- packed legality: `packed_inputs` is `inputs`' legal mask, bit for bit;
- refusal: an illegal action is an error naming the strategy, the seat, the deal and the move;
- traces and workers: any deal can be told move by move; -j 1 and -j 2 give the same tables.
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simulator import bitrows, driver, registry, replay
from simulator.contract import UNITS, Game, Record, Sizes
from simulator.errors import IllegalAction
from simulator.matches import play_matches
from simulator.runner import Run, chunk, execute, play_chunk
from strategies.base import Random, Strategy, uniform_choice


class ContractError(AssertionError):
    """A game or strategy breaks the contract; the message says which check, and where."""


def expect(ok: bool, message: str) -> None:
    if not ok:
        raise ContractError(message)


def stable_seed(*words: Any) -> int:
    """A seed from names, the same in every process (Python's hash() of a str is salted per process)."""
    return zlib.crc32("/".join(map(str, words)).encode()) % 100_000


# --- a strategy that shows what a seat sees ---------------------------------------------------------------
_M64 = (1 << 64) - 1
_SALTS: dict[str, int] = {}


def _salt(name: str) -> int:
    if name not in _SALTS:
        _SALTS[name] = zlib.crc32(name.encode()) & 0xFFFF
    return _SALTS[name]


@dataclass(frozen=True)
class ViewHash(Strategy):
    """Picks a legal action by a hash of every field of the view, so the batched core and the reference
    engine agree move for move only if they show a seat the same view, field for field. It reaches what random
    play reaches (high bids, odd trumps, every follow case) while staying a pure function of the view."""

    name = "viewhash"

    def decide(self, kind: int, view: Any, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self._one_row(view, legal) if len(view) == 1 else self.batched(view, legal)

    @staticmethod
    def batched(view: Any, legal: np.ndarray) -> np.ndarray:
        k = (ViewHash.hashes(view) % legal.sum(axis=1).astype(np.uint64)).astype(np.int64)
        return kth_legal(legal, k)

    @staticmethod
    def hashes(view: Any) -> np.ndarray:
        """One hash per row of every field of the view."""
        h = np.full(len(view), 1469598103934665603, dtype=np.uint64)
        for name, array in sorted(view.arrays().items()):
            columns = array.reshape(len(view), -1).astype(np.int64).astype(np.uint64)
            salt = np.uint64(_salt(name))
            for j in range(columns.shape[1]):
                h = (h ^ (columns[:, j] + salt)) * np.uint64(1099511628211)
        return h ^ (h >> np.uint64(29))

    @staticmethod
    def _one_row(view: Any, legal: np.ndarray) -> np.ndarray:
        """The same choice for the reference engines' one-row views, in plain Python ints (the numpy loop
        would cost most of a reference engine's time)."""
        h = 1469598103934665603
        for name, array in sorted(view.arrays().items()):
            salt = _salt(name)
            for x in array.reshape(-1).astype(np.int64).tolist():
                h = ((h ^ ((x + salt) & _M64)) * 1099511628211) & _M64
        h ^= h >> 29
        return kth_legal(legal, np.array([h % int(legal.sum())]))


def kth_legal(legal: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The k-th legal action of each row."""
    return np.argmax(np.cumsum(legal, axis=1) > k[:, None], axis=1)


@dataclass(frozen=True)
class _Cheat(Strategy):
    """Plays an illegal action as soon as one exists (out of range when every action is legal)."""

    name = "cheat"

    def decide(self, kind: int, view: Any, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        illegal = ~legal
        return np.where(illegal.any(axis=1), np.argmax(illegal, axis=1), legal.shape[1])


# --- deals played by both engines -------------------------------------------------------------------------
@dataclass
class Played:
    """Deals played by the batched core: the finished states (one per batch: one for single deals, one per
    round for matches) and the tables, and, where asked, the reference engine's record of each row played by
    the same strategies."""

    game: Game
    rules: Any
    strategies: list[Any]
    states: list[Any]
    tables: dict[str, pd.DataFrame]
    records: list[list[Record]] | None = None

    def rows(self) -> int:
        return sum(len(s) for s in self.states)


def play(
    game: Game, rules: Any, strategies: Sequence[Any], n: int, *, unit: str = "deal", seed: int = 0
) -> Played:
    """n deals (or matches) through the batched core; the strategies' generators are seeded alike, so a
    strategy that depends on the view alone plays as it would in any run."""
    rng = np.random.default_rng(seed)
    rngs = [np.random.default_rng(seed + 1)] * len(strategies)
    numbers = np.arange(n)
    if unit == "match":
        states: list[Any] = []
        deals, matches = play_matches(
            game, rng, rngs, numbers, rules, strategies, on_deals=lambda _, state: states.append(state)
        )
        return Played(game, rules, list(strategies), states, {"deals": deals, "matches": matches})
    state = driver.play(game, game.deal(rng, numbers, rules), rules, strategies, rngs)
    return Played(game, rules, list(strategies), [state], {"deals": game.table(state, rules)})


def play_both(
    game: Game, rules: Any, strategies: Sequence[Any], n: int, *, unit: str = "deal", seed: int = 0
) -> Played:
    """`play`, and the reference engine's record of every row, played by the same strategies."""
    played = play(game, rules, strategies, n, unit=unit, seed=seed)
    played.records = [
        [game.play_reference(state, row, rules, strategies) for row in range(len(state))]
        for state in played.states
    ]
    return played


def _first_difference(a: Sequence[Any], b: Sequence[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"at {i}: {x} against {y}"
    return f"lengths {len(a)} against {len(b)}"


def check_agreement(played: Played) -> int:
    """The reference engine's records against the batched core, row by row: the same moves, outcome and
    scores. Returns the rows checked."""
    game, rules = played.game, played.rules
    expect(played.records is not None, "check_agreement needs deals played by play_both")
    checked = 0
    for state, records in zip(played.states, played.records or [], strict=True):
        outcomes, scores = game.outcomes(state, rules), game.scores(state, rules)
        for row, record in enumerate(records):
            where = f"{game.name} deal {int(state.deal[row])}"
            moves = game.moves(state, row)
            expect(
                list(record.moves) == moves,
                f"{where}: the engines' moves differ {_first_difference(record.moves, moves)}",
            )
            expect(
                tuple(record.outcome()) == tuple(int(x) for x in outcomes[row]),
                f"{where}: the engines' outcomes differ: {record.outcome()} against {tuple(outcomes[row])}",
            )
            expect(
                tuple(record.totals_added()) == tuple(int(x) for x in scores[row]),
                f"{where}: the engines' scores differ: {record.totals_added()} against {tuple(scores[row])}",
            )
            checked += 1
    return checked


def check_replay(played: Played) -> int:
    """Every row's recorded moves, played back through the reference engine: each legal by its rules, the
    same outcome (any strategy, random ones included). Returns the rows checked."""
    game, rules = played.game, played.rules
    names = list(game.seat_names(rules))
    for state in played.states:
        outcomes = game.outcomes(state, rules)
        for row in range(len(state)):
            where = f"{game.name} deal {int(state.deal[row])}"
            moves = game.moves(state, row)
            record = game.play_reference(state, row, rules, replay.players(moves, names))
            expect(list(record.moves) == moves, f"{where}: the recorded moves do not replay as recorded")
            expect(
                tuple(record.outcome()) == tuple(int(x) for x in outcomes[row]),
                f"{where}: the recorded moves replayed come to another outcome",
            )
    return played.rows()


# --- the checks -------------------------------------------------------------------------------------------
def check_header(game: Game) -> None:
    """The header's facts fit together."""
    name = game.name
    expect(len(game.kind_names) == len(game.n_actions) == game.done, f"{name}: one action count per kind")
    expect(set(game.words) == set(UNITS), f"{name}: words must name both units, {UNITS}")
    expect(
        game.default_unit in UNITS and set(game.default_chunk) == set(UNITS), f"{name}: units and chunk sizes"
    )
    expect("seed" in game.presets, f"{name}: presets must hold 'seed', the rules' defaults")
    expect(
        game.default_strategy in registry.roster(game).known,
        f"{name}: the default strategy is not registered",
    )
    for preset in game.presets:
        game.rules(preset)
    for case, overrides in game.check_rules.items():
        expect(isinstance(game.rules(overrides=overrides), game.rules_cls), f"{name}: check rules {case}")
    rules = game.rules()
    expect(len(set(game.seat_names(rules))) == len(game.seat_names(rules)), f"{name}: seat names repeat")
    for group, seats in game.seat_groups(rules).items():
        expect(
            all(0 <= s < len(game.seat_names(rules)) for s in seats), f"{name}: group {group} names no seat"
        )


def sizes(game: Game, spec: str) -> Sizes:
    """How many deals and matches the checks play with a strategy: the game's, or the strategy's own."""
    cls = type(registry.roster(game).make(spec))
    return getattr(cls, "check_sizes", None) or game.check_sizes


def _run(game: Game, spec: str, unit: str, n: int, chunk_size: int | None = None) -> Run:
    rules = game.rules()
    seats = (spec,) * len(game.seat_names(rules))
    seed = stable_seed(game.name, spec, unit)
    return Run(game=game, n=n, seed=seed, rules=rules, seats=seats, unit=unit, chunk_size=chunk_size or n)


def check_tables(game: Game, spec: str) -> None:
    """Both units play with this strategy on every seat, with tables of the agreed shape (see
    `simulator.series`), a summary, its rendering and one value per deal of every measure."""
    for unit in UNITS:
        run = _run(game, spec, unit, sizes(game, spec).of(unit))
        tables = play_chunk(chunk(run, 0))
        deals = tables["deals"]
        where = f"{game.name} {spec} ({unit})"
        if unit == "deal":
            expect(
                list(tables) == ["deals"] and deals.columns[0] == "deal",
                f"{where}: a `deals` table, `deal` first",
            )
            expect(len(deals) == run.n * game.rows_per_deal(run.rules), f"{where}: rows per deal")
            expect(np.array_equal(np.unique(deals["deal"]), np.arange(run.n)), f"{where}: every deal once")
        else:
            matches = tables.get("matches")
            expect(
                matches is not None and list(tables) == ["deals", "matches"], f"{where}: deals and matches"
            )
            assert matches is not None
            sides = [s.lower() for s in game.side_names(run.rules)]
            standard = ["match", "first_dealer", "deals", "winner", *[f"final_{s}" for s in sides]]
            expect(
                list(matches.columns[: len(standard)]) == standard, f"{where}: the matches table's columns"
            )
            expect(list(deals.columns[:2]) == ["match", "number"], f"{where}: `match` and `number` first")
            per_match = deals.groupby("match")["number"].max()
            lengths = matches.set_index("match").loc[per_match.index, "deals"].to_numpy()
            expect(
                np.array_equal(per_match.to_numpy(), lengths), f"{where}: `deals` counts each match's deals"
            )
        summary = game.summary(tables, unit)
        expect(bool(summary) and bool(game.render(summary)), f"{where}: summary and rendering")
        expect(summary.get("deals") is not None, f"{where}: the summary counts its deals under `deals`")
        for side in range(len(game.sides(run.rules))):
            for m in game.measures(tables, unit, side):
                expect(
                    len(m.num) == run.n, f"{where}: measure {m.name!r} has {len(m.num)} values for {run.n}"
                )


def check_deterministic(game: Game, spec: str) -> bool:
    """Whether the strategy plays these deals the same whatever its random stream holds (a strategy other
    than `random` must: decisions that depend on the view alone are what lets both engines agree)."""
    run = _run(game, spec, "deal", sizes(game, spec).deals)
    c = chunk(run, 0)
    a = play_chunk(c)
    other = dataclasses.replace(
        chunk(run, 0), seat_rngs=[np.random.default_rng(12345 + i) for i in range(len(c.seat_rngs))]
    )
    b = play_chunk(other)
    same = all(a[k].equals(b[k]) for k in a)
    expect(
        same or isinstance(c.strategies[0], Random),
        f"{game.name} {spec}: plays differ with its random stream",
    )
    return same


def check_strategy(game: Game, spec: str) -> list[str]:
    """Every check of one strategy on every seat: its tables, and both engines on both units (the same moves
    where it depends on the view alone, a legal replay of every recorded move in any case)."""
    check_tables(game, spec)
    same = check_deterministic(game, spec)
    rules = game.rules()
    players = [registry.roster(game).make(spec)] * len(game.seat_names(rules))
    for unit in UNITS:
        n = sizes(game, spec).of(unit)
        seed = stable_seed(game.name, spec, unit)
        played = (
            play_both(game, rules, players, n, unit=unit, seed=seed)
            if same
            else play(game, rules, players, n, unit=unit, seed=seed)
        )
        if same:
            check_agreement(played)
        check_replay(played)
    return ["tables", "deterministic" if same else "random", "agreement" if same else "replay"]


def check_views(game: Game, rules: Any, n: int | None = None, seed: int = 0) -> int:
    """`ViewHash` on every seat: both engines agree move for move on first deals and whole matches, so they
    show every seat the same view. Returns the rows checked."""
    players = [ViewHash()] * len(game.seat_names(rules))
    checked = 0
    for unit in UNITS:
        count = n if n is not None else game.check_sizes.of(unit)
        checked += check_agreement(play_both(game, rules, players, count, unit=unit, seed=seed))
    return checked


def positions(game: Game, rules: Any, rng: np.random.Generator, n: int = 400) -> list[Any]:
    """Fresh first deals and the second deals of matches (where later deals differ: teams, exchanges)."""
    numbers = np.arange(n)
    first = game.deal(rng, numbers, rules)
    series = game.series(numbers, rules)
    active = np.arange(n)
    played = np.zeros(n, np.int32)
    seats = len(game.seat_names(rules))
    out = driver.play(game, series.deal(rng, active, played), rules, [Random()] * seats, [rng] * seats)
    over = series.record(active, out, game.table(out, rules))
    played += 1
    return [first, series.deal(rng, active[~over], played[~over])]


def _advance(game: Game, state: Any, rules: Any, steps: int, rng: np.random.Generator) -> None:
    """Random legal decisions for every unfinished row, `steps` rounds of every pending kind."""
    for _ in range(steps):
        for kind in range(game.done):
            rows = np.flatnonzero(state.phase == kind)
            if len(rows):
                _, legal = game.inputs(state, rows, kind, rules)
                game.apply(state, rows, kind, uniform_choice(legal, rng), rules)


def check_secrecy(game: Game, seed: int = 0) -> int:
    """A view does not change when only what its seat cannot see changes (`Game.hidden_variant`), at several
    points of first deals and of later deals. Returns the decisions compared."""
    rules = game.rules()
    rng = np.random.default_rng(seed)
    compared = 0
    for start in positions(game, rules, rng):
        for steps in (0, 3, 9, 20):
            state = start.take(np.arange(len(start)))
            _advance(game, state, rules, steps, rng)
            state = state.take(np.flatnonzero(state.phase != game.done))
            if not len(state):
                continue
            variant = game.hidden_variant(state, rng)
            for kind in range(game.done):
                rows = np.flatnonzero(state.phase == kind)
                if not len(rows):
                    continue
                v1, legal1 = game.inputs(state, rows, kind, rules)
                v2, legal2 = game.inputs(variant, rows, kind, rules)
                for name, array in v1.arrays().items():
                    expect(
                        np.array_equal(array, getattr(v2, name)),
                        f"{game.name}: view field {name} shows hidden cards",
                    )
                expect(np.array_equal(legal1, legal2), f"{game.name}: the legal actions show hidden cards")
                compared += len(rows)
    # the variants do differ: a check that could not fail would prove nothing
    state = positions(game, rules, rng)[0]
    variant = game.hidden_variant(state, rng)
    differs = any(
        not np.array_equal(getattr(state, f.name), getattr(variant, f.name))
        for f in dataclasses.fields(state)
    )
    expect(differs, f"{game.name}: hidden_variant changes nothing")
    return compared


def check_packed(game: Game, rules: Any, seed: int = 0) -> np.ndarray:
    """What random play and the driver's check read (`packed_inputs`) is the legal mask, bit for bit, with the
    same view, at every kind of decision of first and later deals. Returns the decisions compared per kind."""
    rng = np.random.default_rng(seed)
    compared = np.zeros(game.done, int)
    for start in positions(game, rules, rng):
        state = start.take(np.arange(len(start)))
        for _ in range(200):
            for kind in range(game.done):
                rows = np.flatnonzero(state.phase == kind)
                if not len(rows):
                    continue
                view, legal = game.inputs(state, rows, kind, rules)
                pview, words, n = game.packed_inputs(state, rows, kind, rules)
                where = f"{game.name} kind {game.kind_names[kind]}"
                expect(n == legal.shape[1] and words.dtype == np.uint64, f"{where}: packed width")
                expect(words.shape[1] == -(-n // 64), f"{where}: packed words per row")
                expect(
                    np.array_equal(bitrows.unpack(words, n), legal), f"{where}: packed legal actions differ"
                )
                if n % 64:
                    expect(
                        bool((words[:, -1] >> np.uint64(n % 64) == 0).all()),
                        f"{where}: bits past the actions",
                    )
                for name, array in view.arrays().items():
                    expect(np.array_equal(array, getattr(pview, name)), f"{where}: packed view field {name}")
                compared[kind] += len(rows)
                game.apply(state, rows, kind, uniform_choice(legal, rng), rules)
            if (state.phase == game.done).all():
                break
    expect(bool((compared > 0).all()), f"{game.name}: a kind of decision never met: {compared}")
    return compared


def check_refusal(game: Game) -> None:
    """An illegal action is refused with an error naming the strategy, the seat, the deal and the move."""
    rules = game.rules()
    seats = len(game.seat_names(rules))
    state = game.deal(np.random.default_rng(1), np.arange(50), rules)
    try:
        driver.play(game, state, rules, [_Cheat()] * seats, [np.random.default_rng(2)] * seats)
    except IllegalAction as err:
        message = str(err)
        expect("simulator.testing:_Cheat" in message and "at seat " in message, f"{game.name}: {message!r}")
        expect("in deal " in message and "illegal" in message, f"{game.name}: {message!r}")
        return
    raise ContractError(f"{game.name}: an illegal action was played")


def check_traces(game: Game) -> None:
    """Any deal of a run, and any match, told move by move (text and JSON)."""
    for unit in UNITS:
        run = _run(game, game.default_strategy, unit, 12, chunk_size=5)
        for deal in (0, 11):
            text = replay.trace(run, deal)
            expect(text.startswith(f"{game.words[unit]} {deal}"), f"{game.name}: trace of {unit} {deal}")
            record = replay.trace(run, deal, as_json=True)
            expect(
                isinstance(record, Mapping) and record.get(unit) == deal,
                f"{game.name}: JSON trace of {unit} {deal}",
            )
        if unit == "match":
            expect(
                "Winner:" in text and "Totals:" in text,
                f"{game.name}: a match's trace tells totals and winner",
            )


def check_workers(game: Game) -> None:
    """-j 1 and -j 2 give identical tables, for both units."""
    for unit in UNITS:
        n, size = (30, 10) if unit == "deal" else (6, 2)
        run = _run(game, game.default_strategy, unit, n, chunk_size=size)
        one, two = execute(run, jobs=1), execute(run, jobs=2)
        expect(one.complete and two.complete, f"{game.name}: a run did not complete")
        for name in one.tables:
            try:
                pd.testing.assert_frame_equal(one.tables[name], two.tables[name])
            except AssertionError as exc:
                raise ContractError(f"{game.name} ({unit}): -j 1 and -j 2 differ in {name}: {exc}") from None


def check_game(game: Game, specs: Sequence[str] | None = None) -> list[str]:
    """Every check of the game: its header, each strategy (default: every registered one and its examples),
    the views under each of its check rules, secrecy, packed legality, refusal, traces and workers. Returns
    the checks run, by name."""
    done = ["header"]
    check_header(game)
    for spec in specs if specs is not None else strategy_specs(game):
        done += [f"{spec}: {what}" for what in check_strategy(game, spec)]
    for case, overrides in game.check_rules.items():
        check_views(game, game.rules(overrides=overrides), seed=stable_seed(game.name, case))
        check_packed(game, game.rules(overrides=overrides), seed=stable_seed(game.name, case))
        done += [f"views under {case}", f"packed legality under {case}"]
    check_secrecy(game, stable_seed(game.name))
    check_refusal(game)
    check_traces(game)
    check_workers(game)
    return [*done, "secrecy", "refusal", "traces", "workers"]


def strategy_specs(game: Game) -> list[str]:
    """Every registered strategy of the game by name, then each one's examples (parameters that change its
    play: `Strategy.examples`)."""
    known = registry.roster(game).known
    return [*known, *[f"{name}:{example}" for name, cls in known.items() for example in cls.examples]]
