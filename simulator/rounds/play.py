"""Rounds runs: the per-game table, and matches of games to the target."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.contract import BatchCore
from simulator.rounds import cards as C
from simulator.rounds import core
from simulator.rounds.fifth import fifth_trick_calls
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import DONE, KIND_NAMES, N_STAGES

PLAYERS = ("0", "1")


def _deal(rng: np.random.Generator, games: np.ndarray, rules: RoundsRules) -> core.GameState:
    """One game per game number, game k first dealt by player k % 2."""
    deck, shuffles = core.draw(rng, len(games))
    return core.new_games(games, (games % 2).astype(np.int8), deck, shuffles, rules)


def game_table(s: core.GameState, rules: RoundsRules) -> pd.DataFrame:
    """One row per finished game: scores per player and stage, sweeps, and who took the tricks."""
    cols: dict[str, object] = {
        "deal": s.deal,
        "first_dealer": s.first_dealer,
        "points_0": s.points[:, 0],
        "points_1": s.points[:, 1],
    }
    # (n, 5) per stage, whole stages at once: each column below is one stage's slice
    stage_dealer = np.stack(
        [
            s.first_dealer if rules.dealer_rotation == "game" else s.first_dealer ^ (k & 1)
            for k in range(N_STAGES)
        ],
        axis=1,
    ).astype(bool)  # player 1 deals
    tricks, taken, score = s.tricks, s.taken, s.stage_score
    sweeper = np.where(tricks[:, :, 0] == 5, 0, np.where(tricks[:, :, 1] == 5, 1, -1)).astype(np.int8)
    # the card points the sweeper took, which the sweep bonus replaced
    swept_cards = np.where(sweeper == 1, taken[:, :, 1], np.where(sweeper == 0, taken[:, :, 0], -1)).astype(
        np.int16
    )
    dealer_tricks = np.where(stage_dealer, tricks[:, :, 1], tricks[:, :, 0])
    dealer_points = np.where(stage_dealer, score[:, :, 1], score[:, :, 0])
    leader_took = s.trick_winners.reshape(len(s), N_STAGES, 5) == s.trick_leaders.reshape(len(s), N_STAGES, 5)
    leader_tricks = sum(leader_took[:, :, t].view(np.int8) for t in range(5))
    calls = fifth_trick_calls(s.dealt, s.plays, s.trick_winners, s.faces, rules.rank_trumps)
    for k in range(N_STAGES):
        cols |= {
            f"s{k + 1}_points_0": score[:, k, 0],
            f"s{k + 1}_points_1": score[:, k, 1],
            f"s{k + 1}_sweep": sweeper[:, k],
            f"s{k + 1}_swept_cards": swept_cards[:, k],
            # a sweep that scored less than the cards it took would have
            f"s{k + 1}_short_sweep": (sweeper[:, k] >= 0) & (swept_cards[:, k] > rules.sweep_bonus),
            f"s{k + 1}_first4": s.first4[:, k],
            f"s{k + 1}_fifth_points": s.fifth[:, k],
            # how trick 5 was decided when one player took tricks 1-4 (simulator.rounds.fifth), else -1
            f"s{k + 1}_fifth_call": calls[:, k],
            f"s{k + 1}_dealer_tricks": dealer_tricks[:, k],
            f"s{k + 1}_leader_tricks": leader_tricks[:, k],
            f"s{k + 1}_dealer_points": dealer_points[:, k],
        }
    return pd.DataFrame(cols)


CORE = BatchCore(
    deal=_deal,
    inputs=core.inputs,
    packed_inputs=core.packed_inputs,
    apply=core.apply,
    table=game_table,
    done=DONE,
    kind_names=KIND_NAMES,
    action_name=lambda kind, card: C.name(card),
)


def match_winner(totals: np.ndarray, target: int) -> np.ndarray:
    """After a game: the player who has won the match, or -1. At the target wins; both there: the higher
    total; equal totals: nobody yet (another game)."""
    reached = (totals >= target).any(axis=1)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, -1))
    return np.where(reached, won, -1).astype(np.int8)


class Matches:
    """Rounds matches to `rules.target`: match k's first game is first dealt by player k % 2, and the first
    dealer of each next game is the other player."""

    max_deals = 1000  # a match is abandoned (no winner) after this many games; only equal totals prolong one

    def __init__(self, matches: np.ndarray, rules: RoundsRules):
        n = len(matches)
        self.matches, self.rules = matches, rules
        self.first = (matches % 2).astype(np.int8)
        self.totals = np.zeros((n, 2), np.int32)
        self.winner = np.full(n, -1, np.int8)

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> core.GameState:
        deck, shuffles = core.draw(rng, len(self.matches))
        return core.new_games(
            self.matches[active],
            self.first[active] ^ (played[active] & 1).astype(np.int8),
            deck[active],
            shuffles[active],
            self.rules,
            scores=self.totals[active],
        )

    def record(self, active: np.ndarray, out: core.GameState, table: pd.DataFrame) -> np.ndarray:
        self.totals[active] += out.points
        table["total_0"], table["total_1"] = self.totals[active, 0], self.totals[active, 1]
        won = match_winner(self.totals[active], self.rules.target)
        self.winner[active] = won
        return won >= 0

    def table(self, played: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "match": self.matches,
                "first_dealer": self.first,
                "deals": played,
                "winner": self.winner,
                "final_0": self.totals[:, 0],
                "final_1": self.totals[:, 1],
            }
        )
