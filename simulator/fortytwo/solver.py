"""Double-dummy solver for Forty-two's play phase: every hand seen, perfect play by all four.

The value of a position is the points the declaring side takes from there to the end of the hand (each trick
1 + its count, the current trick included), with the declaring side playing to take as many as it can and
the defenders as few. Under nello the aims swap: the declarer wants no trick, so his side minimizes and the
defenders maximize; the value is still the declaring side's points.

API (`simulator.search` has the parts both games' solvers share; all batched, one row per position, a single
position a batch of one):
- `Positions`: the four hands still held, the play context, the seat to play, the current trick so far,
  points taken, the declaring side, the nello sitter, and whether the row continues the row before
  (`follow_on`) or a first guess at its final points (`guess`): hints for the search that never change a
  value. `Positions.one(...)` builds one.
- `FortyTwoSolver(count_values)`, for one count ("seed" or "texas", rules.count_values):
  - `positions(state, before=None)`: the positions of core `HandState` rows: where they are now, or with
    `before=k` before their k-th play (replayed from the hands as dealt);
  - `solve(positions) -> (n,) int16`: the values;
  - `at_least(positions, target) -> (n,) bool`: value >= target (a null-window search, several times faster
    than `solve`);
  - `values_along(state) -> (n, 29) int16`: for hands already played, the declaring side's final points
    under perfect play from before each play on (points taken + value); column n_played is what it actually
    took. The drop (declarers' play) or rise (defenders' play) between two columns is what that play gave
    away;
  - `nodes`: the positions its searches have entered.

The search (numba, compiled on first use and cached on disk; import this module only where the solver runs:
numba is slow to import) is fail-soft alpha-beta over single plays:
- a transposition table probed at trick boundaries (the remaining hands and the leader fix the value of the
  rest of the hand). An entry holds a lower and an upper bound on that value and the best lead found; its
  key also holds the context, the count values and the declaring side (a nello sitter shows as the empty
  hand), so an entry stays true across calls and the solver's table is never cleared;
- bounds at trick boundaries: 0 .. every point left, the points of the leader's unbeatable dominoes
  (quick tricks), and the tricks of the top trumps held by one seat (each wins the trick it is played to);
  the last two tricks are played out by a small search of the first's lines (the last forced), its answer
  kept in the table;
- before the trick's last play, where it is not forced, a look in the table at the positions each play
  leads to (enhanced transposition cutoff), their slots prefetched first: the table (2 MB) is larger than
  the processor's nearest caches, and the reads then overlap;
- equivalent plays searched once: of two legal dominoes of one lead suit and count (not under sevens) only
  the higher is searched when no other hand holds a domino ranked between them in that suit, nor one that
  leads a suit one of them follows and the other does not, and (following) both or neither beat what holds
  the trick: whichever is played, the hand goes the same way (a run of the seat's own trumps is one play);
- moves ordered by a cheap trick heuristic, with the table's best lead first and then the killer move (the
  lead that last cut a search off at that ply of the call).
A full value is found by null-window searches that close in on it (`_root`, MTD(f): each search's
fail-soft answer is the next step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from simulator import search
from simulator.bitops import low_bit, popcount, prefetch
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.core import HandState
from simulator.fortytwo.view import PLUNGE, SPLASH

COUNT_KINDS = ("seed", "texas")


@dataclass
class Positions(search.Positions):
    """A batch of play positions. The current trick's led suit, winner and winning key are not stored: they
    follow from `trick`, `leader` and `ctx` (the kernel replays the trick). The count values are the
    solver's: `points` were taken under them."""

    hands: np.ndarray  # (n, 4) uint32 dominoes each seat still holds (a nello sitter's are ignored)
    ctx: np.ndarray  # (n,) int8 play context 0..11 (dominoes.py)
    turn: np.ndarray  # (n,) int8 seat to play
    leader: np.ndarray  # (n,) int8 seat that leads the current trick (== turn when leading)
    trick: np.ndarray  # (n, 4) int8 dominoes played to the current trick in order, -1 after the last
    points: np.ndarray  # (n, 2) int16 points taken so far, N-S then E-W
    side: np.ndarray  # (n,) int8 declaring side (0 N-S, 1 E-W)
    sitter: np.ndarray  # (n,) int8 seat that sits out (the nello declarer's partner), -1 = none
    # (n,) bool: the row continues the row before (the same hand after another play, or its next position),
    # so `solve` searches it from that row's final points (points taken + value) as a first guess, which
    # saves searches when they are close. Only the search's speed depends on it. None: no row does.
    follow_on: np.ndarray | None = None
    # (n,) int16: a first guess at the row's final points (points taken + value), -1 for none; where given it
    # is searched from instead of the row before's. Only the search's speed depends on it. None: no row has.
    guess: np.ndarray | None = None

    TRAILING: ClassVar[dict[str, tuple[int, ...]]] = {
        "hands": (4,),
        "ctx": (),
        "turn": (),
        "leader": (),
        "trick": (4,),
        "points": (2,),
        "side": (),
        "sitter": (),
        "follow_on": (),
        "guess": (),
    }
    WHAT = "positions of a hand"
    FAULTS = "a domino twice, uneven hands, the wrong seat to play or a finished trick"

    def __post_init__(self) -> None:
        if self.follow_on is None:
            self.follow_on = np.zeros(len(self.ctx), bool)
        if self.guess is None:
            self.guess = np.full(len(self.ctx), -1, np.int16)

    @classmethod
    def one(
        cls,
        hands,
        ctx: int,
        turn: int,
        side: int,
        *,
        leader: int | None = None,
        trick=(),
        points=(0, 0),
        sitter: int = -1,
    ) -> Positions:
        """A batch of one position; `hands` four bitmasks, `trick` the dominoes played to the current trick
        (in order from `leader`; empty when `turn` leads)."""
        row = np.full((1, 4), -1, np.int8)
        row[0, : len(trick)] = trick

        def one(v):
            return np.array([v], np.int8)

        return cls(
            hands=np.array([hands], np.uint32),
            ctx=one(ctx),
            turn=one(turn),
            leader=one(turn if leader is None else leader),
            trick=row,
            points=np.array([points], np.int16),
            side=one(side),
            sitter=one(sitter),
        )

    def invalid(self) -> np.ndarray:
        """The rows that are no position play can reach: a domino twice, the trick's players (from its
        leader, the sitter skipped) not each one domino short of the others, `turn` not the next of them, or
        the trick full (the rules of the play itself are not checked)."""
        i64 = search.i64
        return _invalid_rows(
            i64(self.hands), i64(self.trick), i64(self.leader), i64(self.turn), i64(self.sitter)
        )


