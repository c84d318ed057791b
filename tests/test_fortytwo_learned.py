"""The learned Forty-two strategy: its features, its fits and a retrain from scratch at a tiny size. (The game
contract's checks cover it as a registered strategy: view-only decisions, legal moves, secrecy.)"""

from __future__ import annotations

import numpy as np
import pytest

from simulator import registry
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from strategies import fortytwo_learned as L


def test_bid_features_count_what_the_hand_holds() -> None:
    hands = core.shuffled_hands(np.random.default_rng(3), 40)[:, 1]
    count = D.COUNT_POINTS["texas"]
    f = L.bid_features(hands, "texas")
    for i, hand in enumerate(hands.tolist()):
        held = [d for d in range(D.N_DOMINOES) if hand >> d & 1]
        for k, c in enumerate(L._DECLARATION_CTX):
            trumps = [d for d in held if D.IS_TRUMP[c, d]]
            sure = [d for d in held if not D.IS_TRUMP[c, d] and int(L._BEATS_OFF_LEAD[c, d]) & ~hand == 0]
            rest = [d for d in held if d not in trumps and d not in sure]
            assert f[i, k, 3] == len(trumps)
            assert f[i, k, 6] == sum(1 for d in held if D.IS_DOUBLE[d] and d not in trumps)
            assert f[i, k, 7] == len(sure)
            assert f[i, k, 8] == sum(int(count[d]) for d in rest)
            assert f[i, k, 9] == sum(int(count[d]) for d in trumps)
            assert f[i, k, 10] == sum(int(count[d]) for d in sure)
            run = 0
            for d in L._TRUMP_ORDER[c]:
                if not (D.IS_TRUMP[c, d] and hand >> int(d) & 1):
                    break
                run += 1
            assert f[i, k, 5] == run
    w = np.arange(len(L.BID_FEATURES), dtype=np.float64)
    assert np.allclose(L.bid_points(hands, "texas", w), f @ w)


def test_the_play_fit_recovers_differences_within_decisions() -> None:
    from strategies.fortytwo_learned_fit import PlayData, choice_agreement, fit_play

    rng = np.random.default_rng(0)
    truth = rng.normal(size=L.N_PLAY_WEIGHTS)
    groups = np.repeat(np.arange(3000), 3)
    starts = np.cumsum([0, *L._SIZES])[:-1]
    # a few cells of each table (the fit solves only for the cells the data reaches)
    index = starts + rng.integers(0, np.minimum(L._SIZES, 12), size=(len(groups), len(L._SIZES)))
    value = truth[index].sum(axis=1) + rng.normal(size=3000)[groups] * 10  # a decision's own level
    data = PlayData(index, value, groups)
    w = fit_play(data, ridge=1e-3)
    best_share, loss = choice_agreement(data, w)
    assert best_share > 0.95 and loss < 0.05


def test_unknown_parameters_are_refused() -> None:
    roster = registry.roster("forty-two")
    assert roster.make("learned:make_chance=0.7").make_chance == 0.7
    with pytest.raises(DealsimError, match="threshold"):
        roster.make("learned:threshold=30")


@pytest.mark.xdist_group("fortytwo-solver")
def test_a_tiny_retrain_makes_a_loadable_model(tmp_path) -> None:
    from strategies.fortytwo_learned_fit import train

    model, figures = train(seed=5, bid_deals=30, play_hands=8, command="test")
    path = tmp_path / "model.npz"
    L.save_model(path, model)
    again = L.load_model(path)
    assert again.metadata["seed"] == 5 and again.metadata["bid_features"] == list(L.BID_FEATURES)
    assert again.play_weights.shape == (L.N_PLAY_WEIGHTS,) and np.isfinite(again.play_weights).all()
    assert np.isfinite(again.bid_weights).all() and again.bid_sigma > 0
    assert figures["play_rows"] > 0


