"""Perfect-information solver for one Rounds stage: both hands seen, perfect play by both players.

What a position is worth. A stage is five tricks and is scored on its own (`shared/rules/rounds.md`): a player
who takes all five tricks scores `sweep_bonus` and no card points (the other scores 0); otherwise each scores
the card points of the cards he took. A stage is NOT constant-sum: in stages 1-4 each player plays only 5 of
the 9 cards he holds, so the points in play depend on the play, and a sweep scores the bonus instead of the
cards. "The points a player takes with perfect play by both" is therefore only defined once it is said what
each player plays for. Two objectives, both zero-sum, both from the point of view of a measured player:

- ``"margin"`` (the default, and what the play-quality measure uses): the measured player's stage score less
  the other's; the measured player plays to make it as high as he can, the other as low. A game (and a match)
  is won on totals, so this is what a player wants from a stage; the other player's value is its negative.
- ``"points"``: the measured player's own stage score, the other playing only to hold it down (what he can
  make sure of taking). A player's own and the other's values then come from two different games.

The value is the stage's score only: the cards a player keeps for the next stage (4 of his 9 in stages 1-4)
and the match score (target 200) play no part. The next stage's deal is unknown to both, so a stage is as
far as a perfect-information value reaches; a play that spends a card worth keeping for later is not
charged for it here.

The value of a position includes what the players have taken earlier in the stage: it is the measured player's
final stage result (stage score, or the margin of the stage scores) when both play perfectly from there on.

API (`simulator.search` has the parts both games' solvers share; batched, one row per position, a single
position a batch of one):
- `Positions`: both hands still held, the trump context of tricks 1-4 and of trick 5 (they differ only in
  stage 5), the player to move, the trick's leader and the card led (-1 while leading), the trick of the
  stage, the tricks and card points each player has taken in it, and the measured player.
  `Positions.one(...)` builds a single position.
- `RoundsSolver(rules, objective="margin", keep=None, scale=1)`, for one rule set and objective (`keep`: a
  worth added for each card still held at the stage's end, which the expert uses to value the cards carried
  into the next stage; `scale`: values in 1/scale points, so that such worths need not be whole points):
  - `solve(positions) -> (n,) int16`: the values;
  - `positions_along(state, player=0)`: for finished games of the batched core (`simulator.rounds.core`),
    the position before every play of every stage (replayed from the hands as dealt);
  - `values_along(state) -> (n, 5, 11, 2) int16`: [game, stage, play j, player] the player's value before
    play j of the stage; column 10 is the result the stage actually had. A player's own play can only keep
    or lower his value (he could have chosen the perfect play); what it lowered it by is what that play
    gave away;
  - `nodes`: the positions its searches have entered.

The search (numba, compiled on first use and cached on disk; import this module only where the solver runs:
numba is slow to import) is fail-soft alpha-beta over single plays, with:
- a transposition table at trick boundaries. Once both players have taken a trick no sweep is possible, and
  the rest of the stage adds to what was taken the same whatever that was: such an entry holds a lower and
  an upper bound on what the rest adds, keyed by both hands and the leader. While one player has taken every
  trick so far, an entry holds bounds on the result itself and its key also holds the points taken. Every key
  also holds the trick number and a generation number: consecutive rows of one call with the same trump
  contexts and measured player (the positions of one played stage) share a generation, so later rows find
  the earlier searches' entries; any other row starts a new one, so an entry is never used under other
  contexts or measured player (a solver has one scoring). The table also keeps each position's best lead,
  tried first;
- the last trick played out directly (at most 5 leads by 5 replies);
- equivalent cards searched once: two cards of the mover in the same (effective) suit, worth the same
  points, with no card of the other hand (nor the card led) ranking between them, in every trump context
  still to come, play alike for the rest of the stage;
- moves ordered by a cheap trick heuristic (first a lead the other cannot beat, the most points first, then
  the strongest, point cards last; when replying, win, with the most points and then as cheaply as possible,
  else throw the fewest points).
The search is one compiled loop over an explicit stack of frames: the move lists and the last trick are
inlined into it, the rule tables (the same for every rule set) are compiled in as constants while the card
points and keep worths are the solver's arguments, and it runs without numba's reference counts (it makes
and keeps no array).
`values_along` walks each played stage backwards from its result: the value after a play is then known, and
the value before it is the same unless another play does better for its mover, which a search of the other
plays with the window open on that side only settles (about 6,000 positions searched per game, under a
millisecond).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from simulator import search
from simulator.bitops import low_bit
from simulator.rounds import cards as C
from simulator.rounds.core import GameState, card_points
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import N_STAGES, TRICKS_PER_STAGE

OBJECTIVES = ("margin", "points")
PLAYS_PER_STAGE = 2 * TRICKS_PER_STAGE


@dataclass
class Positions(search.Positions):
    """A batch of positions inside a stage."""

    hands: np.ndarray  # (n, 2) uint64 the cards each player still holds
    ctx: np.ndarray  # (n, 2) int16 trump context (cards.context) of tricks 1-4 and of trick 5
    turn: np.ndarray  # (n,) int8 the player to play
    leader: np.ndarray  # (n,) int8 the player who leads the current trick (== turn when leading)
    led: np.ndarray  # (n,) int8 the card led to the current trick, -1 while leading
    trick: np.ndarray  # (n,) int8 tricks of the stage already played, 0..4
    tricks: np.ndarray  # (n, 2) int8 tricks each player has taken in the stage
    taken: np.ndarray  # (n, 2) int16 card points each player has taken in the stage
    player: np.ndarray  # (n,) int8 the measured player

    TRAILING: ClassVar[dict[str, tuple[int, ...]]] = {
        "hands": (2,),
        "ctx": (2,),
        "turn": (),
        "leader": (),
        "led": (),
        "trick": (),
        "tricks": (2,),
        "taken": (2,),
        "player": (),
    }
    WHAT = "positions of a stage"
    FAULTS = "a card twice, the wrong player to move, uneven or too short hands, or tricks not adding up"

    @classmethod
    def one(
        cls,
        hands,
        trump_card: int | tuple[int, int],
        turn: int,
        *,
        rules: RoundsRules,
        led: int = -1,
        tricks=(0, 0),
        taken=(0, 0),
        player: int = 0,
    ) -> Positions:
        """A batch of one position: `hands` two lists of card ids (or two bitmasks), `trump_card` the
        face-up card that rules the stage, or the two of stage 5 (tricks 1-4, trick 5). The trick of the
        stage is the tricks taken so far, and the trick's leader the player to move while leading, else the
        other."""
        bits = [h if isinstance(h, (int, np.integer)) else sum(1 << int(c) for c in h) for h in hands]
        cards = (trump_card, trump_card) if np.ndim(trump_card) == 0 else tuple(trump_card)
        ctx = C.context(np.array(cards), rules.rank_trumps)

        def one(v, dt=np.int8):
            return np.array([v], dt)

        return cls(
            hands=np.array([bits], np.uint64),
            ctx=ctx[None, :].astype(np.int16),
            turn=one(turn),
            leader=one(turn if led < 0 else 1 - turn),
            led=one(led),
            trick=one(sum(tricks)),
            tricks=np.array([tricks], np.int8),
            taken=np.array([taken], np.int16),
            player=one(player),
        )

    def invalid(self) -> np.ndarray:
        """The rows that are no position play can reach: a card twice, the wrong player to move, hands not
        as long as the trick allows or too short to finish the stage, tricks and trick not agreeing."""
        n = len(self)
        ar = np.arange(n)
        hands = self.hands.astype(np.uint64)
        size = np.bitwise_count(hands).astype(np.int64)
        led = self.led.astype(np.int64)
        leading = led < 0
        led_bit = np.where(leading, np.uint64(0), C.BIT[np.maximum(led, 0)])
        overlap = ((hands[:, 0] & hands[:, 1]) | ((hands[:, 0] | hands[:, 1]) & led_bit)) != 0
        turn, leader = self.turn.astype(np.int64), self.leader.astype(np.int64)
        wrong_turn = np.where(leading, turn != leader, turn != 1 - leader) | (turn < 0) | (turn > 1)
        leader_size = size[ar, np.clip(leader, 0, 1)]
        mover_size = size[ar, np.clip(turn, 0, 1)]
        uneven = np.where(leading, size[:, 0] != size[:, 1], mover_size != leader_size + 1)
        trick = self.trick.astype(np.int64)
        short = mover_size < TRICKS_PER_STAGE - trick
        counts = (
            (self.tricks.astype(np.int64).sum(axis=1) != trick) | (trick < 0) | (trick >= TRICKS_PER_STAGE)
        )
        return overlap | wrong_turn | uneven | short | counts | ~np.isin(self.player, (0, 1))


# ------------------------------------------------------------------------------------------- the kernel

# The rule tables, int64 (no unsigned arithmetic in the kernel; hands use bits 0-51): _KEY [ctx, suit, c] a
# card's strength in a trick whose lead belongs to suit (the higher wins, on equal keys the lead),
# _EFFECTIVE [ctx, c] the suit a card belongs to, _FOLLOW [ctx, suit] the cards of that suit, _OWN [ctx, c] a
# card's strength in its own suit (_KEY where that suit is led). They are the same for every rule set, and
# the kernels read them as globals: numba compiles them in as constants (known shapes, no loads of an array's
# fields). A cached compile keeps the tables it was built with; `search.rebuild_if_stale` makes it
# build again if they change.
# A solver's `R` is (card points [c] under its rules, keep [c]), per solver: keep is what a card left in a
# hand at the stage's end adds to its holder's result (zero but for the expert, which values the cards
# carried into the next stage).
_KEY = C.KEY.astype(np.int64)
_EFFECTIVE = C.EFFECTIVE.astype(np.int64)
_FOLLOW = C.FOLLOW.astype(np.int64)
_OWN = np.take_along_axis(C.KEY, C.EFFECTIVE[:, None, :].astype(np.intp), axis=1)[:, 0].astype(np.int64)
_TABLES = (_KEY, _EFFECTIVE, _FOLLOW, _OWN)
_INF = 1 << 20
_TT_BITS = 12  # 2**12 slots of 8 int64 (256 KB: it stays in cache), each always replaced
# env: per-row constants of the search
_CTX_A, _CTX_B, _BONUS, _W, _GEN, _NODES, _SKIP = range(7)


@njit(cache=True)
def _compiled_tables():
    return _KEY, _EFFECTIVE, _FOLLOW, _OWN


@njit(cache=True, inline="always")
def _stage_result(s0, s1, n0, n1, bonus, w):
    """Player 0's stage score less w times player 1's, from the points and tricks each took."""
    if n0 == TRICKS_PER_STAGE:
        return bonus
    if n1 == TRICKS_PER_STAGE:
        return -w * bonus
    return s0 - w * s1


@njit(cache=True, inline="always")
def _moves(legal, other, led, ctxs, R, work, p):
    """Into row p of the move lists, best first: the `legal` cards worth searching, one of each set of
    equivalent cards (the highest); returns their count. `other` is the other player's hand, `led` the card
    led (-1 while leading), `ctxs` = (ctx, ctx2): the trick's context and that of a later trick of the stage
    where it differs (else -1); `R` = (card points, keep) the solver's; `work` the search's (`_search`): row
    p of the move lists and of their scores is written, and the rank scratch. Cards alike for the rest of
    the stage: the same points and keep, the same suit in every context to come, and no card of the other
    hand (nor the card led) ranking between them (or, for a rank trump, level with the higher). Inlined
    where it is called, and given whole arrays and a row, not a row's view: it runs at every node."""
    ctx, ctx2 = ctxs
    pts, keep = R
    out, score, rk = work
    eff, own = _EFFECTIVE, _OWN
    n = 0
    x = legal
    while x != 0:
        low = x & -x
        out[p, n] = low_bit(low)
        n += 1
        x ^= low
    rivals = other if led < 0 else other | (1 << led)  # the card led stands between cards like the others
    for q in range(2):
        cx = ctx if q == 0 else ctx2
        rk[q, 0] = rk[q, 1] = rk[q, 2] = rk[q, 3] = 0
        if cx < 0:
            continue
        z = rivals
        while z != 0:
            low = z & -z
            z ^= low
            o = low_bit(low)
            rk[q, eff[cx, o]] |= 1 << own[cx, o]
    for i in range(n):
        c = out[p, i]
        dominated = False
        # the only cards that can play like c: the other legal ones of its suit in every context to come
        alike_suit = legal & ~(1 << c) & _FOLLOW[ctx, eff[ctx, c]]
        if ctx2 >= 0:
            alike_suit &= _FOLLOW[ctx2, eff[ctx2, c]]
        while alike_suit != 0:
            low = alike_suit & -alike_suit
            alike_suit ^= low
            d = low_bit(low)
            if pts[d] != pts[c] or keep[d] != keep[c]:
                continue
            alike = True  # c and d play alike, and d is the higher: c need not be searched
            for q in range(2):
                cx = ctx if q == 0 else ctx2
                if cx < 0:
                    break
                s = eff[cx, c]
                kc, kd = own[cx, c], own[cx, d]
                # d the higher (of equal strengths, two rank trumps: the higher id), and no rival above c up
                # to d's strength (a rival rank trump level with d beats it when it leads)
                if kd < kc or (kd == kc and d < c) or (kd > kc and rk[q, s] & ((2 << kd) - (2 << kc)) != 0):
                    alike = False
                    break
            if alike:
                dominated = True
                break
        score[p, i] = dominated
    m = 0
    for i in range(n):
        if not score[p, i]:
            out[p, m] = out[p, i]
            m += 1
    # order: first a lead the other cannot beat (the most points first), then the strongest (a point card
    # last: it would be lost); when replying, win (with the most points, then as cheaply as possible), else
    # throw the fewest points
    trump = ctx // 14
    for i in range(m):
        c = out[p, i]
        if led < 0:
            s = eff[ctx, c]
            k = own[ctx, c]
            beaten = (rk[0, s] >> (k + 1)) != 0 if rk[0, s] != 0 else s != trump and rk[0, trump] != 0
            if beaten:
                score[p, i] = k * 64 + pts[c] - (5_000 if pts[c] > 0 else 0)
            else:
                score[p, i] = 10_000 + pts[c] * 64 + k
        else:
            s = eff[ctx, led]
            k = -1
            if eff[ctx, c] == s or eff[ctx, c] == trump:
                k = own[ctx, c] + (100 if eff[ctx, c] != s else 0)
            score[p, i] = 10_000 + pts[c] * 200 - k if k > own[ctx, led] else -(pts[c] * 64 + own[ctx, c])
    for i in range(1, m):  # insertion sort, highest score first
        c, sc = out[p, i], score[p, i]
        j = i - 1
        while j >= 0 and score[p, j] < sc:
            out[p, j + 1], score[p, j + 1] = out[p, j], score[p, j]
            j -= 1
        out[p, j + 1], score[p, j + 1] = c, sc
    return m


