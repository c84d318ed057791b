"""Forty-two as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.batch import Rows
from simulator.contract import Game, Move, Sizes
from simulator.fortytwo import analyze, core, measures, quality, reference, summary, tables
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.core import HandState
from simulator.fortytwo.reference import HandRecord
from simulator.fortytwo.rules import PRESETS, FortyTwoRules
from simulator.fortytwo.view import (
    CALL,
    DECLARATION_NAMES,
    KIND_NAMES,
    N_ACTIONS,
    PLAY,
    PLUNGE,
    SPLASH,
    TRUMP,
    FortyTwoView,
    call_name,
)
from simulator.series import TargetSeries
from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd


class FortyTwo(Game[FortyTwoRules, HandState, FortyTwoView, HandRecord]):
    name = "forty-two"
    # the learned strategy: stronger than the heuristic in games won and points given away, and fast enough
    # for studies of hundreds of thousands of hands (docs/games/forty-two.md)
    study_strategy = "learned"
    title = (
        "Forty-two: dominoes, four players in two partnerships, bids 30..42, 84, 168, game to 250 (or "
        "Texas 42 to 7 marks)"
    )
    rules_cls = FortyTwoRules
    presets = PRESETS
    words = {"deal": "hand", "match": "game"}
    default_unit = "deal"
    kind_names = KIND_NAMES
    n_actions = N_ACTIONS
    groups = {"NS": (0, 2), "EW": (1, 3)}
    default_chunk = {"deal": 25_000, "match": 2_500}
    check_sizes = Sizes(deals=120, matches=4)
    check_rules = {
        "seed": PRESETS["seed"],
        "texas": PRESETS["texas"],
        "texas-house": PRESETS["texas-house"],
        "seed-jump-28": {"jump_bids": True, "min_bid": 28},
    }
    yardstick = "yardstick42.py"
    analysis = analyze.ANALYSIS
    extra_columns = {"play-quality": quality.play_quality}

    # --- the batched core ---------------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator, deals: np.ndarray, rules: FortyTwoRules) -> HandState:
        return core.deal(rng, deals)

    def inputs(
        self, state: HandState, rows: Rows, kind: int, rules: FortyTwoRules
    ) -> tuple[FortyTwoView, np.ndarray]:
        return core.inputs(state, rows, kind, rules)

    def packed_inputs(
        self, state: HandState, rows: Rows, kind: int, rules: FortyTwoRules
    ) -> tuple[FortyTwoView, np.ndarray, int]:
        return core.packed_inputs(state, rows, kind, rules)

    def apply(
        self, state: HandState, rows: Rows, kind: int, actions: np.ndarray, rules: FortyTwoRules
    ) -> None:
        core.apply(state, rows, kind, actions, rules)

    def table(self, state: HandState, rules: FortyTwoRules) -> pd.DataFrame:
        return tables.hand_table(state, rules)

    def action_name(self, kind: int, action: int) -> str:
        if kind == CALL:
            return call_name(action)
        return f"names {DECLARATION_NAMES[action]}" if kind == TRUMP else D.name(action)

    def scores(self, state: HandState, rules: FortyTwoRules) -> np.ndarray:
        return core.hand_scores(state, rules)[0]

    def seat_names(self, rules: FortyTwoRules) -> Sequence[str]:
        return D.SEATS

    def match_target(self, rules: FortyTwoRules) -> tuple[int, str]:
        """What a game is played to, and in what: 250 points, or 7 marks under marks scoring."""
        return reference.match_target(rules), tables.score_unit(rules)

    def series(self, matches: np.ndarray, rules: FortyTwoRules) -> Games:
        return Games(self, matches, rules)

    # --- the reference engine ----------------------------------------------------------------------------
    def moves(self, state: HandState, row: int) -> list[Move]:
        moves = []
        seat = (int(state.dealer[row]) + 1) & 3
        for k in range(int(state.n_calls[row])):
            moves.append((CALL, seat, int(state.calls[row, k])))
            seat = (seat + 1) & 3
        if state.high[row] > 0:
            declarer = int(state.high_bidder[row])
            # a plunge's or splash's partner names
            namer = (declarer + 2) & 3 if state.high[row] in (PLUNGE, SPLASH) else declarer
            moves.append((TRUMP, namer, int(state.trump[row])))
            # Seats of plays follow from the trick winners, which the reference engine works out; here only
            # the order of dominoes is known, so the seat is read off the hand that held each domino.
            for k in range(int(state.n_played[row])):
                d = int(state.plays[row, k])
                holder = int(np.flatnonzero((state.dealt[row] >> np.uint32(d)) & 1)[0])
                moves.append((PLAY, holder, d))
        return moves

    def play_reference(
        self, state: HandState, row: int, rules: FortyTwoRules, players: Sequence[Any]
    ) -> HandRecord:
        hands = [D.bits_to_ids(int(h)) for h in state.dealt[row]]
        scores = (int(state.scores[row, 0]), int(state.scores[row, 1]))
        return reference.play_hand(hands, int(state.dealer[row]), rules, players, scores=scores)

    def outcomes(self, state: HandState, rules: FortyTwoRules) -> np.ndarray:
        """(n, 5): points N-S, E-W, scores N-S, E-W, made (1/0, -1 thrown in), as the reference records."""
        score, made = core.hand_scores(state, rules)
        made = np.where(state.high == 0, -1, made.astype(np.int64))
        return np.column_stack([state.points, score, made]).astype(np.int64)

    def hidden_variant(self, state: HandState, rng: np.random.Generator) -> HandState:
        """Two other seats (the partner may be one) swap their lowest held dominoes, where both hold one:
        every hand the deciding seat cannot see is hidden from it alike."""
        out = dataclasses.replace(state, hands=state.hands.copy())
        ar = np.arange(len(state))
        offsets = np.array([(1, 2), (1, 3), (2, 3)])[rng.integers(0, 3, len(state))]
        a, b = (state.turn + offsets[:, 0]) & 3, (state.turn + offsets[:, 1]) & 3
        ha, hb = state.hands[ar, a], state.hands[ar, b]
        swap = (ha != 0) & (hb != 0)
        la, lb = ha & (~ha + np.uint32(1)), hb & (~hb + np.uint32(1))  # lowest set bits
        out.hands[ar, a] = np.where(swap, ha ^ la ^ lb, ha)
        out.hands[ar, b] = np.where(swap, hb ^ lb ^ la, hb)
        return out

    # --- what the per-hand table comes to ------------------------------------------------------------------
    def summarize_deals(self, deals: pd.DataFrame) -> dict[str, Any]:
        return summary.summarize(deals)

    def render_deals(self, summary_: dict[str, Any]) -> list[Any]:
        return summary.render(summary_)

    def deal_measures(self, deals: pd.DataFrame, side: int) -> list[Measure]:
        return measures.measures(deals, side)


def game_winner(totals: np.ndarray, declarer: np.ndarray, target: int) -> np.ndarray:
    """After a hand: the side (0 N-S, 1 E-W) that has won the game, or -1. A side at the target wins; both
    there: the higher total; equal totals: the side that declared this hand."""
    reached = (totals >= target).any(axis=1)
    decl_side = np.where(declarer >= 0, declarer & 1, 0)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, decl_side))
    return np.where(reached, won, -1).astype(np.int8)


class Games(TargetSeries[HandState]):
    """Forty-two's games to `rules.target` (`target_marks` under marks): game k is first dealt by seat
    k % 4, the deal passes to the left after each hand, and the hand's score adds to its side's total."""

    # No rule forces a bid under all_pass = redeal, so strategies that always pass would never finish: a game
    # is abandoned (no winner) after this many hands in a row are thrown in, or after max_deals hands in all.
    max_idle_in_a_row = 100
    max_deals = reference.MAX_HANDS

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> HandState:
        dealt = core.shuffled_hands(rng, len(self.matches))[active]
        dealer = ((self.first_dealer[active] + played[active]) & 3).astype(np.int8)
        return core.new_hands(self.matches[active], dealer, dealt, scores=self.totals[active])

    def winners(self, active: np.ndarray, out: HandState) -> np.ndarray:
        return game_winner(self.totals[active], out.high_bidder, reference.match_target(self.rules))

    def idle(self, out: HandState) -> np.ndarray:
        return out.high == 0  # thrown in


GAME = FortyTwo()
