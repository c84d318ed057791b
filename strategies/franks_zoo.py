"""Frank's Zoo strategies: random and greedy. Each reads only its player's `FranksZooView`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.franks_zoo import cards as C
from simulator.franks_zoo.view import ASK, EXCHANGE, PLAY, FranksZooView
from strategies.base import Random, Strategy, best_legal

# How many kinds a kind beats at equal size: a rough measure of its strength.
STRENGTH = np.append(C.PREDATOR.sum(axis=1), 0).astype(np.int16)  # the chameleon has none of its own


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    kind, real, cham, mosq = (C.SETS[:, i].astype(np.int16) for i in range(4))
    size = C.SET_SIZE.astype(np.int16)
    # lead the weakest kind, as many of it as held, keeping the chameleon and mosquitoes
    lead = np.full(1 + C.N_SETS + C.N_PARTIALS, -32000, np.int16)
    lead[1:1 + C.N_SETS] = -200 * STRENGTH[kind] + 10 * real - 500 * cham - 500 * mosq
    # follow with the cheapest set that beats the table; failing that ask for help with the fewest cards; pass last
    follow = np.full_like(lead, -30000)
    follow[1:1 + C.N_SETS] = -(200 * size + 10 * STRENGTH[kind] + 100 * cham + 100 * mosq)
    follow[ASK:] = -20000 - 10 * C.PARTIALS[:, 1:].sum(axis=1) - 100 * C.PARTIALS[:, 2]
    # a senior answers with the cheapest completion (fewest cards added; the chameleon last)
    answer = np.full(1 + C.N_SETS, -30000, np.int16)
    answer[1:] = -(10 * size + 100 * cham)
    return lead, follow, answer


_LEAD, _FOLLOW, _ANSWER = _tables()
_SET_SCORES = np.stack([_FOLLOW[1:ASK], _LEAD[1:ASK]])  # the sets' scores following (0) and leading (1)


@dataclass(frozen=True)
class Greedy(Strategy):
    name = "greedy"
    summary = ("plays the cheapest set that beats the table, leads its weakest kind, never beats its partner's "
               "set, asks for help when it cannot beat alone, helps whenever it can; gives away its shortest kinds")

    def decide(self, kind, view: FranksZooView, legal, rng):
        if kind == EXCHANGE:
            held = view.hand.astype(np.int16)
            # the kind with the fewest cards held (hard to play), the weakest first; never the chameleon
            score = -(held * 100 + STRENGTH) - 5000 * (np.arange(C.N_KINDS) == C.CHAMELEON)
            return best_legal(score.astype(np.int16), legal)
        if kind == PLAY:
            leading = view.table < 0
            ar = np.arange(len(view))
            partner = view.partner[ar, view.seat]
            partners_set = ~leading & (partner >= 0) & (view.table_player == partner)
            # sets outrank asks, asks outrank a pass: choose within the narrowest group that has a legal action
            sets = legal[:, 1:ASK]
            has_set = sets.any(axis=1) & ~partners_set
            choice = np.zeros(len(view), np.intp)  # pass
            rows = np.flatnonzero(has_set)
            if len(rows):
                choice[rows] = 1 + best_legal(_SET_SCORES[leading[rows].astype(np.intp)], sets[rows])
            asks = np.flatnonzero(~has_set & ~partners_set & ~leading)
            if len(asks):
                wants = legal[asks, ASK:]
                can = wants.any(axis=1)
                choice[asks[can]] = ASK + best_legal(np.broadcast_to(_FOLLOW[ASK:], wants[can].shape), wants[can])
            return choice
        return best_legal(np.broadcast_to(_ANSWER, legal.shape), legal)


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (Random, Greedy)}