# ------------------------------------------------------------------------------------------- the kernel

# The search keeps one frame per ply (ply p = p plays made since the root) in an int64 array; these name
# its columns: the trick so far, the window, the moves and how far through them, the table entry of a lead.
(
    _SEAT,
    _LEADER,
    _LED,
    _WINNER,
    _WKEY,
    _TPTS,
    _LEFT,
    _ALPHA,
    _BETA,
    _A,
    _B,
    _BEST,
    _MOVE,
    _IDX,
    _N,
    _MAX,
    _SLOT,
    _K1,
    _K2,
    _LO,
    _HI,
    _OFF,
    _D,
) = range(23)
_FRAME = 23
# Rows of the move lists `M` that `_two_tricks` keeps its levels in (level i in column i): the seat, its moves
# left, whether it maximizes, its best so far, its play; and the trick after i plays: winner, key, count.
_T_SEAT, _T_MOVES, _T_MAX, _T_BEST, _T_BIT, _T_WIN, _T_WKEY, _T_PTS = range(30, 38)


def _special_ranks() -> np.ndarray:
    """[ctx, d]: d's rank 0..6 (low to high) in the context's special suit (the trumps, or nello's doubles),
    -1 for the other dominoes; [ctx, 28 + r]: the domino of rank r. For equivalent dominoes (`_moves`)."""
    out = np.full((D.N_CONTEXTS, D.N_DOMINOES + 7), -1, np.int64)
    for c in (*range(8), D.NELLO_SUIT):
        members = [d for d in range(D.N_DOMINOES) if D.LEAD_SUIT[c, d] == D.TRUMP_LED]
        for r, d in enumerate(sorted(members, key=lambda d: D.KEY[c, D.TRUMP_LED, d])):
            out[c, d], out[c, D.N_DOMINOES + r] = r, d
    return out


def _equivalents() -> tuple[np.ndarray, np.ndarray]:
    """The tables of equivalent plays (`_moves`): `stand` [kind, ctx, d], the dominoes that may stand for d
    (of its lead suit and count, with a higher key in that suit; none under sevens, where what may be played
    depends on pips), and `apart` [ctx, d, e], the dominoes that keep d and e apart if another hand holds
    one: those with a key strictly between theirs in the suit they lead, and those that lead a suit one of
    them follows and the other does not; [ctx, d, d] is what every e of `stand` has in common, a first test.

    That is all there is: two dominoes of one lead suit both follow that suit and no other together, and in
    any suit both or neither follow, their keys rank them against every other domino as in their lead suit
    (tests/test_fortytwo_solver.py checks this against the rules)."""
    keys, lead_suit, follow = D.KEY.astype(np.int64), D.LEAD_SUIT, D.FOLLOW.astype(np.int64)
    n, nc = D.N_DOMINOES, D.N_CONTEXTS
    bit = np.int64(1) << np.arange(n, dtype=np.int64)
    stand = np.zeros((len(COUNT_KINDS), nc, n), np.int64)
    apart = np.zeros((nc, n, n), np.int64)
    for c in range(nc):
        if c == D.SEVENS_CTX:
            continue
        leads = [int(bit[lead_suit[c] == s].sum()) for s in range(8)]  # [suit]: the dominoes that lead it
        follows = (follow[c][:, None] >> np.arange(n)) & 1  # [suit, d]
        for d in range(n):
            a = lead_suit[c, d]
            k = keys[c, a]
            up = (lead_suit[c] == a) & (k > k[d])
            for e in np.flatnonzero(lead_suit[c] == a):
                if e == d:
                    continue
                lo, hi = min(k[d], k[e]), max(k[d], k[e])
                mask = int(bit[(k > lo) & (k < hi)].sum())
                for s in np.flatnonzero(follows[:, d] != follows[:, e]):
                    mask |= leads[s]
                apart[c, d, e] = mask
                if up[e]:
                    for i, kind in enumerate(COUNT_KINDS):
                        if D.COUNT_POINTS[kind][d] == D.COUNT_POINTS[kind][e]:
                            stand[i, c, d] |= bit[e]
            apart[c, d, d] = np.bitwise_and.reduce(apart[c, d, up]) if up.any() else -1
    return stand, apart


def _count_masks() -> np.ndarray:
    """[kind, j] = (a count value, the mask of the dominoes worth it), j < 2 (each count has at most two
    values; a missing one is (0, 0)): the count of a set of dominoes is sum_j value * popcount(set & mask)."""
    out = np.zeros((len(COUNT_KINDS), 2, 2), np.int64)
    for k, kind in enumerate(COUNT_KINDS):
        values = D.COUNT_POINTS[kind]
        for j, v in enumerate(sorted(set(values[values > 0].tolist()))):
            out[k, j] = v, sum(1 << int(d) for d in np.flatnonzero(values == v))
    return out


# The rule tables, int64 so that numba never mixes signed and unsigned integers. The kernels read them as
# module globals, which numba compiles into the code as constants: their shapes and strides are then known
# and no store can change them, so the search runs markedly faster than with the tables passed in. A cached
# compile keeps the tables it was built with; `search.rebuild_if_stale` makes it build again if they change.
_KEYS = D.KEY.astype(np.int64)  # [ctx, led, d]
_LEAD_SUIT = D.LEAD_SUIT.astype(np.int64)  # [ctx, d]
_FOLLOW = D.FOLLOW.astype(np.int64)  # [ctx, led]: bitmask of the dominoes that follow
_DISTANCE = D.SEVENS_DISTANCE.astype(np.int64)  # [d]
_COUNT = np.stack([D.COUNT_POINTS[k] for k in COUNT_KINDS]).astype(np.int64)  # [kind, d]
_RANKS = _special_ranks()
_BEATS = D.BEATS_LEAD.astype(np.int64)  # [ctx, d]: bitmask of what beats d as a lead
_CMASKS = _count_masks()  # [kind, j]
_STAND, _APART = _equivalents()  # [kind, ctx, d], [ctx, d, e]
_TABLES = (_KEYS, _LEAD_SUIT, _FOLLOW, _DISTANCE, _COUNT, _RANKS, _BEATS, _CMASKS, _STAND, _APART)
_INF = 1000
_TT_BITS = 16  # transposition table: 2**16 slots of 4 int64 (2 MB), each always replaced


