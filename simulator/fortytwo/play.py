"""Forty-two runs: the per-hand table, and games to the target (the contract's matches)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.contract import BatchCore
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    CALL,
    DECLARATION_NAMES,
    DONE,
    KIND_NAMES,
    NELLO,
    PLUNGE,
    SEVENS,
    SPLASH,
    TRUMP,
    call_name,
)

MAX_THROWN_IN_A_ROW = 100


def action_name(kind: int, a: int) -> str:
    return call_name(a) if kind == CALL else (f"names {DECLARATION_NAMES[a]}" if kind == TRUMP else D.name(a))


def _seat_column(codes: np.ndarray) -> pd.Categorical:
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=list(D.SEATS))


def _missing_where(values: np.ndarray, missing: np.ndarray, dtype: str):
    out = pd.array(values, dtype=dtype)
    out[missing] = pd.NA
    return out


def hand_table(s: core.HandState, rules: FortyTwoRules) -> pd.DataFrame:
    """One row per finished hand. Declarer, bid, trump and made are missing when the hand was thrown in."""
    score, made = core.hand_scores(s, rules)
    thrown_in = s.high == 0
    bid = s.bid
    decl = s.high_bidder
    return pd.DataFrame(
        {
            "deal": s.deal,
            "dealer": _seat_column(s.dealer),
            "declarer": _seat_column(np.where(thrown_in, -1, decl)),
            "bid": _missing_where(bid, thrown_in, "Int16"),
            "trump": _missing_where(s.trump, thrown_in, "Int8"),
            "points_ns": s.points[:, 0],
            "points_ew": s.points[:, 1],
            "score_ns": score[:, 0],
            "score_ew": score[:, 1],
            "made": _missing_where(made, thrown_in, "boolean"),
            "thrown_in": thrown_in,
            "calls": s.n_calls,
            # what kind of contract was played: a bid (with a pip, doubles or no-trump), or a special one
            "contract": pd.Categorical.from_codes(_contract_code(s, thrown_in), categories=list(CONTRACTS)),
            **_contract_hands(s, thrown_in),
        }
    )


CONTRACTS = ("bid", "nello", "sevens", "plunge", "splash")


def _contract_code(s: core.HandState, thrown_in: np.ndarray) -> np.ndarray:
    code = np.select(
        [s.high == PLUNGE, s.high == SPLASH, s.trump == NELLO, s.trump == SEVENS], [3, 4, 1, 2], 0
    )
    return np.where(thrown_in, -1, code).astype(np.int8)


def _contract_hands(s: core.HandState, thrown_in: np.ndarray) -> dict[str, pd.api.extensions.ExtensionArray]:
    """What the declaring side held as dealt, with the named trump: the features a bidder weighs."""
    ar = np.arange(len(s))
    decl = np.maximum(s.high_bidder, 0)
    trump_bits = D.TRUMP_BITS[np.maximum(s.ctx, 0)]
    declarer, partner = s.dealt[ar, decl], s.dealt[ar, (decl + 2) & 3]
    exposed = (
        D.COUNT_BITS & ~D.DOUBLE_BITS & ~trump_bits
    )  # count that an opponent's trump or double can catch
    features = {
        "declarer_trumps": np.bitwise_count(declarer & trump_bits),
        "declarer_doubles": np.bitwise_count(declarer & D.DOUBLE_BITS),
        "declarer_exposed": np.bitwise_count(declarer & exposed),
        "partner_trumps": np.bitwise_count(partner & trump_bits),
        "side_trumps": np.bitwise_count((declarer | partner) & trump_bits),
        "side_doubles": np.bitwise_count((declarer | partner) & D.DOUBLE_BITS),
        "side_count": np.bitwise_count((declarer | partner) & D.COUNT_BITS),
    }
    return {name: _missing_where(v.astype(np.int8), thrown_in, "Int8") for name, v in features.items()}


def _deal(rng: np.random.Generator, deals: np.ndarray, rules: FortyTwoRules) -> core.HandState:
    return core.deal(rng, deals)


CORE = BatchCore(
    deal=_deal,
    inputs=core.inputs,
    packed_inputs=core.packed_inputs,
    apply=core.apply,
    table=hand_table,
    done=DONE,
    kind_names=KIND_NAMES,
    action_name=action_name,
)


def game_winner(totals: np.ndarray, declarer: np.ndarray, target: int) -> np.ndarray:
    """After a hand: the side (0 N-S, 1 E-W) that has won the game, or -1. A side at the target wins; both
    there: the higher total; equal totals: the side that declared this hand."""
    reached = (totals >= target).any(axis=1)
    decl_side = np.where(declarer >= 0, declarer & 1, 0)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, decl_side))
    return np.where(reached, won, -1).astype(np.int8)


class Games:
    """Forty-two's games to `rules.target` (the contract's matches): game k is first dealt by seat k % 4,
    the deal passes to the left after each hand, and the hand's score adds to its side's total."""

    # No rule forces a bid, so strategies that always pass would never finish: a game is abandoned (no
    # winner) after this many hands in a row are thrown in, or after max_deals hands in all.
    max_thrown_in_a_row = MAX_THROWN_IN_A_ROW
    max_deals = 10_000

    def __init__(self, games: np.ndarray, rules: FortyTwoRules):
        n = len(games)
        self.games, self.rules = games, rules
        self.dealer = (games % 4).astype(np.int8)
        self.first_dealer = self.dealer.copy()
        self.totals = np.zeros((n, 2), np.int32)
        self.winner = np.full(n, -1, np.int8)
        self.thrown_in_a_row = np.zeros(n, np.int32)

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> core.HandState:
        dealt = core.shuffled_hands(rng, len(self.games))[active]
        return core.new_hands(self.games[active], self.dealer[active], dealt, scores=self.totals[active])

    def record(self, active: np.ndarray, out: core.HandState, table: pd.DataFrame) -> np.ndarray:
        score, _ = core.hand_scores(out, self.rules)
        self.totals[active] += score
        table["total_ns"], table["total_ew"] = self.totals[active, 0], self.totals[active, 1]
        self.dealer[active] = (self.dealer[active] + 1) & 3
        target = self.rules.target_marks if self.rules.scoring == "marks" else self.rules.target
        won = game_winner(self.totals[active], out.high_bidder, target)
        reached = won >= 0
        self.winner[active[reached]] = won[reached]
        self.thrown_in_a_row[active] = np.where(out.high == 0, self.thrown_in_a_row[active] + 1, 0)
        return reached | (self.thrown_in_a_row[active] >= self.max_thrown_in_a_row)

    def table(self, played: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "match": self.games,
                "first_dealer": _seat_column(self.first_dealer),
                "deals": played,
                "winner": pd.Categorical.from_codes(self.winner, categories=list(D.SIDES)),
                "final_ns": self.totals[:, 0],
                "final_ew": self.totals[:, 1],
                "first_dealer_side_won": _missing_where(
                    self.winner == (self.first_dealer & 1), self.winner < 0, "boolean"
                ),
            }
        )
