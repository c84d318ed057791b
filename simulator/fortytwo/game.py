"""Forty-two as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.fortytwo import dominoes as D
from simulator.fortytwo import measures, play, summary, trace
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.games import Game
from simulator.runner import Chunk, Run, chunk


def play_chunk(run: Run, chunk: Chunk) -> dict[str, Any]:
    if run.unit == "match":
        hands, games = play.play_games(chunk.deal_rng, chunk.seat_rngs, chunk.deals, run.rules, chunk.strategies)
        return {"hands": hands, "games": games}
    state = play.play_hands(chunk.deal_rng, chunk.seat_rngs, chunk.deals, run.rules, chunk.strategies)
    return {"hands": play.hand_table(state, run.rules)}


def trace_deal(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` exactly as the run played it: a hand, or with --unit match a whole game."""
    if not 0 <= deal < run.n:
        raise DealsimError(f"deal {deal} is outside the run's {run.n:,} deals")
    c = chunk(run, deal // run.chunk_size)
    row = deal - int(c.deals[0])
    if run.unit == "hand":
        state = play.play_hands(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
        return trace.trace(state, row, run.rules, as_json)
    hands = []

    def keep(games: np.ndarray, state) -> None:
        at = np.flatnonzero(games == deal)
        if len(at):
            hands.append(state.take(at))

    play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_hands=keep)
    return trace.trace_game(hands, run.rules, as_json)


GAME = Game(
    name="forty-two",
    title="Forty-two: dominoes, four players in two partnerships, bids 30..42, 84, 168, game to 250",
    rules_cls=FortyTwoRules,
    presets=PRESETS,
    seat_names=lambda rules: D.SEATS,
    seat_groups=lambda rules: {"NS": (0, 2), "EW": (1, 3)},
    units=("hand", "match"),
    default_strategy="heuristic",
    play_chunk=play_chunk,
    summarize=summary.summarize,
    render=summary.render,
    trace=trace_deal,
    measures=measures.measures,
    default_chunk={"hand": 25_000, "match": 2_500},
    yardstick="yardstick42.py",
)
