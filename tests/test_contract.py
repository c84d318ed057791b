"""The game contract, checked for every registered game and every one of its strategies by the importable
checks of `simulator.testing`: a new game or strategy gets these tests by registering.

A check that could not fail would prove nothing, so the end of this file breaks games and strategies on
purpose and sees each check refuse them."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from simulator import app, registry, testing
from simulator.fortytwo import dominoes
from simulator.fortytwo.game import FortyTwo
from simulator.rounds.game import Rounds
from simulator.runner import Run
from strategies.base import Strategy, uniform_choice

GAMES = list(registry.GAMES)
# a searching strategy with a solver runs on the worker of its solver's other tests (--dist loadgroup):
# compiled once there
SOLVER_GROUPS = {"forty-two": "fortytwo-solver", "rounds": "rounds-solver"}
STRATEGIES = [
    pytest.param(g, s, marks=pytest.mark.xdist_group(SOLVER_GROUPS[g]))
    if s.startswith("expert") and g in SOLVER_GROUPS
    else (g, s)
    for g in GAMES
    for s in testing.strategy_specs(registry.get(g))
]
CHECK_RULES = [(g, case) for g in GAMES for case in registry.get(g).check_rules]


@pytest.mark.parametrize("game", GAMES)
def test_the_header_fits_together(game: str) -> None:
    testing.check_header(registry.get(game))


@pytest.mark.parametrize(("game", "spec"), STRATEGIES)
def test_every_strategy_keeps_the_contract(game: str, spec: str) -> None:
    done = testing.check_strategy(registry.get(game), spec)
    if not spec.startswith("random"):
        assert "agreement" in done, f"{game} {spec} should not depend on its random stream"


@pytest.mark.parametrize(("game", "case"), CHECK_RULES)
def test_both_engines_show_the_same_views(game: str, case: str) -> None:
    g = registry.get(game)
    rules = g.rules(overrides=g.check_rules[case])
    assert testing.check_views(g, rules, seed=testing.stable_seed(game, case)) >= sum(
        g.check_sizes.of(u) for u in ("deal", "match")
    )


@pytest.mark.parametrize("game", GAMES)
def test_views_hide_what_the_seat_cannot_see(game: str) -> None:
    assert testing.check_secrecy(registry.get(game), testing.stable_seed(game)) > 1000


PACKED_RULES = [(game, ()) for game in GAMES] + [("forty-two", ("sevens=true", "nello=true", "plunge=true"))]


@pytest.mark.parametrize(("game", "overrides"), PACKED_RULES)
def test_packed_inputs_are_the_legal_mask_in_bits(game: str, overrides: tuple[str, ...]) -> None:
    g = registry.get(game)
    compared = testing.check_packed(g, g.rules(overrides=overrides), testing.stable_seed(game, *overrides))
    assert (compared > 100).all(), compared  # every kind of decision was met


@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_are_refused_by_name(game: str) -> None:
    testing.check_refusal(registry.get(game))


@pytest.mark.parametrize("game", GAMES)
def test_traces_tell_any_deal(game: str) -> None:
    testing.check_traces(registry.get(game))
    g = registry.get(game)
    rules = g.rules()
    run = Run(
        game=g,
        n=12,
        seed=3,
        rules=rules,
        seats=(g.default_strategy,) * len(g.seat_names(rules)),
        unit="deal",
        chunk_size=5,
    )
    record = app.trace(run, 11, as_json=True)  # with the run's provenance
    assert record["game"] == game and record["seed"] == 3 and "trace" in record


@pytest.mark.parametrize("game", GAMES)
def test_any_worker_count_gives_the_same_tables(game: str) -> None:
    testing.check_workers(registry.get(game))


def test_check_game_runs_every_check(monkeypatch) -> None:
    """check_game is what a user runs on a game of their own: every check above, on the game's own check
    rules and strategies (each check itself is tested above; here, that check_game calls them all)."""
    called: list[str] = []
    for name in ("header", "strategy", "views", "packed", "secrecy", "refusal", "traces", "workers"):
        monkeypatch.setattr(
            testing, f"check_{name}", lambda *a, _name=name, **k: called.append(_name) or ["agreement"]
        )
    g = registry.get("rounds")
    done = testing.check_game(g, specs=["greedy", "heuristic"])
    assert done[0] == "header" and done[-4:] == ["secrecy", "refusal", "traces", "workers"]
    assert "greedy: agreement" in done and "views under game-rank" in done
    cases = len(g.check_rules)
    assert called == ["header", "strategy", "strategy", *["views", "packed"] * cases, *done[-4:]]
    assert testing.strategy_specs(g)[: len(registry.roster(g).known)] == list(registry.roster(g).known)


# --- the checks refuse what breaks the contract ---------------------------------------------------------
class _Blind(Rounds):
    """Rounds whose reference engine plays every game as player 0 would lead: it disagrees with the core."""

    def play_reference(self, state: Any, row: int, rules: Any, players: Any) -> Any:
        record = super().play_reference(state, row, rules, players)
        record.moves = record.moves[::-1]
        return record


class _Peeking(FortyTwo):
    """Forty-two whose views show the next seat's hand in place of the seat's own."""

    def inputs(self, state: Any, rows: Any, kind: int, rules: Any) -> Any:
        view, legal = super().inputs(state, rows, kind, rules)
        r = np.arange(len(state))[rows]
        view.__dict__["hand"] = state.hands[r, (state.turn[r] + 1) & 3]
        return view, legal


class _Lenient(FortyTwo):
    """Forty-two whose packed legal actions allow every domino on a lead."""

    def packed_inputs(self, state: Any, rows: Any, kind: int, rules: Any) -> Any:
        view, words, n = super().packed_inputs(state, rows, kind, rules)
        return view, words | np.uint64(1), n


@dataclasses.dataclass(frozen=True)
class _Moody(Strategy):
    """Random play that claims to be deterministic: it plays by its random stream."""

    def decide(self, kind, view, legal, rng):
        return uniform_choice(legal, rng)


def test_the_checks_refuse_a_broken_game() -> None:
    played = testing.play_both(_Blind(), Rounds().rules(), [testing.ViewHash()] * 2, 3)
    with pytest.raises(testing.ContractError, match="rounds deal 0: the engines' moves differ"):
        testing.check_agreement(played)
    with pytest.raises(testing.ContractError, match="view field hand shows hidden cards"):
        testing.check_secrecy(_Peeking())
    with pytest.raises(testing.ContractError, match="packed legal actions differ"):
        testing.check_packed(_Lenient(), FortyTwo().rules())


def test_the_checks_refuse_a_strategy_that_plays_by_chance() -> None:
    with pytest.raises(testing.ContractError, match="plays differ with its random stream"):
        testing.check_deterministic(registry.get("rounds"), "tests.test_contract:_Moody")


def test_the_checks_meet_every_contract_kind_of_forty_two() -> None:
    g = registry.get("forty-two")
    rules = g.rules(overrides=("sevens=true", "nello=true", "plunge=true"))
    state = testing.positions(g, rules, np.random.default_rng(4))[0]
    testing._advance(g, state, rules, 40, np.random.default_rng(5))
    assert (state.ctx == dominoes.SEVENS_CTX).any()  # the sevens' own legal rule was met
