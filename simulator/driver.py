"""The generic driver: advances a batch of any game until every row is finished.

A game (`contract.Game`) supplies `inputs(state, rows, kind, rules) -> (view, legal)` and
`apply(state, rows, kind, actions, rules)`; its state (a `batch.BatchState`) has `phase` (the pending
decision kind, or `done`), `turn` (the seat to decide), `deal` (the row's deal number) and `take(rows)`.
Each step (for a phased game, only the earliest pending kind; see `Game.phased`) groups the pending
decisions by kind and by strategy (seats that share one strategy object are asked together, each row seeing
its own seat's view), asks for the whole group at once, checks every action against the legal mask and
applies it. Finished rows stay where they are: the kernels and strategies see only the pending rows of a
step, and copying the unfinished rows into a smaller batch costs more than the few scans of the whole batch
a step makes. A strategy that raises ends the play with a
`StrategyError` naming one deal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator import bitrows, signals
from simulator.contract import Game
from simulator.errors import IllegalAction, StrategyError, exception_text

# A strategy that raises is asked again for at most this many rows of the failed group, one row at a time,
# to name the first deal it fails on; the search stays cheap when the failure needs the whole group.
_RETRY_ROWS = 1000


def strategy_name(strategy: Any) -> str:
    return getattr(strategy, "spec", None) or type(strategy).__name__


@dataclass(frozen=True)
class Asked:
    """One group of pending decisions put to one strategy: what its answer is checked against and what an
    error names."""

    game: Game
    rules: Any
    state: Any
    rows: np.ndarray | slice
    kind: int
    strategy: Any
    seat_names: Sequence[str]

    def who(self) -> str:
        return f"strategy {strategy_name(self.strategy)!r}"

    def seat(self, row: int) -> str:
        return self.seat_names[int(self.state.turn[row])]


def check_actions(asked: Asked, legal: np.ndarray, actions: Any) -> np.ndarray:
    """The actions as an int array, or IllegalAction naming the strategy, seat, deal and move."""
    game, kind = asked.game, asked.kind
    m, n_actions = legal.shape
    a = np.asarray(actions)
    if a.shape != (m,) or not np.issubdtype(a.dtype, np.integer):
        raise IllegalAction(
            f"{asked.who()} returned {a.dtype} {a.shape} for {m} {game.kind_names[kind]} decisions; "
            f"expected one integer action per row"
        )
    ok = (a >= 0) & (a < n_actions)
    ok[ok] = legal[np.flatnonzero(ok), a[ok]]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        row = int(np.arange(len(asked.state))[asked.rows][i])
        move = game.action_name(kind, int(a[i])) if 0 <= a[i] < n_actions else f"action {int(a[i])}"
        raise IllegalAction(
            f"{asked.who()} at seat {asked.seat(row)} in deal {int(asked.state.deal[row])}: "
            f"illegal {game.kind_names[kind]} {move}"
        )
    return a


def check_packed(asked: Asked, words: np.ndarray, n_actions: int, actions: Any) -> np.ndarray:
    """`check_actions` against legal actions given as bit rows (simulator.bitrows); the mask is unpacked only
    to name an illegal action."""
    a = np.asarray(actions)
    if a.shape == (words.shape[0],) and a.dtype.kind in "iu" and _first_unset()(words, a, n_actions) < 0:
        return a
    return check_actions(asked, bitrows.unpack(words, n_actions), actions)


@functools.cache
def _first_unset() -> Callable[[np.ndarray, np.ndarray, int], int]:
    """The compiled check (`bitcheck.first_unset`), loaded on the first check of bit rows."""
    from simulator import bitcheck

    return bitcheck.first_unset


def strategy_failure(asked: Asked, rng: np.random.Generator, exc: BaseException) -> StrategyError:
    """The error for the strategy raising `exc` on its group: it is asked again one row at a time, in deal
    order (at most _RETRY_ROWS rows), and the first row that fails alone names the deal and the exception."""
    state, kind = asked.state, asked.kind
    rows = np.arange(len(state))[asked.rows]
    rows = rows[np.argsort(state.deal[rows], kind="stable")]
    decision = f"a {asked.game.kind_names[kind]} decision"
    for row in rows[:_RETRY_ROWS]:
        view, legal = asked.game.inputs(state, np.array([row]), kind, asked.rules)
        try:
            asked.strategy.decide(kind, view, legal, rng)
        except (Exception, SystemExit) as alone:  # noqa: BLE001 - the failure we are looking for
            stop = signals.stop_within(alone)
            if stop is not None:
                raise stop from None
            return StrategyError(
                f"{asked.who()} at seat {asked.seat(row)} in deal {int(state.deal[row])} failed on "
                f"{decision}: {exception_text(alone)}"
            )
    seats = ", ".join(sorted({asked.seat(r) for r in rows}))
    return StrategyError(
        f"{asked.who()} at seat {seats} failed on {decision} for {len(rows):,} deals at once (deals "
        f"{int(state.deal[rows[0]])} to {int(state.deal[rows[-1]])}; none of the first "
        f"{min(len(rows), _RETRY_ROWS):,} fails alone): {exception_text(exc)}"
    )


def play(
    game: Game, state: Any, rules: Any, strategies: Sequence[Any], rngs: Sequence[np.random.Generator]
) -> Any:
    """Run every row of `state` to the end; returns the finished rows, in their original order.

    `strategies[seat]` decides for that seat; seats holding the same object form one group and draw
    from the generator `rngs[seat]` of the group's first seat.
    """
    seat_names = game.seat_names(rules)
    groups: dict[int, list[int]] = {}
    for seat, strat in enumerate(strategies):
        groups.setdefault(id(strat), []).append(seat)
    group_seats = list(groups.values())
    group_of_seat = np.empty(len(strategies), dtype=np.int8)
    for g, seats in enumerate(group_seats):
        group_of_seat[seats] = g
    # groups whose strategy decides on bit rows
    packs = [callable(getattr(strategies[seats[0]], "decide_packed", None)) for seats in group_seats]
    while True:
        per_kind = np.bincount(state.phase, minlength=game.done + 1)
        pending = np.flatnonzero(per_kind[: game.done])
        if not len(pending):
            return state
        for pending_kind in pending[:1] if game.phased else pending:
            kind = int(pending_kind)
            rows_kind = slice(None) if per_kind[kind] == len(state) else np.flatnonzero(state.phase == kind)
            if len(group_seats) == 1:
                parts = [(0, rows_kind)]
            else:
                rk = np.arange(len(state)) if isinstance(rows_kind, slice) else rows_kind
                g_of_row = group_of_seat[state.turn[rk]]
                parts = [(g, rk[g_of_row == g]) for g in range(len(group_seats))]
            for g, rows in parts:
                if not isinstance(rows, slice) and len(rows) == 0:
                    continue
                strat = strategies[group_seats[g][0]]
                rng = rngs[group_seats[g][0]]
                asked = Asked(game, rules, state, rows, kind, strat, seat_names)
                if packs[g]:
                    view, words, n_actions = game.packed_inputs(state, rows, kind, rules)
                else:
                    view, legal = game.inputs(state, rows, kind, rules)
                try:
                    if packs[g]:
                        actions = strat.decide_packed(kind, view, words, rng)
                    else:
                        actions = strat.decide(kind, view, legal, rng)
                except (Exception, SystemExit) as exc:  # any failure of the strategy's code: one clear error
                    stop = signals.stop_within(exc)
                    if stop is not None:  # a stopping signal that arrived in compiled code: a stop
                        raise stop from None
                    raise strategy_failure(asked, rng, exc) from exc
                if packs[g]:
                    actions = check_packed(asked, words, n_actions, actions)
                else:
                    actions = check_actions(asked, legal, actions)
                game.apply(state, rows, kind, actions, rules)
