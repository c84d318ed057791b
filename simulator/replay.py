"""Traces, for every game: a deal (or a whole match) played again exactly as its run played it, then
retold by the game's reference engine.

The chunk that holds the deal is played again through the batched core (same seeds, same batch, so the
same decisions); the deal's finished states are kept; the reference engine then replays each state's
recorded moves through `Replay` players, which checks every move against the rules and the outcome
against the batched core's, and tells the deal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simulator.errors import DealsimError
from simulator.runner import Run, chunk, play_chunk


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


def players(moves: list[tuple[int, int, int]], names: list[str]) -> list[Replay]:
    """One Replay per seat from the recorded (kind, seat, action) moves of a deal."""
    return [
        Replay(f"seat {name}", [(k, a) for k, s, a in moves if s == seat]) for seat, name in enumerate(names)
    ]


def deal_states(run: Run, deal: int) -> tuple[list[Any], dict[str, Any] | None]:
    """The finished one-row state(s) of deal `deal` of `run` (for a match, one per deal, in order) and, for
    a match, its row of the matches table."""
    if not 0 <= deal < run.n:
        raise DealsimError(f"deal {deal} is outside the run's {run.n:,} {run.game.plural(run.unit)}")
    kept: list[Any] = []

    def keep(numbers: np.ndarray, state: Any) -> None:
        at = np.flatnonzero(numbers == deal)
        if len(at):
            kept.append(state.take(at))

    tables = play_chunk(chunk(run, deal // run.chunk_size), on_deals=keep)
    if run.unit != "match":
        return kept, None
    matches = tables["matches"]
    return kept, matches[matches["match"] == deal].iloc[0].to_dict()


def replay(run: Run, state: Any) -> Any:
    """The reference engine's record of a one-row finished state, replayed from its recorded moves; an
    error if the engine does not reproduce the moves or the outcome."""
    game = run.game
    moves = game.moves(state, 0)
    record = game.play_reference(state, 0, run.rules, players(moves, list(game.seat_names(run.rules))))
    if list(record.moves) != moves:
        raise DealsimError(
            f"deal {int(state.deal[0])}: the reference engine does not reproduce the recorded moves"
        )
    if tuple(int(x) for x in game.outcomes(state, run.rules)[0]) != tuple(int(x) for x in record.outcome()):
        raise DealsimError(f"deal {int(state.deal[0])}: the reference engine scores the deal differently")
    return record


def match_target(game: Any, rules: Any) -> tuple[int | None, str]:
    """What a match is played to, and its unit: the game's own `match_target(rules)` where it has one
    (Forty-two: 7 marks under marks scoring), else the rules' `target` in points."""
    own = getattr(game, "match_target", None)
    return own(rules) if own is not None else (getattr(rules, "target", None), "points")


def trace(run: Run, deal: int, as_json: bool = False) -> Any:
    """Deal `deal` of `run` told move by move (text, or a JSON-able dict): one deal, or a whole match with
    the totals after each deal and the winner."""
    game, rules = run.game, run.rules
    states, match = deal_states(run, deal)
    records = [replay(run, s) for s in states]
    deal_word, match_word = game.words["deal"], game.words["match"]
    if match is None:
        if as_json:
            return {"deal": deal, **records[0].to_dict()}
        return f"{deal_word} {deal}\n" + records[0].text(rules)
    sides = game.side_names(rules)
    totals = [
        dict(zip(sides, (int(t) + int(x) for t, x in zip(s.scores[0], r.totals_added()))))
        for s, r in zip(states, records)
    ]
    winner = match.get("winner")
    winner = None if pd.isna(winner) else str(winner)  # missing: undecided
    target, unit = match_target(game, rules)
    if as_json:
        return {
            "match": deal,
            "target": target,
            "target_unit": unit,
            "winner": winner,
            "deals": [{**r.to_dict(), "totals": t} for r, t in zip(records, totals)],
        }
    parts = [f"{match_word} {deal} to {target if target is not None else '?'} {unit}"]
    for i, (r, t) in enumerate(zip(records, totals), 1):
        parts.append(
            f"\n=== {deal_word} {i} ===\n{r.text(rules)}\n"
            f"Totals: {', '.join(f'{k} {v}' for k, v in t.items())}"
        )
    parts.append(f"\nWinner: {winner if winner is not None else f'none ({deal_word} limit)'}")
    return "\n".join(parts)
