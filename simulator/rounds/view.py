"""What a Rounds player may see when it plays a card, and how a play is encoded.

There is one decision kind, PLAY; the action is the card id (see `cards`). A view holds one row per
pending decision. It holds the player's own hand and the public record: the face-up card(s) of the stage,
every card played this game, tricks and card points taken so far. Never the other hand, nor the stock, nor
where an earlier stage's trump card went when it was shuffled back. Its arrays are read-only.
"""

from __future__ import annotations

from simulator.views import View

PLAY, DONE = 0, 1
KIND_NAMES = ("play",)
N_ACTIONS = (52,)
N_STAGES, TRICKS_PER_STAGE = 5, 5
N_PLAYS = 2 * N_STAGES * TRICKS_PER_STAGE  # 50 cards are played in a game


class RoundsView(View):
    # seat          int8: the deciding player, 0 or 1
    # dealer        int8: this stage's dealer
    # stage         int8: 0..4
    # trick         int8: trick of the stage, 0..4
    # hand          uint64 bitmask of the player's cards
    # face_up       (m, 2) int8: the stage's face-up card(s); in stages 0..3 the second is -1.
    # trump         int8: trump suit of the current trick
    # trump_rank    int8: rank of the rank trumps of the current trick, -1 without rank_trumps
    # leader        int8: the player who leads the current trick
    # led           int8: the card led to the current trick, -1 while leading
    # plays         (m, 50) int8: cards in the order played this game, -1 after the last
    # n_played      int8
    # played        uint64 bitmask of the cards played this game
    # stage_tricks  (m, 2) int8: tricks each player has taken in this stage
    # stage_points  (m, 2) int16: card points each player has taken in this stage
    # points        (m, 2) int16: each player's score from the completed stages of this game
    # scores        (m, 2) int32: match totals before this game
    FIELDS = (
        "seat",
        "dealer",
        "stage",
        "trick",
        "hand",
        "face_up",
        "trump",
        "trump_rank",
        "leader",
        "led",
        "plays",
        "n_played",
        "played",
        "stage_tricks",
        "stage_points",
        "points",
        "scores",
    )
