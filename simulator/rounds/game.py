"""Rounds as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

from simulator.games import Game
from simulator.replay import deal_states
from simulator.rounds import measures, play, summary, trace
from simulator.rounds.rules import PRESETS, RoundsRules
from simulator.runner import Chunk, Run


def play_chunk(run: Run, c: Chunk) -> dict[str, Any]:
    if run.unit == "match":
        games, matches = play.play_matches(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
        return {"games": games, "matches": matches}
    state = play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
    return {"games": play.game_table(state, run.rules)}


def trace_deal(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` exactly as the run played it: a game, or with --unit match a whole match."""
    states = deal_states(
        run, deal, lambda c: play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies),
        lambda c, keep: play.play_matches(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_games=keep))
    return trace.trace(states, run.rules, as_json)


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