@njit(cache=True)
def _compiled_tables():
    return _KEYS, _LEAD_SUIT, _FOLLOW, _DISTANCE, _COUNT, _RANKS, _BEATS, _CMASKS, _STAND, _APART


@njit(cache=True)
def _slot(k1, k2, mask):
    # Multiplications wrap; the high bits of a product depend on every bit of its factor, so the slot is
    # taken from the top.
    h = (k1 ^ (k2 * 0x9E3779B97F4A7C15)) * 0xC2B2AE3D27D4EB4F
    h = (h ^ (h >> 32)) * 0x165667B19E3779F9
    return (h >> 40) & mask


@njit(cache=True)
def _invalid_rows(hands, trick, leader, turn, sitter):
    """`Positions.invalid` row by row (compiled: a solver asked about one position at a time spends far less
    on the check so)."""
    n = hands.shape[0]
    out = np.zeros(n, np.bool_)
    size = np.zeros(4, np.int64)
    for r in range(n):
        sit = sitter[r]
        held, total = 0, 0
        for s in range(4):
            x = 0 if s == sit else hands[r, s]
            held |= x
            size[s] = popcount(x)
            total += size[s]
        seat, played = leader[r], 0
        for i in range(4):  # give the trick's dominoes back: then every active seat holds as many
            d = trick[r, i]
            if d < 0:
                continue
            held |= np.int64(1) << d
            total += 1
            size[seat] += 1
            played += 1
            seat = (seat + 1) & 3
            if seat == sit:
                seat = (seat + 1) & 3
        most, least = -1, 99
        for s in range(4):
            if s != sit:
                most, least = max(most, size[s]), min(least, size[s])
        per = 3 if sit >= 0 else 4
        out[r] = popcount(held) != total or most != least or seat != turn[r] or played >= per
    return out


# The functions `_search` calls are inlined by numba (inline="always"): left to LLVM they stayed calls, and a
# call that passes the hands, the frames and the tuples of the solve cost about a fifth of the search's time.
@njit(cache=True, inline="always")
def _moves(h, node, g, M, p):
    """The legal plays of the seat to play, best-looking first, into row p of `M` (their scores in row 29);
    returns how many. `node` is
    (seat, leading, led suit, winner, winning key, the table's best lead or -1, the killer or -1), `g` the
    solve's constants (`_search`).

    Of equivalent dominoes only the one with the highest key is kept: two legal dominoes of one lead suit and
    count (not under sevens) are equivalent when no other hand holds a domino ranked strictly between them in
    that suit, nor one that leads a suit one of them follows and the other does not, and, following, both
    or neither beat what holds the trick: whichever is played, the rest of the hand goes the same way (the
    tables: `_equivalents`; a domino of the same hand between them never meets them in a trick).
    Order: the table's best lead first, then the killer (the node's last element: the lead that last cut
    off at this ply, -1 for none); then leads no opponent can beat (count first), then the strongest;
    following, a winner (the cheapest, with count), else count on a trick the partner holds, else the
    lowest discard without count."""
    seat, leading, led, winner, wkey, tt_best, killer = node
    ctx, kind = g[0], g[1]
    keys, lead_suit, follow, distance = _KEYS, _LEAD_SUIT, _FOLLOW, _DISTANCE
    count, beats_lead, stand, apart = _COUNT, _BEATS, _STAND, _APART
    hand = h[seat]
    legal = _legal(hand, ctx, -1 if leading else led, follow, distance)
    others = (h[0] | h[1] | h[2] | h[3]) & ~hand
    mine = not leading and (seat & 1) == (winner & 1)
    n = 0
    m = legal
    while m:
        d = low_bit(m)
        m &= m - 1
        c = count[kind, d]
        same = stand[kind, ctx, d] & legal
        if same and not apart[ctx, d, d] & others:  # does a legal domino with a higher key stand for it?
            alike = False
            while same:
                e = low_bit(same)
                same &= same - 1
                # (following: both beat what holds the trick so far, or neither does)
                if not apart[ctx, d, e] & others and (
                    leading or (keys[ctx, led, e] > wkey) == (keys[ctx, led, d] > wkey)
                ):
                    alike = True
                    break
            if alike:
                continue
        if leading:
            ls = lead_suit[ctx, d]
            s = keys[ctx, ls, d] * 4 + c
            sure = True
            for o in (1, 3):  # can an opponent beat it (following suit where he must)?
                q = (seat + o) & 3
                lq = h[q] & follow[ctx, ls]
                if lq == 0:
                    lq = h[q]
                if lq & beats_lead[ctx, d]:
                    sure = False
            if sure:
                s += 1000 + c * 8
        else:
            k = keys[ctx, led, d]
            if k > wkey and not mine:
                s = 1000 + c * 16 - k
            elif mine:
                s = c * 16 - k
            else:
                s = -c * 16 - k
        if d == killer:
            s += 1 << 30
        if d == tt_best:
            s = 1 << 40
        i = n  # insertion sort, best first
        while i > 0 and M[29, i - 1] < s:
            M[p, i], M[29, i] = M[p, i - 1], M[29, i - 1]
            i -= 1
        M[p, i], M[29, i] = d, s
        n += 1
    return n


