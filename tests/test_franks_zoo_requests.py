"""Help requests and what the junior saw when he made them (`simulator.franks_zoo.requests`): a granted
request could always be completed; the counting heuristic makes no request that cards it has not seen could
not complete, and the heuristic that does not count makes some."""

from __future__ import annotations

import numpy as np

from simulator import registry, runner
from simulator.franks_zoo import requests
from simulator.runner import Run

GAME = registry.get("franks-zoo")


def _requests(spec: str) -> requests.Requests:
    rules = GAME.rules()
    run = Run(
        game=GAME, n=25, seed=3, rules=rules, seats=(spec,) * rules.players, unit="match", chunk_size=25
    )
    made: list[requests.Requests] = []
    runner.play_chunk(runner.chunk(run, 0), on_deals=lambda games, s: made.append(requests.made(s)))
    return requests.Requests(
        *(np.concatenate([getattr(m, f) for m in made]) for f in requests.Requests.__annotations__)
    )


def test_counting_asks_only_what_could_be_completed() -> None:
    old, new = _requests("heuristic:count=false"), _requests("heuristic")
    for q in (old, new):
        assert len(q.row) > 200
        assert q.completable[q.granted].all() and q.within_senior[q.granted].all()
        assert (q.within_senior <= q.completable).all()
    assert new.within_senior.all()
    assert 0.1 < 1 - old.completable.mean() < 0.5  # without counting, many requests are sure to be declined
    assert new.granted.mean() > old.granted.mean()


def test_completable_needs_the_cards_among_those_not_seen() -> None:
    from simulator.franks_zoo import cards as C

    lion = int(np.flatnonzero((C.PARTIALS == (C.LION, 1, 0, 0)).all(axis=1))[0])
    fox2 = int(np.flatnonzero((C.SETS == (C.FOX, 2, 0, 0)).all(axis=1))[0])
    hand = np.zeros((3, 13), np.int8)
    hand[:, C.LION] = 1
    played = np.zeros((3, 13), np.int8)
    played[0, C.LION], played[0, C.CHAMELEON] = 4, 1  # nothing left to complete two lions
    played[1, C.LION], played[1, C.CHAMELEON] = 3, 1  # one lion unseen
    played[2, C.LION] = 4  # the chameleon unseen
    got = requests.completable(hand, played, np.full(3, fox2), np.full(3, lion))
    assert got.tolist() == [False, True, True]
    assert requests.completable(hand, played, np.full(3, fox2), np.full(3, lion), np.zeros(3)).tolist() == [
        False,
        False,
        False,
    ]
    chance = requests.odds(hand, played, np.full(3, fox2), np.full(3, lion), np.full(3, 8))
    assert chance[0] == 0 and 0 < chance[1] < 1000 and 0 < chance[2] < 1000


def test_both_engines_ask_alike_when_counting() -> None:
    """The counting heuristic move for move in the batched core (compiled, `decide_packed`) and in the
    reference engine (`decide`, one row at a time), over enough team hands to meet hundreds of requests."""
    from simulator import testing
    from simulator.franks_zoo.rules import FranksZooRules

    rules = FranksZooRules(players=6)
    players = [registry.roster(GAME).make("heuristic")] * rules.players
    both = testing.play_both(GAME, rules, players, 10, unit="match", seed=11)
    assert testing.check_agreement(both) >= 30  # hands
    assert both.tables["deals"]["help_asked"].sum() > 100
