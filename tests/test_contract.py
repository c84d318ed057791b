"""The game contract, checked for every registered game and every one of its strategies: a new game or
strategy gets these tests by registering.

Each game deals and plays both units with tables of the agreed shape; the batched core agrees with the
reference engine (every recorded move replays legally with the same score, and a deterministic strategy
makes the same moves in both engines, first hands and later hands of matches alike); traces tell any deal;
a seat's view does not change when only what it cannot see changes; an illegal action is refused with an
error naming the strategy, the seat, the deal and the move; and -j 1 and -j 2 give identical tables."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
import pytest

from simulator import app, bitrows, driver, registry, replay
from simulator.errors import IllegalAction
from simulator.fortytwo import dominoes
from simulator.runner import Run, chunk, execute, play_chunk
from strategies.base import Strategy, uniform_choice
from tests.helpers import stable_hash

GAMES = list(registry.GAMES)
# every registered strategy, and some non-default parameters that change the play
EXTRA = {
    "forty-two": ["heuristic:threshold=28", "greedy:min_length=3"],
    "rounds": ["heuristic:duck=false"],
    "franks-zoo": [
        "heuristic:junior_gives=strong,solo_lions=false,cash_groups=2",
        "heuristic:ask=false,answer=false",
        "greedy:ask=false,answer=false",
    ],
}
# a searching strategy runs on the worker of its solver's other tests (--dist loadgroup): compiled once there
STRATEGIES = [
    pytest.param(g, s, marks=pytest.mark.xdist_group("fortytwo-solver"))
    if (g, s) == ("forty-two", "expert")
    else (g, s)
    for g in GAMES
    for s in [*registry.roster(g).known, *EXTRA.get(g, [])]
]
# deals of the agreement check per game and unit: the reference engines are plain Python
SIZES = {"forty-two": (120, 4), "rounds": (80, 3), "franks-zoo": (36, 2)}
# a strategy that searches every play (Forty-two's expert, some 20 hands a second): fewer
SEARCHING = {("forty-two", "expert"): (16, 1)}


def _size(game: str, spec: str, unit: str) -> int:
    return SEARCHING.get((game, spec), SIZES[game])[0 if unit == "deal" else 1]


def _run(game: str, spec: str, unit: str, n: int, chunk_size: int | None = None) -> Run:
    g = registry.get(game)
    rules = g.rules()
    return Run(
        game=g,
        n=n,
        seed=stable_hash(f"{game}{spec}{unit}") % 1000,
        rules=rules,
        seats=(spec,) * len(g.seat_names(rules)),
        unit=unit,
        chunk_size=chunk_size or n,
    )


@cache
def _played(game: str, spec: str, unit: str) -> tuple[Run, list[Any], dict[str, pd.DataFrame]]:
    """The finished states of one chunk (every round, for matches) and the chunk's tables."""
    n = _size(game, spec, unit)
    run = _run(game, spec, unit, n)
    states: list[Any] = []
    tables = play_chunk(chunk(run, 0), on_deals=lambda numbers, state: states.append(state))
    return run, states, tables


@pytest.mark.parametrize("game,spec", STRATEGIES)
def test_deals_and_plays_both_units(game: str, spec: str) -> None:
    g = registry.get(game)
    run, _, tables = _played(game, spec, "deal")
    deals = tables["deals"]
    assert list(tables) == ["deals"] and deals.columns[0] == "deal"
    assert len(deals) == run.n * g.rows_per_deal(run.rules)
    assert np.array_equal(np.unique(deals["deal"]), np.arange(run.n))
    run, _, tables = _played(game, spec, "match")
    assert list(tables) == ["deals", "matches"]
    matches = tables["matches"]
    assert list(matches.columns[:4]) == ["match", "first_dealer", "deals", "winner"]
    assert list(tables["deals"].columns[:2]) == ["match", "number"]
    per_match = tables["deals"].groupby("match")["number"].max()
    assert np.array_equal(
        per_match.to_numpy(), matches.set_index("match").loc[per_match.index, "deals"].to_numpy()
    )
    assert (matches["deals"] >= 1).all()
    summary = g.summary(tables, "match")
    assert summary and g.render(summary)
    assert all(len(m.num) == run.n for m in g.measures(tables, "match", 0))


