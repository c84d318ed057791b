"""The batched core against the reference engine: the same deals, the same deterministic strategies,
move for move and score for score.

The fast suite plays a couple of hundred deals per case and, for the field-by-field view check, a set of
rule combinations in which every pair of option values meets; `-m slow` plays thousands of deals per case
and every combination."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simulator import replay, testing
from simulator.fortytwo import core, reference
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.game import GAME
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import BID_168, BID_210, CALL, PLUNGE, SPLASH
from simulator.options import build
from simulator.testing import ViewHash
from strategies.base import Random, uniform_choice
from tests.helpers import Scrambled, play_deals, stable_hash, strategy

RULES = {
    "seed": build(FortyTwoRules, "rule", PRESETS["seed"]),
    "texas": build(FortyTwoRules, "rule", PRESETS["texas"]),
    "seed-jump-28": FortyTwoRules(jump_bids=True, min_bid=28),
    # Texas 42: every declaration and special contract, under marks (stopping when decided) and points
    "texas-house": build(FortyTwoRules, "rule", PRESETS["texas-house"]),
    "points-specials": FortyTwoRules(
        declarations="pips,doubles,no-trump",
        doubles_low=True,
        nello=True,
        nello_doubles="high",
        plunge=True,
        splash=True,
        sevens=True,
        jump_bids=True,
    ),
    "marks-play-out": FortyTwoRules(
        count_values="texas",
        declarations="pips,no-trump",
        nello=True,
        nello_doubles="low",
        sevens=True,
        splash=True,
        scoring="marks",
        play_out=True,
    ),
}
# Every combination of the options that change play, for the field-by-field view check.
OPTION_VALUES = {
    "count_values": ("seed", "texas"),
    "auction": ("seed", "one-lap"),
    "jump_bids": (False, True),
    "min_bid": (1, 30, 42),
}
ALL_OPTIONS = [
    FortyTwoRules(**dict(zip(OPTION_VALUES, values))) for values in itertools.product(*OPTION_VALUES.values())
]
# Six of them in which every value of each option meets every value of each other option (pairwise cover).
PAIRWISE = [
    FortyTwoRules(count_values=c, auction=a, jump_bids=j, min_bid=m)
    for c, a, j, m in [
        ("seed", "seed", False, 1),
        ("texas", "one-lap", True, 1),
        ("seed", "one-lap", True, 30),
        ("texas", "seed", False, 30),
        ("seed", "one-lap", False, 42),
        ("texas", "seed", True, 42),
    ]
]

SEATINGS = {
    "greedy": lambda: [strategy("forty-two", "greedy")] * 4,
    "heuristic": lambda: [strategy("forty-two", "heuristic")] * 4,
    "scrambled": lambda: [Scrambled()] * 4,
    # different strategies per side exercise the driver's grouping of rows by strategy
    "mixed": lambda: [
        strategy("forty-two", "heuristic:bidder=threshold,threshold=30"),
        Scrambled(salt=3),
        strategy("forty-two", "heuristic:bidder=threshold,threshold=30"),
        strategy("forty-two", "greedy:min_length=3"),
    ],
}


def compare_hands(rules: FortyTwoRules, seats, n: int, seed: int) -> tuple[core.HandState, list]:
    """n hands through the batched core and the reference engine (`simulator.testing`), asserted alike move
    for move and score for score; the finished states and the reference's records."""
    played = testing.play_both(GAME, rules, seats, n, seed=seed)
    assert testing.check_agreement(played) == n
    assert played.records is not None
    return played.states[0], played.records[0]


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference(rules: str, seating: str) -> None:
    compare_hands(RULES[rules], SEATINGS[seating](), n=80, seed=stable_hash(f"{rules}{seating}"))


def _rules_id(r: FortyTwoRules) -> str:
    return f"{r.count_values}-{r.auction}-{r.jump_bids}-{r.min_bid}"


def test_the_fast_rule_combinations_cover_every_pair_of_option_values() -> None:
    assert len(set(ALL_OPTIONS)) == 24 and set(PAIRWISE) <= set(ALL_OPTIONS)
    for (x, xs), (y, ys) in itertools.combinations(OPTION_VALUES.items(), 2):
        met = {(getattr(r, x), getattr(r, y)) for r in PAIRWISE}
        assert met == set(itertools.product(xs, ys)), (x, y)


@pytest.mark.parametrize("rules", PAIRWISE, ids=_rules_id)
def test_rule_combinations_show_the_same_views(rules: FortyTwoRules) -> None:
    compare_hands(rules, [ViewHash()] * 4, n=100, seed=stable_hash(_rules_id(rules)))


