"""Forty-two runs: a chunk of single hands or of whole games to the target, and their per-hand tables."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from simulator import driver
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_VALUE, DONE, KIND_NAMES, TRUMP, call_name

CORE = driver.CoreSpec(
    inputs=core.inputs, apply=core.apply, done=DONE, kind_names=KIND_NAMES, seat_names=D.SEATS,
    action_name=lambda kind, a: call_name(a) if kind == 0 else (f"trump {a}" if kind == TRUMP else D.name(a)))

# A game is abandoned (no winner) after this many hands in a row are thrown in: no rule forces a bid, so
# strategies that always pass would never finish.
MAX_THROWN_IN_A_ROW = 100


def play_hands(rng: np.random.Generator, rngs: list[np.random.Generator], deals: np.ndarray,
               rules: FortyTwoRules, strategies: list) -> core.HandState:
    """Deal and play one hand per deal number; the finished states in deal order."""
    return driver.play(CORE, core.deal(rng, deals), rules, strategies, rngs)


def _seat_column(codes: np.ndarray) -> pd.Categorical:
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=list(D.SEATS))


def _missing_where(values: np.ndarray, missing: np.ndarray, dtype: str):
    out = pd.array(values, dtype=dtype)
    out[missing] = pd.NA
    return out


def hand_table(s: core.HandState, rules: FortyTwoRules) -> pd.DataFrame:
    """One row per finished hand. Declarer, bid, trump and made are missing when the hand was thrown in."""
    score, made = core.hand_scores(s)
    thrown_in = s.high == 0
    bid = BID_VALUE[s.high].astype(np.int16)
    decl = s.high_bidder
    return pd.DataFrame({
        "deal": s.deal,
        "dealer": _seat_column(s.dealer),
        "declarer": _seat_column(np.where(thrown_in, -1, decl)),
        "bid": _missing_where(bid, thrown_in, "Int16"),
        "trump": _missing_where(s.trump, thrown_in, "Int8"),
        "points_ns": s.points[:, 0], "points_ew": s.points[:, 1],
        "score_ns": score[:, 0], "score_ew": score[:, 1],
        "made": _missing_where(made, thrown_in, "boolean"),
        "thrown_in": thrown_in,
        "calls": s.n_calls,
        **_contract_hands(s, thrown_in),
    })


def _contract_hands(s: core.HandState, thrown_in: np.ndarray) -> dict[str, pd.api.extensions.ExtensionArray]:
    """What the declaring side held as dealt, with the named trump: the features a bidder weighs."""
    ar = np.arange(len(s))
    decl = np.maximum(s.high_bidder, 0)
    trump_bits = D.PIP_BITS[np.maximum(s.trump, 0)]
    declarer, partner = s.dealt[ar, decl], s.dealt[ar, (decl + 2) & 3]
    exposed = D.COUNT_BITS & ~D.DOUBLE_BITS & ~trump_bits  # count that an opponent's trump or double can catch
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


def game_winner(totals: np.ndarray, declarer: np.ndarray, target: int) -> np.ndarray:
    """After a hand: the side (0 N-S, 1 E-W) that has won the game, or -1. A side at the target wins; both
    there: the higher total; equal totals: the side that declared this hand."""
    reached = (totals >= target).any(axis=1)
    decl_side = np.where(declarer >= 0, declarer & 1, 0)
    won = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, decl_side))
    return np.where(reached, won, -1).astype(np.int8)


def play_games(rng: np.random.Generator, rngs: list[np.random.Generator], games: np.ndarray,
               rules: FortyTwoRules, strategies: list,
               on_hands: Callable[[np.ndarray, core.HandState], None] | None = None,
               ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole games to `rules.target`, one per game number: the per-hand table (with `game` and `hand`
    columns and the totals after each hand) and the per-game table. Each round of hands, one for every
    unfinished game, is played as one batch; `on_hands(games_in_round, finished_states)` sees each."""
    n = len(games)
    dealer = (games % 4).astype(np.int8)  # the first dealer of game k is seat k % 4
    first_dealer = dealer.copy()
    totals = np.zeros((n, 2), np.int32)
    hands_played = np.zeros(n, np.int32)
    winner = np.full(n, -1, np.int8)
    thrown_in_a_row = np.zeros(n, np.int32)
    active = np.arange(n)
    parts = []
    while len(active):
        # Every round deals a hand to every game of the chunk, finished or not, so that hand j of game k is
        # the same whatever happened in other games: arms of a comparison then share their deals.
        dealt = core.shuffled_hands(rng, n)[active]
        state = core.new_hands(games[active], dealer[active], dealt, scores=totals[active])
        out = driver.play(CORE, state, rules, strategies, rngs)
        if on_hands is not None:
            on_hands(games[active], out)
        score, _ = core.hand_scores(out)
        totals[active] += score
        table = hand_table(out, rules).rename(columns={"deal": "game"})
        table.insert(1, "hand", hands_played[active] + 1)
        table["total_ns"], table["total_ew"] = totals[active, 0], totals[active, 1]
        parts.append(table)
        hands_played[active] += 1
        dealer[active] = (dealer[active] + 1) & 3
        won = game_winner(totals[active], out.high_bidder, rules.target)
        reached = won >= 0
        winner[active[reached]] = won[reached]
        thrown_in_a_row[active] = np.where(out.high == 0, thrown_in_a_row[active] + 1, 0)
        over = reached | (thrown_in_a_row[active] >= MAX_THROWN_IN_A_ROW)
        active = active[~over]
    hands = pd.concat(parts, ignore_index=True).sort_values(["game", "hand"], ignore_index=True)
    per_game = pd.DataFrame({
        "game": games, "first_dealer": _seat_column(first_dealer), "hands": hands_played,
        "winner": pd.Categorical.from_codes(winner, categories=list(D.SIDES)),
        "final_ns": totals[:, 0], "final_ew": totals[:, 1],
        "first_dealer_side_won": _missing_where(winner == (first_dealer & 1), winner < 0, "boolean"),
    })
    return hands, per_game
