"""Forty-two's per-hand table: one row per finished hand, with what the declaring side held.

What a player reads is written in words: seats as N/E/S/W, what was named (`trump`) as the rules' words
(blanks .. sixes, doubles, no-trump, nello, sevens, categories in the order of the TRUMP actions, so
`.cat.codes` is the action), the kind of contract by name. The hand's score says its unit in its name:
`score_points_<side>` under points scoring, `score_marks_<side>` under marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import DECLARATION_NAMES, NELLO, PLUNGE, SEVENS, SPLASH

SCORE_UNITS = ("points", "marks")

if TYPE_CHECKING:
    import pandas as pd


def _seat_column(codes: np.ndarray) -> pd.Categorical:
    import pandas as pd

    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int8), categories=list(D.SEATS))


def score_unit(rules: FortyTwoRules) -> str:
    """What a hand's score is counted in: points, or marks under marks scoring."""
    return "marks" if rules.scoring == "marks" else "points"


def score_column(deals: pd.DataFrame, side: str) -> str:
    """The name of side `side`'s (ns, ew) score column in a per-hand table, whichever its unit."""
    for unit in SCORE_UNITS:
        if f"score_{unit}_{side}" in deals:
            return f"score_{unit}_{side}"
    raise KeyError(f"no score column for side {side} in {list(deals.columns)}")


def _named(codes: np.ndarray, names: tuple[str, ...], missing: np.ndarray) -> pd.Categorical:
    """A category of `names` from their codes, missing where `missing`."""
    import pandas as pd

    return pd.Categorical.from_codes(np.where(missing, -1, codes).astype(np.int8), categories=list(names))


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
    unit = score_unit(rules)
    return pd.DataFrame(
        {
            "deal": s.deal,
            "dealer": _seat_column(s.dealer),
            "declarer": _seat_column(np.where(thrown_in, -1, decl)),
            "bid": _missing_where(bid, thrown_in, "Int16"),
            "trump": _named(s.trump, DECLARATION_NAMES, thrown_in),
            "points_ns": s.points[:, 0],
            "points_ew": s.points[:, 1],
            f"score_{unit}_ns": score[:, 0],
            f"score_{unit}_ew": score[:, 1],
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
