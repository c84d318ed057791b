"""Forty-two's per-hand table: one row per finished hand, with what the declaring side held."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import NELLO, PLUNGE, SEVENS, SPLASH

if TYPE_CHECKING:
    import pandas as pd


def _seat_column(codes: np.ndarray) -> pd.Categorical:
    import pandas as pd

    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=list(D.SEATS))


def _missing_where(values: np.ndarray, missing: np.ndarray, dtype: str):
    import pandas as pd

    out = pd.array(values, dtype=dtype)
    out[missing] = pd.NA
    return out


def hand_table(s: core.HandState, rules: FortyTwoRules) -> pd.DataFrame:
    """One row per finished hand. Declarer, bid, trump and made are missing when the hand was thrown in."""
    import pandas as pd

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
