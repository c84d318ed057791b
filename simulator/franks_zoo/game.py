"""Frank's Zoo as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

from simulator.contract import Game, Reference
from simulator.franks_zoo import core, measures, play, reference, secrecy, summary, trace
from simulator.franks_zoo.rules import PRESETS, FranksZooRules

REFERENCE = Reference(
    moves=trace.recorded_moves,
    play=trace.play_reference,
    record_moves=trace.record_moves,
    score=lambda record: tuple(record.points["total"]),
    batch_score=lambda state, rules: core.hand_points(state, rules)["total"],
    outcome=trace.outcome,
    batch_outcome=trace.outcomes,
    text=lambda record, rules: reference.format_hand(record),
    to_dict=reference.hand_to_dict,
    sides=play.seat_names,
)

GAME = Game(
    name="franks-zoo",
    title="Frank's Zoo: cards, 4-7 players, a climbing game, teams from the second hand",
    module=__name__,
    rules_cls=FranksZooRules,
    presets=PRESETS,
    seat_names=play.seat_names,
    seat_groups=lambda rules: {},
    words={"deal": "hand", "match": "game"},
    default_unit="match",
    core=play.CORE,
    series=play.Games,
    reference=REFERENCE,
    default_strategy="heuristic",  # the strategies are random, greedy and heuristic
    summarize=summary.summarize,
    render=summary.render,
    measures=measures.measures,
    hidden_variant=secrecy.hidden_variant,
    default_chunk={"match": 5_000, "deal": 10_000},
    yardstick="yardstick_zoo.py",  # benchmarks/yardstick_zoo.py: random play compiled (numba)
    rows_per_deal=lambda rules: rules.players,
)