def test_the_shipped_model_loads_and_is_small() -> None:
    model = L.load_model()
    assert L.MODEL_PATH.stat().st_size < 2_000_000
    for key in ("seed", "bid_deals", "play_hands", "command", "bid_features", "play_tables"):
        assert key in model.metadata


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("texas", ()),
        ("texas-house", ("sevens=true",)),
        ("seed", ("all_pass=dealer_forced", "jump_bids=true", "min_bid=34", "count_values=texas")),
    ],
)
def test_it_plays_under_other_rules(preset: str, overrides: tuple[str, ...]) -> None:
    from simulator.runner import Run, execute

    game = registry.get("forty-two")
    rules = game.rules(preset, overrides=list(overrides))
    result = execute(Run(game, 400, 3, rules, ("learned",) * 4, "deal", 400), jobs=1, summarize=False)
    hands = result.tables["deals"]
    played = hands[~hands["thrown_in"]]
    assert len(played) > 100
    assert (played["bid"] >= rules.min_bid).all()


def test_the_suits_shown_out_are_the_expert_samplers() -> None:
    from simulator.fortytwo.rules import FortyTwoRules
    from simulator.fortytwo.view import CALL, PLAY, TRUMP
    from strategies import fortytwo_sampling as S
    from strategies.base import uniform_choice
    from strategies.fortytwo import Heuristic
    from strategies.fortytwo_learned_kernels import shown_out

    rules = FortyTwoRules(declarations="pips,doubles,no-trump")
    rng = np.random.default_rng(0)
    s, bidder, checked = core.deal(rng, np.arange(60)), Heuristic(), 0
    while (s.phase <= PLAY).any():
        for kind in (CALL, TRUMP, PLAY):
            rows = np.flatnonzero(s.phase == kind)
            if not len(rows):
                continue
            view, legal = core.inputs(s, rows, kind, rules)
            if kind == PLAY:
                out = shown_out(view.plays, view.n_played, view.ctx, view.high_bidder)
                for j in range(len(rows)):
                    contract = (int(view.ctx[j]), int(view.high_bidder[j]), -1)
                    plays = view.plays[j].astype(np.int64)
                    _, forbid = S.shown(plays, int(view.n_played[j]), contract, S.TABLES)
                    assert np.array_equal(forbid.astype(np.uint32), out[j])
                    checked += 1
                action = uniform_choice(legal, rng)  # random play shows out more often
            else:
                action = np.asarray(bidder.decide(kind, view, legal, rng), np.intp)
            core.apply(s, rows, kind, action, rules)
    assert checked > 500


def test_the_compiled_play_takes_the_best_sum_of_the_play_index_weights() -> None:
    from simulator.fortytwo.rules import FortyTwoRules
    from simulator.fortytwo.view import CALL, PLAY, TRUMP
    from strategies.base import best_of_bits, uniform_choice
    from strategies.fortytwo import Heuristic

    rng = np.random.default_rng(1)
    weights = rng.normal(size=L.N_PLAY_WEIGHTS).round(1)  # rounded: ties happen, the lowest domino takes them
    bidder, checked = Heuristic(), 0
    for rules in (FortyTwoRules(declarations="pips,doubles,no-trump"), FortyTwoRules(count_values="texas")):
        s = core.deal(rng, np.arange(200))
        while (s.phase <= PLAY).any():
            for kind in (CALL, TRUMP, PLAY):
                rows = np.flatnonzero(s.phase == kind)
                if not len(rows):
                    continue
                view, legal = core.inputs(s, rows, kind, rules)
                if kind == PLAY:
                    bits = np.asarray((legal * (1 << np.arange(D.N_DOMINOES))).sum(axis=1), np.uint32)
                    p = L.play_rows(view)

                    def score(position, bit, p=p):
                        return sum(weights[idx] for idx in L.play_index(p, position))

                    assert np.array_equal(L.choose_plays(view, bits, weights), best_of_bits(bits, score))
                    checked += len(rows)
                    action = uniform_choice(legal, rng)
                else:
                    action = np.asarray(bidder.decide(kind, view, legal, rng), np.intp)
                core.apply(s, rows, kind, action, rules)
    assert checked > 2000
