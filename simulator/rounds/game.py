"""Rounds as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

from simulator.contract import Game, Reference
from simulator.rounds import measures, play, quality, reference, secrecy, summary, trace
from simulator.rounds.rules import PRESETS, RoundsRules

REFERENCE = Reference(
    moves=trace.recorded_moves,
    play=trace.play_reference,
    record_moves=trace.record_moves,
    score=lambda record: tuple(record.points),
    batch_score=lambda state, rules: state.points,
    outcome=trace.outcome,
    batch_outcome=trace.outcomes,
    text=reference.format_game,
    to_dict=reference.game_to_dict,
    sides=lambda rules: play.PLAYERS,
)

GAME = Game(
    name="rounds",
    title="Rounds: cards, two players, five stages of five tricks, game to 200",
    module=__name__,
    rules_cls=RoundsRules,
    presets=PRESETS,
    seat_names=lambda rules: play.PLAYERS,
    seat_groups=lambda rules: {},
    words={"deal": "game", "match": "match"},
    default_unit="deal",
    core=play.CORE,
    series=play.Matches,
    reference=REFERENCE,
    default_strategy="heuristic",
    summarize=summary.summarize,
    render=summary.render,
    measures=measures.measures,
    hidden_variant=secrecy.hidden_variant,
    default_chunk={"deal": 20_000, "match": 2_000},
    yardstick="yardstick_rounds.py",  # benchmarks/yardstick_rounds.py: random play compiled (numba)
    extra_columns={"play-quality": quality.play_quality},
)
