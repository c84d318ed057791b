"""The batched Frank's Zoo core: tables against the reference engine's rules, dealing, standings, teams."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import registry
from simulator.errors import DealsimError
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core, reference
from simulator.franks_zoo.game import GAME
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import JUNIOR, PLAY, SENIOR, SOLO, placement_points


def test_beats_and_completes_tables_agree_with_the_rules_as_written() -> None:
    for t in range(C.N_SETS):
        for s in range(C.N_SETS):
            assert C.BEATS[t, s] == reference.beats(C.SETS[t].tolist(), C.SETS[s].tolist()), (t, s)
    for p in range(C.N_PARTIALS):
        for s in range(C.N_SETS):
            assert C.COMPLETES[p, s] == reference.completes(C.PARTIALS[p].tolist(), C.SETS[s].tolist()), (
                p,
                s,
            )


def test_exactly_one_more_or_the_same_size_of_a_predator() -> None:
    def idx(kind, real, cham=0, mosq=0):
        return next(i for i, row in enumerate(C.SETS.tolist()) if row == [kind, real, cham, mosq])

    two_mice = idx(C.MOUSE, 2)
    assert C.BEATS[two_mice, idx(C.MOUSE, 3)] and not C.BEATS[two_mice, idx(C.MOUSE, 4)]
    assert C.BEATS[two_mice, idx(C.HEDGEHOG, 2)] and C.BEATS[two_mice, idx(C.HEDGEHOG, 1, cham=1)]
    assert not C.BEATS[two_mice, idx(C.HEDGEHOG, 3)]  # a larger set of a predator does not beat
    one_elephant = idx(C.ELEPHANT, 1)
    assert C.BEATS[one_elephant, idx(C.ELEPHANT, 1, mosq=1)]  # elephant + mosquito = 2 elephants
    assert C.BEATS[idx(C.ELEPHANT, 2), idx(C.ELEPHANT, 1, cham=1, mosq=1)]
    assert not any(
        C.BEATS[idx(C.WHALE, n), s] for n in range(1, 6) for s in range(C.N_SETS) if C.SETS[s, 0] != C.WHALE
    )  # nothing beats whales but more whales
    assert not (C.SETS[:, 1] == 0).any()  # the chameleon (and a mosquito joining elephants) never alone


@pytest.mark.parametrize(
    "players,sizes", [(4, [15] * 4), (5, [12] * 5), (6, [10] * 6), (7, [9, 9, 9, 9, 8, 8, 8])]
)
def test_every_card_dealt_once_and_deal_sizes(players: int, sizes: list[int]) -> None:
    dealer = np.full(2000, players - 1, np.int8)  # the dealer's left is seat 0
    hands = core.shuffled_hands(np.random.default_rng(players), dealer, players)
    assert (hands.sum(axis=1) == C.DECK).all()
    assert (hands.sum(axis=2) == sizes).all()
    assert hands.sum(axis=2).tolist()[0] == reference.deal_sizes(players, players - 1)


def _numpy_deal(rng: np.random.Generator, dealer: np.ndarray, players: int) -> np.ndarray:
    """The deal written with numpy: `rng.permuted` over rows of the deck, dealt in blocks from the dealer's
    left (the first 60 % P blocks one card larger)."""
    deck = rng.permuted(
        np.broadcast_to(np.repeat(np.arange(C.N_KINDS), C.DECK), (len(dealer), C.N_CARDS)), axis=1
    )
    out = np.zeros((len(dealer), players, C.N_KINDS), np.int8)
    base, extra = divmod(C.N_CARDS, players)
    for r, d in enumerate(dealer):
        pos = 0
        for b in range(players):
            size = base + (b < extra)
            np.add.at(out[r, (d + 1 + b) % players], deck[r, pos : pos + size], 1)
            pos += size
    return out


@pytest.mark.parametrize("players", [4, 5, 7])
def test_compiled_deal_is_numpys_permuted(players: int) -> None:
    """The compiled shuffle draws as `rng.permuted` does and leaves the Generator where it does; `rows`
    keeps some rows' hands of the same draws."""
    dealer = (np.arange(300) % players).astype(np.int8)
    ours, numpys = np.random.default_rng(players), np.random.default_rng(players)
    hands = core.shuffled_hands(ours, dealer, players)
    np.testing.assert_array_equal(hands, _numpy_deal(numpys, dealer, players))
    assert ours.random() == numpys.random()
    rows = np.array([3, 10, 299])
    again = core.shuffled_hands(np.random.default_rng(players), dealer, players, rows)
    np.testing.assert_array_equal(again, hands[rows])


def test_standings_break_ties_for_the_player_who_stood_worse() -> None:
    # the seed: Harry (seat 0) had 1 point, Steve (seat 1) 2; both now have 7: Harry ranks ahead
    before = np.array([[2, 1, 0, 3, 4]], np.int8)  # Steve stood ahead of Harry
    totals = np.array([[7, 7, 9, 3, 1]])
    order = core.standings(totals, before)
    assert order.tolist() == [[2, 0, 1, 3, 4]]
    assert order.tolist()[0] == reference.standings(totals[0].tolist(), before[0].tolist())


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_teams_from_the_standings(players: int) -> None:
    order = np.random.default_rng(players).permutation(players).astype(np.int8)[None, :]
    role, partner, schedule = core.teams(order, FranksZooRules(players=players))
    roles, partners = reference.teams(order[0].tolist(), players)
    assert role[0].tolist() == roles and partner[0].tolist() == partners
    ranks = order[0].tolist()
    if players == 5:  # 1+4, 2+5, 3 solo
        assert (
            partner[0, ranks[0]] == ranks[3]
            and partner[0, ranks[1]] == ranks[4]
            and role[0, ranks[2]] == SOLO
        )
        assert role[0, ranks[0]] == SENIOR and role[0, ranks[3]] == JUNIOR
    assert schedule.shape[1] == 2 * players


def test_placement_points() -> None:
    assert placement_points(np.arange(1, 6), 5).tolist() == [5, 4, 3, 2, 0]
    assert placement_points(np.arange(1, 8), 7).tolist() == [7, 6, 5, 4, 3, 2, 0]


@pytest.mark.parametrize("players", [4, 7])
def test_first_hands_are_dealt_by_number(players: int) -> None:
    rules = FranksZooRules(players=players)
    deals = np.arange(10, 10 + 3 * players)
    s = GAME.deal(np.random.default_rng(players), deals, rules)
    assert s.deal.tolist() == deals.tolist() and (s.hand_no == 0).all()
    assert (s.dealer == deals % players).all()
    assert (s.order == np.arange(players)).all() and (s.scores == 0).all()
    assert (s.phase == PLAY).all()
    for row in range(len(s)):
        assert s.dealt[row].sum(axis=1).tolist() == reference.deal_sizes(players, int(s.dealer[row]))
        assert (s.dealt[row].sum(axis=0) == C.DECK).all()
    assert GAME.seat_names(rules) == tuple(str(i) for i in range(players))


def test_the_game_and_its_unit_words() -> None:
    game = registry.get("franks-zoo")
    rules = game.rules(overrides=["players=6"])
    assert game.seat_names(rules) == ("0", "1", "2", "3", "4", "5") and game.rows_per_deal(rules) == 6
    assert game.unit(None) == "match" and game.unit("game") == game.unit("match") == "match"
    assert game.unit("hand") == game.unit("deal") == "deal"
    assert game.plural("deal") == "hands" and game.plural("match") == "games"
    with pytest.raises(DealsimError, match="franks-zoo has no unit 'round'"):
        game.unit("round")