@njit(cache=True, inline="always")
def _quick_tricks(h, seat, rem, ctx, kind):
    """Points the leader's side takes for sure at a trick boundary: every domino of his that nothing
    left in another hand could beat as a lead wins its trick, and keeps winning while he leads them one
    after the other (the other hands only lose dominoes). Each such trick is worth 1 + at least its count.
    Not under sevens (the lead is forced there)."""
    if ctx == 11:
        return 0
    count, beats_lead = _COUNT, _BEATS
    others = rem & ~h[seat]
    sure = 0
    m = h[seat]
    while m:
        d = low_bit(m)
        m &= m - 1
        if not beats_lead[ctx, d] & others:
            sure += 1 + count[kind, d]
    return sure


@njit(cache=True, inline="always")
def _trump_run(h, rem, ctx, kind):
    """(points, seat): the top trump still held wins whatever trick it is played to, and so does each trump
    held by the same seat below it with no other hand's trump between: each of those tricks is the seat's
    side's, worth 1 + at least the trump's count. (0, 0) when no trump is left. Trump contexts only."""
    count, ranks = _COUNT, _RANKS
    holder = -1
    sure = 0
    for r in range(6, -1, -1):
        d = ranks[ctx, 28 + r]
        if not rem >> d & 1:
            continue
        s = 0
        while not h[s] >> d & 1:
            s += 1
        if holder < 0:
            holder = s
        elif s != holder:
            break
        sure += 1 + count[kind, d]
    return sure, max(holder, 0)


@njit(cache=True)
def _last_trick(h, seat, ctx, side, points, keys, lead_suit):
    """The value of the last trick, each seat holding one domino (the sitter none); `points` its worth."""
    led, winner, wkey = -1, -1, -1
    for _ in range(4):
        if h[seat]:
            d = low_bit(h[seat])
            if led < 0:
                led = lead_suit[ctx, d]
            k = keys[ctx, led, d]
            if k > wkey:
                winner, wkey = seat, k
        seat = (seat + 1) & 3
    return points if (winner & 1) == side else 0


@njit(cache=True, inline="always")
def _legal(hand, ctx, led, follow, distance):
    """The dominoes of `hand` that may be played to a trick of led suit `led` (-1: leading)."""
    legal = hand
    if led >= 0:
        f = hand & follow[ctx, led]
        if f:
            legal = f
    if ctx == 11:  # sevens: only the dominoes closest to seven pips
        nearest = 99
        m = legal
        while m:
            nearest = min(nearest, distance[low_bit(m)])
            m &= m - 1
        m = legal
        while m:
            b = m & -m
            m ^= b
            if distance[low_bit(b)] != nearest:
                legal ^= b
    return legal


@njit(cache=True)
def _next_seat(seat, sitter):
    seat = (seat + 1) & 3
    return (seat + 1) & 3 if seat == sitter else seat


@njit(cache=True, inline="always")
def _two_tricks(h, seat, alpha, beta, g, W):
    """The value of the last two tricks, `seat` to lead and each seat holding two dominoes (the sitter
    none): the lines of play of the first trick (at most 2 ** 4) searched within (alpha, beta), fail-soft,
    each with the last trick played out. `h` is changed and restored; `W` keeps the levels (rows _T_*)."""
    ctx, kind, side, sitter = g[0], g[1], g[2], g[3]
    keys, lead_suit, follow, distance, count = _KEYS, _LEAD_SUIT, _FOLLOW, _DISTANCE, _COUNT
    rem = h[0] | h[1] | h[2] | h[3]
    cm = _CMASKS[kind]  # the count of the dominoes left: the two tricks' count
    worth = cm[0, 0] * popcount(rem & cm[0, 1]) + cm[1, 0] * popcount(rem & cm[1, 1])
    n = 3 if sitter >= 0 else 4
    W[_T_SEAT, 0] = seat
    for i in range(n):
        if i:
            W[_T_SEAT, i] = _next_seat(W[_T_SEAT, i - 1], sitter)
        W[_T_MAX, i] = ((W[_T_SEAT, i] & 1) == side) != (sitter >= 0)
    led = -1
    i = 0
    W[_T_MOVES, 0] = _legal(h[seat], ctx, -1, follow, distance)
    W[_T_BEST, 0] = -_INF if W[_T_MAX, 0] else _INF
    W[_T_WIN, 0], W[_T_WKEY, 0], W[_T_PTS, 0] = -1, -1, 0
    while True:
        if W[_T_MOVES, i] == 0:  # level i done: hand its best to the level above
            v = W[_T_BEST, i]
            if i == 0:
                return v
            i -= 1
            h[W[_T_SEAT, i]] ^= W[_T_BIT, i]
        else:
            b = W[_T_MOVES, i] & -W[_T_MOVES, i]
            W[_T_MOVES, i] ^= b
            d = low_bit(b)
            q = W[_T_SEAT, i]
            if i == 0:
                led = lead_suit[ctx, d]
            k = keys[ctx, led, d]
            if k > W[_T_WKEY, i]:  # of equal keys the earlier play keeps the trick
                W[_T_WIN, i + 1], W[_T_WKEY, i + 1] = q, k
            else:
                W[_T_WIN, i + 1], W[_T_WKEY, i + 1] = W[_T_WIN, i], W[_T_WKEY, i]
            W[_T_PTS, i + 1] = W[_T_PTS, i] + count[kind, d]
            h[q] ^= b
            if i + 1 < n:
                W[_T_BIT, i] = b
                i += 1
                W[_T_MOVES, i] = _legal(h[W[_T_SEAT, i]], ctx, led, follow, distance)
                W[_T_BEST, i] = -_INF if W[_T_MAX, i] else _INF
                continue
            # the first trick is complete: its points, then the last trick played out
            w = W[_T_WIN, n]
            t = W[_T_PTS, n] + 1 if (w & 1) == side else 0
            v = t + _last_trick(h, w, ctx, side, worth - W[_T_PTS, n] + 1, keys, lead_suit)
            h[q] ^= b
        if W[_T_MAX, i]:
            W[_T_BEST, i] = max(W[_T_BEST, i], v)
            if W[_T_BEST, i] >= beta:  # (the root's window: a weaker cutoff than alpha-beta's, but sound)
                W[_T_MOVES, i] = 0
        else:
            W[_T_BEST, i] = min(W[_T_BEST, i], v)
            if W[_T_BEST, i] <= alpha:
                W[_T_MOVES, i] = 0


