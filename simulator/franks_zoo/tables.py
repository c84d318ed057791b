"""Frank's Zoo's per-hand table: one row per player and finished hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core
from simulator.franks_zoo.rules import FranksZooRules

if TYPE_CHECKING:
    import pandas as pd

ROLE_NAMES = ("alone", "senior", "junior", "solo")
SOURCES = ("placement", "team", "solo_bonus", "lions", "hedgehog", "last_lions")


def hand_table(s: core.HandState, rules: FranksZooRules) -> pd.DataFrame:
    """One row per player per finished hand: place, role, partner and points by source."""
    import pandas as pd

    n, p = len(s), rules.players
    points = core.hand_points(s, rules)
    help_counts = core.help_counts(s, rules)
    frame = pd.DataFrame(
        {
            "deal": np.repeat(s.deal.astype(np.int32), p),
            "player": np.tile(np.arange(p, dtype=np.int8), n),
            "place": s.place.ravel(),
            "role": pd.Categorical.from_codes(s.role.ravel(), categories=list(ROLE_NAMES)),
            "partner": s.partner.ravel(),
            "dealer": np.repeat(s.dealer, p),
            **{f"points_{k}": points[k].ravel() for k in SOURCES},
            "points": points["total"].ravel(),
            "lions_taken": s.taken[:, :, C.LION].ravel(),
            "hedgehogs_taken": s.taken[:, :, C.HEDGEHOG].ravel(),
            "help_asked": help_counts[:, :, 0].ravel(),
            "help_given": help_counts[:, :, 1].ravel(),
            "help_declined": help_counts[:, :, 2].ravel(),
            "help_won": s.help_won.ravel(),
            "dealt_chameleon": (s.dealt[:, :, C.CHAMELEON] > 0).ravel(),
            "led_first": (np.arange(p)[None, :] == s.first_leader[:, None]).ravel(),
            "total_before": s.scores.ravel(),
        }
    )
    return frame
