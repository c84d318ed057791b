"""The double-dummy solver against a plain exhaustive minimax written from the rules file, on endgames and
hand-built deals; its null-window question against its full value; and values along played hands."""

from __future__ import annotations

import dataclasses
import functools
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simulator.fortytwo import core, solver
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import PLAY
from tests.helpers import play_deals, strategy

# one worker compiles the solver (numba, some 10 s on a clean checkout) and runs every test that needs it
pytestmark = pytest.mark.xdist_group("fortytwo-solver")

# a solver per count, kept for the module: its table's entries must stay true from one test to the next
SOLVERS = {values: solver.FortyTwoSolver(values) for values in solver.COUNT_KINDS}
SOLVER = SOLVERS["seed"]

N, E, S, W = 0, 1, 2, 3

# ------------------------------------------------------------------ the oracle: the rules, read plainly
# Only the encoding is shared with the engine: domino id d lists the (high, low) pairs in order.
PAIRS = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]


def count_of(d: int, values: str) -> int:
    """Dominoes whose pips add to 5 or 10 are the count: 7 each (seed), or 5 and 10 (texas)."""
    total = sum(PAIRS[d])
    if total not in (5, 10):
        return 0
    return 7 if values == "seed" else total


# A contract as the oracle reads it: what was named and how doubles rank. The solver's play context for it.
CONTRACTS = {  # name: (play context, trump pip or None, kind)
    **{f"pip{t}": (t, t, "pips") for t in range(7)},
    "doubles": (7, None, "doubles"),
    "no-trump": (8, None, "no-trump"),
    "no-trump-low": (9, None, "no-trump-low"),
    "nello": (10, None, "nello"),
    "nello-high": (8, None, "no-trump"),  # nello with doubles high in their suit: no-trump play, 3 to a trick
    "sevens": (11, None, "sevens"),
}


@functools.cache
def rules_of(contract: str):
    """Functions (is_trump, lead_suit, follows, rank) of a contract, straight from the rules file."""
    _, trump, kind = CONTRACTS[contract]

    def double(d):
        return PAIRS[d][0] == PAIRS[d][1]

    def is_trump(d):
        if kind == "pips":
            return trump in PAIRS[d]
        return kind == "doubles" and double(d)

    def lead_suit(d):
        if is_trump(d):
            return "trumps"
        if kind == "nello" and double(d):
            return "doubles"  # nello: the doubles form their own suit
        return PAIRS[d][0]  # a led domino's suit is its higher end (no-trump: a double leads its pip)

    def follows(d, suit):
        if suit == "trumps":
            return is_trump(d)
        if suit == "doubles":
            return double(d)
        if is_trump(d) or (kind == "nello" and double(d)):
            return False
        return suit in PAIRS[d]

    def rank(d, suit):
        """Strength in the trick: trumps over the led suit; within a suit the double high (low with
        doubles_low), then by the other end. None: cannot win."""
        hi, lo = PAIRS[d]
        if is_trump(d):
            if kind == "doubles":
                return (2, hi)
            return (2, 9 if double(d) else (lo if hi == trump else hi))
        if follows(d, suit):
            if suit == "doubles":
                return (1, hi)
            if double(d):
                return (1, -1 if kind == "no-trump-low" else 9)
            return (1, lo if hi == suit else hi)
        return None

    return is_trump, lead_suit, follows, rank


def legal_plays(contract: str, hand: frozenset, suit) -> list[int]:
    _, _, kind = CONTRACTS[contract]
    if kind == "sevens":  # every player plays his domino closest to seven pips
        best = min(abs(sum(PAIRS[d]) - 7) for d in hand)
        return sorted(d for d in hand if abs(sum(PAIRS[d]) - 7) == best)
    _, _, follows, _ = rules_of(contract)
    if suit is None:
        return sorted(hand)
    following = [d for d in hand if follows(d, suit)]
    return sorted(following or hand)