@njit(cache=True, inline="always")
def _several_legal(hand, ctx, led):
    """Whether a hand has more than one play to a trick led in `led` (not under sevens). With one, the
    enhanced transposition cutoff would only read the slot its child reads anyway."""
    f = hand & _FOLLOW[ctx, led]
    return popcount(f if f else hand) > 1


@njit(cache=True, inline="always")
def _known_cutoff(h, F, p, alpha, beta, g, T):
    """Enhanced transposition cutoff for the trick's last play (not under sevens), the node in frame p of
    `F` searched within (alpha, beta): if one of the plays ends the trick in a position the table already
    knows to be good enough for the side to play, that settles the node; so does every play's position known
    not to be (a fail-soft bound from the table's bounds). Returns (its value, -1), else (-1, the play the
    table's bounds make look best, to be tried first; -1 if none is known)."""
    seat, led, winner, wkey, tpts = F[p, _SEAT], F[p, _LED], F[p, _WINNER], F[p, _WKEY], F[p, _TPTS]
    ctx, kind, side, sitter, tag = g[0], g[1], g[2], g[3], g[4]
    keys, follow, count = _KEYS, _FOLLOW, _COUNT
    maximizing = ((seat & 1) == side) != (sitter >= 0)
    legal = h[seat] & follow[ctx, led]
    if legal == 0:
        legal = h[seat]
    # Every slot is asked of the memory first and read after: the reads are mostly cache misses, and so
    # they overlap instead of coming one after another.
    m = legal
    while m:
        bit = m & -m
        m ^= bit
        win = seat if keys[ctx, led, low_bit(bit)] > wkey else winner
        h[seat] ^= bit
        prefetch(T, _slot(h[0] | (h[1] << 28) | tag, h[2] | (h[3] << 28) | (win << 56), T.shape[0] - 1))
        h[seat] ^= bit
    known = True
    bound = -_INF if maximizing else _INF  # the best any play can do, by the table
    hint, hope = -1, -_INF  # the play the table thinks best, and how good (for the side to play)
    while legal:
        bit = legal & -legal
        legal ^= bit
        d = low_bit(bit)
        win = seat if keys[ctx, led, d] > wkey else winner
        t = tpts + count[kind, d] + 1 if (win & 1) == side else 0
        h[seat] ^= bit
        k1 = h[0] | (h[1] << 28) | tag
        k2 = h[2] | (h[3] << 28) | (win << 56)
        h[seat] ^= bit
        slot = _slot(k1, k2, T.shape[0] - 1)
        if T[slot, 0] == k1 and T[slot, 1] == k2:
            e = T[slot, 2]
            if maximizing:
                if t + (e & 255) >= beta:
                    return t + (e & 255), -1
                bound = max(bound, t + ((e >> 8) & 255))
                if t + (e & 255) > hope:
                    hint, hope = d, t + (e & 255)
            else:
                if t + ((e >> 8) & 255) <= alpha:
                    return t + ((e >> 8) & 255), -1
                bound = min(bound, t + (e & 255))
                if -(t + ((e >> 8) & 255)) > hope:
                    hint, hope = d, -(t + ((e >> 8) & 255))
        else:
            known = False
    if known and (bound <= alpha if maximizing else bound >= beta):
        return bound, -1
    return -1, hint


