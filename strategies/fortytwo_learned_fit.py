"""Training the learned Forty-two strategy (`strategies.fortytwo_learned`) on hands dealsim deals and solves.

Play data (fitted first): hands bid, named and played by the heuristic (a play uniform over the legal ones
with chance `explore`, so the data also holds positions the heuristic would not reach), under the seed rules
and under Texas rules with doubles and no-trump declared (played out). At every play with a choice, each
legal domino is played on the actual deal and the solver values the position after it: the points the
mover's side ends the hand with under perfect play. The table weights of `play_index` are a ridge
least-squares fit of those values centred within each decision (and the features with them), from sparse
normal equations.

Bidding data (fitted second): uniform deals; seat N declares and leads with each of the nine declarations
(pips, doubles, no-trump) and all four seats play the hand out with the play policy just fitted; the points
the declaring side took are the labels, `bid_features` of N's hand with that declaration the inputs. Played
out rather than solved: the double-dummy points of a declaring side run several points above what it takes
in play without seeing the other hands, and a bidder on them overbids. A least-squares fit gives the
weights, the residuals' standard deviation sigma.

Numba (the solver) is needed; nothing here runs at play time.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import cast

import numpy as np

from simulator.fortytwo import core
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import CALL, DONE, NELLO, PLAY, SEVENS, TRUMP, FortyTwoView
from strategies.base import uniform_choice
from strategies.fortytwo import Heuristic
from strategies.fortytwo_expert import Expert, score_difference
from strategies.fortytwo_learned import (
    _DECLARATION_CTX,
    BID_FEATURES,
    N_PLAY_WEIGHTS,
    PLAY_TABLES,
    Learned,
    Model,
    bid_features,
    choose_plays,
    play_index,
    play_rows,
)

# Texas rules whose hands are played out: the play data's second rule set
TEXAS_PLAYED_OUT = FortyTwoRules(
    count_values="texas",
    auction="one-lap",
    jump_bids=True,
    declarations="pips,doubles,no-trump",
    scoring="marks",
    play_out=True,
)


def _solver(count_values: str):
    from simulator.fortytwo.solver import FortyTwoSolver

    return FortyTwoSolver(count_values)


# Seed count, every declaration the bid fit describes: the rules bidding data is played under
BID_RULES = FortyTwoRules(declarations="pips,doubles,no-trump")


def bid_data(
    rng: np.random.Generator, n_deals: int, play_weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(n_deals * 9, len(BID_FEATURES)) features and (n_deals * 9,) the declaring side's points: on each
    deal, N declares each of the nine declarations of `_DECLARATION_CTX` in turn and leads, and all four
    seats play the hand out with the play policy of `play_weights` (seed count)."""
    hands = core.shuffled_hands(rng, n_deals)  # (n, 4)
    k = len(_DECLARATION_CTX)
    rows = np.repeat(np.arange(n_deals), k)
    declaration = np.tile(np.arange(k), n_deals).astype(np.int8)
    s = core.new_hands(np.arange(len(rows)), np.full(len(rows), 3), hands[rows])
    s = core.with_contract(s, 0, 30, declaration, BID_RULES)
    while (s.phase == PLAY).any():
        r = np.flatnonzero(s.phase == PLAY)
        view, words, _ = core.packed_inputs(s, r, PLAY, BID_RULES)
        core.apply(s, r, PLAY, choose_plays(view, words[:, 0].astype(np.uint32), play_weights), BID_RULES)
    x = bid_features(hands[:, 0], "seed").reshape(len(rows), -1)
    return x, s.points[:, 0].astype(np.float64)


