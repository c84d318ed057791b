"""Rounds as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.games import Game
from simulator.rounds import measures, play, summary, trace
from simulator.rounds.rules import PRESETS, RoundsRules
from simulator.runner import Chunk, Run, chunk


def play_chunk(run: Run, c: Chunk) -> dict[str, Any]:
    if run.unit == "match":
        games, matches = play.play_matches(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
        return {"games": games, "matches": matches}
    state = play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
    return {"games": play.game_table(state, run.rules)}


def trace_deal(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` exactly as the run played it: a game, or with --unit match a whole match."""
    if not 0 <= deal < run.n:
        raise DealsimError(f"deal {deal} is outside the run's {run.n:,} deals")
    c = chunk(run, deal // run.chunk_size)
    if run.unit == "game":
        state = play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
        return trace.trace([state.take(np.array([deal - int(c.deals[0])]))], run.rules, as_json)
    kept = []

    def keep(matches: np.ndarray, state) -> None:
        at = np.flatnonzero(matches == deal)
        if len(at):
            kept.append(state.take(at))

    play.play_matches(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_games=keep)
    return trace.trace(kept, run.rules, as_json)


GAME = Game(
    name="rounds",
    title="Rounds: cards, two players, five stages of five tricks, game to 200",
    rules_cls=RoundsRules,
    presets=PRESETS,
    seat_names=lambda rules: play.PLAYERS,
    seat_groups=lambda rules: {},
    units=("game", "match"),
    default_strategy="heuristic",
    play_chunk=play_chunk,
    summarize=summary.summarize,
    render=summary.render,
    trace=trace_deal,
    measures=measures.measures,
    default_chunk={"game": 20_000, "match": 2_000},
)
