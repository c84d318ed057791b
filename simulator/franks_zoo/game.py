"""Frank's Zoo as the machinery sees it: the one `Game` this folder fills in."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.batch import Rows
from simulator.contract import Game, Move, Sizes
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core, measures, summary, tables
from simulator.franks_zoo.core import HandState, held_sets
from simulator.franks_zoo.rules import PRESETS, FranksZooRules
from simulator.franks_zoo.tables import SOURCES
from simulator.franks_zoo.view import ASK, KIND_NAMES, N_ACTIONS, FranksZooView
from simulator.series import TargetSeries
from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd

    from simulator.franks_zoo.reference import HandRecord


# The reference engine is imported where it plays (traces, replays, tests): its tables of which set beats
# which take longer to build than all the rest of the game, and the command line's listings need none of it.
class FranksZoo(Game[FranksZooRules, HandState, FranksZooView, "HandRecord"]):
    name = "franks-zoo"
    title = "Frank's Zoo: cards, 4-7 players, a climbing game, teams from the second hand"
    rules_cls = FranksZooRules
    presets = PRESETS
    words = {"deal": "hand", "match": "game"}
    default_unit = "match"
    kind_names = KIND_NAMES
    n_actions = N_ACTIONS
    phased = False  # a help request and its answer come in the middle of play
    side_word = "seat"
    default_chunk = {"match": 5_000, "deal": 10_000}
    check_sizes = Sizes(deals=24, matches=2)
    check_rules = {
        **{f"{p} players": {"players": p} for p in (4, 5, 6, 7)},
        "rulebook": {"players": 5, "hedgehog_penalty": "missing", "exchange_cards": 3, "lion_min": 1},
        "no-help": {"players": 5, "help": False, "exchange_cards": 0, "solo_bonus": 0},
        # a solo player dealt 8 cards sets them all aside and is out at once
        "solo-out-at-once": {"players": 7, "exchange_cards": 8},
    }
    yardstick = "yardstick_zoo.py"  # benchmarks/yardstick_zoo.py: random play compiled (numba)

    # --- the batched core ---------------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator, deals: np.ndarray, rules: FranksZooRules) -> HandState:
        """The first hand of a game for each deal number (dealer: deal k % players), about to start."""
        p = rules.players
        dealer = (deals % p).astype(np.int8)
        order = np.tile(np.arange(p, dtype=np.int8), (len(deals), 1))
        hands = core.shuffled_hands(rng, dealer, p)
        scores = np.zeros((len(deals), p), np.int32)
        return core.new_hands(deals, np.zeros(len(deals), np.int16), dealer, hands, order, scores, rules)

    def inputs(
        self, state: HandState, rows: Rows, kind: int, rules: FranksZooRules
    ) -> tuple[FranksZooView, np.ndarray]:
        return core.inputs(state, rows, kind, rules)

    def packed_inputs(
        self, state: HandState, rows: Rows, kind: int, rules: FranksZooRules
    ) -> tuple[FranksZooView, np.ndarray, int]:
        return core.packed_inputs(state, rows, kind, rules)

    def apply(
        self, state: HandState, rows: Rows, kind: int, actions: np.ndarray, rules: FranksZooRules
    ) -> None:
        core.apply(state, rows, kind, actions, rules)

    def table(self, state: HandState, rules: FranksZooRules) -> pd.DataFrame:
        return tables.hand_table(state, rules)

    def action_name(self, kind: int, action: int) -> str:
        if kind == 0:
            return f"give {C.KINDS[action]}"
        if action == 0:
            return "pass" if kind == 1 else "decline"
        if kind == 1 and action >= ASK:
            return f"ask for help with {C.set_name(C.PARTIALS[action - ASK])}"
        return C.set_name(C.SETS[action - 1])

    def scores(self, state: HandState, rules: FranksZooRules) -> np.ndarray:
        return core.hand_points(state, rules)["total"]

    def seat_names(self, rules: FranksZooRules) -> Sequence[str]:
        return tuple(str(i) for i in range(rules.players))

    def rows_per_deal(self, rules: FranksZooRules) -> int:
        return rules.players

    def series(self, matches: np.ndarray, rules: FranksZooRules) -> Games:
        return Games(self, matches, rules)

    # --- the reference engine ----------------------------------------------------------------------------
    def moves(self, state: HandState, row: int) -> list[Move]:
        n = int(state.n_moves[row])
        packed = state.moves[row, :n].astype(np.int64)
        kinds, seats, actions = (
            (packed & 0xFF).tolist(),
            (packed >> 8 & 0xFF).tolist(),
            (packed >> 16).tolist(),
        )
        return list(zip(kinds, seats, actions, strict=True))

    def play_reference(
        self, state: HandState, row: int, rules: FranksZooRules, players: Sequence[Any]
    ) -> HandRecord:
        """Row `row`'s hand (the same cards, hand number, dealer, standings and totals)."""
        from simulator.franks_zoo import reference

        return reference.play_hand(
            [h.tolist() for h in state.dealt[row]],
            int(state.hand_no[row]),
            int(state.dealer[row]),
            state.order[row].tolist(),
            state.scores[row].tolist(),
            rules,
            players,
        )

    def outcomes(self, state: HandState, rules: FranksZooRules) -> np.ndarray:
        """`HandRecord.outcome` for every row of a finished state, (n, 8 P)."""
        points = core.hand_points(state, rules)
        return np.column_stack([state.place, *[points[k] for k in (*SOURCES, "total")]]).astype(np.int64)

    def hidden_variant(self, state: HandState, rng: np.random.Generator) -> HandState:
        """Two other seats trade one card each (of different kinds, where both hold cards): each keeps as
        many cards as before, so only what the deciding seat cannot see differs."""
        n, p, k = state.hands.shape
        hands = state.hands.copy()
        ar = np.arange(n)
        a = (state.turn + 1 + rng.integers(0, p - 1, n)) % p
        b = (a + 1 + rng.integers(0, p - 2, n)) % p
        b = np.where(b == state.turn, (b + 1) % p, b)
        b = np.where(b == a, (a + 1) % p, b)
        b = np.where(b == state.turn, (b + 1) % p, b)
        ka = np.argmax(hands[ar, a] > 0, axis=1)  # a's lowest kind held
        kb = k - 1 - np.argmax(hands[ar, b, ::-1] > 0, axis=1)  # b's highest kind held
        swap = (hands[ar, a, ka] > 0) & (hands[ar, b, kb] > 0) & (ka != kb)
        swap &= (a != state.turn) & (b != state.turn) & (a != b)
        rows = ar[swap]
        hands[rows, a[swap], ka[swap]] -= 1
        hands[rows, b[swap], ka[swap]] += 1
        hands[rows, b[swap], kb[swap]] -= 1
        hands[rows, a[swap], kb[swap]] += 1
        sets = held_sets(hands.reshape(n * p, k)).reshape(n, p, -1)
        return dataclasses.replace(state, hands=hands, sets_held=sets)

    # --- what the per-hand table comes to ------------------------------------------------------------------
    def summarize_deals(self, deals: pd.DataFrame) -> dict[str, Any]:
        return summary.summarize(deals)

    def render_deals(self, summary_: dict[str, Any]) -> list[Any]:
        return summary.render(summary_)

    def deal_measures(self, deals: pd.DataFrame, side: int) -> list[Measure]:
        return measures.measures(deals, side)