def _deterministic(run: Run) -> bool:
    """Whether the strategies play these deals the same whatever their random streams hold."""
    c = chunk(run, 0)
    a = play_chunk(c)
    other = dataclasses.replace(
        chunk(run, 0), seat_rngs=[np.random.default_rng(12345 + i) for i in range(len(c.seat_rngs))]
    )
    b = play_chunk(other)
    return all(a[k].equals(b[k]) for k in a)


@pytest.mark.parametrize("unit", ["deal", "match"])
@pytest.mark.parametrize("game,spec", STRATEGIES)
def test_core_agrees_with_the_reference_engine(game: str, spec: str, unit: str) -> None:
    run, states, _ = _played(game, spec, unit)
    ref = run.game.reference
    players = run.strategies()
    same_moves = _deterministic(run)
    checked = 0
    for state in states:
        for row in range(len(state)):
            one = state.take(np.array([row]))
            replay.replay(run, one)  # every recorded move legal by the rules, the same score
            if same_moves:
                record = ref.play(one, 0, run.rules, players)
                assert ref.record_moves(record) == ref.moves(one, 0), f"{game} {spec} deal {int(one.deal[0])}"
                assert tuple(ref.outcome(record)) == tuple(
                    int(x) for x in ref.batch_outcome(one, run.rules)[0]
                )
                assert tuple(ref.score(record)) == tuple(int(x) for x in ref.batch_score(one, run.rules)[0])
            checked += 1
    assert checked >= _size(game, spec, unit)
    if spec != "random":
        assert same_moves, f"{game} {spec} should not depend on its random stream"


@pytest.mark.parametrize("unit", ["deal", "match"])
@pytest.mark.parametrize("game", GAMES)
def test_traces_tell_any_deal(game: str, unit: str) -> None:
    g = registry.get(game)
    run = _run(game, g.default_strategy, unit, 12, chunk_size=5)
    for deal in (0, 11):
        text = app.trace(run, deal)
        assert text.startswith(f"{g.words[unit]} {deal}")
        record = app.trace(run, deal, as_json=True)
        assert record["game"] == game and record["seed"] == run.seed and "trace" in record
    if unit == "match":
        assert "Winner:" in text and "Totals:" in text


def _advance(g, state: Any, rules: Any, steps: int, rng: np.random.Generator) -> None:
    """Random legal decisions for every unfinished row, `steps` rounds of every pending kind."""
    for _ in range(steps):
        for kind in range(g.core.done):
            rows = np.flatnonzero(state.phase == kind)
            if len(rows):
                _, legal = g.core.inputs(state, rows, kind, rules)
                g.core.apply(state, rows, kind, uniform_choice(legal, rng), rules)


def _positions(g, rules: Any, rng: np.random.Generator) -> list[Any]:
    """Fresh first deals and the second deals of matches (Frank's Zoo's team hands have an exchange)."""
    numbers = np.arange(400)
    first = g.core.deal(rng, numbers, rules)
    series = g.series(numbers, rules)
    active = np.arange(len(numbers))
    played = np.zeros(len(numbers), np.int32)
    out = driver.play(
        g.core,
        series.deal(rng, active, played),
        rules,
        [_Random()] * len(g.seat_names(rules)),
        [rng] * len(g.seat_names(rules)),
    )
    over = series.record(active, out, g.core.table(out, rules))
    played += 1
    return [first, series.deal(rng, active[~over], played[~over])]


@dataclasses.dataclass(frozen=True)
class _Random(Strategy):
    def decide(self, kind, view, legal, rng):
        return uniform_choice(legal, rng)


