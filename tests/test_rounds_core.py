"""The batched Rounds core: dealing, following, trick winners, sweeps and scores."""

from __future__ import annotations

import numpy as np
import pytest

from simulator import driver, registry
from simulator.errors import DealsimError
from simulator.rounds import cards as C
from simulator.rounds import core, fifth
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, PLAY
from strategies.base import uniform_choice
from tests.helpers import play_deals, strategy

RULES = RoundsRules()


def random_games(n: int, rules: RoundsRules = RULES, seed: int = 1) -> core.GameState:
    rng = np.random.default_rng(seed)
    return play_deals("rounds", rng, [rng] * 2, np.arange(n), rules, [strategy("rounds", "random")] * 2)


def step(s: core.GameState, cards: list[str] | None = None, rng=None) -> None:
    """Play one card in every game: the given ones, or random legal ones."""
    _, legal = core.inputs(s, slice(None), 0, RULES)
    actions = uniform_choice(legal, rng) if cards is None else np.array([C.parse_card(c) for c in cards])
    assert legal[np.arange(len(s)), actions].all(), "illegal test move"
    core.apply(s, slice(None), 0, actions, RULES)


def one_game(non_dealer: str, dealer: str, face_up: str, rules: RoundsRules = RULES) -> core.GameState:
    """A game with these stage-1 hands and face-up card (player 1 deals); the rest of the deck follows."""
    a, b = [C.parse_card(c) for c in non_dealer.split()], [C.parse_card(c) for c in dealer.split()]
    up = C.parse_card(face_up)
    rest = [c for c in range(52) if c not in a + b + [up]]
    deck = np.array([[x for pair in zip(a, b) for x in pair] + [up] + rest], dtype=np.int8)
    shuffles = np.concatenate([np.arange(k, dtype=np.int8) for k in core.SHUFFLE_SIZES])[None, :]
    return core.new_games(np.array([0]), np.array([1]), deck, shuffles, rules)


def legal_cards(s: core.GameState, rules: RoundsRules = RULES) -> set[str]:
    _, legal = core.inputs(s, slice(None), 0, rules)
    return {C.name(c) for c in np.flatnonzero(legal[0])}


HAND_0 = "2C 7C 3D 4D 8D 6H 7H AH AS"
HAND_1 = "8C 2D 5D 7D 2H 3S 5S 8S 9S"


def test_stage_one_deal_and_lead() -> None:
    s = one_game(HAND_0, HAND_1, "JC")
    assert s.hands[0, 0] == sum(1 << C.parse_card(c) for c in HAND_0.split())
    assert s.turn[0] == 0 and s.dealer[0] == 1 and s.face_up[0].tolist() == [C.parse_card("JC"), -1]


def test_follow_suit_trumps_and_the_trick_winner() -> None:
    s = one_game(HAND_0, HAND_1, "JC")  # clubs trump
    step(s, ["3D"])
    assert legal_cards(s) == {"2D", "5D", "7D"}
    step(s, ["5D"])
    assert s.leader[0] == 1 and s.stage_tricks[0].tolist() == [0, 1]
    step(s, ["2H"])
    assert legal_cards(s) == {"6H", "7H", "AH"}
    step(s, ["AH"])
    assert s.leader[0] == 0 and s.stage_points[0].tolist() == [14, 0]  # the 2 is 10 and the ace 4
    step(s, ["AS"])  # 1 holds spades: must follow
    assert legal_cards(s) == {"3S", "5S", "8S", "9S"}
    step(s, ["9S"])
    step(s, ["4D"])  # 1 has 7D left: must follow
    step(s, ["7D"])
    step(s, ["8C"])  # clubs are trumps: 0 must answer with 2C or 7C, neither beats 8C
    assert legal_cards(s) == {"2C", "7C"}


