"""Forty-two as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.fortytwo import dominoes as D
from simulator.fortytwo import measures, play, summary, trace
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.games import Game


def run_chunk(run, k: int) -> dict[str, Any]:
    from simulator.runner import chunk_rngs, seat_strategies

    start, stop = run.bounds(k)
    rngs = chunk_rngs(run.seed, k, 1 + len(D.SEATS))
    strategies = seat_strategies(run.game, run.seats)
    deals = np.arange(start, stop)
    if run.unit == "match":
        hands, games = play.play_games(rngs[0], rngs[1:], deals, run.rules, strategies)
        return {"hands": hands, "games": games}
    state = play.play_hands(rngs[0], rngs[1:], deals, run.rules, strategies)
    return {"hands": play.hand_table(state, run.rules)}


def trace_deal(run, deal: int, as_json: bool = False) -> Any:
    """Hand `deal` of `run` (unit hand), exactly as the run played it."""
    from simulator.runner import chunk_rngs, seat_strategies

    if run.unit != "hand":
        raise DealsimError("trace follows single hands: use --unit hand")
    if not 0 <= deal < run.n:
        raise DealsimError(f"deal {deal} is outside the run's {run.n:,} deals")
    k = deal // run.chunk_size
    start, stop = run.bounds(k)
    rngs = chunk_rngs(run.seed, k, 1 + len(D.SEATS))
    state = play.play_hands(rngs[0], rngs[1:], np.arange(start, stop), run.rules,
                            seat_strategies(run.game, run.seats))
    return trace.trace(state, deal - start, run.rules, as_json)


GAME = Game(
    name="forty-two",
    title="Forty-two: dominoes, four players in two partnerships, bids 30..42, 84, 168, game to 250",
    rules_cls=FortyTwoRules,
    presets=PRESETS,
    seat_names=D.SEATS,
    seat_groups={"NS": (0, 2), "EW": (1, 3)},
    units=("hand", "match"),
    default_strategy="heuristic",
    run_chunk=run_chunk,
    summarize=summary.summarize,
    render=summary.render,
    trace=trace_deal,
    measures=measures.measures,
    default_chunk={"hand": 25_000, "match": 2_500},
)