@pytest.mark.parametrize("game", GAMES)
def test_views_hide_what_the_seat_cannot_see(game: str) -> None:
    g = registry.get(game)
    rules = g.rules()
    rng = np.random.default_rng(stable_hash(game))
    compared = 0
    for start in _positions(g, rules, rng):
        for steps in (0, 3, 9, 20):
            state = start.take(np.arange(len(start)))
            _advance(g, state, rules, steps, rng)
            state = state.take(np.flatnonzero(state.phase != g.core.done))
            if not len(state):
                continue
            variant = g.hidden_variant(state, rng)
            for kind in range(g.core.done):
                rows = np.flatnonzero(state.phase == kind)
                if not len(rows):
                    continue
                v1, legal1 = g.core.inputs(state, rows, kind, rules)
                v2, legal2 = g.core.inputs(variant, rows, kind, rules)
                for name, array in v1.arrays().items():
                    assert np.array_equal(array, getattr(v2, name)), (
                        f"{game}: view field {name} shows hidden cards"
                    )
                assert np.array_equal(legal1, legal2)
                compared += len(rows)
    assert compared > 1000
    # the variants do differ: a check that could not fail would prove nothing
    state = _positions(g, rules, rng)[0]
    variant = g.hidden_variant(state, rng)
    assert any(
        not np.array_equal(getattr(state, f.name), getattr(variant, f.name))
        for f in dataclasses.fields(state)
    )


PACKED_RULES = [(game, ()) for game in GAMES] + [("forty-two", ("sevens=true", "nello=true", "plunge=true"))]


@pytest.mark.parametrize(("game", "overrides"), PACKED_RULES)
def test_packed_inputs_are_the_legal_mask_in_bits(game: str, overrides: tuple[str, ...]) -> None:
    """What random play and the driver's check read (`packed_inputs`) is the legal mask, bit for bit, with the
    same view, at every kind of decision: first deals, exchanges and help of later deals, Texas contracts."""
    g = registry.get(game)
    rules = g.rules(overrides=overrides)
    rng = np.random.default_rng(stable_hash(game) + len(overrides))
    compared = np.zeros(g.core.done, int)
    for start in _positions(g, rules, rng):
        state = start.take(np.arange(len(start)))
        for _ in range(200):
            for kind in range(g.core.done):
                rows = np.flatnonzero(state.phase == kind)
                if not len(rows):
                    continue
                view, legal = g.core.inputs(state, rows, kind, rules)
                pview, words, n = g.core.packed_inputs(state, rows, kind, rules)
                assert n == legal.shape[1] and words.dtype == np.uint64 and words.shape[1] == -(-n // 64)
                assert np.array_equal(bitrows.unpack(words, n), legal), f"{game} kind {kind}"
                assert (words[:, -1] >> np.uint64(n % 64) == 0).all() if n % 64 else True  # nothing past n
                for name, array in view.arrays().items():
                    assert np.array_equal(array, getattr(pview, name))
                compared[kind] += len(rows)
                g.core.apply(state, rows, kind, uniform_choice(legal, rng), rules)
            if (state.phase == g.core.done).all():
                break
    assert (compared > 100).all(), compared  # every kind of decision was met
    if overrides:
        assert (state.ctx == dominoes.SEVENS_CTX).any()  # the sevens' own legal rule was met


@dataclasses.dataclass(frozen=True)
class _Cheat(Strategy):
    """Plays an illegal action as soon as one exists (out of range when every action is legal)."""

    def decide(self, kind, view, legal, rng):
        illegal = ~legal
        return np.where(illegal.any(axis=1), np.argmax(illegal, axis=1), legal.shape[1])


@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_are_refused_by_name(game: str) -> None:
    g = registry.get(game)
    rules = g.rules()
    n_seats = len(g.seat_names(rules))
    state = g.core.deal(np.random.default_rng(1), np.arange(50), rules)
    with pytest.raises(IllegalAction) as err:
        driver.play(
            g.core,
            state,
            rules,
            [_Cheat()] * n_seats,
            [np.random.default_rng(2)] * n_seats,
            g.seat_names(rules),
        )
    message = str(err.value)
    assert "tests.test_contract:_Cheat" in message and "at seat " in message and "in deal " in message
    assert "illegal" in message


@pytest.mark.parametrize("game", GAMES)
def test_any_worker_count_gives_the_same_tables(game: str) -> None:
    g = registry.get(game)
    for unit in ("deal", "match"):
        run = _run(
            game,
            g.default_strategy,
            unit,
            30 if unit == "deal" else 6,
            chunk_size=10 if unit == "deal" else 2,
        )
        one, two = execute(run, jobs=1), execute(run, jobs=2)
        assert one.complete and two.complete and two.jobs == 2
        for name in one.tables:
            pd.testing.assert_frame_equal(one.tables[name], two.tables[name])
