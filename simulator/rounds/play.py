"""Rounds runs: a chunk of single games (five stages) or of matches to the target, and their tables."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from simulator import driver
from simulator.rounds import cards as C
from simulator.rounds import core
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, KIND_NAMES, N_STAGES

PLAYERS = ("0", "1")
CORE = driver.CoreSpec(inputs=core.inputs, apply=core.apply, done=DONE, kind_names=KIND_NAMES,
                       seat_names=PLAYERS, action_name=lambda kind, card: C.name(card))

# A match is abandoned (no winner) after this many games; only equal totals at the target prolong one.
MAX_GAMES_PER_MATCH = 1000


def play_games(rng: np.random.Generator, rngs: list[np.random.Generator], games: np.ndarray, rules: RoundsRules,
               strategies: list, first_dealer: np.ndarray | None = None,
               scores: np.ndarray | None = None) -> core.GameState:
    """Deal and play one game per game number; the finished states in game order. Game k's first dealer
    is player k % 2 unless given."""
    deck, shuffles = core.draw(rng, len(games))
    dealer = (games % 2).astype(np.int8) if first_dealer is None else first_dealer
    return driver.play(CORE, core.new_games(games, dealer, deck, shuffles, rules, scores), rules, strategies, rngs)


def game_table(s: core.GameState, rules: RoundsRules) -> pd.DataFrame:
    """One row per finished game: scores per player and stage, sweeps, and who took the tricks."""
    ar = np.arange(len(s))
    cols: dict[str, object] = {"game": s.deal, "first_dealer": s.first_dealer,
                               "points_0": s.points[:, 0], "points_1": s.points[:, 1]}
    stage_dealer = np.stack([s.first_dealer if rules.dealer_rotation == "game" else s.first_dealer ^ (k & 1)
                             for k in range(N_STAGES)], axis=1)
    winners = s.trick_winners.reshape(len(s), N_STAGES, 5)
    leaders = s.trick_leaders.reshape(len(s), N_STAGES, 5)
    for k in range(N_STAGES):
        sweeper = np.where(s.tricks[:, k, 0] == 5, 0, np.where(s.tricks[:, k, 1] == 5, 1, -1)).astype(np.int8)
        swept_cards = s.taken[ar, k, np.maximum(sweeper, 0)]
        cols |= {
            f"s{k + 1}_points_0": s.stage_score[:, k, 0], f"s{k + 1}_points_1": s.stage_score[:, k, 1],
            f"s{k + 1}_sweep": sweeper,
            # the card points the sweeper took, which the sweep bonus replaced
            f"s{k + 1}_swept_cards": np.where(sweeper >= 0, swept_cards, -1).astype(np.int16),
            # a sweep that scored less than the cards it took would have
            f"s{k + 1}_short_sweep": (sweeper >= 0) & (swept_cards > rules.sweep_bonus),
            f"s{k + 1}_first4": s.first4[:, k],
            f"s{k + 1}_fifth_points": s.fifth[:, k],
            f"s{k + 1}_dealer_tricks": (winners[:, k] == stage_dealer[:, k:k + 1]).sum(axis=1).astype(np.int8),
            f"s{k + 1}_leader_tricks": (winners[:, k] == leaders[:, k]).sum(axis=1).astype(np.int8),
            f"s{k + 1}_dealer_points": s.stage_score[ar, k, stage_dealer[:, k]],
        }
    return pd.DataFrame(cols)


def match_winner(totals: np.ndarray, target: int) -> np.ndarray:
    """After a game: the player who has won the match, or -1. At the target wins; both there: the higher
    total; equal totals: nobody yet (another game)."""
    reached = (totals >= target).any(axis=1)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, -1))
    return np.where(reached, won, -1).astype(np.int8)


def play_matches(rng: np.random.Generator, rngs: list[np.random.Generator], matches: np.ndarray,
                 rules: RoundsRules, strategies: list,
                 on_games: Callable[[np.ndarray, core.GameState], None] | None = None,
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole matches, one per match number: the per-game table (with `match`, `number` and the totals after
    each game) and the per-match table. Match k's first dealer is player k % 2; the first dealer of each
    next game is the other player."""
    n = len(matches)
    first = (matches % 2).astype(np.int8)
    totals = np.zeros((n, 2), np.int32)
    played = np.zeros(n, np.int32)
    winner = np.full(n, -1, np.int8)
    active = np.arange(n)
    parts = []
    while len(active):
        # Every round deals a game to every match of the chunk, finished or not, so that game j of match k
        # is the same whatever happened in other matches: arms of a comparison share their deals.
        deck, shuffles = core.draw(rng, n)
        state = core.new_games(matches[active], first[active] ^ (played[active] & 1).astype(np.int8),
                               deck[active], shuffles[active], rules, scores=totals[active])
        out = driver.play(CORE, state, rules, strategies, rngs)
        if on_games is not None:
            on_games(matches[active], out)
        totals[active] += out.points
        table = game_table(out, rules).rename(columns={"game": "match"})
        table.insert(1, "number", played[active] + 1)
        table["total_0"], table["total_1"] = totals[active, 0], totals[active, 1]
        parts.append(table)
        played[active] += 1
        won = match_winner(totals[active], rules.target)
        winner[active] = won
        active = active[(won < 0) & (played[active] < MAX_GAMES_PER_MATCH)]
    games = pd.concat(parts, ignore_index=True).sort_values(["match", "number"], ignore_index=True)
    per_match = pd.DataFrame({"match": matches, "first_dealer": first, "games": played,
                              "winner": winner, "final_0": totals[:, 0], "final_1": totals[:, 1]})
    return games, per_match
