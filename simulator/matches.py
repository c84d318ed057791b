"""The one match loop: deals played in rounds until each match of a chunk reaches the rules' target.

Each round deals the next deal of every match still going (the game's `TargetSeries` draws for all matches
of the chunk, so deal j of match k is the same in every arm of a comparison), plays the whole round as one
batch through the driver, and lets the series book it. Any game gets matches, their tables and their traces
from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator import driver
from simulator.contract import Game

if TYPE_CHECKING:
    import pandas as pd


def play_matches(
    game: Game,
    rng: np.random.Generator,
    rngs: Sequence[np.random.Generator],
    matches: np.ndarray,
    rules: Any,
    strategies: Sequence[Any],
    on_deals: Callable[[np.ndarray, Any], None] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole matches, one per match number: the per-deal table (with `match`, `number` and the running
    totals) and the per-match table. `on_deals(match numbers, finished states)` sees every round."""
    import pandas as pd

    series = game.series(matches, rules)
    rows = game.rows_per_deal(rules)
    played = np.zeros(len(matches), np.int32)
    active = np.arange(len(matches))
    parts = []
    while len(active):
        state = series.deal(rng, active, played)
        out = driver.play(game, state, rules, strategies, rngs)
        if on_deals is not None:
            on_deals(matches[active], out)
        table = game.table(out, rules).rename(columns={"deal": "match"})
        table.insert(1, "number", np.repeat(played[active] + 1, rows))
        over = series.record(active, out, table)
        parts.append(table)
        played[active] += 1
        active = active[~over & (played[active] < series.max_deals)]
    deals = pd.concat(parts, ignore_index=True).sort_values(
        ["match", "number"], kind="stable", ignore_index=True
    )
    return deals, series.table(played)
