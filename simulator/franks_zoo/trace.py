"""One hand (or game) of a run, decision by decision: the batched core plays the chunk exactly as the run
did, then the reference engine replays the recorded decisions on the same deal and tells it."""

from __future__ import annotations

from typing import Any

from simulator.errors import DealsimError
from simulator.franks_zoo import reference
from simulator.franks_zoo.core import HandState
from simulator.replay import players as replay_players


def recorded_moves(s: HandState, row: int) -> list[tuple[int, int, int]]:
    n = int(s.n_moves[row])
    return list(zip(s.move_kind[row, :n].tolist(), s.move_seat[row, :n].tolist(), s.move_action[row, :n].tolist()))


def replay(s: HandState, row: int, rules) -> reference.HandRecord:
    moves = recorded_moves(s, row)
    players = replay_players(moves, rules.players, lambda seat: f"seat {seat}")
    record = reference.play_hand([h.tolist() for h in s.dealt[row]], int(s.hand_no[row]), int(s.dealer[row]),
                                 s.order[row].tolist(), s.scores[row].tolist(), rules, players)
    if [tuple(m) for m in record.moves] != moves:
        raise DealsimError(f"deal {int(s.deal[row])}: the reference engine does not reproduce the recorded hand")
    return record


def trace(states: list[HandState], rules, as_json: bool) -> Any:
    """A first hand (one one-row state) or a whole game (one per hand, in order)."""
    records = [replay(s, 0, rules) for s in states]
    if as_json:
        return {"deal": int(states[0].deal[0]), "hands": [reference.hand_to_dict(r) for r in records]}
    parts = [f"deal {int(states[0].deal[0])}"]
    for i, r in enumerate(records, 1):
        parts.append(f"\n=== hand {i} ===\n{reference.format_hand(r)}")
    return "\n".join(parts)
