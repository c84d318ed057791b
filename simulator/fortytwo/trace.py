"""One hand of a run, move by move: the batched core plays the hand's chunk exactly as the run did,
then the reference engine replays the recorded moves (checking each against the rules) and tells it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.fortytwo import dominoes as D
from simulator.fortytwo import reference
from simulator.fortytwo.core import HandState
from simulator.fortytwo.view import CALL, PLAY, TRUMP
from simulator.replay import players as replay_players


def recorded_moves(s: HandState, row: int) -> list[tuple[int, int, int]]:
    """(kind, seat, action) of row `row` in order, rebuilt from the state's records."""
    moves = []
    seat = (int(s.dealer[row]) + 1) & 3
    for k in range(int(s.n_calls[row])):
        moves.append((CALL, seat, int(s.calls[row, k])))
        seat = (seat + 1) & 3
    if s.high[row] > 0:
        declarer = int(s.high_bidder[row])
        moves.append((TRUMP, declarer, int(s.trump[row])))
        # Seats of plays follow from the trick winners, which the reference engine works out; here only
        # the order of dominoes is known, so the seat is read off the hand that held each domino.
        for k in range(int(s.n_played[row])):
            d = int(s.plays[row, k])
            holder = int(np.flatnonzero((s.dealt[row] >> np.uint32(d)) & 1)[0])
            moves.append((PLAY, holder, d))
    return moves


def replay(s: HandState, row: int, rules) -> reference.HandRecord:
    hands = [D.bits_to_ids(int(h)) for h in s.dealt[row]]
    moves = recorded_moves(s, row)
    players = replay_players(moves, 4, lambda seat: f"seat {D.SEATS[seat]}")
    record = reference.play_hand(hands, int(s.dealer[row]), rules, players, scores=tuple(s.scores[row]))
    if record.moves != moves:
        raise DealsimError(f"deal {int(s.deal[row])}: the reference engine does not reproduce the recorded hand")
    return record


def trace(state: HandState, row: int, rules, as_json: bool) -> Any:
    record = replay(state, row, rules)
    if as_json:
        return {"deal": int(state.deal[row]), **reference.hand_to_dict(record)}
    return f"deal {int(state.deal[row])}\n" + reference.format_hand(record)


def trace_game(hands: list[HandState], rules, as_json: bool) -> Any:
    """Every hand of one game (each a one-row state, in order), the totals after each, and the winner."""
    records = [replay(h, 0, rules) for h in hands]
    totals = [tuple(int(t) + int(x) for t, x in zip(h.scores[0], r.score)) for h, r in zip(hands, records)]
    last = records[-1]
    winner = reference.match_winner(totals[-1], None if last.declarer is None else last.declarer % 2, rules.target)
    if as_json:
        return {"game": int(hands[0].deal[0]), "target": rules.target, "winner": None if winner is None else
                D.SIDES[winner], "hands": [{**reference.hand_to_dict(r), "totals": list(t)}
                                           for r, t in zip(records, totals)]}
    parts = [f"game {int(hands[0].deal[0])} to {rules.target}"]
    for i, (r, t) in enumerate(zip(records, totals), 1):
        parts.append(f"\n--- hand {i} ---\n{reference.format_hand(r)}\nTotals: N-S {t[0]}, E-W {t[1]}")
    parts.append(f"\nWinner: {'none (hand limit)' if winner is None else D.SIDES[winner]}")
    return "\n".join(parts)
