"""Rounds' per-game table: one row per finished game, with its stages side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.rounds import core
from simulator.rounds.fifth import LET_THROUGH, NO_CHOICE, OPPONENT_TOOK, TOOK, fifth_trick_calls
from simulator.rounds.rules import RoundsRules
from simulator.rounds.view import N_STAGES

if TYPE_CHECKING:
    import pandas as pd

# How a stage's fifth trick was decided (simulator.rounds.fifth), by name; categories in the order of its
# codes, so `.cat.codes` gives the code; missing where the stage was not at stake at trick 5.
_CALL_WORDS = {
    OPPONENT_TOOK: "opponent_took",
    LET_THROUGH: "let_through",
    TOOK: "took",
    NO_CHOICE: "no_choice",
}
FIFTH_CALLS = tuple(_CALL_WORDS[code] for code in sorted(_CALL_WORDS))


def game_table(s: core.GameState, rules: RoundsRules) -> pd.DataFrame:
    """One row per finished game: scores per player and stage, sweeps, and who took the tricks."""
    import pandas as pd

    cols: dict[str, object] = {
        "deal": s.deal,
        "first_dealer": s.first_dealer,
        "points_0": s.points[:, 0],
        "points_1": s.points[:, 1],
    }
    # (n, 5) per stage, whole stages at once: each column below is one stage's slice
    stage_dealer = np.stack(
        [
            s.first_dealer if rules.dealer_rotation == "game" else s.first_dealer ^ (k & 1)
            for k in range(N_STAGES)
        ],
        axis=1,
    ).astype(bool)  # player 1 deals
    tricks, taken, score = s.tricks, s.taken, s.stage_score
    sweeper = np.where(tricks[:, :, 0] == 5, 0, np.where(tricks[:, :, 1] == 5, 1, -1)).astype(np.int8)
    # the card points the sweeper took, which the sweep bonus replaced
    swept_cards = np.where(sweeper == 1, taken[:, :, 1], np.where(sweeper == 0, taken[:, :, 0], -1)).astype(
        np.int16
    )
    dealer_tricks = np.where(stage_dealer, tricks[:, :, 1], tricks[:, :, 0])
    dealer_points = np.where(stage_dealer, score[:, :, 1], score[:, :, 0])
    leader_took = s.trick_winners.reshape(len(s), N_STAGES, 5) == s.trick_leaders.reshape(len(s), N_STAGES, 5)
    leader_tricks = sum(leader_took[:, :, t].view(np.int8) for t in range(5))
    calls = fifth_trick_calls(s.dealt, s.plays, s.trick_winners, s.faces, rules.rank_trumps)
    for k in range(N_STAGES):
        cols |= {
            f"s{k + 1}_points_0": score[:, k, 0],
            f"s{k + 1}_points_1": score[:, k, 1],
            f"s{k + 1}_sweep": sweeper[:, k],
            f"s{k + 1}_swept_cards": swept_cards[:, k],
            # a sweep that scored less than the cards it took would have
            f"s{k + 1}_short_sweep": (sweeper[:, k] >= 0) & (swept_cards[:, k] > rules.sweep_bonus),
            f"s{k + 1}_first4": s.first4[:, k],
            f"s{k + 1}_fifth_points": s.fifth[:, k],
            # how trick 5 was decided when one player took tricks 1-4, else missing
            f"s{k + 1}_fifth_call": pd.Categorical.from_codes(calls[:, k], categories=list(FIFTH_CALLS)),
            f"s{k + 1}_dealer_tricks": dealer_tricks[:, k],
            f"s{k + 1}_leader_tricks": leader_tricks[:, k],
            f"s{k + 1}_dealer_points": dealer_points[:, k],
        }
    return pd.DataFrame(cols)
