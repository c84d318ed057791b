"""The heuristic's ladder bidder: it uses the whole ladder, reads its limits from the rules, bids
42 with a hand that takes every trick, beats the threshold bidder; `bidder=threshold` is the old bidder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simulator import compare, registry, simulate
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import BID_84, BID_126, BID_168, BID_210, CALL
from simulator.options import build
from simulator.runner import Run, execute
from simulator.specs import Execution, RunSpec
from strategies.fortytwo import Heuristic, sure_every_trick
from tests.helpers import strategy
from tests.test_digests import DROPPED, RENAMED, WRITTEN, digest
from tests.test_fortytwo_core import W, one_hand
from tests.test_fortytwo_texas import act

BASELINE = json.loads((Path(__file__).parent / "data" / "digests_baseline.json").read_text())


def _hand(text: str) -> np.ndarray:
    return np.array([D.ids_to_bits(D.parse_domino(t) for t in text.split())], np.uint32)


def test_sure_every_trick():
    # the top four sixes against three trumps out, the rest doubles: every trick
    assert sure_every_trick(_hand("6-6 6-5 6-4 6-3 5-5 4-4 3-3"), np.array([6]))[0]
    # a gap in the top trumps
    assert not sure_every_trick(_hand("6-6 6-5 6-3 6-2 5-5 4-4 3-3"), np.array([6]))[0]
    # an off-suit domino something out can beat (5-5 is out)
    assert not sure_every_trick(_hand("6-6 6-5 6-4 6-3 5-4 4-4 3-3"), np.array([6]))[0]
    # ...but not when the hand holds what beats it
    assert sure_every_trick(_hand("6-6 6-5 6-4 6-3 5-5 5-4 3-3"), np.array([6]))[0]


def test_contracts_climb_the_ladder():
    deals = simulate(RunSpec("forty-two", n=20_000, seed=1)).deals
    bids = deals["bid"].dropna().astype(int)
    assert (bids >= 34).sum() > 500
    assert (bids == 42).sum() > 20
    assert deals.loc[deals["bid"] == 42, "made"].mean() > 0.95  # 42 only with a sure hand


def test_min_bid_comes_from_the_rules():
    deals = simulate(RunSpec("forty-two", n=10_000, seed=2, rules={"min_bid": 28})).deals
    counts = deals["bid"].value_counts()
    assert counts.get(28, 0) > 100 and counts.get(29, 0) > 100
    low = simulate(RunSpec("forty-two", n=10_000, seed=2, rules={"min_bid": 34})).deals
    assert low["bid"].dropna().min() >= 34


def test_the_margin_moves_the_pass_out_rate():
    # today's threshold bidder throws in about 26% of hands whatever the rules; the ladder's risk margin
    # sets it: a bolder margin throws in far fewer
    def thrown(spec: str, **rules) -> float:
        return (
            simulate(RunSpec("forty-two", n=10_000, seed=3, seats={"NS": spec, "EW": spec}, rules=rules))
            .deals["thrown_in"]
            .mean()
        )

    assert thrown("heuristic:margin=-2") < 0.12
    assert thrown("heuristic:margin=-2", min_bid=32) > thrown("heuristic:margin=-2") + 0.1


def test_threshold_bidder_is_todays_heuristic():
    game = registry.get("forty-two")
    for unit, n, chunk in (("hand", 600, 200), ("match", 30, 10)):
        case = f"forty-two|{unit}||heuristic,heuristic,heuristic,heuristic"
        run = Run(
            game=game,
            n=n,
            seed=7,
            rules=game.rules(),
            seats=("heuristic:bidder=threshold",) * 4,
            unit={"hand": "deal", "match": "match"}[unit],
            chunk_size=chunk,
        )
        tables = list(execute(run, jobs=1).tables.values())
        for i, (frame, before) in enumerate(zip(tables, BASELINE[case])):
            now = digest(frame, WRITTEN.get(("forty-two", i)))
            for col, value in before.items():
                if col not in DROPPED.get(("forty-two", i), set()):
                    renamed = RENAMED[("forty-two", i)]
                    assert now[renamed.get(col, col)] == value, f"{case}: table {i} column {col}"


@pytest.mark.slow
def test_ladder_beats_threshold_in_matches():
    cmp = compare(
        RunSpec("forty-two", n=6_000, seed=1, seats={"NS": "heuristic"}, unit="match"),
        vs={"NS": "heuristic:bidder=threshold"},
        execution=Execution(jobs=2),
    )
    wins = cmp.frame().set_index("measure").loc["NS wins"]
    assert wins["lo"] > 0, wins.to_dict()


def test_parameters():
    assert Heuristic().bidder == "ladder"
    assert Heuristic(bidder="threshold").spec == "heuristic:bidder=threshold"


@pytest.mark.parametrize("preset", ["texas", "texas-house"])
@pytest.mark.parametrize("spec", ["heuristic", "expert", "greedy"])
def test_a_bidder_that_would_bid_168_bids_210_over_an_opponents_168(preset: str, spec: str) -> None:
    """Under marks a sure hand bids the lowest jump over an opponent's bid: 168 over a 126, and over a 168
    the 210 (not a plunge, though the hand holds four doubles). Greedy bids the lowest bid (a long suit)."""
    rules = build(FortyTwoRules, "rule", PRESETS[preset])
    player = strategy("forty-two", spec)
    sure = "6-6 6-5 6-4 6-3 5-5 4-4 3-3"  # every trick with sixes trumps
    for ladder, answer in (([BID_84, BID_126], BID_168), ([BID_84, BID_126, BID_168], BID_210)):
        s = one_hand({W: sure}, dealer=(W - len(ladder) - 1) & 3)
        act(s, rules, *ladder)  # W calls after the ladder, an opponent holding the bid
        view, legal = core.inputs(s, slice(None), CALL, rules)
        action = player.decide(CALL, view, legal, np.random.default_rng(0))
        assert int(action[0]) == answer