@njit(cache=True, inline="always")
def _last_trick(f, q, env, pts, keep):
    """The stage result from its last trick with perfect play, played out here: the position in frame q of
    `f` (its card led -1: not yet led), fail-soft within the frame's window; the trick's context, the sweep
    bonus and the scoring weight from `env`; `pts` the card points, and the cards left in the hands after it
    add their `keep`."""
    key, eff, follow = _KEY, _EFFECTIVE, _FOLLOW
    h0, h1, leader, led = f[q, _H0], f[q, _H1], f[q, _LEADER], f[q, _LED]
    s0, s1, n0, n1 = f[q, _S0], f[q, _S1], f[q, _N0], f[q, _N1]
    alpha, beta = f[q, _ALPHA], f[q, _BETA]
    ctx, bonus, w = env[_CTX_B], env[_BONUS], env[_W]
    sign = 1 if leader == 0 else -1  # the leader maximizes sign * result
    lo, hi = (alpha, beta) if leader == 0 else (-beta, -alpha)
    best_lead = -_INF
    x = (h0 if leader == 0 else h1) if led < 0 else (1 << led)
    reply_hand = h1 if leader == 0 else h0
    # the keep of both hands as they are, player 0's less w times player 1's (no cards are left in stage 5)
    kept = 0
    z = h0
    while z != 0:
        low = z & -z
        z ^= low
        kept += keep[low_bit(low)]
    z = h1
    while z != 0:
        low = z & -z
        z ^= low
        kept -= w * keep[low_bit(low)]
    while x != 0:
        low = x & -x
        x ^= low
        c = low_bit(low)
        s = eff[ctx, c]
        legal = reply_hand & follow[ctx, s]
        if legal == 0:
            legal = reply_hand
        floor = max(best_lead, lo)  # a reply at or below this settles the lead: it cannot do better
        worst = _INF
        while legal != 0:
            low = legal & -legal
            legal ^= low
            d = low_bit(low)
            p = pts[c] + pts[d]
            win = leader if key[ctx, s, d] <= key[ctx, s, c] else 1 - leader
            # the two cards played are no longer kept (a card led before this frame was already out)
            led_here = keep[c] if led < 0 else 0
            gone = led_here - w * keep[d] if leader == 0 else keep[d] - w * led_here
            if win == 0:
                v = sign * (_stage_result(s0 + p, s1, n0 + 1, n1, bonus, w) + kept - gone)
            else:
                v = sign * (_stage_result(s0, s1 + p, n0, n1 + 1, bonus, w) + kept - gone)
            worst = min(worst, v)
            if worst <= floor:
                break
        best_lead = max(best_lead, worst)
        if best_lead >= hi:
            break
    return sign * best_lead