@pytest.mark.parametrize("rules", ["texas", "texas-house", "points-specials", "marks-play-out"])
def test_texas_rules_show_the_same_views(rules: str) -> None:
    state, records = compare_hands(RULES[rules], [ViewHash()] * 4, n=200, seed=stable_hash(f"views {rules}"))
    played = [r for r in records if not r.thrown_in]
    assert played  # and the cases are not vacuous: the special contracts and declarations occur
    if rules != "texas":
        assert {int(t) for t in state.trump[state.high > 0]} >= {7, 8, 9} - (
            {7} if rules == "marks-play-out" else set()
        )


def _seen(kind: int, view, row: int) -> tuple:
    """What a seat sees at a decision, as a key: its seat, the dealer, its hand, the calls and the plays."""
    calls = view.calls[row, : view.n_calls[row]].tolist()
    plays = view.plays[row, : view.n_played[row]].tolist()
    return (kind, int(view.seat[row]), int(view.dealer[row]), int(view.hand[row]), *calls, -9, *plays)


class OfferedRandom(Random):
    """The random player (the same draws), keeping the legal mask of every decision by what the seat saw."""

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "offered", {})

    def decide(self, kind, view, legal, rng):
        for row in range(len(view)):
            self.offered[_seen(kind, view, row)] = legal[row].copy()
        return uniform_choice(legal, rng)


class OfferedReplay(replay.Replay):
    """Plays back a seat's recorded moves in the reference engine, checking at each decision that the engine
    offers the legal actions the batched core offered."""

    def __init__(self, name: str, decisions: list[tuple[int, int]], offered: dict):
        super().__init__(name, decisions)
        self.offered = offered

    def decide(self, kind, view, legal, rng):
        core_legal = self.offered[_seen(kind, view, 0)]
        assert (legal[0] == core_legal).all(), (
            f"{self.spec}: the reference offers {np.flatnonzero(legal[0]).tolist()}, the core "
            f"{np.flatnonzero(core_legal).tolist()}"
        )
        return super().decide(kind, view, legal, rng)


@pytest.mark.parametrize("preset", ["texas", "texas-house"])
def test_random_seats_up_the_marks_ladder_to_210(preset: str) -> None:
    """Random seats under the marks presets, where the auction climbs to 168 and 210: every decision's legal
    actions alike in both engines (the reference replays the core's moves), the same moves, outcome and
    score; and the case is not vacuous: some auctions pass 168 and some contracts are 210."""
    rules = build(FortyTwoRules, "rule", PRESETS[preset])
    player = OfferedRandom()
    n = 1000
    state = play_deals(
        "forty-two",
        np.random.default_rng(stable_hash(f"ladder {preset}")),
        [np.random.default_rng(stable_hash(f"ladder {preset} {seat}")) for seat in range(4)],
        np.arange(n),
        rules,
        [player] * 4,
    )
    outcomes = GAME.outcomes(state, rules)
    for row in range(n):
        moves = GAME.moves(state, row)
        players = [
            OfferedReplay(f"seat {name}", [(k, a) for k, s, a in moves if s == seat], player.offered)
            for seat, name in enumerate(D.SEATS)
        ]
        hands = [D.bits_to_ids(int(h)) for h in state.dealt[row]]
        record = reference.play_hand(hands, int(state.dealer[row]), rules, players)
        assert record.moves == moves and record.outcome() == tuple(int(x) for x in outcomes[row])
    calls = state.calls
    five_marks = state.bid == 210
    assert ((calls == BID_168).any(axis=1)).sum() >= 10
    assert five_marks.sum() >= 3 and (state.high[five_marks] == BID_210).any()
    assert ((calls == BID_210).any(axis=1) == (state.high == BID_210)).all()  # nothing is bid over a 210
    if preset == "texas-house":  # a plunge or splash over a 168 is a 210 as well
        special = (state.high == PLUNGE) | (state.high == SPLASH)
        assert (five_marks & special).any()
    # 210 is offered exactly over a 168 (a plunge worth 168 included)
    auctions = [(list(key[4:-1]), legal) for key, legal in player.offered.items() if key[0] == CALL]
    assert any(legal[BID_210] for _, legal in auctions)
    assert all(legal[BID_210] <= (reference.high_bid(calls)[0] == 168) for calls, legal in auctions)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=_rules_id)
def test_every_rule_combination_shows_the_same_views(rules: FortyTwoRules) -> None:
    compare_hands(rules, [ViewHash()] * 4, n=300, seed=stable_hash(f"every {_rules_id(rules)}"))


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference_many(rules: str, seating: str) -> None:
    compare_hands(RULES[rules], SEATINGS[seating](), n=5000, seed=stable_hash(f"many {rules}{seating}"))
