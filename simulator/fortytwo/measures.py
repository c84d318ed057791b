"""The measures of Forty-two's per-hand table, for tuning sweeps and paired comparisons: one numerator and
denominator per hand, which the game contract sums per unit (a hand, or a whole game to the target), so the
unit stays what pairs arms deal by deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.fortytwo import quality as play_quality
from simulator.fortytwo.dominoes import SIDES
from simulator.fortytwo.tables import score_column
from simulator.stats import Measure

if TYPE_CHECKING:
    import pandas as pd


def measures(hands: pd.DataFrame, side: int = 0) -> list[Measure]:
    """`side` is the side whose point of view margins and wins take (0 = NS, 1 = EW)."""
    me, them = ("ns", "ew") if side == 0 else ("ew", "ns")
    played = ~hands["thrown_in"].to_numpy()
    made = hands["made"].fillna(False).to_numpy(bool)
    decl_side = hands["declarer"].isin(["E", "W"]).to_numpy().astype(int)
    score = {s: hands[score_column(hands, s)].to_numpy(float) for s in ("ns", "ew")}
    decl_score = np.where(decl_side == 0, score["ns"], score["ew"])
    def_score = np.where(decl_side == 0, score["ew"], score["ns"])
    mine = played & (decl_side == side)
    each = np.ones(len(hands))
    name = SIDES[side]
    out = [
        Measure("thrown in", (~played).astype(float), each, binary=True),
        Measure("contract success", made.astype(float), played.astype(float), binary=True),
        Measure(
            f"{name} contract success",
            (made & mine).astype(float),
            mine.astype(float),
            binary=True,
            better="higher",
        ),
        Measure(
            "score swing per contract", np.where(played, decl_score - def_score, 0.0), played.astype(float)
        ),
        Measure(f"{name} score margin per hand", score[me] - score[them], each, better="higher"),
    ]
    if "gave_away_ns" in hands:  # `--measure play-quality`: points given away against double-dummy play
        declarers_gave, defenders_gave = (v.astype(float) for v in play_quality.by_role(hands))
        side_gave = np.where(played, np.where(decl_side == side, declarers_gave, defenders_gave), 0.0)
        made_perfect = (played & hands["made_perfect"].fillna(False).to_numpy(bool)).astype(float)
        out += [
            Measure(
                f"{name} points given away per played hand", side_gave, played.astype(float), better="lower"
            ),
            Measure(
                "declaring side's points given away per contract",
                np.where(played, declarers_gave, 0.0),
                played.astype(float),
            ),
            Measure(
                "defenders' points given away per contract",
                np.where(played, defenders_gave, 0.0),
                played.astype(float),
            ),
            Measure("contracts makeable with perfect play", made_perfect, played.astype(float), binary=True),
        ]
    return out
