"""Forty-two as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

from simulator.fortytwo import dominoes as D
from simulator.fortytwo import measures, play, summary, trace
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.games import Game
from simulator.replay import deal_states
from simulator.runner import Chunk, Run


def play_chunk(run: Run, chunk: Chunk) -> dict[str, Any]:
    if run.unit == "match":
        hands, games = play.play_games(chunk.deal_rng, chunk.seat_rngs, chunk.deals, run.rules, chunk.strategies)
        return {"hands": hands, "games": games}
    state = play.play_hands(chunk.deal_rng, chunk.seat_rngs, chunk.deals, run.rules, chunk.strategies)
    return {"hands": play.hand_table(state, run.rules)}


def trace_deal(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` exactly as the run played it: a hand, or with --unit match a whole game."""
    states = deal_states(
        run, deal, lambda c: play.play_hands(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies),
        lambda c, keep: play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_hands=keep))
    if run.unit == "hand":
        return trace.trace(states[0], 0, run.rules, as_json)
    return trace.trace_game(states, run.rules, as_json)


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