def test_a_void_player_may_trump_and_the_trump_takes_the_trick() -> None:
    s = one_game(HAND_0, HAND_1, "JS")  # spades trump
    step(s, ["6H"])
    assert legal_cards(s) == {"2H"}
    step(s, ["2H"])
    assert s.leader[0] == 0 and s.stage_points[0].tolist() == [10, 0]
    step(s, ["7H"])
    assert legal_cards(s) == {"8C", "2D", "5D", "7D", "3S", "5S", "8S", "9S"}  # void in hearts: anything
    step(s, ["3S"])
    assert s.leader[0] == 1  # the lowest trump beats the led suit


def test_rank_trumps_beat_the_trump_suit_and_do_not_follow_their_printed_suit() -> None:
    rules = RoundsRules(rank_trumps=True)
    s = one_game(HAND_0, HAND_1, "7S", rules)  # spades trump; 7C, 7H (player 0) and 7D (player 1) rank trumps
    step(s, ["AS"])
    assert legal_cards(s, rules) == {"7D", "3S", "5S", "8S", "9S"}  # trumps led: a trump or a rank trump
    step(s, ["7D"])
    assert s.leader[0] == 1  # a rank trump beats the ace of trumps
    step(s, ["2H"])
    assert legal_cards(s, rules) == {"6H", "AH"}  # 7H is a trump now, not a heart


def test_stage_five_deals_one_card_each_and_turns_up_two() -> None:
    rng = np.random.default_rng(4)
    s = core.new_games(np.arange(500), np.arange(500) % 2, *core.draw(rng, 500), RULES)
    for _ in range(40):
        step(s, rng=rng)
    assert (s.stage == 4).all() and (np.bitwise_count(s.hands) == 5).all()
    assert (s.face_up >= 0).all() and (s.stock == -1).all()
    first = C.context(s.face_up[:, 0], False)
    assert (s.ctx == first).all()  # tricks 1-4 of stage 5 under the first face-up card
    for _ in range(8):
        step(s, rng=rng)
    assert (s.ctx == C.context(s.face_up[:, 1], False)).all()  # trick 5 under the second
    step(s, rng=rng)
    step(s, rng=rng)
    assert (s.phase == 1).all()


@pytest.mark.parametrize(
    "rules", [RULES, RoundsRules(rank_trumps=True, dealer_rotation="game", sweep_bonus=30)]
)
def test_every_card_once_sweeps_and_stage_points(rules: RoundsRules) -> None:
    s = random_games(20_000, rules)
    up = C.BIT[s.face_up[:, 0]] | C.BIT[s.face_up[:, 1]]
    assert (s.played | up == C.ALL).all() and (s.played & up == 0).all()
    assert all(len(set(row)) == 50 for row in s.plays[:200].tolist())  # no card played twice
    assert (np.bitwise_count(s.played) == 50).all()
    points = rules.points_by_rank[C.RANK]
    assert points.sum() == 80
    stage_cards = points[s.plays.astype(int)].reshape(-1, 5, 10).sum(axis=2)
    swept = s.tricks.max(axis=2) == 5
    # a sweep scores the bonus and nothing else; otherwise the two scores are the ten cards' points
    assert (s.stage_score[swept].max(axis=1) == rules.sweep_bonus).all()
    assert (s.stage_score[swept].min(axis=1) == 0).all()
    assert (s.stage_score.sum(axis=2)[~swept] == stage_cards[~swept]).all()
    assert (s.taken.sum(axis=2) == stage_cards).all()
    # the rules file's case: a sweep whose cards hold a 2 and an ace scores the bonus, not 14
    rich = swept & (s.taken.max(axis=2) >= 14)
    assert rich.any() and (s.stage_score[rich].max(axis=1) == rules.sweep_bonus).all()
    assert (s.points == s.stage_score.sum(axis=1)).all()