class Games(TargetSeries[HandState]):
    """Frank's Zoo games: game k's first hand is dealt by seat k % players, each next hand by the player first
    in the standings; a game ends when `end_players` players reach the target, won by the first in the
    standings."""

    max_deals = 200  # a guard only: games end within about a dozen hands

    def __init__(self, game: FranksZoo, matches: np.ndarray, rules: FranksZooRules):
        super().__init__(game, matches, rules)
        self.order = np.tile(np.arange(rules.players, dtype=np.int8), (len(matches), 1))

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> HandState:
        hand_no = played[active].astype(np.int16)
        dealer = np.where(hand_no == 0, self.first_dealer[active], self.order[active, 0]).astype(np.int8)
        all_dealers = np.zeros(len(self.matches), np.int8)
        all_dealers[active] = dealer
        dealt = core.shuffled_hands(rng, all_dealers, self.rules.players, active)
        return core.new_hands(
            self.matches[active], hand_no, dealer, dealt, self.order[active], self.totals[active], self.rules
        )

    def booked(self, active: np.ndarray, out: HandState) -> None:
        self.order[active] = core.standings(self.totals[active], self.order[active])

    def running_totals(self, active: np.ndarray, deals: pd.DataFrame) -> None:
        """Each player's total after the hand, on the player's row."""
        deals["total_after"] = self.totals[active].ravel()

    def winners(self, active: np.ndarray, out: HandState) -> np.ndarray:
        over = (self.totals[active] >= self.rules.target).sum(axis=1) >= self.rules.end_players
        return np.where(over, self.order[active, 0], -1).astype(np.int8)


GAME = FranksZoo()