def trick_winner(contract: str, trick: list[tuple[int, int]]) -> int:
    """The seat that takes a trick of (seat, domino) in play order."""
    _, _, kind = CONTRACTS[contract]
    if kind == "sevens":  # the closest to seven wins, of equals the first played
        return min(trick, key=lambda sd: abs(sum(PAIRS[sd[1]]) - 7))[0]
    _, lead_suit, _, rank = rules_of(contract)
    suit = lead_suit(trick[0][1])
    best = trick[0]
    for seat, d in trick[1:]:
        r = rank(d, suit)
        if r is not None and r > rank(best[1], suit):
            best = (seat, d)
    return best[0]


def next_seat(seat: int, sitter: int) -> int:
    seat = (seat + 1) % 4
    return (seat + 1) % 4 if seat == sitter else seat


def exhaustive(
    contract: str, values: str, hands: tuple, seat: int, trick: tuple, side: int, sitter: int
) -> int:
    """The declaring side's points from here, every line of play tried: the declaring side takes as many as
    it can (under nello as few), the defenders the opposite. `trick` holds (seat, domino) played so far."""
    per = 3 if sitter >= 0 else 4
    if not any(hands):
        return 0
    _, lead_suit, _, _ = rules_of(contract)
    suit = lead_suit(trick[0][1]) if trick else None  # (sevens: no suit to follow; legal_plays knows)
    children = []
    for d in legal_plays(contract, hands[seat], suit):
        rest = tuple(h - {d} if s == seat else h for s, h in enumerate(hands))
        now = (*trick, (seat, d))
        if len(now) == per:
            winner = trick_winner(contract, list(now))
            points = 1 + sum(count_of(x, values) for _, x in now) if winner % 2 == side else 0
            children.append(points + _boundary(contract, values, rest, winner, side, sitter))
        else:
            children.append(exhaustive(contract, values, rest, next_seat(seat, sitter), now, side, sitter))
    maximizing = (seat % 2 == side) != (sitter >= 0)
    return max(children) if maximizing else min(children)


@functools.cache
def _boundary(contract, values, hands, leader, side, sitter):
    # The same position at a trick boundary comes up along many lines: remember its value (no pruning).
    return exhaustive(contract, values, hands, leader, (), side, sitter)


# ------------------------------------------------------------------ random endgames, by the oracle's rules


def random_endgame(rng: np.random.Generator, contract: str, tricks_left: int, declarer: int):
    """A random deal played at random (legally) down to `tricks_left` tricks, then a few plays into the
    next trick: (hands, seat to play, trick so far, leader, sitter)."""
    nello = contract.startswith("nello")
    sitter = (declarer + 2) % 4 if nello else -1
    per = 3 if nello else 4
    order = rng.permutation(28)
    hands = [
        frozenset(int(d) for d in order[7 * s : 7 * s + 7]) if s != sitter else frozenset() for s in range(4)
    ]
    seat = leader = declarer
    trick: list[tuple[int, int]] = []
    plays = (7 - tricks_left) * per + int(rng.integers(per))
    _, lead_suit, _, _ = rules_of(contract)
    for _ in range(plays):
        suit = lead_suit(trick[0][1]) if trick else None
        d = int(rng.choice(legal_plays(contract, hands[seat], suit)))
        hands[seat] = hands[seat] - {d}
        trick.append((seat, d))
        if len(trick) == per:
            seat = leader = trick_winner(contract, trick)
            trick = []
        else:
            seat = next_seat(seat, sitter)
    return tuple(hands), seat, tuple(trick), leader, sitter


def as_position(contract: str, hands, seat, trick, leader, side, sitter) -> solver.Positions:
    return solver.Positions.one(
        [D.ids_to_bits(h) for h in hands],
        CONTRACTS[contract][0],
        seat,
        side,
        leader=leader,
        trick=[d for _, d in trick],
        sitter=sitter,
    )


