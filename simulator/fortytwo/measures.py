"""Per-deal measures of a Forty-two run, for tuning sweeps and paired comparisons.

A deal is a hand (unit `deal`) or a whole game to the target (unit `match`); measures over hands are sums over a
game's hands in the second case, so deals stay the independent unit and arms pair deal by deal."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.fortytwo import quality as play_quality
from simulator.fortytwo.dominoes import SIDES
from simulator.stats import Measure


def measures(tables: dict[str, pd.DataFrame], unit: str, side: int = 0) -> list[Measure]:
    """`side` is the side whose point of view margins and wins take (0 = N-S, 1 = E-W)."""
    hands = tables["deals"]
    me, them = ("ns", "ew") if side == 0 else ("ew", "ns")
    played = ~hands["thrown_in"].to_numpy()
    made = hands["made"].fillna(False).to_numpy(bool)
    decl_side = hands["declarer"].isin(["E", "W"]).to_numpy().astype(int)
    score = {s: hands[f"score_{s}"].to_numpy(float) for s in ("ns", "ew")}
    decl_score = np.where(decl_side == 0, score["ns"], score["ew"])
    def_score = np.where(decl_side == 0, score["ew"], score["ns"])
    mine = played & (decl_side == side)
    per_hand = {
        "hands": np.ones(len(hands)),
        "thrown_in": (~played).astype(float),
        "played": played.astype(float),
        "made": made.astype(float),
        "margin": score[me] - score[them],
        "swing": np.where(played, decl_score - def_score, 0.0),
        "mine": mine.astype(float),
        "mine_made": (made & mine).astype(float),
    }
    quality = "gave_away_ns" in hands  # `--measure play-quality`: points given away against double-dummy play
    if quality:
        declarers_gave, defenders_gave = (v.astype(float) for v in play_quality.by_role(hands))
        per_hand |= {
            "declarers_gave": np.where(played, declarers_gave, 0.0),
            "defenders_gave": np.where(played, defenders_gave, 0.0),
            "side_gave": np.where(played, np.where(decl_side == side, declarers_gave, defenders_gave), 0.0),
            "made_perfect": (played & hands["made_perfect"].fillna(False).to_numpy(bool)).astype(float),
        }
    if unit == "match":
        games = tables["matches"]
        keys = hands["match"].to_numpy()
        index = pd.Index(games["match"].to_numpy())
        per = {
            k: np.bincount(index.get_indexer(keys), weights=v, minlength=len(index))
            for k, v in per_hand.items()
        }
    else:
        per = per_hand
    name = SIDES[side]
    out = [
        Measure("thrown in", per["thrown_in"], per["hands"], binary=True),
        Measure("contract success", per["made"], per["played"], binary=True),
        Measure(f"{name} contract success", per["mine_made"], per["mine"], binary=True, better="higher"),
        Measure("score swing per contract", per["swing"], per["played"]),
        Measure(f"{name} score margin per hand", per["margin"], per["hands"], better="higher"),
    ]
    if quality:
        out += [
            Measure(
                f"{name} points given away per played hand", per["side_gave"], per["played"], better="lower"
            ),
            Measure("declaring side's points given away per contract", per["declarers_gave"], per["played"]),
            Measure("defenders' points given away per contract", per["defenders_gave"], per["played"]),
            Measure("contracts makeable with perfect play", per["made_perfect"], per["played"], binary=True),
        ]
    if unit == "match":
        games = tables["matches"]
        decided = games["winner"].notna().to_numpy()
        out += [
            Measure("hands per game", games["deals"].to_numpy(float)),
            Measure(
                f"{name} wins",
                (games["winner"] == name).to_numpy(float),
                decided.astype(float),
                binary=True,
                better="higher",
            ),
            Measure(
                "first dealer's side wins",
                games["first_dealer_side_won"].fillna(False).to_numpy(float),
                decided.astype(float),
                binary=True,
            ),
        ]
    return out
