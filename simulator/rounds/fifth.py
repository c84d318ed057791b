"""Who decided the fifth trick of a stage whose first four tricks one player took.

The holder of tricks 1-4 leads trick 5. He can lose it (duck) only by leading a card the opponent can beat
with a legal reply; the opponent then decides: he takes the trick, or lets it through and hands the holder
the sweep. So a stage at stake ends in one of four ways, read from the hands both players held at trick 5
(rebuilt from the deal and the plays):

    OPPONENT_TOOK  the holder led a card the opponent could beat, and the opponent took the trick (the
                   holder ducked, or tried to take it and was beaten: he cannot see the opponent's hand);
    LET_THROUGH    the holder led a card the opponent could beat, and the opponent did not take it: the
                   sweep was the opponent's choice;
    TOOK           the holder led a card the opponent could not beat while holding one it could: the sweep
                   was the holder's doing;
    NO_CHOICE      the opponent could beat none of the holder's cards: the sweep was forced on both.

"Could beat" is judged on the actual hands (double dummy).
"""

from __future__ import annotations

import numpy as np

from simulator import tricks
from simulator.rounds import cards as C
from simulator.rounds.view import N_STAGES, TRICKS_PER_STAGE

NOT_AT_STAKE, OPPONENT_TOOK, LET_THROUGH, TOOK, NO_CHOICE = -1, 0, 1, 2, 3
CALL_NAMES = {
    OPPONENT_TOOK: "opponent took it",
    LET_THROUGH: "opponent let it through",
    TOOK: "holder took it, could have lost it",
    NO_CHOICE: "holder could not lose it",
}


def _beatable(hand: np.ndarray, other: np.ndarray, ctx: np.ndarray) -> np.ndarray:
    """uint64 bitmask of the cards of `hand` that, led, `other` could beat with a legal reply in `ctx`: one
    pass per card held (the lowest left in each row), not one per card of the deck."""
    out = np.zeros(len(hand), np.uint64)
    rest = hand.copy()
    while (rest != 0).any():
        low = rest & (~rest + np.uint64(1))  # each row's lowest card left, as a bit (0 once none is left)
        held = low != 0
        c = np.where(held, np.bitwise_count(low - np.uint64(1)), 0).astype(np.intp)
        legal = tricks.legal_bits(other, C.FOLLOW_CARD[ctx, c], leading=False)  # the opponent's replies
        out |= np.where(held & ((legal & C.BEATS_LEAD[ctx, c]) != 0), low, np.uint64(0))
        rest ^= low
    return out


def fifth_trick_calls(
    dealt: np.ndarray, plays: np.ndarray, winners: np.ndarray, faces: np.ndarray, rank_trumps: bool
) -> np.ndarray:
    """`fifth_trick_calls_numpy` compiled (`kernels.fifth_trick_calls`): the same codes, one pass over the
    games."""
    from simulator.rounds import kernels  # numba: loaded only where Rounds plays

    return kernels.fifth_trick_calls(
        np.ascontiguousarray(dealt, np.uint64),
        np.ascontiguousarray(plays, np.int8),
        np.ascontiguousarray(winners, np.int8),
        np.ascontiguousarray(faces, np.int8),
        C.context(np.arange(C.N_CARDS), rank_trumps).astype(np.int16),
        np.ascontiguousarray(C.FOLLOW_CARD.reshape(-1)),
        np.ascontiguousarray(C.BEATS_LEAD.reshape(-1), np.uint64),
        np.array([NOT_AT_STAKE, OPPONENT_TOOK, LET_THROUGH, TOOK, NO_CHOICE], np.int8),
    )


def fifth_trick_calls_numpy(
    dealt: np.ndarray, plays: np.ndarray, winners: np.ndarray, faces: np.ndarray, rank_trumps: bool
) -> np.ndarray:
    """(n, 5) int8: per stage, how its fifth trick was decided (the codes above), NOT_AT_STAKE where no
    player took tricks 1-4. Inputs are a finished game's: hands right after each stage's deal (n, 5, 2),
    the plays (n, 50), trick winners (n, 25) and the face-up cards (n, 5, 2)."""
    n = len(plays)
    out = np.full((n, N_STAGES), NOT_AT_STAKE, np.int8)
    for k in range(N_STAGES):
        won = winners[:, k * TRICKS_PER_STAGE : k * TRICKS_PER_STAGE + 4]
        r = np.flatnonzero((won[:, 0] == won[:, 1]) & (won[:, 1] == won[:, 2]) & (won[:, 2] == won[:, 3]))
        if not len(r):  # only the stages at stake need the hands compared
            continue
        # the hands at trick 5: as dealt, less the eight (distinct) cards of tricks 1-4
        gone = C.BIT[plays[r, 10 * k : 10 * k + 8].astype(np.intp)].sum(axis=1, dtype=np.uint64)
        hands = dealt[r, k] & ~gone[:, None]
        holder_1 = won[r, 0] == 1
        mine = np.where(holder_1, hands[:, 1], hands[:, 0])
        theirs = np.where(holder_1, hands[:, 0], hands[:, 1])
        trump_card = faces[r, k, 1] if k == N_STAGES - 1 else faces[r, k, 0]  # stage 5's trick 5 has its own
        beatable = _beatable(mine, theirs, C.context(trump_card, rank_trumps))
        led_beatable = (beatable & C.BIT[plays[r, 10 * k + 8].astype(np.intp)]) != 0
        holder_lost = winners[r, k * TRICKS_PER_STAGE + 4] != won[r, 0]
        out[r, k] = np.select(
            [holder_lost, led_beatable, beatable != 0], [OPPONENT_TOOK, LET_THROUGH, TOOK], NO_CHOICE
        )
    return out