def check_endgames(n: int, tricks_left: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        contract = list(CONTRACTS)[i % len(CONTRACTS)] if i % 3 else f"pip{rng.integers(7)}"
        values = ("seed", "texas")[i % 2]
        declarer = int(rng.integers(4))
        side = declarer % 2
        hands, seat, trick, leader, sitter = random_endgame(rng, contract, tricks_left, declarer)
        want = exhaustive(contract, values, hands, seat, trick, side, sitter)
        p = as_position(contract, hands, seat, trick, leader, side, sitter)
        cases.append((contract, values, p, want))
    for values in ("seed", "texas"):
        mine = [c for c in cases if c[1] == values]
        got = SOLVERS[values].solve(solver.Positions.concat([c[2] for c in mine]))
        want = np.array([c[3] for c in mine])
        bad = [(c[0], int(g), int(w)) for c, g, w in zip(mine, got, want) if g != w]
        assert not bad, (
            f"{len(bad)} of {len(mine)} {values} endgames differ (contract, solver, oracle): {bad[:5]}"
        )
        # the null-window question agrees at and just above the value
        p = solver.Positions.concat([c[2] for c in mine])
        assert SOLVERS[values].at_least(p, want).all() and not SOLVERS[values].at_least(p, want + 1).any()
    return len(cases)


def test_solver_matches_exhaustive_minimax_on_three_trick_endgames() -> None:
    assert check_endgames(400, 3, seed=1) == 400


def test_solver_matches_exhaustive_minimax_on_four_trick_endgames() -> None:
    check_endgames(100, 4, seed=2)


def test_the_same_hands_under_other_contracts_and_sides_are_kept_apart() -> None:
    # A solver's transposition table outlives a call: the same hands met again under another trump or
    # declaring side must not reuse what was found for the first (each count has a solver of its own).
    rng = np.random.default_rng(4)
    for _ in range(12):
        hands, _, trick, seat, _ = random_endgame(rng, "pip0", 3, int(rng.integers(4)))
        # the trick under way taken back: the same hands at its lead
        hands, trick = tuple(h | {d for s, d in trick if s == i} for i, h in enumerate(hands)), ()
        for contract in ("pip0", "pip6", "no-trump"):
            for values in ("seed", "texas"):
                for side in (0, 1):
                    want = exhaustive(contract, values, hands, seat, trick, side, -1)
                    p = as_position(contract, hands, seat, trick, seat, side, -1)
                    assert SOLVERS[values].solve(p)[0] == want, (contract, values, side)


@pytest.mark.slow
def test_solver_matches_exhaustive_minimax_on_many_four_trick_endgames() -> None:
    check_endgames(600, 4, seed=3)


# ------------------------------------------------------------------ hand-built deals


def hand(text: str) -> int:
    return D.ids_to_bits(D.parse_domino(t) for t in text.split())


def deal_with(**held: str) -> list[int]:
    """Four hands: the named seats hold their dominoes, the others the rest in order, seven each."""
    seats = {"N": N, "E": E, "S": S, "W": W}
    hands = [0] * 4
    for name, text in held.items():
        hands[seats[name]] = hand(text)
    free = [d for d in range(28) if not any(h >> d & 1 for h in hands)]
    for s in range(4):
        if hands[s] == 0:
            hands[s], free = D.ids_to_bits(free[:7]), free[7:]
    return hands


ALL_SIXES = "6-6 6-5 6-4 6-3 6-2 6-1 6-0"
ALL_DOUBLES = "6-6 5-5 4-4 3-3 2-2 1-1 0-0"


@pytest.mark.parametrize("values", ["seed", "texas"])
def test_every_trump_takes_every_trick(values: str) -> None:
    p = solver.Positions.one(deal_with(N=ALL_SIXES), ctx=6, turn=N, side=0)
    assert SOLVERS[values].solve(p)[0] == 42
    assert SOLVERS[values].at_least(p, 42)[0]


def test_defenders_with_every_trump_take_every_trick() -> None:
    # E holds all seven sixes: whatever N-S lead, E trumps it (and must: he holds nothing else)
    p = solver.Positions.one(deal_with(E=ALL_SIXES), ctx=6, turn=N, side=0)
    assert SOLVER.solve(p)[0] == 0
    assert not SOLVER.at_least(p, 1)[0]


def test_nello_declarer_with_every_double_takes_every_trick() -> None:
    # nello, doubles their own suit: no one can follow N's doubles, so each of his leads wins (the sitter S
    # holds no count)
    hands = deal_with(N=ALL_DOUBLES, S="4-2 4-3 5-1 5-2 5-3 5-4 6-0")
    p = solver.Positions.one(hands, ctx=D.NELLO_SUIT, turn=N, side=0, sitter=S)
    assert SOLVER.solve(p)[0] == 42


def test_nello_declarer_ducks_every_trick() -> None:
    # nello, N sits out, S declares; E has led 4-0 and S must follow with 4-2, but W's forced 5-4 covers it.
    # Later W leads 1-1 and S's 0-0 and 2-2, with no double left between them but the 1-1 in the trick, are
    # not alike: only the 0-0 ducks (the solver must not treat them as equivalent there).
    held = {E: "3-1 5-0 6-3", S: "0-0 2-2 4-2 6-5", W: "1-1 4-4 5-4 5-5"}
    hands = (frozenset(), *(frozenset(D.bits_to_ids(hand(held[s]))) for s in (E, S, W)))
    trick = ((E, D.domino_id(4, 0)),)
    assert exhaustive("nello", "seed", hands, S, trick, 0, N) == 0
    assert SOLVER.solve(as_position("nello", hands, S, trick, E, 0, N))[0] == 0


def test_doubles_trump_with_every_double_takes_every_trick() -> None:
    p = solver.Positions.one(deal_with(W=ALL_DOUBLES), ctx=D.DOUBLES_TRUMP, turn=W, side=1)
    assert SOLVER.solve(p)[0] == 42


def test_one_trick_left_is_the_trick_and_its_count() -> None:
    # sixes trump, the last trick: N leads 6-4 (a trump and 7 count), nobody else has a trump
    hands = [hand("6-4"), hand("5-0"), hand("3-2"), hand("1-0")]
    p = solver.Positions.one(hands, ctx=6, turn=N, side=0)
    assert SOLVER.solve(p)[0] == 1 + 7 + 7 + 7
    # the same trick seen from E-W declaring: they take none of it
    p = solver.Positions.one(hands, ctx=6, turn=N, side=1)
    assert SOLVER.solve(p)[0] == 0
    # mid-trick: N led 6-4, E played 5-0; the rest of the trick is still N-S's
    p = solver.Positions.one(
        [0, 0, hand("3-2"), hand("1-0")],
        ctx=6,
        turn=S,
        side=0,
        leader=N,
        trick=[D.domino_id(6, 4), D.domino_id(5, 0)],
    )
    assert SOLVERS["texas"].solve(p)[0] == 1 + 10 + 5 + 5


def test_sevens_the_closest_to_seven_takes_the_trick() -> None:
    # each holds one domino: N 6-1 (7 pips) wins whatever the others play; under sevens nothing else matters
    hands = [hand("6-1"), hand("5-0"), hand("4-3"), hand("3-2")]
    # 4-3 is also 7 pips but played after 6-1: the first played keeps the trick
    p = solver.Positions.one(hands, ctx=D.SEVENS_CTX, turn=N, side=1)
    assert SOLVER.solve(p)[0] == 0
    p = solver.Positions.one(hands, ctx=D.SEVENS_CTX, turn=S, side=1)  # S leads 4-3 first: E-W lose still
    assert SOLVER.solve(p)[0] == 0
    p = solver.Positions.one(hands, ctx=D.SEVENS_CTX, turn=E, side=1)  # E leads 5-0, S's 4-3 wins
    assert SOLVER.solve(p)[0] == 0
    p = solver.Positions.one(hands, ctx=D.SEVENS_CTX, turn=S, side=0)
    assert SOLVER.solve(p)[0] == 1 + 7 + 7


# ------------------------------------------------------------------ equivalent plays


def searched_plays(p: solver.Positions, values: str = "seed") -> list[int]:
    """The plays the search tries at the position of a batch of one (`_moves`, no table hint nor killer)."""
    kind = solver.COUNT_KINDS.index(values)
    ctx, seat, leader, side, sitter = (int(a[0]) for a in (p.ctx, p.turn, p.leader, p.side, p.sitter))
    h = np.where(np.arange(4) == sitter, 0, p.hands[0]).astype(np.int64)
    led, winner, wkey, _, played, _ = solver._trick_so_far(
        p.trick[0].astype(np.int64), leader, ctx, sitter, kind
    )
    M = np.zeros((38 + 30, 8), np.int64)  # the search's move lists: row 0 gets the plays, row 29 their scores
    n = solver._moves(h, (seat, played == 0, led, winner, wkey, -1, -1), (ctx, kind, side, sitter, 0), M, 0)
    return sorted(M[0, :n].tolist())


def lead_values(hands: list[int], ctx: int, seat: int, side: int, leads: list[int]) -> list[int]:
    """The value after each of `leads` by `seat`, with the trick's points to come."""
    out = []
    for d in leads:
        rest = [h & ~(1 << d) if s == seat else h for s, h in enumerate(hands)]
        p = solver.Positions.one(rest, ctx=ctx, turn=(seat + 1) % 4, side=side, leader=seat, trick=[d])
        out.append(int(SOLVER.solve(p)[0]))
    return out


def test_plays_that_come_to_the_same_are_searched_once() -> None:
    # sixes trump, N to lead. His 4-3 and 4-4 lead fours and count nothing, no other hand holds a four
    # between them, and no other hand can lead a three (the one suit the 4-3 follows and the 4-4 does not):
    # whichever he plays, the rest goes the same way, so only the 4-4 is searched.
    held = {N: "2-1 4-3 4-4", E: "4-2 6-3 6-6", S: "1-0 6-2 6-4", W: "2-0 5-0 6-5"}
    hands = [hand(held[s]) for s in (N, E, S, W)]
    x, y, other = D.parse_domino("4-3"), D.parse_domino("4-4"), D.parse_domino("2-1")
    p = solver.Positions.one(hands, ctx=6, turn=N, side=0)
    assert searched_plays(p) == [other, y]
    assert lead_values(hands, 6, N, 0, [x, y]) == [1, 1]
    as_sets = tuple(frozenset(D.bits_to_ids(h)) for h in hands)
    assert SOLVER.solve(p)[0] == exhaustive("pip6", "seed", as_sets, N, (), 0, -1)
    # E's 6-3 swapped for the 3-1: E can lead a three, which N must follow with the 4-3 and not with the
    # 4-4. They look alike still (one suit and count, nothing of another hand between) but are not.
    hands[E] = hand("3-1 4-2 6-6")
    p = solver.Positions.one(hands, ctx=6, turn=N, side=0)
    assert searched_plays(p) == [other, x, y]
    assert lead_values(hands, 6, N, 0, [x, y]) == [1, 8]
    as_sets = tuple(frozenset(D.bits_to_ids(h)) for h in hands)
    assert SOLVER.solve(p)[0] == exhaustive("pip6", "seed", as_sets, N, (), 0, -1)


def test_what_keeps_plays_apart_is_read_from_the_rules() -> None:
    # The search takes two legal dominoes of one hand as alike when `_STAND` pairs them (one lead suit and
    # count) and no other hand holds a domino of `_APART`. Checked against the rules as the oracle reads them:
    # every suit another hand could lead is one both follow or neither does, and in it nothing of another
    # hand is ranked between them (so each takes and loses the same tricks); both can win or neither.
    suits = (*range(7), "trumps", "doubles")
    for contract in ("pip0", "pip3", "pip6", "doubles", "no-trump", "no-trump-low", "nello"):
        ctx = CONTRACTS[contract][0]
        _, lead_suit, follows, rank = rules_of(contract)
        ranks = {s: [rank(z, s) for z in range(28)] for s in suits}
        leaders = {s: D.ids_to_bits(z for z in range(28) if lead_suit(z) == s) for s in suits}
        for d in range(28):
            a = lead_suit(d)
            for e in range(28):
                if e == d or lead_suit(e) != a:
                    continue
                apart = int(solver._APART[ctx, d, e])
                for s in suits:
                    if follows(d, s) != follows(e, s):
                        assert leaders[s] & ~apart == 0, (contract, d, e, s)
                        continue
                    rd, re = ranks[s][d], ranks[s][e]
                    assert (rd is None) == (re is None), (contract, d, e, s)
                    if rd is not None:
                        lo, hi = min(rd, re), max(rd, re)
                        between = D.ids_to_bits(z for z in range(28) if ranks[s][z] and lo < ranks[s][z] < hi)
                        assert between & ~apart == 0, (contract, d, e, s)
                for k, values in enumerate(solver.COUNT_KINDS):
                    stands = ranks[a][e] > ranks[a][d] and count_of(d, values) == count_of(e, values)
                    assert bool(solver._STAND[k, ctx, d] >> e & 1) == stands, (contract, d, e, values)
    assert not solver._STAND[:, D.SEVENS_CTX].any()


def test_positions_play_cannot_reach_are_refused() -> None:
    hands = deal_with()
    with pytest.raises(ValueError, match="not positions"):  # E to play at N's lead
        SOLVER.solve(solver.Positions.one(hands, ctx=6, turn=E, side=0, leader=N))
    with pytest.raises(ValueError, match="not positions"):  # N led 0-0 but still holds it
        SOLVER.solve(solver.Positions.one(hands, ctx=6, turn=E, side=0, leader=N, trick=[0]))
    short = [hands[0] & ~1, *hands[1:]]
    with pytest.raises(ValueError, match="not positions"):  # N holds six, the others seven
        SOLVER.solve(solver.Positions.one(short, ctx=6, turn=E, side=0, leader=E))
    assert SOLVER.solve(solver.Positions.one(short, ctx=6, turn=E, side=0, leader=N, trick=[0]))[0] >= 0
    one = solver.Positions.one(hands, ctx=6, turn=N, side=0)
    with pytest.raises(ValueError, match=r"Positions.trick has shape \(1, 3\), not \(1, 4\)"):
        SOLVER.solve(dataclasses.replace(one, trick=one.trick[:, :3]))
    with pytest.raises(ValueError, match="count_values must be one of seed, texas"):
        solver.FortyTwoSolver("tens")


def invalid_plainly(p: solver.Positions) -> np.ndarray:
    """`Positions.invalid` in numpy, a row at a time: a domino twice, the trick's players not each one domino
    short of the others, the wrong seat to play, or a full trick."""
    out = np.zeros(len(p), bool)
    for r in range(len(p)):
        sit = int(p.sitter[r])
        hands = [0 if s == sit else int(p.hands[r, s]) for s in range(4)]
        played = [int(d) for d in p.trick[r] if d >= 0]
        size = [h.bit_count() for h in hands]
        seat = int(p.leader[r])
        for _ in played:
            size[seat] += 1
            seat = next_seat(seat, sit)
        held = hands + [1 << d for d in played]
        twice = sum(h.bit_count() for h in held) != functools.reduce(int.__or__, held).bit_count()
        active = [size[s] for s in range(4) if s != sit]
        full = len(played) >= (3 if sit >= 0 else 4)
        out[r] = twice or max(active) != min(active) or seat != p.turn[r] or full
    return out


def test_the_compiled_check_of_positions_agrees_with_a_plain_one() -> None:
    data = np.load(Path(__file__).parent / "data" / "solver_values.npz")
    fields = ("hands", "ctx", "turn", "leader", "trick", "points", "side", "sitter")
    rng = np.random.default_rng(0)
    faults = 0
    for change in range(4):  # a domino moved or added, the wrong seat, a trick domino, another sitter
        p = solver.Positions(**{f: data[f].copy() for f in fields})
        rows = np.flatnonzero(rng.random(len(p)) < 0.5)
        if change == 0:
            p.hands[rows, rng.integers(0, 4)] ^= D.BIT[rng.integers(0, 28, len(rows))]
        elif change == 1:
            p.turn[rows] = (p.turn[rows] + rng.integers(1, 4, len(rows))) & 3
        elif change == 2:
            p.trick[rows, rng.integers(0, 4)] = rng.integers(-1, 28, len(rows))
        else:
            p.sitter[rows] = rng.integers(-1, 4, len(rows))
        bad = p.invalid()
        assert np.array_equal(bad, invalid_plainly(p))
        faults += int(bad.sum())
    assert faults > 300


def test_a_kept_solver_remembers_what_it_searched() -> None:
    """The table is the solver's and stays with it: the same positions again enter far fewer nodes, with the
    same values; another solver starts from nothing. The null-window question enters fewer than the value."""
    s = played_hands(12, seed=12)
    kept = solver.FortyTwoSolver()
    p = kept.positions(s, before=0)
    first = kept.solve(p)
    once = kept.nodes
    assert once > 0
    assert (kept.solve(p) == first).all()
    assert kept.nodes - once < once / 4
    other = solver.FortyTwoSolver()
    assert (other.solve(p) == first).all() and other.nodes == once
    asked = solver.FortyTwoSolver()
    assert asked.at_least(p, first).all() and 0 < asked.nodes < once


def test_values_match_the_stored_ones() -> None:
    """Positions from the opening lead, inside the first trick, mid-hand and late, under plain and special
    contracts (nello, doubles, no-trump, sevens) and both counts, with the values an earlier version of the
    solver gave them (benchmarks/solver_exact.py --fixture writes the file): a faster search must not change
    one. Fresh solvers, so that no earlier test's entries help."""
    data = np.load(Path(__file__).parent / "data" / "solver_values.npz")
    fields = ("hands", "ctx", "turn", "leader", "trick", "points", "side", "sitter")
    for kind, name in enumerate(solver.COUNT_KINDS):
        rows = np.flatnonzero(data["kind"] == kind)
        p = solver.Positions(**{f: data[f][rows] for f in fields})
        sv = solver.FortyTwoSolver(name)
        value = data["value"][rows].astype(np.int64)
        assert (sv.solve(p) == value).all()
        assert sv.at_least(p, value).all() and not sv.at_least(p, value + 1).any()


# ------------------------------------------------------------------ played hands

SEED = FortyTwoRules()


def played_hands(n: int, seed: int, rules: FortyTwoRules = SEED, spec: str = "heuristic") -> core.HandState:
    """Hands bid and played by a strategy; the thrown-in ones left out."""
    strat = strategy("forty-two", spec)
    rngs = [np.random.default_rng(seed + s) for s in range(4)]
    s = play_deals("forty-two", np.random.default_rng(seed), rngs, np.arange(n), rules, [strat] * 4)
    return s.take(np.flatnonzero(s.ctx >= 0))


def test_at_least_agrees_with_solve_from_the_start_of_play() -> None:
    s = played_hands(30, seed=5)
    p = SOLVER.positions(s, before=0)
    value = SOLVER.solve(p)
    assert SOLVER.at_least(p, value).all()
    assert not SOLVER.at_least(p, value + 1).any()
    assert SOLVER.at_least(p, 0).all()


def test_values_along_a_hand_end_with_the_points_taken_and_never_move_the_wrong_way() -> None:
    s = played_hands(20, seed=6, spec="random")
    values = SOLVER.values_along(s)
    side = s.high_bidder & 1
    ar = np.arange(len(s))
    assert (values[ar, s.n_played] == s.points[ar, side]).all()
    walked = [SOLVER.positions(s, before=k) for k in range(28)]
    for r in range(len(s)):
        nello = s.sitter[r] >= 0
        for k in range(int(s.n_played[r])):
            mover_declares = (walked[k].turn[r] & 1) == side[r]
            step = int(values[r, k + 1]) - int(values[r, k])
            # the maximizing side's play can only lower the value (or keep it), the other's only raise it
            assert (step <= 0) if mover_declares != nello else (step >= 0), (r, k, values[r])


def test_values_along_start_with_the_solve_value_and_positions_match_the_core() -> None:
    s = played_hands(20, seed=7)
    values = SOLVER.values_along(s)
    assert (values[:, 0] == SOLVER.solve(SOLVER.positions(s, before=0))).all()
    # the replayed position at the end is the core's own
    now, end = SOLVER.positions(s), SOLVER.positions(s, before=28)
    for f in ("hands", "turn", "points", "trick"):
        assert (getattr(now, f) == getattr(end, f)).all(), f


def children_values(s: core.HandState, r: int, k: int, rules: FortyTwoRules) -> tuple[int, list[int]]:
    """Row r replayed through the core up to its k-th play: the seat to play and, for each legal play, the
    declaring side's final points with perfect play after it (points taken + the solver's value)."""
    row = s.take(np.array([r]))
    state = core.with_contract(
        core.new_hands(row.deal, row.dealer, row.dealt.copy()),
        int(row.high_bidder[0]),
        int(row.high[0]),
        int(row.trump[0]),
        rules,
    )
    for d in row.plays[0, :k]:
        core.apply(state, slice(None), PLAY, np.array([d]), rules)
    _, legal = core.inputs(state, slice(None), PLAY, rules)
    side = int(row.high_bidder[0]) & 1
    out = []
    for d in np.flatnonzero(legal[0]):
        child = state.take(np.array([0]))
        core.apply(child, slice(None), PLAY, np.array([d]), rules)
        sv = SOLVERS[rules.count_values]
        value = sv.solve(sv.positions(child))[0]
        out.append(int(child.points[0, side]) + int(value))
    return int(state.turn[0]), out


@pytest.mark.parametrize("rules", [SEED, FortyTwoRules(count_values="texas")], ids=["seed", "texas"])
def test_the_value_before_each_play_is_the_best_of_its_children(rules: FortyTwoRules) -> None:
    s = played_hands(4, seed=8, rules=rules)
    values = SOLVERS[rules.count_values].values_along(s)
    for r in range(len(s)):
        side = int(s.high_bidder[r]) & 1
        for k in range(0, int(s.n_played[r]), 3):
            seat, kids = children_values(s, r, k, rules)
            best = max(kids) if (seat & 1) == side else min(kids)
            assert values[r, k] == best, (r, k, kids)


def test_special_contracts_replay_through_the_core() -> None:
    rules = FortyTwoRules(nello=True, sevens=True, declarations="pips,doubles,no-trump", count_values="texas")
    s = played_hands(60, seed=9, rules=rules, spec="random")
    assert (s.ctx >= 7).any()
    values = SOLVERS["texas"].values_along(s)
    ar = np.arange(len(s))
    assert (values[ar, s.n_played] == s.points[ar, s.high_bidder & 1]).all()
    assert ((values[:, 0] >= 0) & (values[:, 0] <= 42)).all()


@pytest.mark.slow
def test_solver_speed_from_the_start_of_play() -> None:
    """Mean time per deal on one core, each deal its own call (run with -s to see the figures;
    benchmarks/solver_speed.py times more deals). The time asserts leave room for a loaded machine; the
    nodes a deal (the same on every machine) are kept from growing more than a little past what the search
    enters now."""
    s = played_hands(400, seed=11)
    p = SOLVER.positions(s, before=0)
    bid = np.minimum(s.bid.astype(int), 42)
    SOLVER.solve(p.take(np.arange(1)))  # compiled or loaded from the cache
    times, nodes = {}, {}
    asks = {"solve": lambda sv, q, i: sv.solve(q), "at_least(bid)": lambda sv, q, i: sv.at_least(q, bid[i])}
    for name, ask in asks.items():
        fresh = solver.FortyTwoSolver()  # no help from what an earlier search left in a table
        spent = []
        for i in range(len(p)):
            q = p.take(np.array([i]))
            start = time.process_time()
            ask(fresh, q, i)
            spent.append(time.process_time() - start)
        times[name] = 1000 * np.array(spent)
        ms = times[name]
        nodes[name] = fresh.nodes / len(p)
        print(
            f"{name}: {len(p)} deals, mean {ms.mean():.2f} ms, median {np.median(ms):.2f} ms, "
            f"{fresh.nodes / len(p):,.0f} nodes a deal"
        )
    assert times["solve"].mean() < 2 and times["at_least(bid)"].mean() < 1
    assert nodes["solve"] < 16_400 and nodes["at_least(bid)"] < 6_800


def test_importing_the_simulator_does_not_import_numba() -> None:
    code = "import sys, simulator.cli, simulator.fortytwo.game; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_rule_tables_compiled_in_are_the_ones_built_now() -> None:
    compiled = solver._compiled_tables()
    assert all(np.array_equal(a, b) for a, b in zip(compiled, solver._TABLES, strict=True))