# The search keeps one frame per ply (ply p = p plays made since the root) in an int64 array (a self-recursive
# function crashed when numba loaded it from its cache); these name its columns: the position, the window,
# the best value so far, the table slot and what the table knew, the moves and how far through them.
(
    _H0,
    _H1,
    _TURN,
    _LEADER,
    _LED,
    _T,
    _N0,
    _N1,
    _S0,
    _S1,
    _ALPHA,
    _BETA,
    _A0,
    _B0,
    _BEST,
    _SLOT,
    _KLO,
    _KHI,
    _NMOVES,
    _IDX,
    _BASE,
    _XKEY,
    _FIRST,
) = range(23)
_FRAME = 23
_ENTER, _NEXT, _RETURN = range(3)


# Compiled without numba's reference counts (`_nrt=False`): the search makes no array and keeps none, and
# its caller holds every array it is given, so the counts (an atomic increment and decrement of each array
# argument of every inlined function, at every node) guard nothing here.
@njit(cache=True, _nrt=False)
def _search(f, env, R, tt, work):
    """Player 0's stage result (his stage score less env[_W] times player 1's) with perfect play from the
    position in frame 0 of `f` (hands, player to move, leader, card led or -1, trick 0..4, tricks and card
    points taken), within the window in its _ALPHA, _BETA (fail-soft). Player 0 maximizes, player 1
    minimizes. `R` = (card points, keep), `tt` the transposition table, `work` = (move lists, their scores,
    rank scratch) by ply. The functions it calls at every node (`_moves`, `_last_trick`) are inlined here."""
    pts, keep = R
    key, eff, follow = _KEY, _EFFECTIVE, _FOLLOW
    mv = work[0]
    w, gen = env[_W], env[_GEN]
    ctx_a, ctx_b = env[_CTX_A], env[_CTX_B]
    tmask = (1 << _TT_BITS) - 1
    p = 0
    v = 0
    mode = _ENTER
    while True:
        if mode == _ENTER:
            env[_NODES] += 1
            t = f[p, _T]
            h0, h1, leader, led = f[p, _H0], f[p, _H1], f[p, _LEADER], f[p, _LED]
            n0, n1 = f[p, _N0], f[p, _N1]
            if t == TRICKS_PER_STAGE - 1:  # the last trick: played out here
                v = _last_trick(f, p, env, pts, keep)
                mode = _RETURN
                continue
            f[p, _SLOT], f[p, _KLO], f[p, _KHI], f[p, _BASE], f[p, _FIRST] = -1, -_INF, _INF, 0, -1
            if led < 0 and 0 < t < TRICKS_PER_STAGE - 1:
                # Once both players have a trick no sweep is possible: the rest of the stage adds to what was
                # taken (base) what the hands and the leader make of it, and the entry holds that. While one
                # player has every trick so far, the entry holds the result itself and its key the points
                # taken.
                if n0 > 0 and n1 > 0:
                    f[p, _BASE], f[p, _XKEY] = f[p, _S0] - w * f[p, _S1], 0
                else:
                    f[p, _XKEY] = 1 + f[p, _S0] * 4096 + f[p, _S1]
                x = h0 * 0x5851F42D4C957F2D + h1 * 0x2545F4914F6CDD1D + leader + f[p, _XKEY] * 0x1F3D5B79
                slot = ((x >> 24) ^ x) & tmask
                f[p, _SLOT] = slot
                if (
                    tt[slot, 0] == (h0 | (leader << 52))
                    and tt[slot, 1] == h1
                    and tt[slot, 2] == (gen | (t << 48))
                    and tt[slot, 3] == f[p, _XKEY]
                ):
                    lo, hi = tt[slot, 4] + f[p, _BASE], tt[slot, 5] + f[p, _BASE]
                    if lo >= f[p, _BETA] or lo == hi:
                        v = lo
                        mode = _RETURN
                        continue
                    if hi <= f[p, _ALPHA]:
                        v = hi
                        mode = _RETURN
                        continue
                    f[p, _ALPHA] = max(f[p, _ALPHA], lo)
                    f[p, _BETA] = min(f[p, _BETA], hi)
                    f[p, _KLO], f[p, _KHI], f[p, _FIRST] = lo, hi, tt[slot, 6]
            f[p, _A0], f[p, _B0] = f[p, _ALPHA], f[p, _BETA]
            turn = f[p, _TURN]
            ctx = ctx_b if t == TRICKS_PER_STAGE - 1 else ctx_a
            ctx2 = ctx_b if t < TRICKS_PER_STAGE - 1 and ctx_b != ctx_a else -1
            mine = h0 if turn == 0 else h1
            legal = mine
            if led >= 0:
                follows = mine & follow[ctx, eff[ctx, led]]
                if follows != 0:
                    legal = follows
            f[p, _NMOVES] = _moves(legal, h1 if turn == 0 else h0, led, (ctx, ctx2), R, work, p)
            if p == 0 and env[_SKIP] >= 0:  # a root play whose value is known already: not searched again
                f[p, _SLOT] = -1  # (and what the others make is no value of the position for the table)
                m = 0
                for i in range(f[p, _NMOVES]):
                    if mv[p, i] != env[_SKIP]:
                        mv[p, m] = mv[p, i]
                        m += 1
                f[p, _NMOVES] = m
            first = f[p, _FIRST]
            if first >= 0:  # the best lead of an earlier search first
                for i in range(f[p, _NMOVES]):
                    if mv[p, i] == first:
                        for j in range(i, 0, -1):
                            mv[p, j] = mv[p, j - 1]
                        mv[p, 0] = first
                        break
            f[p, _IDX] = 0
            f[p, _BEST] = -_INF if turn == 0 else _INF
            f[p, _FIRST] = -1
            mode = _NEXT
        elif mode == _NEXT:
            if f[p, _IDX] < f[p, _NMOVES] and f[p, _ALPHA] < f[p, _BETA]:
                c = mv[p, f[p, _IDX]]
                f[p, _IDX] += 1
                q = p + 1
                for k in range(_FRAME):
                    f[q, k] = f[p, k]
                turn, leader, led, t = f[p, _TURN], f[p, _LEADER], f[p, _LED], f[p, _T]
                f[q, _H0 + turn] &= ~(1 << c)
                if led < 0:
                    f[q, _TURN], f[q, _LED] = 1 - turn, c
                else:
                    ctx = ctx_b if t == TRICKS_PER_STAGE - 1 else ctx_a
                    s = eff[ctx, led]
                    win = turn if key[ctx, s, c] > key[ctx, s, led] else leader
                    f[q, _TURN], f[q, _LEADER], f[q, _LED], f[q, _T] = win, win, -1, t + 1
                    f[q, _N0 + win] += 1
                    f[q, _S0 + win] += pts[c] + pts[led]
                    if t + 1 == TRICKS_PER_STAGE - 1:  # the last trick, played out without a frame of its own
                        env[_NODES] += 1
                        v = _last_trick(f, q, env, pts, keep)  # (q's window is p's: copied above)
                        mode = _RETURN
                        p = q
                        continue
                p = q
                mode = _ENTER
            else:
                v = f[p, _BEST]
                slot = f[p, _SLOT]
                if slot >= 0:  # what this search showed, with what the table knew
                    lo, hi = f[p, _KLO], f[p, _KHI]
                    if v <= f[p, _A0]:
                        hi = min(hi, v)
                    elif v >= f[p, _B0]:
                        lo = max(lo, v)
                    else:
                        lo, hi = v, v
                    tt[slot, 0], tt[slot, 1] = f[p, _H0] | (f[p, _LEADER] << 52), f[p, _H1]
                    tt[slot, 2], tt[slot, 3] = gen | (f[p, _T] << 48), f[p, _XKEY]
                    tt[slot, 4], tt[slot, 5], tt[slot, 6] = lo - f[p, _BASE], hi - f[p, _BASE], f[p, _FIRST]
                mode = _RETURN
        else:
            if p == 0:
                return v
            p -= 1
            if f[p, _TURN] == 0:
                if v > f[p, _BEST]:
                    f[p, _BEST], f[p, _FIRST] = v, mv[p, f[p, _IDX] - 1]
                    f[p, _ALPHA] = max(f[p, _ALPHA], v)
            elif v < f[p, _BEST]:
                f[p, _BEST], f[p, _FIRST] = v, mv[p, f[p, _IDX] - 1]
                f[p, _BETA] = min(f[p, _BETA], v)
            mode = _NEXT


