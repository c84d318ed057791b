"""Rounds as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.batch import Rows
from simulator.contract import Game, Move, Sizes
from simulator.rounds import cards as C
from simulator.rounds import core, measures, quality, reference, summary, tables
from simulator.rounds.core import SHUFFLE_SIZES, GameState
from simulator.rounds.reference import GameRecord
from simulator.rounds.rules import PRESETS, RoundsRules
from simulator.rounds.view import KIND_NAMES, N_ACTIONS, PLAY, RoundsView
from simulator.series import TargetSeries
from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd

PLAYERS = ("0", "1")
_SHUFFLE_AT = np.cumsum((0, *SHUFFLE_SIZES))


class Rounds(Game[RoundsRules, GameState, RoundsView, GameRecord]):
    name = "rounds"
    title = "Rounds: cards, two players, five stages of five tricks, game to 200"
    rules_cls = RoundsRules
    presets = PRESETS
    words = {"deal": "game", "match": "match"}
    default_unit = "deal"
    kind_names = KIND_NAMES
    n_actions = N_ACTIONS
    side_word = "player"
    default_chunk = {"deal": 20_000, "match": 2_000}
    check_sizes = Sizes(deals=80, matches=3)
    check_rules = {
        f"{rotation}-{'rank' if rank else 'plain'}": {"dealer_rotation": rotation, "rank_trumps": rank}
        for rotation in ("stage", "game")
        for rank in (False, True)
    }
    yardstick = "yardstick_rounds.py"  # benchmarks/yardstick_rounds.py: random play compiled (numba)
    extra_columns = {"play-quality": quality.play_quality}

    # --- the batched core ---------------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator, deals: np.ndarray, rules: RoundsRules) -> GameState:
        """One game per game number, game k first dealt by player k % 2."""
        deck, shuffles = core.draw(rng, len(deals))
        return core.new_games(deals, (deals % 2).astype(np.int8), deck, shuffles, rules)

    def inputs(
        self, state: GameState, rows: Rows, kind: int, rules: RoundsRules
    ) -> tuple[RoundsView, np.ndarray]:
        return core.inputs(state, rows, kind, rules)

    def packed_inputs(
        self, state: GameState, rows: Rows, kind: int, rules: RoundsRules
    ) -> tuple[RoundsView, np.ndarray, int]:
        return core.packed_inputs(state, rows, kind, rules)

    def apply(self, state: GameState, rows: Rows, kind: int, actions: np.ndarray, rules: RoundsRules) -> None:
        core.apply(state, rows, kind, actions, rules)

    def table(self, state: GameState, rules: RoundsRules) -> pd.DataFrame:
        return tables.game_table(state, rules)

    def action_name(self, kind: int, action: int) -> str:
        return C.name(action)

    def scores(self, state: GameState, rules: RoundsRules) -> np.ndarray:
        return state.points

    def seat_names(self, rules: RoundsRules) -> Sequence[str]:
        return PLAYERS

    def series(self, matches: np.ndarray, rules: RoundsRules) -> Matches:
        return Matches(self, matches, rules)

    # --- the reference engine ----------------------------------------------------------------------------
    def moves(self, state: GameState, row: int) -> list[Move]:
        """Each trick's leader, then the other player."""
        moves = []
        for t in range(25):
            leader = int(state.trick_leaders[row, t])
            moves += [
                (PLAY, leader, int(state.plays[row, 2 * t])),
                (PLAY, 1 - leader, int(state.plays[row, 2 * t + 1])),
            ]
        return moves

    def play_reference(
        self, state: GameState, row: int, rules: RoundsRules, players: Sequence[Any]
    ) -> GameRecord:
        """Row `row`'s game (the same deck, stage shuffles, first dealer and match totals)."""
        deck, shuffles = deal_of(state, row)
        scores = (int(state.scores[row, 0]), int(state.scores[row, 1]))
        return reference.play_game(
            int(state.first_dealer[row]), deck, shuffles, rules, players, scores=scores
        )

    def outcomes(self, state: GameState, rules: RoundsRules) -> np.ndarray:
        """`GameRecord.outcome` for every row of a finished state, (n, 22)."""
        per_stage = np.concatenate([state.stage_score, state.tricks], axis=2).reshape(len(state), -1)
        return np.column_stack([state.points, per_stage]).astype(np.int64)

    def hidden_variant(self, state: GameState, rng: np.random.Generator) -> GameState:
        """The opponent's lowest card and the top card of the stock (both unseen by the player to move) change
        places, where the stock holds a card."""
        out = dataclasses.replace(state, hands=state.hands.copy(), stock=state.stock.copy())
        ar = np.arange(len(state))
        other = 1 - state.turn
        hand = state.hands[ar, other]
        top = state.stock[:, 0]
        swap = (hand != 0) & (top >= 0)
        low = hand & (~hand + np.uint64(1))
        low_card = np.where(swap, np.log2(np.maximum(low, 1).astype(np.float64)).astype(np.int8), -1)
        top_bit = np.left_shift(np.uint64(1), np.maximum(top, 0).astype(np.uint64))
        swap &= (hand & top_bit) == 0
        out.hands[ar, other] = np.where(swap, hand ^ low ^ top_bit, hand)
        out.stock[:, 0] = np.where(swap, low_card, top)
        return out

    # --- what the per-game table comes to ------------------------------------------------------------------
    def summarize_deals(self, deals: pd.DataFrame) -> dict[str, Any]:
        return summary.summarize(deals)

    def render_deals(self, summary_: dict[str, Any]) -> list[Any]:
        return summary.render(summary_)

    def deal_measures(self, deals: pd.DataFrame, side: int) -> list[Measure]:
        return measures.measures(deals, side)


def deal_of(state: GameState, row: int) -> tuple[list[int], list[list[int]]]:
    """The deck and the four stage shuffles row `row` was dealt with."""
    shuffles = [state.shuffles[row, _SHUFFLE_AT[k] : _SHUFFLE_AT[k + 1]].tolist() for k in range(4)]
    return state.deck[row].tolist(), shuffles


def match_winner(totals: np.ndarray, target: int) -> np.ndarray:
    """After a game: the player who has won the match, or -1. At the target wins; both there: the higher
    total; equal totals: nobody yet (another game)."""
    reached = (totals >= target).any(axis=1)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, -1))
    return np.where(reached, won, -1).astype(np.int8)


class Matches(TargetSeries[GameState]):
    """Rounds matches to `rules.target`: match k's first game is first dealt by player k % 2, and the first
    dealer of each next game is the other player."""

    max_deals = 1000  # only equal totals prolong a match

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> GameState:
        deck, shuffles = core.draw(rng, len(self.matches))
        return core.new_games(
            self.matches[active],
            self.first_dealer[active] ^ (played[active] & 1).astype(np.int8),
            deck[active],
            shuffles[active],
            self.rules,
            scores=self.totals[active],
        )

    def winners(self, active: np.ndarray, out: GameState) -> np.ndarray:
        return match_winner(self.totals[active], self.rules.target)


GAME = Rounds()