def test_games_are_dealt_by_number_and_the_unit_words() -> None:
    game = registry.get("rounds")
    s = random_games(300)
    assert s.deal.tolist() == list(range(300)) and (s.first_dealer == np.arange(300) % 2).all()
    assert (s.scores == 0).all()
    assert game.unit(None) == "deal" and game.unit("game") == game.unit("deal") == "deal"
    assert (
        game.unit("match") == "match" and game.plural("deal") == "games" and game.plural("match") == "matches"
    )
    with pytest.raises(DealsimError, match="rounds has no unit 'hand'"):
        game.unit("hand")


@pytest.mark.parametrize(
    "rules",
    [RULES, RoundsRules(rank_trumps=True, dealer_rotation="game")],
    ids=["seed", "rank-trumps/game-dealer"],
)
def test_games_out_of_step_end_as_games_in_step(rules: RoundsRules) -> None:
    """The driver keeps Rounds games in step, so `apply`'s paths for rows at different plays, at different
    tricks or stages, a step mixing leads and replies, and a stage dealt to some rows only, never run there;
    nor does the heuristic's scoring of leads and replies together. Here each step plays a random part of the
    unfinished games (the mask path and the bit path in turn): a deterministic strategy must end every game
    exactly as when all play in step."""
    g = registry.get("rounds")
    heuristic = strategy("rounds", "heuristic")

    def deal():
        return g.deal(np.random.default_rng(5), np.arange(300), rules)

    in_step = driver.play(g, deal(), rules, [heuristic] * 2, [np.random.default_rng(0)] * 2)
    s, pick = deal(), np.random.default_rng(1)
    seen = set()
    for k in range(1000):
        rows = np.flatnonzero((s.phase != DONE) & (pick.random(len(s)) < 0.6))
        if not (s.phase != DONE).any():
            break
        if not len(rows):
            continue
        led = s.led[rows] >= 0
        seen |= {
            name
            for name, yes in (
                ("plays", np.unique(s.n_played[rows]).size > 1),
                ("stages", np.unique(s.stage[rows]).size > 1),
                ("mixed", led.any() and not led.all()),
            )
            if yes
        }
        if k % 2:
            view, legal = g.inputs(s, rows, PLAY, rules)
            actions = heuristic.decide(PLAY, view, legal, None)
        else:
            view, words, _ = g.packed_inputs(s, rows, PLAY, rules)
            actions = heuristic.decide_packed(PLAY, view, words, None)
        g.apply(s, rows, PLAY, actions, rules)
    assert {"plays", "stages", "mixed"} <= seen
    assert np.array_equal(s.plays, in_step.plays) and np.array_equal(s.points, in_step.points)
    assert g.table(s, rules).equals(g.table(in_step, rules))


@pytest.mark.parametrize("n", [1, 3, 500])
def test_compiled_draws_are_numpys(n: int) -> None:
    """The compiled deck and stage shuffles are `rng.permuted`'s, and leave the Generator where it does."""
    ours, numpys = np.random.default_rng(n), np.random.default_rng(n)
    deck, shuffles = core.draw(ours, n)
    np.testing.assert_array_equal(deck, numpys.permuted(np.broadcast_to(np.arange(52), (n, 52)), axis=1))
    expected = [numpys.permuted(np.broadcast_to(np.arange(k), (n, k)), axis=1) for k in core.SHUFFLE_SIZES]
    np.testing.assert_array_equal(shuffles, np.concatenate(expected, axis=1))
    assert ours.integers(2**62) == numpys.integers(2**62)
    assert ours.random() == numpys.random()


@pytest.mark.parametrize("rules", [RULES, RoundsRules(rank_trumps=True, dealer_rotation="game")])
def test_compiled_fifth_trick_calls_are_numpys(rules: RoundsRules) -> None:
    s = random_games(2000, rules, seed=3)
    args = (s.dealt, s.plays, s.trick_winners, s.faces, rules.rank_trumps)
    calls = fifth.fifth_trick_calls(*args)
    np.testing.assert_array_equal(calls, fifth.fifth_trick_calls_numpy(*args))
    assert len(np.unique(calls)) == 5  # every way a fifth trick is decided, and stages not at stake