@njit(cache=True)
def _root(f, i, rows, alpha, beta):
    """Frame 0 of `f`: row i of the positions `rows` (`Positions.kernel_rows`) seen with its measured player
    as player 0, the window (alpha, beta)."""
    hands, _, turn, leader, led, trick, tricks, taken, player = rows
    me = player[i]
    f[0, _H0], f[0, _H1] = hands[i, me], hands[i, 1 - me]
    f[0, _TURN], f[0, _LEADER], f[0, _LED], f[0, _T] = turn[i] ^ me, leader[i] ^ me, led[i], trick[i]
    f[0, _N0], f[0, _N1], f[0, _S0], f[0, _S1] = (
        tricks[i, me],
        tricks[i, 1 - me],
        taken[i, me],
        taken[i, 1 - me],
    )
    f[0, _ALPHA], f[0, _BETA] = alpha, beta


@njit(cache=True)
def _solve_rows(rows, lines, scoring, R, tt, generation):
    """The measured player's value of every row of the positions `rows` (`Positions.kernel_rows`; the
    kernel sees him as player 0), and the nodes searched. `scoring` = (w, sweep bonus): the result is player
    0's stage score less w times player 1's. `generation` (1,): the last table generation used, kept by the
    solver and moved on here.

    `lines` = (starts, played, last) all empty: each row on its own, a full-window search. Consecutive rows
    with the same contexts and measured player share the table's entries (one generation); any other row
    starts a new generation.
    Else the rows are lines of play (a played stage): line k's positions before each of its plays are rows
    starts[k] .. starts[k + 1] - 1 in play order, played[i] the card played at row i, and last[k] line k's
    value after its last play. Walking each line backwards, the value after a row's play is known, and the
    row's value is that, unless another play does better for the mover: a search of the other plays with
    the window open only on that side says which (and by how much)."""
    ctx, turn, player = rows[1], rows[2], rows[8]
    starts, played, last = lines
    n = len(turn)
    out = np.empty(n, np.int64)
    env = np.zeros(7, np.int64)
    work = (
        np.zeros((2 * TRICKS_PER_STAGE + 1, 16), np.int64),  # move lists by ply
        np.zeros((2 * TRICKS_PER_STAGE + 1, 16), np.int64),  # their scores
        np.zeros((2, 4), np.int64),  # the other hand's strengths by suit
    )
    f = np.zeros((2 * TRICKS_PER_STAGE + 1, _FRAME), np.int64)
    env[_W], env[_BONUS], env[_SKIP] = scoring[0], scoring[1], -1
    if len(starts) == 0:
        for i in range(n):
            if (
                i == 0
                or ctx[i, 0] != ctx[i - 1, 0]
                or ctx[i, 1] != ctx[i - 1, 1]
                or player[i] != player[i - 1]
            ):
                generation[0] += 1
            env[_CTX_A], env[_CTX_B], env[_GEN] = ctx[i, 0], ctx[i, 1], generation[0]
            _root(f, i, rows, -_INF, _INF)
            out[i] = _search(f, env, R, tt, work)
    else:
        for k in range(len(starts) - 1):
            generation[0] += 1
            after = last[k]
            for i in range(starts[k + 1] - 1, starts[k] - 1, -1):
                env[_CTX_A], env[_CTX_B], env[_GEN] = ctx[i, 0], ctx[i, 1], generation[0]
                env[_SKIP] = played[i]
                if turn[i] == player[i]:  # the measured player moves: did another play get him more?
                    _root(f, i, rows, after, _INF)
                    after = max(after, _search(f, env, R, tt, work))
                else:  # or the other player: did another play hold him lower?
                    _root(f, i, rows, -_INF, after)
                    after = min(after, _search(f, env, R, tt, work))
                out[i] = after
    return out, env[_NODES]


