"""Frank's Zoo as the runner and the command line see it."""

from __future__ import annotations

from typing import Any

from simulator.franks_zoo import measures, play, summary
from simulator.franks_zoo.rules import PRESETS, FranksZooRules
from simulator.games import Game
from simulator.replay import deal_states
from simulator.runner import Chunk, Run


def play_chunk(run: Run, c: Chunk) -> dict[str, Any]:
    if run.unit == "match":
        hands, games = play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
        return {"hands": hands, "games": games}
    state = play.play_first_hands(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies)
    return {"hands": play.hand_table(state, run.rules)}


def trace_deal(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` as the run played it: a first hand, or with --unit match a whole game."""
    from simulator.franks_zoo import trace

    states = deal_states(
        run, deal, lambda c: play.play_first_hands(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies),
        lambda c, keep: play.play_games(c.deal_rng, c.seat_rngs, c.deals, run.rules, c.strategies, on_hands=keep))
    return trace.trace(states, run.rules, as_json)


GAME = Game(
    name="franks-zoo",
    title="Frank's Zoo: cards, 4-7 players, a climbing game, teams from the second hand",
    rules_cls=FranksZooRules,
    presets=PRESETS,
    seat_names=play.seat_names,
    seat_groups=lambda rules: {},
    units=("match", "hand"),
    default_strategy="greedy",  # the strategies are random and greedy; there is no heuristic yet
    play_chunk=play_chunk,
    summarize=summary.summarize,
    render=summary.render,
    trace=trace_deal,
    measures=measures.measures,
    default_chunk={"match": 5_000, "hand": 10_000},
    hands_in=lambda tables: len(tables["hands"]) // tables["hands"]["player"].nunique(),
)
