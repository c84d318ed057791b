"""The Rounds stage solver against a plain exhaustive minimax written from the rules file, on random stage
positions under every rule option; hand-built stages; values along played games (no player's own play
raises his value); and the play-quality measure of `simulate rounds --measure play-quality`."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from simulator import app
from simulator.rounds import reference as R
from simulator.rounds import solver
from simulator.rounds.cards import parse_card
from simulator.rounds.rules import RoundsRules
from simulator.specs import Execution, RunSpec
from tests.helpers import play_deals, strategy

# one worker compiles the solver (numba, some 10 s on a clean checkout) and runs every test that needs it
pytestmark = pytest.mark.xdist_group("rounds-solver")

# ------------------------------------------------------------------ the oracle: every line of play tried
# A stage is five tricks; the non-leader must follow the led suit if he can; a player who takes all five
# scores the sweep bonus and no card points, otherwise each scores the card points he took. The trick rules
# (following, trumps, rank trumps, who takes a trick) and the stage score are the reference engine's.


def exhaustive(
    rules: RoundsRules,
    trump_cards: tuple[int, int],
    me: int,
    objective: str,
    hands: tuple,
    turn: int,
    leader: int,
    led: int | None,
    trick: int,
    won: tuple,
    taken: tuple,
    keep: tuple = (),
    scale: int = 1,
) -> int:
    """`me`'s stage score (objective "points") or his stage score less the other's ("margin") when `me` plays
    to make it as high as he can and the other as low; `won` the tricks and `taken` the cards each player
    took so far in the stage; trick 0..4; trump_cards the face-up card of tricks 1-4 and of trick 5. With
    `keep` (52 worths) each card still held at the stage's end adds its worth to its holder's result, the
    scores counted `scale` times."""
    if trick == 5:
        scores = [scale * x for x in R.stage_scores(taken, won, rules)]
        if keep:
            scores = [x + sum(keep[c] for c in h) for x, h in zip(scores, hands)]
        return scores[me] - (scores[1 - me] if objective == "margin" else 0)
    trump_card = trump_cards[1] if trick == 4 else trump_cards[0]
    children = []
    for c in R.legal_plays(hands[turn], led, trump_card, rules):
        rest = tuple(h - {c} if p == turn else h for p, h in enumerate(hands))
        if led is None:
            children.append(
                exhaustive(
                    rules,
                    trump_cards,
                    me,
                    objective,
                    rest,
                    1 - turn,
                    leader,
                    c,
                    trick,
                    won,
                    taken,
                    keep,
                    scale,
                )
            )
        else:
            winner = R.trick_winner(leader, [led, c], trump_card, rules)
            now_won = tuple(n + (p == winner) for p, n in enumerate(won))
            now_taken = tuple(t | {led, c} if p == winner else t for p, t in enumerate(taken))
            children.append(
                _boundary(
                    rules,
                    trump_cards,
                    me,
                    objective,
                    rest,
                    winner,
                    trick + 1,
                    now_won,
                    now_taken,
                    keep,
                    scale,
                )
            )
    return max(children) if turn == me else min(children)


@functools.cache
def _boundary(rules, trump_cards, me, objective, hands, leader, trick, won, taken, keep, scale):
    # The same position at a trick boundary comes up along many lines: remember its value (no pruning).
    return exhaustive(
        rules, trump_cards, me, objective, hands, leader, leader, None, trick, won, taken, keep, scale
    )


# ------------------------------------------------------------------ random stage positions

RULE_SETS = [
    RoundsRules(),
    RoundsRules(rank_trumps=True),
    RoundsRules(sweep_bonus=0),
    RoundsRules(sweep_bonus=25, rank_trumps=True),
    RoundsRules(card_points="2=10,3=5,4=5,10=1,J=1,Q=2,K=3,A=4"),
    RoundsRules(card_points="2=10,3=5,4=5,10=1,J=1,Q=2,K=3,A=4", sweep_bonus=40, rank_trumps=True),
]
# (cards in each hand at the stage's start, the fewest plays made before the position): stage 5 (5 cards, a
# second trump card for trick 5), short stages, and stages 1-4 (9 cards) from their third trick on, where the
# exhaustive search stays small
SHAPES = [(5, 0), (6, 0), (7, 2), (9, 4)]


def random_position(rng: np.random.Generator, rules: RoundsRules, size: int, least: int):
    """A stage dealt at random (hands of `size`, stage 5 when size is 5) and played at random (legally) for
    a random number of plays: the oracle's arguments and the solver's position."""
    deck = [int(c) for c in rng.permutation(52)]
    hands = [frozenset(deck[:size]), frozenset(deck[size : 2 * size])]
    trump_cards = (deck[2 * size], deck[2 * size + 1]) if size == 5 else (deck[2 * size],) * 2
    leader = turn = int(rng.integers(2))
    led, trick, won, taken = None, 0, (0, 0), (frozenset(), frozenset())
    for _ in range(int(rng.integers(least, 10))):
        trump_card = trump_cards[1] if trick == 4 else trump_cards[0]
        c = int(rng.choice(R.legal_plays(hands[turn], led, trump_card, rules)))
        hands[turn] = hands[turn] - {c}
        if led is None:
            led, turn = c, 1 - turn
        else:
            winner = R.trick_winner(leader, [led, c], trump_card, rules)
            won = tuple(n + (p == winner) for p, n in enumerate(won))
            taken = tuple(t | {led, c} if p == winner else t for p, t in enumerate(taken))
            led, turn, leader, trick = None, winner, winner, trick + 1
    me = int(rng.integers(2))
    position = solver.Positions.one(
        [sorted(h) for h in hands],
        trump_cards,
        turn,
        rules=rules,
        led=-1 if led is None else led,
        tricks=won,
        taken=[R.cards_points(t, rules) for t in taken],
        player=me,
    )
    return (rules, trump_cards, me, tuple(hands), turn, leader, led, trick, won, taken), position


@pytest.mark.parametrize("objective", solver.OBJECTIVES)
def test_the_solver_agrees_with_every_line_of_play_tried(objective: str) -> None:
    rng = np.random.default_rng(15 if objective == "margin" else 16)
    cases = []
    for i in range(150):  # 300 positions over both objectives
        rules = RULE_SETS[i % len(RULE_SETS)]
        size, least = SHAPES[(i // len(RULE_SETS)) % len(SHAPES)]
        cases.append((rules, *random_position(rng, rules, size, least)))
    assert {c[2].trick[0] for c in cases} == {0, 1, 2, 3, 4} and (
        np.array([c[2].led[0] for c in cases]) >= 0
    ).any()
    for rules in RULE_SETS:  # one call per rule set, its rows solved in one batch
        mine = [c for c in cases if c[0] is rules]
        got = solver.RoundsSolver(rules, objective).solve(solver.Positions.concat([p for _, _, p in mine]))
        want = [exhaustive(*args[:3], objective, *args[3:]) for _, args, _ in mine]
        assert got.tolist() == want


@pytest.mark.parametrize("objective", solver.OBJECTIVES)
def test_cards_kept_at_the_stage_end_add_their_worth(objective: str) -> None:
    """With a worth for each card still held when the stage ends (the expert's kept cards), in quarter
    points, the solver agrees with every line of play tried."""
    rng = np.random.default_rng(17)
    keep = tuple(int(k) for k in rng.integers(-6, 8, 52))
    rules = RoundsRules(rank_trumps=True)
    cases = [random_position(rng, rules, *SHAPES[i % len(SHAPES)]) for i in range(40)]
    scaled = [dataclasses.replace(p, taken=4 * p.taken) for _, p in cases]
    got = solver.RoundsSolver(rules, objective, keep=np.array(keep), scale=4).solve(
        solver.Positions.concat(scaled)
    )
    want = [exhaustive(*args[:3], objective, *args[3:], keep=keep, scale=4) for args, _ in cases]
    assert got.tolist() == want


def test_positions_are_checked() -> None:
    rules = RoundsRules()
    c = parse_card
    ok = solver.Positions.one(
        [[c("2C"), c("3C"), c("4C"), c("5C"), c("6C")], [c("7C"), c("8C"), c("9C"), c("10C"), c("JC")]],
        c("AS"),
        0,
        rules=rules,
    )
    # player 1 must take every trick with a higher club: a sweep, 10 to him rather than the 11 card points
    sv = solver.RoundsSolver(rules)
    assert sv.solve(ok).tolist() == [-10]
    with pytest.raises(ValueError, match="not positions of a stage"):
        bad = solver.Positions.one(
            [[c("2C"), c("3C"), c("4C"), c("5C"), c("6C")], [c("2C"), c("8C"), c("9C"), c("10C"), c("JC")]],
            c("AS"),
            0,
            rules=rules,
        )
        sv.solve(bad)
    with pytest.raises(ValueError, match="not positions of a stage"):  # four cards cannot play five tricks
        sv.solve(solver.Positions.one([[1, 2, 3, 4], [5, 6, 7, 8]], c("AS"), 0, rules=rules))
    with pytest.raises(ValueError, match=r"Positions.tricks has shape \(1,\), not \(1, 2\)"):
        sv.solve(dataclasses.replace(ok, tricks=ok.tricks[:, 0]))
    with pytest.raises(ValueError, match="objective must be one of margin, points, not 'tricks'"):
        solver.RoundsSolver(rules, "tricks")


def test_a_sweep_scores_the_bonus_and_ducking_the_fifth_trick_can_pay() -> None:
    rules = RoundsRules()
    c = parse_card
    # Player 0 has taken tricks 1-4 with 2C, 2D and AH in them (24 points) and leads the last trick.
    took = {"tricks": (4, 0), "taken": (24, 0)}
    margin, points = solver.RoundsSolver(rules), solver.RoundsSolver(rules, "points")
    # He holds only low clubs and player 1 only higher ones: whatever he leads, player 1 must take it, so
    # there is no sweep; he scores 24 to player 1's nothing.
    must_take = [
        [c("3C"), c("4C"), c("5C"), c("6C"), c("7C")],
        [c("8C"), c("9C"), c("10C"), c("8D"), c("9D")],
    ]
    assert margin.solve(solver.Positions.one(must_take, c("9S"), 0, rules=rules, **took)).tolist() == [24]
    # Player 1 holds lower clubs as well: he ducks and hands player 0 a sweep worth 10, not 24.
    can_duck = [[c("5C"), c("6C"), c("7C"), c("8C"), c("9C")], [c("3C"), c("4C"), c("10C"), c("8D"), c("9D")]]
    assert margin.solve(solver.Positions.one(can_duck, c("9S"), 0, rules=rules, **took)).tolist() == [10]
    # With only spades (trumps) player 0 cannot lose a trick: the sweep is forced on both.
    forced = [[c("5S"), c("6S"), c("7S"), c("8S"), c("AS")], [c("3C"), c("4C"), c("10C"), c("8D"), c("9D")]]
    for sv, value in ((margin, 10), (points, 10)):
        p = solver.Positions.one(forced, c("9S"), 0, rules=rules, **took)
        assert sv.solve(p).tolist() == [value]
    # Player 1's point of view of the same position: the margin negated; his own points, 0.
    p = solver.Positions.one(can_duck, c("9S"), 0, rules=rules, player=1, **took)
    assert margin.solve(p).tolist() == [-10]
    assert points.solve(p).tolist() == [0]


# ------------------------------------------------------------------ values along played games


def played(spec: str, n: int, rules: RoundsRules, seed: int = 3):
    rngs = [np.random.default_rng(seed + i) for i in (1, 2)]
    return play_deals(
        "rounds", np.random.default_rng(seed), rngs, np.arange(n), rules, [strategy("rounds", spec)] * 2
    )


@pytest.mark.parametrize("objective", solver.OBJECTIVES)
@pytest.mark.parametrize(
    "rules", [RoundsRules(), RoundsRules(rank_trumps=True, dealer_rotation="game", sweep_bonus=25)]
)
def test_no_play_raises_its_own_players_value(objective: str, rules: RoundsRules) -> None:
    for spec in ("random", "heuristic"):
        s = played(spec, 12, rules)
        sv = solver.RoundsSolver(rules, objective)
        v = sv.values_along(s).astype(int)  # (n, 5, 11, 2)
        p = sv.positions_along(s)
        mover = p.turn.reshape(len(s), 5, 10).astype(np.intp)
        ar = np.arange(len(s))[:, None, None]
        stage = np.arange(5)[None, :, None]
        j = np.arange(10)[None, None, :]
        before, after = v[ar, stage, j, mover], v[ar, stage, j + 1, mover]
        assert (after <= before).all()
        assert (after < before).any()  # (not every play is perfect)
        # the last column is what the stage came to
        score = s.stage_score.astype(int)
        want = score if objective == "points" else (score - score[:, :, ::-1])
        assert (v[:, :, 10] == want).all()
        if objective == "margin":
            assert (v[..., 1] == -v[..., 0]).all()
            # the other player's play can only keep or raise the mover's value
            other_after = v[ar, stage, j + 1, 1 - mover]
            assert (other_after >= v[ar, stage, j, 1 - mover]).all()


def test_a_value_is_the_best_of_the_values_after_each_legal_play() -> None:
    """The solver's value before a play is the mover's best over his legal plays of its value after them,
    and rows solved one by one (a fresh table each) agree with rows solved together."""
    rules = RoundsRules(rank_trumps=True)
    s = played("greedy", 4, rules, seed=7)
    sv = solver.RoundsSolver(rules)
    p = sv.positions_along(s)
    together = sv.solve(p)
    rows = np.arange(0, len(p), 7)
    alone = [int(solver.RoundsSolver(rules).solve(p.take(np.array([r])))[0]) for r in rows[::-1]][::-1]
    assert together[rows].tolist() == alone
    checked = 0
    for r in rows:
        one = p.take(np.array([r]))
        hand = [c for c in range(52) if int(one.hands[0, one.turn[0]]) >> c & 1]
        led = int(one.led[0])
        ctx = int(one.ctx[0, 1 if one.trick[0] == 4 else 0])
        trump_card = (
            ctx // 14 * 13 + ctx % 14
        )  # (with rank trumps a context is the turned-up card's suit and rank)
        children = []
        for c in R.legal_plays(hand, None if led < 0 else led, trump_card, rules):
            child = _after(one, c, trump_card, rules)
            children.append(int(sv.solve(child)[0]) if child is not None else None)
        if None in children:
            continue
        best = max(children) if one.turn[0] == one.player[0] else min(children)
        assert together[r] == best
        checked += 1
    assert checked > 15


def _after(p: solver.Positions, c: int, trump_card: int, rules: RoundsRules) -> solver.Positions | None:
    """The position after p's mover plays c (None when that ends the stage)."""
    q = p.take(np.array([0]))
    q = solver.Positions(**{f: getattr(q, f).copy() for f in solver.Positions.TRAILING})
    turn = int(q.turn[0])
    q.hands[0, turn] &= ~np.uint64(1 << c)
    if q.led[0] < 0:
        q.led[0], q.turn[0] = c, 1 - turn
        return q
    if q.trick[0] == 4:
        return None
    leader = int(q.leader[0])
    winner = R.trick_winner(leader, [int(q.led[0]), c], trump_card, rules)
    q.tricks[0, winner] += 1
    q.taken[0, winner] += R.card_points(c, rules) + R.card_points(int(q.led[0]), rules)
    q.led[0], q.turn[0], q.leader[0], q.trick[0] = -1, winner, winner, q.trick[0] + 1
    return q


# ------------------------------------------------------------------ the measure


def test_what_each_player_gave_away_accounts_for_the_margin() -> None:
    runs = {
        spec: app.simulate(
            RunSpec("rounds", n=300, seats={"all": spec}, measures=["play-quality"]),
            execution=Execution(jobs=1),
        )
        for spec in ("random", "heuristic")
    }
    for sim in runs.values():
        d = sim.deals
        for col in (
            "perfect_value_0",
            "perfect_value_1",
            "gave_away_0",
            "gave_away_1",
            "costly_plays_0",
            "costly_plays_1",
            "stages_off_perfect",
            "s1_gave_away_0",
            "s5_gave_away_1",
        ):
            assert col in d
        assert (d["gave_away_0"] >= 0).all() and (d["gave_away_1"] >= 0).all()
        # perfect play stage by stage, less what player 0 gave, plus what player 1 gave: the margin played
        assert (
            (d["perfect_value_0"] - d["gave_away_0"] + d["gave_away_1"]) == d["points_0"] - d["points_1"]
        ).all()
        assert (d["perfect_value_1"] == -d["perfect_value_0"]).all()  # the margin is zero-sum
        for p in (0, 1):
            assert (sum(d[f"s{k}_gave_away_{p}"] for k in range(1, 6)) == d[f"gave_away_{p}"]).all()
            assert d[f"costly_plays_{p}"].between(0, 25).all()
            assert ((d[f"costly_plays_{p}"] > 0) == (d[f"gave_away_{p}"] > 0)).all()
        assert d["stages_off_perfect"].between(0, 5).all()
        q = sim.summary["play_quality"]
        assert q["gave_away"]["0"].mean == pytest.approx(d["gave_away_0"].mean())
        assert q["stages_off_perfect"].of == 5 * len(d)
        assert [st["stage"] for st in q["by_stage"]] == [1, 2, 3, 4, 5]
    # random play gives more away than the heuristic: the difference of the per-player means, 95% interval
    r, h = (runs[spec].summary["play_quality"]["gave_away_per_player"] for spec in ("random", "heuristic"))
    assert r.mean - h.mean - 1.96 * np.hypot(r.se, h.se) > 0


def test_the_measure_changes_no_outcome() -> None:
    plain = app.simulate(RunSpec("rounds", n=60, seats={"all": "greedy"}), execution=Execution(jobs=1))
    measured = app.simulate(
        RunSpec("rounds", n=60, seats={"all": "greedy"}, measures=["play-quality"]),
        execution=Execution(jobs=1),
    )
    assert measured.deals[plain.deals.columns].equals(plain.deals)
    assert "--measure play-quality" in measured.manifest["command"]


@pytest.mark.parametrize("objective", solver.OBJECTIVES)
def test_values_along_played_games_are_the_values_of_their_positions(objective: str) -> None:
    """values_along walks each stage backwards with half-open windows; every value is the full search's."""
    rules = RoundsRules(sweep_bonus=25)
    s = played("random", 3, rules, seed=11)
    along = solver.RoundsSolver(rules, objective)
    v = along.values_along(s)
    for player in (0, 1):
        full = solver.RoundsSolver(rules, objective).solve(along.positions_along(s, player))
        assert (v[:, :, :10, player] == full.reshape(len(s), 5, 10)).all()


def test_compare_pairs_the_points_a_player_gave_away() -> None:
    """`compare rounds --measure play-quality`: what the changed player gave away, paired deal by deal."""
    c = app.compare(
        RunSpec("rounds", n=300, seats={"0": "random"}, measures=["play-quality"]),
        vs={"0": "heuristic"},
        execution=Execution(jobs=1),
    )
    d = dict(zip(c.measures, c.differences))
    gave = d["player 0 points given away per game"]
    assert gave.lo > 0  # random play gives away more than the heuristic, with an interval clear of zero
    a = app.simulate(
        RunSpec("rounds", n=300, seats={"0": "random"}, measures=["play-quality"]),
        execution=Execution(jobs=1),
    ).deals
    assert gave.a == pytest.approx(a["gave_away_0"].mean())
    assert "stages ending off their perfect-play margin" in c.rates


def test_the_rule_tables_compiled_in_are_the_ones_built_now() -> None:
    compiled = solver._compiled_tables()
    assert all(np.array_equal(a, b) for a, b in zip(compiled, solver._TABLES, strict=True))