# ------------------------------------------------------------------------------------------ the Python side


search.rebuild_if_stale(_compiled_tables, _TABLES, globals())


class RoundsSolver(search.Solver[Positions]):
    """The stage solver for one rule set (`rules`: the trump ranking, the sweep bonus, the card points) and
    one objective ("margin" or "points": the module docstring).

    Its transposition table: 2**12 rows [player 0's hand | leader << 52, player 1's hand, generation | trick
    << 48, points key (0 once no sweep is possible), lower bound, upper bound, best lead, unused] (-1:
    empty), each slot always replaced; 256 KB, so that it stays in cache. Entries of other generations are
    never used (`_solve_rows`), so the table is never cleared."""

    TABLE_SHAPE = (1 << _TT_BITS, 8)

    def __init__(
        self, rules: RoundsRules, objective: str = "margin", keep: np.ndarray | None = None, scale: int = 1
    ) -> None:
        """`keep` (52,) integers, None for none: what each card still in a hand at the stage's end adds to
        its holder's result (under "margin", the other's subtracts), in the values' unit; `scale`: the
        values' unit is 1/scale point (card points and the sweep bonus are multiplied by it). With neither,
        the values are the stage's alone, in points."""
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        super().__init__()
        self.rules = rules
        self.objective = objective
        self._scoring = (1 if objective == "margin" else 0, int(rules.sweep_bonus) * scale)
        kept = np.zeros(C.N_CARDS, np.int64) if keep is None else search.i64(keep)
        self._R = (search.i64(card_points(rules)) * scale, kept)
        self._generation = np.zeros(1, np.int64)

    def solve(self, positions: Positions) -> np.ndarray:
        """(n,) int16: the measured player's stage result with perfect play by both from each position on:
        under "margin" his stage score less the other's, under "points" his stage score (module docstring)."""
        return super().solve(positions)

    def positions_along(self, s: GameState, player: int = 0) -> Positions:
        """For finished games: the position before every play of every stage, rows in the order game, stage,
        play (n * 5 * 10 rows), replayed from each stage's hands as dealt; `player` the measured player."""
        n = len(s)
        if (s.n_played != 2 * N_STAGES * TRICKS_PER_STAGE).any():
            raise ValueError("every game must be finished")
        ar = np.arange(n)
        shape = (n, N_STAGES, PLAYS_PER_STAGE)
        hands = np.zeros((*shape, 2), np.uint64)
        tricks = np.zeros((*shape, 2), np.int8)
        taken = np.zeros((*shape, 2), np.int16)
        turn, leader, led, trick = (np.zeros(shape, np.int8) for _ in range(4))
        pts = card_points(self.rules)
        for k in range(N_STAGES):
            h = s.dealt[:, k].copy()
            won = np.zeros((n, 2), np.int8)
            got = np.zeros((n, 2), np.int16)
            lead_card = np.full(n, -1, np.int8)
            for j in range(PLAYS_PER_STAGE):
                t = j // 2
                first = s.trick_leaders[:, k * TRICKS_PER_STAGE + t].astype(np.intp)
                mover = first if j % 2 == 0 else 1 - first
                hands[:, k, j], tricks[:, k, j], taken[:, k, j] = h, won, got
                turn[:, k, j], leader[:, k, j], trick[:, k, j] = mover, first, t
                led[:, k, j] = -1 if j % 2 == 0 else lead_card
                card = s.plays[:, k * PLAYS_PER_STAGE + j].astype(np.intp)
                h[ar, mover] &= ~C.BIT[card]
                if j % 2 == 0:
                    lead_card = card.astype(np.int8)
                else:
                    winner = s.trick_winners[:, k * TRICKS_PER_STAGE + t].astype(np.intp)
                    won[ar, winner] += 1
                    got[ar, winner] += pts[card] + pts[lead_card]
        ctx = np.broadcast_to(stage_contexts(s.faces, self.rules)[:, :, None, :], (*shape, 2))

        def flat(a):
            return a.reshape(n * N_STAGES * PLAYS_PER_STAGE, *a.shape[3:])

        return Positions(
            hands=flat(hands),
            ctx=flat(np.ascontiguousarray(ctx)),
            turn=flat(turn),
            leader=flat(leader),
            led=flat(led),
            trick=flat(trick),
            tricks=flat(tricks),
            taken=flat(taken),
            player=np.full(n * N_STAGES * PLAYS_PER_STAGE, player, np.int8),
        )

    def values_along(self, finished: GameState) -> np.ndarray:
        """(n, 5, 11, 2) int16 for finished games: [game, stage, j, player] the player's stage result with
        perfect play by both from before play j of the stage (j = 0..9); j = 10 is the result the stage had.
        Under "margin" (the stage score less the other's) player 1's values are player 0's negated; under
        "points" (the own stage score, the other holding it down) each player's come from a search of their
        own. A player's own play can only keep or lower his value; the drop is what it gave away."""
        out = super().values_along(finished)
        if self.objective == "margin":
            out[..., 1] = -out[..., 0]
        return out

    def lines(self, finished: GameState) -> search.Lines[Positions]:
        """One line per stage of each game and measured player (player 0 only under "margin": player 1's
        values are the negatives), lines in the order player, game, stage; a line's end is the result the
        stage had."""
        s = finished
        n = len(s)
        players = (0,) if self.objective == "margin" else (0, 1)
        score = s.stage_score.astype(np.int64)
        ends = [score[:, :, p] - (score[:, :, 1 - p] if self.objective == "margin" else 0) for p in players]
        game, stage, j = (a.reshape(-1) for a in np.indices((n, N_STAGES, PLAYS_PER_STAGE)))
        line_game, line_stage = (a.reshape(-1) for a in np.indices((n, N_STAGES)))
        rows = n * N_STAGES * PLAYS_PER_STAGE
        who = np.repeat(np.array(players), rows)
        line_who = np.repeat(np.array(players), n * N_STAGES)
        k = len(players)
        return search.Lines(
            positions=Positions.concat([self.positions_along(s, p) for p in players]),
            starts=search.line_starts(np.full(k * n * N_STAGES, PLAYS_PER_STAGE)),
            played=np.tile(s.plays.reshape(-1).astype(np.int64), k),
            end=np.concatenate([e.reshape(-1) for e in ends]),
            offset=np.zeros(k * rows, np.int64),
            shape=(n, N_STAGES, PLAYS_PER_STAGE + 1, 2),
            at=(np.tile(game, k), np.tile(stage, k), np.tile(j, k), who),
            end_at=(
                np.tile(line_game, k),
                np.tile(line_stage, k),
                np.full(k * n * N_STAGES, PLAYS_PER_STAGE),
                line_who,
            ),
        )

    def _solve_ask(self, positions: Positions) -> tuple[np.ndarray, ...]:
        none = np.zeros(0, np.int64)
        return none, none, none  # no lines: each row on its own

    def _line_ask(self, lines: search.Lines[Positions]) -> tuple[np.ndarray, ...]:
        return search.i64(lines.starts), search.i64(lines.played), search.i64(lines.end)

    def _kernel(self, rows: tuple[np.ndarray, ...], ask: tuple[np.ndarray, ...]) -> tuple[np.ndarray, int]:
        return _solve_rows(rows, ask, self._scoring, self._R, self.table, self._generation)


def stage_contexts(faces: np.ndarray, rules: RoundsRules) -> np.ndarray:
    """(n, 5, 2) int16: the trump context of tricks 1-4 and of trick 5 of every stage, from the face-up
    cards (n, 5, 2) of finished games."""
    first = C.context(faces[:, :, 0], rules.rank_trumps)
    second = first.copy()
    second[:, N_STAGES - 1] = C.context(faces[:, N_STAGES - 1, 1], rules.rank_trumps)
    return np.stack([first, second], axis=2).astype(np.int16)
