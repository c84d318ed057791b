"""The generic driver: advances a batch of any game until every row is finished.

A game's `contract.BatchCore` supplies `inputs(state, rows, kind, rules) -> (view, legal)` and
`apply(state, rows, kind, actions, rules)`; its state (a `batch.BatchState`) has `phase` (the pending decision kind, or `done`),
`turn` (the seat to decide), `deal` (the row's deal number) and `take(rows)`. Each step (for a phased
game, only the earliest pending kind; see `BatchCore.phased`) groups the pending decisions by kind and by
strategy (seats that share one strategy object are asked together, each row seeing its own seat's view),
asks for the whole group at once, checks every action against the legal mask and applies it. Finished
rows leave the working batch. A strategy that raises ends the play with a `StrategyError` naming one deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simulator import bitrows
from simulator.contract import BatchCore
from simulator.errors import IllegalAction, StrategyError

# Compact the working batch once this share of its rows is finished.
_COMPACT_AT = 0.25
# A strategy that raises is asked again for at most this many rows of the failed group, one row at a time,
# to name the first deal it fails on; the search stays cheap when the failure needs the whole group.
_RETRY_ROWS = 1000


def strategy_name(strategy: Any) -> str:
    return getattr(strategy, "spec", None) or type(strategy).__name__


def check_actions(
    core: BatchCore,
    strategy: Any,
    kind: int,
    legal: np.ndarray,
    actions: Any,
    seats: np.ndarray,
    deals: np.ndarray,
    seat_names: Sequence[str] | None = None,
) -> np.ndarray:
    """The actions as an int array, or IllegalAction naming the strategy, seat, deal and move."""
    m, n_actions = legal.shape
    a = np.asarray(actions)
    who = f"strategy {strategy_name(strategy)!r}"
    if a.shape != (m,) or not np.issubdtype(a.dtype, np.integer):
        raise IllegalAction(
            f"{who} returned {a.dtype} {a.shape} for {m} {core.kind_names[kind]} decisions; "
            f"expected one integer action per row"
        )
    ok = (a >= 0) & (a < n_actions)
    ok[ok] = legal[np.flatnonzero(ok), a[ok]]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        move = core.action_name(kind, int(a[i])) if 0 <= a[i] < n_actions else f"action {int(a[i])}"
        seat = seat_names[int(seats[i])] if seat_names is not None else str(int(seats[i]))
        raise IllegalAction(
            f"{who} at seat {seat} in deal {int(deals[i])}: illegal {core.kind_names[kind]} {move}"
        )
    return a


def check_packed(
    core: BatchCore,
    strategy: Any,
    kind: int,
    words: np.ndarray,
    n_actions: int,
    actions: Any,
    seats: np.ndarray,
    deals: np.ndarray,
    seat_names: Sequence[str] | None = None,
) -> np.ndarray:
    """`check_actions` against legal actions given as bit rows (simulator.bitrows); the mask is unpacked only
    to name an illegal action."""
    a = np.asarray(actions)
    if a.shape == (len(words),) and np.issubdtype(a.dtype, np.integer):
        if (
            words.shape[1] == 1
        ):  # one word: an index out of range shifts in no bit (a negative one wraps high)
            if ((words[:, 0] >> a.astype(np.uint64)) & np.uint64(1)).all():
                return a
        elif ((a >= 0) & (a < n_actions)).all() and bitrows.bit(words, a).all():
            return a
    return check_actions(
        core, strategy, kind, bitrows.unpack(words, n_actions), actions, seats, deals, seat_names
    )


def strategy_failure(
    core: BatchCore,
    strategy: Any,
    state: Any,
    rows: np.ndarray | slice,
    kind: int,
    rules: Any,
    rng: np.random.Generator,
    exc: Exception,
    seat_names: Sequence[str] | None = None,
) -> StrategyError:
    """The error for `strategy` raising `exc` on the group `rows`: it is asked again one row at a time, in
    deal order (at most _RETRY_ROWS rows), and the first row that fails alone names the deal and the exception."""
    rows = np.arange(len(state))[rows]
    rows = rows[np.argsort(state.deal[rows], kind="stable")]
    who = f"strategy {strategy_name(strategy)!r}"
    decision = f"a {core.kind_names[kind]} decision"

    def seat(row: int) -> str:
        return seat_names[int(state.turn[row])] if seat_names is not None else str(int(state.turn[row]))

    for row in rows[:_RETRY_ROWS]:
        view, legal = core.inputs(state, np.array([row]), kind, rules)
        try:
            strategy.decide(kind, view, legal, rng)
        except Exception as alone:  # noqa: BLE001 - the failure we are looking for
            return StrategyError(
                f"{who} at seat {seat(row)} in deal {int(state.deal[row])} failed on {decision}: "
                f"{_exception_text(alone)}"
            )
    seats = ", ".join(sorted({seat(r) for r in rows}))
    return StrategyError(
        f"{who} at seat {seats} failed on {decision} for {len(rows):,} deals at once (deals "
        f"{int(state.deal[rows[0]])} to {int(state.deal[rows[-1]])}; none of the first "
        f"{min(len(rows), _RETRY_ROWS):,} fails alone): {_exception_text(exc)}"
    )


def _exception_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def play(
    core: BatchCore,
    state: Any,
    rules: Any,
    strategies: Sequence[Any],
    rngs: Sequence[np.random.Generator],
    seat_names: Sequence[str] | None = None,
) -> Any:
    """Run every row of `state` to the end; returns the finished rows, in their original order.

    `strategies[seat]` decides for that seat; seats holding the same object form one group and draw
    from the generator `rngs[seat]` of the group's first seat. `seat_names` name seats in errors.
    """
    groups: dict[int, list[int]] = {}
    for seat, strat in enumerate(strategies):
        groups.setdefault(id(strat), []).append(seat)
    group_seats = list(groups.values())
    group_of_seat = np.empty(len(strategies), dtype=np.int8)
    for g, seats in enumerate(group_seats):
        group_of_seat[seats] = g
    # groups whose strategy decides on bit rows, where the core gives them
    packs = [
        core.packed_inputs is not None and callable(getattr(strategies[seats[0]], "decide_packed", None))
        for seats in group_seats
    ]
    finished = []
    start = len(state)
    while len(state):
        per_kind = np.bincount(state.phase, minlength=core.done + 1)
        pending = np.flatnonzero(per_kind[: core.done])
        for kind in pending[:1] if core.phased else pending:
            kind = int(kind)
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
                packed = packs[g]
                if packed:
                    view, words, n_actions = core.packed_inputs(state, rows, kind, rules)
                else:
                    view, legal = core.inputs(state, rows, kind, rules)
                try:
                    actions = (
                        strat.decide_packed(kind, view, words, rng)
                        if packed
                        else strat.decide(kind, view, legal, rng)
                    )
                except Exception as exc:  # any failure of the strategy's code: one clear error
                    raise strategy_failure(
                        core, strat, state, rows, kind, rules, rng, exc, seat_names
                    ) from exc
                if packed:
                    actions = check_packed(
                        core,
                        strat,
                        kind,
                        words,
                        n_actions,
                        actions,
                        state.turn[rows],
                        state.deal[rows],
                        seat_names,
                    )
                else:
                    actions = check_actions(
                        core, strat, kind, legal, actions, state.turn[rows], state.deal[rows], seat_names
                    )
                core.apply(state, rows, kind, actions, rules)
        done = state.phase == core.done
        n_done = int(done.sum())
        if n_done == len(state):  # the usual end: every row finished together (no copy)
            finished.append(state)
            break
        if n_done and n_done >= _COMPACT_AT * start:
            finished.append(state.take(np.flatnonzero(done)))
            state = state.take(np.flatnonzero(~done))
            start = len(state)
    out = type(finished[0]).concat(finished)
    order = np.argsort(out.deal, kind="stable")
    return out.take(order) if not np.array_equal(order, np.arange(len(order))) else out
