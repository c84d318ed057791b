"""Traces: a deal played again exactly as its run played it, then retold by a reference engine.

`deal_states` replays the chunk that holds the deal through the batched core (same seeds, same batch, so
the same decisions) and keeps the deal's finished state(s); a game's trace module hands the recorded
decisions to its reference engine through `Replay` players, which checks each against the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.runner import Chunk, Run, chunk


class Replay:
    """A player that plays back recorded decisions (kind, action), in order."""

    def __init__(self, name: str, decisions: list[tuple[int, int]]):
        self.spec = f"replay of {name}"
        self._decisions = iter(decisions)

    def decide(self, kind, view, legal, rng):
        recorded_kind, action = next(self._decisions)
        if recorded_kind != kind:
            raise DealsimError(f"{self.spec}: the recorded decisions are out of step with the rules engine")
        return np.array([action])


def players(moves: list[tuple[int, int, int]], n: int, name: Callable[[int], str]) -> list[Replay]:
    """One Replay per seat from the recorded (kind, seat, action) moves of a deal."""
    return [Replay(name(seat), [(k, a) for k, s, a in moves if s == seat]) for seat in range(n)]


def deal_states(run: Run, deal: int, single: Callable[[Chunk], Any],
                several: Callable[[Chunk, Callable[[np.ndarray, Any], None]], Any]) -> list[Any]:
    """The finished state(s) of deal `deal` of `run`: `single(chunk)` plays a chunk of one-hand deals and
    returns their states; `several(chunk, on_round)` plays a chunk of matches, calling on_round(deal numbers,
    finished states) after each round of hands. A match gives one state per hand, in order."""
    if not 0 <= deal < run.n:
        raise DealsimError(f"deal {deal} is outside the run's {run.n:,} deals")
    c = chunk(run, deal // run.chunk_size)
    if run.unit != "match":
        return [single(c).take(np.array([deal - int(c.deals[0])]))]
    kept = []

    def keep(deals: np.ndarray, state: Any) -> None:
        at = np.flatnonzero(deals == deal)
        if len(at):
            kept.append(state.take(at))

    several(c, keep)
    return kept
