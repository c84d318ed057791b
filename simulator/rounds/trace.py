"""One game of a run, card by card: the batched core plays the game's chunk exactly as the run did, then
the reference engine replays the recorded cards on the same deck and shuffles (checking each against the
rules) and tells it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.replay import players as replay_players
from simulator.rounds import reference
from simulator.rounds.core import SHUFFLE_SIZES, GameState

_AT = np.cumsum((0, *SHUFFLE_SIZES))


def recorded_moves(s: GameState, row: int) -> list[tuple[int, int]]:
    """(player, card) of row `row` in order: each trick's leader, then the other player."""
    moves = []
    for t in range(25):
        leader = int(s.trick_leaders[row, t])
        moves += [(leader, int(s.plays[row, 2 * t])), (1 - leader, int(s.plays[row, 2 * t + 1]))]
    return moves


def deal_of(s: GameState, row: int) -> tuple[list[int], list[list[int]]]:
    """The deck and the four stage shuffles the row was dealt with."""
    shuffles = [s.shuffles[row, _AT[k]:_AT[k + 1]].tolist() for k in range(4)]
    return s.deck[row].tolist(), shuffles


def replay(s: GameState, row: int, rules) -> reference.GameRecord:
    moves = recorded_moves(s, row)
    deck, shuffles = deal_of(s, row)
    record = reference.play_game(int(s.first_dealer[row]), deck, shuffles, rules,
                                 replay_players([(0, p, card) for p, card in moves], 2, lambda p: f"player {p}"),
                                 scores=tuple(int(x) for x in s.scores[row]))
    if record.moves != moves:
        raise DealsimError(f"game {int(s.deal[row])}: the reference engine does not reproduce the recorded game")
    return record


def trace(states: list[GameState], rules, as_json: bool) -> Any:
    """One game (one one-row state) or a whole match (one per game, in order)."""
    records = [replay(s, 0, rules) for s in states]
    totals = [tuple(int(t) + int(p) for t, p in zip(s.scores[0], r.points)) for s, r in zip(states, records)]
    if as_json:
        games = [{**reference.game_to_dict(r), "totals": list(t)} for r, t in zip(records, totals)]
        return {"deal": int(states[0].deal[0]), "games": games}
    if len(records) == 1:
        return f"game {int(states[0].deal[0])}\n" + reference.format_game(records[0], rules)
    parts = [f"match {int(states[0].deal[0])} to {rules.target}"]
    for i, (r, t) in enumerate(zip(records, totals), 1):
        parts.append(f"\n=== game {i} ===\n{reference.format_game(r, rules)}\nTotals: 0: {t[0]}, 1: {t[1]}")
    return "\n".join(parts)
