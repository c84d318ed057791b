"""Forty-two as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

from simulator.contract import Game, Reference
from simulator.fortytwo import analyze, core, measures, play, quality, reference, secrecy, summary, trace
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import PRESETS, FortyTwoRules

REFERENCE = Reference(
    moves=trace.recorded_moves,
    play=trace.play_reference,
    record_moves=lambda record: list(record.moves),
    score=lambda record: tuple(record.score),
    batch_score=lambda state, rules: core.hand_scores(state, rules)[0],
    outcome=lambda record: (*record.points, *record.score, -1 if record.made is None else int(record.made)),
    batch_outcome=trace.outcomes,
    text=lambda record, rules: reference.format_hand(record),
    to_dict=reference.hand_to_dict,
    sides=lambda rules: D.SIDES,
)

GAME = Game(
    name="forty-two",
    title="Forty-two: dominoes, four players in two partnerships, bids 30..42, 84, 168, game to 250 (or Texas 42 "
    "to 7 marks)",
    module=__name__,
    rules_cls=FortyTwoRules,
    presets=PRESETS,
    seat_names=lambda rules: D.SEATS,
    seat_groups=lambda rules: {"NS": (0, 2), "EW": (1, 3)},
    words={"deal": "hand", "match": "game"},
    default_unit="deal",
    core=play.CORE,
    series=play.Games,
    reference=REFERENCE,
    default_strategy="heuristic",
    summarize=summary.summarize,
    render=summary.render,
    measures=measures.measures,
    hidden_variant=secrecy.hidden_variant,
    default_chunk={"deal": 25_000, "match": 2_500},
    yardstick="yardstick42.py",
    analysis=analyze.ANALYSIS,
    extra_columns={"play-quality": quality.play_quality},
)