# Compiled without numba's reference counts (`_nrt=False`): the search makes no array and keeps none, and its
# caller holds every array it is given, so the counts (an atomic increment and decrement of each array an
# inlined function takes, at every node) guard nothing here.
@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # (a numba option its stubs leave out)
def _search(h, root, g, T, F, M):
    """The value of a position (the declaring side's points from here): `h` the four hands (int64; changed
    and restored), `root` the rest of the position and the window: (seat to play, the trick's leader, led
    suit, winner, winning key and count so far, plays still to come in it (the trick's size when leading),
    alpha, beta). Fail-soft alpha-beta: a result <= alpha is an upper bound, >= beta a lower bound. `g` =
    (ctx, count kind, declaring side, sitter, key tag), `T` the transposition table, `F`
    (30, _FRAME) frames and `M` (68, 8) move lists by ply (F[29, 0] counts the nodes; M[29] (the moves'
    scores) and M[30:38] (`_two_tricks`) are scratch; M[38 + p, 0] is ply p's killer, the lead that last cut
    off there, -1 for none). Arrays are passed whole with the row to use, never sliced: a slice's reference
    counts cost more than the rest of a node's work.

    A loop over an explicit stack (numba does not cache recursive functions reliably): ENTER sets up the
    node at ply p, NEXT tries its next move (pushing the child), RETURN hands a value to the parent."""
    ctx, kind, side, sitter, tag = g[0], g[1], g[2], g[3], g[4]
    keys, lead_suit, count = _KEYS, _LEAD_SUIT, _COUNT
    mask = T.shape[0] - 1
    per = 3 if sitter >= 0 else 4
    p = 0
    # (the root frame is written here, not by the caller: the compiled loop runs markedly faster so)
    seat, leader, led, winner, wkey, tpts, left, alpha, beta = root
    F[0, _SEAT], F[0, _LEADER], F[0, _LED], F[0, _WINNER], F[0, _WKEY] = seat, leader, led, winner, wkey
    F[0, _TPTS], F[0, _LEFT], F[0, _ALPHA], F[0, _BETA] = tpts, left, alpha, beta
    ENTER, NEXT, RETURN = 0, 1, 2
    mode = ENTER
    r = 0
    while True:
        if mode == ENTER:
            F[29, 0] += 1  # nodes searched
            seat, alpha, beta = F[p, _SEAT], F[p, _ALPHA], F[p, _BETA]
            leading = F[p, _LEFT] == per
            tt_best = -1
            mode = NEXT
            if leading:  # a trick boundary: bounds and the table
                rem = h[0] | h[1] | h[2] | h[3]
                top = popcount(rem) // per  # the rest is worth between 0 and every point left
                cm = _CMASKS[kind]
                top += cm[0, 0] * popcount(rem & cm[0, 1]) + cm[1, 0] * popcount(rem & cm[1, 1])
                if rem == 0 or top <= alpha:
                    r, mode = top, RETURN
                elif beta <= 0:
                    r, mode = 0, RETURN
                elif popcount(rem) == per:  # the last trick: every play is forced
                    r, mode = _last_trick(h, seat, ctx, side, top, keys, lead_suit), RETURN
                else:
                    # The key: the four hands (28 bits each), the leader, and the solve's fixed tag. Its slot
                    # is asked of the memory now and read after the bounds: the read is often a cache miss.
                    k1 = h[0] | (h[1] << 28) | tag
                    k2 = h[2] | (h[3] << 28) | (seat << 56)
                    slot = _slot(k1, k2, mask)
                    prefetch(T, slot)
                    lo, hi = 0, top
                    if sitter < 0:  # (under nello a side may not want the tricks it could take)
                        sure = _quick_tricks(h, seat, rem, ctx, kind)
                        if (seat & 1) == side:
                            lo = sure
                        else:
                            hi = top - sure
                        if ctx <= 7:
                            run, holder = _trump_run(h, rem, ctx, kind)
                            if (holder & 1) == side:
                                lo = max(lo, run)
                            else:
                                hi = min(hi, top - run)
                    if T[slot, 0] == k1 and T[slot, 1] == k2:
                        e = T[slot, 2]
                        lo, hi, tt_best = max(lo, e & 255), min(hi, (e >> 8) & 255), (e >> 16) - 1
                    if lo >= beta or lo == hi:
                        r, mode = lo, RETURN
                    elif hi <= alpha:
                        r, mode = hi, RETURN
                    alpha, beta = max(alpha, lo), min(beta, hi)
                    F[p, _SLOT], F[p, _K1], F[p, _K2], F[p, _LO], F[p, _HI] = slot, k1, k2, lo, hi
                    if mode == NEXT and popcount(rem) == 2 * per:  # the last two tricks: played out
                        r, mode = _two_tricks(h, seat, alpha, beta, g, M), RETURN
                        if r <= alpha:
                            hi = r
                        elif r >= beta:
                            lo = r
                        else:
                            lo = hi = r
                        T[slot, 0], T[slot, 1], T[slot, 2] = k1, k2, lo | (hi << 8)
            # (the table holds no position of the last trick: it is played out)
            if (
                mode == NEXT
                and F[p, _LEFT] == 1
                and ctx != 11
                and popcount(h[0] | h[1] | h[2] | h[3]) > per + 1
                and _several_legal(h[seat], ctx, F[p, _LED])
            ):
                r, tt_best = _known_cutoff(h, F, p, alpha, beta, g, T)
                if r >= 0:
                    mode = RETURN
            if mode == NEXT:
                node = (seat, leading, F[p, _LED], F[p, _WINNER], F[p, _WKEY], tt_best, M[38 + p, 0])
                F[p, _N] = _moves(h, node, g, M, p)
                maximizing = ((seat & 1) == side) != (sitter >= 0)  # nello: the declaring side minimizes
                F[p, _MAX] = maximizing
                F[p, _BEST] = -_INF if maximizing else _INF
                F[p, _ALPHA], F[p, _BETA], F[p, _A], F[p, _B] = alpha, beta, alpha, beta
                F[p, _IDX], F[p, _MOVE] = 0, -1
        elif mode == NEXT:
            i = F[p, _IDX]
            if i == F[p, _N] or F[p, _A] >= F[p, _B]:  # all moves tried, or a cutoff
                r, mode = F[p, _BEST], RETURN
                if F[p, _A] >= F[p, _B] and F[p, _LEFT] == per:  # the lead that cut off: the killer
                    M[38 + p, 0] = F[p, _MOVE]
                if F[p, _LEFT] == per:  # store what the search proved, against the window it ran with
                    lo, hi = F[p, _LO], F[p, _HI]
                    if r <= F[p, _ALPHA]:
                        hi = r
                    elif r >= F[p, _BETA]:
                        lo = r
                    else:
                        lo = hi = r
                    slot = F[p, _SLOT]
                    T[slot, 0], T[slot, 1] = F[p, _K1], F[p, _K2]
                    T[slot, 2] = lo | (hi << 8) | ((F[p, _MOVE] + 1) << 16)
                continue
            d = M[p, i]
            F[p, _IDX], F[p, _D] = i + 1, d
            seat = F[p, _SEAT]
            h[seat] ^= np.int64(1) << d
            if F[p, _LEFT] == per:
                led = lead_suit[ctx, d]
                winner, wkey = seat, keys[ctx, led, d]
            else:
                led, winner, wkey = F[p, _LED], F[p, _WINNER], F[p, _WKEY]
                k = keys[ctx, led, d]
                if k > wkey:  # of equal keys the earlier play keeps the trick
                    winner, wkey = seat, k
            tpts = F[p, _TPTS] + count[kind, d]
            q = p + 1
            if F[p, _LEFT] == 1:  # the trick is complete: its points count here, the winner leads next
                t = tpts + 1 if (winner & 1) == side else 0
                F[p, _OFF] = t
                F[q, _SEAT], F[q, _LEADER], F[q, _LED] = winner, winner, -1
                F[q, _WINNER], F[q, _WKEY], F[q, _TPTS], F[q, _LEFT] = -1, -1, 0, per
                F[q, _ALPHA], F[q, _BETA] = F[p, _A] - t, F[p, _B] - t
            else:
                nxt = (seat + 1) & 3
                if nxt == sitter:
                    nxt = (nxt + 1) & 3
                F[p, _OFF] = 0
                F[q, _SEAT], F[q, _LEADER], F[q, _LED] = nxt, F[p, _LEADER], led
                F[q, _WINNER], F[q, _WKEY], F[q, _TPTS], F[q, _LEFT] = winner, wkey, tpts, F[p, _LEFT] - 1
                F[q, _ALPHA], F[q, _BETA] = F[p, _A], F[p, _B]
            p = q
            mode = ENTER
        else:  # RETURN r from ply p to its parent
            if p == 0:
                return r
            p -= 1
            h[F[p, _SEAT]] ^= np.int64(1) << F[p, _D]
            v = F[p, _OFF] + r
            if F[p, _MAX]:
                if v > F[p, _BEST]:
                    F[p, _BEST], F[p, _MOVE] = v, F[p, _D]
                    F[p, _A] = max(F[p, _A], v)
            elif v < F[p, _BEST]:
                F[p, _BEST], F[p, _MOVE] = v, F[p, _D]
                F[p, _B] = min(F[p, _B], v)
            mode = NEXT


