"""What a Frank's Zoo player may see when it decides, and how its decisions are encoded.

Decision kinds and their actions:
- EXCHANGE: give one card (to the partner) or, playing solo, set one aside: the action is its kind, 0..12.
  From the second hand on, `exchange_cards` times for each player, in this order: team by team (the team
  of the best-ranked senior first), the junior gives his cards one at a time, then the senior (holding
  them) gives his, one at a time; then the solo player sets his aside. A junior's cards reach his senior
  when the junior has given all of them, the senior's reach the junior when the senior has.
- PLAY: 0 = pass; 1 + s = play set s (cards.SETS); 1 + N_SETS + p = ask the senior for help, laying
  partial p (cards.PARTIALS). On a lead only sets are legal; a player who could lay no set there (he holds
  only the chameleon) is skipped, and the lead moves to the next player clockwise who holds cards.
- ANSWER (the senior asked for help): 0 = decline; 1 + s = add cards so that the laid cards and his
  form set s.
A view holds one row per pending decision: the player's own hand and the public record of the hand;
never another hand, the partner's included. Seats beyond the player count read as 0 (or -1 where noted).

Where the rules leave room for help (decided here, kept after the help-value study was built):
- a junior whose only card is the chameleon may still ask for help with it: the chameleon cannot be
  played alone, so asking is the only way it can leave his hand, and the rules let a junior ask whenever
  there is a set to beat;
- a lone chameleon or mosquito is laid "as" a named kind (a partial of PARTIALS names it), and the senior
  may complete only that kind: at the table the junior says what he is asking for, and a chameleon has no
  kind of its own;
- a request is legal whenever some set could complete the laid cards, even if no unseen card can: what is
  legal may not depend on hidden cards or on counting; counting is the strategy's part (the heuristic
  counts by default, `simulator.franks_zoo.requests`; with `count=false` about a quarter of its requests
  could not be completed by any unseen card).
"""

from __future__ import annotations

import numpy as np

from simulator.franks_zoo.cards import N_PARTIALS, N_SETS
from simulator.views import View

EXCHANGE, PLAY, ANSWER, DONE = 0, 1, 2, 3
KIND_NAMES = ("exchange", "play", "answer")
N_ACTIONS = (13, 1 + N_SETS + N_PARTIALS, 1 + N_SETS)
PASS = 0
ASK = 1 + N_SETS  # actions ASK .. ASK + N_PARTIALS - 1 ask for help
MAX_PLAYERS = 7
ALONE, SENIOR, JUNIOR, SOLO = 0, 1, 2, 3


class FranksZooView(View):
    # seat          int8: the deciding player
    # players       int8: how many play
    # hand_no       int16: 0 for the first hand of the game
    # hand          (m, 13) int8: the player's cards, a count per kind
    # counts        (m, 7) int8: how many cards each seat holds
    # table         int16: the set on the table (cards.SETS index), -1 when there is none (a lead)
    # table_player  int8: who played it, -1 when there is none
    # leader        int8: who led the current trick, -1 during the exchange
    # passes        int8: passes in a row since the set on the table was played
    # asked         int16: the partial (cards.PARTIALS index) the junior laid, for the senior's ANSWER; or -1
    # place         (m, 7) int8: each seat's place if it is out (1 = first out), 0 while it holds cards
    # role          (m, 7) int8: ALONE (first hand), SENIOR, JUNIOR or SOLO
    # partner       (m, 7) int8: each seat's partner, -1 for none
    # scores        (m, 7) int32: game totals before this hand
    # played        (m, 13) int8: cards of each kind played face up so far this hand
    # given         (m, 13) int8: cards this player has given or set aside in this hand's exchange
    # received      (m, 13) int8: cards this player has received from its partner in this hand's exchange
    FIELDS = (
        "seat",
        "players",
        "hand_no",
        "hand",
        "counts",
        "table",
        "table_player",
        "leader",
        "passes",
        "asked",
        "place",
        "role",
        "partner",
        "scores",
        "played",
        "given",
        "received",
    )


def placement_points(place: np.ndarray, players: int) -> np.ndarray:
    """Points for finishing places 1..N: N for the first out, one less for each next, 0 for the last."""
    place = np.asarray(place)
    return np.where(place == players, 0, players + 1 - place)