def fit_bid(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> tuple[np.ndarray, float]:
    """Least-squares weights (a small ridge keeps unused columns at 0) and the residual standard deviation."""
    a = x.T @ x + ridge * len(x) * np.eye(x.shape[1])
    w = np.linalg.solve(a, x.T @ y)
    return w, float(np.std(y - x @ w))


@dataclasses.dataclass
class PlayData:
    index: np.ndarray  # (n, len(PLAY_TABLES)) int64 flat weight indices of each candidate play
    value: np.ndarray  # (n,) float64 the mover's side's final points after the play, perfect play on
    group: np.ndarray  # (n,) int64 the decision it belongs to (candidates of one decision are consecutive)


def play_data(
    rng: np.random.Generator,
    n_hands: int,
    rules: FortyTwoRules,
    explore: float = 0.1,
    first_group: int = 0,
    progress: Callable[[str], None] | None = None,
    aim: str = "points",
    policy: str = "",
) -> PlayData:
    """Candidate plays of `n_hands` hands bid and played by the heuristic (uniform plays with chance
    `explore`), each valued by the solver on the actual deal."""
    solver = _solver(rules.count_values)
    strategy = Heuristic() if not policy else Learned(model=policy)
    s = core.deal(rng, np.arange(n_hands))
    index, value, group = [], [], []
    next_group = first_group
    while (s.phase != DONE).any():
        for kind in (CALL, TRUMP):
            rows = np.flatnonzero(s.phase == kind)
            if len(rows):
                view, legal = core.inputs(s, rows, kind, rules)
                core.apply(s, rows, kind, strategy.decide(kind, view, legal, rng), rules)
        rows = np.flatnonzero(s.phase == PLAY)
        if not len(rows):
            continue
        view, legal = core.inputs(s, rows, PLAY, rules)
        action = np.asarray(strategy.decide(PLAY, view, legal, rng), np.intp)
        wander = rng.random(len(rows)) < explore
        action = np.where(wander, uniform_choice(legal, rng), action)
        trump = s.trump[rows]
        ask = np.flatnonzero((legal.sum(axis=1) > 1) & (trump != NELLO) & (trump != SEVENS))
        if len(ask):
            v = cast(FortyTwoView, view.take(ask))
            r, d = np.nonzero(legal[ask])
            hands = s.hands[rows[ask]][r]
            sitter = np.full(len(ask), -1, np.int64)
            p, taken = Expert._after(v, r, hands, d, sitter, rules)
            p = dataclasses.replace(p, follow_on=np.r_[False, r[1:] == r[:-1]])
            x = taken + solver.solve(p).astype(np.int64)
            mine = (v.seat[r] & 1) == (v.high_bidder[r] & 1)
            if aim == "score":  # the hand's score difference under points scoring, as the expert's aim
                no = np.zeros(len(r), bool)
                x = score_difference(x, v.high_bid[r].astype(np.int64), no, _POINTS_SCORING)
            value.append(np.where(mine, x, -x).astype(np.float64))
            index.append(np.stack(play_index(play_rows(v), d, r), axis=1))
            group.append(next_group + r)
            next_group += len(ask)
        core.apply(s, rows, PLAY, action, rules)
        if progress is not None:
            progress(f"plays made: {int(s.n_played.sum())}, candidates valued: {sum(len(v) for v in value)}")
    if not value:
        return PlayData(np.zeros((0, len(PLAY_TABLES)), np.int64), np.zeros(0), np.zeros(0, np.int64))
    return PlayData(np.concatenate(index), np.concatenate(value), np.concatenate(group))


def fit_play(data: PlayData, ridge: float = 1.0, chunk: int = 200_000) -> np.ndarray:
    """(N_PLAY_WEIGHTS,) ridge least-squares weights of the values centred within each decision, on the
    one-hot table indices centred the same way: X~'X~ = sum_i x_i x_i' - sum_g s_g s_g' / n_g (s_g the sum
    of decision g's one-hot rows), accumulated as counts of index pairs. Only the cells the data reaches are
    solved for (a cell it never reaches has no other term than the ridge: its weight is 0)."""
    used, compact = np.unique(data.index, return_inverse=True)
    n_w = len(used)
    idx: np.ndarray = np.reshape(compact, data.index.shape)
    y, g = data.value, data.group
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    size_of = np.repeat(sizes, sizes)
    start_of = np.repeat(starts, sizes)
    mean_y = np.add.reduceat(y, starts) / sizes
    yc = y - np.repeat(mean_y, sizes)
    k = idx.shape[1]
    xtx = np.zeros(n_w * n_w)
    xty = np.bincount(idx.reshape(-1), weights=np.repeat(yc, k), minlength=n_w)
    for lo in range(0, len(y), chunk):
        sl = slice(lo, min(lo + chunk, len(y)))
        a = idx[sl]
        pairs = (a[:, :, None] * n_w + a[:, None, :]).reshape(-1)
        xtx += np.bincount(pairs, minlength=n_w * n_w)
        # every candidate i against every candidate j of its decision, weight 1 / n_g
        rows = np.arange(sl.start, sl.stop)
        reps = size_of[rows]
        i = np.repeat(rows, reps)
        j = np.repeat(start_of[rows], reps) + (np.arange(len(i)) - np.repeat(np.cumsum(reps) - reps, reps))
        pairs = (idx[i][:, :, None] * n_w + idx[j][:, None, :]).reshape(-1)
        xtx -= np.bincount(pairs, weights=np.repeat(1.0 / size_of[i], k * k), minlength=n_w * n_w)
    normal = xtx.reshape(n_w, n_w) + ridge * np.eye(n_w)
    out = np.zeros(N_PLAY_WEIGHTS)
    out[used] = np.linalg.solve(normal, xty)
    return out


def choice_agreement(data: PlayData, weights: np.ndarray) -> tuple[float, float]:
    """(share of decisions where the highest-scored play is among the best by value, mean points the chosen
    play loses against the best): how well the fitted scores pick on the data."""
    score = weights[data.index].sum(axis=1)
    g = data.group
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    best_value = np.maximum.reduceat(data.value, starts)
    order = np.lexsort((-score, g))  # by decision, the highest score first
    first = order[starts]
    loss = best_value - data.value[first]
    return float(np.mean(loss == 0)), float(np.mean(loss))


_POINTS_SCORING = FortyTwoRules()

# hands per piece of play data: the pieces are made in parallel, each from its own seed
PIECE = 1000


def _piece(
    seed: np.random.SeedSequence, n: int, texas: bool, explore: float, aim: str, policy: str
) -> PlayData:
    rules = TEXAS_PLAYED_OUT if texas else FortyTwoRules()
    return play_data(np.random.default_rng(seed), n, rules, explore, aim=aim, policy=policy)


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """How the play data is made: `explore` the chance of a uniform play, `aim` the labels (points: the
    mover's side's final points; score: the hand's score difference under points scoring), `policy` an npz
    model whose learned strategy bids and plays the training hands ("" = the heuristic)."""

    explore: float = 0.1
    aim: str = "points"
    policy: str = ""


def train(
    seed: int,
    bid_deals: int,
    play_hands: int,
    options: PlayOptions = PlayOptions(),
    command: str = "",
    progress: Callable[[str], None] | None = None,
    jobs: int = 1,
) -> tuple[Model, dict[str, float]]:
    """A model trained from scratch: bidding on `bid_deals` deals, play on `play_hands` hands (half under the
    seed rules, half under Texas rules played out, in pieces of `PIECE` hands made by `jobs` processes); its
    metadata holds the seed, the sizes, the command and the features. Returns it with fit figures (residual
    spread, choice agreement on a tenth of the decisions held out of a second fit)."""
    from joblib import Parallel, delayed

    explore, aim, policy = options.explore, options.aim, options.policy

    say = progress or (lambda text: None)
    bid_seed, play_seed = np.random.SeedSequence(seed).spawn(2)
    t0 = time.perf_counter()
    half = play_hands // 2
    sizes = [
        (n, texas)
        for texas, total in ((False, play_hands - half), (True, half))
        for n in [PIECE] * (total // PIECE) + ([total % PIECE] if total % PIECE else [])
    ]
    seeds = play_seed.spawn(len(sizes))
    pieces = Parallel(n_jobs=jobs)(
        delayed(_piece)(sd, n, texas, explore, aim, policy) for sd, (n, texas) in zip(seeds, sizes)
    )
    offsets = np.cumsum([0, *[int(p.group.max()) + 1 if len(p.group) else 0 for p in pieces]])
    data = PlayData(
        np.concatenate([p.index for p in pieces]),
        np.concatenate([p.value for p in pieces]),
        np.concatenate([p.group + o for p, o in zip(pieces, offsets)]),
    )
    t_play = time.perf_counter() - t0
    say(f"play: {len(data.value)} candidate plays valued in {t_play:.0f}s")
    # held out: every tenth decision, for the figures; the shipped weights use every decision
    train_rows = data.group % 10 != 9
    held = PlayData(data.index[~train_rows], data.value[~train_rows], data.group[~train_rows])
    fit_part = PlayData(data.index[train_rows], data.value[train_rows], data.group[train_rows])
    figures: dict[str, float] = {"play_rows": float(len(data.value))}
    if len(held.value) and len(fit_part.value):
        w = fit_play(fit_part)
        figures["held_out_best_share"], figures["held_out_loss"] = choice_agreement(held, w)
    play_w = fit_play(data) if len(data.value) else np.zeros(N_PLAY_WEIGHTS)
    t_fit = time.perf_counter()
    x, y = bid_data(np.random.default_rng(bid_seed), bid_deals, play_w)
    bid_w, sigma = fit_bid(x, y)
    took = time.perf_counter() - t_fit
    say(f"bidding: {len(y)} contracts played out in {took:.0f}s, residual sd {sigma:.2f}")
    figures["bid_sigma"], figures["bid_rows"] = sigma, float(len(y))
    figures["seconds"] = time.perf_counter() - t0
    meta = {
        "seed": seed,
        "bid_deals": bid_deals,
        "play_hands": play_hands,
        "explore": explore,
        "piece": PIECE,
        "aim": aim,
        "policy": policy or "heuristic",
        "command": command,
        "bid_features": list(BID_FEATURES),
        "play_tables": [[name, list(shape)] for name, shape in PLAY_TABLES],
        "play_rules": ["seed", "texas (doubles, no-trump declared; played out)"],
        "bid_labels": "points the declaring side took, N declaring and leading, all four seats playing the "
        "fitted play policy, seed count",
        "play_labels": "double-dummy final points of the mover's side after each legal play, centred per "
        "decision",
        "figures": figures,
    }
    return Model(bid_w, sigma, play_w, meta), figures
