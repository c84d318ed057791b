"""What the scalar reference engines share: asking a strategy for one decision and checking its answer
against the legal actions the rules give, and the loop of deals that makes a match.

A reference engine plays one deal at a time in plain Python, written to read like the rules; these are the
parts that are the same in every game, written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from simulator.driver import strategy_name
from simulator.errors import IllegalAction

RecordT = TypeVar("RecordT")


@dataclass(frozen=True)
class Referee:
    """Asks a seat's strategy for one decision and checks the answer: an action outside the legal ones is an
    error naming the strategy, the seat and the move, never repaired."""

    kind_names: Sequence[str]
    n_actions: Sequence[int]
    describe: Callable[[int, int], str]  # (kind, action in range) -> the move in words: 'call 84', 'play 6-4'
    seat_text: Callable[[int], str]  # seat -> how errors name it: 'at seat W', 'as player 0'

    def decide(
        self,
        strategy: Any,
        kind: int,
        seat: int,
        view: Any,
        legal: Sequence[int],
        rng: np.random.Generator | None,
    ) -> int:
        """The strategy's action for a one-row view, given the legal actions as a list."""
        mask = np.zeros((1, self.n_actions[kind]), dtype=bool)
        mask[0, list(legal)] = True
        chosen = np.asarray(strategy.decide(kind, view, mask, rng))
        who = f"strategy {strategy_name(strategy)} {self.seat_text(seat)}"
        if chosen.shape != (1,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalAction(
                f"{who} returned {chosen!r} for a {self.kind_names[kind]} decision; "
                "expected an integer array of shape (1,)"
            )
        action = int(chosen[0])
        if action not in legal:
            raise IllegalAction(f"{who} made an illegal move: {self.move(kind, action)}")
        return action

    def move(self, kind: int, action: int) -> str:
        """A move in words, or a note that the number is no action of its kind."""
        if 0 <= action < self.n_actions[kind]:
            return self.describe(kind, action)
        return f"{self.kind_names[kind]} action {action} (out of range 0..{self.n_actions[kind] - 1})"


@dataclass
class MatchRecord(Generic[RecordT]):
    """A match: its deals in order, the final totals per side, the winning side (None when a limit came
    first) and who dealt first."""

    deals: list[RecordT]
    totals: tuple[int, ...]
    winner: int | None
    first_dealer: int


@dataclass(frozen=True)
class MatchRules(Generic[RecordT]):
    """How a game's deals make a match, for `play_match`."""

    # (deal number from 0, the totals before it) -> the deal played (the game's dealer rule inside)
    play_deal: Callable[[int, list[int]], RecordT]
    added: Callable[[RecordT], Sequence[int]]  # what a deal adds to each side's total
    # (totals after the deal, the deal) -> the side that has won the match, or None
    winner: Callable[[list[int], RecordT], int | None]
    max_deals: int  # a match still undecided after this many deals stops with no winner
    # a deal that changes no total and cannot decide (Forty-two's thrown-in hand): after this many in a row,
    # the match stops with no winner
    idle: Callable[[RecordT], bool] = lambda record: False
    max_idle_in_a_row: int | None = None


def play_match(rules: MatchRules[RecordT], first_dealer: int, n_sides: int) -> MatchRecord[RecordT]:
    """Deals in a row, each adding to the totals, until a side wins or a limit stops the match."""
    totals = [0] * n_sides
    records: list[RecordT] = []
    winner: int | None = None
    idle_run = 0
    for number in range(rules.max_deals):
        record = rules.play_deal(number, list(totals))
        records.append(record)
        totals = [t + int(x) for t, x in zip(totals, rules.added(record), strict=True)]
        winner = rules.winner(totals, record)
        if winner is not None:
            break
        idle_run = idle_run + 1 if rules.idle(record) else 0
        if rules.max_idle_in_a_row is not None and idle_run >= rules.max_idle_in_a_row:
            break
    return MatchRecord(records, tuple(totals), winner, first_dealer)