@njit(cache=True)
def _trick_so_far(trick, leader, ctx, sitter, kind):
    """(led suit, winner, winning key, count, dominoes played, seat to play) of a trick under way."""
    keys, lead_suit, count = _KEYS, _LEAD_SUIT, _COUNT
    led, winner, wkey, tpts, n = -1, -1, -1, 0, 0
    seat = leader
    for i in range(4):
        d = trick[i]
        if d < 0:
            break
        if i == 0:
            led = lead_suit[ctx, d]
        k = keys[ctx, led, d]
        if k > wkey:
            winner, wkey = seat, k
        tpts += count[kind, d]
        n += 1
        seat = (seat + 1) & 3
        if seat == sitter:
            seat = (seat + 1) & 3
    return led, winner, wkey, tpts, n, seat


@njit(cache=True)
def _root(rows, r, goal, kind, T, work):
    """Search row r of the positions `rows` (`Positions.kernel_rows`). `goal` = (target, guess): with
    target >= 0, whether the value is >= target (1 or 0), one null-window search; with target < 0, the
    value, by null-window searches that close in on it: with a guess >= 0, MTD(f) from the guess (two
    searches when it is right), else from 42. `work` = (frames, move lists)."""
    hands, ctx, turn, leader, trick, _, side, sitter, _, _ = rows
    target, guess = goal
    F, M = work
    c, sit, sd = ctx[r], sitter[r], side[r]
    h = np.zeros(4, np.int64)
    for s in range(4):
        if s != sit:  # the nello sitter plays nothing
            h[s] = hands[r, s]
    per = 3 if sit >= 0 else 4
    led, winner, wkey, tpts, n, _ = _trick_so_far(trick[r], leader[r], c, sit, kind)
    # Key bits for what stays fixed in a solve: context, count kind, declaring side. Nello and its sitter need
    # none: the sitter's hand is the one left empty while the others still hold dominoes.
    tag = (c << 56) | (kind << 60) | (sd << 61)
    g = (c, kind, sd, sit, tag)
    if target >= 0:
        v = _search(h, (turn[r], leader[r], led, winner, wkey, tpts, per - n, target - 1, target), g, T, F, M)
        return 1 if v >= target else 0
    lo, hi = 0, 43  # the value is in [lo, hi)
    v = guess if guess >= 0 else 42
    while lo + 1 < hi:
        # MTD(f): each search's fail-soft answer is the next step (from 42 without a guess: the fail low's
        # upper bound is often the value or near it), fewer nodes than bisection.
        beta = min(max(v, lo + 1), hi - 1)
        v = _search(h, (turn[r], leader[r], led, winner, wkey, tpts, per - n, beta - 1, beta), g, T, F, M)
        if v < beta:
            hi = v + 1  # fail low: v is an upper bound
        else:
            lo = v  # fail high: a lower bound
    return lo


@njit(cache=True)
def _solve_rows(rows, targets, kind, T):
    """_root over the positions `rows` (`Positions.kernel_rows`), a target per row (-1: the value): (the
    results, the nodes searched). A row with follow_on set continues the row before in the same hand: its
    exact value is searched from the previous row's final points (taken + value) as a guess; a row with a
    guess (>= 0) from that."""
    points, side, follow_on, guesses = rows[5], rows[6], rows[8], rows[9]
    n = points.shape[0]
    out = np.empty(n, np.int64)
    F = np.zeros((30, _FRAME), np.int64)
    M = np.zeros((38 + 30, 8), np.int64)
    M[38:] = -1  # no killer yet
    total = 0
    for r in range(n):
        taken = points[r, side[r]]
        guess = -1
        if guesses[r] >= 0:
            guess = min(max(guesses[r] - taken, 0), 42)
        elif follow_on[r]:
            guess = min(max(total - taken, 0), 42)
        out[r] = _root(rows, r, (targets[r], guess), kind, T, (F, M))
        total = taken + out[r]
    return out, F[29, 0]


@njit(cache=True)
def _walk(dealt, plays, n_played, first, ctx, sitter, kind):
    """Replay played hands from the deal: the position before each play k = 0..28 (k = n_played: the end)
    as hands (n, 29, 4), seat to play, leader, trick (n, 29, 4) and points taken (n, 29, 2)."""
    n = dealt.shape[0]
    hands = np.zeros((n, 29, 4), np.int64)
    turn = np.full((n, 29), -1, np.int64)
    lead = np.full((n, 29), -1, np.int64)
    trick = np.full((n, 29, 4), -1, np.int64)
    points = np.zeros((n, 29, 2), np.int64)
    for r in range(n):
        per = 3 if sitter[r] >= 0 else 4
        h = dealt[r].copy()
        cur = np.full(4, -1, np.int64)
        pts = np.zeros(2, np.int64)
        leader = first[r]
        seat = leader
        m = 0
        for k in range(n_played[r] + 1):
            hands[r, k], turn[r, k], lead[r, k], trick[r, k], points[r, k] = h, seat, leader, cur, pts
            if k == n_played[r]:
                break
            d = plays[r, k]
            h[seat] &= ~(np.int64(1) << d)
            cur[m] = d
            m += 1
            _, winner, _, tpts, _, seat = _trick_so_far(cur, leader, ctx[r], sitter[r], kind)
            if m == per:
                pts[winner & 1] += tpts + 1
                leader = seat = winner
                cur[:] = -1
                m = 0
    return hands, turn, lead, trick, points


# ------------------------------------------------------------------------------------------ the Python side

search.rebuild_if_stale(_compiled_tables, _TABLES, globals())


