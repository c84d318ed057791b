"""The batched Frank's Zoo core against the reference engine: the same deals, the same deterministic
strategies, decision for decision and point for point, for 4 to 7 players; the per-hand table against what
the reference engine played; and the bookkeeping of whole games (standings, dealers, totals, the end and the
winner) against the reference engine's rules.

Each case is played once per module (a module-scoped fixture: every round of hands of its games, the
tables, and the reference engine's record of every hand) and shared by the tests below."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pytest

from simulator import registry, testing
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core, reference
from simulator.franks_zoo.game import Games
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.tables import ROLE_NAMES, SOURCES
from simulator.franks_zoo.view import ANSWER, ASK, PLAY
from simulator.testing import ViewHash
from tests.helpers import stable_hash, strategy

# every test of a case on the worker that played it: the module-scoped case fixture is played once, not on
# both workers
pytestmark = pytest.mark.xdist_group("franks-zoo-equivalence")

GAME = registry.get("franks-zoo")


SEATINGS = {
    "greedy": lambda p: [strategy("franks-zoo", "greedy")] * p,
    "fieldhash": lambda p: [ViewHash()] * p,
    "mixed": lambda p: [strategy("franks-zoo", "greedy"), ViewHash()] * (p // 2) + [ViewHash()] * (p % 2),
}
GAMES = {"greedy": 9, "fieldhash": 7, "mixed": 7}  # games per case in the fast suite
GAMES_SLOW = 600  # games per case with -m slow

# case name -> (rules, seating)
CASES = {f"{p}/{seating}": (FranksZooRules(players=p), seating) for p in (4, 5, 6, 7) for seating in SEATINGS}
OPTIONS = {
    "rulebook": {"hedgehog_penalty": "missing", "exchange_cards": 3, "lion_min": 1},
    "no-help": {"help": False, "exchange_cards": 0, "solo_bonus": 0},
    # a solo player dealt 8 cards sets them all aside and is out at once
    "solo-out-at-once": {"players": 7, "exchange_cards": 8},
}
CASES |= {
    f"5/{name}": (FranksZooRules(**{"players": 5, **options}), "fieldhash")
    for name, options in OPTIONS.items()
}


@dataclass
class Played:
    rules: FranksZooRules
    strategies: list
    states: list[core.HandState]  # per round of hands: the finished hands of the games still going
    deals: Any  # the per-player-per-hand table
    matches: Any  # the per-game table
    records: list[
        list[reference.HandRecord]
    ]  # per round, per row: the reference engine's record of that hand
    both: testing.Played

    def by_game(self) -> dict[int, list[tuple[core.HandState, int, reference.HandRecord]]]:
        """game -> its hands in order, each as (state, row, reference record)."""
        games = defaultdict(list)
        for state, records in zip(self.states, self.records):
            for row, record in enumerate(records):
                games[int(state.deal[row])].append((state, row, record))
        return games


def play_case(rules: FranksZooRules, seating: str, n: int, seed: int) -> Played:
    """n whole games through both engines (`simulator.testing`): every round of hands."""
    strategies = SEATINGS[seating](rules.players)
    both = testing.play_both(GAME, rules, strategies, n, unit="match", seed=seed)
    assert both.records is not None
    deals, matches = both.tables["deals"], both.tables["matches"]
    return Played(rules, strategies, both.states, deals, matches, both.records, both)


@pytest.fixture(scope="module", params=list(CASES))
def played(request) -> Played:
    rules, seating = CASES[request.param]
    return play_case(rules, seating, GAMES[seating], stable_hash(f"franks-zoo/{request.param}"))


def check_hands(p: Played) -> int:
    """Every hand against the reference engine's record of it, decision for decision, and its points by
    source; how many hands."""
    checked = testing.check_agreement(p.both)
    for state, records in zip(p.states, p.records, strict=True):
        points = core.hand_points(state, p.rules)
        for row, record in enumerate(records):
            for source in (*SOURCES, "total"):
                assert list(record.points[source]) == points[source][row].tolist(), (
                    f"game {int(state.deal[row])}"
                )
    return checked


def test_hands_equal_the_reference(played: Played) -> None:
    checked = check_hands(played)
    assert checked == len(played.deals) // played.rules.players
    assert checked > 2 * len(played.matches)  # team hands, not only first hands


def help_won(record: reference.HandRecord, players: int) -> list[int]:
    """Per seat: tricks taken with a set the senior helped to lay."""
    won = [0] * players
    for trick in record.tricks:
        laid = [
            (seat, action >= ASK)
            for seat, action, reply in trick.plays
            if 1 <= action < ASK or (action >= ASK and reply > 0)
        ]
        seat, helped = laid[-1]
        assert seat == trick.taker
        won[seat] += helped
    return won


def test_the_hand_table_tells_what_the_reference_engine_played(played: Played) -> None:
    p = played.rules.players
    rows = {(r["match"], r["number"], r["player"]): r for r in played.deals.to_dict("records")}
    assert len(rows) == len(played.deals)
    assert list(played.deals.columns[:3]) == ["match", "number", "player"]
    seen = 0
    for game, hands in played.by_game().items():
        for _state, _row, record in hands:
            number = record.hand_no + 1
            won = help_won(record, p)
            for s in range(p):
                moves = [(kind, action) for kind, seat, action in record.moves if seat == s]
                expected = {
                    "place": record.places[s],
                    "role": ROLE_NAMES[record.roles[s]],
                    "partner": record.partners[s],
                    "dealer": record.dealer,
                    **{f"points_{k}": record.points[k][s] for k in SOURCES},
                    "points": record.total[s],
                    "lions_taken": record.taken[s][C.LION],
                    "hedgehogs_taken": record.taken[s][C.HEDGEHOG],
                    "help_asked": sum(k == PLAY and a >= ASK for k, a in moves),
                    "help_given": sum(k == ANSWER and a > 0 for k, a in moves),
                    "help_declined": sum(k == ANSWER and a == 0 for k, a in moves),
                    "help_won": won[s],
                    "total_before": record.scores[s],
                    "total_after": record.scores[s] + record.total[s],
                }
                got = rows[game, number, s]
                assert {k: (str(got[k]) if k == "role" else int(got[k])) for k in expected} == expected, (
                    f"game {game}, hand {number}, seat {s}"
                )
                seen += 1
    assert seen == len(played.deals)


def test_games_follow_the_rules(played: Played) -> None:
    """Game k's first hand: dealt by k % players, standings 0..N-1, no points; every next hand: dealt by the
    first in the standings of the totals so far; the game ends after the first hand that brings end_players
    players to the target, won by the first in the standings."""
    rules, p = played.rules, played.rules.players
    games = played.by_game()
    table = played.matches.set_index("match")
    assert sorted(games) == table.index.tolist() == list(range(len(table)))
    assert list(played.matches.columns) == [
        "match",
        "first_dealer",
        "deals",
        "winner",
        *[f"final_{i}" for i in range(p)],
    ]
    for game, hands in games.items():
        totals, order = [0] * p, list(range(p))
        for number, (_state, _row, record) in enumerate(hands):
            assert record.hand_no == number
            assert record.dealer == (game % p if number == 0 else order[0])
            assert record.order == order and record.scores == totals
            assert not reference.game_over(totals, rules)
            totals = [t + x for t, x in zip(totals, record.total)]
            order = reference.standings(totals, order)
        m = table.loc[game]
        assert int(m["first_dealer"]) == game % p and m["deals"] == len(hands)
        assert [m[f"final_{i}"] for i in range(p)] == totals
        if reference.game_over(totals, rules):
            assert int(m["winner"]) == order[0]
        else:  # only the guard against endless games stops a game short of its end
            assert len(hands) == Games.max_deals and pd.isna(m["winner"])


def test_every_case_reaches_what_it_is_there_for(played: Played) -> None:
    """The cases are not vacuous: team hands with help asked and answered (where help is allowed), lions
    and hedgehogs scored, and with 8 exchange cards a solo player out at once."""
    rules = played.rules
    records = [r for rs in played.records for r in rs]
    moves = [m for r in records for m in r.moves]
    asked = sum(kind == PLAY and action >= ASK for kind, _, action in moves)
    answered = sum(kind == ANSWER and action > 0 for kind, _, action in moves)
    assert (asked > 0 and answered > 0) if rules.help else asked == 0
    assert any(any(r.lions) for r in records) and any(any(r.hedgehog) for r in records)
    if rules.exchange_cards == 8:
        assert any(sum(r.set_aside[r.out_order[0]]) == 8 for r in records if r.hand_no)


def test_fieldhash_chooses_alike_on_one_row_and_on_many() -> None:
    rules = FranksZooRules(players=5)
    state = GAME.deal(np.random.default_rng(5), np.arange(40), rules)
    compared = 0
    while (state.phase != GAME.done).any():
        rows = np.flatnonzero(state.phase == 1)  # PLAY: the first hand has no exchange
        if not len(rows):
            break
        view, legal = GAME.inputs(state, rows, 1, rules)
        want = ViewHash.batched(view, legal)
        one_by_one = [
            int(ViewHash().decide(1, view.take([i]), legal[i : i + 1], None)[0]) for i in range(len(rows))
        ]
        assert one_by_one == want.tolist()
        compared += len(rows)
        GAME.apply(state, rows, 1, want, rules)
    assert compared > 1000


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6, 7])
@pytest.mark.parametrize("seating", list(SEATINGS))
def test_batched_core_equals_reference_many(players: int, seating: str) -> None:
    rules = FranksZooRules(players=players)
    played = play_case(rules, seating, GAMES_SLOW, stable_hash(f"franks-zoo-many/{players}/{seating}"))
    assert check_hands(played) > 2 * GAMES_SLOW