class FortyTwoSolver(search.Solver[Positions]):
    """The double-dummy solver for one count (`count_values`: "seed" or "texas", rules.count_values).

    Its transposition table: 2**16 rows [key 1, key 2, lo | hi << 8 | (best lead + 1) << 16, unused] (keys
    -1: empty), each slot always replaced; 2 MB, made on first use (a larger table holds more but is slower:
    its reads miss the processor's caches more often)."""

    TABLE_SHAPE = (1 << _TT_BITS, 4)

    def __init__(self, count_values: str = "seed") -> None:
        if count_values not in COUNT_KINDS:
            raise ValueError(f"count_values must be one of {', '.join(COUNT_KINDS)}, not {count_values!r}")
        super().__init__()
        self.count_values = count_values
        self._kind = COUNT_KINDS.index(count_values)

    def solve(self, positions: Positions) -> np.ndarray:
        """(n,) int16: the points the declaring side takes from each position to the end of the hand with
        perfect play (under nello the declaring side plays to take as few as it can). A row with `follow_on`
        set is searched from the row before's final points (points taken + value) as a first guess, a row
        with a `guess` from that."""
        return super().solve(positions)

    def at_least(self, positions: Positions, target: int | np.ndarray) -> np.ndarray:
        """(n,) bool: whether the declaring side takes at least `target` more points (one target per row or
        one for all) with perfect play: a null-window search, several times faster than `solve`. A target
        <= 0 is always reached."""
        n = len(positions)
        if np.ndim(target) == 0 and target > 0:  # one target for all (the common case, kept cheap)
            return self._run(positions, (np.full(n, target, np.int64),)) == 1
        # (a copy: a broadcast target is read-only, which the kernel would be compiled again for)
        t = np.array(np.broadcast_to(np.asarray(target, np.int64), n))
        out = np.ones(n, bool)
        ask = t > 0
        if ask.all():
            out[:] = self._run(positions, (t,)) == 1
        elif ask.any():
            out[ask] = self._run(positions.take(np.flatnonzero(ask)), (search.i64(t[ask]),)) == 1
        return out

    def positions(self, s: HandState, before: int | None = None) -> Positions:
        """The play positions of core rows (each must have reached the play): where they stand now, or with
        `before=k` before their k-th play (0 = the opening lead; rows that had not made k plays: where they
        stand)."""
        _reached_play(s)
        side = (s.high_bidder & 1).astype(np.int8)
        if before is None:
            trick = np.full((len(s), 4), -1, np.int8)
            for i in range(4):
                at = s.trick_start.astype(np.int64) + i
                inside = at < s.n_played
                trick[inside, i] = s.plays[np.flatnonzero(inside), at[inside]]
            return Positions(
                s.hands.copy(),
                s.ctx.copy(),
                s.turn.copy(),
                s.leader.copy(),
                trick,
                s.points.copy(),
                side,
                s.sitter.copy(),
            )
        hands, turn, leader, trick, points = self._walked(s)
        k = np.minimum(before, s.n_played.astype(np.int64))
        ar = np.arange(len(s))
        return Positions(
            hands[ar, k].astype(np.uint32),
            s.ctx.copy(),
            turn[ar, k].astype(np.int8),
            leader[ar, k].astype(np.int8),
            trick[ar, k].astype(np.int8),
            points[ar, k].astype(np.int16),
            side,
            s.sitter.copy(),
        )

    def values_along(self, finished: HandState) -> np.ndarray:
        """(n, 29) int16 for played hands: column k (k < n_played) is the declaring side's final points with
        perfect play from before play k on (points taken so far + the value there); column n_played is the
        points it took; -1 after. A declaring-side play that lowers the next column (a defender's that raises
        it) gave that many points away; under nello the other way round."""
        return super().values_along(finished)

    def lines(self, finished: HandState) -> search.Lines[Positions]:
        """One line per hand, one row per play made, hand by hand and play by play: each search takes the
        value before it as its first guess (`follow_on`). A row's value is the rest of the hand's, so the
        points the declaring side had taken are its offset."""
        s = finished
        _reached_play(s)
        hands, turn, leader, trick, points = self._walked(s)
        n = len(s)
        played = s.n_played.astype(np.int64)
        side = (s.high_bidder & 1).astype(np.int64)
        rows, ks = np.nonzero(np.arange(29)[None, :] < played[:, None])
        at = (rows, ks)
        p = Positions(
            hands[at],
            s.ctx[rows],
            turn[at],
            leader[at],
            trick[at],
            points[at],
            side[rows],
            s.sitter[rows],
            follow_on=ks > 0,
        )
        ar = np.arange(n)
        return search.Lines(
            positions=p,
            starts=search.line_starts(played),
            played=s.plays[at].astype(np.int64),
            end=points[ar, played, side],
            offset=points[rows, ks, side[rows]],
            shape=(n, 29),
            at=at,
            end_at=(ar, played),
        )

    def _solve_ask(self, positions: Positions) -> tuple[np.ndarray, ...]:
        return (np.full(len(positions), -1, np.int64),)  # a target of -1: the value itself

    def _line_ask(self, lines: search.Lines[Positions]) -> tuple[np.ndarray, ...]:
        return self._solve_ask(lines.positions)

    def _kernel(self, rows: tuple[np.ndarray, ...], ask: tuple[np.ndarray, ...]) -> tuple[np.ndarray, int]:
        (targets,) = ask
        return _solve_rows(rows, targets, self._kind, self.table)

    def _walked(self, s: HandState) -> tuple[np.ndarray, ...]:
        i64 = search.i64
        return _walk(
            i64(s.dealt),
            i64(s.plays),
            i64(s.n_played),
            _first_leader(s),
            i64(s.ctx),
            i64(s.sitter),
            self._kind,
        )


def _reached_play(s: HandState) -> None:
    if (s.ctx < 0).any():
        raise ValueError("every row must have reached the play (a contract named)")


def _first_leader(s: HandState) -> np.ndarray:
    """Who led the first trick: the declarer, or his partner after a plunge or splash."""
    partner = (s.high == PLUNGE) | (s.high == SPLASH)
    return np.where(partner, (s.high_bidder + 2) & 3, s.high_bidder).astype(np.int64)
